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

Loops: per group, blocks of ``BLOCK`` positions, estimator by estimator; each block is cut at
checkpoints (and an accumulator's restarts) into runs whose inner loops test neither. Fast paths,
equal to the general loops bit for bit (``tests/test_sums_fastpaths.py``): an accumulator that does
not fade adds without its multiplier (``m = 1``, ``m * x == x``); a ``WINDOW`` over a dense stream
fills, then moves by one member per position (:func:`_full`); over 0-1 values (``binary``) it does
not count its non-zero members, since its integer sums are then exact (:func:`_move`).

Arguments: ``x (R, T)``, ``groups (G, 2)`` row indices, ``member (T,)`` uint8 (empty: every
position is a member), ``mech = (kinds, sizes, fading, marks, mark_off, limits (G, EA, T - t_begin),
aslot)``, ``state = (sf (G, E, 6) float64: S_A, S_B, U, V, N, scale; si (G, E, 7) int64: tail,
held, cursor, non-zero counts of S_A, S_B, U, V)``, ``span = (base, t_begin)``, ``ck`` checkpoint
indices, ``snap (G, E, C, 5)``, ``paths = (fast, binary)`` (:func:`run`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .forgetting import WINDOW, advance, fading_step, is_sliding, next_member, next_restart, overdue, sliding_limit

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


@nb.njit(cache=True, inline="always")
def _stop(ck, ci, t0, t1):
    """The end of a run from ``t0`` that goes up to the next checkpoint at most: ``min(t1, ck[ci] + 1)``."""
    if ci < ck.shape[0] and t0 <= ck[ci] < t1:
        return ck[ci] + 1
    return t1


@nb.njit(cache=True)
def _add(xa, xb, member, t0, t1, acc, step, fast, pair, dense):
    """Add the members of ``[t0, t1)`` to an accumulator ``acc = (S_A, S_B, U, V, N, m)`` (no restart inside)."""
    sa, sb, su, sv, n, m = acc
    if fast and m == 1.0 and step == 1.0:
        # no fading: the multiplier stays 1 (``m * a == a`` exactly) and N counts the members
        k = 0
        for t in range(t0, t1):
            if dense or member[t]:
                a = xa[t]
                sa += a
                if pair:
                    b = xb[t]
                    u, v = _split(a, b)
                    sb += b
                    su += u
                    sv += v
                k += 1
        return sa, sb, su, sv, n + float(k), m
    for t in range(t0, t1):
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
    return sa, sb, su, sv, n, m


@nb.njit(cache=True)
def accumulate(kind, size, fade, marks, data, blk, est, out):
    """An accumulator over ``[b0, b1)``; returns the next checkpoint index.

    ``data = (xa, xb, member, paths)`` (``paths``: see :func:`run`), ``blk = (b0, b1, base)``, ``est = (sf, si)``,
    ``out = (ck, ci, snap)``. The block is cut at restarts and checkpoints into runs without
    either, each added by :func:`_add`.
    """
    xa, xb, member, paths = data
    fast = paths[0]
    b0, b1, base = blk
    sf, si = est
    ck, ci, snap = out
    acc = (sf[SA], sf[SB], sf[SU], sf[SV], sf[SN], sf[SCALE])
    step = fading_step(kind, fade)
    nxt, cursor = next_restart(kind, size, marks, si[CURSOR], base + b0)
    dense = member.shape[0] == 0
    pair = xb.shape[0] > 0
    t = b0
    while t < b1:
        if base + t == nxt:
            acc = (0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
            nxt, cursor = next_restart(kind, size, marks, cursor, base + t + 1)
        stop = _stop(ck, ci, t, min(b1, nxt - base))
        if pair:
            if dense:
                acc = _add(xa, xb, member, t, stop, acc, step, fast, True, True)
            else:
                acc = _add(xa, xb, member, t, stop, acc, step, fast, True, False)
        elif dense:
            acc = _add(xa, xb, member, t, stop, acc, step, fast, False, True)
        else:
            acc = _add(xa, xb, member, t, stop, acc, step, fast, False, False)
        t = stop
        sa, sb, su, sv, n, m = acc
        while ci < ck.shape[0] and ck[ci] == t - 1:
            o = snap[ci]
            o[SA] = sa / m
            o[SB] = sb / m if pair else o[SA]
            o[SU] = su / m
            o[SV] = sv / m
            o[SN] = n / m
            ci += 1
    sa, sb, su, sv, n, m = acc
    if not pair:
        sb = sa
    sf[SA], sf[SB], sf[SU], sf[SV], sf[SN], sf[SCALE] = sa, sb, su, sv, n, m
    si[CURSOR] = cursor
    return ci


@nb.njit(cache=True)
def _enter(xa, xb, t, win, pair, counted):
    """Member ``t`` enters a window ``win = (S_A, S_B, U, V, Z_A, Z_B, Z_U, Z_V)`` (Z: non-zero members).

    ``counted=False`` leaves the counts ``Z`` alone (0-1 values: they are the sums, see :func:`_move`).
    """
    sa, sb, su, sv, za, zb, zu, zv = win
    a = xa[t]
    sa += a
    if counted:
        za += _nz(a)
    if pair:
        b = xb[t]
        u, v = _split(a, b)
        sb += b
        su += u
        sv += v
        if counted:
            zb += _nz(b)
            zu += _nz(u)
            zv += _nz(v)
    return sa, sb, su, sv, za, zb, zu, zv


@nb.njit(cache=True)
def _leave(xa, xb, r, win, pair, counted):
    """Member ``r`` leaves a window; the exact-window rule: a sum whose non-zero members all left is 0."""
    sa, sb, su, sv, za, zb, zu, zv = win
    a = xa[r]
    if counted:
        za -= _nz(a)
        sa = sa - a if za > 0 else 0.0
    else:
        sa -= a
    if pair:
        b = xb[r]
        u, v = _split(a, b)
        if counted:
            zb -= _nz(b)
            zu -= _nz(u)
            zv -= _nz(v)
            sb = sb - b if zb > 0 else 0.0
            su = su - u if zu > 0 else 0.0
            sv = sv - v if zv > 0 else 0.0
        else:
            sb -= b
            su -= u
            sv -= v
    return sa, sb, su, sv, za, zb, zu, zv


@nb.njit(cache=True)
def _full(xa, xb, member, t0, t1, size, pos, win, pair, counted):
    """A window of ``size`` over ``[t0, t1)`` where every position is a member: members only enter until
    the window is full, then each entering member pushes out exactly one (the one at the tail)."""
    tail, held = pos
    k = min(t1, t0 + max(size - held, 0))
    for t in range(t0, k):
        win = _enter(xa, xb, t, win, pair, counted)
    held += k - t0
    for t in range(k, t1):
        win = _enter(xa, xb, t, win, pair, counted)
        win = _leave(xa, xb, next_member(member, tail), win, pair, counted)
        tail += 1
    return win, (tail, held)


@nb.njit(cache=True)
def _move(kind, size, limits, lim0, xa, xb, member, t0, t1, pos, win, paths, pair, dense):
    """Members of ``[t0, t1)`` enter a sliding window, the oldest leave; ``pos = (tail, held)``.

    ``paths = (fast, binary)``: with ``fast``, a ``WINDOW`` over a dense stream takes :func:`_full`;
    with ``binary`` too (every value so far is 0 or 1), its sums are exact integers, so the
    exact-window rule holds without counting (a sum is 0 exactly when its non-zero members left)
    and the counts are the sums.
    """
    fast, binary = paths
    if fast and dense and kind == WINDOW:
        if binary:
            win, pos = _full(xa, xb, member, t0, t1, size, pos, win, pair, False)
            sa, sb, su, sv = win[0], win[1], win[2], win[3]
            return (sa, sb, su, sv, np.int64(sa), np.int64(sb), np.int64(su), np.int64(sv)), pos
        return _full(xa, xb, member, t0, t1, size, pos, win, pair, True)
    tail, held = pos
    for t in range(t0, t1):
        if dense or member[t]:
            win = _enter(xa, xb, t, win, pair, True)
            held += 1
            lim = sliding_limit(kind, size, limits, t - lim0)
            while held > lim:
                r = next_member(member, tail)
                win = _leave(xa, xb, r, win, pair, True)
                held -= 1
                tail = r + 1
    return win, (tail, held)


@nb.njit(cache=True)
def slide(kind, size, limits, lim0, data, blk, est, out):
    """A sliding window over ``[b0, b1)``: add, then the oldest members leave while more than the limit are held.

    The grouped arguments are those of :func:`accumulate`; runs between checkpoints go through
    :func:`_move`.
    """
    xa, xb, member, paths = data
    b0, b1, base = blk
    sf, si = est
    ck, ci, snap = out
    win = (sf[SA], sf[SB], sf[SU], sf[SV], si[ZA], si[ZB], si[ZU], si[ZV])
    pos = (si[TAIL] - base, si[HELD])
    dense = member.shape[0] == 0
    pair = xb.shape[0] > 0
    t = b0
    while t < b1:
        stop = _stop(ck, ci, t, b1)
        if pair:
            if dense:
                win, pos = _move(kind, size, limits, lim0, xa, xb, member, t, stop, pos, win, paths, True, True)
            else:
                win, pos = _move(kind, size, limits, lim0, xa, xb, member, t, stop, pos, win, paths, True, False)
        elif dense:
            win, pos = _move(kind, size, limits, lim0, xa, xb, member, t, stop, pos, win, paths, False, True)
        else:
            win, pos = _move(kind, size, limits, lim0, xa, xb, member, t, stop, pos, win, paths, False, False)
        t = stop
        sa, sb, su, sv = win[0], win[1], win[2], win[3]
        held = pos[1]
        while ci < ck.shape[0] and ck[ci] == t - 1:
            o = snap[ci]
            o[SA] = sa
            o[SB] = sb if pair else sa
            o[SU] = su
            o[SV] = sv
            o[SN] = float(held)
            ci += 1
    sa, sb, su, sv, za, zb, zu, zv = win
    if not pair:
        sb, zb = sa, za
    sf[SA], sf[SB], sf[SU], sf[SV], sf[SN] = sa, sb, su, sv, float(pos[1])
    si[ZA], si[ZB], si[ZU], si[ZV] = za, zb, zu, zv
    si[TAIL] = pos[0] + base
    si[HELD] = pos[1]
    return ci


@nb.njit(cache=True, nogil=True)
def run(x, groups, member, mech, state, span, ck, snap, paths):
    """Every group and estimator over ``[t_begin, T)`` (see the module docstring).

    ``paths = (fast, binary)``: ``fast=False`` runs every estimator through the general loops (the
    fast paths' oracle in the tests); ``binary``: every value of ``x`` so far is 0 or 1.
    """
    kinds, sizes, fading, marks, mark_off, limits, aslot = mech
    sf, si = state
    base, t_begin = span
    T = x.shape[1]
    E = kinds.shape[0]
    for g in range(groups.shape[0]):
        xa = x[groups[g, 0]]
        # a single stream (a == b): its pair sums are S_B = S_A, U = V = 0; an empty xb skips them
        data = (xa, x[groups[g, 1]] if groups[g, 1] != groups[g, 0] else xa[:0], member, paths)
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
