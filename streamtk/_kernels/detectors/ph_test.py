"""The Page-Hinkley test, one step and a run of steps of one test, written once for every path.

Gama, Sebastiao & Rodrigues (2013), seed 004, section 5.1, with ``n`` inputs since the (re)start:

    mean_T = (x_1 + ... + x_T) / T,   m_T = m_{T-1} + (x_T - mean_T - delta),
    PH_T = m_T - min_{t <= T} m_t,    alarm when PH_T > lambda.

MOA's released ``PageHinkleyDM`` (``moa`` true): the incremental mean ``mean += (x - mean) / n`` and the
faded sum ``m_T = f m_{T-1} + (x_T - mean_T - delta)`` (``f`` = ``sum_fading``, MOA's ``alpha``) is
itself the statistic (no minimum). A decrease is tested as the same test on ``-x`` (the deviation
``mean - x``); ``direction`` 0 tests an increase, 1 a decrease, 2 both (the larger statistic; a
restart restarts both sides).

The step is two pure functions of scalars that every caller inlines: :func:`ph_mean` and
:func:`ph_side`; the SIMD lanes (:mod:`.ph_lanes`) run the same functions, so every path gives the
same doubles. A *test* is a state row ``(n, acc, m_up, min_up, m_down, min_down)`` (``acc`` is the
running sum, or MOA's running mean). Settings that differ only in ``lambda`` / ``min_instances``
share one test (a *group* test, slot ``g``) until a restart after an alarm gives one of them a test
of its own (its *private* test, slot ``G + q``): :func:`test_steps` runs either kind.

Grouped arguments of :func:`test_steps`: ``sets = (sest, delta, lam, fade, min_count, gstart,
gmembers)`` (per setting: monitored row, delta, lambda, sum fading, the inputs needed since the
(re)start; groups: members of group ``g`` are ``gmembers[gstart[g]:gstart[g + 1]]``), ``flags =
(count0, reset)``, ``tests = (ph (L, G + P, 6), in_sync (L, P), start (P,))``,
``rec = (det_idx, det_n)`` (:mod:`.alarms`) and ``tr = (stat_out, det_out)`` per-step outputs or
``None`` (numba compiles the code that writes them only when they are given). The form of the
test is ``form = (moa, up, down)``, each ``True`` or ``None``: MOA's form or Gama's, the increase side,
the decrease side. Encoded in the argument *types*, they are compile-time constants (each form is
compiled when first used): tested at run time inside the loop they would cost three times the step.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .alarms import record_alarm

__all__ = ["PH_STATE", "ph_mean", "ph_side", "ph_step", "test_steps", "reset_row"]

#: a test's state: n, acc, m_up, min_up, m_down, min_down
PH_STATE = 6


@numba.njit(cache=True, inline="always", error_model="numpy")
def ph_mean(n, acc, x, moa):
    """Count and running mean after input ``x``: ``(n, acc, mean)``.

    ``acc`` is the running sum (``mean = acc / n``) or, in MOA's form (``moa`` not ``None``), the
    mean itself (``mean = acc + (x - acc) / n``).
    """
    n = n + 1.0
    if moa is None:
        acc = acc + x
        return n, acc, acc / n
    acc = acc + (x - acc) / n
    return n, acc, acc


@numba.njit(cache=True, inline="always", error_model="numpy")
def ph_side(m, m_min, dev, delta, fade, moa):
    """One side of the test on the deviation ``dev`` (``x - mean`` or ``mean - x``): ``(m, m_min, statistic)``.

    ``m = fade m + (dev - delta)``; the statistic is ``m - min m`` (Gama) or ``m`` (MOA, whose
    minimum is left as it is). Gama's form has no fading (``fade = 1``): its chain skips the product.
    """
    if moa is None:
        m = m + (dev - delta)
        m_min = m if m <= m_min else m_min
        return m, m_min, m - m_min
    m = fade * m + (dev - delta)
    return m, m_min, m


@numba.njit(cache=True, inline="always", error_model="numpy")
def ph_step(n, acc, m_up, min_up, m_dn, min_dn, x, delta, fade, form):
    """One input on a test in registers: the new state and the statistic (``form = (moa, up, down)``)."""
    moa, up, down = form
    n, acc, mean = ph_mean(n, acc, x, moa)
    stat = -np.inf
    if up is not None:
        m_up, min_up, stat = ph_side(m_up, min_up, x - mean, delta, fade, moa)
    if down is not None:
        m_dn, min_dn, s2 = ph_side(m_dn, min_dn, mean - x, delta, fade, moa)
        if s2 > stat:
            stat = s2
    return n, acc, m_up, min_up, m_dn, min_dn, stat


@numba.njit(cache=True, inline="always")
def reset_row(st):
    """A test's state after a (re)start: no input, sums 0, minima ``+inf``."""
    st[0] = 0.0
    st[1] = 0.0
    st[2] = 0.0
    st[3] = np.inf
    st[4] = 0.0
    st[5] = np.inf


