"""Parquet logs in the wide table layout (needs pyarrow): :func:`read_parquet`, :func:`write_parquet`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import xarray as xr

from streamtk._core.labels import is_missing_label

from .log import LogFormatError, _as_labels
from .table import _assemble, _resolve, _wide_columns

__all__ = ["read_parquet", "write_parquet"]


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
