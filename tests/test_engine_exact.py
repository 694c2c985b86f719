"""The rebuilt engine's guarantees: exact windows under any weights, fast path == general path, the new
mechanisms (tumbling, landmarks) chunked == one pass, missing predictions, labelled inputs, checkpoints."""

from __future__ import annotations

import math

import numpy as np
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st

import streamtk
from streamtk._core.labels import encode_labels
from streamtk._core.mechanisms import default_every
from streamtk.evaluation.engine import ConfusionEngine
from streamtk.evaluation.plan import EvaluationPlan


# ---------------------------------------------------------------------------- exact windows
def test_issue_example_window_of_two_with_float_weights():
    # the window of the last instance holds two hits of class 1 only: accuracy is 1 and kappa is undefined
    ds = streamtk.evaluate([0, 0, 1, 1], [0, 1, 1, 1], windows=[2], weights=[0.6, 0.4, 0.5, 0.3], classes=[0, 1])
    last = ds.sel(estimator="window=2").isel(time=-1)
    assert float(last.accuracy) == 1.0
    assert math.isnan(float(last.kappa))
    assert math.isnan(float(last.recall.sel({"class": 0})))  # class 0 left the window: no recall
    assert float(last.recall.sel({"class": 1})) == 1.0


@settings(max_examples=60)
@given(
    st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.floats(0.01, 5.0)), min_size=1, max_size=50),
    st.integers(1, 6),
)
def test_sliding_windows_are_exact_about_what_they_hold(rows, w):
    # with arbitrary float weights: a class the window does not hold has no recall (NaN, never a residue),
    # a window of hits has accuracy exactly 1, and no proportion leaves [0, 1]
    y = np.array([r[0] for r in rows])
    p = np.array([r[1] for r in rows])
    wt = np.array([r[2] for r in rows])
    ds = streamtk.evaluate(y, p, windows=[w], weights=wt, classes=[0, 1, 2]).sel(estimator=f"window={w}")
    for t in range(len(y)):
        held = slice(max(0, t - w + 1), t + 1)
        for c in range(3):
            rec = float(ds.recall.values[t, c])
            if not (y[held] == c).any():
                assert math.isnan(rec), (t, c, rec)
            else:
                assert 0.0 <= rec <= 1.0
        acc = float(ds.accuracy.values[t])
        assert 0.0 <= acc <= 1.0
        if (y[held] == p[held]).all():
            assert acc == 1.0
        if not (y[held] == p[held]).any():
            assert acc == 0.0


@pytest.mark.parametrize(
    "mech", [{"windows": [5]}, {"tumbling": [7]}, {"landmarks": [10, 33]}, {"fading": [0.9]}, {"adwin": [0.2]}]
)
def test_baseline_identities_hold_under_every_mechanism(mech):
    # kappa_per of the Persistent classifier is exactly 0 (or undefined), with non-integer weights too: its hits
    # are summed exactly as the baseline's own hits; kappa_m of the Majority Class classifier with the
    # estimator's memory (unweighted: majority_class counts labels) likewise
    rng = np.random.default_rng(11)
    n = 120
    y = rng.integers(0, 3, n)
    y = np.where(rng.random(n) < 0.5, np.roll(y, 1), y)
    w = rng.choice([0.0, 0.25, 1.0, 1.75], size=n)
    per = streamtk.persistent(y).values
    ds = streamtk.evaluate(y, per, weights=w, metrics=["kappa_per"], classes=[0, 1, 2], **mech)
    kp = ds.kappa_per.isel(estimator=1).values
    assert np.all((kp == 0) | np.isnan(kp))
    label = ds.estimator.values[1]
    kind = str(label).split("=")[0]
    arg = {"window": "windows"}.get(kind, kind)
    if arg == "adwin":
        return  # the estimator's ADWIN runs on the model's loss, majority_class's on the label changes
    maj = streamtk.majority_class(y, **{arg: mech[arg][0] if arg != "landmarks" else mech[arg]}).values
    ds = streamtk.evaluate(y, maj, metrics=["kappa_m"], classes=[0, 1, 2], **mech)
    km = ds.kappa_m.isel(estimator=1).values
    assert np.all((km == 0) | np.isnan(km))


# ---------------------------------------------------------------------------- fast path == general path
def _snapshots(y, p, fast, **mech):
    enc, (yt, yp) = encode_labels(y, p[None, :], classes=[0, 1], compact=True)
    plan = EvaluationPlan(encoding=enc, every=1, **mech)
    eng = ConfusionEngine(plan, fast_paths=fast)
    cut = len(y) // 2
    eng.update(yt[:cut], yp[:, :cut])
    eng.update(yt[cut:], yp[:, cut:], last=True)
    assert eng._dense is fast  # the path asked for is the path taken
    return eng.collect()


