"""The U-statistic step: add or remove one instance, written once for every driver of the AUC family.

State layout and the meaning of ``grp`` / ``pos``: :mod:`.layout`. Exact sums over no member: a
pair sum is only formed when the opposite group holds a member, and a group's weight and pair sums
are set to 0 when its last member leaves a window, so "one class held" gives exactly ``U = W = 0``
(the undefined AUC is NaN, decided by the counts ``N``) and no rounding residue of non-integer
weights survives in the statistics (the tree may keep a residue of ~1e-16 of the weights that left;
with integer weights every sum is exact).
"""

from __future__ import annotations

import numba as nb

from ..fenwick import add, below_half
from .layout import ST_N, ST_U, ST_W

#: a lazily scaled tree is divided by its multiplier ``m`` once ``m`` passes this value: its entries
#: stay below ``1e200 * w_max / (1 - alpha)`` (no overflow); ``alpha = 0.999`` renormalises every
#: ~460,000 members
TREE_RENORM = 1e200


@nb.njit(cache=True, inline="always")
def tree_overdue(m):
    """True when a lazily scaled tree must be divided by its multiplier ``m`` (then ``m = 1``)."""
    return m > TREE_RENORM


@nb.njit(cache=True, inline="always")
def decay(st, a):
    """One member of fading factor ``a``: the true ``U`` (pair sums) times ``a**2``, the weights times ``a``."""
    a2 = a * a
    for c in range(st.shape[1]):
        for h in range(st.shape[2]):
            st[ST_U, c, h] *= a2
            st[ST_W, c, h] *= a


@nb.njit(cache=True)
def ustep(tree, st, grp, pos, rk, cls, g, sign, m):
    """Add (``sign = 1``) or remove (``sign = -1``) one member of class ``cls`` and weight ``g``.

    ``rk (C,)``: its 0-based rank on each column in the tree's key space; ``m``: the lazy
    multiplier of the tree. A positive forms pairs with every other group's weight below its
    score, a member of group ``h`` with the positives above its score (``W_pos - below``); ties
    count one half (:func:`streamtk._kernels.fenwick.below_half`). ``O(C G log D)``.
    """
    U = st[ST_U]
    W = st[ST_W]
    N = st[ST_N]
    sg = sign * g
    for c in range(tree.shape[0]):
        r = rk[c] + 1
        h = grp[c, cls]
        p = pos[c]
        if h == p:
            for o in range(tree.shape[1]):
                if o != p and N[c, o] > 0.0:
                    U[c, o] += sg * (below_half(tree[c, o], r) / m)
        elif N[c, p] > 0.0:
            U[c, h] += sg * (W[c, p] - below_half(tree[c, p], r) / m)
        add(tree[c, h], r, sg * m)
        W[c, h] += sg
        N[c, h] += sign
        if N[c, h] == 0.0:  # the group's last member left: its sums are exactly 0
            W[c, h] = 0.0
            if h == p:
                for o in range(tree.shape[1]):
                    U[c, o] = 0.0
            else:
                U[c, h] = 0.0


@nb.njit(cache=True, inline="always")
def binary_step(U, W0, W1, N0, N1, positive, g, q, sign):
    """:func:`ustep` for one binary column held in scalars: ``(U1, W0, W1, N0, N1)`` after the step.

    ``q``: the opposite class's true weight below the member's score, ties one half (read only
    when the opposite class holds a member); ``g``: the weight, ``sign`` +1 or -1. The same
    operations in the same order as :func:`ustep` with ``C = 1, G = 2`` (bit-identical).
    """
    sg = sign * g
    if positive:
        if N0 > 0.0:
            U += sg * q
        W1 += sg
        N1 += sign
        if N1 == 0.0:
            W1 = 0.0
            U = 0.0
    else:
        if N1 > 0.0:
            U += sg * (W1 - q)
        W0 += sg
        N0 += sign
        if N0 == 0.0:
            W0 = 0.0
            U = 0.0
    return U, W0, W1, N0, N1


@nb.njit(cache=True, inline="always")
def binary_store(st, U, W0, W1, N0, N1):
    """Write a binary column's scalars into a ``(3, 1, 2)`` stat (group 0 negatives, 1 positives)."""
    st[ST_U, 0, 0] = U
    st[ST_U, 0, 1] = 0.0
    st[ST_W, 0, 0] = W0
    st[ST_W, 0, 1] = W1
    st[ST_N, 0, 0] = N0
    st[ST_N, 0, 1] = N1


@nb.njit(cache=True, inline="always")
def member_weight(wl, has_w, unit, t):
    """The weight a member counts with: 1 without weights or under MOA's convention (``unit``)."""
    return wl[t] if (has_w and not unit) else 1.0


@nb.njit(cache=True, inline="always")
def is_member(mem, t):
    """``mem`` (uint8) flags the members; an empty ``mem`` means every position is one."""
    return mem.shape[0] == 0 or mem[t] != 0


@nb.njit(cache=True, inline="always")
def count_members(mem, n):
    """The number of members among ``n`` positions (``mem`` uint8; empty: all ``n``)."""
    if mem.shape[0] == 0:
        return n
    m = 0
    for t in range(n):
        if mem[t]:
            m += 1
    return m


@nb.njit(cache=True, inline="always")
def store(out, st):
    """Copy a state's statistics ``(3, C, G)`` into a snapshot row."""
    for i in range(st.shape[0]):
        for c in range(st.shape[1]):
            for h in range(st.shape[2]):
                out[i, c, h] = st[i, c, h]
