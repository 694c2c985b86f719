"""Learning curves and baseline bands, straight from a :func:`streamtk.evaluate` Dataset."""

from __future__ import annotations

import numpy as np
import xarray as xr

from ._common import (
    axis_label,
    band_label,
    band_of,
    draw_drifts,
    fill_band,
    natural_range,
    new_axes,
    place_legend,
    require,
    robust_ylim,
    select,
    x_of,
)

__all__ = ["plot_curves", "plot_baselines"]

_HINT = "the output of streamtk.evaluate"


def _lead_sel(model, sel):
    sel = dict(sel or {})
    if model is not None:
        sel["model"] = model
    return sel


def _draw_markers(ax, drifts, detections, artists):
    draw_drifts(ax, drifts, artists)
    det = np.atleast_1d(detections if detections is not None else []).astype(float)
    if det.size:
        # triangles on the top edge of the axes (x in data units, y in axes units), at instance = index + 1
        (mk,) = ax.plot(
            det + 1.0,
            np.full(det.size, 0.98),
            ls="none",
            marker="v",
            ms=6,
            color="C3",
            transform=ax.get_xaxis_transform(),
            label="detections",
            clip_on=False,
        )
        artists.append(mk)


def _width_array(ds, width, lead):
    if width is None:
        return None
    if isinstance(width, str):
        labels = set(map(str, ds["estimator"].values)) if "estimator" in ds.coords else set()
        if width in labels and "n_instances" in ds:
            # an ADWIN estimator of streamtk.evaluate: its n_instances is the window width
            return select(ds["n_instances"], ("time",), {**lead, "estimator": width}, "n_instances")
        if width not in ds:
            raise ValueError(
                f"width={width!r} is neither an estimator label with n_instances nor a variable of the Dataset"
            )
        width = ds[width]
    if isinstance(width, xr.Dataset):
        if "width" not in width:
            raise ValueError("width must be a DataArray or the Dataset returned by streamtk.drift.adwin.adwin")
        width = width["width"]
    if not isinstance(width, xr.DataArray) or width.dims != ("time",):
        raise ValueError(
            "width must be a DataArray on the single dim 'time' (select leading dims first), got "
            f"{getattr(width, 'dims', type(width).__name__)}"
        )
    return width


