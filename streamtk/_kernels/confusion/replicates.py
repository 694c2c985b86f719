"""Fast path of the confusion family for bootstrap replicates: ``B`` replicates of a series in one loop.

Replicate ``b`` of series ``l`` is the general kernel's series ``l * B + b`` with the weights
``w_lt P_tb`` (:mod:`streamtk._core.intervals.bootstrap`): the members, the hits, the Persistent
classifier's hits and the forgetting (the lazy fading multiplier, the window tail) are the same for
every replicate of a series, only the weights, the sums and the Majority Class differ. This kernel
keeps the ``B`` replicates' sums of a series side by side (replicates innermost, so the updates run
over contiguous vectors) and draws the resampling weights itself from the key
(:func:`streamtk._kernels.resample.weight_at`), so neither the repeated predictions nor the weights
are materialised. It runs the accumulators and ``WINDOW``; ADWIN windows take the general kernel.

It performs the general kernel's operations (:mod:`.streamtk`: ``accumulate`` and ``slide``) in the
same order for every replicate, so its snapshots are the same doubles (the general kernel with the
materialised weights is its oracle in the tests); the states are read from and written back to the
general layout (one state row per replicate series), so chunks and pickles work unchanged.

Arguments: ``inputs = (ytrue (T,), ypred (L, T), weights (L, T) or (L, 0), quantities (L, nq, T), perhit
(T,))`` of the ``L`` series (the kernels' weights: -1 marks a non-member); ``mech = (kinds, sizes, fading,
marks, mark_off, hslot)``; ``state = (sc, cv, pt, majhit)`` of the ``L * B`` replicate series;
``rep = (B, seeds (L, B) uint64, blocks (L,), offsets (L, B))``; ``span``, ``which``, ``ck``, ``snap`` as in
:mod:`.streamtk` (``snap`` of the replicate series).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..forgetting import WINDOW, advance, fading_step, next_restart, overdue
from ..resample import draw, weight_at
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
    S_C,
    S_NC,
    S_NF,
    S_Q,
    S_SCALE,
    V_DIAG,
    V_NDIAG,
)
from .streamtk import BLOCK, inverse

# rows of the replicates' scalar sums (the general state's S_C .. S_BPM) and their member counts
C_, M_, BMH, BMM, BPH, BPM = range(6)


@nb.njit(cache=True)
def _load(sc, cv, pt, r0, B, e, nq, k, s6, n6, qs, vec, nvec, best):
    """The replicate rows ``r0 .. r0 + B - 1`` of estimator ``e`` into replicate-innermost locals."""
    for b in range(B):
        r = r0 + b
        for j in range(6):
            s6[j, b] = sc[r, e, S_C + j]
            n6[j, b] = sc[r, e, S_NC + j]
        for j in range(nq):
            qs[j, b] = sc[r, e, S_Q + j]
        for v in range(3):
            for c in range(k):
                vec[v, c, b] = cv[r, e, V_DIAG + v, c]
                nvec[v, c, b] = cv[r, e, V_NDIAG + v, c]
        best[b] = pt[r, e, P_BEST]


@nb.njit(cache=True)
def _store(sc, cv, pt, r0, B, e, nq, k, s6, n6, qs, vec, nvec, best):
    """The locals of :func:`_load` back into the general state."""
    for b in range(B):
        r = r0 + b
        for j in range(6):
            sc[r, e, S_C + j] = s6[j, b]
            sc[r, e, S_NC + j] = n6[j, b]
        for j in range(nq):
            sc[r, e, S_Q + j] = qs[j, b]
        for v in range(3):
            for c in range(k):
                cv[r, e, V_DIAG + v, c] = vec[v, c, b]
                cv[r, e, V_NDIAG + v, c] = nvec[v, c, b]
        pt[r, e, P_BEST] = best[b]


@nb.njit(cache=True)
def _snapshot(snap, r0, B, e, ci, s6, qs, vec, NF, m):
    """Column ``ci`` of every replicate's snapshot (the operations of :func:`.streamtk.write_snapshot`)."""
    nq = qs.shape[0]
    k = vec.shape[1]
    inv = inverse(m)
    for b in range(B):
        out = snap[r0 + b, e]
        W = (s6[C_, b] + s6[M_, b]) * inv
        out[F_W, ci] = W
        out[F_N, ci] = NF * inv
        out[F_DEN, ci] = W
        out[F_C, ci] = s6[C_, b] * inv
        out[F_BM, ci] = s6[BMH, b] * inv
        out[F_BMW, ci] = (s6[BMH, b] + s6[BMM, b]) * inv
        out[F_BP, ci] = s6[BPH, b] * inv
        out[F_BPW, ci] = (s6[BPH, b] + s6[BPM, b]) * inv
        for j in range(nq):
            out[F_Q + j, ci] = qs[j, b] * inv
        rr = F_Q + nq
        for c in range(k):
            out[rr + c, ci] = (vec[0, c, b] + vec[1, c, b]) * inv
            out[rr + k + c, ci] = (vec[0, c, b] + vec[2, c, b]) * inv
            out[rr + 2 * k + c, ci] = vec[0, c, b] * inv


