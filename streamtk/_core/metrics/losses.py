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

from .base import Metric, Sums, intermediate

__all__ = [
    "LossSums",
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

#: the per-instance quantities of the regression family, in the order of ``estimator_sums``' last axis
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


def _column(name, of, doc):
    """The intermediate ``name``: the column of quantity ``name`` in ``sums`` or ``means`` (``of``)."""

    def get(self):
        if name not in self.quantities:
            raise ValueError(f"quantity {name!r} was not recorded here; recorded: {', '.join(self.quantities)}")
        return getattr(self, of)[..., self.quantities.index(name)]

    get.__name__, get.__doc__ = name, doc
    return intermediate(get)


class LossSums(Sums):
    """What :func:`~streamtk.evaluation.losses.estimator_sums` returns, with the quantities named.

    ``sums`` and ``means`` are ``(..., Q)`` (one column per name of ``quantities``), ``counts`` is
    ``(...)``: the instances held by the estimator (``N_t`` under a fading factor).
    """

    def __init__(self, sums, counts, means, quantities):
        super().__init__()
        quantities = tuple(quantities)
        if sums.shape[-1] != len(quantities) or means.shape != sums.shape or counts.shape != sums.shape[:-1]:
            raise ValueError(
                f"sums {sums.shape}, counts {counts.shape} and means {means.shape} do not match "
                f"the quantities {quantities}"
            )
        self.sums = sums
        self.counts = counts
        self.means = means
        self.quantities = quantities

    @intermediate
    def n(self):
        """Instances held by the estimator (``N_t`` under a fading factor)."""
        return self.counts

    abs_error = _column(
        "abs_error",
        "means",
        "Mean of ``|y_t - yhat_t|`` held by the estimator, as summed (may carry a window rounding residue).",
    )
    squared_error = _column(
        "squared_error",
        "means",
        "Mean of ``(y_t - yhat_t)**2`` held by the estimator, as summed (may carry a window rounding residue).",
    )
    seconds = _column("seconds", "sums", "Sum of the processing times held by the estimator (s).")
    memory = _column("memory", "means", "Mean model size held by the estimator (bytes).")
    ram_hours = _column("ram_hours", "sums", "Sum of the per-instance RAM-Hours held by the estimator (GB h).")


def _clip0(mean):
    # a mean of non-negative numbers: a running window sum (Algorithm 2) adds the new and subtracts the
    # leaving element, so it can keep a rounding residue of about 1e-16 x the magnitudes that left the
    # window, possibly negative; clip it to 0
    return np.maximum(mean, 0.0)


def _mae(s):
    return _clip0(s.abs_error)


def _mse(s):
    return _clip0(s.squared_error)


def _rmse(s):
    return np.sqrt(_mse(s))


def _throughput(s):
    return s.n / s.seconds  # no time spent: inf; nothing held: 0 / 0 = NaN


_RESIDUE = "; a negative rounding residue of a sliding-window sum is clipped to 0"

METRICS = [
    Metric(
        "mae",
        "regression",
        "mean absolute error",
        f"max(0, mean of |y_t - yhat_t| over the instances held by the estimator){_RESIDUE}",
        _GAMA,
        _mae,
        ("abs_error",),
        units="",
        higher_is_better=False,
        needs="targets",
    ),
    Metric(
        "mse",
        "regression",
        "mean squared error",
        f"max(0, mean of (y_t - yhat_t)**2 over the instances held by the estimator){_RESIDUE}",
        _GAMA,
        _mse,
        ("squared_error",),
        units="",
        higher_is_better=False,
        needs="targets",
    ),
    Metric(
        "rmse",
        "regression",
        "root mean squared error",
        "sqrt(mse) under the same estimator",
        _GAMA,
        _rmse,
        ("squared_error",),
        units="",
        higher_is_better=False,
        needs="targets",
    ),
    Metric(
        "throughput",
        "resources",
        "throughput",
        "instances held / their total processing time (inf when they took no time, NaN when none is held)",
        _GAMA_RES,
        _throughput,
        ("n", "seconds"),
        units="instances/s",
        higher_is_better=True,
        needs="seconds",
    ),
    Metric(
        "seconds",
        "resources",
        "processing time of the instances held",
        "sum of seconds over the instances held by the estimator",
        _GAMA_RES,
        lambda s: s.seconds,
        ("seconds",),
        units="s",
        higher_is_better=False,
        needs="seconds",
    ),
    Metric(
        "memory",
        "resources",
        "model memory",
        "mean model size over the instances held by the estimator",
        _GAMA_RES,
        lambda s: s.memory,
        ("memory",),
        units="bytes",
        higher_is_better=False,
        needs="memory",
    ),
    Metric(
        "ram_hours",
        "resources",
        "RAM-Hours",
        "sum of (memory / 1024**3) * (seconds / 3600) over the instances held by the estimator",
        _RAM_HOURS,
        lambda s: s.ram_hours,
        ("ram_hours",),
        units="GB h",
        higher_is_better=False,
        needs="seconds_and_memory",
    ),
]
