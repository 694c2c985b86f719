"""Page-Hinkley's fast path: many tests side by side as SIMD lanes, from the same step functions.

A test's step is a chain of dependent operations (running sums, a running minimum), so one test
costs the latency of that chain per input and ``G`` tests one after the other cost ``G`` times one.
Here every test is a *lane*, and a step of all lanes is one loop over the lane index with no
branches, which LLVM compiles to SIMD instructions. Each lane takes :data:`PASS_STEPS` inputs with
its state in registers (:func:`lanes_pass`, built from :func:`.monitored.mean_step`,
:func:`.ph_test.ph_mean` and :func:`.ph_test.ph_side`); a lane whose pass would alarm (or whose
fading multiplier would need renormalising) keeps its state from before the pass, and the pass is
then run for it by the general path, :func:`.ph_test.test_steps`, which records the alarm and restarts
the test. So the lanes give the general path's results bit for bit, and only the rare passes with an
event are run step by step. Two uses (chosen by the numpy layer's cost model):

* :func:`xlanes_row` (*x-lanes*): every setting is a lane that computes
  its own monitored estimate of the input (raw, prequential, window, fading) and its test, e.g. the
  grid of Gama et al. 2013, Table 2 (5 windows and 5 fading factors); the per-step trace is staged in
  the lane layout and copied out after each pass;
* :func:`rawlanes_block` (*raw lanes*): settings that restarts have
  separated from their group's shared test (a threshold sweep) run side by side on the monitored
  values of their estimate, computed once.

Layout: a group of :data:`LANES` lanes keeps its state and parameters in one flat work array with rows
of ``LANES`` values (the lane loop reads at fixed, compile-time distances from one pointer: with a
run-time row length LLVM does not vectorise); the lane count is read at run time (with a compile-time
trip count LLVM unrolls the loop instead of vectorising it).
One side of the test per lane (``sgn * (x - mean)``, ``sgn = -1`` for a decrease: the same double as
``mean - x``); ``direction="both"`` stays on the general path.
"""

from __future__ import annotations

from collections import namedtuple

import numba
import numpy as np

from ..forgetting import RENORM
from .monitored import mean_step, renormalise
from .ph_test import ph_mean, ph_side, test_steps

__all__ = ["LANES", "PASS_STEPS", "BLOCK", "LANE_ROWS", "xlanes_row", "rawlanes_block"]

LANES = 16  # lanes per group: two AVX-512 vectors of doubles
PASS_STEPS = 8  # steps per pass of the lanes (a divisor of the block length)
BLOCK = 256  # inputs per block of the drivers (a multiple of PASS_STEPS)

# rows of a lane group's work array (each W wide): estimate state, test state (one side), parameters
R_S, R_N, R_MULT, R_PN, R_ACC, R_M, R_MIN = 0, 1, 2, 3, 4, 5, 6
R_KEEP, R_STEP, R_W, R_DELTA, R_FADE, R_LAM, R_MINC, R_HITS = 7, 8, 9, 10, 11, 12, 13, 14
LANE_ROWS = 15


