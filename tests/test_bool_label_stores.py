"""Boolean labels (with missing ones) survive netCDF and zarr, and reach the CLI (issue 35, item 9)."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import streamtk
from streamtk import io as sio
from streamtk.cli import main


def _river_bool_log(n=60, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.6).tolist()
    preds = [None] + [bool(v) if rng.random() < 0.8 else not v for v in y[1:]]
    steps = [{"Step": i + 1, "Prediction": p} for i, p in enumerate(preds)]
    return sio.from_river(steps, y_true=y, model="LR")


@pytest.mark.parametrize("fmt", ["nc", "zarr"])
def test_bool_labels_round_trip_and_stay_booleans(tmp_path, fmt):
    if fmt == "zarr":
        pytest.importorskip("zarr")
    log = _river_bool_log()
    assert log.y_pred.dtype == object and log.y_pred.values[0, 0] is None
    path = (sio.to_netcdf if fmt == "nc" else sio.to_zarr)(log, tmp_path / f"log.{fmt}")
    back = sio.open_dataset(path)
    assert back.y_true.dtype == bool
    assert back.y_pred.values.tolist() == log.y_pred.values.tolist()
    assert all(v is None or type(v) is bool for v in back.y_pred.values.reshape(-1).tolist())
    assert back["class"].values.tolist() == [False, True]
    xr.testing.assert_identical(
        streamtk.evaluate(back, windows=10).drop_attrs(), streamtk.evaluate(log, windows=10).drop_attrs()
    )


def test_a_river_bool_log_reaches_the_cli(tmp_path, capsys):
    path = sio.to_netcdf(_river_bool_log(), tmp_path / "log.nc")
    assert main(["evaluate", str(path), "--metrics", "accuracy", "-o", str(tmp_path / "curves.nc")]) == 0
    curves = sio.open_dataset(tmp_path / "curves.nc")
    assert curves["class"].values.tolist() == [False, True]
