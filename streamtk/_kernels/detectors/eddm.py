"""EDDM (Baena-Garcia et al. 2006) in MOA's order of operations: step and driver.

MOA's ``EDDM.java``: on each error (``x == 1``) the distance (in inputs) to the previous error
updates a running mean and a population standard deviation (Welford), ``m2s = mean + 2 std``;
``m2smax`` takes ``m2s`` when it is larger and the counter exceeds ``min_n``; otherwise, with the
counter ``> min_n`` and more than ``min_errors`` errors, drift when ``m2s / m2smax < drift_level``,
warning when ``< warning_level``. The warning flag persists over correct predictions until the next
error (as in MOA). The detector restarts right after a drift (MOA: lazily at the next input).

Arguments (grouped): ``x (L, m)`` 0/1 values; ``sets = (min_n, min_errors, warn_level, drift_level)``
``(P,)``; ``state (L, P, 9)``: counter, errors, the last two error positions, mean and Welford sum of
the distances, ``m2smax``, warning flag, last ``m2s``; ``rec = (det_idx, det_n)``; ``tr = (statistic
m2s / m2smax (NaN while m2smax is 0), warning, detection)`` ``(L, P, m)`` or ``None``.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .alarms import record_alarm

__all__ = ["EDDM_STATE", "RESET", "eddm_step", "run"]

EDDM_STATE = 9
#: MOA's ``resetLearning`` (the warning flag, slot 7, is left as it is)
RESET = (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, np.nan)


@numba.njit(cache=True, inline="always", error_model="numpy")
def eddm_step(c, ne, d, lastd, mean, stdt, m2smax, warn, m2s, x, min_n, min_errors, warn_level, drift_level):
    """One input: the 9 state values, then ``(m2s / m2smax, drift)``."""
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


@numba.njit(cache=True, nogil=True, error_model="numpy")
def run(x, count0, sets, state, rec, tr):
    """Every EDDM setting of every row of ``x`` over the chunk, its state in registers; releases the GIL."""
    min_n, min_errors, warn_level, drift_level = sets
    n_rows, m = x.shape
    for r in range(n_rows):
        for q in range(min_n.shape[0]):
            st = state[r, q]
            c, ne, d, lastd, mean, stdt, m2smax, m2s = st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[8]
            warn = st[7] != 0.0
            mn, me, wl, dl = min_n[q], min_errors[q], warn_level[q], drift_level[q]
            for j in range(m):
                c, ne, d, lastd, mean, stdt, m2smax, warn, m2s, stat, drift = eddm_step(
                    c, ne, d, lastd, mean, stdt, m2smax, warn, m2s, x[r, j], mn, me, wl, dl
                )
                if tr is not None:
                    tr[0][r, q, j] = stat
                    tr[1][r, q, j] = warn
                    tr[2][r, q, j] = drift
                if drift:
                    record_alarm(rec, r, q, count0 + j)
                    c, ne, d, lastd, mean, stdt, m2smax, m2s = RESET
            st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[8] = c, ne, d, lastd, mean, stdt, m2smax, m2s
            st[7] = 1.0 if warn else 0.0
