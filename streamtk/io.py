"""Logs of stream-classification runs: the standard in-memory form, readers and writers.

A *log* is an :class:`xarray.Dataset` holding what a run recorded, instance by instance:

==================== ======================== ===============================================
variable             dims                     meaning
==================== ======================== ===============================================
``y_true``           ``(time,)``              true label (missing: NaN, or None for text)
``y_pred``           ``(model, time)``        predicted label of each model
``y_score``          ``(model, time, class)`` class scores (optional)
``weights``          ``(time,)`` or           instance weights (optional)
                     ``(model, time)``
``time_s``           ``(model, time)``        processing time of the instance, s (optional)
``memory_bytes``     ``(model, time)``        model size after the instance (optional)
==================== ======================== ===============================================

with coordinates ``model`` (names), ``instance`` on ``time`` (1-based count of instances seen)
and ``class`` (when scores are present). ``streamtk.evaluate(log.y_true, log.y_pred)`` evaluates
it directly.

Readers: :func:`read_csv` (CSV/TSV, optionally gzip), :func:`read_parquet` (needs pyarrow),
:func:`read_npz`, :func:`read_moa_predictions` (MOA's ``EvaluatePrequential -o`` dump),
:func:`from_capymoa`, :func:`from_river`, and :func:`read_log` which picks a reader from the
file name. Writers: :func:`write_csv`, :func:`write_parquet`, :func:`write_npz`, and
:func:`to_netcdf` / :func:`to_zarr` for logs and result Datasets (read back with
:func:`open_dataset`). Malformed files raise :class:`LogFormatError` naming the file, the line
(1-based) and the column (1-based field number, with its name).

Wide table layout (CSV, TSV, Parquet): columns ``y_true``; ``y_pred:<model>`` (or a single
``y_pred``); ``y_score:<model>:<class>``; ``weights``; ``time_s:<model>``;
``memory_bytes:<model>``. Every name can be given explicitly instead.
"""

from __future__ import annotations

import csv
import datetime as _dt
import gzip
import io as _io
import numbers
import os
import zipfile
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import xarray as xr

from streamtk._labelled import base_attrs, netcdf_safe, time_coords
from streamtk.labels import is_missing_label

__all__ = [
    "LogFormatError",
    "from_capymoa",
    "from_river",
    "make_log",
    "open_dataset",
    "read_csv",
    "read_log",
    "read_moa_predictions",
    "read_npz",
    "read_parquet",
    "to_netcdf",
    "to_zarr",
    "write_csv",
    "write_npz",
    "write_parquet",
]

MISSING_TOKENS = frozenset({"", "?", "NA", "NaN", "nan", "None", "null"})
_MISSING_ATTR = "streamtk_missing_label"
_ARRAY_ATTRS = "streamtk_length1_array_attrs"  # netCDF reads length-1 array attributes back as scalars


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
                raise ValueError(f"classes must be given with y_score: {sc.shape[2]} score columns, observed {observed}")
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
        data["time_s"] = (("model", "time"), _per_model(time_s, "time_s", m, n), {"long_name": "processing time", "units": "s"})
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


# --------------------------------------------------------------------------- wide tables


def _resolve(names, *, y_true, y_pred, y_score, classes, weights, time_s, memory_bytes, models, path):
    """Map log variables to table columns: returns a dict of specs."""
    names = list(names)

    def need(col):
        if col not in names:
            raise LogFormatError(f"no column named {col!r}; columns are {names}", path=path, line=1)
        return col

    spec = {"y_true": need(y_true)}
    if y_pred is None:
        if "y_pred" in names:
            y_pred = {(models[0] if models else "model0"): "y_pred"}
        else:
            y_pred = {c.split(":", 1)[1]: c for c in names if c.startswith("y_pred:")}
            if not y_pred:
                raise LogFormatError(f"no 'y_pred' or 'y_pred:<model>' column; columns are {names}", path=path, line=1)
    elif isinstance(y_pred, str):
        y_pred = {(models[0] if models else y_pred): y_pred}
    elif not isinstance(y_pred, Mapping):
        cols = list(y_pred)
        y_pred = dict(zip(models if models else cols, cols))
    spec["y_pred"] = {str(k): need(v) for k, v in y_pred.items()}
    mnames = list(spec["y_pred"])
    if y_score is None:
        found = {}
        for c in names:
            parts = c.split(":")
            if parts[0] == "y_score" and len(parts) >= 3:
                found.setdefault(parts[1], {})[":".join(parts[2:])] = c
        if found:
            if set(found) != set(mnames):
                raise LogFormatError(f"y_score columns name models {sorted(found)}, y_pred names {mnames}", path=path, line=1)
            keys = list(found[mnames[0]])
            if any(list(found[mn]) != keys for mn in mnames):
                raise LogFormatError("y_score columns must list the same classes for every model", path=path, line=1)
            y_score = {mn: [found[mn][k] for k in keys] for mn in mnames}
            classes = keys if classes is None else classes
    elif not isinstance(y_score, Mapping):
        y_score = {mnames[0]: list(y_score)}
    if y_score is not None:
        spec["y_score"] = {k: [need(c) for c in y_score[k]] for k in mnames}
        spec["classes"] = classes
    if weights is None and "weights" in names:
        weights = "weights"
    if weights is not None:
        spec["weights"] = need(weights)
    for var, given in (("time_s", time_s), ("memory_bytes", memory_bytes)):
        if given is None:
            cols = {mn: f"{var}:{mn}" for mn in mnames if f"{var}:{mn}" in names}
            if not cols and var in names and len(mnames) == 1:
                cols = {mnames[0]: var}
            given = cols if len(cols) == len(mnames) else None
        elif isinstance(given, str):
            given = {mnames[0]: given}
        if given is not None:
            spec[var] = {mn: need(given[mn]) for mn in mnames}
    return spec


