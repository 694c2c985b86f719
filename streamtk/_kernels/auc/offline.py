"""Offline exact prequential and faded AUC of a recorded binary stream (divide and conquer over time).

The one-pass binary path knows every rank before it starts, so the cumulative
estimators (prequential, ``alpha = 1``, and fading factors ``alpha < 1``) need no
online structure over the global rank space. Number the evaluated instances
``q = 0, 1, ...``; at ``q = t`` the Fenwick kernels (:mod:`.general`, :mod:`.binary`)
add ``g_t * D_t`` to ``U1`` with

``D_t = sum_{j < t, opposite class} g_j alpha**(t - j) H``

(``H = 1`` below the rank of a positive / above the rank of a negative, ``1/2`` on a
tie); a fading estimator first multiplies ``U1`` by ``alpha**2`` and ``W`` by ``alpha``.
A negative's ``D_t`` is the faded positive weight ``W1`` minus the positives' weight
below its rank (ties one half), as in :func:`.step.binary_step`. So
each estimator needs, per evaluated instance, ``B_t`` = *the opposite class's faded
weight below its rank, ties one half*; :func:`dominance_sums` computes it offline.

Why: with ``R ~ n`` distinct ranks the Fenwick tree over the global rank space
(``(R + 1, 2, Ec)``, 320 MB at ``n = 10**7``) lives in memory and every walk is a chain
of cache misses (~190-210 ns per instance for prequential + fading, prefetch included).
Here every tree is cache resident and the large arrays are read sequentially or
written through a bounded number of sequential streams. Time is cut into blocks of
``C`` evaluated instances (``C = BLOCK = 2**14``, ``B = ceil(m / C)`` blocks); a pair
``j < t`` is either

* *cross-block* (``block(j) < block(t)``): one sweep over the instances in rank order
  (stable LSD radix sort: ties keep time order) with a Fenwick tree over the ``B``
  block indices (``(B + 1, 2, 2)``, 20 KB at ``n = 10**7``): an instance queries the
  opposite class's weight in earlier blocks, then adds its own weight at its block.
  Equal ranks (a run of the sweep) query before and after the run is added and take
  the mean (ties one half); a run of one instance queries once. The sweep appends each
  instance to its block's bucket (``B`` sequential write streams);
* *in-block*: per block, the bucket (rank order, block-local dense ranks assigned in
  the sweep) is placed in time order and a Fenwick tree over the local ranks
  (``(C + 1, 2, 2)``, 512 KB, L2) is walked in time order, as the sliding window does.

This is the divide and conquer over time cut at two levels (blocks, instances) with a
Fenwick tree at each level instead of ``log2(n)`` merge passes: a first prototype with
a branch-free merge / partition per level (24 levels, records moved every level)
measured ~6-7 ns per instance per level, ~240 ns in all, slower than the kernel.

Fading without overflow: a Fenwick node ``i`` over blocks holds its weights faded to
its right boundary ``i C`` (``g_j alpha**(iC - j) <= g_j``); a query from block ``b``
scales node ``i`` by ``alpha**((b - i) C)`` and the sum by ``alpha**(t - bC)``; an
update scales ``g_j alpha**((b + 1) C - j)`` by ``alpha**((i - b - 1) C)``: every factor
is a power ``<= 1`` read from a table (``B + 1`` and ``C + 1`` entries, one ``pow``
each, no accumulated rounding). The in-block trees hold ``g_j alpha**-(j - k0)`` from
a table of ``alpha**-k <= 1e200`` and move the base ``k0`` (renormalise, ``O(C)``) when
the table ends (:func:`_rebase_at`; never for ``alpha >= 0.972``).

Cost (n = R = 10**7, prequential + fading, unit weights, ns per instance, noisy):
sort ~18, sweep ~40, in-block ~33, allocation and the final recursion ~15: ~100-115
against ~200-220 for the Fenwick kernel measured in the same runs. With weights the
sort carries them (+~20); weights that are all 1 are detected and treated as unit.

Exactness: with unit weights and ``alpha = 1`` every sum is an integer or half-integer
below ``2**53``: equal to the Fenwick kernel exactly. With weights or fading the same
terms are summed in another order: relative differences ~1e-14 (the kernel's own
``W1 - below`` cancels to ~1e-16 W where the exact value is 0).

Used only for a whole stream in one chunk (:class:`streamtk.evaluation.auc_engine.AucEngine`, ``last=True``
on a fresh state) from :data:`OFFLINE_MIN_RANKS` distinct ranks; chunk by chunk the Fenwick trees carry
the state.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..fenwick import add_pair, below_half_pair
from .step import binary_step, binary_store, count_members

#: time block (evaluated instances) of the in-block trees: ``(C + 1, 2, 2)`` floats (512 KB, in
#: L2); measured on n = R = 10**7 (prequential + fading, noisy): 2**12 / 2**14 / 2**15 ->
#: 116 / 109 / 112 ns per instance
BLOCK = 1 << 14
#: the one-pass path runs the cumulative estimators offline from this many distinct ranks;
#: below, the Fenwick tree ``(R + 1, 2, Ec)`` is (mostly) cached and the kernel is faster.
#: Measured (n = 4 * 10**6, prequential + fading, ns per instance, kernel / offline):
#: R = 10**4: 36 / 103; 10**5: 53 / 102; 0.94 * 10**6: 76 / 107; 4 * 10**6: 159 / 101
OFFLINE_MIN_RANKS = 1 << 21
#: largest inverse power ``alpha**-k`` an in-block tree holds before it rebases
SCALE_MAX = 1e200


def use_offline(n, n_ranks, parallel=1):
    """Whether :func:`cumulative_offline` should replace the Fenwick trees of the one-pass path.

    ``n_ranks >= OFFLINE_MIN_RANKS`` (the kernel's tree leaves the cache), keys
    ``rank << 32 | q << 1 | class`` that fit (``n, n_ranks < 2**31``), and at most two
    leads running at once in the kernel (``parallel = min(leads, numba threads)``): the
    offline path runs leads one after another (~2x faster per lead; a ``prange``
    wrapper cost +2.3 s of cold compile time, not kept).
    """
    return OFFLINE_MIN_RANKS <= n_ranks < (1 << 31) and n < (1 << 31) and parallel <= 2


@nb.njit(cache=True)
def _powers(alpha, step, count):
    """``alpha**(k * step)`` for ``k < count`` (``pow`` per entry: no accumulated rounding)."""
    out = np.empty(count)
    for k in range(count):
        out[k] = alpha ** (k * step)
    return out


@nb.njit(cache=True)
def _sort_by_rank(ranks, cls, g, n_ranks, unit, scratch):
    """Evaluated instances in rank order, ties in time order.

    Returns ``(key, gs)``: the int64 keys ``rank << 32 | q << 1 | class`` sorted, and the
    weights in the same order (empty when ``unit``). LSD radix sort in an even number of
    passes (2 digits of <= 12 bits up to ``2**24`` ranks, else 4): sequential reads and
    at most 4096 write streams, instead of a counting sort scattering over all
    ``n_ranks`` (in the first prototype a counting sort plus setup took ~85 ns per
    instance at R = 10**7, this sort ~18); the even count leaves the keys in the returned array and the int64
    ``scratch`` (``(m,)``, memory reused by the caller afterwards) free.
    """
    m = ranks.shape[0]
    key = np.empty(m, dtype=np.int64)
    for q in range(m):
        key[q] = (ranks[q] << 32) | (q << 1) | cls[q]
    gs = g.copy() if not unit else g[:0].copy()
    if m <= 1:
        return key, gs
    nbits = 1
    while (n_ranks - 1) >> nbits > 0:
        nbits += 1
    npass = 2 if nbits <= 24 else 4
    dbits = (nbits + npass - 1) // npass
    k2 = scratch
    g2 = np.empty(gs.shape[0])
    nb = 1 << dbits
    mask = nb - 1
    cnt = np.empty(nb, dtype=np.int64)
    for ps in range(npass):
        sh = 32 + ps * dbits
        cnt[:] = 0
        for i in range(m):
            cnt[(key[i] >> sh) & mask] += 1
        tot = 0
        for d in range(nb):
            c = cnt[d]
            cnt[d] = tot
            tot += c
        for i in range(m):
            k = key[i]
            d = (k >> sh) & mask
            p = cnt[d]
            cnt[d] = p + 1
            k2[p] = k
            if not unit:
                g2[p] = gs[i]
        key, k2 = k2, key
        gs, g2 = g2, gs
    return key, gs


@nb.njit(cache=True, inline="always")
def _block_query(bt, b, opp, P0, P1):
    """Opposite-class weight of blocks ``< b`` (1-based prefix ``b``) faded to the start of block ``b``."""
    s0 = 0.0
    s1 = 0.0
    i = b
    while i > 0:
        s0 += bt[i, opp, 0] * P0[b - i]
        s1 += bt[i, opp, 1] * P1[b - i]
        i -= i & (-i)
    return s0, s1


@nb.njit(cache=True, inline="always")
def _block_update(bt, b, c, u0, u1, P0, P1):
    """Add weights ``u0``, ``u1`` (faded to the end of block ``b``) to the nodes over block ``b``."""
    nb = bt.shape[0]
    i0 = b + 1
    i = i0
    while i < nb:
        bt[i, c, 0] += u0 * P0[i - i0]
        bt[i, c, 1] += u1 * P1[i - i0]
        i += i & (-i)


@nb.njit(cache=True)
def _cross_sweep(key, gs, unit, m, C, sh, alpha0, alpha1, buck):
    """Cross-block sums in one sweep in rank order.

    Writes, per block ``b``, its instances in rank order to rows ``bC .. bC + size_b`` of
    ``buck`` ``(m, 3)``: ``(offset in block << 32 | block-local rank (1-based, dense)``
    as int64 bits, ``B0``, ``B1)``: one sequential write stream per block (a scatter to
    time order would miss the cache per instance).
    """
    bk = buck.view(np.int64)[:, 0]
    B = (m + C - 1) // C
    bt = np.zeros((B + 1, 2, 2))
    P0 = _powers(alpha0, C, B + 1)
    P1 = _powers(alpha1, C, B + 1)
    p0 = _powers(alpha0, 1, C + 1)
    p1 = _powers(alpha1, 1, C + 1)
    fill = np.zeros(B, dtype=np.int64)  # instances of each block written so far
    lcnt = np.zeros(B, dtype=np.int64)
    llast = np.full(B, -1, dtype=np.int64)
    qmask = (1 << 31) - 1
    cm = C - 1
    i = 0
    while i < m:
        k = key[i]
        r = k >> 32
        j = i + 1
        while j < m and (key[j] >> 32) == r:
            j += 1
        if j == i + 1:
            q = (k >> 1) & qmask
            c = k & 1
            b = q >> sh
            tq = q & cm
            s0, s1 = _block_query(bt, b, 1 - c, P0, P1)
            g = 1.0 if unit else gs[i]
            _block_update(bt, b, c, g * p0[C - tq], g * p1[C - tq], P0, P1)
            lc = lcnt[b] + (1 if llast[b] != r else 0)
            lcnt[b] = lc
            llast[b] = r
            f = fill[b]
            fill[b] = f + 1
            d = (b << sh) + f
            bk[d] = (tq << 32) | lc
            buck[d, 1] = s0 * p0[tq]
            buck[d, 2] = s1 * p1[tq]
        else:
            # a run of equal ranks: mean of the queries before and after the run is added
            for u in range(i, j):
                k = key[u]
                q = (k >> 1) & qmask
                b = q >> sh
                s0, s1 = _block_query(bt, b, 1 - (k & 1), P0, P1)
                d = (b << sh) + fill[b]
                fill[b] += 1
                buck[d, 1] = s0
                buck[d, 2] = s1
            for u in range(i, j):
                k = key[u]
                q = (k >> 1) & qmask
                b = q >> sh
                tq = q & cm
                g = 1.0 if unit else gs[u]
                _block_update(bt, b, k & 1, g * p0[C - tq], g * p1[C - tq], P0, P1)
                if llast[b] != r:
                    llast[b] = r
                    lcnt[b] += 1
            for u in range(j - 1, i - 1, -1):  # each block's run entries are the last ones written
                k = key[u]
                q = (k >> 1) & qmask
                b = q >> sh
                tq = q & cm
                s0, s1 = _block_query(bt, b, 1 - (k & 1), P0, P1)
                fill[b] -= 1
                d = (b << sh) + fill[b]
                bk[d] = (tq << 32) | lcnt[b]
                buck[d, 1] = 0.5 * (buck[d, 1] + s0) * p0[tq]
                buck[d, 2] = 0.5 * (buck[d, 2] + s1) * p1[tq]
            for u in range(i, j):
                b = ((key[u] >> 1) & qmask) >> sh
                fill[b] += 1
        i = j


@nb.njit(cache=True)
def _rebase_at(alpha, C):
    """Steps after which an in-block scale ``alpha**-k`` is rebased (it stays ``<= SCALE_MAX``)."""
    if alpha >= 1.0:
        return C + 1
    k = int(np.log(SCALE_MAX) / -np.log(alpha))
    return max(1, min(k, C + 1))


@nb.njit(cache=True, inline="always")
def _rescale(tree, e, f, size):
    """Rebase estimator ``e`` of an in-block tree: both classes' weights times ``f``."""
    for i in range(size + 1):
        tree[i, 0, e] *= f
        tree[i, 1, e] *= f


@nb.njit(cache=True)
def _in_block(cls, g, unit, m, C, alpha0, alpha1, buck):
    """Per block: bucket (rank order) -> time order, then a Fenwick tree over local ranks in time
    order adds the in-block sums; writes ``buck[q, 1:3] = (B0, B1)`` in time order (in place:
    a block's rows are read into a local buffer first).

    Weights are stored as ``g_j alpha**-(j - k0)`` (table, exact ``pow``) and queries scaled by
    ``alpha**(t - k0)``; the base ``k0`` moves (tree renormalised, O(C)) every
    :func:`_rebase_at` steps (never for ``alpha >= 0.972`` and ``C = 2**14``).
    """
    bk = buck.view(np.int64)[:, 0]
    tree = np.zeros((C + 1, 2, 2))
    loc = np.empty((C, 3))
    K0 = _rebase_at(alpha0, C)
    K1 = _rebase_at(alpha1, C)
    p0 = _powers(alpha0, 1, K0 + 1)
    p1 = _powers(alpha1, 1, K1 + 1)
    ip0 = _powers(1.0 / alpha0, 1, K0 + 1)
    ip1 = _powers(1.0 / alpha1, 1, K1 + 1)
    for s in range(0, m, C):
        e = min(s + C, m)
        size = e - s
        for i in range(size):
            kk = bk[s + i]
            d = loc[kk >> 32]
            d[0] = kk & 0xFFFFFFFF
            d[1] = buck[s + i, 1]
            d[2] = buck[s + i, 2]
        for i in range(size + 1):
            tree[i, 0, 0] = 0.0
            tree[i, 0, 1] = 0.0
            tree[i, 1, 0] = 0.0
            tree[i, 1, 1] = 0.0
        k0 = 0
        k1 = 0
        for q in range(s, e):
            t = q - s
            if t - k0 == K0:
                _rescale(tree, 0, p0[K0], size)
                k0 = t
            if t - k1 == K1:
                _rescale(tree, 1, p1[K1], size)
                k1 = t
            d = loc[t]
            ii = np.int64(d[0])
            c = cls[q]
            opp = 1 - c
            v0, v1 = below_half_pair(tree, ii, opp, 0, 1, True)
            buck[q, 1] = d[1] + v0 * p0[t - k0]
            buck[q, 2] = d[2] + v1 * p1[t - k1]
            gq = 1.0 if unit else g[q]
            u0 = gq * ip0[t - k0]
            u1 = gq * ip1[t - k1]
            add_pair(tree[: size + 1], ii, c, 0, 1, True, u0, u1)


@nb.njit(cache=True)
def dominance_sums(ranks, cls, g, unit, alpha0, alpha1, n_ranks, block):
    """The opposite class's faded weight below each evaluated instance's rank, ties one half.

    Parameters
    ----------
    ranks : int64 ``(m,)`` global ranks ``< n_ranks < 2**31`` of the evaluated instances
        in time order; ``cls`` int64 ``(m,)`` 1 positive / 0 negative; ``g`` float64
        ``(m,)`` weights ``> 0``.
    alpha0, alpha1 : two fading factors in ``(0, 1]`` (``1`` = prequential), one pass.
    block : int, the time block ``C`` (a power of two).

    Returns
    -------
    float64 ``(m, 2)`` (a view): ``B_t = sum_{j < t, cls_j != cls_t} g_j alpha**(t - j) (1 if r_j < r_t, 1/2 if equal)``
    for ``alpha0`` and ``alpha1``.
    """
    m = ranks.shape[0]
    buck = np.empty((m, 3))
    if m == 0:
        return buck[:, 1:]
    C = block
    sh = 0
    while (1 << sh) < C:
        sh += 1
    key, gs = _sort_by_rank(ranks, cls, g, n_ranks, unit, buck.reshape(-1)[:m].view(np.int64))
    _cross_sweep(key, gs, unit, m, C, sh, alpha0, alpha1, buck)
    _in_block(cls, g, unit, m, C, alpha0, alpha1, buck)
    return buck[:, 1:]


@nb.njit(cache=True)
def _members(rl, yl, mem, wl, unit):
    """The members' ``(ranks, classes, weights)`` in time order (views when every position is one) and whether
    every weight is 1 (then the weights are not read: an empty array)."""
    n = rl.shape[0]
    plain = unit or wl.shape[0] == 0
    if mem.shape[0] == 0:
        ones = plain
        if not plain:
            ones = True
            for t in range(n):
                if wl[t] != 1.0:
                    ones = False
                    break
        return rl, yl, wl[: 0 if ones else n], ones
    m = count_members(mem, n)
    r = np.empty(m, dtype=np.int64)
    c = np.empty(m, dtype=np.int64)
    g = np.empty(0 if plain else m)
    ones = True
    q = 0
    for t in range(n):
        if mem[t]:
            r[q] = rl[t]
            c[q] = yl[t]
            if not plain:
                g[q] = wl[t]
                ones = ones and wl[t] == 1.0
            q += 1
    return r, c, g[: 0 if ones else m], ones


@nb.njit(cache=True)
def _statistics(c, g, unit, a, D, col, mem, cps, out):
    """The kernels' recursion of the statistics over the members from the sums ``D[:, col]``, written to
    ``out (len(cps), 3, 1, 2)`` at the checkpoint positions ``cps`` (:func:`.step.binary_step`; a fading
    factor first decays ``U1`` by ``a**2`` and the weights by ``a``)."""
    U = W0 = W1 = N0 = N1 = 0.0
    ncp = cps.shape[0]
    fade = a < 1.0
    q = 0
    k = 0
    for t in range(cps[ncp - 1] + 1 if ncp else 0):
        if mem.shape[0] == 0 or mem[t]:
            if fade:
                U *= a * a
                W0 *= a
                W1 *= a
            gq = 1.0 if unit else g[q]
            U, W0, W1, N0, N1 = binary_step(U, W0, W1, N0, N1, c[q] == 1, gq, D[q, col], 1.0)
            q += 1
        while k < ncp and cps[k] == t:
            binary_store(out[k], U, W0, W1, N0, N1)
            k += 1


@nb.njit(cache=True, nogil=True)
def cumulative_offline(rl, yl, mem, wl, unit, alphas, n_ranks, cps, out, block):
    """Prequential (``alpha = 1``) and faded AUC statistics of one series by :func:`dominance_sums`.

    Parameters
    ----------
    rl : int64 ``(n,)`` global ranks ``< n_ranks``; ``yl`` int64 ``(n,)`` 1 positive / 0 negative;
        ``mem`` uint8 ``(n,)`` the members (empty: every position); ``wl`` float64 ``(n,)`` weights
        (empty: none).
    unit : bool, every member weighs 1.
    alphas : float64 ``(Ec,)`` cumulative estimators (1.0 prequential, else fading).
    cps : int64 sorted checkpoint positions; ``out`` float64 ``(Ec, len(cps), 3, 1, 2)`` receives the
        statistics of :mod:`.layout` as the Fenwick kernels write them for a fresh state.
    block : int, the time block of :func:`dominance_sums` (a power of two).
    """
    r, c, g, unit = _members(rl, yl, mem, wl, unit)  # weights all 1: the same sums without carrying them
    Ec = alphas.shape[0]
    for e0 in range(0, Ec, 2):
        e1 = e0 + 1 if e0 + 1 < Ec else e0
        D = dominance_sums(r, c, g, unit, alphas[e0], alphas[e1], n_ranks, block)
        _statistics(c, g, unit, alphas[e0], D, 0, mem, cps, out[e0])
        if e1 != e0:
            _statistics(c, g, unit, alphas[e1], D, 1, mem, cps, out[e1])