@nb.njit(cache=True)
def fill_weights(P, seeds, offsets, block, start):
    """``P[i, b]``: the resampling weight of stream position ``start + i`` in replicate ``b`` (a block's rows)."""
    n, B = P.shape
    if block == 1:  # the independent bootstrap: one draw per position, rows written contiguously
        for r in range(n):
            for b in range(B):
                P[r, b] = draw(seeds[b], start + r)
        return
    for b in range(B):
        seed, off = seeds[b], offsets[b]
        first = start + off
        j = first // block
        i = 0
        stop = min(n, block - first % block)
        while i < n:
            value = draw(seed, j)
            for r in range(i, stop):
                P[r, b] = value
            i = stop
            stop = min(n, stop + block)
            j += 1


@nb.njit(cache=True, inline="always")
def _weights(g, P, i, w, has_w, m):
    """``g[b] = (P_b w) m``: the replicates' weight of the member in row ``i`` of the block's weights ``P``."""
    for b in range(g.shape[0]):
        p = P[i, b]
        g[b] = (p * w if has_w else p) * m


@nb.njit(cache=True, inline="always")
def _weights_at(g, seeds, offsets, block, pos, w, has_w):
    """The same for a member outside the block's rows (a window's oldest member), drawn again from the key."""
    for b in range(g.shape[0]):
        p = weight_at(seeds[b], pos, offsets[b], block)
        g[b] = p * w if has_w else p


@nb.njit(cache=True, inline="always")
def _gain_majority(best, vec, y, k):
    """:func:`streamtk._kernels.baselines.majority_after_gain` for every replicate (the counts are DIAG + OFFROW).

    With two classes the leader after a gain is the argmax of the two counts, ties to class 0 (the same
    comparison of the same doubles), computed without branches."""
    B = best.shape[0]
    if k == 2:
        for b in range(B):
            best[b] = 1 if vec[0, 1, b] + vec[1, 1, b] > vec[0, 0, b] + vec[1, 0, b] else 0
        return
    for b in range(B):
        bb = best[b]
        cb = vec[0, bb, b] + vec[1, bb, b]
        cy = vec[0, y, b] + vec[1, y, b]
        if cy > cb or (cy == cb and y < bb):
            best[b] = y


