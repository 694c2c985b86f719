"""DDM grids on the SIMD lanes (streamtk/_kernels/detectors/ddm.py) against the general path and MOA's rules."""

from __future__ import annotations

import contextlib
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from streamtk.drift.ddm import DDM, ddm

from .test_ddm_eddm import RefDDM, det_list, drifting, run_ref


@contextlib.contextmanager
def kernel(lanes: bool):
    """Grids built inside run on the lanes (``lanes=True``, whatever the cost model says) or never."""
    ddm_module = sys.modules["streamtk.drift.ddm"]  # (streamtk.drift.ddm is also the function's name)
    saved = ddm_module._NS_PER_LANE_GROUP
    ddm_module._NS_PER_LANE_GROUP = 0.0 if lanes else 1e9
    try:
        yield
    finally:
        ddm_module._NS_PER_LANE_GROUP = saved


def _stream(seed, n, rows=2):
    rng = np.random.default_rng(seed)
    rates = rng.choice([0.02, 0.1, 0.3, 0.6], size=4)
    return np.stack([drifting(seed + r, n, list(rates)) for r in range(rows)])


grids = st.fixed_dictionaries({
    "min_instances": st.lists(st.integers(0, 40), min_size=1, max_size=2, unique=True),
    "warning_level": st.lists(st.sampled_from([1.0, 1.5, 2.0]), min_size=1, max_size=2, unique=True),
    "drift_level": st.lists(st.sampled_from([2.0, 2.25, 2.5, 3.0, 3.5, 4.0]), min_size=1, max_size=6, unique=True),
})  # fmt: skip


@given(st.integers(0, 10**6), st.integers(1, 3000), grids, st.booleans())
def test_lanes_equal_scalar_kernel_bit_for_bit(seed, n, grid, trace):
    x = _stream(seed, n)
    with kernel(lanes=True):
        assert DDM(**grid)._use_lanes
        lanes = ddm(x, trace=trace, **grid)
    with kernel(lanes=False):
        assert not DDM(**grid)._use_lanes
        scalar = ddm(x, trace=trace, **grid)
    assert set(lanes.data_vars) == set(scalar.data_vars)
    for name in scalar.data_vars:
        np.testing.assert_array_equal(lanes[name].values, scalar[name].values, err_msg=name)


def test_lanes_match_the_plain_python_restatement_of_moa():
    # 2 min_instances x 2 warning levels x 5 drift levels: 10 distinct states (two lane groups), twins sharing
    x = _stream(7, 20_000, rows=1)[0]
    grid = dict(min_instances=[10, 30], warning_level=[1.5, 2.0], drift_level=[2.0, 2.5, 3.0, 3.5, 4.0])
    with kernel(lanes=True):
        ds = ddm(x, **grid)
    n_checked = 0
    for mn in grid["min_instances"]:
        for wl in grid["warning_level"]:
            for dl in grid["drift_level"]:
                dets, warns = run_ref(RefDDM(mn, wl, dl), x)
                sel = ds.sel(min_instances=mn, warning_level=wl, drift_level=dl)
                assert det_list(sel) == dets
                np.testing.assert_array_equal(sel["warning"].values, warns)
                n_checked += len(dets)
    assert n_checked > 50  # the stream drifts often: restarts are exercised (78 detections here)


@given(st.lists(st.integers(1, 700), min_size=1, max_size=5), st.booleans())
def test_lanes_chunked_equal_one_pass(cuts, trace):
    x = _stream(sum(cuts), 2000)
    grid = dict(warning_level=[1.5, 2.0], drift_level=[2.0, 2.5, 3.0])
    with kernel(lanes=True):
        one = ddm(x, trace=trace, **grid)
        det = DDM(trace=trace, **grid)
        bounds = np.unique(np.clip(np.cumsum([0, *cuts]), 0, 2000).tolist() + [2000])
        for a, b in zip(bounds[:-1], bounds[1:]):
            det.update(x[:, a:b])
        chunked = det.result()
    for name in one.data_vars:
        np.testing.assert_array_equal(chunked[name].values, one[name].values, err_msg=name)


def test_detection_buffer_overflow_reruns_the_chunk_from_the_saved_lane_state():
    # far more drifts than the first detection buffer holds: the chunk is rerun from the saved lane states
    x = np.tile(np.r_[np.zeros(40), np.ones(40)], 200)[None, :]
    grid = dict(min_instances=[5], warning_level=[1.5, 2.0], drift_level=[2.0, 2.5, 3.0])
    with kernel(lanes=True):
        lanes = ddm(x, **grid)
    with kernel(lanes=False):
        scalar = ddm(x, **grid)
    assert int(lanes["n_detections"].min()) > 16
    for name in scalar.data_vars:
        np.testing.assert_array_equal(lanes[name].values, scalar[name].values, err_msg=name)


@pytest.mark.parametrize(("grid", "lanes"), [
    (dict(), False),  # one setting
    (dict(warning_level=[1.0, 1.5, 2.0, 2.5]), False),  # four settings, one state
    (dict(drift_level=[2.5, 3.0]), True),  # two states: one group of lanes costs less than two states one by one
    (dict(warning_level=[1.5, 2.0], drift_level=[2.5, 2.75, 3.0, 3.25, 3.5]), True),  # the benchmark's grid
])  # fmt: skip
def test_kernel_choice(grid, lanes):
    assert DDM(**grid)._use_lanes is lanes
