"""Sample sizes, confidence bounds and fading-factor horizons for stream evaluation.

* Hoeffding bound (Gama et al. 2013, seed 004, Appendix A): for a loss with range
  ``R``, ``P(|mean - mu| >= eps) <= 2 exp(-2 n eps^2 / R^2)``; with ``eps = 1%`` and
  ``delta = 5%`` the paper's sample size is ``n = 18444``.
* Langford's test-set bound (Bifet et al. 2015, seed 000, Theorem 1): with ``m`` test
  instances, ``|true error - est. error| <= sqrt(ln(2/delta) / (2m))`` with
  probability at least ``1 - delta``.
* Window size for a confidence interval (Gama et al. 2013, section 3.4): the
  normal-approximation half-width ``z sqrt(p (1 - p) / n)``, worst case ``p = 1/2``,
  ``z = 2`` for 95%: ``n = 1000`` gives about 3%, ``n = 10000`` gives 1%.
* Fading factors (section 3.4): an example ``k`` steps back has weight ``a^k`` (``a`` the
  fading factor, ``fading=``); ignoring weights below ``eps`` leaves ``log(eps) / log(a)``
  "important" examples; the faded count ``N_a(n) = (1 - a^n) / (1 - a)`` tends to ``1 / (1 - a)``.

All functions broadcast over array arguments and return floats (real-valued sample
sizes: round up yourself, see :func:`hoeffding_sample_size`).
"""

from __future__ import annotations

import numpy as np

from .._core.validation import as_float_array

__all__ = [
    "hoeffding_bound",
    "hoeffding_sample_size",
    "langford_test_set_bound",
    "confidence_half_width",
    "window_size_for_half_width",
    "fading_weight",
    "fading_horizon",
    "fading_effective_size",
]


def _arr(value, name, *, low=None, high=None, low_open=True, high_open=True):
    a = as_float_array(value, name, ndim_min=0)
    if low is not None:
        bad = a <= low if low_open else a < low
        if np.any(bad):
            v = a[bad].reshape(-1)[0] if a.ndim else a
            raise ValueError(f"{name} must be {'>' if low_open else '>='} {low}, got {float(v)!r}")
    if high is not None:
        bad = a >= high if high_open else a > high
        if np.any(bad):
            v = a[bad].reshape(-1)[0] if a.ndim else a
            raise ValueError(f"{name} must be {'<' if high_open else '<='} {high}, got {float(v)!r}")
    return a


def _out(a):
    a = np.asarray(a, dtype=np.float64)
    return float(a) if a.ndim == 0 else a


def hoeffding_bound(n, delta, *, value_range=1.0):
    """Error bound ``eps = R sqrt(ln(2 / delta) / (2 n))`` holding with probability ``1 - delta``.

    Two-sided Hoeffding (1963) bound for the mean of ``n`` independent values in an
    interval of width ``R`` (``value_range``; 1 for the 0/1 loss), as in Gama et al.
    2013 (seed 004), Appendix A, eq. (2).

    See Also
    --------
    moa.classifiers.trees.HoeffdingTree.computeHoeffdingBound : the one-sided variant
        ``sqrt(R^2 ln(1/delta) / (2n))`` used for split decisions.
    """
    n = _arr(n, "n", low=0)
    delta = _arr(delta, "delta", low=0, high=1, high_open=False)
    r = _arr(value_range, "value_range", low=0)
    return _out(r * np.sqrt(np.log(2.0 / delta) / (2.0 * n)))


def hoeffding_sample_size(eps, delta, *, value_range=1.0):
    """Real-valued ``n = R^2 ln(2 / delta) / (2 eps^2)`` solving ``2 exp(-2 n eps^2 / R^2) = delta``.

    Gama et al. 2013 (seed 004), Appendix A: ``eps = 0.01``, ``delta = 0.05`` gives
    ``n = 18444.4``, printed as 18444 in the paper; the smallest integer sample that
    actually guarantees the bound is ``ceil(n) = 18445``.

    Examples
    --------
    >>> round(hoeffding_sample_size(0.01, 0.05), 1)
    18444.4
    """
    eps = _arr(eps, "eps", low=0)
    delta = _arr(delta, "delta", low=0, high=1, high_open=False)
    r = _arr(value_range, "value_range", low=0)
    return _out(r**2 * np.log(2.0 / delta) / (2.0 * eps**2))


