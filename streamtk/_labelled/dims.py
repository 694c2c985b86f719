"""Leading dimensions (model, fold, run, ...) of labelled and numpy inputs."""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.labels import as_label_array

__all__ = ["LeadingDims", "split_leading", "check_lead_dims", "plain_labels", "DEFAULT_LEADING_NAMES", "RESERVED_DIMS"]

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


RESERVED_DIMS = ("time", "class", "estimator", "instance")


def check_lead_dims(lead_dims) -> tuple:
    """``lead_dims`` as a tuple of distinct names that are not the output's own dims."""
    names = (lead_dims,) if isinstance(lead_dims, str) else tuple(lead_dims)
    for nm in names:
        if not isinstance(nm, str) or not nm:
            raise TypeError(f"lead_dims must be names (non-empty strings), got {lead_dims!r}")
        if nm in RESERVED_DIMS:
            raise ValueError(
                f"lead_dims must not use the reserved name {nm!r} ({', '.join(RESERVED_DIMS)}), got {names!r}"
            )
    if len(set(names)) != len(names):
        raise ValueError(f"lead_dims has a repeated name: {names!r}")
    return names


def plain_labels(da: xr.DataArray, name: str) -> xr.DataArray:
    """``da`` with numpy data when it holds a pandas extension array (xarray keeps them: nullable
    ``Int64``, ``boolean``, ``string``, ``Float64``...), read by :func:`as_label_array`'s rules
    (``pandas.NA`` missing, integers kept exact)."""
    if isinstance(da.dtype, np.dtype):
        return da
    data = da.variable.data
    arr = np.asarray(as_label_array(getattr(data, "array", data), name))
    return da.copy(data=arr.reshape(da.shape))


def split_leading(values, name: str, *, lead_dims=None, time_dim: str | None = None, labels: bool = False):
    """Split an input of shape ``(..., n)`` into ``(L, n)`` and its leading-dim labels.

    ``values`` may be a numpy array, anything array-like, or an ``xarray.DataArray``
    whose **last** dimension is time (any name). Leading dims of numpy inputs are
    named ``("model", "fold", "run")[:k]`` unless ``lead_dims`` names them. No leading dim may
    have a name of :data:`RESERVED_DIMS` (the outputs' own dims): a ``ValueError`` names it.

    Returns ``(array_2d, LeadingDims, time_coords)``; ``time_coords`` holds the
    DataArray's coordinates along its time dimension (empty for numpy input). With ``labels``
    the values are labels: Python sequences are read by :func:`streamtk._core.labels.as_label_array`
    (no silent cast of mixed text and numbers or of big integers) and a masked array keeps its mask
    (a masked prediction is a missing one).
    """
    time_coord = {}
    if isinstance(values, xr.DataArray):
        if labels:
            values = plain_labels(values, name)
        if values.ndim == 0:
            raise ValueError(f"{name} must have a time dimension, got a 0-d DataArray")
        tdim = time_dim if time_dim is not None else ("time" if "time" in values.dims else values.dims[-1])
        if tdim not in values.dims:
            raise ValueError(f"{name} has no dimension {tdim!r}; its dims are {values.dims}")
        values = values.transpose(..., tdim)
        names = values.dims[:-1]
        reserved = [d for d in names if d in RESERVED_DIMS]
        if reserved:
            raise ValueError(
                f"{name} has the leading dim {reserved[0]!r} (dims {values.dims}), a name reserved for the output's "
                f"own dims ({', '.join(RESERVED_DIMS)}): its series would collide with them; rename it, "
                f"e.g. {name}.rename({{{reserved[0]!r}: 'model'}})"
            )
        coords = {k: v.variable for k, v in values.coords.items() if tdim not in v.dims and set(v.dims) <= set(names)}
        time_coord = {k: v.variable for k, v in values.coords.items() if v.dims == (tdim,)}
        arr = values.values
    else:
        if labels:
            arr = as_label_array(values, name)
            arr = arr if isinstance(arr, np.ma.MaskedArray) else np.asarray(arr)
        else:
            arr = np.asarray(values)
        if arr.ndim == 0:
            raise ValueError(f"{name} must have at least one dimension (time), got a scalar {arr!r}")
        nlead = arr.ndim - 1
        if lead_dims is None:
            names = DEFAULT_LEADING_NAMES[:nlead] if nlead <= 3 else tuple(f"dim_{i}" for i in range(nlead))
        else:
            names = check_lead_dims(lead_dims)
            if len(names) != nlead:
                raise ValueError(
                    f"lead_dims names {len(names)} dimension(s) {names!r} but {name} has {nlead} leading dimension(s) "
                    f"(shape {arr.shape})"
                )
        coords = {}
    lead = LeadingDims(names, arr.shape[:-1], coords)
    return arr.reshape((lead.size, arr.shape[-1])), lead, time_coord
