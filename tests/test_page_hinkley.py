"""Page-Hinkley (Gama et al. 2013 section 5 and Algorithm 4; MOA PageHinkleyDM) against references."""

from __future__ import annotations

import contextlib
import math
import sys

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

from streamtk.drift.page_hinkley import PageHinkley, page_hinkley

from ._moa import import_capymoa


# ----------------------------------------------------------------------------- references
def ref_gama(x, delta, lam, *, reset=True, direction="increase", min_instances=1):
    """Literal section 5.1: m_T = sum_{t<=T} (x_t - mean(x_1..x_t) - delta) recomputed from scratch."""
    dets, stats = [], []
    start = 0
    for i in range(len(x)):
        seg = x[start : i + 1]
        means = [sum(seg[: k + 1]) / (k + 1) for k in range(len(seg))]
        up = [sum(seg[k] - means[k] - delta for k in range(j + 1)) for j in range(len(seg))]
        dn = [sum(means[k] - seg[k] - delta for k in range(j + 1)) for j in range(len(seg))]
        s_up = up[-1] - min(up)
        s_dn = dn[-1] - min(dn)
        stat = {"increase": s_up, "decrease": s_dn, "both": max(s_up, s_dn)}[direction]
        stats.append(stat)
        if stat > lam and len(seg) >= min_instances:
            dets.append(i)
            if reset:
                start = i + 1
    return dets, np.array(stats)


class RefMoaPH:
    """MOA's released PageHinkleyDM.input restated (lazy reset at the next input).

    The released MOA (the jar in capymoa 0.15.1) alarms on the faded sum itself, ``sum > lambda``;
    MOA's development source also tracks ``min sum`` and tests ``sum - min``, which is not restated here.
    """

    def __init__(self, min_n=30, delta=0.005, lam=50.0, alpha=0.9999):
        self.min_n, self.delta, self.lam, self.alpha = min_n, delta, lam, alpha
        self.change = False
        self.init = False

    def _reset(self):
        self.n, self.mean, self.sum = 1, 0.0, 0.0

    def input(self, x):
        if self.change or not self.init:
            self._reset()
            self.init = True
        self.mean = self.mean + (x - self.mean) / self.n
        self.sum = self.alpha * self.sum + (x - self.mean - self.delta)
        self.n += 1
        self.change = False
        if self.n < self.min_n:
            return self.sum
        if self.sum > self.lam:
            self.change = True
        return self.sum


def ref_moa(x, **kw):
    d = RefMoaPH(**kw)
    dets, stats = [], []
    for i, v in enumerate(x):
        stats.append(d.input(v))
        if d.change:
            dets.append(i)
    return dets, np.array(stats)


def ref_algorithm4(e, a1, a2, delta, lam):
    """Algorithm 4 line by line (no reset; M_T starts at 1; alarm on >=)."""
    s1 = n1 = s2 = n2 = sr = mt = 0.0
    big_m = 1.0
    dets = []
    for i, ei in enumerate(e, start=1):
        s1 = ei + a1 * s1
        n1 = 1 + a1 * n1
        s2 = ei + a2 * s2
        n2 = 1 + a2 * n2
        r = (s2 / n2) / (s1 / n1)
        sr += r
        mt = mt + r - sr / i - delta
        big_m = min(big_m, mt)
        if mt - big_m >= lam:
            dets.append(i - 1)
    return dets


def ref_window_ratio_series(e, w1, w2):
    out = []
    for i in range(len(e)):
        m1 = np.mean(e[max(0, i - w1 + 1) : i + 1])
        m2 = np.mean(e[max(0, i - w2 + 1) : i + 1])
        out.append(m2 / m1)
    return out


def dets_of(ds):
    return ds["detection_index"].values[..., : int(ds["n_detections"].max())]


def det_list(ds):
    return [int(i) for i in ds["detection_index"].values.ravel() if i >= 0]


reals = st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=70)


# ----------------------------------------------------------------------------- convention streamtk (Gama et al. 2013)
@given(reals, st.floats(0, 0.2), st.floats(0, 3), st.booleans(), st.sampled_from(["increase", "decrease", "both"]),
       st.integers(1, 5))  # fmt: skip
