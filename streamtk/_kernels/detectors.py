"""numba kernels for change detectors run over recorded scalar streams.

Every detector is written as a per-step *step function* on an explicit state row
(so other kernels can fuse it into their own pass and a stream can be processed
chunk by chunk with results identical to one pass) plus a loop kernel that runs
a grid of ``P`` settings over ``L`` independent rows in one read of the data.
The loop kernels release the GIL: the numpy layer runs blocks of rows on
threads (:func:`streamtk.drift._common.run_rows`), which compiles in half the
time of a ``numba.prange`` kernel.

Detections are written as absolute 0-based instance indices into a buffer of
``cap`` slots per (row, setting); the count is always exact, so the caller can
detect an overflow (``count > cap``) and rerun the chunk with a larger buffer.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .detections import record_alarm
from .detectors_ph import (
    PASS_STEPS,
    SHARED_HITS_ROW,
    SHARED_LANES,
    SHARED_ROWS,
    shared_lanes_load,
    shared_lanes_run,
    shared_lanes_store,
)
from .scalar_estimators import (
    cumulative_mean_step,
    fading_mean_step,
    fading_ratio_step,
    window_mean_step,
    window_ratio_step,
)

__all__ = [
    "EST_RAW",
    "EST_PREQUENTIAL",
    "EST_WINDOW",
    "EST_FADING",
    "EST_FADING_RATIO",
    "EST_WINDOW_RATIO",
    "PH_STATE_SIZE",
    "DDM_STATE_SIZE",
    "EDDM_STATE_SIZE",
    "EST_STATE_SIZE",
    "ph_reset",
    "ph_step",
    "ph_step_scalar",
    "page_hinkley_grid",
    "page_hinkley_grid_shared_lanes",
    "ddm_reset",
    "ddm_step",
    "ddm_step_scalar",
    "ddm_grid",
    "eddm_reset",
    "eddm_step",
    "eddm_step_scalar",
    "eddm_grid",
]

# monitored quantity ("estimator") codes
EST_RAW = 0
EST_PREQUENTIAL = 1
EST_WINDOW = 2
EST_FADING = 3
EST_FADING_RATIO = 4
EST_WINDOW_RATIO = 5
EST_STATE_SIZE = 4

PH_STATE_SIZE = 6  # count, sum-or-mean, m_up, min_up, m_down, min_down
DDM_STATE_SIZE = 6  # moa counter, p, s, psmin, pmin, smin
_BLOCK = 512  # steps per block in the grid kernels
# Settings with states of their own that test the same values run on SIMD lanes from this many on: one
# pass of the lanes costs about 4.1 ns per step (single core, AMD EPYC Zen 4), one setting on its own 2.
MIN_SHARED_LANES = 3
EDDM_STATE_SIZE = 9  # moa counter, errors, d, lastd, mean, stdtemp, m2smax, warning, m2s


# --------------------------------------------------------------------------------------
# monitored quantity
# --------------------------------------------------------------------------------------
# --------------------------------------------------------------------------------------
# Page-Hinkley
# --------------------------------------------------------------------------------------
@numba.njit(cache=True, inline="always")
def ph_reset(st):
    """Page-Hinkley state after a (re)start: no input, cumulative sums 0, minima +inf."""
    st[0] = 0.0
    st[1] = 0.0
    st[2] = 0.0
    st[3] = np.inf
    st[4] = 0.0
    st[5] = np.inf


@numba.njit(cache=True, inline="always")
def _ph_load(st):
    """A Page-Hinkley state row as six scalars (held in registers by the loops)."""
    return st[0], st[1], st[2], st[3], st[4], st[5]


@numba.njit(cache=True, inline="always")
def _ph_store(st, s0, s1, s2, s3, s4, s5):
    """Six scalars back into a Page-Hinkley state row (the inverse of :func:`_ph_load`)."""
    st[0] = s0
    st[1] = s1
    st[2] = s2
    st[3] = s3
    st[4] = s4
    st[5] = s5


@numba.njit(cache=True, inline="always", error_model="numpy")
def ph_step_scalar(n, acc, m_up, min_up, m_dn, min_dn, x, delta, alpha, moa, direction):
    """One Page-Hinkley step on scalar state; returns the new state and the statistic.

    State: ``n`` inputs since the (re)start; ``acc`` the running sum (Gama et
    al. 2013: mean ``= acc / n``) or, in MOA's form (``moa`` true), the mean
    itself (``mean += (x - mean) / n``); the cumulative variables ``m`` and their
    minima for an increase and a decrease.

    Gama et al. 2013 (``seeds/004_*.txt`` section 5.1; ``alpha = 1``):
    ``m = m + (x - mean - delta)``, ``M = min(M, m)``, statistic ``PH_T = m - M``.
    MOA's released ``PageHinkleyDM`` (``moa`` true): ``m = alpha m + (x - mean -
    delta)`` and the statistic is ``m`` itself (no minimum; the minima stay as
    they are). ``direction`` 0 tests an increase, 1 a decrease (the same test on
    ``-x``), 2 both (the larger statistic).

    The SIMD lane kernels run these operations in the same order through
    :mod:`streamtk._kernels.ph_step`, whose module docstring says why the scalar
    loop keeps this branchy form (tests hold the two to each other bit for bit).
    """
    n = n + 1.0
    if moa:
        acc = acc + (x - acc) / n
        mean = acc
    else:
        acc = acc + x
        mean = acc / n
    stat = -np.inf
    if direction != 1:
        m_up = alpha * m_up + (x - mean - delta)
        if moa:
            stat = m_up
        else:
            if m_up <= min_up:
                min_up = m_up
            stat = m_up - min_up
    if direction != 0:
        m_dn = alpha * m_dn + (mean - x - delta)
        if moa:
            s2 = m_dn
        else:
            if m_dn <= min_dn:
                min_dn = m_dn
            s2 = m_dn - min_dn
        if s2 > stat:
            stat = s2
    return n, acc, m_up, min_up, m_dn, min_dn, stat


@numba.njit(cache=True, inline="always", error_model="numpy")
def ph_step(st, x, delta, alpha, moa, direction):
    """:func:`ph_step_scalar` on a state row ``st`` (6 values), updated in place; returns the statistic."""
    st[0], st[1], st[2], st[3], st[4], st[5], stat = ph_step_scalar(
        st[0], st[1], st[2], st[3], st[4], st[5], x, delta, alpha, moa, direction
    )
    return stat


@numba.njit(cache=True, error_model="numpy")
def _estimate_block(kind, st, xrow, h, count0, j0, nb, w1, w2, a1, a2, out):
    """Update one estimator over the ``nb`` inputs starting at chunk position ``j0``;
    write its values into ``out[:nb]``. The state is kept in locals within the block."""
    s0 = st[0]
    s1 = st[1]
    s2 = st[2]
    s3 = st[3]
    if kind == EST_RAW:
        for jj in range(nb):
            out[jj] = xrow[h + j0 + jj]
    elif kind == EST_PREQUENTIAL:
        for jj in range(nb):
            s0, s1, out[jj] = cumulative_mean_step(s0, s1, xrow[h + j0 + jj])
    elif kind == EST_WINDOW:
        for jj in range(nb):
            t = h + j0 + jj
            x_old = xrow[t - w1] if count0 + j0 + jj >= w1 else 0.0
            s0, s1, out[jj] = window_mean_step(s0, s1, xrow[t], x_old, w1)
    elif kind == EST_FADING:
        for jj in range(nb):
            s0, s1, out[jj] = fading_mean_step(s0, s1, xrow[h + j0 + jj], a1)
    elif kind == EST_FADING_RATIO:
        for jj in range(nb):
            s0, s1, s2, s3, out[jj] = fading_ratio_step(s0, s1, s2, s3, xrow[h + j0 + jj], a1, a2)
    else:
        for jj in range(nb):
            t = h + j0 + jj
            a = count0 + j0 + jj
            x_old1 = xrow[t - w1] if a >= w1 else 0.0
            x_old2 = xrow[t - w2] if a >= w2 else 0.0
            s0, s1, s2, out[jj] = window_ratio_step(s0, s1, s2, xrow[t], x_old1, x_old2, w1, w2)
    st[0] = s0
    st[1] = s1
    st[2] = s2
    st[3] = s3


@numba.njit(cache=True, inline="always")
def _first_in_sync(in_sync, r, gmembers, g0, g1):
    """The first setting of group ``gmembers[g0:g1]`` still in sync with the group's shared test (-1: none)."""
    for k in range(g0, g1):
        if in_sync[r, gmembers[k]]:
            return gmembers[k]
    return -1


