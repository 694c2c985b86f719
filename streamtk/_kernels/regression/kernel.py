"""The regression and prediction-interval kernel, default convention, under every forgetting mechanism.

A *series* is one model's predictions of one target: its target row ``ys[trow[l]]``, its prediction columns
``ps[l] (P, T)``, its weights ``wts[l]`` (or none) and its members ``mem[l]`` (uint8; none: every position is a
member). A member adds its family's quantities (:mod:`.layout`) with weight ``g`` (the instance weight times
the lazy fading multiplier of :mod:`streamtk._kernels.forgetting`); a sliding window's leaving member is read
back from the inputs and subtracts exactly what it added (its TargetMean prediction ``b`` is materialised in
``bm[l, h]``, since it depends on the window's state then). Exact windows: a sum whose non-zero members all
left is exactly 0, and an empty window holds nothing (``W = N = mean = M2 = 0``). Restarts (tumbling,
landmarks) empty the state exactly. Every mechanism comes from the helpers of ``forgetting``: accumulators
(prequential, fading, EWMA, tumbling, landmarks) and sliding windows (window, ADWIN).

Order statistics: the extrema of an accumulator are running maxima (every member since the last restart is
held with a positive weight, fading included); a sliding window keeps a monotone deque per stream
(:mod:`.order`). The weighted median of ``|e|`` (asked with a :data:`Median`: trees and keys)
keeps each member's weight at its key ``rk[l, t]`` (1-based) in a Fenwick tree: added, removed, renormalised
with the state, emptied exactly at a restart (the members since the restart are read back, so the numpy
layer keeps them), read at checkpoints by :func:`.order.weighted_median`.

Arguments are named records: :data:`Inputs`, :data:`State`, :data:`Median` and the checkpoints ``ck`` and the
snapshot table ``snap (M, E, nt * F, C)``; ``span = (base, t_begin)``: the absolute position of index 0 and the
first index to process (earlier ones are history that leaving members are read from).
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np

from ..fenwick import add as tree_add
from ..forgetting import advance, fading_step, next_member, next_restart, overdue, sliding_limit
from .layout import (
    EPS,
    F_M2,
    F_MEAN,
    F_N,
    F_Q,
    F_W,
    I_CURSOR,
    I_HELD,
    I_NZ,
    I_TAIL,
    INT_BOUNDS,
    Q_AE,
    Q_APE,
    Q_BAE,
    Q_BSE,
    Q_COVER,
    Q_PIN,
    Q_SAPE,
    Q_SE,
    Q_WIDTH,
    Q_WINK,
    REG,
    S_M2,
    S_MAX,
    S_MEAN,
    S_N,
    S_SCALE,
    S_W,
)
from .order import scale_tree, weighted_median, window_maxima, zero_path

#: the inputs: targets ``(Q, T)``, prediction columns ``(L, P, T)``, target row of each series ``(L,)``, weights
#: ``(L, T)`` or ``(L, 0)``, members ``(L, T)`` uint8 or ``(L, 0)``, median keys ``(L, T)`` (or ``(L, 0)``), the
#: family code and its parameters ``par`` (INT: ``2 / alpha`` then the quantile levels)
Inputs = namedtuple("Inputs", "ys ps trow wts mem rk fam par")
#: the state: ``sf (L, E, NF)``, ``si (L, E, NI)``, TargetMean predictions ``bm (L, H, T)``, deques ``dqv``,
#: ``dqp (L, H, J, CAP)``
State = namedtuple("State", "sf si bm dqv dqp")
#: the weighted median's trees ``(L, E, D + 1)`` and keys ``(L, D)`` (``None`` when it is not asked: its code is
#: then not compiled)
Median = namedtuple("Median", "trees keys")


@nb.njit(cache=True, inline="always")
def reg_quantities(y, p, b):
    """A point prediction's quantities: ``|e|``, ``e**2``, ``|e| / max(|y|, eps)``, ``2 |e| / (|y| + |p|)`` (0 when
    both are 0), and the TargetMean prediction ``b``'s ``|y - b|``, ``(y - b)**2``."""
    e = y - p
    a = abs(e)
    ay = abs(y)
    den = ay + abs(p)
    d = y - b
    return a, e * e, a / (ay if ay > EPS else EPS), (2.0 * a / den if den > 0.0 else 0.0), abs(d), d * d


