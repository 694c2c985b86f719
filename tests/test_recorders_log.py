"""The recorder's log from class codes (streamtk.recorders._log) against the general path.

Oracle: ``with_class_order(make_log(label_array(y), label_array(pred), ...), classes)`` -- the way
the recorder built its log before, scanning every label as a Python object. The fast build must
give the identical Dataset (values, dtypes, coordinates, attributes, variable order) for every
kind of label, with and without missing values and scores, and for classes that never occur.
"""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st

from streamtk.io._classes import with_class_order
from streamtk.io.log import make_log
from streamtk.recorders._learners import ClassIndex
from streamtk.recorders._log import build_log, in_final_order, labels_from_codes, safe_attrs
from streamtk.recorders._sink import Chunk, MemorySink, label_array

LABEL_SETS = {
    "text unsorted": ["UP", "DOWN", "flat"],
    "text one": ["only"],
    "int": [3, -1, 7],
    "int beyond float64": [2**60, 1, 2],
    "uint64": [2**64 - 1, 0, 5],
    "float": [0.5, 2.25, -1.0],
    "int and float": [1, 2.5, 4],
    "bool": [True, False],
    "many text": [f"c{i:03d}" for i in (range(40))],
}


def _general_path(sink, index, names, meta, want_scores, seconds):
    """The recorder's former build: label objects through make_log and with_class_order."""
    y, pred, sc, tim, mem = sink.arrays(len(index))
    labels, y, pred, sc = in_final_order(index, y, pred, sc)  # the same class order on both sides
    kw = {"y_score": sc, "classes": labels} if want_scores and sc is not None else {}
    log = make_log(
        label_array(y, labels),
        label_array(pred, labels),
        models=names,
        time_s=tim,
        memory_bytes=mem,
        attrs={**safe_attrs(meta), "record_seconds": float(seconds), "recording": "complete"},
        **kw,
    )
    log.attrs["title"] = "streamtk log"
    return with_class_order(log, labels)


def _sink(y, pred, k, scores):
    m, n = pred.shape
    ch = Chunk(m, n, k, scores)
    ch.y[:] = y
    ch.pred[:] = pred
    ch.time[:] = np.linspace(0.0, 1.0, m * n).reshape(m, n)
    ch.mem[:] = 100.0
    if scores:
        ch.score[:] = np.random.default_rng(0).random(ch.score.shape)
    ch.n = n
    sink = MemorySink()
    sink.flush(ch, k)
    return sink


def _both(labels, y, pred, *, scores, fixed=True):
    index = ClassIndex(labels if fixed else None)
    if not fixed:
        for lab in labels:
            index.code(lab)
    names = [f"m{j}" for j in range(pred.shape[0])]
    meta = {"title": "streamtk log", "stream": "test"}
    k = len(labels)
    fast = build_log(_sink(y, pred, k, scores), index, names, meta, scores, 1.5, y.size)
    slow = _general_path(_sink(y, pred, k, scores), index, names, meta, scores, 1.5)
    fast.attrs["created"] = slow.attrs["created"]
    return fast, slow


def _assert_same(fast, slow):
    xr.testing.assert_identical(fast, slow)
    assert list(fast.data_vars) == list(slow.data_vars)
    assert set(fast.coords) == set(slow.coords)
    for var in ("y_true", "y_pred"):
        assert fast[var].dtype == slow[var].dtype, var
        assert [type(v) for v in fast[var].values.reshape(-1).tolist()] == [
            type(v) for v in slow[var].values.reshape(-1).tolist()
        ]


@pytest.mark.parametrize("kind", sorted(LABEL_SETS))
@pytest.mark.parametrize("missing", ["none", "pred", "both"])
@pytest.mark.parametrize("scores", [True, False])
def test_fast_log_equals_the_general_path(kind, missing, scores):
    labels = LABEL_SETS[kind]
    rng = np.random.default_rng(len(labels))
    k, n = len(labels), 57
    y = rng.integers(0, k, n).astype(np.int32)
    pred = rng.integers(0, k, (2, n)).astype(np.int32)
    if missing in ("pred", "both"):
        pred[0, 0] = pred[1, :5] = -1
    if missing == "both":
        y[[3, 9]] = -1
    fast, slow = _both(labels, y, pred, scores=scores)
    _assert_same(fast, slow)


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(sorted(LABEL_SETS)),
    data=st.data(),
    fixed=st.booleans(),
    scores=st.booleans(),
)
def test_fast_log_equals_the_general_path_for_any_codes(kind, data, fixed, scores):
    """Any codes: classes that never occur, all missing, one instance; declared or sorted class order."""
    labels = LABEL_SETS[kind]
    k = len(labels)
    n = data.draw(st.integers(1, 12))
    m = data.draw(st.integers(1, 3))
    codes = st.integers(-1, k - 1)
    y = np.array(data.draw(st.lists(codes, min_size=n, max_size=n)), dtype=np.int32)
    pred = np.array(data.draw(st.lists(codes, min_size=m * n, max_size=m * n)), dtype=np.int32).reshape(m, n)
    fast, slow = _both(labels, y, pred, scores=scores, fixed=fixed)
    _assert_same(fast, slow)


def test_labels_from_codes_refuses_what_the_general_path_refuses():
    """Labels that are not one kind of value are refused with the general path's own error."""
    labels = [(1, 2), (3, 4)]  # tuples: neither numbers nor text
    codes = np.array([0, 1, -1])
    with pytest.raises(TypeError) as fast:
        labels_from_codes(codes, labels, "y_pred")
    from streamtk.io.log import as_labels

    with pytest.raises(TypeError) as slow:
        as_labels(label_array(codes, labels), "y_pred")
    assert str(fast.value) == str(slow.value)


def test_record_seconds_and_order_of_an_unsortable_growing_index():
    index = ClassIndex()
    for lab in ["b", "a"]:
        index.code(lab)
    y = np.array([0, 1, 1], np.int32)
    pred = np.array([[-1, 0, 1]], np.int32)
    log = build_log(_sink(y, pred, 2, True), index, ["m"], {}, True, 1.0, 3)
    assert log["class"].values.tolist() == ["a", "b"]  # sorted: the index had them as first seen
    assert log.y_true.values.tolist() == ["b", "a", "a"]
    assert log.y_pred.values.tolist() == [[None, "b", "a"]]
    assert log.y_true.attrs["classes"] == ["a", "b"]
    fast, slow = _both(["b", "a"], y, pred, scores=True, fixed=False)
    _assert_same(fast, slow)
