"""convention="moa" against MOA's own evaluators, bit for bit, through capymoa (which ships MOA's jar).

MOA's ``BasicClassificationPerformanceEvaluator`` (prequential), its ``Window``,
``FadingFactor`` and ``Adwin`` subclasses are fed the same labels, predictions and weights through
JPype; after every instance their accuracy, kappa, Kappa-Temporal and kappa_m (in
percent) must equal streamtk's values times 100 exactly. Skipped when capymoa (and a
Java runtime) is not installed; ``tests/test_engine.py`` holds the engine to a Python
restatement of the same operations without MOA.
"""

from __future__ import annotations

import numpy as np
import pytest

import streamtk

from ._moa import import_capymoa

MEASURES = {
    "accuracy": "classifications correct (percent)",
    "kappa": "Kappa Statistic (percent)",
    "kappa_per": "Kappa Temporal Statistic (percent)",
    "kappa_m": "Kappa M Statistic (percent)",
}


@pytest.fixture(scope="module")
def moa():
    """MOA's classes through capymoa (starts the JVM once)."""
    import_capymoa()  # starts MOA's Java virtual machine
    import jpype

    return jpype.JPackage("moa"), jpype.JPackage("com").yahoo.labs.samoa.instances, jpype.JClass("java.util.ArrayList")


def _class_instance(moa, k):
    """A MOA instance whose only attribute is the class, with values ``"0" .. "k-1"`` (as capymoa builds it)."""
    _, inst_pkg, ArrayList = moa
    values = ArrayList()
    for i in range(k):
        values.add(str(i))
    attributes = ArrayList()
    attributes.add(inst_pkg.Attribute("class", values))
    header = inst_pkg.Instances("", attributes, 1)
    header.setClassIndex(0)
    inst = inst_pkg.DenseInstance(1)
    inst.setDataset(header)
    return inst


def _moa_curves(moa, kind, param, y, p, k, w):
    """Feed MOA's evaluator one instance at a time (``y < 0``: missing label); its four measures after each."""
    pkg = moa[0]
    if kind == "prequential":
        ev = pkg.evaluation.BasicClassificationPerformanceEvaluator()
    elif kind == "window":
        ev = pkg.evaluation.WindowClassificationPerformanceEvaluator()
        ev.widthOption.setValue(int(param))
    elif kind == "adwin":  # one ADWIN (MOA's default delta 0.002) per estimated fraction
        ev = pkg.evaluation.AdwinClassificationPerformanceEvaluator()
    elif kind == "ewma":  # S += alpha (value - S) from 0, read as it is (issue 33)
        ev = pkg.evaluation.EWMAClassificationPerformanceEvaluator()
        ev.alphaOption.setValue(float(param))
    else:
        ev = pkg.evaluation.FadingFactorClassificationPerformanceEvaluator()
        ev.alphaOption.setValue(float(param))
    # prepareForUse is not called: the fading evaluator's options clash in this MOA release (two share the
    # letter 'a'); the evaluators set themselves up on their first instance
    inst = _class_instance(moa, k)
    out = {name: np.empty(len(y)) for name in MEASURES}
    for t in range(len(y)):
        inst.setClassValue(float(y[t]) if y[t] >= 0 else float("nan"))  # NaN: classIsMissing()
        inst.setWeight(float(w[t]))
        votes = [0.0] * k if p[t] >= 0 else []  # no votes: a learner that predicts nothing
        if p[t] >= 0:
            votes[int(p[t])] = 1.0
        ev.addResult(pkg.core.InstanceExample(inst), votes)
        got = {str(m.getName()): float(m.getValue()) for m in ev.getPerformanceMeasurements()}
        for name, label in MEASURES.items():
            out[name][t] = got[label]
    return out