@numba.njit(cache=True, inline="always")
def _lowest_in_sync(level, in_sync, r, gmembers, g0, g1):
    """The lowest alarm level ``level[q]`` among the group's settings in sync (inf: none); a step of the
    shared test whose statistic stays at or below it alarms none of them, so they are not visited."""
    lowest = np.inf
    for k in range(g0, g1):
        q = gmembers[k]
        if in_sync[r, q] and level[q] < lowest:
            lowest = level[q]
    return lowest


@numba.njit(cache=True, error_model="numpy")
def _ph_private(r, q, v_row, j_from, nb, j0, count0, delta, lam, alpha, min_count, moa, direction,
                reset, ph_state, trace, stat_out, det_out, det_idx, det_n):  # fmt: skip
    """Setting ``q`` with its own state over block positions ``j_from .. nb - 1``."""
    s0, s1, s2, s3, s4, s5 = _ph_load(ph_state[r, q])
    d = delta[q]
    lm = lam[q]
    al = alpha[q]
    mc = min_count[q]
    inc = moa
    dr = direction
    for jj in range(j_from, nb):
        v = v_row[jj]
        if not math.isfinite(v):
            if trace:
                stat_out[r, q, j0 + jj] = np.nan
                det_out[r, q, j0 + jj] = False
            continue
        s0, s1, s2, s3, s4, s5, stat = ph_step_scalar(s0, s1, s2, s3, s4, s5, v, d, al, inc, dr)
        det = stat > lm and s0 >= mc
        if trace:
            stat_out[r, q, j0 + jj] = stat
            det_out[r, q, j0 + jj] = det
        if det:
            record_alarm(det_idx, det_n, r, q, count0 + j0 + jj)
            if reset:
                s0 = 0.0
                s1 = 0.0
                s2 = 0.0
                s3 = np.inf
                s4 = 0.0
                s5 = np.inf
    _ph_store(ph_state[r, q], s0, s1, s2, s3, s4, s5)


