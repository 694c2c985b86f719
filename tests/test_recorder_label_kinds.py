"""A model predicting True/False on a 0/1 stream is recorded as river evaluates it (issue 35, item 8).

river's binary models predict ``True``/``False`` whatever the labels are; ``0 == False``, so river's
own metrics count those predictions against 0/1 labels. A recording keeps the stream's labels and
codes the predictions to them, whichever comes first; text beside numbers is refused at once.
"""

from __future__ import annotations

import numpy as np
import pytest

import streamtk
from streamtk.recorders import record

river = pytest.importorskip("river")


def _xy(n=300, first=1, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0).astype(int)
    y[0] = first
    return X, y


@pytest.mark.parametrize("first", [1, 0])
def test_river_binary_model_on_int_labels_matches_river_own_loop(first):
    from river import evaluate, linear_model, metrics, stream

    X, y = _xy(first=first)
    log = record({"LR": linear_model.LogisticRegression()}, stream.iter_array(X, y))
    assert log["class"].values.tolist() == [0, 1]
    assert log.y_true.dtype.kind == "i" and log.y_pred.dtype.kind in "if"
    ours = streamtk.evaluate(log, metrics=["accuracy"]).accuracy.isel(time=-1).item()
    theirs = evaluate.progressive_val_score(
        stream.iter_array(X, y), linear_model.LogisticRegression(), metrics.Accuracy()
    )
    assert ours == pytest.approx(theirs.get(), abs=1e-12)


def test_bool_stream_keeps_bool_labels_when_a_model_predicts_ints():
    class Ints:
        def predict(self, x):
            return 1

        def learn(self, x, y):
            pass

    X, y = _xy()
    log = record({"ints": Ints()}, _pairs(X, y.astype(bool)))
    assert log["class"].values.tolist() == [False, True]
    assert log.y_pred.values[0, :3].tolist() == [True, True, True]


def _pairs(X, y):
    """(x, y) pairs of Python values (an iterable stream: the class order is not declared)."""
    return [({"a": float(a)}, b) for a, b in zip(X[:, 0], y.tolist())]


def test_text_predictions_on_number_labels_are_refused_at_once():
    class Texts:
        calls = 0

        def predict(self, x):
            return "up"

        def learn(self, x, y):
            Texts.calls += 1

    X, y = _xy(n=2000)
    with pytest.raises(
        TypeError, match=r"a predicted class 'up' \(str\) is not of the kind of the classes met so far \[1\]"
    ):
        record({"texts": Texts()}, _pairs(X, y))
    assert Texts.calls == 0  # refused on the first instance, not after the run
