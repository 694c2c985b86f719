"""Temporal dependence of a label stream: P(M) and P(T) over time, order-l evidence Delta(l)."""

from __future__ import annotations

from ._common import draw_drifts, new_axes, place_legend, require, select, x_of

__all__ = ["plot_dependence", "plot_evidence"]

_HINT = "the output of streamtk.dependence.label_dependence.label_dependence"


def plot_dependence(dep, *, ax=None, estimators=None, drifts=None, title=None):
    """``P(M)`` (majority prior) and ``P(T)`` (persistence) over time, per estimator.

    Where ``P(T) > P(M)`` the Persistent classifier beats the Majority Class one and the
    stream has temporal dependence worth modelling (Zliobaite et al. 2015, seed
    ``003_*``, Table 3 and section 7); that region is shaded.

    Parameters
    ----------
    dep : xarray.Dataset
        Output of :func:`streamtk.dependence.label_dependence.label_dependence` (``p_m``, ``p_t`` on
        ``(estimator, time)``).
    estimators : sequence of str, optional
        Estimators to draw (default all).
    drifts : sequence of int, optional
        True drifts (0-based indices).

    Returns
    -------
    list of artists: per estimator the ``P(M)`` line, the ``P(T)`` line and the shaded
    region (visible for the first estimator only), then the drift lines.
    """
    require(dep, ["p_m", "p_t"], "plot_dependence", _HINT)
    pm_all, pt_all = dep["p_m"], dep["p_t"]
    if "estimator" not in pm_all.dims:
        pm_all, pt_all = pm_all.expand_dims(estimator=["all"]), pt_all.expand_dims(estimator=["all"])
    if "time" not in pm_all.dims:
        raise ValueError("plot_dependence needs a time dimension (label_dependence with every=...)")
    names = [str(e) for e in pm_all.estimator.values] if estimators is None else [str(e) for e in estimators]
    bad = [e for e in names if e not in set(map(str, pm_all.estimator.values))]
    if bad:
        raise ValueError(f"estimators {bad} are not in the Dataset; it has {pm_all.estimator.values.tolist()}")
    ax = new_axes(ax)
    x, xlabel = x_of(dep)
    artists = []
    for i, e in enumerate(names):
        pm = pm_all.sel(estimator=e).values
        pt = pt_all.sel(estimator=e).values
        artists.append(ax.plot(x, pm, color=f"C{i}", ls="--", lw=1.1, label=f"$P(M)$ {e}")[0])
        artists.append(ax.plot(x, pt, color=f"C{i}", lw=1.4, label=f"$P(T)$ {e}")[0])
        # shaded for the first estimator only (overlapping shades of several would be unreadable)
        artists.append(
            ax.fill_between(
                x, pm, pt, where=pt > pm, color=f"C{i}", alpha=0.12 if i == 0 else 0.0, lw=0, interpolate=True
            )
        )
    draw_drifts(ax, drifts, artists)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("probability")
    ax.set_title(title if title else "labels: P(M) and P(T); shaded where Persistent beats Majority")
    place_legend(ax, ncol=2)
    return artists


def plot_evidence(dep, *, ax=None, estimator=None, time=-1, title=None):
    """Bars of the order-``l`` evidence ``Delta(l)`` per class at one checkpoint (Figure 5).

    Parameters
    ----------
    dep : xarray.Dataset
        Output of :func:`streamtk.dependence.label_dependence.label_dependence` (``evidence`` on
        ``(estimator, time, lag, class)``).
    estimator : str, optional
        Needed when there are several estimators (default: the only one).
    time : int
        Position of the checkpoint (default the last).

    Returns
    -------
    list of BarContainer, one per class.
    """
    require(dep, ["evidence"], "plot_evidence", _HINT)
    ev = dep["evidence"]
    sel = {}
    if "estimator" in ev.dims:
        if estimator is None:
            if ev.sizes["estimator"] > 1:
                raise ValueError(f"choose estimator= among {ev.estimator.values.tolist()}")
            estimator = ev.estimator.values[0]
        sel["estimator"] = estimator
    if "time" in ev.dims:
        if not -ev.sizes["time"] <= time < ev.sizes["time"]:
            raise ValueError(f"time must index one of the {ev.sizes['time']} checkpoints, got {time}")
        inst = int(dep["instance"].values[time]) if "instance" in dep.coords else None
        ev = ev.isel(time=time)
    else:
        inst = None
    ev = select(ev, ("lag", "class"), sel, "evidence").transpose("lag", "class")
    ax = new_axes(ax, figsize=(6.0, 3.2))
    lags = ev.lag.values
    k = ev.sizes["class"]
    width = 0.8 / k
    containers = []
    for j, c in enumerate(ev["class"].values):
        containers.append(
            ax.bar(
                lags - 0.4 + width * (j + 0.5), ev.values[:, j], width=width * 0.9, label=f"class {c}", color=f"C{j}"
            )
        )
    ax.axhline(0.0, color="k", lw=0.8)
    ax.set_xticks(lags)
    ax.set_xlabel(r"order $l$")
    ax.set_ylabel(r"evidence $\Delta(l)$")
    where = f" at instance {inst}" if inst is not None else ""
    ax.set_title(title if title else f"order-l dependence evidence{where}")
    place_legend(ax)
    return containers
