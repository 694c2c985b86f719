"""The recorder's Python loop (spans of instances buffered in lists) against a per-instance reference.

Oracle: the log a plain instance-by-instance loop gives for scripted learners -- each instance's
prediction and class scores are drawn in advance (scores: none, or a mapping over any subset of
the classes, including classes no label has shown yet), so the expected ``y_pred`` and
``y_score`` are known exactly for any chunk size, number of models, missing labels, declared or
growing class order, and memory schedule.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from streamtk.recorders import record

POOL = ["d", "b", "a", "c"]


class Scripted:
    """Answers instance ``t`` (the feature ``t``) with ``script[t] = (prediction, scores)``; keeps what it learns."""

    def __init__(self, script):
        self.script = script
        self.learned = []

    def predict(self, x):
        return self.script[int(x["t"])][0]

    def predict_proba(self, x):
        return self.script[int(x["t"])][1]

    def learn(self, x, y):
        self.learned.append((int(x["t"]), y))


label = st.sampled_from(POOL + [None])
answer = st.tuples(
    label,
    st.one_of(st.none(), st.dictionaries(st.sampled_from(POOL), st.floats(0.0, 1.0), min_size=1)),
)


@settings(max_examples=80, deadline=None)
@given(
    data=st.data(),
    n=st.integers(1, 40),
    m=st.integers(1, 3),
    chunk=st.integers(1, 9),
    every=st.one_of(st.none(), st.integers(1, 12)),
    declared=st.booleans(),
)
def test_span_loop_equals_an_instance_by_instance_reference(data, n, m, chunk, every, declared):
    ys = data.draw(st.lists(label, min_size=n, max_size=n))
    scripts = [data.draw(st.lists(answer, min_size=n, max_size=n)) for _ in range(m)]
    models = {f"m{j}": Scripted(s) for j, s in enumerate(scripts)}
    pairs = [({"t": float(t)}, y) for t, y in enumerate(ys)]
    met = {v for v in ys if v is not None}
    for s in scripts:
        for pred, scores in s:
            met |= {pred} - {None}
            met |= set(scores or ())
    if not met:
        return
    classes = POOL if declared else sorted(met)
    log = record(models, iter(pairs), classes=POOL if declared else None, chunk=chunk, memory_every=every)

    assert log["class"].values.tolist() == classes
    assert log.y_true.values.tolist() == ys
    for j, (name, model) in enumerate(models.items()):
        s = scripts[j]
        assert log.y_pred.sel(model=name).values.tolist() == [p for p, _ in s]
        expect = np.array([[np.nan] * len(classes) if sc is None else [sc.get(c, 0.0) for c in classes] for _, sc in s])
        np.testing.assert_array_equal(log.y_score.sel(model=name).values, expect)
        assert model.learned == [(t, y) for t, y in enumerate(ys) if y is not None]
        times = log.time_s.sel(model=name).values
        assert (times >= 0).all() and np.isfinite(times).all()
        mem = log.memory_bytes.sel(model=name).values
        if every is None:
            assert np.isnan(mem).all()
        else:
            measured = {0, n - 1} | {t - 1 for t in range(every, n + 1, every)}
            assert np.isfinite(mem).all()
            for t in range(1, n):
                if t not in measured:
                    assert mem[t] == mem[t - 1]


def test_a_score_label_outside_declared_classes_is_refused_by_name():
    script = [("a", None), ("a", {"a": 0.5, "zz": 0.5})]
    pairs = [({"t": 0.0}, "a"), ({"t": 1.0}, "b")]
    with pytest.raises(ValueError, match="a predicted class 'zz' is not in classes"):
        record(Scripted(script), iter(pairs), classes=["a", "b"], memory_every=None)


def test_array_mapping_and_missing_scores_in_one_span():
    """The general conversion (not only mappings): arrays shorter than the classes, mappings, None."""

    class Mixed(Scripted):
        def predict_proba(self, x):
            sc = self.script[int(x["t"])][1]
            return np.array(sc) if isinstance(sc, list) else sc

    script = [(None, None), ("b", [0.25, 0.75]), ("c", {"c": 1.0}), ("a", [1.0]), ("b", None)]
    pairs = [({"t": float(t)}, y) for t, y in enumerate(["a", "b", "c", "a", "b"])]
    log = record(Mixed(script), iter(pairs), classes=["a", "b", "c"], memory_every=None, chunk=4)
    expect = [[np.nan] * 3, [0.25, 0.75, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [np.nan] * 3]
    np.testing.assert_array_equal(log.y_score.values[0], expect)