_STYLES = ("-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)))


def _labels_of(da, dim, chosen, what):
    have = [str(v) for v in da[dim].values]
    if chosen is None:
        return list(da[dim].values)
    chosen = [chosen] if isinstance(chosen, str) or not hasattr(chosen, "__iter__") else list(chosen)
    unknown = [c for c in chosen if str(c) not in have]
    if unknown:
        raise ValueError(f"{what} {unknown} are not in the Dataset; it has {da[dim].values.tolist()}")
    return [da[dim].values[have.index(str(c))] for c in chosen]


def plot_curves(
    ds,
    metric="accuracy",
    *,
    ax=None,
    model=None,
    models=None,
    estimator=None,
    estimators=None,
    sel=None,
    drifts=None,
    detections=None,
    width=None,
    robust=True,
    ylim=None,
    title=None,
    legend=True,
    bands=False,
    **line_kw,
):
    """Plot ``ds[metric]`` against ``instance``: one line per model and estimator, on one axes.

    The paper figure -- several models, one metric and estimator -- is
    ``plot_curves(ds, "kappa", estimator="window=1000")``; one model's estimators is
    ``plot_curves(ds, "kappa", model="HT")``. Colours tell models apart, line styles
    estimators (colours tell estimators apart when there is one model).

    Parameters
    ----------
    ds : xarray.Dataset
        Output of :func:`streamtk.evaluate` (dims ``(*lead, estimator, time)``).
    metric : str
        Variable to plot.
    ax : matplotlib Axes, optional
        Axes to draw on (a new figure is made when omitted).
    model, models : label or sequence, optional
        The model(s) to draw (default all).
    estimator, estimators : str or sequence of str, optional
        The estimator(s) to draw (default all).
    sel : dict, optional
        Labels of the other leading dims (``fold``, ``run``, ``class``...).
    drifts : sequence of int, optional
        True drifts as 0-based indices of the first instance of each new concept
        (as in :func:`streamtk.drift.scoring.score_detections` and the simulated
        logs' ``attrs["drifts"]``; default ``ds.attrs["drifts"]``): dotted vertical
        lines at ``instance = index + 1``.
    detections : sequence of int, optional
        A detector's alarms as 0-based indices (its ``detection_index``): triangles
        on the top edge at ``instance = index + 1``.
    width : str, xarray.DataArray or xarray.Dataset, optional
        An ADWIN window width drawn in grey on a second y axis (right): the label of
        an ADWIN estimator of ``ds`` (e.g. ``"adwin=0.002"``; its ``n_instances`` is
        the window width), or a width on ``time`` such as the Dataset of
        ``streamtk.drift.adwin.adwin(loss)``.
    robust : bool
        Limits from the bulk of the values (:func:`streamtk.plot._common.robust_limits`):
        spikes beyond them are clipped and marked with triangles on the edge.
    ylim : (float, float), optional
        Imposed y-limits (values beyond them are marked as clipped), e.g. to share them
        between figures.
    legend : bool
        Draw a legend where it covers no curve (:func:`streamtk.plot._common.place_legend`).
    bands : bool
        Shade each curve's band ``[<metric>_lower, <metric>_upper]`` in its colour (a Dataset computed with
        ``interval=``; the legend names the level and the method). Undefined bounds (NaN) leave gaps.

    Returns
    -------
    list of matplotlib artists: the curves, then markers (drifts, detections, clipped
    values), then the width line; with ``bands=True`` the shaded bands come last.

    Examples
    --------
    >>> import streamtk
    >>> from streamtk.plot.curves import plot_curves
    >>> ds = streamtk.evaluate([0, 1, 1, 0], [[0, 1, 0, 0], [1, 1, 1, 0]], windows=2)
    >>> len(plot_curves(ds, "accuracy", estimator="window=2"))
    2
    """
    require(ds, [metric], "plot_curves", _HINT)
    da = ds[metric]
    if "estimator" not in da.dims:
        raise ValueError(f"{metric!r} has no 'estimator' dimension: is this the output of streamtk.evaluate?")
    if model is not None and models is not None:
        raise ValueError("give model= or models=, not both")
    if estimator is not None and estimators is not None:
        raise ValueError("give estimator= or estimators=, not both")
    models = [model] if model is not None else models
    estimators = [estimator] if estimator is not None else estimators
    keep = ("model", "estimator", "time") if "model" in da.dims else ("estimator", "time")
    da = select(da, keep, sel, metric)
    band = band_of(ds, metric, keep, sel, "plot_curves") if bands else None
    names = _labels_of(da, "model", models, "models") if "model" in da.dims else [None]
    ests = _labels_of(da, "estimator", estimators, "estimators")
    ax = new_axes(ax)
    x, xlabel = x_of(ds)
    artists, series, shaded = [], [], []
    for i, m in enumerate(names):
        for k, e in enumerate(ests):
            y = (da.sel(model=m) if m is not None else da).sel(estimator=e).values
            if len(names) > 1:
                style = {"color": f"C{i % 10}", "ls": _STYLES[k % len(_STYLES)]}
                label = f"{m}" if len(ests) == 1 else f"{m}, {e}"
            else:
                style = {"color": f"C{k % 10}", "ls": "-"}
                label = str(e)
            (line,) = ax.plot(x, y, label=label, lw=1.2, **{**style, **line_kw})
            artists.append(line)
            series.append((x, y))
            if band is not None:
                lo, hi = ((b.sel(model=m) if m is not None else b).sel(estimator=e).values for b in band)
                label = band_label(ds) if not shaded else None
                shaded.append(fill_band(ax, x, lo, hi, line.get_color(), label=label))
                series += [(x, lo), (x, hi)]
    if drifts is None and "drifts" in ds.attrs:
        drifts = np.atleast_1d(ds.attrs["drifts"]).astype(float)
    _draw_markers(ax, drifts, detections, artists)
    if robust or ylim is not None:
        artists += robust_ylim(ax, series, natural=natural_range(metric), lo_hi=ylim)
    w = _width_array(ds, width, _lead_sel(names[0] if len(names) == 1 else None, sel))
    if w is not None:
        ax2 = ax.twinx()
        ax.set_zorder(ax2.get_zorder() + 1)  # curves above the width line
        ax.patch.set_visible(False)
        wx, _ = x_of(w)
        (wl,) = ax2.plot(wx, w.values, color="0.55", lw=0.9, ls="-", alpha=0.8, label="ADWIN width")
        ax2.set_ylabel("ADWIN width (instances)", color="0.4")
        ax2.tick_params(axis="y", colors="0.4")
        ax2.set_ylim(bottom=0)
        artists.append(wl)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(axis_label(metric, ds[metric]))
    if title is None and len(ests) == 1 and len(names) > 1:
        title = f"{ests[0]}"
    if title:
        ax.set_title(title)
    if legend:
        handles, labels = ax.get_legend_handles_labels()
        if w is not None:
            handles, labels = handles + [wl], labels + ["ADWIN width"]
        place_legend(ax, handles, labels)
    return artists + shaded


def plot_baselines(
    ds,
    metric="accuracy",
    *,
    estimator="prequential",
    ax=None,
    model=None,
    sel=None,
    drifts=None,
    title=None,
    bands=False,
):
    """A model's curve over the band its no-skill baselines reach (Bifet et al. 2015; Zliobaite et al. 2015).

    Draws ``p_maj`` (Majority Class classifier) and ``p_per`` (Persistent classifier)
    under the same estimator and shades ``[0, max(p_maj, p_per)]``: a classifier whose
    accuracy lies inside the band does no better than a trivial one (the situation
    kappa_m and Kappa-Temporal reveal: Bifet et al. 2015 section 2,
    Zliobaite et al. 2015 section 4).

    Parameters
    ----------
    ds : xarray.Dataset
        Output of :func:`streamtk.evaluate` with ``p_maj`` and ``p_per`` (in the
        default metric set) and ``metric``.
    metric : str
        The model's curve drawn over the band (default ``accuracy``, comparable with
        the baselines' accuracies).
    estimator : str
        Which estimator's curves (default ``prequential``).
    model, sel, drifts, ax, title, bands
        As in :func:`plot_curves` (``bands=True`` shades the model curve's confidence band).

    Returns
    -------
    list of artists: the band, the ``p_maj`` line, the ``p_per`` line, the model's
    curve, then drift markers, then the curve's confidence band (``bands=True``).
    """
    require(ds, [metric, "p_maj", "p_per"], "plot_baselines", _HINT + " with metrics p_maj and p_per")
    lead = _lead_sel(model, sel)
    lead["estimator"] = estimator
    keep = ("time",)
    y = select(ds[metric], keep, lead, metric)
    pm = select(ds["p_maj"], keep, lead, "p_maj")
    pp = select(ds["p_per"], keep, lead, "p_per")
    ax = new_axes(ax)
    x, xlabel = x_of(ds)
    top = np.fmax(pm.values, pp.values)
    artists = [ax.fill_between(x, 0.0, top, color="0.85", lw=0, label=r"no-skill band $\max(p_{maj}, p_{per})$")]
    artists.append(ax.plot(x, pm.values, color="C1", lw=1.0, ls="--", label=r"$p_{maj}$ (Majority Class)")[0])
    artists.append(ax.plot(x, pp.values, color="C2", lw=1.0, ls="-.", label=r"$p_{per}$ (Persistent)")[0])
    name = f"{metric}" + (f" ({model})" if model is not None else "")
    artists.append(ax.plot(x, y.values, color="C0", lw=1.4, label=name)[0])
    _draw_markers(ax, drifts, None, artists)
    low_values = [y.values, pm.values, pp.values]
    if bands:
        lo_b, hi_b = band_of(ds, metric, keep, lead, "plot_baselines")
        artists.append(fill_band(ax, x, lo_b.values, hi_b.values, "C0", label=band_label(ds)))
        low_values.append(lo_b.values)
    lo = np.nanmin(np.concatenate(low_values)) if np.isfinite(top).any() else 0.0
    ax.set_ylim(max(0.0, min(lo, 1.0) - 0.05), 1.0)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"accuracy, {estimator}")
    ax.set_title(title if title else f"{name} vs the no-skill baselines, {estimator}")
    place_legend(ax)
    return artists
