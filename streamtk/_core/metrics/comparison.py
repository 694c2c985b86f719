"""Metrics of the comparison family: the Q statistic and the signed McNemar test of two learners.

Gama, Sebastiao & Rodrigues 2013 (seed 004), section 4, and Gama's 2014 tutorial (seed 002):
with ``S_A``, ``S_B`` the losses of learners A and B held by an estimator and, for 0-1 losses,
``n01`` (A wrong, B right) and ``n10`` (B wrong, A right), ``Q = log(S_A / S_B)`` and
``M = sign(n01 - n10) (n01 - n10)**2 / (n01 + n10)``, chi-square with one degree of freedom
under "A and B have the same error" (section 4.1; Bifet et al. 2015, seed 000, section 4).
Orientation: ``Q > 0`` and ``M > 0`` mean that A, the first learner, has the larger loss.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from .base import Metric, Sums, intermediate

__all__ = ["PairSums", "METRICS"]

_REF_Q = "Gama, Sebastiao & Rodrigues 2013 (seed 004), sec. 4; Gama 2014 tutorial (seed 002)"
_REF_M = "Gama, Sebastiao & Rodrigues 2013 (seed 004), sec. 4.1; Dietterich 1998; Bifet et al. 2015 (seed 000), sec. 4"


class PairSums(Sums):
    """Raw pair sums ``(..., 5)``: ``S_A, S_B, U, V, N`` (see :mod:`streamtk._kernels.sums`).

    ``threshold``: the critical value of ``|M|`` (``chi2_1.isf(alpha)``).
    """

    def __init__(self, raw, *, threshold):
        super().__init__()
        self.raw = raw
        self.threshold = threshold

    @property
    def N(self):
        return self.raw[..., 4]

    @intermediate
    def sums(self):
        """``(S_A, S_B)``: the losses of A and B held by the estimator."""
        return self.raw[..., 0], self.raw[..., 1]

    @intermediate
    def discordant(self):
        """``(n01, n10)``: instances A gets wrong and B right, and the converse (0-1 losses)."""
        return self.raw[..., 2], self.raw[..., 3]

    @intermediate
    def mcnemar(self):
        """The signed McNemar statistic; NaN when ``n01 + n10 = 0``."""
        u, v = self.discordant
        diff, disc = u - v, u + v
        return np.where(disc > 0.0, np.copysign(diff * diff / np.where(disc > 0.0, disc, 1.0), diff), np.nan)


def _q(s):
    sa, sb = s.sums
    return np.where((sa == 0.0) & (sb == 0.0), np.nan, np.log(sa / sb))


def _loss_a(s):
    return s.sums[0] / s.N


def _loss_b(s):
    return s.sums[1] / s.N


def _n00(s):
    (sa, sb), (u, v) = s.sums, s.discordant
    return s.N - 0.5 * ((sa + sb) + (u + v))


def _n01(s):
    return s.discordant[0]


def _n10(s):
    return s.discordant[1]


def _n11(s):
    (sa, sb), (u, v) = s.sums, s.discordant
    return 0.5 * ((sa + sb) - (u + v))  # symmetric in (A, B): swapping the models swaps n01 and n10 exactly


def _p_value(s):
    m = s.mcnemar
    return special.erfc(np.sqrt(0.5 * np.abs(m)))


def _reject(s):
    m = s.mcnemar
    return np.abs(m) > s.threshold  # False when M is NaN


METRICS = [
    Metric(
        "q",
        "comparison",
        "Q statistic log(S_A / S_B)",
        "log(S_A / S_B) of the losses held by the estimator; NaN when S_A = S_B = 0, -inf/+inf when only S_A/S_B is 0",
        _REF_Q,
        _q,
        ("sums",),
        higher_is_better=None,
        symbol="Q",
    ),
    Metric(
        "loss_a",
        "comparison",
        "mean loss of model A",
        "S_A / N",
        _REF_Q,
        _loss_a,
        ("sums",),
        units="",
        higher_is_better=False,
    ),
    Metric(
        "loss_b",
        "comparison",
        "mean loss of model B",
        "S_B / N",
        _REF_Q,
        _loss_b,
        ("sums",),
        units="",
        higher_is_better=False,
    ),
    Metric(
        "n00",
        "comparison",
        "instances both models classify correctly",
        "sum [A right][B right]",
        _REF_M,
        _n00,
        ("sums", "discordant"),
        higher_is_better=None,
        needs="binary_losses",
    ),
    Metric(
        "n01",
        "comparison",
        "instances A misclassifies and B classifies correctly",
        "sum [A wrong][B right]",
        _REF_M,
        _n01,
        ("discordant",),
        higher_is_better=None,
        needs="binary_losses",
    ),
    Metric(
        "n10",
        "comparison",
        "instances B misclassifies and A classifies correctly",
        "sum [B wrong][A right]",
        _REF_M,
        _n10,
        ("discordant",),
        higher_is_better=None,
        needs="binary_losses",
    ),
    Metric(
        "n11",
        "comparison",
        "instances both models misclassify",
        "sum [A wrong][B wrong]",
        _REF_M,
        _n11,
        ("sums", "discordant"),
        higher_is_better=None,
        needs="binary_losses",
    ),
    Metric(
        "mcnemar",
        "comparison",
        "signed McNemar statistic",
        "sign(n01 - n10) (n01 - n10)**2 / (n01 + n10); NaN when n01 + n10 = 0",
        _REF_M,
        lambda s: s.mcnemar,
        ("mcnemar",),
        higher_is_better=None,
        needs="binary_losses",
        symbol="M",
    ),
    Metric(
        "p_value",
        "comparison",
        "p-value of the McNemar test",
        "P(chi2_1 > |M|) = erfc(sqrt(|M| / 2)); NaN when M is NaN",
        _REF_M,
        _p_value,
        ("mcnemar",),
        higher_is_better=None,
        needs="binary_losses",
    ),
    Metric(
        "reject",
        "comparison",
        "McNemar test rejects equal error rates",
        "|M| > chi2_1 quantile at 1 - alpha (3.841 at 0.05, 6.635 at 0.01); False when M is NaN",
        _REF_M,
        _reject,
        ("mcnemar",),
        higher_is_better=None,
        needs="binary_losses",
    ),
]
