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
SMALL_BLOCK = 512  # blocks of the engine when checkpoints are dense (every < 32)
# float64 columns of padding per row of a snapshot / scratch buffer (one 64-byte cache line): rows of a
# power-of-two length would put a column's values in the same few L1 cache sets
ROW_PAD = 8
# pointer layout (int64): eval start, eval members held, base start, base members held
P_ES, P_EC, P_BS, P_BC = 0, 1, 2, 3
# Fading estimators keep their sums lazily scaled by ``m = alpha**-t`` (no multiplication of every sum at
# every step) and divide them all by ``m`` once ``m`` exceeds RENORM. The finalisers square these sums (p_ran,
# cmd, the factors of mcc), so the bound keeps their squares finite for every fading factor: a sum of
# weights ``g <= w_max`` is at most ``m w_max / (1 - alpha) <= (RENORM / alpha) w_max 2**53`` (``1 - alpha >=
# 2**-53`` for a double below 1), about 1e116 for unit weights, whose square (1e232) is far below the float64
# maximum (1.8e308). With the former bound 1e150 the squares overflowed for alpha > 0.99993 (and mcc's
# product of two squares for every alpha after about 75 / -log10(alpha) steps).
RENORM = 1e100

KIND_PREQUENTIAL, KIND_WINDOW, KIND_FADING, KIND_ADWIN = 0, 1, 2, 3

# ----------------------------------------------------------------------------
# scalar metric codes (the registry in streamtk._core.registry maps names to these)
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


# snapshot fields: an estimator's state at a checkpoint, one column per checkpoint
F_W, F_N, F_C, F_EI, F_BW, F_BN, F_BM, F_BP, F_Q = 0, 1, 2, 3, 4, 5, 6, 7, 8
N_TMP = 11


def snapshot_size(nq: int, k: int) -> int:
    """Rows of a snapshot buffer: 8 scalars, ``nq`` quantity sums, ROW, COL, DIAG."""
    return F_Q + nq + 3 * k


@nb.njit(cache=True, inline="always")
def take_snapshot(snap, i, W, N, C, EIv, BWv, BNv, BMv, BPv, sc, row, col, dia, k, nq):
    """Store one estimator state as column ``i`` of ``snap``."""
    snap[F_W, i] = W
    snap[F_N, i] = N
    snap[F_C, i] = C
    snap[F_EI, i] = EIv
    snap[F_BW, i] = BWv
    snap[F_BN, i] = BNv
    snap[F_BM, i] = BMv
    snap[F_BP, i] = BPv
    for j in range(nq):
        snap[F_Q + j, i] = sc[EQ + j]
    r0 = F_Q + nq
    for c in range(k):
        snap[r0 + c, i] = row[c]
        snap[r0 + k + c, i] = col[c]
        snap[r0 + 2 * k + c, i] = dia[c]