@numba.njit(cache=True, inline="always", error_model="numpy")
def lanes_pass(src, x0, lag, j, wk, nl, form, sgn, estimate, trace, tr_stat, tr_v):
    """Every lane ``PASS_STEPS`` inputs ``src[x0:]`` forward; returns the number of lane events.

    ``estimate`` (``True``, or ``None``: a compile-time constant by its type): each lane computes its
    monitored estimate (leaving inputs ``lag[(j + u) W + k]``), else ``src`` holds the monitored values.
    A lane with an event keeps its state from before the pass (row ``R_HITS`` counts its events).
    ``trace`` (``True`` or ``None``): the statistic and the monitored value of each step into
    ``tr_stat``, ``tr_v`` (lane layout).
    """
    W = LANES
    hits = 0
    for k in range(nl):
        s0 = wk[R_S * W + k]
        nn0 = wk[R_N * W + k]
        mu0 = wk[R_MULT * W + k]
        n0 = wk[R_PN * W + k]
        acc0 = wk[R_ACC * W + k]
        m0 = wk[R_M * W + k]
        mn0 = wk[R_MIN * W + k]
        keep = wk[R_KEEP * W + k]
        step = wk[R_STEP * W + k]
        w = wk[R_W * W + k]
        delta = wk[R_DELTA * W + k]
        fade = wk[R_FADE * W + k]
        lam = wk[R_LAM * W + k]
        minc = wk[R_MINC * W + k]
        s, nn, mu, n, acc, m, mn = s0, nn0, mu0, n0, acc0, m0, mn0
        h = 0
        for u in range(PASS_STEPS):
            v = src[x0 + u]
            if estimate is not None:
                s, nn, mu, v = mean_step(s, nn, mu, v, lag[(j + u) * W + k], keep, step, w)
                h += np.int64(mu > RENORM)
            n, acc, mean = ph_mean(n, acc, v, form[0])
            m, mn, stat = ph_side(m, mn, sgn * (v - mean), delta, fade, form[0])
            h += np.int64(stat > lam) * np.int64(n >= minc)
            if trace is not None:
                tr_stat[(j + u) * W + k] = stat
                tr_v[(j + u) * W + k] = v
        took = h == 0  # selects, not a branch: the loop stays vectorised
        wk[R_S * W + k] = s if took else s0
        wk[R_N * W + k] = nn if took else nn0
        wk[R_MULT * W + k] = mu if took else mu0
        wk[R_PN * W + k] = n if took else n0
        wk[R_ACC * W + k] = acc if took else acc0
        wk[R_M * W + k] = m if took else m0
        wk[R_MIN * W + k] = mn if took else mn0
        wk[R_HITS * W + k] = h
        hits += h
    return hits


@numba.njit(cache=True, inline="always")
def _to_test(wk, W, k, row, side):
    """Lane ``k``'s test state into a test state row (``side`` 0: the increase columns, 1: the decrease ones)."""
    row[0] = wk[R_PN * W + k]
    row[1] = wk[R_ACC * W + k]
    row[2 + 2 * side] = wk[R_M * W + k]
    row[3 + 2 * side] = wk[R_MIN * W + k]


@numba.njit(cache=True, inline="always")
def _from_test(wk, W, k, row, side):
    """The inverse of :func:`_to_test`."""
    wk[R_PN * W + k] = row[0]
    wk[R_ACC * W + k] = row[1]
    wk[R_M * W + k] = row[2 + 2 * side]
    wk[R_MIN * W + k] = row[3 + 2 * side]


#: what every lane reports to: the settings, flags and tests of the run, its alarm records and the
#: test's form (:mod:`.ph_test`); the trace stays an argument of its own, so that numba prunes the
#: untraced branches when it is ``None``
Run = namedtuple("Run", "sets flags tests rec form")


@numba.njit(cache=True, error_model="numpy")
def _xlane_steps(r, q, wk, k, xrow, x0, lag, a, b, vbuf, j0, run, tr):
    """Lane ``k`` (setting ``q``) over block positions ``a .. b - 1`` on the general path: its estimates
    by :func:`mean_step` into ``vbuf``, then :func:`test_steps` on its test (slot ``q``; ``run``: a
    :data:`Run`)."""
    sets, flags, tests, rec, form = run
    W = LANES
    side = 0 if form[1] is not None else 1
    s, nn, mu = wk[R_S * W + k], wk[R_N * W + k], wk[R_MULT * W + k]
    keep, step, w = wk[R_KEEP * W + k], wk[R_STEP * W + k], wk[R_W * W + k]
    for jj in range(a, b):
        s, nn, mu, vbuf[jj] = mean_step(s, nn, mu, xrow[x0 + jj], lag[jj * W + k], keep, step, w)
        s, nn, mu = renormalise(s, nn, mu)
    wk[R_S * W + k], wk[R_N * W + k], wk[R_MULT * W + k] = s, nn, mu
    row = tests[0][r, q]
    _to_test(wk, W, k, row, side)
    test_steps(r, q, vbuf, a, b, j0, sets, flags, tests, rec, tr, form)
    _from_test(wk, W, k, row, side)


