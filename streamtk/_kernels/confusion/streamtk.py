"""The general kernel of the confusion family, default convention (the papers' test-then-train meaning).

One read of a block of ``y_true`` / ``y_pred`` (and weights, extra per-instance quantities)
feeds every estimator in turn (estimator-major inside a block, state in locals; time-major
across blocks), through the shared mechanism helpers of :mod:`streamtk._kernels.forgetting`
and the baseline rules of :mod:`streamtk._kernels.baselines`. At checkpoints the state is
written as a snapshot (:mod:`.layout`); the finalisers turn snapshots into metrics.

Members: an instance is evaluated for a series when its label and that series' prediction are
present (codes ``>= 0``) and its weight is ``>= 0``; other instances occupy no window slot and do
not advance a fading clock. The numpy layer marks an instance that is not evaluated (a user's weight
0) with weight -1; a weight of 0 is a member that adds nothing (a bootstrap replicate that left it out:
it keeps its window slot and its place on a fading clock). Majority Class: the argmax of the true-class
weight held *before* ``t``. Persistent: the previous present label of the stream (weight 0 included).

Arguments are grouped tuples:

``inputs = (ytrue (T,), ypred (L, T), weights (L, T) or (L, 0), quantities (L, nq, T), perhit (T,))``
    codes ``-1`` = missing; positions ``< t_begin`` are history that leaving members are read from;
    ``perhit`` the Persistent classifier's hits (uint8, the same for every series:
    :func:`streamtk._kernels.confusion.persistent_hits`).
``mech = (kinds, sizes, fading, marks, mark_off, hslot, aslot, limits)``
    per estimator: mechanism code, window / tumbling size, fading factor, landmark positions
    ``marks[mark_off[e]:mark_off[e + 1]]``, slot in ``majhit`` (sliding windows), slot in
    ``limits`` (ADWIN widths per position, ``(L, EA, T)``).
``state = (sc, cv, pt, majhit)``
    ``(L, E, S)``, ``(L, E, 6, k)``, ``(L, E, 6)`` int64, and ``(L, H, T)`` uint8: the Majority
    hits of the sliding windows, materialised so that a leaving member subtracts what it added.
``segments = (pay, members, span, head)``: compressed oldest members of chunked ADWIN windows.
``span = (base, t_begin)``: absolute position of index 0, first index to process;
``which``: the estimators to run (another kernel may run the others on the same arrays).
``ck`` (C,) int64: indices of the checkpoints (inside ``[t_begin, T)``); ``snap`` ``(L, E, F, C)``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..baselines import majority_after_gain, majority_scan
from ..forgetting import advance, fading_step, is_sliding, next_restart, overdue, sliding_limit
from .layout import (
    F_BM,
    F_BMW,
    F_BP,
    F_BPW,
    F_C,
    F_DEN,
    F_N,
    F_Q,
    F_W,
    P_BEST,
    P_CURSOR,
    P_HELD,
    P_TAIL,
    S_BPM,
    S_C,
    S_NC,
    S_NF,
    S_Q,
    S_SCALE,
    V_DIAG,
    V_NDIAG,
    V_NOFFCOL,
    V_NOFFROW,
    V_OFFCOL,
    V_OFFROW,
)
from .scalars import load6, store6, unscale6

BLOCK = 2048


@nb.njit(cache=True, inline="always")
def is_member(y, p, w):
    """An instance is evaluated when its label and prediction are present and its weight is not negative."""
    return y >= 0 and p >= 0 and w >= 0.0


@nb.njit(cache=True, inline="always")
def write_scalars(out, ci, C, M, BMH, BMM, BPH, BPM, NF, inv):
    """The scalar rows of column ``ci`` of a snapshot block ``out (F, C)`` (see :mod:`.layout`), sums times
    ``inv`` (``1 / m``, the lazy fading multiplier's inverse). ``F_EMPTY`` (MOA's only) is not written."""
    W = (C + M) * inv
    out[F_W, ci] = W
    out[F_N, ci] = NF * inv
    out[F_DEN, ci] = W
    out[F_C, ci] = C * inv
    out[F_BM, ci] = BMH * inv
    out[F_BMW, ci] = (BMH + BMM) * inv
    out[F_BP, ci] = BPH * inv
    out[F_BPW, ci] = (BPH + BPM) * inv


@nb.njit(cache=True, inline="always")
def inverse(m):
    """``1 / m``, exactly 1 without fading."""
    return 1.0 if m == 1.0 else 1.0 / m


@nb.njit(cache=True, inline="always")
def write_snapshot(out, ci, sc, cv, nq, k, C, M, BMH, BMM, BPH, BPM, NF, m):
    """Column ``ci`` of a snapshot block ``out (F, C)`` (see :mod:`.layout`) of a default-convention state;
    sums divided by the lazy fading multiplier ``m`` (multiplied by ``1 / m``: exact while ``m = 1``)."""
    inv = inverse(m)
    write_scalars(out, ci, C, M, BMH, BMM, BPH, BPM, NF, inv)
    for j in range(nq):
        out[F_Q + j, ci] = sc[S_Q + j] * inv
    r0 = F_Q + nq
    diag = cv[V_DIAG]
    offr = cv[V_OFFROW]
    offc = cv[V_OFFCOL]
    for c in range(k):
        out[r0 + c, ci] = (diag[c] + offr[c]) * inv
        out[r0 + k + c, ci] = (diag[c] + offc[c]) * inv
        out[r0 + 2 * k + c, ci] = diag[c] * inv


@nb.njit(cache=True)
def _clear(sc, cv):
    for j in range(sc.shape[0]):
        sc[j] = 0.0
    for r in range(cv.shape[0]):
        for c in range(cv.shape[1]):
            cv[r, c] = 0.0


@nb.njit(cache=True, error_model="numpy")
def accumulate(kind, size, fade, marks, series, blk, est, out):
    """An accumulator (prequential, fading, tumbling, landmarks) over ``[b0, b1)``; returns the next checkpoint.

    ``series = (ytrue, yp, wl, has_w, ql, perhit)``, ``blk = (b0, b1, base)``, ``est = (sc, cv, pt)``,
    ``out = (ck, ci, snap)`` (the grouped arguments of :func:`run`).
    """
    ytrue, yp, wl, has_w, ql, perhit = series
    b0, b1, base = blk
    sc, cv, pt = est
    ck, ci, snap = out
    nq = ql.shape[0]
    k = cv.shape[1]
    diag = cv[V_DIAG]
    offr = cv[V_OFFROW]
    offc = cv[V_OFFCOL]
    C, M, BMH, BMM, BPH, BPM = load6(sc, S_C)
    NF = sc[S_NF]
    m = sc[S_SCALE]
    best = pt[P_BEST]
    step = fading_step(kind, fade)
    nxt, cursor = next_restart(kind, size, marks, pt[P_CURSOR], base + b0)
    nck = ck.shape[0]
    for t in range(b0, b1):
        if base + t == nxt:  # a tumble or landmark starts here: the state restarts empty, exactly
            _clear(sc, cv)
            C = M = BMH = BMM = BPH = BPM = NF = 0.0
            m = 1.0
            best = 0
            nxt, cursor = next_restart(kind, size, marks, cursor, base + t + 1)
        y = ytrue[t]
        p = yp[t]
        w = wl[t] if has_w else 1.0
        if is_member(y, p, w):
            m = advance(m, step)
            g = w * m
            NF += m
            if y == p:
                C += g
                diag[y] += g
            else:
                M += g
                offr[y] += g
                offc[p] += g
            if best == y:  # the majority of the memory before t
                BMH += g
            else:
                BMM += g
            if perhit[t]:
                BPH += g
            else:
                BPM += g
            for j in range(nq):
                sc[S_Q + j] += g * ql[j, t]
            best = majority_after_gain(best, diag[best] + offr[best], y, diag[y] + offr[y])
            if overdue(m):
                C, M, BMH, BMM, BPH, BPM = unscale6((C, M, BMH, BMM, BPH, BPM), m)
                NF /= m
                for j in range(nq):
                    sc[S_Q + j] /= m
                for c in range(k):
                    diag[c] /= m
                    offr[c] /= m
                    offc[c] /= m
                m = 1.0
        while ci < nck and ck[ci] == t:
            write_snapshot(snap, ci, sc, cv, nq, k, C, M, BMH, BMM, BPH, BPM, NF, m)
            ci += 1
    store6(sc, S_C, (C, M, BMH, BMM, BPH, BPM))
    sc[S_NF] = NF
    sc[S_SCALE] = m
    pt[P_BEST] = best
    pt[P_CURSOR] = cursor
    return ci


@nb.njit(cache=True, inline="always")
def _take(s, n, w):
    """Remove weight ``w`` from a sum of ``n`` members: exactly 0 once no member is left."""
    n -= 1.0
    return (s - w if n > 0.0 else 0.0), n


@nb.njit(cache=True, error_model="numpy")
def slide(kind, size, limits, lim0, series, blk, est, majh, out, seg):
    """A sliding window (``WINDOW`` of ``size`` members, or ``ADWIN`` with ``limits``) over ``[b0, b1)``.

    ``limits[t - lim0]``: the ADWIN width after the member at ``t`` (ADWIN only).

    Each member is added, then the oldest members leave while more than the limit are held;
    a leaving member is read back from the inputs (no ring buffer) and its materialised
    baseline hits are subtracted, so removal undoes exactly what was added. ``seg`` holds the
    oldest members of a chunked ADWIN window as per-bucket sums (see
    :mod:`streamtk.evaluation._segments`); they leave whole. Returns the next checkpoint. The
    grouped arguments are those of :func:`accumulate`.
    """
    ytrue, yp, wl, has_w, ql, perhit = series
    b0, b1, base = blk
    sc, cv, pt = est
    ck, ci, snap = out
    nq = ql.shape[0]
    k = cv.shape[1]
    diag = cv[V_DIAG]
    offr = cv[V_OFFROW]
    offc = cv[V_OFFCOL]
    ndiag = cv[V_NDIAG]
    noffr = cv[V_NOFFROW]
    noffc = cv[V_NOFFCOL]
    C, M, BMH, BMM, BPH, BPM = load6(sc, S_C)
    nC, nM, nBMH, nBMM, nBPH, nBPM = load6(sc, S_NC)
    best = pt[P_BEST]
    tail = pt[P_TAIL] - base
    held = pt[P_HELD]
    lim = held
    nck = ck.shape[0]
    for t in range(b0, b1):
        y = ytrue[t]
        p = yp[t]
        w = wl[t] if has_w else 1.0
        if is_member(y, p, w):
            mh = best == y
            majh[t] = 1 if mh else 0
            if y == p:
                C += w
                nC += 1.0
                diag[y] += w
                ndiag[y] += 1.0
            else:
                M += w
                nM += 1.0
                offr[y] += w
                noffr[y] += 1.0
                offc[p] += w
                noffc[p] += 1.0
            if mh:
                BMH += w
                nBMH += 1.0
            else:
                BMM += w
                nBMM += 1.0
            if perhit[t]:
                BPH += w
                nBPH += 1.0
            else:
                BPM += w
                nBPM += 1.0
            for j in range(nq):
                sc[S_Q + j] += w * ql[j, t]
            held += 1
            best = majority_after_gain(best, diag[best] + offr[best], y, diag[y] + offr[y])
            lim = sliding_limit(kind, size, limits, t - lim0)
            while held > lim:
                if tail < 0:  # compressed members of earlier chunks leave as whole segments
                    store6(sc, S_C, (C, M, BMH, BMM, BPH, BPM))
                    store6(sc, S_NC, (nC, nM, nBMH, nBMM, nBPH, nBPM))
                    tail, held, best = pop_segment(seg, sc, cv, tail, held)
                    C, M, BMH, BMM, BPH, BPM = load6(sc, S_C)
                    nC, nM, nBMH, nBMM, nBPH, nBPM = load6(sc, S_NC)
                    continue
                r = tail
                while True:
                    wr = wl[r] if has_w else 1.0
                    if is_member(ytrue[r], yp[r], wr):
                        break
                    r += 1
                yr = ytrue[r]
                pr = yp[r]
                if yr == pr:
                    C, nC = _take(C, nC, wr)
                    diag[yr], ndiag[yr] = _take(diag[yr], ndiag[yr], wr)
                else:
                    M, nM = _take(M, nM, wr)
                    offr[yr], noffr[yr] = _take(offr[yr], noffr[yr], wr)
                    offc[pr], noffc[pr] = _take(offc[pr], noffc[pr], wr)
                if majh[r]:
                    BMH, nBMH = _take(BMH, nBMH, wr)
                else:
                    BMM, nBMM = _take(BMM, nBMM, wr)
                if perhit[r]:
                    BPH, nBPH = _take(BPH, nBPH, wr)
                else:
                    BPM, nBPM = _take(BPM, nBPM, wr)
                held -= 1
                for j in range(nq):
                    sc[S_Q + j] = sc[S_Q + j] - wr * ql[j, r] if held > 0 else 0.0
                tail = r + 1
                if yr == best:
                    best = majority_scan(diag, offr, k)
        while ci < nck and ck[ci] == t:
            write_snapshot(snap, ci, sc, cv, nq, k, C, M, BMH, BMM, BPH, BPM, float(held), 1.0)
            ci += 1
    store6(sc, S_C, (C, M, BMH, BMM, BPH, BPM))
    store6(sc, S_NC, (nC, nM, nBMH, nBMM, nBPH, nBPM))
    sc[S_NF] = float(held)
    pt[P_BEST] = best
    pt[P_TAIL] = tail + base
    pt[P_HELD] = held
    return ci


@nb.njit(cache=True)
def pop_segment(seg, sc, cv, tail, held):
    """Remove the oldest compressed segment (sums in the state layout, then the six class vectors)."""
    pay, members, span, head = seg
    j = head[0]
    v = pay[j]
    S = sc.shape[0]
    for i in range(S):
        sc[i] -= v[i]
    k = cv.shape[1]
    for r in range(cv.shape[0]):
        for c in range(k):
            cv[r, c] -= v[S + r * k + c]
    # the exact-window rule: a sum whose members all left is 0 (counts follow their sums at + 8 / + 3)
    for a in range(S_C, S_BPM + 1):
        if sc[a + S_NC] <= 0.0:
            sc[a] = 0.0
            sc[a + S_NC] = 0.0
    for r in range(V_DIAG, V_OFFCOL + 1):
        for c in range(k):
            if cv[r + V_NDIAG, c] <= 0.0:
                cv[r, c] = 0.0
                cv[r + V_NDIAG, c] = 0.0
    head[0] = j + 1
    held -= members[j]
    if held == 0:
        for i in range(S_Q, S):
            sc[i] = 0.0
    return tail + span[j], held, majority_scan(cv[V_DIAG], cv[V_OFFROW], k)


@nb.njit(cache=True, nogil=True, error_model="numpy")
def run(inputs, mech, state, segments, span, which, ck, snap):
    """The estimators ``which`` of every series over ``[t_begin, T)`` (arguments: see the module docstring)."""
    ytrue, ypred, weights, quantities, perhit = inputs
    kinds, sizes, fading, marks, mark_off, hslot, aslot, limits = mech
    sc, cv, pt, majhit = state
    seg_pay, seg_mem, seg_span, seg_head = segments
    base, t_begin = span
    L = ypred.shape[0]
    T = ytrue.shape[0]
    has_w = weights.shape[1] > 0
    for l in range(L):
        yp = ypred[l]
        wl = weights[l]
        ql = quantities[l]
        series = (ytrue, yp, wl, has_w, ql, perhit)
        ci0 = np.int64(0)
        for b0 in range(t_begin, T, BLOCK):
            blk = (b0, min(T, b0 + BLOCK), base)
            ci1 = ci0
            for e in which:
                kind = kinds[e]
                est = (sc[l, e], cv[l, e], pt[l, e])
                out = (ck, ci0, snap[l, e])
                if is_sliding(kind):
                    a = max(aslot[e], 0)
                    seg = (seg_pay[l, a], seg_mem[l, a], seg_span[l, a], seg_head[l, a : a + 1])
                    ci1 = slide(kind, sizes[e], limits[l, a], t_begin, series, blk, est, majhit[l, hslot[e]], out, seg)
                else:
                    ci1 = accumulate(
                        kind, sizes[e], fading[e], marks[mark_off[e] : mark_off[e + 1]], series, blk, est, out
                    )
            ci0 = ci1
