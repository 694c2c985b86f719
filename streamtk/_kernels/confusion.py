"""The single-pass curve engine: confusion sufficient statistics x forgetting mechanisms.

One read of ``y_true`` / ``y_pred`` (and optional weights and per-instance real
quantities such as costs) updates, for every requested estimator, a small state
of sufficient statistics; at checkpoints every requested metric is *finalised*
from that state. A metric's formula lives in exactly one finaliser below and is
applied to every estimator alike.

State of one estimator (``st[l, e, :]``, float64), two "sides":

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
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

# ----------------------------------------------------------------------------
# state layout
EW, EN, EC, EI, BW, BN, BM, BP, BI, EQ = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
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


def state_size(k: int, nq: int) -> int:
    """Length of one estimator's state vector for ``k`` classes and ``nq`` extra quantities."""
    return EQ + nq + 3 * k


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


@nb.njit(cache=True, error_model="numpy")
def finalise(s, k, nq, moa, pos, n_classes_total, metric_ids, metric_arg, class_ids, out, outc):
    """Write every requested metric of one estimator state ``s`` into ``out`` / ``outc``.

    ``out[j]`` receives scalar metric ``metric_ids[j]``; ``outc[j, i]`` receives
    per-class metric ``class_ids[j]`` of class ``i``.
    """
    row0 = EQ + nq
    col0 = row0 + k
    dia0 = col0 + k
    inv_e = s[EI]
    inv_b = s[BI]
    w = s[EW]
    cnt = s[EN]
    # MOA divides weighted sums by the number of instances, not the weight total
    den = cnt if moa else w
    bden = s[BN] if moa else s[BW]
    n_eff = cnt / inv_e  # true (faded) number of evaluated instances
    if moa and cnt == 0.0:
        # MOA: nothing observed yet -> kappas are 0; estimators give 0/0 (fading: 0)
        p0 = np.nan
        pc = np.nan
        pmaj = np.nan
        pper = np.nan
    else:
        p0 = s[EC] / den
        rc = 0.0
        for i in range(k):
            rc += s[row0 + i] * s[col0 + i]
        pc = rc / (den * den)
        pmaj = s[BM] / bden
        pper = s[BP] / bden
    nothing_yet = moa and cnt == 0.0
    kap = 0.0 if nothing_yet else chance_corrected(p0, pc, moa)
    kap_per = 0.0 if nothing_yet else chance_corrected(p0, pper, moa)
    for j in range(metric_ids.shape[0]):
        m = metric_ids[j]
        v = np.nan
        if m == M_ACCURACY:
            v = p0
        elif m == M_ERROR:
            v = 1.0 - p0
        elif m == M_KAPPA:
            v = kap
        elif m == M_KAPPA_M:
            v = 0.0 if nothing_yet else chance_corrected(p0, pmaj, moa)
        elif m == M_KAPPA_PER:
            v = kap_per
        elif m == M_KAPPA_PLUS:
            v = kappa_plus(kap, kap_per)
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
        elif m == M_ARITHMETIC_MEAN or m == M_GEOMETRIC_MEAN or m == M_HARMONIC_MEAN:
            v = recall_mean(s, k, row0, dia0, m)
        elif m == M_F1:
            v = ratio_or_nan(2.0 * s[dia0 + pos], s[row0 + pos] + s[col0 + pos])
        elif m == M_MACRO_F1:
            acc = 0.0
            c = 0
            for i in range(k):
                d = s[row0 + i] + s[col0 + i]
                if d > 0.0:
                    acc += 2.0 * s[dia0 + i] / d
                    c += 1
            v = acc / c if c > 0 else np.nan
        elif m == M_MCC:
            v = matthews(s, k, row0, col0, s[EC], w)
        elif m == M_CMD:
            # determinant of the binary confusion matrix of proportions: (TP TN - FN FP) / W^2
            tp = s[dia0 + 1]
            tn = s[dia0 + 0]
            fn = s[row0 + 1] - tp
            fp = s[row0 + 0] - tn
            v = ratio_or_nan(tp * tn - fn * fp, w * w)
        elif m == M_QUANTITY_MEAN:
            v = s[EQ + metric_arg[j]] / den
            if not moa and den == 0.0:
                v = np.nan
        elif m == M_N_INSTANCES:
            v = n_eff
        out[j] = v
    for j in range(class_ids.shape[0]):
        c = class_ids[j]
        for i in range(k):
            if c == C_RECALL:
                outc[j, i] = ratio_or_nan(s[dia0 + i], s[row0 + i])
            elif c == C_PRECISION:
                outc[j, i] = ratio_or_nan(s[dia0 + i], s[col0 + i])
            else:
                outc[j, i] = ratio_or_nan(2.0 * s[dia0 + i], s[row0 + i] + s[col0 + i])


