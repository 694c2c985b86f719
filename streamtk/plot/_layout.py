"""Legends and text that stay readable: where a legend goes, and what a reader could not read.

* :func:`place_legend` puts a legend where it covers no plotted point: the first empty corner or
  side inside the axes, else outside on the right (or below), past the tick labels and axis
  labels of the axes and its twins; :func:`covered_points` is the test it uses.
* :func:`fit_title` breaks a title into lines no wider than its axes.
* :func:`layout_problems` lists a legend over a title, a tick label or an axis label, and a title
  cut by the figure's edge or lying over another axes.

The test suite checks every plot function, the demo figure and the paper figures with
:func:`covered_points` and :func:`layout_problems`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["covered_points", "fit_title", "layout_problems", "place_legend"]


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


def _renderer(fig):
    """The figure's renderer; a figure made without pyplot (``Figure()``) gets an Agg canvas to measure with."""
    if not hasattr(fig.canvas, "get_renderer"):
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    return fig.canvas.get_renderer()


def _drawn(fig):
    """Draw ``fig`` (its layout applied, text placed) and return its renderer."""
    renderer = _renderer(fig)
    fig.canvas.draw()
    return renderer


def covered_points(ax, legend=None) -> int:
    """How many plotted points of ``ax`` (and of axes sharing its area, e.g. a twin) lie inside the
    legend's box. 0 means the legend covers no data."""
    legend = legend if legend is not None else ax.get_legend()
    if legend is None:
        return 0
    fig = ax.figure
    renderer = _renderer(fig)
    box = legend.get_window_extent(renderer)
    n = 0
    gx, gy = np.meshgrid(np.linspace(box.x0, box.x1, 7)[1:-1], np.linspace(box.y0, box.y1, 7)[1:-1])
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    # only what is drawn: the axes clip lines and areas (a band filled down to 0 below the y limit is not seen);
    # markers on the edges (clip_on=False) stick out by a few pixels
    area, edge = ax.bbox, ax.bbox.padded(8.0)
    grid = grid[(grid[:, 0] >= area.x0) & (grid[:, 0] <= area.x1) & (grid[:, 1] >= area.y0) & (grid[:, 1] <= area.y1)]
    for other in fig.axes:
        if other is ax or other.bbox.bounds == ax.bbox.bounds:
            pts = _display_points(other)
            inside = (pts[:, 0] > box.x0) & (pts[:, 0] < box.x1) & (pts[:, 1] > box.y0) & (pts[:, 1] < box.y1)
            inside &= (pts[:, 0] >= edge.x0) & (pts[:, 0] <= edge.x1) & (pts[:, 1] >= edge.y0) & (pts[:, 1] <= edge.y1)
            n += int(inside.sum())
            n += _filled_hits(other, grid) if len(grid) else 0
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

    Notes
    -----
    A legend outside starts past the tick labels and axis labels of the axes and of its twins (a
    right-hand y axis), and the axes title is then broken to the axes' width (:func:`fit_title`).
    """
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    elif labels is None:
        labels = [h.get_label() for h in handles]
    if not handles:
        return None
    _drawn(ax.figure)  # final layout and limits before measuring
    for loc in _INSIDE:
        legend = ax.legend(handles, labels, loc=loc, fontsize=fontsize, frameon=True, framealpha=0.9, ncol=ncol,
                           **kw)  # fmt: skip
        if covered_points(ax, legend) == 0:
            fit_title(ax)
            return legend
        legend.remove()
    below = outside == "below"
    ncol = max(ncol, min(len(handles), 4)) if below else ncol
    renderer = _renderer(ax.figure)
    for _ in range(ncol + 3):  # the layout moves the axes once the legend is in: measure again until clear
        # anchored at the axes' edge plus the labels' extent in inches: the figure's layout may still move and
        # resize the axes (other panels' legends), the labels' extent stays
        where = _anchor_past_labels(ax, below)
        legend = ax.legend(handles, labels, loc="upper center" if below else "upper left", fontsize=fontsize,
                           frameon=False, ncol=ncol, borderaxespad=0.0, **where, **kw)  # fmt: skip
        if below and ncol > 1 and legend.get_window_extent(renderer).width > ax.bbox.width:
            legend.remove()  # wider than its axes, it would widen the column and squeeze the axes: fewer columns
            ncol -= 1
            continue
        if not _over_own_labels(ax, legend):
            break
    fit_title(ax)  # the legend set the axes' final width
    return legend


def _own_texts(ax):
    """The shown tick labels and axis labels of ``ax`` and of the axes sharing its area (twins)."""
    fig = ax.figure
    return [t for _, other, t in _axis_texts(fig) if other is ax or other.bbox.bounds == ax.bbox.bounds]


def _anchor_past_labels(ax, below):
    """``bbox_to_anchor`` / ``bbox_transform`` of a legend just right of (or below) the tick labels and axis
    labels of ``ax`` and its twins, as an offset in inches from the axes' edge."""
    from matplotlib.transforms import ScaledTranslation

    fig = ax.figure
    renderer = _drawn(fig)
    box = ax.bbox
    boxes = [t.get_window_extent(renderer) for t in _own_texts(ax)]
    pad = 4.0 * fig.dpi / 72.0  # 4 points
    if below:
        bottom = min([box.y0] + [b.y0 for b in boxes if b.y1 <= box.y0 + 0.5 * box.height])
        shift = ScaledTranslation(0.0, -(box.y0 - bottom + pad) / fig.dpi, fig.dpi_scale_trans)
        return {"bbox_to_anchor": (0.5, 0.0), "bbox_transform": ax.transAxes + shift}
    right = max([box.x1] + [b.x1 for b in boxes if b.x0 >= box.x0 + 0.5 * box.width])
    shift = ScaledTranslation((right - box.x1 + pad) / fig.dpi, 0.0, fig.dpi_scale_trans)
    return {"bbox_to_anchor": (1.0, 1.0), "bbox_transform": ax.transAxes + shift}


