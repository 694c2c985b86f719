"""Loss, regression and resource curves against slow references (Gama et al. 2013, Algorithms 1-3)."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

import streamtk.evaluation.losses as sl
from streamtk._core.adwin import check_adwin_options
from streamtk._core.mechanisms import build_estimators
from streamtk.drift.adwin import adwin
from streamtk.evaluation.sums import SumsEngine, raw_sums

SPECS = [("prequential", None), ("window", 1), ("window", 4), ("fading", 0.8)]


def weights(t, kind, param):
    s = np.arange(t + 1)
    if kind == "prequential":
        return np.ones(t + 1)
    if kind == "window":
        return (s > t - param).astype(float)
    return param ** (t - s).astype(float)


def ref_sum_count(x, t, kind, param):
    """(sum, count) of the instances 0..t held by the estimator, listed explicitly."""
    if t < 0:
        return 0.0, 0.0
    w = weights(t, kind, param)
    return float(w @ np.asarray(x[: t + 1], float)), float(w.sum())


def positions(n, every):
    pos = [p for p in range(n) if (p + 1) % every == 0]
    return pos if pos and pos[-1] == n - 1 else pos + [n - 1]


KW = dict(windows=(1, 4), fading=0.8)
values = st.floats(0, 100, allow_nan=False)


@given(st.lists(st.tuples(values, st.booleans()), min_size=1, max_size=40), st.integers(1, 4))
def test_loss_curves_match_reference_with_missing(rows, every):
    x = np.array([v for v, _ in rows])
    missing = np.array([m for _, m in rows])
    xin = np.where(missing, np.nan, x)
    ds = sl.loss_curves(np.stack([xin, 2 * xin]), every=every, **KW)
    pos = positions(len(x), every)
    assert ds.instance.values.tolist() == [p + 1 for p in pos]
    comp = np.cumsum(~missing) - 1
    xc = x[~missing]
    for e, (kind, param) in enumerate(SPECS):
        for c, p in enumerate(pos):
            s, n = ref_sum_count(xc, int(comp[p]), kind, param)
            for m, f in ((0, 1.0), (1, 2.0)):
                got = ds.loss.isel(model=m, estimator=e, time=c).item()
                np.testing.assert_allclose(got, f * s / n if n else np.nan, rtol=1e-9, atol=1e-12 * (1 + x.sum()))
            assert ds.n_instances.isel(model=0, estimator=e, time=c).item() == pytest.approx(n)


def test_loss_curves_adwin_is_the_adwin_estimate():
    # the mean over the ADWIN window of the loss stream: ADWIN's own estimate (its total is kept by its bucket
    # arithmetic, ours by the window's running sum: equal to rounding; the widths exactly)
    rng = np.random.default_rng(0)
    x = np.r_[rng.random(3000) < 0.2, rng.random(3000) < 0.6].astype(float)
    X = np.stack([x, x[::-1]])
    ds = sl.loss_curves(X, adwin=(0.002, 0.1), every=50)
    idx = ds.instance.values - 1
    for d in (0.002, 0.1):
        for m in range(2):
            ref = adwin(X[m], delta=d)
            got = ds.isel(model=m).sel(estimator=f"adwin={d!r}")
            np.testing.assert_allclose(got.loss.values, ref["mean"].values[idx], rtol=1e-12, atol=1e-15)
            np.testing.assert_array_equal(got.n_instances.values, ref["width"].values[idx])
    # ADWIN shrank its window after the change, so it tracks the new error rate
    assert abs(ds.loss.isel(model=0).sel(estimator="adwin=0.002").values[-1] - 0.6) < 0.05


def test_hand_example_loss_curves():
    ds = sl.loss_curves([3.0, 1.0, 2.0], windows=2, fading=0.5, name="log_loss", units="nat")
    assert ds.log_loss.attrs["units"] == "nat"
    assert ds.log_loss.sel(estimator="prequential").values.tolist() == [3.0, 2.0, 2.0]
    assert ds.log_loss.sel(estimator="window=2").values.tolist() == [3.0, 2.0, 1.5]
    # fading 0.5: S = 3, 1 + 1.5 = 2.5, 2 + 1.25 = 3.25; N = 1, 1.5, 1.75
    np.testing.assert_allclose(ds.log_loss.sel(estimator="fading=0.5").values, [3.0, 2.5 / 1.5, 3.25 / 1.75])


@given(st.lists(st.tuples(st.floats(-50, 50), st.floats(-50, 50)), min_size=1, max_size=30), st.integers(1, 3))
def test_regression_curves_match_reference(rows, every):
    y = np.array([r[0] for r in rows])
    p = np.array([r[1] for r in rows])
    ds = sl.regression_curves(y, p, every=every, **KW)
    pos = positions(len(y), every)
    for e, (kind, param) in enumerate(SPECS):
        for c, t in enumerate(pos):
            sa, n = ref_sum_count(np.abs(y - p), t, kind, param)
            ss, _ = ref_sum_count((y - p) ** 2, t, kind, param)
            at = dict(estimator=e, time=c)
            # a running window sum (Algorithm 2) keeps the rounding of the elements that left it
            tol = 1e-12 * (1 + np.sum((y - p) ** 2))
            np.testing.assert_allclose(ds.mae.isel(**at).item(), sa / n, rtol=1e-9, atol=tol)
            np.testing.assert_allclose(ds.mse.isel(**at).item(), ss / n, rtol=1e-9, atol=tol)
            np.testing.assert_allclose(ds.rmse.isel(**at).item() ** 2, ss / n, rtol=1e-9, atol=tol)


def test_regression_matches_river_prequential_and_rolling():
    river = pytest.importorskip("river", reason="river is the reference for MAE/RMSE (installed in CI)")
    from river import metrics, utils

    rng = np.random.default_rng(5)
    y = rng.normal(size=300)
    p = y + rng.normal(scale=0.5, size=300)
    ds = sl.regression_curves(y, p, windows=25)
    mae, rmse, rmae = metrics.MAE(), metrics.RMSE(), utils.Rolling(metrics.MAE, window_size=25)
    got_mae, got_rmse, got_rmae = [], [], []
    for yt, yp in zip(y, p):
        for m in (mae, rmse, rmae):
            m.update(yt, yp)
        got_mae.append(mae.get())
        got_rmse.append(rmse.get())
        got_rmae.append(rmae.get())
    assert river.__version__
    np.testing.assert_allclose(ds.mae.sel(estimator="prequential").values, got_mae, rtol=1e-10)
    np.testing.assert_allclose(ds.rmse.sel(estimator="prequential").values, got_rmse, rtol=1e-10)
    np.testing.assert_allclose(ds.mae.sel(estimator="window=25").values, got_rmae, rtol=1e-8)


def test_regression_missing_targets_are_skipped():
    ds = sl.regression_curves([1.0, np.nan, 3.0], [[2.0, 100.0, 3.0]], lead_dims="model", windows=1)
    assert ds.mae.sel(estimator="prequential").values.ravel().tolist() == [1.0, 1.0, 0.5]
    assert ds.mae.sel(estimator="window=1").values.ravel().tolist() == [1.0, 1.0, 0.0]


def test_resource_curves_hand_example():
    sec = np.array([1.0, 3.0, 0.0, 2.0])  # seconds per instance
    mem = np.array([1.0, 2.0, 4.0, 4.0]) * 1024**3  # GB
    ds = sl.resource_curves(sec, mem, windows=2, fading=0.5)
    pre = ds.sel(estimator="prequential")
    assert pre.throughput.values.tolist() == [1.0, 2 / 4, 3 / 4, 4 / 6]
    assert pre.seconds.values.tolist() == [1.0, 4.0, 4.0, 6.0]
    assert pre.memory.values.tolist() == [1024**3 * v for v in (1.0, 1.5, 7 / 3, 2.75)]
    # RAM-Hours: GB x hours, cumulative: 1*1 + 2*3 + 4*0 + 4*2 = 15 GB s
    np.testing.assert_allclose(pre.ram_hours.values * 3600, [1.0, 7.0, 7.0, 15.0])
    win = ds.sel(estimator="window=2")
    assert win.throughput.values.tolist() == [1.0, 0.5, 2 / 3, 1.0]
    np.testing.assert_allclose(win.ram_hours.values * 3600, [1.0, 7.0, 6.0, 8.0])
    fad = ds.sel(estimator="fading=0.5")  # seconds faded: 1, 3.5, 1.75, 2.875; N: 1, 1.5, 1.75, 1.875
    np.testing.assert_allclose(fad.throughput.values, [1.0, 1.5 / 3.5, 1.0, 1.875 / 2.875])
    assert ds.ram_hours.attrs["units"] == "GB h" and ds.throughput.attrs["units"] == "instances/s"


def test_resource_curves_zero_time_and_single_inputs():
    ds = sl.resource_curves(seconds=np.zeros(3))
    assert np.isinf(ds.throughput).all() and "memory" not in ds and "ram_hours" not in ds
    ds = sl.resource_curves(memory=np.array([10.0, 30.0]), windows=1)
    assert ds.memory.sel(estimator="window=1").values.tolist() == [10.0, 30.0]  # the recorded size
    assert "throughput" not in ds


@given(st.lists(st.floats(0, 10), min_size=2, max_size=50), st.data())
def test_sums_engine_chunked_equals_one_pass_for_every_mechanism(x, data):
    x = np.array(x)
    X = np.stack([x, x[::-1]])
    T = x.size
    specs = build_estimators(windows=[3], fading=[0.9], tumbling=[4], landmarks=[2, 7], adwin=[0.2])
    groups = np.array([[0, 0], [1, 1]])
    opts = check_adwin_options({"clock": 1})
    one = SumsEngine(specs, 1, opts, **raw_sums(2))
    one.update(X, groups, last=True)
    cut = data.draw(st.integers(1, T - 1))
    two = SumsEngine(specs, 1, opts, **raw_sums(2))
    two.update(np.ascontiguousarray(X[:, :cut]), groups)
    two.update(np.ascontiguousarray(X[:, cut:]), groups)
    (p1, r1), (p2, r2) = one.collect(), two.collect()
    np.testing.assert_array_equal(p1, p2)
    for name in r1:
        np.testing.assert_array_equal(r1[name], r2[name])


@given(st.lists(st.floats(0, 10), min_size=1, max_size=40), st.integers(1, 6))
def test_window_of_zero_losses_sums_to_exactly_zero(x, w):
    # a window's sum counts its non-zero members: a window holding only zero losses has a sum of exactly 0
    x = np.array(x + [0.0] * w)
    ds = sl.loss_curves(x, windows=[w], every=1)
    assert ds.loss.sel(estimator=f"window={w}").values[-1] == 0.0


def test_dataarray_leading_dims_and_time_coords_kept():
    da = xr.DataArray(
        np.arange(12.0).reshape(3, 4),
        dims=("learner", "when"),
        coords={"learner": ["a", "b", "c"], "when": [10, 20, 30, 40]},
    )
    ds = sl.loss_curves(da, every=2)
    assert ds.loss.dims == ("learner", "estimator", "time")
    assert ds.learner.values.tolist() == ["a", "b", "c"] and ds.when.values.tolist() == [20, 40]


def test_bad_inputs_raise():
    with pytest.raises(ValueError, match="needs seconds=, memory= or both"):
        sl.resource_curves()
    with pytest.raises(ValueError, match="seconds must be non-negative, got -1.0"):
        sl.resource_curves(np.array([1.0, -1.0]))
    with pytest.raises(ValueError, match="same shape"):
        sl.resource_curves(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="NaN .* at different positions"):
        sl.loss_curves(np.array([[1.0, np.nan], [1.0, 2.0]]))
    with pytest.raises(ValueError, match="infinite"):
        sl.loss_curves(np.array([1.0, np.inf]))
    with pytest.raises(ValueError, match="y_pred contains a non-finite value"):
        sl.regression_curves([1.0, 2.0], [1.0, np.nan])
    with pytest.raises(ValueError, match="y_pred has 1 instances"):
        sl.regression_curves([1.0, 2.0], [1.0])
    with pytest.raises(TypeError, match="every must be an integer"):
        sl.loss_curves([1.0], every=1.5)
    with pytest.raises(ValueError, match="fading must be in"):
        sl.loss_curves([1.0], fading=0.0)
    with pytest.raises(ValueError, match="name must be an identifier"):
        sl.loss_curves([1.0], name="n_instances")


def test_regression_losses_and_their_q_statistic():
    import streamtk.comparison.compare as sc

    y = np.array([1.0, np.nan, 3.0, 0.0])
    pa = np.array([[2.0, 5.0, 3.0, -2.0]])
    assert sl.regression_losses(y, pa)[0, [0, 2, 3]].tolist() == [1.0, 0.0, 4.0]
    assert np.isnan(sl.regression_losses(y, pa)[0, 1])
    assert sl.regression_losses(y, pa, loss="absolute")[0, [0, 2, 3]].tolist() == [1.0, 0.0, 2.0]
    da = xr.DataArray(pa, dims=("model", "t"), coords={"model": ["nn1"]})
    assert sl.regression_losses(y, da).model.values.tolist() == ["nn1"]
    # Gama et al. 2013, Fig. 4: Q of the accumulated squared errors of two regressors; NaN target skipped
    lb = sl.regression_losses(y, np.array([1.5, 0.0, 2.0, 1.0]))  # 0.25, -, 1, 1
    ds = sc.compare_losses(sl.regression_losses(y, pa[0]), lb, windows=2)
    np.testing.assert_allclose(
        ds.q.sel(estimator="prequential").values, np.log([1 / 0.25, 1 / 0.25, 1 / 1.25, 5 / 2.25])
    )
    np.testing.assert_allclose(ds.q.sel(estimator="window=2").values, np.log([4, 4, 1 / 1.25, 4 / 2]))
    assert ds.n_instances.sel(estimator="window=2").values.tolist() == [1, 1, 2, 2]
    with pytest.raises(ValueError, match="loss must be one of"):
        sl.regression_losses(y, pa, loss="huber")
    with pytest.raises(ValueError, match="NaN .* at different positions"):
        sc.compare_losses(np.array([1.0, np.nan]), np.array([1.0, 2.0]))
