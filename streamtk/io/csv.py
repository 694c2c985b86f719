"""CSV/TSV logs (plain or gzip) in the wide table layout: :func:`read_csv` and :func:`write_csv`."""

from __future__ import annotations

import csv
import gzip
import io as _io
import zlib
from pathlib import Path

import numpy as np
import xarray as xr

from .atomic import atomic_path
from .log import EXACT_FLOAT_INT, MISSING_TOKENS, LogFormatError, as_labels, parse_labels
from .table import _assemble, _resolve, _wide_columns

__all__ = ["read_csv", "write_csv"]


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
    _check_sep(sep)
    opts = dict(y_true=y_true, y_pred=y_pred, y_score=y_score, classes=classes, weights=weights, time_s=time_s,
                memory_bytes=memory_bytes, models=models)  # fmt: skip
    fast = _read_csv_pandas(path, sep, opts)
    if fast is not None:
        return fast
    reader = None
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
        raise LogFormatError(f"not valid UTF-8 text ({exc.reason})", path=path, line=_next_line(reader)) from None
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        # a truncated or corrupt .gz: the lines before were read, the next one cannot be
        raise LogFormatError(
            f"the gzip data is truncated or corrupt after line {_next_line(reader) - 1} ({exc})",
            path=path,
            line=_next_line(reader),
        ) from None
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
                f"cannot read {raw[i]!r} as a number",
                path=path,
                line=lines[i],
                column=index[name] + 1,
                column_name=name,
            ) from None
        return out

    def where(message, column, row):
        return LogFormatError(
            message,
            path=path,
            line=lines[row] if row is not None else None,
            column=index[column] + 1,
            column_name=column,
        )

    spec = _resolve(header, path=path, **opts)
    return _assemble(spec, lambda c: parse_labels(cols[index[c]], c), numbers, {"source_file": str(path)}, where)


def _next_line(reader) -> int:
    """The 1-based line the exact reader was about to read (1 = the header) when reading failed."""
    return (reader.line_num + 1) if reader is not None else 1


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
            # pandas keeps integers beyond int64/uint64 (or a mix of both) as text: read them exactly
            return parse_labels(col.tolist(), c)
        if col.dtype.kind == "f" and (np.abs(col.to_numpy()) >= EXACT_FLOAT_INT).any():
            raise _Fallback  # integers above 2**53 may have been rounded: the exact reader decides
        return as_labels(col.to_numpy(), c)

    def where(message, column, row):
        raise _Fallback  # the exact reader reports the problem with its line and column

    def numbers(c):
        if frame[c].dtype.kind not in "iuf":
            raise _Fallback
        return frame[c].to_numpy(dtype=np.float64)

    try:
        spec = _resolve(header, path=path, **opts)
        return _assemble(spec, labels, numbers, {"source_file": str(path)}, where)
    except _Fallback:
        return None


def _is_number(v):
    try:
        float(v)
    except ValueError:
        return False
    return True


def write_csv(log: xr.Dataset, path, *, sep=None) -> Path:
    """Write a log in the wide layout read by :func:`read_csv` (missing labels as empty fields).

    Labels containing the separator or quotes are quoted; floats use ``repr`` (exact round trip).
    A name ending in ``.gz`` is gzip-compressed. The file is written beside ``path`` under a
    temporary name and renamed over it only when complete (:func:`streamtk.io.atomic.atomic_path`):
    on any failure (full disk, ...) an existing file is left intact and the error names ``path``.
    """
    path = Path(path)
    if sep is None:
        sep = "\t" if path.name.endswith((".tsv", ".tab", ".tsv.gz", ".tab.gz")) else ","
    _check_sep(sep)
    cols = _wide_columns(log)
    with atomic_path(path) as tmp, open(tmp, "wb") as raw:
        gz = gzip.GzipFile(filename=path.name[:-3], mode="wb", fileobj=raw) if path.name.endswith(".gz") else None
        fh = _io.TextIOWrapper(gz if gz is not None else raw, encoding="utf-8", newline="")
        writer = csv.writer(fh, delimiter=sep, lineterminator="\n")
        writer.writerow(list(cols))
        columns = [[_cell(v) for v in c.tolist()] for c in cols.values()]
        writer.writerows(zip(*columns))
        fh.flush()
        fh.detach()
        if gz is not None:
            gz.close()
    return path


def _check_sep(sep) -> None:
    if not isinstance(sep, str):
        raise TypeError(f"sep must be a one-character string, got {sep!r} of type {type(sep).__name__}")
    if len(sep) != 1 or sep in '"\r\n':
        raise ValueError(f"sep must be one character (not a quote or a line break), got {sep!r}")


def _cell(v):
    if v is None or (isinstance(v, float) and v != v):
        return ""
    return repr(v) if isinstance(v, float) else str(v)
