"""Building blocks shared by the scoring conventions: searches over all rows at once, statistics across runs.

:class:`Keyed` lays the events of every ``(setting, run)`` row on one sorted axis
(``key = row * M + index`` with ``M`` larger than any index), so that "the first
event of row ``i`` at or after ``a``" or "the number of events of row ``i`` in
``[a, b)``" for every row and drift is one ``numpy.searchsorted`` call.

:func:`delay_summary` reduces per-run delays to the statistics reported across
runs: mean, median, sample standard deviation and the Student-t confidence interval
of the mean.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import stats

from .events import Events

__all__ = ["Keyed", "delay_summary", "ratio"]


class Keyed:
    """The events of :class:`Events` on one sorted key axis (see the module docstring)."""

    def __init__(self, events: Events, n_eff: int):
        self.events = events
        self.m = int(n_eff) + 2
        self.row = events.row_of_each()
        self.keys = self.row * self.m + events.flat
        self.flat = events.flat
        self.offsets = events.offsets

    def _key(self, rows, x):
        return rows * self.m + np.clip(x, -1, self.m - 1)

    def position(self, rows, x):
        """Global position of the first event of ``rows`` at index ``>= x`` (may belong to the next row)."""
        return np.searchsorted(self.keys, self._key(rows, x), side="left")

    def count_below(self, rows, x):
        """Events of each row at index ``< x``."""
        return self.position(rows, x) - self.offsets[rows]

    def count_between(self, rows, a, b):
        """Events of each row in ``[a, b)``."""
        return np.maximum(self.position(rows, b) - self.position(rows, a), 0)

    def first_in(self, rows, a, b):
        """``(found, index)``: the first event of each row in ``[a, b)`` (index -1 where none)."""
        pos = self.position(rows, a)
        inside = pos < self.offsets[rows + 1]
        if self.flat.size == 0:
            return np.zeros(np.shape(pos), bool), np.full(np.shape(pos), -1, np.int64)
        idx = np.where(inside, self.flat[np.minimum(pos, self.flat.size - 1)], -1)
        found = inside & (idx < b)
        return found, np.where(found, idx, -1)


def ratio(num, den, *, zero_den=np.nan):
    """``num / den`` elementwise, ``zero_den`` where ``den == 0``."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = num / den
    return np.where(den == 0, zero_den, out)


def delay_summary(delays: np.ndarray, *, alpha: float) -> dict:
    """Statistics over the run axis (axis -2) of ``delays`` ``(..., runs, drifts)``; NaN = missed.

    Returns ``mean``, ``median``, ``std`` (ddof=1; NaN with fewer than two
    detections), ``ci_low`` / ``ci_high`` (Student-t interval of the mean at level
    ``1 - alpha``: ``mean -/+ t_{1-alpha/2, m-1} std / sqrt(m)`` over the ``m`` runs
    that detected the drift; NaN when ``m < 2``) and ``count`` (= m).
    """
    hit = ~np.isnan(delays)
    m = hit.sum(axis=-2)
    total = np.where(hit, delays, 0.0).sum(axis=-2)
    mean = ratio(total, m)
    dev = np.where(hit, delays - np.expand_dims(mean, -2), 0.0)
    var = ratio((dev**2).sum(axis=-2), m - 1)
    std = np.where(m > 1, np.sqrt(var), np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices: undetected drifts, NaN is the answer
        median = np.nanmedian(delays, axis=-2) if delays.size else np.full(m.shape, np.nan)
    tq = stats.t.ppf(1.0 - alpha / 2.0, np.maximum(m - 1, 1))
    half = np.where(m > 1, tq * std / np.sqrt(np.maximum(m, 1)), np.nan)
    return {"mean": mean, "median": median, "std": std, "ci_low": mean - half, "ci_high": mean + half, "count": m}
