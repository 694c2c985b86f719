"""Metrics of the U-statistics family: exact AUC and the Mann-Whitney statistics.

AMIDST deliverable (seed 001), section 2.1: the AUC is the concordance probability
``P(Q1 > Q0) = U1 / (W0 W1)`` of the scores ``Q`` of positive and negative instances, with the
weighted Mann-Whitney statistic ``U1 = sum_{i pos, j neg} v_i v_j H(q_i - q_j)``, ``H(0) = 1/2``
(eq. 2.6), ``U0 = W0 W1 - U1`` and ``z = (U0 - W0 W1 / 2) / sqrt(W0 W1 (W0 + W1 + 1) / 12)``
(eqs. 2.7-2.8; without a tie correction, as in the paper; with non-unit or faded weights the same
expression on the weight totals, a descriptive statistic rather than a calibrated test). With
class scores every class is scored one-vs-rest and ``auc_macro`` averages the classes whose AUC
is defined (eq. 2.9); the pairwise family adds Hand & Till's ``A(i|j)`` and ``M`` (Hand & Till
2001). Undefined values are NaN: the AUC of a set without a positive or without a negative
(MOA's ``WindowAUCImbalancedPerformanceEvaluator`` reports 1.0 there: ``convention="moa"``).

These formulas are the only ones: every kernel of :mod:`streamtk._kernels.auc` writes the sums
``U``, ``W``, ``N`` and :class:`AucSums` finalises them.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from ..._kernels.auc.layout import ST_N, ST_U, ST_W
from ..._kernels.auc.sweep import (
    SW_AP,
    SW_MOA_AOC,
    SW_MOA_AUC,
    SW_MOA_R,
    SW_N0,
    SW_N1,
    SW_PR,
    SW_SAUC,
    SW_W0,
    SW_W1,
)
from .base import Interval, Metric, Table
from .dialect import NAN, called_formula, formula, full, maximum, minimum, sqrt, where

__all__ = ["AucContext", "TABLE", "METRICS", "LAYOUTS", "MOA_NO_NEGATIVE"]

_AM = "AMIDST deliverable (seed 001)"
_HT = "Hand & Till 2001, eqs. 3 and 7"
#: how the score columns and groups of the statistics are laid out
LAYOUTS = ("binary", "ovr", "ovo")


class AucContext(NamedTuple):
    """Constants of an AUC evaluation: ``ncols`` score columns, ``ngroups`` groups per column, whether the
    layout is pairwise (``"ovo"``: group ``j`` of column ``i`` is class ``j``; otherwise group 1 is the
    column's class and group 0 the rest), MOA's convention (AUC 1.0 where undefined) and the normal quantile ``z``
    of the bands' level (NaN without bands)."""

    ncols: int
    ngroups: int
    pairwise: bool
    moa: bool
    z: float = math.nan


@formula
def stat(s, m, x, st, c, g):
    """Statistic ``st`` (``ST_U``, ``ST_W``, ``ST_N``) of column ``c`` and group ``g``."""
    return s[(st * x.ncols + c) * x.ngroups + g, m]


@called_formula
def _others(s, m, x, st, c):
    """Pairwise layout: the sum over the classes other than ``c`` of column ``c``."""
    total = full(s[0, m], 0.0)
    for j in range(x.ngroups):
        total = total + where(j == c, 0.0, stat(s, m, x, st, c, j))
    return total


# The statistics of column c as its formulas read them: (U1, W0, W1, N0, N1) -- the rest (negatives) and the
# column's class (positives). Two groups: groups 0 and 1, read in place; pairwise (Hand & Till): the sum over
# the other classes, and class c. The two-group case is written in each formula (inlined: the loops over the
# checkpoints vectorise), the pairwise one through the called helper below (it loops over the classes).
@called_formula
def _pairwise_column(s, m, x, c):
    """``(U1, W0, W1, N0, N1)`` of column ``c`` of the pairwise layout."""
    return (
        _others(s, m, x, ST_U, c),
        _others(s, m, x, ST_W, c),
        stat(s, m, x, ST_W, c, c),
        _others(s, m, x, ST_N, c),
        stat(s, m, x, ST_N, c, c),
    )


@formula
def _auc_of(u1, w0, w1, n0, n1, x):
    """``U1 / (W0 W1)``; NaN with one class only (MOA's window evaluator: 1.0), decided by the counts."""
    d = (n0 > 0.0) & (n1 > 0.0)
    return where(d, u1 / where(d, w0 * w1, 1.0), where(x.moa, 1.0, NAN))


@formula
def _z_of(u1, w0, w1, n0, n1):
    """``(U0 - W0 W1 / 2) / sqrt(W0 W1 (W0 + W1 + 1) / 12)``, ``U0 = W0 W1 - U1``; NaN with one class only."""
    prod = w0 * w1
    sigma = sqrt(prod * (w0 + w1 + 1.0) / 12.0)
    d = (n0 > 0.0) & (n1 > 0.0)
    return where(d, ((prod - u1) - prod / 2.0) / where(d, sigma, 1.0), NAN)


@called_formula
def _pairwise_auc(s, m, x, c):
    u1, w0, w1, n0, n1 = _pairwise_column(s, m, x, c)
    return _auc_of(u1, w0, w1, n0, n1, x)


@called_formula
def _pairwise_z(s, m, x, c):
    u1, w0, w1, n0, n1 = _pairwise_column(s, m, x, c)
    return _z_of(u1, w0, w1, n0, n1)


@called_formula
def _pairwise_u0(s, m, x, c):
    u1, w0, w1, _, _ = _pairwise_column(s, m, x, c)
    return w0 * w1 - u1


@formula
def column_auc(s, m, x, c):
    """``U1 / (W0 W1)`` of column ``c``; NaN with one class only (MOA's window evaluator: 1.0)."""
    if x.pairwise:
        return _pairwise_auc(s, m, x, c)
    return _auc_of(stat(s, m, x, ST_U, c, 0), stat(s, m, x, ST_W, c, 0), stat(s, m, x, ST_W, c, 1),
                   stat(s, m, x, ST_N, c, 0), stat(s, m, x, ST_N, c, 1), x)  # fmt: skip


@formula
def _pair_auc(s, m, x, i, j):
    """``A(i|j) = U_ij / (W_i W_j)`` on the class-``i`` column (pairwise layout); NaN on the diagonal."""
    d = (stat(s, m, x, ST_N, i, i) > 0.0) & (stat(s, m, x, ST_N, i, j) > 0.0) & (i != j)
    own = stat(s, m, x, ST_W, i, i)
    return where(d, stat(s, m, x, ST_U, i, j) / where(d, own * stat(s, m, x, ST_W, i, j), 1.0), NAN)


@formula
def _auc(s, v, m, x, c):
    return column_auc(s, m, x, c)


@formula
def _u1(s, v, m, x, c):
    if x.pairwise:
        return _others(s, m, x, ST_U, c)
    return stat(s, m, x, ST_U, c, 0)


@formula
def _u0(s, v, m, x, c):
    if x.pairwise:
        return _pairwise_u0(s, m, x, c)
    return stat(s, m, x, ST_W, c, 0) * stat(s, m, x, ST_W, c, 1) - stat(s, m, x, ST_U, c, 0)


@formula
def _z(s, v, m, x, c):
    if x.pairwise:
        return _pairwise_z(s, m, x, c)
    return _z_of(stat(s, m, x, ST_U, c, 0), stat(s, m, x, ST_W, c, 0), stat(s, m, x, ST_W, c, 1),
                 stat(s, m, x, ST_N, c, 0), stat(s, m, x, ST_N, c, 1))  # fmt: skip


@formula
def _macro(s, v, m, x):
    total, count = full(s[0, m], 0.0), full(s[0, m], 0.0)
    for c in range(x.ncols):
        a = column_auc(s, m, x, c)
        ok = a == a
        total = total + where(ok, a, 0.0)
        count = count + where(ok, 1.0, 0.0)
    return where(count > 0.0, total / where(count > 0.0, count, 1.0), NAN)


@formula
def _ovo(s, v, m, x, i, j):
    return _pair_auc(s, m, x, i, j)


@formula
def _hand_till(s, v, m, x):
    total, count = full(s[0, m], 0.0), full(s[0, m], 0.0)
    for i in range(x.ncols):
        for j in range(i + 1, x.ncols):
            a = 0.5 * (_pair_auc(s, m, x, i, j) + _pair_auc(s, m, x, j, i))
            ok = a == a
            total = total + where(ok, a, 0.0)
            count = count + where(ok, 1.0, 0.0)
    return where(count > 0.0, total / where(count > 0.0, count, 1.0), NAN)


# ------------------------------------------------------------------ the imbalanced family (swept statistics)
#: MOA's pos/neg ratio without a negative (Double.MAX_VALUE)
MOA_NO_NEGATIVE = 1.7976931348623157e308


@formula
def swept(s, m, x, st, c):
    """Statistic ``st`` of column ``c`` of the ranking rows (:mod:`streamtk._kernels.auc.sweep`), after the U rows."""
    return s[3 * x.ncols * x.ngroups + st * x.ncols + c, m]


@formula
def _both(s, m, x, c):
    return (swept(s, m, x, SW_N0, c) > 0.0) & (swept(s, m, x, SW_N1, c) > 0.0)


@formula
def _average_precision(s, v, m, x, c):
    ok = _both(s, m, x, c)
    return where(ok, swept(s, m, x, SW_AP, c) / where(ok, swept(s, m, x, SW_W1, c), 1.0), NAN)


@formula
def _pr_auc(s, v, m, x, c):
    ok = _both(s, m, x, c)
    return where(ok, swept(s, m, x, SW_PR, c) / where(ok, swept(s, m, x, SW_W1, c), 1.0), NAN)


@formula
def _sauc(s, v, m, x, c):
    ok = _both(s, m, x, c)
    if x.moa:  # MOA's getScoredAUC: R_plus - R_minus over the counts, 1 with one class
        n1, n0 = swept(s, m, x, SW_N1, c), swept(s, m, x, SW_N0, c)
        r_minus = (n1 * swept(s, m, x, SW_MOA_R, c) - swept(s, m, x, SW_MOA_AOC, c)) / (n1 * n0)
        r_plus = swept(s, m, x, SW_MOA_AUC, c) / (n1 * n0)
        return where(ok, r_plus - r_minus, 1.0)
    prod = swept(s, m, x, SW_W0, c) * swept(s, m, x, SW_W1, c)
    return where(ok, swept(s, m, x, SW_SAUC, c) / where(ok, prod, 1.0), NAN)


@formula
def _pos_neg_ratio(s, v, m, x, c):
    if x.moa:  # MOA: numPos / numNeg, Double.MAX_VALUE without a negative
        n0 = swept(s, m, x, SW_N0, c)
        return where(n0 == 0.0, MOA_NO_NEGATIVE, swept(s, m, x, SW_N1, c) / where(n0 == 0.0, 1.0, n0))
    return swept(s, m, x, SW_W1, c) / swept(s, m, x, SW_W0, c)  # inf without a negative, NaN with nothing held


@formula
def _hanley_mcneil(a, n0, n1, z, sign):
    """``A -+ z SE`` with Hanley & McNeil's (1982) standard error of the AUC ``A`` of ``n1`` positives and ``n0``
    negatives: ``SE^2 = (A (1 - A) + (n1 - 1)(Q1 - A^2) + (n0 - 1)(Q2 - A^2)) / (n0 n1)``, ``Q1 = A / (2 - A)``,
    ``Q2 = 2 A^2 / (1 + A)``; clipped to [0, 1]."""
    q1 = a / (2.0 - a)
    q2 = 2.0 * a * a / (1.0 + a)
    ok = (n0 > 0.0) & (n1 > 0.0)
    d = where(ok, n0 * n1, 1.0)
    var = (a * (1.0 - a) + (n1 - 1.0) * (q1 - a * a) + (n0 - 1.0) * (q2 - a * a)) / d
    return where(ok, minimum(maximum(a + sign * z * sqrt(maximum(var, 0.0)), 0.0), 1.0), NAN)


@formula
def _column_counts(s, m, x, c):
    """``(N0, N1)``: the members of the rest and of column ``c``'s class."""
    if x.pairwise:
        return _pairwise_counts(s, m, x, c)
    return stat(s, m, x, ST_N, c, 0), stat(s, m, x, ST_N, c, 1)


@called_formula
def _pairwise_counts(s, m, x, c):
    _, _, _, n0, n1 = _pairwise_column(s, m, x, c)
    return n0, n1


@formula
def _auc_lo(s, v, m, x, c):
    n0, n1 = _column_counts(s, m, x, c)
    return _hanley_mcneil(column_auc(s, m, x, c), n0, n1, x.z, -1.0)


@formula
def _auc_hi(s, v, m, x, c):
    n0, n1 = _column_counts(s, m, x, c)
    return _hanley_mcneil(column_auc(s, m, x, c), n0, n1, x.z, 1.0)


TABLE = Table(
    "auc",
    (),
    "U, W, N (rows (st * ncols + c) * ngroups + g: statistic st of column c and group g); then the ranking "
    "statistics of the imbalanced family (rows 3 ncols ngroups + st * ncols + c, streamtk._kernels.auc.sweep)",
    AucContext,
)


METRICS = [
    Metric(
        "auc",
        "auc",
        "AUC = concordance probability P(Q1 > Q0)",
        "U1 / (W0 W1), exact (Fenwick trees over rank-compressed scores); NaN with one class only",
        f"{_AM} eqs. 2.5, 2.9, 2.12",
        _auc,
        (),
        needs="scores",
        shape="column",
        symbol="AUC",
        notes="one value per class (one-vs-rest) with class scores",
        label="AUC",
        limits=(0.0, 1.0),
        interval=Interval(
            _auc_lo,
            _auc_hi,
            (),
            "",
            "Hanley & McNeil's standard error of the AUC (unweighted, unfaded counts of the classes held)",
            "Hanley & McNeil 1982",
            "counts",
        ),
    ),
    Metric(
        "auc_u1",
        "auc",
        "Mann-Whitney U1 (weighted)",
        "sum_{i pos, j neg} v_i v_j H(q_i - q_j), H(0) = 1/2",
        f"{_AM} eq. 2.6",
        _u1,
        (),
        needs="scores",
        shape="column",
        higher_is_better=None,
        bands=False,
        symbol="U_1",
        label="$U_1$",
    ),
    Metric(
        "auc_u0",
        "auc",
        "Mann-Whitney U0 (weighted)",
        "W0 W1 - U1",
        f"{_AM} eq. 2.6",
        _u0,
        (),
        needs="scores",
        shape="column",
        higher_is_better=None,
        bands=False,
        symbol="U_0",
        label="$U_0$",
    ),
    Metric(
        "auc_z",
        "auc",
        "Mann-Whitney z statistic",
        "(U0 - W0 W1 / 2) / sqrt(W0 W1 (W0 + W1 + 1) / 12)",
        f"{_AM} eqs. 2.7-2.8",
        _z,
        (),
        needs="scores",
        shape="column",
        higher_is_better=None,
        bands=False,
        symbol="z",
        label="$z_{U}$",
    ),
    Metric(
        "auc_macro",
        "auc",
        "macro-averaged one-vs-rest AUC",
        "mean over classes with a defined AUC",
        f"{_AM} eq. 2.9; Hand & Till 2001",
        _macro,
        (),
        needs="multiscores",
        label="macro AUC",
        limits=(0.0, 1.0),
    ),
    Metric(
        "auc_ovo",
        "auc_pairwise",
        "pairwise AUC A(i|j) on the class-i score",
        "U_ij / (W_i W_j), ties one half; NaN on the diagonal and when class i or j is not held",
        _HT,
        _ovo,
        (),
        shape="pair",
        needs="multiscores",
        table="auc",
        symbol="A(i|j)",
        notes="auc_curves(multi_class='ovo') only",
    ),
    Metric(
        "auc_hand_till",
        "auc_pairwise",
        "Hand & Till M (multi-class AUC)",
        "2 / (k (k - 1)) sum_{i<j} (A(i|j) + A(j|i)) / 2 over the pairs with both classes held",
        _HT,
        _hand_till,
        (),
        needs="multiscores",
        table="auc",
        symbol="M",
        notes="auc_curves(multi_class='ovo') only",
    ),
]


_WU = "Wu, Flach & Ferri 2007 (scored AUC, ICML); Brzezinski & Stefanowski 2017 (prequential AUC, KAIS)"
_SK_AP = "scikit-learn's average_precision_score (the step integral of the precision-recall curve)"


def _imbalanced(name, long_name, text, ref, compute, *, sweep=True, moa=True, **kw):
    kw.setdefault("limits", (0.0, 1.0))
    return Metric(name, "imbalanced", long_name, text, ref, compute, (), needs="scores", shape="column",
                  table="auc", extra={"sweep": sweep, "moa": moa}, **kw)  # fmt: skip


METRICS += [
    _imbalanced(
        "average_precision",
        "average precision (step area under the precision-recall curve)",
        "sum_v (R(v) - R(v_prev)) P(v) over the distinct scores v in decreasing order (P, R: precision and recall "
        "of q >= v); NaN with one class only",
        _SK_AP,
        _average_precision,
        moa=False,
        symbol="AP",
        label="AP",
    ),
    _imbalanced(
        "pr_auc",
        "area under the precision-recall curve (trapezoidal)",
        "sum_v (R(v) - R(v_prev)) (P(v) + P(v_prev)) / 2 from (R, P) = (0, 1); NaN with one class only",
        "scikit-learn's auc(recall, precision) of precision_recall_curve",
        _pr_auc,
        moa=False,
        label="PR AUC",
    ),
    _imbalanced(
        "sauc",
        "scored AUC",
        "sum_{i pos, j neg, q_i > q_j} v_i v_j (q_i - q_j) / (W0 W1); NaN with one class only (MOA: 1.0)",
        _WU,
        _sauc,
        symbol="sAUC",
        label="sAUC",
        limits=(-1.0, 1.0),
    ),
    _imbalanced(
        "pos_neg_ratio",
        "positive/negative ratio",
        "W1 / W0 (inf without a negative, NaN with nothing held; MOA: Double.MAX_VALUE without a negative)",
        "MOA's BasicAUCImbalancedPerformanceEvaluator ('Pos/Neg ratio')",
        _pos_neg_ratio,
        sweep=False,
        higher_is_better=None,
        limits=(0.0, None),
    ),
]
