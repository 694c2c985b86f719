"""netCDF-4 and zarr stores of logs and result Datasets: :func:`to_netcdf`, :func:`to_zarr`,
:func:`open_dataset` (text labels with missing values and length-1 array attributes survive the trip).

Safety: both writers write beside the target under a temporary name and rename it into place
when complete (:mod:`streamtk.io.atomic`): a failed write (full disk, ...) leaves an existing
file or store intact and the error names it. netCDF numeric variables carry HDF5's Fletcher-32
checksum; zarr stores are written with every chunk present (``write_empty_chunks=True``), so
that :func:`open_dataset` can refuse a store with a missing chunk instead of reading it as the
fill value (zeros), and a store left incomplete by an interrupted
:func:`streamtk.runners.outofcore.evaluate_store`.
"""

from __future__ import annotations

import itertools
import math
import shutil
from pathlib import Path

import numpy as np
import xarray as xr

from streamtk._labelled import netcdf_safe

from .atomic import atomic_path
from .log import LogFormatError, attr_value

__all__ = ["check_zarr_chunks", "open_dataset", "to_netcdf", "to_zarr"]

#: group attribute of a store that an interrupted :func:`streamtk.runners.outofcore.evaluate_store` left
INCOMPLETE_ATTR = "streamtk_incomplete"
_KEEP_ENCODING = (
    "dtype",
    "_FillValue",
    "scale_factor",
    "add_offset",
    "units",
    "calendar",
    "zlib",
    "complevel",
    "shuffle",
)

_MISSING_ATTR = "streamtk_missing_label"
_BOOL_ATTR = "streamtk_missing_bool_label"  # boolean labels with missing ones: int8 0/1, this value missing
_ARRAY_ATTRS = "streamtk_length1_array_attrs"  # netCDF reads length-1 array attributes back as scalars


def encode_strings(ds: xr.Dataset) -> xr.Dataset:
    """Object string variables -> fixed-width text; missing -> '' with a marker attribute."""
    ds = ds.copy()
    for name in list(ds.variables):
        var = ds[name].variable
        if var.dtype.kind not in "OT":
            continue
        flat = var.values.reshape(-1).tolist()
        miss = [v is None or (isinstance(v, float) and v != v) for v in flat]
        present = [v for v, m in zip(flat, miss) if not m]
        if present and all(isinstance(v, (bool, np.bool_)) for v in present):
            ds = _with_variable(ds, name, _encode_bools(var, flat, miss))
            continue
        if not all(isinstance(v, str) for v in present):
            raise TypeError(f"variable {name!r} holds objects that are not strings; cannot store it")
        if any(miss):
            if "" in flat:
                raise ValueError(f"variable {name!r} holds both missing labels and empty strings; cannot store it")
            values = np.array(["" if m else v for v, m in zip(flat, miss)], dtype=str).reshape(var.shape)
            attrs = {**var.attrs, _MISSING_ATTR: ""}
        else:
            values, attrs = np.array(flat, dtype=str).reshape(var.shape), var.attrs
        ds = _with_variable(ds, name, xr.Variable(var.dims, values, attrs))
    ds.attrs = _mark_arrays({k: netcdf_safe(v) for k, v in ds.attrs.items()})
    for name in list(ds.variables):
        ds[name].attrs = _mark_arrays(ds[name].attrs)
    return ds


def _with_variable(ds: xr.Dataset, name, new: xr.Variable) -> xr.Dataset:
    if name in ds.coords:
        return ds.assign_coords({name: new})
    ds[name] = new
    return ds


def _encode_bools(var: xr.Variable, flat: list, miss: list) -> xr.Variable:
    """Boolean labels held as objects (with None missing): int8 0/1, missing -1, and a marker attribute."""
    values = np.array([-1 if m else int(bool(v)) for v, m in zip(flat, miss)], dtype=np.int8).reshape(var.shape)
    new = xr.Variable(var.dims, values, {**var.attrs, _BOOL_ATTR: -1})
    new.encoding = {"_FillValue": None}  # -1 is a label state of ours, not a fill value to mask
    return new


def _decode_bools(var: xr.Variable) -> xr.Variable:
    vals = np.asarray(var.values)
    out = np.empty(vals.shape, dtype=object)
    out[...] = vals.astype(bool)
    out[vals == var.attrs[_BOOL_ATTR]] = None
    return xr.Variable(var.dims, out, {k: v for k, v in var.attrs.items() if k != _BOOL_ATTR})


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


