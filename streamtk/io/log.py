"""The log layout (:func:`make_log`), label parsing and :class:`LogFormatError`.

See :mod:`streamtk.io` for the layout of a log Dataset.
"""

from __future__ import annotations

import numbers

import numpy as np
import xarray as xr

from streamtk._core.labels import is_missing_label
from streamtk._labelled import base_attrs, netcdf_safe, time_coords

__all__ = ["LogFormatError", "MISSING_TOKENS", "make_log"]

MISSING_TOKENS = frozenset({"", "?", "NA", "NaN", "nan", "None", "null"})


class LogFormatError(ValueError):
    """A malformed log file; ``path``, ``line`` and ``column`` say where."""

    def __init__(self, message: str, *, path=None, line=None, column=None, column_name=None):
        self.path, self.line, self.column = (None if path is None else str(path)), line, column
        where = [str(path)] if path is not None else []
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}" + (f" ({column_name!r})" if column_name else ""))
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


# --------------------------------------------------------------------------- labels


def _as_labels(values, name: str) -> np.ndarray:
    """Labels as ``int64`` / ``float64`` (NaN missing) / ``U`` / ``object`` (None missing)."""
    # Python sequences go through object dtype so that numpy never casts [1, "a"] to text.
    arr = np.asarray(values) if hasattr(values, "dtype") else np.asarray(values, dtype=object)
    kind = arr.dtype.kind
    if kind in "iu":
        return arr.astype(np.int64)
    if kind == "b":
        return arr
    if kind == "f":
        return arr.astype(np.float64)
    if kind in "US":
        return arr.astype(str)
    if kind == "T":  # numpy StringDType (zarr v2 reads strings as it)
        return arr.astype(object).astype(str)
    if kind != "O":
        raise TypeError(f"{name} must hold labels (numbers or strings), got dtype {arr.dtype}")
    flat = arr.reshape(-1).tolist()
    missing = [is_missing_label(v) for v in flat]
    present = [v for v, m in zip(flat, missing) if not m]
    if present and all(isinstance(v, (bool, np.bool_)) for v in present):
        if not any(missing):
            return arr.astype(bool)
        return np.array([None if m else bool(v) for v, m in zip(flat, missing)], dtype=object).reshape(arr.shape)
    if all(isinstance(v, str) for v in present):
        if not any(missing):
            return arr.astype(str) if present else arr.astype(np.float64)
        return np.array([None if m else v for v, m in zip(flat, missing)], dtype=object).reshape(arr.shape)
    if all(isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) for v in present):
        ints = all(isinstance(v, numbers.Integral) for v in present)
        if ints and not any(missing):
            return arr.astype(np.int64)
        return np.array([np.nan if m else float(v) for v, m in zip(flat, missing)]).reshape(arr.shape)
    kinds = sorted({type(v).__name__ for v in present})
    raise TypeError(f"{name} must hold labels of one kind (numbers or strings), got a mix of {kinds}")


def _parse_labels(strings: list, name: str) -> np.ndarray:
    """Text fields -> labels: integers if all are, else numbers, else strings."""
    arr = np.array(strings, dtype=object)
    miss = np.isin(arr, list(MISSING_TOKENS))
    vals = arr[~miss].astype(str)
    if vals.size and np.isin(vals, ["True", "False"]).all():
        return _as_labels(np.where(miss, None, arr == "True"), name)
    for target in (np.int64, np.float64):
        try:
            conv = vals.astype(target)
        except (ValueError, OverflowError):
            continue
        if target is np.int64 and not miss.any():
            return conv
        out = np.full(arr.shape, np.nan)
        out[~miss] = conv
        return out
    if not miss.any():
        return vals
    out = np.full(arr.shape, None, dtype=object)
    out[~miss] = vals
    return out


# --------------------------------------------------------------------------- the log


def _per_model(values, name, m, n, dtype=np.float64):
    arr = np.asarray(values, dtype=dtype)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.shape != (m, n):
        raise ValueError(f"{name} must have shape (n,) or (n_models, n) = ({m}, {n}), got {arr.shape}")
    return arr


