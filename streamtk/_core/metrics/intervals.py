"""The prediction-interval family: coverage, width and scores of interval and quantile predictions.

Statistics (:mod:`streamtk._kernels.regression`, family ``INT``) over the members an estimator holds (weights
``w_s``, faded for a fading factor or an EWMA): ``W``, ``N``, the weighted sums of the coverage indicator
``[lower <= y <= upper]``, of the width ``upper - lower``, of the interval (Winkler) score and of the pinball
loss of each quantile column, and the largest and smallest target held (the targets' range ``R``).

Under ``convention="moa"`` the rows are MOA's (:mod:`streamtk._kernels.regression.moa`): counts and sums
unweighted, coverage and NMPIW in percent rounded to two decimals by ``Math.round`` -- the numbers capymoa's
``PredictionIntervalEvaluator`` and ``PredictionIntervalWindowedEvaluator`` report.
"""

from __future__ import annotations

from typing import NamedTuple

from ..._kernels.regression.layout import (
    F_N,
    F_Q,
    F_W,
    INT_BOUNDS,
    M_COVER,
    M_DEN,
    M_WIDTH,
    M_WINDOW,
    M_YMAX,
    M_YMIN,
    Q_COVER,
    Q_PIN,
    Q_WIDTH,
    Q_WINK,
)
from .base import Metric, Table
from .dialect import NAN, floor, formula, isnan, maximum, minimum, where

__all__ = ["IntervalContext", "TABLE", "METRICS", "java_round"]

_MOA = (
    "MOA's BasicPredictionIntervalEvaluator / WindowPredictionIntervalEvaluator (capymoa's PredictionIntervalEvaluator)"
)
_KHOSRAVI = "Khosravi, Nahavandi, Creighton & Atiya 2011 (IEEE TNN 22(3))"
_GNEITING = "Gneiting & Raftery 2007 (JASA 102), sec. 6.2; Winkler 1972"
#: Java's ``Long.MAX_VALUE`` / ``Long.MIN_VALUE`` as doubles: ``Math.round`` saturates there
_LONG_MAX = 9.223372036854775807e18
_LONG_MIN = -9.223372036854775808e18
_MIN_DOUBLE = 5e-324


class IntervalContext(NamedTuple):
    """Constants of an interval evaluation: ``nq`` quantile columns (the pinball losses), the row of the first
    extremum (the largest target; the negated smallest follows), MOA's convention."""

    nq: int
    x0: int
    moa: bool


TABLE = Table(
    "intervals",
    (),
    "W, N, -, -, sums of [lower <= y <= upper], upper - lower, the interval score, the pinball losses (nq rows), "
    "max y, -min y (MOA: coverage count, width sum, denominator, max y, min y, window flag)",
    IntervalContext,
)


@formula
def java_round(v):
    """Java's ``Math.round(v)`` as a double: the nearest integer, ties up; 0 for NaN; saturating at ``Long``'s range."""
    f = floor(v)
    r = f + where(v - f >= 0.5, 1.0, 0.0)  # exact: v - floor(v) is (v + 0.5 can round up below a half)
    r = where(isnan(v), 0.0, r)
    return minimum(maximum(r, _LONG_MIN), _LONG_MAX)


@formula
def _mean(s, m, x, q):
    return s[F_Q + q, m] / s[F_W, m]


@formula
def _coverage(s, v, m, x):
    if x.moa:  # Math.round(count / denominator * 10000.0) / 100.0, in percent
        return java_round(s[M_COVER, m] / s[M_DEN, m] * 10000.0) / 100.0
    return minimum(maximum(_mean(s, m, x, Q_COVER), 0.0), 1.0)


@formula
def width_of(s, m, x):
    """The mean width (MOA: the width sum over its denominator)."""
    if x.moa:
        return s[M_WIDTH, m] / s[M_DEN, m]
    return _mean(s, m, x, Q_WIDTH)