@numba.njit(cache=True, error_model="numpy")
def _passes(src, lag, nb, wk, form, estimate, trace, trs):
    """Passes of the lanes over ``src[:nb]`` (leaving inputs ``lag``, staged trace ``trs``, all from the
    same position on), until one has events or fewer than ``PASS_STEPS`` inputs are left; returns how
    far it went. A function of its own whose arrays start where the passes start: so LLVM vectorises
    the lane loop (with a run-time start, or inlined into the caller's body, it did not)."""
    nl = wk.shape[0] // LANE_ROWS  # LANES, but not a compile-time constant: LLVM vectorises instead of unrolling
    sgn = 1.0 if form[1] is not None else -1.0
    c = 0
    while c + PASS_STEPS <= nb:
        if lanes_pass(src, c, lag, c, wk, nl, form, sgn, estimate, trace, trs[0], trs[1]):
            return c
        c += PASS_STEPS
    return c


@numba.njit(cache=True, error_model="numpy")
def _xlanes_block(r, g, xrow, h, j0, nb, wk, lanes, lag, vbuf, trs, run, tr):
    """X-lane group ``g`` over block ``j0`` (``nb`` inputs) of row ``r``; ``lanes = (lane_set, lane_win,
    mon_lane)`` of the group; ``run``: a :data:`Run`."""
    flags, form = run.flags, run.form
    W = LANES
    lane_set, lane_win, mon_lane = lanes
    count0 = flags[0]
    nl = wk.shape[0] // LANE_ROWS
    for k in range(nl):  # stage the leaving inputs x_{t-w} of the window lanes (0 while the window is not full)
        w = lane_win[k]
        if w == 0:
            continue
        if count0 + j0 >= w:  # full for the whole block: a plain copy
            for jj in range(nb):
                lag[jj * W + k] = xrow[h + j0 + jj - w]
        else:
            for jj in range(nb):
                lag[jj * W + k] = xrow[h + j0 + jj - w] if count0 + j0 + jj >= w else 0.0
    x0 = h + j0
    c = 0
    while c < nb:
        at = (trs[0][c * W :], trs[1][c * W :])
        if tr is None:
            c1 = c + _passes(xrow[x0 + c :], lag[c * W :], nb - c, wk, form, True, None, at)
        else:
            c1 = c + _passes(xrow[x0 + c :], lag[c * W :], nb - c, wk, form, True, True, at)
            _copy_out(r, g, c, c1, j0, lane_set, mon_lane, trs, tr)
        if c1 >= nb:
            break
        tail = c1 + PASS_STEPS > nb  # the block's last steps: no pass ran there
        e = nb if tail else c1 + PASS_STEPS
        for k in range(nl):  # the pass with events (or the block's last steps): its lanes on the general path
            q = lane_set[k]
            if q < 0:
                continue
            if tail or wk[R_HITS * W + k] != 0.0:
                _xlane_steps(r, q, wk, k, xrow, x0, lag, c1, e, vbuf, j0, run, tr)
                if tr is not None:
                    for jj in range(c1, e):
                        trs[1][jj * W + k] = vbuf[jj]
                        trs[0][jj * W + k] = np.nan  # written by the general path: not copied again
        if tr is not None:
            _copy_out(r, g, c1, e, j0, lane_set, mon_lane, trs, tr)
        c = e


@numba.njit(cache=True, error_model="numpy")
def _copy_out(r, g, a, b, j0, lane_set, mon_lane, trs, tr):
    """The staged trace of block positions ``a .. b - 1`` into the outputs: statistics and detections
    (none: a pass with an alarm is written by the general path, its staged statistic is NaN) of the
    group's settings, and the monitored estimates output from its lanes."""
    W = LANES
    for k in range(lane_set.shape[0]):
        q = lane_set[k]
        if q < 0:
            continue
        for jj in range(a, b):
            st = trs[0][jj * W + k]
            if st == st:
                tr[0][r, q, j0 + jj] = st
                tr[1][r, q, j0 + jj] = False
    for i in range(mon_lane.shape[0]):
        if mon_lane[i] // W == g:
            k = mon_lane[i] % W
            for jj in range(a, b):
                tr[2][r, i, j0 + jj] = trs[1][jj * W + k]


