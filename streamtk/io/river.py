"""river's ``evaluate.iter_progressive_val_score`` output: :func:`from_river`."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping

import numpy as np
import xarray as xr

from .log import _as_labels, make_log

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
        Class order of the scores (default: sorted keys of the probability dicts).

    Notes
    -----
    ``time_s`` is the difference of consecutive cumulative ``Time`` values, i.e. the time
    river spent between two reports (prediction, metric update and learning). From
    probability dicts, ``y_pred`` is the class of highest probability, the first in class
    order on ties (river's ``predict_one`` breaks ties by dict order). A ``None`` or ``{}``
    prediction (river skips it in its metrics) stays missing: give such instances weight 0
    to reproduce river's numbers.

    See Also
    --------
    river.evaluate.iter_progressive_val_score : the producer of ``steps``.
    """
    runs = dict(steps) if isinstance(steps, Mapping) else {model: steps}
    yt = _as_labels(y_true if hasattr(y_true, "__len__") else list(y_true), "y_true")
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
    kw = {}
    if any(pr is not None for prob in probas for pr in prob):
        if classes is None:
            classes = sorted({k for prob in probas for pr in prob if pr for k in pr})
        classes = list(classes)
        scores = np.full((len(runs), n, len(classes)), np.nan)
        for i, prob in enumerate(probas):
            for t_, pr in enumerate(prob):
                if not pr:  # None or {}: the model could not predict yet
                    preds[i][t_] = None
                    continue
                scores[i, t_] = [float(pr.get(c, 0.0)) for c in classes]
                preds[i][t_] = classes[int(np.argmax(scores[i, t_]))]
        kw = {"y_score": scores, "classes": classes}
    if not all(np.isnan(t).all() for t in times):
        kw["time_s"] = np.array(times)
    if not all(np.isnan(m).all() for m in mems):
        kw["memory_bytes"] = np.array(mems, dtype=np.float64)
    return make_log(
        yt,
        np.array(preds, dtype=object),
        models=list(runs),
        attrs={"source_format": "river progressive validation"},
        **kw,
    )