@nb.njit(cache=True, error_model="numpy")
def recall_mean(s, k, row0, dia0, which):
    """Arithmetic / geometric / harmonic mean of the class recalls ``A_i = DIAG_i / ROW_i``.

    Bifet et al. (2015) sec. 5.2: ``A = (1/c) sum A_i``, ``G = (prod A_i)^(1/c)``,
    ``H = c / sum(1/A_i)``, over the ``c`` classes present among the true labels
    of the estimator's window (classes absent from it have no recall). ``H = 0``
    when some ``A_i = 0``. NaN when no class is present.
    """
    c = 0
    total = 0.0
    logsum = 0.0
    inv = 0.0
    zero = False
    for i in range(k):
        r = s[row0 + i]
        if r > 0.0:
            a = s[dia0 + i] / r
            c += 1
            total += a
            if a <= 0.0:
                zero = True
            else:
                logsum += math.log(a)
                inv += 1.0 / a
    if c == 0:
        return np.nan
    if which == M_ARITHMETIC_MEAN:
        return total / c
    if zero:
        return 0.0
    if which == M_GEOMETRIC_MEAN:
        return math.exp(logsum / c)
    return c / inv


@nb.njit(cache=True, error_model="numpy")
def matthews(s, k, row0, col0, correct, w):
    """Matthews correlation coefficient, multi-class form (Gorodkin 2004).

    ``(C W - sum_i ROW_i COL_i) / sqrt((W^2 - sum_i COL_i^2)(W^2 - sum_i ROW_i^2))``,
    which for two classes is ``(TP TN - FN FP) / sqrt((TP+FN)(TP+FP)(TN+FP)(TN+FN))``
    (Bifet et al. 2015 sec. 5.1). NaN when the denominator is 0 (scikit-learn returns 0).
    """
    rc = 0.0
    rr = 0.0
    cc = 0.0
    for i in range(k):
        r = s[row0 + i]
        q = s[col0 + i]
        rc += r * q
        rr += r * r
        cc += q * q
    den = (w * w - cc) * (w * w - rr)
    if den <= 0.0:
        return np.nan
    return (correct * w - rc) / math.sqrt(den)


# ----------------------------------------------------------------------------
# state updates (apply with sign=-1.0 to remove exactly what was added)


@nb.njit(cache=True, inline="always")
def majority_of(s, row0, k):
    """Majority class of the true-class weights held by a state (lowest code on ties)."""
    best = 0
    bw = s[row0]
    for i in range(1, k):
        if s[row0 + i] > bw:
            bw = s[row0 + i]
            best = i
    return best


@nb.njit(cache=True, error_model="numpy")
def _renormalise_eval(s, row0, k, nq):
    f = s[EI]
    s[EW] /= f
    s[EN] /= f
    s[EC] /= f
    for j in range(nq):
        s[EQ + j] /= f
    for j in range(row0, row0 + 3 * k):
        s[j] /= f
    s[EI] = 1.0


@nb.njit(cache=True, error_model="numpy")
def _renormalise_base(s):
    f = s[BI]
    s[BW] /= f
    s[BN] /= f
    s[BM] /= f
    s[BP] /= f
    s[BI] = 1.0


@nb.njit(cache=True, error_model="numpy")
def _eval_add(s, row0, k, nq, y, yp, w, q, l, t):
    m = s[EI]
    g = w * m
    s[EW] += g
    s[EN] += m
    s[row0 + y] += g
    s[row0 + k + yp] += g
    if y == yp:
        s[EC] += g
        s[row0 + 2 * k + y] += g
    for j in range(nq):
        s[EQ + j] += g * q[l, j, t]


@nb.njit(cache=True, error_model="numpy")
def _eval_remove(s, row0, k, nq, y, yp, w, q, l, t):
    # windows only (multiplier is 1)
    s[EW] -= w
    s[EN] -= 1.0
    s[row0 + y] -= w
    s[row0 + k + yp] -= w
    if y == yp:
        s[EC] -= w
        s[row0 + 2 * k + y] -= w
    for j in range(nq):
        s[EQ + j] -= w * q[l, j, t]


# ----------------------------------------------------------------------------
# the one-pass driver


