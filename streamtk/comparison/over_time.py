"""The comparison of many models over many streams, at every checkpoint of the curves.

:func:`collect_curves` puts every stream's curves on a common grid -- fractions of each
stream (``align="fraction"``: 1%, 2%, ... of its length, so streams of different lengths
line up) or instance counts (``align="instance"``) -- with dims ``(dataset, model, run, time)``.
:func:`compare_over_time` then runs at every grid point what :func:`compare_many` runs once:
the ranks of the models on each stream, Friedman / Iman-Davenport and a post-hoc procedure,
all vectorised over the grid. It reports, as curves, which model ranks first, since when,
and whether it is significantly better than every other model. :func:`compare_two_over_time`
compares two models with the Sign and Wilcoxon tests over the streams, through
:func:`streamtk.kfold.folds.significance_curves` (the streams are its "folds").
"""

from __future__ import annotations

import numpy as np
import xarray as xr
from scipy import stats as _sps

from .._core.validation import check_choice, check_in_open_unit_interval
from .._labelled import base_attrs
from ..kfold.folds import significance_curves
from ..stats.friedman import friedman_statistics
from ..stats.posthoc import POSTHOC_METHODS, family_pvalues
from .collection import _assemble, direction, gather
from .summaries import values_at

__all__ = ["collect_curves", "compare_over_time", "compare_two_over_time"]

ALIGN = ("fraction", "instance")


def collect_curves(
    sources,
    *,
    metric,
    estimator="prequential",
    grid=100,
    align="fraction",
    pattern=None,
    run_dim=None,
    evaluate_options=None,
) -> xr.Dataset:
    """Curves of one metric from many logs or curves, on a common grid: dims ``(estimator, dataset, model, run, time)``.

    Parameters
    ----------
    sources, pattern, run_dim, evaluate_options
        As for :func:`streamtk.comparison.collect`.
    metric : str
    estimator : str or sequence of str
    grid : int or sequence
        ``align="fraction"``: G points ``1/G, 2/G, ..., 1`` of each stream's length, or the
        fractions in ``(0, 1]``; ``align="instance"``: the instance counts (a sequence).
    align : {"fraction", "instance"}
        A grid point takes the curve's value at that instance (its last checkpoint at or
        before it, :func:`streamtk.comparison.summaries.values_at`): at ``ceil(f n)`` of a stream
        of ``n`` instances for a fraction ``f``; NaN beyond a stream's end.

    Returns
    -------
    xarray.Dataset
        ``<metric>`` and ``stream_length``; coordinate ``fraction`` or ``instance`` on ``time``.
    """
    check_choice(align, "align", ALIGN)
    if align == "fraction":
        if isinstance(grid, (int, np.integer)) and not isinstance(grid, bool):
            if grid < 1:
                raise ValueError(f"grid must be a positive number of points, got {grid!r}")
            points = np.arange(1, grid + 1) / grid
        else:
            points = np.asarray(grid, dtype=np.float64)
            if points.ndim != 1 or points.size == 0 or np.any((points <= 0) | (points > 1)):
                raise ValueError(f"grid fractions must be a non-empty sequence in (0, 1], got {grid!r}")
    else:
        points = np.asarray(grid)
        if points.ndim != 1 or points.size == 0 or not np.issubdtype(points.dtype, np.integer) or np.any(points < 1):
            raise ValueError(f"with align='instance', grid must be a sequence of instance counts >= 1, got {grid!r}")
    if np.any(np.diff(points) <= 0):
        raise ValueError(f"grid must be increasing, got {grid!r}")

    def reduce(arr, inst):
        n = int(inst[-1]) if len(inst) else 0
        targets = np.ceil(points * n - 1e-9).astype(np.int64) if align == "fraction" else points
        return values_at(arr, inst, targets)

    cells, metrics, estimators = gather(
        sources,
        reduce=reduce,
        metrics=[metric],
        estimators=estimator,
        pattern=pattern,
        run_dim=run_dim,
        evaluate_options=evaluate_options,
    )
    out = _assemble(
        cells, metrics, estimators, ("time", np.arange(points.size)), evaluate_options, extra_attrs={"align": align}
    )
    out = out.drop_vars("time").assign_coords({align: ("time", points)})
    out[metric] = out[metric].transpose("estimator", "dataset", "model", "run", "time")
    return out


