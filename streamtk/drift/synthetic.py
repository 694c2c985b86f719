"""Simulated classifier error streams with abrupt and gradual changes.

Rehearses the experiments of Gama, Sebastiao & Rodrigues (2013), ``seeds/004_*.txt``
section 5 (Tables 2-3: one change at a known point, detection delay over 10
runs) without a classifier: the 0/1 loss at instance ``t`` is a Bernoulli draw
with an error probability that changes at the given points.

A gradual change of width ``w`` centred at ``d`` mixes the two error rates with
the weight of the new one ``1 / (1 + exp(-4 (t - d) / w))`` - the sigmoid MOA's
``ConceptDriftStream`` uses to choose between the two concepts.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._core.validation import as_rng, check_positive_int, check_probability

__all__ = ["error_probability", "error_stream"]


def _as_points(drifts, n):
    if isinstance(drifts, numbers.Integral) and not isinstance(drifts, bool):
        drifts = [drifts]
    pts = [check_positive_int(d, "drifts", minimum=0) for d in drifts]
    if any(b <= a for a, b in zip(pts, pts[1:])):
        raise ValueError(f"drifts must be strictly increasing, got {pts!r}")
    if pts and pts[-1] >= n:
        raise ValueError(f"drifts must be < n = {n}, got {pts!r}")
    return pts


def error_probability(n, drifts, rates, *, width=0) -> np.ndarray:
    """The error probability of each instance: ``rates[k]`` in segment ``k``.

    Parameters
    ----------
    n : int
        Stream length.
    drifts : int or sequence of int
        0-based index of the first instance of each new concept (strictly
        increasing, ``< n``).
    rates : sequence of float in [0, 1]
        ``len(drifts) + 1`` error rates, one per concept.
    width : int or sequence of int, >= 0
        Width of each change: 0 is abrupt (``rates[k+1]`` from ``drifts[k]`` on);
        ``w > 0`` is gradual with the sigmoid weight ``1/(1+exp(-4 (t-d)/w))``.

    Returns
    -------
    numpy.ndarray of shape (n,)
    """
    n = check_positive_int(n, "n")
    pts = _as_points(drifts, n)
    rates = [check_probability(r, "rates") for r in rates]
    if len(rates) != len(pts) + 1:
        raise ValueError(f"rates must hold len(drifts) + 1 = {len(pts) + 1} values, got {len(rates)}")
    widths = [width] * len(pts) if isinstance(width, numbers.Integral) and not isinstance(width, bool) else list(width)
    if len(widths) != len(pts):
        raise ValueError(f"width must be one int or one per drift ({len(pts)}), got {width!r}")
    widths = [check_positive_int(w, "width", minimum=0) for w in widths]
    t = np.arange(n, dtype=np.float64)
    prob = np.full(n, rates[0])
    for k, (d, w) in enumerate(zip(pts, widths)):
        if w == 0:
            new = (t >= d).astype(np.float64)
        else:
            with np.errstate(over="ignore"):
                new = 1.0 / (1.0 + np.exp(-4.0 * (t - d) / w))
        prob = (1.0 - new) * prob + new * rates[k + 1]
    return prob


def error_stream(n, drifts, rates, *, width=0, runs=None, seed) -> np.ndarray:
    """Seeded 0/1 error streams with changes of the error rate at given points.

    Parameters
    ----------
    n, drifts, rates, width
        As in :func:`error_probability`.
    runs : int, optional
        Number of independent streams; the result then has shape ``(runs, n)``
        (the ``run`` leading dim of the detectors), else ``(n,)``.
    seed : int, numpy.random.SeedSequence or numpy.random.Generator
        Required.

    Returns
    -------
    numpy.ndarray of float64 0/1 (1 = error)

    Examples
    --------
    >>> from streamtk.drift.synthetic import error_stream
    >>> e = error_stream(1000, [500], [0.0, 1.0], seed=1)
    >>> int(e[:500].sum()), int(e[500:].sum())
    (0, 500)
    """
    prob = error_probability(n, drifts, rates, width=width)
    rng = as_rng(seed)
    shape = (prob.size,) if runs is None else (check_positive_int(runs, "runs"), prob.size)
    return (rng.random(shape) < prob).astype(np.float64)
