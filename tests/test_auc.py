"""The AUC family against O(n^2) pair counting: every forgetting mechanism, binary / one-vs-rest / pairwise.

References are the plain definitions (``tests/_auc.py``): the instances an estimator holds
after each position, their weights (``alpha**age`` for a fading factor) and every (positive,
negative) pair counted explicitly, ties one half. Streams have ties, missing labels, missing
predictions, zero and float weights, several series, and are also fed chunk by chunk.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from streamtk._core.mechanisms import build_estimators
from streamtk.drift.adwin import adwin
from tests._auc import AUC_METRICS, held, make_engine, pair_u, run_engine, stream

ALL = dict(windows=[1, 7], fading=[0.9], adwin=[0.3], tumbling=[11], landmarks=[5, 40, 41])


def _widths(y, p, member):
    """The ADWIN width after each member position (the ADWIN on the 0/1 loss of the members)."""
    wid = np.zeros(y.size, dtype=np.int64)
    wid[member] = adwin((y[member] != p[member]).astype(float), delta=0.3).width.values
    return wid


@pytest.mark.parametrize("route", ["auto", "general"])
@pytest.mark.parametrize("k, pairwise", [(2, False), (3, False), (3, True)])
@pytest.mark.parametrize("weighted", [False, True])
def test_every_mechanism_against_pair_counting(k, pairwise, weighted, route):
    n, L = 90, 2
    y, p, s, w = stream(7 * k + weighted, n, k=k, n_values=5, L=L, weighted=weighted)
    p[0, ::13] = -1  # no prediction: not evaluated for that series
    cuts = [0, 31, 32, 77, n]
    pos, got, eng = run_engine(y, s, w, p, cuts=cuts, pairwise=pairwise, route=route, **ALL)
    assert pos.tolist() == list(range(n))
    specs = eng.specs
    for l in range(L):
        member = (y >= 0) & (p[l] >= 0) & ((w[l] > 0) if weighted else True)
        wl = w[l] if weighted else np.ones(n)
        wid = _widths(y, p[l], member)
        assert wid[member].min() < wid[member].max()
        for e, sp in enumerate(specs):
            for t in range(0, n, 5):
                idx, v = held(member, wl, t, sp.kind, sp.param, wid)
                for c in range(1 if k == 2 else k):
                    col = s[l, idx] if k == 2 else s[l, idx, c]
                    u1, w0, w1 = pair_u(col, y[idx], v, 1 if k == 2 else c)
                    at = (l, e, t) if k == 2 else (l, e, t, c)
                    assert got["auc_u1"][at] == pytest.approx(u1, rel=1e-12, abs=1e-12), (sp.label, t, c)
                    defined = (y[idx] == (1 if k == 2 else c)).any() and (y[idx] != (1 if k == 2 else c)).any()
                    if defined:
                        assert got["auc"][at] == pytest.approx(u1 / (w0 * w1), rel=1e-12), (sp.label, t, c)
                        assert got["auc_u0"][at] == pytest.approx(w0 * w1 - u1, rel=1e-12, abs=1e-9)
                    else:
                        assert np.isnan(got["auc"][at]) and np.isnan(got["auc_z"][at])
                        assert got["auc_u1"][at] == 0.0 and got["auc_u0"][at] == 0.0  # exact over no pair
                if pairwise:
                    for i in range(k):
                        for j in range(k):
                            sel = (y[idx] == i) | (y[idx] == j)
                            ref = np.nan
                            if i != j and (y[idx] == i).any() and (y[idx] == j).any():
                                u, wj, wi = pair_u(s[l, idx[sel], i], y[idx[sel]], v[sel], i)
                                ref = u / (wi * wj)
                            np.testing.assert_allclose(got["auc_ovo"][l, e, t, i, j], ref, rtol=1e-12, atol=1e-12)


def test_known_answer_with_ties():
    # positives 0.8, 0.4; negatives 0.4, 0.1 -> pairs 1 + 1 + 0.5 + 1 = 3.5 of 4
    _, got, _ = run_engine(np.array([1, 0, 1, 0]), np.array([[0.8, 0.4, 0.4, 0.1]]))
    assert got["auc_u1"][0, 0].tolist() == [0.0, 1.0, 1.5, 3.5]
    assert got["auc"][0, 0, -1] == 3.5 / 4
    np.testing.assert_array_equal(got["auc"][0, 0, :1], [np.nan])


def test_mann_whitney_z_is_the_papers_formula():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 50)
    s = rng.random((1, 50))
    _, got, _ = run_engine(y, s)
    n1, n0 = (y == 1).sum(), (y == 0).sum()
    u0 = got["auc_u0"][0, 0, -1]
    assert got["auc_z"][0, 0, -1] == pytest.approx((u0 - n0 * n1 / 2) / np.sqrt(n0 * n1 * (n0 + n1 + 1) / 12))


def test_fading_renormalisation_keeps_exact_ratios():
    # alpha = 0.5 passes the tree's renormalisation every ~665 members; compare long after (old weights
    # below double precision relative to the newest are dropped from the reference)
    rng = np.random.default_rng(5)
    n = 2000
    y, _, _, w = stream(5, n, weighted=True)
    s = rng.integers(0, 50, (1, n)) / 50
    pos, got, _ = run_engine(y, s, w, every=97, fading=[0.5, 0.97], route="general")
    member = (y >= 0) & (w[0] > 0)
    for c in range(pos.size - 4, pos.size):
        t = pos[c]
        for e, a in ((1, 0.5), (2, 0.97)):
            idx, v = held(member, w[0], t, "fading", a)
            keep = v > 1e-250
            u1, w0, w1 = pair_u(s[0, idx[keep]], y[idx[keep]], v[keep], 1)
            assert got["auc_u1"][0, e, c] == pytest.approx(u1, rel=1e-9)
            assert got["auc"][0, e, c] == pytest.approx(u1 / (w0 * w1), rel=1e-9)


def test_one_class_is_nan_and_moa_gives_one():
    y = np.array([0, 0, 1, 1])
    s = np.array([[0.2, 0.4, 0.9, 0.1]])
    _, got, _ = run_engine(y, s, windows=[2])
    np.testing.assert_array_equal(got["auc"][0], [[np.nan, np.nan, 1.0, 0.5], [np.nan, np.nan, 1.0, np.nan]])
    _, moa, _ = run_engine(y, s, windows=[2], moa=True)
    np.testing.assert_array_equal(moa["auc"][0], [[1.0, 1.0, 1.0, 0.5], [1.0, 1.0, 1.0, 1.0]])


def test_sliding_window_with_float_weights_has_no_residue():
    # the example weights: when the positives have all left the window, U and the positive
    # weight are exactly 0 (not a rounding residue), so U0 = W0 W1 - U1 is exactly 0 too
    y = np.array([1, 1, 0, 0, 0])
    s = np.array([[0.3, 0.6, 0.2, 0.7, 0.1]])
    w = np.array([[0.6, 0.4, 0.5, 0.3, 0.7]])
    for route in ("auto", "general"):
        _, got, _ = run_engine(y, s, w, windows=[2], route=route)
        assert got["auc_u1"][0, 1, -1] == 0.0 and got["auc_u0"][0, 1, -1] == 0.0
        assert np.isnan(got["auc"][0, 1, -1]) and np.isnan(got["auc"][0, 1, -2])


def test_restarts_remove_or_clear_with_the_same_result():
    # a tumbling window's restart removes its held members one by one (few members, large key space)
    # or clears its trees (many members): the statistics after a restart are the same either way
    rng = np.random.default_rng(9)
    n = 600
    y, _, _, _ = stream(9, n)
    s = rng.random((1, n))  # every score distinct: a large key space
    small = run_engine(y, s, every=25, tumbling=[10], landmarks=[300])  # removal: 10 members, 600 keys
    big = run_engine(y, s, every=25, tumbling=[300], landmarks=[10, 599])  # clearing
    member = y >= 0
    for (pos, got, _), spec_params in ((small, (10, (300,))), (big, (300, (10, 599)))):
        for c, t in enumerate(pos):
            for e, (kind, param) in ((1, ("tumbling", spec_params[0])), (2, ("landmarks", spec_params[1]))):
                idx, v = held(member, np.ones(n), t, kind, param)
                u1, w0, w1 = pair_u(s[0, idx], y[idx], v, 1)
                assert got["auc_u1"][0, e, c] == u1, (kind, t)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 60),
    st.integers(1, 8),
    st.sampled_from([0.3, 0.8]),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_properties(n, window, alpha, weighted, seed):
    rng = np.random.default_rng(seed)
    y, _, _, w = stream(seed, n, n_values=7, weighted=weighted)
    s = rng.integers(0, 7, (1, n)) / 7.0
    opts = dict(windows=[window, n + 10], fading=[alpha, 1.0], tumbling=[n + 3], landmarks=[0])
    pos, got, _ = run_engine(y, s, w, **opts)
    u = got["auc_u1"][0]
    # window >= n, fading 1, a tumble longer than the stream and a landmark at 0 are prequential (the window
    # runs on its own kernel: the same terms summed over other tree nodes, exact for integer weights only)
    if weighted:
        np.testing.assert_allclose(u[2], u[0], rtol=1e-12, atol=1e-12)
    else:
        np.testing.assert_array_equal(u[2], u[0])
    np.testing.assert_allclose(u[4], u[0], rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(u[5], u[0])
    np.testing.assert_array_equal(u[6], u[0])
    # reversing the scores swaps U1 and U0; a strictly increasing transform changes nothing
    _, rev, _ = run_engine(y, 1.0 - s, w, **opts)
    np.testing.assert_allclose(rev["auc_u1"], got["auc_u0"], rtol=1e-12, atol=1e-9)
    _, mono, _ = run_engine(y, np.exp(3 * s) - 7.0, w, **opts)
    for name in AUC_METRICS:
        np.testing.assert_array_equal(mono[name], got[name])
    # causality: a prefix of the stream gives the prefix of the curves (its smaller key space sums
    # non-integer weights over other tree nodes: equal to rounding)
    m = max(1, n // 2)
    _, pre, _ = run_engine(y[:m], s[:, :m], None if w is None else w[:, :m], **opts)
    np.testing.assert_allclose(pre["auc_u1"], got["auc_u1"][:, :, :m], rtol=1e-12, atol=1e-12)
    if not weighted:
        np.testing.assert_array_equal(pre["auc_u1"][:, [0, 1, 2, 4, 5, 6]], got["auc_u1"][:, [0, 1, 2, 4, 5, 6], :m])


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 50), st.integers(0, 2**32 - 1))
def test_class_relabelling_permutes_the_per_class_auc(n, seed):
    # one-vs-rest: renaming the classes (and their score columns) permutes the per-class curves
    rng = np.random.default_rng(seed)
    y, _, s, _ = stream(seed, n, k=3, n_values=4)
    perm = rng.permutation(3)
    y2 = np.where(y >= 0, perm[np.maximum(y, 0)], -1)
    s2 = np.empty_like(s)
    s2[..., perm] = s
    _, a, _ = run_engine(y, s, windows=[5], fading=[0.9])
    _, b, _ = run_engine(y2, s2, windows=[5], fading=[0.9])
    np.testing.assert_array_equal(b["auc"][..., perm], a["auc"])
    np.testing.assert_allclose(b["auc_macro"], a["auc_macro"], rtol=1e-15)  # a mean in another order


def test_pickled_engine_continues_identically():
    y, p, s, w = stream(3, 300, weighted=True, L=2)
    opts = dict(windows=[13], fading=[0.97], adwin=[0.2], tumbling=[40], landmarks=[100])
    eng = make_engine(**opts)
    eng.update(y[:120], s[:, :120], w[:, :120], p[:, :120])
    twin = pickle.loads(pickle.dumps(eng))
    for e in (eng, twin):
        e.update(y[120:], s[:, 120:], w[:, 120:], p[:, 120:])
    a, b = eng.collect(), twin.collect()
    np.testing.assert_array_equal(a[0], b[0])
    for name in AUC_METRICS:
        np.testing.assert_array_equal(a[1][name], b[1][name])


def test_drain_gives_the_collected_rows_in_pieces():
    y, p, s, _ = stream(3, 200)
    cuts = [0, 37, 38, 120, 200]
    full_pos, full, _ = run_engine(y, s, cuts=cuts, every=16, windows=[10], fading=[0.99])
    eng = make_engine(every=16, windows=[10], fading=[0.99])
    parts = []
    for a, b in zip(cuts[:-1], cuts[1:]):
        eng.update(y[a:b], s[:, a:b])
        parts.append(eng.drain(final=b == 200))
    np.testing.assert_array_equal(np.concatenate([q for q, _ in parts]), full_pos)
    for name in AUC_METRICS:
        np.testing.assert_array_equal(np.concatenate([x[name] for _, x in parts], axis=2), full[name])


def test_history_is_bounded_by_the_windows_and_keys_are_the_distinct_scores():
    n = 3000
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, n)
    s = rng.random((1, n))
    eng = make_engine(every=100, windows=[50], fading=[0.99])
    for a in range(0, n, 100):
        eng.update(y[a : a + 100], s[:, a : a + 100])
        assert eng.h_y.size == 50  # only the instances the window holds are kept
    assert eng.keys[0][0].size == n  # prequential / fading: every distinct score seen
    assert eng.itree.shape == (1, n + 1, 2, 2)


def test_engine_errors():
    specs = build_estimators(windows=[5])
    y, p, s, _ = stream(1, 20)
    eng = make_engine(windows=[5])
    eng.update(y[:5], s[:, :5])
    bad = s[:, 5:10].copy()
    bad[0, 2] = np.nan
    y[7] = 1
    with pytest.raises(ValueError, match=r"y_score contains NaN at instance 7 \(0-based\) of series 0"):
        eng.update(y[5:10], bad)
    with pytest.raises(ValueError, match="adwin= needs y_pred"):
        run_engine(y, s, adwin=[0.1])
    with pytest.raises(ValueError, match="convention='moa' is binary only"):
        from streamtk.evaluation.auc_engine import AucEngine

        AucEngine(specs, every=1, n_classes=3, mode="multi", metrics=[], moa=True)
