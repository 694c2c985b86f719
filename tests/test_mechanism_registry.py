"""The forgetting-mechanism registry drives what every module accepts and refuses.

A mechanism is declared once (:data:`streamtk._core.mechanisms.MECHANISMS`, and its kernel code and
restart rule in :mod:`streamtk._kernels.forgetting`); the public functions, the MOA convention, the
detectors and the kernels' restart handling read the declaration. These tests walk the registry, so a
new mechanism is checked here without editing them, except for one example value (the first test
fails until it has one).
"""

from __future__ import annotations

import numpy as np
import pytest

import streamtk
from streamtk._core.mechanisms import BARE_LABELS, MECHANISMS, MONITORABLE, build_estimators
from streamtk._kernels import forgetting as KF
from streamtk.drift.page_hinkley import page_hinkley

#: one valid value of every mechanism argument
EXAMPLES = {"windows": [4], "fading": [0.9], "adwin": [0.1], "tumbling": [5], "landmarks": [3, 11], "ewma": [0.1]}

rng = np.random.default_rng(3)
N = 40
Y = rng.integers(0, 2, N)
P = np.where(rng.random(N) < 0.7, Y, 1 - Y)
S = np.clip(P * 0.6 + rng.random(N) * 0.4, 0, 1)
ERR = (Y != P).astype(float)


def test_every_mechanism_has_an_example():
    assert sorted(EXAMPLES) == sorted(m.argument for m in MECHANISMS)


@pytest.mark.parametrize("mech", MECHANISMS, ids=lambda m: m.argument)
def test_every_function_with_forgetting_takes_every_mechanism(mech):
    kw = {mech.argument: EXAMPLES[mech.argument]}
    labels = [s.label for s in build_estimators(**kw)]
    for ds in (
        streamtk.evaluate(Y, P, **kw),
        streamtk.auc_curves(Y, S, y_pred=P, **kw),
        streamtk.auc_curves(Y, S, y_pred=P, metrics=["average_precision", "pr_auc", "sauc", "pos_neg_ratio"], **kw),
        streamtk.compare(Y, P, 1 - P, **kw),
        streamtk.multilabel_curves(np.c_[Y, P], np.c_[P, Y], **kw),
    ):
        assert ds.estimator.values.tolist() == labels
    if not mech.adaptive:  # ADWIN windows follow the predictions' loss: only functions with predictions
        assert streamtk.loss_curves(ERR, **kw).estimator.values.tolist() == labels
        assert streamtk.label_dependence(Y, **kw, max_lag=2).estimator.values.tolist() == labels


@pytest.mark.parametrize("mech", MECHANISMS, ids=lambda m: m.argument)
def test_convention_moa_refuses_exactly_the_mechanisms_moa_lacks(mech):
    kw = {mech.argument: EXAMPLES[mech.argument]}
    if mech.moa:
        streamtk.evaluate(Y, P, convention="moa", **kw)
    else:
        with pytest.raises(ValueError, match="convention='moa' has only the estimators"):
            streamtk.evaluate(Y, P, convention="moa", **kw)
    if mech.kind != "window":  # MOA's AUC evaluator is prequential or windowed
        with pytest.raises(ValueError, match="MOA's AUC evaluator"):
            streamtk.auc_curves(Y, S, convention="moa", **kw)


@pytest.mark.parametrize("mech", MECHANISMS, ids=lambda m: m.argument)
def test_page_hinkley_monitors_every_mechanism_not_driven_by_a_loss(mech):
    kw = {mech.argument: EXAMPLES[mech.argument]}
    assert (mech.argument in MONITORABLE) == (not mech.adaptive)
    if mech.adaptive:
        with pytest.raises(TypeError, match=mech.argument):
            page_hinkley(ERR, **kw)
    else:
        ds = page_hinkley(ERR, **kw)
        assert ds.estimator.values.tolist() == [s.label for s in build_estimators(prequential=False, **kw)]


def test_restarting_mechanisms_are_those_whose_rule_restarts():
    # the numpy layer keeps inputs for RESTARTING kinds: exactly the kinds next_restart ever restarts
    marks = np.array([3, 11], dtype=np.int64)
    restarting = {m.code for m in MECHANISMS if KF.next_restart(m.code, 5, marks, 0, 1)[0] != KF.NEVER}
    assert restarting == set(KF.RESTARTING)


def test_bare_labels_are_the_single_estimator_mechanisms():
    assert BARE_LABELS == tuple(m.kind for m in MECHANISMS if not m.plural_values)
    for kind in BARE_LABELS:
        (spec,) = build_estimators(prequential=False, **{kind: EXAMPLES[kind]})
        assert spec.label == kind


def _values(ds):
    return {v: ds[v].values for v in ds.data_vars}


def test_ewma_is_the_fading_factor_one_minus_a_in_every_family():
    # streamtk's estimates are ratios of weighted sums: MOA's constant factor a of an EWMA cancels, so ewma=a
    # gives fading=1 - a's values bit for bit in every family (convention="moa" gives MOA's own; see
    # tests/test_moa_evaluators.py)
    a = 0.15
    w = np.linspace(0.1, 2.0, N)
    calls = [
        lambda **kw: streamtk.evaluate(Y, P, weights=w, y_score=S, **kw),
        lambda **kw: streamtk.auc_curves(Y, S, weights=w, **kw),
        lambda **kw: streamtk.compare(Y, P, 1 - P, **kw),
        lambda **kw: streamtk.loss_curves(ERR, **kw),
        lambda **kw: streamtk.label_dependence(Y, max_lag=2, **kw),
        lambda **kw: page_hinkley(ERR, prequential=False, **kw),
    ]
    for call in calls:
        got, want = _values(call(ewma=a)), _values(call(fading=1.0 - a))
        assert got.keys() == want.keys()
        for name in want:
            np.testing.assert_array_equal(got[name], want[name], err_msg=name)
