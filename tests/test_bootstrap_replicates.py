"""The bootstrap's replicates: the replicate kernel equals the general kernel run on materialised weights w P.

The oracle of :mod:`streamtk._kernels.confusion.replicates` is the general engine fed the replicates as plain
weighted series (repeated predictions, weights ``w_t P_tb`` from :class:`~streamtk._core.intervals.bootstrap.
Resampler`): the same doubles, chunk by chunk, under every mechanism it runs, with weights, missing labels and
predictions, several classes and extra quantities. Also: the resampling weights are Poisson(1), a function of the
stream position only (chunked == one pass), and a replicate's left-out instance keeps its window slot.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from streamtk._core.intervals.bootstrap import Resampler, percentile_bounds
from streamtk._core.labels import encode_labels
from streamtk._core.metrics import REGISTRY
from streamtk._kernels.resample import THRESHOLDS, multipliers, poisson_thresholds
from streamtk.evaluation.plan import EvaluationPlan
from streamtk.evaluation.replicates import ReplicateEngine, feed_series, series_engine

METRICS = ["accuracy", "kappa", "kappa_m", "kappa_per", "risk", "recall", "precision"]


def _stream(n, k, rng, *, weighted, missing):
    y = rng.integers(0, k, n)
    p = np.where(rng.random((2, n)) < 0.7, y, rng.integers(0, k, (2, n)))
    if missing:
        y = np.where(rng.random(n) < 0.05, -1, y)
        p = np.where(rng.random((2, n)) < 0.05, -1, p)
    w = rng.choice([0.0, 0.5, 1.0, 2.5], size=(2, n)) if weighted else None
    return y, p, w


def _plan(k, cost, **forgetting):
    enc, _ = encode_labels(np.arange(k))
    return EvaluationPlan(encoding=enc, every=7, metrics=METRICS, cost=cost, **forgetting)


MECHANISMS = [
    dict(windows=(5, 40)),
    dict(fading=(0.9, 0.5)),
    dict(tumbling=13),
    dict(landmarks=(30, 31, 100)),
    dict(windows=1, fading=1.0),
]


@pytest.mark.parametrize("forgetting", MECHANISMS)
@pytest.mark.parametrize("weighted, missing, k", [(False, False, 2), (True, True, 3)])
def test_replicate_kernel_equals_the_general_kernel_on_materialised_weights(forgetting, weighted, missing, k):
    rng = np.random.default_rng(7)
    n = 300
    y, p, w = _stream(n, k, rng, weighted=weighted, missing=missing)
    cost = rng.random((k, k))
    plan = _plan(k, cost, **forgetting)
    metrics = plan.confusion
    res = Resampler(12345, 11, [1, 4])
    fast = ReplicateEngine(plan, metrics, res, None)
    slow = series_engine(plan, metrics, res, None)
    yc = np.where(y < 0, -1, y).astype(np.int8)
    pc = np.where(p < 0, -1, p).astype(np.int8)
    start = 0
    for a, b in ((0, 100), (100, 101), (101, 260), (260, n)):
        q = plan.quantities_for(yc[a:b], pc[:, a:b], a)
        last = b == n
        fast.update(yc[a:b], pc[:, a:b], None if w is None else w[:, a:b], q, last=last)
        feed_series(slow, res, start, yc[a:b], pc[:, a:b], None if w is None else w[:, a:b], q, last=last)
        start = b
    pf, vf = fast.collect()
    ps, vs = slow.collect()
    np.testing.assert_array_equal(pf, ps)
    for name in vf:
        np.testing.assert_array_equal(vf[name], vs[name], err_msg=name)


def test_poisson_thresholds_are_the_exact_distribution_function():
    assert np.array_equal(THRESHOLDS, poisson_thresholds())
    cdf = stats.poisson(1.0).cdf(np.arange(THRESHOLDS.size))
    np.testing.assert_allclose(THRESHOLDS.astype(float) / 2**64, cdf, rtol=1e-15)


def test_weights_are_poisson_one_and_a_function_of_the_position():
    out = np.empty((64, 20_000))
    multipliers(np.uint64(99), 0, 1, np.zeros(64, np.int64), out)
    counts = np.bincount(out.astype(int).ravel(), minlength=8)[:6]
    expected = stats.poisson(1.0).pmf(np.arange(6)) * out.size
    assert stats.chisquare(counts, expected * counts.sum() / expected.sum()).pvalue > 1e-3
    assert abs(out.mean() - 1) < 0.01 and abs(out.var() - 1) < 0.02
    # replicates are not correlated
    assert np.abs(np.corrcoef(out[:8])[np.triu_indices(8, 1)]).max() < 0.03
    part = np.empty((64, 7_000))
    multipliers(np.uint64(99), 13_000, 1, np.zeros(64, np.int64), part)
    np.testing.assert_array_equal(part, out[:, 13_000:])


def test_block_weights_are_constant_within_blocks_with_a_phase_per_replicate():
    res = Resampler(5, 30, [6])
    w = res.weights(0, 600)
    for b in range(30):
        blocks = (np.arange(600) + res.offsets[0, b]) // 6
        for j in np.unique(blocks):
            assert np.unique(w[b, blocks == j]).size == 1
    assert np.unique(res.offsets).size > 1
    np.testing.assert_array_equal(res.weights(250, 100), w[:, 250:350])


def test_a_left_out_instance_keeps_its_window_slot():
    # a replicate that leaves out an instance (weight 0) still holds the window's last w instances
    enc, _ = encode_labels(np.arange(2))
    plan = EvaluationPlan(encoding=enc, every=1, metrics=["accuracy"], windows=3, prequential=False)
    from streamtk.evaluation.engine import ConfusionEngine

    eng = ConfusionEngine(plan, zero_members=True)
    y = np.array([1, 1, 0, 1, 0], dtype=np.int8)
    p = np.array([[1, 0, 0, 1, 1]], dtype=np.int8)
    w = np.array([[1.0, 2.0, 0.0, 1.0, 1.0]])
    eng.update(y, p, w, last=True)
    acc = eng.collect()[1]["accuracy"][0, 0]
    # windows of 3 positions: [1], [1, 0w2], [1, 0w2, (1w0)], [0w2, 1w0, 1], [1w0, 1, 0]
    np.testing.assert_allclose(acc, [1.0, 1 / 3, 1 / 3, 1 / 3, 0.5])


def test_percentile_bounds_are_numpy_quantiles_and_refuse_too_many_undefined_replicates():
    v = np.random.default_rng(1).random((2, 57, 3))
    lo, hi = percentile_bounds(v, 0.9)
    np.testing.assert_allclose(lo, np.quantile(v, 0.05, axis=1, method="weibull"))
    np.testing.assert_allclose(hi, np.quantile(v, 0.95, axis=1, method="weibull"))
    v[0, :2, 0] = np.nan  # 2 of 57 undefined: 2 <= 0.05 * 57 = 2.85, the others decide
    lo, hi = percentile_bounds(v, 0.9)
    np.testing.assert_allclose(lo[0, 0], np.nanquantile(v[0, :, 0], 0.05, method="weibull"))
    v[0, :3, 0] = np.nan  # 3 > 2.85: the tail is not known
    lo, hi = percentile_bounds(v, 0.9)
    assert np.isnan(lo[0, 0]) and np.isnan(hi[0, 0])


def test_every_metric_of_the_confusion_family_can_be_bootstrapped():
    banded = [m.name for m in REGISTRY.values() if m.family in ("confusion", "quantity") and m.bands]
    assert {"accuracy", "kappa", "mcc", "macro_f1", "log_loss"} <= set(banded)
