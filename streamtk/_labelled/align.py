"""Labelled inputs aligned by their coordinate labels, never by position.

Every labelled entry point (evaluation, comparison, scores, dask, out-of-core) reads its inputs
through :func:`labelled_inputs`: ``y_pred`` (or a log Dataset) fixes the leading dims, their
labels and the time axis; ``y_true``, ``weights`` and ``y_score`` given as DataArrays are
reindexed to those labels (a dim present in both with an index coordinate is matched by label;
labels that do not match are an error naming the argument, the dim and the labels); a dim
without labels on either side is matched by position (the sizes must agree). Missing leading
dims of ``weights`` / ``y_score`` are broadcast.

The class order (``classes``) comes from, in order: the argument; the ``class`` coordinate of
``y_score`` or of the log; a ``classes`` attribute of ``y_true`` / ``y_pred``; else sorted labels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import xarray as xr

from .._core.labels import as_label_array
from .dims import LeadingDims, plain_labels, split_leading

__all__ = ["Inputs", "labelled_inputs", "align_like", "reorder_like", "TIME_DIM"]

TIME_DIM = "time"


@dataclass
class Inputs:
    """Inputs of a labelled call after alignment: numpy arrays plus what labels them."""

    y_true: np.ndarray
    y_pred: np.ndarray  # (L, n)
    lead: LeadingDims
    time_coords: dict = field(default_factory=dict)
    weights: np.ndarray | None = None  # (L, n)
    y_score: np.ndarray | None = None  # (L, n) or (L, n, k) in class order
    classes: list | None = None

    @property
    def n(self) -> int:
        return int(self.y_pred.shape[1])


def _time_dim(da: xr.DataArray) -> str:
    return TIME_DIM if TIME_DIM in da.dims else da.dims[-1]


def _match(da: xr.DataArray, dim: str, want: pd.Index | None, size: int, name: str, ref: str) -> xr.DataArray:
    """``da`` with dim ``dim`` in the order of the labels ``want`` (or checked by size when unlabelled)."""
    have = da.indexes.get(dim)
    if want is not None and have is not None:
        if have.equals(want):
            return da
        if have.has_duplicates:
            raise ValueError(f"{name} has repeated labels on its {dim!r} dim: {list(have[have.duplicated()])[:5]}")
        missing = want.difference(have)
        extra = have.difference(want)
        if len(missing) or len(extra):
            raise ValueError(
                f"{name}'s {dim!r} labels do not match {ref}'s: missing {list(missing)[:5]}, extra {list(extra)[:5]}"
            )
        return da.reindex({dim: want})
    if da.sizes[dim] != size:
        raise ValueError(f"{name} has {da.sizes[dim]} entries along {dim!r} but {ref} has {size}")
    return da


def align_like(da, lead: LeadingDims, time_index, n: int, name: str, *, extra_dims=(), ref="y_pred"):
    """A DataArray (or array) aligned to ``lead`` and the time axis: ``(*lead.shape, n, *extra)`` values.

    ``time_index``: the reference's time labels (``pd.Index``) or None; ``extra_dims``: trailing dims
    (e.g. ``("class",)``) that are kept as they are (aligned by the caller).
    """
    if not isinstance(da, xr.DataArray):
        return np.asarray(da)
    tdim = _time_dim(da) if not set(da.dims) <= set(lead.names) | set(extra_dims) else None
    if tdim is None or tdim in extra_dims:
        raise ValueError(f"{name} has no time dim (dims {da.dims})")
    others = [d for d in da.dims if d not in (tdim, *extra_dims)]
    unknown = [d for d in others if d not in lead.names]
    if unknown:
        raise ValueError(f"{name} has dims {unknown} that {ref} does not have ({ref}'s: {lead.names + ('time',)})")
    da = _match(da, tdim, time_index, n, name, ref)
    for dim, size in zip(lead.names, lead.shape):
        if dim in da.dims:
            want = lead.coords[dim].to_index() if dim in lead.coords and lead.coords[dim].dims == (dim,) else None
            da = _match(da, dim, want, size, name, ref)
        else:
            da = da.expand_dims({dim: size})
    return da.transpose(*lead.names, tdim, *extra_dims).values


def _index_of(lead: LeadingDims, dim: str):
    var = lead.coords.get(dim)
    return var.to_index() if var is not None and var.dims == (dim,) else None


def reorder_like(first: LeadingDims, lead: LeadingDims, *, name: str = "y_pred", ref: str = "the first chunk"):
    """The rows of a later chunk's series ``(lead.size, ...)`` in ``first``'s order, or None if already in it.

    For chunk-by-chunk processing: a later chunk's leading dims are matched to the first chunk's
    by their labels (a ``model`` coordinate in another order is put back in order: index the
    chunk's ``(L, ...)`` arrays with the returned rows); labels that the first chunk does not
    have, or lacks, are a ``ValueError`` naming the dim and the labels. Dims without labels on
    either side are matched by position (their sizes must agree).
    """
    if (lead.names, lead.shape) != (first.names, first.shape):
        raise ValueError(
            f"{name} leading dims changed between chunks: {dict(zip(first.names, first.shape))} "
            f"then {dict(zip(lead.names, lead.shape))}"
        )
    rows = np.arange(lead.size).reshape(lead.shape)
    moved = False
    for axis, dim in enumerate(lead.names):
        want, have = _index_of(first, dim), _index_of(lead, dim)
        if want is None or have is None or have.equals(want):
            continue
        missing, extra = want.difference(have), have.difference(want)
        if have.has_duplicates or len(missing) or len(extra):
            raise ValueError(
                f"{name}'s {dim!r} labels {list(have)[:10]} do not match {ref}'s {list(want)[:10]}: "
                f"missing {list(missing)[:5]}, unknown {list(extra)[:5]}"
            )
        rows = np.take(rows, have.get_indexer(want), axis=axis)
        moved = True
    return rows.reshape(-1) if moved else None


def _classes_of(*arrays):
    """The class order a labelled input carries (a ``class`` coordinate or a ``classes`` attr), else None."""
    for a in arrays:
        if isinstance(a, (xr.DataArray, xr.Dataset)):
            if "class" in a.coords and a["class"].ndim == 1:
                return a["class"].values.tolist()
            if "classes" in a.attrs:
                return list(np.atleast_1d(a.attrs["classes"]).tolist())
    return None


def labelled_inputs(
    y_true,
    y_pred=None,
    *,
    y_score=None,
    weights=None,
    lead_dims=None,
    classes=None,
    score_classes=True,
    pred_name="y_pred",
) -> Inputs:
    """Normalise ``(y_true, y_pred[, y_score, weights])`` or a log Dataset into aligned numpy inputs.

    A log Dataset (``y_true``, ``y_pred`` and optionally ``y_score``, ``weights``; see
    :mod:`streamtk.io`) may be passed as ``y_true`` with ``y_pred=None``; arguments given
    explicitly as well are an error.
    """
    log = None
    if isinstance(y_true, xr.Dataset):
        log = y_true
        if y_pred is not None:
            raise TypeError("pass either a log Dataset or y_true and y_pred, not both")
        for var in ("y_true", "y_pred"):
            if var not in log:
                raise ValueError(f"the log Dataset has no {var!r} variable (its variables: {list(log.data_vars)})")
        y_true, y_pred = log["y_true"], log["y_pred"]
        if y_score is None and "y_score" in log:
            y_score = log["y_score"]
        if weights is None and "weights" in log:
            weights = log["weights"]
    if y_pred is None:
        raise TypeError("y_pred is required (or pass a log Dataset as the first argument)")
    if classes is None:
        classes = _classes_of(y_score if score_classes else None, log, y_true, y_pred)
    if not isinstance(y_true, xr.DataArray):  # y_true's labels are read (and checked) first
        y_true = as_label_array(y_true, "y_true")
    yp2, lead, tcoords = split_leading(y_pred, pred_name, lead_dims=lead_dims, labels=True)
    n = yp2.shape[1]
    time_index = None
    if isinstance(y_pred, xr.DataArray):
        tdim = _time_dim(y_pred)
        time_index = y_pred.indexes.get(tdim)
    if isinstance(y_true, xr.DataArray):
        y_true = plain_labels(y_true, "y_true")
        if y_true.ndim != 1:
            raise ValueError(f"y_true must be one-dimensional (n,), got dims {y_true.dims}")
        tcoords = {**{k: v.variable for k, v in y_true.coords.items() if v.dims == y_true.dims}, **tcoords}
        y_true = _match(y_true, y_true.dims[0], time_index, n, "y_true", pred_name)
        yt = y_true.values
    else:
        yt = y_true if isinstance(y_true, np.ma.MaskedArray) else np.asarray(y_true)
    if np.ndim(yt) != 1:
        raise ValueError(f"y_true must be one-dimensional (n,), got shape {np.shape(yt)}")
    if yt.shape[0] != n:
        raise ValueError(f"{pred_name} has {n} instances along its last axis but y_true has {yt.shape[0]}")
    if weights is not None and isinstance(weights, xr.DataArray):
        weights = align_like(weights, lead, time_index, n, "weights", ref=pred_name)
    score = None
    if y_score is not None:
        score = y_score
        if isinstance(y_score, xr.DataArray):
            extra = ("class",) if "class" in y_score.dims else ()
            if extra and classes is not None and "class" in y_score.indexes:
                want = pd.Index(list(classes))
                y_score = _match(y_score, "class", want, len(classes), "y_score", "classes")
            score = align_like(y_score, lead, time_index, n, "y_score", extra_dims=extra, ref=pred_name)
    return Inputs(yt, yp2, lead, tcoords, weights, score, None if classes is None else list(classes))
