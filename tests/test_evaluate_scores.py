"""Score-based metrics inside evaluate: AUC family (incl. ADWIN windows), log-loss, Brier."""

from __future__ import annotations

import numpy as np
import pytest

import streamtk
from streamtk.drift.adwin import adwin
from streamtk.evaluation.scores import auc_curves, brier_score, log_loss


def _scored(n=800, seed=0, k=2):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    if k == 2:
        drift = np.arange(n) > n // 2
        s = np.clip(np.where(drift, 1 - y, y) * 0.4 + rng.random(n) * 0.6, 0, 1).round(2)
        p = (s > 0.5).astype(int)
        return y, p, s
    s = rng.dirichlet(np.ones(k), size=n)
    s[np.arange(n), y] += 0.5
    s /= s.sum(axis=1, keepdims=True)
    return y, s.argmax(axis=1), s


def _pair_auc(y, s, w=None):
    w = np.ones(len(y)) if w is None else w
    pos, neg = y == 1, y == 0
    if not pos.any() or not neg.any():
        return np.nan
    d = s[pos][:, None] - s[neg][None, :]
    u = (w[pos][:, None] * w[neg][None, :] * ((d > 0) + 0.5 * (d == 0))).sum()
    return u / (w[pos].sum() * w[neg].sum())


def test_auc_equals_scores_module_for_every_estimator():
    y, p, s = _scored()
    opts = dict(windows=[50], fading=[0.99], tumbling=[200], landmarks=[400, 401], every=37)
    ds = streamtk.evaluate(y, p, y_score=s, **opts)
    ref = auc_curves(y, s, **opts)
    for name in ("auc", "auc_u1", "auc_u0", "auc_z"):
        assert ds[name].attrs == ref[name].attrs  # the registry's
        for est in ref.estimator.values:
            np.testing.assert_array_equal(ds[name].sel(estimator=est).values, ref[name].sel(estimator=est).values)


def test_auc_over_adwin_window_is_pair_counting_over_its_width():
    y, p, s = _scored(1200, seed=3)
    ds = streamtk.evaluate(y, p, y_score=s, adwin=[0.01], every=1, metrics=["auc", "n_instances"])
    widths = adwin((y != p).astype(float), delta=0.01).width.values
    assert widths.min() < widths.max()
    got = ds.auc.sel(estimator="adwin=0.01").values
    for t in range(5, 1200, 23):
        lo = t + 1 - widths[t]
        assert got[t] == pytest.approx(_pair_auc(y[lo : t + 1], s[lo : t + 1]), abs=1e-12), t
    np.testing.assert_array_equal(ds.n_instances.sel(estimator="adwin=0.01").values, widths)


def test_log_loss_and_brier_are_averaged_under_every_estimator():
    y, p, s = _scored(300, seed=1)
    ds = streamtk.evaluate(y, p, y_score=s, windows=[20], fading=[0.9], metrics=["log_loss", "brier"])
    ll = log_loss(y, s)
    br = brier_score(y, s)
    t = np.arange(300)
    np.testing.assert_allclose(ds.log_loss.sel(estimator="prequential").values, np.cumsum(ll) / (t + 1))
    win = np.array([br[max(0, i - 19) : i + 1].mean() for i in t])
    np.testing.assert_allclose(ds.brier.sel(estimator="window=20").values, win)
    fad = np.array(
        [(0.9 ** (i - np.arange(i + 1)) * ll[: i + 1]).sum() / (0.9 ** (i - np.arange(i + 1))).sum() for i in t]
    )
    np.testing.assert_allclose(ds.log_loss.sel(estimator="fading=0.9").values, fad)


def test_an_instance_without_prediction_is_not_evaluated_for_the_auc():
    # the evaluation's members: label and prediction present, weight > 0 -- for the AUC too
    y, p, s = _scored(300, seed=5)
    p2 = np.stack([p, p]).astype(float)
    p2[1, ::4] = np.nan
    w = np.ones((2, 300))
    w[0, ::4] = 0.0
    ds = streamtk.evaluate(y, p2, y_score=np.stack([s, s]), weights=w, windows=[20], fading=[0.9], every=7)
    for name in ("auc", "auc_u1", "auc_z"):
        np.testing.assert_array_equal(ds[name].values[0], ds[name].values[1])
    keep = np.arange(300) % 4 != 0
    t = 299
    np.testing.assert_allclose(float(ds.auc.isel(model=1, time=-1).sel(estimator="prequential")),
                               _pair_auc(y[: t + 1][keep], s[: t + 1][keep]), rtol=1e-12)  # fmt: skip


def test_multiclass_scores_give_per_class_auc_and_macro():
    y, p, s = _scored(400, seed=2, k=3)
    ds = streamtk.evaluate(y, p, y_score=s, windows=[100], every=50)
    ref = auc_curves(y, s, windows=[100], every=50, classes=[0, 1, 2])
    assert ds.auc.dims == ("estimator", "time", "class")
    np.testing.assert_array_equal(ds.auc.values, ref.auc.transpose("estimator", "time", "class").values)
    np.testing.assert_array_equal(ds.auc_macro.values, ref.auc_macro.values)


