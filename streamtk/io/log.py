"""The log layout (:func:`make_log`), label parsing and :class:`LogFormatError`.

See :mod:`streamtk.io` for the layout of a log Dataset.
"""

from __future__ import annotations

import re

import numpy as np
import xarray as xr

from streamtk._core.label_values import (
    EXACT_FLOAT_INT,
    INT64_MAX,
    int_dtype,
    refuse_inexact_floats,
    scan_objects,
)
from streamtk._core.labels import as_label_array
from streamtk._labelled import base_attrs, netcdf_safe, time_coords

__all__ = ["LogFormatError", "MISSING_TOKENS", "make_log"]

MISSING_TOKENS = frozenset({"", "?", "NA", "NaN", "nan", "None", "null"})


class LogFormatError(ValueError):
    """A malformed log file; ``path``, ``line`` (or ``row`` / ``chunk``) and ``column`` say where.

    ``line`` is a 1-based text line (CSV, MOA dumps); ``row`` a 1-based record of a binary
    format (Parquet); ``chunk`` a storage chunk (zarr: its index along each dim and the instances
    it holds); ``column`` the 1-based field number or the variable, ``column_name`` its name.
    """

    def __init__(self, message: str, *, path=None, line=None, column=None, column_name=None, row=None, chunk=None):
        self.path, self.line, self.column = (None if path is None else str(path)), line, column
        self.row, self.chunk, self.column_name = row, chunk, column_name
        where = [str(path)] if path is not None else []
        if line is not None:
            where.append(f"line {line}")
        if row is not None:
            where.append(f"row {row}")
        if chunk is not None:
            where.append(chunk if isinstance(chunk, str) else f"chunk {chunk}")
        if column is not None:
            where.append(f"column {column}" + (f" ({column_name!r})" if column_name and column_name != column else ""))
        elif column_name is not None:
            where.append(f"column {column_name!r}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


# --------------------------------------------------------------------------- labels


class BadField(ValueError):
    """A label field that cannot be read exactly; ``index`` is its 0-based row (readers add the line)."""

    def __init__(self, message: str, index: int):
        super().__init__(message)
        self.index = index


def as_labels(values, name: str) -> np.ndarray:
    """Labels as ``int64`` (``uint64`` above 2**63 - 1) / ``float64`` (NaN missing) / ``U`` / ``object``
    (None missing), exactly: never a silent cast (see :func:`streamtk._core.labels.as_label_array`)."""
    if isinstance(values, np.ma.MaskedArray):  # masked = missing
        values = np.where(np.ma.getmaskarray(values), None, values.data.astype(object))
    arr = np.asarray(as_label_array(values, name))
    kind = arr.dtype.kind
    if kind in "iu":
        if kind == "u" and arr.dtype.itemsize == 8 and arr.size and int(arr.max()) > INT64_MAX:
            return arr.astype(np.uint64)
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
    examples, missing, lo, hi = scan_objects(flat, name)
    kinds = set(examples)
    if kinds == {"bool"}:
        if not any(missing):
            return arr.astype(bool)
        return np.array([None if m else bool(v) for v, m in zip(flat, missing)], dtype=object).reshape(arr.shape)
    if kinds <= {"text"}:
        if not any(missing):
            return arr.astype(str) if kinds else arr.astype(np.float64)
        return np.array([None if m else str(v) for v, m in zip(flat, missing)], dtype=object).reshape(arr.shape)
    if kinds <= {"int", "float"}:
        exact_float = lo is None or max(-lo, hi) <= EXACT_FLOAT_INT
        if kinds == {"int"}:
            dtype = int_dtype(lo, hi, name)
            if not any(missing):
                return np.array([int(v) for v in flat], dtype=dtype).reshape(arr.shape)
            if not exact_float:  # float64 would round them: keep Python ints, None missing
                return np.array([None if m else int(v) for v, m in zip(flat, missing)], dtype=object).reshape(arr.shape)
        else:
            refuse_inexact_floats(lo, hi, name)
        return np.array([np.nan if m else float(v) for v, m in zip(flat, missing)]).reshape(arr.shape)
    kinds_seen = sorted({type(v).__name__ for v, m in zip(flat, missing) if not m})
    raise TypeError(f"{name} must hold labels of one kind (numbers or strings), got a mix of {kinds_seen}")


_INT_TEXT = re.compile(r"\s*[+-]?\d+\s*")


def parse_labels(strings: list, name: str) -> np.ndarray:
    """Text fields -> labels, exactly: booleans if all are True/False, integers if all are (int64,
    uint64 above 2**63 - 1), else numbers (refused if an integer field above 2**53 would be
    rounded), else strings. Missing tokens (:data:`MISSING_TOKENS`) are missing. Raises
    :class:`BadField` (with the row) for an integer beyond 64 bits or one float64 would round."""
    arr = np.array(strings, dtype=object)
    miss = np.isin(arr, list(MISSING_TOKENS))
    rows = np.flatnonzero(~miss)
    vals = arr[~miss].astype(str)
    if vals.size and np.isin(vals, ["True", "False"]).all():
        return as_labels(np.where(miss, None, arr == "True"), name)
    try:
        conv = vals.astype(np.int64)
    except (ValueError, OverflowError):
        conv = None
    if conv is None and vals.size and all(_INT_TEXT.fullmatch(v) for v in vals.tolist()):
        ints = [int(v) for v in vals.tolist()]
        lo, hi = min(ints), max(ints)
        try:
            dtype = int_dtype(lo, hi, name)
        except ValueError as exc:
            bad = ints.index(hi if hi > INT64_MAX else lo)
            raise BadField(str(exc), int(rows[bad])) from None
        conv = np.array(ints, dtype=dtype)
    if conv is not None:
        if not miss.any():
            return conv
        if conv.size and max(-int(conv.min()), int(conv.max())) > EXACT_FLOAT_INT:
            out = np.full(arr.shape, None, dtype=object)
            out[~miss] = conv.tolist()
            return out
        out = np.full(arr.shape, np.nan)
        out[~miss] = conv
        return out
    try:
        conv = vals.astype(np.float64)
    except (ValueError, OverflowError):
        conv = None
    if conv is not None:
        for j in np.flatnonzero(np.abs(conv) >= EXACT_FLOAT_INT).tolist():
            text = vals[j]
            if _INT_TEXT.fullmatch(text) and (not np.isfinite(conv[j]) or int(text) != int(conv[j])):
                raise BadField(
                    f"the integer label {text.strip()} would be rounded to {conv[j]!r}: the column also holds "
                    "non-integer numbers, so it would be read as float64; give all labels as integers or as strings",
                    int(rows[j]),
                )
        out = np.full(arr.shape, np.nan)
        out[~miss] = conv
        return out
    if not miss.any():
        return vals
    out = np.full(arr.shape, None, dtype=object)
    out[~miss] = vals
    return out


# --------------------------------------------------------------------------- the log


def attr_value(cls: np.ndarray):
    """The class order as an attribute value netCDF and zarr store (numbers or a list of text)."""
    if cls.dtype.kind in "iuf":
        return cls.copy()
    if cls.dtype.kind == "b":
        return cls.astype(np.int8)
    return [str(c) for c in cls.tolist()]


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
        The class order of the log (code 0 first) and of ``y_score`` (required with it, unless the
        sorted set of observed labels has exactly ``k`` members). Kept as the ``class`` coordinate
        and as ``attrs["classes"]`` of ``y_true`` and ``y_pred``, so that
        ``streamtk.evaluate(log.y_true, log.y_pred)`` (which sees only the arrays) keeps it.
    weights : array-like ``(n,)`` or ``(n_models, n)``, optional
    time_s, memory_bytes : array-like ``(n,)`` or ``(n_models, n)``, optional
    attrs : dict, optional
        Extra Dataset attributes (e.g. the source file, the generator command).

    Returns
    -------
    xarray.Dataset
    """
    yt = as_labels(y_true, "y_true")
    if yt.ndim != 1:
        raise ValueError(f"y_true must be 1-D, got shape {yt.shape}")
    n = yt.shape[0]
    yp = as_labels(y_pred, "y_pred")
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
        cls = as_labels(list(classes), "classes")
        if cls.shape != (sc.shape[2],):
            raise ValueError(f"classes must have {sc.shape[2]} entries (one per score column), got {list(cls)}")
        coords["class"] = ("class", cls)
        data["y_score"] = (("model", "time", "class"), sc, {"long_name": "class score"})
    elif classes is not None:
        coords["class"] = ("class", as_labels(list(classes), "classes"))
    if weights is not None:
        w = np.asarray(weights, dtype=np.float64)
        dims = "time" if w.ndim == 1 else ("model", "time")
        if w.shape != ((n,) if w.ndim == 1 else (m, n)):
            raise ValueError(f"weights must have shape ({n},) or ({m}, {n}), got {w.shape}")
        bad = np.flatnonzero(~((w.reshape(-1) >= 0) & np.isfinite(w.reshape(-1))))
        if bad.size:
            where = tuple(int(i) for i in np.unravel_index(bad[0], w.shape))
            raise ValueError(
                f"weights must be non-negative finite numbers (no NaN or inf), got {w.reshape(-1)[bad[0]].item()!r} "
                f"at index {where}"
            )
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
    if "class" in coords:  # the class order on both label arrays too (streamtk.io._classes)
        order = attr_value(coords["class"][1])
        data["y_true"][2]["classes"] = order
        data["y_pred"][2]["classes"] = order
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


def log_parts(log: xr.Dataset):
    for var in ("y_true", "y_pred"):
        if var not in log:
            raise ValueError(f"log must be a Dataset with y_true and y_pred, missing {var!r}")
    return [str(v) for v in log["model"].values]
