"""numba kernel: many Page-Hinkley tests on different monitored estimates in one pass.

:func:`streamtk._kernels.detectors.page_hinkley_grid` runs one test after the
other over a block of inputs; each test's step is a chain of dependent
operations (running sums, running minimum), so its time per step is the latency
of that chain, and ``G`` distinct tests cost ``G`` times one. Here every test is
a *lane* and a step of all lanes is one loop over the lane index with no
branches, which LLVM compiles to SIMD instructions: the tests' chains run side
by side. A group of 16 lanes costs about as much as seven tests on the scalar
kernel, so it pays off for grids of many distinct tests (the cost model is in
``streamtk/drift/page_hinkley.py``); a single test stays on the scalar kernel.

Scope: the monitored quantity is the raw input, or its cumulative, sliding-window
or fading-factor mean (Gama, Sebastiao & Rodrigues 2013, ``seeds/004_*.txt``
section 3.3, Algorithms 1-3; no ratios), and the test watches for an increase
or for a decrease (not both). Each lane's mean is

    S <- (x + a S) - lag,   N <- 1 + a N,   mean = S / min(N, w),

with ``lag = x_{i-w}`` once ``N > w`` and 0 before: ``a = 1`` and the window
``w`` for a sliding window, ``a < 1, w = inf`` for a fading factor, ``a = 1,
w = inf`` for the cumulative mean, ``a = 0, w = inf`` for the raw input. These
are the operations of :mod:`streamtk._kernels.scalar_estimators` (``1 * S`` and
``S - 0`` are exact), and the test's are those of
:func:`streamtk._kernels.detectors.ph_step_scalar` (Gama's ``PH_T = m - min m``,
or in MOA's released form the faded sum ``m`` itself), so every lane gives bit
for bit the statistic and detections of the scalar kernel (tested).

Layout: all lane state and parameters live in one flat work array with rows of
:data:`LANES` values, so the lane loop reads and writes at fixed distances from
one pointer (no run-time alias checks); the leaving inputs ``x_{i-w}`` of the
next :data:`_BLOCK` steps are staged beforehand and each step's are copied into
a row of the work array (no gathers in the lane loop); an alarm only raises a
counter, handled lane by lane outside the vector loop. The lane count is passed
to the group loop at run time: with a compile-time 16, LLVM unrolls the loop
fully and no longer vectorises it.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = [
    "LANES",
    "LP_A",
    "LP_W",
    "LP_DELTA",
    "LP_LAMBDA",
    "LP_ALPHA",
    "LP_MIN_COUNT",
    "N_LANE_PARAMS",
    "EST_LANE_STATE",
    "PH_LANE_STATE",
    "page_hinkley_lanes",
]

LANES = 16  # lanes per group: a multiple of the SIMD width (8 doubles with AVX-512)
_BLOCK = 32  # steps whose leaving inputs are staged at once

# rows of the per-lane parameter table (float64, shape (N_LANE_PARAMS, n_lanes))
LP_A = 0  # fading of the mean's sum: 1 window / cumulative, < 1 fading factor, 0 raw input
LP_W = 1  # window (inf when not a window)
LP_DELTA = 2
LP_LAMBDA = 3  # inf on padding lanes: they never alarm
LP_ALPHA = 4  # fading of the test's cumulative sum (1 in Gama's form)
LP_MIN_COUNT = 5  # no alarm before this many inputs since the (re)start
N_LANE_PARAMS = 6

EST_LANE_STATE = 2  # S, N
PH_LANE_STATE = 4  # n, acc (sum, or mean in MOA's form), m, min m (not used in MOA's form)

# rows of the work array (each LANES wide)
_R_S = 0
_R_N = 1
_R_PN = 2
_R_ACC = 3
_R_M = 4
_R_MIN = 5
_R_PAR = 6
_R_V = _R_PAR + N_LANE_PARAMS
_R_STAT = _R_V + 1
_R_HIT = _R_STAT + 1
_R_LAG = _R_HIT + 1
_R_ROWS = _R_LAG + 1


@numba.njit(cache=True, nogil=True, error_model="numpy")
def page_hinkley_lanes(xx, h, count0, lp, lw, est, ph, lane_set, mon_lane, moa, increase, reset,
                       trace, mon_out, stat_out, det_out, det_idx, det_n):  # fmt: skip
    """Run the Page-Hinkley lanes over every row of ``xx`` (releases the GIL).

    Parameters
    ----------
    xx : (L, h + m) float64
        ``h`` carried inputs of the previous chunk (at least the longest
        window, or all inputs seen if fewer), then the ``m`` inputs of this chunk.
    count0 : int64
        Absolute index of the chunk's first input.
    lp : (N_LANE_PARAMS, Q) float64, ``Q`` a multiple of :data:`LANES`
        Per-lane parameters (rows ``LP_*``).
    lw : (Q,) int64
        Windows as integers (0 when not a window).
    est : (L, EST_LANE_STATE, Q), ph : (L, PH_LANE_STATE, Q) float64
        Lane states, updated in place (carried across chunks).
    lane_set : (Q,) int64
        Output setting of each lane (-1 for padding).
    mon_lane : (E,) int64
        The lane whose monitored value is written as estimator ``e``.
    moa, increase, reset : bool
        MOA's released form (incremental mean; the statistic is the faded sum
        ``m``, no minimum); test for an increase (else a decrease); restart a
        lane's test after its alarm.
    trace : bool
        Write ``stat_out``, ``det_out`` (L, P, m) and, if not empty,
        ``mon_out`` (L, E, m); otherwise they may be empty.
    det_idx : (L, P, cap) int64; det_n : (L, P) int64, zero on entry
        Absolute 0-based alarm indices (the first ``cap``) and their count.
    """
    n_rows = xx.shape[0]
    m = xx.shape[1] - h
    n_groups = lp.shape[1] // LANES
    nl = lp.shape[1] // n_groups if n_groups else 0  # LANES, but not a compile-time constant
    for r in range(n_rows):
        wk = np.zeros(_R_ROWS * LANES)
        lag = np.zeros((_BLOCK, LANES))
        for g in range(n_groups):
            _group(xx[r], h, count0, lp, lw, est[r], ph[r], lane_set, mon_lane, moa, increase, reset,
                   trace, mon_out, stat_out, det_out, det_idx, det_n, r, g * nl, nl, m, wk, lag)  # fmt: skip


@numba.njit(cache=True, error_model="numpy")
def _group(xrow, h, count0, lp, lw, est, ph, lane_set, mon_lane, moa, increase, reset, trace,
           mon_out, stat_out, det_out, det_idx, det_n, r, q0, nl, m, wk, lag):  # fmt: skip
    """Lanes ``q0 .. q0 + nl - 1`` of row ``r`` over the chunk (``nl`` is :data:`LANES`, passed
    at run time so that LLVM vectorises the lane loop instead of unrolling it)."""
    cap = det_idx.shape[2]
    n_mon = mon_lane.shape[0] if trace and mon_out.shape[0] > 0 else 0
    for k in range(nl):
        q = q0 + k
        wk[_R_S * LANES + k] = est[0, q]
        wk[_R_N * LANES + k] = est[1, q]
        wk[_R_PN * LANES + k] = ph[0, q]
        wk[_R_ACC * LANES + k] = ph[1, q]
        wk[_R_M * LANES + k] = ph[2, q]
        wk[_R_MIN * LANES + k] = ph[3, q]
        for i in range(N_LANE_PARAMS):
            wk[(_R_PAR + i) * LANES + k] = lp[i, q]
    for k in range(nl):
        if lw[q0 + k] == 0:  # not a window: its leaving input is always 0 (the column may hold another group's)
            for jj in range(_BLOCK):
                lag[jj, k] = 0.0
    for j0 in range(0, m, _BLOCK):
        nb = min(_BLOCK, m - j0)
        # stage the leaving inputs x_{i-w} of the window lanes (0 while the window is not full)
        for k in range(nl):
            w = lw[q0 + k]
            if w == 0:
                continue
            if count0 + j0 >= w:  # the window is full for the whole block: a contiguous copy
                src = h + j0 - w
                for jj in range(nb):
                    lag[jj, k] = xrow[src + jj]
            else:
                for jj in range(nb):
                    a = count0 + j0 + jj  # inputs before this one
                    lag[jj, k] = xrow[h + j0 + jj - w] if a >= w else 0.0
        for jj in range(nb):
            xt = xrow[h + j0 + jj]
            for k in range(nl):
                # this step's leaving inputs into a fixed row: in the lane loop every access is at a
                # constant distance from one pointer, so LLVM vectorises it without run-time checks
                wk[_R_LAG * LANES + k] = lag[jj, k]
            hits = 0
            for k in range(nl):
                # the monitored mean
                a = wk[(_R_PAR + LP_A) * LANES + k]
                s = (xt + a * wk[_R_S * LANES + k]) - wk[_R_LAG * LANES + k]
                nn = 1.0 + a * wk[_R_N * LANES + k]
                w = wk[(_R_PAR + LP_W) * LANES + k]
                v = s / (nn if nn < w else w)
                wk[_R_S * LANES + k] = s
                wk[_R_N * LANES + k] = nn
                wk[_R_V * LANES + k] = v
                # the test
                n = wk[_R_PN * LANES + k] + 1.0
                acc0 = wk[_R_ACC * LANES + k]
                quot = ((v - acc0) if moa else (acc0 + v)) / n
                acc = (acc0 + quot) if moa else (acc0 + v)
                mean = acc if moa else quot
                dev = (v - mean) if increase else (mean - v)
                alpha = wk[(_R_PAR + LP_ALPHA) * LANES + k]
                mt = alpha * wk[_R_M * LANES + k] + (dev - wk[(_R_PAR + LP_DELTA) * LANES + k])
                mn0 = wk[_R_MIN * LANES + k]
                mn = mt if mt <= mn0 else mn0  # kept branch-free; MOA's form ignores it
                stat = mt if moa else mt - mn
                hit = np.int64(stat > wk[(_R_PAR + LP_LAMBDA) * LANES + k]) * np.int64(
                    n >= wk[(_R_PAR + LP_MIN_COUNT) * LANES + k]
                )
                wk[_R_PN * LANES + k] = n
                wk[_R_ACC * LANES + k] = acc
                wk[_R_M * LANES + k] = mt
                wk[_R_MIN * LANES + k] = mn
                wk[_R_STAT * LANES + k] = stat
                wk[_R_HIT * LANES + k] = hit
                hits += hit
            j = j0 + jj
            if trace:
                for k in range(nl):
                    p = lane_set[q0 + k]
                    if p >= 0:
                        stat_out[r, p, j] = wk[_R_STAT * LANES + k]
                        det_out[r, p, j] = wk[_R_HIT * LANES + k] != 0.0
                for e in range(n_mon):
                    if q0 <= mon_lane[e] < q0 + nl:
                        mon_out[r, e, j] = wk[_R_V * LANES + mon_lane[e] - q0]
            if hits:
                for k in range(nl):
                    if wk[_R_HIT * LANES + k] != 0.0:
                        p = lane_set[q0 + k]
                        c = det_n[r, p]
                        if c < cap:
                            det_idx[r, p, c] = count0 + j
                        det_n[r, p] = c + 1
                        if reset:
                            wk[_R_PN * LANES + k] = 0.0
                            wk[_R_ACC * LANES + k] = 0.0
                            wk[_R_M * LANES + k] = 0.0
                            wk[_R_MIN * LANES + k] = np.inf
    for k in range(nl):
        q = q0 + k
        est[0, q] = wk[_R_S * LANES + k]
        est[1, q] = wk[_R_N * LANES + k]
        ph[0, q] = wk[_R_PN * LANES + k]
        ph[1, q] = wk[_R_ACC * LANES + k]
        ph[2, q] = wk[_R_M * LANES + k]
        ph[3, q] = wk[_R_MIN * LANES + k]
