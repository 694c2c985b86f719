"""The single-pass curve engine: confusion sufficient statistics x forgetting mechanisms.

One read of ``y_true`` / ``y_pred`` (and optional weights and per-instance real
quantities such as costs) updates, for every requested estimator, a small state
of sufficient statistics; at checkpoints every requested metric is *finalised*
from that state. A metric's formula lives in exactly one finaliser
(:mod:`streamtk._kernels.finalise`) and is applied to every estimator alike.

State of one estimator: scalars ``sc[l, e, :]`` and class vectors ``cls[l, e, 0:3, :]``
(float64), on two "sides":

eval side (instances that are evaluated: label present and weight > 0)
    ``EW`` weight sum, ``EN`` count, ``EC`` weighted hits, ``EI`` lazy fading
    multiplier, ``EQ + j`` weighted sums of extra per-instance quantities, and the
    class vectors ``ROW`` (true-class weights), ``COL`` (predicted-class weights),
    ``DIAG`` (hits per true class).
base side (instances the baseline classifiers are scored on)
    ``BW`` weight sum, ``BN`` count, ``BM`` weighted Majority-Class hits, ``BP``
    weighted Persistent hits, ``BI`` lazy fading multiplier.

In the default convention the base side holds exactly the evaluated instances. In
MOA's convention (``moa=True``) it holds every instance with a label, weight 0
included, as MOA's ``BasicClassificationPerformanceEvaluator`` does.

Forgetting mechanisms (kind codes from :mod:`streamtk._core.mechanisms`):

* prequential: add only;
* window ``w``: add, then remove the oldest member while more than ``w`` members
  are held (monotone start pointer; the leaving instance is read from the input
  arrays, no ring buffer; baseline hits are materialised per step so removal
  subtracts exactly what was added);
* fading ``alpha``: lazy global scaling — instance ``t`` is added with multiplier
  ``alpha**-t`` (stored in ``EI``/``BI``), the true sums are ``stored / multiplier``
  and ratios need no rescaling; renormalised before overflow. Exactly
  ``S_t = x_t + alpha S_{t-1}`` of Gama et al. (2013), Algorithm 3, in O(1) per step.

Arrays cover absolute stream positions ``[base, base + T)``; positions before
``t_begin`` are history (already processed in an earlier chunk) that window
removals may read. Window pointers in ``ptr`` are absolute positions.

Loop order: the stream is cut into blocks of ``BLOCK`` instances (``SMALL_BLOCK``
when checkpoints are dense) that fit in the
L1/L2 cache; each block is read from memory once and fed to every estimator in
turn, whose state lives in registers for the whole block (estimator-major inside
a block, time-major across blocks). This is still one pass over the data.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .adwin import adwin_run_one
from .blocks import _cumulative_block, _window_block
from .dense2 import N_BUF, adwin_window2, dense2_fusable, dense_binary_block
from .finalise import (
    BLOCK,
    F_Q,
    KIND_ADWIN,
    KIND_FADING,
    KIND_PREQUENTIAL,
    KIND_WINDOW,
    N_TMP,
    ROW_PAD,
    SMALL_BLOCK,
    finalise_columns,
)

# ----------------------------------------------------------------------------
# the one-pass driver


@nb.njit(cache=True, nogil=True, error_model="numpy")
def run(
    ytrue,  # (T,) int32 codes, -1 = missing label
    ypred,  # (L, T) int32 codes
    weights,  # (L, T) float64, or (L, 0) when unweighted; -1 = ignore for this series (MOA reset)
    q,  # (L, nq, T) float64 extra per-instance quantities
    kinds,  # (E,) int64 estimator kind codes
    wsize,  # (E,) int64 window sizes (0 if not a window)
    alphas,  # (E,) float64 fading factors (1.0 if not fading)
    hslot,  # (E,) int64 index into majhit's second axis for windows and ADWIN, -1 otherwise
    aslot,  # (E,) int64 index into the ADWIN state's second axis, -1 otherwise
    deltas,  # (E,) float64 ADWIN confidence (0 if not ADWIN)
    a_sums,
    a_vars,
    a_counts,
    a_ist,
    a_fst,  # ADWIN states (L, EA, ...), see streamtk._kernels.adwin
    a_clock,
    a_min_window,
    a_variant,
    seg_pay,
    seg_mem,
    seg_span,
    seg_head,  # compressed oldest members of chunked ADWIN windows (L, EA, ...)
    moa,  # bool
    dense,  # bool: no missing labels and no weights
    pos,  # int positive class code (f1)
    k,  # number of classes
    base,  # absolute position of index 0
    t_begin,  # first index to process
    ck_index,  # (C,) int64 indices (relative) of checkpoints inside [t_begin, T)
    sc,  # (L, E, S) float64 scalar state
    cls,  # (L, E, 3, k) float64 class vectors ROW, COL, DIAG
    ptr,  # (L, E, 4) int64 window pointers (absolute)
    prev,  # (L,) int64 previous present label code (Persistent baseline), 0 initially
    perhit,  # (L, T) uint8 materialised Persistent hits
    majhit,  # (L, H, T) uint8 materialised Majority hits for window estimators
    metric_ids,
    metric_arg,
    class_ids,
    n_classes_total,
    out,  # (L, E, M, C) float64
    outc,  # (L, E, MC, C, k) float64
):
    L = ypred.shape[0]
    T = ytrue.shape[0]
    E = kinds.shape[0]
    nq = q.shape[1]
    has_w = weights.shape[1] > 0
    nck = ck_index.shape[0]
    no_var = np.empty(0, dtype=np.int64)
    # dense two-class streams: prequential, windows and fading fused in one loop per block
    # (streamtk._kernels.dense2); ADWIN windows and everything else take the general loops
    prefix = k == 2 and dense and nq == 0
    nwin = 0
    nfad = 0
    pre = np.int64(-1)  # not a literal: a Literal[int](-1) argument would compile every callee twice
    nadw = 0
    maxw = 1
    for e in range(E):
        if kinds[e] == KIND_WINDOW:
            nwin += 1
            maxw = max(maxw, wsize[e])
        elif kinds[e] == KIND_FADING:
            nfad += 1
        elif kinds[e] == KIND_ADWIN:
            if not moa:
                nadw += 1
        elif kinds[e] == KIND_PREQUENTIAL:
            pre = e
    wins = np.empty(nwin, dtype=np.int64)
    fads = np.empty(nfad, dtype=np.int64)
    j = 0
    jf = 0
    for e in range(E):
        if kinds[e] == KIND_WINDOW:
            wins[j] = e
            j += 1
        elif kinds[e] == KIND_FADING:
            fads[jf] = e
            jf += 1
    # blocks: BLOCK instances; SMALL_BLOCK when checkpoints are dense (the snapshots of one block, finalised
    # together, then stay in the L2 cache; measured at every=1, 6 estimators, 8 metrics, 10^6 instances:
    # 180 ns per instance with blocks of 2048 or 256, 155 with 512 or 1024)
    blk = BLOCK if 32 * nck <= T - t_begin else SMALL_BLOCK
    hl = 1
    # the largest window (it cannot hold more than the T instances in the arrays) plus one block
    # (dense_binary_block reads the block's checkpoints after the block)
    while hl < min(maxw, T) + blk + 2:
        hl *= 2
    # baseline hits are materialised for the general loops only: ADWIN windows read them all, later
    # chunks read the kept history (at most the largest window) -- see dense_binary_block
    maj_from = max(t_begin, T - maxw - 2)
    ph_from = t_begin if nadw > 0 else maj_from
    for l in range(L):
        yp = ypred[l]
        wl = weights[l]
        ql = q[l]
        ph = perhit[l]
        ci0 = np.int64(0)  # not a literal: callees are compiled once, for int64
        fused = prefix and dense2_fusable(sc[l], cls[l], pre, wins, fads)
        ring = np.zeros((6, hl if fused else 1), dtype=np.float64)
        mring = np.zeros((nwin, hl if fused else 1), dtype=np.float64)
        buf = np.empty((N_BUF, blk if fused else 1), dtype=np.float64)
        # rows padded by one cache line: with a row length of exactly ``blk`` (a power of two) the rows of a
        # column all fall in the same few L1 cache sets and evict each other while a snapshot is written
        # (measured at every=1, 6 estimators, 1 metric: 155 -> 92 ns per instance)
        snap = np.empty((E, F_Q + nq + 3 * k, blk + ROW_PAD), dtype=np.float64)
        tmp = np.empty((N_TMP, blk + ROW_PAD), dtype=np.float64)
        if fused and nwin > 0:
            # running sums over the kept history (earlier chunks), as they were when it was processed
            mask = hl - 1
            for i in range(t_begin):
                a = i & mask
                b = (i + 1) & mask
                hit = 1.0 if ytrue[i] == yp[i] else 0.0
                ring[0, b] = ring[0, a] + 1.0
                ring[1, b] = ring[1, a] + hit
                ring[2, b] = ring[2, a] + ytrue[i]
                ring[3, b] = ring[3, a] + yp[i]
                ring[4, b] = ring[4, a] + hit * ytrue[i]
                ring[5, b] = ring[5, a] + ph[i]
                for jj in range(nwin):
                    mring[jj, b] = mring[jj, a] + majhit[l, hslot[wins[jj]], i]
        # ADWIN buffers: the block's 0/1 losses of evaluated instances, their widths, per-position widths
        xbuf = np.empty(blk, dtype=np.float64)
        wbuf = np.empty(blk, dtype=np.int64)
        wpos = np.empty(blk, dtype=np.int64)
        none_f = np.empty(0, dtype=np.float64)
        none_i = np.empty(0, dtype=np.int8)
        for b0 in range(t_begin, T, blk):
            b1 = min(T, b0 + blk)
            ci1 = ci0
            while ci1 < nck and ck_index[ci1] < b1:
                ci1 += 1
            if fused:
                prev[l] = dense_binary_block(
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
                    sc[l],
                    cls[l],
                    ptr[l],
                    prev[l],
                    ph,
                    majhit[l],
                    ph_from,
                    maj_from,
                    ring,
                    mring,
                    buf,
                    moa,
                    base,
                    ck_index,
                    ci0,
                    pos,
                    n_classes_total,
                    metric_ids,
                    metric_arg,
                    class_ids,
                    out[l],
                    outc[l],
                    snap,
                    tmp,
                )
            else:
                # Persistent hits of the block, shared by every estimator
                pv = prev[l]
                for t in range(b0, b1):
                    y = ytrue[t]
                    if y >= 0 and (wl[t] >= 0.0 if has_w else True):
                        ph[t] = 1 if pv == y else 0
                        pv = y
                prev[l] = pv
            for e in range(E):
                kind = kinds[e]
                var = no_var
                if fused and kind != KIND_ADWIN:
                    continue  # done above
                if kind == KIND_ADWIN and moa:
                    continue  # MOA's per-quantity ADWINs: streamtk._kernels.moa_adwin
                if kind == KIND_ADWIN and fused:
                    # dense two-class stream: every instance is evaluated, widths are per position
                    for t in range(b0, b1):
                        xbuf[t - b0] = 1.0 - buf[4, t - b0]  # the 0/1 loss, from the block buffer
                    a = aslot[e]
                    nbk = b1 - b0
                    adwin_run_one(
                        xbuf[:nbk],
                        a_sums[l, a],
                        a_vars[l, a],
                        a_counts[l, a],
                        a_ist[l, a],
                        a_fst[l, a],
                        deltas[e],
                        a_clock,
                        a_min_window,
                        a_variant,
                        wbuf[:nbk],
                        none_f,
                        none_f,
                        none_i,
                    )
                    seg = (seg_pay[l, a], seg_mem[l, a], seg_span[l, a], seg_head[l, a : a + 1])
                    ns = adwin_window2(
                        ytrue,
                        yp,
                        ph,
                        majhit[l, hslot[e]],
                        buf,
                        b0,
                        b1,
                        wbuf,
                        sc[l, e],
                        cls[l, e],
                        ptr[l, e],
                        base,
                        ck_index,
                        ci0,
                        snap[e],
                        seg,
                    )
                    if ns > 0:
                        finalise_columns(
                            snap[e],
                            ns,
                            np.int64(2),
                            np.int64(0),
                            moa,
                            pos,
                            n_classes_total,
                            metric_ids,
                            metric_arg,
                            class_ids,
                            out[l],
                            outc[l],
                            ci0,
                            e,
                            np.nan,
                            tmp,
                        )
                    continue
                if kind == KIND_ADWIN:
                    # ADWIN on the 0/1 loss of the evaluated instances of this block (block-fused:
                    # the block is read from memory once); its widths drive the window below
                    m = 0
                    for t in range(b0, b1):
                        if ytrue[t] >= 0 and (wl[t] > 0.0 if has_w else True):
                            xbuf[m] = 0.0 if ytrue[t] == yp[t] else 1.0
                            m += 1
                    a = aslot[e]
                    adwin_run_one(
                        xbuf[:m],
                        a_sums[l, a],
                        a_vars[l, a],
                        a_counts[l, a],
                        a_ist[l, a],
                        a_fst[l, a],
                        deltas[e],
                        a_clock,
                        a_min_window,
                        a_variant,
                        wbuf[:m],
                        none_f,
                        none_f,
                        none_i,
                    )
                    j = 0
                    for t in range(b0, b1):
                        if ytrue[t] >= 0 and (wl[t] > 0.0 if has_w else True):
                            wpos[t - b0] = wbuf[j]
                            j += 1
                    var = wpos
                if kind == KIND_WINDOW or kind == KIND_ADWIN:
                    a = max(aslot[e], 0)  # fixed windows never reach compressed members (their history is kept)
                    seg = (seg_pay[l, a], seg_mem[l, a], seg_span[l, a], seg_head[l, a : a + 1])
                    _window_block(
                        ytrue,
                        yp,
                        wl,
                        has_w,
                        ql,
                        nq,
                        b0,
                        b1,
                        sc[l, e],
                        cls[l, e],
                        ptr[l, e],
                        ph,
                        majhit[l, hslot[e]],
                        wsize[e],
                        var,
                        dense,
                        moa,
                        k,
                        base,
                        ck_index,
                        ci0,
                        pos,
                        n_classes_total,
                        metric_ids,
                        metric_arg,
                        class_ids,
                        out[l],
                        outc[l],
                        e,
                        snap[e],
                        tmp,
                        seg,
                    )
                else:
                    _cumulative_block(
                        ytrue,
                        yp,
                        wl,
                        has_w,
                        ql,
                        nq,
                        b0,
                        b1,
                        sc[l, e],
                        cls[l, e],
                        ph,
                        kind == KIND_FADING,
                        alphas[e],
                        moa,
                        k,
                        ck_index,
                        ci0,
                        pos,
                        n_classes_total,
                        metric_ids,
                        metric_arg,
                        class_ids,
                        out[l],
                        outc[l],
                        e,
                        snap[e],
                        tmp,
                    )
            ci0 = ci1