def test_gama2013_matches_literal_formula(x, delta, lam, reset, direction, min_instances):
    ds = page_hinkley(np.array(x), delta=delta, lambda_=lam, reset=reset, direction=direction,
                      min_instances=min_instances)  # fmt: skip
    dets, stats = ref_gama(x, delta, lam, reset=reset, direction=direction, min_instances=min_instances)
    assert det_list(ds) == dets
    np.testing.assert_allclose(ds["statistic"].values, stats, rtol=1e-9, atol=1e-9)
    assert ds["detection"].values.nonzero()[0].tolist() == dets


def test_gama2013_hand_computed():
    # mean after 4 zeros and k ones: m_5 = 1 - 1/5 = 0.8, m_6 = 0.8 + 1 - 2/6, m_7 = m_6 + 1 - 3/7 = 2.038
    x = np.r_[np.zeros(4), np.ones(6)]
    ds = page_hinkley(x, delta=0.0, lambda_=1.5)
    np.testing.assert_allclose(ds["statistic"].values[:7], [0, 0, 0, 0, 0.8, 0.8 + 2 / 3, 0.8 + 2 / 3 + 4 / 7])
    assert det_list(ds) == [6]
    assert ds["threshold"].values.tolist() == [1.5] * 10
    assert ds["instance"].values.tolist() == list(range(1, 11))


# ----------------------------------------------------------------------------- convention moa
@given(reals, st.floats(0, 0.2), st.floats(0, 3), st.floats(0.9, 1.0), st.integers(0, 12))
def test_moa_matches_java_restatement(x, delta, lam, alpha, min_n):
    ds = page_hinkley(np.array(x), convention="moa", delta=delta, lambda_=lam, sum_fading=alpha, min_instances=min_n)
    dets, stats = ref_moa(x, min_n=min_n, delta=delta, lam=lam, alpha=alpha)
    assert det_list(ds) == dets
    np.testing.assert_array_equal(ds["statistic"].values, stats)  # same operations, bit for bit


def test_moa_defaults_and_warm_up():
    # a ramp x_t = t / 10: k inputs after a restart x - mean = 0.05 k, so S exceeds lambda = 1 after a
    # few inputs, but MOA's counter starts at 1 and the first possible alarm is the 29th input after a
    # (re)start: S there is sum_{k<=28} 0.9999^(28-k) (0.05 k - 0.005) ~ 20.2
    x = np.arange(300) / 10.0
    ds = page_hinkley(x, convention="moa", lambda_=1.0)
    dets, stats = ref_moa(list(x), lam=1.0)
    assert det_list(ds) == dets == list(range(28, 300, 29))
    np.testing.assert_array_equal(ds["statistic"].values, stats)
    s28 = sum(0.9999 ** (28 - k) * (0.05 * k - 0.005) for k in range(29))
    np.testing.assert_allclose(ds["statistic"].values[[28, 57]], [s28, s28], rtol=1e-9)
    assert ds.attrs["delta"] == 0.005 and ds.attrs["sum_fading"] == 0.9999 and ds.attrs["min_instances"] == 30
    # the statistic is MOA's sum itself (no minimum subtracted): negative on a stable stream
    flat = page_hinkley(np.zeros(100), convention="moa")["statistic"].values
    np.testing.assert_allclose(flat[-1], -0.005 * sum(0.9999**k for k in range(100)), rtol=1e-12)


def test_decrease_is_increase_on_negated_input():
    x = np.random.default_rng(5).random(300)
    x[150:] -= 0.5
    for convention in ("streamtk", "moa"):
        a = page_hinkley(x, convention=convention, delta=0.01, lambda_=2.0, direction="decrease")
        b = page_hinkley(-x, convention=convention, delta=0.01, lambda_=2.0, direction="increase")
        assert det_list(a) == det_list(b) and det_list(a)
        np.testing.assert_array_equal(a["statistic"].values, b["statistic"].values)


# ----------------------------------------------------------------------------- estimators and Algorithm 4
@given(st.lists(st.floats(0.05, 1), min_size=2, max_size=120), st.floats(0, 0.05), st.floats(1e-3, 2))
def test_algorithm4_fading_ratio(e, delta, lam):
    # lambda > 0: Algorithm 4 alarms on PH >= lambda, streamtk on PH > lambda (section 5.1); they differ
    # only when PH equals lambda exactly, e.g. lambda = 0 on a constant ratio

    ds = page_hinkley(np.array(e), delta=delta, lambda_=lam, reset=False, fading_ratio=[(0.99, 0.9)])
    assert det_list(ds) == ref_algorithm4(e, 0.99, 0.9, delta, lam)


