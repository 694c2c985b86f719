"""A log's class order travels with its arrays (issue 35, item 10).

``streamtk.evaluate(log.y_true, log.y_pred)`` sees only the arrays: without the order on them it
re-sorts the classes, which changes MOA's kappa_per (its previous label starts at class 0).
"""

from __future__ import annotations

import numpy as np
import pytest

import streamtk
from streamtk import io as sio

ORDER = ["UP", "DOWN"]  # not sorted: code 0 is UP


def _log(n=200, seed=0):
    rng = np.random.default_rng(seed)
    y = np.array(ORDER)[rng.integers(0, 2, n)]
    p = np.where(rng.random(n) < 0.7, y, np.where(y == "UP", "DOWN", "UP"))
    y[0] = "DOWN"  # kappa_per's first previous label (class code 0) differs between the two orders
    sc = rng.random((n, 2))
    return sio.make_log(y, p, y_score=sc / sc.sum(1, keepdims=True), classes=ORDER)


def _writers(tmp_path):
    return {
        "memory": lambda log: log,
        "csv": lambda log: sio.read_csv(sio.write_csv(log, tmp_path / "a.csv")),
        "npz": lambda log: sio.read_npz(sio.write_npz(log, tmp_path / "a.npz")),
        "netcdf": lambda log: sio.open_dataset(sio.to_netcdf(log, tmp_path / "a.nc")),
    }


@pytest.mark.parametrize("where", ["memory", "csv", "npz", "netcdf"])
def test_arrays_of_a_log_keep_its_class_order(tmp_path, where):
    log = _writers(tmp_path)[where](_log())
    assert log.y_true.attrs["classes"] == ORDER and log.y_pred.attrs["classes"] == ORDER
    opts = dict(convention="moa", metrics=["kappa_per", "kappa"], windows=20)
    whole = streamtk.evaluate(log, **opts)
    arrays = streamtk.evaluate(log.y_true, log.y_pred, **opts)
    assert arrays["class"].values.tolist() == ORDER
    np.testing.assert_array_equal(arrays.kappa_per.values, whole.kappa_per.values)
    resorted = streamtk.evaluate(log.y_true.values, log.y_pred.values, classes=sorted(ORDER), **opts)
    assert resorted.kappa_per.values[..., -1] != pytest.approx(whole.kappa_per.values[..., -1])  # it matters


def test_a_netcdf_log_written_without_array_attrs_gets_them_on_read(tmp_path):
    log = _log()
    for var in ("y_true", "y_pred"):
        del log[var].attrs["classes"]
    back = sio.open_dataset(sio.to_netcdf(log, tmp_path / "old.nc"))
    assert back.y_true.attrs["classes"] == ORDER
