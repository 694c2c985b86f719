"""Metrics of the loss and resources families: means and sums of real-valued per-instance quantities.

The sufficient statistics, per estimator and checkpoint, are those of
:func:`streamtk.evaluation.losses.estimator_sums`: for each recorded per-instance quantity ``x`` the
sum ``S = sum_s x_s`` and the number of instances ``N`` held by the estimator (prequential: all
instances so far; window: the last ``min(t, w)``; fading: ``S_t = x_t + alpha S_(t-1)``,
``N_t = 1 + alpha N_(t-1)``; tumbling, landmarks, ADWIN: the instances since the reset / in the
window), and the mean ``S / N`` (NaN before the first instance).

``loss`` (:func:`streamtk.evaluation.losses.loss_curves`): any recorded per-instance loss (Gama, Sebastiao
& Rodrigues 2013, seed 004, section 3.3, Algorithms 1-3). ``resources``
(:func:`streamtk.evaluation.losses.resource_curves`):
the per-instance processing time in seconds, the model size in bytes and the RAM-Hours of the
instance, ``(memory / 1024**3) * (seconds / 3600)`` (Gama et al. 2013, section 2; Bifet, Holmes,
Pfahringer & Frank 2010).
"""

from __future__ import annotations

from ..._kernels.sums import SA, SN
from .base import Interval, Metric
from .bounds import wilson_lower, wilson_upper
from .comparison import effective
from .dialect import formula

__all__ = [
    "METRICS",
    "RESOURCE_QUANTITIES",
    "GB",
    "ram_hours",
]

_GAMA = "Gama, Sebastiao & Rodrigues 2013 (seed 004), sec. 3.3, Algorithms 1-3"
_GAMA_RES = "Gama et al. 2013 (seed 004), sec. 2"
_RAM_HOURS = "Bifet, Holmes, Pfahringer & Frank 2010 (PAKDD), as computed by MOA's EvaluatePrequential"

#: the per-instance quantities of the resources family (each present only when its input is given)
RESOURCE_QUANTITIES = ("seconds", "memory", "ram_hours")
#: bytes in a GB for RAM-Hours (MOA divides the byte size by 1024**3)
GB = 1024.0**3


def ram_hours(memory, seconds):
    """Per-instance RAM-Hours ``(memory / 1024**3) * (seconds / 3600)``: GB of model held for that many hours."""
    return (memory / GB) * (seconds / 3600.0)


@formula
def _mean(s, v, m, x):
    """The mean of the quantity held: ``S / N`` (NaN before the first instance)."""
    return s[SA, m] / s[SN, m]


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


_MOMENT = "a mean of real values: its interval needs their variance, which the sums table does not hold"


def _m(name, family, long_name, text, ref, compute, quantity, **kw):
    kw.setdefault("higher_is_better", False)
    return Metric(name, family, long_name, text, ref, compute, (), table="sums", quantity=quantity, **kw)


METRICS = [
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
