"""Exact weighted Mann-Whitney U statistics over a stream: Fenwick-tree step functions.

The numpy layer rank-compresses every score column once (ties share a rank), so a
score is an integer rank ``r`` in ``[0, R)``. The state of one (lead, estimator) is

``tree``  float64 ``(C, G, R + 1)``
    one Fenwick (binary indexed) tree per score column ``c`` and *group* ``g``
    holding the weight of the instances of that group at each rank (1-based);
``W``     float64 ``(C, G)``  total weight of each group;
``N``     float64 ``(C, G)``  number of instances of each group (exact integers);
``U``     float64 ``(C, G)``  ``U[c, h]`` = weighted count of (positive, group-``h``)
    pairs ordered correctly on column ``c``, ties counted one half:
    ``sum_{i pos, j in h} g_i g_j (H(q_i - q_j))`` with ``H(0) = 1/2``.

Column ``c`` has one *positive* group ``pos_group[c]``; ``grp[c, k]`` maps a class
code ``k`` to its group on column ``c``. This one layout serves

* binary AUC: ``C = 1``, ``G = 2`` (group 0 negatives, group 1 positives);
* one-vs-rest AUC: ``C = K`` columns, ``G = 2`` (class ``c`` against the rest);
* pairwise (Hand & Till) AUC: ``C = K``, ``G = K``; ``U[i, j]`` is the U statistic of
  class ``i`` against class ``j`` on the class-``i`` score column.

:func:`auc_add` with ``sign = +1`` adds an instance, with ``sign = -1`` exactly removes
an instance added earlier (sliding and ADWIN windows); both cost ``O(G log R)`` per
column. Fading factors use lazy global scaling (:func:`fading_advance`): instance
``s`` is added with weight ``g_s * alpha**-s`` relative to a running scale, so a step is
``O(log R)``; the state is renormalised (``O(C G R)``) only when the scale passes
``RESCALE_AT``.
"""

from __future__ import annotations

import numba
import numpy as np

#: renormalise the faded state when the running scale exceeds this value; U holds
#: products of two scaled weights, so it stays below ~1e200 / (1 - alpha)**2.
RESCALE_AT = 1e100

KIND_PREQUENTIAL = 0
KIND_WINDOW = 1
KIND_FADING = 2


@numba.njit(cache=True)
def fenwick_add(tree, i, g):
    """Add ``g`` at 1-based position ``i`` of a Fenwick tree (``tree[0]`` unused)."""
    m = tree.shape[0]
    while i < m:
        tree[i] += g
        i += i & (-i)


@numba.njit(cache=True)
def fenwick_below_half(tree, i):
    """``sum_{j < i} x_j + x_i / 2`` for 1-based ``i`` in one walk.

    The walk from ``i - 1`` down to ``z = i - lowbit(i)`` gives both the point value
    ``x_i = tree[i] - sum(tree[j] for j on that walk)`` and the head of the prefix
    sum below ``i``; the walk continues from ``z`` for the rest.
    """
    z = i - (i & (-i))
    a = 0.0
    j = i - 1
    while j > z:
        a += tree[j]
        j -= j & (-j)
    at = tree[i] - a
    p = a
    j = z
    while j > 0:
        p += tree[j]
        j -= j & (-j)
    return p + 0.5 * at


@numba.njit(cache=True)
def auc_add(tree, W, N, U, grp, pos_group, ranks, cls, g, sign):
    """Add (``sign = 1``) or remove (``sign = -1``) one instance.

    Parameters
    ----------
    tree, W, N, U : the state of one (lead, estimator), see the module docstring.
    grp : int64 ``(C, K)``, class code -> group per column.
    pos_group : int64 ``(C,)``, the positive group of each column.
    ranks : int64 ``(C,)``, the instance's 0-based score rank on each column.
    cls : int, the instance's class code (``>= 0``).
    g : float, its (scaled) weight, ``> 0``.
    sign : float, ``+1.0`` or ``-1.0``.
    """
    C = tree.shape[0]
    G = tree.shape[1]
    sg = sign * g
    for c in range(C):
        r = ranks[c] + 1
        h = grp[c, cls]
        p = pos_group[c]
        if h == p:
            for hh in range(G):
                if hh != p:
                    U[c, hh] += sg * fenwick_below_half(tree[c, hh], r)
        else:
            U[c, h] += sg * (W[c, p] - fenwick_below_half(tree[c, p], r))
        fenwick_add(tree[c, h], r, sg)
        W[c, h] += sg
        N[c, h] += sign


@numba.njit(cache=True)
def fading_advance(tree, W, U, inv, alpha):
    """Advance the lazy fading scale by one evaluated instance and return it.

    ``inv`` is the scale of the previous instance (``alpha`` before the first one,
    so that the first instance gets weight 1). Every stored weight divided by the
    returned scale is its true faded weight ``alpha**(t - s) g_s``; ``U`` divided by
    its square is the true faded U. Renormalises the whole state when the scale
    passes :data:`RESCALE_AT`.
    """
    inv = inv / alpha
    if inv > RESCALE_AT:
        f = 1.0 / inv
        tree *= f
        W *= f
        U *= f * f
        inv = 1.0
    return inv


