"""MOA's ``AdwinClassificationPerformanceEvaluator``: one ADWIN per estimated quantity.

MOA's evaluator keeps, for every quantity it estimates, a separate ADWIN fed with that
quantity's values and reads the quantity as the ADWIN window mean:

* ``correct``: ``w [y == yhat]`` (instances of positive weight);
* ``pred_i`` (MOA's ``rowKappa``): ``w [yhat == i]`` and ``true_i`` (``columnKappa``):
  ``w [y == i]``, for every class ``i`` (positive weight);
* ``nochange``: ``w [y_prev == y]`` and ``majority``: ``w [maj == y]`` for every instance with a
  label, where ``maj`` is the argmax of the ``true_i`` estimates after the current instance was
  added (strictly greater, starting from 0).

So the windows of the quantities differ. Quantity ``q`` of series ``l`` and ADWIN estimator
``a`` is ADWIN instance ``(l * EA + a) * Q + q`` with ``Q = 2k + 3``. A snapshot holds the
estimates themselves (denominator 1); its member count is the width of the ``correct`` ADWIN.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..adwin import TOTAL, WIDTH, adwin_update
from .layout import F_BM, F_BMW, F_BP, F_BPW, F_C, F_DEN, F_EMPTY, F_N, F_Q, F_W


@nb.njit(cache=True, inline="always", error_model="numpy")
def _estimate(ist, fst, i):
    return fst[i, TOTAL] / ist[i, WIDTH]


@nb.njit(cache=True, nogil=True, error_model="numpy")
def run(inputs, adwin, params, span, deltas, eidx, ck, snap):
    """The ADWIN estimators ``eidx`` (with confidences ``deltas``) of every series, MOA's way.

    ``inputs = (ytrue, ypred, weights)``; ``adwin = (sums, variances, counts, istate, fstate,
    prev (L, EA), seen (L, EA))``; ``params = (clock, min_window, bound)``;
    ``span = (k, t_begin)``; ``snap`` ``(L, E, F, C)``.
    """
    ytrue, ypred, weights = inputs
    a_sums, a_vars, a_counts, a_ist, a_fst, prev, seen = adwin
    clock, min_window, bound = params
    st = (a_sums, a_vars, a_counts, a_ist, a_fst)
    k, t_begin = span
    L = ypred.shape[0]
    T = ytrue.shape[0]
    EA = eidx.shape[0]
    Q = 2 * k + 3
    has_w = weights.shape[1] > 0
    nck = ck.shape[0]
    for l in range(L):
        work = np.empty((4, a_sums.shape[1] * a_sums.shape[2]), dtype=np.float64)
        for a in range(EA):
            b = (l * EA + a) * Q
            prm = (deltas[a], clock, min_window, bound)
            e = eidx[a]
            pv = prev[l, a]
            tw = seen[l, a]
            ci = np.int64(0)
            for t in range(t_begin, T):
                y = ytrue[t]
                w = weights[l, t] if has_w else 1.0
                if y >= 0 and w >= 0.0:
                    yp = ypred[l, t]
                    if w > 0.0 and yp >= 0:
                        tw += w
                        adwin_update(st, work, b, w if y == yp else 0.0, prm)
                        for i in range(k):
                            adwin_update(st, work, b + 1 + i, w if yp == i else 0.0, prm)
                            adwin_update(st, work, b + 1 + k + i, w if y == i else 0.0, prm)
                    adwin_update(st, work, b + 2 * k + 1, w if pv == y else 0.0, prm)
                    maj = 0
                    best = 0.0
                    for i in range(k):
                        v = _estimate(a_ist, a_fst, b + 1 + k + i)
                        if v > best:
                            best = v
                            maj = i
                    adwin_update(st, work, b + 2 * k + 2, w if maj == y else 0.0, prm)
                    pv = y
                while ci < nck and ck[ci] == t:
                    out = snap[l, e]
                    out[F_W, ci] = 1.0
                    out[F_N, ci] = float(a_ist[b, WIDTH]) if tw > 0.0 else 0.0
                    out[F_DEN, ci] = 1.0
                    out[F_C, ci] = _estimate(a_ist, a_fst, b)
                    out[F_BM, ci] = _estimate(a_ist, a_fst, b + 2 * k + 2)
                    out[F_BMW, ci] = 1.0
                    out[F_BP, ci] = _estimate(a_ist, a_fst, b + 2 * k + 1)
                    out[F_BPW, ci] = 1.0
                    out[F_EMPTY, ci] = np.nan
                    r0 = out.shape[0] - 3 * k
                    for i in range(k):
                        out[r0 + i, ci] = _estimate(a_ist, a_fst, b + 1 + k + i)
                        out[r0 + k + i, ci] = _estimate(a_ist, a_fst, b + 1 + i)
                        out[r0 + 2 * k + i, ci] = np.nan
                    for j in range(F_Q, r0):
                        out[j, ci] = np.nan
                    ci += 1
            prev[l, a] = pv
            seen[l, a] = tw
