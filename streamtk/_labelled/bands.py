"""The labelled bands of a metric: variables ``<metric>_lower`` and ``<metric>_upper`` beside the metric."""

from __future__ import annotations

import xarray as xr

from .._core.intervals.sequences import METHOD_NOTE
from .._core.metrics.base import BOUND_SIDES, EXTRA_DIMS

__all__ = ["band_variables", "band_attrs", "method_note"]


def method_note(metric, spec) -> str:
    """How the band of ``metric`` was computed (its ``formula`` attr)."""
    if spec.method == "analytic":
        return metric.analytic.method
    if spec.method == "bootstrap":
        return f"percentile interval of {spec.replicates} online Poisson-bootstrap replicates (Oza & Russell 2001)"
    if spec.method == "block_bootstrap":
        length = (
            "chosen from the errors' autocorrelation (Politis & White 2004)"
            if spec.block_length is None
            else (f"{spec.block_length} instances")
        )
        return f"percentile interval of {spec.replicates} Poisson block-bootstrap replicates, blocks of {length}"
    return METHOD_NOTE


def band_attrs(metric, side: str, spec) -> dict:
    """The attrs of the ``side`` band of ``metric``."""
    ref = metric.analytic.reference if spec.method == "analytic" and metric.analytic.reference else metric.reference
    if spec.method == "sequence":
        ref = "Howard, Ramdas, McAuliffe & Sekhon 2021; Waudby-Smith & Ramdas 2024"
    return {
        "long_name": f"{side} bound of the {spec.level:g} band of the {metric.long_name}",
        "units": metric.units,
        "formula": method_note(metric, spec),
        "reference": ref,
        "interval": spec.level,
        "interval_method": spec.method,
        "bound_of": metric.name,
        "side": side,
    }


def band_variables(lead, metric, values: dict, spec, dims=None) -> dict:
    """The bands of ``metric`` found in ``values`` (``(L, E, C[, ...])`` arrays) as Variables on the metric's dims.

    ``dims``: the Variables' dims (default ``(*lead, "estimator", "time", *extra)``).
    """
    out = {}
    if spec is None:
        return out
    for side in BOUND_SIDES:
        name = f"{metric.name}_{side}"
        if name not in values:
            continue
        arr = lead.reshape(values[name])
        extra = EXTRA_DIMS[metric.shape][: arr.ndim - len(lead.shape) - 2]
        d = dims if dims is not None else lead.names + ("estimator", "time") + extra
        out[name] = xr.Variable(d, arr, attrs=band_attrs(metric, side, spec))
    return out