def _over_own_labels(ax, legend) -> bool:
    fig = ax.figure
    renderer = _drawn(fig)
    box = legend.get_window_extent(renderer).padded(-1.0)
    return any(box.overlaps(t.get_window_extent(renderer)) for t in _own_texts(ax))


def fit_title(ax) -> None:
    """Break the axes title into lines no wider than the axes (a layout never widens an axes for its title,
    so a long title would run over its neighbours or off the figure). Mathtext (``$...$``) is never split."""
    title = ax.title
    if not _shown(title):
        return
    # the title as given (its own line breaks kept), so that a second call re-fits to a wider axes too
    given = title._streamtk_given if getattr(title, "_streamtk_shown", None) == title.get_text() else None
    given = title.get_text() if given is None else given
    fig = ax.figure
    renderer = _drawn(fig)
    width = ax.bbox.width
    out = []
    for hard in given.split("\n"):
        words = []
        for w in hard.split(" "):
            if words and words[-1].count("$") % 2:  # inside $...$: keep the formula whole
                words[-1] += " " + w
            else:
                words.append(w)
        line = ""
        for w in words:
            trial = f"{line} {w}".strip()
            title.set_text(trial)
            if line and title.get_window_extent(renderer).width > width:
                out.append(line)
                line = w
            else:
                line = trial
        out.append(line)
    title.set_text("\n".join(out))
    title._streamtk_given, title._streamtk_shown = given, title.get_text()


# --------------------------------------------------------------------------- text layout
def _shown(text) -> bool:
    return text is not None and text.get_visible() and bool(text.get_text().strip())


def _titles(fig):
    """``(name, Text)`` of every shown axes title (centre, left, right) and of the figure's suptitle."""
    out = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for attr in ("title", "_left_title", "_right_title"):  # matplotlib keeps the side titles private
            t = getattr(ax, attr, None)
            if _shown(t):
                out.append((f"title {t.get_text()!r}", ax, t))
    sup = getattr(fig, "_suptitle", None)
    if _shown(sup):
        out.append((f"figure title {sup.get_text()!r}", None, sup))
    return out


def _axis_texts(fig):
    """``(name, axes, Text)`` of the shown axis labels and tick labels of every visible axes."""
    out = []
    for ax in fig.axes:
        if not ax.get_visible() or not ax.axison:
            continue
        for axis in (ax.xaxis, ax.yaxis):
            if _shown(axis.label):
                out.append((f"axis label {axis.label.get_text()!r}", ax, axis.label))
            for t in axis.get_majorticklabels() + axis.get_minorticklabels():
                if _shown(t):
                    out.append((f"tick label {t.get_text()!r}", ax, t))
    return out


def layout_problems(fig) -> list:
    """What a reader cannot read in ``fig``: descriptions, empty when the layout is clean.

    * a legend (of an axes or of the figure) over an axes title, the figure's title, a tick label
      or an axis label, of any axes;
    * a title that the figure's edge cuts, or that lies over another axes.

    Legends over data are :func:`covered_points`' business. The figure is drawn first.
    """
    renderer = _drawn(fig)
    legends = [(f"figure legend {i}", leg) for i, leg in enumerate(fig.legends)]
    legends += [(f"legend of axes {ax.get_title()!r}", ax.get_legend()) for ax in fig.axes if ax.get_legend()]
    titles = _titles(fig)
    texts = [(name, t) for name, _, t in titles] + [(name, t) for name, _, t in _axis_texts(fig)]
    problems = []
    for lname, leg in legends:
        if not leg.get_visible():
            continue
        box = leg.get_window_extent(renderer).padded(-1.0)
        for name, t in texts:
            if box.overlaps(t.get_window_extent(renderer)):
                problems.append(f"{lname} overlaps the {name}")
    edge = fig.bbox.padded(0.5)
    for name, ax, t in titles:
        bb = t.get_window_extent(renderer)
        if bb.x0 < edge.x0 or bb.x1 > edge.x1 or bb.y0 < edge.y0 or bb.y1 > edge.y1:
            problems.append(f"the figure's edge cuts the {name}")
        for other in fig.axes:
            if other is ax or not other.get_visible() or (ax is not None and other.bbox.bounds == ax.bbox.bounds):
                continue
            if bb.padded(-1.0).overlaps(other.bbox):
                problems.append(f"the {name} lies over the axes {other.get_title()!r}")
    return problems
