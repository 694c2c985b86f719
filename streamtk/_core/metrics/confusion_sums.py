"""The table of the confusion family: its statistics, its context, and the intermediates its formulas share.

Statistics ``s`` (rows written by the kernels of :mod:`streamtk._kernels.confusion`, see their
``layout``): the weight total ``W``, the members held ``N`` (faded count; the ADWIN width), the
denominator of estimates ``DEN`` (``W``; MOA: the number of instances), weighted hits ``C``, the
Majority Class hits ``BM`` and their denominator ``BMW``, the same for the Persistent classifier
(``BP``, ``BPW``), MOA's estimate before anything was observed ``EMPTY``, the sums of the extra
per-instance quantities from row ``x.q0``, then the class vectors ``ROW``, ``COL``, ``DIAG`` from
row ``x.r0`` (``k`` rows each), and, when a formula needs them (``x.s2 >= 0``), the sums of squared
weights ``W2``, ``ROW2``, ``COL2`` (``1 + 2 k`` rows from ``x.s2``; the faded weight ``alpha**(t - s) w_s``
squared for a fading factor) that Kish's effective sizes read. The intermediates ``v`` below are
computed once per checkpoint.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from ..._kernels.confusion.layout import F_BM, F_BMW, F_BP, F_BPW, F_C, F_DEN, F_EMPTY, F_N, F_W
from .base import Intermediate, Table
from .dialect import NAN, formula, where

__all__ = ["ConfusionContext", "TABLE"]

W, N, DEN, C, BM, BMW, BP, BPW, EMPTY = F_W, F_N, F_DEN, F_C, F_BM, F_BMW, F_BP, F_BPW, F_EMPTY


class ConfusionContext(NamedTuple):
    """Constants of a confusion evaluation: ``k`` classes, the positive class ``pos``, the first rows of
    the class vectors ``r0`` (ROW at ``r0``, COL at ``r0 + k``, DIAG at ``r0 + 2 k``), the row of each
    extra quantity of the pass (:data:`streamtk._core.metrics.quantity.QUANTITIES`; -1 when not carried),
    MOA's convention, the normal quantile ``z`` of the bands' level (NaN without bands), the first row ``s2`` of
    the squared-weight sums (-1 when not carried) and whether they are (``squared``)."""

    k: int
    pos: int
    r0: int
    q: tuple
    moa: bool
    z: float = math.nan
    s2: int = -1
    squared: bool = False


# rows of the intermediates v, in TABLE order
NOTHING, P0, RQ, P_MOA, P_MAJ, P_PER, KAPPA, KAPPA_PER, N_EFF = range(9)


@formula
def moa_empty(s, v, m, x, value):
    """MOA: its estimate before anything was observed (``EMPTY``) where nothing was; ``value`` elsewhere."""
    if x.moa:
        return where(v[NOTHING, m] != 0.0, s[EMPTY, m], value)
    return value


@formula
def chance_corrected(s, v, m, x, p, base):
    """``(p - base) / (1 - base)``; NaN when ``base == 1`` (MOA: IEEE, and 0 before anything was observed)."""
    if x.moa:
        return where(v[NOTHING, m] != 0.0, 0.0, (p - base) / (1.0 - base))
    return where(base == 1.0, NAN, (p - base) / (1.0 - base))


@formula
def p_ran(s, v, m, x):
    """The chance agreement: ``rq`` (MOA: its own, :func:`_p_moa`)."""
    if x.moa:
        return v[P_MOA, m]
    return v[RQ, m]


@formula
def _nothing(s, v, m, x):
    """MOA: 1 where nothing was observed (its kappas are 0 there, its estimates ``EMPTY``), else 0."""
    return where(s[N, m] == 0.0, 1.0, 0.0)


@formula
def _p0(s, v, m, x):
    """Accuracy ``C / W`` (MOA: ``C / N``)."""
    return moa_empty(s, v, m, x, s[C, m] / s[DEN, m])


@formula
def _rq(s, v, m, x):
    """``sum_i (ROW_i / sum ROW)(COL_i / sum COL)``: the agreement of two independent labellings with these
    class proportions (scale-free; exactly 1 when one class is held), the totals from the class vectors."""
    r0, k = x.r0, x.k
    tr, tc = s[r0, m], s[r0 + k, m]
    for i in range(1, k):
        tr, tc = tr + s[r0 + i, m], tc + s[r0 + k + i, m]
    pr = (s[r0, m] / tr) * (s[r0 + k, m] / tc)
    for i in range(1, k):
        pr = pr + (s[r0 + i, m] / tr) * (s[r0 + k + i, m] / tc)
    return pr


@formula
def _p_moa(s, v, m, x):
    """MOA's chance agreement ``sum_i (ROW_i / N)(COL_i / N)``, with MOA's sums."""
    r0, k, d = x.r0, x.k, s[DEN, m]
    pc = (s[r0, m] / d) * (s[r0 + k, m] / d)
    for i in range(1, k):
        pc = pc + (s[r0 + i, m] / d) * (s[r0 + k + i, m] / d)
    return moa_empty(s, v, m, x, pc)


@formula
def _p_maj(s, v, m, x):
    """Accuracy of the Majority Class classifier under the same estimator."""
    return moa_empty(s, v, m, x, s[BM, m] / s[BMW, m])


@formula
def _p_per(s, v, m, x):
    """Accuracy of the Persistent classifier under the same estimator."""
    return moa_empty(s, v, m, x, s[BP, m] / s[BPW, m])


@formula
def _kappa(s, v, m, x):
    """Cohen's kappa ``(p0 - p_ran) / (1 - p_ran)``."""
    return chance_corrected(s, v, m, x, v[P0, m], p_ran(s, v, m, x))


@formula
def _kappa_per(s, v, m, x):
    """Kappa-Temporal ``(p0 - p_per) / (1 - p_per)``."""
    return chance_corrected(s, v, m, x, v[P0, m], v[P_PER, m])


@formula
def _n_eff(s, v, m, x):
    """Kish's effective number of instances held, ``W^2 / W2`` (NaN when nothing is held)."""
    w = s[W, m]
    return where(w > 0.0, w * w / s[x.s2, m], NAN)


TABLE = Table(
    "confusion",
    (
        Intermediate("nothing_yet", _nothing, (), "MOA: nothing observed yet (1) or not (0)", only_if="moa"),
        Intermediate("p0", _p0, ("nothing_yet",), "accuracy"),
        Intermediate("rq", _rq, (), "sum of products of the class proportions"),
        Intermediate("p_moa", _p_moa, ("nothing_yet",), "MOA's chance agreement", only_if="moa"),
        Intermediate("p_maj", _p_maj, ("nothing_yet",), "Majority Class accuracy"),
        Intermediate("p_per", _p_per, ("nothing_yet",), "Persistent accuracy"),
        Intermediate("kappa", _kappa, ("nothing_yet", "p0", "rq", "p_moa"), "Cohen's kappa"),
        Intermediate("kappa_per", _kappa_per, ("nothing_yet", "p0", "p_per"), "Kappa-Temporal"),
        Intermediate("n_eff", _n_eff, (), "Kish's effective number of instances held", only_if="squared"),
    ),
    "W, N, DEN, C, BM, BMW, BP, BPW, EMPTY, quantity sums (rows x.q), ROW, COL, DIAG (k rows each from x.r0); "
    "W2, ROW2, COL2 (from x.s2, when carried)",
    ConfusionContext,
    specialise=(("k", 2), ("moa", False)),  # two classes: class loops unrolled, so they vectorise
)
