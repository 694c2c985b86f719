"""The single-pass curve engine: confusion sufficient statistics x forgetting mechanisms.

One read of ``y_true`` / ``y_pred`` (and optional weights and per-instance real
quantities such as costs) updates, for every requested estimator, a small state
of sufficient statistics; at checkpoints every requested metric is *finalised*
from that state. A metric's formula lives in exactly one finaliser below and is
applied to every estimator alike.

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

Forgetting mechanisms (kind codes from :mod:`streamtk.estimators`):

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

Loop order: the stream is cut into blocks of ``BLOCK`` instances that fit in the
L1/L2 cache; each block is read from memory once and fed to every estimator in
turn, whose state lives in registers for the whole block (estimator-major inside
a block, time-major across blocks). This is still one pass over the data.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from .adwin import adwin_run_one

# ----------------------------------------------------------------------------
# scalar state layout (class vectors ROW, COL, DIAG live in a separate array)
EW, EN, EC, EI, BW, BN, BM, BP, BI, EQ = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
BLOCK = 2048
# pointer layout (int64): eval start, eval members held, base start, base members held
P_ES, P_EC, P_BS, P_BC = 0, 1, 2, 3
RENORM = 1e150

KIND_PREQUENTIAL, KIND_WINDOW, KIND_FADING, KIND_ADWIN = 0, 1, 2, 3

# ----------------------------------------------------------------------------
# scalar metric codes (the registry in streamtk.metrics maps names to these)
M_ACCURACY = 0
M_ERROR = 1
M_KAPPA = 2
M_KAPPA_M = 3
M_KAPPA_PER = 4
M_KAPPA_PLUS = 5
M_P_RAN = 6
M_P_MAJ = 7
M_P_PER = 8
M_P_NO_INFO = 9
M_KAPPA_SE = 10
M_KAPPA_Z = 11
M_ARITHMETIC_MEAN = 12
M_GEOMETRIC_MEAN = 13
M_HARMONIC_MEAN = 14
M_F1 = 15
M_MACRO_F1 = 16
M_MCC = 17
M_CMD = 18
M_QUANTITY_MEAN = 19  # weighted mean of an extra per-instance quantity (risk, log-loss, Brier, ...)
M_N_INSTANCES = 20
# per-class metric codes
C_RECALL = 0
C_PRECISION = 1
C_F1 = 2


def state_size(nq: int) -> int:
    """Length of one estimator's scalar state vector for ``nq`` extra quantities."""
    return EQ + nq


# ----------------------------------------------------------------------------
# elementary finalisers: each formula exactly once


@nb.njit(cache=True, inline="always", error_model="numpy")
def ratio_or_nan(num, den):
    """``num / den``, NaN when ``den == 0`` (undefined, never 0)."""
    if den == 0.0:
        return np.nan
    return num / den


@nb.njit(cache=True, inline="always", error_model="numpy")
def chance_corrected(p, p_base, moa):
    """``(p - p_base) / (1 - p_base)``: kappa, kappa_m and kappa_per share this form.

    Cohen's kappa (Zliobaite et al. 2015 eq. 10), kappa_m (Bifet et al. 2015
    sec. 5.3), Kappa-Temporal (Zliobaite et al. eq. 13). Undefined (NaN) when
    ``p_base == 1``; MOA's convention returns the IEEE result instead.
    """
    if moa:
        return (p - p_base) / (1.0 - p_base)
    if p_base == 1.0:
        return np.nan
    return (p - p_base) / (1.0 - p_base)


@nb.njit(cache=True, inline="always", error_model="numpy")
def kappa_plus(kappa, kappa_per):
    """Combined measure ``sqrt(max(0, kappa) max(0, kappa_per))`` (Zliobaite et al. eq. 14)."""
    if math.isnan(kappa) or math.isnan(kappa_per):
        return np.nan
    return math.sqrt(max(0.0, kappa) * max(0.0, kappa_per))


@nb.njit(cache=True, inline="always", error_model="numpy")
def kappa_standard_error(p, p_ran, n):
    """Cohen's approximation ``sqrt(p (1 - p) / (N (1 - p_ran)^2))`` (Zliobaite et al. eq. 11)."""
    if n <= 0.0 or p_ran == 1.0:
        return np.nan
    return math.sqrt(p * (1.0 - p) / (n * (1.0 - p_ran) ** 2))


@nb.njit(cache=True, inline="always", error_model="numpy")
def kappa_z(kappa, p_ran, n):
    """``z = kappa / sqrt(p_ran / (N (1 - p_ran)))`` (Zliobaite et al. eq. 12)."""
    if n <= 0.0 or p_ran == 1.0 or p_ran == 0.0:
        return np.nan
    return kappa / math.sqrt(p_ran / (n * (1.0 - p_ran)))


