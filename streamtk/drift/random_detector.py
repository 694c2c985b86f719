"""A detector that ignores the data and alarms at random (Zliobaite et al. 2015, section 5.3).

Zliobaite, Bifet, Read, Pfahringer & Holmes (2015), ``seeds/003_*.txt`` section
5.3 ("DDM-random"): instead of a change test, "a random change detector, that
does not consider any data and simply alarms a change at every time step with
probability p", keeping DDM's warm-up of 30 instances, so that with ``p = 1`` an
alarm is raised at every 30th instance.
"""

from __future__ import annotations

import numpy as np

from .._core.validation import as_rng, check_probability
from ._common import ChunkedDetector, GridParam, check_nonnegative_int

__all__ = ["RandomDetector", "random_detector"]


class RandomDetector(ChunkedDetector):
    """Random alarms over a stream processed in one pass or chunk by chunk (see :func:`random_detector`)."""

    title = "random change detector"

    def __init__(self, *, p, seed, warm_up=30, trace=True, lead_dims=None):
        grid = [GridParam("p", p, check_probability), GridParam("warm_up", warm_up, check_nonnegative_int)]
        self._rng = as_rng(seed)
        params = {
            "p": grid[0].values, "warm_up": grid[1].values, "seed": repr(seed),
            "reference": "Zliobaite et al. (2015) section 5.3, DDM-random",
        }  # fmt: skip
        super().__init__(grid=grid, trace=trace, lead_dims=lead_dims, params=params)

    def _draw_next(self, r, q, start):
        """Next alarm index after a (re)start at ``start`` (absolute), or -1 for never."""
        s = self.settings[q]
        if s["p"] == 0.0:
            return -1
        gap = int(self._gens[r][q].geometric(s["p"]))  # >= 1: steps until the first success
        return start + max(s["warm_up"] - 1, 0) + gap - 1

    def _setup(self, n_rows):
        n_set = len(self.settings)
        children = self._rng.spawn(n_rows * n_set)
        self._gens = [[children[r * n_set + q] for q in range(n_set)] for r in range(n_rows)]
        self._next = np.array([[self._draw_next(r, q, 0) for q in range(n_set)] for r in range(n_rows)], np.int64)

    def _run(self, x2d, count0):
        n_rows, m = x2d.shape
        n_set = len(self.settings)
        end = count0 + m
        found = [[[] for _ in range(n_set)] for _ in range(n_rows)]
        for r in range(n_rows):
            for q in range(n_set):
                nxt = self._next[r, q]
                while 0 <= nxt < end:
                    found[r][q].append(nxt)
                    nxt = self._draw_next(r, q, nxt + 1)
                self._next[r, q] = nxt
        cap = max((len(f) for row in found for f in row), default=0)
        det_idx = np.full((n_rows, n_set, max(cap, 1)), -1, np.int64)
        det_n = np.zeros((n_rows, n_set), np.int64)
        trace = {}
        if self.trace:
            det = np.zeros((n_rows, n_set, m), np.bool_)
        for r in range(n_rows):
            for q in range(n_set):
                f = found[r][q]
                det_n[r, q] = len(f)
                det_idx[r, q, : len(f)] = f
                if self.trace and f:
                    det[r, q, np.asarray(f) - count0] = True
        if self.trace:
            trace["detection"] = det
        return trace, det_idx, det_n

    def _trace_meta(self):
        return {"detection": ("setting", {"long_name": "random alarm at this instance"})}


def random_detector(x, *, p, seed, warm_up=30, trace=True, lead_dims=None):
    """Random alarms with probability ``p`` per step after a warm-up (DDM-random).

    Parameters
    ----------
    x : array_like or xarray.DataArray, shape (..., n)
        Only its shape (and leading-dim labels) is used: the detector ignores the
        data. Each row gets its own independent random stream.
    p : float or sequence in [0, 1]
        Alarm probability per step once the warm-up is over.
    seed : int, numpy.random.SeedSequence or numpy.random.Generator
        Required (reproducibility). Each (row, setting) draws from its own child
        generator (``Generator.spawn``), so results do not depend on chunking.
    warm_up : int or sequence (default 30, DDM's warm-up)
        After a (re)start an alarm is possible only from the ``warm_up``-th
        instance on; with ``p = 1`` alarms fall on every ``warm_up``-th instance.

    Returns
    -------
    xarray.Dataset
        ``n_detections``, ``detection_index`` and (if ``trace``) ``detection``
        with dims ``(*lead, [p, warm_up], time)``.

    Notes
    -----
    The waiting time to the next alarm after the warm-up is drawn as a
    geometric variable, which is the same law as a Bernoulli(p) draw per step.

    Examples
    --------
    >>> import numpy as np
    >>> from streamtk.drift.random_detector import random_detector
    >>> random_detector(np.zeros(100), p=1.0, seed=0)["detection_index"].values.tolist()
    [29, 59, 89]
    """
    return RandomDetector(p=p, seed=seed, warm_up=warm_up, trace=trace, lead_dims=lead_dims).update(x).result()
