"""capymoa's prequential results with stored predictions and labels: :func:`from_capymoa`."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import xarray as xr

from .log import make_log

__all__ = ["from_capymoa"]


def _get(obj, *names):
    for name in names:
        if isinstance(obj, Mapping) and name in obj:
            return obj[name]
        val = getattr(obj, name, None) if not isinstance(obj, Mapping) else None
        if val is not None:
            return val() if callable(val) else val
    return None


def from_capymoa(results, *, classes=None, model=None) -> xr.Dataset:
    """A log from capymoa prequential results that stored predictions and labels.

    Duck-typed: ``results`` is one result or a mapping ``name -> result``. A result is a
    mapping with ``y_true``/``y_pred`` (capymoa's ``evaluate_classifier(...,
    store_predictions=True, store_y=True)``) or ``ground_truth_y``/``predictions``, or an
    object whose ``ground_truth_y()``/``predictions()`` return them (``PrequentialResults``).
    capymoa stores class *indices*; pass ``classes`` (e.g. ``schema.get_label_values()``)
    to get labels. A ``None`` prediction (the learner abstained) stays missing; capymoa's own
    evaluator counts it as a prediction of class index 0.

    See Also
    --------
    capymoa.evaluation.prequential_evaluation : the producer of ``results``.
    """
    if isinstance(results, Mapping) and not any(k in results for k in ("y_true", "ground_truth_y", "y_pred")):
        items = list(results.items())
    else:
        name = model or _get(results, "learner", "_learner")
        items = [(name if isinstance(name, str) else "capymoa", results)]
    y_true, preds, names = None, [], []
    for name, res in items:
        yt = _get(res, "y_true", "ground_truth_y")
        yp = _get(res, "y_pred", "predictions")
        if yt is None or yp is None:
            raise ValueError(
                f"capymoa result {name!r} holds no stored labels/predictions: run the evaluation with "
                "store_y=True and store_predictions=True"
            )
        yt, yp = list(yt), list(yp)
        if len(yp) != len(yt):
            raise ValueError(f"capymoa result {name!r}: {len(yp)} predictions for {len(yt)} labels")
        if y_true is None:
            y_true = yt
        elif yt != y_true:
            raise ValueError(f"capymoa result {name!r} has other ground-truth labels than {names[0]!r}")
        preds.append(yp)
        names.append(str(name))
    if classes is not None:
        cls = list(classes)
        y_true = [None if v is None else cls[int(v)] for v in y_true]
        preds = [[None if v is None else cls[int(v)] for v in p] for p in preds]
    return make_log(np.array(y_true, dtype=object), np.array(preds, dtype=object), models=names, classes=classes,
                    attrs={"source_format": "capymoa prequential results"})  # fmt: skip
