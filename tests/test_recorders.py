"""streamtk.recorders.record against hand-written test-then-train loops and the libraries' own loops.

Oracles: a slow reference loop per library written here (predict, then learn, instance by
instance), river's ``progressive_val_score``, capymoa's ``prequential_evaluation`` (MOA's Java
loop), and the identity "the Java loop equals the Python loop" for MOA learners.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import streamtk.recorders.recorder as recmod
from streamtk.io import open_dataset
from streamtk.recorders import record

from ._moa import import_capymoa


class Echo:
    """Predicts the last label it learned, scores it 0.75 (other classes share the rest)."""

    def __init__(self, classes):
        self.classes = list(classes)
        self.prev = None
        self.n_learned = 0

    def predict(self, x):
        return self.prev

    def predict_proba(self, x):
        if self.prev is None:
            return None
        rest = 0.25 / max(len(self.classes) - 1, 1)
        return {c: (0.75 if c == self.prev else rest) for c in self.classes}

    def learn(self, x, y):
        self.prev = y
        self.n_learned += 1


def _river_reference(model, pairs, classes):
    """predict_proba_one -> (predict_one's label, score row), then learn_one."""
    preds, scores = [], []
    for x, y in pairs:
        proba = model.predict_proba_one(x)
        preds.append(max(proba, key=proba.get) if proba else None)
        scores.append([proba.get(c, 0.0) for c in classes] if proba else [np.nan] * len(classes))
        model.learn_one(x, y)
    return preds, np.array(scores)


def _sea(n, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.uniform(0, 10, size=(n, 3))
    y = np.where(X[:, 0] + X[:, 1] > 9.0, "yes", "no")
    flip = rng.random(n) < 0.1
    y[flip] = np.where(y[flip] == "yes", "no", "yes")
    return X, y


# ----------------------------------------------------------------------------- river
def _river():
    pytest.importorskip("river", reason="river is in the test extra")
    import river.evaluate
    import river.metrics
    import river.naive_bayes
    import river.tree

    return river


def test_river_predictions_and_scores_equal_a_reference_loop():
    river = _river()
    X, y = _sea(600)
    names = ["a", "b", "c"]
    pairs = [(dict(zip(names, row)), lab) for row, lab in zip(X.tolist(), y.tolist())]
    log = record(
        {"HT": river.tree.HoeffdingTreeClassifier(grace_period=50), "NB": river.naive_bayes.GaussianNB()},
        pairs,
        classes=["yes", "no"],
    )
    assert log["class"].values.tolist() == ["yes", "no"]
    for name, model in (
        ("HT", river.tree.HoeffdingTreeClassifier(grace_period=50)),
        ("NB", river.naive_bayes.GaussianNB()),
    ):
        preds, scores = _river_reference(model, pairs, ["yes", "no"])
        assert log.y_pred.sel(model=name).values.tolist() == preds
        np.testing.assert_array_equal(log.y_score.sel(model=name).values, scores)
    assert log.y_pred.values[:, 0].tolist() == [None, None]  # river cannot predict before learning


def test_river_accuracy_equals_progressive_val_score():
    river = _river()
    X, y = _sea(800, seed=5)
    pairs = [(dict(enumerate(row)), lab) for row, lab in zip(X.tolist(), y.tolist())]
    acc = river.evaluate.progressive_val_score(pairs, river.tree.HoeffdingTreeClassifier(), river.metrics.Accuracy())
    log = record(river.tree.HoeffdingTreeClassifier(), pairs)
    yp = log.y_pred.values[0]
    ok = np.array([p is not None for p in yp])  # river skips a missing prediction in its metrics
    assert np.mean(yp[ok] == log.y_true.values[ok]) == pytest.approx(acc.get(), abs=1e-15)


def test_river_override_of_predict_one_is_used():
    river = _river()

    class Contrarian(river.naive_bayes.GaussianNB):
        def predict_one(self, x, **kw):
            proba = self.predict_proba_one(x)
            return min(proba, key=proba.get) if proba else None

    X, y = _sea(200)
    pairs = [(dict(enumerate(r)), lab) for r, lab in zip(X.tolist(), y.tolist())]
    log = record(Contrarian(), pairs, classes=["no", "yes"])
    ref = Contrarian()
    expect = []
    for x, lab in pairs:
        expect.append(ref.predict_one(x))
        ref.learn_one(x, lab)
    assert log.y_pred.values[0].tolist() == expect


# ----------------------------------------------------------------------------- capymoa / MOA
@pytest.fixture(scope="module")
def elec_arff(data_dir):
    path = data_dir / "elec2" / "elecNormNew.arff"
    if not path.is_file():
        pytest.skip(reason=f"{path} not found")
    return path


def test_moa_java_loop_equals_moa_and_the_python_loop(elec_arff, monkeypatch):
    import_capymoa()
    from capymoa.classifier import HoeffdingTree, NaiveBayes
    from capymoa.evaluation import prequential_evaluation
    from capymoa.stream import stream_from_file

    n = 3000
    stream = stream_from_file(str(elec_arff))
    schema = stream.get_schema()
    fast = record({"HT": HoeffdingTree(schema=schema), "NB": NaiveBayes(schema=schema)}, stream, max_instances=n)
    assert "Java" in fast.attrs["loop"]
    monkeypatch.setattr(recmod, "_java_runner", lambda *a: None)
    slow = record({"HT": HoeffdingTree(schema=schema), "NB": NaiveBayes(schema=schema)}, stream, max_instances=n)
    assert slow.attrs["loop"] == "Python loop"
    for var in ("y_true", "y_pred", "y_score"):
        np.testing.assert_array_equal(fast[var].values, slow[var].values)
    assert fast["class"].values.tolist() == ["UP", "DOWN"]  # the ARFF's declared order, not sorted
    for name, cls in (("HT", HoeffdingTree), ("NB", NaiveBayes)):
        res = prequential_evaluation(stream, cls(schema=schema), max_instances=n, store_predictions=True,
                                     store_y=True)  # fmt: skip
        yp = fast.y_pred.sel(model=name).values
        codes = np.array([0 if p is None else ["UP", "DOWN"].index(p) for p in yp])  # MOA: None counts as index 0
        np.testing.assert_array_equal(codes, res.predictions())
        truth = np.array([["UP", "DOWN"].index(v) for v in fast.y_true.values])
        np.testing.assert_array_equal(truth, res.ground_truth_y())
        assert 100 * np.mean(codes == truth) == pytest.approx(res.cumulative.accuracy(), abs=1e-12)


def test_moa_scores_equal_capymoa_predict_proba(elec_arff):
    import_capymoa()
    from capymoa.classifier import NaiveBayes
    from capymoa.stream import stream_from_file

    stream = stream_from_file(str(elec_arff))
    log = record(NaiveBayes(schema=stream.get_schema()), stream, max_instances=500)
    ref = NaiveBayes(schema=stream.get_schema())
    stream.restart()
    rows = []
    for _ in range(500):
        inst = stream.next_instance()
        p = ref.predict_proba(inst)
        rows.append([np.nan, np.nan] if p is None else p)
        ref.train(inst)
    np.testing.assert_allclose(log.y_score.values[0], np.array(rows), rtol=0, atol=1e-15)


def test_moa_learner_on_arrays_and_river_model_side_by_side(elec_arff):
    import_capymoa()
    river = _river()
    from capymoa.classifier import HoeffdingTree
    from capymoa.stream import stream_from_file

    schema = stream_from_file(str(elec_arff)).get_schema()
    mixed = record({"HT": HoeffdingTree(schema=schema), "GNB": river.naive_bayes.GaussianNB()}, elec_arff,
                   max_instances=1500)  # fmt: skip
    alone = record({"HT": HoeffdingTree(schema=schema)}, stream_from_file(str(elec_arff)), max_instances=1500)
    np.testing.assert_array_equal(mixed.y_pred.sel(model="HT").values, alone.y_pred.sel(model="HT").values)
    np.testing.assert_array_equal(mixed.y_score.sel(model="HT").values, alone.y_score.sel(model="HT").values)


# ----------------------------------------------------------------------------- scikit-learn, generic
def test_sklearn_partial_fit_equals_a_reference_loop():
    sk = pytest.importorskip("sklearn.linear_model", reason="scikit-learn is installed with capymoa")
    X, y = _sea(300)
    log = record({"sgd": sk.SGDClassifier(loss="log_loss", random_state=0)}, (X, y), classes=["yes", "no"])
    ref = sk.SGDClassifier(loss="log_loss", random_state=0)
    preds, scores = [None], [[np.nan, np.nan]]
    ref.partial_fit(X[:1], y[:1], classes=np.array(["yes", "no"]))
    for i in range(1, len(y)):
        p = ref.predict_proba(X[i : i + 1])[0]
        order = [list(ref.classes_).index(c) for c in ("yes", "no")]
        scores.append(p[order])
        preds.append(ref.classes_[int(np.argmax(p))])
        ref.partial_fit(X[i : i + 1], y[i : i + 1])
    assert log.y_pred.values[0].tolist() == preds
    np.testing.assert_array_equal(log.y_score.values[0], np.array(scores))


def test_sklearn_needs_classes_for_an_undeclared_stream():
    sk = pytest.importorskip("sklearn.linear_model", reason="scikit-learn is installed with capymoa")
    with pytest.raises(ValueError, match="classes="):
        record(sk.SGDClassifier(), iter([({"a": 1.0}, 0)]))


def test_generic_learner_missing_labels_are_predicted_not_learned():
    X = np.zeros((6, 2))
    y = np.array(["b", None, "a", "a", None, "c"], dtype=object)
    model = Echo(["c", "b", "a"])
    log = record({"echo": model}, (X, y), classes=["c", "b", "a"], memory_every=None)
    assert model.n_learned == 4
    assert log.y_true.values.tolist() == ["b", None, "a", "a", None, "c"]
    assert log.y_pred.values[0].tolist() == [None, "b", "b", "a", "a", "a"]
    assert log["class"].values.tolist() == ["c", "b", "a"]
    assert log.y_true.attrs["classes"] == ["c", "b", "a"] == log.y_pred.attrs["classes"]
    np.testing.assert_array_equal(log.y_score.values[0, 1], [0.125, 0.75, 0.125])
    assert np.isnan(log.y_score.values[0, 0]).all()


@settings(max_examples=30, deadline=None)
@given(
    labels=st.lists(st.sampled_from(["q", "b", "zz", None, "a"]), min_size=1, max_size=60),
    chunk=st.integers(1, 9),
)
def test_any_label_stream_any_chunk_size_matches_the_reference(labels, chunk):
    X = np.arange(len(labels), dtype=float)[:, None]
    y = np.array(labels, dtype=object)
    present = sorted({v for v in labels if v is not None})
    if not present:
        return
    log = record(Echo(present), (X, y), chunk=chunk, memory_every=None)
    prev, expect = None, []
    for v in labels:
        expect.append(prev)
        if v is not None:
            prev = v
    assert log.y_pred.values[0].tolist() == expect
    assert log["class"].values.tolist() == present  # default class order: the labels sorted
    assert log.sizes["time"] == len(labels)


def test_iterable_with_unknown_classes_gets_sorted_order_and_many_classes():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 40, size=400) * 3  # 40 classes, first seen in random order
    pairs = [({"x": float(i)}, int(v)) for i, v in enumerate(y)]
    model = Echo(sorted(set(y.tolist())))
    log = record(model, iter(pairs), memory_every=None)
    assert log["class"].values.tolist() == sorted(set(y.tolist()))
    got = log.y_score.values[0]
    for t in range(1, 400):
        j = log["class"].values.tolist().index(int(y[t - 1]))
        assert got[t, j] == 0.75 and math.isclose(got[t].sum(), 1.0)


# ----------------------------------------------------------------------------- streams
def test_arff_file_dataset_and_arrays_give_the_same_log(data_dir, elec_arff):
    river = _river()
    from streamtk import datasets

    st_ = datasets.load("electricity_arff", path=data_dir)
    a = record(river.naive_bayes.GaussianNB(), elec_arff, max_instances=700, memory_every=None)
    b = record(river.naive_bayes.GaussianNB(), st_, max_instances=700, memory_every=None)
    c = record(river.naive_bayes.GaussianNB(), (st_.X[:700], st_.y[:700]), classes=["UP", "DOWN"],
               memory_every=None)  # fmt: skip
    for other in (b, c):
        np.testing.assert_array_equal(a.y_pred.values, other.y_pred.values)
        np.testing.assert_array_equal(a.y_score.values, other.y_score.values)
        assert other["class"].values.tolist() == ["UP", "DOWN"]


def test_pandas_inputs():
    pd = pytest.importorskip("pandas", reason="pandas is in the test extra")
    X, y = _sea(50)
    frame = pd.DataFrame(X, columns=["u", "v", "w"])
    seen = []

    class Spy(Echo):
        def learn(self, x, y):
            seen.append(x)
            super().learn(x, y)

    record(Spy(["no", "yes"]), (frame, pd.Series(y)), memory_every=None)
    np.testing.assert_array_equal(np.array(seen), X)


# ----------------------------------------------------------------------------- resources, progress, zarr
def test_time_and_memory_are_recorded_as_documented():
    X = np.zeros((25, 1))
    y = np.array(["a", "b"] * 12 + ["a"])
    log = record(Echo(["a", "b"]), (X, y), memory_every=10)
    t = log.time_s.values[0]
    assert (t >= 0).all() and np.isfinite(t).all()
    mem = log.memory_bytes.values[0]
    assert np.isfinite(mem).all() and log.memory_bytes.attrs["units"] == "bytes"
    # a step function: measured at instances 1, 10, 20 and 25 (the last)
    assert np.unique(mem[1:10]).size == 1 and np.unique(mem[10:20]).size == 1


def test_progress_bar_on_request(capsys):
    pytest.importorskip("tqdm", reason="tqdm is in the test extra")
    record(Echo(["a", "b"]), (np.zeros((5, 1)), ["a", "b", "a", "b", "a"]), progress=True)
    assert "record" in capsys.readouterr().err


def test_zarr_out_equals_memory_and_marks_completion(tmp_path):
    pytest.importorskip("zarr", reason="zarr is in the test extra")
    X = np.zeros((23, 1))
    y = np.array(["a", "b", None] * 7 + ["b", "a"], dtype=object)
    mem = record(Echo(["a", "b"]), (X, y), classes=["b", "a"], memory_every=5)
    lazy = record(Echo(["a", "b"]), (X, y), classes=["b", "a"], memory_every=5, out=tmp_path / "r.zarr", chunk=4)
    assert lazy.attrs["recording"] == "complete" and lazy.attrs["n_instances"] == 23
    back = open_dataset(tmp_path / "r.zarr")
    for var in ("y_true", "y_pred", "y_score", "memory_bytes"):
        np.testing.assert_array_equal(back[var].values, mem[var].values)
    assert back["class"].values.tolist() == ["b", "a"]
    assert back.y_pred.attrs["classes"] == ["b", "a"]
    with pytest.raises(FileExistsError, match="overwrite=True"):
        record(Echo(["a", "b"]), (X, y), classes=["b", "a"], out=tmp_path / "r.zarr")


def test_zarr_out_interrupted_run_is_marked_incomplete_and_consistent(tmp_path):
    pytest.importorskip("zarr", reason="zarr is in the test extra")

    class Breaks(Echo):
        def learn(self, x, y):
            if self.n_learned == 17:
                raise RuntimeError("boom")
            super().learn(x, y)

    X = np.zeros((40, 1))
    y = np.array(["a", "b"] * 20)
    with pytest.raises(RuntimeError, match="boom"):
        record(Breaks(["a", "b"]), (X, y), out=tmp_path / "r.zarr", chunk=5)
    back = open_dataset(tmp_path / "r.zarr")
    assert back.attrs["recording"] == "incomplete" and back.attrs["n_instances"] == 15
    assert {back[v].sizes["time"] for v in ("y_true", "y_pred", "y_score", "time_s")} == {15}


def test_zarr_overwrite_keeps_the_old_store_until_the_new_one_is_complete(tmp_path):
    pytest.importorskip("zarr", reason="zarr is in the test extra")
    X, y = np.zeros((8, 1)), np.array(["a", "b"] * 4)
    record(Echo(["a", "b"]), (X, y), out=tmp_path / "r.zarr")

    class Breaks(Echo):
        def learn(self, x, y):
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        record(Breaks(["a", "b"]), (X, y), out=tmp_path / "r.zarr", overwrite=True, chunk=2)
    assert open_dataset(tmp_path / "r.zarr").attrs["recording"] == "complete"
    record(Echo(["a", "b"]), (X[:5], y[:5]), out=tmp_path / "r.zarr", overwrite=True)
    assert open_dataset(tmp_path / "r.zarr").sizes["time"] == 5


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"models": object()}, TypeError, "not a learner"),
        ({"models": {}}, ValueError, "models is empty"),
        ({"stream": 42}, TypeError, "stream must be"),
        ({"stream": "run.csv"}, ValueError, "only ARFF"),
        ({"stream": "missing.arff"}, FileNotFoundError, "missing.arff"),
        ({"max_instances": 0}, ValueError, "max_instances must be an integer >= 1, got 0"),
        ({"memory_every": -5}, ValueError, "memory_every must be"),
        ({"chunk": 2.5}, ValueError, "chunk must be"),
        ({"classes": "ab"}, TypeError, "classes must be a sequence"),
        ({"classes": ["a"]}, ValueError, "'b' is not in classes"),
        ({"classes": ["a", "a"]}, ValueError, "distinct"),
    ],
)
def test_bad_arguments_are_named(kwargs, error, match):
    args = {"models": Echo(["a", "b"]), "stream": (np.zeros((4, 1)), ["a", "b", "a", "b"])}
    args.update(kwargs)
    with pytest.raises(error, match=match):
        record(args.pop("models"), args.pop("stream"), **args)


def test_out_needs_classes_for_an_undeclared_stream(tmp_path):
    with pytest.raises(ValueError, match="classes="):
        record(Echo(["a"]), iter([({"x": 1.0}, "a")]), out=tmp_path / "r.zarr")


def test_a_class_first_seen_as_a_label_widens_the_scores():
    class Last:
        def __init__(self):
            self.prev = None

        def predict(self, x):
            return self.prev

        def predict_proba(self, x):
            return None if self.prev is None else {self.prev: 1.0}

        def learn(self, x, y):
            self.prev = y

    log = record(Last(), iter([({"x": 0.0}, "a"), ({"x": 1.0}, "b"), ({"x": 2.0}, "c"), ({"x": 3.0}, "a")]))
    assert log["class"].values.tolist() == ["a", "b", "c"]
    np.testing.assert_array_equal(log.y_score.values[0, 1:], [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
