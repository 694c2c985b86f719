"""Fenwick (binary indexed) trees: the one implementation behind every U-statistics driver.

A tree over ``D`` positions is an array whose first axis has ``D + 1`` entries (entry 0 is
unused); positions are 1-based. Node ``j`` holds the sum of the point values at positions
``(j - lowbit(j), j]`` with ``lowbit(j) = j & -j`` (Fenwick 1994). Two layouts are used:

* a *row*: a 1-D tree (one class of one score column of one estimator);
* an *interleaved* tree ``(D + 1, 2, E)``: the two classes of ``E`` estimators that add the same
  instances at the same positions (prequential and fading factors of a binary problem), so one
  walk serves two estimators (their nodes share cache lines): :func:`below_half_pair`,
  :func:`add_pair`.

Operations: :func:`add` (``O(log D)``), :func:`below_half` (the prefix sum below a position plus
half the point value at it, in one walk: ties count one half in the Mann-Whitney statistic),
:func:`build` / :func:`points` (point values <-> tree in ``O(D)``), :func:`rekey` (move a tree to
a larger key space in ``O(D)``), :func:`prefetch` (software prefetch of both walks of a
position, for trees too large for the cache).
"""

from __future__ import annotations

import numba as nb

from .prefetch import prefetch_read, prefetch_write


@nb.njit(cache=True, inline="always")
def add(tree, i, g):
    """Add ``g`` at 1-based position ``i`` of a row tree."""
    m = tree.shape[0]
    while i < m:
        tree[i] += g
        i += i & (-i)


@nb.njit(cache=True, inline="always")
def below_half(tree, i):
    """``sum_{j < i} x_j + x_i / 2`` for the 1-based position ``i`` of a row tree, in one walk.

    The walk from ``i - 1`` down passes ``z = i - lowbit(i)``; the nodes above ``z`` sum to the
    head ``a`` with ``x_i = tree[i] - a``, and the whole walk is the prefix sum below ``i``. The
    head is a select-updated copy of the running sum (off its dependency chain): one loop and
    one loop exit (one mispredicted branch) per query.
    """
    z = i - (i & (-i))
    acc = 0.0
    a = 0.0
    j = i - 1
    while j > 0:
        acc += tree[j]
        a = acc if j > z else a
        j -= j & (-j)
    return acc + 0.5 * (tree[i] - a)


@nb.njit(cache=True, inline="always")
def below_half_pair(tree, i, c, e0, e1, two):
    """:func:`below_half` of class ``c`` of estimators ``e0`` and (if ``two``) ``e1`` of an interleaved tree.

    The same additions in the same order as :func:`below_half` on each estimator's own row, so
    the values are bit-identical. Returns ``(p0, p1)`` (``p1 = 0`` without ``two``).
    """
    z = i - (i & (-i))
    acc0 = 0.0
    acc1 = 0.0
    a0 = 0.0
    a1 = 0.0
    j = i - 1
    while j > 0:
        acc0 += tree[j, c, e0]
        if two:
            acc1 += tree[j, c, e1]
        if j > z:
            a0 = acc0
            a1 = acc1
        j -= j & (-j)
    p0 = acc0 + 0.5 * (tree[i, c, e0] - a0)
    p1 = acc1 + 0.5 * (tree[i, c, e1] - a1) if two else 0.0
    return p0, p1


@nb.njit(cache=True, inline="always")
def add_pair(tree, i, c, e0, e1, two, g0, g1):
    """:func:`add` of ``g0`` (estimator ``e0``) and ``g1`` (``e1`` if ``two``) to class ``c`` of an interleaved tree."""
    m = tree.shape[0]
    while i < m:
        tree[i, c, e0] += g0
        if two:
            tree[i, c, e1] += g1
        i += i & (-i)


@nb.njit(cache=True)
def build(x):
    """In place: point values at 1-based positions (rows of ``x (D + 1, F)``) -> their trees, ``O(D F)``."""
    m = x.shape[0] - 1
    F = x.shape[1]
    for i in range(1, m + 1):
        k = i + (i & (-i))
        if k <= m:
            for f in range(F):
                x[k, f] += x[i, f]


@nb.njit(cache=True)
def points(tree):
    """In place: trees ``(D + 1, F)`` -> their point values (the inverse of :func:`build`), ``O(D F)``."""
    m = tree.shape[0] - 1
    F = tree.shape[1]
    for i in range(m, 0, -1):
        k = i + (i & (-i))
        if k <= m:
            for f in range(F):
                tree[k, f] -= tree[i, f]


@nb.njit(cache=True)
def rekey(old, pos, new):
    """Move trees ``old (Do + 1, F)`` to a larger key space: ``new (Dn + 1, F)``, zero on entry.

    ``pos[j]`` is the 0-based position in the new key space of old position ``j``. ``old`` is
    destroyed (turned into point values). ``O(Do + Dn)``; a relabelling that keeps the order of
    the keys changes no comparison, so the U statistics stay valid.
    """
    points(old)
    F = old.shape[1]
    for j in range(pos.shape[0]):
        for f in range(F):
            new[pos[j] + 1, f] = old[j + 1, f]
    build(new)


@nb.njit(cache=True, inline="always")
def prefetch(tree, i, depth):
    """Prefetch the first ``depth`` nodes of both walks of 1-based position ``i`` (tree along axis 0).

    The query walk ``j = i - 1, j -= lowbit(j)`` is prefetched for reading, the update walk
    ``j = i, j += lowbit(j)`` with intent to write. Their first nodes (small lowbit) lie near
    ``i`` and miss the cache on a large tree; the last ones are few and shared by every
    position, so they stay cached. A prefetch is a hint: it never faults, never changes a value.
    """
    m = tree.shape[0]
    j = i - 1
    k = 0
    while j > 0 and k < depth:
        prefetch_read(tree, j)
        j -= j & (-j)
        k += 1
    j = i
    k = 0
    while j < m and k < depth:
        prefetch_write(tree, j)
        j += j & (-j)
        k += 1
