"""Per-estimator block loops of the curve engine (see :mod:`streamtk._kernels.confusion`).

Each function feeds one block of the recorded stream to one estimator whose state
is held in local variables for the whole block, and finalises at the block's
checkpoints: ``_cumulative_block`` (prequential and fading) and ``_window_block``
(sliding and ADWIN windows: a monotone start pointer). ``dense_windows2`` serves
every fixed window of a two-class stream without missing labels or weights at once,
from shared running sums (a measured specialisation: windows were the costliest
estimators; a two-class copy of the cumulative loop measured no faster, so there is
none).
"""


from __future__ import annotations

import math

import numba as nb
import numpy as np

from .finalise import (
    BI, BM, BN, BP, BW, EC, EI, EN, EQ, EW, P_BC, P_BS, P_EC, P_ES, RENORM, finalise_columns, majority_of,
    take_snapshot,
)

# ----------------------------------------------------------------------------
# per-estimator block loops


@nb.njit(cache=True, error_model="numpy")
def _cumulative_block(ytrue, yp, wl, has_w, ql, nq, b0, b1, sc, cl, perhit, fading, inv_alpha, moa, k,
                      ck_index, ci, pos, n_classes_total, metric_ids, metric_arg, class_ids, out, outc, e, snap, tmp):
    """Prequential (``fading=False``) or fading-factor block: add only.

    The states at the block's checkpoints are collected in ``snap`` and finalised
    together at the end of the block (:func:`finalise_columns`).
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
    for t in range(b0, b1):
        y = ytrue[t]
        w = wl[t] if has_w else 1.0
        if y >= 0 and w >= 0.0:
            yp_t = yp[t]
            if not moa:
                mh = 1.0 if majority_of(row, k) == y else 0.0
            if w > 0.0:
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
                mh = 1.0 if majority_of(row, k) == y else 0.0
            if w > 0.0 or moa:
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
        finalise_columns(snap, ns, k, nq, moa, pos, n_classes_total, metric_ids, metric_arg, class_ids, out, outc,
                         c_first, e, 0.0 if fading else np.nan, tmp)
    sc[EW] = W
    sc[EN] = N
    sc[EC] = C
    sc[EI] = m
    sc[BW] = BWv
    sc[BN] = BNv
    sc[BM] = BMv
    sc[BP] = BPv
    sc[BI] = mb


@nb.njit(cache=True, error_model="numpy")
def _window_block(ytrue, yp, wl, has_w, ql, nq, b0, b1, sc, cl, pt, perhit, majh, wsize, wvar, dense, moa, k,
                  base, ck_index, ci, pos, n_classes_total, metric_ids, metric_arg, class_ids, out, outc, e, snap,
                  tmp):
    """Sliding window of the last ``wsize`` members: add, then remove the oldest member(s).

    ``wvar`` (length ``>= b1 - b0``, or empty): a per-step window size (the ADWIN
    width after instance ``t`` is ``wvar[t - b0]``) instead of the constant
    ``wsize`` — the same monotone-window driver serves sliding and ADWIN windows.
    ``dense``: every instance is a member (no missing labels, no weights), so the
    leaving instance is the one at the start pointer. Otherwise the start pointer
    scans to the next member. In MOA's convention with weights the eval and base
    sides have different members and separate pointers.
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
    lim = wsize
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
                mh = 1 if majority_of(row, k) == y else 0
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
        finalise_columns(snap, ns, k, nq, moa, pos, n_classes_total, metric_ids, metric_arg, class_ids, out, outc,
                         c_first, e, np.nan, tmp)
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


# ----------------------------------------------------------------------------
# every fixed window of a dense two-class stream at once


@nb.njit(cache=True, error_model="numpy")
def _window_state_from_sums(ring, mring, j, t, held, sc, cl):
    """One window's state over its last ``held`` instances ending at array index ``t``."""
    mask = ring.shape[1] - 1
    a = (t + 1) & mask
    b = (t + 1 - held) & mask
    n = ring[0, a] - ring[0, b]
    c = ring[1, a] - ring[1, b]
    r1 = ring[2, a] - ring[2, b]
    p1 = ring[3, a] - ring[3, b]
    d1 = ring[4, a] - ring[4, b]
    sc[EW] = n
    sc[EN] = n
    sc[EC] = c
    sc[BW] = n
    sc[BN] = n
    sc[BM] = mring[j, a] - mring[j, b]
    sc[BP] = ring[5, a] - ring[5, b]
    cl[0, 0] = n - r1
    cl[0, 1] = r1
    cl[1, 0] = n - p1
    cl[1, 1] = p1
    cl[2, 0] = c - d1
    cl[2, 1] = d1