@nb.njit(cache=True, error_model="numpy")
def accumulate(kind, size, fade, marks, series, blk, est, out):
    """The accumulators of :func:`.streamtk.accumulate` for the ``B`` replicates of a series over ``[b0, b1)``.

    ``series = (ytrue, yp, wl, has_w, ql, perhit)``, ``blk = (b0, b1, base)``, ``est = (locals of _load, NF, m,
    cursor, rep = (seeds, offset, block), g)``, ``out = (ck, ci, snap, r0, e)``. Returns ``(ci, NF, m, cursor)``.
    """
    ytrue, yp, wl, has_w, ql, perhit = series
    b0, b1, base = blk
    s6, n6, qs, vec, nvec, best, NF, m, cursor, P, g = est
    ck, ci, snap, r0, e = out
    B = g.shape[0]
    nq = qs.shape[0]
    k = vec.shape[1]
    step = fading_step(kind, fade)
    nxt, cursor = next_restart(kind, size, marks, cursor, base + b0)
    nck = ck.shape[0]
    for t in range(b0, b1):
        if base + t == nxt:  # a tumble or landmark starts here: every replicate restarts empty, exactly
            s6[:] = 0.0
            n6[:] = 0.0
            qs[:] = 0.0
            vec[:] = 0.0
            nvec[:] = 0.0
            best[:] = 0
            NF = 0.0
            m = 1.0
            nxt, cursor = next_restart(kind, size, marks, cursor, base + t + 1)
        y = ytrue[t]
        p = yp[t]
        w = wl[t] if has_w else 1.0
        if y >= 0 and p >= 0 and w >= 0.0:
            m = advance(m, step)
            _weights(g, P, t - b0, w, has_w, m)
            NF += m
            if y == p:
                for b in range(B):
                    s6[C_, b] += g[b]
                    vec[0, y, b] += g[b]
            else:
                for b in range(B):
                    s6[M_, b] += g[b]
                    vec[1, y, b] += g[b]
                    vec[2, p, b] += g[b]
            for b in range(B):
                hit = best[b] == y
                s6[BMH, b] += g[b] if hit else 0.0
                s6[BMM, b] += 0.0 if hit else g[b]
            row = BPH if perhit[t] else BPM
            for b in range(B):
                s6[row, b] += g[b]
            for j in range(nq):
                qj = ql[j, t]
                for b in range(B):
                    qs[j, b] += g[b] * qj
            _gain_majority(best, vec, y, k)
            if overdue(m):
                for j in range(6):
                    for b in range(B):
                        s6[j, b] /= m
                NF /= m
                for j in range(nq):
                    for b in range(B):
                        qs[j, b] /= m
                for v in range(3):
                    for c in range(k):
                        for b in range(B):
                            vec[v, c, b] /= m
                m = 1.0
        while ci < nck and ck[ci] == t:
            _snapshot(snap, r0, B, e, ci, s6, qs, vec, NF, m)
            ci += 1
    return ci, NF, m, cursor


@nb.njit(cache=True, inline="always")
def _take_all(s, row, n, g):
    """Remove the replicates' weights ``g`` from sums ``s[row]`` of one shared member count (exact-window rule)."""
    for b in range(g.shape[0]):
        s[row, b] = s[row, b] - g[b] if n > 0.0 else 0.0