def _assemble(spec, get_labels, get_numbers, attrs):
    mnames = list(spec["y_pred"])
    kw = {}
    if "y_score" in spec:
        kw["y_score"] = np.stack([np.column_stack([get_numbers(c) for c in spec["y_score"][mn]]) for mn in mnames])
        classes = spec["classes"]
        kw["classes"] = _parse_labels([str(c) for c in classes], "classes") if classes is not None else None
    if "weights" in spec:
        kw["weights"] = get_numbers(spec["weights"])
    for var in ("time_s", "memory_bytes"):
        if var in spec:
            kw[var] = np.stack([get_numbers(spec[var][mn]) for mn in mnames])
    preds = [get_labels(spec["y_pred"][mn]) for mn in mnames]
    kinds = {p.dtype.kind if p.dtype.kind != "U" else "O" for p in preds}
    yp = np.stack(preds) if len(kinds) == 1 else np.stack([p.astype(object) for p in preds])
    return make_log(get_labels(spec["y_true"]), yp, models=mnames, attrs=attrs, **kw)


def _open_text(path: Path):
    with open(path, "rb") as fh:
        magic = fh.read(2)
    if magic == b"\x1f\x8b":
        return _io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8-sig", newline="")
    return open(path, encoding="utf-8-sig", newline="")


