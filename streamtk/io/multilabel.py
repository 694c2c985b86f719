"""Logs of multi-label runs: the layout (:func:`make_multilabel_log`) and its wide-table columns.

A multi-label log is a Dataset like a classification log (:mod:`streamtk.io`) whose label arrays have a
``label`` dim: ``y_true (time, label)`` and ``y_pred (model, time, label)`` hold 0/1 (a row of NaN: no
true labels / no prediction), with the coordinate ``label`` (the label names) and ``attrs["task"] =
"multilabel"``; ``weights``, ``time_s`` and ``memory_bytes`` as in a classification log. It evaluates with
:func:`streamtk.multilabel_curves` (``streamtk evaluate`` detects it). Wide tables (CSV/TSV, Parquet):
columns ``y_true:<label>`` and ``y_pred:<model>:<label>`` (one model: ``y_pred:<label>`` too).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._labelled import base_attrs, netcdf_safe, time_coords
from .log import LogFormatError

__all__ = ["make_multilabel_log", "is_multilabel", "TASK"]

#: ``attrs["task"]`` of a multi-label log
TASK = "multilabel"


def is_multilabel(log) -> bool:
    """Whether a log (or a DataArray of true labels) holds label sets: its ``y_true`` has a ``label`` dim."""
    y = log["y_true"] if isinstance(log, xr.Dataset) else log
    return isinstance(y, xr.DataArray) and "label" in y.dims


def _matrix(values, name, shape):
    a = np.asarray(values, dtype=np.float64)
    if a.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {a.shape}")
    ok = np.isnan(a) | (a == 0) | (a == 1)
    if not ok.all():
        idx = tuple(int(i) for i in np.argwhere(~ok)[0])
        raise ValueError(f"{name} must hold 0/1 (NaN rows: missing), got {a[idx].item()!r} at index {idx}")
    return a


def make_multilabel_log(
    y_true, y_pred, *, models=None, labels=None, weights=None, time_s=None, memory_bytes=None, attrs=None
) -> xr.Dataset:
    """Build a multi-label log from arrays.

    Parameters
    ----------
    y_true : array-like ``(n, q)``
        True label sets, 0/1 (or booleans); a row of NaN marks an instance without labels.
    y_pred : array-like ``(n, q)`` or ``(n_models, n, q)``
        Predicted label sets; a row of NaN marks a missing prediction.
    models : sequence of str, optional
        Model names (default ``model0``, ``model1``, ...).
    labels : sequence, optional
        Label names (default ``0 .. q - 1``).
    weights : array-like ``(n,)`` or ``(n_models, n)``, optional
    time_s, memory_bytes : array-like ``(n_models, n)``, optional
    attrs : dict, optional
        Extra Dataset attributes.
    """
    yt = np.asarray(y_true, dtype=np.float64)
    if yt.ndim != 2:
        raise ValueError(f"y_true must have shape (n, q), got {yt.shape}")
    n, q = yt.shape
    yt = _matrix(yt, "y_true", (n, q))
    yp = np.asarray(y_pred, dtype=np.float64)
    yp = yp[None] if yp.ndim == 2 else yp
    yp = _matrix(yp, "y_pred", (yp.shape[0] if yp.ndim == 3 else -1, n, q))
    m = yp.shape[0]
    models = [f"model{i}" for i in range(m)] if models is None else [str(v) for v in models]
    if len(models) != m or len(set(models)) != m:
        raise ValueError(f"models must be {m} distinct names, got {models!r}")
    labels = list(range(q)) if labels is None else list(labels)
    if len(labels) != q or len(set(map(str, labels))) != q:
        raise ValueError(f"labels must be {q} distinct names, got {labels!r}")
    coords = {"model": ("model", np.array(models, dtype=str)), "label": ("label", np.asarray(labels)),
              **time_coords(np.arange(1, n + 1))}  # fmt: skip
    data = {
        "y_true": (("time", "label"), yt, {"long_name": "true label set (0/1)"}),
        "y_pred": (("model", "time", "label"), yp, {"long_name": "predicted label set (0/1)"}),
    }
    if weights is not None:
        w = np.asarray(weights, dtype=np.float64)
        if w.shape not in ((n,), (m, n)):
            raise ValueError(f"weights must have shape ({n},) or ({m}, {n}), got {w.shape}")
        if not (np.isfinite(w) & (w >= 0)).all():
            idx = tuple(int(i) for i in np.argwhere(~(np.isfinite(w) & (w >= 0)))[0])
            raise ValueError(f"weights must be non-negative finite numbers, got {w[idx].item()!r} at index {idx}")
        data["weights"] = ("time" if w.ndim == 1 else ("model", "time"), w, {"long_name": "instance weight"})
    for var, units in (("time_s", "s"), ("memory_bytes", "bytes")):
        val = {"time_s": time_s, "memory_bytes": memory_bytes}[var]
        if val is not None:
            arr = np.asarray(val, dtype=np.float64).reshape(m, n)
            data[var] = (("model", "time"), arr, {"units": units})
    all_attrs = base_attrs("streamtk log", n_instances=n, n_models=m, task=TASK)
    for key, val in (attrs or {}).items():
        all_attrs[key] = netcdf_safe(val)
    return xr.Dataset(data, coords=coords, attrs=all_attrs)


# ------------------------------------------------------------------------------ wide tables
def table_spec(names, *, models, weights, path):
    """The columns of a multi-label table (``y_true:<label>`` columns present), or None when there are none."""
    names = list(names)
    labels = [c.split(":", 1)[1] for c in names if c.startswith("y_true:")]
    if not labels or "y_true" in names:
        return None
    preds = {}
    for c in names:
        if c.startswith("y_pred:"):
            rest = c.split(":", 1)[1]
            model, _, label = rest.partition(":") if rest not in labels else ((models or ["model0"])[0], "", rest)
            preds.setdefault(model, {})[label] = c
    if not preds:
        raise LogFormatError(f"no 'y_pred:<model>:<label>' column; columns are {names}", path=path, line=1)
    for model, cols in preds.items():
        if sorted(cols) != sorted(labels):
            raise LogFormatError(
                f"model {model!r} has prediction columns for labels {sorted(cols)}, y_true for {sorted(labels)}",
                path=path,
                line=1,
            )
    spec = {"labels": labels, "y_true": {lb: f"y_true:{lb}" for lb in labels}, "y_pred": preds}
    weights = "weights" if weights is None and "weights" in names else weights
    if weights is not None:
        spec["weights"] = weights
    return spec


def assemble(spec, get_numbers, attrs, where):
    """The log of a multi-label table (``get_numbers(column)``: its float values; ``where``: positioned errors)."""
    labels = spec["labels"]

    def matrix(cols, what):
        a = np.column_stack([get_numbers(cols[lb]) for lb in labels])
        nan = np.isnan(a)
        bad = ~(nan | (a == 0) | (a == 1))
        if bad.any():
            row, j = (int(i) for i in np.argwhere(bad)[0])
            raise where(f"{what} must hold 0/1 (a row of missing values: no labels), got {a[row, j].item()!r}",
                        cols[labels[j]], row)  # fmt: skip
        part = nan & ~nan.all(axis=1)[:, None]
        if part.any():
            row, j = (int(i) for i in np.argwhere(part)[0])
            raise where(f"{what} has a row only partly missing (this value is missing, others are not): a row "
                        "of missing values is an instance without labels", cols[labels[j]], row)  # fmt: skip
        return a

    yt = matrix(spec["y_true"], "y_true")
    models = list(spec["y_pred"])
    yp = np.stack([matrix(spec["y_pred"][m], "y_pred") for m in models])
    w = get_numbers(spec["weights"]) if "weights" in spec else None
    if w is not None and not (w >= 0).all():
        row = int(np.argmax(~(w >= 0)))
        raise where(f"weights must be non-negative numbers, got {w[row].item()!r}", spec["weights"], row)
    return make_multilabel_log(yt, yp, models=models, labels=labels, weights=w, attrs=attrs)


def wide_columns(log: xr.Dataset) -> dict:
    """The table columns of a multi-label log."""
    labels = [str(v) for v in log["label"].values.tolist()]
    out = {f"y_true:{lb}": log["y_true"].values[:, j] for j, lb in enumerate(labels)}
    for i, m in enumerate(str(v) for v in log["model"].values.tolist()):
        for j, lb in enumerate(labels):
            out[f"y_pred:{m}:{lb}"] = log["y_pred"].values[i, :, j]
    if "weights" in log:
        if log["weights"].dims != ("time",):
            raise ValueError("write_csv/write_parquet store weights of dims ('time',) only")
        out["weights"] = log["weights"].values
    return out
