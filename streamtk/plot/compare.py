"""Two classifiers compared over time: Q statistic and signed McNemar curves with thresholds."""

from __future__ import annotations

import numpy as np

from ._common import draw_drifts, new_axes, place_legend, require, select, x_of

__all__ = ["plot_comparison"]

_HINT = "the output of streamtk.comparison.compare.compare or compare_losses"


def plot_comparison(
    ds,
    statistic="mcnemar",
    *,
    ax=None,
    a=None,
    b=None,
    sel=None,
    estimators=None,
    drifts=None,
    threshold=None,
    title=None,
):
    """Q statistic or signed McNemar statistic of A vs B over time, one line per estimator.

    Parameters
    ----------
    ds : xarray.Dataset
        Output of :func:`streamtk.comparison.compare.compare` (``q``, ``mcnemar`` on
        ``(*lead, [model_a, model_b,] estimator, time)``).
    statistic : {"mcnemar", "q"}
        ``mcnemar``: the signed McNemar statistic with the rejection thresholds
        ``± chi2_1(1 - alpha)`` (3.841 at the default alpha = 0.05, 6.635 at the paper's 0.01; from
        ``attrs["mcnemar_threshold"]`` unless ``threshold`` is given), drawn on a
        symmetric-log axis (linear within ±10); ``q``: ``log(S_A / S_B)`` with its zero line.
    a, b : label, optional
        Models A and B when the Dataset holds all pairs (``model_a``/``model_b`` dims).
    sel : dict, optional
        Labels of any other leading dims.
    estimators : sequence of str, optional
    drifts : sequence of int, optional
        True drifts (0-based indices).
    threshold : float, optional
        Overrides the McNemar threshold.

    Returns
    -------
    list of artists: the curves, then the threshold (or zero) lines, then drift lines.

    Notes
    -----
    Orientation (Gama et al. 2013, seed ``004_*``, section 4): positive values mean A
    has the larger loss. Between the thresholds McNemar cannot tell A and B apart at
    the chosen significance; outside, the sign says which is worse.
    """
    if statistic not in ("mcnemar", "q"):
        raise ValueError(f"statistic must be 'mcnemar' or 'q', got {statistic!r}")
    require(ds, [statistic], "plot_comparison", _HINT + (" on a 0-1 loss" if statistic == "mcnemar" else ""))
    sel = dict(sel or {})
    if a is not None:
        sel["model_a"] = a
    if b is not None:
        sel["model_b"] = b
    da = select(ds[statistic], ("estimator", "time"), sel, statistic)
    names = [str(e) for e in da.estimator.values] if estimators is None else [str(e) for e in estimators]
    bad = [e for e in names if e not in set(map(str, da.estimator.values))]
    if bad:
        raise ValueError(f"estimators {bad} are not in the Dataset; it has {da.estimator.values.tolist()}")
    ax = new_axes(ax)
    x, xlabel = x_of(ds)
    artists = []
    for i, e in enumerate(names):
        artists.append(ax.plot(x, da.sel(estimator=e).values, lw=1.2, color=f"C{i}", label=e)[0])
    if statistic == "mcnemar":
        thr = float(threshold if threshold is not None else ds.attrs.get("mcnemar_threshold", 3.841458820694124))
        if not np.isfinite(thr) or thr <= 0:
            raise ValueError(f"threshold must be a positive number, got {threshold!r}")
        for s in (1, -1):
            artists.append(
                ax.axhline(
                    s * thr, color="k", lw=0.9, ls="--", label=f"±{thr:.3f} (reject equal errors)" if s == 1 else None
                )
            )
        artists.append(ax.axhspan(-thr, thr, color="0.9", lw=0, zorder=0))
        # linear within +-10 (the thresholds and the undecided zone), logarithmic beyond
        lin = max(10.0, thr)
        ax.set_yscale("symlog", linthresh=lin)
        lo, hi = ax.get_ylim()
        ax.set_ylim(min(lo, -2.0 * lin), max(hi, 2.0 * lin))  # the thresholds and ticks at +-10 always show
        ax.set_ylabel("signed McNemar M  (> 0: A worse)")
    else:
        artists.append(ax.axhline(0.0, color="k", lw=0.9))
        ax.set_ylabel("Q = log(S_A / S_B)  (> 0: A worse)")
    draw_drifts(ax, drifts, artists)
    ax.set_xlabel(xlabel)
    if title is None:
        pa = sel.get("model_a", "A")
        pb = sel.get("model_b", "B")
        title = f"{'signed McNemar' if statistic == 'mcnemar' else 'Q statistic'}: {pa} vs {pb}"
    ax.set_title(title)
    place_legend(ax)
    return artists