@nb.njit(cache=True, error_model="numpy")
def finalise_columns(
    snap, ns, k, nq, moa, pos, n_classes_total, metric_ids, metric_arg, class_ids, out, outc, c0, e, empty, tmp
):
    """Every requested metric of ``ns`` snapshots of estimator ``e`` (checkpoints ``c0 .. c0 + ns - 1``).

    ``snap`` holds one state per column (see :func:`take_snapshot`): eval side
    ``W, N, C`` (weight sum, count, weighted hits), its lazy fading multiplier, the
    base side ``BW, BN, BM, BP`` (weight sum, count, Majority / Persistent hits), the
    extra quantity sums and the class vectors ROW (true), COL (predicted), DIAG (hits).
    ``out[e, j, c0 + i]`` receives scalar metric ``metric_ids[j]`` of snapshot ``i``;
    ``outc[e, j, c0 + i, c]`` per-class metric ``class_ids[j]`` of class ``c``. The loops
    are metric-major over the snapshots (no per-value dispatch; they vectorise).
    ``empty``: MOA's estimate before anything was observed (0 for its fading
    estimator, NaN otherwise). Each formula below is the only place it is written.
    """
    r0 = F_Q + nq
    c_0 = r0 + k
    d0 = r0 + 2 * k
    W = snap[F_W]
    N = snap[F_N]
    den = tmp[0]
    p0 = tmp[1]
    pc = tmp[2]
    pmaj = tmp[3]
    pper = tmp[4]
    kap = tmp[5]
    kper = tmp[6]
    neff = tmp[7]
    a1 = tmp[8]
    a2 = tmp[9]
    a3 = tmp[10]
    # the shared intermediates, each computed only when a requested metric reads it (every division counts
    # when every instance is a checkpoint); simple branch-free loops (they vectorise)
    need_p0 = need_pc = need_pmaj = need_pper = need_neff = False
    for j in range(metric_ids.shape[0]):
        m = metric_ids[j]
        if m <= M_KAPPA_PLUS or m == M_KAPPA_SE or m == M_KAPPA_Z:
            need_p0 = True
        if m == M_KAPPA or m == M_KAPPA_PLUS or m == M_P_RAN or m == M_KAPPA_SE or m == M_KAPPA_Z:
            need_pc = True
        if m == M_KAPPA_M or m == M_P_MAJ:
            need_pmaj = True
        if m == M_KAPPA_PER or m == M_KAPPA_PLUS or m == M_P_PER:
            need_pper = True
        if m == M_KAPPA_SE or m == M_KAPPA_Z or m == M_N_INSTANCES:
            need_neff = True
    need_p0 = need_p0 or need_pc or need_pper  # the kappas computed with p_ran and p_per read p0
    bsrc = snap[F_BN] if moa else snap[F_BW]
    dsrc = N if moa else W  # MOA divides weighted sums by the number of instances, not the weight total
    for i in range(ns):
        den[i] = dsrc[i]
    if need_neff:
        for i in range(ns):
            neff[i] = N[i] / snap[F_EI, i]  # true (faded) number of evaluated instances
    if need_p0:
        for i in range(ns):
            p0[i] = snap[F_C, i] / den[i]
    if need_pc:
        for i in range(ns):
            pc[i] = 0.0
        if moa:
            # MOA sums the products of the class fractions (BasicClassificationPerformanceEvaluator
            # .getKappaStatistic): the same value up to rounding, computed in MOA's order so that
            # kappa is bit-identical to MOA's
            for c in range(k):
                rr = snap[r0 + c]
                cc = snap[c_0 + c]
                for i in range(ns):
                    pc[i] += (rr[i] / den[i]) * (cc[i] / den[i])
        else:
            for c in range(k):
                rr = snap[r0 + c]
                cc = snap[c_0 + c]
                for i in range(ns):
                    pc[i] += rr[i] * cc[i]
            for i in range(ns):
                d = den[i]
                pc[i] = pc[i] / (d * d)
        for i in range(ns):
            kap[i] = chance_corrected(p0[i], pc[i], moa)
    if need_pmaj:
        for i in range(ns):
            pmaj[i] = snap[F_BM, i] / bsrc[i]
    if need_pper:
        for i in range(ns):
            pper[i] = snap[F_BP, i] / bsrc[i]
        for i in range(ns):
            kper[i] = chance_corrected(p0[i], pper[i], moa)
    if moa:
        for i in range(ns):
            if N[i] == 0.0:
                # MOA: nothing observed yet -> kappas are 0 and estimates 0/0 (fading: 0)
                p0[i] = empty
                pc[i] = empty
                pmaj[i] = empty
                pper[i] = empty
                kap[i] = 0.0
                kper[i] = 0.0
    for j in range(metric_ids.shape[0]):
        m = metric_ids[j]
        o = out[e, j, c0 : c0 + ns]  # a view from 0: o[c0 + i] would need a wrap-around check (no SIMD)
        if m == M_ACCURACY:
            for i in range(ns):
                o[i] = p0[i]
        elif m == M_ERROR:
            for i in range(ns):
                o[i] = 1.0 - p0[i]
        elif m == M_KAPPA:
            for i in range(ns):
                o[i] = kap[i]
        elif m == M_KAPPA_M:
            for i in range(ns):
                o[i] = 0.0 if (moa and N[i] == 0.0) else chance_corrected(p0[i], pmaj[i], moa)
        elif m == M_KAPPA_PER:
            for i in range(ns):
                o[i] = kper[i]
        elif m == M_KAPPA_PLUS:
            for i in range(ns):
                o[i] = kappa_plus(kap[i], kper[i])
        elif m == M_P_RAN:
            for i in range(ns):
                o[i] = pc[i]
        elif m == M_P_MAJ:
            for i in range(ns):
                o[i] = pmaj[i]
        elif m == M_P_PER:
            for i in range(ns):
                o[i] = pper[i]
        elif m == M_P_NO_INFO:
            for i in range(ns):
                o[i] = 1.0 / n_classes_total
        elif m == M_KAPPA_SE:
            for i in range(ns):
                o[i] = kappa_standard_error(p0[i], pc[i], neff[i])
        elif m == M_KAPPA_Z:
            for i in range(ns):
                o[i] = kappa_z(kap[i], pc[i], neff[i])
        elif m == M_ARITHMETIC_MEAN or m == M_GEOMETRIC_MEAN or m == M_HARMONIC_MEAN:
            recall_means(snap, ns, r0, d0, k, m, a1, a2, a3, o)
        elif m == M_F1:
            sd = snap[d0 + pos]
            sr = snap[r0 + pos]
            sc_ = snap[c_0 + pos]
            for i in range(ns):
                o[i] = ratio_or_nan(2.0 * sd[i], sr[i] + sc_[i])
        elif m == M_MACRO_F1:
            for i in range(ns):
                a1[i] = 0.0
                a2[i] = 0.0
            for c in range(k):
                for i in range(ns):
                    dd = snap[r0 + c, i] + snap[c_0 + c, i]
                    if dd > 0.0:
                        a1[i] += 2.0 * snap[d0 + c, i] / dd
                        a2[i] += 1.0
            for i in range(ns):
                o[i] = a1[i] / a2[i] if a2[i] > 0.0 else np.nan
        elif m == M_MCC:
            # Matthews correlation, multi-class form (Gorodkin 2004):
            # (C W - sum ROW_i COL_i) / sqrt((W^2 - sum COL_i^2)(W^2 - sum ROW_i^2)); binary: Bifet sec. 5.1.
            # NaN when a factor of the denominator is 0 (scikit-learn returns 0). The denominator is the product
            # of the factors' square roots: the factors are of degree 2 in the (lazily scaled, see RENORM) sums,
            # and their product overflowed to inf for a fading estimator (mcc 0).
            for i in range(ns):
                a1[i] = 0.0
                a2[i] = 0.0
                a3[i] = 0.0
            for c in range(k):
                for i in range(ns):
                    rr = snap[r0 + c, i]
                    cc = snap[c_0 + c, i]
                    a1[i] += rr * cc
                    a2[i] += rr * rr
                    a3[i] += cc * cc
            for i in range(ns):
                w = W[i]
                f_col = w * w - a3[i]
                f_row = w * w - a2[i]
                ok = f_col > 0.0 and f_row > 0.0
                o[i] = (snap[F_C, i] * w - a1[i]) / (math.sqrt(f_col) * math.sqrt(f_row)) if ok else np.nan
        elif m == M_CMD:
            # determinant of the binary confusion matrix of proportions: (TP TN - FN FP) / W^2
            for i in range(ns):
                tp = snap[d0 + 1, i]
                tn = snap[d0, i]
                o[i] = ratio_or_nan(tp * tn - (snap[r0 + 1, i] - tp) * (snap[r0, i] - tn), W[i] * W[i])
        elif m == M_QUANTITY_MEAN:
            f = F_Q + metric_arg[j]
            for i in range(ns):
                o[i] = snap[f, i] / den[i] if (moa or den[i] != 0.0) else np.nan
        elif m == M_N_INSTANCES:
            for i in range(ns):
                o[i] = neff[i]
        else:
            for i in range(ns):
                o[i] = np.nan
    for j in range(class_ids.shape[0]):
        cm = class_ids[j]
        oc = outc[e, j, c0 : c0 + ns]
        for c in range(k):
            for i in range(ns):
                if cm == C_RECALL:
                    v = ratio_or_nan(snap[d0 + c, i], snap[r0 + c, i])
                elif cm == C_PRECISION:
                    v = ratio_or_nan(snap[d0 + c, i], snap[c_0 + c, i])
                else:
                    v = ratio_or_nan(2.0 * snap[d0 + c, i], snap[r0 + c, i] + snap[c_0 + c, i])
                oc[i, c] = v


