"""MOA's ``AdwinClassificationPerformanceEvaluator``: one ADWIN per estimated quantity.

MOA's evaluator keeps, for every quantity it estimates, a separate ADWIN fed with
that quantity's values and reads the quantity as the ADWIN window mean:

* ``correct``: ``w [y == yhat]`` (instances of positive weight);
* ``pred_i`` (MOA's ``rowKappa``): ``w [yhat == i]`` and ``true_i``
  (``columnKappa``): ``w [y == i]``, for every class ``i`` (positive weight);
* ``nochange``: ``w [y_prev == y]`` and ``majority``: ``w [maj == y]`` for every
  instance with a label, where ``maj`` is the argmax of the ``true_i`` estimates
  after the current instance was added (strictly greater, starting from 0).

So the windows of the quantities differ. Quantity ``q`` of series ``l`` and ADWIN
estimator ``a`` is ADWIN instance ``(l * EA + a) * Q + q`` with ``Q = 2k + 3``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .adwin import TOTAL, WIDTH, adwin_update
from .finalise import BLOCK, F_Q, M_N_INSTANCES, N_TMP, ROW_PAD, finalise_columns, take_snapshot


@nb.njit(cache=True, inline="always", error_model="numpy")
def _estimate(ist, fst, i):
    return fst[i, TOTAL] / ist[i, WIDTH]


@nb.njit(cache=True, nogil=True, error_model="numpy")
def run_moa_adwin(
    ytrue,
    ypred,
    weights,
    eidx,
    deltas,
    a_sums,
    a_vars,
    a_counts,
    a_ist,
    a_fst,
    clock,
    min_window,
    variant,
    k,
    t_begin,
    ck_index,
    prev,
    seen,
    pos,
    n_classes_total,
    metric_ids,
    metric_arg,
    class_ids,
    out,
    outc,
    moa,
):
    """Evaluate the ADWIN estimators ``eidx`` (output estimator indices) under MOA's convention.

    ``moa`` is always True; it is an argument so that the shared finaliser is not compiled
    once more for a ``Literal[bool](True)`` argument.
    """
    L = ypred.shape[0]
    T = ytrue.shape[0]
    EA = eidx.shape[0]
    Q = 2 * k + 3
    has_w = weights.shape[1] > 0
    nck = ck_index.shape[0]
    for l in range(L):
        work = np.empty((4, a_sums.shape[1] * a_sums.shape[2]), dtype=np.float64)
        row = np.empty(k, dtype=np.float64)
        col = np.empty(k, dtype=np.float64)
        dia = np.full(k, np.nan)
        dummy = np.zeros(16, dtype=np.float64)
        snap = np.empty((F_Q + 3 * k, BLOCK + ROW_PAD), dtype=np.float64)
        widths = np.empty(BLOCK, dtype=np.float64)
        tmp = np.empty((N_TMP, BLOCK + ROW_PAD), dtype=np.float64)
        for a in range(EA):
            b = (l * EA + a) * Q  # ADWIN instance of quantity 0 (state arrays cover these leads only)
            d = deltas[a]
            e = eidx[a]
            pv = prev[l, a]
            tw = seen[l, a]
            ci = np.int64(0)
            ns = np.int64(0)
            for t in range(t_begin, T):
                y = ytrue[t]
                w = weights[l, t] if has_w else 1.0
                if y >= 0 and w >= 0.0:
                    yp = ypred[l, t]
                    if w > 0.0:
                        tw += w
                        adwin_update(
                            a_sums,
                            a_vars,
                            a_counts,
                            a_ist,
                            a_fst,
                            work,
                            b,
                            w if y == yp else 0.0,
                            d,
                            clock,
                            min_window,
                            variant,
                        )
                        for i in range(k):
                            adwin_update(
                                a_sums,
                                a_vars,
                                a_counts,
                                a_ist,
                                a_fst,
                                work,
                                b + 1 + i,
                                w if yp == i else 0.0,
                                d,
                                clock,
                                min_window,
                                variant,
                            )
                            adwin_update(
                                a_sums,
                                a_vars,
                                a_counts,
                                a_ist,
                                a_fst,
                                work,
                                b + 1 + k + i,
                                w if y == i else 0.0,
                                d,
                                clock,
                                min_window,
                                variant,
                            )
                    adwin_update(
                        a_sums,
                        a_vars,
                        a_counts,
                        a_ist,
                        a_fst,
                        work,
                        b + 2 * k + 1,
                        w if pv == y else 0.0,
                        d,
                        clock,
                        min_window,
                        variant,
                    )
                    maj = 0
                    best = 0.0
                    for i in range(k):
                        v = _estimate(a_ist, a_fst, b + 1 + k + i)
                        if v > best:
                            best = v
                            maj = i
                    adwin_update(
                        a_sums,
                        a_vars,
                        a_counts,
                        a_ist,
                        a_fst,
                        work,
                        b + 2 * k + 2,
                        w if maj == y else 0.0,
                        d,
                        clock,
                        min_window,
                        variant,
                    )
                    pv = y
                if ci < nck and ck_index[ci] == t:
                    # the estimates as a state with W = N = 1 (MOA divides by counts: den = N)
                    for i in range(k):
                        col[i] = _estimate(a_ist, a_fst, b + 1 + i)
                        row[i] = _estimate(a_ist, a_fst, b + 1 + k + i)
                    take_snapshot(
                        snap,
                        ns,
                        1.0,
                        1.0 if tw > 0.0 else 0.0,
                        _estimate(a_ist, a_fst, b),
                        1.0,
                        1.0,
                        1.0,
                        _estimate(a_ist, a_fst, b + 2 * k + 2),
                        _estimate(a_ist, a_fst, b + 2 * k + 1),
                        dummy,
                        row,
                        col,
                        dia,
                        k,
                        np.int64(0),
                    )
                    widths[ns] = a_ist[b, WIDTH]
                    ns += 1
                    ci += 1
                    if ns == BLOCK or ci == nck:
                        c0 = ci - ns
                        finalise_columns(
                            snap,
                            ns,
                            k,
                            np.int64(0),
                            moa,
                            pos,
                            n_classes_total,
                            metric_ids,
                            metric_arg,
                            class_ids,
                            out[l],
                            outc[l],
                            c0,
                            e,
                            np.nan,
                            tmp,
                        )
                        for j in range(metric_ids.shape[0]):
                            if metric_ids[j] == M_N_INSTANCES:
                                for i in range(ns):
                                    out[l, e, j, c0 + i] = widths[i]
                        ns = np.int64(0)
            prev[l, a] = pv
            seen[l, a] = tw