@nb.njit(cache=True, error_model="numpy", inline="always")
def finalise(W, N, C, EIv, BWv, BNv, BMv, BPv, sc, row, col, dia, k, moa, pos, n_classes_total,
             metric_ids, metric_arg, class_ids, out, outc, ci, e, empty=np.nan):
    """Write every requested metric of one estimator's state into ``out[ci, e]`` / ``outc[ci, e]``.

    ``out[ci, e, j]`` receives scalar metric ``metric_ids[j]``; ``outc[ci, e, j, i]``
    receives per-class metric ``class_ids[j]`` of class ``i`` (indices are passed
    rather than sub-array views: a view per call costs reference counting). ``W, N, C`` are the eval
    side's weight sum, count and weighted hits, ``EIv`` its lazy fading
    multiplier; ``BWv, BNv, BMv, BPv`` the base side's weight sum, count and
    Majority / Persistent hits; ``sc[EQ + j]`` the weighted sums of extra quantities.
    ``empty``: MOA's estimate before anything was observed (0 for its fading
    estimator, NaN for the others).
    """
    # MOA divides weighted sums by the number of instances, not the weight total
    den = N if moa else W
    bden = BNv if moa else BWv
    n_eff = N / EIv  # true (faded) number of evaluated instances
    nothing_yet = moa and N == 0.0
    if nothing_yet:
        # MOA: nothing observed yet -> kappas are 0 and estimates 0/0 (fading: 0)
        p0 = empty
        pc = empty
        pmaj = empty
        pper = empty
        kap = 0.0
        kap_per = 0.0
    else:
        p0 = C / den
        rc = 0.0
        for i in range(k):
            rc += row[i] * col[i]
        pc = rc / (den * den)
        pmaj = BMv / bden
        pper = BPv / bden
        kap = chance_corrected(p0, pc, moa)
        kap_per = chance_corrected(p0, pper, moa)
    for j in range(metric_ids.shape[0]):
        m = metric_ids[j]
        if m == M_ACCURACY:
            v = p0
        elif m == M_KAPPA:
            v = kap
        elif m == M_KAPPA_M:
            v = 0.0 if nothing_yet else chance_corrected(p0, pmaj, moa)
        elif m == M_KAPPA_PER:
            v = kap_per
        elif m == M_KAPPA_PLUS:
            v = kappa_plus(kap, kap_per)
        elif m == M_F1:
            v = ratio_or_nan(2.0 * dia[pos], row[pos] + col[pos])
        elif m == M_MCC:
            v = matthews(row, col, k, C, W)
        elif m == M_ARITHMETIC_MEAN or m == M_GEOMETRIC_MEAN or m == M_HARMONIC_MEAN:
            v = recall_mean(row, dia, k, m)
        elif m == M_ERROR:
            v = 1.0 - p0
        elif m == M_P_RAN:
            v = pc
        elif m == M_P_MAJ:
            v = pmaj
        elif m == M_P_PER:
            v = pper
        elif m == M_P_NO_INFO:
            v = 1.0 / n_classes_total
        elif m == M_KAPPA_SE:
            v = kappa_standard_error(p0, pc, n_eff)
        elif m == M_KAPPA_Z:
            v = kappa_z(kap, pc, n_eff)
        elif m == M_MACRO_F1:
            acc = 0.0
            c = 0
            for i in range(k):
                d = row[i] + col[i]
                if d > 0.0:
                    acc += 2.0 * dia[i] / d
                    c += 1
            v = acc / c if c > 0 else np.nan
        elif m == M_CMD:
            # determinant of the binary confusion matrix of proportions: (TP TN - FN FP) / W^2
            tp = dia[1]
            tn = dia[0]
            v = ratio_or_nan(tp * tn - (row[1] - tp) * (row[0] - tn), W * W)
        elif m == M_QUANTITY_MEAN:
            v = sc[EQ + metric_arg[j]] / den
            if not moa and den == 0.0:
                v = np.nan
        elif m == M_N_INSTANCES:
            v = n_eff
        else:
            v = np.nan
        out[ci, e, j] = v
    for j in range(class_ids.shape[0]):
        c = class_ids[j]
        for i in range(k):
            if c == C_RECALL:
                outc[ci, e, j, i] = ratio_or_nan(dia[i], row[i])
            elif c == C_PRECISION:
                outc[ci, e, j, i] = ratio_or_nan(dia[i], col[i])
            else:
                outc[ci, e, j, i] = ratio_or_nan(2.0 * dia[i], row[i] + col[i])


