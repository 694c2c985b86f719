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
from ._common import ChunkedDetector, GridParam, check_nonnegative_int, group_settings, run_rows, run_with_capacity

__all__ = ["DDM", "ddm"]


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

    def _setup(self, n_rows):
        self._state = np.zeros((n_rows, len(self.settings), K.DDM_STATE_SIZE))
        self._state[...] = [1.0, 1.0, 0.0, np.inf, np.inf, np.inf]  # K.ddm_reset: MOA's resetLearning
        self._in_sync = np.ones((n_rows, len(self.settings)), np.bool_)

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
                K.ddm_grid(x2d[a:b], count0, self._min_n, self._warn, self._drift, self._gstart, self._gmembers,
                           self._state[a:b], self._in_sync[a:b], self.trace,
                           *[out[k][a:b] for k in ("statistic", "threshold", "warning_threshold", "warning",
                                                   "detection")], det_idx[a:b], det_n[a:b])  # fmt: skip

            run_rows(rows, n_rows)
            return out

        return run_with_capacity(once, [self._state, self._in_sync], n_rows, n_set, m)

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
