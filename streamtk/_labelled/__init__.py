"""The labelled layer's shared helpers: the only place (with the public labelled functions) that builds
xarray objects. Leading dims (:mod:`.dims`), alignment by labels (:mod:`.align`), coordinates and
attrs of outputs (:mod:`.attrs`)."""

from .align import Inputs, align_like, labelled_inputs, reorder_like
from .attrs import base_attrs, netcdf_safe, time_coords
from .bands import band_attrs, band_variables
from .dims import DEFAULT_LEADING_NAMES, LeadingDims, check_lead_dims, split_leading

__all__ = [
    "DEFAULT_LEADING_NAMES",
    "Inputs",
    "LeadingDims",
    "align_like",
    "band_attrs",
    "band_variables",
    "base_attrs",
    "check_lead_dims",
    "labelled_inputs",
    "netcdf_safe",
    "reorder_like",
    "split_leading",
    "time_coords",
]