def _tables(curves, metric, estimator, runs):
    if metric is None:
        names = [v for v in curves.data_vars if "time" in curves[v].dims and "model" in curves[v].dims]
        if len(names) != 1:
            raise ValueError(f"metric: the curves hold {names}; choose one")
        metric = names[0]
    if metric not in curves:
        raise ValueError(f"metric {metric!r} is not in the curves; they hold {list(curves.data_vars)}")
    da = curves[metric]
    if "estimator" in da.dims:
        choices = [str(e) for e in da["estimator"].values]
        if estimator is None and len(choices) == 1:
            estimator = choices[0]
        if estimator not in choices:
            raise ValueError(f"estimator: the curves hold {choices}; choose one, got {estimator!r}")
        da = da.sel(estimator=estimator)
    for d in ("dataset", "model", "time"):
        if d not in da.dims:
            raise ValueError(f"{metric!r} needs the dims dataset, model, time (from collect_curves); it has {da.dims}")
    if "run" not in da.dims:
        da = da.expand_dims(run=[0])
    check_choice(runs, "runs", ("mean", "median", "blocks"))
    da = da.transpose("dataset", "run", "model", "time")
    if runs == "blocks":
        st = da.stack(block=("dataset", "run")).transpose("block", "model", "time")
        labels = [f"{d}/{r}" for d, r in st["block"].values]
        table = xr.DataArray(
            st.values, dims=("block", "model", "time"), coords={"block": labels, "model": da["model"].values}
        )
    else:
        red = da.mean("run") if runs == "mean" else da.median("run")
        table = red.rename(dataset="block").transpose("block", "model", "time")
    return metric, estimator, table, da


def _run_start(flag: np.ndarray, key: np.ndarray, x: np.ndarray) -> np.ndarray:
    """For each t with ``flag[t]``: the x at which the current run of equal ``key`` (with flag on) began; else NaN."""
    out = np.full(flag.shape, np.nan)
    start = None
    for t in range(flag.size):
        if not flag[t]:
            start = None
            continue
        if start is None or key[t] != key[t - 1]:
            start = x[t]
        out[t] = start
    return out


