"""Logs as compressed, pickle-free ``.npz`` files: :func:`read_npz`, :func:`write_npz`."""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path

import numpy as np
import xarray as xr

from streamtk._core.labels import is_missing_label

from .atomic import atomic_path
from .log import LogFormatError, log_parts, make_log
from .multilabel import make_multilabel_log

__all__ = ["read_npz", "write_npz"]

_NPZ_ARRAYS = ("y_true", "y_pred", "models", "classes", "y_score", "weights", "time_s", "memory_bytes", "labels")


def _store_labels(arr):
    """Object label arrays -> (U array, missing mask) for pickle-free npz storage."""
    if arr.dtype.kind != "O":
        return arr, None
    miss = np.array([is_missing_label(v) for v in arr.reshape(-1).tolist()], dtype=bool).reshape(arr.shape)
    return np.where(miss, "", arr).astype(str), miss


def write_npz(log: xr.Dataset, path) -> Path:
    """Write a log to a compressed ``.npz`` file (no pickles).

    Written under a temporary name beside ``path`` and renamed over it when complete: on any
    failure an existing file is left intact and the error names ``path``. Every member carries
    the zip format's CRC-32, which :func:`read_npz` verifies.
    """
    path = Path(path)
    arrays = {"models": np.array(log_parts(log), dtype=str)}
    for var in ("y_true", "y_pred"):
        arrays[var], miss = _store_labels(log[var].values)
        if miss is not None:
            arrays[f"{var}_missing"] = miss
    if "class" in log.coords:
        arrays["classes"] = log["class"].values
    if "label" in log.coords:  # a multi-label log (streamtk.io.multilabel)
        arrays["labels"] = log["label"].values
    for var in ("y_score", "weights", "time_s", "memory_bytes"):
        if var in log:
            arrays[var] = log[var].values
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        np.savez_compressed(fh, **arrays)
    return path


def read_npz(path) -> xr.Dataset:
    """Read a log from ``.npz``: arrays ``y_true`` and ``y_pred`` (``(n,)`` or ``(n_models, n)``),
    optional ``models``, ``classes``, ``y_score``, ``weights``, ``time_s``, ``memory_bytes``;
    ``y_true_missing`` / ``y_pred_missing`` boolean masks mark missing string labels."""
    path = Path(path)
    arrays = {}
    member = None
    try:
        with open(path, "rb") as fh, np.load(fh, allow_pickle=False) as z:
            for member in z.files:  # one member at a time, so a damaged one is named
                arrays[member] = z[member]
    except FileNotFoundError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError) as exc:
        where = {} if member is None else {"column_name": member}
        raise LogFormatError(f"not a readable .npz file ({exc})", path=path, **where) from None
    for key in ("y_true", "y_pred"):
        if key not in arrays:
            raise LogFormatError(f"no array named {key!r}; arrays are {sorted(arrays)}", path=path)
        miss = arrays.pop(f"{key}_missing", None)
        if miss is not None:
            if miss.dtype != bool or miss.shape != arrays[key].shape:
                raise LogFormatError(
                    f"{key}_missing must be a boolean mask of the shape of {key} {arrays[key].shape}, "
                    f"got {miss.dtype} {miss.shape}",
                    path=path,
                    column_name=f"{key}_missing",
                )
            arr = arrays[key].astype(object)
            arr[miss] = None
            arrays[key] = arr
    unknown = set(arrays) - set(_NPZ_ARRAYS)
    if unknown:
        raise LogFormatError(f"unexpected arrays {sorted(unknown)}; a log holds {list(_NPZ_ARRAYS)}", path=path)
    models = arrays.pop("models", None)
    labels = arrays.pop("labels", None)
    try:
        if labels is not None:  # a multi-label log
            return make_multilabel_log(
                arrays.pop("y_true"), arrays.pop("y_pred"), models=None if models is None else models.tolist(),
                labels=labels.tolist(), attrs={"source_file": str(path)}, **arrays,
            )  # fmt: skip
        return make_log(
            arrays.pop("y_true"), arrays.pop("y_pred"), models=None if models is None else models.tolist(),
            attrs={"source_file": str(path)}, **arrays,
        )  # fmt: skip
    except (ValueError, TypeError) as exc:
        raise LogFormatError(str(exc), path=path) from None
