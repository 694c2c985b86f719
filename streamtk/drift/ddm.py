"""DDM, the Drift Detection Method of Gama, Medas, Castillo & Rodrigues (2004), as in MOA.

On a 0/1 error stream, with MOA's counter ``c`` (1 after a reset):
``p += (x - p) / c``, ``s = sqrt(p (1 - p) / c)``, ``c += 1``; nothing more while
``c < min_instances``; if ``p + s <= psmin`` store ``pmin, smin, psmin``; drift when
``c > min_instances`` and ``p + s > pmin + drift_level smin``, else warning when
``p + s > pmin + warning_level smin``; after a drift the detector restarts.
This is the exact order of operations of MOA's ``DDM.java`` (the restart MOA
performs lazily at the next input is done right after the drift here, which is
equivalent), so the detection indices are MOA's.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._kernels import detectors as K
from .._kernels import detectors_ddm as KL
from ._common import ChunkedDetector, GridParam, check_nonnegative_int, group_settings, run_rows, run_with_capacity

__all__ = ["DDM", "ddm"]

# Which kernel runs a grid (single core, AMD EPYC Zen 4, benchmarks/bench_detectors.py): once drifts have
# separated them, the scalar kernel costs about _NS_PER_STATE ns per input and distinct state (settings with
# the same min_instances and drift_level share one: the warning level never changes the state); the SIMD-lane
# kernel (detectors_ddm.py) about _NS_PER_LANE_GROUP ns per input and group of LANES distinct states. Before
# the first drift the scalar kernel shares one state among all settings, so the lanes are taken only when
# they win clearly (three or more distinct states).
_NS_PER_STATE = 8.3
_NS_PER_LANE_GROUP = 12.2
_MIN_STATES_FOR_LANES = 3


def _check_level(value, name):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number > 0, got {value!r}")
    value = float(value)
    if not (np.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a finite real number > 0, got {value!r}")
    return value


class DDM(ChunkedDetector):
    """DDM over a stream processed in one pass or chunk by chunk (see :func:`ddm`)."""

    title = "DDM drift detection"
    binary = True

    def __init__(self, *, min_instances=30, warning_level=2.0, drift_level=3.0, trace=True, lead_dims=None):
        grid = [
            GridParam("min_instances", min_instances, check_nonnegative_int),
            GridParam("warning_level", warning_level, _check_level),
            GridParam("drift_level", drift_level, _check_level),
        ]
        params = {
            "min_instances": grid[0].values, "warning_level": grid[1].values, "drift_level": grid[2].values,
            "reference": "Gama, Medas, Castillo & Rodrigues (2004); MOA DDM.java",
        }  # fmt: skip
        super().__init__(grid=grid, trace=trace, lead_dims=lead_dims, params=params)
        self._min_n = np.array([s["min_instances"] for s in self.settings], np.float64)
        self._warn = np.array([s["warning_level"] for s in self.settings], np.float64)
        self._drift = np.array([s["drift_level"] for s in self.settings], np.float64)
        # settings with the same min_instances share one state until a drift restarts one of them
        self._gmembers, self._gstart = group_settings([s["min_instances"] for s in self.settings])
        # ... and settings with the same min_instances and drift_level share one for good (SIMD lanes)
        members, start = group_settings([(s["min_instances"], s["drift_level"]) for s in self.settings])
        n_states = len(start) - 1
        n_lanes = KL.LANES * -(-n_states // KL.LANES)
        self._use_lanes = bool(
            n_states >= _MIN_STATES_FOR_LANES and n_states * _NS_PER_STATE > _NS_PER_LANE_GROUP * (n_lanes // KL.LANES)
        )
        if self._use_lanes:
            first = members[start[:-1]]  # a setting of each distinct state
            self._lane_min_n = np.zeros(n_lanes)
            self._lane_drift = np.full(n_lanes, np.inf)  # padding lanes never drift and have no settings
            self._lane_min_n[:n_states] = self._min_n[first]
            self._lane_drift[:n_states] = self._drift[first]
            self._lane_start = np.concatenate([start, np.full(n_lanes - n_states, start[-1])]).astype(np.int64)
            self._lane_members = members

    def _setup(self, n_rows):
        self._state = np.zeros((n_rows, len(self.settings), K.DDM_STATE_SIZE))
        self._state[...] = [1.0, 1.0, 0.0, np.inf, np.inf, np.inf]  # K.ddm_reset: MOA's resetLearning
        self._in_sync = np.ones((n_rows, len(self.settings)), np.bool_)
        if self._use_lanes:
            self._lane_state = np.zeros((n_rows, K.DDM_STATE_SIZE, len(self._lane_min_n)))
            self._lane_state[...] = np.array([1.0, 1.0, 0.0, np.inf, np.inf, np.inf])[:, None]

    def _run(self, x2d, count0):
        n_rows, m = x2d.shape
        n_set = len(self.settings)
        shp = (n_rows, n_set, m) if self.trace else (0, 0, 0)
        x2d = np.ascontiguousarray(x2d)

        def once(det_idx, det_n):
            out = {k: np.empty(shp) for k in ("statistic", "threshold", "warning_threshold")}
            out["warning"] = np.empty(shp, np.bool_)
            out["detection"] = np.empty(shp, np.bool_)

            def rows(a, b):
                outs = [out[k][a:b] for k in ("statistic", "threshold", "warning_threshold", "warning", "detection")]
                if self._use_lanes:
                    KL.ddm_lanes(x2d[a:b], count0, self._lane_min_n, self._lane_drift, self._lane_state[a:b],
                                 self._lane_start, self._lane_members, self._min_n, self._warn, self._drift,
                                 self.trace, *outs, det_idx[a:b], det_n[a:b])  # fmt: skip
                else:
                    K.ddm_grid(x2d[a:b], count0, self._min_n, self._warn, self._drift, self._gstart,
                               self._gmembers, self._state[a:b], self._in_sync[a:b], self.trace, *outs,
                               det_idx[a:b], det_n[a:b])  # fmt: skip

            run_rows(rows, n_rows)
            return out

        states = [self._lane_state] if self._use_lanes else [self._state, self._in_sync]
        return run_with_capacity(once, states, n_rows, n_set, m)

    def _trace_meta(self):
        return {
            "statistic": ("setting", {"long_name": "p + s (error rate plus its standard deviation)", "units": "1"}),
            "threshold": ("setting", {
                "long_name": "drift level pmin + drift_level * smin",
                "description": "NaN until a minimum has been stored (after min_instances inputs)", "units": "1"}),
            "warning_threshold": ("setting", {"long_name": "warning level pmin + warning_level * smin", "units": "1"}),
            "warning": ("setting", {"long_name": "in the warning zone at this instance"}),
            "detection": ("setting", {"long_name": "drift detected at this instance"}),
        }  # fmt: skip


def ddm(x, *, min_instances=30, warning_level=2.0, drift_level=3.0, trace=True, lead_dims=None):
    r"""DDM (Gama et al. 2004) on recorded 0/1 error streams, as MOA's ``DDM``.

    Parameters
    ----------
    x : array_like or xarray.DataArray, shape (..., n)
        0/1 error indicators (1 = misclassified); anything else is refused.
    min_instances : int or sequence (default 30)
        MOA's ``minNumInstances``: no test while MOA's counter (1 after a restart,
        incremented after each input) is below it; warnings from the
        ``(min_instances - 1)``-th input after a restart, drifts one input later.
    warning_level, drift_level : float or sequence (default 2 and 3)
        Multiples of ``smin``: warning when :math:`p + s > p_{min} + 2 s_{min}`,
        drift when :math:`p + s > p_{min} + 3 s_{min}`, with
        :math:`s = \sqrt{p(1-p)/c}`.
    trace, lead_dims
        As in :func:`streamtk.drift.page_hinkley.page_hinkley`.

    Returns
    -------
    xarray.Dataset
        Dims ``(*lead, [min_instances, warning_level, drift_level], time)`` with
        ``statistic`` (``p + s``), ``threshold`` (drift level; NaN before a
        minimum exists), ``warning_threshold``, ``warning``, ``detection``,
        ``n_detections`` and ``detection_index``.

    Notes
    -----
    A grid of settings runs in one pass. Settings with the same ``min_instances``
    share one state until a drift restarts one of them; settings that also share
    ``drift_level`` share one for good (the warning level never changes the state).
    With three or more such distinct states the grid runs on SIMD lanes, one lane
    per state (:mod:`streamtk._kernels.detectors_ddm`), with the same results bit for
    bit: on a grid of 2 warning x 5 drift levels, one pass is 6x faster than ten
    calls (``benchmarks/bench_detectors.py``).

    See Also
    --------
    moa.classifiers.core.driftdetection.DDM : identical detection indices.
    river.drift.binary.DDM : river's version (its warm-up and reset differ).

    Examples
    --------
    >>> import numpy as np
    >>> from streamtk.drift.ddm import ddm
    >>> x = np.r_[np.zeros(100), np.ones(20)]
    >>> ddm(x)["detection_index"].values.tolist()
    [100]
    """
    return DDM(min_instances=min_instances, warning_level=warning_level, drift_level=drift_level,
               trace=trace, lead_dims=lead_dims).update(x).result()  # fmt: skip
