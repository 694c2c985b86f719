"""Prediction-interval curves: coverage, width, NMPIW, interval score and pinball losses under every estimator.

:func:`interval_curves` (the intervals family of the registry, :mod:`streamtk._core.metrics.intervals`) on the
kernel of the regression family (:mod:`streamtk._kernels.regression`, family ``INT``).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.adwin import check_adwin_options
from .._core.conventions import CONVENTIONS
from .._core.mechanisms import build_estimators, forgetting_parameters, refuse_for_moa, resolve_every
from .._core.metrics import REGISTRY, family
from .._core.metrics.intervals import TABLE, IntervalContext
from .._core.validation import check_choice, check_in_open_unit_interval
from .._kernels.regression import layout as LY
from .regression_engine import RegressionEngine
from .regression_inputs import check_finite_where, lead_weights, members, read_columns, read_targets
from .regression_output import curves_dataset

__all__ = ["interval_curves", "resolve_interval_metrics"]

_SEMANTICS = (
    "streamtk: an instance is evaluated when it has a target (NaN: none) and weight > 0; weighted means over the "
    "instances held; the range of nmpiw is max y - min y over the instances held by the same estimator."
)
_MOA_SEMANTICS = (
    "moa: MOA's Basic/WindowPredictionIntervalEvaluator as capymoa drives them: unweighted counts, coverage and nmpiw "
    "in percent rounded by Math.round to 0.01, a window's denominators its size, its maximum and minimum over the "
    "whole ring (empty slots 0 included), the prequential truth range from 0."
)
_QUANTILE_DIM = "quantile"


def resolve_interval_metrics(metrics, *, alpha, nq, moa) -> list:
    """The interval metrics asked (``None``: every applicable one)."""
    pool = family("intervals")

    def unmet(m):
        if m.needs == "alpha" and alpha is None:
            return f"metric {m.name!r} needs the intervals' level: pass alpha= (central (1 - alpha) intervals)"
        if m.needs == "quantiles" and nq == 0:
            return f"metric {m.name!r} needs quantile predictions: pass y_quantiles= and quantiles="
        if moa and not m.moa:
            return f"metric {m.name!r} is not reported by MOA's prediction-interval evaluators (convention='moa')"
        return None

    if metrics is None:
        return [m for m in pool if unmet(m) is None]
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    if not names:
        raise ValueError("metrics must name at least one metric, got an empty selection")
    chosen = []
    for name in names:
        m = REGISTRY.get(name)
        if m is None or m.family != "intervals":
            known = ", ".join(x.name for x in pool)
            raise ValueError(f"unknown interval metric {name!r}; interval metrics: {known}")
        why = unmet(m)
        if why:
            raise ValueError(why)
        if m not in chosen:
            chosen.append(m)
    return chosen


def _levels(quantiles, nq):
    levels = np.asarray(quantiles, dtype=np.float64).reshape(-1)
    if levels.size != nq:
        raise ValueError(f"quantiles has {levels.size} levels but y_quantiles has {nq} quantile columns")
    for q in levels.tolist():
        check_in_open_unit_interval(q, "quantiles")
    if (np.diff(levels) <= 0).any():
        raise ValueError(f"quantiles must be strictly increasing, got {levels.tolist()}")
    return levels


@forgetting_parameters()
def interval_curves(
    y_true,
    lower=None,
    upper=None,
    *,
    y_quantiles=None,
    quantiles=None,
    alpha=None,
    weights=None,
    metrics=None,
    convention="streamtk",
    every=None,
    lead_dims=None,
    adwin_options=None,
    **forgetting,
) -> xr.Dataset:
    """Metrics of recorded prediction intervals (or quantile predictions) under every estimator, in one pass.

    Parameters
    ----------
    y_true : array-like ``(n,)``, DataArray, or a log Dataset
        Targets; NaN marks an instance without a target (not evaluated). An interval log Dataset (``y_true``,
        ``lower``, ``upper`` and/or ``y_quantiles`` with a ``quantile`` coordinate, optionally ``weights``) may be
        given instead of the arrays.
    lower, upper : array-like or DataArray ``(..., n)``
        The intervals' bounds (leading dims: models, folds, runs); finite and ``lower <= upper`` wherever the
        instance is evaluated. Without them the outermost quantile columns are the interval.
    y_quantiles : array-like or DataArray ``(..., n, q)``, optional
        Quantile predictions, one column per level of ``quantiles`` (a DataArray: a ``quantile`` dim whose
        coordinate gives the levels); they give the pinball losses, and the interval ``[q_min, q_max]`` when
        ``lower`` / ``upper`` are not given (then ``alpha`` defaults to ``1 - (q_max - q_min)``).
    quantiles : sequence of float, optional
        The levels in (0, 1), increasing, of the columns of ``y_quantiles``.
    alpha : float, optional
        The intervals are central ``(1 - alpha)`` intervals (the interval score's ``2 / alpha``): a significance
        level in (0, 1).
    weights : array-like or DataArray ``(..., n)``, optional
        Non-negative instance weights; 0 = not evaluated.
    metrics : sequence of str, optional
        Names of the intervals family; default every applicable one (``interval_score`` with ``alpha``,
        ``pinball`` with quantiles).
    convention : {"streamtk", "moa"}
        ``"moa"``: capymoa's ``PredictionIntervalEvaluator`` / ``PredictionIntervalWindowedEvaluator`` (MOA's
        ``Basic`` / ``WindowPredictionIntervalEvaluator``), bit for bit: ``coverage`` and ``nmpiw`` in percent
        rounded to 0.01 as MOA reports them, unweighted counts, a window's denominators its size even before it is
        full, its range over the whole ring (empty slots 0 included), the prequential range from 0 (capymoa calls no
        ``reset()``); prequential and windows only.
    {forgetting}
    every, lead_dims, adwin_options
        As in :func:`streamtk.regression_curves`; ADWIN runs on each series' misses ``1 - [lower <= y <= upper]``.

    Returns
    -------
    xarray.Dataset
        ``coverage``, ``mean_width``, ``nmpiw``, ``target_range``, ``interval_score``, ``pinball`` (a ``quantile``
        dim) and ``n_instances`` on ``(*lead, "estimator", "time")``.

    Notes
    -----
    ``nmpiw = mean_width / R`` with ``R = max y - min y`` over the instances the estimator holds: exact under every
    mechanism (a window's maximum and minimum by monotone deques; fading and EWMA hold every instance since the start
    with a positive weight, so their range is the prequential one). NaN while ``R = 0`` (Khosravi et al. 2011).

    See Also
    --------
    capymoa.evaluation.PredictionIntervalEvaluator, sklearn.metrics.mean_pinball_loss, regression_curves.

    Examples
    --------
    >>> import streamtk
    >>> ds = streamtk.interval_curves([1.0, 2.0, 5.0], [0.5, 2.5, 3.0], [1.5, 3.0, 4.0], alpha=0.2)
    >>> ds.coverage.values.ravel().tolist(), ds.mean_width.values.ravel().tolist()
    ([1.0, 0.5, 0.3333333333333333], [1.0, 0.75, 0.8333333333333334])
    """
    if isinstance(y_true, xr.Dataset):
        log = y_true
        if any(a is not None for a in (lower, upper, y_quantiles)):
            raise TypeError("pass either a log Dataset or y_true with the intervals, not both")
        lower, upper = log.get("lower"), log.get("upper")
        y_quantiles = log.get("y_quantiles")
        if quantiles is None and y_quantiles is not None and _QUANTILE_DIM in y_quantiles.coords:
            quantiles = y_quantiles[_QUANTILE_DIM].values
        if weights is None and "weights" in log:
            weights = log["weights"]
        y_true = log["y_true"]
    convention = check_choice(convention, "convention", CONVENTIONS)
    moa = convention == "moa"
    if (lower is None) != (upper is None):
        raise ValueError("give both lower= and upper= (or neither, with y_quantiles=)")
    if lower is None and y_quantiles is None:
        raise TypeError("interval_curves needs lower= and upper=, or y_quantiles= with quantiles=")
    targets = read_targets(y_true)
    if targets.multi:
        raise ValueError("interval_curves evaluates one target: y_true must be one-dimensional (n,)")
    nq, levels = 0, np.zeros(0)
    if y_quantiles is not None:
        if quantiles is None and isinstance(y_quantiles, xr.DataArray) and _QUANTILE_DIM in y_quantiles.coords:
            quantiles = y_quantiles[_QUANTILE_DIM].values
        if quantiles is None:
            raise ValueError("y_quantiles needs quantiles= (the level of each column)")
        qs, lead, tcoords = read_columns(y_quantiles, "y_quantiles", targets, lead_dims=lead_dims, extra=_QUANTILE_DIM)
        nq = qs.shape[1]
        levels = _levels(quantiles, nq)
    if lower is not None:
        lo, lead_lo, tc_lo = read_columns(lower, "lower", targets, lead_dims=lead_dims,
                                          lead=lead if y_quantiles is not None else None)  # fmt: skip
        up, _, _ = read_columns(upper, "upper", targets, lead_dims=lead_dims, lead=lead_lo)
        if y_quantiles is None:
            lead, tcoords = lead_lo, tc_lo
        bounds = np.concatenate([lo, up], axis=1)
    else:
        bounds = qs[:, [0, nq - 1]]
        if alpha is None:
            alpha = float(1.0 - (levels[-1] - levels[0]))
    ps = bounds if nq == 0 else np.concatenate([bounds, qs], axis=1)
    if alpha is not None:
        alpha = check_in_open_unit_interval(alpha, "alpha")
    w = lead_weights(weights, lead, targets)
    w, mem = members(targets, w, lead.size)
    check_finite_where(ps, mem, ["lower", "upper"] if nq == 0 else ["y_quantiles"] * ps.shape[1])
    _check_order(ps, mem, None if lower is not None else levels)
    specs = build_estimators(**forgetting)
    if moa:
        refuse_for_moa(specs, kinds=("prequential", "window"), what="MOA's interval evaluators are prequential "
                       "or windowed")  # fmt: skip
    chosen = resolve_interval_metrics(metrics, alpha=alpha, nq=nq, moa=moa)
    every = resolve_every(every, targets.n, per_checkpoint=len(specs) * (len(chosen) + nq))
    K = LY.n_quantities(LY.INT, nq)
    ctx = IntervalContext(nq, LY.F_Q + K, moa)
    par = np.concatenate([[2.0 / alpha if alpha is not None else 0.0], levels])
    engine = RegressionEngine(specs, every, check_adwin_options(adwin_options), fam=LY.INT, table=TABLE,
                              metrics=chosen, context=ctx, nq=nq, par=par, moa=moa)  # fmt: skip
    engine.update(targets.y, ps, w, mem, last=True)
    positions, values = engine.collect()
    units = {"coverage": "%", "nmpiw": "%"} if moa else None
    return curves_dataset(
        values,
        chosen,
        lead,
        specs,
        positions,
        {**targets.tcoords, **tcoords},
        "streamtk prediction-interval curves",
        extra={_QUANTILE_DIM: levels},
        units=units,
        every=every,
        convention=convention,
        semantics=_MOA_SEMANTICS if moa else _SEMANTICS,
        alpha="None" if alpha is None else alpha,
        quantiles=levels.tolist(),
        weighted=int(weights is not None),
    )


def _check_order(ps, mem, levels=None):
    """Refuse ``lower > upper`` where an instance is evaluated (``levels``: the interval is the outer quantile
    columns of ``y_quantiles``; inner columns may cross: each has its own pinball loss)."""
    bad = ps[:, 0] > ps[:, 1]
    if mem is not None:
        bad &= mem
    if bad.any():
        s, t = (int(i) for i in np.unravel_index(bad.argmax(), bad.shape))
        if levels is not None:
            raise ValueError(
                f"y_quantiles: the column of quantile {levels[0]} is above that of quantile {levels[-1]} at instance "
                f"{t} (series {s}): {ps[s, 0, t]!r} > {ps[s, 1, t]!r}; the outer quantiles are the interval"
            )
        raise ValueError(
            f"lower is above upper at instance {t} (series {s}): lower={ps[s, 0, t]!r}, upper={ps[s, 1, t]!r}"
        )