@numba.njit(cache=True, inline="always")
def _lowest_lambda(r, s, G, sets, in_sync):
    """The lowest ``lambda`` of the settings attached to slot ``s``: a statistic at or below it alarms none."""
    lam, gstart, gmembers = sets[2], sets[5], sets[6]
    if s >= G:
        return lam[s - G]
    low = np.inf
    for k in range(gstart[s], gstart[s + 1]):
        q = gmembers[k]
        if in_sync[r, q] and lam[q] < low:
            low = lam[q]
    return low


@numba.njit(cache=True, error_model="numpy")
def test_steps(r, s, v_row, j_from, j_to, j0, sets, flags, tests, rec, tr, form):
    """Test slot ``s`` (group ``s < G`` or the private test of setting ``s - G``) of row ``r`` over
    block positions ``j_from .. j_to - 1`` of the monitored values ``v_row`` (block ``j0`` of the chunk).

    A non-finite value (an undefined ratio ``0 / 0``) leaves the state unchanged, reports ``NaN`` and
    cannot alarm. An alarm of setting ``q`` needs statistic ``> lambda[q]`` and at least
    ``min_count[q]`` inputs since the (re)start; with ``reset`` a group member then leaves its group
    (its private test starts at the next position, ``start[q]``) and a private test restarts.
    """
    sest, delta, lam, fade, min_count, gstart, gmembers = sets
    count0, reset = flags
    ph, in_sync, start = tests
    G = gstart.shape[0] - 1
    group = s < G
    k0 = gstart[s] if group else 0
    k1 = gstart[s + 1] if group else 1
    lead = s - G
    if group:
        for k in range(k0, k1):
            if in_sync[r, gmembers[k]]:
                lead = gmembers[k]
                break
    d = delta[lead]
    f = fade[lead]
    st = ph[r, s]
    n, acc, m_up, min_up, m_dn, min_dn = st[0], st[1], st[2], st[3], st[4], st[5]
    low = _lowest_lambda(r, s, G, sets, in_sync)
    jj = j_from
    while jj < j_to:
        stat = np.nan
        hit = False
        while jj < j_to:  # the hot loop: steps until one that may alarm (or every step, for the trace)
            v = v_row[jj]
            stat = np.nan
            if math.isfinite(v):
                n, acc, m_up, min_up, m_dn, min_dn, stat = ph_step(n, acc, m_up, min_up, m_dn, min_dn, v, d, f, form)
                hit = stat > low
            if hit or tr is not None:
                break
            jj += 1
        if jj == j_to:
            break
        for k in range(k0, k1):
            q = gmembers[k] if group else lead
            if group and not in_sync[r, q]:
                continue
            det = hit and stat > lam[q] and n >= min_count[q]
            if tr is not None:
                tr[0][r, q, j0 + jj] = stat
                tr[1][r, q, j0 + jj] = det
            if det:
                record_alarm(rec, r, q, count0 + j0 + jj)
                if reset and group:
                    in_sync[r, q] = False
                    start[q] = jj + 1
                    reset_row(ph[r, G + q])
                elif reset:
                    n, acc, m_up, min_up, m_dn, min_dn = 0.0, 0.0, 0.0, np.inf, 0.0, np.inf
        if hit and reset and group:
            low = _lowest_lambda(r, s, G, sets, in_sync)
        jj += 1
    st[0], st[1], st[2], st[3], st[4], st[5] = n, acc, m_up, min_up, m_dn, min_dn
