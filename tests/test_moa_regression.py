"""convention="moa" of the regression and prediction-interval families against MOA's own evaluators, through capymoa.

MOA's ``BasicRegressionPerformanceEvaluator``, ``WindowRegressionPerformanceEvaluator``, the multi-target
``BasicMultiTargetPerformanceEvaluator`` / ``BasicMultiTargetPerformanceRelativeMeasuresEvaluator``, and capymoa's
``RegressionEvaluator``, ``PredictionIntervalEvaluator`` / MOA's ``WindowPredictionIntervalEvaluator`` are fed the
same recorded targets, predictions and weights through JPype; after every instance their measures must equal
streamtk's exactly (MOA's multi-target MAE and RMSE to the rounding of its single sum over the targets). The
baselines are MOA's ``NoChange``, ``TargetMean`` and ``FadingTargetMean`` learners themselves. Skipped without
capymoa and a Java runtime.
"""

from __future__ import annotations

import numpy as np
import pytest

import streamtk

from ._moa import import_capymoa

REG_MEASURES = {
    "n_instances": "classified instances",
    "mae": "mean absolute error",
    "rmse": "root mean squared error",
    "rmae": "relative mean absolute error",
    "rrmse": "relative root mean squared error",
    "r2": "coefficient of determination",
    "adjusted_r2": "adjusted coefficient of determination",
}


@pytest.fixture(scope="module")
def moa():
    import_capymoa()
    import jpype

    return jpype.JPackage("moa"), jpype.JPackage("com").yahoo.labs.samoa.instances, jpype.JClass("java.util.ArrayList")


def _header(moa, n_attributes, outputs=None):
    _, pkg, ArrayList = moa
    atts = ArrayList()
    for i in range(n_attributes):
        atts.add(pkg.Attribute(f"a{i}"))
    header = pkg.Instances("", atts, 1)
    if outputs:
        header.setRangeOutputIndices(pkg.Range(f"1-{outputs}"))
    else:
        header.setClassIndex(n_attributes - 1)
    return header


def _instance(moa, header, n_attributes):
    inst = moa[1].DenseInstance(n_attributes)
    inst.setDataset(header)
    return inst


def _measures(ev):
    return {str(m.getName()): float(m.getValue()) for m in ev.getPerformanceMeasurements()}


def _stream(n, seed, weighted=True):
    rng = np.random.default_rng(seed)
    y = np.cumsum(rng.normal(size=n)) + rng.normal(size=n)
    p = y + rng.normal(0, 0.8, n)
    p[5] = y[5]
    w = rng.choice([0.0, 0.5, 1.0, 2.5], n) if weighted else np.ones(n)
    return y, p, w


@pytest.mark.parametrize("kind,param", [("prequential", None), ("window", 1), ("window", 40)])
@pytest.mark.parametrize("weighted", [False, True])
def test_regression_identical_to_moa(moa, kind, param, weighted):
    n, n_features = 500, 3
    y, p, w = _stream(n, 7 + weighted + (param or 0), weighted)
    if kind == "prequential":
        ev = moa[0].evaluation.BasicRegressionPerformanceEvaluator()
    else:
        ev = moa[0].evaluation.WindowRegressionPerformanceEvaluator()
        ev.widthOption.setValue(int(param))
    header = _header(moa, n_features + 1)
    inst = _instance(moa, header, n_features + 1)
    ref = {name: np.empty(n) for name in REG_MEASURES}
    seen = False
    for t in range(n):
        inst.setClassValue(float(y[t]))
        inst.setWeight(float(w[t]))
        ev.addResult(moa[0].core.InstanceExample(inst), [float(p[t])])
        seen = seen or w[t] > 0
        got = _measures(ev) if seen else {}  # MOA's window evaluator has no estimators before then
        for name, label in REG_MEASURES.items():
            ref[name][t] = got.get(label, np.nan)
    kw = {"windows": [param]} if kind == "window" else {}
    ds = streamtk.regression_curves(y, p, weights=w if weighted else None, n_features=n_features, convention="moa",
                                    every=1, **kw)  # fmt: skip
    ds = ds.sel(estimator="prequential" if kind == "prequential" else f"window={param}")
    for name in REG_MEASURES:
        ours, theirs = ds[name].values, ref[name]
        same = (ours == theirs) | np.isnan(theirs)
        assert (~np.isnan(theirs)).sum() > n // 2
        assert same.all(), (name, int(np.argmin(same)), ours[~same][:3], theirs[~same][:3])


