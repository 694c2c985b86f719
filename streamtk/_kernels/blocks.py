"""Per-estimator block loops of the curve engine (see :mod:`streamtk._kernels.confusion`).

Each function feeds one block of the recorded stream to one estimator whose state
is held in local variables for the whole block, and finalises at the block's
checkpoints: ``_cumulative_block`` (prequential and fading) and ``_window_block``
(sliding and ADWIN windows: a monotone start pointer). Dense two-class streams take
the fused loop of :mod:`streamtk._kernels.dense2` instead (bit-identical results).
"""

from __future__ import annotations

import numba as nb
import numpy as np

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
    P_BC,
    P_BS,
    P_EC,
    P_ES,
    RENORM,
    finalise_columns,
    majority_of,
    moa_majority_of,
    take_snapshot,
)

# ----------------------------------------------------------------------------
# per-estimator block loops


@nb.njit(cache=True, error_model="numpy")
def _cumulative_block(
    ytrue,
    yp,
    wl,
    has_w,
    ql,
    nq,
    b0,
    b1,
    sc,
    cl,
    perhit,
    fading,
    alpha,
    moa,
    k,
    ck_index,
    ci,
    pos,
    n_classes_total,
    metric_ids,
    metric_arg,
    class_ids,
    out,
    outc,
    e,
    snap,
    tmp,
):
    """Prequential (``fading=False``) or fading-factor block: add only.

    A fading factor scales lazily by default: the state holds its sums times
    ``alpha**-t`` (one multiplier ``m`` per side instead of fading every sum at every
    step) and renormalises above :data:`RENORM`. In MOA's convention every sum is faded
    at every step, ``S = alpha S + x``, as MOA's ``FadingFactorEstimator`` does, so that
    the results are MOA's bit for bit (``m`` stays 1). The states at the block's
    checkpoints are collected in ``snap`` and finalised together at the end of the
    block (:func:`finalise_columns`).
    """
    row = cl[0]
    col = cl[1]
    dia = cl[2]
    W = sc[EW]
    N = sc[EN]
    C = sc[EC]
    m = sc[EI]
    BWv = sc[BW]
    BNv = sc[BN]
    BMv = sc[BM]
    BPv = sc[BP]
    mb = sc[BI]
    nck = ck_index.shape[0]
    ns = np.int64(0)  # np.int64: a literal 0 would make numba compile callees once more for Literal[int]
    c_first = ci
    inv_alpha = 1.0 / alpha
    eager = fading and moa
    for t in range(b0, b1):
        y = ytrue[t]
        w = wl[t] if has_w else 1.0
        if y >= 0 and w >= 0.0:
            yp_t = yp[t]
            if not moa:
                mh = 1.0 if majority_of(row, k) == y else 0.0
            if w > 0.0 and eager:  # MOA: every sum faded, then the instance's value added
                gh = w if y == yp_t else 0.0
                W = alpha * W + w
                N = alpha * N + 1.0
                C = alpha * C + gh
                for j in range(nq):
                    sc[EQ + j] = alpha * sc[EQ + j] + w * ql[j, t]
                for i in range(k):
                    row[i] *= alpha
                    col[i] *= alpha
                    dia[i] *= alpha
                row[y] += w
                col[yp_t] += w
                dia[y] += gh
            elif w > 0.0:
                if fading:
                    m *= inv_alpha
                g = w * m
                W += g
                N += m
                row[y] += g
                col[yp_t] += g
                gh = g if y == yp_t else 0.0  # branch-free: hits are unpredictable
                C += gh
                dia[y] += gh
                for j in range(nq):
                    sc[EQ + j] += g * ql[j, t]
                if fading and m > RENORM:
                    W /= m
                    N /= m
                    C /= m
                    for j in range(nq):
                        sc[EQ + j] /= m
                    for i in range(k):
                        row[i] /= m
                        col[i] /= m
                        dia[i] /= m
                    m = 1.0
            if moa:
                mh = 1.0 if moa_majority_of(row, k, N) == y else 0.0
            if eager:
                BWv = alpha * BWv + w
                BNv = alpha * BNv + 1.0
                BMv = alpha * BMv + w * mh
                BPv = alpha * BPv + w * perhit[t]
            elif w > 0.0 or moa:
                if fading:
                    mb *= inv_alpha
                g = w * mb
                BWv += g
                BNv += mb
                BMv += g * mh
                BPv += g * perhit[t]
                if fading and mb > RENORM:
                    BWv /= mb
                    BNv /= mb
                    BMv /= mb
                    BPv /= mb
                    mb = 1.0
        if ci < nck and ck_index[ci] == t:
            take_snapshot(snap, ns, W, N, C, m, BWv, BNv, BMv, BPv, sc, row, col, dia, k, nq)
            ns += 1
            ci += 1
    if ns > 0:
        finalise_columns(
            snap,
            ns,
            k,
            nq,
            moa,
            pos,
            n_classes_total,
            metric_ids,
            metric_arg,
            class_ids,
            out,
            outc,
            c_first,
            e,
            0.0 if fading else np.nan,
            tmp,
        )
    sc[EW] = W
    sc[EN] = N
    sc[EC] = C
    sc[EI] = m
    sc[BW] = BWv
    sc[BN] = BNv
    sc[BM] = BMv
    sc[BP] = BPv
    sc[BI] = mb