@nb.njit(cache=True, error_model="numpy")
def recall_means(snap, ns, r0, d0, k, which, cnt, acc, prod, o):
    """Arithmetic / geometric / harmonic mean of the class recalls ``A_i = DIAG_i / ROW_i``.

    Bifet et al. (2015) sec. 5.2: ``A = (1/c) sum A_i``, ``G = (prod A_i)^(1/c)``,
    ``H = c / sum(1/A_i)``, over the ``c`` classes present among the true labels
    the estimator holds (classes absent from it have no recall). ``H = G = 0``
    when some ``A_i = 0``. NaN when no class is present.
    """
    geo_log = which == M_GEOMETRIC_MEAN and k > 2
    for i in range(ns):
        cnt[i] = 0.0
        acc[i] = 0.0  # sum of recalls, of their logs, or of their reciprocals (+inf once some A_i = 0)
        prod[i] = 1.0  # product of recalls
    # branch-free per class (vectorised): an absent class (ROW_i = 0) adds nothing (recall 1 in the
    # product, log 1 = 0); a recall <= 0 counts as 0, so its reciprocal is +inf, its log -inf and the
    # product 0, which give H = G = 0 through IEEE arithmetic
    for c in range(k):
        rr = snap[r0 + c]
        dd = snap[d0 + c]
        if which == M_ARITHMETIC_MEAN:
            for i in range(ns):
                r = rr[i]
                cnt[i] += 1.0 if r > 0.0 else 0.0
                acc[i] += dd[i] / r if r > 0.0 else 0.0
        elif which == M_HARMONIC_MEAN:
            for i in range(ns):
                r = rr[i]
                a = max(dd[i] / r, 0.0)
                cnt[i] += 1.0 if r > 0.0 else 0.0
                acc[i] += 1.0 / a if r > 0.0 else 0.0
        elif geo_log:
            for i in range(ns):
                r = rr[i]
                a = max(dd[i] / r, 0.0)
                cnt[i] += 1.0 if r > 0.0 else 0.0
                acc[i] += math.log(a) if r > 0.0 else 0.0
        else:
            for i in range(ns):
                r = rr[i]
                a = max(dd[i] / r, 0.0)
                cnt[i] += 1.0 if r > 0.0 else 0.0
                prod[i] *= a if r > 0.0 else 1.0
    for i in range(ns):
        c = cnt[i]
        if which == M_ARITHMETIC_MEAN:
            v = acc[i] / c
        elif which == M_HARMONIC_MEAN:
            v = c / acc[i]
        elif geo_log:
            v = math.exp(acc[i] / c)
        else:
            v = prod[i] if c == 1.0 else math.sqrt(prod[i])
        o[i] = v if c > 0.0 else np.nan


@nb.njit(cache=True, inline="always", error_model="numpy")
def moa_majority_of(row, k, den):
    """MOA's Majority Class (``BasicClassificationPerformanceEvaluator.getMajorityClass``): the first class
    whose estimated fraction ``row[i] / den`` exceeds every earlier one and 0 (class 0 when none does).
    Compared as fractions, as MOA does: two weighted or faded sums that differ by less than their rounding
    can give equal fractions, and then the lower class wins."""
    best = 0
    best_fraction = 0.0
    for i in range(k):
        f = row[i] / den
        if f > best_fraction:
            best_fraction = f
            best = i
    return best


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
