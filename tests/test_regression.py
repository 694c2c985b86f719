"""The regression family against its references at every checkpoint, under every mechanism and random float
weights; against scikit-learn and river where they coincide; its properties (chunked == one pass, a window at
least as long as the stream == prequential, fading 1 == prequential, weight scale, causality); its baselines."""

from __future__ import annotations

import math

import numpy as np
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st

import streamtk
from streamtk._core.adwin import LossAdwins, check_adwin_options
from streamtk._core.mechanisms import MECHANISMS

from .reference_regression import held, regression_reference, weighted_median

ALL = ["mae", "mse", "rmse", "mape", "smape", "r2", "adjusted_r2", "rmae", "rrmse", "max_error",
       "median_absolute_error"]  # fmt: skip
#: one estimator of every mechanism (the registry's), with the reference's parameters
ESTIMATORS = {
    "windows": ("window", 7),
    "fading": ("fading", 0.85),
    "adwin": ("adwin", 0.3),
    "tumbling": ("tumbling", 11),
    "landmarks": ("landmarks", [9, 30]),
    "ewma": ("ewma", 0.2),
}


def test_every_mechanism_is_checked():
    assert sorted(ESTIMATORS) == sorted(m.argument for m in MECHANISMS)


def _stream(n=60, seed=0, models=2):
    rng = np.random.default_rng(seed)
    y = np.cumsum(rng.normal(0, 1, n)) + 5
    y[rng.random(n) < 0.1] = np.nan  # no target there
    y[[3, 4]] = [0.0, 0.0]  # y = 0: mape's floor, smape's 0 / 0
    p = np.nan_to_num(y)[None, :] + rng.normal(0, 1.5, (models, n))
    p[0, 4] = 0.0
    p[:, 20:23] = np.nan_to_num(y[20:23])  # exact predictions
    w = rng.uniform(0.05, 3.0, n)
    w[rng.random(n) < 0.1] = 0.0
    return y, p, w


def _widths(y, p, w, delta):
    """The ADWIN widths the engine's ADWIN (run on |e| of the members) reaches after each member."""
    member = ~np.isnan(y) & (w > 0)
    ad = LossAdwins(1, [delta], check_adwin_options(None))
    out = np.zeros((1, y.size), dtype=np.int64)
    ad.limits(member, np.where(member, np.abs(y - p), 0.0), 0, out)
    return out[0]


@pytest.mark.parametrize("arg", sorted(ESTIMATORS))
def test_every_metric_matches_the_reference_under_every_mechanism(arg):
    y, p, w = _stream()
    kind, param = ESTIMATORS[arg]
    kw = {arg: param if arg == "landmarks" else [param]}
    ds = streamtk.regression_curves(y, p, weights=w, n_features=2, metrics=ALL, every=1, lead_dims="model", **kw)
    label = "landmarks" if arg == "landmarks" else f"{kind}={param!r}"
    for m in range(p.shape[0]):
        widths = _widths(y, p[m], w, param) if kind == "adwin" else None
        ref = regression_reference(y, p[m], w, kind, param, n_features=2, widths=widths)
        for e, lab in enumerate(["prequential", label]):
            if e == 0:
                ref0 = regression_reference(y, p[m], w, "prequential", None, n_features=2)
            want = ref0 if e == 0 else ref
            for name in ALL + ["n_instances"]:
                got = ds[name].sel(estimator=lab).values[m]
                np.testing.assert_allclose(got, want[name], rtol=1e-9, atol=1e-12, err_msg=f"{name} {lab} model {m}")


def test_window_and_sliding_order_statistics_against_a_direct_computation():
    rng = np.random.default_rng(2)
    n = 400
    y = rng.normal(size=n)
    p = y + np.round(rng.normal(size=n), 1)  # repeated |e|: ties in the deque and the tree
    w = rng.integers(1, 4, n).astype(float)  # integer weights: exact ties at half the weight
    ds = streamtk.regression_curves(y, p, weights=w, windows=[1, 5, 64], metrics=["max_error", "median_absolute_error"])
    a = np.abs(y - p)
    for size in (1, 5, 64):
        mx = ds.max_error.sel(estimator=f"window={size}").values
        md = ds.median_absolute_error.sel(estimator=f"window={size}").values
        for t in range(n):
            sl = slice(max(0, t - size + 1), t + 1)
            assert mx[t] == a[sl].max()
            assert md[t] == weighted_median(a[sl], w[sl]), (size, t)