def langford_test_set_bound(m, delta):
    """Bifet et al. 2015 (seed 000), Theorem 1: ``sqrt(ln(2 / delta) / (2 m))``.

    With ``m`` test instances, ``|true error - estimated error|`` is at most this value
    with probability at least ``1 - delta``, ``delta in (0, 1]`` (Langford 2005, in the
    Hoeffding form the paper states).
    """
    m = _arr(m, "m", low=0)
    delta = _arr(delta, "delta", low=0, high=1, high_open=False)
    return _out(np.sqrt(np.log(2.0 / delta) / (2.0 * m)))


def confidence_half_width(n, *, z=2.0, p=0.5):
    """Normal-approximation half-width ``z sqrt(p (1 - p) / n)`` of an error-rate estimate.

    Gama et al. 2013 (seed 004), section 3.4, with the worst case ``p = 0.5`` and
    ``z = 2`` (95%): ``n = 1000`` gives 0.0316 ("3%"), ``n = 10000`` gives 0.01.

    Examples
    --------
    >>> confidence_half_width([1000, 10000]).round(4).tolist()
    [0.0316, 0.01]
    """
    n = _arr(n, "n", low=0)
    z = _arr(z, "z", low=0)
    p = _arr(p, "p", low=0, high=1, low_open=False, high_open=False)
    return _out(z * np.sqrt(p * (1.0 - p) / n))


def window_size_for_half_width(eps, *, z=2.0, p=0.5):
    """Real-valued window size ``n = z^2 p (1 - p) / eps^2`` for a half-width ``eps``.

    Gama et al. 2013, section 3.4: ``eps = 1%`` requires ``n = 10000``.
    """
    eps = _arr(eps, "eps", low=0)
    z = _arr(z, "z", low=0)
    p = _arr(p, "p", low=0, high=1, low_open=False, high_open=False)
    return _out(z**2 * p * (1.0 - p) / eps**2)


def fading_weight(fading, k):
    """Weight ``fading^k`` of the example ``k`` steps in the past (Gama et al. 2013, 3.4).

    ``fading = 0.995`` and ``k = 3000`` give ``2.9e-7``.
    """
    fading = _arr(fading, "fading", low=0, high=1, high_open=False)
    k = _arr(k, "k", low=0, low_open=False)
    return _out(fading**k)


def fading_horizon(fading, eps):
    """``log(eps) / log(fading)``: how far back weights stay at least ``eps`` (Gama et al. 2013, 3.4).

    ``fading`` must be in ``(0, 1)`` (``fading = 1`` never forgets: infinite horizon is
    refused rather than returned), ``eps`` in ``(0, 1)``.
    """
    fading = _arr(fading, "fading", low=0, high=1)
    eps = _arr(eps, "eps", low=0, high=1)
    return _out(np.log(eps) / np.log(fading))


def fading_effective_size(fading, n=None):
    """Faded count ``N_alpha(n) = sum_{k<n} fading^k = (1 - fading^n) / (1 - fading)``.

    With ``n=None`` the limit ``1 / (1 - fading)`` (e.g. 1000 for ``fading = 0.999``);
    ``fading = 1`` gives ``n`` (and is refused without ``n``). This is the ``N_t`` of
    Gama et al. 2013, Algorithm 3.
    """
    fading = _arr(fading, "fading", low=0, high=1, high_open=False)
    if n is None:
        if np.any(fading == 1.0):
            raise ValueError("fading = 1 has no finite limiting size; pass n")
        return _out(1.0 / (1.0 - fading))
    n = _arr(n, "n", low=0, low_open=False)
    with np.errstate(invalid="ignore", divide="ignore"):
        val = np.where(fading == 1.0, n, -np.expm1(n * np.log(fading)) / (1.0 - fading))
    return _out(val)
