"""Type I / Type II error experiments over k-fold distributed validation (Bifet et al. 2015, 4.1).

Given the per-run, per-fold prediction logs of two classifiers on a stream (the same
algorithm with different seeds for Type I; a classifier and its noise-filtered copy,
:func:`streamtk.kfold.noise.noise_filter`, for Type II) this module computes how often each
test rejects the null hypothesis "A and B perform equally":

1. :func:`fold_comparison` — each fold's final score of A and B over the instances
   that fold tested (computed with :func:`streamtk.evaluate`, one pass for all runs
   and folds), and the McNemar discordant counts pooled over folds and tested instances;
2. :func:`rejection_rates` — per test (McNemar, Sign, Wilcoxon) the fraction of runs
   rejecting at ``alpha``, as a labelled Dataset;
3. :func:`rejection_table` — the rates laid out like Bifet et al. Tables 2-4 (rows:
   test x validation version; column groups: conditions; columns: schemes).

Extra leading dimensions (``scheme``, ``validation``, ``condition``, ``dataset``...)
are carried through, so one Dataset can hold a whole Table 2.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.validation import as_tuple_of, check_choice, check_in_open_unit_interval
from .._labelled import base_attrs
from ..evaluation.curves import evaluate
from ..stats.mcnemar import mcnemar_test
from ..stats.sign import sign_test
from ..stats.wilcoxon import wilcoxon_test

__all__ = ["fold_comparison", "rejection_rates", "rejection_table", "EXPERIMENT_TESTS"]

EXPERIMENT_TESTS = ("mcnemar", "sign", "wilcoxon")
TEST_LABELS = {"mcnemar": "McNemar", "sign": "Sign test", "wilcoxon": "Wilcoxon"}


def _as_da(x, name, lead_names):
    if isinstance(x, xr.DataArray):
        return x
    arr = np.asarray(x)
    if arr.ndim < 2:
        raise ValueError(f"{name} must have at least the dims (fold, time), got shape {arr.shape}")
    nlead = arr.ndim - 2
    if lead_names is None:
        lead_names = ("run",) if nlead == 1 else tuple(f"dim_{i}" for i in range(nlead))
    lead_names = (lead_names,) if isinstance(lead_names, str) else tuple(lead_names)
    if len(lead_names) != nlead:
        raise ValueError(f"lead_dims names {lead_names!r} but {name} has {nlead} leading dims (shape {arr.shape})")
    return xr.DataArray(arr, dims=lead_names + ("fold", "time"))


def fold_comparison(
    y_true,
    pred_a,
    pred_b,
    test_mask,
    *,
    metric="accuracy",
    classes=None,
    lead_dims=None,
    fold_dim="fold",
    time_dim="time",
) -> xr.Dataset:
    """Per-fold final scores of two classifiers and their pooled McNemar counts.

    Parameters
    ----------
    y_true : array_like ``(n,)`` or DataArray ``(..., time)``
        True labels; one stream shared by every run, or one per run (leading dims a
        subset of the predictions' leading dims, e.g. ``(run, time)``).
    pred_a, pred_b : array_like or DataArray ``(..., fold, time)``
        Predictions logged for every fold (only the tested instances are read).
        Numpy inputs with one leading dim call it ``run`` (or name them with ``lead_dims``).
    test_mask : array_like or DataArray, broadcastable to the predictions
        Where each fold tested (``fold_assignments(...).test_mask``).
    metric : str
        A metric of :data:`streamtk._core.registry.REGISTRY` computed over each fold's tested
        instances at the end of the stream (Bifet et al. use accuracy).
    classes : sequence, optional
        Class order, as in :func:`streamtk.evaluate`.

    Returns
    -------
    xarray.Dataset
        ``score_a``, ``score_b`` on ``(..., fold)``; ``tested`` (instances each fold
        tested); ``mcnemar_a`` (instances of any fold misclassified by A and correctly
        by B) and ``mcnemar_b`` (the opposite) on ``(...)``, pooled over folds.

    Notes
    -----
    With one ``y_true`` for all runs every run and fold goes through a single
    ``evaluate`` pass; with one stream per run ``evaluate`` is called once per run
    (it takes a one-dimensional ``y_true``). Instances with a missing label are skipped
    by ``evaluate`` and never counted as discordant by McNemar.
    """
    da_a = _as_da(pred_a, "pred_a", lead_dims)
    da_b = _as_da(pred_b, "pred_b", lead_dims)
    if da_a.dims != da_b.dims or da_a.shape != da_b.shape:
        raise ValueError(f"pred_a and pred_b must have the same dims and shape, got {da_a.sizes} and {da_b.sizes}")
    for d in (fold_dim, time_dim):
        if d not in da_a.dims:
            raise ValueError(f"predictions have no dimension {d!r}; their dims are {da_a.dims}")
    da_a = da_a.transpose(..., fold_dim, time_dim)
    da_b = da_b.transpose(*da_a.dims)
    mask = (
        test_mask
        if isinstance(test_mask, xr.DataArray)
        else xr.DataArray(np.asarray(test_mask), dims=da_a.dims[-np.ndim(test_mask) :] if np.ndim(test_mask) else ())
    )
    if mask.dtype != bool:
        raise TypeError(f"test_mask must be boolean, got dtype {mask.dtype}")
    mask = mask.drop_vars([c for c in mask.coords if c not in mask.dims]).broadcast_like(da_a).transpose(*da_a.dims)
    yt = y_true if isinstance(y_true, xr.DataArray) else xr.DataArray(np.asarray(y_true), dims=(time_dim,))
    if yt.dims[-1] != time_dim or fold_dim in yt.dims:
        raise ValueError(f"y_true must have dims (..., {time_dim!r}) without {fold_dim!r}, got {yt.dims}")
    lead = da_a.dims[:-2]
    extra = [d for d in yt.dims[:-1] if d not in lead]
    if extra:
        raise ValueError(f"y_true has dims {extra} that the predictions do not have")
    n = da_a.sizes[time_dim]
    if yt.sizes[time_dim] != n:
        raise ValueError(f"y_true has {yt.sizes[time_dim]} instances but the predictions have {n}")
    a_vals = np.asarray(da_a.values)
    b_vals = np.asarray(da_b.values)
    m_vals = np.asarray(mask.values)
    k = da_a.sizes[fold_dim]
    runs = int(np.prod(da_a.shape[:-2], dtype=np.int64))
    a_r = a_vals.reshape(runs, k, n)
    b_r = b_vals.reshape(runs, k, n)
    m_r = m_vals.reshape(runs, k, n).astype(np.float64)
    template = da_a.isel({fold_dim: 0}, drop=True)
    y_b = np.asarray(yt.broadcast_like(template).transpose(*lead, time_dim).values).reshape(runs, n)

    def _scores(y, a, b, w):
        preds = np.stack([a, b])  # (2, series, n)
        ds = evaluate(
            y,
            preds,
            every=n,
            metrics=[metric],
            weights=np.broadcast_to(w[None], preds.shape),
            classes=classes,
            lead_dims=("model", "series"),
        )
        return ds[metric].sel(estimator="prequential").isel(time=-1).values  # (2, series)

    if yt.ndim == 1:  # one stream for every run: a single pass over all runs and folds
        score = _scores(y_b[0], a_r.reshape(-1, n), b_r.reshape(-1, n), m_r.reshape(-1, n))
    else:
        score = np.concatenate([_scores(y_b[r], a_r[r], b_r[r], m_r[r]) for r in range(runs)], axis=1)
    score = score.reshape((2,) + da_a.shape[:-1])
    y_full = y_b.reshape(da_a.shape[:-2] + (1, n))
    ok_a = a_vals == y_full
    ok_b = b_vals == y_full
    mc_a = np.sum((~ok_a & ok_b) & m_vals, axis=(-1, -2)).astype(np.float64)
    mc_b = np.sum((ok_a & ~ok_b) & m_vals, axis=(-1, -2)).astype(np.float64)
    coords = {name: c for name, c in da_a.coords.items() if time_dim not in c.dims}
    fold_dims = lead + (fold_dim,)
    return xr.Dataset(
        {
            "score_a": (fold_dims, score[0], {"long_name": f"{metric} of A over each fold's tested instances"}),
            "score_b": (fold_dims, score[1], {"long_name": f"{metric} of B over each fold's tested instances"}),
            "tested": (fold_dims, m_vals.sum(axis=-1), {"long_name": "instances tested by the fold"}),
            "mcnemar_a": (
                lead,
                mc_a,
                {"long_name": "tested instances misclassified by A and correctly by B (all folds)"},
            ),
            "mcnemar_b": (
                lead,
                mc_b,
                {"long_name": "tested instances misclassified by B and correctly by A (all folds)"},
            ),
        },
        coords=coords,
        attrs=base_attrs(
            "per-fold comparison of two classifiers",
            metric=metric,
            reference="Bifet et al. 2015 (seed 000) section 4.1",
        ),
    )


def rejection_rates(
    comparison: xr.Dataset,
    *,
    alpha=0.05,
    tests=EXPERIMENT_TESTS,
    run_dim="run",
    fold_dim="fold",
    alternative="two-sided",
    correction=False,
) -> xr.Dataset:
    """Fraction of runs in which each test rejects "A and B perform equally".

    Parameters
    ----------
    comparison : xarray.Dataset
        Output of :func:`fold_comparison` (possibly concatenated over ``scheme``,
        ``validation``, ``condition``... dims).
    alpha : float
        Level of every test (Bifet et al. use 0.05).
    tests : sequence of {"mcnemar", "sign", "wilcoxon"}
        McNemar uses the pooled discordant counts (instances as the unit); Sign and
        Wilcoxon (exact, ``zero_method="wilcox"``) use the folds' scores.
    run_dim : str
        Dimension averaged over.
    correction : bool
        Continuity correction of McNemar.

    Returns
    -------
    xarray.Dataset
        ``rejected`` (bool, ``(test, ..., run)``) and ``fraction_rejected``
        (``(test, ...)``), ``n_runs``.
    """
    alpha = check_in_open_unit_interval(alpha, "alpha")
    tests = as_tuple_of(tests, "tests", lambda v, n: check_choice(v, n, EXPERIMENT_TESTS))
    if not tests:
        raise ValueError("tests must name at least one of 'mcnemar', 'sign', 'wilcoxon'")
    if run_dim not in comparison.dims:
        raise ValueError(f"comparison has no dimension {run_dim!r}; its dims are {tuple(comparison.dims)}")
    sa = comparison["score_a"].transpose(..., fold_dim)
    sb = comparison["score_b"].transpose(*sa.dims)
    if bool(np.isnan(sa.values).any() or np.isnan(sb.values).any()):
        raise ValueError(
            "a fold score is NaN (a fold tested no instance, or the metric is undefined there); "
            "the fold-based tests need every fold's score"
        )
    out_dims = sa.dims[:-1]
    rej = []
    for t in tests:
        if t == "mcnemar":
            r = mcnemar_test(
                comparison["mcnemar_a"].transpose(*out_dims).values,
                comparison["mcnemar_b"].transpose(*out_dims).values,
                alpha=alpha,
                correction=correction,
            ).reject
        elif t == "sign":
            r = sign_test(sa.values, sb.values, axis=-1, alpha=alpha, alternative=alternative).reject
        else:
            r = wilcoxon_test(sa.values, sb.values, axis=-1, alpha=alpha, alternative=alternative).reject
        rej.append(np.asarray(r))
    coords = {k: v for k, v in sa.coords.items() if fold_dim not in v.dims}
    coords["test"] = np.array(tests)
    rejected = xr.DataArray(
        np.stack(rej),
        dims=("test",) + out_dims,
        coords=coords,
        attrs={"long_name": f"null hypothesis rejected at alpha={alpha}"},
    )
    frac = rejected.mean(run_dim)
    frac.attrs = {"long_name": "fraction of runs rejecting the null hypothesis", "units": "1"}
    return xr.Dataset(
        {
            "rejected": rejected,
            "fraction_rejected": frac,
            "n_runs": ((), comparison.sizes[run_dim], {"long_name": "runs"}),
        },
        attrs=base_attrs(
            "Type I / II error experiment: rejection rates",
            alpha=alpha,
            tests=list(tests),
            alternative=alternative,
            mcnemar_correction=correction,
            reference="Bifet et al. 2015 (seed 000) section 4.1, Tables 2-4",
        ),
    )


def _label(dim, value):
    if dim == "test":
        return TEST_LABELS.get(str(value), str(value))
    return str(value)


def rejection_table(rates, *, rows=("test", "validation"), columns=("condition", "scheme"), digits=2) -> str:
    """Text table of ``fraction_rejected`` laid out like Bifet et al. 2015 Tables 2-4.

    Each row is one combination of the ``rows`` dims (e.g. "Wilcoxon prequential"),
    the columns are grouped by the first ``columns`` dim (e.g. "No change",
    "p_noise=0.05") with one column per value of the second (bootstrap, cv, split).
    Dims named in ``rows``/``columns`` but absent from ``rates`` are ignored; every
    other dim must have been reduced already.
    """
    frac = rates["fraction_rejected"] if isinstance(rates, xr.Dataset) else rates
    rows = [d for d in rows if d in frac.dims]
    columns = [d for d in columns if d in frac.dims]
    rest = [d for d in frac.dims if d not in rows and d not in columns]
    if rest:
        raise ValueError(f"fraction_rejected has dims {rest} that are neither rows nor columns; select or reduce them")
    if len(columns) > 2:
        raise ValueError(f"at most two column dims are supported, got {columns}")
    frac = frac.transpose(*rows, *columns)
    row_index = list(np.ndindex(*[frac.sizes[d] for d in rows])) if rows else [()]
    col_index = list(np.ndindex(*[frac.sizes[d] for d in columns])) if columns else [()]
    row_labels = [" ".join(_label(d, frac[d].values[i]) for d, i in zip(rows, idx)) for idx in row_index]
    sub = [_label(columns[-1], frac[columns[-1]].values[idx[-1]]) if columns else "rate" for idx in col_index]
    cells = [[f"{float(frac.values[ri + ci]):.{digits}f}" for ci in col_index] for ri in row_index]
    w0 = max([len(s) for s in row_labels] + [4])
    wc = max([len(s) for s in sub] + [digits + 2])
    lines = []
    if len(columns) == 2:
        ng = frac.sizes[columns[1]]
        groups = [_label(columns[0], v) for v in frac[columns[0]].values]
        gw = ng * (wc + 1) - 1
        lines.append(" " * w0 + " " + " | ".join(g[:gw].center(gw) for g in groups))
        header = " | ".join(" ".join(s.rjust(wc) for s in sub[g * ng : (g + 1) * ng]) for g in range(len(groups)))
        lines.append(" " * w0 + " " + header)
        for lab, row in zip(row_labels, cells):
            body = " | ".join(" ".join(c.rjust(wc) for c in row[g * ng : (g + 1) * ng]) for g in range(len(groups)))
            lines.append(lab.ljust(w0) + " " + body)
    else:
        lines.append(" " * w0 + " " + " ".join(s.rjust(wc) for s in sub))
        for lab, row in zip(row_labels, cells):
            lines.append(lab.ljust(w0) + " " + " ".join(c.rjust(wc) for c in row))
    return "\n".join(lines)