def compare_over_time(
    curves, *, metric=None, estimator=None, posthoc="holm", control=None, alpha=0.05, higher_is_better=None, runs="mean"
) -> xr.Dataset:
    """Friedman / Iman-Davenport and a post-hoc test at every point of the curves' grid.

    Parameters
    ----------
    curves : xarray.Dataset
        From :func:`collect_curves` (dims ``dataset``, ``model``, ``run``, ``time``).
    metric, estimator : str, optional
        Each may be omitted when the curves hold only one.
    posthoc, control, alpha, higher_is_better, runs
        As for :func:`streamtk.comparison.compare_many`.

    Returns
    -------
    xarray.Dataset
        Dims ``model``, ``pair``, ``time``: ``average_rank(model, time)``; ``friedman_statistic``,
        ``friedman_pvalue``, ``iman_davenport_statistic``, ``iman_davenport_pvalue``, ``significant``
        (the Iman-Davenport test rejects); ``z``, ``pvalue``, ``pvalue_adjusted``, ``reject`` on
        ``(pair, time)`` with ``model_a(pair)``, ``model_b(pair)``; ``leader`` (best average rank),
        ``leader_significant`` (the omnibus test rejects and the leader differs significantly
        from every other model -- from every model in the family when ``control`` is the leader),
        ``leader_since`` and ``significant_since`` (the grid position where the current run of
        the same leader, resp. of it being significantly best, began; NaN when not significant).
        A grid point where some stream has no value (NaN: undefined metric, or beyond the
        stream's end) gets NaN statistics and no rejection.
    """
    alpha = check_in_open_unit_interval(alpha, "alpha")
    check_choice(posthoc, "posthoc", POSTHOC_METHODS)
    metric, estimator, table, _ = _tables(curves, metric, estimator, runs)
    hib = direction(curves[metric].attrs, metric, higher_is_better)
    models = [str(m) for m in table["model"].values]
    k, n = len(models), table.sizes["block"]
    if k < 2 or n < 2:
        raise ValueError(f"compare_over_time needs at least 2 models and 2 streams, got {k} and {n}")
    ctrl = None
    if control is not None:
        if posthoc in ("nemenyi", "shaffer"):
            raise ValueError(f"posthoc={posthoc!r} compares all pairs and takes no control; got control={control!r}")
        if str(control) not in models:
            raise ValueError(f"control must be one of {models}, got {control!r}")
        ctrl = models.index(str(control))
    vals = np.moveaxis(np.asarray(table.values, dtype=np.float64), -1, 0)  # (time, block, model)
    defined = ~np.isnan(vals).any(axis=(1, 2))
    ranks = _sps.rankdata(-vals if hib else vals, axis=-1)
    fr = friedman_statistics(ranks)
    i, j, z, p, adj = family_pvalues(fr["average_ranks"], n, posthoc, ctrl)
    undefined = ~defined
    for arr in (fr["chi2"], fr["pvalue"], fr["f_statistic"], fr["f_pvalue"]):
        arr[undefined] = np.nan
    fr["average_ranks"][undefined] = np.nan
    for arr in (z, p, adj):
        arr[undefined] = np.nan
    significant = defined & (np.nan_to_num(fr["f_pvalue"], nan=1.0) <= alpha)
    reject = defined[:, None] & (np.nan_to_num(adj, nan=1.0) <= alpha)
    avg = fr["average_ranks"]
    leader_idx = np.where(defined, np.argmin(np.nan_to_num(avg, nan=np.inf), axis=-1), -1)
    lead_sig = np.zeros(defined.shape, dtype=bool)
    for t in np.flatnonzero(significant):
        li = leader_idx[t]
        involved = (i == li) | (j == li)
        if ctrl is not None and li != ctrl:
            continue
        lead_sig[t] = bool(involved.any() and reject[t, involved].all() and involved.sum() == k - 1)
    coord = "fraction" if "fraction" in table.coords else "instance" if "instance" in table.coords else None
    x = np.asarray(table[coord].values, dtype=np.float64) if coord else np.arange(table.sizes["time"], dtype=float)
    leader = np.array([models[li] if li >= 0 else "" for li in leader_idx])
    out = xr.Dataset(
        {
            "average_rank": (("model", "time"), avg.T, {"long_name": "average rank over the streams (1 = best)"}),
            "friedman_statistic": ("time", fr["chi2"], {"long_name": "Friedman chi-square (tie-corrected)"}),
            "friedman_pvalue": ("time", fr["pvalue"]),
            "iman_davenport_statistic": ("time", fr["f_statistic"]),
            "iman_davenport_pvalue": ("time", fr["f_pvalue"]),
            "significant": ("time", significant, {"long_name": f"Iman-Davenport rejects at alpha = {alpha}"}),
            "z": (("pair", "time"), z.T, {"long_name": "z = (R_a - R_b) / sqrt(k (k + 1) / (6 N))"}),
            "pvalue": (("pair", "time"), p.T, {"long_name": "unadjusted two-sided p-value"}),
            "pvalue_adjusted": (("pair", "time"), adj.T, {"long_name": f"{posthoc} adjusted p-value"}),
            "reject": (("pair", "time"), reject.T, {"long_name": f"adjusted p-value <= {alpha}"}),
            "leader": ("time", leader, {"long_name": "model with the best average rank ('' if undefined)"}),
            "leader_significant": ("time", lead_sig, {"long_name": "leader significantly better than every other"}),
            "leader_since": (
                "time",
                _run_start(leader_idx >= 0, leader_idx, x),
                {"long_name": f"{coord} since when the leader leads"},
            ),
            "significant_since": (
                "time",
                _run_start(lead_sig, leader_idx, x),
                {"long_name": f"{coord} since when the leader is significantly best"},
            ),
        },
        coords={
            "model": models,
            "model_a": ("pair", [models[a] for a in i]),
            "model_b": ("pair", [models[b] for b in j]),
        },
    )
    if coord:
        out = out.assign_coords({coord: ("time", x)})
    out.attrs = base_attrs(
        "comparison of many models over many streams, over time",
        metric=metric,
        estimator=str(estimator),
        posthoc=posthoc,
        control=None if ctrl is None else models[ctrl],
        alpha=alpha,
        runs=runs,
        higher_is_better=bool(hib),
        n_streams=n,
        x=coord or "time",
        reference="Demsar 2006; Garcia & Herrera 2008; Bifet et al. 2015 (seed 000) section 4",
    )
    return out


def compare_two_over_time(
    curves, a, b, *, metric=None, estimator=None, alpha=0.05, runs="mean", tests=("sign", "wilcoxon")
) -> xr.Dataset:
    """Two models compared over the streams at every grid point with the Sign and Wilcoxon tests.

    Calls :func:`streamtk.kfold.folds.significance_curves` with the streams as its unit
    (``dim="block"``): ``statistic``, ``signed_statistic`` (positive: A larger), ``pvalue``,
    ``critical``, ``reject``, ``n`` on ``(test, time)``.
    """
    metric, estimator, table, _ = _tables(curves, metric, estimator, runs)
    models = [str(m) for m in table["model"].values]
    for name, v in (("a", a), ("b", b)):
        if str(v) not in models:
            raise ValueError(f"{name} must be one of the models {models}, got {v!r}")
    out = significance_curves(table.sel(model=str(a)), table.sel(model=str(b)), dim="block", tests=tests, alpha=alpha)
    out.attrs.update(model_a=str(a), model_b=str(b), metric=metric, estimator=str(estimator), runs=runs)
    return out