@given(st.lists(st.floats(0.05, 1), min_size=2, max_size=90), st.floats(0, 0.05), st.floats(0, 2), st.booleans())
def test_window_ratio_and_estimators_match_reference_series(e, delta, lam, reset):
    e = np.array(e)
    ds = page_hinkley(e, delta=delta, lambda_=lam, reset=reset, window_ratio=[(9, 4)], windows=[5],
                      prequential=True, fading=[0.95], tumbling=[11], landmarks=[3, 40])  # fmt: skip
    series = {
        "window_ratio=9/4": ref_window_ratio_series(e, 9, 4),
        "window=5": [np.mean(e[max(0, i - 4) : i + 1]) for i in range(e.size)],
        "prequential": [np.mean(e[: i + 1]) for i in range(e.size)],
        "fading=0.95": [np.dot(0.95 ** np.arange(i, -1, -1), e[: i + 1]) / (0.95 ** np.arange(i + 1)).sum()
                        for i in range(e.size)],
        "tumbling=11": [np.mean(e[(i // 11) * 11 : i + 1]) for i in range(e.size)],
        "landmarks": [np.mean(e[max([m for m in (3, 40) if m <= i], default=0) : i + 1]) for i in range(e.size)],
    }  # fmt: skip
    for label, s in series.items():
        sub = ds.sel(estimator=label)
        np.testing.assert_allclose(sub["monitored"].values, s, rtol=1e-9)
        assert det_list(sub) == ref_gama(list(s), delta, lam, reset=reset)[0]


def test_undefined_ratio_steps_are_skipped():
    e = np.r_[np.zeros(5), np.ones(3), np.zeros(20), np.ones(10)]
    ds = page_hinkley(e, delta=0.0, lambda_=0.5, window_ratio=[(6, 2)])
    mon = ds["monitored"].values[0]
    undefined = ~np.isfinite(mon)
    assert undefined[:5].all() and undefined.any()
    stat = ds["statistic"].values[0]
    assert np.isnan(stat[undefined]).all() and not ds["detection"].values[0][undefined].any()
    # detections computed on the defined steps only, mapped back to their positions
    defined = np.flatnonzero(~undefined)
    ref = ref_gama(list(mon[defined]), 0.0, 0.5)[0]
    assert det_list(ds) == [int(defined[i]) for i in ref]


# ----------------------------------------------------------------------------- properties
@given(st.floats(0, 1), st.integers(1, 300), st.floats(0, 0.1), st.sampled_from(["streamtk", "moa"]),
       st.sampled_from(["increase", "decrease", "both"]))  # fmt: skip
def test_no_alarm_on_constant_stream(c, n, delta, convention, direction):
    ds = page_hinkley(np.full(n, c), convention=convention, delta=delta, lambda_=1e-9, direction=direction,
                      windows=[10], fading=[0.9], prequential=True, fading_ratio=[(0.99, 0.9)], tumbling=[7],
                      landmarks=[5, 50])  # fmt: skip
    assert int(ds["n_detections"].sum()) == 0


@pytest.mark.parametrize(("convention", "latest"), [("streamtk", 600), ("moa", 650)])
def test_alarm_after_large_step(convention, latest):
    # MOA's sum S has no minimum subtracted: over the 500 stable inputs it drifts down to about
    # -delta * 500 = -25, which it has to climb back before S > lambda, hence the later bound
    x = np.r_[np.zeros(500), np.ones(500)]
    ds = page_hinkley(x, convention=convention, delta=0.05, lambda_=20.0, fading=[0.99], windows=[50])
    first = ds["detection_index"].values[:, 0]
    assert (first >= 500).all() and (first < latest).all()


@given(st.lists(st.floats(0, 1), min_size=5, max_size=200), st.booleans())
def test_larger_lambda_never_alarms_earlier(x, reset):
    lams = [0.1, 0.5, 1.0, 2.0, 5.0]
    ds = page_hinkley(np.array(x), delta=0.01, lambda_=lams, reset=reset, trace=False)
    first = [int(ds["detection_index"].values[k, 0]) if ds["n_detections"].values[k] else 10**9 for k in range(5)]
    assert first == sorted(first)


# ----------------------------------------------------------------------------- grid, chunks, leading dims
LANDMARKS = [100, 1400, 2000]


def _single_estimator_kwargs(sub):
    kind = str(sub["estimator_kind"].values)
    p1, p2 = float(sub["estimator_param"]), float(sub["estimator_param2"])
    if kind == "prequential":
        return {"prequential": True}
    if kind == "window":
        return {"windows": int(p1)}
    if kind == "fading":
        return {"fading": p1}
    if kind == "tumbling":
        return {"tumbling": int(p1)}
    if kind == "landmarks":
        return {"landmarks": LANDMARKS}
    if kind == "fading_ratio":
        return {"fading_ratio": [(p1, p2)]}
    return {"window_ratio": [(int(p1), int(p2))]}


def test_grid_equals_one_at_a_time():
    rng = np.random.default_rng(7)
    x = (rng.random((2, 3000)) < np.r_[np.full(1500, 0.2), np.full(1500, 0.5)]).astype(float)
    kw = dict(windows=[100, 300], fading=[0.99, 0.995], prequential=True, fading_ratio=[(0.995, 0.98)],
              window_ratio=[(300, 100)], tumbling=[700], landmarks=LANDMARKS)  # fmt: skip
    for convention, alphas in (("streamtk", None), ("moa", [0.999, 1.0])):
        grid = page_hinkley(x, convention=convention, delta=[0.005, 0.05], lambda_=[5.0, 20.0], sum_fading=alphas,
                            **kw)  # fmt: skip
        assert grid["statistic"].dims[:4] == ("model", "estimator", "delta", "lambda")
        for est in grid["estimator"].values:
            one_kw = _single_estimator_kwargs(grid.sel(estimator=est))
            for d in (0.005, 0.05):
                for lam in (5.0, 20.0):
                    for a in alphas or [None]:
                        one = page_hinkley(x, convention=convention, delta=d, lambda_=lam, sum_fading=a, **one_kw)
                        sel = dict(estimator=est, delta=d, **{"lambda": lam})
                        if a is not None:
                            sel["sum_fading"] = a
                        g = grid.sel(sel)
                        np.testing.assert_array_equal(g["statistic"].values, one["statistic"].values[:, 0])
                        np.testing.assert_array_equal(g["detection"].values, one["detection"].values[:, 0])
                        for r in range(2):
                            assert det_list(g.isel(model=r)) == det_list(one.isel(model=r))


@given(st.lists(st.integers(1, 400), min_size=1, max_size=6), st.booleans(), st.sampled_from(["streamtk", "moa"]))
def test_chunked_equals_one_pass(cuts, trace, convention):
    rng = np.random.default_rng(sum(cuts))
    n = 1200
    x = (rng.random((3, n)) < np.r_[np.full(600, 0.1), np.full(600, 0.6)]).astype(float)
    kw = dict(windows=[50, 200], fading=[0.97], fading_ratio=[(0.99, 0.9)], window_ratio=[(200, 20)],
              tumbling=[150], landmarks=[10, 333, 900], lambda_=[2.0, 10.0], delta=0.01, trace=trace,
              convention=convention)  # fmt: skip
    one = page_hinkley(x, **kw)
    det = PageHinkley(**kw)
    bounds = np.unique(np.clip(np.cumsum(cuts), 0, n))
    start = 0
    for b in list(bounds) + [n]:
        if b > start:
            det.update(x[:, start:b])
            start = b
    chunked = det.result()
    for name in one.data_vars:
        np.testing.assert_array_equal(chunked[name].values, one[name].values)


def test_leading_dims_and_dataarray_input():
    rng = np.random.default_rng(8)
    x = rng.random((2, 3, 400))
    x[..., 200:] += 0.7
    ds = page_hinkley(x, delta=0.05, lambda_=3.0)
    assert ds["statistic"].dims == ("model", "fold", "time")
    for i in range(2):
        for j in range(3):
            assert det_list(ds.isel(model=i, fold=j)) == det_list(page_hinkley(x[i, j], delta=0.05, lambda_=3.0))
    da = xr.DataArray(x[0], dims=("run", "t"), coords={"run": [10, 20, 30], "t": np.arange(400) * 2})
    dsa = page_hinkley(da, delta=0.05, lambda_=3.0)
    assert dsa["run"].values.tolist() == [10, 20, 30]
    assert dsa["t"].values.tolist() == (np.arange(400) * 2).tolist()
    np.testing.assert_array_equal(dsa["statistic"].values, ds["statistic"].values[0])


def test_netcdf_round_trip(tmp_path):
    ds = page_hinkley(np.r_[np.zeros(50), np.ones(50)], delta=0.01, lambda_=[1.0, 2.0], fading=[0.9, 0.95])
    path = tmp_path / "ph.nc"
    ds.to_netcdf(path)
    back = xr.load_dataset(path)
    np.testing.assert_array_equal(back["statistic"].values, ds["statistic"].values)
    np.testing.assert_array_equal(back["detection_index"].values, ds["detection_index"].values)


def test_trace_false_keeps_detections_only():
    x = np.r_[np.zeros(100), np.ones(100)]
    full = page_hinkley(x, delta=0.01, lambda_=2.0)
    lean = page_hinkley(x, delta=0.01, lambda_=2.0, trace=False)
    assert set(lean.data_vars) == {"n_detections", "detection_index"}
    assert det_list(lean) == det_list(full)


def test_many_detections_overflow_buffer_is_handled():
    x = np.tile(np.r_[np.zeros(3), np.ones(3)], 2000)
    ds = page_hinkley(x, delta=0.0, lambda_=0.5, trace=False)
    ref = page_hinkley(x, delta=0.0, lambda_=0.5)
    assert int(ds["n_detections"]) > 100
    assert det_list(ds) == ref["detection"].values.nonzero()[0].tolist()


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"lambda_": -1.0}, ValueError, "lambda_ must be a finite real number >= 0, got -1.0"),
        ({"delta": "a"}, TypeError, "delta must be a finite real number"),
        ({"sum_fading": 0.99}, ValueError, "sum_fading .* exists only in convention='moa'"),
        ({"convention": "river"}, ValueError, "convention must be one of"),
        ({"adwin": [0.002]}, TypeError, "unexpected keyword argument 'adwin'"),
        ({"variant": "moa"}, TypeError, "unexpected keyword argument 'variant'"),
        ({"alpha": 0.99}, TypeError, "unexpected keyword argument 'alpha'"),
        ({"tumbling": 0}, ValueError, "tumbling must be a positive integer, got 0"),
        ({"landmarks": [5, 3]}, ValueError, "landmarks must be strictly increasing"),
        ({"direction": "up"}, ValueError, "direction must be one of"),
        ({"fading_ratio": [(0.9, 0.99)]}, ValueError, "long-term fading factor first"),
        ({"window_ratio": [(10, 0)]}, ValueError, "window_ratio must be a positive integer, got 0"),
        ({"windows": [10, 10]}, ValueError, "more than once"),
        ({"lambda_": [1.0, 1.0]}, ValueError, "repeated"),
        ({"reset": 1}, TypeError, "reset must be True or False"),
    ],
)
def test_bad_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        page_hinkley(np.zeros(10), **kwargs)


