"""Seeded simulation of a *logged* classification stream (labels, predictions, scores).

Used by ``streamtk demo`` and the tutorials: it produces what a researcher would have
recorded from a prequential run, with the properties the papers study:

* temporal dependence in the labels — a two-state Markov chain whose persistence
  ``P(y_t = y_{t-1})`` is set by ``persistence`` (Zliobaite et al. 2015, sec. 3);
* concept drift — after each point of ``drifts`` the class prior flips and the
  models' accuracies change abruptly (a model that "adapts" recovers, one that
  does not stays degraded), as in Gama et al. 2013 sec. 5;
* three models: ``adaptive`` (accuracy ``acc`` that drops at a drift and recovers
  within ``recovery`` instances), ``static`` (drops and stays lower) and
  ``persistent`` (the naive Persistent classifier, ``y_{t-1}``).

Scores are calibrated-looking probabilities of the positive class consistent with
each prediction.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.validation import as_rng, check_positive_int, check_probability

__all__ = ["simulate_log", "simulate_errors"]


def _markov_labels(n, persistence, prior, drifts, rng):
    y = np.empty(n, dtype=np.int64)
    p1 = prior
    state = int(rng.random() < p1)
    u = rng.random(n)
    v = rng.random(n)
    d = set(int(x) for x in drifts)
    for t in range(n):
        if t in d:
            p1 = 1.0 - p1
        if u[t] < persistence:
            y[t] = state
        else:
            y[t] = int(v[t] < p1)
        state = y[t]
    return y


def simulate_log(n=100_000, *, drifts=None, persistence=0.8, prior=0.35, acc=0.95, recovery=2000, seed=0):
    """Simulate a logged binary stream with drift and temporal dependence.

    Parameters
    ----------
    n : int
        Number of instances.
    drifts : sequence of int, optional
        Positions of abrupt drifts (default: ``n // 2``).
    persistence : float in [0, 1]
        Probability that the label process repeats the previous label (the rest of
        the time it draws from the class prior): higher means stronger temporal
        dependence.
    prior : float in [0, 1]
        Prior of class 1 before the first drift (it flips at each drift).
    acc : float in [0, 1]
        Accuracy of the ``adaptive`` model away from drifts.
    recovery : int
        Instances the ``adaptive`` model needs to recover after a drift.
    seed : int or numpy.random.Generator

    Returns
    -------
    xarray.Dataset
        A log (see :mod:`streamtk.io`): ``y_true`` (time), ``y_pred`` and ``y_score``
        (model, time), models ``adaptive``, ``static``, ``persistent``, the drift
        positions in ``attrs["drifts"]``.
    """
    n = check_positive_int(n, "n", minimum=2)
    persistence = check_probability(persistence, "persistence")
    prior = check_probability(prior, "prior")
    acc = check_probability(acc, "acc")
    recovery = check_positive_int(recovery, "recovery")
    rng = as_rng(seed)
    drifts = [n // 2] if drifts is None else [check_positive_int(d, "drifts") for d in drifts]
    for d in drifts:
        if d >= n:
            raise ValueError(f"drifts must be < n = {n}, got {d}")
    y = _markov_labels(n, persistence, prior, drifts, rng)
    t = np.arange(n)
    since = np.full(n, np.inf)
    for d in sorted(drifts):
        since = np.where(t >= d, t - d, since)
    # adaptive: accuracy dips to 0.55 at a drift and recovers exponentially
    dip = np.where(np.isfinite(since), np.exp(-since / (recovery / 3.0)), 0.0)
    acc_adaptive = acc - (acc - 0.55) * dip
    acc_static = np.where(np.isfinite(since), acc - 0.18, acc - 0.02)
    preds, scores = [], []
    for a in (acc_adaptive, acc_static):
        correct = rng.random(n) < a
        p = np.where(correct, y, 1 - y)
        conf = np.clip(0.5 + 0.5 * rng.beta(4, 2, n), 0.5, 1.0)
        s1 = np.where(p == 1, conf, 1 - conf)
        preds.append(p)
        scores.append(s1)
    per = np.concatenate([[0], y[:-1]])
    preds.append(per)
    scores.append(np.where(per == 1, 0.75, 0.25))
    y_pred = np.stack(preds)
    s1 = np.stack(scores)
    y_score = np.stack([1 - s1, s1], axis=-1)
    ds = xr.Dataset(
        {
            "y_true": (("time",), y),
            "y_pred": (("model", "time"), y_pred),
            "y_score": (("model", "time", "class"), y_score),
        },
        coords={
            "model": ["adaptive", "static", "persistent"],
            "instance": ("time", np.arange(1, n + 1)),
            "class": [0, 1],
        },
        attrs={
            "title": "streamtk simulated log",
            "drifts": np.asarray(drifts, dtype=np.int64),
            "persistence": persistence,
            "prior": prior,
            "seed": seed if isinstance(seed, int) else "Generator",
        },
    )
    ds.y_true.attrs["long_name"] = "true label"
    ds.y_pred.attrs["long_name"] = "predicted label"
    ds.y_score.attrs["long_name"] = "class scores"
    return ds


def simulate_errors(streams, n, *, error=0.2, dependence=0.0, seed=0):
    """Simulate ``streams`` independent 0/1 error streams of ``n`` instances with a known error rate.

    Each row is a stationary two-state Markov chain of errors: ``P(e_t = 1) = error`` at every ``t``
    (the first value is drawn from the stationary law) and the lag-``k`` autocorrelation of the
    errors is ``dependence ** k`` (transition probabilities ``P(1 -> 1) = error + dependence
    (1 - error)`` and ``P(0 -> 1) = error (1 - dependence)``). ``dependence = 0`` gives independent
    Bernoulli errors; positive values give the temporally dependent errors of Zliobaite et al.
    (2015, seed 003) under which bands that assume independence are too narrow. Vectorised over the
    streams (one loop over ``n``), so thousands of streams for coverage studies are cheap.

    Parameters
    ----------
    streams, n : int
        Number of streams and instances per stream.
    error : float in (0, 1)
        The true error rate: the value every band of ``error`` (``1 -`` that of ``accuracy``) should cover.
    dependence : float in [0, 1)
        Lag-1 autocorrelation of the errors.
    seed : int, numpy.random.SeedSequence or numpy.random.Generator

    Returns
    -------
    numpy.ndarray of float64, shape ``(streams, n)``
    """
    streams, n = check_positive_int(streams, "streams"), check_positive_int(n, "n")
    error = check_probability(error, "error")
    if not 0.0 < error < 1.0:
        raise ValueError(f"error must be in (0, 1), got {error!r}")
    dependence = check_probability(dependence, "dependence")
    if dependence >= 1.0:
        raise ValueError(f"dependence must be in [0, 1), got {dependence!r}")
    rng = as_rng(seed, "seed")
    u = rng.random((n, streams))
    out = np.empty((n, streams))
    out[0] = u[0] < error
    stay, enter = error + dependence * (1.0 - error), error * (1.0 - dependence)
    for t in range(1, n):
        out[t] = u[t] < np.where(out[t - 1] > 0, stay, enter)
    return np.ascontiguousarray(out.T)
