"""Metrics of the regression and resources families: means and sums of real-valued per-instance quantities.

The sufficient statistics, per estimator and checkpoint, are those of
:func:`streamtk.evaluation.losses.estimator_sums`: for each recorded per-instance quantity ``x`` the
sum ``S = sum_s x_s`` and the number of instances ``N`` held by the estimator (prequential: all
instances so far; window: the last ``min(t, w)``; fading: ``S_t = x_t + alpha S_(t-1)``,
``N_t = 1 + alpha N_(t-1)``; tumbling, landmarks, ADWIN: the instances since the reset / in the
window), and the mean ``S / N`` (NaN before the first instance).

``regression`` (:func:`streamtk.evaluation.losses.regression_curves`): the quantities are the
absolute and the squared error of recorded predictions (Gama, Sebastiao & Rodrigues 2013, seed
004, section 3.3, Algorithms 1-3). ``resources`` (:func:`streamtk.evaluation.losses.resource_curves`):
the per-instance processing time in seconds, the model size in bytes and the RAM-Hours of the
instance, ``(memory / 1024**3) * (seconds / 3600)`` (Gama et al. 2013, section 2; Bifet, Holmes,
Pfahringer & Frank 2010).
"""

from __future__ import annotations

import numpy as np

from ..._kernels.sums import SA, SN
from .base import Interval, Metric
from .bounds import wilson_lower, wilson_upper
from .comparison import effective
from .dialect import formula, maximum, sqrt

__all__ = [
    "METRICS",
    "REGRESSION_QUANTITIES",
    "RESOURCE_QUANTITIES",
    "GB",
    "regression_quantities",
    "ram_hours",
]

_GAMA = "Gama, Sebastiao & Rodrigues 2013 (seed 004), sec. 3.3, Algorithms 1-3"
_GAMA_RES = "Gama et al. 2013 (seed 004), sec. 2"
_RAM_HOURS = "Bifet, Holmes, Pfahringer & Frank 2010 (PAKDD), as computed by MOA's EvaluatePrequential"

#: the per-instance quantities of the regression family, in the order :func:`regression_quantities` stacks them
REGRESSION_QUANTITIES = ("abs_error", "squared_error")
#: the per-instance quantities of the resources family (each present only when its input is given)
RESOURCE_QUANTITIES = ("seconds", "memory", "ram_hours")
#: bytes in a GB for RAM-Hours (MOA divides the byte size by 1024**3)
GB = 1024.0**3


def regression_quantities(error):
    """The regression family's per-instance quantities ``(|e|, e**2)``, stacked on axis -2 of ``error (..., n)``."""
    return np.stack([np.abs(error), error * error], axis=-2)


def ram_hours(memory, seconds):
    """Per-instance RAM-Hours ``(memory / 1024**3) * (seconds / 3600)``: GB of model held for that many hours."""
    return (memory / GB) * (seconds / 3600.0)


@formula
def _mean(s, v, m, x):
    """The mean of the quantity held: ``S / N`` (NaN before the first instance)."""
    return s[SA, m] / s[SN, m]


@formula
def _clipped_mean(s, v, m, x):
    # a mean of non-negative numbers: a running window sum (Algorithm 2) adds the new and subtracts the
    # leaving element, so it can keep a rounding residue of about 1e-16 x the magnitudes that left the
    # window, possibly negative; clip it to 0 (NaN stays NaN)
    return maximum(s[SA, m] / s[SN, m], 0.0)


@formula
def _root_clipped_mean(s, v, m, x):
    return sqrt(maximum(s[SA, m] / s[SN, m], 0.0))


@formula
def _sum(s, v, m, x):
    return s[SA, m]


@formula
def _throughput(s, v, m, x):
    return s[SN, m] / s[SA, m]  # no time spent: inf; nothing held: 0 / 0 = NaN


@formula
def _mean_lo(s, v, m, x):
    return wilson_lower(s[SA, m] / s[SN, m], effective(s, m), x.z)


@formula
def _mean_hi(s, v, m, x):
    return wilson_upper(s[SA, m] / s[SN, m], effective(s, m), x.z)


_RESIDUE = "; a negative rounding residue of a sliding-window sum is clipped to 0"
_MOMENT = "a mean of real values: its interval needs their variance, which the sums table does not hold"


def _m(name, family, long_name, text, ref, compute, quantity, **kw):
    kw.setdefault("higher_is_better", False)
    return Metric(name, family, long_name, text, ref, compute, (), table="sums", quantity=quantity, **kw)


METRICS = [
    _m(
        "mae",
        "regression",
        "mean absolute error",
        f"max(0, mean of |y_t - yhat_t| over the instances held by the estimator){_RESIDUE}",
        _GAMA,
        _clipped_mean,
        "abs_error",
        units="",
        needs="targets",
        interval=_MOMENT,
    ),
    _m(
        "mse",
        "regression",
        "mean squared error",
        f"max(0, mean of (y_t - yhat_t)**2 over the instances held by the estimator){_RESIDUE}",
        _GAMA,
        _clipped_mean,
        "squared_error",
        units="",
        needs="targets",
        interval=_MOMENT,
    ),
    _m(
        "rmse",
        "regression",
        "root mean squared error",
        "sqrt(mse) under the same estimator",
        _GAMA,
        _root_clipped_mean,
        "squared_error",
        units="",
        needs="targets",
        interval=_MOMENT,
    ),
    _m(
        "throughput",
        "resources",
        "throughput",
        "instances held / their total processing time (inf when they took no time, NaN when none is held)",
        _GAMA_RES,
        _throughput,
        "seconds",
        units="instances/s",
        higher_is_better=True,
        needs="seconds",
        interval="a ratio of instances to their total time: no closed form is declared",
    ),
    _m(
        "seconds",
        "resources",
        "processing time of the instances held",
        "sum of seconds over the instances held by the estimator",
        _GAMA_RES,
        _sum,
        "seconds",
        units="s",
        needs="seconds",
        bands=False,
    ),
    _m(
        "memory",
        "resources",
        "model memory",
        "mean model size over the instances held by the estimator",
        _GAMA_RES,
        _mean,
        "memory",
        units="bytes",
        needs="memory",
        interval=_MOMENT,
    ),
    _m(
        "ram_hours",
        "resources",
        "RAM-Hours",
        "sum of (memory / 1024**3) * (seconds / 3600) over the instances held by the estimator",
        _RAM_HOURS,
        _sum,
        "ram_hours",
        units="GB h",
        needs="seconds_and_memory",
        bands=False,
    ),
    _m(
        "mean_loss",
        "loss",
        "mean loss",
        "sum of the loss held by the estimator / number of instances held (NaN before the first instance)",
        _GAMA,
        _mean,
        "loss",
        units="",
        needs="losses",
        interval=Interval(
            _mean_lo,
            _mean_hi,
            (),
            "total",
            "Wilson score interval at Kish's effective size (0-1 losses)",
            "Wilson 1927; Kish 1965",
            "binary_losses",
        ),
        mean_of="loss",
    ),
]
