"""netCDF-4 and zarr stores of logs and result Datasets: :func:`to_netcdf`, :func:`to_zarr`,
:func:`open_dataset` (text labels with missing values and length-1 array attributes survive the trip)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import xarray as xr

from streamtk._labelled import netcdf_safe

__all__ = ["open_dataset", "to_netcdf", "to_zarr"]

_MISSING_ATTR = "streamtk_missing_label"
_ARRAY_ATTRS = "streamtk_length1_array_attrs"  # netCDF reads length-1 array attributes back as scalars


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
