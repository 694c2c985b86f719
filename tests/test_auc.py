"""Kernel tests for streamtk._kernels.auc: Fenwick U statistics against O(n^2) pair counting."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from streamtk._kernels import auc as K


# ----------------------------------------------------------------------------- references
def brute_u(score, pos, v):
    """Weighted U1 by explicit pair counting, ties one half; returns (U1, W0, W1)."""
    u1 = 0.0
    for i in range(len(score)):
        if not pos[i]:
            continue
        for j in range(len(score)):
            if pos[j]:
                continue
            h = 1.0 if score[i] > score[j] else (0.5 if score[i] == score[j] else 0.0)
            u1 += v[i] * v[j] * h
    return u1, float(np.sum(v[~pos])), float(np.sum(v[pos]))


def held(y, w, t, kind, param):
    """Indices and weights an estimator holds after instance t (inclusive): the plain definition."""
    idx = np.array([s for s in range(t + 1) if y[s] >= 0 and w[s] > 0], dtype=np.int64)
    v = w[idx].astype(float)
    if kind == K.KIND_WINDOW:
        idx, v = idx[-int(param) :], v[-int(param) :]
    elif kind == K.KIND_FADING:
        v = v * param ** np.arange(idx.size - 1, -1, -1, dtype=float)
    return idx, v


def run_binary(score, y, w, kinds, params, every=1, unit=False):
    """Drive the binary kernel like the numpy layer does; returns (checkpoints, (E, T, 5))."""
    ranks = np.unique(score, return_inverse=True)[1].reshape(1, -1).astype(np.int64)
    R = int(ranks.max()) + 1
    n = len(score)
    cps = np.arange(every - 1, n, every, dtype=np.int64)
    kinds = np.asarray(kinds, dtype=np.int64)
    params = np.asarray(params, dtype=np.float64)
    cum = np.flatnonzero(kinds != K.KIND_WINDOW)
    win = np.flatnonzero(kinds == K.KIND_WINDOW)
    alphas = np.where(kinds[cum] == K.KIND_FADING, params[cum], 1.0)
    wsizes = params[win].astype(np.int64)
    y2, w2 = y.reshape(1, -1).astype(np.int64), w.reshape(1, -1).astype(np.float64)
    lrn, lro = K.binary_local_ranks(ranks, y2, w2, wsizes, R)
    state = K.new_binary_state(1, R, alphas, wsizes)
    oc = np.zeros((1, cum.size, cps.size, 5))
    ow = np.zeros((1, win.size, cps.size, 5))
    K.binary_auc_run(ranks, lrn, lro, y2, w2, alphas, wsizes, unit, 0, n, cps, 0, *state, oc, ow)
    out = np.empty((kinds.size, cps.size, 5))
    out[cum], out[win] = oc[0], ow[0]
    return cps, out


def random_stream(rng, n, n_values=5, p_missing=0.1, p_zero=0.1, weighted=True):
    score = rng.integers(0, n_values, n).astype(float) / n_values  # many ties
    y = (rng.random(n) < 0.4).astype(np.int64)
    y[rng.random(n) < p_missing] = -1
    w = rng.uniform(0.5, 2.0, n) if weighted else np.ones(n)
    w[rng.random(n) < p_zero] = 0.0
    return score, y, w


# ---------------------------------------------------------------------------- step functions
def test_fenwick_below_half_matches_cumsum():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 5, 37).astype(float)
    tree = np.zeros(38)
    for i, xi in enumerate(x):
        K.fenwick_add(tree, i + 1, xi)
    for i in range(37):
        assert K.fenwick_below_half(tree, i + 1) == x[:i].sum() + 0.5 * x[i]


def test_binary_add_remove_round_trip_is_exact():
    rng = np.random.default_rng(2)
    tree = np.zeros((2, 11))
    stat = np.zeros(5)
    ranks = rng.integers(0, 10, 200)
    pos = rng.random(200) < 0.5
    for r, p in zip(ranks, pos):
        K.binary_add(tree, stat, r, p, 1.0, 1.0)
    u1, w0, w1 = brute_u(ranks, pos, np.ones(200))
    assert stat.tolist() == [u1, w0, w1, float((~pos).sum()), float(pos.sum())]
    for i in rng.permutation(200):  # any removal order undoes the adds exactly
        K.binary_add(tree, stat, ranks[i], pos[i], 1.0, -1.0)
    assert not stat.any() and not tree.any()


def test_known_answer_with_ties():
    # positives 0.8, 0.4; negatives 0.4, 0.1 -> pairs: 1 + 1 + 0.5 + 1 = 3.5 of 4
    score = np.array([0.8, 0.4, 0.4, 0.1])
    y = np.array([1, 0, 1, 0])
    _, out = run_binary(score, y, np.ones(4), [K.KIND_PREQUENTIAL], [0.0])
    assert out[0, -1].tolist() == [3.5, 2.0, 2.0, 2.0, 2.0]
    assert out[0, 1].tolist() == [1.0, 1.0, 1.0, 1.0, 1.0]


@pytest.mark.parametrize("weighted", [False, True])
def test_every_prefix_window_tail_and_faded_sample(weighted):
    rng = np.random.default_rng(3 + weighted)
    n = 120
    score, y, w = random_stream(rng, n, weighted=weighted)
    kinds = [K.KIND_PREQUENTIAL, K.KIND_WINDOW, K.KIND_WINDOW, K.KIND_FADING, K.KIND_FADING]
    params = [0.0, 1.0, 7.0, 0.9, 0.5]
    cps, out = run_binary(score, y, w, kinds, params)
    for t in cps:
        for e, (kind, param) in enumerate(zip(kinds, params)):
            idx, v = held(y, w, t, kind, param)
            u1, w0, w1 = brute_u(score[idx], y[idx] == 1, v)
            np.testing.assert_allclose(out[e, t, :3], [u1, w0, w1], rtol=1e-12, atol=1e-12)
            assert out[e, t, 3] == np.sum(y[idx] == 0) and out[e, t, 4] == np.sum(y[idx] == 1)


def test_fading_rescale_keeps_exact_ratios():
    """alpha = 0.5 passes the rescale thresholds (every ~330 / ~660 instances); compare long after."""
    rng = np.random.default_rng(5)
    n = 2000
    score, y, w = random_stream(rng, n, n_values=50)
    cps, out = run_binary(score, y, w, [K.KIND_FADING, K.KIND_FADING], [0.5, 0.97], every=97)
    for k in range(cps.size - 4, cps.size):
        t = cps[k]
        for e, a in enumerate([0.5, 0.97]):
            idx, v = held(y, w, t, K.KIND_FADING, a)
            keep = v > 1e-250  # older weights are below double precision relative to the newest
            u1, w0, w1 = brute_u(score[idx[keep]], y[idx[keep]] == 1, v[keep])
            np.testing.assert_allclose(out[e, k, :3], [u1, w0, w1], rtol=1e-9)
    # the general (multi-class) layout rescales U with the trees
    ranks = np.unique(score, return_inverse=True)[1].reshape(1, -1, 1).astype(np.int64)
    kinds, params = np.array([2, 2], dtype=np.int64), np.array([0.5, 0.97])
    oU, oW, oN = (np.zeros((1, 2, cps.size, 1, 2)) for _ in range(3))
    K.auc_run(
        ranks,
        y[None],
        w[None],
        kinds,
        params,
        np.array([[0, 1]]),
        np.array([1]),
        False,
        0,
        n,
        cps,
        0,
        *K.new_state(1, 2, 1, 2, int(ranks.max()) + 1, kinds, params),
        oU,
        oW,
        oN,
    )
    np.testing.assert_allclose(oU[0, :, :, 0, 0], out[:, :, 0], rtol=1e-9)
    np.testing.assert_allclose(oW[0, :, :, 0], out[:, :, 1:3], rtol=1e-9)


def test_unit_weights_ignore_weight_values():
    rng = np.random.default_rng(6)
    score, y, w = random_stream(rng, 80)
    _, a = run_binary(score, y, w, [K.KIND_WINDOW], [10.0], unit=True)
    _, b = run_binary(score, y, (w > 0).astype(float), [K.KIND_WINDOW], [10.0])
    np.testing.assert_array_equal(a, b)


def test_chunked_state_carry_equals_one_pass():
    rng = np.random.default_rng(7)
    n = 300
    score, y, w = random_stream(rng, n, n_values=20)
    ranks = np.unique(score, return_inverse=True)[1].reshape(1, -1).astype(np.int64)
    R = int(ranks.max()) + 1
    alphas = np.array([1.0, 0.95, 0.3])
    wsizes = np.array([25, 4], dtype=np.int64)
    cps = np.arange(9, n, 10, dtype=np.int64)
    y2, w2 = y.reshape(1, -1), w.reshape(1, -1)
    lrn, lro = K.binary_local_ranks(ranks, y2, w2, wsizes, R)
    outs = []
    for bounds in ([(0, n)], [(0, 37), (37, 38), (38, 200), (200, n)]):
        state = K.new_binary_state(1, R, alphas, wsizes)
        oc, ow = np.zeros((1, 3, cps.size, 5)), np.zeros((1, 2, cps.size, 5))
        for a, b in bounds:
            cp0 = int(np.searchsorted(cps, a))
            K.binary_auc_run(ranks, lrn, lro, y2, w2, alphas, wsizes, False, a, b, cps, cp0, *state, oc, ow)
        outs.append((oc, ow))
    np.testing.assert_array_equal(outs[0][0], outs[1][0])
    np.testing.assert_array_equal(outs[0][1], outs[1][1])


def test_window_local_ranks_preserve_order_within_two_blocks():
    rng = np.random.default_rng(17)
    n, w = 103, 8
    ranks = rng.integers(0, 30, n)
    ev = rng.random(n) < 0.8
    new, old = K.window_local_ranks(ranks, ev, w, 30)
    q = np.flatnonzero(ev)
    assert (new[~ev] == -1).all() and (old[~ev] == -1).all()
    for b in range((q.size + w - 1) // w):
        cur = q[b * w : (b + 1) * w]
        prev = q[(b - 1) * w : b * w] if b else q[:0]
        both = np.r_[prev, cur]
        local = np.r_[old[prev], new[cur]]
        dense = np.unique(ranks[both], return_inverse=True)[1]
        np.testing.assert_array_equal(local, dense)


def test_general_kernel_equals_binary_fast_path_and_parallel_leads():
    rng = np.random.default_rng(8)
    n, L = 150, 3
    scores = rng.integers(0, 9, (L, n)).astype(float)
    y = (rng.random(n) < 0.5).astype(np.int64)
    w = rng.uniform(0, 2, (L, n))
    ranks = np.stack([np.unique(s, return_inverse=True)[1] for s in scores]).astype(np.int64)
    R = int(ranks.max()) + 1
    kinds = np.array([0, 1, 2], dtype=np.int64)
    params = np.array([0.0, 11.0, 0.9])
    cps = np.arange(n, dtype=np.int64)
    grp = np.array([[0, 1]], dtype=np.int64)
    pg = np.array([1], dtype=np.int64)
    oU, oW, oN = (np.zeros((L, 3, n, 1, 2)) for _ in range(3))
    K.auc_run(
        ranks[..., None],
        y[None],
        w,
        kinds,
        params,
        grp,
        pg,
        False,
        0,
        n,
        cps,
        0,
        *K.new_state(L, 3, 1, 2, R, kinds, params),
        oU,
        oW,
        oN,
    )
    alphas = np.array([1.0, 0.9])
    wsizes = np.array([11], dtype=np.int64)
    lrn, lro = K.binary_local_ranks(ranks, y[None], w, wsizes, R)
    oc, ow = np.zeros((L, 2, n, 5)), np.zeros((L, 1, n, 5))
    K.binary_auc_run(
        ranks,
        lrn,
        lro,
        y[None],
        w,
        alphas,
        wsizes,
        False,
        0,
        n,
        cps,
        0,
        *K.new_binary_state(L, R, alphas, wsizes),
        oc,
        ow,
    )
    out = np.stack([oc[:, 0], ow[:, 0], oc[:, 1]], axis=1)
    np.testing.assert_allclose(oU[..., 0, 0], out[..., 0], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(oW[..., 0, :], out[..., 1:3], rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(oN[..., 0, :], out[..., 3:5])
    for l in range(L):  # each lead equals its own single-lead run
        _, single = run_binary(scores[l], y, w[l], kinds, params)
        np.testing.assert_allclose(out[l], single, rtol=1e-13, atol=1e-13)


def test_pairwise_kernel_against_pair_counting():
    rng = np.random.default_rng(9)
    n, k = 90, 3
    p = rng.integers(0, 4, (n, k)).astype(float)
    y = rng.integers(0, k, n).astype(np.int64)
    y[::11] = -1
    w = rng.uniform(0.5, 1.5, n)
    ranks = np.stack([np.unique(p[:, c], return_inverse=True)[1] for c in range(k)], axis=-1)[None].astype(np.int64)
    R = int(ranks.max()) + 1
    kinds = np.array([0, 1], dtype=np.int64)
    params = np.array([0.0, 30.0])
    grp = np.ascontiguousarray(np.broadcast_to(np.arange(k), (k, k)), dtype=np.int64)
    pg = np.arange(k, dtype=np.int64)
    cps = np.arange(n, dtype=np.int64)
    oU, oW, oN = (np.zeros((1, 2, n, k, k)) for _ in range(3))
    K.auc_run(
        ranks,
        y[None],
        w[None],
        kinds,
        params,
        grp,
        pg,
        False,
        0,
        n,
        cps,
        0,
        *K.new_state(1, 2, k, k, R, kinds, params),
        oU,
        oW,
        oN,
    )
    for t in range(0, n, 7):
        for e, (kind, param) in enumerate(zip(kinds, params)):
            idx, v = held(y, w, t, kind, param)
            for i in range(k):
                for j in range(k):
                    if i == j:
                        continue
                    sel = (y[idx] == i) | (y[idx] == j)
                    u1, wj, wi = brute_u(p[idx[sel], i], y[idx[sel]] == i, v[sel])
                    assert oU[0, e, t, i, j] == pytest.approx(u1, abs=1e-12)
                    assert oW[0, e, t, i, j] == pytest.approx(wj, abs=1e-12)
                    assert oW[0, e, t, i, i] == pytest.approx(wi, abs=1e-12)


# ------------------------------------------------------------------------------ properties
streams = st.integers(min_value=1, max_value=60).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 6), min_size=n, max_size=n),
        st.lists(st.integers(-1, 1), min_size=n, max_size=n),
        st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0]), min_size=n, max_size=n),
    )
)


@given(streams, st.integers(1, 8), st.sampled_from([0.3, 0.8, 1.0]))
def test_properties(data, window, alpha):
    s, y, w = (np.array(a, dtype=float) for a in data)
    y = y.astype(np.int64)
    n = len(s)
    kinds = [K.KIND_PREQUENTIAL, K.KIND_WINDOW, K.KIND_FADING, K.KIND_WINDOW, K.KIND_FADING]
    params = [0.0, float(window), alpha, float(n), 1.0]
    _, out = run_binary(s, y, w, kinds, params)
    # window >= n and fading 1 equal prequential
    np.testing.assert_array_equal(out[3], out[0])
    np.testing.assert_allclose(out[4], out[0], rtol=1e-12, atol=1e-12)
    # reversing the scores swaps U1 and U0: AUC(1 - s) = 1 - AUC(s)
    _, rev = run_binary(1.0 - s, y, w, kinds, params)
    prod = out[:, :, 1] * out[:, :, 2]
    np.testing.assert_allclose(rev[:, :, 0], prod - out[:, :, 0], rtol=1e-12, atol=1e-9)
    # a strictly increasing transform of the scores changes nothing
    _, mono = run_binary(np.exp(3 * s) - 7.0, y, w, kinds, params)
    np.testing.assert_array_equal(mono, out)
