"""Coverage of the bands is tested, not assumed: simulated error streams with a known error rate.

Every stream of :func:`streamtk.simulate_errors` has the true error rate ``P`` at every instance, so a band of
``error`` (or of a mean loss) *covers* when ``lower <= P <= upper``. Thousands of streams run in one call (the
streams are the ``model`` dim), so the coverage at every checkpoint is a mean over that dim.

* pointwise bands at 95%: cover at each checkpoint in at least 93% of 2,000 independent (Bernoulli) streams,
  for several error rates and sizes (the checkpoints), windows, fading factors and weights (the analytic band).
  A coverage estimated from 2,000 streams has the binomial standard error ``sqrt(0.93 * 0.07 / 2000) = 0.0057``
  and a test reads about 150 checkpoints at once, whose minimum falls about 2.6 standard errors below the true
  coverage by chance alone: every checkpoint must reach ``0.93 - 3.5 * 0.0057 = 0.91`` and their mean 0.94.
  (Wilson's interval is itself not uniformly above 0.93: its exact coverage oscillates with ``n``, e.g. 0.936 at
  ``n = 100``, ``P = 0.1``, and dips to 0.920 at a few sizes for ``P = 0.1``; Brown, Cai & DasGupta 2001.)
* the bootstrap (B = 100) runs on 400 streams here (its cost is ``B`` point estimates per stream; the 2,000-stream
  table is in ``benchmarks/bench_intervals.py``): with 400 streams the binomial standard error of a coverage of
  0.93 is ``sqrt(0.93 * 0.07 / 400) = 0.0128``, so the mean over checkpoints must reach 0.93 and every
  checkpoint 0.93 - 3 standard errors = 0.89;
* Markov-dependent errors (lag-1 autocorrelation 0.5): the analytic band and the independent bootstrap are too
  narrow (they assume independent errors) and the tests say so; the block bootstrap recovers most of the gap
  (0.89-0.94 at these sizes, not always 0.93: the documented limitation, docs/intervals.md);
* confidence sequences at 95% cover *all* checkpoints at once in at least 95% of 2,000 streams.
"""

from __future__ import annotations

import numpy as np
import pytest

import streamtk

LEVEL = 0.95
S = 2000
#: 0.93 less 3.5 binomial standard errors of 2,000 streams (the module's docstring)
MIN_POINTWISE = 0.93 - 3.5 * (0.93 * 0.07 / S) ** 0.5


def _coverage(ds, name, truth):
    lo, hi = ds[f"{name}_lower"].values, ds[f"{name}_upper"].values
    return (lo <= truth) & (truth <= hi)  # NaN bounds do not cover


@pytest.mark.parametrize("error", [0.1, 0.3])
def test_analytic_bands_cover_pointwise_on_bernoulli_streams(error):
    x = streamtk.simulate_errors(S, 1200, error=error, seed=11)
    ds = streamtk.loss_curves(x, windows=(100, 400), fading=(0.99, 0.995), every=40, interval=LEVEL)
    cov = _coverage(ds, "loss", error).mean(axis=0)  # (estimator, checkpoint)
    assert cov.min() >= MIN_POINTWISE and cov.mean() >= 0.94, cov.min(axis=1)
    assert cov.mean() <= 0.97  # not vacuous: close to the level


@pytest.mark.slow
def test_analytic_bands_cover_with_weights_windows_and_fading():
    n = 600
    x = streamtk.simulate_errors(S, n, error=0.25, seed=5)
    w = np.random.default_rng(6).choice([0.0, 0.5, 1.0, 4.0], size=n)
    ds = streamtk.evaluate(np.zeros(n, dtype=int), x.astype(int), weights=w, classes=[0, 1], metrics=["error"],
                           windows=150, fading=0.99, tumbling=200, every=30, interval=LEVEL)  # fmt: skip
    cov = _coverage(ds, "error", 0.25).mean(axis=0)
    assert cov.min() >= MIN_POINTWISE and cov.mean() >= 0.94, cov.min(axis=1)


def test_analytic_bands_are_too_narrow_on_dependent_errors():
    """Documented, not hidden: errors with lag-1 autocorrelation 0.5 have 3 times the variance of independent ones."""
    x = streamtk.simulate_errors(S, 1000, error=0.2, dependence=0.5, seed=2)
    ds = streamtk.loss_curves(x, windows=200, every=100, interval=LEVEL)
    cov = _coverage(ds, "loss", 0.2).mean(axis=0)
    assert cov.max() < 0.85


@pytest.mark.slow
def test_bootstrap_covers_on_independent_errors():
    x = streamtk.simulate_errors(400, 800, error=0.2, seed=3)
    ds = streamtk.loss_curves(x, windows=200, fading=0.99, every=100, interval=LEVEL, interval_method="bootstrap",
                              seed=7)  # fmt: skip
    cov = _coverage(ds, "loss", 0.2).mean(axis=0)
    assert cov.mean() >= 0.93 and cov.min() >= 0.89, cov


@pytest.mark.slow
def test_block_bootstrap_repairs_most_of_the_under_coverage_of_dependent_errors():
    x = streamtk.simulate_errors(400, 800, error=0.2, dependence=0.5, seed=4)
    opts = dict(windows=400, every=100, interval=LEVEL, seed=8)
    iid = _coverage(streamtk.loss_curves(x, interval_method="bootstrap", **opts), "loss", 0.2).mean(axis=0)
    block = _coverage(streamtk.loss_curves(x, interval_method="block_bootstrap", **opts), "loss", 0.2).mean(axis=0)
    assert iid.max() < 0.82  # independent resampling: far too narrow
    assert block[:, 2:].mean() >= 0.89, block  # from 300 instances on (blocks need a few dozen per band)
    assert (block[:, 2:] - iid[:, 2:]).min() >= 0.1


def test_confidence_sequences_cover_uniformly():
    n = 1000
    x = streamtk.simulate_errors(S, n, error=0.2, seed=9)
    ds = streamtk.loss_curves(x, windows=100, fading=0.98, every=1, interval=LEVEL, interval_method="sequence")
    uniform = _coverage(ds, "loss", 0.2).all(axis=-1).mean(axis=0)  # every checkpoint at once, per estimator
    assert uniform.min() >= 0.95, uniform
    pointwise = _coverage(streamtk.loss_curves(x, every=1, interval=LEVEL), "loss", 0.2).all(axis=-1).mean()
    assert pointwise < 0.8  # the pointwise band watched continuously is not a sequence


def test_comparison_sequence_keeps_its_false_alarms_below_alpha_on_equal_models():
    """A and B equally good (independent errors at 0.2): 'A better' or 'B better' at any checkpoint is a false
    alarm; the sequence raises one in at most 5% of streams, the per-checkpoint McNemar test in far more."""
    n = 1500
    la = streamtk.simulate_errors(S, n, error=0.2, seed=21)
    lb = streamtk.simulate_errors(S, n, error=0.2, seed=22)
    ds = streamtk.compare_losses(la, lb, every=10, interval=LEVEL, interval_method="sequence")
    alarms = ds.a_better.values.any(axis=-1) | ds.b_better.values.any(axis=-1)
    assert alarms[:, 0].mean() <= 0.05
    mcnemar = ds.reject.values[:, 0].any(axis=-1)  # McNemar at 5% at every one of 150 checkpoints
    assert mcnemar.mean() > 0.2
