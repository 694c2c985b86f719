"""Helpers shared by the plot functions: axes, input checks, selection, symbols, legends, robust limits.

* :func:`place_legend` puts a legend where it covers no plotted point: the first empty corner or
  side inside the axes, else outside on the right (:func:`covered_points` is the test it uses,
  and the test suite's check of every plot function).
* :func:`robust_ylim` sets y-limits from the bulk of the values so that a few spikes (e.g.
  kappa_per = -13 of a tiny ADWIN window) do not flatten every other curve, and marks each
  clipped value with a triangle on the axes edge.
* :func:`axis_label` writes a metric as the papers do (``$\\kappa_m$``) with its units.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.metrics import REGISTRY

__all__ = [
    "new_axes",
    "require",
    "select",
    "x_of",
    "draw_drifts",
    "TRUE_DRIFT_STYLE",
    "axis_label",
    "natural_range",
    "place_legend",
    "covered_points",
    "robust_ylim",
]

TRUE_DRIFT_STYLE = {"color": "0.35", "ls": ":", "lw": 1.0}


def natural_range(name) -> tuple:
    """The bounds the values of metric ``name`` cannot leave (the registry's ``limits``; none outside it)."""
    m = REGISTRY.get(str(name))
    return m.limits if m is not None else (None, None)


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
    for d in () if drifts is None else np.atleast_1d(np.asarray(drifts, dtype=float)):
        artists.append(ax.axvline(d + 1.0, **TRUE_DRIFT_STYLE))


def axis_label(name: str, da=None) -> str:
    """The metric's symbol (``$\\kappa_m$``) and its units when they are not the plain ratio ``1``."""
    m = REGISTRY.get(str(name))
    label = m.label if m is not None else (da.attrs.get("long_name", name) if da is not None else name)
    units = da.attrs.get("units", "1") if da is not None else "1"
    return label if units in ("1", "", None) else f"{label} ({units})"


# --------------------------------------------------------------------------- legends
def _display_points(ax):
    """Every plotted point of ``ax`` in display coordinates (segments of lines sampled every few pixels)."""
    pts = []
    for line in ax.get_lines():
        if not line.get_visible():
            continue
        xy = np.asarray(line.get_xydata(), dtype=float)
        xy = xy[np.isfinite(xy).all(axis=1)] if xy.size else xy.reshape(0, 2)
        if not len(xy):
            continue
        d = line.get_transform().transform(xy)
        pts.append(d)
        if line.get_linestyle() not in ("None", "none", "", " ") and len(d) > 1:
            # points along each segment, so that a legend cannot sit between two sparse vertices
            seg = np.diff(d, axis=0)
            steps = np.clip(np.ceil(np.hypot(seg[:, 0], seg[:, 1]) / 4.0).astype(int), 1, 200)
            if steps.max() > 1:  # segment i gets the points d[i] + seg[i] * j / steps[i], j = 1 .. steps[i] - 1
                reps = steps - 1
                idx = np.repeat(np.arange(len(steps)), reps)
                j = np.arange(1, idx.size + 1) - np.repeat(np.cumsum(reps) - reps, reps)
                pts.append(d[idx] + seg[idx] * (j / steps[idx])[:, None])
    from matplotlib.collections import PathCollection

    for coll in ax.collections:
        if not coll.get_visible():
            continue
        if isinstance(coll, PathCollection):  # scatter: the markers sit at the offsets
            off = np.asarray(coll.get_offsets(), dtype=float).reshape(-1, 2)
            off = off[np.isfinite(off).all(axis=1)]
            if len(off):
                pts.append(coll.get_offset_transform().transform(off))
            continue
        transform = coll.get_transform()
        for path in coll.get_paths():  # filled areas, line collections: their outline
            v = np.asarray(path.vertices, dtype=float)
            v = v[np.isfinite(v).all(axis=1)]
            if len(v):
                pts.append(transform.transform(v))
    for patch in ax.patches:
        if patch.get_visible():
            bb = patch.get_window_extent()
            if np.isfinite([bb.x0, bb.y0, bb.x1, bb.y1]).all():
                gx, gy = np.meshgrid(np.linspace(bb.x0, bb.x1, 5), np.linspace(bb.y0, bb.y1, 5))
                pts.append(np.column_stack([gx.ravel(), gy.ravel()]))
    return np.concatenate(pts) if pts else np.empty((0, 2))


def covered_points(ax, legend=None) -> int:
    """How many plotted points of ``ax`` (and of axes sharing its area, e.g. a twin) lie inside the
    legend's box. 0 means the legend covers no data."""
    legend = legend if legend is not None else ax.get_legend()
    if legend is None:
        return 0
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    box = legend.get_window_extent(renderer)
    n = 0
    gx, gy = np.meshgrid(np.linspace(box.x0, box.x1, 7)[1:-1], np.linspace(box.y0, box.y1, 7)[1:-1])
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    for other in fig.axes:
        if other is ax or other.bbox.bounds == ax.bbox.bounds:
            pts = _display_points(other)
            inside = (pts[:, 0] > box.x0) & (pts[:, 0] < box.x1) & (pts[:, 1] > box.y0) & (pts[:, 1] < box.y1)
            n += int(inside.sum())
            n += _filled_hits(other, grid)
    return n


def _filled_hits(ax, grid) -> int:
    """Points of ``grid`` (display coordinates) inside a filled area of ``ax`` (bands, spans, bars)."""
    from matplotlib.collections import LineCollection, PathCollection

    hits = np.zeros(len(grid), dtype=bool)
    for coll in ax.collections:
        if not coll.get_visible() or isinstance(coll, (PathCollection, LineCollection)):
            continue
        face = np.asarray(coll.get_facecolor())
        if not face.size or not (face[:, 3] > 0).any():
            continue
        for path in coll.get_paths():
            hits |= path.contains_points(grid, transform=coll.get_transform())
    for patch in ax.patches:
        if patch.get_visible() and patch.get_fill():
            hits |= patch.get_path().contains_points(grid, transform=patch.get_transform())
    return int(hits.sum())


_INSIDE = ("upper right", "upper left", "lower right", "lower left", "center right", "center left",
           "upper center", "lower center")  # fmt: skip


def place_legend(ax, handles=None, labels=None, *, fontsize="small", ncol=1, outside="right", **kw):
    """A legend over no plotted point: the first empty place inside the axes, else outside.

    Parameters
    ----------
    ax : matplotlib Axes
    handles, labels : optional
        As for :meth:`matplotlib.axes.Axes.legend` (default: the labelled artists).
    outside : {"right", "below"}
        Where the legend goes when no place inside is empty.

    Returns
    -------
    matplotlib.legend.Legend or None (nothing labelled).
    """
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    elif labels is None:
        labels = [h.get_label() for h in handles]
    if not handles:
        return None
    ax.figure.canvas.draw()  # final layout and limits before measuring
    for loc in _INSIDE:
        legend = ax.legend(handles, labels, loc=loc, fontsize=fontsize, frameon=True, framealpha=0.9, ncol=ncol,
                           **kw)  # fmt: skip
        if covered_points(ax, legend) == 0:
            return legend
        legend.remove()
    if outside == "below":
        return ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.18), fontsize=fontsize,
                         frameon=False, ncol=max(ncol, min(len(handles), 4)), borderaxespad=0.0, **kw)  # fmt: skip
    return ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=fontsize, frameon=False,
                     ncol=ncol, borderaxespad=0.0, **kw)  # fmt: skip


