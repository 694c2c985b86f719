"""Drift-detector runs and their evaluation: statistic vs threshold, ADWIN width, detection delays."""

from __future__ import annotations

import textwrap

import numpy as np

from ._common import draw_drifts, new_axes, require, select, x_of

__all__ = ["plot_detector", "plot_detection_delays"]


def _alarm_indices(result, sel):
    idx = select(result["detection_index"], ("detection_number",), sel, "detection_index").values
    return idx[idx >= 0].astype(np.int64)


def plot_detector(result, *, ax=None, sel=None, drifts=None, title=None):
    """A detector's run over time: its statistic and threshold (or ADWIN's window), alarms marked.

    Parameters
    ----------
    result : xarray.Dataset
        Output of a detector run with ``trace=True``:
        :func:`streamtk.drift.page_hinkley.page_hinkley`, :func:`streamtk.drift.ddm.ddm`,
        :func:`streamtk.drift.eddm.eddm` (``statistic``, ``threshold``,
        ``detection_index``), or :func:`streamtk.drift.adwin.adwin` (``width``,
        ``mean``, ``detection``; its window width is drawn on the left axis and the
        window mean on the right one).
    sel : dict, optional
        Labels of the leading and grid dims (``model``, ``run``, ``lambda``,
        ``estimator``...) so that one run remains.
    drifts : sequence of int, optional
        True drifts (0-based indices), dotted lines at ``instance = index + 1``.

    Returns
    -------
    list of artists: statistic (or width), threshold (or mean), the alarm markers,
    then the drift lines.
    """
    if "width" in getattr(result, "variables", ()) and "mean" in result.variables:
        return _plot_adwin(result, ax=ax, sel=sel, drifts=drifts, title=title)
    require(
        result,
        ["statistic", "threshold", "detection_index"],
        "plot_detector",
        "a drift detector's output with trace=True: page_hinkley, ddm, eddm or adwin",
    )
    stat = select(result["statistic"], ("time",), sel, "statistic")
    thr = select(result["threshold"], ("time",), sel, "threshold")
    alarms = _alarm_indices(result, sel)
    ax = new_axes(ax)
    x, xlabel = x_of(result)
    x = np.asarray(x, dtype=float)
    artists = [
        ax.plot(x, stat.values, lw=1.0, color="C0", label="statistic")[0],
        ax.plot(x, thr.values, lw=1.0, color="C3", ls="--", label="threshold")[0],
    ]
    (mk,) = ax.plot(
        x[alarms],
        stat.values[alarms],
        ls="none",
        marker="o",
        ms=5,
        mfc="none",
        color="C3",
        label=f"alarms ({alarms.size})",
    )
    artists.append(mk)
    draw_drifts(ax, drifts, artists)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(textwrap.fill(stat.attrs.get("long_name", "statistic"), 38), fontsize="small")
    top = np.nanmax(np.r_[stat.values[np.isfinite(stat.values)], thr.values[np.isfinite(thr.values)], 0.0])
    if top > 0:
        ax.set_ylim(top=1.3 * top)  # room for the legend above the curves
    ax.set_title(title if title else result.attrs.get("title", "detector"))
    ax.legend(fontsize="small", frameon=False, loc="upper left", ncol=3)
    return artists


def _plot_adwin(result, *, ax, sel, drifts, title):
    width = select(result["width"], ("time",), sel, "width")
    mean = select(result["mean"], ("time",), sel, "mean")
    det = select(result["detection"], ("time",), sel, "detection").values
    ax = new_axes(ax)
    x, xlabel = x_of(result)
    x = np.asarray(x, dtype=float)
    alarms = np.flatnonzero(det != 0)
    artists = [ax.plot(x, width.values, lw=1.0, color="0.4", label="window width")[0]]
    (mk,) = ax.plot(
        x[alarms], width.values[alarms], ls="none", marker="v", ms=5, color="C3", label=f"cuts ({alarms.size})"
    )
    ax2 = ax.twinx()
    (ml,) = ax2.plot(x, mean.values, lw=1.0, color="C0", alpha=0.8, label="window mean")
    ax2.set_ylabel("window mean", color="C0")
    ax2.tick_params(axis="y", colors="C0")
    artists += [ml, mk]
    draw_drifts(ax, drifts, artists)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("ADWIN width (instances)")
    ax.set_ylim(bottom=0)
    ax.set_title(title if title else "ADWIN window")
    ax.legend(handles=[artists[0], mk, ml], fontsize="small", frameon=False, loc="upper left")
    return artists


