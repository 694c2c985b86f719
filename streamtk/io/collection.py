"""Results collections (:func:`streamtk.comparison.collection.collect`) on disk: netCDF written atomically."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import xarray as xr

from .netcdf import open_dataset, to_netcdf

__all__ = ["write_collection", "read_collection"]


def write_collection(collection: xr.Dataset, path) -> Path:
    """Write a collection (or any result Dataset) to netCDF: a temporary file in the same folder, renamed on success."""
    path = Path(path)
    if not path.parent.is_dir():
        raise FileNotFoundError(f"path: the folder {path.parent} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        to_netcdf(collection, tmp)
        umask = os.umask(0)  # mkstemp made the file private; give it a new file's permissions
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def read_collection(path) -> xr.Dataset:
    """Read a collection written by :func:`write_collection` (refuses files that are not collections)."""
    ds = open_dataset(path)
    dims = {"summary", "estimator", "dataset", "model", "run"}
    if not any(dims <= set(ds[v].dims) for v in ds.data_vars):
        raise ValueError(f"{path}: not a results collection (no variable with dims {sorted(dims)})")
    return ds