@numba.njit(cache=True, error_model="numpy")
def _ph_shared_lanes(r, qs, k0, nq, v_row, nb, j0, count0, delta, lam, alpha, min_count, moa, direction, reset,
                     ph_state, trace, stat_out, det_out, det_idx, det_n, wk, nl):  # fmt: skip
    """Settings ``qs[k0:k0 + nq]``, each with its own state and all testing ``v_row``, over the
    block on the lanes of :func:`streamtk._kernels.detectors_ph.shared_lanes_run`. A pass in
    which a lane alarms runs for that lane on :func:`_ph_private`, as does the whole block for
    every lane if it has a non-finite value. Same operations, same results. The lanes write no
    per-step output, so ``trace`` is false here (passed on rather than written as a literal,
    which would compile :func:`_ph_private` a second time)."""
    finite = True
    for jj in range(nb):
        if not math.isfinite(v_row[jj]):
            finite = False
            break
    c = np.int64(0) if finite else np.int64(nb)
    side = 1 if direction == 1 else 0
    shared_lanes_load(wk, ph_state, r, qs, k0, nq, side, delta, lam, alpha, min_count)
    while c < nb:
        c = shared_lanes_run(v_row, c, nb, nl, wk, moa, direction == 0)
        if c >= nb:
            break
        last = c + PASS_STEPS > nb  # the block's last steps: every lane, on the scalar kernel
        ce = nb if last else c + PASS_STEPS
        shared_lanes_store(wk, ph_state, r, qs, k0, nq, side)
        for k in range(nq):
            if last or wk[SHARED_HITS_ROW * SHARED_LANES + k] != 0.0:
                _ph_private(r, qs[k0 + k], v_row, c, ce, j0, count0, delta, lam, alpha, min_count, moa, direction,
                            reset, ph_state, trace, stat_out, det_out, det_idx, det_n)  # fmt: skip
        shared_lanes_load(wk, ph_state, r, qs, k0, nq, side, delta, lam, alpha, min_count)
        c = ce
    shared_lanes_store(wk, ph_state, r, qs, k0, nq, side)
    if not finite:
        for k in range(nq):
            _ph_private(r, qs[k0 + k], v_row, c - nb, nb, j0, count0, delta, lam, alpha, min_count, moa, direction,
                        reset, ph_state, trace, stat_out, det_out, det_idx, det_n)  # fmt: skip


