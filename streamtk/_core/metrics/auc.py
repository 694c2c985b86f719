"""Metrics of the U-statistics family: exact AUC and the Mann-Whitney statistics.

AMIDST deliverable (seed 001), section 2.1: the AUC is the concordance probability
``P(Q1 > Q0) = U1 / (W0 W1)`` of the scores ``Q`` of positive and negative instances, with the
weighted Mann-Whitney statistic ``U1 = sum_{i pos, j neg} v_i v_j H(q_i - q_j)``, ``H(0) = 1/2``
(eq. 2.6), ``U0 = W0 W1 - U1`` and ``z = (U0 - W0 W1 / 2) / sqrt(W0 W1 (W0 + W1 + 1) / 12)``
(eqs. 2.7-2.8). With class scores every class is scored one-vs-rest and ``auc_macro`` averages
the classes whose AUC is defined (Hand & Till 2001; eq. 2.9).
"""

from __future__ import annotations

import numpy as np

from .base import Metric, Sums, intermediate

__all__ = ["AucSums", "METRICS"]

_AM = "AMIDST deliverable (seed 001)"


class AucSums(Sums):
    """U statistics ``U``, weights ``W`` and counts ``N`` with trailing dims ``(C, 2)`` (group 0 the rest,
    group 1 the positive class of column ``c``); ``C = 1`` for binary scores."""

    def __init__(self, U, W, N, *, moa=False, binary=True):
        super().__init__()
        self.U, self.W, self.N = U, W, N
        self.moa = moa
        self.binary = binary

    def _squeeze(self, a):
        return a[..., 0] if self.binary else a

    @intermediate
    def u1(self):
        """``U1``: correctly ordered (positive, negative) pairs, ties counted 1/2."""
        return self.U[..., 0]

    @intermediate
    def w0w1(self):
        """``W0 W1``: the weight of all (positive, negative) pairs."""
        return self.W[..., 0] * self.W[..., 1]

    @intermediate
    def defined(self):
        """Both a positive and a negative instance are held."""
        return (self.N[..., 0] > 0) & (self.N[..., 1] > 0)

    @intermediate
    def auc(self):
        """``U1 / (W0 W1)``; NaN with one class only (MOA's window evaluator: 1.0)."""
        a = np.where(self.defined, self.u1 / np.where(self.defined, self.w0w1, 1.0), np.nan)
        return np.where(self.defined, a, 1.0) if self.moa else a


def _auc(s):
    return s._squeeze(s.auc)


def _u1(s):
    return s._squeeze(s.u1)


def _u0(s):
    return s._squeeze(s.w0w1 - s.u1)


def _z(s):
    prod, w = s.w0w1, s.W
    sigma = np.sqrt(prod * (w[..., 0] + w[..., 1] + 1.0) / 12.0)
    z = np.where(s.defined, ((prod - s.u1) - prod / 2.0) / np.where(s.defined, sigma, 1.0), np.nan)
    return s._squeeze(z)


def _macro(s):
    a = s.auc
    ok = ~np.isnan(a)
    count = ok.sum(axis=-1)
    return np.where(count > 0, np.where(ok, a, 0.0).sum(axis=-1) / np.maximum(count, 1), np.nan)


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
        ("w0w1", "u1", "defined"),
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
]