@nb.njit(cache=True, inline="always")
def quantities(fam, par, y, pc, r, b, q, x):
    """A member's quantities into ``q (K,)`` and its extremum values into ``x (J,)``; ``pc (P, T)`` its prediction
    columns at position ``r``, ``b`` its TargetMean prediction (REG)."""
    if fam == REG:
        q[Q_AE], q[Q_SE], q[Q_APE], q[Q_SAPE], q[Q_BAE], q[Q_BSE] = reg_quantities(y, pc[0, r], b)
        x[0] = q[Q_AE]
    else:
        lo = pc[0, r]
        up = pc[1, r]
        q[Q_COVER] = 1.0 if (lo <= y and y <= up) else 0.0
        width = up - lo
        q[Q_WIDTH] = width
        f = par[0]
        q[Q_WINK] = width + (f * (lo - y) if y < lo else 0.0) + (f * (y - up) if y > up else 0.0)
        for j in range(q.shape[0] - Q_PIN):
            u = y - pc[INT_BOUNDS + j, r]
            tau = par[1 + j]
            q[Q_PIN + j] = tau * u if u >= 0.0 else -((1.0 - tau) * u)
        x[0] = y
        x[1] = -y


@nb.njit(cache=True)
def extremum_streams(inp, l):
    """The ``J`` extremum streams of series ``l`` at every position: ``|e|`` (REG) or ``y`` and ``-y`` (INT)."""
    y = inp.ys[inp.trow[l]]
    if inp.fam == REG:
        out = np.empty((1, y.shape[0]))
        out[0] = np.abs(y - inp.ps[l, 0])
    else:
        out = np.empty((2, y.shape[0]))
        out[0] = y
        out[1] = -y
    return out


@nb.njit(cache=True, inline="always")
def welford_add(W, mean, M2, y, g):
    """Welford's step: member ``y`` of weight ``g`` joins the weight, weighted mean and squared deviations."""
    W1 = W + g
    d = y - mean
    mean1 = mean + (g / W1) * d
    return W1, mean1, M2 + g * d * (y - mean1)


@nb.njit(cache=True, inline="always")
def welford_remove(W, mean, M2, y, g):
    """Welford's step undone: member ``y`` of weight ``g`` leaves (the weight held stays positive)."""
    W0 = W - g
    mean0 = mean - (g / W0) * (y - mean)
    return W0, mean0, M2 - g * (y - mean0) * (y - mean)


@nb.njit(cache=True)
def _snapshot(out, ci, sf, K, J, W, N, mean, M2, inv, fam, maxima, tree, keys):
    """Column ``ci`` of a snapshot block ``out (F, C)``; sums times ``inv`` (``1 / m``)."""
    out[F_W, ci] = W * inv
    out[F_N, ci] = N * inv
    held = N > 0.0
    out[F_MEAN, ci] = mean if (fam == REG and held) else np.nan
    out[F_M2, ci] = M2 * inv if (fam == REG and held) else np.nan
    c0 = K + S_MAX + J
    for j in range(K):
        out[F_Q + j, ci] = (sf[j] + sf[c0 + j]) * inv
    for j in range(J):
        out[F_Q + K + j, ci] = maxima[j] if held else np.nan
    if tree is not None:
        out[F_Q + K + J, ci] = weighted_median(tree, keys)
    else:
        out[F_Q + K + J, ci] = np.nan


