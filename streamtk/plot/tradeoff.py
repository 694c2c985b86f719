"""Trade-off curves of drift detectors: detection delay against false alarms, recall against false-alarm rate."""

from __future__ import annotations

import numpy as np

from ._common import fit_title, new_axes, require

__all__ = ["plot_tradeoff"]

_AXIS_LABELS = {
    "false_alarms_per_run": "false alarms per run",
    "false_alarm_rate": "false alarms per rate_period instances",
    "mean_time_between_false_alarms": "MTFA (instances)",
    "mean_time_to_detection": "mean time to detection (instances)",
    "delay_penalised": "delay, a miss counted as its window (instances)",
    "recall": "recall (detected drifts / drifts)",
    "missed_detection_rate": "missed detection rate",
    "arl0": "ARL0 (instances)",
    "arl1": "ARL1 (instances)",
}


def plot_tradeoff(tradeoff, *, x="false_alarms_per_run", y="mean_time_to_detection", ax=None, detectors=None,
                  annotate=True, title=None):  # fmt: skip
    """One curve per detector through its settings: ``y`` against ``x`` (Pareto-optimal settings ringed).

    Parameters
    ----------
    tradeoff : xarray.Dataset
        Output of :func:`streamtk.drift.tradeoff.tradeoff` / ``run_tradeoff``.
    x, y : str
        Variables with dims ``(detector, setting)``; e.g. ``x="false_alarm_rate",
        y="recall"`` for the ROC-like curve.
    detectors : sequence of str, optional
        Which detectors (default all).
    annotate : bool
        Write each point's setting label next to it.

    Returns
    -------
    list of matplotlib Line2D, one per detector, then the ring markers of the Pareto front (if any).
    """
    require(tradeoff, [x, y, "setting_label"], "plot_tradeoff", "the output of streamtk.drift.tradeoff.tradeoff")
    for v in (x, y):
        if set(tradeoff[v].dims) != {"detector", "setting"}:
            raise ValueError(f"{v} must have dims (detector, setting), got {tradeoff[v].dims}")
    names = list(tradeoff["detector"].values) if detectors is None else list(detectors)
    unknown = [d for d in names if d not in tradeoff["detector"].values]
    if unknown:
        raise ValueError(f"detectors {unknown} not in the trade-off; it has {tradeoff['detector'].values.tolist()}")
    ax = new_axes(ax)
    artists = []
    for i, name in enumerate(names):
        sub = tradeoff.sel(detector=name)
        present = sub["setting_label"].values != ""
        xs, ys = sub[x].values[present].astype(float), sub[y].values[present].astype(float)
        labs = sub["setting_label"].values[present]
        order = np.argsort(xs, kind="stable")
        (line,) = ax.plot(xs[order], ys[order], marker="o", ms=4, lw=1.2, color=f"C{i}", label=str(name))
        artists.append(line)
        if annotate:
            for xv, yv, lab in zip(xs[order], ys[order], labs[order]):
                if np.isfinite(xv) and np.isfinite(yv):
                    ax.annotate(lab, (xv, yv), textcoords="offset points", xytext=(3, 3), fontsize=6, color=f"C{i}")
    if "pareto" in tradeoff and x == "false_alarms_per_run" and y == "mean_time_to_detection":
        pv = tradeoff["pareto"].sel(detector=names).values
        (ring,) = ax.plot(tradeoff[x].sel(detector=names).values[pv], tradeoff[y].sel(detector=names).values[pv],
                          ls="none", marker="o", ms=10, mfc="none", mec="0.2", label="Pareto front")  # fmt: skip
        artists.append(ring)
    ax.set_xlabel(_AXIS_LABELS.get(x, tradeoff[x].attrs.get("long_name", x)))
    ax.set_ylabel(_AXIS_LABELS.get(y, tradeoff[y].attrs.get("long_name", y)))
    ax.set_title(title if title else "detector trade-off over settings")
    ax.legend(fontsize="small", frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fit_title(ax)
    return artists