def read_csv(
    path,
    *,
    sep=None,
    y_true="y_true",
    y_pred=None,
    y_score=None,
    classes=None,
    weights=None,
    time_s=None,
    memory_bytes=None,
    models=None,
) -> xr.Dataset:
    """Read a log from a CSV/TSV file (plain or gzip) with a header row.

    Parameters
    ----------
    path : str or os.PathLike
    sep : str, optional
        Field separator; default tab for ``.tsv``/``.tab`` (also gzipped), else comma.
    y_true : str
        Column of the true labels.
    y_pred : str, sequence of str or mapping model -> column, optional
        Default: the ``y_pred`` column or every ``y_pred:<model>`` column.
    y_score : sequence of columns or mapping model -> sequence, optional
        Default: the ``y_score:<model>:<class>`` columns.
    classes : sequence, optional
        Class of each score column (default: from the ``y_score`` column names).
    weights, time_s, memory_bytes : column names, optional
        Defaults: ``weights``, ``time_s:<model>``, ``memory_bytes:<model>`` when present.
    models : sequence of str, optional
        Model names when ``y_pred`` is a column or a list of columns.

    Returns
    -------
    xarray.Dataset
        A log (see :func:`make_log`).

    Raises
    ------
    LogFormatError
        Wrong field counts, unreadable numbers, missing or duplicate columns, bad quoting;
        the message names the file, the line and the column (field number and name).

    Notes
    -----
    Label columns become booleans when every value is ``True``/``False``, integers when every
    value is one, else numbers, else strings; empty fields, ``?``, ``NA``, ``NaN``, ``None``
    and ``null`` are missing. Numbers are parsed exactly (``repr`` round trip). With pandas
    installed a fast C parser reads well-formed files; any problem is re-read by the exact
    reader, so the errors are the same with or without pandas.

    See Also
    --------
    write_csv : the writer of this layout.
    pandas.read_csv : used as the fast path.
    """
    path = Path(path)
    if sep is None:
        stem = path.name[:-3] if path.name.endswith(".gz") else path.name
        sep = "\t" if stem.endswith((".tsv", ".tab")) else ","
    opts = dict(y_true=y_true, y_pred=y_pred, y_score=y_score, classes=classes, weights=weights, time_s=time_s,
                memory_bytes=memory_bytes, models=models)  # fmt: skip
    fast = _read_csv_pandas(path, sep, opts)
    if fast is not None:
        return fast
    try:
        with _open_text(path) as fh:
            reader = csv.reader(fh, delimiter=sep, strict=True)
            try:
                header = next(reader)
            except StopIteration:
                raise LogFormatError("the file is empty (no header row)", path=path, line=1) from None
            k = len(header)
            cols = [[] for _ in range(k)]
            lines = []
            for row in reader:
                if not row or (len(row) == 1 and not row[0].strip()):
                    continue
                if len(row) != k:
                    col = min(len(row), k) + 1
                    raise LogFormatError(
                        f"expected {k} fields, found {len(row)}",
                        path=path,
                        line=reader.line_num,
                        column=col,
                        column_name=header[col - 1] if col <= k else None,
                    )
                for j, v in enumerate(row):
                    cols[j].append(v.strip())
                lines.append(reader.line_num)
    except csv.Error as exc:
        raise LogFormatError(f"malformed CSV ({exc})", path=path, line=reader.line_num) from None
    except UnicodeDecodeError as exc:
        raise LogFormatError(f"not valid UTF-8 text ({exc.reason})", path=path) from None
    header = [h.strip() for h in header]
    if len(set(header)) != k:
        dup = next(h for h in header if header.count(h) > 1)
        raise LogFormatError(f"duplicate column name {dup!r}", path=path, line=1, column=header.index(dup) + 1)
    index = {h: j for j, h in enumerate(header)}

    def numbers(name):
        raw = np.array(cols[index[name]], dtype=object)
        miss = np.isin(raw, list(MISSING_TOKENS))
        out = np.full(len(raw), np.nan)
        try:
            out[~miss] = raw[~miss].astype(str).astype(np.float64)
        except ValueError:
            i = next(i for i, v in enumerate(raw) if not miss[i] and not _is_number(v))
            raise LogFormatError(
                f"cannot read {raw[i]!r} as a number", path=path, line=lines[i], column=index[name] + 1, column_name=name
            ) from None
        return out

    spec = _resolve(header, path=path, **opts)
    return _assemble(spec, lambda c: _parse_labels(cols[index[c]], c), numbers, {"source_file": str(path)})


class _Fallback(Exception):
    """The pandas fast path met something the exact reader must report."""


def _read_csv_pandas(path: Path, sep: str, opts: dict):
    """Fast path through pandas (when installed) for well-formed files; ``None`` means "use the
    exact reader", which finds and reports any problem with its line and column."""
    try:
        import pandas as pd
    except ImportError:
        return None
    try:
        with _open_text(path) as fh:
            header = [h.strip() for h in next(csv.reader(fh, delimiter=sep))]
        with open(path, "rb") as fh:
            gz = fh.read(2) == b"\x1f\x8b"
        frame = pd.read_csv(
            path, sep=sep, na_values=sorted(MISSING_TOKENS), keep_default_na=False, skipinitialspace=True,
            float_precision="round_trip", compression="gzip" if gz else None, engine="c",
        )  # fmt: skip
    except Exception:  # noqa: BLE001 - any problem: the exact reader reports it with its position
        return None
    if [str(c) for c in frame.columns] != header:  # pandas renamed duplicate or odd names
        return None
    if frame.isna().to_numpy().any():
        # a missing value, or a short row that some pandas versions pad with NaN: the exact reader
        # tells the two apart (and reports the short row with its line and column)
        return None

    def labels(c):
        col = frame[c]
        if col.dtype.kind == "O":
            col = col.str.strip()
            if col.isin(sorted(MISSING_TOKENS)).any():
                raise _Fallback
        return _as_labels(col.to_numpy(), c)

    def numbers(c):
        if frame[c].dtype.kind not in "iuf":
            raise _Fallback
        return frame[c].to_numpy(dtype=np.float64)

    try:
        spec = _resolve(header, path=path, **opts)
        return _assemble(spec, labels, numbers, {"source_file": str(path)})
    except _Fallback:
        return None


def _is_number(v):
    try:
        float(v)
    except ValueError:
        return False
    return True


