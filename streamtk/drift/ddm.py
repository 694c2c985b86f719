"""DDM, the Drift Detection Method of Gama, Medas, Castillo & Rodrigues (2004), as in MOA.

On a 0/1 error stream, with MOA's counter ``c`` (1 after a reset): ``p += (x - p) / c``,
``s = sqrt(p (1 - p) / c)``, ``c += 1``; nothing more while ``c < min_instances``; if
``p + s <= psmin`` store ``pmin, smin, psmin``; drift when ``c > min_instances`` and
``p + s > pmin + drift_level smin``, else warning when ``p + s > pmin + warning_level smin``; after a
drift the detector restarts. This is the exact order of operations of MOA's ``DDM.java`` (the restart
MOA performs lazily at the next input is done right after the drift here, which is equivalent), so
the detection indices are MOA's. Kernel: :mod:`streamtk._kernels.detectors.ddm`.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._kernels.detectors import ddm as K
from ._common import (
    ChunkedDetector,
    GridParam,
    check_level_order,
    check_nonnegative_int,
    group_settings,
)

__all__ = ["DDM", "ddm", "DEFAULTS"]

#: MOA's defaults (Gama et al. 2004: warning at 2 sigma, drift at 3 sigma)
DEFAULTS = {"min_instances": 30, "warning_level": 2.0, "drift_level": 3.0}
# Which path runs a grid (single core, benchmarks/bench_detectors.py): the general path costs about
# _NS_PER_STATE ns per input and distinct state (settings with the same min_instances and drift_level share
# one: the warning level never changes the state), the SIMD lanes about _NS_PER_LANE_GROUP ns per input and
# group of LANES states; the cheaper one is taken.
_NS_PER_STATE = 8.3
_NS_PER_LANE_GROUP = 12.2
_TRACE = {k: (dt, None) for k, dt in (("statistic", np.float64), ("threshold", np.float64),
                                      ("warning_threshold", np.float64), ("warning", np.bool_),
                                      ("detection", np.bool_))}  # fmt: skip


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
            **{p.name: p.values for p in grid},
            "reference": "Gama, Medas, Castillo & Rodrigues (2004); MOA DDM.java",
        }
        super().__init__(grid=grid, trace=trace, lead_dims=lead_dims, params=params)
        check_level_order(self.settings, "warning_level", "drift_level", warning_below=True)
        # settings with the same min_instances and drift_level share one state for good
        members, start = group_settings([(s["min_instances"], s["drift_level"]) for s in self.settings])
        first = [self.settings[q] for q in members[start[:-1]]]
        warn = np.array([s["warning_level"] for s in self.settings], np.float64)
        self._sets = (
            np.array([s["min_instances"] for s in first], np.float64),
            np.array([s["drift_level"] for s in first], np.float64),
            start,
            members,
            warn,
        )
        n_states = len(first)
        self._use_lanes = bool(n_states * _NS_PER_STATE > _NS_PER_LANE_GROUP * -(-n_states // K.LANES))

    def _setup(self, n_rows):
        self._state = np.empty((n_rows, self._sets[0].shape[0], K.DDM_STATE))
        self._state[...] = K.RESET

    def _run(self, x2d, count0):
        x2d = np.ascontiguousarray(x2d)

        def call(a, b, tr, rec):
            lanes = np.empty(K.LANES * K.LANE_ROWS) if self._use_lanes else None
            K.run(x2d[a:b], count0, self._sets, self._state[a:b], rec, tr, lanes)

        return self._run_rows(x2d, [self._state], _TRACE, call)

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
        MOA's ``minNumInstances``: no test while MOA's counter (1 after a restart, incremented after
        each input) is below it; warnings from the ``(min_instances - 1)``-th input after a restart,
        drifts one input later.
    warning_level, drift_level : float or sequence (default 2 and 3)
        Multiples of ``smin``: warning when :math:`p + s > p_{min} + 2 s_{min}`, drift when
        :math:`p + s > p_{min} + 3 s_{min}`, with :math:`s = \sqrt{p(1-p)/c}`. A setting whose warning
        level is above its drift level is an error.
    trace, lead_dims
        As in :func:`streamtk.drift.page_hinkley.page_hinkley`.

    Returns
    -------
    xarray.Dataset
        Dims ``(*lead, [min_instances, warning_level, drift_level], time)`` with ``statistic``
        (``p + s``), ``threshold`` (drift level; NaN before a minimum exists), ``warning_threshold``,
        ``warning``, ``detection``, ``n_detections`` and ``detection_index``.

    Notes
    -----
    A grid of settings runs in one pass. Settings with the same ``min_instances`` and
    ``drift_level`` share one state (the warning level never changes the state); with several such
    states the grid runs on SIMD lanes, one lane per state
    (:mod:`streamtk._kernels.detectors.ddm`), with the same results bit for bit.

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
