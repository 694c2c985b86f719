"""The log a recording returns, built from the class codes of its buffers in O(n) array operations.

A recorder knows every label by its code in a class order it checked once, so the labels of
the log are a lookup of those codes in a small table -- not a scan of ``n`` Python objects.
:func:`build_log` gives exactly the Dataset of the general path
``with_class_order(make_log(label_array(y), label_array(pred), ...), classes)`` (the test
``test_fast_log_equals_the_general_path`` checks it for every kind of label): the table is
converted by the same rule (:func:`streamtk.io.log.as_labels`) as a full array would be,
and that rule depends only on which distinct values occur (their kinds, the integer range,
whether one is missing), which the table holds. On Electricity (45,312 instances, one model)
the general path took 0.08-0.2 s per call, 5-20% of the learners' own loop for MOA learners;
this one takes ~2 ms.
"""

from __future__ import annotations

import math

import numpy as np

from ._learners import ClassIndex

__all__ = ["build_log", "final_order", "in_final_order", "safe_attrs", "labels_from_codes"]


def final_order(classes: ClassIndex):
    """The class order of the log: the given/declared one, else the labels sorted (first seen if unsortable)."""
    if classes.fixed:
        return list(range(len(classes)))
    try:
        return sorted(range(len(classes)), key=lambda i: classes.labels[i])
    except TypeError:
        return list(range(len(classes)))


def in_final_order(index: ClassIndex, y, pred, sc):
    """``(labels, y, pred, sc)`` with the codes and score columns renumbered to :func:`final_order`."""
    k = len(index)
    order = final_order(index)
    written = index.log_labels
    labels = [written[i] for i in order]
    if order != list(range(k)):
        rank = np.empty(k, np.int32)
        rank[order] = np.arange(k, dtype=np.int32)
        y = np.where(y >= 0, rank[np.maximum(y, 0)], -1)
        pred = np.where(pred >= 0, rank[np.maximum(pred, 0)], -1)
        if sc is not None:
            sc = sc[:, :, order]
    return labels, y, pred, sc


def safe_attrs(attrs):
    from streamtk._labelled import netcdf_safe

    return {k: netcdf_safe(v) for k, v in attrs.items()}


def labels_from_codes(codes: np.ndarray, labels: list, name: str) -> np.ndarray:
    """Class codes (-1: missing) -> the label array :func:`streamtk.io.log.as_labels` makes of
    ``label_array(codes, labels)`` (object labels, None missing), without scanning ``n`` objects.

    Only the labels that occur (and None if a code is -1) are converted, as one small object
    array; the result is that table indexed by the codes.
    """
    from streamtk.io.log import as_labels

    k = len(labels)
    flat = np.asarray(codes, dtype=np.int64).reshape(-1)
    seen = np.bincount(flat + 1, minlength=k + 1) > 0  # slot 0: missing
    present = np.flatnonzero(seen[1:])
    table = np.empty(present.size + int(seen[0]), dtype=object)  # filled one by one: tuples stay single labels
    for i, c in enumerate(present.tolist()):
        table[i] = labels[c]
    if seen[0]:
        table[-1] = None
    conv = as_labels(table, name)
    slot = np.zeros(k + 1, dtype=np.intp)
    slot[present + 1] = np.arange(present.size)
    slot[0] = table.size - 1
    return conv[slot[flat + 1]].reshape(np.shape(codes))


def build_log(sink, index: ClassIndex, names, meta, want_scores, seconds, n_seen):
    """The in-memory log of a finished recording (see :func:`streamtk.recorders.record`, Returns)."""
    from streamtk.io._classes import attr_value
    from streamtk.io.log import as_labels, make_log

    k = len(index)
    arrays = sink.arrays(k)
    if arrays is None:
        raise ValueError("the stream yielded no instance: nothing to record")
    y, pred, sc, tim, mem = arrays
    labels, y, pred, sc = in_final_order(index, y, pred, sc)
    cls = as_labels(list(labels), "classes")
    if cls.ndim != 1 or len(set(cls.tolist())) != len(cls):
        raise ValueError(f"classes must be distinct labels, got {labels!r}")
    kw = {"classes": labels}
    if want_scores and sc is not None:
        kw["y_score"] = sc
    # the codes stand in for the labels while make_log lays the Dataset out (int64: nothing to scan)
    log = make_log(
        y.astype(np.int64),
        pred.astype(np.int64),
        models=names,
        time_s=tim,
        memory_bytes=mem,
        attrs={**safe_attrs(meta), "record_seconds": float(seconds), "recording": "complete"},
        **kw,
    )
    for var, codes in (("y_true", y), ("y_pred", pred)):
        log[var] = log[var].variable.copy(data=labels_from_codes(codes, labels, var))
    log.attrs["title"] = "streamtk log"
    if math.isfinite(seconds):
        log.attrs["record_seconds"] = float(seconds)
    # the class order on the Dataset and on both label arrays (streamtk.io._classes.with_class_order)
    log = log.assign_coords({"class": ("class", cls)})
    value = attr_value(cls)
    for var in ("y_true", "y_pred"):
        log[var].attrs["classes"] = value
    return log
