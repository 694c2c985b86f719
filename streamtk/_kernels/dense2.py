"""Fused block loop for dense two-class streams: prequential, every sliding window and every fading factor.

A *dense* stream has a label at every instance and no weights (the common case:
a binary classifier's recorded predictions). For it the per-instance work of all
fixed estimators is fused into one read of each block:

1. **Shared indicators.** Each instance is turned once into floats — true class
   ``y`` and ``1 - y``, predicted class ``p`` and ``1 - p``, hit ``1 - |y - p|``
   and Persistent hit ``1 - |y - y_prev|`` — kept in a block buffer (branch-free:
   hits are unpredictable, a branch would be mispredicted a third of the time).
2. **Shared running sums.** The running sums ``S`` of (count, hit, y, p, y * hit,
   Persistent hit) serve the prequential estimator (``S`` plus the totals at the
   block start) and every sliding window of ``h`` instances ending at ``t``
   (``S(t) - S(t - h)``, kept in the ring ``ring[:, (t + 1) & mask]``). Each window
   then runs one short loop over the block computing only its Majority-Class hit
   from its own true-class count and its running sum ``mring[j]``; its full state is
   formed at checkpoints and at the block end. All of these are integer-valued floats,
   so they are exact and equal to adding and removing instances one at a time
   (:func:`streamtk._kernels.blocks._window_block`).
3. **One tight loop per fading factor** over the block buffer with its state in
   registers, performing exactly the floating-point operations of
   :func:`streamtk._kernels.blocks._cumulative_block` in the same order (lazy
   scaling by ``alpha**-t``, renormalisation above ``RENORM``; in MOA's convention
   every sum faded at every step, as MOA does), so the results are bit-identical to
   the general path and chunked evaluation may switch between the two (a chunk with
   a missing label goes through the general path).

The window and fading loops are inlined twice, with the convention flag a
constant, so each copy is free of per-step convention branches (measured: 2.5 ns
per fading factor and instance instead of 5).

States are read from and written back to the engine's layout (``sc``, ``cls``,
``ptr``), so the general block loops can continue from them. Baseline hits are
materialised only where something reads them back: Persistent hits ``ph`` from
``ph_from`` on and the windows' Majority hits ``majhit`` from ``maj_from`` on (the
general loops of later chunks read the kept history, at most the largest window;
ADWIN windows of the same pass read every Persistent hit).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .blocks import pop_segment
from .finalise import (
    BI,
    BM,
    BN,
    BP,
    BW,
    EC,
    EI,
    EN,
    EQ,
    EW,
    F_BM,
    F_BN,
    F_BP,
    F_BW,
    F_C,
    F_EI,
    F_N,
    F_Q,
    F_W,
    P_BC,
    P_BS,
    P_EC,
    P_ES,
    RENORM,
    finalise_columns,
)

N_BUF = 6  # rows of the block buffer: y, 1 - y, p, 1 - p, hit, Persistent hit


@nb.njit(cache=True, inline="always")
def _snapshot2(snap, i, W, C, EIv, BMv, BPv, r0, r1, c0, c1, d0, d1):
    """Column ``i`` of a two-class snapshot (no extra quantities; W = N = BW = BN without weights)."""
    snap[F_W, i] = W
    snap[F_N, i] = W
    snap[F_C, i] = C
    snap[F_EI, i] = EIv
    snap[F_BW, i] = W
    snap[F_BN, i] = W
    snap[F_BM, i] = BMv
    snap[F_BP, i] = BPv
    snap[F_Q, i] = r0  # ROW, COL, DIAG follow the scalars (no extra quantities)
    snap[F_Q + 1, i] = r1
    snap[F_Q + 2, i] = c0
    snap[F_Q + 3, i] = c1
    snap[F_Q + 4, i] = d0
    snap[F_Q + 5, i] = d1


@nb.njit(cache=True, inline="always")
def _store_state2(s, c, W, C, EIv, BMv, BPv, r0, r1, c0, c1, d0, d1):
    """Write a two-class dense state back in the engine's layout (see :mod:`streamtk._kernels.confusion`)."""
    s[EW] = W
    s[EN] = W
    s[EC] = C
    s[EI] = EIv
    s[BW] = W
    s[BN] = W
    s[BM] = BMv
    s[BP] = BPv
    s[BI] = EIv
    c[0, 0] = r0
    c[0, 1] = r1
    c[1, 0] = c0
    c[1, 1] = c1
    c[2, 0] = d0
    c[2, 1] = d1


