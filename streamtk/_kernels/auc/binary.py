"""Fast path of the AUC family for binary scores: the operations of :mod:`.general`, arranged for the cache.

Two arrangements, each written with the helpers of the general kernel (:func:`.step.binary_step`
is :func:`.step.ustep` for one binary column, in scalars):

* **Interleaved accumulators** (prequential and fading factors): they add the same members at the
  same ranks, so their trees share one array ``(D + 1, 2, EI)`` and one Fenwick walk serves two
  estimators (:func:`streamtk._kernels.fenwick.below_half_pair`); on a rank space too large for
  the cache, the nodes of the member :data:`PREFETCH_AHEAD` steps ahead are prefetched
  (:func:`streamtk._kernels.fenwick.prefetch`), so the misses of many members overlap. The same
  additions in the same order as the general kernel: bit-identical.
* **Block-local window ranks**: a sliding window of ``w`` members only ever holds members of two
  consecutive blocks of ``w`` members, so it works on ranks local to those blocks
  (:func:`.ranks.window_local_ranks`, ``< 2 w`` values): its tree has ``2 w + 1`` entries and stays
  in the cache whatever the number of distinct scores. At each block boundary the tree is rebuilt
  in ``O(w)`` from the members it holds (their ranks in the next block's space); relabelling ranks
  in order changes no pair's comparison. The same sums as the general kernel's window, summed over
  other tree nodes: equal exactly with integer weights, to ~1e-15 relative otherwise.

Each estimator group runs over a block of :data:`BLOCK` positions with its statistics in
registers, then the next group (estimator-major inside a block, time-major across blocks), as
in :mod:`streamtk._kernels.confusion.dense`. Statistics are stored in the general layout, so any
later chunk may run on either kernel.

Arguments: ``inp`` (:class:`.layout.Inputs`: ``y`` 1 positive / 0 negative / -1 no label,
``ranks (L, T, 1)`` in the accumulators' key space), ``plan`` (:class:`.layout.BinaryPlan`: the
estimators, the windows' block-local ranks ``new`` on arrival and ``old`` in the next block's space,
the prefetch threshold, normally :data:`PREFETCH_MIN_ROWS`), ``state`` (:class:`.layout.BinaryState`),
``unit``, ``span``, ``ck`` and ``snap`` as in :mod:`.general`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..fenwick import add, add_pair, below_half, below_half_pair, prefetch
from ..forgetting import advance, next_member
from .general import BLOCK, held_trees
from .layout import P_BLOCK, P_HELD, P_TAIL, ST_N, ST_U, ST_W
from .step import binary_step, binary_store, is_member, member_weight, tree_overdue

#: prefetch distance (members ahead) and depth (nodes per walk) of the interleaved trees; measured on
#: n = R = 10**7: distance 8-32 and depth 8-12 are equally good, depth 24 or distance 64 slower
PREFETCH_AHEAD = 16
PREFETCH_DEPTH = 8
#: interleaved trees with fewer rows than this (1 MB for two estimators) stay in the cache: no prefetch
PREFETCH_MIN_ROWS = 1 << 15
#: the class -> group map of a binary column (group 1: the positive class)
_BINARY = np.array([[0, 1]], dtype=np.int64)


@nb.njit(cache=True, inline="always")
def _load(st):
    return st[ST_U, 0, 0], st[ST_W, 0, 0], st[ST_W, 0, 1], st[ST_N, 0, 0], st[ST_N, 0, 1]


@nb.njit(cache=True)
def _renorm_lane(itree, e, f):
    for i in range(itree.shape[0]):
        itree[i, 0, e] *= f
        itree[i, 1, e] *= f


@nb.njit(cache=True, inline="always")
def _fade(itree, lane, a, step, m, U, W0, W1):
    """One member of fading factor ``a`` (:func:`.step.decay` on scalars; the lane renormalised when overdue)."""
    m = advance(m, step)
    if tree_overdue(m):
        _renorm_lane(itree, lane, 1.0 / m)
        m = 1.0
    return m, U * (a * a), W0 * a, W1 * a


@nb.njit(cache=True)
def _cumulative(inp, unit, plan, state, l, i0, two, b0, b1, ck, ci, snap):
    """Interleaved accumulators ``i0`` and (if ``two``) ``i0 + 1`` over ``[b0, b1)``; returns the next checkpoint."""
    cum, alphas = plan.cum, plan.alphas
    stat, scale, itree = state.stat, state.scale, state.itree[l]
    i1 = i0 + 1 if two else i0
    e0, e1 = cum[i0], cum[i1]
    a0, a1 = alphas[i0], alphas[i1]
    f0, f1 = a0 < 1.0, two and a1 < 1.0
    s0, s1 = 1.0 / a0, 1.0 / a1
    y = inp.y
    mem = inp.member[l]
    wl = inp.weights[l]
    has_w = wl.shape[0] > 0
    rk = inp.ranks[l]
    T = y.shape[0]
    pf = itree.shape[0] >= plan.prefetch_rows
    U0, V00, V01, M00, M01 = _load(stat[l, e0])
    U1, V10, V11, M10, M11 = _load(stat[l, e1])
    m0, m1 = scale[l, e0], scale[l, e1]
    nck = ck.shape[0]
    for t in range(b0, b1):
        if pf and t + PREFETCH_AHEAD < T:
            prefetch(itree, rk[t + PREFETCH_AHEAD, 0] + 1, PREFETCH_DEPTH)
        if is_member(mem, t):
            g = member_weight(wl, has_w, unit, t)
            positive = y[t] == 1
            if f0:
                m0, U0, V00, V01 = _fade(itree, i0, a0, s0, m0, U0, V00, V01)
            if f1:
                m1, U1, V10, V11 = _fade(itree, i1, a1, s1, m1, U1, V10, V11)
            r = rk[t, 0] + 1
            opp = 0 if positive else 1
            p0 = p1 = 0.0
            if (M00 if positive else M01) > 0.0:  # both estimators hold the same members
                p0, p1 = below_half_pair(itree, r, opp, i0, i1, two)
            add_pair(itree, r, 1 - opp, i0, i1, two, g * m0, g * m1)
            U0, V00, V01, M00, M01 = binary_step(U0, V00, V01, M00, M01, positive, g, p0 / m0, 1.0)
            if two:
                U1, V10, V11, M10, M11 = binary_step(U1, V10, V11, M10, M11, positive, g, p1 / m1, 1.0)
        while ci < nck and ck[ci] == t:
            binary_store(snap[e0, :, :, :, ci], U0, V00, V01, M00, M01)
            if two:
                binary_store(snap[e1, :, :, :, ci], U1, V10, V11, M10, M11)
            ci += 1
    binary_store(stat[l, e0], U0, V00, V01, M00, M01)
    scale[l, e0] = m0
    if two:
        binary_store(stat[l, e1], U1, V10, V11, M10, M11)
        scale[l, e1] = m1
    return ci


@nb.njit(cache=True)
def _window(inp, unit, plan, e, size, state, l, j, tree, b0, b1, base, ck, ci, snap):
    """Sliding window ``e`` of ``size`` members (block-local ranks ``j``) over ``[b0, b1)``; returns the next index.

    ``P_BLOCK`` counts the members of the current block (blocks of ``size`` members from the
    window's tail at the start of the segment, as :func:`.ranks.window_local_ranks` numbers them).
    """
    new, old = plan.new[l, j], plan.old[l, j]
    y = inp.y
    mem = inp.member[l]
    wl = inp.weights[l]
    has_w = wl.shape[0] > 0
    st = state.stat[l, e]
    pt = state.ptr[l, e]
    U, W0, W1, N0, N1 = _load(st)
    tail = pt[P_TAIL] - base
    held = pt[P_HELD]
    qb = pt[P_BLOCK]
    nck = ck.shape[0]
    for t in range(b0, b1):
        if is_member(mem, t):
            if qb == size:  # block boundary: the held members move to the next block's ranks
                held_trees(tree, y, mem, wl, unit, _BINARY, old.reshape((old.shape[0], 1)), tail, t)
                qb = 0
            g = member_weight(wl, has_w, unit, t)
            positive = y[t] == 1
            r = new[t] + 1
            q = below_half(tree[0, 1 - y[t]], r) if (N0 if positive else N1) > 0.0 else 0.0
            add(tree[0, y[t]], r, g)
            U, W0, W1, N0, N1 = binary_step(U, W0, W1, N0, N1, positive, g, q, 1.0)
            held += 1
            qb += 1
            if held > size:  # the oldest member (of the previous block) leaves
                k = next_member(mem, tail)
                gk = member_weight(wl, has_w, unit, k)
                rk = old[k] + 1
                pk = y[k] == 1
                q = below_half(tree[0, 1 - y[k]], rk) if (N0 if pk else N1) > 0.0 else 0.0
                add(tree[0, y[k]], rk, -gk)
                U, W0, W1, N0, N1 = binary_step(U, W0, W1, N0, N1, pk, gk, q, -1.0)
                held -= 1
                tail = k + 1
        while ci < nck and ck[ci] == t:
            binary_store(snap[:, :, :, ci], U, W0, W1, N0, N1)
            ci += 1
    binary_store(st, U, W0, W1, N0, N1)
    pt[P_TAIL] = tail + base
    pt[P_HELD] = held
    pt[P_BLOCK] = qb
    return ci


@nb.njit(cache=True, nogil=True)
def run(inp, unit, plan, state, span, ck, snap):
    """The binary fast path over ``[t_begin, T)`` (arguments: see the module docstring).

    Each window starts from the members it holds (before ``t_begin``), placed in the first
    block of its local ranks (``plan.new`` numbers blocks from the window's tail).
    """
    base, t_begin = span
    L = state.stat.shape[0]
    T = inp.y.shape[0]
    EI = plan.cum.shape[0]
    EW = plan.win.shape[0]
    for l in range(L):
        trees = np.zeros((EW, 1, 2, plan.n_local + 1))
        for j in range(EW):
            pt = state.ptr[l, plan.win[j]]
            new = plan.new[l, j]
            held_trees(trees[j], inp.y, inp.member[l], inp.weights[l], unit, _BINARY,
                       new.reshape((T, 1)), pt[P_TAIL] - base, t_begin)  # fmt: skip
            pt[P_BLOCK] = pt[P_HELD]
        ci0 = np.int64(0)
        for b0 in range(t_begin, T, BLOCK):
            b1 = min(T, b0 + BLOCK)
            ci1 = ci0
            for i0 in range(0, EI, 2):
                ci1 = _cumulative(inp, unit, plan, state, l, i0, i0 + 1 < EI, b0, b1, ck, ci0, snap[l])
            for j in range(EW):
                e = plan.win[j]
                ci1 = _window(
                    inp, unit, plan, e, plan.wsizes[j], state, l, j, trees[j], b0, b1, base, ck, ci0, snap[l, e]
                )
            ci0 = ci1