def test_bad_input_values():
    with pytest.raises(ValueError, match="x contains a non-finite value"):
        page_hinkley(np.array([0.0, math.nan]))
    det = PageHinkley()
    det.update(np.zeros((2, 5)))
    with pytest.raises(ValueError, match="leading dims"):
        det.update(np.zeros((3, 5)))


def test_step_function_for_fusion_matches_the_driver():
    # the step other kernels can fuse into their own loops, called one input at a time
    from streamtk._kernels.detectors import ph_test as K

    x = np.random.default_rng(12).random(300)
    x[150:] += 0.3
    ds = page_hinkley(x, convention="moa", delta=0.01, lambda_=1.0, direction="both", reset=False)
    st, stats = (0.0, 0.0, 0.0, np.inf, 0.0, np.inf), []
    for v in x:
        *st, stat = K.ph_step(*st, v, 0.01, 0.9999, (True, True, True))  # MOA's form, both sides
        stats.append(stat)
    np.testing.assert_array_equal(stats, ds["statistic"].values)


@pytest.mark.parametrize("reset", [True, False])
def test_shared_state_grid_over_lambda_and_min_instances(reset):
    # settings that differ only in lambda / min_instances share one test until a restart separates them
    rng = np.random.default_rng(21)
    x = (rng.random((2, 4000)) < np.r_[np.full(1000, 0.1), np.full(1000, 0.4), np.full(2000, 0.15)]).astype(float)
    lams, mins = [0.5, 3.0, 8.0], [1, 200]
    g = page_hinkley(x, delta=0.005, lambda_=lams, min_instances=mins, reset=reset, fading=[0.99],
                     window_ratio=[(50, 10)])  # fmt: skip
    for est in g["estimator"].values:
        kw = {"fading": [0.99]} if str(est).startswith("fading") else {"window_ratio": [(50, 10)]}
        for lam in lams:
            for mi in mins:
                one = page_hinkley(x, delta=0.005, lambda_=lam, min_instances=mi, reset=reset, **kw)
                sub = g.sel(estimator=est, min_instances=mi, **{"lambda": lam})
                np.testing.assert_array_equal(sub["statistic"].values, one["statistic"].values[:, 0])
                np.testing.assert_array_equal(sub["detection"].values, one["detection"].values[:, 0])
    assert int(g["n_detections"].sum()) > 20


