"""Publication-quality figures: legends outside the data, clipped values marked, labels checked.

Every figure goes through :func:`finish`, which

* marks every value that an axis limit clips (a triangle at the limit, pointing outwards, in the
  series' colour) and says so in the caption;
* refuses a figure with an axes (other than a diagram whose axis is off) lacking an x or y label,
  or with a legend that covers a data point, line segment or bar (:func:`legend_overlaps`);
* writes a 300 dpi PNG and a PDF (vector) beside it.

matplotlib is imported lazily (the Agg backend, never a window).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "new_figure",
    "legend_outside",
    "mark_clipped",
    "legend_overlaps",
    "figure_problems",
    "finish",
    "estimator_label",
    "vlines",
]


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def new_figure(nrows=1, ncols=1, *, size=(5.0, 3.2), **kw):
    """``(fig, axes)`` with ``axes`` always 2-D; ``size`` is per panel; constrained layout."""
    plt = _plt()
    kw.setdefault("layout", "constrained")
    fig, axes = plt.subplots(nrows, ncols, figsize=(size[0] * ncols, size[1] * nrows), squeeze=False, **kw)
    return fig, axes


def legend_outside(target, handles=None, labels=None, *, where="right", ncol=1, fontsize=8, title=None):
    """A legend outside the data area: right of an axes, or below / right of a whole figure."""
    if hasattr(target, "add_subplot"):  # a Figure
        if handles is None:
            seen = {}
            for ax in target.axes:
                for h, lab in zip(*ax.get_legend_handles_labels()):
                    seen.setdefault(lab, h)
            labels, handles = list(seen), list(seen.values())
        loc = "outside lower center" if where == "below" else "outside right upper"
        return target.legend(handles, labels, loc=loc, ncol=ncol, fontsize=fontsize, title=title, frameon=False)
    ax = target
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    if where == "below":
        return ax.legend(
            handles,
            labels,
            loc="upper center",
            bbox_to_anchor=(0.5, -0.22),
            ncol=ncol,
            fontsize=fontsize,
            title=title,
            frameon=False,
        )
    return ax.legend(
        handles,
        labels,
        loc="upper left",
        bbox_to_anchor=(1.02, 1.0),
        borderaxespad=0.0,
        ncol=ncol,
        fontsize=fontsize,
        title=title,
        frameon=False,
    )


def mark_clipped(ax) -> int:
    """Mark the values of lines, markers and bars beyond the y limits; returns how many."""
    lo, hi = sorted(ax.get_ylim())
    xlo, xhi = sorted(ax.get_xlim())
    count = 0
    for line in list(ax.lines):
        if line.get_gid() in ("clip-marker", "guide") or not line.get_visible():
            continue
        if line.get_transform() != ax.transData:  # axhline / axvline span the axes: nothing to clip
            continue
        x = np.asarray(line.get_xdata(orig=False), dtype=float)
        y = np.asarray(line.get_ydata(orig=False), dtype=float)
        if x.size != y.size or x.size == 0:
            continue
        inside_x = (x >= xlo) & (x <= xhi)
        for mask, lim, marker in ((y > hi, hi, "^"), (y < lo, lo, "v")):
            m = mask & inside_x & np.isfinite(y)
            if m.any():
                count += int(m.sum())
                (mk,) = ax.plot(x[m], np.full(m.sum(), lim), ls="none", marker=marker, ms=4, color=line.get_color())
                mk.set_clip_on(False)
                mk.set_gid("clip-marker")
                mk.set_label("_nolegend_")
    for p in list(ax.patches):
        if not hasattr(p, "get_height") or p.get_gid() == "clip-marker":
            continue
        v = p.get_y() + p.get_height()  # a bar's value is its end; its base (0) below a raised limit is no value
        for lim, marker in ((hi, "^"), (lo, "v")):
            if (marker == "^" and v > hi) or (marker == "v" and v < lo):
                count += 1
                (mk,) = ax.plot([p.get_x() + p.get_width() / 2], [lim], ls="none", marker=marker, ms=4, color="k")
                mk.set_clip_on(False)
                mk.set_gid("clip-marker")
                mk.set_label("_nolegend_")
    return count


def _legends(fig):
    out = list(fig.legends)
    for ax in fig.axes:
        leg = ax.get_legend()
        if leg is not None:
            out.append(leg)
    return out


def _line_points(line, ax):
    """Display coordinates of a line's points and of points interpolated along its segments."""
    xy = np.asarray(line.get_xydata(), dtype=float)
    if xy.size == 0:
        return np.empty((0, 2))
    pts = line.get_transform().transform(xy)
    pts = pts[np.isfinite(pts).all(axis=1)]
    if line.get_linestyle() in ("None", "none", "", " ") or len(pts) < 2:
        return pts
    seg = np.diff(pts, axis=0)
    length = np.hypot(seg[:, 0], seg[:, 1])
    steps = np.clip(np.ceil(length / 2.0).astype(int), 1, 200)  # a point every ~2 px
    out = [pts[:1]]
    for a, d, k in zip(pts[:-1], seg, steps):
        t = (np.arange(1, k + 1) / k)[:, None]
        out.append(a + t * d)
    return np.concatenate(out)


