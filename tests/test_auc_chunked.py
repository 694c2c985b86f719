"""Exact AUC with carried state: chunked == one pass, O(n^2) references, ADWIN windows, out of core."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

import streamtk
from streamtk._core.labels import encode_labels
from streamtk._kernels.adwin import VARIANT_CODES
from streamtk.drift.adwin import adwin
from streamtk.evaluation.engine import EngineCore
from streamtk.evaluation.score_engine import ChunkedAUC, auc_arrays

AUC_METRICS = ["auc", "auc_u1", "auc_u0", "auc_z"]


# ----------------------------------------------------------------------------- references
def pair_u(score, y, v, pos):
    """(U1, W0, W1) of class ``pos`` against the rest by explicit pair counting, ties one half."""
    u = 0.0
    for i in range(len(y)):
        if y[i] != pos:
            continue
        for j in range(len(y)):
            if y[j] == pos:
                continue
            h = 1.0 if score[i] > score[j] else (0.5 if score[i] == score[j] else 0.0)
            u += v[i] * v[j] * h
    return u, float(v[y != pos].sum()), float(v[y == pos].sum())


def held(y, w, t, kind, param, widths=None):
    """Indices and weights an estimator holds after instance ``t``: the plain definition."""
    idx = np.array([s for s in range(t + 1) if y[s] >= 0 and w[s] > 0], dtype=np.int64)
    v = w[idx].astype(float)
    if kind == "window":
        idx, v = idx[-int(param) :], v[-int(param) :]
    elif kind == "fading":
        v = v * param ** np.arange(idx.size - 1, -1, -1, dtype=float)
    elif kind == "adwin":  # the width after the last evaluated instance
        m = int(widths[idx[-1]]) if idx.size else 0
        idx, v = idx[idx.size - m :], v[idx.size - m :]
    return idx, v


def make_core(k, *, windows=(), fading=(), adwin=(), every=1, scores="binary", convention="streamtk", metrics=None):
    enc, _ = encode_labels(np.arange(k), classes=list(range(k)))
    mets = metrics or (AUC_METRICS + (["auc_macro"] if scores == "multi" else []))
    return EngineCore(
        encoding=enc,
        windows=windows,
        fading=fading,
        adwin=adwin,
        every=every,
        metrics=mets,
        scores=scores,
        convention=convention,
    )


def run_chunked(core, y, p, w, s, cuts):
    ch = ChunkedAUC(core, VARIANT_CODES[core.adwin_options["variant"]])
    for a, b in zip(cuts[:-1], cuts[1:]):
        ch.update(y[a:b], p[:, a:b], None if w is None else w[:, a:b], s[:, a:b])
    return ch


def one_pass(core, y, p, w, s):
    n = y.size
    pos = np.unique(np.r_[np.arange(core.every - 1, n, core.every), n - 1]).astype(np.int64)
    arrays = auc_arrays(core, y, p, w, s, core.scores, pos, VARIANT_CODES["moa"])
    return pos, {k: np.swapaxes(v, 1, 2) for k, v in arrays.items()}  # (L, E, T[, k])


def stream(seed, n, k=2, n_values=6, p_missing=0.1, L=1):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n).astype(np.int32)
    y[rng.random(n) < p_missing] = -1
    if k == 2:
        s = rng.integers(0, n_values, (L, n)) / n_values  # many ties
    else:
        s = rng.integers(0, n_values, (L, n, k)) / n_values
    p = rng.integers(0, k, (L, n)).astype(np.int32)
    return y, p, s


def cut_points(rng, n, m):
    inner = np.sort(rng.choice(np.arange(1, n), size=min(m, n - 1), replace=False)) if n > 1 else []
    return [0, *map(int, inner), n]


# ---------------------------------------------------------------------------- chunked == one pass
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(1, 90),
    m=st.integers(0, 8),
    every=st.integers(1, 7),
    weighted=st.booleans(),
)
def test_chunked_equals_one_pass_binary(seed, n, m, every, weighted):
    y, p, s = stream(seed, n, L=2)
    rng = np.random.default_rng(seed + 1)
    w = np.where(rng.random((2, n)) < 0.15, 0.0, rng.uniform(0.5, 2.0, (2, n))) if weighted else None
    core = make_core(2, windows=[1, 5, 200], fading=[0.9], adwin=[0.5], every=every)
    pos, ref = one_pass(core, y, p, w, s)
    ch = run_chunked(core, y, p, w, s, cut_points(rng, n, m))
    got_pos, got = ch.collect()
    np.testing.assert_array_equal(got_pos, pos)
    exact = [e for e, sp in enumerate(core.specs) if sp.kind != "fading"]
    for name in AUC_METRICS:
        if weighted:  # weighted sums: a different summation order (key space) -> last-place differences
            np.testing.assert_allclose(got[name], ref[name], rtol=1e-12, atol=1e-12)
        else:  # counts of pairs and halves: exact
            np.testing.assert_array_equal(got[name][:, exact], ref[name][:, exact])
            np.testing.assert_allclose(got[name], ref[name], rtol=1e-12, atol=1e-12)


@given(seed=st.integers(0, 10_000), n=st.integers(1, 70), m=st.integers(0, 6))
def test_chunked_equals_one_pass_multiclass(seed, n, m):
    y, p, s = stream(seed, n, k=3, n_values=4, L=2)
    core = make_core(3, windows=[7], fading=[0.95], adwin=[0.3], every=3, scores="multi")
    pos, ref = one_pass(core, y, p, None, s)
    got_pos, got = run_chunked(core, y, p, None, s, cut_points(np.random.default_rng(seed), n, m)).collect()
    np.testing.assert_array_equal(got_pos, pos)
    exact = [e for e, sp in enumerate(core.specs) if sp.kind != "fading"]
    for name in AUC_METRICS + ["auc_macro"]:
        np.testing.assert_array_equal(got[name][:, exact], ref[name][:, exact])
        np.testing.assert_allclose(got[name], ref[name], rtol=1e-12, atol=1e-12)


def test_drain_gives_the_collected_rows_in_pieces():
    y, p, s = stream(3, 200)
    core = make_core(2, windows=[10], fading=[0.99], every=16)
    cuts = [0, 37, 38, 120, 200]
    full_pos, full = run_chunked(core, y, p, None, s, cuts).collect()
    ch = ChunkedAUC(core, VARIANT_CODES["moa"])
    parts = []
    for a, b in zip(cuts[:-1], cuts[1:]):
        ch.update(y[a:b], p[:, a:b], None, s[:, a:b])
        parts.append(ch.drain(final=b == 200))
    np.testing.assert_array_equal(np.concatenate([q for q, _ in parts]), full_pos)
    for name in AUC_METRICS:
        np.testing.assert_array_equal(np.concatenate([a[name] for _, a in parts], axis=2), full[name])


# ---------------------------------------------------------------------------- O(n^2) references
@pytest.mark.parametrize("k", [2, 3])
def test_chunked_against_pair_counting(k):
    n = 150
    y, p, s = stream(11, n, k=k, n_values=5)
    rng = np.random.default_rng(5)
    w = np.where(rng.random((1, n)) < 0.1, 0.0, rng.uniform(0.5, 2.0, (1, n)))
    scores = "binary" if k == 2 else "multi"
    core = make_core(k, windows=[13], fading=[0.97], adwin=[0.2], scores=scores)
    ch = run_chunked(core, y, p, w, s, [0, 31, 32, 99, n])
    _, got = ch.collect()
    ev = (y >= 0) & (w[0] > 0)
    wid = np.zeros(n, dtype=np.int64)
    wid[ev] = adwin((y[ev] != p[0, ev]).astype(float), delta=0.2).width.values
    assert wid[ev].min() < wid[ev].max()  # the ADWIN window does cut
    for e, sp in enumerate(core.specs):
        for t in range(0, n, 7):
            idx, v = held(y, w[0], t, sp.kind, sp.param, wid)
            for c in range(1 if k == 2 else k):
                col = s[0, idx] if k == 2 else s[0, idx, c]
                u1, w0, w1 = pair_u(col, y[idx], v, 1 if k == 2 else c)
                auc = got["auc"][0, e, t] if k == 2 else got["auc"][0, e, t, c]
                u = got["auc_u1"][0, e, t] if k == 2 else got["auc_u1"][0, e, t, c]
                assert u == pytest.approx(u1, rel=1e-12, abs=1e-12), (sp.label, t, c)
                if w0 > 0 and w1 > 0:
                    assert auc == pytest.approx(u1 / (w0 * w1), rel=1e-12), (sp.label, t, c)
                else:
                    assert np.isnan(auc)


def test_adwin_window_auc_for_class_scores_in_evaluate():
    rng = np.random.default_rng(8)
    n, k = 700, 3
    y = rng.integers(0, k, n)
    drift = np.arange(n) > 350
    s = rng.dirichlet(np.ones(k), size=n).round(2)
    s[np.arange(n), np.where(drift, (y + 1) % k, y)] += 0.6
    pred = s.argmax(axis=1)
    ds = streamtk.evaluate(y, pred, y_score=s, adwin=[0.05], metrics=["auc", "auc_macro", "n_instances"])
    ds = ds.sel(estimator="adwin=0.05")
    wid = adwin((y != pred).astype(float), delta=0.05).width.values
    assert wid.min() < wid.max() - 100
    np.testing.assert_array_equal(ds.n_instances.values, wid)
    for t in range(20, n, 41):
        lo = t + 1 - wid[t]
        per = []
        for c in range(k):
            u1, w0, w1 = pair_u(s[lo : t + 1, c], y[lo : t + 1], np.ones(t + 1 - lo), c)
            ref = u1 / (w0 * w1) if w0 > 0 and w1 > 0 else np.nan
            per.append(ref)
            np.testing.assert_allclose(ds.auc.values[t, c], ref, rtol=1e-12)
        np.testing.assert_allclose(ds.auc_macro.values[t], np.nanmean(per), rtol=1e-12)


# ---------------------------------------------------------------------------- memory bound
def test_window_state_stays_bounded_and_cumulative_keys_are_the_distinct_scores():
    n = 3000
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, n).astype(np.int32)
    p = y[None, :].copy()
    s = rng.random((1, n))  # all distinct
    core = make_core(2, windows=[50], fading=[0.99], every=100)
    ch = ChunkedAUC(core, VARIANT_CODES["moa"])
    for a in range(0, n, 100):
        ch.update(y[a : a + 100], p[:, a : a + 100], None, s[:, a : a + 100])
        assert ch.h_y.size == 50  # only the instances the window holds are kept
    assert ch.c_nk[0, 0] == n  # prequential / fading: every distinct score seen
    assert ch.c_btree.shape[1] == n + 1  # (L, D + 1, class, estimator)


# ---------------------------------------------------------------------------- labelled API
def test_evaluator_with_auc_equals_evaluate():
    rng = np.random.default_rng(4)
    n = 400
    y = rng.integers(0, 2, n)
    s = np.stack([rng.integers(0, 30, n) / 30, rng.random(n)])
    p = (s > 0.5).astype(int)
    opts = dict(windows=[25], fading=[0.99], adwin=[0.1], every=10)
    ds = streamtk.evaluate(y, p, y_score=s, **opts)
    ev = streamtk.Evaluator(classes=[0, 1], scores="binary", **opts)
    for a, b in [(0, 3), (3, 170), (170, 171), (171, 400)]:
        ev.update(y[a:b], p[:, a:b], y_score=s[:, a:b])
    res = ev.result()
    assert set(AUC_METRICS) <= set(res.data_vars)
    for name in ds.data_vars:
        a, b = ds[name], res[name].transpose(*ds[name].dims)
        assert a.dims == b.dims
        if name.startswith("auc"):
            np.testing.assert_array_equal(
                a.drop_sel(estimator="fading=0.99").values, b.drop_sel(estimator="fading=0.99").values
            )
            np.testing.assert_allclose(a.values, b.values, rtol=1e-12, atol=1e-12)
        else:
            np.testing.assert_array_equal(a.values, b.values)


def test_evaluate_store_with_scores_equals_evaluate(tmp_path):
    from streamtk.runners.outofcore import evaluate_store

    rng = np.random.default_rng(6)
    n, k = 500, 3
    y = rng.integers(0, k, n)
    sc = rng.dirichlet(np.ones(k), size=(2, n)).round(2)
    pred = sc.argmax(-1)
    log = xr.Dataset(
        {"y_true": ("time", y), "y_pred": (("model", "time"), pred), "y_score": (("model", "time", "class"), sc)}
    )
    path = tmp_path / "log.zarr"
    chunks = {"y_true": (64,), "y_pred": (2, 64), "y_score": (2, 64, k)}
    log.to_zarr(path, zarr_format=2, encoding={v: {"chunks": c} for v, c in chunks.items()})
    opts = dict(windows=[40], fading=[0.98], adwin=[0.1], every=9)
    ds = streamtk.evaluate(y, pred, y_score=sc, classes=[0, 1, 2], **opts)
    got = evaluate_store(
        path, chunk=77, classes=[0, 1, 2], y_score="y_score", out=tmp_path / "curves.zarr", out_chunk=16, **opts
    ).load()
    for name in ds.data_vars:
        a, b = ds[name].values, got[name].transpose(*ds[name].dims).values
        if name.startswith("auc"):
            keep = ds.estimator.values != "fading=0.98"
            np.testing.assert_array_equal(a[:, keep], b[:, keep])
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
        else:
            np.testing.assert_array_equal(a, b)


def test_chunked_errors():
    core = make_core(2, windows=[5])
    ch = ChunkedAUC(core, VARIANT_CODES["moa"])
    y = np.array([0, 1, 1], dtype=np.int32)
    ch.update(y, y[None], None, np.array([[0.1, 0.2, 0.3]]))
    with pytest.raises(ValueError, match=r"y_score contains NaN at instance 4 \(0-based\) of series 0"):
        ch.update(y, y[None], None, np.array([[0.1, np.nan, 0.3]]))
    with pytest.raises(ValueError, match="convention='moa' is binary only"):
        ChunkedAUC(make_core(3, scores="multi", convention="moa"), VARIANT_CODES["moa"])


def test_moa_convention_chunked_matches_one_pass():
    y, p, s = stream(9, 120)
    core = make_core(2, windows=[10], fading=[0.9], adwin=[0.1], convention="moa", every=5)
    pos, ref = one_pass(core, y, p, None, s)
    got_pos, got = run_chunked(core, y, p, None, s, [0, 50, 51, 120]).collect()
    for name in AUC_METRICS:
        np.testing.assert_array_equal(got[name], ref[name])
    kinds = [sp.kind for sp in core.specs]
    assert np.isnan(got["auc"][:, kinds.index("fading")]).all()  # MOA has no faded / ADWIN AUC
    assert np.isnan(got["auc"][:, kinds.index("adwin")]).all()
    # one class held: MOA's 1.0 (NaN by default), chunked too
    yk = np.array([1, 1, 0], dtype=np.int32)
    sk = np.array([[0.2, 0.4, 0.3]])
    for conv, first in (("moa", 1.0), ("streamtk", np.nan)):
        c = make_core(2, windows=[2], convention=conv)
        _, a = run_chunked(c, yk, yk[None], None, sk, [0, 1, 3]).collect()
        np.testing.assert_array_equal(a["auc"][0, :, :2], np.full((2, 2), first))
        np.testing.assert_array_equal(a["auc"][0, :, 2], [0.5, 1.0])  # prequential 1/2; window (0.4 vs 0.3)


def test_long_chunk_split_into_window_pieces_equals_one_pass():
    # a sliding window works on pieces of max(8 w, 8192) instances: cross piece boundaries
    y, p, s = stream(12, 30_000, n_values=20_000)
    core = make_core(2, windows=[2, 1500], fading=[0.999], every=997)
    pos, ref = one_pass(core, y, p, None, s)
    got_pos, got = run_chunked(core, y, p, None, s, [0, 9_000, 9_001, 30_000]).collect()
    np.testing.assert_array_equal(got_pos, pos)
    for name in AUC_METRICS:
        np.testing.assert_array_equal(got[name][:, :3], ref[name][:, :3])  # prequential and windows: exact
        np.testing.assert_allclose(got[name], ref[name], rtol=1e-12, atol=1e-12)


def test_weighted_leads_across_window_pieces_match_one_pass():
    y, p, s = stream(13, 20_000, n_values=50, L=2)
    rng = np.random.default_rng(14)
    w = np.where(rng.random((2, 20_000)) < 0.2, 0.0, rng.uniform(0.5, 2.0, (2, 20_000)))
    core = make_core(2, windows=[3, 1100], every=1_000)
    pos, ref = one_pass(core, y, p, w, s)
    got_pos, got = run_chunked(core, y, p, w, s, [0, 7_000, 20_000]).collect()
    np.testing.assert_array_equal(got_pos, pos)
    for name in AUC_METRICS:
        np.testing.assert_allclose(got[name], ref[name], rtol=1e-12, atol=1e-12)


def test_adwin_key_space_is_pruned_after_a_cut_and_stays_exact():
    # 5000 accurate instances, then a drift: ADWIN drops most of its window, and its key
    # space (all-distinct scores) is rebuilt from the instances still held
    rng = np.random.default_rng(15)
    n = 6_000
    y = rng.integers(0, 2, n).astype(np.int32)
    wrong = rng.random(n) < np.where(np.arange(n) < 5_000, 0.05, 0.9)
    p = np.where(wrong, 1 - y, y).astype(np.int32)[None]
    s = rng.random((1, n))
    core = make_core(2, adwin=[0.01], every=50)
    pos, ref = one_pass(core, y, p, None, s)
    ch = run_chunked(core, y, p, None, s, list(range(0, n, 200)) + [n])
    got_pos, got = ch.collect()
    np.testing.assert_array_equal(got_pos, pos)
    for name in AUC_METRICS:
        np.testing.assert_array_equal(got[name], ref[name])
    e = ch.adw[0]
    held = int(ch.w_istate[e][0, 0, 1])
    assert held < 1_100  # the drift cut the window (it held ~5000 before)
    assert ch.w_keys[e][1].max() <= 2 * (held + 200) + 1024  # stale keys were dropped
