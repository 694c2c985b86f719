"""The offline cumulative AUC (``streamtk._kernels.auc_offline``) against brute force and the Fenwick kernel.

Prequential with unit weights (or weights all 1) is integer / half-integer valued and must
equal the kernel exactly; with weights and with fading the same terms are summed in
another order (1e-12 relative). Streams have ties, weights, zero weights, missing labels,
several fading factors (incl. alpha = 0.5, where the in-block trees rebase) and checkpoints.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from streamtk._kernels import auc as K
from streamtk._kernels import auc_offline as O
from streamtk.evaluation import scores as S


def _brute_sums(r, c, g, a):
    m = r.size
    out = np.zeros(m)
    for t in range(m):
        j = np.arange(t)
        f = g[:t] * a ** (t - j)
        h = np.where(r[:t] < r[t], 1.0, np.where(r[:t] == r[t], 0.5, 0.0))
        out[t] = np.sum((f * h)[c[:t] != c[t]])
    return out


def _kernel(ranks, y, w, alphas, unit, cps):
    R = int(ranks.max()) + 1
    a = np.asarray(alphas, dtype=np.float64)
    ws = np.zeros(0, dtype=np.int64)
    lr = np.zeros((1, 0, ranks.size), dtype=np.int64)
    state = K.new_binary_state(1, R, a, ws)
    oc = np.zeros((1, a.size, cps.size, 5))
    ow = np.zeros((1, 0, cps.size, 5))
    K.binary_auc_run(ranks[None], lr, lr, y[None], w[None], a, ws, unit, 0, ranks.size, cps, 0, *state, oc, ow)
    return oc[0]


def _offline(ranks, y, w, alphas, unit, cps, block):
    a = np.asarray(alphas, dtype=np.float64)
    out = np.zeros((a.size, cps.size, 5))
    O.cumulative_offline(ranks, y, w, unit, a, int(ranks.max()) + 1, cps, out, block)
    return out


def _stream(rng, n, n_values, missing=0.1, zero=0.1, weighted=True):
    ranks = rng.integers(0, n_values, n).astype(np.int64)
    y = (rng.random(n) < 0.4).astype(np.int64)
    y[rng.random(n) < missing] = -1
    w = rng.uniform(0.3, 3.0, n) if weighted else np.ones(n)
    w[rng.random(n) < zero] = 0.0
    return ranks, y, w


@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 120),
    st.integers(1, 40),
    st.sampled_from([1, 2, 4, 8, 64]),
    st.sampled_from([1.0, 0.97, 0.5]),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_dominance_sums_equal_brute_force(m, n_values, block, alpha, unit, seed):
    rng = np.random.default_rng(seed)
    r = rng.integers(0, n_values, m).astype(np.int64)
    c = (rng.random(m) < 0.4).astype(np.int64)
    g = np.ones(m) if unit else rng.uniform(0.3, 3.0, m)
    D = O.dominance_sums(r, c, g, unit, 1.0, alpha, n_values, block)
    np.testing.assert_array_equal(D[:, 0], _brute_sums(r, c, g, 1.0)) if unit else np.testing.assert_allclose(
        D[:, 0], _brute_sums(r, c, g, 1.0), rtol=1e-12, atol=1e-300
    )
    np.testing.assert_allclose(D[:, 1], _brute_sums(r, c, g, alpha), rtol=1e-12, atol=1e-300)


@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 300),
    st.integers(1, 50),
    st.sampled_from([[1.0], [0.97], [1.0, 0.995], [0.5, 1.0, 0.9]]),
    st.sampled_from([1, 4, 16, 1024]),
    st.booleans(),
    st.booleans(),
    st.integers(1, 5),
    st.integers(0, 2**32 - 1),
)
def test_offline_equals_fenwick_kernel(n, n_values, alphas, block, unit, weighted, every, seed):
    rng = np.random.default_rng(seed)
    ranks, y, w = _stream(rng, n, n_values, weighted=weighted)
    cps = np.arange(every - 1, n, every, dtype=np.int64)
    got = _offline(ranks, y, w, alphas, unit, cps, block)
    ref = _kernel(ranks, y, w, alphas, unit, cps)
    for e, a in enumerate(alphas):
        if a == 1.0 and (unit or not weighted):
            np.testing.assert_array_equal(got[e], ref[e])
        else:  # atol: the kernel's W1 - below cancels to ~1e-16 W where the exact value is 0
            np.testing.assert_allclose(got[e], ref[e], rtol=1e-12, atol=1e-12 * np.abs(ref[e]).max(initial=0.0))


def test_offline_rebase_and_large_rank_space():
    """alpha = 0.5 rebases the in-block trees every 664 instances (blocks of 2048); R ~ n."""
    rng = np.random.default_rng(3)
    n = 20_000
    ranks, y, w = _stream(rng, n, n)
    cps = np.arange(99, n, 100, dtype=np.int64)
    alphas = [1.0, 0.5, 0.999]
    got = _offline(ranks, y, w, alphas, False, cps, 2048)
    ref = _kernel(ranks, y, w, alphas, False, cps)
    for e in range(3):
        np.testing.assert_allclose(got[e], ref[e], rtol=1e-12, atol=1e-12 * np.abs(ref[e]).max(initial=0.0))
    got = _offline(ranks, y, w, [1.0], True, cps, 2048)
    np.testing.assert_array_equal(got, _kernel(ranks, y, w, [1.0], True, cps))


@pytest.mark.parametrize("weights", [False, True])
def test_one_pass_dispatch(monkeypatch, weights):
    """auc_statistics takes the offline path past OFFLINE_MIN_RANKS: same statistics as the Fenwick path."""
    rng = np.random.default_rng(5)
    n = 5_000
    y = rng.integers(0, 2, n).astype(float)
    y[rng.random(n) < 0.05] = np.nan
    s = np.round(rng.random((2, n)), 3)
    wt = rng.uniform(0.5, 2.0, n) if weights else None
    kw = dict(windows=50, fading=(0.99, 0.9), every=37, weights=wt)
    monkeypatch.setattr(O, "OFFLINE_MIN_RANKS", 1 << 40)
    ref = S.auc_statistics(y, s, **kw)[2]
    monkeypatch.setattr(O, "OFFLINE_MIN_RANKS", 1)
    assert O.use_offline(n, 2)
    got = S.auc_statistics(y, s, **kw)[2]
    for name in ref:
        a, b = np.asarray(ref[name], dtype=float), np.asarray(got[name], dtype=float)
        if not weights and name in ("u1", "u0", "w_neg", "w_pos", "n_neg", "n_pos"):
            np.testing.assert_array_equal(b[:, :2], a[:, :2], err_msg=name)  # prequential and window exact
        # 1e-12 of each curve's scale (u0 = W0 W1 - U1 and the AUC cancel)
        scale = np.maximum(np.nanmax(np.abs(a), axis=-1, keepdims=True, initial=0.0), 1.0)
        close = (np.abs(b - a) <= 1e-12 * scale) | (np.isnan(a) & np.isnan(b))
        assert close.all(), (name, np.nanmax(np.abs(b - a) / scale))
