"""The README's main job: ``python -m streamtk demo`` writes a netCDF file and a PNG."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import xarray as xr

from streamtk.cli import main
from streamtk.simulate import simulate_log


def test_demo_writes_netcdf_and_png(tmp_path, capsys):
    assert main(["demo", "-o", str(tmp_path), "--n", "5000"]) == 0
    out = capsys.readouterr().out
    assert "kappa_per" in out and "streamtk-demo.nc" in out
    ds = xr.load_dataset(tmp_path / "streamtk-demo.nc")
    assert set(ds.model.values) == {"adaptive", "static", "persistent"}
    # the Persistent model's Kappa-Temporal is exactly 0 under every estimator
    kp = ds.kappa_per.sel(model="persistent").values
    assert np.all((kp == 0) | np.isnan(kp))
    png = (tmp_path / "streamtk-demo.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000


def test_module_entry_point_and_errors(tmp_path):
    r = subprocess.run([sys.executable, "-m", "streamtk", "--version"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("streamtk ")
    assert main([]) == 2
    assert main(["demo", "-o", str(tmp_path), "--n", "1", "-q"]) == 2


def test_simulated_log_properties():
    log = simulate_log(20_000, persistence=0.9, seed=3)
    y = log.y_true.values
    assert np.mean(y[1:] == y[:-1]) > 0.9  # strong temporal dependence
    assert log.y_pred.dims == ("model", "time")
    per = log.y_pred.sel(model="persistent").values
    np.testing.assert_array_equal(per[1:], y[:-1])
    again = simulate_log(20_000, persistence=0.9, seed=3)
    xr.testing.assert_identical(log, again)