def legend_overlaps(fig) -> list:
    """Descriptions of every legend that covers a data point, line or bar (empty list = none)."""
    fig.canvas.draw()
    problems = []
    for leg in _legends(fig):
        box = leg.get_window_extent().padded(-1.0)
        for ax in fig.axes:
            abox = ax.get_window_extent()
            for line in ax.lines:
                if not line.get_visible() or line.get_gid() == "guide":
                    continue
                pts = _line_points(line, ax)
                vis = (pts[:, 0] >= abox.x0) & (pts[:, 0] <= abox.x1) & (pts[:, 1] >= abox.y0) & (pts[:, 1] <= abox.y1)
                p = pts[vis]
                hit = (p[:, 0] > box.x0) & (p[:, 0] < box.x1) & (p[:, 1] > box.y0) & (p[:, 1] < box.y1)
                if hit.any():
                    problems.append(f"legend covers line {line.get_label()!r} of axes {ax.get_title()!r}")
            for patch in ax.patches:
                if patch.get_gid() == "guide":
                    continue
                from matplotlib.transforms import Bbox

                seen = Bbox.intersection(patch.get_window_extent(), abox)  # the visible part only
                if seen is not None and seen.overlaps(box):
                    problems.append(f"legend covers a bar of axes {ax.get_title()!r}")
                    break
            for coll in ax.collections:
                offs = coll.get_offsets()
                if len(offs) == 0:
                    continue
                pts = coll.get_offset_transform().transform(offs)
                hit = (pts[:, 0] > box.x0) & (pts[:, 0] < box.x1) & (pts[:, 1] > box.y0) & (pts[:, 1] < box.y1)
                if hit.any():
                    problems.append(f"legend covers markers of axes {ax.get_title()!r}")
    return problems


def _kind(artist):
    """What tells a mark apart in a legend: colour, line style and marker of a line; colour of an area or bar."""
    from matplotlib.colors import to_rgb
    from matplotlib.lines import Line2D

    if isinstance(artist, Line2D):
        return ("line", tuple(round(c, 3) for c in to_rgb(artist.get_color())), artist.get_linestyle(),
                str(artist.get_marker()))  # fmt: skip
    face = np.asarray(artist.get_facecolor(), dtype=float).reshape(-1, 4)
    return ("area", tuple(round(c, 3) for c in face[0, :3])) if len(face) else ("area", ())


def _zero_line(line, ax) -> bool:
    """A horizontal reference line at y = 0 (``axhline(0)``): it needs no legend entry."""
    y = np.asarray(line.get_ydata(orig=False), dtype=float)
    return line.get_transform() != ax.transData and y.size > 0 and np.all(y == 0) and line.get_xdata()[0] == 0


def unexplained_marks(fig) -> list:
    """Marks a reader cannot name: in an axes with more than one kind of mark (colour, line style, marker,
    bar or area colour), every kind must be in a legend of the figure; a horizontal zero line and the clip
    markers (the caption names them) are exempt."""
    shown = set()
    for leg in _legends(fig):
        shown |= {_kind(h) for h in leg.legend_handles if h is not None}
    problems = []
    for ax in fig.axes:
        if not ax.axison or not ax.get_visible():
            continue
        kinds = {}
        for line in ax.lines:
            if line.get_visible() and line.get_gid() != "clip-marker" and not _zero_line(line, ax):
                kinds.setdefault(_kind(line), line)
        for art in list(ax.patches) + list(ax.collections):
            if art.get_visible() and art.get_gid() not in ("clip-marker", "guide"):
                kinds.setdefault(_kind(art), art)
        if len(kinds) > 1:
            missing = [k for k in kinds if k not in shown]
            problems += [f"axes {ax.get_title()!r}: a {k[0]} of colour {k[1]} is in no legend" for k in missing]
    return problems


