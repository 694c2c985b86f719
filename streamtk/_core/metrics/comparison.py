"""The sums table and the comparison family: the Q statistic and the signed McNemar test of two learners.

The table (:data:`TABLE`): the scalar-sums kernel (:mod:`streamtk._kernels.sums`) writes, per group
of two loss streams A and B and per estimator, ``S_A``, ``S_B`` (the losses held), ``U = sum max(x_a
- x_b, 0)``, ``V = sum max(x_b - x_a, 0)`` and the number of members ``N`` (faded for a fading
factor); a single stream is a group with ``A = B``. Its formulas: the comparison family here, the
regression, resources and loss families in :mod:`.losses`.

Gama, Sebastiao & Rodrigues 2013 (seed 004), section 4, and Gama's 2014 tutorial (seed 002):
with ``S_A``, ``S_B`` the losses of learners A and B held by an estimator and, for 0-1 losses,
``n01`` (A wrong, B right) and ``n10`` (B wrong, A right), ``Q = log(S_A / S_B)`` and
``M = sign(n01 - n10) (n01 - n10)**2 / (n01 + n10)``, chi-square with one degree of freedom
under "A and B have the same error" (section 4.1; Bifet et al. 2015, seed 000, section 4).
Orientation: ``Q > 0`` and ``M > 0`` mean that A, the first learner, has the larger loss.
"""

from __future__ import annotations

from typing import NamedTuple

from ..._kernels.sums import SA, SB, SN, SU, SV
from .base import Intermediate, Metric, Table
from .dialect import NAN, copysign, erfc, fabs, formula, log, sqrt, where

__all__ = ["SumsContext", "TABLE", "METRICS", "SWAP"]

_REF_Q = "Gama, Sebastiao & Rodrigues 2013 (seed 004), sec. 4; Gama 2014 tutorial (seed 002)"
_REF_M = "Gama, Sebastiao & Rodrigues 2013 (seed 004), sec. 4.1; Dietterich 1998; Bifet et al. 2015 (seed 000), sec. 4"
N = SN
#: the rows of the table of the pair (B, A) in terms of those of (A, B)
SWAP = (SB, SA, SV, SU, SN)


class SumsContext(NamedTuple):
    """Constants of a sums evaluation: the critical value of ``|M|`` (``chi2_1.isf(alpha)``)."""

    threshold: float


MCNEMAR = 0


@formula
def _mcnemar_i(s, v, m, x):
    """The signed McNemar statistic; NaN when ``n01 + n10 = 0``."""
    u, w = s[SU, m], s[SV, m]
    diff, disc = u - w, u + w
    return where(disc > 0.0, copysign(diff * diff / where(disc > 0.0, disc, 1.0), diff), NAN)


TABLE = Table(
    "sums",
    (Intermediate("mcnemar", _mcnemar_i, (), "the signed McNemar statistic"),),
    "S_A, S_B, U, V, N",
    SumsContext,
)


@formula
def _q(s, v, m, x):
    sa, sb = s[SA, m], s[SB, m]
    return where((sa == 0.0) & (sb == 0.0), NAN, log(sa / sb))


@formula
def _loss_a(s, v, m, x):
    return s[SA, m] / s[N, m]


@formula
def _loss_b(s, v, m, x):
    return s[SB, m] / s[N, m]


@formula
def _n00(s, v, m, x):
    return s[N, m] - 0.5 * ((s[SA, m] + s[SB, m]) + (s[SU, m] + s[SV, m]))


@formula
def _n01(s, v, m, x):
    return s[SU, m]


@formula
def _n10(s, v, m, x):
    return s[SV, m]


@formula
def _n11(s, v, m, x):
    # symmetric in (A, B): swapping the models swaps n01 and n10 exactly
    return 0.5 * ((s[SA, m] + s[SB, m]) - (s[SU, m] + s[SV, m]))


@formula
def _mcnemar(s, v, m, x):
    return v[MCNEMAR, m]


@formula
def _p_value(s, v, m, x):
    return erfc(sqrt(0.5 * fabs(v[MCNEMAR, m])))


@formula
def _reject(s, v, m, x):
    return fabs(v[MCNEMAR, m]) > x.threshold  # False when M is NaN


def _m(name, long_name, text, ref, compute, reads, **kw):
    kw.setdefault("higher_is_better", None)
    kw.setdefault("needs", "binary_losses")
    return Metric(name, "comparison", long_name, text, ref, compute, reads, table="sums", **kw)


METRICS = [
    _m(
        "q",
        "Q statistic log(S_A / S_B)",
        "log(S_A / S_B) of the losses held by the estimator; NaN when S_A = S_B = 0, -inf/+inf when only S_A/S_B is 0",
        _REF_Q,
        _q,
        (),
        symbol="Q",
        needs="labels",
        label="$Q = \\log(S_A / S_B)$",
    ),
    _m(
        "loss_a",
        "mean loss of model A",
        "S_A / N",
        _REF_Q,
        _loss_a,
        (),
        units="",
        higher_is_better=False,
        needs="labels",
    ),
    _m(
        "loss_b",
        "mean loss of model B",
        "S_B / N",
        _REF_Q,
        _loss_b,
        (),
        units="",
        higher_is_better=False,
        needs="labels",
    ),
    _m("n00", "instances both models classify correctly", "sum [A right][B right]", _REF_M, _n00, ()),
    _m("n01", "instances A misclassifies and B classifies correctly", "sum [A wrong][B right]", _REF_M, _n01, ()),
    _m("n10", "instances B misclassifies and A classifies correctly", "sum [B wrong][A right]", _REF_M, _n10, ()),
    _m("n11", "instances both models misclassify", "sum [A wrong][B wrong]", _REF_M, _n11, ()),
    _m(
        "mcnemar",
        "signed McNemar statistic",
        "sign(n01 - n10) (n01 - n10)**2 / (n01 + n10); NaN when n01 + n10 = 0",
        _REF_M,
        _mcnemar,
        ("mcnemar",),
        symbol="M",
        label="signed McNemar $M$",
    ),
    _m(
        "p_value",
        "p-value of the McNemar test",
        "P(chi2_1 > |M|) = erfc(sqrt(|M| / 2)); NaN when M is NaN",
        _REF_M,
        _p_value,
        ("mcnemar",),
    ),
    _m(
        "reject",
        "McNemar test rejects equal error rates",
        "|M| > chi2_1 quantile at 1 - alpha (3.841 at 0.05, 6.635 at 0.01); False when M is NaN",
        _REF_M,
        _reject,
        ("mcnemar",),
        dtype="bool",
    ),
]
