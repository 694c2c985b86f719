"""Step functions for the mean of a real-valued stream under each forgetting mechanism.

These are the building blocks every streamtk kernel that needs a running mean of a
scalar stream fuses into its own single pass (the drift detectors here; the model
comparison kernels reuse them for the Q statistic and loss curves). Each step
function is a *pure* ``numba.njit`` function of scalars: it takes the current
state and the new input and returns the new state and the estimate, so a caller
keeps the state wherever it likes (locals, a row of a state array carried across
chunks) and the compiler inlines the arithmetic.

Forgetting mechanisms (Gama, Sebastiao & Rodrigues 2013, ``seeds/004_*.txt``,
section 3.3, Algorithms 1-3):

* cumulative (Algorithm 1): ``S_i = S_{i-1} + x_i``, ``n_i = n_{i-1} + 1``,
  estimate ``S_i / n_i``;
* sliding window of ``w`` (Algorithm 2): ``S_i = S_{i-1} + x_i - x_{i-w}``
  (the leaving term only once ``i > w``), estimate ``S_i / min(i, w)``. Because the
  whole stream is recorded, the caller reads the leaving element ``x_{i-w}`` from
  its input array instead of keeping a circular buffer; a chunked caller keeps the
  last ``w`` inputs of the previous chunk;
* fading factor ``alpha`` (Algorithm 3): ``S_i = x_i + alpha S_{i-1}``,
  ``N_i = 1 + alpha N_{i-1}``, estimate ``S_i / N_i``;
* the ratio of a short-term to a long-term estimate (Algorithm 4 and its
  two-window analogue, section 5.3): ``R_i = M_short(i) / M_long(i)``.

Estimates are ``NaN`` when undefined (``0 / 0``: e.g. a ratio while the long-term
estimate is 0); the kernels are compiled with ``error_model="numpy"`` so a
division by zero gives ``inf``/``NaN`` instead of raising.
"""

from __future__ import annotations

import numba

__all__ = [
    "cumulative_mean_step",
    "window_mean_step",
    "fading_mean_step",
    "fading_ratio_step",
    "window_ratio_step",
    "cumulative_mean",
    "window_mean",
    "fading_mean",
]


@numba.njit(cache=True, inline="always", error_model="numpy")
def cumulative_mean_step(s, n, x):
    """Algorithm 1: returns ``(s, n, mean)`` after adding ``x``."""
    s = s + x
    n = n + 1.0
    return s, n, s / n


@numba.njit(cache=True, inline="always", error_model="numpy")
def window_mean_step(s, n, x, x_old, w):
    """Algorithm 2 without a ring buffer: returns ``(s, n, mean)``.

    ``n`` counts every input seen so far; ``x_old`` is the input that leaves the
    window (``x_{i-w}``) and is only used once ``n > w`` after the update.
    """
    n = n + 1.0
    s = s + x
    if n > w:
        s = s - x_old
        return s, n, s / w
    return s, n, s / n


@numba.njit(cache=True, inline="always", error_model="numpy")
def fading_mean_step(s, nf, x, alpha):
    """Algorithm 3: returns ``(S, N, S / N)`` with ``S = x + alpha S``, ``N = 1 + alpha N``."""
    s = x + alpha * s
    nf = 1.0 + alpha * nf
    return s, nf, s / nf


@numba.njit(cache=True, inline="always", error_model="numpy")
def fading_ratio_step(s1, n1, s2, n2, x, alpha1, alpha2):
    """Algorithm 4's ratio ``R = M_alpha2 / M_alpha1`` (short over long term).

    Returns ``(s1, n1, s2, n2, R)``; ``R`` is NaN while ``M_alpha1 = 0``.
    """
    s1, n1, m1 = fading_mean_step(s1, n1, x, alpha1)
    s2, n2, m2 = fading_mean_step(s2, n2, x, alpha2)
    return s1, n1, s2, n2, m2 / m1


@numba.njit(cache=True, inline="always", error_model="numpy")
def window_ratio_step(s1, s2, n, x, x_old1, x_old2, w1, w2):
    """Two-window analogue of Algorithm 4: ``R = M_w2 / M_w1`` with ``w2 < w1``.

    Both windows see the same inputs, so they share the input count ``n``.
    Returns ``(s1, s2, n, R)``.
    """
    n = n + 1.0
    s1 = s1 + x
    s2 = s2 + x
    d1 = n
    d2 = n
    if n > w1:
        s1 = s1 - x_old1
        d1 = w1
    if n > w2:
        s2 = s2 - x_old2
        d2 = w2
    return s1, s2, n, (s2 / d2) / (s1 / d1)


@numba.njit(cache=True, parallel=True, error_model="numpy")
def cumulative_mean(x, out):
    """Loop kernel: the cumulative mean of every row of ``x`` (``(L, n)``) into ``out``."""
    for r in numba.prange(x.shape[0]):
        s = 0.0
        n = 0.0
        for t in range(x.shape[1]):
            s, n, out[r, t] = cumulative_mean_step(s, n, x[r, t])


@numba.njit(cache=True, parallel=True, error_model="numpy")
def window_mean(x, w, out):
    """Loop kernel: the sliding-window mean (window ``w``, Algorithm 2) of every row."""
    for r in numba.prange(x.shape[0]):
        s = 0.0
        n = 0.0
        for t in range(x.shape[1]):
            x_old = x[r, t - w] if t >= w else 0.0
            s, n, out[r, t] = window_mean_step(s, n, x[r, t], x_old, w)


@numba.njit(cache=True, parallel=True, error_model="numpy")
def fading_mean(x, alpha, out):
    """Loop kernel: the fading-factor mean (Algorithm 3) of every row."""
    for r in numba.prange(x.shape[0]):
        s = 0.0
        nf = 0.0
        for t in range(x.shape[1]):
            s, nf, out[r, t] = fading_mean_step(s, nf, x[r, t], alpha)
