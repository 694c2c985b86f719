"""numba kernel: a grid of DDM settings in one pass, their states side by side as SIMD lanes.

:func:`streamtk._kernels.detectors.ddm_grid` shares one state among the settings
that have not drifted yet; once drifts have separated them, each setting runs its
own scalar chain ``p <- p + (x - p) / c``, whose division makes a step cost its
latency (about 8 ns), so ``P`` separated settings cost ``P`` times one.

Here every distinct *state* is a lane: settings with the same ``min_instances`` and
``drift_level`` drift at the same inputs and restart together, so they share one
lane for good (the warning level only labels steps, it never changes the state).
A step of all lanes is one loop over the lane index with no branches, which LLVM
compiles to SIMD instructions; a drift only raises a counter, and the drifted
lanes are restarted one by one outside the vector loop. Without that, the restart
would be a select inside the loop and every step would wait for the previous
step's square root (measured: 26 instead of 11 ns per step for eight lanes).

The operations of a lane are those of :func:`streamtk._kernels.detectors.ddm_step_scalar`
(MOA's ``DDM.java``) in the same order, and the flags of each setting come from
the same :func:`streamtk._kernels.detectors._ddm_flags`, so statistics, thresholds,
flags and detections are bit for bit those of the scalar kernel (tested).

Layout (as in :mod:`streamtk._kernels.detectors_ph`): the state and parameters of a
group of :data:`LANES` lanes live in one flat work array with rows of ``LANES``
values, so the lane loop reads and writes at fixed distances from one pointer.
"""

from __future__ import annotations

import numba
import numpy as np

from .detections import record_alarm
from .detectors import _ddm_flags, _ddm_update

__all__ = ["LANES", "ddm_lanes"]

LANES = 8  # lanes per group: one AVX-512 vector of doubles

# rows of the work array (each LANES wide)
_R_C = 0
_R_P = 1
_R_S = 2
_R_PSMIN = 3
_R_PMIN = 4
_R_SMIN = 5
_R_PS = 6
_R_HIT = 7
_R_MIN_N = 8
_R_DRIFT = 9
_ROWS = 10


@numba.njit(cache=True, nogil=True, error_model="numpy")
def ddm_lanes(x, count0, lane_min_n, lane_drift, lane_state, set_start, set_members, min_n, warn_level,
              drift_level, trace, stat_out, thr_out, wthr_out, warn_out, det_out, det_idx, det_n):  # fmt: skip
    """Run every lane over every row of ``x`` (``(L, m)``, values 0/1; releases the GIL).

    Parameters
    ----------
    x : (L, m) float64
    count0 : int64
        Absolute index of the chunk's first input.
    lane_min_n, lane_drift : (Q,) float64, ``Q`` a multiple of :data:`LANES`
        Each lane's ``min_instances`` and drift level (padding lanes: drift level
        ``inf``, they never drift and have no settings).
    lane_state : (L, 6, Q) float64
        MOA's ``(c, p, s, psmin, pmin, smin)`` of every lane, updated in place
        (carried across chunks).
    set_start, set_members : int64
        The settings of lane ``g`` are ``set_members[set_start[g]:set_start[g + 1]]``.
    min_n, warn_level, drift_level : (P,) float64
        The settings' parameters (indexed by setting).
    trace : bool
        Write the per-step outputs ``(L, P, m)`` (otherwise they may be empty).
    det_idx : (L, P, cap) int64; det_n : (L, P) int64, zero on entry
        Absolute 0-based drift indices (the first ``cap``) and their count.
    """
    n_rows, m = x.shape
    n_lanes = lane_min_n.shape[0]
    n_groups = n_lanes // LANES
    nl = n_lanes // n_groups if n_groups else 0  # LANES, but not a compile-time constant (see detectors_ph)
    wk = np.empty(_ROWS * LANES)
    for r in range(n_rows):
        for g in range(n_groups):
            _group(x[r], count0, lane_min_n, lane_drift, lane_state[r], set_start, set_members, min_n,
                   warn_level, drift_level, trace, stat_out, thr_out, wthr_out, warn_out, det_out, det_idx,
                   det_n, r, g * nl, nl, m, wk)  # fmt: skip