def test_unit_weights_median_is_numpy_median():
    rng = np.random.default_rng(4)
    y = rng.normal(size=101)
    p = y + rng.normal(size=101)
    ds = streamtk.regression_curves(y, p, metrics=["median_absolute_error"], fading=0.97, windows=10)
    a = np.abs(y - p)
    pre = ds.median_absolute_error.sel(estimator="prequential").values
    win = ds.median_absolute_error.sel(estimator="window=10").values
    for t in range(101):
        assert pre[t] == np.median(a[: t + 1])
        assert win[t] == np.median(a[max(0, t - 9) : t + 1])


def test_scikit_learn_on_every_prefix_and_window_with_weights():
    sk = pytest.importorskip("sklearn.metrics")
    y, p, w = _stream(n=80, seed=3, models=1)
    keep = ~np.isnan(y)
    ds = streamtk.regression_curves(y, p[0], weights=w, windows=[17], metrics=ALL[:-1] + ["median_absolute_error"],
                                    n_features=3)  # fmt: skip
    members = np.flatnonzero(keep & (w > 0))
    for est in ("prequential", "window=17"):
        for t in range(10, y.size):
            idx = [s for s, _ in held("window" if est != "prequential" else "prequential", 17, list(members), t)]
            yt, yp, sw = y[idx], p[0, idx], w[idx]
            got = ds.sel(estimator=est).isel(time=t)
            want = {
                "mae": sk.mean_absolute_error(yt, yp, sample_weight=sw),
                "mse": sk.mean_squared_error(yt, yp, sample_weight=sw),
                "rmse": sk.root_mean_squared_error(yt, yp, sample_weight=sw),
                "mape": sk.mean_absolute_percentage_error(yt, yp, sample_weight=sw),
                "r2": sk.r2_score(yt, yp, sample_weight=sw, force_finite=False),
                "max_error": sk.max_error(yt, yp),
                "median_absolute_error": sk.median_absolute_error(yt, yp, sample_weight=sw),
            }
            for name, value in want.items():
                assert math.isclose(float(got[name]), value, rel_tol=1e-9, abs_tol=1e-12), (est, t, name)


def test_river_on_every_prefix_and_rolling_window():
    pytest.importorskip("river")
    from river import metrics, utils

    y, p, w = _stream(n=120, seed=5, models=1)
    y = np.nan_to_num(y, nan=1.0)
    ds = streamtk.regression_curves(y, p[0], weights=w, windows=[25])
    for est, wrap in (("prequential", lambda m: m()), ("window=25", lambda m: utils.Rolling(m, window_size=25))):
        ours = ds.sel(estimator=est)
        river = {name: wrap(cls) for name, cls in (("mae", metrics.MAE), ("rmse", metrics.RMSE), ("r2", metrics.R2),
                                                    ("smape", metrics.SMAPE))}  # fmt: skip
        members = [t for t in range(y.size) if w[t] > 0]
        for t in range(y.size):
            for m in river.values():
                if w[t] > 0:
                    m.update(y[t], p[0, t], w[t])
            if len(members) and t >= members[1]:
                hw = [w[s] for s, _ in held("window" if est != "prequential" else "prequential", 25, members, t)]
                for name, m in river.items():
                    if name == "r2" and sum(hw) <= 1.0:
                        continue  # river's R2 is 0.0 until the weight held passes 1
                    got = float(ours[name][t]) * (100.0 if name == "smape" else 1.0)
                    assert math.isclose(got, m.get(), rel_tol=1e-8, abs_tol=1e-10), (est, name, t)


def test_relative_errors_of_the_target_mean_baseline_are_one():
    # rmae and rrmse compare with the TargetMean baseline whose memory follows the estimator: the baseline itself
    # scores exactly 1 wherever it is defined, under every mechanism (its predictions from regression_baselines
    # are the prequential memory's)
    rng = np.random.default_rng(8)
    y = rng.normal(3, 2, 200)
    w = rng.uniform(0.1, 2, 200)
    tm = streamtk.regression_baselines(y, weights=w).sel(model="TargetMean").values
    ds = streamtk.regression_curves(y, tm, weights=w, metrics=["rmae", "rrmse"])
    np.testing.assert_allclose(ds.rmae.values[0], 1.0, rtol=1e-12)
    np.testing.assert_allclose(ds.rrmse.values[0], 1.0, rtol=1e-12)


