"""The scalar-sums family: sums of real-valued streams under every forgetting mechanism.

A *group* is a pair of rows ``(a, b)`` of a value matrix ``x (R, T)`` that share their members
and their window; for each group and estimator the kernel keeps

``S_A = sum x_a``, ``S_B = sum x_b``, ``U = sum max(x_a - x_b, 0)``, ``V = sum max(x_b - x_a, 0)``
and the number of members ``N`` (faded for a fading factor),

which is what the Q statistic and the signed McNemar test of two learners need (Gama,
Sebastiao & Rodrigues 2013, seed 004, section 4: for 0-1 losses ``U = n01``, ``V = n10``), and,
with ``a = b``, the sum of a single stream (loss curves, resource curves). Mechanisms come from
:mod:`streamtk._kernels.forgetting` (accumulators with lazy fading and restarts; sliding windows
whose leaving members are read back from ``x``). Exact windows: each sum counts its non-zero
members and is exactly 0 when none is left, so a window of zero losses has ``S = 0`` (no
rounding residue of the losses that went through it).

Arguments: ``x (R, T)``, ``groups (G, 2)`` row indices, ``member (T,)`` uint8 (empty: every
position is a member), ``mech = (kinds, sizes, fading, marks, mark_off, limits (G, EA, T - t_begin),
aslot)``, ``state = (sf (G, E, 6) float64: S_A, S_B, U, V, N, scale; si (G, E, 7) int64: tail,
held, cursor, non-zero counts of S_A, S_B, U, V)``, ``span = (base, t_begin)``, ``ck`` checkpoint
indices, ``snap (G, E, C, 5)``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .forgetting import advance, fading_step, is_sliding, next_member, next_restart, overdue, sliding_limit

SA, SB, SU, SV, SN, SCALE = 0, 1, 2, 3, 4, 5
TAIL, HELD, CURSOR, ZA, ZB, ZU, ZV = 0, 1, 2, 3, 4, 5, 6
N_FLOAT, N_INT = 6, 7
#: rows of a snapshot
FIELDS = ("sum_a", "sum_b", "u", "v", "n")
BLOCK = 2048


@nb.njit(cache=True, inline="always")
def _split(a, b):
    d = a - b
    return (d if d > 0.0 else 0.0), (-d if d < 0.0 else 0.0)


@nb.njit(cache=True, inline="always")
def _nz(v):
    return 1 if v != 0.0 else 0


@nb.njit(cache=True)
def accumulate(kind, size, fade, marks, data, blk, est, out):
    """An accumulator over ``[b0, b1)``; returns the next checkpoint index.

    ``data = (xa, xb, member)``, ``blk = (b0, b1, base)``, ``est = (sf, si)``, ``out = (ck, ci, snap)``.
    """
    xa, xb, member = data
    b0, b1, base = blk
    sf, si = est
    ck, ci, snap = out
    sa, sb, su, sv, n, m = sf[SA], sf[SB], sf[SU], sf[SV], sf[SN], sf[SCALE]
    step = fading_step(kind, fade)
    nxt, cursor = next_restart(kind, size, marks, si[CURSOR], base + b0)
    nck = ck.shape[0]
    dense = member.shape[0] == 0
    pair = xb.shape[0] > 0
    for t in range(b0, b1):
        if base + t == nxt:
            sa = sb = su = sv = n = 0.0
            m = 1.0
            nxt, cursor = next_restart(kind, size, marks, cursor, base + t + 1)
        if dense or member[t]:
            a = xa[t]
            m = advance(m, step)
            sa += m * a
            if pair:
                b = xb[t]
                u, v = _split(a, b)
                sb += m * b
                su += m * u
                sv += m * v
            n += m
            if overdue(m):
                sa /= m
                sb /= m
                su /= m
                sv /= m
                n /= m
                m = 1.0
        while ci < nck and ck[ci] == t:
            o = snap[ci]
            o[SA] = sa / m
            o[SB] = sb / m if pair else o[SA]
            o[SU] = su / m
            o[SV] = sv / m
            o[SN] = n / m
            ci += 1
    if not pair:
        sb = sa
    sf[SA], sf[SB], sf[SU], sf[SV], sf[SN], sf[SCALE] = sa, sb, su, sv, n, m
    si[CURSOR] = cursor
    return ci


@nb.njit(cache=True)
def slide(kind, size, limits, lim0, data, blk, est, out):
    """A sliding window over ``[b0, b1)``: add, then the oldest members leave while more than the limit are held.

    The grouped arguments are those of :func:`accumulate`.
    """
    xa, xb, member = data
    b0, b1, base = blk
    sf, si = est
    ck, ci, snap = out
    sa, sb, su, sv = sf[SA], sf[SB], sf[SU], sf[SV]
    za, zb, zu, zv = si[ZA], si[ZB], si[ZU], si[ZV]
    tail = si[TAIL] - base
    held = si[HELD]
    nck = ck.shape[0]
    dense = member.shape[0] == 0
    pair = xb.shape[0] > 0
    for t in range(b0, b1):
        if dense or member[t]:
            a = xa[t]
            sa += a
            za += _nz(a)
            if pair:
                b = xb[t]
                u, v = _split(a, b)
                sb += b
                su += u
                sv += v
                zb += _nz(b)
                zu += _nz(u)
                zv += _nz(v)
            held += 1
            lim = sliding_limit(kind, size, limits, t - lim0)
            while held > lim:
                r = next_member(member, tail)
                a = xa[r]
                za -= _nz(a)
                # the exact-window rule: a sum whose non-zero members all left is 0
                sa = sa - a if za > 0 else 0.0
                if pair:
                    b = xb[r]
                    u, v = _split(a, b)
                    zb -= _nz(b)
                    zu -= _nz(u)
                    zv -= _nz(v)
                    sb = sb - b if zb > 0 else 0.0
                    su = su - u if zu > 0 else 0.0
                    sv = sv - v if zv > 0 else 0.0
                held -= 1
                tail = r + 1
        while ci < nck and ck[ci] == t:
            o = snap[ci]
            o[SA] = sa
            o[SB] = sb if pair else sa
            o[SU] = su
            o[SV] = sv
            o[SN] = float(held)
            ci += 1
    if not pair:
        sb, zb = sa, za
    sf[SA], sf[SB], sf[SU], sf[SV], sf[SN] = sa, sb, su, sv, float(held)
    si[ZA], si[ZB], si[ZU], si[ZV] = za, zb, zu, zv
    si[TAIL] = tail + base
    si[HELD] = held
    return ci


@nb.njit(cache=True, nogil=True)
def run(x, groups, member, mech, state, span, ck, snap):
    """Every group and estimator over ``[t_begin, T)`` (see the module docstring)."""
    kinds, sizes, fading, marks, mark_off, limits, aslot = mech
    sf, si = state
    base, t_begin = span
    T = x.shape[1]
    E = kinds.shape[0]
    for g in range(groups.shape[0]):
        xa = x[groups[g, 0]]
        # a single stream (a == b): its pair sums are S_B = S_A, U = V = 0; an empty xb skips them
        data = (xa, x[groups[g, 1]] if groups[g, 1] != groups[g, 0] else xa[:0], member)
        ci0 = np.int64(0)
        for b0 in range(t_begin, T, BLOCK):
            blk = (b0, min(T, b0 + BLOCK), base)
            ci1 = ci0
            for e in range(E):
                kind = kinds[e]
                est = (sf[g, e], si[g, e])
                out = (ck, ci0, snap[g, e])
                if is_sliding(kind):
                    ci1 = slide(kind, sizes[e], limits[g, max(aslot[e], 0)], t_begin, data, blk, est, out)
                else:
                    ci1 = accumulate(
                        kind, sizes[e], fading[e], marks[mark_off[e] : mark_off[e + 1]], data, blk, est, out
                    )
            ci0 = ci1