@numba.njit(cache=True, nogil=True, error_model="numpy")
def xlanes_row(r, xrow, h, m, xl, sets, flags, tests, rec, tr, form):
    """Every x-lane group of row ``r`` over the chunk (``xrow``: ``h`` carried inputs, then ``m`` new ones).

    ``xl = (wk (L, groups, LANE_ROWS * LANES), lane_set (groups, LANES) setting of each lane or -1,
    lane_win (groups, LANES) windows (0: none), mon_lane (E,) the lane ``g LANES + k`` whose estimate
    is output ``e``)``. Every setting's test is its private slot ``q`` (no groups).
    """
    wks, lane_set, lane_win, mon_lane = xl
    W = LANES
    block = BLOCK
    lag = np.zeros((wks.shape[1], block * W))  # per group: the columns of lanes without a window stay 0
    vbuf = np.empty(block)
    trs = (np.empty(block * W), np.empty(block * W))
    run = Run(sets, flags, tests, rec, form)
    for j0 in range(0, m, block):
        nb = min(block, m - j0)
        for g in range(wks.shape[1]):
            _xlanes_block(
                r, g, xrow, h, j0, nb, wks[r, g], (lane_set[g], lane_win[g], mon_lane), lag[g], vbuf, trs, run, tr
            )


@numba.njit(cache=True, error_model="numpy")
def rawlanes_block(r, qs, v_row, j0, nb, wk, sets, flags, tests, rec, form):
    """Settings ``qs`` (at most :data:`LANES`, private tests on the finite monitored values ``v_row``)
    over block ``j0`` (``nb`` values) on the lanes; passes with an alarm, and the block's last
    ``nb % PASS_STEPS`` steps, on the general path (untraced)."""
    W = LANES
    delta, lam, fade, min_count, gstart = sets[1], sets[2], sets[3], sets[4], sets[5]
    ph = tests[0]
    G = gstart.shape[0] - 1
    side = 0 if form[1] is not None else 1
    nq = qs.shape[0]
    for k in range(W):
        if k < nq:
            q = qs[k]
            _from_test(wk, W, k, ph[r, G + q], side)
            wk[R_DELTA * W + k] = delta[q]
            wk[R_FADE * W + k] = fade[q]
            wk[R_LAM * W + k] = lam[q]
            wk[R_MINC * W + k] = min_count[q]
        else:  # padding: never alarms
            wk[R_PN * W + k] = 0.0
            wk[R_ACC * W + k] = 0.0
            wk[R_M * W + k] = 0.0
            wk[R_MIN * W + k] = np.inf
            wk[R_DELTA * W + k] = 0.0
            wk[R_FADE * W + k] = 1.0
            wk[R_LAM * W + k] = np.inf
            wk[R_MINC * W + k] = np.inf
    c = 0
    while True:
        c += _passes(v_row[c:], wk, nb - c, wk, form, None, None, (wk, wk))
        if c + PASS_STEPS > nb:
            break
        for k in range(nq):  # the pass with an alarm: its lanes on the general path
            if wk[R_HITS * W + k] != 0.0:
                row = ph[r, G + qs[k]]
                _to_test(wk, W, k, row, side)
                test_steps(r, G + qs[k], v_row, c, c + PASS_STEPS, j0, sets, flags, tests, rec, None, form)
                _from_test(wk, W, k, row, side)
        c += PASS_STEPS
    for k in range(nq):
        _to_test(wk, W, k, ph[r, G + qs[k]], side)
        if c < nb:
            test_steps(r, G + qs[k], v_row, c, nb, j0, sets, flags, tests, rec, None, form)
