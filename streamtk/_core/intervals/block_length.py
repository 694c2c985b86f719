"""The block bootstrap's block length chosen from a stream's autocorrelation (Politis & White 2004).

Politis & White (2004, *Automatic block-length selection for the dependent bootstrap*,
Econometric Reviews 23(1), with the correction of Patton, Politis & White 2009) choose the block
length of the circular block bootstrap that minimises the mean squared error of the bootstrap
variance of a mean:

* the autocovariances ``R(k) = n^-1 sum_t (x_t - xbar)(x_(t+k) - xbar)`` and correlations ``rho(k)``;
* ``m`` the smallest lag after which ``K_n = max(5, ceil(sqrt(log10 n)))`` consecutive
  correlations are inside ``+- 2 sqrt(log10(n) / n)``, and ``M = 2 m`` (at most
  ``ceil(sqrt(n)) + K_n``);
* with the flat-top window ``h(s) = min(1, 2 (1 - |s|))`` (0 beyond ``|s| = 1``):
  ``G = sum_(|k| <= M) h(k / M) |k| R(k)`` and ``g = sum_(|k| <= M) h(k / M) R(k)``;
* ``b = (2 G^2 / D)^(1/3) n^(1/3)`` with ``D = (4/3) g^2`` (circular block bootstrap), at most
  ``ceil(min(3 sqrt(n), n / 3))`` and at least 1.

In streamtk the stream is a model's 0/1 loss (or its per-instance loss) on the evaluated
instances: with independent errors ``G`` is about 0 and the length is 1 (the independent
bootstrap); temporally dependent errors (Zliobaite et al. 2015, seed 003) give longer blocks.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["auto_block_length", "autocovariances"]


def autocovariances(x: np.ndarray, max_lag: int) -> np.ndarray:
    """``R(0 .. max_lag)`` of the rows of ``x (L, n)`` (biased: divided by ``n``), by FFT."""
    x = np.asarray(x, dtype=np.float64)
    n = x.shape[-1]
    eps = x - x.mean(axis=-1, keepdims=True)
    size = 1 << int(math.ceil(math.log2(max(2 * n, 2))))
    f = np.fft.rfft(eps, size, axis=-1)
    acov = np.fft.irfft(f * np.conj(f), size, axis=-1)[..., : max_lag + 1]
    return acov / n


def auto_block_length(x) -> np.ndarray:
    """The circular block bootstrap's block length of each row of ``x (L, n)`` (int64, see the module).

    A row shorter than 4 values, or constant, gets 1.
    """
    x = np.atleast_2d(np.asarray(x, dtype=np.float64))
    L, n = x.shape
    out = np.ones(L, dtype=np.int64)
    if n < 4:
        return out
    kn = max(5, int(math.ceil(math.sqrt(math.log10(n)))))
    m_max = int(math.ceil(math.sqrt(n))) + kn
    b_max = int(math.ceil(min(3.0 * math.sqrt(n), n / 3.0)))
    lags = min(m_max + kn, n - 1)
    acov = autocovariances(x, lags)
    band = 2.0 * math.sqrt(math.log10(n) / n)
    for l in range(L):
        r0 = acov[l, 0]
        if not r0 > 0.0:
            continue
        small = np.abs(acov[l, 1:] / r0) < band  # small[k - 1]: lag k is negligible
        m = None
        for start in range(0, lags - kn + 1):  # lags start + 1 .. start + kn all negligible
            if small[start : start + kn].all():
                m = start
                break
        M = min(2 * m, m_max) if m is not None else m_max
        M = min(max(M, 1), lags)
        k = np.arange(1, M + 1)
        h = np.minimum(1.0, 2.0 * (1.0 - k / M))
        G = 2.0 * np.sum(h * k * acov[l, 1 : M + 1])
        g = r0 + 2.0 * np.sum(h * acov[l, 1 : M + 1])
        D = (4.0 / 3.0) * g * g
        if not (D > 0.0):
            continue
        b = (2.0 * G * G / D) ** (1.0 / 3.0) * n ** (1.0 / 3.0)
        out[l] = int(min(max(round(b), 1), b_max))
    return out