def make_log(
    y_true,
    y_pred,
    *,
    models=None,
    y_score=None,
    classes=None,
    weights=None,
    time_s=None,
    memory_bytes=None,
    attrs=None,
) -> xr.Dataset:
    """Build a log Dataset from arrays (see the module docstring for the layout).

    Parameters
    ----------
    y_true : array-like, shape ``(n,)``
        True labels; missing ones (None, NaN) mark unlabelled instances.
    y_pred : array-like, shape ``(n,)`` or ``(n_models, n)``
        Predicted labels; a missing prediction is kept as missing (``streamtk.evaluate``
        refuses it, so fill it or weight the instance 0 before evaluating).
    models : sequence of str, optional
        Model names; default ``model0``, ``model1``, ...
    y_score : array-like, shape ``(n, k)`` or ``(n_models, n, k)``, optional
        Class scores, column ``j`` for ``classes[j]``.
    classes : sequence, optional
        The class order of ``y_score`` (required with it, unless the sorted set of observed
        labels has exactly ``k`` members).
    weights : array-like ``(n,)`` or ``(n_models, n)``, optional
    time_s, memory_bytes : array-like ``(n,)`` or ``(n_models, n)``, optional
    attrs : dict, optional
        Extra Dataset attributes (e.g. the source file, the generator command).

    Returns
    -------
    xarray.Dataset
    """
    yt = _as_labels(y_true, "y_true")
    if yt.ndim != 1:
        raise ValueError(f"y_true must be 1-D, got shape {yt.shape}")
    n = yt.shape[0]
    yp = _as_labels(y_pred, "y_pred")
    if yp.ndim == 1:
        yp = yp[None, :]
    if yp.ndim != 2 or yp.shape[1] != n:
        raise ValueError(f"y_pred must have shape (n,) or (n_models, n) with n = len(y_true) = {n}, got {yp.shape}")
    m = yp.shape[0]
    if models is None:
        models = [f"model{i}" for i in range(m)]
    models = [str(v) for v in ([models] if isinstance(models, str) else models)]
    if len(models) != m or len(set(models)) != m:
        raise ValueError(f"models must be {m} distinct names, got {models!r}")
    coords = {"model": ("model", np.array(models, dtype=str)), **time_coords(np.arange(1, n + 1))}
    data = {
        "y_true": ("time", yt, {"long_name": "true label"}),
        "y_pred": (("model", "time"), yp, {"long_name": "predicted label"}),
    }
    if y_score is not None:
        sc = np.asarray(y_score, dtype=np.float64)
        if sc.ndim == 2:
            sc = sc[None]
        if sc.ndim != 3 or sc.shape[:2] != (m, n):
            raise ValueError(f"y_score must have shape (n, k) or (n_models, n, k) = ({m}, {n}, k), got {sc.shape}")
        if classes is None:
            observed = [v for v in np.unique(np.concatenate([_present(yt), _present(yp.reshape(-1))])).tolist()]
            if len(observed) != sc.shape[2]:
                raise ValueError(
                    f"classes must be given with y_score: {sc.shape[2]} score columns, observed {observed}"
                )
            classes = observed
        cls = _as_labels(list(classes), "classes")
        if cls.shape != (sc.shape[2],):
            raise ValueError(f"classes must have {sc.shape[2]} entries (one per score column), got {list(cls)}")
        coords["class"] = ("class", cls)
        data["y_score"] = (("model", "time", "class"), sc, {"long_name": "class score"})
    elif classes is not None:
        coords["class"] = ("class", _as_labels(list(classes), "classes"))
    if weights is not None:
        w = np.asarray(weights, dtype=np.float64)
        dims = "time" if w.ndim == 1 else ("model", "time")
        if w.shape != ((n,) if w.ndim == 1 else (m, n)):
            raise ValueError(f"weights must have shape ({n},) or ({m}, {n}), got {w.shape}")
        if np.isnan(w).any() or (w < 0).any():
            raise ValueError("weights must be non-negative numbers (no NaN)")
        data["weights"] = (dims, w, {"long_name": "instance weight"})
    if time_s is not None:
        data["time_s"] = (
            ("model", "time"),
            _per_model(time_s, "time_s", m, n),
            {"long_name": "processing time", "units": "s"},
        )
    if memory_bytes is not None:
        data["memory_bytes"] = (
            ("model", "time"),
            _per_model(memory_bytes, "memory_bytes", m, n),
            {"long_name": "model memory", "units": "bytes"},
        )
    all_attrs = base_attrs("streamtk log", n_instances=n, n_models=m)
    for key, val in (attrs or {}).items():
        all_attrs[key] = netcdf_safe(val)
    return xr.Dataset(data, coords=coords, attrs=all_attrs)


def _present(arr):
    if arr.dtype.kind == "f":
        return arr[~np.isnan(arr)]
    if arr.dtype.kind == "O":
        return np.array([v for v in arr.tolist() if v is not None])
    return arr


def _log_parts(log: xr.Dataset):
    for var in ("y_true", "y_pred"):
        if var not in log:
            raise ValueError(f"log must be a Dataset with y_true and y_pred, missing {var!r}")
    return [str(v) for v in log["model"].values]