def test_raw_input_is_not_copied():
    ds = page_hinkley(np.zeros(20))
    assert "monitored" not in ds and ds.attrs["monitored"] == "raw input"
    assert "monitored" in page_hinkley(np.zeros(20), fading=0.9)


# ----------------------------------------------------------------------------- SIMD-lane kernel (many distinct tests)
def _lanes_used(**kw):
    return PageHinkley(**kw)._use_lanes


@contextlib.contextmanager
def lane_kernel():
    """Grids built inside run on the SIMD-lane kernel whenever it applies (its cost model says 'free')."""
    mod = sys.modules["streamtk.drift.page_hinkley"]
    old = mod._NS_PER_LANE_GROUP
    mod._NS_PER_LANE_GROUP = 0.0
    try:
        yield
    finally:
        mod._NS_PER_LANE_GROUP = old


def test_kernel_choice_follows_the_cost_model():
    table2 = dict(windows=[1000, 2000, 3000, 4000, 5000], fading=[0.997, 0.998, 0.999, 0.9993, 0.9994])
    assert _lanes_used(**table2)
    assert not _lanes_used(fading=0.999, lambda_=list(range(1, 11)))  # one shared test
    assert not _lanes_used(delta=[0.0, 0.01, 0.02, 0.03])  # four cheap tests on the raw input
    assert not _lanes_used(direction="both", **table2)  # outside the lane kernel's scope
    assert not _lanes_used(fading_ratio=[(0.999, 0.99)], **table2)
    with lane_kernel():
        assert _lanes_used(delta=[0.0, 0.01]) and not _lanes_used(window_ratio=[(20, 5)], delta=[0.0, 0.01])