@nb.njit(cache=True, inline="always", error_model="numpy")
def _window_loop(ring, msums, buf, b0, b1, mask, w, held, majh, store_from, moa):
    """One sliding window's Majority-Class hits over a block and their running sums ``msums``."""
    hb = held
    msum = msums[b0 & mask]
    for t in range(b0, b1):
        h1 = hb + 1 if hb < w else hb
        if moa:  # MOA: the majority of the window after adding y_t
            r1 = ring[2, (t + 1) & mask] - ring[2, (t + 1 - h1) & mask]
            maj = 1.0 if r1 > h1 - r1 else 0.0
        else:  # test-then-train: the majority of the window before t
            r1 = ring[2, t & mask] - ring[2, (t - hb) & mask]
            maj = 1.0 if r1 > hb - r1 else 0.0
        mh = 1.0 - abs(maj - buf[0, t - b0])
        msum += mh
        msums[(t + 1) & mask] = msum
        if t >= store_from:
            majh[t] = np.uint8(mh)
        hb = h1


@nb.njit(cache=True, inline="always", error_model="numpy")
def _fading_loop(buf, nb_, s, cl, alpha, moa, ck_index, ci, nck, b0, sn):
    """One fading factor over a block buffer, state in registers; the operations and their order are those of
    :func:`streamtk._kernels.blocks._cumulative_block` (bit-identical results): lazy scaling, or in MOA's
    convention every sum faded at every step."""
    m = s[EI]
    W = s[EN]
    C = s[EC]
    BMv = s[BM]
    BPv = s[BP]
    r0 = cl[0, 0]
    r1 = cl[0, 1]
    c0 = cl[1, 0]
    c1 = cl[1, 1]
    d0 = cl[2, 0]
    d1 = cl[2, 1]
    nsf = np.int64(0)
    cj = ci
    maj = 0.0
    inv_alpha = 1.0 / alpha
    for i in range(nb_):
        fy = buf[0, i]
        gy = buf[1, i]
        if moa:  # MOA's FadingFactorEstimator: S = alpha S + x for every sum (W = N = BW = BN when dense)
            g = buf[4, i]
            W = alpha * W + 1.0
            r1 = alpha * r1 + fy
            r0 = alpha * r0 + gy
            c1 = alpha * c1 + buf[2, i]
            c0 = alpha * c0 + buf[3, i]
            C = alpha * C + g
            d1 = alpha * d1 + g * fy
            d0 = alpha * d0 + g * gy
            maj = 1.0 if r1 / W > r0 / W else 0.0  # MOA compares the class fractions (moa_majority_of)
            BMv = alpha * BMv + (1.0 - abs(maj - fy))
            BPv = alpha * BPv + buf[5, i]
            if cj < nck and ck_index[cj] == b0 + i:
                _snapshot2(sn, nsf, W, C, m, BMv, BPv, r0, r1, c0, c1, d0, d1)
                nsf += 1
                cj += 1
            continue
        maj = 1.0 if r1 > r0 else 0.0  # faded majority before t
        m *= inv_alpha
        W += m
        r1 += m * fy
        r0 += m * gy
        c1 += m * buf[2, i]
        c0 += m * buf[3, i]
        g = m * buf[4, i]
        C += g
        d1 += g * fy
        d0 += g * gy
        if m <= RENORM:
            BMv += m * (1.0 - abs(maj - fy))
            BPv += m * buf[5, i]
        else:  # rare: renormalise, in the general loop's order (eval side, MOA's majority, base side)
            W /= m
            C /= m
            r0 /= m
            r1 /= m
            c0 /= m
            c1 /= m
            d0 /= m
            d1 /= m
            BMv += m * (1.0 - abs(maj - fy))
            BPv += m * buf[5, i]
            BMv /= m  # the base side's own multiplier: equal to the eval side's here
            BPv /= m
            m = 1.0
        if cj < nck and ck_index[cj] == b0 + i:
            _snapshot2(sn, nsf, W, C, m, BMv, BPv, r0, r1, c0, c1, d0, d1)
            nsf += 1
            cj += 1
    _store_state2(s, cl, W, C, m, BMv, BPv, r0, r1, c0, c1, d0, d1)


