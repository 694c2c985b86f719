"""The offline cumulative AUC (``streamtk._kernels.auc.offline``) against brute force and the Fenwick kernel.

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

from streamtk._core.mechanisms import build_estimators, kernel_arrays
from streamtk._kernels.auc import offline as O


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
    """The Fenwick kernels' snapshots at ``cps`` (the general kernel run directly)."""
    from streamtk._kernels.auc import general as KG
    from streamtk._kernels.auc import layout as LY

    specs = build_estimators(prequential=1.0 in alphas, fading=[a for a in alphas if a < 1.0])
    kinds, sizes, fading, marks, mark_off = kernel_arrays(specs)
    E = len(specs)
    R = int(ranks.max()) + 1
    mech = LY.Mechanisms(
        kinds, sizes, fading, marks, mark_off, np.arange(E), np.full(E, -1), np.zeros((1, 1, 0), dtype=np.int64)
    )
    state = LY.State(np.zeros((1, E, 3, 1, 2)), np.ones((1, E)), np.zeros((1, E, LY.N_PTR), dtype=np.int64),
                     np.zeros((1, E, 1, 2, R + 1)), np.zeros((1, 0, 1, 2, 1)))  # fmt: skip
    member = ((y >= 0) & (w > 0)).astype(np.uint8)[None]
    inp = LY.Inputs(
        y.astype(np.int64),
        member,
        w[None].astype(float),
        ranks.reshape(1, -1, 1).astype(np.int64),
        ranks.reshape(1, -1, 1)[:, :0].astype(np.int64),
    )
    snap = np.zeros((1, E, 3, 1, 2, cps.size))
    grps = LY.Groups(np.array([[0, 1]]), np.ones(1, dtype=np.int64), unit)
    KG.run(inp, grps, mech, state, (np.int64(0), np.int64(0)), np.arange(E), cps, snap)
    snap = np.moveaxis(snap, -1, 2)  # (1, E, checkpoints, 3, 1, 2), as the offline kernel writes them
    labels = [sp.label for sp in specs]
    return snap[0, [labels.index("prequential" if a == 1.0 else f"fading={a!r}") for a in alphas]]


def _offline(ranks, y, w, alphas, unit, cps, block):
    a = np.asarray(alphas, dtype=np.float64)
    out = np.zeros((a.size, cps.size, 3, 1, 2))
    member = ((y >= 0) & (w > 0)).astype(np.uint8)
    O.cumulative_offline(ranks.astype(np.int64), np.maximum(y, 0).astype(np.int64), member, w.astype(float), unit, a,
                         int(ranks.max()) + 1, cps, out, block)  # fmt: skip
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
    """auc_curves takes the offline path past OFFLINE_MIN_RANKS: the same statistics as the Fenwick path."""
    from streamtk.evaluation.scores import auc_curves

    rng = np.random.default_rng(5)
    n = 5_000
    y = rng.integers(0, 2, n).astype(float)
    y[rng.random(n) < 0.05] = np.nan
    s = np.round(rng.random((2, n)), 3)
    wt = rng.uniform(0.5, 2.0, n) if weights else None
    kw = dict(windows=50, fading=(0.99, 0.9), every=37, weights=wt)
    monkeypatch.setattr(O, "OFFLINE_MIN_RANKS", 1 << 40)
    ref = auc_curves(y, s, **kw)
    monkeypatch.setattr(O, "OFFLINE_MIN_RANKS", 1)
    assert O.use_offline(n, 2)
    got = auc_curves(y, s, **kw)
    for name in ref.data_vars:
        a, b = ref[name].values, got[name].values
        if not weights and name in ("auc_u1", "auc_u0"):
            np.testing.assert_array_equal(b[:, :2], a[:, :2], err_msg=name)  # prequential and window exact
        # 1e-12 of each curve's scale (u0 = W0 W1 - U1 and the AUC cancel)
        scale = np.maximum(np.nanmax(np.abs(a), axis=-1, keepdims=True, initial=0.0), 1.0)
        close = (np.abs(b - a) <= 1e-12 * scale) | (np.isnan(a) & np.isnan(b))
        assert close.all(), (name, np.nanmax(np.abs(b - a) / scale))
