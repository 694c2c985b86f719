"""The Dataset of a regression or prediction-interval evaluation: variables, coordinates and attrs from the registry."""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.mechanisms import estimator_coords, mechanism_attrs
from .._core.metrics import EXTRA_DIMS, REGISTRY
from .._labelled import base_attrs, time_coords

__all__ = ["curves_dataset", "ESTIMATOR_NOTE"]

ESTIMATOR_NOTE = (
    "prequential: instances 1..t; window=w: the last min(t, w) evaluated instances; fading=a: instance s weighs "
    "a**(t - s); ewma=a: as fading=1 - a (MOA's factor a cancels in every ratio); tumbling / landmarks: since the "
    "last restart; adwin=delta: the current window of an ADWIN on the series' losses"
)


def curves_dataset(values, metrics, lead, specs, positions, tcoords, title, *, extra=None, squeeze=(), units=None,
                   **params) -> xr.Dataset:  # fmt: skip
    """``values {name: (L, E, C[, extra])}`` as a Dataset on ``(*lead, estimator, time[, extra])``.

    ``extra``: ``{dim: coordinate values}`` of the metrics' extra dims; ``squeeze``: extra dims of size 1 dropped
    (a single target); ``units``: attrs ``units`` overriding the registry's (MOA's percent).
    """
    extra = dict(extra or {})
    data = {}
    for m in list(metrics) + [REGISTRY["n_instances"]]:
        arr = lead.reshape(values[m.name])
        dims = lead.names + ("estimator", "time") + EXTRA_DIMS[m.shape] if m.name != "n_instances" else None
        if dims is None:
            dims = lead.names + ("estimator", "time")
        for d in squeeze:
            if d in dims:
                arr = np.take(arr, 0, axis=dims.index(d))
                dims = tuple(x for x in dims if x != d)
        attrs = m.attrs()
        if units and m.name in units:
            attrs["units"] = units[m.name]
        data[m.name] = xr.Variable(dims, arr, attrs=attrs)
    coords = dict(estimator_coords(specs))
    tc = {k: ("time", np.asarray(v.values)[positions]) for k, v in tcoords.items() if k != "instance"}
    coords.update(time_coords(positions + 1, tc))
    coords.update(lead.coords)
    for dim, labels in extra.items():
        if dim not in squeeze and any(dim in v.dims for v in data.values()):
            coords[dim] = (dim, np.asarray(labels))
    attrs = base_attrs(
        title,
        estimators=[s.label for s in specs],
        **mechanism_attrs(specs),
        estimator_note=ESTIMATOR_NOTE,
        metrics=[m.name for m in metrics],
        n_instances=int(positions[-1] + 1),
        **params,
    )
    return xr.Dataset(data, coords=coords, attrs=attrs)