def test_scores_with_leading_dims_and_chunked_losses():
    y, p, s = _scored(500, seed=4)
    s2 = np.stack([s, 1 - s])
    p2 = np.stack([p, 1 - p])
    ds = streamtk.evaluate(y, p2, y_score=s2, windows=[30], every=10)
    one = streamtk.evaluate(y, p2[1], y_score=s2[1], windows=[30], every=10)
    for name in ("auc", "log_loss", "brier", "auc_z"):
        np.testing.assert_array_equal(ds[name].values[1], one[name].values)
    # AUC(1 - s) = 1 - AUC(s)
    np.testing.assert_allclose(ds.auc.values[1], 1 - ds.auc.values[0])
    ev = streamtk.Evaluator(classes=[0, 1], windows=[30], every=10, scores="binary", metrics=["log_loss", "brier"])
    for a, b in [(0, 123), (123, 500)]:
        ev.update(y[a:b], p2[:, a:b], y_score=s2[:, a:b])
    chunked = ev.result()
    for name in ("log_loss", "brier"):
        np.testing.assert_array_equal(chunked[name].values, ds[name].values)


def test_bad_scores_raise():
    y, p, s = _scored(50)
    with pytest.raises(ValueError, match="y_score must have shape"):
        streamtk.evaluate(y, p, y_score=s[:10])
    with pytest.raises(ValueError, match="needs class scores: pass y_score="):
        streamtk.evaluate(y, p, metrics=["auc"])
    with pytest.raises(ValueError, match="probabilities"):
        streamtk.evaluate(y, p, y_score=s * 3, metrics=["log_loss"])


def test_moa_convention_auc_reads_the_scores_only():
    # MOA's WindowAUCImbalancedPerformanceEvaluator sees every instance's votes; a missing prediction is still
    # evaluated (the confusion metrics take it as class index 0), so the AUC equals auc_curves' MOA AUC
    y, p, s = _scored(200, seed=6)
    pm = p.astype(float)
    pm[::5] = np.nan
    ds = streamtk.evaluate(y, pm, y_score=s, windows=[30], convention="moa", metrics=["auc"], every=9)
    ref = auc_curves(y, s, windows=[30], convention="moa", every=9)
    np.testing.assert_array_equal(ds.auc.values, ref.auc.values)


@pytest.mark.parametrize("k", [2, 3])
def test_nan_scores_where_not_evaluated_are_never_read(k):
    # river's first instance has no prediction and no probabilities: NaN scores there (and at a missing
    # label or a zero weight) change nothing; the same instances with any finite scores give the same curves
    y, p, s = _scored(300, seed=11, k=k)
    p = p.astype(float)
    p[[0, 40]] = np.nan
    yt = y.astype(float)
    yt[[7, 90]] = np.nan
    w = np.ones(len(y))
    w[[15, 200]] = 0.0
    gone = [0, 40, 7, 90, 15, 200]
    s_nan, s_any = s.copy(), s.copy()
    s_nan[gone] = np.nan
    s_any[gone] = 0.25
    metrics = ["accuracy", "log_loss", "brier", "auc"] if k == 2 else ["accuracy", "log_loss", "brier", "auc_macro"]
    opts = dict(windows=[30], fading=[0.98], weights=w, metrics=metrics, every=7)
    a = streamtk.evaluate(yt, p, y_score=s_nan, **opts)
    b = streamtk.evaluate(yt, p, y_score=s_any, **opts)
    assert a.identical(b)
    ev = streamtk.Evaluator(classes=list(range(k)), scores="binary" if k == 2 else "multi", **opts_no_w(opts))
    for lo in range(0, 300, 64):
        ev.update(yt[lo : lo + 64], p[lo : lo + 64], weights=w[lo : lo + 64], y_score=s_nan[lo : lo + 64])
    chunked = ev.result()
    for m in metrics:  # a faded AUC chunk by chunk: a few units in the last place (tests/test_auc_chunked.py)
        np.testing.assert_allclose(chunked[m].values, a[m].values, rtol=1e-12, atol=1e-15)


def opts_no_w(opts):
    return {key: v for key, v in opts.items() if key != "weights"}


def test_nan_score_at_an_evaluated_instance_is_an_error():
    y, p, s = _scored(100, seed=12)
    s = s.copy()
    s[33] = np.nan
    with pytest.raises(ValueError, match="NaN at instance 33"):
        streamtk.evaluate(y, p, y_score=s, metrics=["log_loss"])
    with pytest.raises(ValueError, match="NaN at instance 33"):
        streamtk.evaluate(y, p, y_score=s, metrics=["auc"])
    pm = p.astype(float)
    pm[33] = np.nan  # not evaluated under streamtk's convention; evaluated (as class index 0) under MOA's
    streamtk.evaluate(y, pm, y_score=s, metrics=["log_loss"])
    # under MOA's convention no prediction and no score is MOA's "no vote": its scores are read as 1/k (issue 35)
    moa = streamtk.evaluate(y, pm, y_score=s, metrics=["log_loss"], convention="moa")
    spelled = streamtk.evaluate(y, pm, y_score=np.where(np.isnan(s), 0.5, s), metrics=["log_loss"], convention="moa")
    np.testing.assert_array_equal(moa.log_loss.values, spelled.log_loss.values)
    ev = streamtk.Evaluator(classes=[0, 1], scores="binary", metrics=["brier"], every=10)
    ev.update(y[:30], p[:30], y_score=s[:30])
    with pytest.raises(ValueError, match="NaN at instance 33"):
        ev.update(y[30:], p[30:], y_score=s[30:])
