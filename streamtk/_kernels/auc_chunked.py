"""Exact U statistics carried across chunks: re-keying the Fenwick trees of :mod:`.auc`.

A chunked evaluation cannot rank-compress the whole stream up front. Instead every
estimator group keeps, per lead ``l`` and score column ``c``, a sorted array of the
distinct scores it still holds (its *key space*, ``keys[l, c, :nk[l, c]]``) and its
Fenwick trees (layout of :mod:`streamtk._kernels.auc`: ``tree (L, E, C, G, D + 1)``)
are indexed by position in that key space. When a chunk brings scores the key space
does not have, the numpy layer merges them in and the trees are moved to the new key
space in ``O(D)``:

* cumulative estimators (prequential, fading factors) remember every distinct score
  seen: :func:`rekey` turns each tree into its point values (:func:`fenwick_points`),
  scatters them to the new positions and rebuilds it (:func:`fenwick_build`);
* sliding and ADWIN windows hold few instances: :func:`build_held` rebuilds their
  trees from the instances they hold, in the key space of those instances and the
  new chunk (so keys whose count fell to zero are dropped and the tree stays bounded
  by the window plus the chunk).

The U, W and N sums are carried unchanged (a relabelling of ranks that keeps their
order changes no pair's comparison). The re-keying kernels run once per chunk in
``O(D)`` and loop over the leads serially (cheap to compile); the per-instance loop
:func:`binary_cumulative_run` runs the leads in parallel.
"""

from __future__ import annotations

import numba
import numpy as np

from .auc import PREFETCH_AHEAD, PREFETCH_DEPTH, PREFETCH_MIN_ROWS, cumulative_add
from .prefetch import fenwick_prefetch


@numba.njit(cache=True)
def fenwick_points(tree):
    """In place: a Fenwick tree (1-based, ``tree[0]`` unused) -> its point values. ``O(D)``."""
    m = tree.shape[0] - 1
    for i in range(m, 0, -1):
        k = i + (i & (-i))
        if k <= m:
            tree[k] -= tree[i]


@numba.njit(cache=True)
def fenwick_build(x):
    """In place: point values at 1-based positions -> their Fenwick tree. ``O(D)``."""
    m = x.shape[0] - 1
    for i in range(1, m + 1):
        k = i + (i & (-i))
        if k <= m:
            x[k] += x[i]


@numba.njit(cache=True)
def rekey(old_tree, old_keys, old_nk, new_keys, new_nk, new_tree):
    """Move cumulative trees to a larger key space.

    ``old_tree (L, E, C, G, Do + 1)`` (destroyed: turned into point values) over
    ``old_keys[l, c, :old_nk[l, c]]``; ``new_keys`` ``(L, C, Dn)`` sorted, a superset of
    the old keys per ``(l, c)``; ``new_tree (L, E, C, G, Dn + 1)`` zero on entry, the
    rebuilt trees on exit.
    """
    L, E, C, G = old_tree.shape[0], old_tree.shape[1], old_tree.shape[2], old_tree.shape[3]
    for li in range(L):
        l = np.int64(li)
        for c in range(C):
            for e in range(E):
                for g in range(G):
                    fenwick_points(old_tree[l, e, c, g])
            p = 0
            nn = new_nk[l, c]
            for j in range(old_nk[l, c]):
                key = old_keys[l, c, j]
                while p < nn and new_keys[l, c, p] != key:
                    p += 1
                for e in range(E):
                    for g in range(G):
                        new_tree[l, e, c, g, p + 1] = old_tree[l, e, c, g, j + 1]
            for e in range(E):
                for g in range(G):
                    fenwick_build(new_tree[l, e, c, g])


@numba.njit(cache=True)
def build_held(ranks, y, w, grp, unit, tail, end, tree):
    """Trees ``tree[l, 0]`` of a window from the instances it holds.

    The window of lead ``l`` holds the evaluated instances ``tail[l] <= j < end``
    (label ``y[j] >= 0``, weight ``w[j] > 0``); ``ranks (L, m, C)`` are their positions
    in the window's new key space; ``tree (L, 1, C, G, D + 1)`` zero on entry.
    """
    L = ranks.shape[0]
    C = ranks.shape[2]
    G = tree.shape[3]
    Ly = y.shape[0]
    Lw = w.shape[0]
    for li in range(L):
        l = np.int64(li)
        yl = y[l if Ly > 1 else 0]
        wl = w[l if Lw > 1 else 0]
        for j in range(tail[l], end):
            if yl[j] >= 0 and wl[j] > 0.0:
                g = 1.0 if unit else wl[j]
                for c in range(C):
                    tree[l, 0, c, grp[c, yl[j]], ranks[l, j, c] + 1] += g
        for c in range(C):
            for h in range(G):
                fenwick_build(tree[l, 0, c, h])


