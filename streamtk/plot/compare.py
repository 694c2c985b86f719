"""Two classifiers compared over time: Q statistic and signed McNemar curves with thresholds, the difference in error
with its confidence band."""

from __future__ import annotations

import numpy as np

from ._common import band_label, band_of, draw_drifts, fill_band, new_axes, place_legend, require, select, x_of

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
    bands=False,
):
    """Q statistic, signed McNemar statistic or difference in error of A vs B over time, one line per estimator.

    Parameters
    ----------
    ds : xarray.Dataset
        Output of :func:`streamtk.comparison.compare.compare` (``q``, ``mcnemar`` on
        ``(*lead, [model_a, model_b,] estimator, time)``).
    statistic : {"mcnemar", "q", "error_difference", "loss_a", "loss_b"}
        ``mcnemar``: the signed McNemar statistic with the rejection thresholds
        ``± chi2_1(1 - alpha)`` (3.841 at the default alpha = 0.05, 6.635 at the paper's 0.01; from
        ``attrs["mcnemar_threshold"]`` unless ``threshold`` is given), drawn on a
        symmetric-log axis (linear within ±10); ``q``: ``log(S_A / S_B)`` with its zero line;
        ``error_difference``: ``loss_a - loss_b`` with its zero line (with ``bands=True`` and anytime-valid
        sequences, the first checkpoint where A, or B, is better is marked on the top edge).
    a, b : label, optional
        Models A and B when the Dataset holds all pairs (``model_a``/``model_b`` dims).
    sel : dict, optional
        Labels of any other leading dims.
    estimators : sequence of str, optional
    drifts : sequence of int, optional
        True drifts (0-based indices).
    threshold : float, optional
        Overrides the McNemar threshold.
    bands : bool
        Shade the confidence band of ``error_difference`` (or ``loss_a``, ``loss_b``): a Dataset computed with
        ``interval=``. Test statistics have no band.

    Returns
    -------
    list of artists: the curves, then the threshold (or zero) lines, then drift lines.

    Notes
    -----
    Orientation (Gama et al. 2013, seed ``004_*``, section 4): positive values mean A
    has the larger loss. Between the thresholds McNemar cannot tell A and B apart at
    the chosen significance; outside, the sign says which is worse.
    """
    if statistic not in ("mcnemar", "q", "error_difference", "loss_a", "loss_b"):
        raise ValueError(
            f"statistic must be 'mcnemar', 'q', 'error_difference', 'loss_a' or 'loss_b', got {statistic!r}"
        )
    if bands and statistic in ("mcnemar", "q"):
        raise ValueError(
            f"bands=True shades a difference in error or a loss, not the test statistic {statistic!r}: "
            "plot_comparison(ds, 'error_difference', bands=True)"
        )
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
    band = band_of(ds, statistic, ("estimator", "time"), sel, "plot_comparison") if bands else None
    for i, e in enumerate(names):
        artists.append(ax.plot(x, da.sel(estimator=e).values, lw=1.2, color=f"C{i}", label=e)[0])
        if band is not None:
            lo, hi = (b.sel(estimator=e).values for b in band)
            artists.append(fill_band(ax, x, lo, hi, f"C{i}", label=band_label(ds) if i == 0 else None))
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
    elif statistic == "q":
        artists.append(ax.axhline(0.0, color="k", lw=0.9))
        ax.set_ylabel("Q = log(S_A / S_B)  (> 0: A worse)")
    else:
        if statistic == "error_difference":
            artists.append(ax.axhline(0.0, color="k", lw=0.9))
            ax.set_ylabel("error(A) - error(B)  (> 0: A worse)")
            if bands:
                _mark_first_better(ds, names, sel, ax, artists)
        else:
            ax.set_ylabel(f"{statistic} (mean loss of {'A' if statistic == 'loss_a' else 'B'})")
    draw_drifts(ax, drifts, artists)
    ax.set_xlabel(xlabel)
    if title is None:
        pa = sel.get("model_a", "A")
        pb = sel.get("model_b", "B")
        what = {"mcnemar": "signed McNemar", "q": "Q statistic", "error_difference": "difference in error"}
        title = f"{what.get(statistic, statistic)}: {pa} vs {pb}"
    ax.set_title(title)
    place_legend(ax)
    return artists


def _mark_first_better(ds, names, sel, ax, artists):
    """Triangles on the top edge at the first checkpoint where A (down) or B (up) is better at the level of the
    anytime-valid sequence (``first_a_better`` / ``first_b_better``; only sequences have them)."""
    import matplotlib.transforms as mtransforms

    trans = mtransforms.blended_transform_factory(ax.transData, ax.transAxes)
    for var, marker, who in (("first_a_better", "v", "A"), ("first_b_better", "^", "B")):
        if var not in ds:
            continue
        da = select(ds[var], ("estimator",), sel, var)
        for i, e in enumerate(names):
            t = float(da.sel(estimator=e))
            if t == t:
                label = f"first checkpoint where {who} is better (anytime-valid)" if i == 0 else None
                artists.append(ax.plot([t], [0.98], marker, color=f"C{i}", transform=trans, ms=7, label=label)[0])
