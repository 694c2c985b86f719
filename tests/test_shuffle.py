"""Seeded shuffles (streamtk.dependence.shuffle) for the control experiments of Zliobaite et al. 2015."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from streamtk.dependence.label_dependence import label_dependence
from streamtk.dependence.shuffle import iid_shuffle, label_order_preserving_shuffle


def test_iid_shuffle_is_seeded_permutation():
    idx = iid_shuffle(100, seed=1)
    assert idx.dtype == np.int64
    assert sorted(idx.tolist()) == list(range(100))
    np.testing.assert_array_equal(idx, iid_shuffle(100, seed=1))
    assert not np.array_equal(idx, iid_shuffle(100, seed=2))
    rng = np.random.default_rng(5)
    np.testing.assert_array_equal(iid_shuffle(10, seed=rng), np.random.default_rng(5).permutation(10))


def test_iid_shuffle_removes_dependence():
    y = np.repeat([0, 1, 0, 1], 5000)  # P(T) ~ 1
    p_t = label_dependence(y[iid_shuffle(y.size, seed=3)], max_lag=1, every=10**9)["p_t"].item()
    assert p_t == pytest.approx(0.5, abs=0.02)  # eq. 8: sum_i P(i)^2


@given(
    labels=st.lists(st.sampled_from(["a", "b", "c", None]), min_size=1, max_size=40).filter(
        lambda v: any(x is not None for x in v)
    ),
    seed=st.integers(0, 2**32 - 1),
)
def test_label_order_preserving(labels, seed):
    y = np.array(labels, dtype=object)
    idx = label_order_preserving_shuffle(y, seed=seed)
    assert sorted(idx.tolist()) == list(range(len(y)))
    assert [y[i] for i in idx] == list(y)  # the label sequence is kept (missing stays missing)


def test_label_order_preserving_is_uniform_within_class():
    y = np.array([0, 1, 0, 1, 0])
    seen = Counter(tuple(label_order_preserving_shuffle(y, seed=s)[[0, 2, 4]]) for s in range(1200))
    assert set(seen) == set(permutations([0, 2, 4]))
    assert min(seen.values()) > 120  # each of the 6 orders ~200 times


def test_label_order_preserving_keeps_dependence_and_shuffles_features():
    rng = np.random.default_rng(9)
    y = np.repeat(rng.integers(0, 3, 200), 20)
    x = np.arange(y.size)  # a feature drifting with time
    idx = label_order_preserving_shuffle(y, seed=4)
    a = label_dependence(y, max_lag=2, every=10**9)
    b = label_dependence(y[idx], max_lag=2, every=10**9)
    np.testing.assert_array_equal(a["transition"].values, b["transition"].values)
    # within each class the time order of the instances is destroyed
    for c in range(3):
        pos = np.flatnonzero(y == c)
        assert abs(np.corrcoef(pos, x[idx][pos])[0, 1]) < 0.2


def test_seed_required_and_n_checked():
    with pytest.raises(TypeError, match="seed must be"):
        iid_shuffle(3, seed=None)
    with pytest.raises(ValueError, match="n must be a positive integer, got 0"):
        iid_shuffle(0, seed=1)
    with pytest.raises(TypeError, match="seed must be"):
        label_order_preserving_shuffle([0, 1], seed=-1)
