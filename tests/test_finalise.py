"""Finalisation: the compiled loops equal the numpy evaluation of the same formulas, bit for bit, for every
metric of every table; a call compiles only the formulas of its metrics; the generated modules are sound.
"""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import streamtk
import streamtk._core.finalise as F
from streamtk._core.metrics import REGISTRY, TABLES
from streamtk.comparison.compare import compare, compare_losses
from streamtk.dependence.label_dependence import label_dependence
from streamtk.evaluation.intervals import interval_curves
from streamtk.evaluation.losses import loss_curves, regression_curves, resource_curves
from streamtk.evaluation.scores import auc_curves

MECHANISMS = dict(windows=[3, 40], fading=[0.9], tumbling=[17], landmarks=[10, 150], adwin=[0.3])
IMBALANCED = ["average_precision", "pr_auc", "sauc", "pos_neg_ratio"]


def _stream(k, n=300, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y = np.where(rng.random(n) < 0.5, np.roll(y, 1), y)
    p = np.where(rng.random((2, n)) < 0.7, y, rng.integers(0, k, (2, n)))
    w = rng.choice([0.0, 0.5, 1.0, 2.5], size=n)
    s = rng.random((n, k)).round(1)
    return y, p, w, s


def _regression():
    return [m.name for m in REGISTRY.values() if m.family == "regression"]


def _calls():
    y2, p2, w2, s2 = _stream(2)
    y3, p3, w3, s3 = _stream(3, seed=1)
    yl = np.where(np.arange(y3.size) % 11 == 0, np.nan, y3.astype(float))
    return {
        "evaluate binary": lambda: streamtk.evaluate(y2, p2, every=1, **MECHANISMS),
        "evaluate weighted 3 classes": lambda: streamtk.evaluate(
            yl, p3, weights=w3, every=1, pos_label=1, **MECHANISMS
        ),
        "evaluate moa": lambda: streamtk.evaluate(
            y3, p3, weights=w3, every=1, convention="moa", windows=[5], fading=[0.9], adwin=[0.3]
        ),  # fmt: skip
        "evaluate scores and cost": lambda: streamtk.evaluate(
            y2, p2, y_score=s2[:, 1], cost=[[0, 1], [3, 0]], every=1, windows=[5]
        ),  # fmt: skip
        "auc binary": lambda: auc_curves(y2, s2[:, 1], every=1, **MECHANISMS, y_pred=p2[0]),
        "auc ovr": lambda: auc_curves(y3, s3, classes=[0, 1, 2], every=1, windows=[7], fading=[0.9]),
        "auc ovo": lambda: auc_curves(y3, s3, classes=[0, 1, 2], multi_class="ovo", every=1, windows=[7]),
        "imbalanced binary": lambda: auc_curves(
            y2, s2[:, 1], y_pred=p2[0], every=1, metrics=IMBALANCED, baseline=True, **MECHANISMS
        ),  # fmt: skip
        "imbalanced ovr": lambda: auc_curves(
            y3, s3, classes=[0, 1, 2], every=1, windows=[7], fading=[0.9], metrics=["auc", *IMBALANCED]
        ),  # fmt: skip
        "imbalanced moa": lambda: auc_curves(
            y2, s2[:, 1], every=1, windows=[7], convention="moa", metrics=["auc", "sauc", "pos_neg_ratio"]
        ),  # fmt: skip
        "compare models": lambda: compare(
            y3,
            xr.DataArray(np.stack([p3[0], p3[1], y3]), dims=("model", "time")),
            every=1,
            windows=[5],
            fading=[0.9],
            adwin=[0.3],
        ),  # fmt: skip
        "compare losses": lambda: compare_losses(w3, w3[::-1].copy(), every=1, windows=[5], fading=[0.9]),
        "loss curves": lambda: loss_curves(np.where(yl == yl, w3, np.nan), every=1, **MECHANISMS),
        "regression": lambda: regression_curves(s3[:, 0], s3[:, 1:].T, every=1, windows=[5], fading=[0.9]),
        "regression every metric": lambda: regression_curves(
            s3[:, :2],
            np.stack([s3[:, 1:], s3[:, ::2]]),
            weights=w3,
            n_features=1,
            metrics=_regression(),
            every=1,
            lead_dims="model",
            **MECHANISMS,
        ),  # fmt: skip
        "regression moa": lambda: regression_curves(
            s3[:, 0], s3[:, 1:].T, weights=w3, n_features=2, every=1, convention="moa", windows=[5]
        ),  # fmt: skip
        "regression moa multi-target": lambda: regression_curves(s3[:, :2], s3[:, 1:], convention="moa", every=1),
        "intervals": lambda: interval_curves(
            s3[:, 0], y_quantiles=np.sort(s3, axis=1), quantiles=[0.1, 0.5, 0.9], weights=w3, every=1, **MECHANISMS
        ),  # fmt: skip
        "intervals moa": lambda: interval_curves(
            s3[:, 1], s3[:, 0], s3[:, 0] + s3[:, 2], every=1, convention="moa", windows=[7]
        ),  # fmt: skip
        "resources": lambda: resource_curves(w3, w3 * 1e9, every=1, windows=[5], fading=[0.9]),
        "label dependence": lambda: label_dependence(yl, every=1, max_lag=4, windows=[9], fading=[0.9], adwin=[0.3]),
        "multilabel": lambda: streamtk.multilabel_curves(
            s3 > 0.5, np.stack([s3 > 0.3, s3 > 0.6]), weights=w3, every=1, **MECHANISMS
        ),  # fmt: skip
        "multilabel nan": lambda: streamtk.multilabel_curves(
            s3 > 0.5, s3 > 0.2, zero_division=np.nan, every=1, windows=[4], tumbling=[9]
        ),  # fmt: skip
        "multilabel moa": lambda: streamtk.multilabel_curves(s3 > 0.5, s3 > 0.4, convention="moa", every=1),
        # the analytic bands: formulas of the registry over the squared-weight sums
        "evaluate analytic bands": lambda: streamtk.evaluate(
            yl, p3, weights=w3, every=1, pos_label=1, interval=0.9, metrics=BANDED, windows=[5], fading=[0.9]
        ),  # fmt: skip
        "evaluate analytic bands, unweighted fading": lambda: streamtk.evaluate(
            y3, p3, every=1, interval=0.9, metrics=BANDED, windows=[5], fading=[0.9], adwin=[0.3]
        ),  # fmt: skip
        "auc analytic bands": lambda: auc_curves(y3, s3, classes=[0, 1, 2], every=1, windows=[7], interval=0.9),
        "compare analytic bands": lambda: compare(y3, p3[0], p3[1], every=1, windows=[5], fading=[0.9], interval=0.9),
        "loss curves analytic bands": lambda: loss_curves(1.0 * (p3 != y3), every=1, fading=[0.9], interval=0.8),
    }


BANDED = ["accuracy", "error", "kappa", "kappa_m", "kappa_per", "kappa_plus", "p_maj", "p_per", "recall", "precision"]
BANDED += ["n_effective"]


@pytest.fixture
def compiled_threshold(monkeypatch):
    def use(compiled):
        monkeypatch.setattr(F, "COMPILED_MIN_COLUMNS", 0 if compiled else 1 << 62)

    return use


@pytest.mark.parametrize("name", list(_calls()))
def test_compiled_equals_numpy_bit_for_bit(name, compiled_threshold):
    call = _calls()[name]
    compiled_threshold(False)
    a = call()
    compiled_threshold(True)
    b = call()
    assert list(a.data_vars) == list(b.data_vars)
    for v in a.data_vars:
        x, y = a[v].values, b[v].values
        np.testing.assert_array_equal(x, y, err_msg=f"{name}: {v}")
        if x.dtype.kind == "f":  # and the sign of every zero (a NaN's sign means nothing)
            number = ~np.isnan(x)
            assert np.array_equal(np.signbit(x[number]), np.signbit(y[number])), (name, v)


def test_every_registry_metric_is_covered_by_the_calls():
    seen = set()
    for call in _calls().values():
        seen |= set(call().data_vars)
    missing = [m for m in REGISTRY if m not in seen and m != "mean_loss"]  # loss_curves names its variable
    assert not missing, f"add a call that computes {missing} to _calls()"


def test_a_call_compiles_only_its_formulas():
    # the generated loop of a set of metrics holds their formulas and the intermediates they read, nothing else
    src = F._source("confusion", ("kappa_m",))
    called = {line.split(" as ")[1] for line in src.splitlines() if line.startswith("from streamtk._core.metrics")}
    assert called == {"f_kappa_m", "i_nothing_yet", "i_p0", "i_p_maj"}
    assert "if x.moa:" in src  # MOA's intermediate is computed only under MOA's convention


def test_compiled_loops_live_in_the_cache_folder_and_are_shared():
    a = F.compiled_loop("confusion", ("accuracy",))
    assert a is F.compiled_loop("confusion", ("accuracy",))
    path = __import__("sys").modules[a.__module__].__file__
    assert path.startswith(str(F._folder())), path
    for name in TABLES:
        metrics = tuple(m.name for m in REGISTRY.values() if m.table == name)
        assert "def run(" in F._source(name, metrics)
