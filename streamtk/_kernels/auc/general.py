"""The general kernel of the AUC family: exact U statistics under every forgetting mechanism.

One read of a block of the inputs feeds every estimator in turn (estimator-major inside a block
of :data:`BLOCK` positions, time-major across blocks), each through the shared mechanism
helpers of :mod:`streamtk._kernels.forgetting` and the one U-statistic step of :mod:`.step`:

* *accumulators* (prequential, fading, tumbling, landmarks) add each member to Fenwick trees over
  the accumulators' key space (ranks ``Inputs.ranks``); a fading factor uses the lazy multiplier
  (:func:`~streamtk._kernels.forgetting.advance`), a tumbling or landmark window restarts empty at
  its restart positions (:func:`~streamtk._kernels.forgetting.next_restart`) by removing its held
  members one by one, or by clearing its trees when that is cheaper (:func:`restart`);
* *sliding windows* (``window=``, and ``adwin=`` with the ADWIN widths per position) add each
  member, then remove the oldest members while more than the limit are held
  (:func:`~streamtk._kernels.forgetting.sliding_limit`); a leaving member is read back from the
  inputs (no ring buffer) with its rank in the sliding windows' key space (``Inputs.sranks``).

Any number of score columns and groups (binary, one-vs-rest, pairwise; :mod:`.layout`). The
binary fast paths (:mod:`.binary`, :mod:`.offline`) compute the same statistics and are tested
equal to this kernel. Arguments: the named tuples of :mod:`.layout`; ``span = (base, t_begin)``:
the absolute position of index 0 and the first index to process (earlier indices are history
that leaving members are read from); ``which``: the estimators to run; ``ck``: the checkpoint
indices in ``[t_begin, T)``; ``snap (L, E, 3, C, G, len(ck))`` receives the statistics there (one column
per checkpoint: the table of :mod:`streamtk._core.metrics.auc`).
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from ..fenwick import build
from ..forgetting import advance, fades, fading_step, is_sliding, next_member, next_restart, sliding_limit
from .layout import P_CURSOR, P_HELD, P_TAIL
from .step import decay, is_member, member_weight, store, tree_overdue, ustep

BLOCK = 2048
#: a restart removes the held members one by one (``O(held C G log D)`` random walks) while
#: ``held * REMOVE_FACTOR * log2(D) <= D``, else it clears the trees (``O(C G D)`` sequential writes).
#: Measured (binary, n = 2 * 10**6 distinct scores, D = n, tumbling=w, s for the whole call, removing /
#: clearing): w = 10: 1.6 / 251; 1000: 1.4 / 3.2; 10**4: 2.1 / 1.3; 10**5: 1.7 / 1.25 -- the crossover
#: near held = D / 250 (a removal ~130 ns of cache-missing walks, a clear ~0.5 ns per position)
REMOVE_FACTOR = 12


@nb.njit(cache=True)
def scale_trees(tree, f):
    """Multiply every entry of a tree array by ``f`` (lazy fading renormalisation, restarts)."""
    flat = tree.reshape(tree.size)
    for i in range(flat.shape[0]):
        flat[i] *= f


@nb.njit(cache=True)
def held_trees(tree, y, mem, wl, unit, grp, rk, lo, hi):
    """Trees ``tree (C, G, D + 1)`` of the members in ``[lo, hi)`` (ranks ``rk (T, C)``), from scratch, ``O(C G D)``."""
    has_w = wl.shape[0] > 0
    scale_trees(tree, 0.0)
    for t in range(lo, hi):
        if is_member(mem, t):
            g = member_weight(wl, has_w, unit, t)
            for c in range(tree.shape[0]):
                tree[c, grp[c, y[t]], rk[t, c] + 1] += g
    for c in range(tree.shape[0]):
        for h in range(tree.shape[1]):
            build(tree[c, h].reshape((tree.shape[2], 1)))


@nb.njit(cache=True)
def restart(tree, st, held, lo, t, y, mem, wl, unit, grp, pos, rk):
    """Empty an accumulator at a restart: remove its ``held`` members from ``lo`` on, or clear its trees.

    Removal needs the members' inputs (``lo >= 0``: still in the arrays); it is chosen when it
    is cheaper than clearing (see :data:`REMOVE_FACTOR`). Either way the statistics restart at
    exactly 0.
    """
    D = tree.shape[2] - 1
    if lo >= 0 and held * REMOVE_FACTOR * math.log2(D + 1) <= D:
        has_w = wl.shape[0] > 0
        r = lo
        for _ in range(held):
            r = next_member(mem, r)
            ustep(tree, st, grp, pos, rk[r], y[r], member_weight(wl, has_w, unit, r), -1.0, 1.0)
            r += 1
    else:
        scale_trees(tree, 0.0)
    flat = st.reshape(st.size)
    for i in range(flat.shape[0]):
        flat[i] = 0.0


@nb.njit(cache=True, inline="always")
def _series(inp, state, l, e):
    """The inputs of series ``l`` (labels, members, weights, whether weighted) and the state of estimator ``e``."""
    wl = inp.weights[l]
    return inp.y, inp.member[l], wl, wl.shape[0] > 0, state.stat[l, e], state.ptr[l, e]


@nb.njit(cache=True)
def accumulate(inp, grps, mech, state, l, e, b0, b1, base, ck, ci, snap):
    """An accumulator (prequential, fading, tumbling, landmarks) over ``[b0, b1)``; returns the next checkpoint."""
    kind = mech.kinds[e]
    fade = mech.fading[e]
    marks = mech.marks[mech.mark_off[e] : mech.mark_off[e + 1]]
    y, mem, wl, has_w, st, pt = _series(inp, state, l, e)
    rk = inp.ranks[l]
    tree = state.trees[l, mech.slot[e]]
    m = state.scale[l, e]
    held = pt[P_HELD]
    step = fading_step(kind, fade)
    faded = fades(kind)
    nxt, cursor = next_restart(kind, mech.sizes[e], marks, pt[P_CURSOR], base + b0)
    nck = ck.shape[0]
    for t in range(b0, b1):
        if base + t == nxt:  # a tumble or landmark starts here: the statistics restart empty
            restart(tree, st, held, pt[P_TAIL] - base, t, y, mem, wl, grps.unit, grps.grp, grps.pos, rk)
            held = 0
            pt[P_TAIL] = base + t
            nxt, cursor = next_restart(kind, mech.sizes[e], marks, cursor, base + t + 1)
        if is_member(mem, t):
            if faded:
                m = advance(m, step)
                if tree_overdue(m):
                    scale_trees(tree, 1.0 / m)
                    m = 1.0
                decay(st, fade)
            ustep(tree, st, grps.grp, grps.pos, rk[t], y[t], member_weight(wl, has_w, grps.unit, t), 1.0, m)
            held += 1
        while ci < nck and ck[ci] == t:
            store(snap[:, :, :, ci], st)
            ci += 1
    state.scale[l, e] = m
    pt[P_HELD] = held
    pt[P_CURSOR] = cursor
    return ci


@nb.njit(cache=True)
def slide(inp, grps, mech, state, l, e, t_begin, b0, b1, base, ck, ci, snap):
    """A sliding window (``WINDOW`` of ``size`` members, or ``ADWIN``) over ``[b0, b1)``; returns the next checkpoint.

    Each member is added, then the oldest members leave while more than the limit are held; a
    leaving member is read back from the inputs at the tail.
    """
    kind = mech.kinds[e]
    limits = mech.limits[l, max(mech.aslot[e], 0)]
    y, mem, wl, has_w, st, pt = _series(inp, state, l, e)
    rk = inp.sranks[l]
    tree = state.strees[l, mech.slot[e]]
    tail = pt[P_TAIL] - base
    held = pt[P_HELD]
    nck = ck.shape[0]
    for t in range(b0, b1):
        if is_member(mem, t):
            ustep(tree, st, grps.grp, grps.pos, rk[t], y[t], member_weight(wl, has_w, grps.unit, t), 1.0, 1.0)
            held += 1
            lim = sliding_limit(kind, mech.sizes[e], limits, t - t_begin)
            while held > lim:
                r = next_member(mem, tail)
                ustep(tree, st, grps.grp, grps.pos, rk[r], y[r], member_weight(wl, has_w, grps.unit, r), -1.0, 1.0)
                held -= 1
                tail = r + 1
        while ci < nck and ck[ci] == t:
            store(snap[:, :, :, ci], st)
            ci += 1
    pt[P_TAIL] = tail + base
    pt[P_HELD] = held
    return ci


@nb.njit(cache=True, nogil=True)
def run(inp, grps, mech, state, span, which, ck, snap):
    """The estimators ``which`` of every series over ``[t_begin, T)`` (arguments: see the module docstring)."""
    base, t_begin = span
    L = state.stat.shape[0]
    T = inp.y.shape[0]
    for l in range(L):
        ci0 = np.int64(0)
        for b0 in range(t_begin, T, BLOCK):
            b1 = min(T, b0 + BLOCK)
            ci1 = ci0
            for e in which:
                if is_sliding(mech.kinds[e]):
                    ci1 = slide(inp, grps, mech, state, l, e, t_begin, b0, b1, base, ck, ci0, snap[l, e])
                else:
                    ci1 = accumulate(inp, grps, mech, state, l, e, b0, b1, base, ck, ci0, snap[l, e])
            ci0 = ci1


@nb.njit(cache=True, nogil=True)
def rebuild_sliding(inp, grps, mech, state, which, base, h):
    """The sliding windows' trees over a new key space, from the members they hold (before index ``h``)."""
    for l in range(state.stat.shape[0]):
        for e in which:
            if is_sliding(mech.kinds[e]):
                held_trees(
                    state.strees[l, mech.slot[e]],
                    inp.y,
                    inp.member[l],
                    inp.weights[l],
                    grps.unit,
                    grps.grp,
                    inp.sranks[l],
                    state.ptr[l, e, P_TAIL] - base,
                    h,
                )