#: the mechanisms the dense two-class kernel serves (``dense.KINDS``), each in a fast-path check
DENSE_MECHANISMS = {
    "prequential + windows": {"windows": [1, 3, 50]},
    "fading": {"fading": [0.5, 0.99, 0.999999]},
    "tumbling": {"tumbling": [4, 25]},
    "landmarks": {"landmarks": [3, 17, 60]},
    "adwin + all": {"windows": [8], "fading": [0.9], "adwin": [0.1], "tumbling": [9]},
    "ewma": {"ewma": [0.01, 0.5]},
}


def check_dense_fast_path(mech):
    """The dense two-class kernel against the general confusion kernel, in two chunks."""
    rng = np.random.default_rng(3)
    n = 3000
    y = (rng.random(n) < 0.35).astype(np.int64)
    y = np.where(rng.random(n) < 0.7, np.roll(y, 1), y)
    p = np.where(rng.random(n) < 0.8, y, 1 - y)
    pos_f, fast = _snapshots(y, p, True, **mech)
    pos_g, general = _snapshots(y, p, False, **mech)
    np.testing.assert_array_equal(pos_f, pos_g)
    for name in fast:
        np.testing.assert_array_equal(fast[name], general[name], err_msg=name)


# ---------------------------------------------------------------------------- new mechanisms
@settings(max_examples=40)
@given(
    st.lists(
        st.tuples(st.integers(-1, 2), st.integers(0, 2), st.sampled_from([0.0, 0.5, 1.0, 2.25])),
        min_size=2,
        max_size=60,
    ),
    st.lists(st.integers(1, 59), min_size=1, max_size=3),
    st.integers(1, 6),
)
def test_tumbling_and_landmarks_chunked_equal_one_pass(rows, cuts, every):
    y = np.array([np.nan if r[0] < 0 else r[0] for r in rows])
    p = np.array([r[1] for r in rows])
    w = np.array([r[2] for r in rows])
    kw = dict(
        windows=[3], tumbling=[2, 7], landmarks=[5, 11, 40], adwin=[0.3], ewma=[0.2], every=every, classes=[0, 1, 2]
    )
    one = streamtk.evaluate(y, p, weights=w, **kw)
    ev = streamtk.Evaluator(**kw)
    bounds = sorted({0, len(y), *[c for c in cuts if c < len(y)]})
    for a, b in zip(bounds[:-1], bounds[1:]):
        ev.update(y[a:b], p[a:b], w[a:b])
    chunked = ev.result()
    for name in one.data_vars:
        np.testing.assert_array_equal(chunked[name].values, one[name].values, err_msg=name)


def test_tumbling_and_landmark_restart_exactly():
    y = np.array([0, 1, 1, 0, 1, 1, 1, 0])
    p = np.array([0, 1, 0, 0, 1, 1, 0, 0])
    ds = streamtk.evaluate(y, p, tumbling=[3], landmarks=[5], metrics=["accuracy", "n_instances"])
    tum = ds.sel(estimator="tumbling=3")
    assert tum.n_instances.values.tolist() == [1, 2, 3, 1, 2, 3, 1, 2]
    assert tum.accuracy.values.tolist() == [1.0, 1.0, 2 / 3, 1.0, 1.0, 1.0, 0.0, 0.5]
    lm = ds.sel(estimator="landmarks")
    assert lm.n_instances.values.tolist() == [1, 2, 3, 4, 5, 1, 2, 3]
    with pytest.raises(
        ValueError, match=r"has only the estimators prequential, window, fading, adwin, ewma .*'tumbling=3'"
    ):
        streamtk.evaluate(y, p, tumbling=[3], convention="moa")
    with pytest.raises(ValueError, match="landmarks must be strictly increasing"):
        streamtk.evaluate(y, p, landmarks=[5, 3])


# ---------------------------------------------------------------------------- inputs
def test_a_missing_prediction_is_not_evaluated():
    y = np.array([0, 1, 1, 0, 1, 0])
    p = np.array([None, 1, 0, None, 1, 1], dtype=object)
    a = streamtk.evaluate(y, p, windows=[2], fading=[0.8], classes=[0, 1])
    b = streamtk.evaluate(
        y, np.array([0, 1, 0, 0, 1, 1]), windows=[2], fading=[0.8], classes=[0, 1], weights=[0, 1, 1, 0, 1, 1]
    )
    for name in a.data_vars:
        np.testing.assert_array_equal(a[name].values, b[name].values, err_msg=name)


