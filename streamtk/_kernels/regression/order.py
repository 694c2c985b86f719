"""Order statistics over the members a sliding window holds, exactly: monotone deques and a weighted median.

*Maximum* (Lemire's monotone wedge): a deque of ``(position, value)`` with decreasing values; an entering member
pops every entry whose value is not larger (it can never again be the maximum), a leaving member pops the front
when it is that member. The front is the maximum of the members held, ``O(1)`` amortised per member. The deque
of series ``l``, sliding estimator ``h`` and stream ``j`` is a ring ``vals[l, h, j]``, ``pos[l, h, j]`` (its
capacity a power of two) whose head and length are two ints of the estimator's state.

*Weighted median*: a Fenwick tree over the keys (the sorted distinct values of ``|e|``) holds each key's weight
(:mod:`streamtk._kernels.fenwick`); the median is read by two descents: the first key whose cumulative weight
reaches half the total, averaged with the next key that holds weight when it reaches it exactly -- the
averaged inverted CDF (Hyndman & Fan 1996, definition 2; ``numpy.median`` for unit weights, scikit-learn's
``median_absolute_error`` with ``sample_weight``).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..forgetting import WINDOW, next_member, sliding_limit


@nb.njit(cache=True, inline="always")
def _wrap(i, cap):
    """``i % cap`` for a capacity that is a power of two (a mask: no division on the path of every member)."""
    return i & (cap - 1)


@nb.njit(cache=True, inline="always")
def dq_push(vals, pos, hl, r, v):
    """Member at position ``r`` with value ``v`` enters the deque ``vals``, ``pos`` (``hl = (head, length)``)."""
    cap = vals.shape[0]
    head, n = hl
    while n > 0 and vals[_wrap(head + n - 1, cap)] <= v:
        n -= 1
    i = _wrap(head + n, cap)
    vals[i] = v
    pos[i] = r
    return head, n + 1


@nb.njit(cache=True, inline="always")
def dq_leave(pos, hl, r):
    """Member at position ``r`` (the oldest held) leaves the deque."""
    head, n = hl
    if n > 0 and pos[head] == r:
        return _wrap(head + 1, pos.shape[0]), n - 1
    return head, n


@nb.njit(cache=True, inline="always")
def dq_max(vals, hl):
    """The largest value held (NaN when the deque is empty)."""
    head, n = hl
    return vals[head] if n > 0 else np.nan


@nb.njit(cache=True)
def _first_reaching(tree, target, strict):
    """The first 1-based key whose cumulative weight reaches ``target`` (exceeds it when ``strict``)."""
    n = tree.shape[0] - 1
    step = 1
    while step * 2 <= n:
        step *= 2
    pos = 0
    acc = 0.0
    while step > 0:
        nxt = pos + step
        if nxt <= n:
            s = acc + tree[nxt]
            if (s <= target) if strict else (s < target):
                pos = nxt
                acc = s
        step //= 2
    return pos + 1


@nb.njit(cache=True)
def _prefix(tree, i):
    s = 0.0
    while i > 0:
        s += tree[i]
        i -= i & (-i)
    return s


@nb.njit(cache=True)
def weighted_median(tree, keys):
    """The weighted median of the values ``keys`` held with the weights of ``tree`` (NaN when nothing is held)."""
    n = tree.shape[0] - 1
    total = _prefix(tree, n)
    if not total > 0.0:
        return np.nan
    half = 0.5 * total
    i = min(_first_reaching(tree, half, False), n)
    below = _prefix(tree, i)
    if below != half:
        return keys[i - 1]
    j = min(_first_reaching(tree, below, True), n)
    return 0.5 * (keys[i - 1] + keys[j - 1])


@nb.njit(cache=True)
def zero_path(tree, i):
    """Set every node on the update path of key ``i`` to 0 (a restart empties the tree exactly: every node that
    holds weight lies on the path of a key added since the last restart)."""
    m = tree.shape[0]
    while i < m:
        tree[i] = 0.0
        i += i & (-i)


@nb.njit(cache=True)
def scale_tree(tree, f):
    """Multiply every node by ``f`` (a fading estimator's renormalisation)."""
    for i in range(tree.shape[0]):
        tree[i] *= f


@nb.njit(cache=True, error_model="numpy")
def window_maxima(kind, size, limits, lim0, x, ml, dq, hl, held, tail, blk, ck, ci, out):
    """The largest value of ``x`` over the members a sliding window holds, at each checkpoint of ``[b0, b1)``.

    ``dq = (vals, pos)`` the window's deque, ``hl`` its head and length, ``held`` / ``tail`` the window's size and
    tail before ``b0`` (as the window's own pass follows them); writes ``out[ci]`` per checkpoint ``ck[ci]`` and
    returns the deque's ``(head, length)`` after ``b1``. A pass of its own: the deque's branches beside the
    window's sums cost those their registers. With a fixed window over a dense stream and few checkpoints
    (``checkpoints x size <= 16 positions``), each checkpoint's maximum is read off ``x`` directly (no branch per
    member) and the deque rebuilt from the window's members at ``b1``. ``blk = (b0, b1, base)``.
    """
    b0, b1, base = blk
    vals, pos = dq
    dense = ml.shape[0] == 0
    nck = ck.shape[0]
    n_in = 0
    while ci + n_in < nck and ck[ci + n_in] < b1:
        n_in += 1
    if kind == WINDOW and dense and n_in * size <= 16 * (b1 - b0):
        for c in range(ci, ci + n_in):
            t = ck[c]
            lo = max(t - size + 1, -base)  # dense: every position from the stream's start is a member
            m = x[lo]
            for r in range(lo + 1, t + 1):
                v = x[r]
                m = v if v > m else m
            out[c] = m
        hl = (0, 0)
        for r in range(max(b1 - size, -base), b1):
            hl = dq_push(vals, pos, hl, base + r, x[r])
        return hl
    for t in range(b0, b1):
        if dense or ml[t]:
            hl = dq_push(vals, pos, hl, base + t, x[t])
            held += 1
            lim = sliding_limit(kind, size, limits, t - lim0)
            while held > lim:
                r = next_member(ml, tail)
                held -= 1
                hl = dq_leave(pos, hl, base + r)
                tail = r + 1
        while ci < nck and ck[ci] == t:
            out[ci] = dq_max(vals, hl)
            ci += 1
    return hl
