"""The class order of a log, kept where every consumer finds it.

A log's class order (code 0 first) is the ``class`` coordinate of the Dataset *and* the
attribute ``classes`` of its ``y_true`` and ``y_pred`` arrays, so that
``streamtk.evaluate(log.y_true, log.y_pred)`` -- which sees only the arrays -- keeps it.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .log import as_labels, attr_value  # noqa: F401 (attr_value: also for streamtk.recorders._log)

__all__ = ["with_class_order", "class_order_of"]


def with_class_order(log: xr.Dataset, classes) -> xr.Dataset:
    """``log`` with ``classes`` as its ``class`` coordinate and as ``attrs["classes"]`` of
    ``y_true`` and ``y_pred`` (a new Dataset; the arrays are not copied).

    Parameters
    ----------
    log : xarray.Dataset
        A log (:func:`streamtk.io.make_log`).
    classes : sequence
        Every class label, in order (code 0 first). Labels of ``y_true``/``y_pred`` that are
        not in it are refused, naming the label.
    """
    cls = as_labels(list(classes), "classes")
    if cls.ndim != 1 or len(set(cls.tolist())) != len(cls):
        raise ValueError(f"classes must be distinct labels, got {list(classes)!r}")
    known = set(cls.tolist())
    for var in ("y_true", "y_pred"):
        vals = log[var].values.reshape(-1)
        if vals.dtype.kind == "f":
            vals = vals[~np.isnan(vals)]
        elif vals.dtype.kind == "O":
            vals = np.array([v for v in vals.tolist() if v is not None], dtype=object)
        extra = [v for v in np.unique(vals.astype(object) if vals.dtype.kind == "O" else vals).tolist()
                 if v not in known]  # fmt: skip
        if extra:
            raise ValueError(f"{var} holds the label {extra[0]!r}, which is not in classes {cls.tolist()!r}")
    if "class" in log.coords:
        have = log["class"].values.tolist()
        if sorted(map(repr, have)) != sorted(map(repr, cls.tolist())):
            raise ValueError(f"the log's classes {have!r} are not the labels of classes {cls.tolist()!r}")
        reprs = [repr(h) for h in have]
        log = log.isel({"class": [reprs.index(repr(c)) for c in cls.tolist()]})  # positions: bool labels are no mask
    out = log.assign_coords({"class": ("class", cls)})
    value = attr_value(cls)
    for var in ("y_true", "y_pred"):
        out[var].attrs["classes"] = value
    return out


def class_order_of(log: xr.Dataset):
    """The class order of a log: its ``class`` coordinate, else ``y_true.attrs["classes"]``, else None."""
    if "class" in log.coords:
        return log["class"].values.tolist()
    if "y_true" in log and "classes" in log["y_true"].attrs:
        return np.atleast_1d(np.asarray(log["y_true"].attrs["classes"])).tolist()
    return None