@formula
def _mean_width(s, v, m, x):
    return width_of(s, m, x)


@formula
def _nmpiw(s, v, m, x):
    if x.moa:  # Basic: Math.round(10000.0 * width / range) / 100.0; Window: Math.round(width / range * 10000.0) / 100.0
        span = s[M_YMAX, m] - s[M_YMIN, m]
        wd = width_of(s, m, x)
        basic = java_round(10000.0 * wd / span) / 100.0
        window = java_round(wd / span * 10000.0) / 100.0
        return where(s[M_WINDOW, m] != 0.0, window, basic)
    span = s[x.x0, m] + s[x.x0 + 1, m]
    return where(span > 0.0, _mean(s, m, x, Q_WIDTH) / where(span > 0.0, span, 1.0), NAN)


@formula
def _interval_score(s, v, m, x):
    return _mean(s, m, x, Q_WINK)


@formula
def _target_range(s, v, m, x):
    return s[x.x0, m] + s[x.x0 + 1, m]


@formula
def _pinball(s, v, m, x, j):
    return maximum(_mean(s, m, x, Q_PIN + j), 0.0)


def _m(name, long_name, text, ref, compute, **kw):
    kw.setdefault("higher_is_better", False)
    kw.setdefault("units", "")
    kw.setdefault("needs", "intervals")
    kw.setdefault("moa", False)
    return Metric(name, "intervals", long_name, text, ref, compute, (), **kw)


METRICS = [
    _m(
        "coverage",
        "coverage probability",
        "sum w [lower <= y <= upper] / sum w over the instances held; MOA: Math.round(10000 * hits / count) / 100 "
        "in percent, count = the window size for a window",
        f"{_KHOSRAVI} (PICP); {_MOA}",
        _coverage,
        higher_is_better=None,
        units="1",
        symbol="PICP",
        moa=True,
        limits=(0.0, None),
    ),
    _m(
        "mean_width",
        "mean interval width",
        "sum w (upper - lower) / sum w; MOA's 'average length': unweighted, over the window size for a window",
        f"{_KHOSRAVI} (MPIW); {_MOA}",
        _mean_width,
        symbol="MPIW",
        moa=True,
    ),
    _m(
        "nmpiw",
        "normalised mean interval width",
        "mean_width / R, R = max y - min y over the instances held by the same estimator (fading and EWMA: every "
        "instance since the start; NaN while R = 0); MOA: Math.round(10000 * width / (max - min)) / 100 in "
        "percent, max and min from 0 (prequential) or over the whole window, empty slots (0) included",
        f"{_KHOSRAVI} (NMPIW); {_MOA}",
        _nmpiw,
        units="1",
        symbol="NMPIW",
        moa=True,
        limits=(0.0, None),
    ),
    _m(
        "interval_score",
        "interval (Winkler) score",
        "mean of (upper - lower) + (2 / alpha)((lower - y)[y < lower] + (y - upper)[y > upper]) for central "
        "(1 - alpha) intervals",
        _GNEITING,
        _interval_score,
        needs="alpha",
        limits=(0.0, None),
    ),
    _m(
        "target_range",
        "range of the targets held",
        "max y - min y over the instances held by the estimator (the normaliser of nmpiw)",
        _KHOSRAVI,
        _target_range,
        higher_is_better=None,
        limits=(0.0, None),
    ),
    _m(
        "pinball",
        "pinball loss",
        "per quantile level tau: sum w rho_tau(y - q_tau) / sum w, rho_tau(u) = u (tau - [u < 0])",
        f"Koenker & Bassett 1978; scikit-learn's sklearn.metrics.mean_pinball_loss; {_GNEITING}",
        _pinball,
        shape="quantile",
        needs="quantiles",
        limits=(0.0, None),
    ),
]

#: prediction columns before the quantile columns (lower, upper)
BOUNDS = INT_BOUNDS
#: the member count row (n_instances)
N_ROW = F_N
