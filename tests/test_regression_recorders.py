"""record_regression: river and capymoa regressors and interval predictors, test-then-train, against their own loop."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import streamtk
from streamtk.recorders import record_regression


def _data(n=150, seed=5):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = X @ [1.0, -2.0, 0.5] + rng.normal(0, 0.3, n)
    return X, y


def test_river_regressor_and_conformal_intervals():
    from river import conf, linear_model, preprocessing

    X, y = _data()
    model = preprocessing.StandardScaler() | linear_model.LinearRegression()
    twin = copy.deepcopy(model)
    log = record_regression({"lr": model}, (X, y))
    want = []
    for xi, yi in zip(X, y):
        x = dict(enumerate(xi.tolist()))
        want.append(twin.predict_one(x))
        twin.learn_one(x, yi)
    np.testing.assert_array_equal(log.y_pred.values[0], want)
    np.testing.assert_array_equal(log.y_true.values, y)
    assert log.attrs["task"] == "regression" and log.time_s.shape == (1, len(y))
    ds = streamtk.regression_curves(log[["y_true", "y_pred"]], windows=50)
    assert np.isfinite(ds.mae.values).all()

    jack = conf.RegressionJackknife(linear_model.LinearRegression(), confidence_level=0.9)
    twin = copy.deepcopy(jack)
    iv = record_regression([jack], (x for x in zip(map(lambda r: dict(enumerate(r)), X.tolist()), y)))
    lo = []
    for xi, yi in zip(X, y):
        x = dict(enumerate(xi.tolist()))
        lo.append(twin.predict_one(x, with_interval=True).lower)
        twin.learn_one(x, yi)
    assert iv.attrs["task"] == "intervals"
    np.testing.assert_array_equal(iv.lower.values[0], lo)


def test_capymoa_regressor_and_interval_predictor():
    pytest.importorskip("capymoa")
    from capymoa.regressor import KNNRegressor
    from capymoa.stream import NumpyStream
    from capymoa.uncertainty import MVE

    X, y = _data(120)
    schema = NumpyStream(X, y, target_type="numeric").get_schema()
    log = record_regression({"knn": KNNRegressor(schema=schema)}, (X, y))
    twin, stream, want = KNNRegressor(schema=schema), NumpyStream(X, y, target_type="numeric"), []
    while stream.has_more_instances():
        inst = stream.next_instance()
        want.append(twin.predict(inst))
        twin.train(inst)
    np.testing.assert_array_equal(log.y_pred.values[0], np.asarray(want, dtype=float))
    iv = record_regression({"mve": MVE(schema=schema, base_learner=KNNRegressor(schema=schema))},
                           NumpyStream(X, y, target_type="numeric"), max_instances=100)  # fmt: skip
    assert iv.attrs["task"] == "intervals" and iv.sizes["time"] == 100
    assert (iv.lower.values <= iv.upper.values).all()
    ds = streamtk.interval_curves(iv, alpha=0.05)
    assert 0.0 <= float(ds.coverage[0, 0, -1]) <= 1.0


def test_record_regression_refuses_bad_input():
    from river import linear_model

    X, y = _data(10)
    with pytest.raises(TypeError, match="models: str"):
        record_regression(["not a model"], (X, y))
    with pytest.raises(ValueError, match=r"\(n, d\) and \(n,\)"):
        record_regression(linear_model.LinearRegression(), (X, y[:5]))
    with pytest.raises(ValueError, match="max_instances.*0"):
        record_regression(linear_model.LinearRegression(), (X, y), max_instances=0)
