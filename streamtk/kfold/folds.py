"""Fold summaries and significance curves over time (Bifet et al. 2015, sections 3-4).

Works on any labelled result with a ``fold`` dimension, typically
``streamtk.evaluate(y_true, y_pred_of_shape_(model, fold, n), weights=test_mask)``:

* :func:`fold_summary` — per checkpoint and estimator: mean, sample standard
  deviation, standard error, min, max and count over folds;
* :func:`significance_curves` — two classifiers' per-fold curves compared at every
  checkpoint (and estimator, metric...) with the Sign test and Wilcoxon's
  signed-rank test in one vectorised call: statistic, p-value and reject over time.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.validation import as_tuple_of, check_choice
from .._labelled import base_attrs
from ..stats.sign import sign_test
from ..stats.wilcoxon import wilcoxon_test

MODEL = "model"

__all__ = ["fold_summary", "significance_curves", "SUMMARIES", "FOLD_TESTS"]

SUMMARIES = ("mean", "std", "sem", "min", "max", "count")
FOLD_TESTS = ("sign", "wilcoxon")


def summaries(x: np.ndarray) -> np.ndarray:
    """``x`` with folds on the last axis -> ``(6, ...)`` summaries, NaN folds skipped."""
    ok = ~np.isnan(x)
    cnt = ok.sum(axis=-1).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(ok, x, 0.0).sum(axis=-1) / cnt
        dev = np.where(ok, x - mean[..., None], 0.0)
        var = (dev**2).sum(axis=-1) / (cnt - 1.0)
        std = np.where(cnt >= 2, np.sqrt(var), np.nan)
        sem = std / np.sqrt(cnt)
    mn = np.where(cnt > 0, np.where(ok, x, np.inf).min(axis=-1), np.nan)
    mx = np.where(cnt > 0, np.where(ok, x, -np.inf).max(axis=-1), np.nan)
    mean = np.where(cnt > 0, mean, np.nan)
    return np.stack([mean, std, sem, mn, mx, cnt])


def fold_summary(data, *, dim: str = "fold"):
    """Summaries over folds of every variable that has the ``dim`` dimension.

    Parameters
    ----------
    data : xarray.Dataset or xarray.DataArray
        Per-fold results (e.g. per-fold curves from ``streamtk.evaluate``).
    dim : str
        The fold dimension.

    Returns
    -------
    Same type as ``data``, ``dim`` replaced by a leading ``summary`` dimension with
    labels ``mean``, ``std`` (sample standard deviation, ``ddof = 1``), ``sem``
    (``std / sqrt(count)``), ``min``, ``max`` and ``count`` (folds with a defined
    value). Folds whose value is NaN (undefined, e.g. a fold that has not tested
    any instance yet) are left out of every summary; ``std``/``sem`` need two
    defined folds, otherwise they are NaN; all summaries are NaN when ``count = 0``.
    Variables without ``dim`` are dropped from a Dataset.

    See Also
    --------
    moa.tasks.EvaluatePrequentialCV : reports only the mean over folds.
    """
    if isinstance(data, xr.DataArray):
        return _summary_da(data, dim)
    if not isinstance(data, xr.Dataset):
        raise TypeError(f"data must be an xarray Dataset or DataArray, got {type(data).__name__}")
    names = [k for k, v in data.data_vars.items() if dim in v.dims]
    if not names:
        raise ValueError(f"no variable of data has the dimension {dim!r}; dims are {tuple(data.dims)}")
    out = xr.Dataset({k: _summary_da(data[k], dim) for k in names})
    out.attrs = dict(data.attrs)
    out.attrs.update(summary_over=dim, summary_note="NaN folds are skipped; std uses ddof=1; sem = std/sqrt(count)")
    return out


def _summary_da(da: xr.DataArray, dim: str) -> xr.DataArray:
    if dim not in da.dims:
        raise ValueError(f"{da.name or 'data'} has no dimension {dim!r}; its dims are {da.dims}")
    if not (np.issubdtype(da.dtype, np.number) or da.dtype == bool):
        raise TypeError(f"{da.name or 'data'} must be numeric, got dtype {da.dtype}")
    moved = da.transpose(..., dim)
    vals = summaries(np.asarray(moved.values, dtype=np.float64))
    dims = ("summary",) + moved.dims[:-1]
    coords = {k: v for k, v in moved.coords.items() if dim not in v.dims}
    coords["summary"] = np.array(SUMMARIES)
    attrs = dict(da.attrs)
    attrs["cell_methods"] = f"{dim}: summary"
    return xr.DataArray(vals, dims=dims, coords=coords, name=da.name, attrs=attrs)


def as_pair(a, b, models):
    model_dim = MODEL
    if b is None:
        if model_dim not in a.dims:
            raise ValueError(
                f"with b=None, a must have a {model_dim!r} dimension holding the models; its dims are {a.dims}"
            )
        if models is None:
            if a.sizes[model_dim] != 2:
                raise ValueError(f"a has {a.sizes[model_dim]} entries along {model_dim!r}; pass models=(A, B)")
            a, b = a.isel({model_dim: 0}), a.isel({model_dim: 1})
        else:
            if len(models) != 2:
                raise ValueError(f"models must name two entries of {model_dim!r}, got {models!r}")
            a, b = a.sel({model_dim: models[0]}), a.sel({model_dim: models[1]})
    elif models is not None:
        raise ValueError("models= is only used with b=None")
    drop = [c for c in set(a.coords) | set(b.coords) if c == model_dim]
    a = a.drop_vars([c for c in drop if c in a.coords])
    b = b.drop_vars([c for c in drop if c in b.coords])
    try:
        a, b = xr.align(a, b, join="exact")
    except ValueError as exc:
        raise ValueError(f"a and b must have identical coordinates: {exc}") from None
    return a, b


def to_array(x, dim, metrics):
    if isinstance(x, xr.DataArray):
        return x, False
    if not isinstance(x, xr.Dataset):
        raise TypeError(f"a and b must be xarray Datasets or DataArrays, got {type(x).__name__}")
    if metrics is None:
        cands = [k for k, v in x.data_vars.items() if dim in v.dims]
        if not cands:
            raise ValueError(f"no variable has the dimension {dim!r}")
        ref = x[cands[0]].dims
        metrics = [k for k in cands if x[k].dims == ref]
    else:
        metrics = list(as_tuple_of(metrics, "metrics", lambda v, n: str(v)))
        missing = [m for m in metrics if m not in x.data_vars]
        if missing:
            raise ValueError(f"metrics {missing!r} are not variables of the input ({list(x.data_vars)})")
    da = x[metrics].to_dataarray(dim="metric")
    return da.assign_coords(metric=np.array([str(m) for m in metrics], dtype=str)), True


def significance_curves(
    a,
    b=None,
    *,
    dim: str = "fold",
    tests=FOLD_TESTS,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    metrics=None,
    models=None,
    wilcoxon_method: str = "auto",
    zero_method: str = "wilcox",
) -> xr.Dataset:
    """Compare two classifiers' per-fold results at every checkpoint with fold-based tests.

    Parameters
    ----------
    a, b : xarray.Dataset or DataArray
        Per-fold results of classifiers A and B with identical dims and coordinates,
        e.g. two models' ``streamtk.evaluate`` outputs. With ``b=None``, ``a`` holds
        both models along its ``model`` dim (exactly two entries, or pick them with
        ``models=(A, B)``).
    dim : str
        The fold dimension (the unit of the tests).
    tests : sequence of {"sign", "wilcoxon"}
    alpha, alternative
        Level and alternative (``greater``: A's values larger) of every test.
    metrics : sequence of str, optional
        Dataset variables to compare; default every variable with ``dim`` and the
        same dims as the first such one (per-class variables need naming).
    wilcoxon_method, zero_method
        Passed to :func:`streamtk.stats.wilcoxon_test` (``zero_method`` also maps
        ``wilcox`` -> drop, anything else -> split for the Sign test).

    Returns
    -------
    xarray.Dataset
        Dims ``(test, [metric,] *other dims)``; variables ``statistic`` (Sign: wins
        of A; Wilcoxon: ``min(R+, R-)`` two-sided, ``R+`` one-sided), ``signed_statistic``
        (wins - losses; ``R+ - R-``: swapping A and B flips its sign), ``pvalue``,
        ``critical`` (``w_alpha`` / ``V_alpha``), ``reject`` and ``n`` (folds used).
        A slice where any fold's value is NaN (undefined) gets NaN and
        ``reject = False``.

    Notes
    -----
    All checkpoints, estimators and metrics go through each test in a single
    vectorised call (Wilcoxon's exact null distribution is computed once per distinct
    set of ranks). The tests are those of Bifet et al. 2015, section 4.

    Examples
    --------
    >>> import numpy as np, xarray as xr
    >>> acc = xr.DataArray(np.array([[0.80, 0.82, 0.79, 0.85, 0.81, 0.83],
    ...                              [0.78, 0.80, 0.79, 0.80, 0.77, 0.79]]).T[:, :, None].repeat(2, -1),
    ...                    dims=("fold", "model", "time"), coords={"model": ["A", "B"]})
    >>> out = significance_curves(acc)
    >>> out.signed_statistic.sel(test="sign").values.tolist(), out.n.sel(test="wilcoxon").values.tolist()
    ([5.0, 5.0], [5, 5])

    See Also
    --------
    streamtk.stats.sign_test, streamtk.stats.wilcoxon_test : the numpy layer.
    scipy.stats.wilcoxon : per-slice reference.
    """
    tests = as_tuple_of(tests, "tests", lambda v, n: check_choice(v, n, FOLD_TESTS))
    if not tests:
        raise ValueError("tests must name at least one of 'sign', 'wilcoxon'")
    a, b = as_pair(a, b, models)
    da_a, was_ds = to_array(a, dim, metrics)
    da_b, _ = to_array(b, dim, metrics if metrics is not None or not was_ds else list(da_a.coords["metric"].values))
    if dim not in da_a.dims:
        raise ValueError(f"a has no dimension {dim!r}; its dims are {da_a.dims}")
    da_a = da_a.transpose(..., dim)
    da_b = da_b.transpose(*da_a.dims)
    xa = np.asarray(da_a.values, dtype=np.float64)
    xb = np.asarray(da_b.values, dtype=np.float64)
    bad = np.isnan(xa).any(axis=-1) | np.isnan(xb).any(axis=-1)
    d = np.where(np.isnan(xa) | np.isnan(xb), 0.0, xa - xb)
    out_dims = da_a.dims[:-1]
    fields = {k: [] for k in ("statistic", "signed_statistic", "pvalue", "critical", "reject", "n")}
    for t in tests:
        if t == "sign":
            r = sign_test(
                d,
                axis=-1,
                alternative=alternative,
                alpha=alpha,
                zero_method="drop" if zero_method == "wilcox" else "split",
            )
        else:
            r = wilcoxon_test(
                d, axis=-1, alternative=alternative, alpha=alpha, method=wilcoxon_method, zero_method=zero_method
            )
        for k in fields:
            v = np.asarray(getattr(r, k))
            if k == "reject":
                v = v & ~bad
            elif k == "n":
                v = np.where(bad, -1, v)
            else:
                v = np.where(bad, np.nan, v.astype(np.float64))
            fields[k].append(v)
    coords = {k: v for k, v in da_a.coords.items() if dim not in v.dims}
    coords["test"] = np.array(tests)
    long = {
        "statistic": ("test statistic (Sign: wins of A; Wilcoxon: min(R+, R-) two-sided, R+ one-sided)", "1"),
        "signed_statistic": ("signed statistic (Sign: wins - losses of A; Wilcoxon: R+ - R-)", "1"),
        "pvalue": (f"p-value ({alternative})", "1"),
        "critical": ("critical value (w_alpha for Sign, V_alpha for Wilcoxon)", "1"),
        "reject": (f"null hypothesis rejected at alpha={alpha}", "1"),
        "n": ("folds entering the test (-1 where a fold value is undefined)", "1"),
    }
    data = {
        k: (("test",) + out_dims, np.stack(v), {"long_name": long[k][0], "units": long[k][1]})
        for k, v in fields.items()
    }
    return xr.Dataset(
        data,
        coords=coords,
        attrs=base_attrs(
            "fold-based significance curves of A vs B",
            reference="Bifet et al. 2015 (seed 000) section 4: Sign test and Wilcoxon signed-rank test over folds",
            fold_dim=dim,
            tests=list(tests),
            alpha=alpha,
            alternative=alternative,
            wilcoxon_method=wilcoxon_method,
            zero_method=zero_method,
        ),
    )
