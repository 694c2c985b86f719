"""Detection scoring (delay, misses, false alarms), synthetic error streams and the random detector."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

from streamtk.drift.page_hinkley import page_hinkley
from streamtk.drift.random_detector import RandomDetector, random_detector
from streamtk.drift.scoring import detection_table, match_detections, score_detections
from streamtk.drift.synthetic import error_probability, error_stream


# ----------------------------------------------------------------------------- matching rule
def test_match_by_hand():
    # drifts at 100 and 500; window max_delay 50
    delays, before, between = match_detections([10, 99, 100, 120, 149, 150, 510, 600], [100, 500], max_delay=50, n=1000)
    assert delays.tolist() == [0.0, 10.0]  # detection at the drift itself has delay 0
    assert before == 2  # 10, 99
    assert between == 4  # 120 and 149 (second in window), 150 (window closed), 600


def test_window_stops_at_next_drift():
    delays, before, between = match_detections([250], [100, 200], n=1000)
    assert np.isnan(delays[0]) and delays[1] == 50.0 and before == 0 and between == 0
    delays, _, between = match_detections([150], [100, 200], max_delay=40, n=1000)
    assert np.isnan(delays).all() and between == 1


def test_score_from_lists_by_hand():
    s = score_detections([[120, 700], [90, 130], [], [100, 160]], [100], max_delay=500, n=1000)
    assert s["delay_mean"].values.tolist() == [pytest.approx(50 / 3)]
    assert s["delay_std"].values[0] == pytest.approx(np.std([20, 30, 0], ddof=1))
    assert s["n_detected"].values.tolist() == [3] and s["n_missed"].values.tolist() == [1]
    assert int(s["false_alarms_before"]) == 1 and int(s["false_alarms_between"]) == 2
    assert float(s["recall"]) == 0.75 and float(s["missed_detection_rate"]) == 0.25
    assert float(s["mean_time_to_detection"]) == pytest.approx(50 / 3)
    assert float(s["mean_time_between_false_alarms"]) == pytest.approx(4 * 1000 / 3)
    assert float(s["false_alarms_per_run"]) == 0.75
    assert s.attrs["table"].splitlines()[1].strip() == "17 ± 15 (1)"


def test_no_false_alarm_gives_infinite_mtfa_and_all_missed_is_miss():
    s = score_detections([[], []], [10], n=100)
    assert np.isinf(float(s["mean_time_between_false_alarms"]))
    assert np.isnan(s["delay_mean"].values[0]) and np.isnan(float(s["mean_time_to_detection"]))
    assert s.attrs["table"].splitlines()[1].strip() == "Miss"
    s = score_detections([[3]], [10])  # n unknown: MTFA undefined
    assert np.isnan(float(s["mean_time_between_false_alarms"]))


def test_flags_input_equals_lists():
    flags = np.zeros((2, 50), bool)
    flags[0, [5, 30]] = True
    flags[1, 41] = True
    a = score_detections(flags, [20, 40], max_delay=15)
    b = score_detections([[5, 30], [41]], [20, 40], max_delay=15, n=50)
    for name in a.data_vars:
        np.testing.assert_array_equal(a[name].values, b[name].values)


@given(st.lists(st.lists(st.integers(0, 299), max_size=8), min_size=1, max_size=5), st.integers(1, 100))
def test_counts_are_consistent(runs, max_delay):
    s = score_detections(runs, [50, 150, 220], max_delay=max_delay, n=300)
    n_unique = sum(len(set(r)) for r in runs)
    total_fa = int(s["false_alarms_before"]) + int(s["false_alarms_between"])
    assert int(s["n_detected"].sum()) + total_fa == n_unique
    assert (s["n_detected"] + s["n_missed"] == len(runs)).all()
    assert (s["delay_mean"].fillna(0) <= max_delay).all()  # max_delay is the longest delay that counts


def test_dataset_input_keeps_grid_dims_and_runs():
    e = error_stream(6000, [3000], [0.1, 0.5], runs=6, seed=4)
    ds = page_hinkley(e, delta=0.1, lambda_=[20.0, 100.0], fading=[0.99, 0.997], lead_dims="run", trace=False)
    s = score_detections(ds, 3000, max_delay=2000)
    assert s["delay_mean"].dims == ("estimator", "lambda", "drift")
    assert s["n_runs"].values.ravel().tolist() == [6] * 4
    for est in ds["estimator"].values:
        for lam in (20.0, 100.0):
            sub = ds.sel(estimator=est, **{"lambda": lam})
            lists = [[int(i) for i in sub["detection_index"].values[r] if i >= 0] for r in range(6)]
            ref = score_detections(lists, 3000, max_delay=2000, n=6000)
            got = s.sel(estimator=est, **{"lambda": lam})
            for name in ref.data_vars:
                np.testing.assert_array_equal(got[name].values, ref[name].values)
    # larger lambda: never a shorter mean delay here, and smaller fading factors react faster
    assert (s["delay_mean"].sel({"lambda": 100.0}) >= s["delay_mean"].sel({"lambda": 20.0})).all()
    table = detection_table(s)
    assert "estimator=fading=0.99, lambda=20.0" in table and "±" in table
    # a Dataset without a run dim is a single run
    one = score_detections(ds.isel(run=0), 3000, max_delay=2000)
    assert one["n_runs"].values.ravel().tolist() == [1] * 4


def test_table_with_false_alarms_layout():
    s = score_detections([[50, 120], [130]], [100], n=300)
    assert detection_table(s, false_alarms=True).splitlines()[1].strip() == "25 ± 7 (0; 1)"


def test_netcdf_round_trip(tmp_path):
    s = score_detections([[120, 700], [90]], [100, 600], n=1000)
    s.to_netcdf(tmp_path / "s.nc")
    back = xr.load_dataset(tmp_path / "s.nc")
    np.testing.assert_array_equal(back["delay_mean"].values, s["delay_mean"].values)


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        (([[1]], [5, 5]), {}, "must be ordered and must not overlap"),
        (([[1]], [5]), {"max_delay": 0}, "max_delay must be a positive integer, got 0"),
        (([[1]], [50]), {"n": 20}, r"true_drifts must lie inside the stream \(< n = 20\)"),
        (([[1.5]], [5]), {}, "integer indices"),
        (("abc", [5]), {}, "detections must be"),
    ],
)
def test_bad_arguments(args, kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        score_detections(*args, **kwargs)


# ----------------------------------------------------------------------------- synthetic streams
def test_error_probability_abrupt_and_gradual():
    p = error_probability(10, [4, 7], [0.1, 0.5, 0.9])
    assert p.tolist() == [0.1] * 4 + [0.5] * 3 + [0.9] * 3
    g = error_probability(2001, [1000], [0.2, 0.6], width=400)
    assert g[1000] == pytest.approx(0.4)  # half way at the centre of the change
    assert g[0] == pytest.approx(0.2, abs=1e-4) and g[-1] == pytest.approx(0.6, abs=1e-4)
    assert np.all(np.diff(g) >= 0)
    assert g[1100] == pytest.approx(0.2 + 0.4 / (1 + np.exp(-1.0)))


def test_error_stream_seeded_and_follows_probability():
    a = error_stream(20000, [10000], [0.1, 0.4], runs=5, seed=9)
    b = error_stream(20000, [10000], [0.1, 0.4], runs=5, seed=9)
    np.testing.assert_array_equal(a, b)
    assert a.shape == (5, 20000) and set(np.unique(a)) <= {0.0, 1.0}
    assert a[:, :10000].mean() == pytest.approx(0.1, abs=0.01)
    assert a[:, 10000:].mean() == pytest.approx(0.4, abs=0.01)
    assert not np.array_equal(a, error_stream(20000, [10000], [0.1, 0.4], runs=5, seed=10))


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((100, [50], [0.1]), {}, "rates must hold len"),
        ((100, [50, 40], [0.1, 0.2, 0.3]), {}, "strictly increasing"),
        ((100, [100], [0.1, 0.2]), {}, "drifts must be < n"),
        ((100, [50], [0.1, 1.2]), {}, r"rates must be in \[0, 1\]"),
    ],
)
def test_synthetic_bad_arguments(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        error_stream(*args, seed=0, **kwargs)


def test_error_stream_requires_seed():
    with pytest.raises(TypeError, match="seed must be"):
        error_stream(10, [5], [0.1, 0.2], seed=None)


# ----------------------------------------------------------------------------- random detector
def test_random_detector_p_one_every_warm_up():
    ds = random_detector(np.zeros(100), p=1.0, seed=0)
    assert ds["detection_index"].values.tolist() == [29, 59, 89]
    ds = random_detector(np.zeros(10), p=1.0, seed=0, warm_up=0)
    assert ds["detection_index"].values.tolist() == list(range(10))
    assert int(random_detector(np.zeros(1000), p=0.0, seed=0)["n_detections"]) == 0


def test_random_detector_rate_and_independence_of_chunking():
    x = np.zeros((4, 200000))
    ds = random_detector(x, p=[0.01, 0.05], seed=3, warm_up=30)
    # mean gap = (warm_up - 1) + 1/p
    for k, p in enumerate((0.01, 0.05)):
        mean_count = ds["n_detections"].values[:, k].mean()
        assert mean_count == pytest.approx(200000 / (29 + 1 / p), rel=0.03)
    det = RandomDetector(p=[0.01, 0.05], seed=3)
    for a, b in ((0, 1), (1, 777), (777, 150000), (150000, 200000)):
        det.update(x[:, a:b])
    chunked = det.result()
    for name in ds.data_vars:
        np.testing.assert_array_equal(chunked[name].values, ds[name].values)
    flags = ds["detection"].values
    assert flags.sum() == ds["n_detections"].values.sum()


def test_random_detector_requires_seed_and_valid_p():
    with pytest.raises(TypeError, match="seed must be"):
        random_detector(np.zeros(10), p=0.1, seed=None)
    with pytest.raises(ValueError, match=r"p must be in \[0, 1\], got 1.5"):
        random_detector(np.zeros(10), p=1.5, seed=1)
