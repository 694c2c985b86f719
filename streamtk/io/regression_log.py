"""Logs of regressors and interval predictors: :func:`make_regression_log` and :func:`log_task`.

A regression log is a Dataset like a classification log (:func:`streamtk.io.make_log`), with real values:

* ``y_true`` on ``(time,)`` (``(time, target)`` for several targets): the targets, NaN where an instance has none;
* ``y_pred`` on ``(model, time)`` (``(model, time, target)``): point predictions;
* interval predictors: ``lower`` and ``upper`` on ``(model, time)`` and/or ``y_quantiles`` on
  ``(model, time, quantile)`` with the levels as the ``quantile`` coordinate;
* optionally ``weights`` on ``(time,)`` or ``(model, time)``;
* ``attrs["task"]``: ``"regression"`` or ``"intervals"``.

It round-trips through netCDF, zarr and npz like any log, and through CSV / Parquet as columns (``y_true``,
``y_pred`` or ``y_pred:<model>``, ``lower``, ``upper``, ``weights``): :func:`log_task` then tells the task from the
variables and values when the attribute was lost. :func:`streamtk.regression_curves` and
:func:`streamtk.interval_curves` take such a log in place of their arrays; ``streamtk evaluate --task`` too.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from streamtk._labelled import base_attrs, netcdf_safe, time_coords

__all__ = ["make_regression_log", "log_task", "TASKS"]

#: the tasks a log can hold (``streamtk evaluate --task``)
TASKS = ("classification", "regression", "intervals")


def _real(values, name, shape_hint):
    arr = np.asarray(values)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold real numbers, got an array of dtype {arr.dtype} ({shape_hint})")
    return arr.astype(np.float64)


def _per_model(values, name, m, n, tail=()):
    arr = _real(values, name, f"(n,) or (n_models, n){''.join(f', {t}' for t in tail)}")
    if arr.ndim == 1 + len(tail):
        arr = arr[None]
    if arr.shape[:2] != (m, n) or arr.ndim != 2 + len(tail):
        want = (m, n, *tail) if tail else (m, n)
        raise ValueError(f"{name} must have shape {want[1:]} or {want}, got {arr.shape}")
    return arr


def make_regression_log(
    y_true,
    y_pred=None,
    *,
    lower=None,
    upper=None,
    y_quantiles=None,
    quantiles=None,
    models=None,
    weights=None,
    attrs=None,
) -> xr.Dataset:
    """Build a regression or prediction-interval log Dataset from arrays (layout: this module's docstring).

    Parameters
    ----------
    y_true : array-like ``(n,)`` or ``(n, targets)``
        Targets; NaN marks an instance without a target (not evaluated).
    y_pred : array-like ``(n,)``, ``(n_models, n)`` or ``(n_models, n, targets)``, optional
        Point predictions.
    lower, upper : array-like ``(n,)`` or ``(n_models, n)``, optional
        Interval bounds (both or neither).
    y_quantiles : array-like ``(n, q)`` or ``(n_models, n, q)``, optional
        Quantile predictions, one column per level of ``quantiles``.
    quantiles : sequence of float, optional
        The levels of the columns of ``y_quantiles``.
    models : sequence of str, optional
        Model names; default ``model0``, ``model1``, ...
    weights : array-like ``(n,)`` or ``(n_models, n)``, optional
        Non-negative finite instance weights.
    attrs : dict, optional
        Extra Dataset attributes.

    Returns
    -------
    xarray.Dataset
        ``attrs["task"]`` is ``"intervals"`` with bounds or quantiles, else ``"regression"``.

    Examples
    --------
    >>> from streamtk.io import make_regression_log
    >>> log = make_regression_log([1.0, 2.0, 4.0], [[1.5, 2.0, 3.0]], models=["lr"])
    >>> log.attrs["task"], log.y_pred.dims
    ('regression', ('model', 'time'))
    """
    yt = _real(y_true, "y_true", "(n,) or (n, targets)")
    if yt.ndim not in (1, 2):
        raise ValueError(f"y_true must have shape (n,) or (n, targets), got {yt.shape}")
    if np.isinf(yt).any():
        raise ValueError(f"y_true contains an infinite value at index {int(np.isinf(yt).argmax())} (NaN: no target)")
    n = yt.shape[0]
    multi = yt.ndim == 2
    if y_pred is None and lower is None and y_quantiles is None:
        raise TypeError("make_regression_log needs y_pred, lower= and upper=, or y_quantiles=")
    if (lower is None) != (upper is None):
        raise ValueError("give both lower= and upper= (or neither)")
    data = {}
    tail = (yt.shape[1],) if multi else ()
    dims_pred = ("model", "time", "target") if multi else ("model", "time")
    m = None
    if y_pred is not None:
        arr = np.asarray(y_pred)
        m = 1 if arr.ndim == 1 + len(tail) else (arr.shape[0] if arr.ndim else 0)
        data["y_pred"] = (dims_pred, _per_model(arr, "y_pred", m, n, tail), {"long_name": "prediction"})
    if lower is not None:
        if multi:
            raise ValueError("interval logs hold one target: y_true must be (n,) with lower= and upper=")
        arr = np.asarray(lower)
        m = m if m is not None else (1 if arr.ndim == 1 else arr.shape[0])
        data["lower"] = (("model", "time"), _per_model(arr, "lower", m, n), {"long_name": "interval lower bound"})
        data["upper"] = (("model", "time"), _per_model(upper, "upper", m, n), {"long_name": "interval upper bound"})
    coords = {}
    if y_quantiles is not None:
        if quantiles is None:
            raise ValueError("y_quantiles needs quantiles= (the level of each column)")
        levels = np.asarray(quantiles, dtype=np.float64).reshape(-1)
        arr = np.asarray(y_quantiles)
        m = m if m is not None else (1 if arr.ndim == 2 else arr.shape[0])
        data["y_quantiles"] = (("model", "time", "quantile"), _per_model(arr, "y_quantiles", m, n, (levels.size,)),
                               {"long_name": "quantile prediction"})  # fmt: skip
        coords["quantile"] = ("quantile", levels)
    if models is None:
        models = [f"model{i}" for i in range(m)]
    models = [str(v) for v in ([models] if isinstance(models, str) else models)]
    if len(models) != m or len(set(models)) != m:
        raise ValueError(f"models must be {m} distinct names, got {models!r}")
    coords.update({"model": ("model", np.array(models, dtype=str)), **time_coords(np.arange(1, n + 1))})
    data["y_true"] = (("time", "target") if multi else "time", yt, {"long_name": "target"})
    if multi:
        coords["target"] = ("target", np.arange(yt.shape[1]))
    if weights is not None:
        w = _real(weights, "weights", "(n,) or (n_models, n)")
        if w.shape not in ((n,), (m, n)):
            raise ValueError(f"weights must have shape ({n},) or ({m}, {n}), got {w.shape}")
        flat = w.reshape(-1)
        bad = np.flatnonzero(~((flat >= 0) & np.isfinite(flat)))
        if bad.size:
            raise ValueError(f"weights must be non-negative finite numbers, got {flat[bad[0]].item()!r} at {bad[0]}")
        data["weights"] = ("time" if w.ndim == 1 else ("model", "time"), w, {"long_name": "instance weight"})
    task = "intervals" if ("lower" in data or "y_quantiles" in data) else "regression"
    all_attrs = base_attrs("streamtk log", n_instances=n, n_models=m, task=task)
    for key, val in (attrs or {}).items():
        all_attrs[key] = netcdf_safe(val)
    return xr.Dataset(data, coords=coords, attrs=all_attrs)


def log_task(log: xr.Dataset) -> str:
    """The task of a log: its ``task`` attribute, else ``"intervals"`` when it holds ``lower`` and ``upper`` (or
    ``y_quantiles``), ``"regression"`` when its targets are real numbers that are not all integers (or it has a
    ``target`` dim), else ``"classification"``.

    Integer-valued numeric targets (counts) cannot be told from class labels: name the task then
    (``streamtk evaluate --task regression``).
    """
    task = log.attrs.get("task")
    if task is not None:
        if task not in TASKS:
            raise ValueError(f"the log's task attribute must be one of {list(TASKS)}, got {task!r}")
        return str(task)
    if ("lower" in log and "upper" in log) or "y_quantiles" in log:
        return "intervals"
    if "y_true" not in log:
        raise ValueError(f"not a log of recorded predictions (no 'y_true'; its variables: {list(log.data_vars)})")
    if "target" in log["y_true"].dims:
        return "regression"
    y = log["y_true"].values
    if y.dtype.kind == "f":
        present = y[~np.isnan(y)]
        if present.size and not np.array_equal(present, np.round(present)):
            return "regression"
    return "classification"