@nb.njit(cache=True, error_model="numpy", inline="always")
def recall_mean(row, dia, k, which):
    """Arithmetic / geometric / harmonic mean of the class recalls ``A_i = DIAG_i / ROW_i``.

    Bifet et al. (2015) sec. 5.2: ``A = (1/c) sum A_i``, ``G = (prod A_i)^(1/c)``,
    ``H = c / sum(1/A_i)``, over the ``c`` classes present among the true labels
    the estimator holds (classes absent from it have no recall). ``H = G = 0``
    when some ``A_i = 0``. NaN when no class is present.
    """
    c = 0
    total = 0.0
    logsum = 0.0
    prod = 1.0
    inv = 0.0
    zero = False
    for i in range(k):
        r = row[i]
        if r > 0.0:
            a = dia[i] / r
            c += 1
            total += a
            if a <= 0.0:
                zero = True
            else:
                prod *= a
                inv += 1.0 / a
                if which == M_GEOMETRIC_MEAN and k > 2:
                    logsum += math.log(a)
    if c == 0:
        return np.nan
    if which == M_ARITHMETIC_MEAN:
        return total / c
    if zero:
        return 0.0
    if which == M_GEOMETRIC_MEAN:
        if c == 1:
            return prod
        if c == 2:
            return math.sqrt(prod)
        return math.exp(logsum / c)
    return c / inv


@nb.njit(cache=True, error_model="numpy", inline="always")
def matthews(row, col, k, correct, w):
    """Matthews correlation coefficient, multi-class form (Gorodkin 2004).

    ``(C W - sum_i ROW_i COL_i) / sqrt((W^2 - sum_i COL_i^2)(W^2 - sum_i ROW_i^2))``,
    which for two classes is ``(TP TN - FN FP) / sqrt((TP+FN)(TP+FP)(TN+FP)(TN+FN))``
    (Bifet et al. 2015 sec. 5.1). NaN when the denominator is 0 (scikit-learn returns 0).
    """
    rc = 0.0
    rr = 0.0
    cc = 0.0
    for i in range(k):
        r = row[i]
        q = col[i]
        rc += r * q
        rr += r * r
        cc += q * q
    den = (w * w - cc) * (w * w - rr)
    if den <= 0.0:
        return np.nan
    return (correct * w - rc) / math.sqrt(den)


@nb.njit(cache=True, inline="always")
def majority_of(row, k):
    """Majority class of the true-class weights held by a state (lowest code on ties)."""
    if k == 2:
        return 1 if row[1] > row[0] else 0
    best = 0
    bw = row[0]
    for i in range(1, k):
        if row[i] > bw:
            bw = row[i]
            best = i
    return best


# ----------------------------------------------------------------------------
# per-estimator block loops


@nb.njit(cache=True, error_model="numpy")
def _cumulative_block(ytrue, yp, wl, has_w, ql, nq, b0, b1, sc, cl, perhit, fading, inv_alpha, moa, k,
                      ck_index, ci, pos, n_classes_total, metric_ids, metric_arg, class_ids, out, outc, e):
    """Prequential (``fading=False``) or fading-factor block: add only."""
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
                if y == yp_t:
                    C += g
                    dia[y] += g
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
            finalise(W, N, C, m, BWv, BNv, BMv, BPv, sc, row, col, dia, k, moa, pos, n_classes_total,
                     metric_ids, metric_arg, class_ids, out, outc, ci, e, 0.0 if fading else np.nan)
            ci += 1
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
                  base, ck_index, ci, pos, n_classes_total, metric_ids, metric_arg, class_ids, out, outc, e):
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
            finalise(W, N, C, 1.0, BWv, BNv, BMv, BPv, sc, row, col, dia, k, moa, pos, n_classes_total,
                     metric_ids, metric_arg, class_ids, out, outc, ci, e)
            ci += 1
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
# two-class specialisations: the six class counts live in registers, branch-free updates