# --------------------------------------------------------------------------- robust limits
def robust_limits(values, natural=(None, None), *, quantile=0.01, factor=3.0):
    """``(lo, hi, clipped)``: limits holding the bulk of ``values``.

    The limits are the full range of the finite values unless it is more than ``factor``
    times the range between the ``quantile`` and ``1 - quantile`` quantiles; then they are
    those quantiles widened by half that range on each side. A natural bound of the metric
    (``natural``, e.g. accuracy in [0, 1]) is never exceeded. ``clipped`` says whether any
    value lies outside.
    """
    v = np.asarray(values, dtype=float).ravel()
    v = v[np.isfinite(v)]
    if not v.size:
        return None, None, False
    lo, hi = float(v.min()), float(v.max())
    # the quantiles round inwards, so that one spike among a few dozen checkpoints is not "the bulk"
    qlo = float(np.quantile(v, quantile, method="higher"))
    qhi = float(np.quantile(v, 1.0 - quantile, method="lower"))
    spread = qhi - qlo
    if spread > 0 and (hi - lo) > factor * spread:
        lo, hi = max(lo, qlo - 0.5 * spread), min(hi, qhi + 0.5 * spread)
    pad = 0.05 * (hi - lo) if hi > lo else (0.05 * abs(hi) if hi else 0.05)
    lo, hi = lo - pad, hi + pad
    nlo, nhi = natural
    if nlo is not None:
        lo = max(lo, nlo - 0.02 * (hi - lo))
    if nhi is not None:
        hi = min(hi, nhi + 0.02 * (hi - lo))
    clipped = bool((v < lo).any() or (v > hi).any())
    return lo, hi, clipped


def robust_ylim(ax, series, *, natural=(None, None), lo_hi=None, color="0.2"):
    """Set robust y-limits for ``series`` (pairs ``(x, y)``) and mark every clipped value.

    A value above the upper limit is a triangle pointing up on the top edge of the axes, a value
    below the lower limit a triangle pointing down on the bottom edge, at its ``x`` (the marker is
    labelled "clipped (n values)"). ``lo_hi`` imposes the limits (e.g. shared by the panels of one
    metric). Returns the marker artists.
    """
    if lo_hi is None:
        allv = np.concatenate([np.asarray(y, dtype=float).ravel() for _, y in series]) if series else np.empty(0)
        lo, hi, _ = robust_limits(allv, natural)
    else:
        lo, hi = lo_hi
    if lo is None or hi is None or not hi > lo:
        return []
    ax.set_ylim(lo, hi)
    xs_hi, xs_lo = [], []
    for x, y in series:
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        xs_hi.append(x[y > hi])
        xs_lo.append(x[y < lo])
    up, down = np.concatenate(xs_hi) if xs_hi else [], np.concatenate(xs_lo) if xs_lo else []
    artists = []
    n = len(up) + len(down)
    label = f"clipped ({n} value{'s' if n != 1 else ''})"
    trans = ax.get_xaxis_transform()
    if len(up):
        artists.append(ax.plot(up, np.full(len(up), 1.0), ls="none", marker="^", ms=5, color=color, clip_on=False,
                               transform=trans, label=label, zorder=5)[0])  # fmt: skip
        label = "_nolegend_"
    if len(down):
        artists.append(ax.plot(down, np.full(len(down), 0.0), ls="none", marker="v", ms=5, color=color, clip_on=False,
                               transform=trans, label=label, zorder=5)[0])  # fmt: skip
    return artists
