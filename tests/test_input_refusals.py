"""Inputs that were accepted silently, or refused with an error naming no argument (issue 35, item 6)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import xarray as xr

import streamtk
from streamtk import io as sio
from streamtk.kfold.noise import noise_filter
from streamtk.runners.distributed import compare_dask, evaluate_dask


@pytest.mark.parametrize("dim", ["class", "estimator", "instance"])
def test_a_leading_dim_with_a_reserved_name_is_refused(dim):
    y = np.array([0, 1, 0, 1])
    p = xr.DataArray(np.array([[0, 1, 0, 0], [1, 1, 0, 1]]), dims=(dim, "time"))
    with pytest.raises(ValueError, match=rf"y_pred has the leading dim '{dim}'.*reserved.*time, class, estimator"):
        streamtk.evaluate(y, p, metrics=["accuracy", "recall"])


def test_from_river_nan_probabilities_give_a_missing_prediction():
    y = ["a", "b", "a", "b"]
    steps = [
        {"Step": 1, "Prediction": {}},
        {"Step": 2, "Prediction": {"a": math.nan, "b": 0.9}},  # river's max() would say "a"
        {"Step": 3, "Prediction": {"a": math.nan, "b": math.nan}},
        {"Step": 4, "Prediction": {"a": 0.2, "b": 0.8}},
    ]
    with pytest.warns(UserWarning, match=r"NaN class probabilities at 2 step\(s\) \(Step \[2, 3\]\)"):
        log = sio.from_river(steps, y_true=y)
    assert log.y_pred.values.tolist() == [[None, None, None, "b"]]
    assert np.isnan(log.y_score.values[0, :3]).all()
    assert log.y_score.values[0, 3].tolist() == [0.2, 0.8]
    ds = streamtk.evaluate(log, metrics=["accuracy"])  # the NaN rows are not evaluated
    assert ds.accuracy.isel(time=-1).item() == 1.0


@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_make_log_refuses_a_weight_evaluate_would_refuse(bad):
    with pytest.raises(ValueError, match=rf"weights must be non-negative finite .*got {bad!r} at index \(1,\)"):
        sio.make_log([0, 1, 0], [0, 1, 1], weights=[1.0, bad, 1.0])


def test_noise_filter_refuses_a_prediction_outside_classes():
    with pytest.raises(ValueError, match=r"y_pred contains the label 7, which is not one of the classes \[0, 1, 2\]"):
        noise_filter(np.array([0, 1, 7, 2]), 0.5, classes=3, seed=0)
    with pytest.raises(ValueError, match=r"y_pred contains the label 'd'"):
        noise_filter(np.array(["a", "d"]), 0.5, classes=["a", "b", "c"], seed=0)
    out = noise_filter(np.array([0.0, np.nan, 1.0] * 50), 1.0, classes=[0, 1], seed=1)
    assert np.isnan(out[1::3]).all() and not np.isnan(out[0::3]).any()  # no prediction stays no prediction


@pytest.mark.parametrize("y_true_shape", [(4,), (3, 4), (2, 6)])
def test_evaluate_holdout_names_y_true_holdout_and_the_shapes(y_true_shape):
    with pytest.raises(ValueError, match=r"y_true_holdout must have shape \(5,\) or \(2, 5\).*\(2, 5\).*got"):
        streamtk.evaluate_holdout(np.zeros(y_true_shape, int), np.zeros((2, 5), int), instance=[10, 20])


def test_evaluate_dask_names_y_true_and_the_shapes():
    p = xr.DataArray(np.zeros((2, 8), int), dims=("model", "time")).chunk({"model": 1})
    for y in (np.zeros(7, int), xr.DataArray(np.zeros(7, int), dims="time")):
        with pytest.raises(
            ValueError, match=r"y_true has 7 entries along 'time' .*\(7,\).* but y_pred has 8 .*\(2, 8\)"
        ):
            evaluate_dask(y, p, metrics=["accuracy"])
    w = xr.DataArray(np.ones(9), dims="time")
    with pytest.raises(ValueError, match=r"weights has 9 entries along 'time'"):
        evaluate_dask(np.zeros(8, int), p, weights=w, metrics=["accuracy"])
    with pytest.raises(ValueError, match=r"y_pred_b has 7 entries along 'time'"):
        compare_dask(np.zeros(8, int), p, p.isel(time=slice(0, 7)))


def test_evaluate_dask_aligns_labelled_inputs_by_label():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 50)
    p = xr.DataArray(rng.integers(0, 2, (2, 50)), dims=("model", "time"), coords={"model": ["a", "b"]})
    w = xr.DataArray(rng.random((2, 50)), dims=("model", "time"), coords={"model": ["a", "b"]})
    ref = streamtk.evaluate(y, p, weights=w, every=10, metrics=["accuracy"])
    lazy = evaluate_dask(y, p.chunk({"model": 1}), weights=w[::-1], every=10, metrics=["accuracy"])
    np.testing.assert_array_equal(lazy.accuracy.values, ref.accuracy.values)
    shifted = xr.DataArray(y, dims="time", coords={"time": np.arange(1, 51)})
    with pytest.raises(ValueError, match=r"y_true's 'time' labels do not match y_pred's"):
        evaluate_dask(shifted, p.assign_coords(time=np.arange(50)).chunk({"model": 1}), metrics=["accuracy"])
