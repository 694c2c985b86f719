"""Formulas of bands shared by every family: Wilson's score interval and the normal (Wald) interval.

Kish's effective sample size (Kish 1965): a weighted mean ``sum_s w_s x_s / sum_s w_s`` of
independent values of variance ``sigma^2`` has variance ``sigma^2 sum_s w_s^2 / (sum_s w_s)^2 =
sigma^2 / n_eff`` with ``n_eff = (sum w)^2 / sum w^2``. An estimator's weights are the instance
weights times its forgetting (``alpha**(t - s)`` for a fading factor, 0 / 1 for windows), so ``n_eff``
says how many instances an estimate really holds: about ``(1 + alpha) / (1 - alpha)`` for a fading
factor. Proportions get Wilson's score interval at ``n_eff`` (Wilson 1927; Agresti & Coull 1998), which
stays inside ``[0, 1]`` and keeps its coverage near 0 and 1, where the Wald interval fails.
"""

from __future__ import annotations

from .dialect import NAN, formula, sqrt, where

__all__ = ["wilson_lower", "wilson_upper", "wald_lower", "wald_upper", "squared_sum_fading"]


@formula
def _wilson(p, n, z, sign):
    zz = z * z
    ok = (n > 0.0) & (p == p)
    nn = where(ok, n, 1.0)
    d = 1.0 + zz / nn
    centre = (p + zz / (2.0 * nn)) / d
    half = z * sqrt(p * (1.0 - p) / nn + zz / (4.0 * nn * nn)) / d
    return where(ok, centre + sign * half, NAN)


@formula
def wilson_lower(p, n, z):
    """Lower bound of Wilson's score interval of a proportion ``p`` over ``n`` (effective) instances."""
    return _wilson(p, n, z, -1.0)


@formula
def wilson_upper(p, n, z):
    """Upper bound of Wilson's score interval."""
    return _wilson(p, n, z, 1.0)


@formula
def wald_lower(value, se, z):
    """``value - z se`` (NaN when either is NaN)."""
    return value - z * se


@formula
def wald_upper(value, se, z):
    """``value + z se``."""
    return value + z * se


def squared_sum_fading(n, alpha):
    """``sum_j alpha**(2 j)`` over the members of an unweighted fading estimate from its faded count ``n =
    sum_j alpha**j`` (numpy): with ``m`` members ``n = (1 - alpha**m) / (1 - alpha)``, so the squares sum to
    ``(1 - alpha**(2 m)) / (1 - alpha**2) = n (2 - n (1 - alpha)) / (1 + alpha)``."""
    return n * (2.0 - n * (1.0 - alpha)) / (1.0 + alpha)
