"""Helpers shared by the labelled (xarray) layer: leading dims, coordinates, attrs.

Only this module and the public labelled functions build ``xarray`` objects; the
numpy layer below never imports xarray.
"""

from __future__ import annotations

import datetime as _dt
import json

import numpy as np
import xarray as xr

from ._version import __version__

__all__ = ["LeadingDims", "split_leading", "base_attrs", "netcdf_safe", "time_coords"]

DEFAULT_LEADING_NAMES = ("model", "fold", "run")


class LeadingDims:
    """Names, coordinates and shape of the leading (non-time) dimensions of an input."""

    def __init__(self, names: tuple, shape: tuple, coords: dict):
        self.names = tuple(names)
        self.shape = tuple(shape)
        self.coords = coords

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1

    def reshape(self, flat: np.ndarray) -> np.ndarray:
        """``(L, ...)`` -> ``(*shape, ...)``."""
        return flat.reshape(self.shape + flat.shape[1:])


def split_leading(values, name: str, *, lead_dims=None, time_dim: str | None = None):
    """Split an input of shape ``(..., n)`` into ``(L, n)`` and its leading-dim labels.

    ``values`` may be a numpy array, anything array-like, or an ``xarray.DataArray``
    whose **last** dimension is time (any name). Leading dims of numpy inputs are
    named ``("model", "fold", "run")[:k]`` unless ``lead_dims`` names them.

    Returns ``(array_2d, LeadingDims, time_coords)``; ``time_coords`` holds the
    DataArray's coordinates along its time dimension (empty for numpy input).
    """
    time_coord = {}
    if isinstance(values, xr.DataArray):
        if values.ndim == 0:
            raise ValueError(f"{name} must have a time dimension, got a 0-d DataArray")
        tdim = time_dim if time_dim is not None else values.dims[-1]
        if tdim not in values.dims:
            raise ValueError(f"{name} has no dimension {tdim!r}; its dims are {values.dims}")
        values = values.transpose(..., tdim)
        names = values.dims[:-1]
        coords = {k: v.variable for k, v in values.coords.items() if tdim not in v.dims and set(v.dims) <= set(names)}
        time_coord = {k: v.variable for k, v in values.coords.items() if v.dims == (tdim,)}
        arr = values.values
    else:
        arr = np.asarray(values)
        if arr.ndim == 0:
            raise ValueError(f"{name} must have at least one dimension (time), got a scalar {arr!r}")
        nlead = arr.ndim - 1
        if lead_dims is None:
            names = DEFAULT_LEADING_NAMES[:nlead] if nlead <= 3 else tuple(f"dim_{i}" for i in range(nlead))
        else:
            names = (lead_dims,) if isinstance(lead_dims, str) else tuple(lead_dims)
            if len(names) != nlead:
                raise ValueError(
                    f"lead_dims names {len(names)} dimension(s) {names!r} but {name} has {nlead} leading dimension(s) "
                    f"(shape {arr.shape})"
                )
        coords = {}
    lead = LeadingDims(names, arr.shape[:-1], coords)
    return arr.reshape((lead.size, arr.shape[-1])), lead, time_coord


def time_coords(instance: np.ndarray, extra: dict | None = None) -> dict:
    """Coordinates along ``time``: ``instance`` = 1-based count of instances seen."""
    coords = {"instance": ("time", np.asarray(instance, dtype=np.int64))}
    if extra:
        coords.update(extra)
    return coords


def netcdf_safe(value):
    """Convert a parameter to something netCDF attributes accept (str, number, 1-D numeric)."""
    if value is None:
        return "None"
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (int, float, str, np.integer, np.floating)):
        return value
    if isinstance(value, (list, tuple, np.ndarray)):
        arr = np.asarray(value)
        if arr.ndim == 1 and (np.issubdtype(arr.dtype, np.number)) and arr.size > 0:
            return arr
        return json.dumps(np.asarray(value).tolist(), default=str)
    return str(value)


def base_attrs(title: str, **params) -> dict:
    """Dataset-level attrs: title, package version, creation time and every parameter."""
    attrs = {
        "title": title,
        "source": f"streamtk {__version__}",
        "streamtk_version": __version__,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }
    for key, val in params.items():
        attrs[key] = netcdf_safe(val)
    return attrs
