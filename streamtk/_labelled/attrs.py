"""Coordinates and attrs of labelled outputs: the ``instance`` coordinate, parameters, provenance."""

from __future__ import annotations

import datetime as _dt
import json

import numpy as np

from .._version import __version__

__all__ = ["base_attrs", "netcdf_safe", "time_coords"]


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
