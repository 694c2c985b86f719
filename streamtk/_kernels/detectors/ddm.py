"""DDM (Gama, Medas, Castillo & Rodrigues 2004) in MOA's order of operations: step and driver.

MOA's ``DDM.java``, per input ``x`` (1 = error), with the counter ``c`` (1 after a reset):
``p += (x - p) / c``, ``s = sqrt(p (1 - p) / c)``, ``c += 1``; nothing more while ``c < min_n``; if
``p + s <= psmin`` store ``pmin, smin, psmin``; drift when ``c > min_n`` and ``p + s > pmin + drift
smin``, else warning when ``p + s > pmin + warning smin``; after a drift the detector restarts (MOA
restarts lazily at the next input, which is equivalent). Thresholds are NaN until a minimum exists.

A *state* is what one ``(min_n, drift_level)`` pair evolves: settings that differ only in their
warning level share it for good (the warning level only labels steps). The driver runs each state
over the chunk (:func:`_state_steps`, the general path) or, given ``lanes``, the states side by side
as SIMD lanes (:func:`_lane_group`): a step of all lanes is one loop over the lane index with no
branches, and a drift only raises a counter, the drifted lanes restarting one by one outside the
vector loop (a select inside it would put the square root of every step on the chain). Both paths
use :func:`ddm_update` and :func:`ddm_flags`, so they agree bit for bit.

Arguments (grouped): ``x (L, m)`` 0/1 values; ``sets = (min_n (S,), drift_level (S,), sstart (S + 1,),
smembers (P,), warn_level (P,))`` (the settings of state ``s`` are ``smembers[sstart[s]:sstart[s +
1]]``); ``state (L, S, 6)``: ``(c, p, s, psmin, pmin, smin)`` carried across chunks; ``rec =
(det_idx, det_n)``; ``tr = (statistic, threshold, warning_threshold, warning, detection)`` ``(L, P, m)``
or ``None``; ``lanes`` ``None`` or a work array of ``LANES * LANE_ROWS`` values.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .alarms import record_alarm

__all__ = ["DDM_STATE", "LANES", "LANE_ROWS", "RESET", "ddm_update", "ddm_flags", "run"]

DDM_STATE = 6
#: MOA's ``resetLearning``: counter 1, p = 1, s = 0, minima +inf
RESET = (1.0, 1.0, 0.0, np.inf, np.inf, np.inf)
LANES = 8  # lanes per group: one AVX-512 vector of doubles

# rows of the lane work array (each LANES wide): the state, p + s, the drift flag, the state's parameters
_PS, _HIT, _MIN_N, _DRIFT = 6, 7, 8, 9
LANE_ROWS = 10


@numba.njit(cache=True, inline="always", error_model="numpy")
def ddm_update(c, p, s, psmin, pmin, smin, x, min_n):
    """The state after input ``x`` (independent of the levels) and ``p + s``."""
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
def ddm_flags(c, ps, pmin, smin, min_n, warn_level, drift_level):
    """``(drift threshold, warning threshold, warning, drift)`` after :func:`ddm_update`."""
    warn = False
    drift = False
    if c >= min_n:
        if c > min_n and ps > pmin + drift_level * smin:
            drift = True
        elif ps > pmin + warn_level * smin:
            warn = True
    if pmin == np.inf:
        return np.nan, np.nan, warn, drift
    return pmin + drift_level * smin, pmin + warn_level * smin, warn, drift


@numba.njit(cache=True, inline="always", error_model="numpy")
def _trace_members(r, j, s, c, ps, pmin, smin, sets, tr):
    min_n, drift_level, sstart, smembers, warn_level = sets
    for i in range(sstart[s], sstart[s + 1]):
        q = smembers[i]
        thr_d, thr_w, warn, drift = ddm_flags(c, ps, pmin, smin, min_n[s], warn_level[q], drift_level[s])
        tr[0][r, q, j] = ps
        tr[1][r, q, j] = thr_d
        tr[2][r, q, j] = thr_w
        tr[3][r, q, j] = warn
        tr[4][r, q, j] = drift


@numba.njit(cache=True, inline="always")
def _record_members(r, s, index, sets, rec):
    sstart, smembers = sets[2], sets[3]
    for i in range(sstart[s], sstart[s + 1]):
        record_alarm(rec, r, smembers[i], index)


@numba.njit(cache=True, error_model="numpy", inline="always")
def _state_steps(r, s, xrow, count0, sets, st, rec, tr):
    """State ``s`` of row ``r`` over the chunk, with its state in registers (the general path)."""
    mn = sets[0][s]
    dl = sets[1][s]
    c, p, sd, psmin, pmin, smin = st[0], st[1], st[2], st[3], st[4], st[5]
    for j in range(xrow.shape[0]):
        c, p, sd, psmin, pmin, smin, ps = ddm_update(c, p, sd, psmin, pmin, smin, xrow[j], mn)
        drift = c > mn and ps > pmin + dl * smin
        if tr is not None:
            _trace_members(r, j, s, c, ps, pmin, smin, sets, tr)
        if drift:
            _record_members(r, s, count0 + j, sets, rec)
            c, p, sd, psmin, pmin, smin = RESET
    st[0], st[1], st[2], st[3], st[4], st[5] = c, p, sd, psmin, pmin, smin


@numba.njit(cache=True, error_model="numpy")
def _lane_group(r, s0, nl, xrow, count0, sets, state, rec, tr, wk):
    """States ``s0 .. s0 + nl - 1`` of row ``r`` over the chunk as SIMD lanes (the fast path)."""
    W = LANES
    for k in range(W):
        live = k < nl
        for i in range(DDM_STATE):
            wk[i * W + k] = state[r, s0 + k, i] if live else RESET[i]
        wk[_MIN_N * W + k] = sets[0][s0 + k] if live else 0.0
        wk[_DRIFT * W + k] = sets[1][s0 + k] if live else np.inf  # padding never drifts
    nw = wk.shape[0] // LANE_ROWS  # LANES, but not a compile-time constant: LLVM vectorises instead of unrolling
    for j in range(xrow.shape[0]):
        xt = xrow[j]
        hits = 0
        for k in range(nw):
            mn = wk[_MIN_N * W + k]
            c, p, sd, psmin, pmin, smin, ps = ddm_update(
                wk[0 * W + k], wk[1 * W + k], wk[2 * W + k], wk[3 * W + k], wk[4 * W + k], wk[5 * W + k], xt, mn
            )
            drift = c > mn and ps > pmin + wk[_DRIFT * W + k] * smin
            wk[0 * W + k] = c
            wk[1 * W + k] = p
            wk[2 * W + k] = sd
            wk[3 * W + k] = psmin
            wk[4 * W + k] = pmin
            wk[5 * W + k] = smin
            wk[_PS * W + k] = ps
            wk[_HIT * W + k] = 1.0 if drift else 0.0
            hits += np.int64(drift)  # an integer count: a float sum would keep LLVM from vectorising
        if tr is not None:
            for k in range(nl):
                _trace_members(r, j, s0 + k, wk[k], wk[_PS * W + k], wk[4 * W + k], wk[5 * W + k], sets, tr)
        if hits:
            for k in range(nl):
                if wk[_HIT * W + k] != 0.0:
                    _record_members(r, s0 + k, count0 + j, sets, rec)
                    for i in range(DDM_STATE):
                        wk[i * W + k] = RESET[i]
    for k in range(nl):
        for i in range(DDM_STATE):
            state[r, s0 + k, i] = wk[i * W + k]


@numba.njit(cache=True, nogil=True, error_model="numpy")
def run(x, count0, sets, state, rec, tr, lanes):
    """Every DDM state of every row of ``x`` over the chunk (module docstring); releases the GIL."""
    n_states = sets[0].shape[0]
    for r in range(x.shape[0]):
        if lanes is None:
            for s in range(n_states):
                _state_steps(r, s, x[r], count0, sets, state[r, s], rec, tr)
        else:
            for s0 in range(0, n_states, LANES):
                _lane_group(r, s0, min(LANES, n_states - s0), x[r], count0, sets, state, rec, tr, lanes)
