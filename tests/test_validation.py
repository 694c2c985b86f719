"""k-fold distributed validation schemes: invariants, MOA's t mod k, seeding, chunking."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

from streamtk.kfold.assignments import SCHEMES, fold_assignment_arrays, fold_assignments, iter_fold_assignments


@pytest.mark.parametrize("scheme", SCHEMES)
def test_non_prequential_roles(scheme):
    a = fold_assignments(5000, 7, scheme=scheme, prequential=False, seed=3)
    w, m = a.train_weight.values, a.test_mask.values
    assert w.shape == m.shape == (7, 5000)
    if scheme == "cv":  # one testing fold per instance, all others train
        assert (m.sum(axis=0) == 1).all()
        np.testing.assert_array_equal(w > 0, ~m)
        np.testing.assert_array_equal(np.argmax(m, axis=0), a.chosen_fold.values)
    elif scheme == "split":  # one training fold per instance, all others test
        assert ((w > 0).sum(axis=0) == 1).all()
        np.testing.assert_array_equal(m, w == 0)
        np.testing.assert_array_equal(np.argmax(w, axis=0), a.chosen_fold.values)
    else:  # bootstrap tests where its Poisson weight is 0
        np.testing.assert_array_equal(m, w == 0)
        assert "chosen_fold" not in a
    assert set(np.unique(w)) <= ({0.0, 1.0} if scheme != "bootstrap" else set(np.arange(20.0)))


@pytest.mark.parametrize("scheme", SCHEMES)
def test_prequential_tests_everything_and_trains_like_non_prequential(scheme):
    p = fold_assignments(3000, 5, scheme=scheme, prequential=True, seed=11)
    q = fold_assignments(3000, 5, scheme=scheme, prequential=False, seed=11)
    assert p.test_mask.values.all()
    np.testing.assert_array_equal(p.train_weight.values, q.train_weight.values)
    assert p.attrs["prequential"] == 1 and q.attrs["prequential"] == 0
    assert p.attrs["scheme"] == scheme and p.attrs["seed"] == 11 and p.attrs["k"] == 5


def test_moa_modulo_variants_match_evaluate_prequential_cv():
    # MOA EvaluatePrequentialCV: with the 0-based count t, cv fold i trains unless t % k == i,
    # split fold i trains only when t % k == i; every fold tests every instance
    n, k = 11, 3
    t = np.arange(n)
    cv = fold_assignments(n, k, scheme="cv", assignment="moa")
    sp = fold_assignments(n, k, scheme="split", assignment="moa")
    for i in range(k):
        np.testing.assert_array_equal(cv.train_weight.values[i], (t % k != i).astype(float))
        np.testing.assert_array_equal(sp.train_weight.values[i], (t % k == i).astype(float))
    assert cv.test_mask.values.all() and sp.test_mask.values.all()
    np.testing.assert_array_equal(cv.instance.values, t + 1)


def test_random_choice_frequencies():
    a = fold_assignments(200_000, 10, scheme="cv", prequential=False, seed=0)
    counts = a.test_mask.values.sum(axis=1)
    # each fold is chosen with probability 1/10: 20000 +- 5 sd
    assert np.all(np.abs(counts - 20_000) < 5 * np.sqrt(200_000 * 0.09))
    b = fold_assignments(100_000, 10, scheme="bootstrap", prequential=False, seed=0)
    w = b.train_weight.values
    assert abs(w.mean() - 1.0) < 5 * np.sqrt(1 / w.size)
    p0 = np.exp(-1.0)
    assert abs(b.test_mask.values.mean() - p0) < 5 * np.sqrt(p0 * (1 - p0) / w.size)
    # the folds' Poisson weights are independent: P(all 10 weights > 0) = (1 - e^-1)^10
    assert abs((w > 0).all(axis=0).mean() - (1 - p0) ** 10) < 5 * np.sqrt(0.0102 / 100_000)


def test_seeding_is_reproducible_and_explicit():
    a = fold_assignments(100, 4, scheme="bootstrap", seed=5)
    b = fold_assignments(100, 4, scheme="bootstrap", seed=np.random.default_rng(5))
    np.testing.assert_array_equal(a.train_weight.values, b.train_weight.values)
    c = fold_assignments(100, 4, scheme="bootstrap", seed=6)
    assert not np.array_equal(a.train_weight.values, c.train_weight.values)
    with pytest.raises(TypeError, match="seed"):
        fold_assignments(100, 4, scheme="cv")
    with pytest.raises(ValueError, match="takes no seed"):
        fold_assignments(100, 4, scheme="cv", assignment="moa", seed=1)
    with pytest.raises(ValueError, match="bootstrap is random"):
        fold_assignments(100, 4, scheme="bootstrap", assignment="moa")
    with pytest.raises(ValueError, match="k must be an integer >= 2, got 1"):
        fold_assignments(100, 1, seed=1)
    with pytest.raises(ValueError, match="scheme must be one of"):
        fold_assignments(100, 3, scheme="holdout", seed=1)
    with pytest.raises(TypeError, match="prequential must be a bool"):
        fold_assignments(100, 3, prequential="yes", seed=1)


@given(
    n=st.integers(1, 400),
    k=st.integers(2, 6),
    chunk=st.integers(1, 97),
    scheme=st.sampled_from(SCHEMES),
    prequential=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_chunks_concatenate_to_one_call(n, k, chunk, scheme, prequential, seed):
    whole = fold_assignments(n, k, scheme=scheme, prequential=prequential, seed=seed)
    parts = list(iter_fold_assignments(n, k, chunk=chunk, scheme=scheme, prequential=prequential, seed=seed))
    for var in ("train_weight", "test_mask", "instance"):
        joined = np.concatenate([p[var].values for p in parts], axis=-1)
        np.testing.assert_array_equal(joined, whole[var].values)


def test_numpy_layer_matches_labelled_layer():
    w, m, chosen = fold_assignment_arrays(500, 4, scheme="split", prequential=False, seed=9)
    a = fold_assignments(500, 4, scheme="split", prequential=False, seed=9)
    np.testing.assert_array_equal(w, a.train_weight.values)
    np.testing.assert_array_equal(m, a.test_mask.values)
    np.testing.assert_array_equal(chosen, a.chosen_fold.values)


def test_roundtrips_through_netcdf(tmp_path):
    a = fold_assignments(50, 3, scheme="cv", prequential=False, seed=2)
    path = tmp_path / "assign.nc"
    a.to_netcdf(path)
    with xr.open_dataset(path) as b:
        np.testing.assert_array_equal(b.train_weight.values, a.train_weight.values)
        np.testing.assert_array_equal(b.test_mask.values.astype(bool), a.test_mask.values)
        assert b.attrs["scheme"] == "cv"