def _wide_columns(log: xr.Dataset) -> dict:
    mnames = _log_parts(log)
    out = {"y_true": log["y_true"].values}
    for i, mn in enumerate(mnames):
        out[f"y_pred:{mn}"] = log["y_pred"].values[i]
    if "y_score" in log:
        for i, mn in enumerate(mnames):
            for j, c in enumerate(log["class"].values.tolist()):
                out[f"y_score:{mn}:{c}"] = log["y_score"].values[i, :, j]
    if "weights" in log:
        if log["weights"].dims != ("time",):
            raise ValueError("write_csv/write_parquet store weights of dims ('time',) only")
        out["weights"] = log["weights"].values
    for var in ("time_s", "memory_bytes"):
        if var in log:
            for i, mn in enumerate(mnames):
                out[f"{var}:{mn}"] = log[var].values[i]
    return out


def write_csv(log: xr.Dataset, path, *, sep=None) -> Path:
    """Write a log in the wide layout read by :func:`read_csv` (missing labels as empty fields).

    Labels containing the separator or quotes are quoted; floats use ``repr`` (exact round trip).
    """
    path = Path(path)
    if sep is None:
        sep = "\t" if path.name.endswith((".tsv", ".tab", ".tsv.gz", ".tab.gz")) else ","
    cols = _wide_columns(log)
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "wt", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, delimiter=sep, lineterminator="\n")
        writer.writerow(list(cols))
        columns = [[_cell(v) for v in c.tolist()] for c in cols.values()]
        writer.writerows(zip(*columns))
    return path


def _cell(v):
    if v is None or (isinstance(v, float) and v != v):
        return ""
    return repr(v) if isinstance(v, float) else str(v)


# --------------------------------------------------------------------------- parquet


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ImportError(
            "reading and writing Parquet logs needs pyarrow: pip install pyarrow (or 'streamtk[io]')"
        ) from None
    return pyarrow


def read_parquet(path, *, y_true="y_true", y_pred=None, y_score=None, classes=None, weights=None, time_s=None,
                 memory_bytes=None, models=None) -> xr.Dataset:  # fmt: skip
    """Read a log from a Parquet file (wide layout; the options are those of :func:`read_csv`).

    Needs ``pyarrow``; raises ImportError with the install command otherwise.
    """
    pa = _pyarrow()
    path = Path(path)
    try:
        table = pa.parquet.read_table(path)
    except (pa.ArrowInvalid, OSError) as exc:
        raise LogFormatError(f"not a readable Parquet file ({exc})", path=path) from None
    names = table.column_names

    def labels(c):
        return _as_labels(table.column(c).to_numpy(zero_copy_only=False), c)

    def numbers(c):
        col = table.column(c)
        if not (pa.types.is_floating(col.type) or pa.types.is_integer(col.type)):
            raise LogFormatError(f"numeric column expected, found type {col.type}", path=path,
                                 column=names.index(c) + 1, column_name=c)  # fmt: skip
        return np.asarray(col.to_numpy(zero_copy_only=False), dtype=np.float64)

    spec = _resolve(
        names, y_true=y_true, y_pred=y_pred, y_score=y_score, classes=classes, weights=weights,
        time_s=time_s, memory_bytes=memory_bytes, models=models, path=path,
    )  # fmt: skip
    return _assemble(spec, labels, numbers, {"source_file": str(path)})


def write_parquet(log: xr.Dataset, path) -> Path:
    """Write a log to Parquet in the wide layout (needs pyarrow)."""
    pa = _pyarrow()
    path = Path(path)
    cols = {}
    for k, v in _wide_columns(log).items():
        cols[k] = pa.array([None if is_missing_label(x) else x for x in v.tolist()] if v.dtype.kind == "O" else v)
    pa.parquet.write_table(pa.table(cols), path)
    return path


# --------------------------------------------------------------------------- npz

_NPZ_ARRAYS = ("y_true", "y_pred", "models", "classes", "y_score", "weights", "time_s", "memory_bytes")


def _store_labels(arr):
    """Object label arrays -> (U array, missing mask) for pickle-free npz storage."""
    if arr.dtype.kind != "O":
        return arr, None
    miss = np.array([is_missing_label(v) for v in arr.reshape(-1).tolist()], dtype=bool).reshape(arr.shape)
    return np.where(miss, "", arr).astype(str), miss


