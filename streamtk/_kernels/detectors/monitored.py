"""The monitored estimate of a scalar stream under a forgetting mechanism, step by step.

Page-Hinkley can test the raw input or an estimate of its mean (Gama, Sebastiao & Rodrigues 2013,
seed 004, section 5.2, Table 2, Algorithms 1-3): prequential (every input so far), a sliding
window of the last ``w`` inputs, a fading factor ``a`` (input ``s`` weighs ``a**(t - s)``), and,
from the shared mechanisms of :mod:`streamtk._kernels.forgetting`, tumbling windows (restart at the
multiples of ``w``) and landmarks (restart at given positions); the ratio of a short-term to a
long-term estimate (section 5.3, Algorithm 4) is the quotient of two of them.

One step, :func:`mean_step`, serves every mechanism and both paths (this module's scalar pass and
the SIMD lanes of :mod:`.ph_lanes`), so they give the same doubles:

    m <- m * step,   S <- (keep S + m x) - lag,   N <- keep N + m,   estimate S / min(N, w)

with ``keep = 1`` (``0`` for the raw input: the estimate is ``x``), ``lag = x_{t-w}`` the input that
leaves a sliding window once it is full (0 otherwise; the whole stream is recorded, so it is read
back instead of kept in a ring buffer), ``w`` the window (``inf`` otherwise) and ``step = 1 / a``
for a fading factor (1 otherwise): fading is the lazy scaling of :mod:`streamtk._kernels.forgetting`
(member ``t`` is added with multiplier ``m = a**-t``; ``S / N`` needs no rescaling; both are divided
by ``m`` when it exceeds ``RENORM``, :func:`renormalise`). A restart (tumbling, landmarks) empties the
state exactly. The window sum is Algorithm 2's running sum: exact for 0/1 inputs (integers), within
the rounding of the inputs for real values.

State of one estimator: ``stf = (S, N, m)`` (float64) and ``sti = (cursor,)`` (int64: the next
landmark). Undefined estimates are ``NaN`` (``0 / 0``: a ratio while the long-term mean is 0).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from ..forgetting import RENORM, WINDOW, fades, fading_step, next_restart, overdue

__all__ = ["RAW", "mean_step", "renormalise", "safe_steps", "estimate_block", "ratio_block", "EST_FLOAT", "EST_INT"]

#: the raw input as a "mechanism": the estimate is the input itself
RAW = -1
#: sizes of an estimator's float and int state
EST_FLOAT, EST_INT = 3, 1


@numba.njit(cache=True, inline="always", error_model="numpy")
def mean_step(s, n, m, x, lag, keep, step, w):
    """One input ``x`` (``lag`` leaving): returns ``(S, N, m, estimate)`` (module docstring)."""
    m = m * step
    s = (keep * s + m * x) - lag
    n = keep * n + m
    return s, n, m, s / (n if n < w else w)


@numba.njit(cache=True, inline="always")
def renormalise(s, n, m):
    """A lazily scaled state divided by its multiplier (``m`` back to 1), before ``m`` can overflow."""
    if overdue(m):
        return s / m, n / m, 1.0
    return s, n, m


@numba.njit(cache=True, inline="always")
def safe_steps(m, step):
    """How many more steps surely leave the multiplier ``m`` (times ``step`` per step) at or below ``RENORM``.

    A lower bound with a margin (two steps and a relative ``1e-6``) far above the rounding of the
    repeated products, so the state is renormalised at exactly the step :func:`renormalise` would
    pick when checked at every step.
    """
    if step <= 1.0 or not (m <= RENORM):
        return 0 if not (m <= RENORM) else 1 << 62
    k = math.log(RENORM / m) / math.log(step) * (1.0 - 1e-6) - 2.0
    return int(k) if k > 0.0 else 0


@numba.njit(cache=True, inline="always")
def mechanism_constants(kind, size, fading):
    """``(keep, step, w)`` of :func:`mean_step` for a mechanism."""
    keep = 0.0 if kind == RAW else 1.0
    w = float(size) if kind == WINDOW else np.inf
    return keep, fading_step(kind, fading), w


@numba.njit(cache=True, error_model="numpy")
def estimate_block(kind, size, fading, marks, xrow, h, count0, j0, nb, stf, sti, out):
    """One estimator over chunk positions ``j0 .. j0 + nb - 1``; its estimates into ``out[:nb]``.

    ``xrow`` holds ``h`` carried inputs (the window's tail) and then the chunk; ``count0`` is the
    absolute index of the chunk's first input. One loop per mechanism, each of them :func:`mean_step`
    with the mechanism's constants written out (runtime ``keep = 1`` or ``lag = 0`` would stay on the
    chain of every step).
    """
    x0 = h + j0
    if kind == RAW:
        for jj in range(nb):
            out[jj] = xrow[x0 + jj]
        return
    s, n, m = stf[0], stf[1], stf[2]
    t0 = count0 + j0
    if kind == WINDOW:
        w = float(size)
        for jj in range(nb):
            lag = xrow[x0 + jj - size] if t0 + jj >= size else 0.0
            s, n, m, out[jj] = mean_step(s, n, m, xrow[x0 + jj], lag, 1.0, 1.0, w)
    elif fades(kind):
        step = fading_step(kind, fading)
        jj = 0
        while jj < nb:
            # the steps before the multiplier can exceed RENORM run without the check (a check in the loop
            # lets LLVM compute the renormalising divisions at every step); then one step with it
            for _ in range(min(nb - jj, safe_steps(m, step))):
                s, n, m, out[jj] = mean_step(s, n, m, xrow[x0 + jj], 0.0, 1.0, step, np.inf)
                jj += 1
            if jj < nb:
                s, n, m, out[jj] = mean_step(s, n, m, xrow[x0 + jj], 0.0, 1.0, step, np.inf)
                s, n, m = renormalise(s, n, m)
                jj += 1
    else:  # prequential (never restarts), tumbling, landmarks
        nxt, cursor = next_restart(kind, size, marks, sti[0], t0)
        for jj in range(nb):
            if t0 + jj == nxt:
                s, n, m = 0.0, 0.0, 1.0
                nxt, cursor = next_restart(kind, size, marks, cursor, t0 + jj + 1)
            s, n, m, out[jj] = mean_step(s, n, m, xrow[x0 + jj], 0.0, 1.0, 1.0, np.inf)
        sti[0] = cursor
    stf[0], stf[1], stf[2] = s, n, m


@numba.njit(cache=True, error_model="numpy")
def ratio_block(long_row, short_row, nb, out):
    """Algorithm 4's ratio ``R = M_short / M_long`` of two estimates over a block (NaN where ``0 / 0``)."""
    for jj in range(nb):
        out[jj] = short_row[jj] / long_row[jj]