def test_capymoa_regression_evaluators_are_moa_convention(moa):
    from capymoa.evaluation import RegressionEvaluator, RegressionWindowedEvaluator
    from capymoa.stream import Schema

    schema = Schema.from_custom(features=["f0", "f1", "y"], target="y")
    y, p, _ = _stream(300, 3, weighted=False)
    prequential, windowed = (
        RegressionEvaluator(schema=schema),
        RegressionWindowedEvaluator(schema=schema, window_size=50),
    )
    rows = []
    for t in range(y.size):
        prequential.update(float(y[t]), float(p[t]))
        windowed.update(float(y[t]), float(p[t]))
        rows.append(dict(zip(prequential.metrics_header(), prequential.metrics())))
    ds = streamtk.regression_curves(y, p, n_features=2, convention="moa", windows=[50], every=1)
    for name in ("mae", "rmse", "rmae", "rrmse", "r2", "adjusted_r2"):
        assert ds[name].sel(estimator="prequential").values.tolist() == [r[name] for r in rows], name
    got = ds.sel(estimator="window=50").isel(time=slice(49, None, 50))  # capymoa reads its window every 50
    for name in ("mae", "rmse", "r2"):
        assert got[name].values.tolist() == windowed.metrics_per_window()[name].tolist(), name


def test_multi_target_identical_to_moa(moa):
    n, q = 300, 3
    rng = np.random.default_rng(21)
    y = rng.normal(size=(n, q)) * [1.0, 5.0, 0.1] + [0.0, 10.0, -1.0]
    p = y + rng.normal(size=(n, q))
    w = rng.choice([0.0, 1.0, 1.5], n)
    header = _header(moa, q + 2, outputs=q)
    inst = _instance(moa, header, q + 2)
    basic = moa[0].evaluation.BasicMultiTargetPerformanceEvaluator()
    relative = moa[0].evaluation.BasicMultiTargetPerformanceRelativeMeasuresEvaluator()
    ref = {k: np.empty(n) for k in ("average_mae", "average_rmse", "average_rmae", "average_rrmse")}
    for t in range(n):
        for j in range(q):
            inst.setValue(j, float(y[t, j]))
        inst.setWeight(float(w[t]))
        pred = moa[1].MultiLabelPrediction(q)
        for j in range(q):
            pred.setVote(j, 0, float(p[t, j]))
        basic.addResult(moa[0].core.InstanceExample(inst), pred)
        relative.addResult(moa[0].core.InstanceExample(inst), pred)
        b, r = _measures(basic), _measures(relative)
        ref["average_mae"][t], ref["average_rmse"][t] = b["mean absolute error"], b["root mean squared error"]
        ref["average_rmae"][t] = r["relative mean absolute error"]
        ref["average_rrmse"][t] = r["relative root mean squared error"]
    ds = streamtk.regression_curves(y, p, weights=w, convention="moa", every=1).sel(estimator="prequential")
    for name in ("average_rmae", "average_rrmse"):  # MOA's per-target sums: the same operations
        ours, theirs = ds[name].values, ref[name]
        same = (ours == theirs) | (np.isnan(ours) & np.isnan(theirs))
        assert same.all(), (name, int(np.argmin(same)), ours[~same][:3], theirs[~same][:3])
    for name in ("average_mae", "average_rmse"):  # MOA adds every target's error into one sum
        np.testing.assert_allclose(ds[name].values, ref[name], rtol=1e-13, err_msg=name)
    with pytest.raises(ValueError, match="multi-target window evaluators mix the targets"):
        streamtk.regression_curves(y, p, convention="moa", windows=[10])