@numba.njit(cache=True)
def auc_value(W, N, U, inv, out_U, out_W, out_N):
    """Write the true (unscaled) ``U``, ``W`` and ``N`` of a state into outputs."""
    f = 1.0 / inv
    C = W.shape[0]
    G = W.shape[1]
    for c in range(C):
        for h in range(G):
            out_U[c, h] = U[c, h] * f * f
            out_W[c, h] = W[c, h] * f
            out_N[c, h] = N[c, h]


@numba.njit(cache=True)
def _evaluated(y, w, t):
    return y[t] >= 0 and w[t] > 0.0


@numba.njit(cache=True)
def _run_lead(rl, yl, wl, kinds, params, grp, pos_group, unit, t0, t1, cps, cp0,
              tree, W, N, U, inv, istate, out_U, out_W, out_N):
    E = kinds.shape[0]
    ncp = cps.shape[0]
    k = cp0
    for t in range(t0, t1):
        if _evaluated(yl, wl, t):
            g = 1.0 if unit else wl[t]
            cls = yl[t]
            for e in range(E):
                kind = kinds[e]
                if kind == KIND_WINDOW:
                    cnt = istate[e, 1] + 1
                    if cnt > params[e]:
                        j = istate[e, 0]
                        while not _evaluated(yl, wl, j):
                            j += 1
                        gj = 1.0 if unit else wl[j]
                        auc_add(tree[e], W[e], N[e], U[e], grp, pos_group, rl[j], yl[j], gj, -1.0)
                        istate[e, 0] = j + 1
                        cnt -= 1
                    istate[e, 1] = cnt
                    auc_add(tree[e], W[e], N[e], U[e], grp, pos_group, rl[t], cls, g, 1.0)
                elif kind == KIND_FADING:
                    s = fading_advance(tree[e], W[e], U[e], inv[e], params[e])
                    inv[e] = s
                    auc_add(tree[e], W[e], N[e], U[e], grp, pos_group, rl[t], cls, g * s, 1.0)
                else:
                    auc_add(tree[e], W[e], N[e], U[e], grp, pos_group, rl[t], cls, g, 1.0)
        if k < ncp and cps[k] == t:
            for e in range(E):
                auc_value(W[e], N[e], U[e], inv[e], out_U[e, k], out_W[e, k], out_N[e, k])
            k += 1


@numba.njit(cache=True, parallel=True)
def auc_run(ranks, y, w, kinds, params, grp, pos_group, unit, t0, t1, cps, cp0,
            tree, W, N, U, inv, istate, out_U, out_W, out_N):
    """Drive :func:`auc_add` over instances ``t0 <= t < t1`` for every lead and estimator.

    Parameters
    ----------
    ranks : int64 ``(L, n, C)`` score ranks.
    y : int64 ``(Ly, n)`` class codes, ``-1`` = missing label (not evaluated);
        ``Ly`` is 1 (shared) or ``L``.
    w : float64 ``(Lw, n)`` instance weights, ``0`` = not evaluated; ``Lw`` is 1 or ``L``.
    kinds, params : ``(E,)`` estimator kind codes (0 prequential, 1 window, 2 fading)
        and parameters (window size, fading factor).
    unit : bool, count every evaluated instance with weight 1 (MOA's evaluator).
    t0, t1 : the instances to process; ``cps`` int64 sorted checkpoint instance
        indices, ``cp0`` the first slot to write (the first checkpoint ``>= t0``).
    tree, W, N, U, inv, istate : state ``(L, E, ...)`` carried across calls
        (see :func:`new_state`); ``istate[l, e] = (tail, count)`` for windows: the
        next index that may leave the window and the number of instances inside.
    out_U, out_W, out_N : ``(L, E, T, C, G)`` outputs written at checkpoints.
    """
    L = ranks.shape[0]
    Ly = y.shape[0]
    Lw = w.shape[0]
    for li in numba.prange(L):
        l = np.int64(li)  # the prange index may be unsigned; keep index arithmetic integral
        ly = l if Ly > 1 else np.int64(0)
        lw = l if Lw > 1 else np.int64(0)
        _run_lead(ranks[l], y[ly], w[lw], kinds, params, grp, pos_group, unit, t0, t1, cps, cp0,
                  tree[l], W[l], N[l], U[l], inv[l], istate[l], out_U[l], out_W[l], out_N[l])


def new_state(L, E, C, G, R, kinds, params):
    """Fresh state arrays ``(tree, W, N, U, inv, istate)`` for :func:`auc_run`."""
    tree = np.zeros((L, E, C, G, R + 1))
    W = np.zeros((L, E, C, G))
    N = np.zeros((L, E, C, G))
    U = np.zeros((L, E, C, G))
    inv = np.ones((L, E))
    for e in range(E):
        if kinds[e] == KIND_FADING:
            inv[:, e] = params[e]
    istate = np.zeros((L, E, 2), dtype=np.int64)
    return tree, W, N, U, inv, istate


