"""Parquet logs in the wide table layout (needs pyarrow): :func:`read_parquet`, :func:`write_parquet`.

Integrity: :func:`write_parquet` writes a CRC-32 checksum in every data page header
(``write_page_checksum``) and, in the file's key-value metadata, a CRC-32 of each column's
decoded values (``streamtk_column_crc32``), which also covers the footer (schema, types) that
page checksums do not. :func:`read_parquet` verifies both: flipped bytes anywhere in a file
written by streamtk raise :class:`~streamtk.io.LogFormatError` naming the file, the row group
(rows) and the column. Files written by other tools are verified as far as they carry page
checksums.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import numpy as np
import xarray as xr

from streamtk._core.labels import is_missing_label

from .atomic import atomic_path
from .log import LogFormatError, as_labels
from .table import _assemble, _resolve, _wide_columns

__all__ = ["read_parquet", "write_parquet"]

_CRC_KEY = b"streamtk_column_crc32"


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ImportError(
            "reading and writing Parquet logs needs pyarrow: pip install pyarrow (or 'streamtk[io]')"
        ) from None
    return pyarrow


def _column_crc(col) -> int:
    """CRC-32 of a column's decoded values (type, null mask and values; independent of chunking)."""
    arr = col.to_numpy(zero_copy_only=False)
    crc = zlib.crc32(str(col.type).encode())
    if arr.dtype.kind in "biuf":
        return zlib.crc32(np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes(), crc)
    text = "\x1f".join("\x00" if is_missing_label(v) else str(v) for v in arr.tolist())
    return zlib.crc32(text.encode("utf-8", "surrogatepass"), crc)


def _locate_damage(pa, path: Path, exc: Exception) -> LogFormatError:
    """Find the first row group and column that cannot be read (page checksums verified)."""
    try:
        pf = pa.parquet.ParquetFile(path, page_checksum_verification=True)
        meta = pf.metadata
    except (pa.ArrowException, OSError) as inner:
        return LogFormatError(f"not a readable Parquet file ({inner})", path=path)
    start = 0
    names = pf.schema_arrow.names
    for rg in range(meta.num_row_groups):
        rows = meta.row_group(rg).num_rows
        for j, name in enumerate(names):
            try:
                pf.read_row_group(rg, columns=[name])
            except (pa.ArrowException, OSError) as bad:
                return LogFormatError(
                    f"damaged data (page checksum or encoding: {bad})",
                    path=path,
                    chunk=f"row group {rg} (rows {start + 1}-{start + rows})",
                    column=j + 1,
                    column_name=name,
                )
        start += rows
    return LogFormatError(f"not a readable Parquet file ({exc})", path=path)


def _verify_columns(table, path: Path) -> None:
    meta = table.schema.metadata or {}
    if _CRC_KEY not in meta:
        return
    try:
        expected = json.loads(meta[_CRC_KEY].decode())
    except (ValueError, UnicodeDecodeError):
        raise LogFormatError("damaged metadata (the column checksums cannot be read)", path=path) from None
    names = table.column_names
    for name, crc in expected.items():
        if name not in names:
            raise LogFormatError(f"damaged metadata: the column {name!r} recorded at writing is missing", path=path)
        if _column_crc(table.column(name)) != crc:
            raise LogFormatError(
                "the column's values differ from those written (checksum mismatch: the file is damaged)",
                path=path,
                column=names.index(name) + 1,
                column_name=name,
            )


def read_parquet(path, *, y_true="y_true", y_pred=None, y_score=None, classes=None, weights=None, time_s=None,
                 memory_bytes=None, models=None) -> xr.Dataset:  # fmt: skip
    """Read a log from a Parquet file (wide layout; the options are those of :func:`read_csv`).

    Page checksums are verified, and the column checksums written by :func:`write_parquet`
    (see the module docstring). Needs ``pyarrow``; raises ImportError with the install command
    otherwise.

    Raises
    ------
    LogFormatError
        A damaged or unreadable file (naming the row group and the column when it can be
        located), a missing column, a non-numeric score/weight column, a negative weight
        (naming its row), labels that cannot be read exactly.
    """
    pa = _pyarrow()
    path = Path(path)
    try:
        table = pa.parquet.read_table(path, page_checksum_verification=True)
    except (pa.ArrowException, OSError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise _locate_damage(pa, path, exc) from None
    try:
        _verify_columns(table, path)
    except pa.ArrowException as exc:  # a damaged footer can declare types that cannot be decoded
        raise LogFormatError(f"damaged file ({exc})", path=path) from None
    names = table.column_names

    def labels(c):
        return as_labels(table.column(c).to_numpy(zero_copy_only=False), c)

    def numbers(c):
        col = table.column(c)
        if not (pa.types.is_floating(col.type) or pa.types.is_integer(col.type)):
            raise LogFormatError(f"numeric column expected, found type {col.type}", path=path,
                                 column=names.index(c) + 1, column_name=c)  # fmt: skip
        return np.asarray(col.to_numpy(zero_copy_only=False), dtype=np.float64)

    def where(message, column, row):
        return LogFormatError(
            message,
            path=path,
            row=None if row is None else row + 1,
            column=names.index(column) + 1,
            column_name=column,
        )

    spec = _resolve(
        names, y_true=y_true, y_pred=y_pred, y_score=y_score, classes=classes, weights=weights,
        time_s=time_s, memory_bytes=memory_bytes, models=models, path=path,
    )  # fmt: skip
    return _assemble(spec, labels, numbers, {"source_file": str(path)}, where)


def write_parquet(log: xr.Dataset, path) -> Path:
    """Write a log to Parquet in the wide layout (needs pyarrow), with page and column checksums.

    Written under a temporary name beside ``path`` and renamed over it when complete: on any
    failure an existing file is left intact and the error names ``path``.
    """
    pa = _pyarrow()
    path = Path(path)
    cols = {}
    for k, v in _wide_columns(log).items():
        cols[k] = pa.array([None if is_missing_label(x) else x for x in v.tolist()] if v.dtype.kind == "O" else v)
    table = pa.table(cols)
    crcs = {name: _column_crc(table.column(name)) for name in table.column_names}
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), _CRC_KEY: json.dumps(crcs).encode()})
    with atomic_path(path) as tmp:
        pa.parquet.write_table(table, tmp, write_page_checksum=True)
    return path
