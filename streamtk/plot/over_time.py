"""Average ranks of many models over time, with where the omnibus test rejects and who leads significantly."""

from __future__ import annotations

import numpy as np

from ._common import fit_title, new_axes, require

__all__ = ["plot_ranks_over_time"]


def plot_ranks_over_time(result, *, ax=None, models=None, title=None):
    """Average rank of each model at every grid point of :func:`streamtk.comparison.over_time.compare_over_time`.

    Rank 1 (best) is at the top. Grey bands mark the grid points where the
    Iman-Davenport test rejects equal performance; the line of the leader is thickened
    where it is significantly better than every other model (its post-hoc comparisons
    all reject). The legend sits to the right of the axes, never over the curves.

    Returns
    -------
    list of artists: one line per model, one thick segment collection per model (its
    significant lead), then the band collection.
    """
    require(
        result,
        ["average_rank", "significant", "leader_significant", "leader"],
        "plot_ranks_over_time",
        "the output of streamtk.comparison.over_time.compare_over_time",
    )
    ax = new_axes(ax, figsize=(7.5, 3.6))
    xname = result.attrs.get("x", "time")
    x = result[xname].values if xname in result.coords else np.arange(result.sizes["time"])
    names = [str(m) for m in result["model"].values] if models is None else [str(m) for m in models]
    bad = [m for m in names if m not in set(map(str, result["model"].values))]
    if bad:
        raise ValueError(f"models {bad} are not in the result; it has {result['model'].values.tolist()}")
    lines, thick = [], []
    leader = result["leader"].values.astype(str)
    lead_sig = result["leader_significant"].values.astype(bool)
    for c, m in enumerate(names):
        y = result["average_rank"].sel(model=m).values
        (ln,) = ax.plot(x, y, lw=1.2, color=f"C{c % 10}", label=m)
        lines.append(ln)
        mask = lead_sig & (leader == m)
        thick.append(
            ax.plot(x, np.where(mask, y, np.nan), lw=4.0, color=f"C{c % 10}", alpha=0.6, solid_capstyle="butt")[0]
        )
    band = ax.fill_between(
        x,
        0,
        1,
        where=result["significant"].values.astype(bool),
        color="0.85",
        lw=0,
        step="mid",
        transform=ax.get_xaxis_transform(),
        zorder=0,
        label="Iman-Davenport rejects",
    )
    k = result.sizes["model"]
    ax.set_ylim(k + 0.3, 0.7)
    ax.set_ylabel("average rank (1 = best)")
    ax.set_xlabel({"fraction": "fraction of each stream", "instance": "instances"}.get(xname, "grid point"))
    a = result.attrs
    ax.set_title(
        title
        or f"{a.get('metric', '')} ({a.get('estimator', '')}): ranks over time, {a.get('posthoc', '')} "
        f"post-hoc, alpha = {a.get('alpha', '')}",
        fontsize=10,
    )
    ax.legend(fontsize="small", frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fit_title(ax)
    return lines + thick + [band]
