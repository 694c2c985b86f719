"""The wide table layout shared by CSV/TSV and Parquet: which column holds what, and back.

Columns ``y_true``; ``y_pred:<model>`` (or a single ``y_pred``); ``y_score:<model>:<class>``;
``weights``; ``time_s:<model>``; ``memory_bytes:<model>`` (every name can be given explicitly).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import xarray as xr

from . import multilabel as _ml
from .log import BadField, LogFormatError, log_parts, make_log, parse_labels


def _resolve(names, *, y_true, y_pred, y_score, classes, weights, time_s, memory_bytes, models, path):
    """Map log variables to table columns: returns a dict of specs."""
    names = list(names)
    # multi-label logs: y_true:<label> and y_pred:<model>:<label> columns (streamtk.io.multilabel)
    ml = _ml.table_spec(names, models=models, weights=weights, path=path) if y_true == "y_true" else None
    if ml is not None:
        return {"multilabel": ml}

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
                raise LogFormatError(
                    f"y_score columns name models {sorted(found)}, y_pred names {mnames}", path=path, line=1
                )
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


def _label_kind(arr: np.ndarray) -> str | None:
    """'text', 'number' or None (no present value) for a label column read by a reader."""
    if arr.dtype.kind in "US":
        return "text" if arr.size else None
    if arr.dtype.kind in "iufb":
        return "number" if arr.size and not (arr.dtype.kind == "f" and np.isnan(arr).all()) else None
    present = [v for v in arr.tolist() if v is not None and v == v]
    if not present:
        return None
    return "text" if isinstance(present[0], str) else "number"


def _assemble(spec, get_labels, get_numbers, attrs, where=None):
    """Build the log from the spec; ``where(message, column, row)`` makes the reader's positioned error.

    Bad values found here (a negative or NaN weight, a label that cannot be read exactly, text
    labels in one column and numbers in another) are reported through ``where`` so the error
    names the file, the line (or row) and the column.
    """

    def fail(message, column, row=None):
        if where is None:
            raise LogFormatError(message, column_name=column)
        raise where(message, column, row)

    if "multilabel" in spec:
        return _ml.assemble(spec["multilabel"], get_numbers, attrs, lambda msg, col, row: fail(msg, col, row))

    def labels(col):
        try:
            return get_labels(col)
        except BadField as exc:
            fail(str(exc), col, exc.index)
        except (ValueError, TypeError) as exc:
            if isinstance(exc, LogFormatError):
                raise
            fail(str(exc), col)

    mnames = list(spec["y_pred"])
    kw = {}
    if "y_score" in spec:
        kw["y_score"] = np.stack([np.column_stack([get_numbers(c) for c in spec["y_score"][mn]]) for mn in mnames])
        classes = spec["classes"]
        kw["classes"] = parse_labels([str(c) for c in classes], "classes") if classes is not None else None
    if "weights" in spec:
        w = get_numbers(spec["weights"])
        bad = np.flatnonzero(~(w >= 0))
        if bad.size:
            fail(f"weights must be non-negative numbers, got {w[bad[0]]!r}", spec["weights"], int(bad[0]))
        kw["weights"] = w
    for var in ("time_s", "memory_bytes"):
        if var in spec:
            kw[var] = np.stack([get_numbers(spec[var][mn]) for mn in mnames])
    yt = labels(spec["y_true"])
    preds = [labels(spec["y_pred"][mn]) for mn in mnames]
    kinds = {c: _label_kind(a) for c, a in zip([spec["y_true"], *spec["y_pred"].values()], [yt, *preds])}
    present = {k for k in kinds.values() if k is not None}
    if len(present) > 1:
        text = next(c for c, k in kinds.items() if k == "text")
        num = next(c for c, k in kinds.items() if k == "number")
        fail(f"holds text labels while column {num!r} holds numbers; the labels of a log must be of one kind", text)
    dtypes = {p.dtype.kind if p.dtype.kind != "U" else "O" for p in preds}  # int64 beside uint64: via objects
    yp = np.stack(preds) if len(dtypes) == 1 else np.stack([p.astype(object) for p in preds])
    return make_log(yt, yp, models=mnames, attrs=attrs, **kw)


def _wide_columns(log: xr.Dataset) -> dict:
    if _ml.is_multilabel(log):
        return _ml.wide_columns(log)
    mnames = log_parts(log)
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
