"""Result files holding several Datasets as groups (``streamtk drift -o drift.nc``), written atomically.

One command writes one file: the root group carries attributes saying what is inside, each
Dataset is a group (netCDF-4 groups, or zarr groups for a ``.zarr`` store). The whole file is
written under a temporary name and renamed into place (:func:`streamtk.io.atomic.atomic_path`),
so an interrupted or failed run leaves neither a partial file nor a partial set of files.
:func:`group_names` lists the groups of such a file; ``streamtk plot FILE --group NAME`` reads one.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["group_names", "write_groups"]


def _plain(ds):
    """Text labels as fixed-width strings and attributes netCDF can hold (as :func:`streamtk.io.to_netcdf`)."""
    from .._labelled import netcdf_safe

    ds = ds.copy()
    for name in list(ds.variables):
        var = ds[name].variable
        if var.dtype.kind == "O":
            values = var.values.astype(str)
            if name in ds.coords:
                ds = ds.assign_coords({name: (var.dims, values, var.attrs)})
            else:
                ds[name] = (var.dims, values, var.attrs)
    ds.attrs = {k: netcdf_safe(v) for k, v in ds.attrs.items()}
    for name in list(ds.variables):
        ds[name].attrs = {k: netcdf_safe(v) for k, v in ds[name].attrs.items()}
    return ds


def write_groups(path, groups: dict, attrs: dict) -> Path:
    """Write ``{group name: Dataset}`` to one ``.nc`` file (or ``.zarr`` store) with ``attrs`` on its root.

    Returns the path written. Nothing is left behind on failure or Ctrl-C.
    """
    import xarray as xr

    from ..io.atomic import atomic_path
    from ._common import _check_output
    from ._interrupt import check as check_interrupt

    _check_output(path)
    check_interrupt()
    path = Path(path)
    root = xr.Dataset(attrs={**attrs, "groups": " ".join(groups)})
    zarr = path.suffix == ".zarr"
    with atomic_path(path, folder=zarr) as tmp:
        if zarr:
            root.to_zarr(tmp, mode="w", zarr_format=2, consolidated=True)
            for name, ds in groups.items():
                _plain(ds).to_zarr(tmp, group=name, mode="a", zarr_format=2, consolidated=True)
        else:
            root.to_netcdf(tmp, mode="w", engine="netcdf4")
            for name, ds in groups.items():
                _plain(ds).to_netcdf(tmp, mode="a", group=name, engine="netcdf4")
    return path


def group_names(path) -> list:
    """The groups of a netCDF file or zarr store (empty for a file without groups)."""
    path = Path(path)
    if path.is_dir():
        import zarr

        return sorted(zarr.open_group(str(path), mode="r").group_keys())
    import netCDF4

    with netCDF4.Dataset(path) as nc:
        return list(nc.groups)