def _page_hinkley_grid_kernel(shared_lanes):
    """The grid kernel, compiled with or without the SIMD lanes for separated settings.

    ``shared_lanes`` is a closure constant, so the kernel built with ``False`` does not
    compile the lane code (2.4-2.7 s of a cold compile); the numpy layer takes that one
    unless the grid can have at least ``MIN_SHARED_LANES`` separated settings (a group of
    as many thresholds, restarts, no per-step trace, one side).
    """

    @numba.njit(cache=True, nogil=True, error_model="numpy")
    def page_hinkley_grid(
        xx, h, count0,
        ekind, ewin1, ewin2, ealpha1, ealpha2, est_state,
        sest, delta, lam, alpha, min_count, moa, direction, reset,
        gstart, gmembers, ph_state, in_sync,
        trace, mon_out, stat_out, det_out, det_idx, det_n,
    ):  # fmt: skip
        """Run ``P`` Page-Hinkley settings over ``E`` monitored quantities of every row.

        Parameters
        ----------
        xx : (L, h + m) float64
            The carried tail (``h`` inputs of the previous chunk) followed by the ``m``
            inputs of this chunk.
        count0 : int
            Absolute index of the chunk's first input.
        ekind, ewin1, ewin2, ealpha1, ealpha2 : (E,)
            Monitored quantities: code, long/short windows, long/short fading factors.
        est_state : (L, E, 4) float64, updated in place.
        sest : (P,) int64
            Which monitored quantity each setting tests.
        delta, lam, alpha : (P,) float64; min_count : (P,) int64
            A detection needs statistic ``> lam`` and at least ``min_count`` inputs since
            the (re)start.
        moa, reset : bool; direction : int
            Shared by all settings (MOA's released form: incremental mean and
            statistic ``m`` without a minimum, see :func:`ph_step_scalar`; restart
            after an alarm; 0 increase, 1 decrease, 2 both).
        gstart, gmembers : (G + 1,), (P,) int64
            Groups of settings with the same test state (same ``sest``, ``delta``,
            ``alpha``; they differ only in ``lam`` / ``min_count``): members of
            group ``g`` are ``gmembers[gstart[g]:gstart[g + 1]]``.
        ph_state : (L, P, 6) float64; in_sync : (L, P) bool
            Per-setting state, updated in place. A setting *in sync* has exactly the
            state of its group's shared test (no restart yet), which is computed once
            for all of them; a restart after an alarm gives it its own state.
        trace : bool
            Write per-step ``stat_out`` (L, P, m) and ``det_out`` (L, P, m), and
            ``mon_out`` (L, E, m) unless it is empty (the raw input needs no copy);
            otherwise those may be empty.
        det_idx : (L, P, cap) int64; det_n : (L, P) int64, zero on entry.

        The stream is processed in blocks of ``_BLOCK`` steps: every monitored
        quantity is computed for the block once, then each group's shared test and
        each diverged setting run over the block with their state in registers (in
        the build with shared lanes, ``MIN_SHARED_LANES`` or more diverged settings
        of a group run side by side on SIMD lanes, :func:`_ph_shared_lanes`). A
        step whose monitored value is not finite (an undefined ratio ``0 / 0``)
        leaves the test's state unchanged, reports ``NaN`` and cannot alarm.
        """
        n_rows = xx.shape[0]
        m = xx.shape[1] - h
        n_est = ekind.shape[0]
        n_set = sest.shape[0]
        n_grp = gstart.shape[0] - 1
        for r in range(n_rows):
            xrow = xx[r]
            vals = np.empty((n_est, _BLOCK))
            start = np.zeros(n_set, np.int64)
            qs = np.empty(n_set, np.int64)
            wk = np.zeros(SHARED_ROWS * SHARED_LANES)
            nl = wk.shape[0] // SHARED_ROWS  # SHARED_LANES, not a compile-time constant
            for j0 in range(0, m, _BLOCK):
                nb = min(_BLOCK, m - j0)
                for e in range(n_est):
                    _estimate_block(ekind[e], est_state[r, e], xrow, h, count0, j0, nb,
                                    ewin1[e], ewin2[e], ealpha1[e], ealpha2[e], vals[e])  # fmt: skip
                    if trace and mon_out.shape[0] > 0:
                        for jj in range(nb):
                            mon_out[r, e, j0 + jj] = vals[e, jj]
                for g in range(n_grp):
                    g0 = gstart[g]
                    g1 = gstart[g + 1]
                    lead = _first_in_sync(in_sync, r, gmembers, g0, g1)
                    if lead >= 0:
                        v_row = vals[sest[lead]]
                        s0, s1, s2, s3, s4, s5 = _ph_load(ph_state[r, lead])
                        d = delta[lead]
                        al = alpha[lead]
                        lam_min = _lowest_in_sync(lam, in_sync, r, gmembers, g0, g1)
                        for jj in range(nb):
                            v = v_row[jj]
                            ok = math.isfinite(v)
                            stat = np.nan
                            if ok:
                                s0, s1, s2, s3, s4, s5, stat = ph_step_scalar(s0, s1, s2, s3, s4, s5, v, d, al,
                                                                              moa, direction)  # fmt: skip
                            hit = ok and stat > lam_min
                            if not (trace or hit):
                                continue
                            for k in range(g0, g1):
                                q = gmembers[k]
                                if not in_sync[r, q]:
                                    continue
                                det = ok and stat > lam[q] and s0 >= min_count[q]
                                if trace:
                                    stat_out[r, q, j0 + jj] = stat
                                    det_out[r, q, j0 + jj] = det
                                if det:
                                    record_alarm(det_idx, det_n, r, q, count0 + j0 + jj)
                                    if reset:
                                        # this setting restarts: from the next step on it has its own state
                                        in_sync[r, q] = False
                                        start[q] = jj + 1
                                        ph_reset(ph_state[r, q])
                            if hit and reset:
                                lam_min = _lowest_in_sync(lam, in_sync, r, gmembers, g0, g1)
                        for k in range(g0, g1):
                            q = gmembers[k]
                            if in_sync[r, q]:
                                _ph_store(ph_state[r, q], s0, s1, s2, s3, s4, s5)
                    # settings with states of their own over the whole block: on SIMD lanes when there are enough
                    nq = 0
                    if shared_lanes:  # a closure constant: numba drops this branch from the other kernel
                        if direction != 2 and not trace:
                            for k in range(g0, g1):
                                q = gmembers[k]
                                if not in_sync[r, q] and start[q] == 0:
                                    qs[nq] = q
                                    nq += 1
                        if nq < MIN_SHARED_LANES:
                            nq = 0
                        for k0 in range(0, nq, SHARED_LANES):
                            _ph_shared_lanes(r, qs, k0, min(SHARED_LANES, nq - k0), vals[sest[qs[k0]]], nb, j0,
                                             count0, delta, lam, alpha, min_count, moa, direction, reset, ph_state,
                                             trace, stat_out, det_out, det_idx, det_n, wk, nl)  # fmt: skip
                    for k in range(nq):
                        start[qs[k]] = -1  # done for this block
                    for k in range(g0, g1):
                        q = gmembers[k]
                        if in_sync[r, q] or start[q] < 0:
                            start[q] = 0
                            continue
                        _ph_private(r, q, vals[sest[q]], start[q], nb, j0, count0, delta, lam, alpha, min_count,
                                    moa, direction, reset, ph_state, trace, stat_out, det_out, det_idx,
                                    det_n)  # fmt: skip
                        start[q] = 0

    return page_hinkley_grid