def plot_detection_delays(scores, *, ax=None, sel=None, title=None):
    """Mean detection delay (± std over runs) per true drift and detector setting, misses annotated.

    Parameters
    ----------
    scores : xarray.Dataset
        Output of :func:`streamtk.drift.scoring.score_detections` (``delay_mean``,
        ``delay_std``, ``n_missed``, ``n_runs`` on ``(*settings, drift)``). At most one
        setting dim may remain after ``sel`` (one bar per setting and drift).
    sel : dict, optional
        Labels of the other setting dims.

    Returns
    -------
    list of matplotlib BarContainer, one per setting (or a single one).

    Notes
    -----
    The layout of Gama et al. 2013, Tables 2-3 (seed ``004_*``), as a chart: a bar is
    the mean delay over the runs that detected the change, the error bar one sample
    standard deviation; ``(m)`` above a bar counts the runs that missed it, and a
    change missed in every run is labelled ``Miss`` instead of a bar.
    """
    require(
        scores,
        ["delay_mean", "delay_std", "n_missed", "n_runs"],
        "plot_detection_delays",
        "the output of streamtk.drift.scoring.score_detections",
    )
    mean = scores["delay_mean"]
    for dim, _value in (sel or {}).items():
        if dim not in mean.dims:
            raise ValueError(f"scores have no dimension {dim!r}; dims are {mean.dims}")
    mean = select(mean, mean.dims, sel, "delay_mean")
    settings = [d for d in mean.dims if d != "drift"]
    if len(settings) > 1:
        raise ValueError(f"select all but one of the setting dims {settings} first (sel={{...}})")
    std = select(scores["delay_std"], mean.dims, sel, "delay_std").transpose(*mean.dims)
    missed = select(scores["n_missed"], mean.dims, sel, "n_missed").transpose(*mean.dims)
    runs = select(scores["n_runs"], tuple(settings), sel, "n_runs")
    if settings:
        sdim = settings[0]
        mean, std, missed = (a.transpose(sdim, "drift") for a in (mean, std, missed))
        labels = (
            [f"{sdim}={v}" for v in mean[sdim].values]
            if sdim in mean.coords
            else [f"{sdim}={i}" for i in range(mean.sizes[sdim])]
        )
        runs_v = np.broadcast_to(runs.values, (len(labels),))
    else:
        mean, std, missed = (a.expand_dims("setting") for a in (mean, std, missed))
        labels = ["delay"]
        runs_v = np.atleast_1d(runs.values)
    ax = new_axes(ax)
    drifts = scores["drift"].values
    n_set = len(labels)
    width = 0.8 / n_set
    centers = np.arange(drifts.size, dtype=float)
    containers = []
    top = np.nanmax(np.r_[(mean.values + np.nan_to_num(std.values)).ravel(), 1.0])
    for s in range(n_set):
        xs = centers - 0.4 + width * (s + 0.5)
        m = mean.values[s]
        e = np.where(np.isnan(std.values[s]), 0.0, std.values[s])
        bc = ax.bar(xs, np.nan_to_num(m), width=width * 0.9, yerr=e, capsize=3, label=labels[s], color=f"C{s}")
        containers.append(bc)
        for j in range(drifts.size):
            miss = int(missed.values[s, j])
            if miss == int(runs_v[s]):
                ax.text(xs[j], 0.02 * top, "Miss", ha="center", va="bottom", fontsize=8, rotation=90)
            elif miss:
                ax.text(xs[j], m[j] + e[j] + 0.01 * top, f"({miss})", ha="center", va="bottom", fontsize=8)
    ax.set_xticks(centers, [f"drift at {int(d)}" for d in drifts])
    ax.set_ylabel("detection delay (instances)")
    ax.set_ylim(0, top * 1.15)
    ax.set_title(title if title else "detection delay (mean ± std over runs; (m) = missed runs)")
    if n_set > 1:
        ax.legend(fontsize="small", frameon=False)
    return containers