@nb.njit(cache=True, error_model="numpy")
def slide(size, series, blk, est, majh, out):
    """The ``WINDOW`` of :func:`.streamtk.slide` for the ``B`` replicates of a series over ``[b0, b1)``.

    Member counts are shared by the replicates (kept once, written back to every replicate), except the
    Majority Class's hits and misses (``n6[BMH]``, ``n6[BMM]`` per replicate). ``majh (B, T)``: the replicates'
    materialised Majority hits. Grouped arguments as in :func:`accumulate` with ``est`` holding ``n6`` and
    ``nvec`` after ``vec`` and ``(tail, held)`` for ``(NF, m, cursor)``. Returns ``(ci, tail, held)``.
    """
    ytrue, yp, wl, has_w, ql, perhit = series
    b0, b1, base = blk
    s6, n6, qs, vec, nvec, best, tail, held, P, Pprev, prev_lo, seeds, offsets, block, g = est
    ck, ci, snap, r0, e = out
    B = g.shape[0]
    nq = qs.shape[0]
    k = vec.shape[1]
    nck = ck.shape[0]
    nC, nM, nPH, nPM = n6[C_, 0], n6[M_, 0], n6[BPH, 0], n6[BPM, 0]  # shared by the replicates
    nv = nvec[:, :, 0].copy()
    for t in range(b0, b1):
        y = ytrue[t]
        p = yp[t]
        w = wl[t] if has_w else 1.0
        if y >= 0 and p >= 0 and w >= 0.0:
            _weights(g, P, t - b0, w, has_w, 1.0)
            for b in range(B):
                majh[b, t] = 1 if best[b] == y else 0
            if y == p:
                nC += 1.0
                nv[0, y] += 1.0
                for b in range(B):
                    s6[C_, b] += g[b]
                    vec[0, y, b] += g[b]
            else:
                nM += 1.0
                nv[1, y] += 1.0
                nv[2, p] += 1.0
                for b in range(B):
                    s6[M_, b] += g[b]
                    vec[1, y, b] += g[b]
                    vec[2, p, b] += g[b]
            for b in range(B):
                hit = best[b] == y
                s6[BMH, b] += g[b] if hit else 0.0
                s6[BMM, b] += 0.0 if hit else g[b]
                n6[BMH, b] += 1.0 if hit else 0.0
                n6[BMM, b] += 0.0 if hit else 1.0
            if perhit[t]:
                nPH += 1.0
                for b in range(B):
                    s6[BPH, b] += g[b]
            else:
                nPM += 1.0
                for b in range(B):
                    s6[BPM, b] += g[b]
            for j in range(nq):
                qj = ql[j, t]
                for b in range(B):
                    qs[j, b] += g[b] * qj
            held += 1
            _gain_majority(best, vec, y, k)
            while held > size:
                r = tail
                while True:
                    wr = wl[r] if has_w else 1.0
                    if ytrue[r] >= 0 and yp[r] >= 0 and wr >= 0.0:
                        break
                    r += 1
                yr = ytrue[r]
                pr = yp[r]
                if r >= b0:
                    _weights(g, P, r - b0, wr, has_w, 1.0)
                elif r >= prev_lo:
                    _weights(g, Pprev, r - prev_lo, wr, has_w, 1.0)
                else:
                    _weights_at(g, seeds, offsets, block, base + r, wr, has_w)
                if yr == pr:
                    nC -= 1.0
                    nv[0, yr] -= 1.0
                    _take_all(s6, C_, nC, g)
                    a = nv[0, yr]
                    for b in range(B):
                        vec[0, yr, b] = vec[0, yr, b] - g[b] if a > 0.0 else 0.0
                else:
                    nM -= 1.0
                    nv[1, yr] -= 1.0
                    nv[2, pr] -= 1.0
                    _take_all(s6, M_, nM, g)
                    a, a2 = nv[1, yr], nv[2, pr]
                    for b in range(B):
                        vec[1, yr, b] = vec[1, yr, b] - g[b] if a > 0.0 else 0.0
                        vec[2, pr, b] = vec[2, pr, b] - g[b] if a2 > 0.0 else 0.0
                for b in range(B):  # the Majority hit or miss leaves, per replicate (selects, no branches)
                    h = majh[b, r] == 1
                    nh = n6[BMH, b] - 1.0
                    nm = n6[BMM, b] - 1.0
                    sh = s6[BMH, b] - g[b] if nh > 0.0 else 0.0
                    sm = s6[BMM, b] - g[b] if nm > 0.0 else 0.0
                    s6[BMH, b] = sh if h else s6[BMH, b]
                    n6[BMH, b] = nh if h else n6[BMH, b]
                    s6[BMM, b] = s6[BMM, b] if h else sm
                    n6[BMM, b] = n6[BMM, b] if h else nm
                if perhit[r]:
                    nPH -= 1.0
                    _take_all(s6, BPH, nPH, g)
                else:
                    nPM -= 1.0
                    _take_all(s6, BPM, nPM, g)
                held -= 1
                for j in range(nq):
                    qj = ql[j, r]
                    for b in range(B):
                        qs[j, b] = qs[j, b] - g[b] * qj if held > 0 else 0.0
                tail = r + 1
                if k == 2:  # the argmax of two counts (majority_scan), without branches
                    for b in range(B):
                        scan = 1 if vec[0, 1, b] + vec[1, 1, b] > vec[0, 0, b] + vec[1, 0, b] else 0
                        best[b] = scan if yr == best[b] else best[b]
                else:
                    for b in range(B):
                        if yr == best[b]:
                            top = vec[0, 0, b] + vec[1, 0, b]
                            bb = 0
                            for c in range(1, k):
                                v = vec[0, c, b] + vec[1, c, b]
                                if v > top:
                                    top = v
                                    bb = c
                            best[b] = bb
        while ci < nck and ck[ci] == t:
            _snapshot(snap, r0, B, e, ci, s6, qs, vec, float(held), 1.0)
            ci += 1
    for b in range(B):
        n6[C_, b], n6[M_, b], n6[BPH, b], n6[BPM, b] = nC, nM, nPH, nPM
        for v in range(3):
            for c in range(k):
                nvec[v, c, b] = nv[v, c]
    return ci, tail, held