@nb.njit(cache=True, parallel=True, error_model="numpy")
def run(
    ytrue,  # (T,) int32 codes, -1 = missing label
    ypred,  # (L, T) int32 codes
    weights,  # (L, T) float64, or (0, 0) when unweighted
    q,  # (L, nq, T) float64 extra per-instance quantities, or (L, 0, 0)
    kinds,  # (E,) int64 estimator kind codes
    wsize,  # (E,) int64 window sizes (0 if not a window)
    alphas,  # (E,) float64 fading factors (1.0 if not fading)
    hslot,  # (E,) int64 index into majhit's second axis for windows, -1 otherwise
    moa,  # bool
    pos,  # int positive class code (f1)
    k,  # number of classes
    base,  # absolute position of index 0
    t_begin,  # first index to process
    ck_index,  # (C,) int64 indices (relative) of checkpoints inside [t_begin, T)
    st,  # (L, E, S) float64 state
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
    has_w = weights.shape[0] > 0
    row0 = EQ + nq
    nck = ck_index.shape[0]
    for l in nb.prange(L):
        sl = st[l]
        pl = ptr[l]
        ci = 0
        for t in range(t_begin, T):
            y = ytrue[t]
            w = weights[l, t] if has_w else 1.0
            if y >= 0 and w >= 0.0:  # w < 0: internal "ignore for this series" (MOA reset)
                yp = ypred[l, t]
                ph = 1 if prev[l] == y else 0
                perhit[l, t] = ph
                is_eval = w > 0.0
                in_base = is_eval or moa
                for e in range(E):
                    s = sl[e]
                    kind = kinds[e]
                    if not moa:
                        mh = 1 if majority_of(s, row0, k) == y else 0
                    if is_eval:
                        if kind == KIND_FADING:
                            s[EI] /= alphas[e]
                        _eval_add(s, row0, k, nq, y, yp, w, q, l, t)
                        if kind == KIND_FADING and s[EI] > RENORM:
                            _renormalise_eval(s, row0, k, nq)
                        if kind == KIND_WINDOW:
                            pl[e, P_EC] += 1
                            while pl[e, P_EC] > wsize[e]:
                                r = pl[e, P_ES] - base
                                while True:
                                    if ytrue[r] >= 0:
                                        wr = weights[l, r] if has_w else 1.0
                                        if wr > 0.0:
                                            break
                                    r += 1
                                _eval_remove(s, row0, k, nq, ytrue[r], ypred[l, r], weights[l, r] if has_w else 1.0, q, l, r)
                                pl[e, P_ES] = r + 1 + base
                                pl[e, P_EC] -= 1
                    if moa:
                        mh = 1 if majority_of(s, row0, k) == y else 0
                    if in_base:
                        if kind == KIND_FADING:
                            s[BI] /= alphas[e]
                        m = s[BI]
                        g = w * m
                        s[BW] += g
                        s[BN] += m
                        s[BM] += g * mh
                        s[BP] += g * ph
                        if kind == KIND_FADING and s[BI] > RENORM:
                            _renormalise_base(s)
                        if kind == KIND_WINDOW:
                            majhit[l, hslot[e], t] = mh
                            pl[e, P_BC] += 1
                            while pl[e, P_BC] > wsize[e]:
                                r = pl[e, P_BS] - base
                                while True:
                                    if ytrue[r] >= 0:
                                        wr = weights[l, r] if has_w else 1.0
                                        if wr > 0.0 or (moa and wr >= 0.0):
                                            break
                                    r += 1
                                wr = weights[l, r] if has_w else 1.0
                                s[BW] -= wr
                                s[BN] -= 1.0
                                s[BM] -= wr * majhit[l, hslot[e], r]
                                s[BP] -= wr * perhit[l, r]
                                pl[e, P_BS] = r + 1 + base
                                pl[e, P_BC] -= 1
                prev[l] = y
            if ci < nck and ck_index[ci] == t:
                for e in range(E):
                    finalise(sl[e], k, nq, moa, pos, n_classes_total, metric_ids, metric_arg, class_ids,
                             out[l, ci, e], outc[l, ci, e])
                ci += 1


@nb.njit(cache=True, parallel=True, error_model="numpy")
def finalise_state(st, k, nq, moa, pos, n_classes_total, metric_ids, metric_arg, class_ids, out, outc):
    """Finalise the current state of every lead and estimator (``out[l, e]``, ``outc[l, e]``)."""
    for l in nb.prange(st.shape[0]):
        for e in range(st.shape[1]):
            finalise(st[l, e], k, nq, moa, pos, n_classes_total, metric_ids, metric_arg, class_ids,
                     out[l, e], outc[l, e])
