"""Trade-off curves, recovery after drift, the drift plots and the ``streamtk drift --score`` command."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import xarray as xr  # noqa: E402

import streamtk  # noqa: E402
from streamtk.cli import main  # noqa: E402
from streamtk.datasets.simulate import simulate_log  # noqa: E402
from streamtk.drift import adwin, ddm, error_stream, page_hinkley  # noqa: E402
from streamtk.drift.recovery import recovery  # noqa: E402
from streamtk.drift.scoring import score_detections  # noqa: E402
from streamtk.drift.tradeoff import run_tradeoff, tradeoff  # noqa: E402
from streamtk.io import write_csv  # noqa: E402
from streamtk.plot import plot_detections, plot_tradeoff  # noqa: E402

DRIFTS = [2000, (4000, 4300)]


@pytest.fixture(scope="module")
def streams():
    return error_stream(6000, [2000, 4150], [0.05, 0.35, 0.6], width=[0, 300], runs=5, seed=11)


@pytest.fixture(scope="module")
def trade(streams):
    grids = {"ddm": {"drift_level": [2.5, 3.0, 4.0]}, "page_hinkley": {"convention": "moa", "lambda_": [20.0, 50.0]},
             "adwin": {"delta": [0.002, 0.1]}}  # fmt: skip
    return run_tradeoff(streams, DRIFTS, grids, max_delay=800)


# ----------------------------------------------------------------------------- trade-off
def test_tradeoff_equals_scoring_each_setting_alone(streams, trade):
    assert trade["delay"].dims == ("detector", "setting", "run", "drift")
    assert trade["recall"].dims == ("detector", "setting")
    ref_ddm = score_detections(ddm(streams, drift_level=3.0, lead_dims="run", trace=False), DRIFTS, max_delay=800)
    ref_ph = score_detections(page_hinkley(streams, convention="moa", lambda_=20.0, lead_dims="run", trace=False),
                              DRIFTS, max_delay=800)  # fmt: skip
    ref_ad = score_detections(adwin(streams, delta=0.1, lead_dims="run"), DRIFTS, max_delay=800)
    for det, label, ref in (("ddm", "drift_level=3.0", ref_ddm), ("page_hinkley", "lambda=20.0", ref_ph),
                            ("adwin", "delta=0.1", ref_ad)):  # fmt: skip
        labels = trade["setting_label"].sel(detector=det).values.tolist()
        got = trade.sel(detector=det).isel(setting=labels.index(label))
        for name in ("delay", "false_alarms", "recall", "mean_time_to_detection", "false_alarm_rate", "arl1"):
            np.testing.assert_array_equal(got[name].values, ref[name].values.astype(float), err_msg=(det, name))
    assert trade["setting_label"].sel(detector="adwin").values.tolist() == ["delta=0.002", "delta=0.1", ""]
    assert np.isnan(trade["drift_level"].sel(detector="adwin").values).all()
    assert trade["drift_level"].sel(detector="ddm").values.tolist() == [2.5, 3.0, 4.0]


def test_tradeoff_monotone_in_the_threshold_and_pareto(trade):
    d = trade.sel(detector="ddm")
    # a higher drift level never raises more alarms here, and reacts later
    assert (np.diff(d["n_alarms"].sum("run").values) <= 0).all()
    assert (np.diff(d["mean_time_to_detection"].values) >= 0).all()
    fa, mtd, par = (trade[v].values.ravel() for v in ("false_alarms_per_run", "mean_time_to_detection", "pareto"))
    for i in np.flatnonzero(par):  # nothing dominates a Pareto point
        assert not np.any((fa <= fa[i]) & (mtd <= mtd[i]) & ((fa < fa[i]) | (mtd < mtd[i])))
    for i in np.flatnonzero(~par & np.isfinite(mtd)):  # every other point is dominated
        assert np.any((fa <= fa[i]) & (mtd <= mtd[i]) & ((fa < fa[i]) | (mtd < mtd[i])))


def test_tradeoff_capymoa_convention_and_bad_input(streams):
    res = {"ddm": ddm(streams, drift_level=[2.5, 3.0], lead_dims="run", trace=False)}
    t = tradeoff(res, DRIFTS, convention="capymoa", max_delay=800)
    assert t["f1"].dims == ("detector", "setting", "run") and "pareto" not in t
    with pytest.raises(TypeError, match="non-empty dict"):
        tradeoff({}, DRIFTS)
    with pytest.raises(ValueError, match="detectors must be one of"):
        run_tradeoff(streams, DRIFTS, {"kswin": {}})


def test_tradeoff_round_trips_netcdf(trade, tmp_path):
    trade.to_netcdf(tmp_path / "t.nc")
    back = xr.load_dataset(tmp_path / "t.nc")
    np.testing.assert_array_equal(back["mean_time_to_detection"].values, trade["mean_time_to_detection"].values)


# ----------------------------------------------------------------------------- recovery
def test_recovery_by_hand():
    y = np.zeros(4000, int)
    p = y.copy()
    p[2000:2300] = 1  # the model errs for 300 instances after the drift, then is right again
    ds = streamtk.evaluate(y, p, windows=[100], every=10)
    r = recovery(ds, [2000], interval=500)
    w = r.sel(estimator="window=100", drift=2000)
    assert float(w["before"]) == 1.0 and float(w["trough"]) == 0.0
    # (2000, 2500]: window accuracy 0 on (2100, 2300], ramps over (2000, 2100] and (2300, 2400]
    assert float(w["after"]) == pytest.approx(float(ds.accuracy.sel(estimator="window=100").isel(
        time=slice(200, 250)).mean()))  # fmt: skip
    assert float(w["restoration_time"]) == 400.0 and bool(w["restored"])
    assert float(w["deterioration"]) == pytest.approx(1.0 - float(w["after"]))
    pre = r.sel(estimator="prequential", drift=2000)  # the cumulative accuracy never returns to 1
    assert not bool(pre["restored"]) and np.isnan(float(pre["restoration_time"]))
    err = recovery(ds, [2000], metric="error", interval=500)  # lower is better: the same deterioration
    np.testing.assert_allclose(err["deterioration"].values, r["deterioration"].values)
    np.testing.assert_array_equal(err["restoration_time"].values, r["restoration_time"].values)


def test_recovery_without_a_drop_is_zero_and_bad_input():
    y = np.zeros(3000, int)
    ds = streamtk.evaluate(y, y, windows=[100], every=50)
    r = recovery(ds, [1000, 2000], interval=200)
    assert (r["restoration_time"] == 0).all() and (r["deterioration"] == 0).all()
    with pytest.raises(ValueError, match="metric 'nope' is not in curves"):
        recovery(ds, [1000], metric="nope")
    with pytest.raises(TypeError, match="evaluation Dataset"):
        recovery(ds.isel(time=0), [1000])


# ----------------------------------------------------------------------------- plots
def test_plot_detections_colours_true_and_false_alarms():
    runs = [[150, 900, 2100], [40]]
    tp, fa, *rest = plot_detections(runs, [100, (2000, 2050)], max_delay=200, n=3000)
    assert tp.get_xdata().tolist() == [151, 2101] and tp.get_ydata().tolist() == [0, 0]
    assert fa.get_xdata().tolist() == [901, 41] and fa.get_ydata().tolist() == [0, 1]
    assert len(rest) == 5  # two windows, one gradual span, two drift lines
    plt.close("all")


def test_plot_detections_of_a_grid_needs_a_setting(streams):
    res = ddm(streams, drift_level=[2.5, 3.0], lead_dims="run")
    with pytest.raises(ValueError, match="select one setting"):
        plot_detections(res, DRIFTS)
    artists = plot_detections(res, DRIFTS, sel={"drift_level": 3.0}, warnings=True, max_delay=800)
    assert artists[2].get_label() == "warning zone"
    plt.close("all")


def test_plot_tradeoff_one_line_per_detector(trade):
    lines = plot_tradeoff(trade)
    assert [ln.get_label() for ln in lines[:3]] == ["ddm", "page_hinkley", "adwin"]
    ddm_line = lines[0]
    xs = trade["false_alarms_per_run"].sel(detector="ddm").values
    assert sorted(ddm_line.get_xdata().tolist()) == sorted(xs[np.isfinite(xs)].tolist())
    assert lines[-1].get_label() == "Pareto front"
    roc = plot_tradeoff(trade, x="false_alarm_rate", y="recall", annotate=False)
    assert len(roc) == 3
    with pytest.raises(ValueError, match="detectors"):
        plot_tradeoff(trade, detectors=["kswin"])
    from streamtk.plot.kinds import dataset_kind

    assert dataset_kind(trade) == "tradeoff"
    assert [ln.get_label() for ln in trade.streamtk.plot()[:3]] == ["ddm", "page_hinkley", "adwin"]
    plt.close("all")


# ----------------------------------------------------------------------------- CLI
@pytest.fixture(scope="module")
def log_csv(tmp_path_factory):
    d = tmp_path_factory.mktemp("drift_cli")
    log = simulate_log(4000, drifts=[2000], seed=7)
    write_csv(log.drop_vars("y_score"), d / "run.csv")
    return log, d / "run.csv"


@pytest.mark.parametrize("convention", ["streamtk", "capymoa", "moa"])
def test_cli_score_writes_the_library_scores(log_csv, capsys, tmp_path, convention):
    log, csv = log_csv
    out = tmp_path / "d.nc"
    rc = main(["drift", str(csv), "--detector", "ddm", "--drifts", "2000,3000-3200", "--score", "--convention",
               convention, "--max-delay", "500", "-o", str(out)] if convention != "moa" else
              ["drift", str(csv), "--detector", "ddm", "--drifts", "2000,3000-3200", "--score", "--convention",
               "moa", "-o", str(out)])  # fmt: skip
    text = capsys.readouterr().out
    assert rc == 0 and f"ddm: scores ({convention} convention)" in text
    with xr.open_dataset(out, group="ddm-scores") as saved:  # one file, a group per detector (and its scores)
        saved = saved.load()
    models = [str(m) for m in log.model.values]
    err = (log.y_pred != log.y_true).transpose("model", "time").values.astype(float)
    res = ddm(xr.DataArray(err, dims=("model", "time"), coords={"model": models}))
    alarms = [[int(i) for i in row if i >= 0] for row in res["detection_index"].values]
    kwargs = {} if convention == "moa" else {"max_delay": 500}
    ref = score_detections(alarms, [2000, (3000, 3200)], convention=convention, n=4000, **kwargs)
    for name in ref.data_vars:
        np.testing.assert_array_equal(saved[name].values, ref[name].values, err_msg=name)
    with xr.open_dataset(out, group="ddm") as run:
        run = run.load()
    assert run["true_drifts"].values.tolist() == [[2000, 2000], [3000, 3200]]


def test_cli_score_errors(log_csv, capsys):
    _, csv = log_csv
    rc = main(["drift", str(csv), "--drifts", "2000,30x", "--score"])
    err = capsys.readouterr().err
    assert rc == 2 and "--drifts" in err and "30x" in err
    rc = main(["drift", str(csv), "--drifts", "2000", "--score", "--convention", "capymoa"])
    assert rc == 2 and "needs --max-delay" in capsys.readouterr().err
    rc = main(["drift", str(csv), "--drifts", "3000-2000"])
    assert rc == 2 and "start <= end" in capsys.readouterr().err
    rc = main(["drift", str(csv), "--drifts", "9000"])
    assert rc == 2 and "< n = 4000" in capsys.readouterr().err


@pytest.mark.parametrize("convention", ["streamtk", "capymoa", "moa"])
def test_plot_detection_delays_reads_every_convention(convention):
    from streamtk.plot import plot_detection_delays

    runs = [[150, 900, 2100], [120, 2050], [40]]
    kwargs = {} if convention == "moa" else {"max_delay": 300}
    s = score_detections(runs, [100, 2000], convention=convention, n=3000, **kwargs)
    (bars,) = plot_detection_delays(s)
    np.testing.assert_allclose([b.get_height() for b in bars], np.nan_to_num(s["delay_mean"].values))
    plt.close("all")


def test_recovery_orientation_comes_from_the_registry():
    # the registry decides (ram_hours and seconds are lower-is-better although no "error"/"loss" token is in
    # their names); names outside it fall back on tokens; a value without orientation reads as higher
    from streamtk._core.metrics import REGISTRY, higher_is_better

    for m in REGISTRY.values():
        assert higher_is_better(m.name) is m.higher_is_better, m.name
    assert higher_is_better("ram_hours") is False and higher_is_better("seconds") is False
    assert higher_is_better("my_loss") is False and higher_is_better("time_s") is False
    assert higher_is_better("memory_bytes") is False and higher_is_better("my_score") is True
    seconds = np.full(3000, 0.25)  # binary fractions: the window sums are exact, so it returns to its level
    seconds[1000:1200] = 2.0  # processing slows for 200 instances after the drift, then recovers
    res = streamtk.resource_curves(seconds, np.full(3000, 1024.0**3), windows=[100], every=10)
    for name in ("ram_hours", "seconds"):
        r = recovery(res, [1000], metric=name, interval=300).sel(estimator="window=100", drift=1000)
        assert float(r["deterioration"]) > 0 and bool(r["restored"]), name  # a rise is a deterioration
    up = recovery(res, [1000], metric="throughput", interval=300).sel(estimator="window=100", drift=1000)
    assert float(up["deterioration"]) > 0 and bool(up["restored"])  # a fall in throughput is a deterioration