@nb.njit(cache=True, error_model="numpy")
def accumulate(kind, size, fade, marks, inp, l, e, st, tree, keys, blk, out):
    """An accumulator (prequential, fading, EWMA, tumbling, landmarks) over ``[b0, b1)``; returns the next checkpoint.

    ``tree``, ``keys``: the series' median tree of this estimator and its keys, or None; ``blk = (b0, b1, base)``,
    ``out = (ck, ci, snap)``.
    """
    ys, ps, trow, wts, mem, rk, fam, par = inp
    b0, b1, base = blk
    ck, ci, snap = out
    sf = st.sf[l, e]
    si = st.si[l, e]
    yl = ys[trow[l]]
    pc = ps[l]
    wl = wts[l]
    ml = mem[l]
    rl = rk[l]
    has_w = wl.shape[0] > 0
    dense = ml.shape[0] == 0
    J = st.dqv.shape[2]
    K = (sf.shape[0] - S_MAX - J) // 2
    q = np.empty(K)
    x = np.empty(J)
    W, N, m, mean, M2 = sf[K + S_W], sf[K + S_N], sf[K + S_SCALE], sf[K + S_MEAN], sf[K + S_M2]
    step = fading_step(kind, fade)
    nxt, cursor = next_restart(kind, size, marks, si[I_CURSOR], base + b0)
    nck = ck.shape[0]
    snapl = snap[e]
    for t in range(b0, b1):
        if base + t == nxt:  # a tumble or landmark starts here: the state restarts empty, exactly
            if tree is not None:
                for s in range(si[I_TAIL] - base, t):
                    if dense or ml[s]:
                        zero_path(tree, rl[s])
            for j in range(sf.shape[0]):
                sf[j] = 0.0
            for j in range(K):
                si[I_NZ + j] = 0
            W = N = mean = M2 = 0.0
            m = 1.0
            si[I_TAIL] = base + t
            nxt, cursor = next_restart(kind, size, marks, cursor, base + t + 1)
        if dense or ml[t]:
            m = advance(m, step)
            g = (wl[t] if has_w else 1.0) * m
            y = yl[t]
            quantities(fam, par, y, pc, t, mean if W > 0.0 else 0.0, q, x)
            for j in range(K):
                sf[j] += g * q[j]
            for j in range(J):
                if N == 0.0 or not (sf[K + S_MAX + j] >= x[j]):
                    sf[K + S_MAX + j] = x[j]
            if fam == REG:
                W, mean, M2 = welford_add(W, mean, M2, y, g)
            else:
                W += g
            N += m
            if tree is not None:
                tree_add(tree, rl[t], g)
            if overdue(m):
                inv = 1.0 / m
                for j in range(K):
                    sf[j] *= inv
                W *= inv
                N *= inv
                M2 *= inv
                if tree is not None:
                    scale_tree(tree, inv)
                m = 1.0
        while ci < nck and ck[ci] == t:
            _snapshot(snapl, ci, sf, K, J, W, N, mean, M2, 1.0 / m, fam, sf[K + S_MAX :], tree, keys)
            ci += 1
    sf[K + S_W], sf[K + S_N], sf[K + S_SCALE], sf[K + S_MEAN], sf[K + S_M2] = W, N, m, mean, M2
    si[I_CURSOR] = cursor
    return ci


@nb.njit(cache=True, inline="always")
def counter(fam, j):
    """The non-zero member count that decides when sum ``j`` is exactly 0 (the exact-window rule): its own, or
    for point predictions that of its group's first sum -- ``|e|`` for the four error sums (they are 0 exactly
    when ``e`` is), ``|y - b|`` for the baseline's two."""
    if fam == REG:
        return Q_AE if j < Q_BAE else Q_BAE
    return j


@nb.njit(cache=True, inline="always")
def two_sum(s, c, v):
    """``s + v`` with its rounding error accumulated in the compensation ``c`` (Knuth's TwoSum; Neumaier 1974):
    ``s + c`` stays the window's sum to about twice the precision, so a huge value leaving a window (an
    absolute percentage error at ``y`` near 0) leaves no residue of its size in the sum of the others."""
    t = s + v
    bp = t - s
    return t, c + ((s - (t - bp)) + (v - bp))


