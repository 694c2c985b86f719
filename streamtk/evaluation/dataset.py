"""The labelled Dataset of an evaluation (:func:`streamtk.evaluate`, :class:`streamtk.Evaluator`, holdout)."""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.mechanisms import estimator_coords, mechanism_attrs
from .._core.metrics import REGISTRY
from .._labelled import LeadingDims, band_variables, base_attrs, time_coords
from .plan import EvaluationPlan

__all__ = ["build_dataset"]

_SEMANTICS = (
    "streamtk: an instance is evaluated for a model when its label and the model's prediction are present and its "
    "weight is > 0; other instances occupy no window slot; weighted sums are divided by the weight total; Majority "
    "Class = argmax of the true-class weights held by the estimator before t (ties to the lowest class), Persistent "
    "= last present label before t; both predict the first class before any label is seen; a sum over no member is 0."
)
_MOA_SEMANTICS = (
    "moa: MOA's Basic/Window/FadingFactor/Adwin ClassificationPerformanceEvaluator for accuracy, kappa, kappa_m and "
    "kappa_per (sums divided by instance counts; weight-0 instances feed only the baselines; majority includes the "
    "current label; previous label starts at class 0; a missing prediction is class index 0; IEEE inf/NaN; kappas 0 "
    "before anything is observed)."
)


def _class_coord(classes: np.ndarray) -> np.ndarray:
    if classes.dtype == object:
        return np.array([str(c) for c in classes.tolist()])
    return classes


def _variable(lead: LeadingDims, name: str, arr: np.ndarray) -> xr.Variable:
    """A metric's ``(L, E, C[, k])`` array as a Variable on ``(*lead, estimator, time[, class])``."""
    dims = lead.names + ("estimator", "time") + (("class",) if arr.ndim == 4 else ())
    return xr.Variable(dims, lead.reshape(arr), attrs=REGISTRY[name].attrs())


def build_dataset(
    plan: EvaluationPlan, lead, positions, values, *, n_seen, weighted, time_extra=None, title=None, extra_attrs=None
) -> xr.Dataset:
    coords = {}
    coords.update(estimator_coords(plan.specs))
    coords.update(time_coords(positions + 1, time_extra))
    coords.update(lead.coords)
    coords["class"] = ("class", _class_coord(plan.encoding.classes))
    data_vars = {}
    for m in plan.metrics:
        if m.name in values:
            data_vars[m.name] = _variable(lead, m.name, values[m.name])
            data_vars.update(band_variables(lead, m, values, plan.interval))
    attrs = base_attrs(
        title or "streamtk evaluation curves",
        convention=plan.convention,
        semantics=_MOA_SEMANTICS if plan.moa else _SEMANTICS,
        every=plan.every,
        estimators=[s.label for s in plan.specs],
        **mechanism_attrs(plan.specs),
        adwin_options=str(plan.adwin_options),
        metrics=[m.name for m in plan.metrics],
        pos_label=str(plan.encoding.classes[plan.pos]) if plan.k >= 2 else "None",
        n_instances=n_seen,
        weighted=int(bool(weighted)),
        cost="per-instance"
        if (plan.cost is not None and plan.cost.ndim == 3)
        else (plan.cost.tolist() if plan.cost is not None else "None"),
    )
    if plan.interval is not None:
        attrs.update(plan.interval.attrs())
        attrs["interval_skipped"] = list(plan.interval_skipped) or "none"
    if extra_attrs:
        attrs.update(extra_attrs)
    return xr.Dataset(data_vars, coords=coords, attrs=attrs)