page_hinkley_grid = _page_hinkley_grid_kernel(False)
page_hinkley_grid_shared_lanes = _page_hinkley_grid_kernel(True)


# --------------------------------------------------------------------------------------
# DDM (Gama et al. 2004) in MOA's order of operations
# --------------------------------------------------------------------------------------
@numba.njit(cache=True, inline="always")
def ddm_reset(st):
    """MOA ``DDM.resetLearning``: counter 1, p = 1, s = 0, minima +inf."""
    st[0] = 1.0
    st[1] = 1.0
    st[2] = 0.0
    st[3] = np.inf
    st[4] = np.inf
    st[5] = np.inf


@numba.njit(cache=True, inline="always", error_model="numpy")
def ddm_step_scalar(c, p, s, psmin, pmin, smin, x, min_n, warn_level, drift_level):
    """One DDM step on scalar state ``(c, p, s, psmin, pmin, smin)``.

    ``p += (x - p) / c``, ``s = sqrt(p (1 - p) / c)``, ``c += 1`` (``c`` is MOA's
    counter, 1 after a reset); nothing more while ``c < min_n``; then store the
    minimum ``p + s``; drift when ``c > min_n`` and ``p + s > pmin + drift_level
    smin``, else warning when ``p + s > pmin + warn_level smin``. Thresholds are
    NaN until a minimum has been stored. The caller resets after a drift.

    Returns ``(c, p, s, psmin, pmin, smin, p + s, drift threshold, warning
    threshold, warning, drift)``.
    """
    c, p, s, psmin, pmin, smin, ps = _ddm_update(c, p, s, psmin, pmin, smin, x, min_n)
    thr_d, thr_w, warn, drift = _ddm_flags(c, ps, pmin, smin, min_n, warn_level, drift_level)
    return c, p, s, psmin, pmin, smin, ps, thr_d, thr_w, warn, drift