@nb.njit(cache=True, inline="always")
def pop_segment(seg, sc, cl, k, nq):
    """Remove the oldest compressed segment of an ADWIN window from the state's extra quantities and class
    vectors; returns its sums (the caller subtracts the scalars it holds in registers).

    ``seg = (pay, members, span, head)``: in chunked evaluation the oldest members of
    an ADWIN window (before the kept history) are held as sums ``pay[j]`` in the state
    layout (scalars, then ROW, COL, DIAG), ``members[j]`` evaluated instances over
    ``span[j]`` stream positions -- see :meth:`streamtk.evaluation.engine.EngineCore._compress_adwin`
    -- so memory stays O(log W). ADWIN drops whole buckets and every segment lies
    inside one bucket, so a window sheds whole segments before it reaches the kept
    instances.
    """
    pay = seg[0]
    head = seg[3]
    j = head[0]
    v = pay[j]
    for i in range(nq):
        sc[EQ + i] -= v[EQ + i]
    r0 = EQ + nq
    for c in range(k):
        cl[0, c] -= v[r0 + c]
        cl[1, c] -= v[r0 + k + c]
        cl[2, c] -= v[r0 + 2 * k + c]
    head[0] = j + 1
    return v


@nb.njit(cache=True, error_model="numpy")
def _window_block(
    ytrue,
    yp,
    wl,
    has_w,
    ql,
    nq,
    b0,
    b1,
    sc,
    cl,
    pt,
    perhit,
    majh,
    wsize,
    wvar,
    dense,
    moa,
    k,
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
    e,
    snap,
    tmp,
    seg,
):
    """Sliding window of the last ``wsize`` members: add, then remove the oldest member(s).

    ``wvar`` (length ``>= b1 - b0``, or empty): a per-step window size (the ADWIN
    width after instance ``t`` is ``wvar[t - b0]``) instead of the constant
    ``wsize`` — the same monotone-window driver serves sliding and ADWIN windows.
    ``dense``: every instance is a member (no missing labels, no weights), so the
    leaving instance is the one at the start pointer. Otherwise the start pointer
    scans to the next member. In MOA's convention with weights the eval and base
    sides have different members and separate pointers. ``seg``: the compressed
    oldest members of a chunked ADWIN window (:func:`pop_segment`; empty otherwise).
    """
    row = cl[0]
    col = cl[1]
    dia = cl[2]
    W = sc[EW]
    N = sc[EN]
    C = sc[EC]
    BWv = sc[BW]
    BNv = sc[BN]
    BMv = sc[BM]
    BPv = sc[BP]
    es = pt[P_ES] - base
    ec = pt[P_EC]
    bs = pt[P_BS] - base
    bc = pt[P_BC]
    same = not (moa and has_w)
    variable = wvar.shape[0] > 0
    # an ADWIN window keeps its size until the block's first evaluated instance brings a width (a block may
    # start with instances of weight 0 or without a label)
    lim = ec if variable else wsize
    nck = ck_index.shape[0]
    ns = np.int64(0)  # np.int64: a literal 0 would make numba compile callees once more for Literal[int]
    c_first = ci
    for t in range(b0, b1):
        y = ytrue[t]
        w = wl[t] if has_w else 1.0
        if y >= 0 and w >= 0.0:
            yp_t = yp[t]
            if variable and w > 0.0:  # ADWIN widths exist for evaluated instances only
                lim = wvar[t - b0]
            if not moa:
                mh = 1 if majority_of(row, k) == y else 0
            if w > 0.0:
                W += w
                N += 1.0
                row[y] += w
                col[yp_t] += w
                if y == yp_t:
                    C += w
                    dia[y] += w
                for j in range(nq):
                    sc[EQ + j] += w * ql[j, t]
                ec += 1
            # evict from the eval side (and, when members coincide, the base side) before MOA's
            # majority is read: MOA's window estimator drops its oldest value as it adds the new one
            while ec > lim:
                if es < 0:  # the oldest members are compressed (chunked ADWIN window): whole segments leave
                    j = seg[3][0]
                    v = pop_segment(seg, sc, cl, k, nq)
                    W -= v[EW]
                    N -= v[EN]
                    C -= v[EC]
                    BWv -= v[BW]
                    BNv -= v[BN]
                    BMv -= v[BM]
                    BPv -= v[BP]
                    es += seg[2][j]
                    bs += seg[2][j]
                    ec -= seg[1][j]
                    bc -= seg[1][j]
                    continue
                if dense:
                    r = es
                else:
                    r = es
                    while True:
                        if ytrue[r] >= 0:
                            if (wl[r] if has_w else 1.0) > 0.0:
                                break
                        r += 1
                wr = wl[r] if has_w else 1.0
                yr = ytrue[r]
                pr = yp[r]
                W -= wr
                N -= 1.0
                row[yr] -= wr
                col[pr] -= wr
                if yr == pr:
                    C -= wr
                    dia[yr] -= wr
                for j in range(nq):
                    sc[EQ + j] -= wr * ql[j, r]
                es = r + 1
                ec -= 1
                if same:
                    BWv -= wr
                    BNv -= 1.0
                    BMv -= wr * majh[r]
                    BPv -= wr * perhit[r]
                    bs = r + 1
                    bc -= 1
            if moa:
                mh = 1 if moa_majority_of(row, k, N) == y else 0
            if w > 0.0 or moa:
                majh[t] = mh
                BWv += w
                BNv += 1.0
                BMv += w * mh
                BPv += w * perhit[t]
                bc += 1
            while bc > lim:  # MOA convention with weights: base side has its own members
                r = bs
                while True:
                    if ytrue[r] >= 0 and wl[r] >= 0.0:
                        break
                    r += 1
                wr = wl[r]
                BWv -= wr
                BNv -= 1.0
                BMv -= wr * majh[r]
                BPv -= wr * perhit[r]
                bs = r + 1
                bc -= 1
        if ci < nck and ck_index[ci] == t:
            take_snapshot(snap, ns, W, N, C, 1.0, BWv, BNv, BMv, BPv, sc, row, col, dia, k, nq)
            ns += 1
            ci += 1
    if ns > 0:
        finalise_columns(
            snap,
            ns,
            k,
            nq,
            moa,
            pos,
            n_classes_total,
            metric_ids,
            metric_arg,
            class_ids,
            out,
            outc,
            c_first,
            e,
            np.nan,
            tmp,
        )
    sc[EW] = W
    sc[EN] = N
    sc[EC] = C
    sc[BW] = BWv
    sc[BN] = BNv
    sc[BM] = BMv
    sc[BP] = BPv
    pt[P_ES] = es + base
    pt[P_EC] = ec
    pt[P_BS] = bs + base
    pt[P_BC] = bc
