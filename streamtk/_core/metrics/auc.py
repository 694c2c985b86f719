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

import numpy as np

from .base import Metric, Sums, intermediate

__all__ = ["AucSums", "METRICS", "LAYOUTS"]

_AM = "AMIDST deliverable (seed 001)"
_HT = "Hand & Till 2001, eqs. 3 and 7"
#: how the trailing dims ``(C, G)`` of the sums are laid out
LAYOUTS = ("binary", "ovr", "ovo")


class AucSums(Sums):
    """U statistics ``U``, weights ``W`` and counts ``N`` with trailing dims ``(C, G)``.

    ``layout``: ``"binary"`` (``C = 1``, ``G = 2``: group 0 the negatives, group 1 the positives,
    ``U[..., 0, 0] = U1``); ``"ovr"`` (``C = k`` score columns, ``G = 2``: group 1 the class of the
    column, group 0 the rest); ``"ovo"`` (``C = G = k``: ``U[..., i, j]`` the U statistic of class
    ``i`` against class ``j`` on the class-``i`` column, ``W[..., c, j]`` the weight of class ``j``).
    ``moa``: MOA's AUC of 1.0 where it is undefined.
    """

    def __init__(self, U, W, N, *, layout="binary", moa=False):
        super().__init__()
        if layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {LAYOUTS}, got {layout!r}")
        self.U, self.W, self.N = U, W, N
        self.layout = layout
        self.moa = moa

    def _squeeze(self, a):
        return a[..., 0] if self.layout == "binary" else a

    def _rest(self, a):
        """Per column ``c``: group 0 (two groups), or the sum over the classes other than ``c`` (pairwise)."""
        if self.layout != "ovo":
            return a[..., 0]
        k = a.shape[-1]
        return np.where(np.eye(k, dtype=bool), 0.0, a).sum(axis=-1)

    def _own(self, a):
        """Per column ``c``: group 1 (two groups), or class ``c`` itself (pairwise)."""
        return np.diagonal(a, axis1=-2, axis2=-1) if self.layout == "ovo" else a[..., 1]

    @intermediate
    def u1(self):
        """``U1`` per column: correctly ordered (positive, negative) pairs, ties counted 1/2."""
        return self._rest(self.U)

    @intermediate
    def w0(self):
        """``W0`` per column: the weight of the negatives (the other classes)."""
        return self._rest(self.W)

    @intermediate
    def w1(self):
        """``W1`` per column: the weight of the positives (the column's class)."""
        return self._own(self.W)

    @intermediate
    def w0w1(self):
        """``W0 W1``: the weight of all (positive, negative) pairs."""
        return self.w0 * self.w1

    @intermediate
    def defined(self):
        """Both a positive and a negative instance are held (decided by the counts, never by the weights)."""
        return (self._rest(self.N) > 0) & (self._own(self.N) > 0)

    @intermediate
    def auc(self):
        """``U1 / (W0 W1)``; NaN with one class only (MOA's window evaluator: 1.0)."""
        d = self.defined
        a = np.where(d, self.u1 / np.where(d, self.w0w1, 1.0), np.nan)
        return np.where(d, a, 1.0) if self.moa else a

    @intermediate
    def pair_auc(self):
        """``A(i|j) = U_ij / (W_i W_j)`` on the class-``i`` column (pairwise layout); NaN on the diagonal."""
        k = self.U.shape[-1]
        own = np.diagonal(self.W, axis1=-2, axis2=-1)[..., :, None]
        nown = np.diagonal(self.N, axis1=-2, axis2=-1)[..., :, None]
        d = (nown > 0) & (self.N > 0) & ~np.eye(k, dtype=bool)
        return np.where(d, self.U / np.where(d, own * self.W, 1.0), np.nan)


def _nanmean(a):
    ok = ~np.isnan(a)
    count = ok.sum(axis=-1)
    return np.where(count > 0, np.where(ok, a, 0.0).sum(axis=-1) / np.maximum(count, 1), np.nan)


def _auc(s):
    return s._squeeze(s.auc)


def _u1(s):
    return s._squeeze(s.u1)


def _u0(s):
    return s._squeeze(s.w0w1 - s.u1)


def _z(s):
    prod = s.w0w1
    sigma = np.sqrt(prod * (s.w0 + s.w1 + 1.0) / 12.0)
    d = s.defined
    return s._squeeze(np.where(d, ((prod - s.u1) - prod / 2.0) / np.where(d, sigma, 1.0), np.nan))


def _macro(s):
    return _nanmean(s.auc)


def _ovo(s):
    return s.pair_auc


def _hand_till(s):
    a = s.pair_auc
    sym = 0.5 * (a + np.swapaxes(a, -1, -2))
    iu = np.triu_indices(a.shape[-1], 1)
    return _nanmean(sym[..., iu[0], iu[1]])


METRICS = [
    Metric(
        "auc",
        "auc",
        "AUC = concordance probability P(Q1 > Q0)",
        "U1 / (W0 W1), exact (Fenwick trees over rank-compressed scores); NaN with one class only",
        f"{_AM} eqs. 2.5, 2.9, 2.12",
        _auc,
        ("auc",),
        needs="scores",
        symbol="AUC",
        notes="one value per class (one-vs-rest) with class scores",
    ),
    Metric(
        "auc_u1",
        "auc",
        "Mann-Whitney U1 (weighted)",
        "sum_{i pos, j neg} v_i v_j H(q_i - q_j), H(0) = 1/2",
        f"{_AM} eq. 2.6",
        _u1,
        ("u1",),
        needs="scores",
        higher_is_better=None,
        symbol="U_1",
    ),
    Metric(
        "auc_u0",
        "auc",
        "Mann-Whitney U0 (weighted)",
        "W0 W1 - U1",
        f"{_AM} eq. 2.6",
        _u0,
        ("w0w1", "u1"),
        needs="scores",
        higher_is_better=None,
        symbol="U_0",
    ),
    Metric(
        "auc_z",
        "auc",
        "Mann-Whitney z statistic",
        "(U0 - W0 W1 / 2) / sqrt(W0 W1 (W0 + W1 + 1) / 12)",
        f"{_AM} eqs. 2.7-2.8",
        _z,
        ("w0w1", "w0", "w1", "defined", "u1"),
        needs="scores",
        higher_is_better=None,
        symbol="z",
    ),
    Metric(
        "auc_macro",
        "auc",
        "macro-averaged one-vs-rest AUC",
        "mean over classes with a defined AUC",
        f"{_AM} eq. 2.9; Hand & Till 2001",
        _macro,
        ("auc",),
        needs="multiscores",
    ),
    Metric(
        "auc_ovo",
        "auc_pairwise",
        "pairwise AUC A(i|j) on the class-i score",
        "U_ij / (W_i W_j), ties one half; NaN on the diagonal and when class i or j is not held",
        _HT,
        _ovo,
        ("pair_auc",),
        shape="pair",
        needs="multiscores",
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
        ("pair_auc",),
        needs="multiscores",
        symbol="M",
        notes="auc_curves(multi_class='ovo') only",
    ),
]