@nb.njit(cache=True, error_model="numpy")
def dense_windows2(ytrue, yp, b0, b1, wins, wsize, hslot, sc, cls, ptr, perhit, majhit, ring, mring, moa, base,
                   ck_index, ci, pos, n_classes_total, metric_ids, metric_arg, class_ids, out, outc, snap, tmp):
    """Every fixed sliding window of a two-class dense stream at once, by differences of running sums.

    All windows share the running sums ``S`` of the per-instance indicators (count,
    hit, true class 1, predicted class 1, true positive, Persistent hit), kept in the
    ring ``ring[:, (t + 1) & mask]`` = sums up to array index ``t``; a window holding
    ``h`` instances that ends at ``t`` has the state ``S(t) - S(t - h)``. Per step a
    window only computes its Majority Class hit (from the true-class-1 count of its
    window) and adds it to its own running sum ``mring[j]``; its full state is formed
    only at checkpoints and at the end of the block. All sums are integer-valued, so
    the results are bit-identical to adding and removing instances one at a time
    (:func:`_window_block`), at a fraction of the work per step.
    """
    mask = ring.shape[1] - 1
    nw = wins.shape[0]
    nck = ck_index.shape[0]
    ns = np.int64(0)  # np.int64: a literal 0 would make numba compile callees once more for Literal[int]
    c_first = ci
    i0 = b0 & mask
    s_n = ring[0, i0]
    s_c = ring[1, i0]
    s_y = ring[2, i0]
    s_p = ring[3, i0]
    s_d = ring[4, i0]
    s_h = ring[5, i0]
    for t in range(b0, b1):
        y = ytrue[t]
        yp_t = yp[t]
        hit = float(1 - abs(y - yp_t))
        s_n += 1.0
        s_c += hit
        s_y += float(y)
        s_p += float(yp_t)
        s_d += hit * float(y)
        s_h += float(perhit[t])
        slot = (t + 1) & mask
        ring[0, slot] = s_n
        ring[1, slot] = s_c
        ring[2, slot] = s_y
        ring[3, slot] = s_p
        ring[4, slot] = s_d
        ring[5, slot] = s_h
        for j in range(nw):
            e = wins[j]
            pe = ptr[e]
            held_before = pe[P_EC]
            held = held_before + 1 if held_before < wsize[e] else held_before
            if moa:  # MOA: the majority of the window after adding y_t
                r1 = s_y - ring[2, (t + 1 - held) & mask]
                maj = 1 if r1 > held - r1 else 0
            else:  # test-then-train: the majority of the window before t
                r1 = ring[2, t & mask] - ring[2, (t - held_before) & mask]
                maj = 1 if r1 > held_before - r1 else 0
            mh = 1 - abs(maj - y)
            majhit[hslot[e], t] = mh
            mring[j, slot] = mring[j, t & mask] + mh
            pe[P_EC] = held
        if ci < nck and ck_index[ci] == t:
            for j in range(nw):
                e = wins[j]
                _window_state_from_sums(ring, mring, j, t, ptr[e, P_EC], sc[e], cls[e])
                c = cls[e]
                s = sc[e]
                take_snapshot(snap[e], ns, s[EW], s[EN], s[EC], 1.0, s[BW], s[BN], s[BM], s[BP], s, c[0], c[1],
                              c[2], np.int64(2), np.int64(0))
            ns += 1
            ci += 1
    for j in range(nw):
        if ns > 0:
            finalise_columns(snap[wins[j]], ns, np.int64(2), np.int64(0), moa, pos, n_classes_total, metric_ids, metric_arg, class_ids,
                             out, outc, c_first, wins[j], np.nan, tmp)
        e = wins[j]
        held = ptr[e, P_EC]
        _window_state_from_sums(ring, mring, j, b1 - 1, held, sc[e], cls[e])
        start = b1 - held + base
        ptr[e, P_ES] = start
        ptr[e, P_BS] = start
        ptr[e, P_BC] = held