@pytest.mark.parametrize(
    "kind,param,k,weighted,missing",
    [
        ("prequential", None, 2, False, False),  # the fused dense two-class path
        ("window", 40, 2, False, False),
        ("fading", 0.95, 2, False, False),
        ("prequential", None, 3, True, True),  # the general path: weights (some 0) and missing labels
        ("window", 40, 3, True, False),
        ("fading", 0.97, 3, True, True),
        ("fading", 0.9, 4, False, False),
        ("adwin", 0.002, 2, False, False),
        ("adwin", 0.002, 3, False, False),
        ("ewma", 0.01, 2, False, False),
        ("ewma", 0.05, 3, True, True),
        ("ewma", 0.3, 4, True, False),
    ],
)
def test_identical_to_moa(moa, kind, param, k, weighted, missing):
    n = 3000 if kind == "adwin" else 700
    rng = np.random.default_rng(k * 100 + (param is not None) + 10 * weighted)
    y = rng.integers(0, k, n)
    y = np.where(rng.random(n) < 0.6, np.r_[0, y[:-1]], y)  # temporal dependence: kappa_per far from kappa
    accuracy = np.where(np.arange(n) < n // 2, 0.85, 0.6)  # a drop halfway: the ADWIN windows cut
    p = np.where(rng.random(n) < accuracy, y, rng.integers(0, k, n))
    w = rng.choice([0.0, 0.5, 1.0, 2.5], n) if weighted else np.ones(n)
    if missing:
        y = np.where(rng.random(n) < 0.05, -1, y)
    ref = _moa_curves(moa, kind, param, y, p, k, w)
    kw = {"window": {"windows": [param]}, "fading": {"fading": [param]}, "adwin": {"adwin": [param]},
          "ewma": {"ewma": [param]}}.get(kind, {})  # fmt: skip
    label = "prequential" if kind == "prequential" else f"{kind}={param!r}"
    ds = streamtk.evaluate(np.where(y < 0, np.nan, y.astype(float)), p, weights=w if weighted else None,
                           classes=list(range(k)), convention="moa", metrics=list(MEASURES), **kw)  # fmt: skip
    ds = ds.sel(estimator=label)
    for name in MEASURES:
        ours = ds[name].values * 100.0  # MOA reports percent: the same multiplication
        theirs = ref[name]
        same = (ours == theirs) | (np.isnan(ours) & np.isnan(theirs))
        assert same.all(), (name, int(np.argmin(same)), ours[~same][:3], theirs[~same][:3])


@pytest.mark.parametrize("kind,param", [("prequential", None), ("window", 50), ("fading", 0.99)])
def test_missing_predictions_are_moa_class_zero(moa, kind, param):
    # MOA's evaluators take argmax of empty class votes, class index 0 (a learner's first instance)
    n, k = 600, 3
    rng = np.random.default_rng(17)
    y = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))
    p = np.where(rng.random(n) < 0.1, -1, p)
    p[0] = -1
    w = rng.choice([0.0, 0.5, 1.0, 2.5], n)
    ref = _moa_curves(moa, kind, param, y, p, k, w)
    kw = {"window": {"windows": [param]}, "fading": {"fading": [param]}}.get(kind, {})
    ds = streamtk.evaluate(y, np.where(p < 0, np.nan, p.astype(float)), weights=w, classes=list(range(k)),
                           convention="moa", metrics=list(MEASURES), **kw)  # fmt: skip
    ds = ds.sel(estimator="prequential" if kind == "prequential" else f"{kind}={param!r}")
    for name in MEASURES:
        ours, theirs = ds[name].values * 100.0, ref[name]
        same = (ours == theirs) | (np.isnan(ours) & np.isnan(theirs))
        assert same.all(), (name, int(np.argmin(same)), ours[~same][:3], theirs[~same][:3])


def _moa_window_auc(moa, width, y, s, w):
    """MOA's WindowAUCImbalancedPerformanceEvaluator (class votes ``[1 - s, s]``): its AUC after each instance."""
    pkg = moa[0]
    ev = pkg.evaluation.WindowAUCImbalancedPerformanceEvaluator()
    ev.widthOption.setValue(int(width))
    ev.prepareForUse()
    inst = _class_instance(moa, 2)
    out = np.empty(len(y))
    for t in range(len(y)):
        inst.setClassValue(float(y[t]))
        inst.setWeight(float(w[t]))
        ev.addResult(pkg.core.InstanceExample(inst), [1.0 - s[t], s[t]])
        out[t] = next(float(m.getValue()) for m in ev.getPerformanceMeasurements() if str(m.getName()) == "AUC")
    return out


@pytest.mark.parametrize("ties,weighted", [(False, False), (True, False), (True, True)])
def test_window_auc_identical_to_moa(moa, ties, weighted):
    # issue 7's MOA semantics: MOA's windowed AUC (1.0 while the window holds one class only, ties as MOA
    # orders them, every instance of weight > 0 counted once) against MOA itself
    from streamtk.evaluation.scores import auc_curves

    n = 1500
    rng = np.random.default_rng(13 + ties + 2 * weighted)
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.integers(0, 4, n) / 4.0 if ties else rng.random(n)
    w = rng.choice([0.0, 1.0, 3.0], n, p=[0.1, 0.6, 0.3]) if weighted else np.ones(n)
    ds = auc_curves(y, s, windows=[10, 400], weights=w if weighted else None, convention="moa")
    for width in (10, 400):
        ours = ds.auc.sel(estimator=f"window={width}").values
        theirs = _moa_window_auc(moa, width, y, s, w)
        assert np.array_equal(ours, theirs), (width, int(np.argmin(ours == theirs)))
