"""score_detections(convention="streamtk"): the vectorised scorer against the one-run loop, by hand, properties."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from streamtk.drift import ddm, error_stream
from streamtk.drift.scoring import match_detections, score_detections
from streamtk.drift.truth import DriftTruth, as_truth


@st.composite
def cases(draw):
    n = draw(st.integers(10, 300))
    k = draw(st.integers(0, 4))
    cuts = sorted(draw(st.lists(st.integers(0, n - 1), min_size=2 * k, max_size=2 * k, unique=True)))
    gradual = draw(st.lists(st.booleans(), min_size=k, max_size=k))
    drifts = [(cuts[2 * i], cuts[2 * i + 1]) if gradual[i] else cuts[2 * i] for i in range(k)]
    runs = draw(st.lists(st.lists(st.integers(0, n - 1), max_size=12), min_size=1, max_size=5))
    return n, drifts, runs


@settings(max_examples=300, deadline=None)
@given(case=cases(), max_delay=st.one_of(st.none(), st.integers(1, 60)), early=st.sampled_from([0, 0, 3, 25]))
def test_vectorised_equals_the_one_run_loop(case, max_delay, early):
    n, drifts, runs = case
    s = score_detections(runs, drifts, max_delay=max_delay, max_early_detection=early, n=n)
    k = len(drifts)
    total_before = total_between = 0
    all_delays = []
    for r, run in enumerate(runs):
        delays, before, between = match_detections(run, drifts, max_delay=max_delay, max_early_detection=early, n=n)
        np.testing.assert_array_equal(s["delay"].values[r], delays)
        assert int(s["n_alarms"].values[r]) == len(set(run))
        assert int(s["false_alarms"].values[r]) == before + between
        total_before += before
        total_between += between
        all_delays.append(delays)
    d = np.array(all_delays).reshape(len(runs), k)
    assert int(s["false_alarms_before"]) == total_before and int(s["false_alarms_between"]) == total_between
    hit = ~np.isnan(d)
    tp, fp, fn = hit.sum(), total_before + total_between, (~hit).sum()
    assert float(s["recall"]) == pytest.approx(tp / d.size) if d.size else np.isnan(float(s["recall"]))
    if tp + fp:
        assert float(s["precision"]) == pytest.approx(tp / (tp + fp))
    else:
        assert np.isnan(float(s["precision"]))
    if 2 * tp + fp + fn:
        assert float(s["f1"]) == pytest.approx(2 * tp / (2 * tp + fp + fn))
    for j in range(k):
        col = d[hit[:, j], j]
        assert int(s["n_detected"][j]) == col.size
        if col.size:
            assert float(s["delay_mean"][j]) == pytest.approx(col.mean())
            assert float(s["delay_median"][j]) == pytest.approx(np.median(col))
        if col.size > 1:
            assert float(s["delay_std"][j]) == pytest.approx(col.std(ddof=1))
            if col.std() > 0:
                lo, hi = stats.t.interval(0.95, col.size - 1, loc=col.mean(), scale=stats.sem(col))
                assert (float(s["delay_ci_low"][j]), float(s["delay_ci_high"][j])) == (pytest.approx(lo),
                                                                                        pytest.approx(hi))  # fmt: skip
        else:
            assert np.isnan(float(s["delay_ci_low"][j]))
    if hit.any():
        assert float(s["mean_time_to_detection"]) == pytest.approx(d[hit].mean())
    fa = total_before + total_between
    mtfa = len(runs) * n / fa if fa else np.inf
    assert float(s["mean_time_between_false_alarms"]) == pytest.approx(mtfa)
    assert float(s["false_alarm_rate"]) == pytest.approx(fa / (len(runs) * n) * 1000)


def test_by_hand_gradual_and_early():
    # drift 1 is gradual over [100, 150]; with max_delay 20 a detection up to 170 counts (delay from the start)
    s = score_detections([[95, 160, 171, 400], [171, 405]], [(100, 150), 400], max_delay=20, max_early_detection=5,
                         n=1000)  # fmt: skip
    np.testing.assert_array_equal(s["delay"].values, [[-5.0, 0.0], [np.nan, 5.0]])
    # run 0: 95 detects drift 1 (early), 160 and 171 are false alarms; 400 detects drift 2
    assert s["false_alarms"].values.tolist() == [2, 1]
    assert s["n_alarms"].values.tolist() == [4, 2]
    assert float(s["recall"]) == 0.75 and float(s["precision"]) == 0.5
    # the Tornado-style penalised delay charges the miss its whole window: [95, 171) -> 171 - 100 = 71
    assert float(s["delay_penalised"]) == pytest.approx((-5 + 0 + 71 + 5) / 4)
    assert float(s["normalised_delay"]) == pytest.approx(float(s["mean_time_to_detection"]) / 20)
    # ARL1 ignores the tolerances: first alarm at or after the start, before the next drift
    assert float(s["arl1"]) == pytest.approx((60 + 0 + 71 + 5) / 4)
    # ARL0: instances before the first window (95 per run) per alarm raised there (none): inf
    assert np.isinf(float(s["arl0"]))
    assert s["drift"].values.tolist() == [100, 400] and s["drift_end"].values.tolist() == [150, 400]
    assert "drift at (100, 150)" in s.attrs["table"]


def test_arl0_and_mean_time_ratio_by_hand():
    s = score_detections([[10, 50, 210], [30, 260]], [200], max_delay=100, n=400)
    # before the drift: 3 alarms in 2 x 200 instances
    assert float(s["arl0"]) == pytest.approx(400 / 3)
    mtfa, mtd, mdr = 2 * 400 / 3, (10 + 60) / 2, 0.0
    assert float(s["mean_time_between_false_alarms"]) == pytest.approx(mtfa)
    assert float(s["mean_time_ratio"]) == pytest.approx(mtfa / mtd * (1 - mdr))
    # a stream without change: every alarm is false, MTFA = ARL0
    quiet = score_detections([[10, 50], [30]], [], n=400)
    assert quiet.sizes["drift"] == 0 and int(quiet["false_alarms_before"]) == 3
    assert float(quiet["arl0"]) == pytest.approx(float(quiet["mean_time_between_false_alarms"]))
    assert np.isnan(float(quiet["recall"])) and float(quiet["precision"]) == 0.0


def test_per_run_truth_equals_scoring_each_run_alone():
    truth = DriftTruth.per_run([[100, 500], [(200, 260)], []])
    runs = [[120, 510, 700], [250, 300], [40]]
    s = score_detections(runs, truth, max_delay=80, n=1000)
    assert s["drift_start"].values.tolist() == [[100, 500], [200, -1], [-1, -1]]
    for r, (run, drifts) in enumerate(zip(runs, [[100, 500], [(200, 260)], []])):
        one = score_detections([run], drifts, max_delay=80, n=1000)
        k = len(drifts)
        np.testing.assert_array_equal(s["delay"].values[r, :k], one["delay"].values[0])
        assert np.isnan(s["delay"].values[r, k:]).all()
        assert s["false_alarms"].values[r] == one["false_alarms"].values[0]
    assert int(s["n_drifts"]) == 3 and s["n_missed"].values.tolist() == [0, 0]


def test_per_run_truth_as_dataarray_aligned_by_run_label():
    x = xr.DataArray(np.zeros((2, 600), bool), dims=("run", "time"), coords={"run": ["b", "a"]})
    x[0, 310] = True
    x[1, 105] = True
    truth = xr.DataArray([[100], [300]], dims=("run", "drift"), coords={"run": ["a", "b"]})
    s = score_detections(x, truth)
    assert s["run"].values.tolist() == ["b", "a"]
    assert s["delay"].values[:, 0].tolist() == [10.0, 5.0]
    with pytest.raises(ValueError, match="no drifts for the runs"):
        score_detections(x, truth.assign_coords(run=["a", "c"]))


def test_settings_dims_and_warnings_from_a_ddm_grid():
    e = error_stream(4000, [2000], [0.05, 0.3], runs=4, seed=3)
    res = ddm(e, warning_level=2.0, drift_level=[2.5, 3.0, 4.0], lead_dims="run")
    s = score_detections(res, [2000], max_delay=1000, warnings=True)
    assert s["delay"].dims == ("drift_level", "run", "drift")
    assert s["recall"].dims == ("drift_level",) and s["drift_level"].values.tolist() == [2.5, 3.0, 4.0]
    for q, level in enumerate([2.5, 3.0, 4.0]):
        sub = res.sel(drift_level=level)
        lists = [[int(i) for i in sub["detection_index"].values[r] if i >= 0] for r in range(4)]
        warn = [np.flatnonzero(sub["warning"].values[r]).tolist() for r in range(4)]
        ref = score_detections(lists, [2000], max_delay=1000, n=4000, warnings=warn)
        for name in ref.data_vars:
            np.testing.assert_array_equal(s[name].values[q], ref[name].values, err_msg=name)
    # warnings come before (or with) the detection they announce
    wd, dd = s["warning_delay"].values, s["delay"].values
    ok = ~np.isnan(wd) & ~np.isnan(dd)
    assert ok.any() and (wd[ok] <= dd[ok]).all()
    assert (s["n_warnings"] >= 1).all()


def test_warning_delay_and_episodes_by_hand():
    s = score_detections([[120]], [100], warnings=[[50, 51, 52, 105, 106, 130]], n=200)
    assert float(s["warning_delay"][0, 0]) == 5.0  # 105 is the first warning inside [100, 120]
    assert int(s["n_warnings"][0]) == 3  # {50-52}, {105-106}, {130}


def test_flags_and_signed_flags():
    flags = np.zeros((2, 50), np.int8)
    flags[0, [5, 30]] = 1
    flags[1, [25, 41]] = [-1, 1]  # ADWIN's fall (-1) is not an alarm, its rise (+1) is
    s = score_detections(xr.DataArray(flags, dims=("run", "time")), [20, 40], max_delay=15)
    ref = score_detections([[5, 30], [41]], [20, 40], max_delay=15, n=50)
    for name in ref.data_vars:
        np.testing.assert_array_equal(s[name].values, ref[name].values)


def test_netcdf_round_trip(tmp_path):
    s = score_detections([[120, 700], [90]], [(100, 130), 600], n=1000, warnings=[[110], []])
    s.to_netcdf(tmp_path / "s.nc")
    back = xr.load_dataset(tmp_path / "s.nc")
    for name in s.data_vars:
        np.testing.assert_array_equal(back[name].values, s[name].values)


def test_truth_forms():
    assert as_truth(5).describe() == "5"
    assert as_truth([3, (7, 9)]).describe() == "3, (7, 9)"
    assert as_truth(np.array([[3, 4], [7, 9]])).describe() == "(3, 4), (7, 9)"
    da = as_truth([3, (7, 9)]).to_dataarray()
    assert as_truth(da).describe() == "3, (7, 9)"


@pytest.mark.parametrize(
    ("truth", "kwargs", "err", "match"),
    [
        ([(5, 3)], {}, ValueError, r"start <= end, got \(5, 3\)"),
        ([(1, 5), 4], {}, ValueError, "must not overlap"),
        ([1.5], {}, TypeError, r"true_drifts\[0\] must be a 0-based change point"),
        ("abc", {}, TypeError, "true_drifts must be"),
        ([5], {"convention": "capymoa"}, ValueError, "needs max_delay"),
        ([5], {"convention": "moa", "max_delay": 3}, ValueError, "has no max_delay"),
        ([5], {"convention": "other"}, ValueError, "convention must be one of"),
        ([5], {"alpha": 1.5}, ValueError, "alpha"),
        ([5], {"max_early_detection": -1}, ValueError, "max_early_detection must be an integer >= 0"),
        ([5], {"warnings": [[1], [2]]}, ValueError, "warnings have 1 settings x 2 runs"),
        ([5], {"warnings": True}, ValueError, "warnings=True needs a detector Dataset"),
    ],
)
def test_bad_input(truth, kwargs, err, match):
    with pytest.raises(err, match=match):
        score_detections([[1, 7]], truth, n=20, **kwargs)


def test_bad_detections():
    with pytest.raises(ValueError, match="indices < n = 20"):
        score_detections([[25]], [5], n=20)
    with pytest.raises(ValueError, match=">= 0"):
        score_detections([[-1]], [5], n=20)
    with pytest.raises(ValueError, match="at least one drift in every run"):
        score_detections([[1]], [], n=20, convention="capymoa", max_delay=5)
