"""Temporal Correction (eq. 3) and Temporally Augmented inputs (streamtk.dependence.correction)."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

from streamtk._core.mechanisms import build_estimators
from streamtk.dependence.correction import (
    apply_correction,
    augment_with_past_labels,
    correction_factor_codes,
    temporal_correction,
)


# ----------------------------------------------------------------------------- reference
def ref_factors(codes, k, kind, param):
    n = len(codes)
    out = np.ones((n, k))
    for t in range(n):
        past = [(s, c) for s, c in enumerate(codes[:t]) if c >= 0]
        if not past:
            continue
        prev = past[-1][1]
        cnt = np.zeros(k)
        trans = np.zeros((k, k))
        for j, (_s, c) in enumerate(past):
            if kind == "window" and j < len(past) - param:
                continue
            w = (1 - param) ** (len(past) - 1 - j) if kind == "alpha" else 1.0  # age in present labels
            cnt[c] += w
            if j >= 1:
                trans[past[j - 1][1], c] += w
        row = trans[prev].sum()
        if row <= 0:
            continue
        for i in range(k):
            if cnt[i] > 0:
                out[t, i] = (trans[prev, i] / row) / (cnt[i] / cnt.sum())
    return out


codes_st = st.lists(st.integers(-1, 2), min_size=0, max_size=40)


@given(codes=codes_st, window=st.integers(1, 8), alpha=st.sampled_from([0.01, 0.3, 0.6]))
def test_factors_match_reference(codes, window, alpha):
    codes = np.array(codes, dtype=np.int64)
    np.testing.assert_allclose(correction_factor_codes(codes, 3), ref_factors(codes, 3, "all", None), rtol=1e-12)
    win = build_estimators(prequential=False, windows=window)
    np.testing.assert_allclose(
        correction_factor_codes(codes, 3, specs=win), ref_factors(codes, 3, "window", window), rtol=1e-12
    )
    fad = build_estimators(prequential=False, fading=1 - alpha)  # the paper's smoothing weight alpha
    np.testing.assert_allclose(
        correction_factor_codes(codes, 3, specs=fad), ref_factors(codes, 3, "alpha", alpha), rtol=1e-9
    )


def test_window_at_least_n_equals_all_past():
    codes = np.random.default_rng(0).integers(-1, 3, 400)
    win = build_estimators(prequential=False, windows=400)
    np.testing.assert_array_equal(correction_factor_codes(codes, 3, specs=win), correction_factor_codes(codes, 3))


def test_known_model_factors():
    a = np.array([[0.8, 0.2], [0.4, 0.6]])
    p = np.array([2 / 3, 1 / 3])
    f = correction_factor_codes(np.array([1, -1, 0, 0]), 2, transition=a, prior=p)
    np.testing.assert_allclose(
        f, [[1, 1], [0.4 / p[0], 0.6 / p[1]], [0.4 / p[0], 0.6 / p[1]], [0.8 / p[0], 0.2 / p[1]]]
    )


# ----------------------------------------------------------------------------- hidden-Markov stream
def hmm_stream(n, seed):
    a = np.array([[0.85, 0.1, 0.05], [0.1, 0.8, 0.1], [0.05, 0.15, 0.8]])
    vals, vecs = np.linalg.eig(a.T)
    pi = np.real(vecs[:, np.argmin(np.abs(vals - 1))])
    pi /= pi.sum()
    rng = np.random.default_rng(seed)
    cum = np.cumsum(a, 1)
    u = rng.random(n)
    y = np.empty(n, dtype=np.int64)
    s = 0
    for t in range(n):
        y[t] = s
        s = int(np.searchsorted(cum[s], u[t], side="right"))
    mu = np.array([-1.0, 0.0, 1.5])
    x = mu[y] + rng.standard_normal(n)
    lik = np.exp(-0.5 * (x[:, None] - mu[None]) ** 2)
    static = pi * lik
    static /= static.sum(1, keepdims=True)  # P(y_t | X_t) of an ideal iid classifier
    exact = np.empty_like(static)  # P(y_t | X_t, y_{t-1}) of the filter with y_{t-1} observed
    exact[0] = static[0]
    exact[1:] = a[y[:-1]] * lik[1:]
    exact[1:] /= exact[1:].sum(1, keepdims=True)
    return a, pi, y, static, exact


def test_known_model_recovers_exact_posterior():
    a, pi, y, static, exact = hmm_stream(5000, 1)
    ds = temporal_correction(static, y, transition=a, prior=pi)
    np.testing.assert_allclose(ds["scores"].values, exact, rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(ds["y_pred"].values, np.argmax(exact, 1))


@pytest.mark.parametrize(
    ("kwargs", "tol"),
    # alpha = 0.001 remembers ~1000 labels: its estimates carry ~2 % sampling error
    [(dict(), 0.005), (dict(fading=0.999), 0.025), (dict(windows=20_000), 0.005)],
)
def test_estimated_correction_converges_to_exact_posterior(kwargs, tol):
    a, pi, y, static, exact = hmm_stream(60_000, 2)
    ds = temporal_correction(static, y, **kwargs)
    err = np.abs(ds["scores"].values[10_000:] - exact[10_000:]).max(1)
    assert err.mean() < tol
    acc_corr = np.mean(ds["y_pred"].values[10_000:] == y[10_000:])
    acc_exact = np.mean(np.argmax(exact, 1)[10_000:] == y[10_000:])
    acc_static = np.mean(np.argmax(static, 1)[10_000:] == y[10_000:])
    assert abs(acc_corr - acc_exact) < 0.005
    assert acc_corr > acc_static + 0.1


def test_labelled_scores_with_leading_dims_and_string_labels():
    y = np.array(["u", "d", "d", "d", "u"])
    s = np.array([[0.5, 0.5]] * 5)
    scores = xr.DataArray(np.stack([s, s[:, ::-1]]), dims=("model", "time", "class"), coords={"model": ["m1", "m2"]})
    ds = temporal_correction(scores, y)
    assert ds["scores"].dims == ("model", "time", "class")
    assert ds["y_pred"].dims == ("model", "time")
    assert ds["model"].values.tolist() == ["m1", "m2"]
    assert ds["class"].values.tolist() == ["d", "u"]
    # at t=4 the previous label is d and d -> d twice, d -> u never: only d remains
    np.testing.assert_allclose(ds["scores"].values[:, 4], [[1.0, 0.0], [1.0, 0.0]])
    assert ds["y_pred"].values[:, 4].tolist() == ["d", "d"]
    # ties in the uncorrected scores go to the lowest class code
    assert ds["y_pred"].values[0, 0] == "d"


def test_undefined_correction_is_nan_and_prediction_falls_back():
    corrected, pred = apply_correction(
        np.array([[[0.9, 0.1, 0.0], [0.0, 0.0, 0.0]]]), np.array([[0.0, 0.0, 3.0], [1.0, 1.0, 1.0]])
    )
    assert np.isnan(corrected).all()
    assert pred.tolist() == [[0, 0]]


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        (dict(fading=0.0), ValueError, r"fading must be in \(0, 1\], got 0.0"),
        (dict(fading=0.9, windows=5), ValueError, "takes one memory"),
        (dict(windows=0), ValueError, "windows must be a positive integer, got 0"),
        (dict(alpha=0.1), TypeError, "unexpected keyword argument 'alpha'"),
        (dict(windows=5, transition=np.eye(2), prior=[0.5, 0.5]), ValueError, "not both"),
        (dict(transition=np.eye(2)), ValueError, "pass both transition and prior"),
        (dict(transition=np.eye(2) * 0.5, prior=[0.5, 0.5]), ValueError, "row-stochastic"),
        (dict(transition=np.eye(2), prior=[1.0, 0.0]), ValueError, "prior must be positive"),
    ],
)
def test_bad_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        temporal_correction(np.full((3, 2), 0.5), [0, 1, 1], **kwargs)


def test_bad_scores():
    with pytest.raises(ValueError, match="3 class columns but there are 2 classes"):
        temporal_correction(np.full((3, 3), 0.5), [0, 1, 1])
    with pytest.raises(ValueError, match="non-negative"):
        temporal_correction(np.array([[0.5, -0.5]] * 3), [0, 1, 1])
    with pytest.raises(ValueError, match="non-finite"):
        temporal_correction(np.array([[0.5, np.nan]] * 3), [0, 1, 1])
    with pytest.raises(ValueError, match="4 instances"):
        temporal_correction(np.full((4, 2), 0.5), [0, 1, 1])


# ----------------------------------------------------------------------------- augmentation
def ref_augment(x, codes, k, order, encoding):
    rows = []
    for t in range(len(codes)):
        past = [c for c in codes[:t] if c >= 0][::-1]
        extra = []
        for j in range(order):
            if encoding == "onehot":
                v = [0.0] * k
                if j < len(past):
                    v[past[j]] = 1.0
                extra += v
            else:
                extra.append(float(past[j]) if j < len(past) else np.nan)
        rows.append(list(x[t]) + extra)
    return np.array(rows, dtype=float).reshape(len(codes), -1)


@given(
    codes=st.lists(st.integers(-1, 2), min_size=1, max_size=30).filter(lambda v: max(v) >= 0),
    order=st.integers(1, 4),
    encoding=st.sampled_from(["onehot", "codes"]),
)
def test_augment_matches_reference(codes, order, encoding):
    codes = np.array(codes)
    y = np.where(codes >= 0, codes, np.nan)
    x = np.arange(2 * len(codes), dtype=float).reshape(-1, 2)
    got = augment_with_past_labels(x, y, order=order, encoding=encoding, classes=[0, 1, 2])
    np.testing.assert_array_equal(got, ref_augment(x, codes, 3, order, encoding))


def test_augment_is_test_then_train():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 50)
    x = rng.random((50, 2))
    base = augment_with_past_labels(x, y, order=3, classes=[0, 1, 2])
    for t in (0, 10, 49):
        y2 = y.copy()
        y2[t:] = (y2[t:] + 1) % 3  # change the present and the future
        np.testing.assert_array_equal(
            augment_with_past_labels(x, y2, order=3, classes=[0, 1, 2])[: t + 1], base[: t + 1]
        )


def test_augment_bad_arguments():
    with pytest.raises(ValueError, match="encoding must be one of"):
        augment_with_past_labels(np.zeros((2, 1)), [0, 1], encoding="hex")
    with pytest.raises(ValueError, match="to match X"):
        augment_with_past_labels(np.zeros((3, 1)), [0, 1])
    with pytest.raises(ValueError, match="order must be a positive integer, got 0"):
        augment_with_past_labels(np.zeros((2, 1)), [0, 1], order=0)