# --------------------------------------------------------------------------------------
# binary fast path: one score column, two groups, the state of one (lead, estimator) is
# ``tree`` float64 ``(2, R + 1)`` (row 0 negatives, row 1 positives) and ``stat`` float64
# ``(5,)`` = (U1, W0, W1, N0, N1); same semantics as the general layout with C = 1, G = 2.
# --------------------------------------------------------------------------------------

@numba.njit(cache=True)
def binary_add(tree, stat, rank, positive, g, sign):
    """Add (``sign = 1``) or remove (``sign = -1``) one instance of a binary problem.

    ``U1 += g * (W0 below rank + W0 at rank / 2)`` for a positive,
    ``U1 += g * (W1 above rank + W1 at rank / 2)`` for a negative; ``O(log R)``.
    """
    r = rank + 1
    sg = sign * g
    if positive:
        stat[0] += sg * fenwick_below_half(tree[0], r)
        fenwick_add(tree[1], r, sg)
        stat[2] += sg
        stat[4] += sign
    else:
        stat[0] += sg * (stat[2] - fenwick_below_half(tree[1], r))
        fenwick_add(tree[0], r, sg)
        stat[1] += sg
        stat[3] += sign


@numba.njit(cache=True)
def binary_fading_advance(tree, stat, inv, alpha):
    """:func:`fading_advance` for the binary layout."""
    inv = inv / alpha
    if inv > RESCALE_AT:
        f = 1.0 / inv
        tree *= f
        stat[0] *= f * f
        stat[1] *= f
        stat[2] *= f
        inv = 1.0
    return inv


@numba.njit(cache=True)
def _binary_lead(rl, yl, wl, kinds, params, unit, t0, t1, cps, cp0, tree, stat, inv, istate, out):
    E = kinds.shape[0]
    ncp = cps.shape[0]
    k = cp0
    for t in range(t0, t1):
        if _evaluated(yl, wl, t):
            g = 1.0 if unit else wl[t]
            pos = yl[t] == 1
            r = rl[t]
            for e in range(E):
                kind = kinds[e]
                if kind == KIND_WINDOW:
                    cnt = istate[e, 1] + 1
                    if cnt > params[e]:
                        j = istate[e, 0]
                        while not _evaluated(yl, wl, j):
                            j += 1
                        gj = 1.0 if unit else wl[j]
                        binary_add(tree[e], stat[e], rl[j], yl[j] == 1, gj, -1.0)
                        istate[e, 0] = j + 1
                        cnt -= 1
                    istate[e, 1] = cnt
                    binary_add(tree[e], stat[e], r, pos, g, 1.0)
                elif kind == KIND_FADING:
                    s = binary_fading_advance(tree[e], stat[e], inv[e], params[e])
                    inv[e] = s
                    binary_add(tree[e], stat[e], r, pos, g * s, 1.0)
                else:
                    binary_add(tree[e], stat[e], r, pos, g, 1.0)
        if k < ncp and cps[k] == t:
            for e in range(E):
                f = 1.0 / inv[e]
                out[e, k, 0] = stat[e, 0] * f * f
                out[e, k, 1] = stat[e, 1] * f
                out[e, k, 2] = stat[e, 2] * f
                out[e, k, 3] = stat[e, 3]
                out[e, k, 4] = stat[e, 4]
            k += 1


@numba.njit(cache=True, parallel=True)
def binary_auc_run(ranks, y, w, kinds, params, unit, t0, t1, cps, cp0, tree, stat, inv, istate, out):
    """:func:`auc_run` for binary problems (``y`` coded 0 negative, 1 positive, -1 missing).

    ``ranks`` int64 ``(L, n)``; state ``tree (L, E, 2, R + 1)``, ``stat (L, E, 5)``,
    ``inv (L, E)``, ``istate (L, E, 2)``; ``out (L, E, T, 5)`` receives
    ``(U1, W0, W1, N0, N1)`` (true, unscaled values) at every checkpoint.
    """
    L = ranks.shape[0]
    Ly = y.shape[0]
    Lw = w.shape[0]
    for li in numba.prange(L):
        l = np.int64(li)
        ly = l if Ly > 1 else np.int64(0)
        lw = l if Lw > 1 else np.int64(0)
        _binary_lead(ranks[l], y[ly], w[lw], kinds, params, unit, t0, t1, cps, cp0,
                     tree[l], stat[l], inv[l], istate[l], out[l])


def new_binary_state(L, E, R, kinds, params):
    """Fresh state ``(tree, stat, inv, istate)`` for :func:`binary_auc_run`."""
    tree = np.zeros((L, E, 2, R + 1))
    stat = np.zeros((L, E, 5))
    inv = np.ones((L, E))
    for e in range(E):
        if kinds[e] == KIND_FADING:
            inv[:, e] = params[e]
    istate = np.zeros((L, E, 2), dtype=np.int64)
    return tree, stat, inv, istate
