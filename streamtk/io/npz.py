"""Logs as compressed, pickle-free ``.npz`` files: :func:`read_npz`, :func:`write_npz`."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import xarray as xr

from streamtk._core.labels import is_missing_label

from .log import LogFormatError, _log_parts, make_log

__all__ = ["read_npz", "write_npz"]

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
