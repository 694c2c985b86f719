"""river's ``evaluate.iter_progressive_val_score`` output: :func:`from_river`."""

from __future__ import annotations

import datetime as _dt
import math
import warnings
from collections.abc import Mapping

import numpy as np
import xarray as xr

from ._classes import with_class_order
from .log import as_labels, make_log

__all__ = ["from_river"]


def from_river(steps, *, y_true, model="river", classes=None) -> xr.Dataset:
    """A log from ``river.evaluate.iter_progressive_val_score(..., step=1, yield_predictions=True)``.

    Parameters
    ----------
    steps : iterable of dict, or mapping model name -> iterable of dict
        The yielded dicts: ``Step`` (1, 2, ...), ``Prediction`` (a label, ``None`` when the
        model could not predict yet, or a ``{class: probability}`` dict when the metric
        needs probabilities), and, if measured, ``Time`` (cumulative ``timedelta``) and
        ``Memory`` (bytes).
    y_true : array-like
        The stream's labels (river does not yield them).
    model : str
        Model name when ``steps`` is one iterable.
    classes : sequence, optional
        Class order of the log and of its scores (default: every label of ``y_true``, the
        predictions and the probability dicts, sorted).

    Returns
    -------
    xarray.Dataset
        A log whose class order is the ``class`` coordinate and ``attrs["classes"]`` of
        ``y_true`` and ``y_pred``.

    Notes
    -----
    ``time_s`` is the difference of consecutive cumulative ``Time`` values, i.e. the time
    river spent between two reports (prediction, metric update and learning). From
    probability dicts, ``y_pred`` is what river's ``predict_one`` returns: the first class of
    highest probability in the dict's order. A ``None`` or ``{}`` prediction (river skips it
    in its metrics) stays missing. A probability dict holding a NaN has no argmax (river's
    ``max`` would return whichever class comes first): its prediction is missing and its scores
    are NaN, with a ``UserWarning`` counting such steps.

    See Also
    --------
    river.evaluate.iter_progressive_val_score : the producer of ``steps``.
    streamtk.recorders.record : records predictions, scores, time and memory directly.
    """
    runs = dict(steps) if isinstance(steps, Mapping) else {model: steps}
    yt = as_labels(y_true if hasattr(y_true, "__len__") else list(y_true), "y_true")
    n = len(yt)
    preds, probas, times, mems = [], [], [], []
    for name, it in runs.items():
        p, t, mem, prob = [], [], [], []
        for i, d in enumerate(it):
            if d.get("Step") != i + 1:
                raise ValueError(
                    f"river output for {name!r}: item {i} has Step={d.get('Step')!r}, expected {i + 1} "
                    "(run iter_progressive_val_score with step=1 and yield_predictions=True)"
                )
            if "Prediction" not in d:
                raise ValueError(f"river output for {name!r} has no 'Prediction': use yield_predictions=True")
            pr = d["Prediction"]
            prob.append(pr if isinstance(pr, Mapping) else None)
            p.append(pr)
            t.append(d["Time"].total_seconds() if isinstance(d.get("Time"), _dt.timedelta) else np.nan)
            mem.append(float(d["Memory"]) if d.get("Memory") is not None else np.nan)
        if len(p) != n:
            raise ValueError(f"river output for {name!r} has {len(p)} steps, y_true has {n} labels")
        preds.append(p)
        probas.append(prob)
        times.append(np.diff(np.asarray(t), prepend=0.0))
        mems.append(mem)
    if classes is None:
        seen = {v for v in yt.tolist() if v is not None and v == v}
        seen |= {v for p in preds for v in p if v is not None and not isinstance(v, Mapping) and v == v}
        seen |= {k for prob in probas for pr in prob if pr for k in pr}
        try:
            classes = sorted(seen)
        except TypeError:
            raise TypeError(
                f"the labels {sorted(map(repr, seen))} cannot be sorted: pass classes=[...] in the order you want"
            ) from None
    classes = list(classes)
    kw = {}
    if any(pr is not None for prob in probas for pr in prob):
        scores = np.full((len(runs), n, len(classes)), np.nan)
        for i, (name, prob) in enumerate(zip(runs, probas)):
            nan_steps = []
            for t_, pr in enumerate(prob):
                if not pr:  # None or {}: the model could not predict yet
                    preds[i][t_] = None
                    continue
                row = [float(pr.get(c, 0.0)) for c in classes]
                if any(math.isnan(v) for v in row) or any(math.isnan(float(v)) for v in pr.values()):
                    preds[i][t_] = None  # no argmax of NaN: no prediction, no scores
                    nan_steps.append(t_ + 1)
                    continue
                scores[i, t_] = row
                preds[i][t_] = max(pr, key=pr.get)  # river's predict_one
            if nan_steps:
                warnings.warn(
                    f"river output for {name!r} has NaN class probabilities at {len(nan_steps)} step(s) (Step "
                    f"{nan_steps[:5]}{' ...' if len(nan_steps) > 5 else ''}): those predictions are missing (no "
                    "prediction, NaN scores), not the argmax of NaN",
                    stacklevel=2,
                )
        kw = {"y_score": scores, "classes": classes}
    if not all(np.isnan(t).all() for t in times):
        kw["time_s"] = np.array(times)
    if not all(np.isnan(m).all() for m in mems):
        kw["memory_bytes"] = np.array(mems, dtype=np.float64)
    pred_arr = np.empty((len(preds), n), dtype=object)
    for i, p in enumerate(preds):
        pred_arr[i, :] = p
    log = make_log(yt, pred_arr, models=list(runs), attrs={"source_format": "river progressive validation"}, **kw)
    return with_class_order(log, classes) if classes else log