@pytest.mark.parametrize(("convention", "alphas", "direction", "reset"),
                         [("streamtk", None, "increase", True), ("streamtk", None, "decrease", False),
                          ("moa", [0.999, 1.0], "increase", False), ("moa", [0.999], "decrease", True)])  # fmt: skip
def test_lane_kernel_grid_equals_scalar_kernel_one_at_a_time(convention, alphas, direction, reset):
    # a Table-2-like grid (different estimates, several deltas) runs on the lane kernel; every setting must
    # give bit for bit the statistic, monitored value and detections of a one-setting call (scalar kernel)
    rng = np.random.default_rng(31)
    x = (rng.random((2, 2500)) < np.r_[np.full(1200, 0.15), np.full(1300, 0.45)]).astype(float)
    kw = dict(convention=convention, windows=[1, 7, 300], fading=[0.9, 0.995], prequential=True,
              direction=direction, reset=reset, delta=[0.0, 0.02], lambda_=[1.0, 8.0], sum_fading=alphas)  # fmt: skip
    with lane_kernel():
        assert _lanes_used(**kw)
        grid = page_hinkley(x, **kw)
    n_checked = 0
    for est in grid["estimator"].values:
        one_kw = _single_estimator_kwargs(grid.sel(estimator=est))
        for d in (0.0, 0.02):
            for lam in (1.0, 8.0):
                for a in alphas or [None]:
                    single = dict(convention=convention, delta=d, lambda_=lam, sum_fading=a, direction=direction,
                                  reset=reset,
                                  **one_kw)  # fmt: skip
                    assert not _lanes_used(**single)
                    one = page_hinkley(x, **single)
                    sel = dict(estimator=est, delta=d, **{"lambda": lam})
                    if a is not None:
                        sel["sum_fading"] = a
                    g = grid.sel(sel)
                    np.testing.assert_array_equal(g["statistic"].values, one["statistic"].values[:, 0])
                    np.testing.assert_array_equal(g["monitored"].values, one["monitored"].values[:, 0])
                    np.testing.assert_array_equal(g["detection"].values, one["detection"].values[:, 0])
                    for r in range(2):
                        assert det_list(g.isel(model=r)) == det_list(one.isel(model=r))
                    n_checked += 1
    assert n_checked == 6 * 4 * len(alphas or [None]) and int(grid["n_detections"].sum()) > 20