@nb.njit(cache=True, error_model="numpy")
def slide(kind, size, limits, lim0, inp, l, e, h, st, tree, keys, blk, out, xs):
    """A sliding window (``WINDOW`` of ``size`` members, ``ADWIN`` with the widths ``limits``) over ``[b0, b1)``.

    Each member is added, then the oldest members leave while more than the limit are held. ``h``: the
    estimator's slot among the sliding ones (its materialised TargetMean predictions and deques); ``xs (J, T)``:
    the extremum streams at every position (their maxima by :func:`.order.window_maxima`).
    """
    ys, ps, trow, wts, mem, rk, fam, par = inp
    b0, b1, base = blk
    ck, ci, snap = out
    sf = st.sf[l, e]
    si = st.si[l, e]
    bml = st.bm[l, h]
    dqv = st.dqv[l, h]
    dqp = st.dqp[l, h]
    yl = ys[trow[l]]
    pc = ps[l]
    wl = wts[l]
    ml = mem[l]
    rl = rk[l]
    has_w = wl.shape[0] > 0
    dense = ml.shape[0] == 0
    J = dqv.shape[0]
    K = (sf.shape[0] - S_MAX - J) // 2
    c0 = K + S_MAX + J  # the compensations
    D0 = I_NZ + K  # the deques' (head, length) pairs
    q = np.empty(K)
    x = np.empty(J)
    maxima = np.empty(J)
    W, mean, M2 = sf[K + S_W], sf[K + S_MEAN], sf[K + S_M2]
    tail = si[I_TAIL] - base
    held = si[I_HELD]
    nck = ck.shape[0]
    snapl = snap[e]
    for j in range(J):
        si[D0 + 2 * j], si[D0 + 2 * j + 1] = window_maxima(
            kind,
            size,
            limits,
            lim0,
            xs[j],
            ml,
            (dqv[j], dqp[j]),
            (si[D0 + 2 * j], si[D0 + 2 * j + 1]),
            held,
            tail,
            blk,
            ck,
            ci,
            snapl[F_Q + K + j],
        )
    for t in range(b0, b1):
        if dense or ml[t]:
            g = wl[t] if has_w else 1.0
            y = yl[t]
            b = mean if held > 0 else 0.0
            bml[t] = b
            quantities(fam, par, y, pc, t, b, q, x)
            for j in range(K):
                v = g * q[j]
                sf[j], sf[c0 + j] = two_sum(sf[j], sf[c0 + j], v)
                if counter(fam, j) == j and v != 0.0:
                    si[I_NZ + j] += 1
            if fam == REG:
                W, mean, M2 = welford_add(W, mean, M2, y, g)
            else:
                W += g
            if tree is not None:
                tree_add(tree, rl[t], g)
            held += 1
            lim = sliding_limit(kind, size, limits, t - lim0)
            while held > lim:
                r = next_member(ml, tail)
                g = wl[r] if has_w else 1.0
                y = yl[r]
                quantities(fam, par, y, pc, r, bml[r], q, x)
                held -= 1
                for j in range(K):
                    if counter(fam, j) == j and g * q[j] != 0.0:
                        si[I_NZ + j] -= 1
                for j in range(K):
                    v = g * q[j]
                    if si[I_NZ + counter(fam, j)] > 0:
                        sf[j], sf[c0 + j] = two_sum(sf[j], sf[c0 + j], -v)
                    else:  # the exact-window rule: no non-zero member left, the sum is 0
                        sf[j] = sf[c0 + j] = 0.0
                if held == 0:
                    W = mean = M2 = 0.0
                elif fam == REG:
                    W, mean, M2 = welford_remove(W, mean, M2, y, g)
                else:
                    W -= g
                if tree is not None:
                    tree_add(tree, rl[r], -g)
                tail = r + 1
        while ci < nck and ck[ci] == t:
            for j in range(J):
                maxima[j] = snapl[F_Q + K + j, ci]  # written by window_maxima
            _snapshot(snapl, ci, sf, K, J, W, float(held), mean, M2, 1.0, fam, maxima, tree, keys)
            ci += 1
    sf[K + S_W], sf[K + S_N], sf[K + S_MEAN], sf[K + S_M2] = W, float(held), mean, M2
    si[I_TAIL] = tail + base
    si[I_HELD] = held
    return ci


@nb.njit(cache=True, nogil=True, error_model="numpy")
def run_accumulator(inp, e, mech, st, med, span, nt, ck, snap):
    """Accumulator ``e`` (``mech = (kind, size, fade, marks)``) of every series over ``[t_begin, T)``.

    ``med``: a :data:`Median` or None; ``snap (M, E, nt * F, C)``: series ``l`` is target ``l % nt`` of model
    ``l // nt``, whose rows are the block ``[(l % nt) F, (l % nt + 1) F)`` (the layout the formulas of several
    targets read). One entry point per shape of mechanism: a call compiles only the shapes it has, the median's
    code only when it is asked.
    """
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
    """Sliding estimator ``e`` (``mech = (kind, size, h, limits (L, T - t_begin))``) of every series (see
    :func:`run_accumulator`)."""
    kind, size, h, limits = mech
    base, t_begin = span
    T = inp.ps.shape[2]
    F = snap.shape[2] // nt
    blk = (t_begin, T, base)
    for l in range(inp.ps.shape[0]):
        r0 = (l % nt) * F
        out = (ck, np.int64(0), snap[l // nt, :, r0 : r0 + F])
        xs = extremum_streams(inp, l)
        if med is not None:
            slide(kind, size, limits[l], t_begin, inp, l, e, h, st, med.trees[l, e], med.keys[l], blk, out, xs)
        else:
            slide(kind, size, limits[l], t_begin, inp, l, e, h, st, None, None, blk, out, xs)