def hidden_lines(fig) -> list:
    """Vertical lines drawn within 3 pixels of each other in one axes: the top one hides the other."""
    fig.canvas.draw()
    problems = []
    for ax in fig.axes:
        xs = []
        for line in ax.lines:
            x = np.asarray(line.get_xdata(orig=False), dtype=float)
            if line.get_visible() and x.size == 2 and x[0] == x[1] and line.get_transform() != ax.transData:
                xs.append((ax.transData.transform((x[0], 0.0))[0], x[0], _kind(line)))
        xs.sort()
        for (p0, x0, k0), (p1, x1, k1) in zip(xs, xs[1:]):
            if p1 - p0 < 3.0 and k0 != k1:
                problems.append(f"axes {ax.get_title()!r}: vertical lines at {x0:g} and {x1:g} hide each other")
    return problems


def figure_problems(fig) -> list:
    """Missing axis labels (on axes whose axis is on), legends over data or over text, titles cut by the
    figure's edge or over another axes, marks in no legend, and vertical lines hiding each other."""
    from streamtk.plot._layout import layout_problems

    problems = []
    for ax in fig.axes:
        if not ax.axison or not ax.get_visible():
            continue
        if not ax.get_xlabel().strip():
            problems.append(f"axes {ax.get_title()!r} has no x label")
        if not ax.get_ylabel().strip():
            problems.append(f"axes {ax.get_title()!r} has no y label")
    return problems + legend_overlaps(fig) + layout_problems(fig) + unexplained_marks(fig) + hidden_lines(fig)


def _count_label(v, _pos=None):
    if abs(v) >= 1e6:
        return f"{v / 1e6:g}M"
    if abs(v) >= 1e3:
        return f"{v / 1e3:g}k"
    return f"{v:g}"


def finish(fig, out_dir, name):
    """Mark clipped values, check the figure, save ``name.png`` (300 dpi) and ``name.pdf``.

    Returns ``(png_path, pdf_path, n_clipped)``; raises ``ValueError`` listing the problems of a
    figure that misses a label or has a legend over its data.
    """
    plt = _plt()
    from matplotlib.ticker import FuncFormatter

    for ax in fig.axes:  # instance counts as 20k, 1M: no crowded tick labels
        if ax.axison and ax.get_xlabel().startswith("instances"):
            ax.xaxis.set_major_formatter(FuncFormatter(_count_label))
    n_clipped = sum(mark_clipped(ax) for ax in fig.axes if ax.axison)
    problems = figure_problems(fig)
    if problems:
        plt.close(fig)
        raise ValueError(f"figure {name!r}: " + "; ".join(problems))
    png, pdf = out_dir / f"{name}.png", out_dir / f"{name}.pdf"
    for path, kw in ((png, {"dpi": 300}), (pdf, {})):
        tmp = path.with_name(path.stem + ".tmp" + path.suffix)
        fig.savefig(tmp, bbox_inches="tight", **kw)
        tmp.replace(path)
    plt.close(fig)
    return png, pdf, n_clipped


def estimator_label(est):
    """A legend label for an estimator coordinate (``fading=0.999`` -> ``fading alpha = 0.999``, ...)."""
    if est.startswith("fading_ratio="):
        a, b = est.split("=")[1].split("/")
        return f"$M_{{{b}}} / M_{{{a}}}$ (fading)"
    if est.startswith("window_ratio="):
        a, b = est.split("=")[1].split("/")
        return f"window {b} / window {a}"
    if est.startswith("fading="):
        return rf"fading $\alpha$ = {est.split('=')[1]}"
    return est.replace("=", " ")


def vlines(ax, xs, label, **style):
    """Vertical guide lines at ``xs`` (changes of concept, detections), the first one labelled for the legend."""
    style = {"color": "k", "ls": "--", "lw": 0.8, **style}
    return [ax.axvline(x, gid="guide", label=label if i == 0 else "_nolegend_", **style) for i, x in enumerate(xs)]