@nb.njit(cache=True, error_model="numpy")
def _cumulative_block2(ytrue, yp, wl, has_w, ql, nq, b0, b1, sc, cl, perhit, fading, inv_alpha, moa,
                       ck_index, ci, pos, n_classes_total, metric_ids, metric_arg, class_ids, out, outc, e):
    """:func:`_cumulative_block` for two classes (same arithmetic, counts kept in registers)."""
    row = cl[0]
    col = cl[1]
    dia = cl[2]
    r0, r1, c0, c1, d0, d1 = row[0], row[1], col[0], col[1], dia[0], dia[1]
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
    for t in range(b0, b1):
        y = ytrue[t]
        w = wl[t] if has_w else 1.0
        if y >= 0 and w >= 0.0:
            yp_t = yp[t]
            # two classes: codes are 0/1, so the indicators are plain conversions (branch-free)
            y1 = float(y)
            p1 = float(yp_t)
            hit = float(1 - abs(y - yp_t))
            if not moa:
                mh = float(1 - abs(np.int32(r1 > r0) - y))
            if w > 0.0:
                if fading:
                    m *= inv_alpha
                g = w * m
                W += g
                N += m
                r1 += g * y1
                r0 += g * (1.0 - y1)
                c1 += g * p1
                c0 += g * (1.0 - p1)
                gh = g * hit
                C += gh
                d1 += gh * y1
                d0 += gh * (1.0 - y1)
                for j in range(nq):
                    sc[EQ + j] += g * ql[j, t]
                if fading and m > RENORM:
                    W /= m
                    N /= m
                    C /= m
                    r0 /= m
                    r1 /= m
                    c0 /= m
                    c1 /= m
                    d0 /= m
                    d1 /= m
                    for j in range(nq):
                        sc[EQ + j] /= m
                    m = 1.0
            if moa:
                mh = float(1 - abs(np.int32(r1 > r0) - y))
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
            row[0], row[1], col[0], col[1], dia[0], dia[1] = r0, r1, c0, c1, d0, d1
            finalise(W, N, C, m, BWv, BNv, BMv, BPv, sc, row, col, dia, 2, moa, pos, n_classes_total,
                     metric_ids, metric_arg, class_ids, out, outc, ci, e, 0.0 if fading else np.nan)
            ci += 1
    row[0], row[1], col[0], col[1], dia[0], dia[1] = r0, r1, c0, c1, d0, d1
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
def _window_block2_dense(ytrue, yp, b0, b1, sc, cl, pt, perhit, majh, wsize, wvar, moa, base,
                         ck_index, ci, pos, n_classes_total, metric_ids, metric_arg, class_ids, out, outc, e):
    """:func:`_window_block` for two classes, every instance a member, no extra quantities."""
    row = cl[0]
    col = cl[1]
    dia = cl[2]
    r0, r1, c0, c1, d0, d1 = row[0], row[1], col[0], col[1], dia[0], dia[1]
    W = sc[EW]
    C = sc[EC]
    BMv = sc[BM]
    BPv = sc[BP]
    ec = pt[P_EC]
    es = pt[P_ES] - base
    variable = wvar.shape[0] > 0
    lim = wsize
    nck = ck_index.shape[0]
    for t in range(b0, b1):
        y = ytrue[t]
        yp_t = yp[t]
        if variable:
            lim = wvar[t - b0]
        y1 = float(y)
        p1 = float(yp_t)
        hit = float(1 - abs(y - yp_t))
        if not moa:
            mh = np.uint8(1 - abs(np.int32(r1 > r0) - y))
        W += 1.0
        r1 += y1
        r0 += 1.0 - y1
        c1 += p1
        c0 += 1.0 - p1
        C += hit
        d1 += hit * y1
        d0 += hit * (1.0 - y1)
        ec += 1
        while ec > lim:
            r = es
            yr = ytrue[r]
            pr = yp[r]
            x1 = float(yr)
            q1 = float(pr)
            hr = float(1 - abs(yr - pr))
            W -= 1.0
            r1 -= x1
            r0 -= 1.0 - x1
            c1 -= q1
            c0 -= 1.0 - q1
            C -= hr
            d1 -= hr * x1
            d0 -= hr * (1.0 - x1)
            BMv -= majh[r]
            BPv -= perhit[r]
            es += 1
            ec -= 1
        if moa:
            mh = np.uint8(1 - abs(np.int32(r1 > r0) - y))
        majh[t] = mh
        BMv += mh
        BPv += perhit[t]
        if ci < nck and ck_index[ci] == t:
            row[0], row[1], col[0], col[1], dia[0], dia[1] = r0, r1, c0, c1, d0, d1
            finalise(W, W, C, 1.0, W, W, BMv, BPv, sc, row, col, dia, 2, moa, pos, n_classes_total,
                     metric_ids, metric_arg, class_ids, out, outc, ci, e)
            ci += 1
    row[0], row[1], col[0], col[1], dia[0], dia[1] = r0, r1, c0, c1, d0, d1
    sc[EW] = W
    sc[EN] = W
    sc[EC] = C
    sc[BW] = W
    sc[BN] = W
    sc[BM] = BMv
    sc[BP] = BPv
    pt[P_ES] = es + base
    pt[P_EC] = ec
    pt[P_BS] = es + base
    pt[P_BC] = ec


