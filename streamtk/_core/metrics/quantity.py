"""Metrics of the quantity family: weighted means of a per-instance quantity carried by the confusion pass.

The engine adds, beside the confusion counts, the weighted sum of one quantity per metric
(a misclassification cost, the log loss or the Brier score of the class scores) under the same
forgetting mechanism; the metric is that sum over the weight held, ``sum_s w_s L_s / sum_s w_s``
(:func:`quantity_mean`, over the rows ``x.q`` of the confusion table). The quantity has the
metric's name. Seeds: ``001`` AMIDST deliverable.
"""

from __future__ import annotations

from .base import Metric
from .confusion_sums import DEN
from .dialect import NAN, formula, where

__all__ = ["METRICS", "QUANTITIES"]

_AM = "AMIDST deliverable (seed 001)"
_MOMENT = "a mean of real values: its interval needs their variance, which the confusion table does not hold"

#: the extra per-instance quantities the confusion pass can carry, one per metric of this family (in ``METRICS``
#: order): the sum of quantity ``j`` is row ``x.q[j]`` of the confusion table (-1 when not carried)
QUANTITIES = ("risk", "log_loss", "brier")
_RISK, _LOG_LOSS, _BRIER = range(3)


@formula
def quantity_mean(s, m, x, j):
    """The weighted mean of the pass's extra quantity ``QUANTITIES[j]`` (NaN with no member; MOA: no guard)."""
    total = s[x.q[j], m]
    if x.moa:
        return total / s[DEN, m]
    return where(s[DEN, m] != 0.0, total / s[DEN, m], NAN)


@formula
def _risk(s, v, m, x):
    return quantity_mean(s, m, x, _RISK)


@formula
def _log_loss(s, v, m, x):
    return quantity_mean(s, m, x, _LOG_LOSS)


@formula
def _brier(s, v, m, x):
    return quantity_mean(s, m, x, _BRIER)


#: weighted means of an extra per-instance quantity of the engine's pass (the quantity has the metric's name)
METRICS = [
    Metric(
        "risk",
        "quantity",
        "empirical risk (mean misclassification cost)",
        "sum_s w_s L(x_s, yhat_s, y_s) / sum_s w_s with L = cost[y_s, yhat_s] or cost[s, y_s, yhat_s]",
        f"{_AM} eqs. 2.2-2.3, 2.11",
        _risk,
        (),
        needs="cost",
        table="confusion",
        higher_is_better=False,
        label="risk",
        interval=_MOMENT,
        mean_of="risk",
    ),
    Metric(
        "log_loss",
        "quantity",
        "logarithmic loss",
        "mean of -log p_y (binary: -(y log p + (1 - y) log(1 - p))), p clipped to [1e-15, 1 - 1e-15]",
        f"{_AM} eq. 2.11 with the log loss",
        _log_loss,
        (),
        needs="scores",
        table="confusion",
        higher_is_better=False,
        label="log loss",
        limits=(0.0, None),
        interval=_MOMENT,
    ),
    Metric(
        "brier",
        "quantity",
        "Brier score",
        "mean of (p - y)^2 (binary) or sum_c (p_c - [y == c])^2 (class scores)",
        f"Brier 1950; {_AM} eq. 2.11",
        _brier,
        (),
        needs="scores",
        table="confusion",
        higher_is_better=False,
        label="Brier score",
        limits=(0.0, None),
        interval=_MOMENT,
        mean_of="brier",
    ),
]
if tuple(m.name for m in METRICS) != QUANTITIES:  # pragma: no cover - a declaration error, caught on import
    raise RuntimeError("the quantity family's METRICS must follow QUANTITIES")