@numba.njit(cache=True, inline="always", error_model="numpy")
def _ddm_update(c, p, s, psmin, pmin, smin, x, min_n):
    """DDM state update (independent of the warning and drift levels)."""
    p = p + (x - p) / c
    s = math.sqrt(p * (1.0 - p) / c)
    c += 1.0
    ps = p + s
    if c >= min_n and ps <= psmin:
        pmin = p
        smin = s
        psmin = ps
    return c, p, s, psmin, pmin, smin, ps


@numba.njit(cache=True, inline="always", error_model="numpy")
def _ddm_flags(c, ps, pmin, smin, min_n, warn_level, drift_level):
    """DDM thresholds and flags after :func:`_ddm_update`."""
    warn = False
    drift = False
    if c >= min_n:
        if c > min_n and ps > pmin + drift_level * smin:
            drift = True
        elif ps > pmin + warn_level * smin:
            warn = True
    if pmin == np.inf:
        thr_d = np.nan
        thr_w = np.nan
    else:
        thr_d = pmin + drift_level * smin
        thr_w = pmin + warn_level * smin
    return thr_d, thr_w, warn, drift


@numba.njit(cache=True, inline="always", error_model="numpy")
def ddm_step(st, x, min_n, warn_level, drift_level):
    """:func:`ddm_step_scalar` on a state row ``st`` (updated in place).

    Returns ``(p + s, drift threshold, warning threshold, warning, drift)``.
    """
    st[0], st[1], st[2], st[3], st[4], st[5], ps, thr_d, thr_w, warn, drift = ddm_step_scalar(
        st[0], st[1], st[2], st[3], st[4], st[5], x, min_n, warn_level, drift_level
    )
    return ps, thr_d, thr_w, warn, drift


@numba.njit(cache=True, error_model="numpy")
def _ddm_private(r, q, xrow, j_from, nb, j0, count0, min_n, warn_level, drift_level, state, trace,
                 stat_out, thr_out, wthr_out, warn_out, det_out, det_idx, det_n):  # fmt: skip
    """Setting ``q`` with its own state over block positions ``j_from .. nb - 1``."""
    c, p, s = state[r, q, 0], state[r, q, 1], state[r, q, 2]
    psmin, pmin, smin = state[r, q, 3], state[r, q, 4], state[r, q, 5]
    mn = min_n[q]
    wl = warn_level[q]
    dl = drift_level[q]
    for jj in range(j_from, nb):
        j = j0 + jj
        c, p, s, psmin, pmin, smin, ps, thr_d, thr_w, warn, drift = ddm_step_scalar(
            c, p, s, psmin, pmin, smin, xrow[j], mn, wl, dl
        )
        if trace:
            stat_out[r, q, j] = ps
            thr_out[r, q, j] = thr_d
            wthr_out[r, q, j] = thr_w
            warn_out[r, q, j] = warn
            det_out[r, q, j] = drift
        if drift:
            record_alarm(det_idx, det_n, r, q, count0 + j)
            c, p, s, psmin, pmin, smin = 1.0, 1.0, 0.0, np.inf, np.inf, np.inf
    state[r, q, 0], state[r, q, 1], state[r, q, 2] = c, p, s
    state[r, q, 3], state[r, q, 4], state[r, q, 5] = psmin, pmin, smin