# ----------------------------------------------------------------------------
# the one-pass driver


@nb.njit(cache=True, parallel=True, error_model="numpy")
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
    a_sums, a_vars, a_counts, a_ist, a_fst,  # ADWIN states (L, EA, ...), see streamtk._kernels.adwin
    a_clock, a_min_window, a_variant,
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
    out,  # (L, C, E, M) float64
    outc,  # (L, C, E, MC, k) float64
):
    L = ypred.shape[0]
    T = ytrue.shape[0]
    E = kinds.shape[0]
    nq = q.shape[1]
    has_w = weights.shape[1] > 0
    nck = ck_index.shape[0]
    no_var = np.empty(0, dtype=np.int64)
    for l in nb.prange(L):
        yp = ypred[l]
        wl = weights[l]
        ql = q[l]
        ph = perhit[l]
        ci0 = 0
        # ADWIN buffers: the block's 0/1 losses of evaluated instances, their widths, per-position widths
        xbuf = np.empty(BLOCK, dtype=np.float64)
        wbuf = np.empty(BLOCK, dtype=np.int64)
        wpos = np.empty(BLOCK, dtype=np.int64)
        none_f = np.empty(0, dtype=np.float64)
        none_i = np.empty(0, dtype=np.int8)
        for b0 in range(t_begin, T, BLOCK):
            b1 = min(T, b0 + BLOCK)
            # Persistent hits of the block, shared by every estimator
            pv = prev[l]
            for t in range(b0, b1):
                y = ytrue[t]
                if y >= 0 and (wl[t] >= 0.0 if has_w else True):
                    ph[t] = 1 if pv == y else 0
                    pv = y
            prev[l] = pv
            ci1 = ci0
            while ci1 < nck and ck_index[ci1] < b1:
                ci1 += 1
            for e in range(E):
                kind = kinds[e]
                var = no_var
                if kind == KIND_ADWIN and moa:
                    continue  # MOA's per-quantity ADWINs: streamtk._kernels.moa_adwin
                if kind == KIND_ADWIN:
                    # ADWIN on the 0/1 loss of the evaluated instances of this block (block-fused:
                    # the block is read from memory once); its widths drive the window below
                    m = 0
                    for t in range(b0, b1):
                        if ytrue[t] >= 0 and (wl[t] > 0.0 if has_w else True):
                            xbuf[m] = 0.0 if ytrue[t] == yp[t] else 1.0
                            m += 1
                    a = aslot[e]
                    adwin_run_one(xbuf[:m], a_sums[l, a], a_vars[l, a], a_counts[l, a], a_ist[l, a], a_fst[l, a],
                                  deltas[e], a_clock, a_min_window, a_variant, wbuf[:m], none_f, none_f, none_i)
                    j = 0
                    for t in range(b0, b1):
                        if ytrue[t] >= 0 and (wl[t] > 0.0 if has_w else True):
                            wpos[t - b0] = wbuf[j]
                            j += 1
                    var = wpos
                if kind == KIND_WINDOW or kind == KIND_ADWIN:
                    if k == 2 and dense and nq == 0:
                        _window_block2_dense(ytrue, yp, b0, b1, sc[l, e], cls[l, e], ptr[l, e], ph,
                                             majhit[l, hslot[e]], wsize[e], var, moa, base, ck_index, ci0, pos,
                                             n_classes_total, metric_ids, metric_arg, class_ids, out[l], outc[l], e)
                    else:
                        _window_block(ytrue, yp, wl, has_w, ql, nq, b0, b1, sc[l, e], cls[l, e], ptr[l, e], ph,
                                      majhit[l, hslot[e]], wsize[e], var, dense, moa, k, base, ck_index, ci0, pos,
                                      n_classes_total, metric_ids, metric_arg, class_ids, out[l], outc[l], e)
                else:
                    fad = kind == KIND_FADING
                    if k == 2:
                        _cumulative_block2(ytrue, yp, wl, has_w, ql, nq, b0, b1, sc[l, e], cls[l, e], ph, fad,
                                           1.0 / alphas[e], moa, ck_index, ci0, pos, n_classes_total, metric_ids,
                                           metric_arg, class_ids, out[l], outc[l], e)
                    else:
                        _cumulative_block(ytrue, yp, wl, has_w, ql, nq, b0, b1, sc[l, e], cls[l, e], ph, fad,
                                          1.0 / alphas[e], moa, k, ck_index, ci0, pos, n_classes_total, metric_ids,
                                          metric_arg, class_ids, out[l], outc[l], e)
            ci0 = ci1
