"""Metric finalisers of the curve engine: each metric formula exactly once.

A finaliser maps one estimator's sufficient statistics (see
:mod:`streamtk._kernels.confusion` for the state layout) to metric values. The
same finaliser serves every forgetting mechanism (prequential, window, fading,
ADWIN) and both conventions.
"""


from __future__ import annotations

import math

import numba as nb
import numpy as np

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


