"""Exact AUC with carried state: chunk by chunk == one pass, through the engine and the public API.

Chunked evaluation keeps merged key spaces (accumulators) and the held inputs (sliding windows);
where every sum is exact in float64 (integer weights, no fading factor) the rows equal the one
pass bit for bit, otherwise to a few units in the last place (other tree nodes, another order).
"""

from __future__ import annotations

import numpy as np
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st

import streamtk
from streamtk.drift.adwin import adwin
from tests._auc import AUC_METRICS, pair_u, run_engine, stream

ALL = dict(windows=[1, 5, 200], fading=[0.9], adwin=[0.5], tumbling=[7], landmarks=[3, 30])


def cut_points(rng, n, m):
    inner = np.sort(rng.choice(np.arange(1, n), size=min(m, n - 1), replace=False)) if n > 1 else []
    return [0, *map(int, inner), n]


def _same(got, ref, exact, weighted):
    for name in got:
        if weighted:
            np.testing.assert_allclose(got[name], ref[name], rtol=1e-12, atol=1e-12, err_msg=name)
        else:
            np.testing.assert_array_equal(got[name][:, exact], ref[name][:, exact], err_msg=name)
            np.testing.assert_allclose(got[name], ref[name], rtol=1e-12, atol=1e-12, err_msg=name)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(1, 90),
    m=st.integers(0, 8),
    every=st.integers(1, 7),
    k=st.sampled_from([2, 3]),
    weighted=st.booleans(),
)
def test_chunked_equals_one_pass(seed, n, m, every, k, weighted):
    y, p, s, w = stream(seed, n, k=k, L=2, weighted=weighted)
    p[1, ::5] = -1
    pos, ref, eng = run_engine(y, s, w, p, every=every, **ALL)
    got_pos, got, _ = run_engine(y, s, w, p, cuts=cut_points(np.random.default_rng(seed), n, m), every=every, **ALL)
    np.testing.assert_array_equal(got_pos, pos)
    exact = [e for e, sp in enumerate(eng.specs) if sp.kind != "fading"]
    _same(got, ref, exact, weighted)


def test_long_chunks_and_large_key_spaces_equal_one_pass():
    # windows of 2 and 1500 and a tumbling window across chunk boundaries, 20,000 distinct scores
    y, p, s, _ = stream(12, 30_000, n_values=20_000)
    opts = dict(windows=[2, 1500], fading=[0.999], tumbling=[4096], every=997)
    pos, ref, _ = run_engine(y, s, **opts)
    got_pos, got, _ = run_engine(y, s, cuts=[0, 9_000, 9_001, 30_000], **opts)
    np.testing.assert_array_equal(got_pos, pos)
    _same(got, ref, [0, 1, 2, 4], False)


def test_adwin_history_is_the_window_and_stays_exact_after_a_cut():
    # 5000 accurate instances, then a drift: the ADWIN window (held inputs) shrinks, exactly as in one pass
    rng = np.random.default_rng(15)
    n = 6_000
    y = rng.integers(0, 2, n)
    wrong = rng.random(n) < np.where(np.arange(n) < 5_000, 0.05, 0.9)
    p = np.where(wrong, 1 - y, y)[None]
    s = rng.random((1, n))
    pos, ref, _ = run_engine(y, s, p=p, every=50, adwin=[0.01])
    got_pos, got, eng = run_engine(y, s, p=p, cuts=list(range(0, n, 200)) + [n], every=50, adwin=[0.01])
    np.testing.assert_array_equal(got_pos, pos)
    for name in AUC_METRICS:
        np.testing.assert_array_equal(got[name], ref[name])
    held = int(eng.ptr[0, 1, 1])
    assert held < 1_100 and eng.h_y.size == held  # the drift cut the window; only its inputs are kept


def test_moa_convention_chunked_matches_one_pass():
    y, p, s, _ = stream(9, 120)
    opts = dict(windows=[10], fading=[0.9], every=5, moa=True)
    pos, ref, _ = run_engine(y, s, **opts)
    got_pos, got, _ = run_engine(y, s, cuts=[0, 50, 51, 120], **opts)
    for name in AUC_METRICS:
        np.testing.assert_array_equal(got[name], ref[name])
    assert np.isnan(got["auc"][:, 2]).all()  # MOA has no faded AUC


def test_evaluator_with_auc_equals_evaluate():
    rng = np.random.default_rng(4)
    n = 400
    y = rng.integers(0, 2, n)
    s = np.stack([rng.integers(0, 30, n) / 30, rng.random(n)])
    p = (s > 0.5).astype(int)
    opts = dict(windows=[25], fading=[0.99], adwin=[0.1], tumbling=[64], landmarks=[200], every=10)
    ds = streamtk.evaluate(y, p, y_score=s, **opts)
    ev = streamtk.Evaluator(classes=[0, 1], scores="binary", **opts)
    for a, b in [(0, 3), (3, 170), (170, 171), (171, 400)]:
        ev.update(y[a:b], p[:, a:b], y_score=s[:, a:b])
    res = ev.result()
    for name in ds.data_vars:
        a, b = ds[name], res[name].transpose(*ds[name].dims)
        if name.startswith("auc"):
            np.testing.assert_array_equal(
                a.drop_sel(estimator="fading=0.99").values, b.drop_sel(estimator="fading=0.99").values
            )
            np.testing.assert_allclose(a.values, b.values, rtol=1e-12, atol=1e-12)


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