def decode_strings(ds: xr.Dataset) -> xr.Dataset:
    ds.attrs = _unmark_arrays(ds.attrs)
    for name in list(ds.variables):
        ds[name].attrs = _unmark_arrays(ds[name].attrs)
        var = ds[name].variable
        if _BOOL_ATTR in var.attrs:
            ds = _with_variable(ds, name, _decode_bools(var))
            continue
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
        ds = _with_variable(ds, name, xr.Variable(var.dims, vals, attrs))
    return ds


def to_netcdf(ds: xr.Dataset, path, *, engine: str | None = None) -> Path:
    """Write a log or a result Dataset to netCDF-4 (``engine`` "netcdf4" or "h5netcdf").

    Object-dtype string variables and coordinates are stored as text; missing labels are
    stored as empty strings with a marker attribute that :func:`open_dataset` undoes (a
    variable holding both missing labels and empty strings is refused). Boolean labels with
    missing ones (e.g. a river log's predictions, None before the first) are stored as int8
    (0, 1; -1 missing) with a marker attribute, and read back as booleans and None. Length-1 array
    attributes, which netCDF reads back as scalars, are marked and restored as well.
    Numeric arrays carry HDF5's Fletcher-32 checksum (verified when read). The file is written
    under a temporary name beside ``path`` and renamed over it when complete: on any failure
    (full disk, ...) an existing file is intact and the error (:class:`streamtk.io.atomic.WriteError`)
    names ``path``.

    See Also
    --------
    xarray.Dataset.to_netcdf : the underlying writer.
    open_dataset : the matching reader.
    """
    path = Path(path)
    engine = _netcdf_engine(engine)
    enc = encode_strings(ds)
    encoding = {}
    for name, var in enc.variables.items():
        if var.dtype.kind in "biuf" and var.ndim >= 1 and var.size > 0:
            kept = {k: v for k, v in var.encoding.items() if k in _KEEP_ENCODING}
            encoding[name] = {**kept, "fletcher32": True}
    with atomic_path(path) as tmp:
        enc.to_netcdf(tmp, engine=engine, encoding=encoding)
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
    """Write a log or result Dataset to a zarr store (format 2, readable by every zarr version).

    ``mode``: ``"w"`` replaces an existing store, ``"w-"`` refuses one, ``"a"`` / ``"r+"`` add
    or overwrite variables of an existing store (xarray's meanings). In every mode the new
    store is built beside ``path`` (for ``"a"`` / ``"r+"`` from a copy of the old one) and swapped
    in when complete: on failure the old store is intact and the error names ``path``. Every
    chunk is written, even one equal to the fill value, so a missing chunk means damage
    (:func:`open_dataset` refuses it).
    """
    try:
        import zarr  # noqa: F401
    except ImportError:
        raise ImportError("writing zarr needs the zarr package: pip install zarr (or 'streamtk[io]')") from None
    if mode not in ("w", "w-", "a", "r+"):
        raise ValueError(f"mode must be 'w', 'w-', 'a' or 'r+', got {mode!r}")
    path = Path(path)
    if mode in ("a", "r+") and not path.is_dir():
        raise FileNotFoundError(f"mode={mode!r} modifies an existing zarr store, but {path} is not one")
    enc = encode_strings(ds)
    with atomic_path(path, overwrite=mode != "w-", folder=True) as tmp:
        if mode in ("a", "r+"):
            shutil.copytree(path, tmp)
        enc.to_zarr(
            tmp, mode="w" if mode in ("w", "w-") else mode, zarr_format=2, consolidated=True, write_empty_chunks=True
        )
    return path


def _time_dim(dims) -> int | None:
    return dims.index("time") if "time" in dims else None