@nb.njit(cache=True, error_model="numpy")
def adwin_window2(ytrue, yp, ph, majh, buf, b0, b1, widths, s, cl, pt, base, ck_index, ci, sn, seg):
    """An ADWIN window over a block of a dense two-class stream (the default convention).

    ``widths[t - b0]``: the ADWIN width after instance ``t``; the window holds the last
    that many instances. The Majority-Class classifier predicts the window's majority
    before ``t``; its hits are materialised in ``majh`` so that leaving instances (read
    back from ``ytrue``, ``yp``, ``ph``, ``majh``, possibly in the kept history) subtract
    exactly what they added. Integer-valued sums: bit-identical to
    :func:`streamtk._kernels.blocks._window_block` on the same widths, in fewer steps.
    ``buf`` is the block buffer filled by :func:`dense_binary_block`; ``seg`` the
    compressed oldest members of a chunked window (:func:`~streamtk._kernels.blocks.pop_segment`).
    """
    n = s[EN]
    c = s[EC]
    BMv = s[BM]
    BPv = s[BP]
    y1 = cl[0, 1]
    p1 = cl[1, 1]
    d1 = cl[2, 1]
    es = pt[P_ES] - base
    nck = ck_index.shape[0]
    cj = ci
    nsn = np.int64(0)
    for t in range(b0, b1):
        i = t - b0
        fy = buf[0, i]
        fh = buf[4, i]
        maj = 1.0 if y1 > n - y1 else 0.0  # the window's majority before t; ties -> class 0
        mh = 1.0 - abs(maj - fy)
        majh[t] = np.uint8(mh)
        n += 1.0
        c += fh
        y1 += fy
        p1 += buf[2, i]
        d1 += fh * fy
        BMv += mh
        BPv += buf[5, i]
        lim = widths[i]
        while n > lim:  # ADWIN dropped its oldest bucket(s): the oldest instances leave
            if es < 0:  # compressed members of earlier chunks leave as whole segments
                j = seg[3][0]
                v = pop_segment(seg, s, cl, np.int64(2), np.int64(0))
                n -= v[EN]
                c -= v[EC]
                y1 -= v[EQ + 1]  # ROW[1]
                p1 -= v[EQ + 3]  # COL[1]
                d1 -= v[EQ + 5]  # DIAG[1]
                BMv -= v[BM]
                BPv -= v[BP]
                es += seg[2][j]
                continue
            yr = float(ytrue[es])
            pr = float(yp[es])
            hr = 1.0 - abs(yr - pr)
            n -= 1.0
            c -= hr
            y1 -= yr
            p1 -= pr
            d1 -= hr * yr
            BMv -= majh[es]
            BPv -= ph[es]
            es += 1
        if cj < nck and ck_index[cj] == t:
            _snapshot2(sn, nsn, n, c, 1.0, BMv, BPv, n - y1, y1, n - p1, p1, c - d1, d1)
            nsn += 1
            cj += 1
    _store_state2(s, cl, n, c, 1.0, BMv, BPv, n - y1, y1, n - p1, p1, c - d1, d1)
    held = np.int64(n)
    pt[P_ES] = es + base
    pt[P_EC] = held
    pt[P_BS] = es + base
    pt[P_BC] = held
    return nsn


@nb.njit(cache=True)
def dense2_fusable(sc, cls, pre, wins, fads):
    """True when the carried states are those of a dense unweighted stream (weight sums equal counts)."""
    for f in range(fads.shape[0]):
        s = sc[fads[f]]
        if not (s[EW] == s[EN] and s[BW] == s[EN] and s[BN] == s[EN] and s[EI] == s[BI]):
            return False
    if pre >= 0:
        s = sc[pre]
        if not (s[EW] == s[EN] and s[BW] == s[EN] and s[BN] == s[EN]):
            return False
    return True


