"""Metrics of the quantity family: weighted means of a per-instance quantity carried by the confusion pass.

The engine adds, beside the confusion counts, the weighted sum of one quantity per metric
(a misclassification cost, the log loss or the Brier score of the class scores) under the same
forgetting mechanism; the metric is that sum over the weight held, ``sum_s w_s L_s / sum_s w_s``
(:meth:`~streamtk._core.metrics.confusion.ConfusionSums.quantity_mean`). The quantity has the
metric's name. Seeds: ``001`` AMIDST deliverable.
"""

from __future__ import annotations

from .base import Metric

__all__ = ["METRICS"]

_AM = "AMIDST deliverable (seed 001)"

#: weighted means of an extra per-instance quantity of the engine's pass (the quantity has the metric's name)
METRICS = [
    Metric(
        "risk",
        "quantity",
        "empirical risk (mean misclassification cost)",
        "sum_s w_s L(x_s, yhat_s, y_s) / sum_s w_s with L = cost[y_s, yhat_s] or cost[s, y_s, yhat_s]",
        f"{_AM} eqs. 2.2-2.3, 2.11",
        lambda s: s.quantity_mean("risk"),
        ("den",),
        needs="cost",
        higher_is_better=False,
    ),
    Metric(
        "log_loss",
        "quantity",
        "logarithmic loss",
        "mean of -log p_y (binary: -(y log p + (1 - y) log(1 - p))), p clipped to [1e-15, 1 - 1e-15]",
        f"{_AM} eq. 2.11 with the log loss",
        lambda s: s.quantity_mean("log_loss"),
        ("den",),
        needs="scores",
        higher_is_better=False,
    ),
    Metric(
        "brier",
        "quantity",
        "Brier score",
        "mean of (p - y)^2 (binary) or sum_c (p_c - [y == c])^2 (class scores)",
        f"Brier 1950; {_AM} eq. 2.11",
        lambda s: s.quantity_mean("brier"),
        ("den",),
        needs="scores",
        higher_is_better=False,
    ),
]
