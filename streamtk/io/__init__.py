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

A multi-label log (:func:`make_multilabel_log`, :mod:`streamtk.io.multilabel`) has ``y_true (time, label)``
and ``y_pred (model, time, label)`` of 0/1 and a ``label`` coordinate (wide tables: ``y_true:<label>``,
``y_pred:<model>:<label>``); every reader and writer below takes it.

with coordinates ``model`` (names), ``instance`` on ``time`` (1-based count of instances seen)
and ``class`` (when scores are present). ``streamtk.evaluate(log.y_true, log.y_pred)`` evaluates
it directly.

Readers: :func:`read_csv` (CSV/TSV, optionally gzip), :func:`read_parquet` (needs pyarrow),
:func:`read_npz`, :func:`read_moa_predictions` (MOA's ``EvaluatePrequential -o`` dump),
:func:`from_capymoa`, :func:`from_river`, and :func:`read_log` which picks a reader from the
file name. Results collections of many runs: :func:`write_collection`, :func:`read_collection`.
Writers: :func:`write_csv`, :func:`write_parquet`, :func:`write_npz`, and
:func:`to_netcdf` / :func:`to_zarr` for logs and result Datasets (read back with
:func:`open_dataset`). Malformed files raise :class:`LogFormatError` naming the file, the line
(1-based; for binary formats the row, row group or chunk and the instances it holds) and the
column (1-based field number or variable, with its name): truncated or corrupt gzip data,
damaged Parquet pages (page checksums and per-column checksums are written and verified), a
netCDF Fletcher-32 checksum mismatch, a zarr chunk that is missing (zarr would read it as
zeros), labels that cannot be read exactly (integers beyond 64 bits, integers that float64 would
round, text in one label column and numbers in another).

Every writer writes beside its target under a temporary name and renames it into place when
complete (:mod:`streamtk.io.atomic`): a failure (full disk, file-size limit, Ctrl-C) leaves an
existing file intact and raises :class:`WriteError` naming the target. Labels keep their exact
values: ``uint64`` above ``2**63 - 1`` survives every format.

Wide table layout (CSV, TSV, Parquet): columns ``y_true``; ``y_pred:<model>`` (or a single
``y_pred``); ``y_score:<model>:<class>``; ``weights``; ``time_s:<model>``;
``memory_bytes:<model>``. Every name can be given explicitly instead.

Modules: :mod:`~streamtk.io.log` (the layout, :func:`make_log`), :mod:`~streamtk.io.table` (the wide
table layout), :mod:`~streamtk.io.csv`, :mod:`~streamtk.io.parquet`, :mod:`~streamtk.io.npz`,
:mod:`~streamtk.io.moa`, :mod:`~streamtk.io.capymoa`, :mod:`~streamtk.io.river`,
:mod:`~streamtk.io.netcdf` (netCDF and zarr), :mod:`~streamtk.io.dispatch` (:func:`read_log`) and
:mod:`~streamtk.io.atomic` (safe writing, for any writer: :func:`~streamtk.io.atomic.atomic_path`,
:func:`~streamtk.io.atomic.save_figure`).
"""

from __future__ import annotations

from .atomic import WriteError, atomic_path, save_figure
from .capymoa import from_capymoa
from .collection import read_collection, write_collection
from .csv import read_csv, write_csv
from .dispatch import read_log
from .log import MISSING_TOKENS, LogFormatError, make_log  # noqa: F401 (MISSING_TOKENS is documented)
from .moa import read_moa_predictions
from .multilabel import is_multilabel, make_multilabel_log
from .netcdf import decode_strings, encode_strings, open_dataset, to_netcdf, to_zarr  # noqa: F401 - streamtk.runners.outofcore encodes its stores alike
from .npz import read_npz, write_npz
from .parquet import read_parquet, write_parquet
from .regression_log import log_task, make_regression_log
from .river import from_river

__all__ = [
    "make_regression_log",
    "log_task",
    "LogFormatError",
    "WriteError",
    "atomic_path",
    "save_figure",
    "from_capymoa",
    "from_river",
    "make_log",
    "make_multilabel_log",
    "is_multilabel",
    "open_dataset",
    "read_collection",
    "read_csv",
    "read_log",
    "read_moa_predictions",
    "read_npz",
    "read_parquet",
    "to_netcdf",
    "to_zarr",
    "write_collection",
    "write_csv",
    "write_npz",
    "write_parquet",
]
