"""Reading a log whatever its format: :func:`read_log` picks the reader from the file name."""

from __future__ import annotations

import os
from pathlib import Path

import xarray as xr

from .csv import read_csv
from .moa import read_moa_predictions
from .netcdf import open_dataset
from .npz import read_npz
from .parquet import read_parquet

__all__ = ["read_log"]


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
