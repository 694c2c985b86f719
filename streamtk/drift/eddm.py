"""EDDM, the Early Drift Detection Method of Baena-Garcia et al. (2006), as in MOA.

On each error the distance ``d`` (in instances) to the previous error updates a running mean and
population standard deviation (Welford), ``m2s = mean + 2 std``; ``m2smax`` takes ``m2s`` when it is
larger and MOA's counter exceeds ``min_instances``; otherwise, once the counter exceeds
``min_instances`` and more than ``min_errors`` errors have been seen, drift when ``m2s / m2smax <
drift_level`` (0.90), warning when ``< warning_level`` (0.95). After a drift the detector restarts.
This follows MOA's ``EDDM.java`` step by step (including the warning flag that persists over correct
predictions until the next error). Kernel: :mod:`streamtk._kernels.detectors.eddm`.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._kernels.detectors import eddm as K
from ._common import ChunkedDetector, GridParam, check_level_order, check_nonnegative_int

__all__ = ["EDDM", "eddm", "DEFAULTS"]

#: MOA's defaults (Baena-Garcia et al. 2006)
DEFAULTS = {"min_instances": 30, "min_errors": 30, "warning_level": 0.95, "drift_level": 0.90}
_PARAMS = ("min_instances", "min_errors", "warning_level", "drift_level")
_TRACE = {"statistic": (np.float64, None), "warning": (np.bool_, None), "detection": (np.bool_, None)}


def _check_ratio_level(value, name):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number in (0, 1), got {value!r}")
    value = float(value)
    if not (0.0 < value < 1.0):
        raise ValueError(f"{name} must be in (0, 1), got {value!r}")
    return value


class EDDM(ChunkedDetector):
    """EDDM over a stream processed in one pass or chunk by chunk (see :func:`eddm`)."""

    title = "EDDM drift detection"
    binary = True

    def __init__(self, *, min_instances=30, min_errors=30, warning_level=0.95, drift_level=0.90,
                 trace=True, lead_dims=None):  # fmt: skip
        grid = [
            GridParam("min_instances", min_instances, check_nonnegative_int),
            GridParam("min_errors", min_errors, check_nonnegative_int),
            GridParam("warning_level", warning_level, _check_ratio_level),
            GridParam("drift_level", drift_level, _check_ratio_level),
        ]
        params = {**{p.name: p.values for p in grid}, "reference": "Baena-Garcia et al. (2006); MOA EDDM.java"}
        super().__init__(grid=grid, trace=trace, lead_dims=lead_dims, params=params)
        check_level_order(self.settings, "warning_level", "drift_level", warning_below=False)
        self._sets = tuple(np.array([s[k] for s in self.settings], np.float64) for k in _PARAMS)

    def _setup(self, n_rows):
        self._state = np.zeros((n_rows, len(self.settings), K.EDDM_STATE))
        self._state[..., [0, 1, 2, 3, 4, 5, 6, 8]] = K.RESET  # MOA's resetLearning; the warning flag 0

    def _run(self, x2d, count0):
        x2d = np.ascontiguousarray(x2d)

        def call(a, b, tr, rec):
            K.run(x2d[a:b], count0, self._sets, self._state[a:b], rec, tr)

        return self._run_rows(x2d, [self._state], _TRACE, call)

    def _trace_meta(self):
        return {
            "statistic": ("setting", {
                "long_name": "m2s / m2smax (mean + 2 std of the distance between errors over its maximum)",
                "units": "1",
                "description": "NaN while m2smax is 0; an alarm is raised when it falls below the threshold"}),
            "warning": ("setting", {"long_name": "in the warning zone at this instance"}),
            "detection": ("setting", {"long_name": "drift detected at this instance"}),
        }  # fmt: skip

    def _constant_vars(self):
        return {
            "threshold": (lambda s: s["drift_level"], {"long_name": "drift level (alarm when statistic < it)"}),
            "warning_threshold": (lambda s: s["warning_level"], {"long_name": "warning level"}),
        }


def eddm(x, *, min_instances=30, min_errors=30, warning_level=0.95, drift_level=0.90, trace=True, lead_dims=None):
    r"""EDDM (Baena-Garcia et al. 2006) on recorded 0/1 error streams, as MOA's ``EDDM``.

    Parameters
    ----------
    x : array_like or xarray.DataArray, shape (..., n)
        0/1 error indicators (1 = misclassified); anything else is refused.
    min_instances : int or sequence (default 30)
        MOA's ``FDDM_MINNUMINSTANCES``: ``m2smax`` is updated and alarms raised only while MOA's
        counter (1 after a restart, incremented at each input before use) exceeds it, i.e. from the
        ``min_instances``-th input on.
    min_errors : int or sequence (default 30)
        Alarms need more than this many errors since the restart.
    warning_level, drift_level : float or sequence in (0, 1) (default 0.95, 0.90)
        Warning when :math:`m2s/m2s_{max} < 0.95`, drift when :math:`< 0.90`. A setting whose warning
        level is below its drift level is an error.
    trace, lead_dims
        As in :func:`streamtk.drift.page_hinkley.page_hinkley`.

    Returns
    -------
    xarray.Dataset
        Dims ``(*lead, [grid dims], time)``: ``statistic`` (``m2s / m2smax``, NaN while
        ``m2smax = 0``), ``threshold``, ``warning_threshold``, ``warning``, ``detection``,
        ``n_detections``, ``detection_index``.

    See Also
    --------
    moa.classifiers.core.driftdetection.EDDM : identical detection indices.
    river.drift.binary.EDDM : river's version.

    Examples
    --------
    >>> from streamtk.drift.eddm import eddm
    >>> from streamtk.drift.synthetic import error_stream
    >>> x = error_stream(4000, [2000], [0.05, 0.5], seed=0)
    >>> eddm(x)["detection_index"].values.tolist()  # EDDM is quick to alarm, also falsely
    [744, 1271, 2003, 2056, 2107]
    """
    return EDDM(min_instances=min_instances, min_errors=min_errors, warning_level=warning_level,
                drift_level=drift_level, trace=trace, lead_dims=lead_dims).update(x).result()  # fmt: skip
