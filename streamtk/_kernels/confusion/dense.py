"""Fast path of the confusion family for dense two-class streams, bit-identical to :mod:`.streamtk`.

A *dense* stream has a label and a prediction at every instance, no weights and no extra
quantities, and every earlier chunk was dense too (so member counts are stream positions):
the common case of a binary classifier's recorded predictions. Two things make it fast:

* **Accumulators** (prequential, fading, tumbling, landmarks) keep the two-class state in
  registers and update it branch-free from a block buffer of indicators (the operations of
  :func:`.streamtk.accumulate`, in the same order, so the sums are the same doubles).
* **Sliding windows** read every sum as a difference of shared prefix sums,
  ``S(window) = P(t + 1) - P(t + 1 - held)``, kept in a ring indexed by stream position: the
  window costs only its Majority-Class bookkeeping (the majority of the window before ``t`` from
  two prefix sums, its hits in the window's own prefix ring). All these sums are integers, so
  they equal the add/remove sums of :func:`.streamtk.slide` exactly.

Snapshots go through :func:`.streamtk.write_snapshot`, and the states are written back in the
general layout, so a later chunk may continue on the general kernel. ADWIN windows run in a kernel
of their own (:mod:`.dense_adwin`). Arguments as in :mod:`.streamtk` (``inputs = (ytrue, ypred, perhit)``,
``mech = (kinds, sizes, fading, marks, mark_off, hslot)``, ``state = (sc, cv, pt, majhit)``).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..forgetting import (
    ADWIN,
    EWMA,
    FADING,
    LANDMARKS,
    PREQUENTIAL,
    TUMBLING,
    WINDOW,
    advance,
    fades,
    fading_step,
    next_restart,
    overdue,
)
from .layout import (
    F_Q,
    P_BEST,
    P_CURSOR,
    P_HELD,
    P_TAIL,
    S_BMH,
    S_BPH,
    S_C,
    S_NC,
    S_NF,
    S_SCALE,
    V_DIAG,
    V_NDIAG,
    V_OFFCOL,
    V_OFFROW,
)
from .scalars import load6, store6, unscale6
from .streamtk import BLOCK, inverse, write_scalars

#: the mechanisms this fast path runs; a plan with any other takes the general kernel (a new
#: mechanism is correct there first, and joins this list with its fast code and tests)
KINDS = (PREQUENTIAL, WINDOW, FADING, TUMBLING, LANDMARKS, ADWIN, EWMA)
#: extra doubles at the end of every row of the block buffer and the rings: rows a power of two
#: apart map to the same cache sets, and with several windows the rows evict each other
PAD = 24
# rows of the block buffer / prefix ring: y, hit, y * hit, Persistent hit
Y, HIT, YHIT, PH = 0, 1, 2, 3


@nb.njit(cache=True, inline="always")
def _fill(buf, ytrue, yp, perhit, b0, b1):
    """The block buffer of positions ``[b0, b1)``: class-1 indicator, hit, both, Persistent hit."""
    for t in range(b0, b1):
        i = t - b0
        y = float(ytrue[t])
        buf[Y, i] = y
        buf[HIT, i] = 1.0 - abs(y - float(yp[t]))
        buf[YHIT, i] = y * buf[HIT, i]
        buf[PH, i] = float(perhit[t])


@nb.njit(cache=True, inline="always")
def _write_binary(snap, ci, C, M, BMH, BMM, BPH, BPM, NF, m, D0, D1, O0, O1):
    """Column ``ci`` of a two-class snapshot from the state's scalars: :func:`.streamtk.write_snapshot` with
    the class vectors ``DIAG = (D0, D1)``, misses by true class ``(O0, O1)`` (by predicted class, the other
    class's) and no extra quantity, written without a state array (the same operations)."""
    inv = inverse(m)
    write_scalars(snap, ci, C, M, BMH, BMM, BPH, BPM, NF, inv)
    snap[F_Q, ci] = (D0 + O0) * inv
    snap[F_Q + 1, ci] = (D1 + O1) * inv
    snap[F_Q + 2, ci] = (D0 + O1) * inv
    snap[F_Q + 3, ci] = (D1 + O0) * inv
    snap[F_Q + 4, ci] = D0 * inv
    snap[F_Q + 5, ci] = D1 * inv


@nb.njit(cache=True, inline="always")
def _binary_vectors(cvl, D0, D1, O0, O1):
    """The general class vectors of a two-class state: misses by predicted class are the other class's."""
    cvl[V_DIAG, 0] = D0
    cvl[V_DIAG, 1] = D1
    cvl[V_OFFROW, 0] = O0
    cvl[V_OFFROW, 1] = O1
    cvl[V_OFFCOL, 0] = O1
    cvl[V_OFFCOL, 1] = O0


@nb.njit(cache=True)
def _advance(m, step):
    """The lazy multiplier's step, compiled without ``contract``: ``NF += m`` must not fuse with it."""
    return advance(m, step)


@nb.njit(cache=True, error_model="numpy", fastmath={"contract"})
def _accumulate(kind, size, fade, marks, blk, est, out):
    """One accumulator over a block, state in registers (the operations of ``streamtk.accumulate``).

    Compiled with ``fastmath={"contract"}``: every product added to a sum is the multiplier times
    0/1 indicators, an exact double, so a fused multiply-add rounds once exactly where the general
    path's multiply-then-add rounds once, and the sums stay bit-identical (measured: 15% fewer
    nanoseconds per fading factor and instance). The multiplier itself comes from :func:`_advance`.
    Grouped arguments: ``blk = (buf, b0, b1, base)``, ``est = (sc, cv, pt)``, ``out = (ck, ci, snap, cvl)``.
    """
    buf, b0, b1, base = blk
    sc, cv, pt = est
    ck, ci, snap, cvl = out
    C, M, BMH, BMM, BPH, BPM = load6(sc, S_C)
    NF = sc[S_NF]
    m = sc[S_SCALE]
    D0 = cv[V_DIAG, 0]
    D1 = cv[V_DIAG, 1]
    O0 = cv[V_OFFROW, 0]
    O1 = cv[V_OFFROW, 1]
    step = fading_step(kind, fade)
    nxt, cursor = next_restart(kind, size, marks, pt[P_CURSOR], base + b0)
    nck = ck.shape[0]
    for t in range(b0, b1):
        if base + t == nxt:
            C = M = BMH = BMM = BPH = BPM = NF = D0 = D1 = O0 = O1 = 0.0
            m = 1.0
            nxt, cursor = next_restart(kind, size, marks, cursor, base + t + 1)
        i = t - b0
        y = buf[Y, i]
        h = buf[HIT, i]
        best = 1.0 if D1 + O1 > D0 + O0 else 0.0  # the majority of the memory before t
        mh = 1.0 - abs(best - y)
        m = _advance(m, step)
        NF += m
        C += m * h
        M += m * (1.0 - h)
        D1 += m * h * y
        D0 += m * h * (1.0 - y)
        O1 += m * (1.0 - h) * y
        O0 += m * (1.0 - h) * (1.0 - y)
        BMH += m * mh
        BMM += m * (1.0 - mh)
        BPH += m * buf[PH, i]
        BPM += m * (1.0 - buf[PH, i])
        if overdue(m):
            C, M, BMH, BMM, BPH, BPM = unscale6((C, M, BMH, BMM, BPH, BPM), m)
            NF /= m
            D0 /= m
            D1 /= m
            O0 /= m
            O1 /= m
            m = 1.0
        while ci < nck and ck[ci] == t:
            _write_binary(snap, ci, C, M, BMH, BMM, BPH, BPM, NF, m, D0, D1, O0, O1)
            ci += 1
    store6(sc, S_C, (C, M, BMH, BMM, BPH, BPM))
    sc[S_NF] = NF
    sc[S_SCALE] = m
    _binary_vectors(cv, D0, D1, O0, O1)
    pt[P_BEST] = 1 if D1 + O1 > D0 + O0 else 0
    pt[P_CURSOR] = cursor
    return ci


@nb.njit(cache=True, error_model="numpy")
def _count(kind, size, marks, blk, est, out):
    """An unfaded accumulator (prequential, tumbling, landmarks) over a block from six integer counts.

    Without weights and fading every sum of :func:`_accumulate` is a count of members, an exact
    integer-valued double, so the other five follow from six running counts (members, hits,
    class-1 members, class-1 hits, Majority-Class and Persistent hits) without rounding: the
    same doubles as the eleven sums of the general path, for fewer operations per instance.
    Grouped arguments as in :func:`_accumulate`.
    """
    buf, b0, b1, base = blk
    sc, cv, pt = est
    ck, ci, snap, cvl = out
    N = sc[S_NF]
    C = sc[S_C]
    BMH = sc[S_BMH]
    BPH = sc[S_BPH]
    D1 = cv[V_DIAG, 1]
    Y1 = D1 + cv[V_OFFROW, 1]
    nxt, cursor = next_restart(kind, size, marks, pt[P_CURSOR], base + b0)
    nck = ck.shape[0]
    for t in range(b0, b1):
        if base + t == nxt:
            N = C = BMH = BPH = D1 = Y1 = 0.0
            nxt, cursor = next_restart(kind, size, marks, cursor, base + t + 1)
        i = t - b0
        y = buf[Y, i]
        best = 1.0 if Y1 > N - Y1 else 0.0  # the majority of the memory before t
        BMH += 1.0 - abs(best - y)
        N += 1.0
        C += buf[HIT, i]
        Y1 += y
        D1 += buf[YHIT, i]
        BPH += buf[PH, i]
        while ci < nck and ck[ci] == t:
            M, O1 = N - C, Y1 - D1
            _write_binary(snap, ci, C, M, BMH, N - BMH, BPH, N - BPH, N, 1.0, C - D1, D1, M - O1, O1)
            ci += 1
    M, O1 = N - C, Y1 - D1
    store6(sc, S_C, (C, M, BMH, N - BMH, BPH, N - BPH))
    sc[S_NF] = N
    _binary_vectors(cv, C - D1, D1, M - O1, O1)
    pt[P_BEST] = 1 if Y1 > N - Y1 else 0
    pt[P_CURSOR] = cursor
    return ci


@nb.njit(cache=True, inline="always")
def _window_sums(ring, mring, mask, a, held):
    """``(C, M, D0, D1, O0, O1, BMH, BMM, BPH, BPM)`` of the ``held`` positions ending at ``a - 1``."""
    lo = (a - held) & mask
    hi = a & mask
    C = ring[HIT, hi] - ring[HIT, lo]
    Y1 = ring[Y, hi] - ring[Y, lo]
    D1 = ring[YHIT, hi] - ring[YHIT, lo]
    BPH = ring[PH, hi] - ring[PH, lo]
    BMH = mring[hi] - mring[lo]
    n = float(held)
    M = n - C
    O1 = Y1 - D1
    return C, M, C - D1, D1, M - O1, O1, BMH, n - BMH, BPH, n - BPH


@nb.njit(cache=True, error_model="numpy")
def _window(w, ring, mring, mask, blk, majh, keep, out, sc):
    """One sliding window of ``w`` positions over a block: Majority hits, prefix ring, snapshots.

    The Majority hits are stored in ``majh`` from position ``keep`` on only: what a later segment,
    chunk or general-path window reads back (at most the largest window before the end). The loop
    runs from checkpoint to checkpoint, so the per-instance step has no checkpoint test, and a full
    window (``a >= w``) compares its class-1 count with a constant. ``blk`` and ``out`` as in
    :func:`_accumulate`; ``sc`` the window's state (read for the snapshot layout only).
    """
    buf, b0, b1, base = blk
    ck, ci, snap, cvl = out
    nck = ck.shape[0]
    msum = mring[(base + b0) & mask]  # the running sum in a register (no store-to-load chain)
    lo = b0
    wf = float(w)
    while lo < b1:
        stop = min(b1, ck[ci] + 1) if ci < nck else b1
        for t in range(lo, stop):
            a = base + t
            if a >= w:
                r1 = ring[Y, a & mask] - ring[Y, (a - w) & mask]
                best = 1.0 if r1 > wf - r1 else 0.0
            else:
                r1 = ring[Y, a & mask] - ring[Y, 0]
                best = 1.0 if r1 > a - r1 else 0.0
            mh = 1.0 - abs(best - buf[Y, t - b0])
            if t >= keep:
                majh[t] = np.uint8(mh)
            msum += mh
            mring[(a + 1) & mask] = msum
        lo = stop
        a = base + lo - 1
        while ci < nck and ck[ci] == lo - 1:
            C, M, D0, D1, O0, O1, BMH, BMM, BPH, BPM = _window_sums(ring, mring, mask, a + 1, min(a + 1, w))
            _write_binary(snap, ci, C, M, BMH, BMM, BPH, BPM, float(min(a + 1, w)), 1.0, D0, D1, O0, O1)
            ci += 1
    return ci


@nb.njit(cache=True)
def _store_sliding(sc, cv, pt, tail, held, C, Y1, D1, BMH, BPH):
    """A sliding window's state in the general layout from its counts (unweighted: counts = sums)."""
    n = float(held)
    M = n - C
    O1 = Y1 - D1
    six = (C, M, BMH, n - BMH, BPH, n - BPH)
    store6(sc, S_C, six)
    store6(sc, S_NC, six)
    sc[S_NF] = n
    _binary_vectors(cv, C - D1, D1, M - O1, O1)
    for r in range(V_DIAG, V_OFFCOL + 1):
        for c in range(2):
            cv[V_NDIAG + r, c] = cv[r, c]
    pt[P_TAIL] = tail
    pt[P_HELD] = held
    pt[P_BEST] = 1 if Y1 > n - Y1 else 0


@nb.njit(cache=True)
def _store_window(w, ring, mring, mask, end, sc, cv, pt):
    """Write a window's state after position ``end - 1`` in the general layout (counts = sums)."""
    held = min(end, w)
    C, _, _, D1, _, O1, BMH, _, BPH, _ = _window_sums(ring, mring, mask, end, held)
    _store_sliding(sc, cv, pt, end - held, held, C, D1 + O1, D1, BMH, BPH)


def ring_length(maxw: int, end: int) -> int:
    """The length (a power of two) of the prefix rings of windows of at most ``maxw`` positions over a
    stream that has reached position ``end``: the windows' reach plus a block."""
    hl = 1
    while hl < min(maxw, end) + BLOCK + 2:
        hl *= 2
    return hl


@nb.njit(cache=True, nogil=True, error_model="numpy")
def run(inputs, mech, state, span, which, ck, snap, rings):
    """The estimators ``which`` (no ADWIN) of every series of a dense two-class chunk over ``[t_begin, T)``.

    ``rings = (ring (L, 4 + windows, hl + PAD), upto (L,))``: the windows' prefix rings, kept by the
    caller between calls (:func:`ring_length` positions, indexed by absolute position), and the absolute
    position up to which each series' ring holds its prefix sums; a call that does not start there
    rebuilds them from the history before ``t_begin``.
    """
    ytrue, ypred, perhit = inputs
    kinds, sizes, fading, marks, mark_off, hslot = mech
    sc, cv, pt, majhit = state
    base, t_begin = span
    all_rings, upto = rings
    L = ypred.shape[0]
    T = ytrue.shape[0]
    maxw = 1
    nwin = 0
    for e in which:
        if kinds[e] == WINDOW:
            maxw = max(maxw, sizes[e])
            nwin += 1
    mask = all_rings.shape[2] - PAD - 1
    cvl = np.zeros((6, 2))
    buf = np.empty((4, BLOCK + PAD))
    for l in range(L):
        yp = ypred[l]
        ring = all_rings[l, :4]
        mrings = all_rings[l, 4:]
        if nwin and upto[l] != base + t_begin:
            # prefix sums over the kept history (earlier chunks or segments): a window reaches back at
            # most maxw positions (every position is a member), so the sums start there (from their
            # value there: only their differences are read, and these are exact small integers)
            for t in range(max(0, t_begin - maxw - 1), t_begin):
                a = base + t
                y = float(ytrue[t])
                h = 1.0 if ytrue[t] == yp[t] else 0.0
                ring[Y, (a + 1) & mask] = ring[Y, a & mask] + y
                ring[HIT, (a + 1) & mask] = ring[HIT, a & mask] + h
                ring[YHIT, (a + 1) & mask] = ring[YHIT, a & mask] + y * h
                ring[PH, (a + 1) & mask] = ring[PH, a & mask] + perhit[t]
                j = 0
                for e in which:
                    if kinds[e] == WINDOW:
                        mrings[j, (a + 1) & mask] = mrings[j, a & mask] + majhit[l, hslot[e], t]
                        j += 1
        upto[l] = base + T
        ci0 = np.int64(0)
        for b0 in range(t_begin, T, BLOCK):
            b1 = min(T, b0 + BLOCK)
            _fill(buf, ytrue, yp, perhit, b0, b1)
            blk = (buf, b0, b1, base)
            if nwin:
                a0 = (base + b0) & mask
                r0, r1, r2, r3 = ring[0, a0], ring[1, a0], ring[2, a0], ring[3, a0]
                for t in range(b0, b1):
                    i = t - b0
                    s = (base + t + 1) & mask
                    r0 += buf[0, i]
                    r1 += buf[1, i]
                    r2 += buf[2, i]
                    r3 += buf[3, i]
                    ring[0, s] = r0
                    ring[1, s] = r1
                    ring[2, s] = r2
                    ring[3, s] = r3
            ci1 = ci0
            j = 0
            for e in which:
                out = (ck, ci0, snap[l, e], cvl)
                if kinds[e] == WINDOW:
                    ci1 = _window(
                        sizes[e], ring, mrings[j], mask, blk, majhit[l, hslot[e]], T - maxw - 1, out, sc[l, e]
                    )
                    j += 1
                    continue
                est = (sc[l, e], cv[l, e], pt[l, e])
                lm = marks[mark_off[e] : mark_off[e + 1]]
                if fades(kinds[e]):
                    ci1 = _accumulate(kinds[e], sizes[e], fading[e], lm, blk, est, out)
                else:
                    ci1 = _count(kinds[e], sizes[e], lm, blk, est, out)
            ci0 = ci1
        j = 0
        for e in which:
            if kinds[e] == WINDOW:
                _store_window(sizes[e], ring, mrings[j], mask, base + T, sc[l, e], cv[l, e], pt[l, e])
                j += 1
