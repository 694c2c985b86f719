"""The prediction-interval family against its reference at every checkpoint, under every mechanism and random float
weights; the pinball loss against scikit-learn; quantile predictions; labelled inputs; chunked == one pass."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import streamtk
from streamtk._core.adwin import LossAdwins, check_adwin_options
from streamtk._core.mechanisms import MECHANISMS

from .reference_regression import held, interval_reference

ESTIMATORS = {
    "windows": ("window", 6),
    "fading": ("fading", 0.8),
    "adwin": ("adwin", 0.3),
    "tumbling": ("tumbling", 9),
    "landmarks": ("landmarks", [7, 25]),
    "ewma": ("ewma", 0.25),
}
TAUS = [0.1, 0.5, 0.9]


def test_every_mechanism_is_checked():
    assert sorted(ESTIMATORS) == sorted(m.argument for m in MECHANISMS)


def _stream(n=60, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.normal(0, 2, n)
    y[rng.random(n) < 0.1] = np.nan
    mid = np.nan_to_num(y) + rng.normal(0, 1, n)
    qs = np.sort(mid[None, :] + rng.normal(0, 1.5, (3, n)), axis=0)
    w = rng.uniform(0.05, 3, n)
    w[rng.random(n) < 0.1] = 0.0
    return y, qs, w


@pytest.mark.parametrize("arg", sorted(ESTIMATORS))
def test_every_metric_matches_the_reference_under_every_mechanism(arg):
    y, qs, w = _stream()
    kind, param = ESTIMATORS[arg]
    kw = {arg: param if arg == "landmarks" else [param]}
    ds = streamtk.interval_curves(y, y_quantiles=qs.T, quantiles=TAUS, weights=w, every=1, **kw)
    assert ds.attrs["alpha"] == pytest.approx(0.2)
    label = "landmarks" if arg == "landmarks" else f"{kind}={param!r}"
    widths = None
    if kind == "adwin":  # the engine's ADWIN runs on the misses of the members
        member = ~np.isnan(y) & (w > 0)
        miss = 1.0 - ((qs[0] <= y) & (y <= qs[2]))
        ad = LossAdwins(1, [param], check_adwin_options(None))
        out = np.zeros((1, y.size), dtype=np.int64)
        ad.limits(member, np.where(member, miss, 0.0), 0, out)
        widths = out[0]
    for est, (k, p) in ((label, (kind, param)), ("prequential", ("prequential", None))):
        ref = interval_reference(y, qs[0], qs[2], qs, TAUS, w, k, p, alpha=0.2, widths=widths)
        for name, want in ref.items():
            got = ds[name].sel(estimator=est).values
            np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12, err_msg=f"{name} {est}")


def test_pinball_is_scikit_learns_on_every_window():
    sk = pytest.importorskip("sklearn.metrics")
    y, qs, w = _stream(n=70, seed=4)
    ds = streamtk.interval_curves(y, y_quantiles=qs.T, quantiles=TAUS, weights=w, windows=[15], metrics=["pinball"])
    members = [t for t in range(y.size) if not np.isnan(y[t]) and w[t] > 0]
    for t in range(5, y.size):
        idx = [s for s, _ in held("window", 15, members, t)]
        for j, tau in enumerate(TAUS):
            want = sk.mean_pinball_loss(y[idx], qs[j, idx], alpha=tau, sample_weight=w[idx])
            got = float(ds.pinball.sel(estimator="window=15").isel(time=t, quantile=j))
            assert got == pytest.approx(want, rel=1e-12), (t, tau)


def test_bounds_quantiles_and_labelled_inputs():
    y = np.array([1.0, 2.0, 5.0, 0.0])
    lo = np.array([[0.5, 2.5, 3.0, -1.0], [0.0, 0.0, 0.0, 0.0]])
    up = lo + 1.0
    ds = streamtk.interval_curves(y, lo, up, alpha=0.1, lead_dims="model")
    assert ds.coverage.sel(estimator="prequential").values[0].tolist() == [1.0, 0.5, 1 / 3, 0.5]
    # interval score of [0.5, 1.5] at 1: its width; of [2.5, 3.5] at 2: 1 + 20 * 0.5
    assert ds.interval_score.values[0, 0, :2].tolist() == [1.0, (1.0 + 11.0) / 2]
    da = xr.DataArray(lo, dims=("model", "time"), coords={"model": ["a", "b"]})
    ub = xr.DataArray(up[::-1], dims=("model", "time"), coords={"model": ["b", "a"]})  # aligned by label
    got = streamtk.interval_curves(y, da, ub, alpha=0.1)
    np.testing.assert_array_equal(got.coverage.values, ds.coverage.values)
    q = xr.DataArray(np.stack([lo[0], (lo[0] + up[0]) / 2, up[0]], axis=-1), dims=("time", "quantile"),
                     coords={"quantile": [0.05, 0.5, 0.95]})  # fmt: skip
    from_q = streamtk.interval_curves(y, y_quantiles=q)
    assert from_q["quantile"].values.tolist() == [0.05, 0.5, 0.95]
    np.testing.assert_array_equal(from_q.coverage.values[0], ds.coverage.values[0, 0])
    np.testing.assert_allclose(from_q.interval_score.values[0], ds.interval_score.values[0, 0])
    assert from_q.attrs["alpha"] == pytest.approx(0.1)


def test_interval_chunked_equals_one_pass():
    from streamtk._core.mechanisms import build_estimators
    from streamtk._core.metrics import family
    from streamtk._core.metrics.intervals import TABLE, IntervalContext
    from streamtk._kernels.regression import layout as LY
    from streamtk.evaluation.regression_engine import RegressionEngine

    y, qs, w = _stream(n=90, seed=6)
    ps = np.concatenate([qs[[0, 2]], qs])[None]
    mem = (~np.isnan(y) & (w > 0))[None]
    specs = build_estimators(windows=[4], fading=[0.9], tumbling=[10], landmarks=[20], adwin=[0.2], ewma=[0.3])
    K = LY.n_quantities(LY.INT, 3)
    ctx = IntervalContext(3, LY.F_Q + K, False)
    par = np.array([10.0, *TAUS])

    def engine():
        return RegressionEngine(specs, 3, check_adwin_options(None), fam=LY.INT, table=TABLE,
                                metrics=family("intervals"), context=ctx, nq=3, par=par)  # fmt: skip

    one = engine()
    one.update(y[None], ps, w[None], mem, last=True)
    cut = engine()
    for a, b in ((0, 13), (13, 14), (14, 61), (61, 90)):
        cut.update(y[None, a:b], ps[..., a:b], w[None, a:b], mem[:, a:b], last=b == 90)
    (pa, va), (pb, vb) = one.collect(), cut.collect()
    np.testing.assert_array_equal(pa, pb)
    for name in va:
        np.testing.assert_array_equal(va[name], vb[name], err_msg=name)
