"""Regression and prediction-interval logs: make_regression_log, the task of a log, and ``streamtk evaluate --task``.

The command line gives the library's numbers with the library's defaults (the same ``every``), on a CSV log
(regression detected from non-integer targets), a netCDF interval log (detected from its bounds) and a
multi-target log; ``--task`` overrides the detection (integer-valued targets).
"""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import streamtk
from streamtk.cli import main
from streamtk.io import log_task, make_log, make_regression_log, open_dataset, read_log, to_netcdf, write_csv


def _stream(n=300, seed=3):
    rng = np.random.default_rng(seed)
    y = np.cumsum(rng.normal(size=n))
    p = y + rng.normal(0, 0.5, (2, n))
    half = rng.uniform(0.2, 1.0, n)
    w = rng.uniform(0.1, 2.0, n)
    return y, p, p[0] - half, p[0] + half, w


def run(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_make_regression_log_layout_and_round_trip(tmp_path):
    y, p, lo, up, w = _stream()
    log = make_regression_log(y, p, models=["a", "b"], weights=w)
    assert log.attrs["task"] == "regression" and log.y_pred.dims == ("model", "time")
    to_netcdf(log, tmp_path / "r.nc")
    back = open_dataset(tmp_path / "r.nc")
    xr.testing.assert_equal(back[["y_true", "y_pred", "weights"]], log[["y_true", "y_pred", "weights"]])
    assert log_task(back) == "regression"
    qs = np.stack([lo, p[0], up], axis=-1)
    iv = make_regression_log(y, lower=lo, upper=up, y_quantiles=qs, quantiles=[0.05, 0.5, 0.95], models=["q"])
    assert iv.attrs["task"] == "intervals" and iv.y_quantiles.dims == ("model", "time", "quantile")
    got = streamtk.interval_curves(iv, alpha=0.1, windows=50)
    want = streamtk.interval_curves(y, lo[None], up[None], y_quantiles=qs[None], quantiles=[0.05, 0.5, 0.95],
                                    alpha=0.1, windows=50, lead_dims="model")  # fmt: skip
    np.testing.assert_array_equal(got.interval_score.values, want.interval_score.values)
    multi = make_regression_log(np.stack([y, -y], axis=1), np.stack([p, -p], axis=-1))
    assert multi.y_true.dims == ("time", "target") and log_task(multi.drop_attrs()) == "regression"


def test_log_task_detection():
    assert log_task(make_log([0, 1, 1], [0, 1, 0])) == "classification"
    ints = make_regression_log([1.0, 2.0, 3.0], [1.0, 2.0, 2.0])
    assert log_task(ints) == "regression"  # its attribute
    assert log_task(ints.drop_attrs()) == "classification"  # integer-valued targets: name the task (--task)
    assert log_task(make_regression_log([1.5, 2.0], [1.0, 2.0]).drop_attrs()) == "regression"
    bounds = make_regression_log([1.0, 2.0], lower=[0.0, 1.0], upper=[2.0, 3.0]).drop_attrs()
    assert log_task(bounds) == "intervals"
    with pytest.raises(ValueError, match="'forecast'"):
        log_task(ints.assign_attrs(task="forecast"))


@pytest.mark.parametrize(
    "bad, match",
    [
        (dict(y_true=[1.0, np.inf], y_pred=[1.0, 2.0]), "y_true"),
        (dict(y_true=[1.0, 2.0], y_pred=[[1.0, 2.0, 3.0]]), r"y_pred must have shape \(2,\)"),
        (dict(y_true=[1.0, 2.0], lower=[0.0, 1.0]), "lower= and upper="),
        (dict(y_true=[1.0, 2.0], y_pred=[1.0, 2.0], weights=[1.0, -2.0]), "-2.0"),
        (dict(y_true=[1.0, 2.0], y_pred=[1.0, 2.0], models=["a", "b"]), "models"),
    ],
)
def test_make_regression_log_refuses_bad_input(bad, match):
    with pytest.raises(ValueError, match=match):
        make_regression_log(**bad)


def test_cli_regression_csv_is_the_library(capsys, tmp_path):
    y, p, _, _, w = _stream()
    log = make_regression_log(y, p, models=["a", "b"], weights=w)
    write_csv(log, tmp_path / "r.csv")
    assert log_task(read_log(tmp_path / "r.csv")) == "regression"  # the CSV lost the attribute: detected
    out = tmp_path / "curves.nc"
    rc, text, err = run(capsys, "evaluate", tmp_path / "r.csv", "-w", 50, "-f", 0.99, "-o", out)
    assert rc == 0 and err == "", err
    got = open_dataset(out)
    want = streamtk.regression_curves(y, xr.DataArray(p, dims=("model", "time"), coords={"model": ["a", "b"]}),
                                      weights=w, windows=[50], fading=[0.99])  # fmt: skip
    assert got.attrs["every"] == want.attrs["every"]  # the API's default every
    for name in want.data_vars:
        np.testing.assert_allclose(got[name].values, want[name].values, rtol=0, atol=0, err_msg=name)
    assert f"{float(want.mae.sel(model='b', estimator='window=50')[-1]):.4f}" in text
    rc, text, err = run(capsys, "evaluate", tmp_path / "r.csv", "--metrics", "adjusted_r2", "--n-features", 3,
                        "--convention", "moa")  # fmt: skip
    want = streamtk.regression_curves(y, p, weights=w, metrics=["adjusted_r2"], n_features=3, convention="moa")
    assert rc == 0 and f"{float(want.adjusted_r2[1, 0, -1]):.4f}" in text


def test_cli_task_flag_and_intervals(capsys, tmp_path):
    y, p, lo, up, _ = _stream()
    yi = np.round(y)  # integer-valued targets: a classification log unless told
    write_csv(make_regression_log(yi, p[0]), tmp_path / "counts.csv")
    rc, text, err = run(capsys, "evaluate", tmp_path / "counts.csv", "--task", "regression", "--every", 100)
    want = streamtk.regression_curves(yi, p[0], every=100)
    assert rc == 0 and f"{float(want.rmse[0, -1]):.4f}" in text
    to_netcdf(make_regression_log(y, lower=lo, upper=up, models=["qr"]), tmp_path / "iv.nc")
    out = tmp_path / "iv_curves.nc"
    rc, text, err = run(capsys, "evaluate", tmp_path / "iv.nc", "--alpha", 0.1, "--window", 40, "-o", out)
    assert rc == 0 and err == "", err
    want = streamtk.interval_curves(y, lo, up, alpha=0.1, windows=[40])
    got = open_dataset(out)
    for name in ("coverage", "mean_width", "nmpiw", "interval_score"):
        np.testing.assert_array_equal(got[name].values[0], want[name].values, err_msg=name)


@pytest.mark.parametrize(
    "argv, needles",
    [
        (["--alpha", "0.1"], ["--alpha", "intervals"]),
        (["--task", "intervals"], ["no intervals"]),
        (["--scores"], ["--scores", "regression"]),
        (["--metrics", "accuracy"], ["'accuracy'", "regression metric"]),
        (["--metrics", "adjusted_r2"], ["n_features", "None"]),
    ],
)
def test_cli_regression_errors_are_one_line(capsys, tmp_path, argv, needles):
    y, p, _, _, _ = _stream(50)
    write_csv(make_regression_log(y, p[0]), tmp_path / "r.csv")
    rc, _, err = run(capsys, "evaluate", tmp_path / "r.csv", *argv)
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, (needle, err)


def test_load_regression_electricity_demand(data_dir):  # data_dir: skip without the datasets
    from streamtk.datasets import load, load_regression

    s = load_regression("electricity_demand")
    elec = load("electricity")
    assert s.target == "nswdemand" and s.n == elec.n == 45312
    assert s.feature_names == ("period", "nswprice", "vicprice", "vicdemand", "transfer")
    np.testing.assert_array_equal(s.y, elec.X[:, 2])
    np.testing.assert_array_equal(s.X, elec.X[:, [0, 1, 3, 4, 5]])
    with pytest.raises(ValueError, match="'ozone_level'"):
        load_regression("ozone_level")
