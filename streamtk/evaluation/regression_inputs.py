"""Inputs of the regression and prediction-interval families: targets, predictions, weights, members, checks.

The rules (one place): a target is a real number; NaN marks an instance *without a target* (not evaluated by any
model: it occupies no window slot and advances no fading clock), an infinite target is refused. A prediction
must be finite wherever the instance has a target and a positive weight (a regression model always predicts;
leave an instance out with ``weights=0``); elsewhere it is never read. Weights are finite and non-negative; an
instance of weight 0 is not evaluated. Labelled inputs are aligned by their coordinate labels.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.validation import as_float_array, check_weights
from .._labelled import LeadingDims, align_like, split_leading

__all__ = ["Targets", "read_targets", "read_columns", "members", "check_finite_where", "TARGET_DIM"]

TARGET_DIM = "target"


class Targets:
    """Targets ``y (nt, n)``, their ``target`` labels (None for a single target) and their time coordinates."""

    def __init__(self, y, labels, tcoords, time_index):
        self.y, self.labels, self.tcoords, self.time_index = y, labels, tcoords, time_index

    @property
    def nt(self) -> int:
        return self.y.shape[0]

    @property
    def n(self) -> int:
        return self.y.shape[1]

    @property
    def multi(self) -> bool:
        return self.labels is not None


def read_targets(y_true, name="y_true") -> Targets:
    """``y_true`` ``(n,)`` or ``(n, targets)`` (a DataArray: a ``time`` dim, and a ``target`` dim for several)."""
    labels, tcoords, time_index = None, {}, None
    if isinstance(y_true, xr.DataArray):
        if TARGET_DIM in y_true.dims:
            if y_true.ndim != 2:
                raise ValueError(f"{name} must have dims (time, target), got {y_true.dims}")
            tdim = next(d for d in y_true.dims if d != TARGET_DIM)
            labels = y_true[TARGET_DIM].values if TARGET_DIM in y_true.coords else np.arange(y_true.sizes[TARGET_DIM])
            y_true = y_true.transpose(tdim, TARGET_DIM)
        elif y_true.ndim != 1:
            raise ValueError(f"{name} must have dims (time,) or (time, target), got {y_true.dims}")
        tdim = y_true.dims[0]
        tcoords = {k: v.variable for k, v in y_true.coords.items() if v.dims == (tdim,)}
        time_index = y_true.indexes.get(tdim)
        values = y_true.values
    else:
        values = y_true
    y = as_float_array(values, name, allow_nan=True)
    if y.ndim == 2 and labels is None:
        labels = np.arange(y.shape[1])
    if y.ndim not in (1, 2):
        raise ValueError(
            f"{name} must be one-dimensional (n,), or (n, targets) for several targets, got shape {y.shape}"
        )
    if np.isinf(y).any():
        idx = tuple(int(i) for i in np.unravel_index(np.isinf(y).argmax(), y.shape))
        raise ValueError(f"{name} contains an infinite value at index {idx} (NaN marks an instance without a target)")
    y = y.reshape(y.shape[0], -1).T if y.ndim == 2 else y[None, :]
    if labels is not None and len(labels) != y.shape[0]:
        raise ValueError(f"{name} has {y.shape[0]} targets but {len(labels)} target labels")
    return Targets(np.ascontiguousarray(y), labels, tcoords, time_index)


def read_columns(values, name, targets: Targets, *, lead_dims=None, lead=None, extra=None):
    """Predictions ``(..., n)`` (``(..., n, targets)`` for several targets; ``extra``: a trailing column dim such as
    ``quantile`` of ``(..., n, columns)``) -> ``(L * nt, n[, columns])`` model-major, and their leading dims.

    ``lead``: the leading dims another prediction array fixed (this one is aligned to them by label).
    """
    nt, n = targets.nt, targets.n
    trailing = (TARGET_DIM,) if targets.multi else ()
    trailing += (extra,) if extra else ()
    if isinstance(values, xr.DataArray):
        missing = [d for d in trailing if d not in values.dims]
        if missing:
            raise ValueError(f"{name} has no {missing[0]!r} dim (its dims: {values.dims})")
        if targets.multi and TARGET_DIM in values.coords and targets.labels is not None:
            if not np.array_equal(np.asarray(values[TARGET_DIM].values), np.asarray(targets.labels)):
                values = values.sel({TARGET_DIM: list(targets.labels)})
        core = values.isel({d: 0 for d in trailing}, drop=True) if trailing else values
        tdim = "time" if "time" in core.dims else core.dims[-1]
        if tdim != "time":
            values, core = values.rename({tdim: "time"}), core.rename({tdim: "time"})
        if lead is None:
            _, lead, tc = split_leading(core, name, lead_dims=lead_dims)
        else:
            tc = {}
        arr = align_like(values.transpose(..., "time", *trailing), lead, targets.time_index, n, name,
                         extra_dims=trailing)  # fmt: skip
        arr = np.asarray(arr)
    else:
        arr = np.asarray(values)
        if arr.ndim < 1 + len(trailing):
            raise ValueError(f"{name} must have shape (..., n{', targets' if targets.multi else ''}), got {arr.shape}")
        core_shape = arr.shape[: arr.ndim - len(trailing)]
        if lead is None:
            _, lead, tc = split_leading(np.empty(core_shape, dtype=np.int8), name, lead_dims=lead_dims)
        else:
            tc = {}
            if tuple(core_shape[:-1]) != lead.shape:
                raise ValueError(f"{name} has leading shape {core_shape[:-1]}, the other predictions {lead.shape}")
    arr = as_float_array(arr, name, allow_nan=True)
    if arr.shape[arr.ndim - len(trailing) - 1] != n:
        raise ValueError(f"{name} has {arr.shape[arr.ndim - len(trailing) - 1]} instances but y_true has {n}")
    if targets.multi and arr.shape[arr.ndim - len(trailing)] != nt:
        raise ValueError(f"{name} has {arr.shape[arr.ndim - len(trailing)]} targets but y_true has {nt}")
    L = lead.size
    cols = arr.shape[-1] if extra else 1
    arr = arr.reshape(L, n, nt, cols) if targets.multi else arr.reshape(L, n, 1, cols)
    arr = np.ascontiguousarray(arr.transpose(0, 2, 3, 1).reshape(L * nt, cols, n))  # (series, columns, time)
    return arr, lead, tc


def members(targets: Targets, weights, L: int):
    """``(weights (L * nt, n) or None, members (L * nt, n) bool or None)``: a member has a target and weight > 0."""
    nt = targets.nt
    has = ~np.isnan(targets.y)  # (nt, n)
    w = None
    if weights is not None:
        w = np.repeat(weights, nt, axis=0) if nt > 1 else weights  # (L * nt, n), model-major
    if has.all() and (w is None or bool((w > 0).all())):
        return w, None
    mem = np.tile(has, (L, 1))
    if w is not None:
        mem &= w > 0
    return w, mem


def check_finite_where(ps, mem, name):
    """Refuse a non-finite prediction where the instance is evaluated (``mem``: None for everywhere); ``name``: the
    argument, or one per column of ``ps (series, columns, time)``."""
    bad = ~np.isfinite(ps)
    if mem is not None:
        bad &= mem[:, None, :]
    if bad.any():
        s, c, t = (int(i) for i in np.unravel_index(bad.argmax(), bad.shape))
        if not isinstance(name, str):
            name = name[c]
        raise ValueError(
            f"{name} contains a non-finite value {ps[s, c, t]!r} at instance {t} (series {s}) where the target is "
            "present: a prediction must be finite wherever an instance is evaluated (pass weights=0 to leave it out)"
        )


def lead_weights(weights, lead: LeadingDims, targets: Targets, name="y_pred"):
    """``weights`` (``(..., n)``, broadcast over the models; a DataArray aligned by label) -> ``(L, n)`` or None."""
    if weights is None:
        return None
    if isinstance(weights, xr.DataArray):
        weights = align_like(weights, lead, targets.time_index, targets.n, "weights", ref=name)
    return check_weights(weights, lead.shape, targets.n, against=name)