@numba.njit(cache=True)
def rekey_interleaved(old_tree, old_keys, old_nk, new_keys, new_nk, new_tree):
    """:func:`rekey` for the binary cumulative layout ``tree (L, D + 1, 2, Ec)`` (one score column).

    Same arithmetic as :func:`fenwick_points` / :func:`fenwick_build`, with the
    ``(2, Ec)`` values of a position handled together (contiguous memory).
    """
    L, G, E = old_tree.shape[0], old_tree.shape[2], old_tree.shape[3]
    for li in range(L):
        l = np.int64(li)
        old = old_tree[l]
        new = new_tree[l]
        m = old.shape[0] - 1
        for i in range(m, 0, -1):
            k = i + (i & (-i))
            if k <= m:
                for g in range(G):
                    for e in range(E):
                        old[k, g, e] -= old[i, g, e]
        p = 0
        nn = new_nk[l, 0]
        for j in range(old_nk[l, 0]):
            key = old_keys[l, 0, j]
            while p < nn and new_keys[l, 0, p] != key:
                p += 1
            for g in range(G):
                for e in range(E):
                    new[p + 1, g, e] = old[j + 1, g, e]
        m = new.shape[0] - 1
        for i in range(1, m + 1):
            k = i + (i & (-i))
            if k <= m:
                for g in range(G):
                    for e in range(E):
                        new[k, g, e] += new[i, g, e]


@numba.njit(cache=True)
def merge_keys(old, u):
    """Merge two sorted arrays of distinct values: ``(merged, old_pos, u_pos)`` in ``O(D + T)``.

    ``merged`` is the sorted union; ``old_pos[j]`` / ``u_pos[i]`` are the positions of
    ``old[j]`` / ``u[i]`` in it.
    """
    D = old.shape[0]
    T = u.shape[0]
    merged = np.empty(D + T)
    old_pos = np.empty(D, dtype=np.int64)
    u_pos = np.empty(T, dtype=np.int64)
    i = 0
    j = 0
    m = 0
    while j < D or i < T:
        if i >= T or (j < D and old[j] < u[i]):
            merged[m] = old[j]
            old_pos[j] = m
            j += 1
        elif j >= D or u[i] < old[j]:
            merged[m] = u[i]
            u_pos[i] = m
            i += 1
        else:
            merged[m] = old[j]
            old_pos[j] = m
            u_pos[i] = m
            j += 1
            i += 1
        m += 1
    return merged[:m], old_pos, u_pos


@numba.njit(cache=True, parallel=True)
def binary_cumulative_run(ranks, y, w, alphas, unit, cps, ctree, cstat, inv, out):
    """Prequential and fading binary AUC over one chunk with the interleaved trees of
    :func:`streamtk._kernels.auc.cumulative_add` (state ``ctree (L, D + 1, 2, Ec)``,
    ``cstat (L, Ec, 5)``, ``inv (L, Ec)`` carried across chunks).

    ``ranks (L, T)`` positions in the key space; ``y (Ly, T)`` 1 / 0 / -1;
    ``w (Lw, T)``; ``cps`` the chunk positions whose ``(U1, W0, W1, N0, N1)`` go to
    ``out (L, Ec, len(cps), 5)``. On a key space past
    :data:`~streamtk._kernels.auc.PREFETCH_MIN_ROWS` the tree nodes of the instance
    ``PREFETCH_AHEAD`` steps ahead are prefetched (as in the one-pass kernel).
    """
    L, T = ranks.shape
    Ly = y.shape[0]
    Lw = w.shape[0]
    Ec = alphas.shape[0]
    ncp = cps.shape[0]
    for li in numba.prange(L):
        l = np.int64(li)
        yl = y[l if Ly > 1 else 0]
        wl = w[l if Lw > 1 else 0]
        k = 0
        pf = Ec > 0 and ctree.shape[1] >= PREFETCH_MIN_ROWS
        for t in range(T):
            if pf and t + PREFETCH_AHEAD < T:
                fenwick_prefetch(ctree[l], ranks[l, t + PREFETCH_AHEAD] + 1, PREFETCH_DEPTH)
            if yl[t] >= 0 and wl[t] > 0.0:
                g = 1.0 if unit else wl[t]
                cumulative_add(ctree[l], cstat[l], inv[l], alphas, ranks[l, t], yl[t] == 1, g)
            if k < ncp and cps[k] == t:
                for e in range(Ec):
                    for c in range(5):
                        out[l, e, k, c] = cstat[l, e, c]
                k += 1