@numba.njit(cache=True, error_model="numpy")
def _group(xrow, count0, lane_min_n, lane_drift, st, set_start, set_members, min_n, warn_level, drift_level,
           trace, stat_out, thr_out, wthr_out, warn_out, det_out, det_idx, det_n, r, q0, nl, m, wk):  # fmt: skip
    """Lanes ``q0 .. q0 + nl - 1`` of row ``r`` over the chunk."""
    for k in range(nl):
        q = q0 + k
        for i in range(6):
            wk[i * LANES + k] = st[i, q]
        wk[_R_MIN_N * LANES + k] = lane_min_n[q]
        wk[_R_DRIFT * LANES + k] = lane_drift[q]
    for j in range(m):
        xt = xrow[j]
        hits = 0
        for k in range(nl):
            # the scalar kernel's update and drift test (the restart after a drift is left to the loop below)
            mn = wk[_R_MIN_N * LANES + k]
            dl = wk[_R_DRIFT * LANES + k]
            c, p, s, psmin, pmin, smin, ps = _ddm_update(
                wk[_R_C * LANES + k],
                wk[_R_P * LANES + k],
                wk[_R_S * LANES + k],
                wk[_R_PSMIN * LANES + k],
                wk[_R_PMIN * LANES + k],
                wk[_R_SMIN * LANES + k],
                xt,
                mn,
            )
            drift = _ddm_flags(c, ps, pmin, smin, mn, dl, dl)[3]
            wk[_R_C * LANES + k] = c
            wk[_R_P * LANES + k] = p
            wk[_R_S * LANES + k] = s
            wk[_R_PSMIN * LANES + k] = psmin
            wk[_R_PMIN * LANES + k] = pmin
            wk[_R_SMIN * LANES + k] = smin
            wk[_R_PS * LANES + k] = ps
            wk[_R_HIT * LANES + k] = 1.0 if drift else 0.0
            hits += np.int64(drift)  # an integer count: a float sum would keep LLVM from vectorising
        if trace:
            for k in range(nl):
                q = q0 + k
                c = wk[_R_C * LANES + k]
                ps = wk[_R_PS * LANES + k]
                pmin = wk[_R_PMIN * LANES + k]
                smin = wk[_R_SMIN * LANES + k]
                for i in range(set_start[q], set_start[q + 1]):
                    u = set_members[i]
                    thr_d, thr_w, warn, drift = _ddm_flags(c, ps, pmin, smin, min_n[u], warn_level[u],
                                                           drift_level[u])  # fmt: skip
                    stat_out[r, u, j] = ps
                    thr_out[r, u, j] = thr_d
                    wthr_out[r, u, j] = thr_w
                    warn_out[r, u, j] = warn
                    det_out[r, u, j] = drift
        if hits:
            for k in range(nl):
                if wk[_R_HIT * LANES + k] != 0.0:
                    q = q0 + k
                    for i in range(set_start[q], set_start[q + 1]):
                        u = set_members[i]
                        record_alarm(det_idx, det_n, r, u, count0 + j)
                    # MOA's resetLearning (ddm_reset), right after the drift
                    wk[_R_C * LANES + k] = 1.0
                    wk[_R_P * LANES + k] = 1.0
                    wk[_R_S * LANES + k] = 0.0
                    wk[_R_PSMIN * LANES + k] = np.inf
                    wk[_R_PMIN * LANES + k] = np.inf
                    wk[_R_SMIN * LANES + k] = np.inf
    for k in range(nl):
        q = q0 + k
        for i in range(6):
            st[i, q] = wk[i * LANES + k]