@given(reals, st.lists(st.floats(0, 0.2), min_size=2, max_size=4, unique=True), st.floats(0, 3), st.booleans(),
       st.sampled_from(["increase", "decrease"]), st.integers(0, 5))  # fmt: skip
def test_lane_kernel_on_raw_input_matches_references(x, deltas, lam, reset, direction, min_n):
    # several deltas are several distinct tests: the lane kernel, against the plain-Python references
    with lane_kernel():
        assert _lanes_used(delta=deltas, lambda_=lam, reset=reset, direction=direction)
        ds = page_hinkley(np.array(x), delta=deltas, lambda_=lam, reset=reset, direction=direction,
                          min_instances=max(min_n, 1))  # fmt: skip
        moa = page_hinkley(np.array(x), convention="moa", delta=deltas, lambda_=lam, min_instances=min_n)
    for i, d in enumerate(deltas):
        dets, stats = ref_gama(x, d, lam, reset=reset, direction=direction, min_instances=max(min_n, 1))
        assert det_list(ds.isel(delta=i)) == dets
        np.testing.assert_allclose(ds["statistic"].values[i], stats, rtol=1e-9, atol=1e-9)
    if direction == "increase":
        for i, d in enumerate(deltas):
            dets, stats = ref_moa(x, min_n=min_n, delta=d, lam=lam)
            assert det_list(moa.isel(delta=i)) == dets
            np.testing.assert_array_equal(moa["statistic"].values[i], stats)  # same operations, bit for bit


@given(st.lists(st.integers(1, 300), min_size=1, max_size=6), st.booleans(), st.sampled_from(["streamtk", "moa"]))
def test_lane_kernel_chunked_equals_one_pass(cuts, trace, convention):
    rng = np.random.default_rng(sum(cuts) + 1)
    n = 1000
    x = (rng.random((3, n)) < np.r_[np.full(500, 0.1), np.full(500, 0.6)]).astype(float)
    kw = dict(windows=[20, 200], fading=[0.97, 0.99], prequential=True, lambda_=[2.0, 10.0], delta=0.01,
              trace=trace, convention=convention)  # fmt: skip
    with lane_kernel():
        assert _lanes_used(**kw)
        one = page_hinkley(x, **kw)
        det = PageHinkley(**kw)
    start = 0
    for b in [*np.unique(np.clip(np.cumsum(cuts), 0, n)), n]:
        if b > start:
            det.update(x[:, start:b])
            start = b
    chunked = det.result()
    for name in one.data_vars:
        np.testing.assert_array_equal(chunked[name].values, one[name].values)


def test_lane_kernel_more_than_one_group_of_lanes():
    # 6 estimates x 3 deltas = 18 settings: two groups of 16 lanes, the second mostly padding
    x = np.random.default_rng(4).random(1500)
    x[700:] += 0.4
    kw = dict(windows=[5, 50, 500], fading=[0.95, 0.99], prequential=True, delta=[0.0, 0.01, 0.05], lambda_=3.0)
    with lane_kernel():
        grid = page_hinkley(x, **kw)
        assert PageHinkley(**kw)._xl[1].shape == (2, 16)  # two groups of 16 lanes
    for est in grid["estimator"].values:
        for d in (0.0, 0.01, 0.05):
            one = page_hinkley(x, delta=d, lambda_=3.0, **_single_estimator_kwargs(grid.sel(estimator=est)))
            g = grid.sel(estimator=est, delta=d)
            np.testing.assert_array_equal(g["statistic"].values, one["statistic"].values[0])
            np.testing.assert_array_equal(g["monitored"].values, one["monitored"].values[0])
            assert det_list(g) == det_list(one)


