"""The sufficient statistics of the confusion family and their intermediates (:class:`ConfusionSums`).

A snapshot of any forgetting mechanism (:mod:`streamtk._kernels.confusion.layout`) holds the weight
total ``W``, the member count ``N``, weighted hits ``C``, the Majority Class and Persistent hits,
and the class vectors ``ROW``, ``COL``, ``DIAG``; the formulas of :mod:`.confusion` read the
intermediates computed here once each, on first use.
"""

from __future__ import annotations

import numpy as np

from ..._kernels.confusion.layout import F_BM, F_BMW, F_BP, F_BPW, F_C, F_DEN, F_N, F_Q, F_W
from .base import Sums, intermediate

__all__ = ["ConfusionSums"]


class ConfusionSums(Sums):
    """Intermediates of confusion snapshots ``table`` (rows: the snapshot layout; columns: checkpoints).

    ``empty``: per column, MOA's estimate before anything was observed (0 for its fading
    evaluator, NaN otherwise); only read under ``moa``.
    """

    def __init__(self, table, *, k, quantities=(), moa=False, pos=1, empty=None):
        super().__init__()
        self.table = table
        self.k = k
        self.quantities = tuple(quantities)
        self.nq = len(self.quantities)
        self.moa = moa
        self.pos = pos
        self.empty = np.nan if empty is None else empty

    # -- fields of the snapshot
    @property
    def W(self):
        return self.table[F_W]

    @property
    def N(self):
        return self.table[F_N]

    def quantity_mean(self, name):
        """The weighted mean of the engine's extra per-instance quantity ``name`` (NaN with no member)."""
        total = self.table[F_Q + self.quantities.index(name)]
        if self.moa:
            return total / self.den
        return np.where(self.den != 0.0, total / self.den, np.nan)

    def _rows(self, part):
        r0 = F_Q + self.nq + part * self.k
        return self.table[r0 : r0 + self.k]

    # -- intermediates
    @intermediate
    def nothing_yet(self):
        """MOA: columns where nothing was observed (its kappas are 0 there, its estimates ``empty``)."""
        return self.N == 0.0 if self.moa else np.zeros(self.N.shape, dtype=bool)

    def _moa_empty(self, values):
        return np.where(self.nothing_yet, self.empty, values) if self.moa else values

    @intermediate
    def den(self):
        """The denominator of estimates: ``W`` (MOA: the number of instances)."""
        return self.table[F_DEN]

    @intermediate
    def row(self):
        """``ROW_i``: weight of true class ``i`` (k rows)."""
        return self._rows(0)

    @intermediate
    def col(self):
        """``COL_i``: weight of predicted class ``i`` (k rows)."""
        return self._rows(1)

    @intermediate
    def diag(self):
        """``DIAG_i``: weighted hits of class ``i`` (k rows)."""
        return self._rows(2)

    @intermediate
    def p0(self):
        """Accuracy ``C / W`` (MOA: ``C / N``)."""
        return self._moa_empty(self.table[F_C] / self.den)

    @intermediate
    def p_ran(self):
        """Chance agreement ``sum_i (ROW_i / sum ROW)(COL_i / sum COL)`` (MOA: ``sum_i (ROW_i / N)(COL_i / N)``)."""
        if self.moa:
            pc = np.zeros(self.N.shape)
            for i in range(self.k):
                pc = pc + (self.row[i] / self.den) * (self.col[i] / self.den)
            return self._moa_empty(pc)
        return ((self.row / self.row.sum(axis=0)) * (self.col / self.col.sum(axis=0))).sum(axis=0)

    @intermediate
    def p_maj(self):
        """Accuracy of the Majority Class classifier under the same estimator."""
        return self._moa_empty(self.table[F_BM] / self.table[F_BMW])

    @intermediate
    def p_per(self):
        """Accuracy of the Persistent classifier under the same estimator."""
        return self._moa_empty(self.table[F_BP] / self.table[F_BPW])

    @intermediate
    def kappa(self):
        """Cohen's kappa ``(p0 - p_ran) / (1 - p_ran)``."""
        return self.chance_corrected(self.p0, self.p_ran)

    @intermediate
    def kappa_per(self):
        """Kappa-Temporal ``(p0 - p_per) / (1 - p_per)``."""
        return self.chance_corrected(self.p0, self.p_per)

    @intermediate
    def recall(self):
        """Class recalls ``A_i = DIAG_i / ROW_i`` (k rows; NaN for a class absent from the true labels)."""
        return self.diag / self.row

    @intermediate
    def present(self):
        """Classes present among the true labels held (k rows of booleans)."""
        return self.row > 0.0

    @intermediate
    def proportions(self):
        """``(c, r, q)``: hits and class weights as proportions of the class-vector totals (scale-free).

        ``c = sum DIAG / sum ROW``, ``r_i = ROW_i / sum ROW``, ``q_i = COL_i / sum COL``: computed from the
        class vectors alone, so that with one class held ``r`` and ``q`` are exactly one-hot.
        """
        total = self.row.sum(axis=0)
        return self.diag.sum(axis=0) / total, self.row / total, self.col / self.col.sum(axis=0)

    def chance_corrected(self, p, base):
        """``(p - base) / (1 - base)``; NaN when ``base == 1`` (MOA: IEEE, and 0 before anything was observed)."""
        if self.moa:
            return np.where(self.nothing_yet, 0.0, (p - base) / (1.0 - base))
        return np.where(base == 1.0, np.nan, (p - base) / (1.0 - base))


# ---------------------------------------------------------------------------- formulas
