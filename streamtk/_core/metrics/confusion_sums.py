"""The table of the confusion family: its statistics, its context, and the intermediates its formulas share.

Statistics ``s`` (rows written by the kernels of :mod:`streamtk._kernels.confusion`, see their
``layout``): the weight total ``W``, the members held ``N`` (faded count; the ADWIN width), the
denominator of estimates ``DEN`` (``W``; MOA: the number of instances), weighted hits ``C``, the
Majority Class hits ``BM`` and their denominator ``BMW``, the same for the Persistent classifier
(``BP``, ``BPW``), MOA's estimate before anything was observed ``EMPTY``, the sums of the extra
per-instance quantities from row ``x.q0``, then the class vectors ``ROW``, ``COL``, ``DIAG`` from
row ``x.r0`` (``k`` rows each). The intermediates ``v`` below are computed once per checkpoint.
"""

from __future__ import annotations

from typing import NamedTuple

from ..._kernels.confusion.layout import F_BM, F_BMW, F_BP, F_BPW, F_C, F_DEN, F_EMPTY, F_N, F_W
from .base import Intermediate, Table
from .dialect import NAN, formula, full, where

__all__ = ["ConfusionContext", "TABLE"]

W, N, DEN, C, BM, BMW, BP, BPW, EMPTY = F_W, F_N, F_DEN, F_C, F_BM, F_BMW, F_BP, F_BPW, F_EMPTY


class ConfusionContext(NamedTuple):
    """Constants of a confusion evaluation: ``k`` classes, the positive class ``pos``, the first rows of
    the class vectors ``r0`` (ROW at ``r0``, COL at ``r0 + k``, DIAG at ``r0 + 2 k``), the row of each
    extra quantity of the pass (:data:`streamtk._core.metrics.quantity.QUANTITIES`; -1 when not carried),
    and MOA's convention."""

    k: int
    pos: int
    r0: int
    q: tuple
    moa: bool


# rows of the intermediates v, in TABLE order
NOTHING, P0, TOT_ROW, TOT_COL, TOT_DIAG, RQ, P_RAN, P_MAJ, P_PER, KAPPA, KAPPA_PER, SQ_ROW, SQ_COL = range(13)


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
def _nothing(s, v, m, x):
    """MOA: 1 where nothing was observed (its kappas are 0 there, its estimates ``EMPTY``); 0 otherwise."""
    if x.moa:
        return where(s[N, m] == 0.0, 1.0, 0.0)
    return full(s[N, m], 0.0)


@formula
def _p0(s, v, m, x):
    """Accuracy ``C / W`` (MOA: ``C / N``)."""
    return moa_empty(s, v, m, x, s[C, m] / s[DEN, m])


@formula
def _tot_row(s, v, m, x):
    """``sum_i ROW_i``, from the class vectors (so one class held gives exact one-hot proportions)."""
    t = s[x.r0, m]
    for i in range(1, x.k):
        t = t + s[x.r0 + i, m]
    return t


@formula
def _tot_col(s, v, m, x):
    """``sum_i COL_i``."""
    t = s[x.r0 + x.k, m]
    for i in range(1, x.k):
        t = t + s[x.r0 + x.k + i, m]
    return t


@formula
def _tot_diag(s, v, m, x):
    """``sum_i DIAG_i``."""
    t = s[x.r0 + 2 * x.k, m]
    for i in range(1, x.k):
        t = t + s[x.r0 + 2 * x.k + i, m]
    return t


@formula
def _rq(s, v, m, x):
    """``sum_i (ROW_i / sum ROW)(COL_i / sum COL)``: the agreement of two independent labellings with these
    class proportions (scale-free; exactly 1 when one class is held)."""
    r0, k = x.r0, x.k
    tr, tc = v[TOT_ROW, m], v[TOT_COL, m]
    pr = (s[r0, m] / tr) * (s[r0 + k, m] / tc)
    for i in range(1, k):
        pr = pr + (s[r0 + i, m] / tr) * (s[r0 + k + i, m] / tc)
    return pr


@formula
def _p_ran(s, v, m, x):
    """Chance agreement ``rq`` (MOA: ``sum_i (ROW_i / N)(COL_i / N)``, with MOA's sums)."""
    if x.moa:
        r0, k, d = x.r0, x.k, s[DEN, m]
        pc = (s[r0, m] / d) * (s[r0 + k, m] / d)
        for i in range(1, k):
            pc = pc + (s[r0 + i, m] / d) * (s[r0 + k + i, m] / d)
        return moa_empty(s, v, m, x, pc)
    return v[RQ, m]


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
    return chance_corrected(s, v, m, x, v[P0, m], v[P_RAN, m])


@formula
def _kappa_per(s, v, m, x):
    """Kappa-Temporal ``(p0 - p_per) / (1 - p_per)``."""
    return chance_corrected(s, v, m, x, v[P0, m], v[P_PER, m])


@formula
def _sq_row(s, v, m, x):
    """``sum_i (ROW_i / sum ROW)**2``."""
    tr = v[TOT_ROW, m]
    r = s[x.r0, m] / tr
    out = r * r
    for i in range(1, x.k):
        r = s[x.r0 + i, m] / tr
        out = out + r * r
    return out


@formula
def _sq_col(s, v, m, x):
    """``sum_i (COL_i / sum COL)**2``."""
    tc = v[TOT_COL, m]
    q = s[x.r0 + x.k, m] / tc
    out = q * q
    for i in range(1, x.k):
        q = s[x.r0 + x.k + i, m] / tc
        out = out + q * q
    return out


TABLE = Table(
    "confusion",
    (
        Intermediate("nothing_yet", _nothing, (), "MOA: nothing observed yet (1) or not (0)"),
        Intermediate("p0", _p0, ("nothing_yet",), "accuracy"),
        Intermediate("tot_row", _tot_row, (), "sum of the true-class weights"),
        Intermediate("tot_col", _tot_col, (), "sum of the predicted-class weights"),
        Intermediate("tot_diag", _tot_diag, (), "sum of the hits by class"),
        Intermediate("rq", _rq, ("tot_row", "tot_col"), "sum of products of the class proportions"),
        Intermediate("p_ran", _p_ran, ("nothing_yet", "rq"), "chance agreement"),
        Intermediate("p_maj", _p_maj, ("nothing_yet",), "Majority Class accuracy"),
        Intermediate("p_per", _p_per, ("nothing_yet",), "Persistent accuracy"),
        Intermediate("kappa", _kappa, ("nothing_yet", "p0", "p_ran"), "Cohen's kappa"),
        Intermediate("kappa_per", _kappa_per, ("nothing_yet", "p0", "p_per"), "Kappa-Temporal"),
        Intermediate("sq_row", _sq_row, ("tot_row",), "sum of squared true-class proportions"),
        Intermediate("sq_col", _sq_col, ("tot_col",), "sum of squared predicted-class proportions"),
    ),
    "W, N, DEN, C, BM, BMW, BP, BPW, EMPTY, quantity sums (rows x.q), ROW, COL, DIAG (k rows each from x.r0)",
    ConfusionContext,
)
