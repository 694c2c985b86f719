"""capymoa's prequential results with stored predictions and labels: :func:`from_capymoa`."""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping

import numpy as np
import xarray as xr

from ._classes import with_class_order
from .log import LogFormatError, make_log

__all__ = ["from_capymoa"]


def _get(obj, *names):
    for name in names:
        if isinstance(obj, Mapping):
            if name in obj:
                return obj[name]
            continue
        val = getattr(obj, name, None)
        if val is not None:
            return val() if callable(val) else val
    return None


def _schema_labels(res):
    """The class labels of the result's stream schema (capymoa's ``PrequentialResults.stream``), if any."""
    stream = _get(res, "stream")
    schema = getattr(stream, "get_schema", None)
    if schema is None:
        return None
    try:
        return [str(v) for v in schema().get_label_values()]
    except Exception:  # noqa: BLE001 - a stream without a classification schema
        return None


def _indices(values, k, source, column):
    """capymoa class indices -> int64 codes (-1 missing); anything but an index in [0, k) is refused."""
    out = np.empty(len(values), dtype=np.int64)
    for i, v in enumerate(values):
        if v is None or (isinstance(v, float) and math.isnan(v)):
            out[i] = -1
            continue
        ok = isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))
        f = float(v) if ok else math.nan
        if not (ok and math.isfinite(f) and f == int(f) and 0 <= f and (k is None or f < k)):
            limit = f"0 to {k - 1}" if k is not None else "0 or more"
            err = LogFormatError(
                f"{source}, instance {i + 1}, column {column!r}: {v!r} is not a class index (an integer from {limit})"
            )
            err.path, err.line = source, i + 1
            raise err
        out[i] = int(f)
    return out


def from_capymoa(results, *, classes=None, model=None, y_score=None) -> xr.Dataset:
    """A log from capymoa prequential results that stored predictions and labels.

    Duck-typed: ``results`` is one result or a mapping ``name -> result``. A result is a
    mapping with ``y_true``/``y_pred`` (capymoa's ``evaluate_classifier(...,
    store_predictions=True, store_y=True)``) or ``ground_truth_y``/``predictions``, or an
    object whose ``ground_truth_y()``/``predictions()`` return them (``PrequentialResults``).
    capymoa stores class *indices*: they become labels through ``classes`` or, by default,
    the result's stream schema (``schema.get_label_values()``); without either they stay
    indices.

    Parameters
    ----------
    results : result or mapping name -> result
    classes : sequence or capymoa Schema, optional
        The class labels in capymoa's index order (code 0 first).
    model : str, optional
        Name of a single result (default: its learner's name).
    y_score : array-like ``(n, k)`` or mapping name -> array, optional
        Class scores in index order (e.g. ``learner.predict_proba`` recorded in your own
        loop; capymoa's evaluators do not store them); a result mapping may hold them as
        ``y_score`` instead. NaN rows: no scores.

    Returns
    -------
    xarray.Dataset
        A log whose class order is capymoa's index order (the ``class`` coordinate and
        ``attrs["classes"]`` of ``y_true`` and ``y_pred``).

    Raises
    ------
    LogFormatError
        A stored value that is not a class index (-1, 1.7, an index beyond the classes...):
        the message names the result, the instance (1-based, also ``err.line``) and the
        column (``predictions`` or ``ground_truth_y``).

    Notes
    -----
    A ``None`` prediction (the learner abstained) stays missing; capymoa's own evaluator
    counts it as class index 0. capymoa's Java loop (``optimise=True``) stores index 0
    itself, so such instances cannot be told apart afterwards: record with
    :func:`streamtk.recorders.record` to keep them.

    See Also
    --------
    capymoa.evaluation.prequential_evaluation : the producer of ``results``.
    streamtk.recorders.record : records predictions, scores, time and memory directly.
    """
    if isinstance(results, Mapping) and not any(k in results for k in ("y_true", "ground_truth_y", "y_pred")):
        items = list(results.items())
    else:
        name = model or _get(results, "learner", "_learner")
        items = [(name if isinstance(name, str) else "capymoa", results)]
    if classes is not None and hasattr(classes, "get_label_values"):
        classes = [str(v) for v in classes.get_label_values()]
    if classes is None:
        classes = next((c for c in (_schema_labels(r) for _, r in items) if c is not None), None)
    k = None if classes is None else len(list(classes))
    y_true, preds, names, scores = None, [], [], []
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
        source = f"capymoa result {str(name)!r}"
        ct = _indices(yt, k, source, "ground_truth_y")
        cp = _indices(yp, k, source, "predictions")
        if y_true is None:
            y_true = ct
        elif not np.array_equal(ct, y_true):
            raise ValueError(f"capymoa result {name!r} has other ground-truth labels than {names[0]!r}")
        preds.append(cp)
        names.append(str(name))
        sc = y_score.get(name) if isinstance(y_score, Mapping) else (y_score if len(items) == 1 else None)
        scores.append(_get(res, "y_score") if sc is None and isinstance(res, Mapping) else sc)
    n_seen = max([int(y_true.max(initial=-1))] + [int(p.max(initial=-1)) for p in preds]) + 1
    order = list(classes) if classes is not None else list(range(n_seen))
    table = np.array(order + [None], dtype=object)
    labels_true = table[np.where(y_true < 0, len(order), y_true)]
    labels_pred = np.stack([table[np.where(p < 0, len(order), p)] for p in preds])
    kw = {}
    if any(s is not None for s in scores):
        n = len(y_true)
        arr = np.full((len(names), n, len(order)), np.nan)
        for j, s in enumerate(scores):
            if s is None:
                continue
            s = np.asarray(s, dtype=np.float64)
            if s.shape != (n, len(order)):
                raise ValueError(f"y_score of {names[j]!r} must have shape ({n}, {len(order)}), got {s.shape}")
            arr[j] = s
        kw = {"y_score": arr, "classes": order}
    log = make_log(labels_true, labels_pred, models=names, attrs={"source_format": "capymoa prequential results"},
                   **kw)  # fmt: skip
    return with_class_order(log, order) if order else log