# ------------------------------------------------------------------------------------------- properties
@settings(max_examples=25)
@given(
    st.lists(
        st.tuples(st.floats(-20, 20), st.floats(-20, 20), st.floats(0.0, 4.0), st.booleans()), min_size=2, max_size=50
    ),  # fmt: skip
    st.lists(st.integers(1, 49), min_size=1, max_size=3),
    st.integers(1, 4),
)
def test_chunked_equals_one_pass(rows, cuts, every):
    from streamtk._core.adwin import check_adwin_options as opts
    from streamtk._core.mechanisms import build_estimators
    from streamtk._core.metrics import family
    from streamtk._core.metrics.regression import TABLE, RegressionContext
    from streamtk._kernels.regression import layout as LY
    from streamtk.evaluation.regression_engine import RegressionEngine

    y = np.array([r[0] if r[3] else np.nan for r in rows])
    p = np.array([[r[1] for r in rows]])
    w = np.array([[r[2] for r in rows]])
    mem = (~np.isnan(y))[None, :] & (w > 0)
    specs = build_estimators(windows=[3], fading=[0.8], tumbling=[4], landmarks=[5, 17], adwin=[0.3], ewma=[0.4])
    metrics = family("regression")[:11]
    ctx = RegressionContext(1, LY.n_fields(LY.K_REG, LY.J_REG), 1.0, False)

    def engine():
        return RegressionEngine(specs, every, opts(None), fam=LY.REG, table=TABLE, metrics=metrics, context=ctx,
                                median=True)  # fmt: skip

    one = engine()
    one.update(y[None], p[:, None], w, mem, last=True)
    chunked = engine()
    bounds = sorted({0, len(y), *[c for c in cuts if c < len(y)]})
    for a, b in zip(bounds[:-1], bounds[1:]):
        chunked.update(y[None, a:b], p[:, None, a:b], w[:, a:b], mem[:, a:b], last=b == len(y))
    pa, va = one.collect()
    pb, vb = chunked.collect()
    np.testing.assert_array_equal(pa, pb)
    for name in va:
        np.testing.assert_array_equal(va[name], vb[name], err_msg=name)


@settings(max_examples=20)
@given(st.lists(st.tuples(st.floats(-10, 10), st.floats(-10, 10), st.integers(0, 3)), min_size=1, max_size=40))
def test_long_window_is_prequential_and_fading_one_is_prequential(rows):
    y = np.array([r[0] for r in rows])
    p = np.array([r[1] for r in rows])
    w = np.array([float(r[2]) for r in rows])
    ds = streamtk.regression_curves(y, p, weights=w, windows=[len(rows) + 3], fading=[1.0], metrics=ALL[:6] + ALL[7:],
                                    every=1)  # fmt: skip
    pre = ds.sel(estimator="prequential")
    for est in (f"window={len(rows) + 3}", "fading=1.0"):
        other = ds.sel(estimator=est)
        for name in ds.data_vars:
            np.testing.assert_allclose(other[name].values, pre[name].values, rtol=1e-9, atol=1e-12, err_msg=name)


def test_weight_scale_invariance_and_causality():
    y, p, w = _stream(n=70, seed=9, models=1)
    kw = dict(windows=[6], fading=[0.9], tumbling=[13], metrics=ALL[:6] + ALL[7:], every=1)
    a = streamtk.regression_curves(y, p[0], weights=w, **kw)
    b = streamtk.regression_curves(y, p[0], weights=w * 4.0, **kw)  # a power of two: exactly the same
    for name in a.data_vars:
        if name != "n_instances":
            np.testing.assert_array_equal(a[name].values, b[name].values, err_msg=name)
    c = streamtk.regression_curves(y[:40], p[0, :40], weights=w[:40], **kw)  # the future changes nothing
    for name in a.data_vars:
        np.testing.assert_array_equal(a[name].values[:, :40], c[name].values, err_msg=name)


# ------------------------------------------------------------------------------------------- baselines
def test_baselines_are_test_then_train_models():
    y = np.array([2.0, np.nan, 4.0, 3.0, 1.0])
    w = np.array([1.0, 1.0, 3.0, 0.0, 1.0])
    b = streamtk.regression_baselines(y, weights=w, fading=0.5)
    assert b.model.values.tolist() == ["NoChange", "TargetMean", "FadingTargetMean"]
    assert b.sel(model="NoChange").values.tolist() == [0.0, 2.0, 2.0, 4.0, 4.0]
    assert b.sel(model="TargetMean").values.tolist() == [0.0, 2.0, 2.0, 14 / 4, 14 / 4]
    # nD = 1, then 3 + 0.5 = 3.5; sum = 2, then 12 + 1 = 13
    assert b.sel(model="FadingTargetMean").values.tolist() == [0.0, 2.0, 2.0, 13 / 3.5, 13 / 3.5]
    ds = streamtk.regression_curves(y, np.array([[2.0, 0.0, 4.0, 3.0, 1.0]]), baselines=True, metrics=["mae"])
    assert ds.model.values.tolist() == ["model_0", "NoChange", "TargetMean", "FadingTargetMean"]
    assert float(ds.mae.sel(model="NoChange", estimator="prequential")[-1]) == (2 + 2 + 1 + 2) / 4  # 0, 2, 4, 3