def write_npz(log: xr.Dataset, path) -> Path:
    """Write a log to a compressed ``.npz`` file (no pickles)."""
    path = Path(path)
    arrays = {"models": np.array(_log_parts(log), dtype=str)}
    for var in ("y_true", "y_pred"):
        arrays[var], miss = _store_labels(log[var].values)
        if miss is not None:
            arrays[f"{var}_missing"] = miss
    if "class" in log.coords:
        arrays["classes"] = log["class"].values
    for var in ("y_score", "weights", "time_s", "memory_bytes"):
        if var in log:
            arrays[var] = log[var].values
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)
    return path


def read_npz(path) -> xr.Dataset:
    """Read a log from ``.npz``: arrays ``y_true`` and ``y_pred`` (``(n,)`` or ``(n_models, n)``),
    optional ``models``, ``classes``, ``y_score``, ``weights``, ``time_s``, ``memory_bytes``;
    ``y_true_missing`` / ``y_pred_missing`` boolean masks mark missing string labels."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise LogFormatError(f"not a readable .npz file ({exc})", path=path) from None
    for key in ("y_true", "y_pred"):
        if key not in arrays:
            raise LogFormatError(f"no array named {key!r}; arrays are {sorted(arrays)}", path=path)
        miss = arrays.pop(f"{key}_missing", None)
        if miss is not None:
            arr = arrays[key].astype(object)
            arr[miss] = None
            arrays[key] = arr
    unknown = set(arrays) - set(_NPZ_ARRAYS)
    if unknown:
        raise LogFormatError(f"unexpected arrays {sorted(unknown)}; a log holds {list(_NPZ_ARRAYS)}", path=path)
    models = arrays.pop("models", None)
    return make_log(
        arrays.pop("y_true"), arrays.pop("y_pred"), models=None if models is None else models.tolist(),
        attrs={"source_file": str(path)}, **arrays,
    )  # fmt: skip


# --------------------------------------------------------------------------- MOA, capymoa, river


def read_moa_predictions(path, *, classes=None, model="MOA") -> xr.Dataset:
    """Read the prediction dump of MOA's ``EvaluatePrequential -o <file>``.

    Each line is ``<predicted index>,<true index>`` (0-based class indices; MOA writes the
    index of the largest vote, and ``?`` -- with surrounding spaces -- for a missing true
    class). Indices written as doubles (``1.0``) are accepted.

    Parameters
    ----------
    path : str or os.PathLike
    classes : sequence, optional
        Class labels in MOA's order (the class attribute's declared values, e.g.
        ``streamtk.arff.read_arff(f).attributes[-1].values``); default: the indices.
    model : str
        Name of the model.

    See Also
    --------
    moa.tasks.EvaluatePrequential : option ``-o`` (``outputPredictionFile``); recent MOA versions
        replaced it with ``PredictionLoggerEvaluator``.
    """
    path = Path(path)
    pred, true = [], []
    with _open_text(path) as fh:
        for line_no, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            fields = line.rstrip("\r\n").split(",")
            if len(fields) != 2:
                raise LogFormatError(f"expected '<predicted>,<true>', found {len(fields)} fields", path=path,
                                     line=line_no, column=1)  # fmt: skip
            pos = 1
            for field, out in zip(fields, (pred, true)):
                out.append(_moa_index(field, path, line_no, pos))
                pos += len(field) + 1
    yp = np.array(pred, dtype=np.float64)
    yt = np.array(true, dtype=np.float64)
    if classes is not None:
        cls = np.array(list(classes), dtype=object)
        for arr, name in ((yp, "predicted"), (yt, "true")):
            bad = arr[~np.isnan(arr)] >= len(cls)
            if bad.any():
                raise ValueError(f"a {name} class index {int(arr[~np.isnan(arr)][bad][0])} is beyond classes {list(cls)}")
        yp, yt = _index_to_label(yp, cls), _index_to_label(yt, cls)
    else:
        yp = yp.astype(np.int64) if not np.isnan(yp).any() else yp
        yt = yt.astype(np.int64) if not np.isnan(yt).any() else yt
    return make_log(yt, yp, models=[model], classes=classes, attrs={"source_file": str(path), "source_format": "MOA EvaluatePrequential -o"})


def _moa_index(field, path, line_no, pos):
    s = field.strip()
    if s == "?":
        return np.nan
    try:
        v = float(s)
    except ValueError:
        v = -1.0
    if not (v >= 0 and v == int(v)):
        col = pos + len(field) - len(field.lstrip())
        raise LogFormatError(f"{s!r} is not a class index", path=path, line=line_no, column=col)
    return v


def _index_to_label(arr, cls):
    out = np.empty(arr.shape, dtype=object)
    miss = np.isnan(arr)
    out[miss] = None
    out[~miss] = cls[arr[~miss].astype(np.int64)]
    return out


def _get(obj, *names):
    for name in names:
        if isinstance(obj, Mapping) and name in obj:
            return obj[name]
        val = getattr(obj, name, None) if not isinstance(obj, Mapping) else None
        if val is not None:
            return val() if callable(val) else val
    return None


def from_capymoa(results, *, classes=None, model=None) -> xr.Dataset:
    """A log from capymoa prequential results that stored predictions and labels.

    Duck-typed: ``results`` is one result or a mapping ``name -> result``. A result is a
    mapping with ``y_true``/``y_pred`` (capymoa's ``evaluate_classifier(...,
    store_predictions=True, store_y=True)``) or ``ground_truth_y``/``predictions``, or an
    object whose ``ground_truth_y()``/``predictions()`` return them (``PrequentialResults``).
    capymoa stores class *indices*; pass ``classes`` (e.g. ``schema.get_label_values()``)
    to get labels. A ``None`` prediction (the learner abstained) stays missing; capymoa's own
    evaluator counts it as a prediction of class index 0.

    See Also
    --------
    capymoa.evaluation.prequential_evaluation : the producer of ``results``.
    """
    if isinstance(results, Mapping) and not any(k in results for k in ("y_true", "ground_truth_y", "y_pred")):
        items = list(results.items())
    else:
        name = model or _get(results, "learner", "_learner")
        items = [(name if isinstance(name, str) else "capymoa", results)]
    y_true, preds, names = None, [], []
    for name, res in items:
        yt = _get(res, "y_true", "ground_truth_y")
        yp = _get(res, "y_pred", "predictions")
        if yt is None or yp is None:
            raise ValueError(
                f"capymoa result {name!r} holds no stored labels/predictions: run the evaluation with "
                "store_y=True and store_predictions=True"
            )
        yt, yp = list(yt), list(yp)
        if len(yp) != len(yt):
            raise ValueError(f"capymoa result {name!r}: {len(yp)} predictions for {len(yt)} labels")
        if y_true is None:
            y_true = yt
        elif yt != y_true:
            raise ValueError(f"capymoa result {name!r} has other ground-truth labels than {names[0]!r}")
        preds.append(yp)
        names.append(str(name))
    if classes is not None:
        cls = list(classes)
        y_true = [None if v is None else cls[int(v)] for v in y_true]
        preds = [[None if v is None else cls[int(v)] for v in p] for p in preds]
    return make_log(np.array(y_true, dtype=object), np.array(preds, dtype=object), models=names, classes=classes,
                    attrs={"source_format": "capymoa prequential results"})  # fmt: skip


def from_river(steps, *, y_true, model="river", classes=None) -> xr.Dataset:
    """A log from ``river.evaluate.iter_progressive_val_score(..., step=1, yield_predictions=True)``.

    Parameters
    ----------
    steps : iterable of dict, or mapping model name -> iterable of dict
        The yielded dicts: ``Step`` (1, 2, ...), ``Prediction`` (a label, ``None`` when the
        model could not predict yet, or a ``{class: probability}`` dict when the metric
        needs probabilities), and, if measured, ``Time`` (cumulative ``timedelta``) and
        ``Memory`` (bytes).
    y_true : array-like
        The stream's labels (river does not yield them).
    model : str
        Model name when ``steps`` is one iterable.
    classes : sequence, optional
        Class order of the scores (default: sorted keys of the probability dicts).

    Notes
    -----
    ``time_s`` is the difference of consecutive cumulative ``Time`` values, i.e. the time
    river spent between two reports (prediction, metric update and learning). From
    probability dicts, ``y_pred`` is the class of highest probability, the first in class
    order on ties (river's ``predict_one`` breaks ties by dict order). A ``None`` or ``{}``
    prediction (river skips it in its metrics) stays missing: give such instances weight 0
    to reproduce river's numbers.

    See Also
    --------
    river.evaluate.iter_progressive_val_score : the producer of ``steps``.
    """
    runs = dict(steps) if isinstance(steps, Mapping) else {model: steps}
    yt = _as_labels(y_true if hasattr(y_true, "__len__") else list(y_true), "y_true")
    n = len(yt)
    preds, probas, times, mems = [], [], [], []
    for name, it in runs.items():
        p, t, mem, prob = [], [], [], []
        for i, d in enumerate(it):
            if d.get("Step") != i + 1:
                raise ValueError(
                    f"river output for {name!r}: item {i} has Step={d.get('Step')!r}, expected {i + 1} "
                    "(run iter_progressive_val_score with step=1 and yield_predictions=True)"
                )
            if "Prediction" not in d:
                raise ValueError(f"river output for {name!r} has no 'Prediction': use yield_predictions=True")
            pr = d["Prediction"]
            prob.append(pr if isinstance(pr, Mapping) else None)
            p.append(pr)
            t.append(d["Time"].total_seconds() if isinstance(d.get("Time"), _dt.timedelta) else np.nan)
            mem.append(float(d["Memory"]) if d.get("Memory") is not None else np.nan)
        if len(p) != n:
            raise ValueError(f"river output for {name!r} has {len(p)} steps, y_true has {n} labels")
        preds.append(p)
        probas.append(prob)
        times.append(np.diff(np.asarray(t), prepend=0.0))
        mems.append(mem)
    kw = {}
    if any(pr is not None for prob in probas for pr in prob):
        if classes is None:
            classes = sorted({k for prob in probas for pr in prob if pr for k in pr})
        classes = list(classes)
        scores = np.full((len(runs), n, len(classes)), np.nan)
        for i, prob in enumerate(probas):
            for t_, pr in enumerate(prob):
                if not pr:  # None or {}: the model could not predict yet
                    preds[i][t_] = None
                    continue
                scores[i, t_] = [float(pr.get(c, 0.0)) for c in classes]
                preds[i][t_] = classes[int(np.argmax(scores[i, t_]))]
        kw = {"y_score": scores, "classes": classes}
    if not all(np.isnan(t).all() for t in times):
        kw["time_s"] = np.array(times)
    if not all(np.isnan(m).all() for m in mems):
        kw["memory_bytes"] = np.array(mems, dtype=np.float64)
    return make_log(yt, np.array(preds, dtype=object), models=list(runs), attrs={"source_format": "river progressive validation"}, **kw)


# --------------------------------------------------------------------------- netCDF / zarr


def _encode_strings(ds: xr.Dataset) -> xr.Dataset:
    """Object string variables -> fixed-width text; missing -> '' with a marker attribute."""
    ds = ds.copy()
    for name in list(ds.variables):
        var = ds[name].variable
        if var.dtype.kind not in "OT":
            continue
        flat = var.values.reshape(-1).tolist()
        miss = [v is None or (isinstance(v, float) and v != v) for v in flat]
        if not all(isinstance(v, str) for v, m in zip(flat, miss) if not m):
            raise TypeError(f"variable {name!r} holds objects that are not strings; cannot store it")
        if any(miss):
            if "" in flat:
                raise ValueError(f"variable {name!r} holds both missing labels and empty strings; cannot store it")
            values = np.array(["" if m else v for v, m in zip(flat, miss)], dtype=str).reshape(var.shape)
            attrs = {**var.attrs, _MISSING_ATTR: ""}
        else:
            values, attrs = np.array(flat, dtype=str).reshape(var.shape), var.attrs
        new = xr.Variable(var.dims, values, attrs)
        if name in ds.coords:
            ds = ds.assign_coords({name: new})
        else:
            ds[name] = new
    ds.attrs = _mark_arrays({k: netcdf_safe(v) for k, v in ds.attrs.items()})
    for name in list(ds.variables):
        ds[name].attrs = _mark_arrays(ds[name].attrs)
    return ds


def _mark_arrays(attrs: dict) -> dict:
    attrs = {k: v for k, v in attrs.items() if k != _ARRAY_ATTRS}
    ones = [k for k, v in attrs.items() if isinstance(v, (np.ndarray, list, tuple)) and np.size(v) == 1]
    if ones:
        attrs[_ARRAY_ATTRS] = " ".join(ones)
    return attrs


def _unmark_arrays(attrs: dict) -> dict:
    names = attrs.get(_ARRAY_ATTRS, "")
    attrs = {k: v for k, v in attrs.items() if k != _ARRAY_ATTRS}
    for k in str(names).split():
        if k in attrs:
            attrs[k] = np.atleast_1d(np.asarray(attrs[k]))
    return attrs


def _decode_strings(ds: xr.Dataset) -> xr.Dataset:
    ds.attrs = _unmark_arrays(ds.attrs)
    for name in list(ds.variables):
        ds[name].attrs = _unmark_arrays(ds[name].attrs)
        var = ds[name].variable
        vals = var.values
        if vals.dtype.kind == "T":
            vals = vals.astype(str)
        if _MISSING_ATTR in var.attrs:
            vals = vals.astype(object)
            vals[vals == var.attrs[_MISSING_ATTR]] = None
            attrs = {k: v for k, v in var.attrs.items() if k != _MISSING_ATTR}
        elif vals is var.values:
            continue
        else:
            attrs = var.attrs
        new = xr.Variable(var.dims, vals, attrs)
        if name in ds.coords:
            ds = ds.assign_coords({name: new})
        else:
            ds[name] = new
    return ds


def to_netcdf(ds: xr.Dataset, path, *, engine: str | None = None) -> Path:
    """Write a log or a result Dataset to netCDF-4 (``engine`` "netcdf4" or "h5netcdf").

    Object-dtype string variables and coordinates are stored as text; missing labels are
    stored as empty strings with a marker attribute that :func:`open_dataset` undoes (a
    variable holding both missing labels and empty strings is refused). Length-1 array
    attributes, which netCDF reads back as scalars, are marked and restored as well.

    See Also
    --------
    xarray.Dataset.to_netcdf : the underlying writer.
    open_dataset : the matching reader.
    """
    path = Path(path)
    engine = _netcdf_engine(engine)
    _encode_strings(ds).to_netcdf(path, engine=engine)
    return path


def _netcdf_engine(engine):
    candidates = [engine] if engine else ["netcdf4", "h5netcdf"]
    for eng in candidates:
        mods = {"netcdf4": ("netCDF4",), "h5netcdf": ("h5netcdf", "h5py")}.get(eng)
        if mods is None:
            raise ValueError(f"engine must be 'netcdf4' or 'h5netcdf', got {engine!r}")
        try:
            for mod in mods:
                __import__(mod)
        except ImportError:
            continue
        return eng
    raise ImportError(f"writing netCDF needs netCDF4 (or h5netcdf with h5py): pip install netCDF4; tried {candidates}")


def to_zarr(ds: xr.Dataset, path, *, mode: str = "w") -> Path:
    """Write a log or result Dataset to a zarr store (format 2, readable by every zarr version)."""
    try:
        import zarr  # noqa: F401
    except ImportError:
        raise ImportError("writing zarr needs the zarr package: pip install zarr (or 'streamtk[io]')") from None
    path = Path(path)
    _encode_strings(ds).to_zarr(path, mode=mode, zarr_format=2, consolidated=True)
    return path


def open_dataset(path, *, engine: str | None = None) -> xr.Dataset:
    """Load a Dataset written by :func:`to_netcdf` or :func:`to_zarr` into memory."""
    path = Path(path)
    if path.is_dir() or path.suffix == ".zarr":
        ds = xr.open_zarr(path, consolidated=True).load()
    else:
        with xr.open_dataset(path, engine=_netcdf_engine(engine)) as src:
            ds = src.load()
    return _decode_strings(ds)


# --------------------------------------------------------------------------- dispatch


def read_log(path, *, format: str | None = None, **options) -> xr.Dataset:
    """Read a log, choosing the reader from ``format`` or the file name.

    ``format``: ``"csv"``, ``"tsv"``, ``"parquet"``, ``"npz"``, ``"moa"`` (``.pred``),
    ``"netcdf"`` (``.nc``) or ``"zarr"``. ``options`` go to the reader.
    """
    path = Path(path)
    if format is None:
        name = path.name[:-3] if path.name.endswith(".gz") else path.name
        suffix = os.path.splitext(name)[1].lower()
        format = {
            ".csv": "csv", ".txt": "csv", ".tsv": "tsv", ".tab": "tsv", ".parquet": "parquet", ".pq": "parquet",
            ".npz": "npz", ".pred": "moa", ".nc": "netcdf", ".nc4": "netcdf", ".zarr": "zarr",
        }.get(suffix)  # fmt: skip
        if format is None:
            raise ValueError(f"cannot tell the format of {path} from its name; pass format='csv', 'npz', ...")
    readers = {
        "csv": read_csv,
        "tsv": lambda p, **kw: read_csv(p, sep=kw.pop("sep", "\t"), **kw),
        "parquet": read_parquet,
        "npz": read_npz,
        "moa": read_moa_predictions,
        "netcdf": open_dataset,
        "zarr": open_dataset,
    }
    if format not in readers:
        raise ValueError(f"format must be one of {list(readers)}, got {format!r}")
    if not path.exists():
        raise FileNotFoundError(f"log file not found: {path}")
    return readers[format](path, **options)
