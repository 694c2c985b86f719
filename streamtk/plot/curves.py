"""Learning curves and baseline bands, straight from a :func:`streamtk.evaluate` Dataset."""

from __future__ import annotations

import numpy as np
import xarray as xr

from ._common import draw_drifts, new_axes, require, select, x_of

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


def plot_curves(
    ds,
    metric="accuracy",
    *,
    ax=None,
    model=None,
    sel=None,
    estimators=None,
    drifts=None,
    detections=None,
    width=None,
    title=None,
    **line_kw,
):
    """Plot ``ds[metric]`` against ``instance``, one line per estimator.

    Parameters
    ----------
    ds : xarray.Dataset
        Output of :func:`streamtk.evaluate` (dims ``(*lead, estimator, time)``).
    metric : str
        Variable to plot.
    ax : matplotlib Axes, optional
        Axes to draw on (a new figure is made when omitted).
    model : label, optional
        Shorthand for ``sel={"model": model}``.
    sel : dict, optional
        Labels of the other leading dims (``fold``, ``run``, ``class``...).
    estimators : sequence of str, optional
        Estimator labels to draw (default: all).
    drifts : sequence of int, optional
        True drifts as 0-based indices of the first instance of each new concept
        (as in :func:`streamtk.drift.scoring.score_detections` and the simulated
        logs' ``attrs["drifts"]``): dotted vertical lines at ``instance = index + 1``.
    detections : sequence of int, optional
        A detector's alarms as 0-based indices (its ``detection_index``): triangles
        on the top edge at ``instance = index + 1``.
    width : str, xarray.DataArray or xarray.Dataset, optional
        An ADWIN window width drawn in grey on a second y axis (right): the label of
        an ADWIN estimator of ``ds`` (e.g. ``"adwin=0.002"``; its ``n_instances`` is
        the window width), or a width on ``time`` such as the Dataset of
        ``streamtk.drift.adwin.adwin(loss)``.

    Returns
    -------
    list of matplotlib artists: the curves, then markers, then the width line.

    Examples
    --------
    >>> import streamtk
    >>> from streamtk.plot.curves import plot_curves
    >>> ds = streamtk.evaluate([0, 1, 1, 0], [0, 1, 0, 0], windows=2)
    >>> len(plot_curves(ds, "accuracy"))
    2
    """
    require(ds, [metric], "plot_curves", _HINT)
    da = ds[metric]
    if "estimator" not in da.dims:
        raise ValueError(f"{metric!r} has no 'estimator' dimension: is this the output of streamtk.evaluate?")
    da = select(da, ("estimator", "time"), _lead_sel(model, sel), metric)
    ax = new_axes(ax)
    labels = [str(e) for e in da.estimator.values] if estimators is None else [str(e) for e in estimators]
    unknown = [e for e in labels if e not in set(map(str, da.estimator.values))]
    if unknown:
        raise ValueError(f"estimators {unknown} are not in the Dataset; it has {da.estimator.values.tolist()}")
    x, xlabel = x_of(ds)
    artists = []
    for lab in labels:
        (line,) = ax.plot(x, da.sel(estimator=lab).values, label=lab, lw=1.2, **line_kw)
        artists.append(line)
    _draw_markers(ax, drifts, detections, artists)
    w = _width_array(ds, width, _lead_sel(model, sel))
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
    ax.set_ylabel(da.attrs.get("long_name", metric))
    if title:
        ax.set_title(title)
    ax.legend(fontsize="small", frameon=False, loc="best")
    return artists


def plot_baselines(
    ds, metric="accuracy", *, estimator="prequential", ax=None, model=None, sel=None, drifts=None, title=None
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
    model, sel, drifts, ax, title
        As in :func:`plot_curves`.

    Returns
    -------
    list of artists: the band, the ``p_maj`` line, the ``p_per`` line, the model's
    curve, then drift markers.
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
    artists = [ax.fill_between(x, 0.0, top, color="0.85", lw=0, label="no-skill band max(p_maj, p_per)")]
    artists.append(ax.plot(x, pm.values, color="C1", lw=1.0, ls="--", label="p_maj (Majority Class)")[0])
    artists.append(ax.plot(x, pp.values, color="C2", lw=1.0, ls="-.", label="p_per (Persistent)")[0])
    name = f"{metric}" + (f" ({model})" if model is not None else "")
    artists.append(ax.plot(x, y.values, color="C0", lw=1.4, label=name)[0])
    _draw_markers(ax, drifts, None, artists)
    lo = np.nanmin(np.r_[y.values, pm.values, pp.values]) if np.isfinite(top).any() else 0.0
    ax.set_ylim(max(0.0, min(lo, 1.0) - 0.05), 1.0)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"{estimator} estimate")
    ax.set_title(title if title else f"{name} vs the no-skill baselines, {estimator}")
    ax.legend(fontsize="small", frameon=False, loc="lower left")
    return artists