def test_multi_target_per_target_and_averages():
    rng = np.random.default_rng(12)
    n, q = 90, 3
    y = rng.normal(size=(n, q)) + np.arange(q)
    p = y + rng.normal(size=(2, n, q))
    w = rng.uniform(0.2, 2, n)
    ds = streamtk.regression_curves(y, p, weights=w, windows=[20], lead_dims="model")
    assert ds.mae.dims == ("model", "estimator", "time", "target") and ds.target.values.tolist() == [0, 1, 2]
    for j in range(q):
        one = streamtk.regression_curves(y[:, j], p[:, :, j], weights=w, windows=[20], lead_dims="model")
        for name in one.data_vars:
            np.testing.assert_array_equal(ds[name].values[..., j] if "target" in ds[name].dims else ds[name].values,
                                          one[name].values, err_msg=name)  # fmt: skip
    for name in ("mae", "mse", "rmse", "mape", "r2", "rmae", "rrmse"):
        np.testing.assert_allclose(ds[f"average_{name}"].values, ds[name].values.mean(axis=-1), rtol=1e-14)
    labelled = xr.DataArray(y, dims=("time", "target"), coords={"target": ["a", "b", "c"]})
    pl = xr.DataArray(p[0][:, ::-1], dims=("time", "target"), coords={"target": ["c", "b", "a"]})
    got = streamtk.regression_curves(labelled, pl, metrics=["mae"])
    assert got.target.values.tolist() == ["a", "b", "c"]
    np.testing.assert_array_equal(got.mae.values, streamtk.regression_curves(y, p[0], metrics=["mae"]).mae.values)


# ------------------------------------------------------------------------------------------- fast path
#: the regression fast path (:mod:`streamtk._kernels.regression.point`): every mechanism, weighted and not, median
REGRESSION_PATHS = {"unweighted": False, "weighted, missing targets, median": True}


def check_fast_path(name):
    """The point-prediction fast path against the general loops, bit for bit, in three chunks."""
    from streamtk._core.adwin import check_adwin_options as opts
    from streamtk._core.mechanisms import build_estimators
    from streamtk._core.metrics import family
    from streamtk._core.metrics.regression import TABLE, RegressionContext
    from streamtk._kernels.regression import layout as LY
    from streamtk.evaluation.regression_engine import RegressionEngine

    weighted = REGRESSION_PATHS[name]
    y, p, w = _stream(n=500, seed=17, models=2)
    if not weighted:
        y = np.nan_to_num(y)
    mem = (~np.isnan(y))[None, :] & (w > 0) if weighted else None
    ww = np.repeat(w[None], 2, axis=0) if weighted else None
    mm = np.repeat(mem, 2, axis=0) if weighted else None
    specs = build_estimators(windows=[1, 9], fading=[0.9], tumbling=[40], landmarks=[100, 333], adwin=[0.05],
                             ewma=[0.3])  # fmt: skip
    metrics = family("regression")[:11] if weighted else family("regression")[:10]
    ctx = RegressionContext(1, LY.n_fields(LY.K_REG, LY.J_REG), 1.0, False)
    got = []
    for fast in (True, False):
        eng = RegressionEngine(specs, 3, opts(None), fam=LY.REG, table=TABLE, metrics=metrics, context=ctx,
                               median=weighted, fast_paths=fast)  # fmt: skip
        for a, b in ((0, 170), (170, 171), (171, 500)):
            eng.update(y[None, a:b], p[:, None, a:b], None if ww is None else ww[:, a:b],
                       None if mm is None else mm[:, a:b], last=b == 500)  # fmt: skip
        got.append(eng.collect())
    np.testing.assert_array_equal(got[0][0], got[1][0])
    for key in got[0][1]:
        np.testing.assert_array_equal(got[0][1][key], got[1][1][key], err_msg=key)
