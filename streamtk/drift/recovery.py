"""Recovery of a classifier after a drift, from its evaluation curves: deterioration and restoration time.

Haug, Tramountani & Kasneci (2022), *Standardized evaluation of machine learning
methods for evolving data streams* (the ``float`` framework), measure how a model
copes with a known drift by its **performance deterioration** (the performance
after the drift minus the performance before it, over an interval on each side)
and its **restoration time** (how long after the drift the performance is back at
its level before the drift). This module computes both from a streamtk evaluation
Dataset (:func:`streamtk.evaluate`) and the drift positions, for every model,
estimator and drift at once.

Definitions, for a metric curve ``m`` read at the checkpoints ``instance``
(1-based, so the checkpoint ``instance = i`` has seen the 0-based instances
``< i``), a drift starting at ``s`` (0-based) and ``interval = w`` instances:

* ``before = mean(m at the checkpoints with s - w < instance <= s)``: the level
  just before the new concept (these checkpoints have seen no instance of it);
* ``after = mean(m at the checkpoints with s < instance <= s + w)``;
* ``deterioration = before - after`` when higher is better (accuracy, kappa, ...),
  ``after - before`` when lower is better (error, losses): positive = worse;
* ``trough`` = the worst value after the drift, up to the next drift start (or the
  end); ``largest_drop = before - trough`` (or ``trough - before``);
* ``restoration_time`` = ``instance - s`` at the first checkpoint at or after the
  trough whose value is back at ``before`` (within ``tolerance``); ``0`` when the
  curve never falls below ``before - tolerance``; NaN (and ``restored = False``)
  when it is not back by the next drift or the end of the stream.

Haug et al. take the first point *at or after the drift* where the measure is as
good as before; on their per-batch measures the drop is immediate so both agree,
but a sliding-window or prequential curve falls gradually, and that rule would then
report 0 at once. Searching from the trough keeps the meaning "time until the
previous performance is restored" for every estimator.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.metrics import higher_is_better as orientation
from .._core.validation import check_positive_int
from .._labelled import base_attrs
from .truth import as_truth

__all__ = ["recovery"]


def _one_curve(values, instance, starts, interval, tolerance, higher):
    """Per drift: before, after, deterioration, trough, largest drop, restoration time, restored."""
    sign = 1.0 if higher else -1.0
    out = np.full((7, len(starts)), np.nan)
    n_inst = instance[-1] if instance.size else 0
    for k, s in enumerate(starts):
        pre = (instance > s - interval) & (instance <= s) & np.isfinite(values)
        post = (instance > s) & (instance <= s + interval) & np.isfinite(values)
        if not pre.any() or not post.any():
            continue
        before, after = values[pre].mean(), values[post].mean()
        stop = starts[k + 1] if k + 1 < len(starts) else n_inst
        seg = np.flatnonzero((instance > s) & (instance <= max(stop, s + 1)) & np.isfinite(values))
        if seg.size == 0:
            continue
        scored = sign * values[seg]
        low = seg[np.argmin(scored)]
        trough = values[low]
        drop = sign * (before - trough)
        if drop <= tolerance:
            rest, restored = 0.0, 1.0
        else:
            back = seg[(seg >= low) & (sign * values[seg] >= sign * before - tolerance)]
            rest, restored = (float(instance[back[0]] - s), 1.0) if back.size else (np.nan, 0.0)
        out[:, k] = [before, after, sign * (before - after), trough, drop, rest, restored]
    return out


def recovery(curves: xr.Dataset, true_drifts, *, metric="accuracy", interval=1000, tolerance=0.0,
             higher_is_better=None) -> xr.Dataset:  # fmt: skip
    """Performance deterioration and restoration time after each drift (Haug et al. 2022).

    Parameters
    ----------
    curves : xarray.Dataset
        Evaluation curves with a ``time`` dim and an ``instance`` coordinate, e.g.
        :func:`streamtk.evaluate` output ``(model, estimator, time)``; every other
        dim (model, estimator, fold, run, ...) is kept.
    true_drifts : int, sequence or DriftTruth
        0-based drift starts (change points or ``(start, end)`` pairs; the start is
        the reference point, as in Haug et al.); the same for every curve.
    metric : str, default "accuracy"
        The variable of ``curves`` to read.
    interval : int, default 1000
        Instances on each side of the drift for ``before`` and ``after`` (Haug et
        al.'s ``interval``, here in instances rather than batches).
    tolerance : float, default 0
        How close to ``before`` counts as restored (in the metric's units).
    higher_is_better : bool, optional
        Direction of the metric; default: the metric registry's orientation
        (:func:`streamtk._core.metrics.higher_is_better`: e.g. False for ``error``,
        ``log_loss``, ``mae``, ``ram_hours``; for a name outside the registry, False
        when it contains ``error``, ``loss``, ``cost``, ``time``, ``memory`` and the
        like), True for a value without an orientation.

    Returns
    -------
    xarray.Dataset
        Dims ``(*other dims, drift)``: ``before``, ``after``, ``deterioration``,
        ``trough``, ``largest_drop``, ``restoration_time`` (instances from the drift start;
        NaN: not restored), ``restored`` (bool); and over drifts
        ``mean_deterioration`` and ``mean_restoration_time`` (over restored drifts).
        NaN where a side of a drift has no checkpoint (use a smaller ``every``).

    Examples
    --------
    >>> import numpy as np, streamtk
    >>> from streamtk.drift.recovery import recovery
    >>> y = np.zeros(4000, int); p = y.copy(); p[2000:2300] = 1   # 300 errors after a drift at 2000
    >>> ds = streamtk.evaluate(y, p, windows=[100], every=10)
    >>> r = recovery(ds, [2000], interval=500)
    >>> r["restoration_time"].sel(estimator="window=100").values.tolist()
    [400.0]
    """
    if not isinstance(curves, xr.Dataset) or "time" not in curves.dims or "instance" not in curves.coords:
        raise TypeError("curves must be an evaluation Dataset with a 'time' dim and an 'instance' coordinate")
    if metric not in curves:
        raise ValueError(f"metric {metric!r} is not in curves; it has {sorted(map(str, curves.data_vars))}")
    interval = check_positive_int(interval, "interval")
    if not np.isfinite(tolerance) or tolerance < 0:
        raise ValueError(f"tolerance must be a finite number >= 0, got {tolerance!r}")
    truth = as_truth(true_drifts)
    if truth.per_run:
        raise ValueError("recovery needs the same drifts for every curve (one DriftTruth shared by all)")
    starts = truth.start[0].tolist()
    if higher_is_better is None:  # the registry's orientation (a value without one is read as higher-is-better)
        higher_is_better = orientation(metric) is not False
    higher = bool(higher_is_better)
    da = curves[metric]
    instance = np.asarray(curves["instance"].values, dtype=np.int64)
    other = [d for d in da.dims if d != "time"]
    vals = da.transpose(*other, "time").values.astype(np.float64)
    flat = vals.reshape(-1, vals.shape[-1])
    res = np.stack([_one_curve(row, instance, starts, interval, tolerance, higher) for row in flat])
    res = res.reshape(vals.shape[:-1] + (7, len(starts)))
    names = ["before", "after", "deterioration", "trough", "largest_drop", "restoration_time", "restored"]
    meta = {
        "before": ("mean of the metric over (s - interval, s]", "metric"),
        "after": ("mean of the metric over (s, s + interval]", "metric"),
        "deterioration": ("performance deterioration (positive = worse after the drift)", "metric"),
        "trough": ("worst value of the metric between the drift and the next one", "metric"),
        "largest_drop": ("largest fall below the level before the drift", "metric"),
        "restoration_time": ("instances from the drift start until the level before it is restored", "instances"),
        "restored": ("restored before the next drift (or the end)", "1"),
    }
    dims = tuple(other) + ("drift",)
    coords = {k: v for k, v in da.coords.items() if "time" not in v.dims}
    data = {}
    for i, name in enumerate(names):
        arr = res[..., i, :]
        if name == "restored":
            arr = arr == 1.0
        long_name, units = meta[name]
        data[name] = (dims, arr, {"long_name": long_name, "units": metric if units == "metric" else units})
    ds = xr.Dataset(data, coords=coords)
    ds = ds.assign_coords(drift=("drift", np.asarray(starts, np.int64)))
    with np.errstate(invalid="ignore"):
        ds["mean_deterioration"] = ds["deterioration"].mean("drift", skipna=True) if starts else np.nan
        ds["mean_restoration_time"] = ds["restoration_time"].mean("drift", skipna=True) if starts else np.nan
    ds["mean_deterioration"].attrs = {"long_name": "mean performance deterioration over drifts", "units": metric}
    ds["mean_restoration_time"].attrs = {"long_name": "mean restoration time over restored drifts",
                                         "units": "instances"}  # fmt: skip
    ds.attrs = base_attrs("recovery after drift", metric=metric, interval=interval, tolerance=tolerance,
                          higher_is_better=higher, true_drifts=truth.describe(),
                          reference="Haug, Tramountani & Kasneci (2022), float: drift performance deterioration "
                          "and restoration time")  # fmt: skip
    return ds
