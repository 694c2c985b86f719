"""Fold statistics and significance over time; the critical-difference diagram."""

from __future__ import annotations

import numpy as np

from ._common import new_axes, place_legend, require, select, x_of

__all__ = ["plot_significance", "plot_fold_summary", "plot_cd"]


def plot_significance(sig, *, ax=None, metric=None, estimator=None, sel=None, tests=None, title=None):
    """p-values of fold-based tests of A vs B over time, with the level alpha and rejections shaded.

    Parameters
    ----------
    sig : xarray.Dataset
        Output of :func:`streamtk.kfold.folds.significance_curves` (``pvalue``, ``reject`` on
        ``(test, [metric,] *dims, time)``).
    metric, estimator : str, optional
        Shorthands for ``sel={"metric": ..., "estimator": ...}``; needed when those dims
        are present with more than one label.
    sel : dict, optional
        Labels of any other dims.
    tests : sequence of str, optional
        Which tests to draw (default all, e.g. ``sign`` and ``wilcoxon``).

    Returns
    -------
    list of artists: one p-value line per test, the alpha line, then one shaded
    span collection per test marking the checkpoints where it rejects.

    Notes
    -----
    Bifet et al. 2015 (seed ``000_*``) section 4 / Figure 4: whether two classifiers
    differ is tested at every checkpoint over the k folds. p-values are on a log
    axis; undefined slices (a NaN fold) leave gaps.
    """
    require(
        sig, ["pvalue", "reject", "test"], "plot_significance", "the output of streamtk.kfold.folds.significance_curves"
    )
    sel = dict(sel or {})
    for dim, value in (("metric", metric), ("estimator", estimator)):
        if value is not None:
            sel[dim] = value
        elif dim in sig["pvalue"].dims and sig.sizes[dim] == 1:
            sel[dim] = sig[dim].values[0]
    pv = select(sig["pvalue"], ("test", "time"), sel, "pvalue")
    rj = select(sig["reject"], ("test", "time"), sel, "reject")
    names = [str(t) for t in pv.test.values] if tests is None else [str(t) for t in tests]
    bad = [t for t in names if t not in set(map(str, pv.test.values))]
    if bad:
        raise ValueError(f"tests {bad} are not in the Dataset; it has {pv.test.values.tolist()}")
    alpha = float(sig.attrs.get("alpha", 0.05))
    ax = new_axes(ax)
    x, xlabel = x_of(sig)
    x = np.asarray(x, dtype=float)
    artists, spans = [], []
    for i, t in enumerate(names):
        p = pv.sel(test=t).values
        artists.append(ax.plot(x, np.clip(p, 1e-12, 1.0), lw=1.2, color=f"C{i}", label=f"{t} p-value")[0])
        r = rj.sel(test=t).values.astype(bool)
        spans.append(
            ax.fill_between(
                x,
                0,
                1,
                where=r,
                color=f"C{i}",
                alpha=0.12,
                lw=0,
                transform=ax.get_xaxis_transform(),
                label=f"{t} rejects",
            )
        )
    artists.append(ax.axhline(alpha, color="k", lw=0.9, ls="--", label=f"alpha = {alpha:g}"))
    artists += spans
    ax.set_yscale("log")
    ax.set_ylim(top=1.05)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("p-value (A vs B over folds)")
    if title is None:
        what = " ".join(f"{k}={v}" for k, v in sel.items())
        title = "significance over time" + (f" ({what})" if what else "")
    ax.set_title(title)
    place_legend(ax)
    return artists


def plot_fold_summary(
    ds, metric="accuracy", *, ax=None, dim="fold", estimator="prequential", sel=None, band="std", title=None
):
    """Mean over folds of each model's curve with a band of ± one ``std`` (or ``sem``), or min-max.

    Parameters
    ----------
    ds : xarray.Dataset
        Per-fold curves (``streamtk.evaluate`` with a ``fold`` dim) or their
        :func:`streamtk.kfold.folds.fold_summary` (a ``summary`` dim).
    metric : str
    dim : str
        The fold dimension of per-fold input.
    estimator : str
        Estimator to draw (when an ``estimator`` dim exists).
    sel : dict, optional
        Labels of other dims; every remaining dim besides ``model`` and ``time`` must
        be selected.
    band : {"std", "sem", "minmax"}

    Returns
    -------
    list of artists: per model, its mean line then its band.
    """
    from streamtk.kfold.folds import fold_summary

    if band not in ("std", "sem", "minmax"):
        raise ValueError(f"band must be 'std', 'sem' or 'minmax', got {band!r}")
    require(ds, [metric], "plot_fold_summary", "per-fold curves from streamtk.evaluate or fold_summary")
    da = ds[metric]
    if "summary" not in da.dims:
        if dim not in da.dims:
            raise ValueError(f"{metric!r} has neither a {dim!r} nor a 'summary' dimension; dims are {da.dims}")
        da = fold_summary(da, dim=dim)
    sel = dict(sel or {})
    if "estimator" in da.dims:
        sel["estimator"] = estimator
    keep = ("summary", "model", "time") if "model" in da.dims else ("summary", "time")
    da = select(da, keep, sel, metric)
    if "model" not in da.dims:
        da = da.expand_dims(model=[metric])
    ax = new_axes(ax)
    x, xlabel = x_of(ds)
    artists = []
    for i, m in enumerate(da.model.values):
        s = da.sel(model=m)
        mean = s.sel(summary="mean").values
        if band == "minmax":
            lo, hi = s.sel(summary="min").values, s.sel(summary="max").values
        else:
            half = s.sel(summary=band).values
            lo, hi = mean - half, mean + half
        artists.append(ax.plot(x, mean, lw=1.3, color=f"C{i}", label=f"{m} (mean over folds)")[0])
        artists.append(ax.fill_between(x, lo, hi, color=f"C{i}", alpha=0.2, lw=0))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ds[metric].attrs.get("long_name", metric))
    ax.set_title(title if title else f"{metric}, {estimator}: mean ± {band} over folds")
    place_legend(ax)
    return artists


def plot_cd(result, *, ax=None, force=False, title=None, **kwargs):
    """The critical-difference diagram of a Friedman test result.

    Accepts a :class:`streamtk.stats.FriedmanResult` (from
    :func:`streamtk.stats.friedman_test`) and draws it with
    :func:`streamtk.plot.cd_diagram.cd_diagram`; ``force=True`` draws a
    non-significant result (refused by default). Returns that function's dict of
    artists.
    """
    from .cd_diagram import cd_diagram

    return cd_diagram(result, ax=ax, force=force, title=title, **kwargs)
