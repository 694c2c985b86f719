"""Curves of real-valued per-instance losses and resources under every estimator.

Three labelled functions on the estimator/time schema of :func:`streamtk.evaluate`
(dims ``(*lead, "estimator", "time")``, coordinate ``instance`` on ``time``):

:func:`loss_curves`
    the mean of any recorded per-instance loss (squared or absolute error,
    log-loss, per-instance costs, ...): prequential, sliding windows, fading
    factors and ADWIN (Gama, Sebastiao & Rodrigues 2013, ``seeds/004_*.txt``,
    section 3.3, Algorithms 1-3; Bifet et al. 2015, ``seeds/000_*.txt``, section 6);
:func:`regression_curves`
    every regression metric of recorded predictions (:mod:`streamtk.evaluation.regression`);
:func:`resource_curves`
    throughput (instances per second), model memory and RAM-Hours from recorded
    per-instance processing times and model sizes (Gama et al. 2013, sections 2-3;
    RAM-Hours as in MOA and Bifet et al.: 1 RAM-Hour = 1 GB of memory for one hour).

The numpy layer is :func:`quantity_curves` on :class:`streamtk.evaluation.sums.SumsEngine` (shared
with :mod:`streamtk.comparison.compare`); the kernel is :mod:`streamtk._kernels.sums`.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.adwin import check_adwin_options
from .._core.intervals import check_interval
from .._core.intervals.block_length import auto_block_length
from .._core.intervals.options import band_parameters
from .._core.intervals.select import banded_metrics, check_sequence_estimators
from .._core.mechanisms import (
    EstimatorSpec,
    build_estimators,
    estimator_coords,
    forgetting_parameters,
    mechanism_attrs,
    resolve_every,
)
from .._core.metrics import REGISTRY, family
from .._core.metrics.base import BOUND_SIDES
from .._core.metrics.losses import GB, ram_hours
from .._core.validation import as_float_array, check_choice
from .._kernels import sums as SK
from .._labelled import LeadingDims, band_variables, base_attrs, split_leading, time_coords
from .regression import regression_curves  # its home since issue 33, importable from here as before
from .sums import SumsEngine, sums_job
from .sums_bands import SumsBands

__all__ = ["loss_curves", "regression_curves", "regression_losses", "resource_curves", "quantity_curves"]

_GAMA = "Gama, Sebastiao & Rodrigues 2013 (seed 004), sec. 3.3, Algorithms 1-3"
_ADWIN = "Bifet et al. 2015 (seed 000), sec. 6"
_ESTIMATOR_NOTE = (
    "prequential: mean over instances 1..t; window=w: mean over the last min(t, w) instances; "
    "fading=alpha: S_t / N_t with S_t = x_t + alpha S_(t-1), N_t = 1 + alpha N_(t-1); "
    "adwin=delta: mean of the current ADWIN window of the quantity (MOA's ADWIN, clock 32, M 5)"
)


# ---------------------------------------------------------------------------- numpy layer
def quantity_curves(
    x: np.ndarray, specs: list[EstimatorSpec], every: int, metrics: dict, present=None, *, interval=None
):
    """Metrics of per-instance quantities under every estimator, in one pass.

    ``x (L, Q, T)`` float64, finite at the evaluated instances; ``present (T,)`` marks them (None: all);
    values at the other instances (e.g. NaN) are never read. ``metrics``: ``{quantity index: [registry
    metrics of the sums table]}``. Each quantity has its own ADWIN (as MOA runs one per estimated quantity).
    ``interval``: band options (:func:`streamtk._core.intervals.check_interval`): the metrics that have bands by
    its method get ``<name>_lower`` / ``<name>_upper``. Returns ``(positions, {name: (L, E, C)})`` with
    ``n_instances`` (the members held, from quantity 0), and the banded metrics.
    """
    L, Q, T = x.shape
    rows = np.ascontiguousarray(np.swapaxes(x, 0, 1).reshape(Q * L, T))  # quantity-major: one slice per quantity
    groups = np.repeat(np.arange(Q * L, dtype=np.int64)[:, None], 2, axis=1)
    ident = np.arange(L, dtype=np.int64)
    every_metric = [m for ms in metrics.values() for m in ms]
    banded, _ = banded_metrics(every_metric, interval, explicit=False, sequence_values=("loss",))
    if interval is not None:
        if not banded:
            raise ValueError(
                f"interval_method={interval.method!r} applies to none of {[m.name for m in every_metric]}: "
                + "; ".join(_why(m, interval) for m in every_metric)
            )
        if interval.method == "sequence":
            check_sequence_estimators(specs)
        binary = bool(np.all((rows == 0.0) | (rows == 1.0) | np.isnan(rows)))
        if interval.method == "analytic" and not binary:
            raise ValueError(
                "interval_method='analytic' applies to 0-1 losses only (Wilson's interval of a proportion): these "
                "values are not 0 or 1; use interval_method='bootstrap'"
            )
    analytic = interval is not None and interval.method == "analytic"
    bounds = {m.name: [m.bound(side) for side in BOUND_SIDES] for m in banded} if analytic else {}
    jobs = [
        sums_job(ms + [b for m in ms for b in bounds.get(m.name, [])], slice(q * L, (q + 1) * L), ident)
        for q, ms in metrics.items()
        if ms
    ]
    jobs.append(sums_job([], slice(0, L), ident, copies={"n_instances": SK.SN}))
    outputs = {m.name: (L, np.dtype(m.dtype)) for job in jobs for m in job.finaliser.metrics}
    outputs["n_instances"] = (L, np.dtype(np.float64))
    z = np.nan if interval is None else interval.z
    adwin = check_adwin_options(None)
    engine = SumsEngine(specs, every, adwin, jobs=jobs, outputs=outputs, z=z)
    engine.update(rows, groups, present, last=True)
    positions, values = engine.collect()
    if interval is not None and not analytic:
        auto = interval.method == "block_bootstrap" and interval.block_length is None
        mem = np.ones(T, dtype=bool) if present is None else present
        blocks = auto_block_length(rows[:, mem]) if auto else None
        bands = SumsBands(specs, every, adwin, jobs[:-1], L, banded, interval, blocks=blocks)
        bands.update(np.nan_to_num(rows), groups, present, last=True)
        values.update(bands.bands(positions, values))
    return positions, values


def _why(metric, spec) -> str:
    if spec.method == "analytic":
        return metric.no_analytic()
    return f"{metric.name!r} is not a mean of values in [0, 1]"


def _present_of(values: np.ndarray) -> np.ndarray | None:
    """Mask of present instances, or ``None`` when all are present (no compaction)."""
    mask = ~np.isnan(values)
    return None if mask.all() else mask


def _present_of_losses(x2: np.ndarray, name: str) -> np.ndarray | None:
    """The present instances of losses ``(L, n)`` (NaN: not evaluated; None: all), refusing infinities.

    A finite total proves that every value is finite in one pass; otherwise (a NaN, an infinity,
    or only an overflow of the total) the values are checked one by one.
    """
    if np.isfinite(x2.sum()):
        return None
    if np.isinf(x2).any():
        where = tuple(int(i) for i in np.unravel_index(np.isinf(x2).argmax(), x2.shape))
        raise ValueError(f"{name} contains an infinite value at index {where}")
    present = _present_of(x2[0])
    if present is not None and not np.array_equal(np.isnan(x2), np.broadcast_to(~present, x2.shape)):
        raise ValueError(
            f"{name} has NaN (not evaluated) at different positions in different series; "
            "missing instances must be the same in every series"
        )
    return present


# ---------------------------------------------------------------------------- labelled layer
def _variable(lead: LeadingDims, arr: np.ndarray, **attrs) -> xr.Variable:
    """``(L, E, C)`` -> Variable on ``(*lead, estimator, time)``."""
    arr = lead.reshape(arr)
    return xr.Variable(lead.names + ("estimator", "time"), arr, attrs=attrs)


def _dataset(data_vars: dict, lead: LeadingDims, specs, positions, tcoords, title, **params) -> xr.Dataset:
    coords = {}
    coords.update(estimator_coords(specs))
    extra = {k: ("time", np.asarray(v.values)[positions]) for k, v in tcoords.items() if k != "instance"}
    coords.update(time_coords(positions + 1, extra))
    coords.update(lead.coords)
    attrs = base_attrs(
        title,
        every=params.pop("every"),
        **mechanism_attrs(specs),
        estimators=_ESTIMATOR_NOTE,
        n_instances=int(positions[-1] + 1),
        **params,
    )
    return xr.Dataset(data_vars, coords=coords, attrs=attrs)


def _metric_variables(lead, values, metrics, spec=None) -> dict:
    """The variables of registry ``metrics`` (and ``n_instances``) from ``values``, attrs from the registry, with
    their bands."""
    out = {}
    for m in metrics:
        out[m.name] = _variable(lead, values[m.name], **m.attrs())
        out.update(band_variables(lead, m, values, spec))
    out["n_instances"] = _variable(lead, values["n_instances"], **REGISTRY["n_instances"].attrs())
    return out


def _by_quantity(metrics, quantities) -> dict:
    """``{index of the quantity: [metrics reading it]}``."""
    return {q: [m for m in metrics if m.quantity == name] for q, name in enumerate(quantities)}


@forgetting_parameters()
@band_parameters
def loss_curves(
    loss,
    *,
    every=None,
    name="loss",
    long_name="mean loss",
    units="",
    lead_dims=None,
    interval=None,
    interval_method=None,
    replicates=None,
    block_length=None,
    seed=None,
    **forgetting,
) -> xr.Dataset:
    """Mean of a recorded per-instance loss under every estimator, in one pass.

    Parameters
    ----------
    loss : array-like or xarray.DataArray, shape ``(..., n)``
        Any finite real-valued per-instance loss (e.g. squared error, log-loss, a
        per-instance cost); leading dims (models, folds, runs) are kept. NaN marks
        an instance that was not evaluated and is skipped by every estimator (it
        occupies no window slot); it must then be NaN in every series.
    {forgetting}
    every : int, optional
        A checkpoint every ``every`` instances, and always at the last (default: see
        :func:`streamtk._core.mechanisms.default_every`). ADWIN windows are those of an ADWIN on
        this loss stream (MOA's ADWIN, clock 32, 5 buckets per row).
    name, long_name, units : str
        Name and attrs of the output variable.
    lead_dims : str or sequence of str, optional
        Names of the leading dims of a numpy ``loss``.
    {bands}
        Analytic bands and confidence sequences need losses in ``[0, 1]`` (analytic: 0 or 1).

    Returns
    -------
    xarray.Dataset
        ``<name>`` (the mean loss; NaN before the first evaluated instance) and
        ``n_instances`` on ``(*lead, "estimator", "time")``; with ``interval=`` the bands ``<name>_lower``,
        ``<name>_upper``.

    Notes
    -----
    Prequential ``sum_{s<=t} l_s / t``; window ``sum of the last min(t, w) / min(t, w)``;
    fading ``S_t / N_t``, ``S_t = l_t + alpha S_{t-1}``, ``N_t = 1 + alpha N_{t-1}``
    (Gama et al. 2013, Algorithms 1-3); ADWIN: Bifet et al. 2015, section 6.

    See Also
    --------
    streamtk.compare_losses : the Q statistic of two such loss streams.
    moa.evaluation.WindowRegressionPerformanceEvaluator, river.utils.Rolling, river.stats.EWMean.

    Examples
    --------
    >>> import numpy as np, streamtk.evaluation.losses as sl
    >>> ds = sl.loss_curves(np.array([1.0, 0.0, 2.0, 4.0]), windows=2, fading=0.5)
    >>> ds.loss.sel(estimator="window=2").values.tolist()
    [1.0, 0.5, 1.0, 3.0]
    >>> round(float(ds.loss.sel(estimator="fading=0.5")[-1]), 4)  # (4 + 1 + 0 + 0.125) / 1.875
    2.7333
    """
    if not isinstance(name, str) or not name.isidentifier() or name == "n_instances":
        raise ValueError(f"name must be an identifier other than 'n_instances', got {name!r}")
    x2, lead, tcoords = split_leading(loss, "loss", lead_dims=lead_dims)
    x2 = as_float_array(x2, "loss", allow_nan=True)
    specs = build_estimators(**forgetting)
    every = resolve_every(every, x2.shape[1])
    spec = check_interval(interval, interval_method, replicates, block_length, seed, n=x2.shape[1])
    present = _present_of_losses(x2, "loss")
    mean = REGISTRY["mean_loss"]
    positions, values = quantity_curves(x2[:, None, :], specs, every, {0: [mean]}, present, interval=spec)
    data = {
        name: _variable(
            lead, values["mean_loss"], long_name=long_name, units=units, formula=mean.formula, reference=mean.reference
        )
    }
    for var in band_variables(lead, mean, values, spec).values():
        side = var.attrs["side"]
        data[f"{name}_{side}"] = var.copy(data=var.data)
        data[f"{name}_{side}"].attrs.update(
            bound_of=name, long_name=f"{side} bound of the {spec.level:g} band of {long_name}"
        )
    data["n_instances"] = _variable(lead, values["n_instances"], **REGISTRY["n_instances"].attrs())
    extra = {} if spec is None else spec.attrs()
    return _dataset(data, lead, specs, positions, tcoords, "streamtk loss curves", every=every, loss=name, **extra)


_REGRESSION_LOSSES = {"squared": lambda e: e * e, "absolute": np.abs}


def regression_losses(y_true, y_pred, loss="squared"):
    """Per-instance losses of recorded regression predictions, for :func:`streamtk.compare_losses`.

    Parameters
    ----------
    y_true : array-like, shape ``(n,)``
        Recorded targets; NaN = no target (the loss is NaN there: not evaluated).
    y_pred : array-like or xarray.DataArray, shape ``(..., n)``
        Finite predictions; a DataArray keeps its dims and coordinates.
    loss : {"squared", "absolute"}
        ``(y - yhat)**2`` or ``|y - yhat|``.

    Returns
    -------
    numpy.ndarray or xarray.DataArray
        Losses of the shape of ``y_pred``.

    Examples
    --------
    >>> import streamtk.evaluation.losses as sl
    >>> sl.regression_losses([1.0, 2.0], [[0.0, 2.5], [1.0, 1.0]], loss="absolute").tolist()
    [[1.0, 0.5], [0.0, 1.0]]
    """
    check_choice(loss, "loss", tuple(_REGRESSION_LOSSES))
    yt = as_float_array(y_true, "y_true", allow_nan=True)
    if yt.ndim != 1:
        raise ValueError(f"y_true must be one-dimensional (n,), got shape {yt.shape}")
    if np.isinf(yt).any():
        raise ValueError(f"y_true contains an infinite value at index {int(np.isinf(yt).argmax())}")
    if isinstance(y_pred, xr.DataArray):
        yp = as_float_array(y_pred.values, "y_pred")
        if yp.shape[-1] != yt.shape[0]:
            raise ValueError(f"y_pred has {yp.shape[-1]} instances along its last axis but y_true has {yt.shape[0]}")
        return y_pred.copy(data=_REGRESSION_LOSSES[loss](yp - yt))
    yp = as_float_array(y_pred, "y_pred")
    if yp.shape[-1] != yt.shape[0]:
        raise ValueError(f"y_pred has {yp.shape[-1]} instances along its last axis but y_true has {yt.shape[0]}")
    return _REGRESSION_LOSSES[loss](yp - yt)


@forgetting_parameters()
@band_parameters
def resource_curves(
    seconds=None,
    memory=None,
    *,
    every=None,
    lead_dims=None,
    interval=None,
    interval_method=None,
    replicates=None,
    block_length=None,
    seed=None,
    **forgetting,
) -> xr.Dataset:
    """Throughput, model memory and RAM-Hours from recorded per-instance costs.

    Parameters
    ----------
    seconds : array-like or xarray.DataArray, shape ``(..., n)``, optional
        Processing time (test + train) of each instance in seconds (finite, >= 0).
    memory : array-like or xarray.DataArray, shape ``(..., n)``, optional
        Model size in bytes while processing each instance (finite, >= 0). At
        least one of ``seconds`` and ``memory`` must be given; both must have the
        same shape when both are given.
    {forgetting}
    every, lead_dims
        As in :func:`loss_curves`.
    {bands}
        Bands of ``throughput`` and ``memory`` by ``"bootstrap"`` or ``"block_bootstrap"`` (the totals
        ``seconds`` and ``ram_hours`` estimate nothing and get none).

    Returns
    -------
    xarray.Dataset
        On ``(*lead, "estimator", "time")``, for the instances held by each
        estimator:

        * ``throughput`` = instances / seconds (instances/s; ``inf`` if they took
          no time) and ``seconds`` (their total processing time), from ``seconds``;
        * ``memory``: mean model size (bytes; ``window=1`` is the recorded size);
        * ``ram_hours``: ``sum_s (memory_s / 1024**3) * (seconds_s / 3600)`` in
          GB-hours (prequential: the cumulative RAM-Hours), when both are given;
        * ``n_instances``.

    Notes
    -----
    A RAM-Hour is 1 GB (``1024**3`` bytes) of RAM deployed for one hour (Bifet,
    Holmes, Pfahringer & Frank 2010, *Fast perceptron decision tree learning from
    evolving data streams*, PAKDD; the cost measure of MOA's evaluation tasks; the
    seed Bifet et al. 2015 compares methods by the "resources consumed", Table 2).
    MOA multiplies the model
    size measured at each evaluation checkpoint by the time elapsed since the
    previous one; with per-instance records streamtk sums per instance instead
    (MOA's value is the special case of constant memory between checkpoints).

    See Also
    --------
    moa.tasks.EvaluatePrequential : reports "model cost (RAM-Hours)" and "evaluation time".

    Examples
    --------
    >>> import numpy as np, streamtk.evaluation.losses as sl
    >>> ds = sl.resource_curves(np.full(4, 0.5), np.full(4, 2.0 * 1024**3))
    >>> ds.throughput.values.ravel().tolist(), float(ds.ram_hours[0, -1]) * 3600
    ([2.0, 2.0, 2.0, 2.0], 4.0)
    """
    if seconds is None and memory is None:
        raise ValueError("resource_curves needs seconds=, memory= or both; got neither")
    parts = {}
    lead = tcoords = None
    for nm, val in (("seconds", seconds), ("memory", memory)):
        if val is None:
            continue
        a2, ld, tc = split_leading(val, nm, lead_dims=lead_dims)
        a2 = as_float_array(a2, nm)
        if (a2 < 0).any():
            raise ValueError(f"{nm} must be non-negative, got {float(a2.ravel()[np.argmax(a2.ravel() < 0)])!r}")
        if lead is not None and (ld.shape != lead.shape or a2.shape[1] != next(iter(parts.values())).shape[1]):
            raise ValueError(
                f"seconds and memory must have the same shape, got {lead.shape} and {ld.shape} leading dims"
            )
        parts[nm] = a2
        if lead is None:
            lead, tcoords = ld, tc
    specs = build_estimators(**forgetting)
    n = next(iter(parts.values())).shape[1]
    every = resolve_every(every, n)
    spec = check_interval(interval, interval_method, replicates, block_length, seed, n=n)
    if len(parts) == 2:
        parts["ram_hours"] = ram_hours(parts["memory"], parts["seconds"])
    given = {"seconds": "seconds" in parts, "memory": "memory" in parts, "seconds_and_memory": "ram_hours" in parts}
    metrics = [m for m in family("resources") if given[m.needs]]
    by_q = _by_quantity(metrics, tuple(parts))
    positions, values = quantity_curves(np.stack(list(parts.values()), axis=1), specs, every, by_q, interval=spec)
    data = _metric_variables(lead, values, metrics, spec)
    extra = {} if spec is None else spec.attrs()
    return _dataset(
        data, lead, specs, positions, tcoords, "streamtk resource curves", every=every, gb_bytes=GB, **extra
    )