def test_baselines_are_moa_learners(moa):
    pkg = moa[0]
    n = 200
    y, _, w = _stream(n, 11)
    learners = {
        "NoChange": pkg.classifiers.functions.NoChange(),
        "TargetMean": pkg.classifiers.rules.functions.TargetMean(),
        "FadingTargetMean": pkg.classifiers.rules.functions.FadingTargetMean(),
    }
    learners["FadingTargetMean"].fadingFactorOption.setValue(0.95)
    header = _header(moa, 2)
    inst = _instance(moa, header, 2)
    for lr in learners.values():
        lr.setModelContext(moa[1].InstancesHeader(header))
        lr.prepareForUse()
    ref = {name: np.empty(n) for name in learners}
    last_seen = learners["NoChange"].getClass().getDeclaredField("lastSeenClass")
    last_seen.setAccessible(True)  # MOA's NoChange votes for class indices: its prediction is this field
    for t in range(n):
        inst.setClassValue(float(y[t]))
        inst.setWeight(float(w[t]))
        for name, lr in learners.items():
            if name == "NoChange":
                ref[name][t] = float(last_seen.get(lr))
            else:
                ref[name][t] = float(lr.getVotesForInstance(inst)[0])
            lr.trainOnInstance(inst)
    got = streamtk.regression_baselines(y, weights=w, fading=0.95)
    for name in learners:
        assert got.sel(model=name).values.tolist() == ref[name].tolist(), name


@pytest.mark.parametrize("width", [None, 1, 25])
def test_intervals_identical_to_capymoa_and_moa(moa, width):
    from capymoa.evaluation import PredictionIntervalEvaluator
    from capymoa.stream import Schema

    n = 400
    rng = np.random.default_rng(31 + (width or 0))
    y = rng.normal(size=n) * 3 - 1  # negative targets too: MOA's range from 0
    mid = y + rng.normal(size=n)
    half = rng.uniform(0.1, 2.5, n)
    lo, up = mid - half, mid + half
    if width is None:
        ev = PredictionIntervalEvaluator(schema=Schema.from_custom(features=["f", "y"], target="y"))
        update = lambda t: ev.update(float(y[t]), [float(lo[t]), float(mid[t]), float(up[t])])  # noqa: E731
        read = lambda: dict(zip(ev.metrics_header(), ev.metrics()))  # noqa: E731
        names = {"coverage": "coverage", "mean_width": "average_length", "nmpiw": "nmpiw"}
    else:
        ev = moa[0].evaluation.WindowPredictionIntervalEvaluator()
        ev.widthOption.setValue(width)
        header = _header(moa, 2)
        inst = _instance(moa, header, 2)

        def update(t):
            inst.setClassValue(float(y[t]))
            ev.addResult(moa[0].core.InstanceExample(inst), [float(lo[t]), float(mid[t]), float(up[t])])

        read = lambda: _measures(ev)  # noqa: E731
        names = {"coverage": "coverage", "mean_width": "average length", "nmpiw": "NMPIW"}
    ref = {k: np.empty(n) for k in names}
    for t in range(n):
        update(t)
        got = read()
        for k, label in names.items():
            ref[k][t] = got[label]
    kw = {"windows": [width]} if width else {}
    ds = streamtk.interval_curves(y, lo, up, convention="moa", every=1, **kw).isel(estimator=-1)
    assert ds.coverage.attrs["units"] == "%"
    for k in names:
        ours, theirs = ds[k].values, ref[k]
        same = (ours == theirs) | (np.isnan(ours) & np.isnan(theirs))
        assert same.all(), (k, int(np.argmin(same)), ours[~same][:3], theirs[~same][:3])
