"""Poisson(1) resampling weights of the online bootstrap, from a counter-based generator.

The online bootstrap (Oza & Russell 2001; Bifet et al. 2015, seed 000, section 3) gives instance
``t`` of replicate ``b`` the weight ``P_tb ~ Poisson(1)``: a weight multiplier, so any statistic a
family's kernel sums with instance weights is resampled by running the kernel with weights
``w_t P_tb``. The *block* version draws one weight per block of ``block`` consecutive stream
positions (blocks start at ``-offset_b`` modulo ``block``: a random phase per replicate), so that
temporally dependent instances are resampled together.

The weights are a pure function of ``(key, b, block index)``: the SplitMix64 sequence of
replicate ``b`` (seed ``mix(key + b * GAMMA)``) read at the block index, turned into a Poisson(1)
value by inversion on 64-bit integers. A stream cut into chunks gets exactly the weights of one
pass, whatever the cuts. The inversion thresholds ``floor(2**64 F(k))`` of the Poisson(1)
distribution function are exact (:func:`poisson_thresholds`); values above 20 (probability below
``2**-64``) are not drawn.
"""

from __future__ import annotations

from fractions import Fraction

import numba as nb
import numpy as np

__all__ = ["poisson_thresholds", "THRESHOLDS", "multipliers", "mix", "GAMMA", "replicate_seed", "weight_at", "draw"]

#: the SplitMix64 increment (the golden ratio in 64 bits)
GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def poisson_thresholds(kmax: int = 20) -> np.ndarray:
    """``floor(2**64 P(X <= k))`` for ``X ~ Poisson(1)``, ``k = 0 .. kmax - 1`` (uint64), in exact arithmetic.

    ``exp(-1)`` is the alternating series to 60 terms (error below ``1 / 60!``).
    """
    e_inv = sum(Fraction((-1) ** j, _factorial(j)) for j in range(60))
    out, cdf = [], Fraction(0)
    for k in range(kmax):
        cdf += e_inv / _factorial(k)
        out.append(min(int(cdf * 2**64), 2**64 - 1))
    return np.array(out, dtype=np.uint64)


def _factorial(n: int) -> int:
    f = 1
    for i in range(2, n + 1):
        f *= i
    return f


THRESHOLDS = poisson_thresholds()


@nb.njit(cache=True, inline="always")
def mix(z):
    """SplitMix64's finaliser of a uint64."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True, inline="always")
def _poisson(u, thresholds):
    """Poisson(1) by inversion: the number of thresholds ``<= u`` (the first eight compared without branches;
    the others only for the one value in 10**5 beyond them)."""
    k = 0
    for j in range(8):
        k += u >= thresholds[j]
    if k == 8:
        while k < thresholds.shape[0] and u >= thresholds[k]:
            k += 1
    return k


@nb.njit(cache=True, inline="always")
def replicate_seed(key, b):
    """The seed of replicate ``b``'s SplitMix64 sequence."""
    return mix(key + np.uint64(b) * GAMMA)


@nb.njit(cache=True, inline="always")
def draw(seed, j):
    """The weight of block ``j`` of the replicate of ``seed``: its SplitMix64 element ``j`` as Poisson(1)."""
    return float(_poisson(mix(seed + np.uint64(j) * GAMMA), THRESHOLDS))


@nb.njit(cache=True, inline="always")
def weight_at(seed, pos, offset, block):
    """The weight of stream position ``pos`` in the replicate of ``seed`` (blocks of ``block`` from ``-offset``)."""
    return draw(seed, (pos + offset) // block)


@nb.njit(cache=True, nogil=True)
def multipliers(key, start, block, offsets, out):
    """Resampling weights of stream positions ``start .. start + T - 1`` into ``out (B, T)`` (float64).

    ``key`` uint64; ``block >= 1``; ``offsets (B,)`` int64 in ``[0, block)``: replicate ``b`` gives
    position ``t`` the weight of its block ``(t + offsets[b]) // block``.
    """
    B, T = out.shape
    for b in range(B):
        seed = replicate_seed(key, b)
        first = start + offsets[b]
        j = first // block
        i = 0
        stop = min(T, block - first % block)  # the end of the first (possibly partial) block
        while i < T:
            value = draw(seed, j)
            for r in range(i, stop):
                out[b, r] = value
            i = stop
            stop = min(T, stop + block)
            j += 1
