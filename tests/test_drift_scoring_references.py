"""score_detections(convention="capymoa" / "moa") against capymoa's and MOA's evaluators themselves.

capymoa's ``EvaluateDriftDetector`` is called run by run on the same alarms and drifts
(abrupt and gradual, early detections, repeated alarms, many runs in one call) and every
field must be equal (floats bit for bit). MOA's ``BasicConceptDriftPerformanceEvaluator``
is driven through JPype exactly as MOA's ``EvaluateConceptDrift`` task drives it (the
detector's output before it sees instance ``i``, then the instance with its change flag),
and, end to end, with MOA's own DDM as the change detector learner. Skipped (with the
reason) where capymoa or a Java runtime is missing.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from streamtk.drift import ddm, error_stream
from streamtk.drift.scoring import score_detections

from ._moa import import_capymoa

CAPYMOA_FIELDS = ("tp", "fp", "fn", "precision", "recall", "episode_recall", "f1", "mdt", "ndt", "far", "ar",
                  "n_episodes", "n_alarms")  # fmt: skip
MOA_FIELDS = {
    "learned instances": "learned_instances",
    "detected changes": "detected_changes",
    "detected warnings": "detected_warnings",
    "true changes": "true_changes",
    "delay detection (average)": "delay_detection_average",
    "true changes detected": "true_changes_detected",
}


@st.composite
def drift_cases(draw, min_drifts=1, repeated_alarms=True):
    """A stream length, drifts (change points and (start, end) pairs) and the alarms of several runs."""
    n = draw(st.integers(20, 400))
    k = draw(st.integers(min_drifts, 4))
    cuts = sorted(draw(st.lists(st.integers(0, n - 1), min_size=2 * k, max_size=2 * k, unique=True)))
    gradual = draw(st.lists(st.booleans(), min_size=k, max_size=k))
    drifts = [(cuts[2 * i], cuts[2 * i + 1]) if gradual[i] else cuts[2 * i] for i in range(k)]
    alarms = st.lists(st.integers(0, n - 1), max_size=15, unique=not repeated_alarms).map(sorted)
    runs = draw(st.lists(alarms, min_size=1, max_size=4))
    return n, drifts, runs


def _same(a, b) -> bool:
    return a == b or (np.isnan(a) and np.isnan(b))


@pytest.fixture(scope="module")
def capymoa_evaluator():
    return import_capymoa("capymoa.drift.eval_detector").EvaluateDriftDetector


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=drift_cases(), max_delay=st.integers(1, 80), early=st.sampled_from([0, 0, 5, 30]),
       rate_period=st.sampled_from([1, 1000, 777]))  # fmt: skip
def test_capymoa_convention_equals_capymoa(capymoa_evaluator, case, max_delay, early, rate_period):
    n, drifts, runs = case
    got = score_detections(runs, drifts, convention="capymoa", max_delay=max_delay, max_early_detection=early,
                           rate_period=rate_period, n=n)  # fmt: skip
    trues = np.array([d if isinstance(d, tuple) else (d, d) for d in drifts])
    for r, alarms in enumerate(runs):
        ev = capymoa_evaluator(max_delay=max_delay, rate_period=rate_period, max_early_detection=early)
        ref = ev.calc_performance(trues=trues, preds=np.array(alarms, dtype=np.int64), tot_n_instances=n)
        for field in CAPYMOA_FIELDS:
            assert _same(getattr(ref, field), got[field].values[r]), (field, r)
        mdt = got["delay"].values[r]
        if np.isfinite(mdt).any():  # capymoa's mdt is the mean of the per-drift delays given here
            assert np.mean(mdt[np.isfinite(mdt)]) == pytest.approx(ref.mdt, rel=1e-15)


def test_capymoa_docstring_example(capymoa_evaluator):
    got = score_detections([[500, 1200, 1250, 2100]], [1000, 2000], convention="capymoa", max_delay=200, n=3000)
    assert float(got["f1"][0]) == 0.6666666666666666
    assert (float(got["mdt"][0]), float(got["ndt"][0])) == (150.0, 0.75)
    lenient = score_detections([[500, 1200, 1250, 2100]], [1000, 2000], convention="capymoa", max_delay=400, n=3000)
    assert (float(lenient["mdt"][0]), float(lenient["ndt"][0])) == (150.0, 0.375)


# ----------------------------------------------------------------------------- MOA
@pytest.fixture(scope="module")
def moa():
    import_capymoa()
    import jpype

    pkg = jpype.JPackage("moa")
    inst = jpype.JPackage("com").yahoo.labs.samoa.instances
    ArrayList = jpype.JClass("java.util.ArrayList")
    attributes = ArrayList()
    for name in ("input", "change"):  # the header of MOA's concept drift generators
        values = ArrayList()
        values.add("0")
        values.add("1")
        attributes.add(inst.Attribute(name, values))
    attributes.add(inst.Attribute("ground truth input"))
    header = inst.Instances("", attributes, 1)
    header.setClassIndex(2)
    return pkg, inst, header, jpype


def _moa_task(moa, x, starts, outputs):
    """MOA's EvaluateConceptDrift loop: votes before training, the instance with its change flag, then training.

    ``outputs(i, x_i)`` returns the detector's ``(change, warning)`` votes before input ``i`` and
    feeds it ``x_i`` afterwards (a generator-like callable)."""
    pkg, inst_pkg, header, jpype = moa
    ev = pkg.evaluation.BasicConceptDriftPerformanceEvaluator()
    ev.reset()
    change = np.zeros(len(x), bool)
    change[list(starts)] = True
    for i in range(len(x)):
        inst = inst_pkg.DenseInstance(3)
        inst.setDataset(header)
        inst.setValue(0, float(x[i]))
        inst.setValue(1, 1.0 if change[i] else 0.0)
        inst.setValue(2, float(x[i]))
        det, warn = outputs(i, None)
        ev.addResult(pkg.core.InstanceExample(inst), jpype.JArray(jpype.JDouble)([det, warn, 0.0, 0.0]))
        outputs(i, float(x[i]))
    return {str(m.getName()): float(m.getValue()) for m in ev.getPerformanceMeasurements()}


@st.composite
def moa_cases(draw):
    n = draw(st.integers(5, 200))
    k = draw(st.integers(0, 4))
    starts = sorted(draw(st.lists(st.integers(0, n - 1), min_size=k, max_size=k, unique=True)))
    alarms = sorted(draw(st.lists(st.integers(0, n - 1), max_size=10, unique=True)))
    # warning zones: a few runs of consecutive instances (and some single ones)
    zones = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(1, 25)), max_size=6))
    warn = np.zeros(n, bool)
    for a, length in zones:
        warn[a : a + length] = True
    return n, starts, alarms, np.flatnonzero(warn).tolist()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=moa_cases())
def test_moa_convention_equals_moa_evaluator(moa, case):
    n, starts, alarms, warn = case
    det_flag = np.zeros(n, bool)
    det_flag[alarms] = True
    warn_flag = np.zeros(n, bool)
    warn_flag[warn] = True

    def outputs(i, x):  # the detector's flags after input i - 1
        return (float(i > 0 and det_flag[i - 1]), float(i > 0 and warn_flag[i - 1]))

    ref = _moa_task(moa, np.zeros(n), starts, outputs)
    got = score_detections([alarms], starts, convention="moa", n=n, warnings=[warn])
    for moa_name, name in MOA_FIELDS.items():
        assert _same(ref[moa_name], float(got[name].values[0])), moa_name


def test_moa_convention_end_to_end_with_moas_ddm(moa):
    """MOA's DDM as the change detector learner vs streamtk's ddm + convention='moa' (warnings from its trace)."""
    pkg, *_ = moa
    x = error_stream(3000, [1000, 2000], [0.05, 0.4, 0.1], runs=3, seed=5)
    ours = ddm(x, lead_dims="run")
    got = score_detections(ours, [1000, 2000], convention="moa", warnings=True)
    for r in range(3):
        detector = pkg.classifiers.core.driftdetection.DDM()
        detector.prepareForUse()

        def outputs(i, value, detector=detector):
            if value is None:
                out = detector.getOutput()
                return float(out[0]), float(out[1])
            detector.input(value)
            return None

        ref = _moa_task(moa, x[r], [1000, 2000], outputs)
        for moa_name, name in MOA_FIELDS.items():
            assert _same(ref[moa_name], float(got[name].values[r])), (moa_name, r)
    assert int(got["true_changes_detected"].sum()) > 0 and int(got["detected_warnings"].sum()) > 0
