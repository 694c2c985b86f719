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
checkpoints (and an accumulator's restarts) into runs whose inner loops test neither. Fast paths
over a dense stream, equal to the general loops bit for bit (``tests/test_sums_fastpaths.py``): an
accumulator that does not fade adds without its multiplier (``m = 1``, ``m * x == x``); a ``WINDOW``
fills, then moves by one member per position, and over 0-1 values (``binary``) does not count its
non-zero members, since its integer sums are then exact (:func:`slide`). They are written out in
:func:`accumulate` and :func:`slide` rather than as specialised helpers, which numba would compile
once per literal flag (several seconds more on a first call).

Arguments: ``x (R, T)``, ``groups (G, 2)`` row indices, ``member (T,)`` uint8 (empty: every
position is a member), ``mech = (kinds, sizes, fading, marks, mark_off, limits (G, EA, T - t_begin),
aslot)``, ``state = (sf (G, E, 6) float64: S_A, S_B, U, V, N, scale; si (G, E, 7) int64: tail,
held, cursor, non-zero counts of S_A, S_B, U, V)``, ``span = (base, t_begin)``, ``ck`` checkpoint
indices, ``snap (G, E, 5, C)`` (rows :data:`FIELDS`, one column per checkpoint), ``paths = (fast,
binary)`` (:func:`run`).
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


@nb.njit(cache=True)
def _pair_move(sa, sb, su, sv, a, b, sign):
    """The four pair sums after a member ``(a, b)`` enters (``sign = 1.0``) or leaves (``-1.0``) unweighted.

    A plain njit function (compiled once; LLVM inlines it): inlined by numba at each of its call
    sites it cost 0.3-0.9 s more on a cold ``compare``.
    """
    u, v = _split(a, b)
    if sign > 0.0:
        return sa + a, sb + b, su + u, sv + v
    return sa - a, sb - b, su - u, sv - v


@nb.njit(cache=True, inline="always")
def _nz(v):
    return 1 if v != 0.0 else 0


@nb.njit(cache=True, inline="always")
def _drop(s, x, z):
    """The exact-window rule: ``s - x`` after ``x`` left, or exactly 0 once the sum's non-zero members all
    left (their count ``z`` is 0), so that no rounding residue of the values that went through stays."""
    return s - x if z > 0 else 0.0


@nb.njit(cache=True, inline="always")
def _stop(ck, ci, t0, t1):
    """The end of a run from ``t0`` that goes up to the next checkpoint at most: ``min(t1, ck[ci] + 1)``."""
    if ci < ck.shape[0] and t0 <= ck[ci] < t1:
        return ck[ci] + 1
    return t1


@nb.njit(cache=True)
def accumulate(kind, size, fade, marks, data, blk, est, out):
    """An accumulator over ``[b0, b1)``; returns the next checkpoint index.

    ``data = (xa, xb, member, paths)`` (``paths``: see :func:`run`), ``blk = (b0, b1, base)``,
    ``est = (sf, si)``, ``out = (ck, ci, snap)``. The block is cut at restarts and checkpoints into
    runs. Fast path: a run over a dense stream that does not fade (``m = 1``) adds without the
    multiplier (``m * x == x`` exactly) and counts its members at once.
    """
    xa, xb, member, paths = data
    fast = paths[0]
    b0, b1, base = blk
    sf, si = est
    ck, ci, snap = out
    sa, sb, su, sv, n, m = sf[SA], sf[SB], sf[SU], sf[SV], sf[SN], sf[SCALE]
    step = fading_step(kind, fade)
    nxt, cursor = next_restart(kind, size, marks, si[CURSOR], base + b0)
    dense = member.shape[0] == 0
    pair = xb.shape[0] > 0
    t = b0
    while t < b1:
        if base + t == nxt:
            sa = sb = su = sv = n = 0.0
            m = 1.0
            nxt, cursor = next_restart(kind, size, marks, cursor, base + t + 1)
        stop = _stop(ck, ci, t, min(b1, nxt - base))
        if fast and dense and m == 1.0 and step == 1.0:
            if pair:
                for r in range(t, stop):
                    sa, sb, su, sv = _pair_move(sa, sb, su, sv, xa[r], xb[r], 1.0)
            else:
                for r in range(t, stop):
                    sa += xa[r]
            n += float(stop - t)
        else:
            for r in range(t, stop):
                if dense or member[r]:
                    a = xa[r]
                    m = advance(m, step)
                    sa += m * a
                    if pair:
                        b = xb[r]
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
        t = stop
        while ci < ck.shape[0] and ck[ci] == t - 1:
            snap[SA, ci] = sa / m
            snap[SB, ci] = sb / m if pair else snap[SA, ci]
            snap[SU, ci] = su / m
            snap[SV, ci] = sv / m
            snap[SN, ci] = n / m
            ci += 1
    if not pair:
        sb = sa
    sf[SA], sf[SB], sf[SU], sf[SV], sf[SN], sf[SCALE] = sa, sb, su, sv, n, m
    si[CURSOR] = cursor
    return ci


@nb.njit(cache=True)
def slide(kind, size, limits, lim0, data, blk, est, out):
    """A sliding window over ``[b0, b1)``: add, then the oldest members leave while more than the limit are held.

    The grouped arguments are those of :func:`accumulate`; the block is cut at checkpoints into runs.
    Fast paths (``paths[0]``) of a ``WINDOW`` over a dense stream: members only enter until the window
    is full, then each entering member pushes out exactly one, the one at the tail; for a pair, only
    when every value so far is 0 or 1 (``paths[1]``): the sums are then exact integers, so the
    exact-window rule holds without counting (a sum is 0 exactly when its non-zero members left) and
    the counts are the sums.
    """
    xa, xb, member, paths = data
    fast, binary = paths
    b0, b1, base = blk
    sf, si = est
    ck, ci, snap = out
    sa, sb, su, sv = sf[SA], sf[SB], sf[SU], sf[SV]
    za, zb, zu, zv = si[ZA], si[ZB], si[ZU], si[ZV]
    tail = si[TAIL] - base
    held = si[HELD]
    dense = member.shape[0] == 0
    pair = xb.shape[0] > 0
    full = fast and dense and kind == WINDOW and (binary or not pair)
    t = b0
    while t < b1:
        stop = _stop(ck, ci, t, b1)
        if full and pair:
            k = min(stop, t + max(size - held, 0))  # members that only enter
            for r in range(t, k):
                sa, sb, su, sv = _pair_move(sa, sb, su, sv, xa[r], xb[r], 1.0)
            for r in range(k, stop):
                sa, sb, su, sv = _pair_move(sa, sb, su, sv, xa[r], xb[r], 1.0)
                sa, sb, su, sv = _pair_move(sa, sb, su, sv, xa[tail], xb[tail], -1.0)
                tail += 1
            held += k - t
            za, zb, zu, zv = np.int64(sa), np.int64(sb), np.int64(su), np.int64(sv)
        elif full:
            k = min(stop, t + max(size - held, 0))
            for r in range(t, k):
                a = xa[r]
                sa += a
                za += _nz(a)
            for r in range(k, stop):
                a = xa[r]
                sa += a
                za += _nz(a)
                a = xa[tail]
                za -= _nz(a)
                sa = _drop(sa, a, za)
                tail += 1
            held += k - t
        else:
            for r in range(t, stop):
                if dense or member[r]:
                    a = xa[r]
                    sa += a
                    za += _nz(a)
                    if pair:
                        b = xb[r]
                        u, v = _split(a, b)
                        sb += b
                        su += u
                        sv += v
                        zb += _nz(b)
                        zu += _nz(u)
                        zv += _nz(v)
                    held += 1
                    lim = sliding_limit(kind, size, limits, r - lim0)
                    while held > lim:
                        q = next_member(member, tail)
                        a = xa[q]
                        za -= _nz(a)
                        sa = _drop(sa, a, za)
                        if pair:
                            b = xb[q]
                            u, v = _split(a, b)
                            zb -= _nz(b)
                            zu -= _nz(u)
                            zv -= _nz(v)
                            sb = _drop(sb, b, zb)
                            su = _drop(su, u, zu)
                            sv = _drop(sv, v, zv)
                        held -= 1
                        tail = q + 1
        t = stop
        while ci < ck.shape[0] and ck[ci] == t - 1:
            snap[SA, ci] = sa
            snap[SB, ci] = sb if pair else sa
            snap[SU, ci] = su
            snap[SV, ci] = sv
            snap[SN, ci] = float(held)
            ci += 1
    if not pair:
        sb, zb = sa, za
    sf[SA], sf[SB], sf[SU], sf[SV], sf[SN] = sa, sb, su, sv, float(held)
    si[ZA], si[ZB], si[ZU], si[ZV] = za, zb, zu, zv
    si[TAIL] = tail + base
    si[HELD] = held
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
