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

import math
from typing import NamedTuple

from ..._kernels.sums import SA, SB, SN, SU, SV
from .base import Intermediate, Interval, Metric, Table
from .bounds import wilson_lower, wilson_upper
from .dialect import NAN, copysign, erfc, fabs, formula, log, maximum, minimum, sqrt, where

__all__ = ["SumsContext", "TABLE", "METRICS", "SWAP", "SW2"]

_REF_Q = "Gama, Sebastiao & Rodrigues 2013 (seed 004), sec. 4; Gama 2014 tutorial (seed 002)"
_REF_M = "Gama, Sebastiao & Rodrigues 2013 (seed 004), sec. 4.1; Dietterich 1998; Bifet et al. 2015 (seed 000), sec. 4"
N = SN
#: the row of the sum of squared weights of the members held (Kish's effective size; written by the engine for bands)
SW2 = 5
#: the rows of the table of the pair (B, A) in terms of those of (A, B)
SWAP = (SB, SA, SV, SU, SN, SW2)


class SumsContext(NamedTuple):
    """Constants of a sums evaluation: the critical value of ``|M|`` (``chi2_1.isf(alpha)``) and the normal
    quantile ``z`` of the bands' level (NaN without bands)."""

    threshold: float
    z: float = math.nan


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


@formula
def _difference(s, v, m, x):
    return (s[SA, m] - s[SB, m]) / s[N, m]


@formula
def effective(s, m):
    """Kish's effective number of members held, ``N^2 / W2`` (``W2`` the squared weights, row :data:`SW2`)."""
    n = s[N, m]
    return where(n > 0.0, n * n / s[SW2, m], NAN)


@formula
def _loss_a_lo(s, v, m, x):
    return wilson_lower(s[SA, m] / s[N, m], effective(s, m), x.z)


@formula
def _loss_a_hi(s, v, m, x):
    return wilson_upper(s[SA, m] / s[N, m], effective(s, m), x.z)


@formula
def _loss_b_lo(s, v, m, x):
    return wilson_lower(s[SB, m] / s[N, m], effective(s, m), x.z)


@formula
def _loss_b_hi(s, v, m, x):
    return wilson_upper(s[SB, m] / s[N, m], effective(s, m), x.z)


@formula
def _agresti_min(s, m, x, sign):
    """Agresti & Min's (2005) interval of a difference of paired proportions, ``p01 - p10``: each cell of the 2 x 2
    table of ``n`` (effective) instances gets a half more, then the Wald interval at ``n + 2``."""
    n = effective(s, m)
    p01 = (s[SU, m] / s[N, m] * n + 0.5) / (n + 2.0)
    p10 = (s[SV, m] / s[N, m] * n + 0.5) / (n + 2.0)
    d = p01 - p10
    half = x.z * sqrt(maximum(p01 + p10 - d * d, 0.0) / (n + 2.0))
    return where(n > 0.0, minimum(maximum(d + sign * half, -1.0), 1.0), NAN)


@formula
def _difference_lo(s, v, m, x):
    return _agresti_min(s, m, x, -1.0)


@formula
def _difference_hi(s, v, m, x):
    return _agresti_min(s, m, x, 1.0)


_WILSON = Interval(
    _loss_a_lo,
    _loss_a_hi,
    (),
    "total",
    "Wilson score interval at Kish's effective size (0-1 losses)",
    "Wilson 1927; Kish 1965",
    needs="binary_losses",
)


def _m(name, long_name, text, ref, compute, reads, **kw):
    kw.setdefault("higher_is_better", None)
    kw.setdefault("needs", "binary_losses")
    kw.setdefault("bands", kw.get("mean_of", "") != "" or name == "q")  # counts and test statistics: no bands
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
        interval="a log-ratio of two sums: no closed form is declared",
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
        interval=_WILSON,
        mean_of="loss_a",
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
        interval=Interval(_loss_b_lo, _loss_b_hi, (), "total", _WILSON.method, _WILSON.reference, "binary_losses"),
        mean_of="loss_b",
    ),
    _m(
        "error_difference",
        "difference of the mean losses, A minus B",
        "(S_A - S_B) / N = loss_a - loss_b (0-1 losses: (n01 - n10) / N)",
        f"{_REF_Q}; Agresti & Min 2005 (bands)",
        _difference,
        (),
        units="",
        needs="labels",
        label="loss difference A - B",
        limits=(-1.0, 1.0),
        interval=Interval(
            _difference_lo,
            _difference_hi,
            (),
            "total",
            "Agresti-Min interval of paired proportions at Kish's effective size (0-1 losses)",
            "Agresti & Min 2005; Kish 1965",
            "binary_losses",
        ),
        mean_of="loss_difference",
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
