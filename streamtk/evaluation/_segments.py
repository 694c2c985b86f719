"""Bounded memory for ADWIN windows in chunked evaluation: the oldest members held as per-bucket sums.

An ``adwin=`` estimator computes every metric over the instances inside the current
ADWIN window, which grows without bound on a stationary stream. In one pass the
engine reads leaving instances back from the input arrays; between chunks
(:class:`streamtk.Evaluator`, :func:`streamtk.runners.outofcore.evaluate_store`) keeping
those instances would cost O(W) memory. Instead, at the end of each chunk the
members older than the kept history (which only the fixed sliding windows need)
are replaced by *segments*: sums of their contributions to the estimator's state
(the state layout of the confusion kernels), one segment per ADWIN bucket.

Exactness: ADWIN only ever drops its oldest bucket, whole, and buckets only merge
with their neighbours, so a segment (which lies inside one bucket) leaves the
window whole: the kernel subtracts its sums (``streamtk._kernels.confusion.streamtk._pop_segment``).
Without weights every sum is an integer-valued float, so chunked evaluation stays
bit-identical to one pass; with non-integer weights the segment sums are added in
a different order than one pass subtracts instance by instance, so results agree
to rounding (about 1e-15 relative). Memory: at most one segment per bucket,
``O(M log W)`` for ``max_buckets = M``.
"""

from __future__ import annotations

import numpy as np

from .._kernels.confusion import layout as LY


def segment_capacity(max_buckets: int) -> int:
    """Segments an ADWIN window can need: one per bucket (at most ``M + 1`` per row, 64 rows)."""
    return (max_buckets + 1) * 64


def bucket_bounds(counts: np.ndarray, last_row: int) -> np.ndarray:
    """Member-index ends of an ADWIN window's buckets, oldest first (row ``last_row`` down to row 0)."""
    sizes = [2**r for r in range(last_row, -1, -1) for _ in range(int(counts[r]))]
    return np.cumsum(np.array(sizes, dtype=np.int64))


def piece_sums(starts, yt, yp, w, q, per, maj, k: int, nq: int) -> np.ndarray:
    """Sums ``(len(starts), P)`` of the positions' contributions to an estimator's state, per piece.

    Pieces are ``[starts[i], starts[i + 1])`` (the last one to the end), in the state layout of
    :mod:`streamtk._kernels.confusion.layout` (scalars, then the six class vectors). ``yt`` codes
    (-1 missing), ``yp`` codes, ``w`` weights or None, ``q`` ``(nq, n)`` extra quantities, ``per`` /
    ``maj`` the materialised Persistent / Majority hits. Non-members contribute nothing.
    """
    member = (yt >= 0) & (yp >= 0)
    if w is not None:
        member &= w >= 0  # the kernels' weights: -1 marks an instance that is not evaluated
    wt = np.where(member, 1.0 if w is None else w, 0.0)
    one = member.astype(np.float64)
    hit = (yt == yp) & member
    miss = member & ~hit
    mh = (maj > 0) & member
    ph = (per > 0) & member

    def total(values):
        return np.add.reduceat(values, starts)

    S = LY.state_size(nq)
    out = np.zeros((starts.shape[0], S + LY.N_VECTORS * k), dtype=np.float64)
    for slot, count, sel in (
        (LY.S_C, LY.S_NC, hit),
        (LY.S_M, LY.S_NM, miss),
        (LY.S_BMH, LY.S_NBMH, mh),
        (LY.S_BMM, LY.S_NBMM, member & ~mh),
        (LY.S_BPH, LY.S_NBPH, ph),
        (LY.S_BPM, LY.S_NBPM, member & ~ph),
    ):
        out[:, slot] = total(np.where(sel, wt, 0.0))
        out[:, count] = total(sel.astype(np.float64))
    out[:, LY.S_NF] = total(one)
    for j in range(nq):
        out[:, LY.S_Q + j] = total(wt * q[j])
    for row, sel, cls in ((LY.V_DIAG, hit, yt), (LY.V_OFFROW, miss, yt), (LY.V_OFFCOL, miss, yp)):
        for c in range(k):
            mine = sel & (cls == c)
            out[:, S + row * k + c] = total(np.where(mine, wt, 0.0))
            out[:, S + (row + LY.V_NDIAG) * k + c] = total(mine.astype(np.float64))
    return out


