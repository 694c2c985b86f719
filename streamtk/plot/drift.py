"""Drift-detector runs and their evaluation: statistic vs threshold, ADWIN width, detection delays."""

from __future__ import annotations

import textwrap

import numpy as np

from ._common import TRUE_DRIFT_STYLE, draw_drifts, fit_title, new_axes, place_legend, require, select, x_of

__all__ = ["plot_detector", "plot_detection_delays", "plot_detections"]


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
    ax.set_title(title if title else result.attrs.get("title", "detector"))
    place_legend(ax, ncol=3, outside="below")  # an empty corner, else below the axes: never over the statistic
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
    place_legend(ax, [artists[0], mk, ml], outside="below")
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
        place_legend(ax)
    return containers


def plot_detections(detections, true_drifts, *, ax=None, sel=None, max_delay=None, max_early_detection=0, n=None,
                    warnings=None, run_dim="run", title=None):  # fmt: skip
    """Alarms of every run against the true drifts: one row per run, true detections and false alarms apart.

    Parameters
    ----------
    detections, true_drifts, max_delay, max_early_detection, n, warnings, run_dim
        As in :func:`streamtk.drift.scoring.score_detections` (``"streamtk"`` matching);
        a detector Dataset with setting dims needs ``sel`` to pick one setting.
    sel : dict, optional
        Labels of the setting dims (e.g. ``{"lambda": 50.0}``).

    Returns
    -------
    list of artists: the true detections, the false alarms, the warning ticks (if
    any), then one span per drift window and one line per drift start.

    Notes
    -----
    A drift is drawn at ``instance = start + 1`` (dotted line); its detection window
    ``[start - max_early_detection, end + max_delay]`` (up to the next window) is
    shaded, a gradual drift's ``[start, end]`` darker. Filled markers are the first
    alarm in a window (the true detection), crosses every other alarm (false alarms);
    short grey ticks mark the warning zone.
    """
    import xarray as xr

    from ..drift.events import as_events, as_warnings
    from ..drift.scoring import score_detections
    from ..drift.truth import as_truth

    if isinstance(detections, xr.Dataset) and sel:
        detections = detections.sel(sel)
        if warnings is True:
            warnings = detections["warning"]
    elif isinstance(warnings, bool) and warnings and isinstance(detections, xr.Dataset):
        warnings = detections["warning"]
    ev = as_events(detections, run_dim=run_dim, n=n)
    if ev.n_groups != 1:
        raise ValueError(f"select one setting of the dims {list(ev.gdims)} first (sel={{...}})")
    scores = score_detections(detections, true_drifts, max_delay=max_delay, max_early_detection=max_early_detection,
                              n=n, run_dim=run_dim)  # fmt: skip
    truth = as_truth(true_drifts).for_runs(ev.n_runs, ev.runs)
    ax = new_axes(ax, figsize=(7.0, 1.0 + 0.35 * ev.n_runs))
    tp_x, tp_y, fa_x, fa_y = [], [], [], []
    delay = scores["delay"].values.reshape(ev.n_runs, -1)
    for r in range(ev.n_runs):
        alarms = np.unique(ev.flat[ev.offsets[r] : ev.offsets[r + 1]])
        hits = {int(truth.start[r][j] + delay[r][j]) for j in range(delay.shape[1]) if np.isfinite(delay[r][j])}
        for a in alarms.tolist():
            (tp_x if a in hits else fa_x).append(a + 1)
            (tp_y if a in hits else fa_y).append(r)
    artists = [
        ax.plot(tp_x, tp_y, ls="none", marker="o", ms=5, color="C2", label=f"true detections ({len(tp_x)})")[0],
        ax.plot(fa_x, fa_y, ls="none", marker="x", ms=5, color="C3", label=f"false alarms ({len(fa_x)})")[0],
    ]
    if warnings is not None:
        wev = as_warnings(warnings, ev, run_dim=run_dim, detections=detections)
        row = wev.row_of_each()
        artists.append(ax.plot(wev.flat + 1, row - 0.3, ls="none", marker="|", ms=4, color="0.6",
                               label="warning zone")[0])  # fmt: skip
    end_all = ev.n if ev.n is not None else (max(ev.flat.max(initial=0), truth.end.max(initial=0)) + 1)
    shared = not truth.per_run
    rows = [0] if shared else range(ev.n_runs)
    for r in rows:
        k_r = int(truth.count[r])
        for j in range(k_r):
            s, e = int(truth.start[r, j]), int(truth.end[r, j])
            lo = max(s - max_early_detection, 0)
            nxt = int(truth.start[r, j + 1]) - max_early_detection if j + 1 < k_r else end_all
            hi = min(nxt, end_all) if max_delay is None else min(e + max_delay + 1, nxt, end_all)
            y0, y1 = (-0.5, ev.n_runs - 0.5) if shared else (r - 0.5, r + 0.5)
            artists.append(ax.fill_between([lo + 1, hi], y0, y1, color="C0", alpha=0.10, lw=0))
            if e > s:
                artists.append(ax.fill_between([s + 1, e + 1], y0, y1, color="C0", alpha=0.20, lw=0))
            artists.append(ax.plot([s + 1, s + 1], [y0, y1], **TRUE_DRIFT_STYLE)[0])
    ax.set_ylim(-0.7, ev.n_runs - 0.3)
    ax.set_yticks(range(ev.n_runs), [str(v) for v in (ev.runs if ev.runs is not None else range(ev.n_runs))])
    ax.set_ylabel("run")
    ax.set_xlabel("instances")
    ax.set_xlim(0, end_all + 1)
    ax.set_title(title if title else "alarms against the true drifts (shaded: detection windows)")
    ax.legend(handles=artists[: 3 if warnings is not None else 2], fontsize="small", frameon=False,
              loc="upper left", bbox_to_anchor=(1.01, 1.0))  # fmt: skip
    fit_title(ax)
    return artists
