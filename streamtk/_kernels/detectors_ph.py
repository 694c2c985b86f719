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

Passes: reading and writing the lane states in the work array at every step puts
the store-to-load latency on each step's chain. For Gama's form on an increase
without a per-step trace (the setting of Gama et al. Table 2), the lane loop
instead takes every lane :data:`PASS_STEPS` steps forward with its state in
registers (:func:`_lanes_pass`); a lane that alarms within the pass stays at its
start and takes those steps one by one with its restart (:func:`_lane_steps`).
Measured on Table 2's grid at 10^7 inputs: 25 -> 16 ns per step of 16 lanes
(20 ns while :func:`_lanes_pass` was a call; inlined by numba it runs as fast as
on its own).
"""

from __future__ import annotations

import numba
import numpy as np

from .detections import record_alarm
from .ph_step import ph_mean_step, ph_test_step

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
    "SHARED_LANES",
    "PASS_STEPS",
    "SHARED_ROWS",
    "SHARED_HITS_ROW",
    "shared_lanes_load",
    "shared_lanes_run",
    "shared_lanes_store",
]

LANES = 16  # lanes per group: a multiple of the SIMD width (8 doubles with AVX-512)
_BLOCK = 32  # steps whose leaving inputs are staged at once
# Steps per lane and pass of a lane loop that keeps the lanes' states in registers (measured on the
# shared-input lanes: 4 -> 5.0, 8 -> 4.1, 16 -> 4.9 ns per step of 8 lanes). A divisor of _BLOCK.
PASS_STEPS = 8

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
    n_mon = mon_lane.shape[0] if trace and mon_out.shape[0] > 0 else 0
    # Gama's form on an increase without a per-step trace (Table 2's setting) runs in passes of
    # PASS_STEPS steps, written for that form only: with the form and the side as run-time flags the
    # pass loop is two times slower (31 instead of 16 ns per step of 16 lanes), and compiling it for
    # each combination costs seconds. Other settings take the per-step loop.
    passes = not trace and not moa and increase
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
        j_step = 0
        while passes and j_step + PASS_STEPS <= nb:
            # PASS_STEPS steps of every lane with the states in registers (no per-step output)
            if _lanes_pass(wk, xrow, h + j0 + j_step, lag, j_step, nl):
                # a lane that alarmed stayed at the pass's start: its steps one by one, with the restart
                for k in range(nl):
                    if wk[_R_HIT * LANES + k] != 0.0:
                        _lane_steps(wk, k, xrow, h + j0 + j_step, lag, j_step, moa, increase, reset, det_idx,
                                    det_n, r, lane_set[q0 + k], count0 + j0 + j_step)  # fmt: skip
            j_step += PASS_STEPS
        for jj in range(j_step, nb):
            xt = xrow[h + j0 + jj]
            for k in range(nl):
                # this step's leaving inputs into a fixed row: in the lane loop every access is at a
                # constant distance from one pointer, so LLVM vectorises it without run-time checks
                wk[_R_LAG * LANES + k] = lag[jj, k]
            hits = 0
            for k in range(nl):
                # the monitored mean
                s, nn, v = _lane_mean(wk[_R_S * LANES + k], wk[_R_N * LANES + k], xt, wk[_R_LAG * LANES + k],
                                      wk[(_R_PAR + LP_A) * LANES + k], wk[(_R_PAR + LP_W) * LANES + k])  # fmt: skip
                wk[_R_S * LANES + k] = s
                wk[_R_N * LANES + k] = nn
                wk[_R_V * LANES + k] = v
                # the test
                n, acc, mean = ph_mean_step(wk[_R_PN * LANES + k], wk[_R_ACC * LANES + k], v, moa)
                mt, mn, stat = ph_test_step(wk[_R_M * LANES + k], wk[_R_MIN * LANES + k],
                                            (v - mean) if increase else (mean - v),
                                            wk[(_R_PAR + LP_DELTA) * LANES + k], wk[(_R_PAR + LP_ALPHA) * LANES + k],
                                            moa)  # fmt: skip
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
                        record_alarm(det_idx, det_n, r, lane_set[q0 + k], count0 + j)
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


@numba.njit(cache=True, inline="always", error_model="numpy")
def _lane_mean(s, nn, x, lag, a, w):
    """The monitored mean of a lane after input ``x`` (leaving input ``lag``): returns ``(S, N, mean)``
    with ``S = (x + a S) - lag``, ``N = 1 + a N``, ``mean = S / min(N, w)`` (module docstring)."""
    s = (x + a * s) - lag
    nn = 1.0 + a * nn
    return s, nn, s / (nn if nn < w else w)


@numba.njit(cache=True, inline="always", error_model="numpy")
def _lanes_pass(wk, xrow, x0, lag, j, nl):
    """Every lane ``PASS_STEPS`` steps forward from input ``xrow[x0]`` (leaving inputs
    ``lag[j:j + PASS_STEPS]``) with its state in registers, Gama's form on an increase;
    returns the number of alarms.

    A lane that alarms within the pass keeps its state from before the pass (row ``_R_HIT``
    counts its alarms) for :func:`_lane_steps` to take those steps one by one with the restart.
    Stepping through the state in ``wk`` at every step, as the per-step loop does, puts the
    store-to-load latency on each step's chain; here it is paid once per pass. (The leaving
    inputs are read from ``lag``, not from rows of ``wk``: with those, LLVM does not vectorise.)
    """
    hits = 0
    for k in range(nl):
        s0 = wk[_R_S * LANES + k]
        nn0 = wk[_R_N * LANES + k]
        n0 = wk[_R_PN * LANES + k]
        acc0 = wk[_R_ACC * LANES + k]
        m0 = wk[_R_M * LANES + k]
        mn0 = wk[_R_MIN * LANES + k]
        a = wk[(_R_PAR + LP_A) * LANES + k]
        w = wk[(_R_PAR + LP_W) * LANES + k]
        delta = wk[(_R_PAR + LP_DELTA) * LANES + k]
        alpha = wk[(_R_PAR + LP_ALPHA) * LANES + k]
        lam = wk[(_R_PAR + LP_LAMBDA) * LANES + k]
        min_count = wk[(_R_PAR + LP_MIN_COUNT) * LANES + k]
        s = s0
        nn = nn0
        n = n0
        acc = acc0
        m = m0
        mn = mn0
        h = 0
        for u in range(PASS_STEPS):
            s, nn, v = _lane_mean(s, nn, xrow[x0 + u], lag[j + u, k], a, w)
            n, acc, mean = ph_mean_step(n, acc, v, False)
            m, mn, stat = ph_test_step(m, mn, v - mean, delta, alpha, False)
            h += np.int64(stat > lam) * np.int64(n >= min_count)
        took = h == 0  # selects, not a branch: the loop stays vectorised
        wk[_R_S * LANES + k] = s if took else s0
        wk[_R_N * LANES + k] = nn if took else nn0
        wk[_R_PN * LANES + k] = n if took else n0
        wk[_R_ACC * LANES + k] = acc if took else acc0
        wk[_R_M * LANES + k] = m if took else m0
        wk[_R_MIN * LANES + k] = mn if took else mn0
        wk[_R_HIT * LANES + k] = h
        hits += h
    return hits


@numba.njit(cache=True, error_model="numpy")
def _lane_steps(wk, k, xrow, x0, lag, j, moa, increase, reset, det_idx, det_n, r, p, i0):
    """Lane ``k`` (output setting ``p``) ``PASS_STEPS`` steps forward one by one from input
    ``xrow[x0]`` (absolute index ``i0``), recording its alarms and restarting its test after each
    if ``reset``: the per-step loop's operations, for a pass :func:`_lanes_pass` handed back."""
    s = wk[_R_S * LANES + k]
    nn = wk[_R_N * LANES + k]
    n = wk[_R_PN * LANES + k]
    acc = wk[_R_ACC * LANES + k]
    m = wk[_R_M * LANES + k]
    mn = wk[_R_MIN * LANES + k]
    for u in range(PASS_STEPS):
        s, nn, v = _lane_mean(s, nn, xrow[x0 + u], lag[j + u, k],
                              wk[(_R_PAR + LP_A) * LANES + k], wk[(_R_PAR + LP_W) * LANES + k])  # fmt: skip
        n, acc, mean = ph_mean_step(n, acc, v, moa)
        m, mn, stat = ph_test_step(m, mn, (v - mean) if increase else (mean - v), wk[(_R_PAR + LP_DELTA) * LANES + k],
                                   wk[(_R_PAR + LP_ALPHA) * LANES + k], moa)  # fmt: skip
        if stat > wk[(_R_PAR + LP_LAMBDA) * LANES + k] and n >= wk[(_R_PAR + LP_MIN_COUNT) * LANES + k]:
            record_alarm(det_idx, det_n, r, p, i0 + u)
            if reset:
                n = 0.0
                acc = 0.0
                m = 0.0
                mn = np.inf
    wk[_R_S * LANES + k] = s
    wk[_R_N * LANES + k] = nn
    wk[_R_PN * LANES + k] = n
    wk[_R_ACC * LANES + k] = acc
    wk[_R_M * LANES + k] = m
    wk[_R_MIN * LANES + k] = mn


