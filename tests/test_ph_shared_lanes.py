"""Page-Hinkley SIMD lanes without a per-step trace: bit for bit the scalar kernel's results.

Settings with states of their own on one monitored series run as SIMD lanes; so do the
many-estimates lane kernel's passes (Gama's form on an increase, Table 2's setting).

In a threshold grid the settings share one test until a restart separates them; the
separated settings then run on :func:`streamtk._kernels.detectors_ph.shared_lanes_run`
(grids without a per-step trace). These tests hold the lane path to the scalar kernel
bit for bit: kernel against kernel on random states, and grids against one-setting calls.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from streamtk._kernels import detectors as K
from streamtk._kernels import detectors_ph as KL
from streamtk.drift.page_hinkley import PageHinkley, page_hinkley

from .test_page_hinkley import _single_estimator_kwargs, lane_kernel


def _random_states(rng, P):
    st_ = np.zeros((1, P, K.PH_STATE_SIZE))
    for q in range(P):
        K.ph_reset(st_[0, q])
        steps = int(rng.integers(0, 50))
        for x in rng.random(steps):  # a state some steps into a test
            K.ph_step(st_[0, q], x, 0.01, 1.0, False, 2)
    return st_


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), nq=st.integers(1, KL.SHARED_LANES), nb=st.integers(1, 130),
       moa=st.booleans(), direction=st.sampled_from([0, 1]), with_nan=st.booleans())  # fmt: skip
def test_lane_block_equals_scalar_settings_one_by_one(seed, nq, nb, moa, direction, with_nan):
    rng = np.random.default_rng(seed)
    P = nq + 2
    v = rng.random(nb) * rng.choice([0.5, 3.0])
    if with_nan:
        v[rng.integers(0, nb)] = np.nan
    delta = rng.choice([0.0, 0.005, 0.05], P)
    lam = rng.choice([0.05, 0.3, 1.0, 5.0, np.inf], P)
    alpha = rng.choice([1.0, 0.99], P) if moa else np.ones(P)
    min_count = rng.integers(1, 20, P)
    qs = rng.permutation(P)[:nq].astype(np.int64)
    state0 = _random_states(rng, P)
    cap = 8
    j0, count0 = int(rng.integers(0, 3)) * 512, 1000

    def fresh():
        return state0.copy(), np.zeros((1, P, cap), np.int64), np.zeros((1, P), np.int64)

    empty_f, empty_b = np.zeros((0, 0, 0)), np.zeros((0, 0, 0), bool)
    ref_state, ref_idx, ref_n = fresh()
    for q in qs:
        K._ph_private(0, q, v, 0, nb, j0, count0, delta, lam, alpha, min_count, moa, direction, True, ref_state,
                      False, empty_f, empty_b, ref_idx, ref_n)  # fmt: skip
    got_state, got_idx, got_n = fresh()
    wk = np.zeros(KL.SHARED_ROWS * KL.SHARED_LANES)
    K._ph_shared_lanes(0, qs, 0, nq, v, nb, j0, count0, delta, lam, alpha, min_count, moa, direction, True,
                       got_state, False, empty_f, empty_b, got_idx, got_n, wk, KL.SHARED_LANES)  # fmt: skip
    np.testing.assert_array_equal(got_n, ref_n)
    np.testing.assert_array_equal(got_idx, ref_idx)
    np.testing.assert_array_equal(got_state, ref_state)  # bit for bit, inf minima included


def test_lane_run_stops_at_the_pass_of_an_alarm_and_leaves_that_lane_behind():
    W, S = KL.SHARED_LANES, KL.PASS_STEPS
    P = 3
    st_ = np.zeros((1, P, K.PH_STATE_SIZE))
    for q in range(P):
        K.ph_reset(st_[0, q])
    wk = np.zeros(KL.SHARED_ROWS * W)
    qs = np.arange(P, dtype=np.int64)
    lam = np.array([np.inf, 2.5, np.inf])
    KL.shared_lanes_load(wk, st_, 0, qs, 0, P, 0, np.zeros(P), lam, np.ones(P), np.ones(P, np.int64))
    v = np.r_[np.zeros(3 * S), np.full(3 * S, 1.0)]  # the step up alarms lane 1 in a pass after the third
    c = KL.shared_lanes_run(v, 0, v.size, W, wk, False, True)
    assert S * 3 <= c < v.size and c % S == 0
    hits = wk[KL.SHARED_HITS_ROW * W : KL.SHARED_HITS_ROW * W + P]
    assert hits[1] > 0 and hits[0] == 0 and hits[2] == 0
    n = wk[0:P]  # counts: lanes 0 and 2 took the pass, lane 1 stayed at its start
    assert n[0] == n[2] == c + S and n[1] == c


def _detections(ds):
    """Alarm indices per model of a one-setting selection."""
    counts = ds["n_detections"].values.reshape(2)
    idx = ds["detection_index"].values.reshape(2, -1)
    assert counts.max() <= idx.shape[1]
    return [idx[r, : counts[r]].tolist() for r in range(2)]


def _stream(seed, n):
    rng = np.random.default_rng(seed)
    p = np.resize(np.r_[np.full(700, 0.1), np.full(500, 0.45)], n)
    return (rng.random((2, n)) < p).astype(float)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(["gama2013", "moa"]),
       direction=st.sampled_from(["increase", "decrease"]),
       monitored=st.sampled_from([{"fading": 0.99}, {"windows": 60}, {"prequential": True}, {},
                                  {"window_ratio": [(80, 15)]}]))  # fmt: skip
def test_threshold_grid_without_trace_equals_one_setting_calls(seed, variant, direction, monitored):
    x = _stream(seed, 4200)
    if direction == "decrease":
        x = 1.0 - x
    lams = [0.3, 0.6, 1.0, 1.5, 2.5, 4.0, 6.0, 9.0, 14.0, 20.0] if variant == "gama2013" else [1.0, 2.0, 3.0, 5.0]
    kw = dict(variant=variant, direction=direction, delta=0.005, min_instances=[1, 40], reset=True, **monitored)
    if variant == "moa":
        kw["alpha"] = 0.999
    grid = page_hinkley(x, lambda_=lams, trace=False, **kw)
    traced = page_hinkley(x, lambda_=lams, trace=True, **kw)
    for name in ("n_detections", "detection_index"):
        np.testing.assert_array_equal(grid[name].values, traced[name].values)
    for lam in lams:
        for mi in (1, 40):
            one = page_hinkley(x, lambda_=lam, trace=False, **dict(kw, min_instances=mi))
            assert _detections(grid.sel(min_instances=mi, **{"lambda": lam})) == _detections(one)


def test_a_threshold_sweep_whose_settings_separate_early_equals_the_traced_grid():
    # at least MIN_SHARED_LANES settings restart more than two blocks before the end, so whole blocks of
    # them run on the lanes (the case the lane path exists for); the traced grid runs the scalar kernel
    x = _stream(3, 6000)
    lams = list(np.linspace(0.3, 6.0, 10))
    ds = page_hinkley(x, lambda_=lams, delta=0.005, trace=False)
    first = ds["detection_index"].values.reshape(2, len(lams), -1)[:, :, 0]
    early = (ds["n_detections"].values.reshape(2, len(lams)) > 0) & (first < x.shape[1] - 2 * K._BLOCK)
    assert (early.sum(axis=1) >= K.MIN_SHARED_LANES).all()
    traced = page_hinkley(x, lambda_=lams, delta=0.005, trace=True)
    for name in ("n_detections", "detection_index"):
        np.testing.assert_array_equal(ds[name].values, traced[name].values)
    assert int(ds["n_detections"].sum()) > 40


@pytest.mark.parametrize("cuts", [[1], [511, 512, 513], [700, 1500, 3333, 4000]])
def test_chunked_threshold_sweep_without_trace_equals_one_pass(cuts):
    x = _stream(11, 4500)
    kw = dict(lambda_=[0.3, 0.7, 1.2, 2.0, 3.0], delta=0.005, fading=0.995, trace=False)
    one = page_hinkley(x, **kw)
    det = PageHinkley(**kw)
    start = 0
    for b in cuts + [x.shape[1]]:
        det.update(x[:, start:b])
        start = b
    chunked = det.result()
    for name in one.data_vars:
        np.testing.assert_array_equal(chunked[name].values, one[name].values)


# ----------------------------------------------------------------------------- the many-estimates lane kernel's passes
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), reset=st.booleans(), lam=st.sampled_from([0.5, 2.0, 6.0]),
       min_instances=st.sampled_from([1, 25]), n=st.integers(40, 1500))  # fmt: skip
def test_table2_grid_in_passes_equals_per_step_and_one_setting_calls(seed, reset, lam, min_instances, n):
    # Gama's form on an increase without a trace runs in passes of PASS_STEPS steps; a pass in which a lane
    # alarms is redone step by step for that lane. Detections must be those of the traced grid (per-step
    # loop) and of one-setting calls (scalar kernel), alarms inside passes included.
    rng = np.random.default_rng(seed)
    p = np.resize(np.r_[np.full(150, 0.1), np.full(100, 0.5)], n)
    x = (rng.random((2, n)) < p).astype(float)
    kw = dict(windows=[1, 9, 120], fading=[0.9, 0.99], prequential=True, delta=[0.0, 0.01], lambda_=lam,
              reset=reset, min_instances=min_instances)  # fmt: skip
    with lane_kernel():
        assert PageHinkley(**kw)._use_lanes
        fast = page_hinkley(x, trace=False, **kw)
        traced = page_hinkley(x, trace=True, **kw)
    for name in ("n_detections", "detection_index"):
        np.testing.assert_array_equal(fast[name].values, traced[name].values)
    for est in fast["estimator"].values:
        one_kw = _single_estimator_kwargs(fast.sel(estimator=est))
        for d in (0.0, 0.01):
            one = page_hinkley(x, trace=False, delta=d, lambda_=lam, reset=reset, min_instances=min_instances,
                               **one_kw)  # fmt: skip
            assert _detections(fast.sel(estimator=est, delta=d)) == _detections(one)


def test_table2_grid_alarms_inside_passes():
    # many alarms, most of them inside a pass of the lanes (not at a block's last steps)
    rng = np.random.default_rng(5)
    x = (rng.random((2, 3000)) < np.resize(np.r_[np.full(150, 0.05), np.full(100, 0.6)], 3000)).astype(float)
    kw = dict(windows=[5, 50], fading=[0.9, 0.97], delta=[0.0, 0.02], lambda_=1.0)
    with lane_kernel():
        fast = page_hinkley(x, trace=False, **kw)
        traced = page_hinkley(x, trace=True, **kw)
    idx = fast["detection_index"].values
    inside = idx[idx >= 0] % KL._BLOCK < KL._BLOCK - KL.PASS_STEPS
    assert inside.sum() > 50
    for name in ("n_detections", "detection_index"):
        np.testing.assert_array_equal(fast[name].values, traced[name].values)


def test_the_grid_kernel_with_shared_lanes_is_taken_only_where_it_can_run():
    # the kernel compiled with the lanes code is used only when a group can separate into enough lanes
    sweep = dict(lambda_=[1.0, 2.0, 3.0], fading=0.99)
    assert PageHinkley(trace=False, **sweep)._grid_kernel is K.page_hinkley_grid_shared_lanes
    assert PageHinkley(trace=True, **sweep)._grid_kernel is K.page_hinkley_grid
    assert PageHinkley(trace=False, reset=False, **sweep)._grid_kernel is K.page_hinkley_grid
    assert PageHinkley(trace=False, direction="both", **sweep)._grid_kernel is K.page_hinkley_grid
    assert PageHinkley(trace=False, lambda_=[1.0, 2.0], fading=0.99)._grid_kernel is K.page_hinkley_grid
    assert PageHinkley(trace=False)._grid_kernel is K.page_hinkley_grid
