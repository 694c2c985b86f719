"""Helpers shared by the plot functions (axes creation, input checks, selection of leading dims)."""

from __future__ import annotations

import xarray as xr

__all__ = ["new_axes", "require", "select", "x_of", "draw_drifts", "TRUE_DRIFT_STYLE"]

TRUE_DRIFT_STYLE = {"color": "0.35", "ls": ":", "lw": 1.0}


def new_axes(ax, figsize=(7.0, 3.5)):
    """``ax`` itself, or the axes of a new figure (matplotlib imported here, lazily)."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize, constrained_layout=True)
    return ax


def require(ds, variables, what: str, hint: str):
    """Refuse anything that is not a Dataset holding ``variables`` (message names what is missing)."""
    if not isinstance(ds, xr.Dataset):
        raise TypeError(f"{what} needs an xarray.Dataset ({hint}), got {type(ds).__name__}")
    missing = [v for v in variables if v not in ds.variables]
    if missing:
        raise ValueError(
            f"{what} needs the variables {missing} ({hint}); this Dataset has {sorted(map(str, ds.data_vars))}"
        )


def select(da: xr.DataArray, keep, sel: dict | None, name: str) -> xr.DataArray:
    """Apply ``sel`` (label selection) and check that only the dims in ``keep`` remain."""
    for dim, value in (sel or {}).items():
        if dim not in da.dims:
            raise ValueError(f"{name} has no dimension {dim!r} to select from; its dims are {da.dims}")
        try:
            da = da.sel({dim: value})
        except KeyError:
            raise ValueError(f"{dim}={value!r} is not in {name}; choose one of {da[dim].values.tolist()}") from None
    extra = [d for d in da.dims if d not in keep]
    if extra:
        choices = {d: (da[d].values.tolist() if d in da.coords else f"0..{da.sizes[d] - 1}") for d in extra}
        raise ValueError(
            f"select the dims {extra} of {name} first (pass e.g. sel={{{extra[0]!r}: ...}}); choices: {choices}"
        )
    return da


def x_of(obj) -> tuple:
    """The ``instance`` coordinate (1-based count of instances seen) and its axis label."""
    if "instance" in obj.coords:
        return obj["instance"].values, "instances"
    return range(1, obj.sizes["time"] + 1), "time step"


def draw_drifts(ax, drifts, artists: list) -> None:
    """Dotted vertical lines at the true drifts (0-based indices, drawn at ``instance = index + 1``)."""
    import numpy as np

    for d in () if drifts is None else np.atleast_1d(np.asarray(drifts, dtype=float)):
        artists.append(ax.axvline(d + 1.0, **TRUE_DRIFT_STYLE))