# --------------------------------------------------------------------------------------
# settings that test the same monitored values with states of their own
# --------------------------------------------------------------------------------------
# In a grid over thresholds (lambda, min_instances) the settings share one test until the
# first of them alarms and restarts; from then on each restarted setting has a state of its
# own, on the same monitored values. The scalar kernel runs such settings one after another,
# at the scalar division's throughput per step and setting (about 2 ns); here up to
# SHARED_LANES of them are lanes of one SIMD loop. Each pass of the lane loop takes every
# lane PASS_STEPS steps forward with its state in registers (a state stored and reloaded
# at every step puts the store-to-load latency on each step's chain: 12 instead of 4-6 ns
# per step of 8 lanes). A lane that alarms within a pass stays where it was and the
# caller's scalar kernel runs that pass for it (with its restart); so do blocks with a
# non-finite input and a block's last steps.
SHARED_LANES = 8  # one AVX-512 vector of doubles

# rows of the shared-input work array (each SHARED_LANES wide)
_S_N = 0
_S_ACC = 1
_S_M = 2
_S_MIN = 3
_S_DELTA = 4
_S_ALPHA = 5
_S_LAMBDA = 6
_S_MIN_COUNT = 7
_S_HITS = 8  # alarms of each lane in the last pass
SHARED_ROWS = 9
SHARED_HITS_ROW = _S_HITS


