"""The regression family's fast path: :mod:`.kernel`'s loops for point predictions with the state in registers.

The general loops of :mod:`.kernel` keep the ``K`` sums of any family in an array and compute a member's
quantities into another; for point predictions (``REG``: six sums, one extremum) these loops keep every sum, its
compensation and its non-zero count in locals, with the same helpers (:func:`.kernel.reg_quantities`,
:func:`.kernel.two_sum`, the Welford steps, the deque and tree helpers) in the same order, so the values are
bit-identical to the general path's (``tests/test_fast_paths.py``). Same arguments as
:func:`.kernel.accumulate` / :func:`.kernel.slide` and entry points as :func:`.kernel.run_accumulator` /
:func:`.kernel.run_window`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..fenwick import add as tree_add
from ..forgetting import advance, fading_step, next_member, next_restart, overdue, sliding_limit
from .kernel import reg_quantities, two_sum, welford_add, welford_remove
from .layout import (
    F_M2,
    F_MEAN,
    F_N,
    F_Q,
    F_W,
    I_CURSOR,
    I_HELD,
    I_NZ,
    I_TAIL,
    Q_AE,
    Q_BAE,
    S_M2,
    S_MAX,
    S_MEAN,
    S_N,
    S_SCALE,
    S_W,
)
from .order import scale_tree, weighted_median, window_maxima, zero_path

K = 6  # the sums of REG
C0 = K + S_MAX + 1  # their compensations in the float state (J = 1)
D0 = I_NZ + K  # the deque's head and length in the int state


@nb.njit(cache=True, inline="always")
def _write(out, ci, sums, comps, W, N, mean, M2, inv, mx, tree, keys):
    """Column ``ci`` of a snapshot block: :func:`.kernel._snapshot` of a REG state held in locals."""
    out[F_W, ci] = W * inv
    out[F_N, ci] = N * inv
    held = N > 0.0
    out[F_MEAN, ci] = mean if held else np.nan
    out[F_M2, ci] = M2 * inv if held else np.nan
    for j in range(K):
        out[F_Q + j, ci] = (sums[j] + comps[j]) * inv
    out[F_Q + K, ci] = mx if held else np.nan  # a window's maximum was written by _maxima (NaN when empty)
    if tree is not None:
        out[F_Q + K + 1, ci] = weighted_median(tree, keys)
    else:
        out[F_Q + K + 1, ci] = np.nan


@nb.njit(cache=True, error_model="numpy")
def accumulate(kind, size, fade, marks, inp, l, e, st, tree, keys, blk, out):
    """:func:`.kernel.accumulate` for point predictions, its state in locals."""
    ys, ps, trow, wts, mem, rk, fam, par = inp
    b0, b1, base = blk
    ck, ci, snap = out
    sf = st.sf[l, e]
    si = st.si[l, e]
    yl = ys[trow[l]]
    pl = ps[l, 0]
    wl = wts[l]
    ml = mem[l]
    rl = rk[l]
    has_w = wl.shape[0] > 0
    dense = ml.shape[0] == 0
    s0, s1, s2, s3, s4, s5 = sf[0], sf[1], sf[2], sf[3], sf[4], sf[5]
    W, N, m, mean, M2, mx = sf[K + S_W], sf[K + S_N], sf[K + S_SCALE], sf[K + S_MEAN], sf[K + S_M2], sf[K + S_MAX]
    comps = (sf[C0], sf[C0 + 1], sf[C0 + 2], sf[C0 + 3], sf[C0 + 4], sf[C0 + 5])
    step = fading_step(kind, fade)
    nxt, cursor = next_restart(kind, size, marks, si[I_CURSOR], base + b0)
    nck = ck.shape[0]
    snapl = snap[e]
    for t in range(b0, b1):
        if base + t == nxt:
            if tree is not None:
                for s in range(si[I_TAIL] - base, t):
                    if dense or ml[s]:
                        zero_path(tree, rl[s])
            s0 = s1 = s2 = s3 = s4 = s5 = W = N = mean = M2 = mx = 0.0
            comps = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
            m = 1.0
            si[I_TAIL] = base + t
            nxt, cursor = next_restart(kind, size, marks, cursor, base + t + 1)
        if dense or ml[t]:
            m = advance(m, step)
            g = (wl[t] if has_w else 1.0) * m
            y = yl[t]
            a, se, ape, sape, bae, bse = reg_quantities(y, pl[t], mean if W > 0.0 else 0.0)
            s0 += g * a
            s1 += g * se
            s2 += g * ape
            s3 += g * sape
            s4 += g * bae
            s5 += g * bse
            if N == 0.0 or not (mx >= a):
                mx = a
            W, mean, M2 = welford_add(W, mean, M2, y, g)
            N += m
            if tree is not None:
                tree_add(tree, rl[t], g)
            if overdue(m):
                inv = 1.0 / m
                s0 *= inv
                s1 *= inv
                s2 *= inv
                s3 *= inv
                s4 *= inv
                s5 *= inv
                W *= inv
                N *= inv
                M2 *= inv
                if tree is not None:
                    scale_tree(tree, inv)
                m = 1.0
        while ci < nck and ck[ci] == t:
            _write(snapl, ci, (s0, s1, s2, s3, s4, s5), comps, W, N, mean, M2, 1.0 / m, mx, tree, keys)
            ci += 1
    sf[0], sf[1], sf[2], sf[3], sf[4], sf[5] = s0, s1, s2, s3, s4, s5
    sf[C0], sf[C0 + 1], sf[C0 + 2], sf[C0 + 3], sf[C0 + 4], sf[C0 + 5] = comps
    sf[K + S_W], sf[K + S_N], sf[K + S_SCALE], sf[K + S_MEAN], sf[K + S_M2], sf[K + S_MAX] = W, N, m, mean, M2, mx
    si[I_CURSOR] = cursor
    return ci


@nb.njit(cache=True, inline="always")
def _leave(s, c, z, v):
    """A member of value ``v`` leaves a compensated sum whose group holds ``z`` non-zero members after it left
    (:func:`.kernel.counter`: none left, the sum is exactly 0)."""
    if z > 0:
        return two_sum(s, c, -v)
    return 0.0, 0.0


@nb.njit(cache=True, error_model="numpy")
def slide(kind, size, limits, lim0, inp, l, e, h, st, tree, keys, blk, out, xa):
    """:func:`.kernel.slide` for point predictions, its state in locals (``xa``: ``|e|`` at every position)."""
    ys, ps, trow, wts, mem, rk, fam, par = inp
    b0, b1, base = blk
    ck, ci, snap = out
    sf = st.sf[l, e]
    si = st.si[l, e]
    bml = st.bm[l, h]
    dqv = st.dqv[l, h, 0]
    dqp = st.dqp[l, h, 0]
    yl = ys[trow[l]]
    pl = ps[l, 0]
    wl = wts[l]
    ml = mem[l]
    rl = rk[l]
    has_w = wl.shape[0] > 0
    dense = ml.shape[0] == 0
    s0, s1, s2, s3, s4, s5 = sf[0], sf[1], sf[2], sf[3], sf[4], sf[5]
    c0, c1, c2, c3, c4, c5 = sf[C0], sf[C0 + 1], sf[C0 + 2], sf[C0 + 3], sf[C0 + 4], sf[C0 + 5]
    ze, zb = si[I_NZ + Q_AE], si[I_NZ + Q_BAE]  # the groups' non-zero counts (:func:`.kernel.counter`)
    W, mean, M2 = sf[K + S_W], sf[K + S_MEAN], sf[K + S_M2]
    tail = si[I_TAIL] - base
    held = si[I_HELD]
    nck = ck.shape[0]
    snapl = snap[e]
    si[D0], si[D0 + 1] = window_maxima(kind, size, limits, lim0, xa, ml, (dqv, dqp), (si[D0], si[D0 + 1]), held, tail,
                                       blk, ck, ci, snapl[F_Q + K])  # fmt: skip
    for t in range(b0, b1):
        if dense or ml[t]:
            g = wl[t] if has_w else 1.0
            y = yl[t]
            b = mean if held > 0 else 0.0
            bml[t] = b
            a, se, ape, sape, bae, bse = reg_quantities(y, pl[t], b)
            v = g * a
            s0, c0 = two_sum(s0, c0, v)
            ze += 1 if v != 0.0 else 0
            s1, c1 = two_sum(s1, c1, g * se)
            s2, c2 = two_sum(s2, c2, g * ape)
            s3, c3 = two_sum(s3, c3, g * sape)
            v = g * bae
            s4, c4 = two_sum(s4, c4, v)
            zb += 1 if v != 0.0 else 0
            s5, c5 = two_sum(s5, c5, g * bse)
            W, mean, M2 = welford_add(W, mean, M2, y, g)
            if tree is not None:
                tree_add(tree, rl[t], g)
            held += 1
            lim = sliding_limit(kind, size, limits, t - lim0)
            while held > lim:
                r = next_member(ml, tail)
                g = wl[r] if has_w else 1.0
                y = yl[r]
                a, se, ape, sape, bae, bse = reg_quantities(y, pl[r], bml[r])
                held -= 1
                ze -= 1 if g * a != 0.0 else 0
                zb -= 1 if g * bae != 0.0 else 0
                s0, c0 = _leave(s0, c0, ze, g * a)
                s1, c1 = _leave(s1, c1, ze, g * se)
                s2, c2 = _leave(s2, c2, ze, g * ape)
                s3, c3 = _leave(s3, c3, ze, g * sape)
                s4, c4 = _leave(s4, c4, zb, g * bae)
                s5, c5 = _leave(s5, c5, zb, g * bse)
                if held == 0:
                    W = mean = M2 = 0.0
                else:
                    W, mean, M2 = welford_remove(W, mean, M2, y, g)
                if tree is not None:
                    tree_add(tree, rl[r], -g)
                tail = r + 1
        while ci < nck and ck[ci] == t:
            _write(snapl, ci, (s0, s1, s2, s3, s4, s5), (c0, c1, c2, c3, c4, c5), W, float(held), mean, M2, 1.0,
                   snapl[F_Q + K, ci], tree, keys)  # fmt: skip
            ci += 1
    sf[0], sf[1], sf[2], sf[3], sf[4], sf[5] = s0, s1, s2, s3, s4, s5
    sf[C0], sf[C0 + 1], sf[C0 + 2], sf[C0 + 3], sf[C0 + 4], sf[C0 + 5] = c0, c1, c2, c3, c4, c5
    si[I_NZ + Q_AE], si[I_NZ + Q_BAE] = ze, zb
    sf[K + S_W], sf[K + S_N], sf[K + S_MEAN], sf[K + S_M2] = W, float(held), mean, M2
    si[I_TAIL] = tail + base
    si[I_HELD] = held
    return ci


@nb.njit(cache=True, nogil=True, error_model="numpy")
def run_accumulator(inp, e, mech, st, med, span, nt, ck, snap):
    """:func:`.kernel.run_accumulator` on :func:`accumulate`."""
    kind, size, fade, marks = mech
    base, t_begin = span
    T = inp.ps.shape[2]
    F = snap.shape[2] // nt
    blk = (t_begin, T, base)
    for l in range(inp.ps.shape[0]):
        r0 = (l % nt) * F
        out = (ck, np.int64(0), snap[l // nt, :, r0 : r0 + F])
        if med is not None:
            accumulate(kind, size, fade, marks, inp, l, e, st, med.trees[l, e], med.keys[l], blk, out)
        else:
            accumulate(kind, size, fade, marks, inp, l, e, st, None, None, blk, out)


@nb.njit(cache=True, nogil=True, error_model="numpy")
def run_window(inp, e, mech, st, med, span, nt, ck, snap):
    """:func:`.kernel.run_window` on :func:`slide`."""
    kind, size, h, limits = mech
    base, t_begin = span
    T = inp.ps.shape[2]
    F = snap.shape[2] // nt
    blk = (t_begin, T, base)
    for l in range(inp.ps.shape[0]):
        r0 = (l % nt) * F
        out = (ck, np.int64(0), snap[l // nt, :, r0 : r0 + F])
        xa = np.abs(inp.ys[inp.trow[l]] - inp.ps[l, 0])
        if med is not None:
            slide(kind, size, limits[l], t_begin, inp, l, e, h, st, med.trees[l, e], med.keys[l], blk, out, xa)
        else:
            slide(kind, size, limits[l], t_begin, inp, l, e, h, st, None, None, blk, out, xa)
