"""Scalar mean estimators (Gama et al. 2013, Algorithms 1-4) against plain-Python references."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from streamtk._kernels import scalar_estimators as S


def ref_cumulative(x):
    return np.array([sum(x[: i + 1]) / (i + 1) for i in range(len(x))])


def ref_window(x, w):
    # Algorithm 2 with its circular buffer E[1:w]
    E = [0.0] * w
    s = 0.0
    out = []
    for i, e in enumerate(x, start=1):
        p = (i - 1) % w
        s = s - E[p] + e
        E[p] = e
        out.append(s / min(w, i))
    return np.array(out)


def ref_fading_weights(x, alpha):
    # explicit weights alpha**(t - s)
    out = []
    for t in range(len(x)):
        w = np.array([alpha ** (t - s) for s in range(t + 1)])
        out.append(float(np.dot(w, x[: t + 1]) / w.sum()))
    return np.array(out)


floats = st.lists(st.floats(-5, 5, allow_nan=False, allow_infinity=False), min_size=1, max_size=60)


@given(floats)
def test_cumulative_matches_reference(x):
    x = np.asarray(x)
    out = np.empty((1, x.size))
    S.cumulative_mean(x[None], out)
    np.testing.assert_allclose(out[0], ref_cumulative(x), rtol=1e-12, atol=1e-12)


@given(floats, st.integers(1, 20))
def test_window_matches_algorithm_2(x, w):
    x = np.asarray(x)
    out = np.empty((1, x.size))
    S.window_mean(x[None], w, out)
    np.testing.assert_allclose(out[0], ref_window(list(x), w), rtol=1e-9, atol=1e-9)


@given(floats, st.floats(0.5, 1.0))
def test_fading_matches_explicit_weights(x, alpha):
    x = np.asarray(x)
    out = np.empty((1, x.size))
    S.fading_mean(x[None], alpha, out)
    np.testing.assert_allclose(out[0], ref_fading_weights(x, alpha), rtol=1e-9, atol=1e-9)


def test_window_of_full_length_and_alpha_one_equal_cumulative():
    x = np.random.default_rng(1).random((3, 50))
    cum, win, fad = (np.empty_like(x) for _ in range(3))
    S.cumulative_mean(x, cum)
    S.window_mean(x, 50, win)
    S.fading_mean(x, 1.0, fad)
    np.testing.assert_allclose(win, cum, rtol=1e-12)
    np.testing.assert_allclose(fad, cum, rtol=1e-12)


def test_binary_window_is_exact():
    x = (np.random.default_rng(2).random((1, 200)) < 0.3).astype(float)
    out = np.empty_like(x)
    S.window_mean(x, 7, out)
    expect = [x[0, max(0, t - 6) : t + 1].sum() / min(t + 1, 7) for t in range(200)]
    assert out[0].tolist() == expect


def test_fading_ratio_is_algorithm_4_ratio():
    x = np.random.default_rng(3).random(40)
    s1 = n1 = s2 = n2 = 0.0
    for t in range(x.size):
        s1, n1, s2, n2, r = S.fading_ratio_step(s1, n1, s2, n2, x[t], 0.99, 0.9)
        m1 = ref_fading_weights(x[: t + 1], 0.99)[-1]
        m2 = ref_fading_weights(x[: t + 1], 0.9)[-1]
        assert r == pytest.approx(m2 / m1, rel=1e-12)


def test_window_ratio_reference_and_undefined_is_nan():
    x = np.r_[np.zeros(3), np.random.default_rng(4).random(30)]
    s1 = s2 = n = 0.0
    long_ = ref_window(list(x), 8)
    short = ref_window(list(x), 3)
    for t in range(x.size):
        x_old1 = x[t - 8] if t >= 8 else 0.0
        x_old2 = x[t - 3] if t >= 3 else 0.0
        s1, s2, n, r = S.window_ratio_step(s1, s2, n, x[t], x_old1, x_old2, 8, 3)
        if t < 3:
            assert np.isnan(r)  # 0 / 0: no information yet
        else:
            assert r == pytest.approx(short[t] / long_[t], rel=1e-9)