@numba.njit(cache=True, error_model="numpy")
def shared_lanes_load(wk, ph_state, r, qs, k0, nq, side, delta, lam, alpha, min_count):
    """Settings ``qs[k0:k0 + nq]`` (``nq <= SHARED_LANES``) of row ``r`` into the lanes of ``wk``:
    their count, sum and one side's (``side`` 0 increase, 1 decrease) cumulative sum and
    minimum from ``ph_state`` (L, P, 6), and their parameters. Unused lanes never alarm."""
    W = SHARED_LANES
    for k in range(W):
        if k < nq:
            q = qs[k0 + k]
            wk[_S_N * W + k] = ph_state[r, q, 0]
            wk[_S_ACC * W + k] = ph_state[r, q, 1]
            wk[_S_M * W + k] = ph_state[r, q, 2 + 2 * side]
            wk[_S_MIN * W + k] = ph_state[r, q, 3 + 2 * side]
            wk[_S_DELTA * W + k] = delta[q]
            wk[_S_ALPHA * W + k] = alpha[q]
            wk[_S_LAMBDA * W + k] = lam[q]
            wk[_S_MIN_COUNT * W + k] = min_count[q]
        else:
            wk[_S_N * W + k] = 0.0
            wk[_S_ACC * W + k] = 0.0
            wk[_S_M * W + k] = 0.0
            wk[_S_MIN * W + k] = np.inf
            wk[_S_DELTA * W + k] = 0.0
            wk[_S_ALPHA * W + k] = 1.0
            wk[_S_LAMBDA * W + k] = np.inf
            wk[_S_MIN_COUNT * W + k] = np.inf


@numba.njit(cache=True, error_model="numpy")
def shared_lanes_store(wk, ph_state, r, qs, k0, nq, side):
    """The lanes' states back into ``ph_state`` (the inverse of :func:`shared_lanes_load`)."""
    W = SHARED_LANES
    for k in range(nq):
        q = qs[k0 + k]
        ph_state[r, q, 0] = wk[_S_N * W + k]
        ph_state[r, q, 1] = wk[_S_ACC * W + k]
        ph_state[r, q, 2 + 2 * side] = wk[_S_M * W + k]
        ph_state[r, q, 3 + 2 * side] = wk[_S_MIN * W + k]


@numba.njit(cache=True, error_model="numpy")
def shared_lanes_run(v, c, nb, nl, wk, moa, increase):
    """Run the lanes of ``wk`` over ``v[c:nb]`` (all finite) in passes of ``PASS_STEPS`` steps.

    Stops after the first pass in which some lane alarms: the lanes that did not
    alarm have taken the pass, those that did are left at its start (row
    ``_S_HITS`` counts their alarms) for the caller's scalar kernel to run it.
    Returns that pass's first position, or the first position of the last
    ``< PASS_STEPS`` steps if no lane alarms (``nb`` if none are left).
    ``nl`` is ``SHARED_LANES`` passed at run time (a compile-time trip count makes
    LLVM unroll the lane loop instead of vectorising it). No per-step output:
    storing each step's statistic from the lane loop stops LLVM from vectorising
    it (measured 15 instead of 4.8 ns per step of 8 lanes), so a traced grid keeps
    the scalar kernel.
    """
    W = SHARED_LANES
    S = PASS_STEPS
    while c + S <= nb:
        hits = 0
        for k in range(nl):
            n0 = wk[_S_N * W + k]
            acc0 = wk[_S_ACC * W + k]
            m0 = wk[_S_M * W + k]
            mn0 = wk[_S_MIN * W + k]
            delta = wk[_S_DELTA * W + k]
            alpha = wk[_S_ALPHA * W + k]
            lam = wk[_S_LAMBDA * W + k]
            min_count = wk[_S_MIN_COUNT * W + k]
            n = n0
            acc = acc0
            m = m0
            mn = mn0
            h = 0
            for u in range(S):
                x = v[c + u]
                n, acc, mean = ph_mean_step(n, acc, x, moa)
                m, mn, stat = ph_test_step(m, mn, (x - mean) if increase else (mean - x), delta, alpha, moa)
                h += np.int64(stat > lam) * np.int64(n >= min_count)
            took = h == 0  # selects, not a branch: the loop stays vectorised
            wk[_S_N * W + k] = n if took else n0
            wk[_S_ACC * W + k] = acc if took else acc0
            wk[_S_M * W + k] = m if took else m0
            wk[_S_MIN * W + k] = mn if took else mn0
            wk[_S_HITS * W + k] = h
            hits += h
        if hits:
            return c
        c += S
    return c