@numba.njit(cache=True, nogil=True, error_model="numpy")
def ddm_grid(x, count0, min_n, warn_level, drift_level, gstart, gmembers, state, in_sync, trace,
             stat_out, thr_out, wthr_out, warn_out, det_out, det_idx, det_n):  # fmt: skip
    """Run ``P`` DDM settings over every row of ``x`` (``(L, m)``, values 0/1).

    Settings with the same ``min_n`` (groups ``gmembers[gstart[g]:gstart[g+1]]``)
    have the same state until a drift restarts one of them, so the state of the
    settings still *in sync* (``in_sync``, carried across chunks) is computed
    once per group; only the levels are compared per setting. Blocks of
    ``_BLOCK`` steps with the state in registers. The detector restarts right
    after a drift (MOA restarts lazily at the next input, which is equivalent).
    """
    n_rows, m = x.shape
    n_set = min_n.shape[0]
    n_grp = gstart.shape[0] - 1
    for r in range(n_rows):
        xrow = x[r]
        start = np.zeros(n_set, np.int64)
        for j0 in range(0, m, _BLOCK):
            nb = min(_BLOCK, m - j0)
            for g in range(n_grp):
                g0 = gstart[g]
                g1 = gstart[g + 1]
                lead = _first_in_sync(in_sync, r, gmembers, g0, g1)
                if lead >= 0:
                    c, p, s = state[r, lead, 0], state[r, lead, 1], state[r, lead, 2]
                    psmin, pmin, smin = state[r, lead, 3], state[r, lead, 4], state[r, lead, 5]
                    mn = min_n[lead]
                    dl_min = _lowest_in_sync(drift_level, in_sync, r, gmembers, g0, g1)
                    for jj in range(nb):
                        j = j0 + jj
                        c, p, s, psmin, pmin, smin, ps = _ddm_update(c, p, s, psmin, pmin, smin, xrow[j], mn)
                        hit = c > mn and ps > pmin + dl_min * smin
                        if not (trace or hit):
                            continue
                        for k in range(g0, g1):
                            q = gmembers[k]
                            if not in_sync[r, q]:
                                continue
                            thr_d, thr_w, warn, drift = _ddm_flags(c, ps, pmin, smin, mn, warn_level[q],
                                                                   drift_level[q])  # fmt: skip
                            if trace:
                                stat_out[r, q, j] = ps
                                thr_out[r, q, j] = thr_d
                                wthr_out[r, q, j] = thr_w
                                warn_out[r, q, j] = warn
                                det_out[r, q, j] = drift
                            if drift:
                                record_alarm(det_idx, det_n, r, q, count0 + j)
                                # restart: from the next step on this setting has its own state
                                in_sync[r, q] = False
                                start[q] = jj + 1
                                state[r, q, 0], state[r, q, 1], state[r, q, 2] = 1.0, 1.0, 0.0
                                state[r, q, 3], state[r, q, 4], state[r, q, 5] = np.inf, np.inf, np.inf
                        if hit:
                            dl_min = _lowest_in_sync(drift_level, in_sync, r, gmembers, g0, g1)
                    for k in range(g0, g1):
                        q = gmembers[k]
                        if in_sync[r, q]:
                            state[r, q, 0], state[r, q, 1], state[r, q, 2] = c, p, s
                            state[r, q, 3], state[r, q, 4], state[r, q, 5] = psmin, pmin, smin
                for k in range(g0, g1):
                    q = gmembers[k]
                    if in_sync[r, q]:
                        continue
                    _ddm_private(r, q, xrow, start[q], nb, j0, count0, min_n, warn_level, drift_level, state,
                                 trace, stat_out, thr_out, wthr_out, warn_out, det_out, det_idx, det_n)  # fmt: skip
                    start[q] = 0


# --------------------------------------------------------------------------------------
# EDDM (Baena-Garcia et al. 2006) in MOA's order of operations
# --------------------------------------------------------------------------------------
@numba.njit(cache=True, inline="always")
def eddm_reset(st):
    """MOA ``EDDM.resetLearning``; the warning flag (``st[7]``) is left as it is."""
    st[0] = 1.0
    st[1] = 0.0
    st[2] = 0.0
    st[3] = 0.0
    st[4] = 0.0
    st[5] = 0.0
    st[6] = 0.0
    st[8] = np.nan