# ----------------------------------------------------------------------------- MOA itself
def _moa_detections(detector, x):
    dets = []
    for i, v in enumerate(x):
        detector.add_element(float(v))
        if detector.detected_change():
            dets.append(i)
    return dets


def test_moa_convention_identical_to_moa_through_capymoa():
    # MOA itself as the reference: capymoa ships MOA's jar, whose PageHinkleyDM alarms on S > lambda
    capymoa_drift = import_capymoa("capymoa.drift.detectors")
    from streamtk.drift.synthetic import error_stream

    n = 20_000
    drifts = [4000, 9000, 13000, 17000]
    streams = np.stack([
        error_stream(n, drifts, [0.05, 0.3, 0.1, 0.5, 0.2], seed=1),  # abrupt rises and falls
        error_stream(n, drifts, [0.2, 0.4, 0.15, 0.35, 0.6], width=1500, seed=2),  # gradual changes
        error_stream(n, [10000], [0.3, 0.3], seed=3),  # no change: only MOA's false alarms, if any
    ])  # fmt: skip
    ds = page_hinkley(streams, convention="moa", trace=False)
    n_moa = 0
    for r in range(streams.shape[0]):
        moa = _moa_detections(capymoa_drift.PageHinkley(), streams[r])
        assert det_list(ds.isel(model=r)) == moa
        n_moa += len(moa)
    assert n_moa >= 4  # the rises are detected
    # non-default parameters (passed to MOA on its command line) and the per-step flags
    kw = dict(min_n_instances=50, delta=0.01, lambda_=20.0, alpha=0.999)
    moa = _moa_detections(capymoa_drift.PageHinkley(**kw), streams[0])
    one = page_hinkley(streams[0], convention="moa", min_instances=50, delta=0.01, lambda_=20.0, sum_fading=0.999)
    assert det_list(one) == moa == one["detection"].values.nonzero()[0].tolist() and len(moa) >= 2


# ----------------------------------------------------------------------------- labels, pickling, defaults
def test_later_chunks_are_aligned_by_label_and_the_detector_pickles():
    import pickle

    rng = np.random.default_rng(41)
    x = (rng.random((3, 1600)) < np.r_[np.full(800, 0.1), np.full(800, 0.5)]).astype(float)
    da = xr.DataArray(x, dims=("run", "time"), coords={"run": ["a", "b", "c"]})
    kw = dict(windows=[50], fading=[0.98], delta=0.01, lambda_=[2.0, 5.0])
    det = pickle.loads(pickle.dumps(PageHinkley(**kw).update(da[:, :700])))
    det.update(da[[2, 0, 1], 700:])  # the same runs, in another order
    one = page_hinkley(da, **kw)
    for name in one.data_vars:
        np.testing.assert_array_equal(det.result()[name].values, one[name].values)
    with pytest.raises(ValueError, match="'run' labels do not match"):
        PageHinkley(**kw).update(da[:, :10]).update(da[:, 10:20].assign_coords(run=["a", "b", "z"]))


def test_defaults_are_the_documented_ones():
    import inspect

    from streamtk.drift.page_hinkley import DEFAULTS

    sig = inspect.signature(page_hinkley).parameters
    assert sig["convention"].default == "streamtk" and list(inspect.signature(PageHinkley).parameters) == list(sig)[1:]
    assert {
        k: v.default for k, v in sig.items() if k in ("windows", "fading", "tumbling", "landmarks")
    } == dict.fromkeys(("windows", "fading", "tumbling", "landmarks"), ())
    for convention, d in DEFAULTS.items():
        ds = page_hinkley(np.zeros(5), convention=convention)
        assert {k: ds.attrs[k.rstrip("_") if k != "lambda_" else "lambda"] for k in d} == d