@nb.njit(cache=True, nogil=True, error_model="numpy")
def run(inputs, mech, state, rep, span, which, ck, snap):
    """The estimators ``which`` (no ADWIN) of every series' ``B`` replicates over ``[t_begin, T)``."""
    ytrue, ypred, weights, quantities, perhit = inputs
    kinds, sizes, fading, marks, mark_off, hslot = mech
    sc, cv, pt, majhit = state
    B, seeds, blocks, offsets = rep
    base, t_begin = span
    L = ypred.shape[0]
    T = ytrue.shape[0]
    nq = quantities.shape[1]
    k = cv.shape[3]
    has_w = weights.shape[1] > 0
    s6 = np.empty((6, B))
    n6 = np.empty((6, B))
    qs = np.empty((nq, B))
    vec = np.empty((3, k, B))
    nvec = np.empty((3, k, B))
    best = np.empty(B, dtype=np.int64)
    g = np.empty(B)
    P = np.empty((BLOCK, B))
    Pprev = np.empty((BLOCK, B))
    windows = False
    for e in which:
        windows = windows or kinds[e] == WINDOW
    for l in range(L):
        r0 = l * B
        series = (ytrue, ypred[l], weights[l], has_w, quantities[l], perhit)
        lseeds, loff, lblock = seeds[l], offsets[l], blocks[l]
        ci0 = np.int64(0)
        prev_lo = t_begin  # the rows of Pprev: positions prev_lo .. prev_lo + BLOCK - 1 (none yet)
        if windows and t_begin >= BLOCK:
            fill_weights(P, lseeds, loff, lblock, base + t_begin - BLOCK)
            prev_lo = t_begin - BLOCK
        for b0 in range(t_begin, T, BLOCK):
            b1 = min(T, b0 + BLOCK)
            if windows:
                P, Pprev = Pprev, P
                if b0 > t_begin:
                    prev_lo = b0 - BLOCK
            fill_weights(P[: b1 - b0], lseeds, loff, lblock, base + b0)
            blk = (b0, b1, base)
            ci1 = ci0
            for e in which:
                _load(sc, cv, pt, r0, B, e, nq, k, s6, n6, qs, vec, nvec, best)
                out = (ck, ci0, snap, r0, e)
                if kinds[e] == WINDOW:
                    tail, held = pt[r0, e, P_TAIL] - base, pt[r0, e, P_HELD]
                    est = (s6, n6, qs, vec, nvec, best, tail, held, P, Pprev, prev_lo, lseeds, loff, lblock, g)
                    ci1, tail, held = slide(sizes[e], series, blk, est, majhit[r0 : r0 + B, hslot[e]], out)
                    for b in range(B):
                        pt[r0 + b, e, P_TAIL] = tail + base
                        pt[r0 + b, e, P_HELD] = held
                        sc[r0 + b, e, S_NF] = float(held)
                else:
                    NF, m, cursor = sc[r0, e, S_NF], sc[r0, e, S_SCALE], pt[r0, e, P_CURSOR]
                    est = (s6, n6, qs, vec, nvec, best, NF, m, cursor, P, g)
                    f = fading[e]
                    ci1, NF, m, cursor = accumulate(
                        kinds[e], sizes[e], f, marks[mark_off[e] : mark_off[e + 1]], series, blk, est, out
                    )
                    for b in range(B):
                        sc[r0 + b, e, S_NF] = NF
                        sc[r0 + b, e, S_SCALE] = m
                        pt[r0 + b, e, P_CURSOR] = cursor
                _store(sc, cv, pt, r0, B, e, nq, k, s6, n6, qs, vec, nvec, best)
            ci0 = ci1
