"""The labelled API of evaluate: schema, inputs, bad input, netCDF, holdout."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import streamtk


def _stream(n=50, seed=0, k=2):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))
    return y, p


def test_schema_dims_coords_attrs():
    y, p = _stream()
    ds = streamtk.evaluate(y, np.stack([p, 1 - p]), windows=[10], fading=[0.9], every=7)
    assert ds.accuracy.dims == ("model", "estimator", "time")
    assert ds.recall.dims == ("model", "estimator", "time", "class")
    assert ds.estimator.values.tolist() == ["prequential", "window=10", "fading=0.9"]
    assert ds.estimator_kind.values.tolist() == ["prequential", "window", "fading"]
    np.testing.assert_array_equal(ds.estimator_param.values, [np.nan, 10.0, 0.9])
    # checkpoints every 7 instances and always the last one (1-based counts)
    assert ds.instance.values.tolist() == [7, 14, 21, 28, 35, 42, 49, 50]
    assert ds.attrs["streamtk_version"] == streamtk.__version__
    assert ds.attrs["convention"] == "streamtk"
    for name in ds.data_vars:
        assert {"long_name", "formula", "reference", "units"} <= set(ds[name].attrs)


def test_every_equals_subsampled_every_one():
    y, p = _stream(100)
    a = streamtk.evaluate(y, p, windows=[5], every=1)
    b = streamtk.evaluate(y, p, windows=[5], every=9)
    idx = b.instance.values - 1
    for name in a.data_vars:
        np.testing.assert_array_equal(a[name].values[:, idx], b[name].values)


def test_leading_dims_evaluated_independently():
    y, p = _stream(60)
    rng = np.random.default_rng(5)
    preds = np.stack([[p, rng.integers(0, 2, 60)], [1 - p, y]])  # (model, fold, n)
    ds = streamtk.evaluate(y, preds, windows=[7], fading=[0.8])
    assert ds.accuracy.dims == ("model", "fold", "estimator", "time")
    for i in range(2):
        for j in range(2):
            one = streamtk.evaluate(y, preds[i, j], windows=[7], fading=[0.8])
            for name in one.data_vars:
                np.testing.assert_array_equal(ds[name].values[i, j], one[name].values, err_msg=name)


def test_dataarray_inputs_keep_dims_and_coords():
    y, p = _stream(30)
    times = np.arange(30) * 10
    yp = xr.DataArray(np.stack([p, y]), dims=("classifier", "t"), coords={"classifier": ["HT", "oracle"], "t": times})
    yt = xr.DataArray(y, dims="t", coords={"t": times})
    ds = streamtk.evaluate(yt, yp, every=10)
    assert ds.accuracy.dims == ("classifier", "estimator", "time")
    assert ds.classifier.values.tolist() == ["HT", "oracle"]
    assert ds.t.values.tolist() == [90, 190, 290]
    assert float(ds.accuracy.sel(classifier="oracle").isel(time=-1, estimator=0)) == 1.0


def test_string_labels_and_class_coordinate():
    y = np.array(["UP", "DOWN", "UP", "UP"])
    p = np.array(["UP", "UP", "DOWN", "UP"])
    ds = streamtk.evaluate(y, p)
    assert ds["class"].values.tolist() == ["DOWN", "UP"]
    assert float(ds.recall.sel({"class": "UP"}).isel(estimator=0, time=-1)) == pytest.approx(2 / 3)
    assert ds.attrs["pos_label"] == "UP"


def test_missing_labels_are_masked_not_counted_as_a_class():
    y = np.array([1.0, np.nan, 0.0, 1.0])
    p = np.array([1, 0, 0, 0])
    ds = streamtk.evaluate(y, p, windows=[2])
    assert ds["class"].values.tolist() == [0.0, 1.0]
    acc = ds.accuracy.sel(estimator="prequential").values
    np.testing.assert_allclose(acc, [1.0, 1.0, 1.0, 2 / 3])
    # the window of 2 holds the last two *evaluated* instances
    np.testing.assert_allclose(ds.accuracy.sel(estimator="window=2").values, [1.0, 1.0, 1.0, 0.5])
    y_obj = np.array(["a", None, "b"], dtype=object)
    ds2 = streamtk.evaluate(y_obj, ["a", "a", "b"])
    assert ds2["class"].values.tolist() == ["a", "b"]


def test_undefined_values_are_nan():
    # one class only so far: kappa is 0/0, recall of the absent class is undefined
    ds = streamtk.evaluate([0, 0, 0], [0, 0, 0], classes=[0, 1])
    assert np.isnan(ds.kappa.values).all()
    assert np.isnan(ds.recall.sel({"class": 1}).values).all()
    assert np.isnan(ds.mcc.values).all()


def test_risk_with_cost_matrix_and_per_instance_costs():
    y = np.array([0, 1, 1, 0])
    p = np.array([1, 1, 0, 0])
    cost = np.array([[0.0, 5.0], [1.0, 0.0]])  # cost[true, predicted]
    ds = streamtk.evaluate(y, p, cost=cost, windows=[2], metrics=["risk"])
    np.testing.assert_allclose(ds.risk.sel(estimator="prequential").values, [5.0, 2.5, 2.0, 1.5])
    np.testing.assert_allclose(ds.risk.sel(estimator="window=2").values, [5.0, 2.5, 0.5, 0.5])
    per = np.stack([cost * (i + 1) for i in range(4)])
    ds2 = streamtk.evaluate(y, p, cost=per, metrics=["risk"])
    np.testing.assert_allclose(ds2.risk.values[0], [5.0, 2.5, (5 + 3) / 3, (5 + 3) / 4])


def test_netcdf_round_trip(tmp_path):
    y = np.array(["UP", "DOWN", "UP", "UP", "DOWN"])
    p = np.array(["UP", "UP", "DOWN", "UP", "DOWN"])
    ds = streamtk.evaluate(y, np.stack([p, y]), windows=[2], fading=[0.9])
    path = tmp_path / "curves.nc"
    ds.to_netcdf(path)
    back = xr.load_dataset(path)
    xr.testing.assert_identical(back.drop_attrs(deep=False), ds.drop_attrs(deep=False))
    assert back.attrs["convention"] == "streamtk"


def test_holdout_schema_and_values_merge_with_prequential():
    rng = np.random.default_rng(2)
    yh = rng.integers(0, 2, 20)
    preds = np.stack([np.where(rng.random(20) < q, yh, 1 - yh) for q in (0.5, 0.8, 1.0)])  # (C, m)
    hd = streamtk.evaluate_holdout(yh, preds, instance=[100, 200, 300], metrics=["accuracy", "kappa"])
    assert hd.accuracy.dims == ("estimator", "time")
    assert hd.estimator.values.tolist() == ["holdout"]
    assert hd.instance.values.tolist() == [100, 200, 300]
    np.testing.assert_allclose(hd.accuracy.values[0], [(preds[c] == yh).mean() for c in range(3)])
    y, p = _stream(300)
    pq = streamtk.evaluate(y, p, every=100, metrics=["accuracy", "kappa"])
    merged = xr.concat([pq, hd], dim="estimator")
    assert merged.estimator.values.tolist() == ["prequential", "holdout"]


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"windows": [0]}, ValueError, "windows must be a positive integer, got 0"),
        ({"windows": [2.5]}, TypeError, "windows must be an integer, got 2.5"),
        ({"fading": [1.5]}, ValueError, r"fading must be in \(0, 1\], got 1.5"),
        ({"fading": [0.0]}, ValueError, r"fading must be in \(0, 1\], got 0.0"),
        ({"every": 2.0}, TypeError, "every must be an integer, got 2.0"),
        ({"every": 0}, ValueError, "every must be a positive integer, got 0"),
        ({"metrics": ["acuracy"]}, ValueError, "unknown metric 'acuracy'"),
        ({"convention": "river"}, ValueError, "convention must be one of 'streamtk', 'moa'; got 'river'"),
        ({"weights": [1.0, -1.0, 1.0]}, ValueError, r"weights must be non-negative, got -1.0 at index \(1,\)"),
        ({"weights": [1.0, np.nan, 1.0]}, ValueError, r"weights contains a non-finite value nan at index \(1,\)"),
        ({"weights": [1.0, 1.0]}, ValueError, "weights has 2 instances along its last axis but y_true has 3"),
        ({"cost": np.ones((3, 3))}, ValueError, r"cost must have shape \(2, 2\)"),
        ({"windows": [3, 3]}, ValueError, "windows contains the value 3 more than once"),
        ({"metrics": ["f1"], "classes": [0, 1, 2]}, ValueError, "metric 'f1' needs pos_label="),
        ({"metrics": ["cmd"], "classes": [0, 1, 2]}, ValueError, "metric 'cmd' is defined for two classes only"),
        ({"pos_label": 7}, ValueError, "pos_label 7 is not one of the classes"),
        ({"metrics": ["risk"]}, ValueError, "metric 'risk' needs a cost matrix"),
    ],
)
def test_bad_options_raise_clear_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        streamtk.evaluate([0, 1, 1], [0, 1, 0], **kwargs)


def test_bad_arrays_raise_clear_errors():
    with pytest.raises(ValueError, match="y_pred has 2 instances along its last axis but y_true has 3"):
        streamtk.evaluate([0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="y_true is empty"):
        streamtk.evaluate([], [])
    with pytest.raises(ValueError, match="y_true must be one-dimensional"):
        streamtk.evaluate([[0, 1]], [[0, 1]])
    # a missing prediction is not an error: that instance is not evaluated for that model
    ds = streamtk.evaluate([0.0, 1.0], [0.0, np.nan], metrics=["accuracy", "n_instances"])
    assert ds.n_instances.values.ravel().tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match="not one of the classes"):
        streamtk.evaluate([0, 1], [0, 2], classes=[0, 1])
    with pytest.raises(ValueError, match="every value is missing"):
        streamtk.evaluate([np.nan, np.nan], np.array([np.nan, np.nan]))


def test_evaluator_needs_classes_and_consistent_chunks():
    with pytest.raises(ValueError, match="Evaluator needs classes="):
        streamtk.Evaluator(classes=None)
    with pytest.raises(ValueError, match="every=None .* needs the stream length"):
        streamtk.Evaluator(classes=[0, 1])
    ev = streamtk.Evaluator(classes=[0, 1], every=1)
    ev.update([0, 1], [[0, 1], [1, 1]])
    with pytest.raises(ValueError, match="leading dims changed between chunks"):
        ev.update([0], [0])
    with pytest.raises(ValueError, match="call update"):
        streamtk.Evaluator(classes=[0, 1], n_instances=10).result()


def test_weights_broadcast_against_leading_dims():
    y, p = _stream(40)
    preds = np.stack([[p, y], [y, p]])  # (model, fold, n)
    rng = np.random.default_rng(9)
    w_fold = rng.choice([0.0, 1.0], size=(1, 2, 40))  # one test mask per fold, shared by the models
    ds = streamtk.evaluate(y, preds, weights=w_fold, windows=[5])
    for i in range(2):
        for j in range(2):
            one = streamtk.evaluate(y, preds[i, j], weights=w_fold[0, j], windows=[5])
            np.testing.assert_array_equal(
                ds.accuracy.values[i, j], one.accuracy.values[0] if False else one.accuracy.values
            )
    with pytest.raises(ValueError, match="do not broadcast"):
        streamtk.evaluate(y, preds, weights=np.ones((3, 40)))


def test_dataarray_weights_align_by_dim_name():
    y, p = _stream(30)
    preds = xr.DataArray(np.stack([[p, y], [y, p], [p, p]]), dims=("model", "fold", "time"))
    rng = np.random.default_rng(1)
    mask = xr.DataArray(rng.choice([0.0, 1.0], size=(2, 30)), dims=("fold", "time"))  # per fold, shared by models
    ds = streamtk.evaluate(y, preds, weights=mask, windows=[4])
    for i in range(3):
        for j in range(2):
            one = streamtk.evaluate(y, preds.values[i, j], weights=mask.values[j], windows=[4])
            np.testing.assert_array_equal(ds.accuracy.values[i, j], one.accuracy.values)
    with pytest.raises(ValueError, match="weights has dims"):
        streamtk.evaluate(y, preds, weights=xr.DataArray(np.ones((2, 30)), dims=("run", "time")))