def compress(seg, start: int, held: int, counts, last_row: int, hist_start: int, keep_from: int, arrays, k, nq):
    """Replace the members of one ADWIN window before ``keep_from`` by per-bucket segments (in place).

    ``seg = (pay (S, P), members (S,), span (S,), head (1,), count (1,))``; live
    segments are ``[head, count)`` and cover the window from its start ``start``
    (absolute) up to ``hist_start``, where the kept arrays begin. ``held``: members
    in the window; ``counts`` / ``last_row``: the ADWIN's bucket rows. ``arrays``:
    ``(yt, yp, w, q, per, maj)`` over the kept arrays (index 0 = ``hist_start``).
    """
    pay, mem, span, head, count = seg
    live = slice(int(head[0]), int(count[0]))
    old_pay, old_mem, old_span = pay[live].copy(), mem[live].copy(), span[live].copy()
    covered_to = start + int(old_span.sum())
    lo = max(covered_to, hist_start)
    if keep_from <= lo:  # nothing new to compress: only compact the live segments to the front
        _store(seg, old_pay, old_mem, old_span)
        return
    yt, yp, w, q, per, maj = arrays
    a, b = lo - hist_start, keep_from - hist_start
    member = (yt[a:b] >= 0) & (yp[a:b] >= 0)
    if w is not None:
        member &= w[a:b] > 0
    first = int(old_mem.sum())  # member index (from the window start) of the first member at or after lo
    idx = first + np.cumsum(member) - member  # member index of each position's next member
    bounds = bucket_bounds(counts, last_row)
    if bounds.size == 0 or bounds[-1] != held:
        raise AssertionError(f"ADWIN buckets hold {bounds[-1] if bounds.size else 0} members, the window {held}")
    bucket = np.searchsorted(bounds, idx, side="right")  # a position belongs to its next member's bucket
    # trailing non-members (no next member in range) join the last piece
    if member.any():
        last_member = np.flatnonzero(member)[-1]
        bucket[last_member + 1 :] = bucket[last_member]
    starts = np.flatnonzero(np.r_[True, bucket[1:] != bucket[:-1]])
    new_pay = piece_sums(starts, yt[a:b], yp[a:b], None if w is None else w[a:b], q[:, a:b], per[a:b], maj[a:b], k, nq)
    new_mem = np.add.reduceat(member.astype(np.int64), starts)
    new_span = np.diff(np.r_[starts, b - a]).astype(np.int64)
    new_bucket = bucket[starts]
    old_first = np.cumsum(old_mem) - old_mem
    old_bucket = np.searchsorted(bounds, old_first, side="right")
    # one segment per bucket: consecutive segments inside the same bucket are summed
    all_pay = np.concatenate([old_pay, new_pay])
    all_mem = np.concatenate([old_mem, new_mem])
    all_span = np.concatenate([old_span, new_span])
    all_bucket = np.concatenate([old_bucket, new_bucket])
    groups = np.flatnonzero(np.r_[True, all_bucket[1:] != all_bucket[:-1]])
    _store(
        seg,
        np.add.reduceat(all_pay, groups, axis=0),
        np.add.reduceat(all_mem, groups),
        np.add.reduceat(all_span, groups),
    )


def _store(seg, pay_rows, mem_rows, span_rows):
    pay, mem, span, head, count = seg
    m = pay_rows.shape[0]
    if m > pay.shape[0]:
        raise AssertionError(f"{m} ADWIN segments exceed the capacity {pay.shape[0]}")
    pay[:m] = pay_rows
    mem[:m] = mem_rows
    span[:m] = span_rows
    head[0] = 0
    count[0] = m
