"""Baseline classifiers (streamtk.dependence.baselines): references, closed forms (eqs. 5-9), Table 5."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

from streamtk._core.mechanisms import build_estimators
from streamtk.dependence.baselines import (
    baselines,
    majority_class,
    majority_codes,
    no_information,
    persistent,
    persistent_codes,
    random_classifier,
)


# ----------------------------------------------------------------------------- references
def ref_majority(codes, k, kind, param):
    out = []
    for t in range(len(codes)):
        past = [(s, c) for s, c in enumerate(codes[:t]) if c >= 0]
        counts = np.zeros(k)
        if kind == "prequential":
            for _, c in past:
                counts[c] += 1
        elif kind == "window":
            for _, c in past[-param:]:
                counts[c] += 1
        else:  # age counted in present labels
            for j, (_, c) in enumerate(past):
                counts[c] += param ** (len(past) - 1 - j)
        out.append(int(np.argmax(counts)))  # first maximum = lowest code; all-zero -> 0
    return np.array(out, dtype=np.int64)


def ref_persistent(codes):
    out, last = [], 0
    for c in codes:
        out.append(last)
        if c >= 0:
            last = c
    return np.array(out, dtype=np.int64)


codes_st = st.lists(st.integers(-1, 3), min_size=0, max_size=50)


@given(codes=codes_st, window=st.integers(1, 10))
def test_majority_matches_reference(codes, window):
    codes = np.array(codes, dtype=np.int64)
    np.testing.assert_array_equal(majority_codes(codes, 4)[0], ref_majority(codes, 4, "prequential", None))
    np.testing.assert_array_equal(
        majority_codes(codes, 4, build_estimators(prequential=False, windows=window))[0],
        ref_majority(codes, 4, "window", window),
    )


@given(codes=codes_st, alpha=st.sampled_from([0.3, 0.77, 0.9, 0.999]))
def test_majority_fading_matches_reference(codes, alpha):
    codes = np.array(codes, dtype=np.int64)
    got = majority_codes(codes, 4, build_estimators(prequential=False, fading=alpha))[0]
    want = ref_majority(codes, 4, "fading", alpha)
    # compare only where the reference's top two faded counts are not within rounding of each other
    for t in range(len(codes)):
        counts = np.zeros(4)
        past = [c for c in codes[:t] if c >= 0]
        for j, c in enumerate(past):
            counts[c] += alpha ** (len(past) - 1 - j)
        top = np.sort(counts)[-2:]
        if top[1] - top[0] > 1e-9 or top[1] == 0:
            assert got[t] == want[t]


def test_majority_fading_one_equals_prequential_and_big_window_too():
    codes = np.random.default_rng(0).integers(-1, 4, 500)
    pre, fad, win = majority_codes(codes, 4, build_estimators(fading=1.0, windows=500))
    np.testing.assert_array_equal(fad, pre)
    np.testing.assert_array_equal(win, pre)


def test_majority_fading_survives_renormalisation():
    # alpha**n underflows the lazy scale many times over
    codes = np.tile([0, 0, 1], 4000)
    got = majority_codes(codes, 2, build_estimators(prequential=False, fading=0.5))[0]
    # with alpha = 0.5 the last label dominates: faded counts after ...0,0,1 favour 1 iff 1 > 0.5 + 0.25 ...
    np.testing.assert_array_equal(got[100:130], ref_majority(codes[:130], 2, "fading", 0.5)[100:130])
    np.testing.assert_array_equal(got[-30:], ref_majority(codes[-300:], 2, "fading", 0.5)[-30:])


@given(codes=codes_st)
def test_persistent_matches_reference(codes):
    codes = np.array(codes, dtype=np.int64)
    np.testing.assert_array_equal(persistent_codes(codes), ref_persistent(codes))


def test_first_prediction_is_first_class():
    y = ["b", "a", "a"]
    assert majority_class(y).values[0] == "a"
    assert persistent(y).values.tolist() == ["a", "b", "a"]
    assert majority_class(y, windows=1).values.tolist() == ["a", "b", "a"]


def test_labelled_outputs():
    y = xr.DataArray(["x", "y", None, "y"], dims="step", coords={"step": [10, 20, 30, 40]})
    da = majority_class(y, fading=0.5)
    assert da.dims == ("time",)
    assert da["instance"].values.tolist() == [1, 2, 3, 4]
    assert da["step"].values.tolist() == [10, 20, 30, 40]
    assert da.attrs["memory"] == "fading=0.5"
    log = baselines(["x", "y", "y", "x"], y_pred=["y", "y", "y", "x"], windows=(2,), fading=(0.9,), seed=5)
    b = log.y_pred
    assert log.y_true.values.tolist() == ["x", "y", "y", "x"]
    assert b["model"].values.tolist() == [
        "no_information",
        "majority",
        "majority[window=2]",
        "majority[fading=0.9]",
        "persistent",
        "random",
    ]
    assert b["memory"].values.tolist() == ["", "prequential", "window=2", "fading=0.9", "", ""]
    assert log.attrs["seed"] == 5
    assert sorted(b.sel(model="random").values.tolist()) == ["x", "y", "y", "y"]
    np.testing.assert_array_equal(b.sel(model="persistent").values, persistent(["x", "y", "y", "x"]).values)
    again = baselines(["x", "y", "y", "x"], y_pred=["y", "y", "y", "x"], windows=(2,), fading=(0.9,), seed=5)
    xr.testing.assert_equal(log.drop_attrs(), again.drop_attrs())


def test_random_classifier_permutes_each_row():
    pred = np.array([[0, 0, 1, 2, 2, 2], [5, 6, 7, 8, 9, 10]])
    da = random_classifier(pred, seed=2)
    assert da.dims == ("model", "time")
    for i in range(2):
        assert sorted(da.values[i].tolist()) == sorted(pred[i].tolist())
    xr.testing.assert_equal(da, random_classifier(pred, seed=2))
    assert not np.array_equal(da.values, random_classifier(pred, seed=3).values)


def test_seed_is_required():
    with pytest.raises(TypeError, match="seed must be"):
        no_information([0, 1], seed=None)


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        (dict(windows=0), ValueError, "windows must be a positive integer, got 0"),
        (dict(fading=0.0), ValueError, r"fading must be in \(0, 1\], got 0.0"),
        (dict(windows=3, fading=0.5), ValueError, "takes one memory"),
        (dict(window=3), TypeError, "did you mean 'windows'"),
    ],
)
def test_bad_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        majority_class([0, 1], **kwargs)


def test_bad_y_pred_length():
    with pytest.raises(ValueError, match="y_pred has 2 instances"):
        baselines([0, 1, 1], y_pred=[0, 1], seed=0)


# ----------------------------------------------------------------------------- closed forms
def markov_chain(a, n, rng):
    cum = np.cumsum(np.asarray(a), 1)
    u = rng.random(n)
    y = np.empty(n, dtype=np.int64)
    s = 0
    for t in range(n):
        y[t] = s
        s = int(np.searchsorted(cum[s], u[t], side="right"))
    return y


def stationary(a):
    vals, vecs = np.linalg.eig(np.asarray(a).T)
    v = np.real(vecs[:, np.argmin(np.abs(vals - 1))])
    return v / v.sum()


def batch_se(hits, batches=50):
    """Standard error of a mean of autocorrelated indicators from batch means."""
    means = np.array([b.mean() for b in np.array_split(hits.astype(float), batches)])
    return means.std(ddof=1) / np.sqrt(batches)


@pytest.mark.parametrize(
    "a",
    [
        [[0.9, 0.05, 0.05], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6]],  # positive temporal dependence
        [[0.5, 0.3, 0.2], [0.5, 0.3, 0.2], [0.5, 0.3, 0.2]],  # independent (eq. 8)
    ],
)
def test_accuracies_equal_closed_forms(a):
    a = np.asarray(a)
    n = 200_000
    rng = np.random.default_rng(11)
    y = markov_chain(a, n, rng)
    pi = stationary(a)
    k = 3
    # a reference classifier h: right with prob 0.7, otherwise uniform on the other classes
    wrong = (y + rng.integers(1, k, n)) % k
    y_pred = np.where(rng.random(n) < 0.7, y, wrong)
    b = baselines(y, y_pred=y_pred, windows=(1000,), fading=(0.999,), seed=12).y_pred
    closed = {
        "no_information": 1 / k,  # eq. 5
        "majority": pi.max(),  # eq. 6
        "majority[window=1000]": pi.max(),
        "majority[fading=0.999]": pi.max(),
        "persistent": float(np.sum(pi * np.diag(a))),  # eq. 7 (eq. 8 when rows equal pi)
        "random": float(np.sum(pi * np.bincount(y_pred, minlength=k) / n)),  # eq. 9
    }
    if np.allclose(a, a[0]):
        assert closed["persistent"] == pytest.approx(float(np.sum(pi**2)))
    for name, p in closed.items():
        hits = b.sel(model=name).values == y
        se = batch_se(hits)
        assert abs(hits.mean() - p) < 4 * se + 1e-3, (name, hits.mean(), p, se)


# ----------------------------------------------------------------------------- published numbers
def test_persistent_electricity_table5(data_dir):
    from streamtk.datasets import load_labels

    y = load_labels("electricity", path=data_dir)
    hits = persistent(y).values == y
    # Table 5: 85.3 %; over the 45,311 transitions exactly 38,664 hits (the first
    # instance, predicted as class 0 = DOWN while the stream starts UP, is a miss)
    assert hits[1:].sum() == 38_664 and not hits[0]
    assert round(100 * hits[1:].mean(), 1) == 85.3
    assert round(100 * hits.mean(), 1) == 85.3


@pytest.mark.slow  # compiles the evaluation engine's kernels when their cache is cold
def test_engine_identities_kappa_m_and_kappa_per_are_zero():
    """The engine's p_maj / p_per are the accuracies of exactly these classifiers under the
    same estimator (Bifet et al. Fig. 2 right; Zliobaite et al. section 4.4)."""
    from streamtk.evaluation.curves import evaluate

    rng = np.random.default_rng(1)
    y = np.repeat(rng.integers(0, 3, 400), rng.integers(1, 6, 400))[:1000].astype(float)
    y[rng.random(y.size) < 0.1] = np.nan  # missing labels
    log = baselines(y, windows=(50,), fading=(0.95,), seed=0)
    ds = evaluate(log, windows=(50,), fading=(0.95,), every=50, metrics=["kappa_m", "kappa_per"])
    for name, est in [
        ("majority", "prequential"),
        ("majority[window=50]", "window=50"),
        ("majority[fading=0.95]", "fading=0.95"),
    ]:
        np.testing.assert_array_equal(ds["kappa_m"].sel(model=name, estimator=est).values, 0.0, err_msg=name)
    np.testing.assert_array_equal(ds["kappa_per"].sel(model="persistent").values, 0.0)