def check_zarr_chunks(path, *, what: str = "store") -> None:
    """Raise :class:`LogFormatError` if a chunk of any array of the zarr store ``path`` is missing.

    zarr reads a missing chunk as the array's fill value (zeros for integers), so a deleted or
    never-written chunk would silently become data. The error names the store, the variable,
    the chunk and (along ``time``) the instances it holds. Stores written by streamtk hold every
    chunk; other writers skip chunks equal to the fill value unless told
    ``write_empty_chunks=True`` (then open the store with ``xarray.open_zarr`` yourself).
    """
    import zarr

    path = Path(path)
    try:
        group = zarr.open_group(str(path), mode="r")
        arrays = list(group.arrays())
    except Exception as exc:  # noqa: BLE001 - zarr raises many types for a damaged store
        raise LogFormatError(f"not a readable zarr {what} ({type(exc).__name__}: {exc})", path=path) from None
    for name, arr in arrays:
        if arr.nchunks == 0 or arr.nchunks_initialized == arr.nchunks:
            continue
        dims = arr.attrs.get("_ARRAY_DIMENSIONS") or getattr(arr.metadata, "dimension_names", None) or ()
        grid = [range(math.ceil(s / c)) for s, c in zip(arr.shape, arr.chunks)]
        for coords in itertools.product(*grid):
            if not (path / arr.path / arr.metadata.encode_chunk_key(coords)).exists():
                break
        else:  # pragma: no cover - counted as missing but every key is there
            continue
        t = _time_dim(list(dims))
        span = ""
        if t is not None:
            lo = coords[t] * arr.chunks[t]
            span = f", instances {lo + 1}-{min(lo + arr.chunks[t], arr.shape[t])}"
        raise LogFormatError(
            f"the chunk is missing from the store (zarr would read it as the fill value {arr.fill_value!r}); "
            "the store is damaged or was written without write_empty_chunks=True",
            path=path,
            chunk=f"chunk {'.'.join(map(str, coords))}{span}",
            column_name=name,
        )


def incomplete_marker(path) -> str | None:
    """The ``streamtk_incomplete`` marker of a zarr store, from its group attributes *or* its consolidated
    metadata (a kill between the two writes can leave them different: either one marks the store)."""
    import json

    import zarr

    path = Path(path)
    views = []
    for name in (".zattrs", ".zmetadata"):
        f = path / name
        if f.is_file():
            try:
                obj = json.loads(f.read_bytes())
            except ValueError:
                raise LogFormatError("damaged zarr metadata (not JSON)", path=path, column_name=name) from None
            views.append(obj.get("metadata", {}).get(".zattrs", {}) if name == ".zmetadata" else obj)
    if not views:  # zarr format 3 (zarr.json): the library's view
        try:
            views.append(dict(zarr.open_group(str(path), mode="r").attrs))
        except Exception as exc:  # noqa: BLE001 - zarr raises many types for a damaged store
            raise LogFormatError(f"not a readable zarr store ({type(exc).__name__}: {exc})", path=path) from None
    return next((v[INCOMPLETE_ATTR] for v in views if INCOMPLETE_ATTR in v), None)


def _check_complete(path: Path) -> None:
    marker = incomplete_marker(path)
    if marker is not None:
        raise LogFormatError(
            f"{marker} (an interrupted evaluate_store); finish it with "
            "evaluate_store(..., resume=True), or inspect the rows done with xarray.open_zarr",
            path=path,
        )


def open_dataset(path, *, engine: str | None = None) -> xr.Dataset:
    """Load a Dataset written by :func:`to_netcdf` or :func:`to_zarr` into memory.

    Raises
    ------
    FileNotFoundError
        Nothing at ``path``.
    LogFormatError
        An unreadable or damaged file (a Fletcher-32 checksum mismatch, a truncated file), a zarr
        store with a missing chunk (naming the variable, the chunk and its instances), or a store
        left incomplete by an interrupted :func:`streamtk.runners.outofcore.evaluate_store`.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no such file or zarr store: {path}")
    if path.is_dir() or path.suffix == ".zarr":
        _check_complete(path)
        check_zarr_chunks(path)
        try:
            with xr.open_zarr(path, consolidated=None) as src:
                ds = src.load()
        except LogFormatError:
            raise
        except Exception as exc:  # noqa: BLE001 - a damaged chunk fails in the codec, with any type
            raise LogFormatError(f"not a readable zarr store ({type(exc).__name__}: {exc})", path=path) from None
    else:
        eng = _netcdf_engine(engine)
        failures = (OSError, RuntimeError, ValueError, KeyError, IndexError)
        try:
            src = xr.open_dataset(path, engine=eng, cache=False)
        except failures as exc:
            if isinstance(exc, FileNotFoundError):
                raise
            raise LogFormatError(f"not a readable netCDF file ({type(exc).__name__}: {exc})", path=path) from None
        with src:
            for name in list(src.variables):  # one variable at a time, so a damaged one is named
                try:
                    src.variables[name].load()
                except failures as exc:
                    raise LogFormatError(
                        f"damaged data (checksum or structure: {type(exc).__name__}: {exc})",
                        path=path,
                        column_name=name,
                    ) from None
            ds = src.load()
    ds = decode_strings(ds)
    if "y_true" in ds and "y_pred" in ds and "class" in ds.coords:  # a log written before its arrays carried it
        for var in ("y_true", "y_pred"):
            ds[var].attrs.setdefault("classes", attr_value(ds["class"].values))
    return ds