def test_labelled_inputs_are_aligned_by_label():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 40)
    preds = xr.DataArray(rng.integers(0, 2, (3, 40)), dims=("model", "time"), coords={"model": ["a", "b", "c"]})
    w = xr.DataArray(rng.random((3, 40)), dims=("model", "time"), coords={"model": ["a", "b", "c"]})
    ref = streamtk.evaluate(y, preds, weights=w, windows=[5])
    shuffled = w.isel(model=[2, 0, 1])  # the same weights, models in another order
    got = streamtk.evaluate(y, preds, weights=shuffled, windows=[5])
    xr.testing.assert_identical(got.drop_attrs(), ref.drop_attrs())
    with pytest.raises(ValueError, match="weights's 'model' labels do not match"):
        streamtk.evaluate(y, preds, weights=w.assign_coords(model=["a", "b", "x"]), windows=[5])


def test_a_log_dataset_is_evaluated_with_its_own_class_order():
    log = xr.Dataset(
        {"y_true": ("time", ["UP", "DOWN", "DOWN", "UP"]), "y_pred": (("model", "time"), [["UP", "UP", "DOWN", "UP"]])},
        coords={"model": ["m"], "class": ["UP", "DOWN"]},
    )
    ds = streamtk.evaluate(log, metrics=["accuracy", "recall"])
    assert ds["class"].values.tolist() == ["UP", "DOWN"]
    assert float(ds.accuracy.isel(time=-1, estimator=0, model=0)) == 0.75
    np.testing.assert_array_equal(
        streamtk.evaluate(log.y_true, log.y_pred, metrics=["accuracy"]).accuracy.values, ds.accuracy.values
    )


# ---------------------------------------------------------------------------- checkpoints
def test_default_every_bounds_the_output():
    assert default_every(10_000) == 1
    assert default_every(10_001) == 2
    assert default_every(10**9) == 100_000
    assert default_every(10**6, per_checkpoint=10_000) == 1000  # at most 10^7 values per series
    ds = streamtk.evaluate(np.zeros(25_000, int), np.zeros(25_000, int), metrics=["accuracy"])
    assert ds.attrs["every"] == 5 and ds.sizes["time"] == 5000


def test_an_output_that_cannot_fit_in_memory_is_refused_up_front():
    from streamtk._core.mechanisms import resolve_every

    with pytest.raises(ValueError, match=r"every=1 over 1,000,000,000,000 instances"):
        resolve_every(1, 10**12, per_checkpoint=48)


@pytest.mark.parametrize("windows", [[], [40]])
def test_dense_adwin_window_equals_general_kernel_across_chunks(windows):
    # a drift makes the ADWINs shrink: members of earlier chunks, kept as compressed segments, leave whole
    rng = np.random.default_rng(5)
    n = 6000
    y = (rng.random(n) < 0.4).astype(np.int64)
    acc = np.where(np.arange(n) < 3500, 0.9, 0.55)
    p = np.where(rng.random(n) < acc, y, 1 - y)
    enc, (yt, yp) = encode_labels(y, p[None, :], classes=[0, 1], compact=True)
    out, popped = [], []
    for fast in (True, False):
        plan = EvaluationPlan(encoding=enc, every=7, windows=windows, adwin=[0.002, 0.3])
        eng = ConfusionEngine(plan, fast_paths=fast)
        for a, b in [(0, 1500), (1500, 3400), (3400, 3600), (3600, n)]:
            eng.update(yt[a:b], yp[:, a:b], last=b == n)
        out.append(eng.collect())
        popped.append(int(eng.seg[3].sum()))
    assert popped[0] == popped[1] > 0  # segments were popped, the same on both paths
    np.testing.assert_array_equal(out[0][0], out[1][0])
    for name in out[0][1]:
        np.testing.assert_array_equal(out[0][1][name], out[1][1][name], err_msg=name)


@pytest.mark.parametrize("dense", [True, False])
def test_segmented_chunk_equals_one_segment(monkeypatch, dense):
    # a chunk cut into segments (bounded snapshots, bounded ADWIN widths) gives the one-segment result
    import streamtk.evaluation.engine as engine_module

    rng = np.random.default_rng(9)
    n = 5000
    y = (rng.random(n) < 0.45).astype(np.int64)
    p = np.where(rng.random(n) < np.where(np.arange(n) < 2500, 0.9, 0.6), y, 1 - y)
    w = None if dense else rng.choice([0.0, 0.5, 1.0, 2.0], n)
    kw = dict(windows=[30, 300], fading=[0.99], adwin=[0.01], tumbling=[700], every=3)
    one = streamtk.evaluate(y, p, weights=w, **kw)
    monkeypatch.setattr(engine_module, "SNAPSHOT_BUDGET", 20 * 6 * 14)
    monkeypatch.setattr(engine_module, "ADWIN_BUDGET", 1000)
    monkeypatch.setattr(engine_module, "MIN_SEGMENT", 300)
    cut = streamtk.evaluate(y, p, weights=w, **kw)
    for name in one.data_vars:
        np.testing.assert_array_equal(cut[name].values, one[name].values, err_msg=name)
