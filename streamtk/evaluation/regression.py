"""Regression curves: every regression metric of recorded predictions under every estimator, in one pass.

:func:`regression_curves` (the regression family of the registry, :mod:`streamtk._core.metrics.regression`) and
:func:`regression_baselines` (the NoChange, TargetMean and FadingTargetMean baselines as models). The numpy layer
is :class:`streamtk.evaluation.regression_engine.RegressionEngine`; the kernels are in
:mod:`streamtk._kernels.regression`.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.adwin import check_adwin_options
from .._core.conventions import CONVENTIONS
from .._core.mechanisms import build_estimators, forgetting_parameters, refuse_for_moa, resolve_every
from .._core.metrics import REGISTRY, family
from .._core.metrics.regression import TABLE, RegressionContext
from .._core.validation import check_choice, check_fading_factor, check_positive_int
from .._kernels.regression import layout as LY
from .regression_engine import RegressionEngine
from .regression_inputs import TARGET_DIM, check_finite_where, lead_weights, members, read_columns, read_targets
from .regression_output import curves_dataset

__all__ = ["regression_curves", "regression_baselines", "BASELINES", "resolve_regression_metrics"]

#: the baseline models of :func:`regression_baselines`, in their order on the ``model`` dim
BASELINES = ("NoChange", "TargetMean", "FadingTargetMean")

_SEMANTICS = (
    "streamtk: an instance is evaluated for a model when it has a target (NaN: none) and weight > 0; weighted sums "
    "over the instances held, divided by the weight held; r2 about the weighted mean of the targets held; rmae and "
    "rrmse relative to the TargetMean baseline whose memory follows the estimator (the weighted mean of the targets "
    "held before the instance, 0 with none); max_error and median_absolute_error over the instances held."
)
_MOA_SEMANTICS = (
    "moa: MOA's Basic/WindowRegressionPerformanceEvaluator (multi-target: BasicMultiTargetPerformanceEvaluator and "
    "its RelativeMeasures variant): unweighted error sums over the weight; running mean 0 at the first instance; "
    "adjusted R^2 with n_features + 1 attributes and MOA's total weight; 0 where MOA guards a division."
)


def resolve_regression_metrics(metrics, *, nt: int, n_features, moa: bool) -> list:
    """The regression metrics asked (``None``: every applicable one; the median only when asked by name)."""
    pool = family("regression")
    multi = nt > 1

    def unmet(m, named):
        if m.needs == "multitarget" and not multi:
            return f"metric {m.name!r} averages several targets: give y_true of shape (n, targets)"
        if m.needs == "n_features" and n_features is None:
            return f"metric {m.name!r} needs the number of features: pass n_features= (got n_features=None)"
        if m.needs == "tree" and not named:
            return "asked by name only"
        if moa and not m.moa:
            return f"metric {m.name!r} is not reported by MOA's regression evaluators (convention='moa')"
        if moa and multi and m.name in ("r2", "adjusted_r2"):
            return f"metric {m.name!r} is not reported by MOA's multi-target evaluators (convention='moa')"
        return None

    if metrics is None:
        return [m for m in pool if unmet(m, False) is None]
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    if not names:
        raise ValueError("metrics must name at least one metric, got an empty selection")
    chosen = []
    for name in names:
        m = REGISTRY.get(name)
        if m is None or m.family != "regression":
            where = f" (it belongs to the {m.family!r} family)" if m is not None else ""
            known = ", ".join(x.name for x in pool)
            raise ValueError(f"unknown regression metric {name!r}{where}; regression metrics: {known}")
        why = unmet(m, True)
        if why:
            raise ValueError(why)
        if m not in chosen:
            chosen.append(m)
    return chosen


def _check_n_features(n_features, metrics, specs, n_members, moa):
    """``n_features`` validated against what the adjusted R^2 can use (MOA computes its formula regardless)."""
    if n_features is None:
        return float("nan")
    p = check_positive_int(n_features, "n_features", minimum=0)
    if moa or not any(m.name == "adjusted_r2" for m in metrics):
        return float(p)
    if n_members <= p + 1:
        raise ValueError(
            f"adjusted_r2 needs more evaluated instances than n_features + 1 = {p + 1}: the stream has {n_members} "
            f"evaluated instance(s) and n_features={p}"
        )
    for s in specs:
        if s.kind in ("window", "tumbling") and s.param <= p + 1:
            arg = "windows" if s.kind == "window" else "tumbling"
            raise ValueError(
                f"adjusted_r2 is undefined over {s.label}: a {s.kind} of {s.param} instance(s) never holds more than "
                f"n_features + 1 = {p + 1}; give {arg} larger than {p + 1} or a smaller n_features (got {p})"
            )
    return float(p)


@forgetting_parameters()
def regression_curves(
    y_true,
    y_pred=None,
    *,
    weights=None,
    metrics=None,
    n_features=None,
    convention="streamtk",
    baselines=False,
    baseline_fading=0.99,
    every=None,
    lead_dims=None,
    adwin_options=None,
    **forgetting,
) -> xr.Dataset:
    """Regression metrics of recorded predictions under every estimator, in one pass.

    Parameters
    ----------
    y_true : array-like ``(n,)`` or ``(n, targets)``, DataArray, or a log Dataset
        Targets (real numbers). NaN marks an instance without a target: no model is evaluated there (it
        occupies no window slot). Infinite targets are refused. Several targets (a ``target`` dim, or a 2-D
        array) give a multi-target evaluation: every metric per target (a ``target`` dim) and the averages
        ``average_*``. A regression log Dataset (``y_true``, ``y_pred``, optionally ``weights``,
        :mod:`streamtk.io`) may be given instead of the arrays.
    y_pred : array-like or DataArray ``(..., n)`` (``(..., n, targets)``)
        Predictions; leading dims (models, folds, runs) are evaluated in parallel and kept. A prediction must be
        finite wherever the instance has a target and a positive weight.
    weights : array-like or DataArray ``(..., n)``, optional
        Non-negative instance weights (broadcast over the models); 0 = not evaluated.
    metrics : sequence of str, optional
        Names of the regression family (:data:`streamtk.METRICS`); default: every applicable one
        (``adjusted_r2`` with ``n_features``, the ``average_*`` with several targets). ``median_absolute_error``
        is computed only when named: it keeps an order-statistics tree of the distinct absolute errors per series
        and estimator (memory O(distinct errors), O(log n) per instance).
    n_features : int, optional
        The number of features of the models, ``p`` of the adjusted R^2 ``1 - (1 - R^2)(n - 1) / (n - p - 1)``
        (MOA's convention counts the class attribute too: ``p + 1``). Required by ``adjusted_r2``; a stream with
        at most ``p + 1`` evaluated instances, or a window or tumble of at most ``p + 1``, is refused.
    convention : {"streamtk", "moa"}
        ``"streamtk"``: textbook weighted definitions (scikit-learn's, with ``sample_weight``). ``"moa"``: MOA's
        ``BasicRegressionPerformanceEvaluator`` (prequential) and ``WindowRegressionPerformanceEvaluator``
        (windows) bit for bit, quirks included: weights only in the denominators, the running mean 0 at the first
        instance (and, in a window, the targets of the ``w`` instances before divided by the weights of the ``w``
        up to the current one), the adjusted R^2 counting the class attribute and using the cumulative weight, 0
        where MOA guards a division. Several targets: MOA's ``BasicMultiTargetPerformanceEvaluator`` (averages of
        MAE and RMSE, equal to MOA's up to the order of its single sum) and
        ``BasicMultiTargetPerformanceRelativeMeasuresEvaluator`` (rmae, rrmse: its running mean includes the
        instance), prequential only. Only the measures MOA reports are computed.
    baselines : bool
        Append the ``NoChange``, ``TargetMean`` and ``FadingTargetMean`` baselines (:func:`regression_baselines`)
        as models on the ``model`` dim (``y_pred`` may then have one leading dim at most, named ``model``).
    baseline_fading : float
        The FadingTargetMean's fading factor (MOA's default 0.99).
    {forgetting}
    every : int, optional
        A checkpoint every ``every`` instances and at the last (default:
        :func:`~streamtk._core.mechanisms.default_every`).
    lead_dims : str or sequence of str, optional
        Names of the leading dims of a numpy ``y_pred``.
    adwin_options : dict, optional
        ADWIN's parameters (:data:`streamtk._core.adwin.ADWIN_DEFAULTS`); each series' ADWIN runs on its absolute
        errors.

    Returns
    -------
    xarray.Dataset
        One variable per metric on ``(*lead, "estimator", "time")`` (``target`` last with several targets) and
        ``n_instances`` (instances held; MOA: its "classified instances"), attrs from the registry.

    Notes
    -----
    Every estimator holds the same instances for every metric. Exact under every mechanism: sums over a window's
    instances are exactly 0 when none is left, the maximum of a window is kept by a monotone deque, the weighted
    median by an order-statistics tree (fading and EWMA: every instance since the start is held with a positive
    weight, so their maximum is the prequential one, and their median weighs the instances by the faded weights).
    Undefined values are NaN (nothing held; r2 and rrmse while every target held is equal, 0 / 0 or -inf).

    See Also
    --------
    moa.evaluation.BasicRegressionPerformanceEvaluator, river.metrics.R2, river.metrics.MAE, river.metrics.RMSE,
    sklearn.metrics.r2_score, interval_curves (prediction intervals).

    Examples
    --------
    >>> import numpy as np, streamtk
    >>> ds = streamtk.regression_curves(np.array([1.0, 2.0, 3.0]), np.array([1.5, 2.0, 1.0]), metrics=["mae", "r2"])
    >>> ds.mae.values.ravel().tolist()
    [0.5, 0.25, 0.8333333333333334]
    >>> round(float(ds.r2[0, -1]), 4)  # 1 - 4.25 / 2
    -1.125
    """
    if isinstance(y_true, xr.Dataset):
        if y_pred is not None:
            raise TypeError("pass either a log Dataset or y_true and y_pred, not both")
        log = y_true
        for var in ("y_true", "y_pred"):
            if var not in log:
                raise ValueError(f"the log Dataset has no {var!r} variable (its variables: {list(log.data_vars)})")
        y_true, y_pred = log["y_true"], log["y_pred"]
        if weights is None and "weights" in log:
            weights = log["weights"]
    if y_pred is None:
        raise TypeError("y_pred is required (or pass a log Dataset as the first argument)")
    convention = check_choice(convention, "convention", CONVENTIONS)
    moa = convention == "moa"
    targets = read_targets(y_true)
    if baselines:
        y_pred = _with_baselines(y_pred, targets, weights, baseline_fading)
    ps, lead, tcoords = read_columns(y_pred, "y_pred", targets, lead_dims=lead_dims)
    w = lead_weights(weights, lead, targets)
    w, mem = members(targets, w, lead.size)
    check_finite_where(ps, mem, "y_pred")
    specs = build_estimators(**forgetting)
    if moa:
        refuse_for_moa(specs, kinds=("prequential", "window") if not targets.multi else ("prequential",),
                       what="MOA's regression evaluators are prequential or windowed; its multi-target window "
                       "evaluators mix the targets in one ring, not reproduced")  # fmt: skip
    chosen = resolve_regression_metrics(metrics, nt=targets.nt, n_features=n_features, moa=moa)
    n_members = int(np.sum(mem[0 : targets.nt].all(axis=0))) if mem is not None else targets.n
    p = _check_n_features(n_features, chosen, specs, n_members, moa)
    every = resolve_every(every, targets.n, per_checkpoint=len(specs) * len(chosen) * targets.nt)
    ctx = RegressionContext(targets.nt, LY.N_MOA_FIELDS if moa else LY.n_fields(LY.K_REG, LY.J_REG), p, moa)
    median = any(m.needs == "tree" for m in chosen)
    engine = RegressionEngine(specs, every, check_adwin_options(adwin_options), fam=LY.REG, table=TABLE,
                              metrics=chosen, context=ctx, nt=targets.nt, median=median, moa=moa,
                              incl=moa and targets.multi)  # fmt: skip
    engine.update(targets.y, ps, w, mem, last=True)
    positions, values = engine.collect()
    return curves_dataset(
        values,
        chosen,
        lead,
        specs,
        positions,
        {**targets.tcoords, **tcoords},
        "streamtk regression curves",
        extra={TARGET_DIM: targets.labels} if targets.multi else {},
        squeeze=() if targets.multi else ("target",),
        every=every,
        convention=convention,
        semantics=_MOA_SEMANTICS if moa else _SEMANTICS,
        n_features="None" if n_features is None else int(n_features),
        weighted=int(weights is not None),
    )


def _baseline_predictions(y, w, fade):
    """``(3, nt, n)`` predictions of the three baselines for targets ``y (nt, n)``."""
    from .._kernels.regression.baselines import predict

    nt, n = y.shape
    out = np.empty((len(BASELINES), nt, n))
    ww = np.ones(n) if w is None else w
    for i in range(nt):
        buf = np.empty((len(BASELINES), n))
        predict(np.ascontiguousarray(y[i]), ww, float(fade), buf)
        out[:, i] = buf
    return out


def regression_baselines(y_true, *, weights=None, fading=0.99) -> xr.DataArray:
    """The NoChange, TargetMean and FadingTargetMean baselines' test-then-train predictions, as models.

    Each predicts instance ``t`` from the instances before it that have a target and a positive weight, 0
    before the first one (MOA's ``NoChange``, ``rules.functions.TargetMean`` and ``FadingTargetMean``, operation
    for operation): the last target; ``sum w y / sum w``; ``sum / nD`` with ``nD = w + f nD``,
    ``sum = y w + f sum``.

    Parameters
    ----------
    y_true : array-like ``(n,)`` or ``(n, targets)``, or DataArray
        Targets, NaN where there is none.
    weights : array-like ``(n,)``, optional
        Training weights (instances of weight 0 are not learnt from).
    fading : float
        The FadingTargetMean's fading factor in (0, 1] (MOA's default 0.99).

    Returns
    -------
    xarray.DataArray
        Predictions on ``("model", "time")`` (``("model", "time", "target")`` for several targets), ``model`` =
        :data:`BASELINES`: give it to :func:`regression_curves` (or concatenate it with a model's predictions).

    Examples
    --------
    >>> import streamtk
    >>> streamtk.regression_baselines([2.0, 4.0, 3.0]).values.tolist()
    [[0.0, 2.0, 4.0], [0.0, 2.0, 3.0], [0.0, 2.0, 3.0100502512562812]]
    """
    targets = read_targets(y_true)
    fade = check_fading_factor(fading, "fading")
    w = None
    if weights is not None:
        w = lead_weights(weights, _single_lead(), targets, name="y_true")
        if w.shape[0] != 1:
            raise ValueError(f"weights of the baselines must be one-dimensional (n,), got shape {np.shape(weights)}")
        w = w[0]
    pred = _baseline_predictions(targets.y, w, fade)
    coords = {"model": list(BASELINES), **{k: v for k, v in targets.tcoords.items()}}
    if targets.multi:
        coords[TARGET_DIM] = targets.labels
        return xr.DataArray(pred.transpose(0, 2, 1), dims=("model", "time", TARGET_DIM), coords=coords)
    return xr.DataArray(pred[:, 0], dims=("model", "time"), coords=coords)


def _single_lead():
    from .._labelled import LeadingDims

    return LeadingDims((), (), {})


def _with_baselines(y_pred, targets, weights, fade):
    """``y_pred`` with the baselines appended on its ``model`` dim."""
    if weights is not None and np.ndim(weights) != 1:
        raise ValueError(
            f"baselines=True learns the baselines with one weight per instance: weights must be (n,), got shape "
            f"{np.shape(weights)}"
        )
    base = regression_baselines(targets.y.T if targets.multi else targets.y[0], weights=weights, fading=fade)
    if not isinstance(y_pred, xr.DataArray):
        arr = np.asarray(y_pred, dtype=np.float64)
        core = arr.ndim - (2 if targets.multi else 1)
        if core > 1:
            raise ValueError(f"baselines=True needs y_pred with one leading dim (model) at most, got shape {arr.shape}")
        arr = arr.reshape((-1,) + arr.shape[core:])
        names = [f"model_{i}" for i in range(arr.shape[0])]
        dims = ("model", "time", TARGET_DIM) if targets.multi else ("model", "time")
        y_pred = xr.DataArray(arr, dims=dims, coords={"model": names})
    lead = [d for d in y_pred.dims if d not in ("time", TARGET_DIM)]
    if len(lead) > 1 or (lead and lead[0] != "model"):
        raise ValueError(
            f"baselines=True needs y_pred with one leading dim named 'model' at most, got dims {y_pred.dims}"
        )
    if not lead:
        y_pred = y_pred.expand_dims(model=["model"])
    if "model" not in y_pred.coords:
        y_pred = y_pred.assign_coords(model=[f"model_{i}" for i in range(y_pred.sizes["model"])])
    clash = set(y_pred.model.values.tolist()) & set(BASELINES)
    if clash:
        raise ValueError(f"y_pred already has models named {sorted(clash)}: rename them or drop baselines=True")
    base = (
        base.assign_coords(time=y_pred["time"]) if "time" in y_pred.coords else base.drop_vars("time", errors="ignore")
    )
    if targets.multi and TARGET_DIM in y_pred.coords:
        base = base.assign_coords({TARGET_DIM: y_pred[TARGET_DIM].values})
    return xr.concat([y_pred.drop_vars([c for c in y_pred.coords if c not in y_pred.dims]), base], dim="model",
                     coords="minimal", join="override")  # fmt: skip