@numba.njit(cache=True, inline="always", error_model="numpy")
def eddm_step_scalar(c, ne, d, lastd, mean, stdt, m2smax, warn, m2s, x, min_n, min_errors, warn_level, drift_level):
    """One EDDM step on scalar state (MOA counter, errors, last two error positions,
    mean and Welford sum of the distances, ``m2smax``, warning flag, last ``m2s``).

    On an error (``x == 1``) the distance to the previous error updates the
    running mean and the population std, ``m2s = mean + 2 std``; ``m2smax`` takes
    ``m2s`` when it is larger and the counter exceeds ``min_n``; otherwise, with
    counter ``> min_n`` and more than ``min_errors`` errors, drift when
    ``m2s / m2smax < drift_level``, warning when ``< warn_level``. The warning
    flag persists over non-error steps (as in MOA). The statistic
    ``m2s / m2smax`` is NaN while ``m2smax`` is 0.

    Returns the 9 state values, then ``(statistic, drift)``.
    """
    c = c + 1.0
    drift = False
    if x == 1.0:
        warn = False
        ne = ne + 1.0
        lastd = d
        d = c - 1.0
        dist = d - lastd
        oldmean = mean
        mean = oldmean + (dist - oldmean) / ne
        stdt = stdt + (dist - mean) * (dist - oldmean)
        m2s = mean + 2.0 * math.sqrt(stdt / ne)
        if m2s > m2smax:
            if c > min_n:
                m2smax = m2s
        else:
            ratio = m2s / m2smax
            if c > min_n and ne > min_errors and ratio < drift_level:
                drift = True
            elif c > min_n and ne > min_errors and ratio < warn_level:
                warn = True
            else:
                warn = False
    stat = m2s / m2smax if m2smax > 0.0 else np.nan
    return c, ne, d, lastd, mean, stdt, m2smax, warn, m2s, stat, drift


@numba.njit(cache=True, inline="always", error_model="numpy")
def eddm_step(st, x, min_n, min_errors, warn_level, drift_level):
    """:func:`eddm_step_scalar` on a state row ``st`` (9 values, updated in place).

    Returns ``(m2s / m2smax, warning, drift)``.
    """
    c, ne, d, lastd, mean, stdt, m2smax, warn, m2s, stat, drift = eddm_step_scalar(
        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7] != 0.0, st[8], x,
        min_n, min_errors, warn_level, drift_level,
    )  # fmt: skip
    st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[8] = c, ne, d, lastd, mean, stdt, m2smax, m2s
    st[7] = 1.0 if warn else 0.0
    return stat, warn, drift


@numba.njit(cache=True, nogil=True, error_model="numpy")
def eddm_grid(x, count0, min_n, min_errors, warn_level, drift_level, state, trace,
              stat_out, warn_out, det_out, det_idx, det_n):  # fmt: skip
    """Run ``P`` EDDM settings over every row of ``x`` (``(L, m)``, values 0/1).

    Blocks of ``_BLOCK`` steps with each setting's state in registers; the
    detector restarts right after a drift (MOA: lazily at the next input).
    """
    n_rows, m = x.shape
    n_set = min_n.shape[0]
    for r in range(n_rows):
        for j0 in range(0, m, _BLOCK):
            nb = min(_BLOCK, m - j0)
            for q in range(n_set):
                c, ne, d, lastd = state[r, q, 0], state[r, q, 1], state[r, q, 2], state[r, q, 3]
                mean, stdt, m2smax = state[r, q, 4], state[r, q, 5], state[r, q, 6]
                warn = state[r, q, 7] != 0.0
                m2s = state[r, q, 8]
                mn = min_n[q]
                me = min_errors[q]
                wl = warn_level[q]
                dl = drift_level[q]
                for jj in range(nb):
                    j = j0 + jj
                    c, ne, d, lastd, mean, stdt, m2smax, warn, m2s, stat, drift = eddm_step_scalar(
                        c, ne, d, lastd, mean, stdt, m2smax, warn, m2s, x[r, j], mn, me, wl, dl
                    )
                    if trace:
                        stat_out[r, q, j] = stat
                        warn_out[r, q, j] = warn
                        det_out[r, q, j] = drift
                    if drift:
                        record_alarm(det_idx, det_n, r, q, count0 + j)
                        c, ne, d, lastd, mean, stdt, m2smax, m2s = 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, np.nan
                state[r, q, 0], state[r, q, 1], state[r, q, 2], state[r, q, 3] = c, ne, d, lastd
                state[r, q, 4], state[r, q, 5], state[r, q, 6] = mean, stdt, m2smax
                state[r, q, 7] = 1.0 if warn else 0.0
                state[r, q, 8] = m2s