@nb.njit(cache=True, error_model="numpy")
def dense_binary_block(
    ytrue,
    yp,
    b0,
    b1,
    pre,
    wins,
    fads,
    wsize,
    alphas,
    hslot,
    sc,
    cls,
    ptr,
    prev,
    ph,
    majhit,
    ph_from,
    maj_from,
    ring,
    mring,
    buf,
    moa,
    base,
    ck_index,
    ci,
    pos,
    n_classes_total,
    metric_ids,
    metric_arg,
    class_ids,
    out,
    outc,
    snap,
    tmp,
):
    """One block of a dense two-class stream for the prequential (``pre``, -1 if absent), window (``wins``) and
    fading (``fads``) estimators; returns the last label (the Persistent classifier's next prediction).

    ``ring`` (6, 2^r) and ``mring`` (len(wins), 2^r) hold the running sums at array
    positions up to ``b0`` (see :func:`streamtk._kernels.confusion.run`); ``buf``
    is a ``(N_BUF, BLOCK)`` scratch buffer; ``snap[e]`` collects estimator ``e``'s
    states at the block's checkpoints ``ck_index[ci:]`` for :func:`finalise_columns`.
    """
    mask = ring.shape[1] - 1
    nw = wins.shape[0]
    nck = ck_index.shape[0]
    nb_ = b1 - b0
    c_first = ci
    # running sums at the block start (ring origin) and the prequential totals there
    i0 = b0 & mask
    s_n = ring[0, i0]
    s_c = ring[1, i0]
    s_y = ring[2, i0]
    s_p = ring[3, i0]
    s_d = ring[4, i0]
    s_h = ring[5, i0]
    o_n = o_c = o_y = o_p = o_d = o_h = pre_m = 0.0
    if pre >= 0:
        sp = sc[pre]
        cp = cls[pre]
        o_n = sp[EN] - s_n
        o_c = sp[EC] - s_c
        o_y = cp[0, 1] - s_y
        o_p = cp[1, 1] - s_p
        o_d = cp[2, 1] - s_d
        o_h = sp[BP] - s_h
        pre_m = sp[BM]
    fprev = float(prev)
    ce = ci  # checkpoints of this block: ck_index[ci:ce]
    while ce < nck and ck_index[ce] < b1:
        ce += 1
    ns = np.int64(0)  # np.int64: a literal 0 would make numba compile callees once more for Literal[int]
    cj = ci
    # ---- pass 1: indicators, running sums, the prequential Majority hits and snapshots
    for t in range(b0, b1):
        i = t - b0
        fy = float(ytrue[t])
        fp = float(yp[t])
        fh = 1.0 - abs(fy - fp)
        fph = 1.0 - abs(fy - fprev)
        fprev = fy
        buf[0, i] = fy
        buf[1, i] = 1.0 - fy
        buf[2, i] = fp
        buf[3, i] = 1.0 - fp
        buf[4, i] = fh
        buf[5, i] = fph
        if t >= ph_from:
            ph[t] = np.uint8(fph)
        if pre >= 0:
            # Majority Class of everything before t (MOA: including y_t); ties -> class 0
            n_pre = o_n + s_n
            y_pre = o_y + s_y
            if moa:
                n_pre += 1.0
                y_pre += fy
            maj = 1.0 if y_pre > n_pre - y_pre else 0.0
            pre_m += 1.0 - abs(maj - fy)
        s_n += 1.0
        s_c += fh
        s_y += fy
        s_p += fp
        s_d += fh * fy
        s_h += fph
        if nw > 0:
            slot = (t + 1) & mask
            ring[0, slot] = s_n
            ring[1, slot] = s_c
            ring[2, slot] = s_y
            ring[3, slot] = s_p
            ring[4, slot] = s_d
            ring[5, slot] = s_h
        if pre >= 0 and cj < nck and ck_index[cj] == t:
            n = o_n + s_n
            c = o_c + s_c
            y1 = o_y + s_y
            p1 = o_p + s_p
            d1 = o_d + s_d
            _snapshot2(snap[pre], ns, n, c, 1.0, pre_m, o_h + s_h, n - y1, y1, n - p1, p1, c - d1, d1)
            ns += 1
            cj += 1
    # ---- pass 2: one loop per window: its Majority hits (from its own true-class count) and running sum
    # (the ring holds at least the largest window plus one block: the block's checkpoints are read after)
    for j in range(nw):
        e = wins[j]
        if moa:
            _window_loop(ring, mring[j], buf, b0, b1, mask, wsize[e], ptr[e, P_EC], majhit[hslot[e]], maj_from, True)
        else:
            _window_loop(ring, mring[j], buf, b0, b1, mask, wsize[e], ptr[e, P_EC], majhit[hslot[e]], maj_from, False)
    for cj in range(ci, ce):
        t = ck_index[cj]
        a = (t + 1) & mask
        for j in range(nw):
            e = wins[j]
            h = min(ptr[e, P_EC] + (t + 1 - b0), wsize[e])  # members held after t
            b = (t + 1 - h) & mask
            n = ring[0, a] - ring[0, b]
            c = ring[1, a] - ring[1, b]
            y1 = ring[2, a] - ring[2, b]
            p1 = ring[3, a] - ring[3, b]
            d1 = ring[4, a] - ring[4, b]
            _snapshot2(
                snap[e],
                cj - ci,
                n,
                c,
                1.0,
                mring[j, a] - mring[j, b],
                ring[5, a] - ring[5, b],
                n - y1,
                y1,
                n - p1,
                p1,
                c - d1,
                d1,
            )
    # ---- block end: prequential and window states back in the engine layout
    if pre >= 0:
        n = o_n + s_n
        c = o_c + s_c
        y1 = o_y + s_y
        p1 = o_p + s_p
        d1 = o_d + s_d
        _store_state2(sc[pre], cls[pre], n, c, 1.0, pre_m, o_h + s_h, n - y1, y1, n - p1, p1, c - d1, d1)
    last = b1 - 1
    for j in range(nw):
        e = wins[j]
        h = min(ptr[e, P_EC] + (b1 - b0), wsize[e])  # members held after the block
        a = (last + 1) & mask
        b = (last + 1 - h) & mask
        n = ring[0, a] - ring[0, b]
        c = ring[1, a] - ring[1, b]
        y1 = ring[2, a] - ring[2, b]
        p1 = ring[3, a] - ring[3, b]
        d1 = ring[4, a] - ring[4, b]
        _store_state2(
            sc[e],
            cls[e],
            n,
            c,
            1.0,
            mring[j, a] - mring[j, b],
            ring[5, a] - ring[5, b],
            n - y1,
            y1,
            n - p1,
            p1,
            c - d1,
            d1,
        )
        start = b1 - h + base
        ptr[e, P_EC] = h
        ptr[e, P_ES] = start
        ptr[e, P_BS] = start
        ptr[e, P_BC] = h
    # ---- pass 3: one register loop per fading factor over the block buffer
    for f in range(fads.shape[0]):
        e = fads[f]
        if moa:  # constant flags: each inlined copy of the loop is branch-free on the convention
            _fading_loop(buf, nb_, sc[e], cls[e], alphas[e], True, ck_index, ci, nck, b0, snap[e])
        else:
            _fading_loop(buf, nb_, sc[e], cls[e], alphas[e], False, ck_index, ci, nck, b0, snap[e])
    # ---- finalise the block's checkpoints of every estimator handled here
    ns = ce - ci
    if ns > 0:
        k2 = np.int64(2)
        nq0 = np.int64(0)
        if pre >= 0:
            finalise_columns(
                snap[pre],
                ns,
                k2,
                nq0,
                moa,
                pos,
                n_classes_total,
                metric_ids,
                metric_arg,
                class_ids,
                out,
                outc,
                c_first,
                pre,
                np.nan,
                tmp,
            )
        for j in range(nw):
            finalise_columns(
                snap[wins[j]],
                ns,
                k2,
                nq0,
                moa,
                pos,
                n_classes_total,
                metric_ids,
                metric_arg,
                class_ids,
                out,
                outc,
                c_first,
                wins[j],
                np.nan,
                tmp,
            )
        for f in range(fads.shape[0]):
            finalise_columns(
                snap[fads[f]],
                ns,
                k2,
                nq0,
                moa,
                pos,
                n_classes_total,
                metric_ids,
                metric_arg,
                class_ids,
                out,
                outc,
                c_first,
                fads[f],
                0.0,
                tmp,
            )
    return np.int64(fprev)
