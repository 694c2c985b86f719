"""ADWIN's cut scan (MOA's ``ADWIN.setInput`` after the insertion), with a filter that never changes a cut.

MOA tests every split point of the window with four divisions and a square root.
:func:`scan` first clears most split points with a division-free filter that provably never
clears a split where MOA's floating-point test would cut, and evaluates MOA's exact expression
(:func:`cut_test`, in MOA's order with MOA's prefix sums) only at the rest, so every detection
is MOA's bit for bit. :func:`moa_scan` is MOA's scan itself (with the filter switched off it is
the oracle of the filter in the tests, and it runs where the filter's range conditions fail).

Arguments are grouped: ``hist = (S, V, C)`` (one instance's sums, variances, counts; see
:mod:`.histogram`), ``win = (w, last, total, var)`` (width, oldest row, sum, variance sum of the
window), ``prm = (delta, min_window, bound)`` and ``cache = (w_c, ln_c)`` (the ln-term ``ln_c``
computed at width ``w_c``; ``w_c = 0``: none yet).

Cut rules (``bound``): ``BERNSTEIN`` (0, MOA's rule) cuts when
``|mu0 - mu1| > sqrt(2 m v dd) + 2/3 dd m`` with ``dd = ln(2 ln W / delta)``, ``v = VARIANCE / W``,
``m = 1/(n0 - min_window + 1) + 1/(n1 - min_window + 1)``; ``HOEFFDING`` (1, Bifet et al. 2015,
seed 000, section 6, Theorem 3) when ``|mu0 - mu1| >= sqrt(ln(4/delta') / (2m))`` with
``delta' = delta / W`` and ``m = 1/(1/n0 + 1/n1)``. Both test only splits whose sides hold more
than ``min_window + 1`` inputs. Two values MOA recomputes at every split of a scan but that cannot
change within one (``dd`` and ``v``) are computed once per scan: the same operations on the same
operands, hence identical doubles; MOA's two partial variances that its cut expression never reads
are omitted. Java's ``Math.log`` may differ from the C library's by an ulp on some platforms; a
cut could only change if a statistic fell within that ulp of its bound.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .histogram import delete_oldest

__all__ = ["BERNSTEIN", "HOEFFDING", "BOUND_CODES", "ALL_ROWS", "cut_test", "ln_term", "moa_scan", "scan", "reduce"]

BERNSTEIN = 0
HOEFFDING = 1
#: kernel codes of the cut rules, by their public names (``bound=``)
BOUND_CODES = {"bernstein": BERNSTEIN, "hoeffding": HOEFFDING}

#: ``dirty`` value of :func:`scan` that rebuilds every row of the split grid
ALL_ROWS = 1 << 30

# Constants of the filter (the proof is in scan's docstring).
_U = 2.0**-53  # unit roundoff of float64
_KAPPA = 1e-12  # relative safety margin (>= 9000 u)
_ABS_SLACK = 1e-290  # absorbs every absolute (subnormal) rounding error
_DD_SLACK = 1e-9  # a cached ln-term is used as lower bound with this relative margin
_FILTER_MAX_WIDTH = 2**40
_FILTER_MAX_X = 1e60
_FILTER_MAX_SUM = 1e75
_FILTER_MIN_VARIANCE = 1e-100
_FILTER_MAX_VARIANCE = 1e130
#: the filter switched off (:func:`moa_scan`)
NO_FILTER = (False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


@numba.njit(cache=True, error_model="numpy", inline="always")
def cut_test(u0, u1, n0, n1, v, ln, min_window, bound):
    """MOA's ``blnCutexpression`` (``BERNSTEIN``) or Theorem 3's rule (``HOEFFDING``), in MOA's order.

    ``v = VARIANCE / W`` and the ln-term ``ln`` (:func:`ln_term`) are computed once per scan.
    """
    absvalue = u0 / n0 - u1 / n1
    if bound == BERNSTEIN:
        m = 1.0 / (n0 - min_window + 1) + 1.0 / (n1 - min_window + 1)
        eps = math.sqrt(2 * m * v * ln) + 2.0 / 3.0 * ln * m
        return abs(absvalue) > eps
    m = 1.0 / (1.0 / n0 + 1.0 / n1)
    eps = math.sqrt(1.0 / (2.0 * m) * ln)
    return abs(absvalue) >= eps


@numba.njit(cache=True, error_model="numpy")
def ln_term(w, delta, bound):
    """MOA's ``dd = ln(2 ln W / delta)`` (``BERNSTEIN``) or ``ln(4 / (delta / W))`` (``HOEFFDING``)."""
    if bound == BERNSTEIN:
        return math.log(2 * math.log(w) / delta)
    return math.log(4.0 / (delta / w))


@numba.njit(cache=True, error_model="numpy", inline="always")
def _cannot_cut(e, f0, f1, flt):
    """Filter predicate at one split (proof in :func:`scan`): True only if the cut test cannot cut there.

    ``e`` is the computed ``|U W - TOTAL n0|``, ``f0, f1 = n0, n1``; ``flt = (on, e_slack, shift,
    alpha, beta, k1, k2, k3)``. MOA's bound: ``alpha, beta = 1, 0``, ``k1 = (1 - kappa) 2/3 dd_lo Sg``,
    ``k2 = (1 - kappa) 2 v dd_lo Sg`` (-1 when ``v == 0``), ``k3 = 0``. Theorem 3: ``alpha, beta = 0, 1``,
    ``k1 = k2 = 0``, ``k3 = (1 - kappa) lg_lo W / 2``. One formula for both keeps one loop.
    """
    _, e_slack, shift, alpha, beta, k1, k2, k3 = flt
    big_l = (e + e_slack) * (1.0 + _KAPPA)
    q = (f0 + shift) * (f1 + shift) * alpha + beta
    g = f0 * f1
    z = big_l * q - k1 * g
    return (z <= 0.0) | (z * z * (1.0 + _KAPPA) <= g * (k2 * g * q + k3))


@numba.njit(cache=True, error_model="numpy", inline="always")
def _split_grid(S, C, last, top, max_buckets, work):
    """Approximate prefix sums of every split point, oldest first.

    Cell ``j`` of ``work`` is the ``j``-th split point in MOA's scan order (rows ``last`` down to
    0, oldest bucket first): ``work[1, j]`` its exact ``n0``, ``work[0, j]`` the sum of the buckets
    before it (row by row, not in MOA's order: the filter accounts for that). Only rows ``top`` down
    to 0 are rebuilt: a row's cells depend on it and the older rows only, whose running totals after
    each row ``r`` are kept in ``work[2, r]`` (sum), ``work[2, R + r]`` (count), ``work[2, 2R + r]``
    (sum of ``|S|``) and ``work[3, r]`` (cells). Fixed trip counts, every slot written and the cell
    index advanced only for existing buckets (no branches). Returns ``(number of split points, sum
    |S| over all buckets)``; the newest bucket (the last cell) is no split point.
    """
    n_rows = S.shape[0]
    if top >= last:
        top = last
        ub = 0.0
        nb = 0.0
        a_all = 0.0
        j = 0
    else:
        ub = work[2, top + 1]
        nb = work[2, n_rows + top + 1]
        a_all = work[2, 2 * n_rows + top + 1]
        j = np.int64(work[3, top + 1])
    for r in range(top, -1, -1):
        size = float(np.int64(1) << r)
        c = C[r]
        q = 0.0
        a = 0.0
        for k in range(max_buckets):
            s = S[r, k]
            valid = k < c
            s = s if valid else 0.0
            q += s
            a += abs(s)
            work[0, j] = ub + q
            work[1, j] = nb + (k + 1) * size
            j += valid
        ub += q
        nb += c * size
        a_all += a
        work[2, r] = ub
        work[2, n_rows + r] = nb
        work[2, 2 * n_rows + r] = a_all
        work[3, r] = j
    return j - 1, a_all


@numba.njit(cache=True, error_model="numpy")
def moa_scan(hist, win, v, ln, min_window, bound, flt):
    """MOA's scan (its inner ``do ... while``): the split points oldest first, MOA's prefix sums.

    At the first split with both sides holding more than ``min_window + 1`` inputs where the cut
    test holds, the oldest bucket is dropped. ``flt`` (:func:`_cannot_cut`; :data:`NO_FILTER`: off)
    skips the exact test where the filter proves it false. Returns ``(cut, win)``.
    """
    S, V, C = hist
    w, last, total, var = win
    fw = float(w)
    limit = min_window + 1
    n0 = 0
    n1 = w
    u0 = 0.0
    u1 = total
    for row in range(last, -1, -1):
        size = np.int64(1) << row
        nb = C[row]
        for k in range(nb):
            tot = S[row, k]
            n0 += size
            n1 -= size
            u0 += tot
            u1 -= tot
            if row == 0 and k == nb - 1:
                return False, win
            if n1 > limit and n0 > limit:
                clear = False
                if flt[0]:
                    f0 = float(n0)
                    clear = _cannot_cut(abs(u0 * fw - total * f0), f0, fw - f0, flt)
                if not clear and cut_test(u0, u1, n0, n1, v, ln, min_window, bound):
                    return True, delete_oldest(S, V, C, w, last, total, var)
    return False, win


@numba.njit(cache=True, error_model="numpy")
def scan(hist, work, win, xmax, prm, cache, dirty):
    """Same result as :func:`moa_scan` without the filter (bit for bit), faster.

    Every split is first put through a division-free *filter* that can only answer "this split
    cannot cut"; MOA's exact expression (with MOA's own prefix sums, accumulated in MOA's order) is
    then evaluated, oldest split first, only where the filter could not answer. A split the filter
    clears is one where MOA's floating-point test is false, so the first cut, hence every detection,
    width, mean and variance, is MOA's.

    Why the filter is sound (``u = 2**-53``, ``gamma_k = k u / (1 - k u)``; ``n0, n1`` the sides of a
    split, ``W = n0 + n1``; ``U0, U1`` MOA's prefix sums; ``A = sum |bucket totals|``,
    ``T = |TOTAL|``, ``K`` a bound on the number of buckets plus 4):

    1. The filter's ``U`` is summed row by row; it and MOA's ``U0`` are both sums of the same bucket
       totals, so ``|U - U0| <= 2 gamma_K A`` and ``|U0 + U1 - TOTAL| <= gamma_K (2A + T)``. Hence
       ``X = |U0 n1 - U1 n0| = |U0 W - (U0 + U1) n0| <= e + 8 K u W (A + T)`` with ``e`` the
       computed ``|U W - TOTAL n0|`` (its own rounding included).
    2. MOA's ``d = fl(fl(U0/n0) - fl(U1/n1))`` obeys ``n0 n1 |d| <= (1 + u) (X + u W (|U0| + |U1|))``;
       with 1., ``n0 n1 |d| <= (1 + u) (e + E)``, ``E = 16 K u W (A + T + max|x|) + 1e-290`` (the
       last term covers absolute errors of subnormal results).
    3. MOA's bound evaluates to at least ``(1 - u)**7`` times its exact value at the same ``v`` and
       ``dd`` (seven roundings, all of non-negative terms); it grows with ``dd``, so a lower bound
       ``dd_lo`` of MOA's ``dd`` (cached from a narrower window, less a relative ``1e-9``) may
       replace it. With ``P = n - min_window + 1``, ``Sg = P0 + P1``, ``Q = P0 P1``, ``G = n0 n1``,
       ``L = (e + E)(1 + kappa)``: ``|d| <= eps`` holds if
       ``L Q <= 2/3 dd_lo Sg G + G sqrt(2 v dd_lo Sg Q)``, i.e. if ``z = L Q - 2/3 dd_lo Sg G <= 0``
       or ``z**2 <= 2 v dd_lo Sg G**2 Q``.
    4. The filter evaluates 3. in floating point with every left side enlarged and every right side
       shrunk by ``kappa = 1e-12`` (>= 9000 u, far more than its own dozen roundings); the sign of a
       computed difference is exact.
    5. Theorem 3 (``cut iff |d| >= sqrt(lg W / (2 n0 n1))``, evaluated in the same style with eight
       roundings): cleared when ``L**2 (1 + kappa) <= (1 - kappa) lg_lo W G / 2`` (the margins make
       the real inequality strict, as the ``>=`` of the cut requires). :func:`_cannot_cut` is one
       formula for both bounds.

    The split-point table (``U``, ``n0``; :func:`_split_grid`) is rebuilt only for rows up to
    ``dirty``; the older rows' cells are the previous scan's (their buckets, hence their sums, have
    not changed). Where the filter cannot clear a split, :func:`moa_scan` runs with MOA's prefix sums
    and applies the filter again with them (1. holds with ``U = U0``) before each exact test.

    The filter is used only where no product can overflow or lose relative accuracy (window
    narrower than ``2**40``, ``max|x| <= 1e60``, ``A + T <= 1e75``, and for MOA's bound ``v`` zero
    or in ``(1e-100, 1e130)``); otherwise the scan is :func:`moa_scan` without it. The ln-term
    grows with ``W``: a cached one is reused up to ``2 W_c`` (the filter needs a lower bound only).
    Returns ``(cut, win, cache)``.
    """
    S, V, C = hist
    w, last, total, var = win
    delta, min_window, bound = prm
    w_c, ln_c = cache
    max_buckets = S.shape[1] - 1
    n_cells, a_all = _split_grid(S, C, last, dirty, max_buckets, work)
    t_abs = abs(total)
    v = var / w
    in_range = (
        w < _FILTER_MAX_WIDTH
        and xmax <= _FILTER_MAX_X
        and a_all + t_abs <= _FILTER_MAX_SUM
        and (bound != BERNSTEIN or v == 0.0 or (v > _FILTER_MIN_VARIANCE and v < _FILTER_MAX_VARIANCE))
    )
    if not in_range:
        cut, win = moa_scan(hist, win, v, ln_term(w, delta, bound), min_window, bound, NO_FILTER)
        return cut, win, cache
    if w_c == 0 or w < w_c or w > 2 * w_c:
        w_c = w
        ln_c = ln_term(w, delta, bound)
    ln_lo = ln_c * (1.0 - _DD_SLACK)
    fw = float(w)
    n_terms = (last + 1) * (max_buckets + 1) + 4
    e_slack = 16.0 * n_terms * _U * fw * (a_all + t_abs + xmax) + _ABS_SLACK
    shift = 1.0 - min_window
    # the filter is on: ``in_range`` (True here) rather than the literal True, so that moa_scan compiles once
    if bound == BERNSTEIN:
        sg = fw + 2.0 * shift
        k2 = 2.0 * v * ln_lo * sg * (1.0 - _KAPPA) if v > 0.0 else -1.0
        flt = (in_range, e_slack, shift, 1.0, 0.0, 2.0 / 3.0 * ln_lo * sg * (1.0 - _KAPPA), k2, 0.0)
    else:
        flt = (in_range, e_slack, shift, 0.0, 1.0, 0.0, 0.0, ln_lo * fw * 0.5 * (1.0 - _KAPPA))
    flim = float(min_window + 1)
    n_amb = 0
    for j in range(n_cells):
        f0 = work[1, j]
        f1 = fw - f0
        e = abs(work[0, j] * fw - total * f0)
        n_amb += (f0 > flim) & (f1 > flim) & (not _cannot_cut(e, f0, f1, flt))
    if n_amb == 0:
        return False, win, (w_c, ln_c)
    cut, win = moa_scan(hist, win, v, ln_term(w, delta, bound), min_window, bound, flt)
    return cut, win, (w_c, ln_c)


@numba.njit(cache=True, error_model="numpy", inline="always")
def reduce(hist, work, win, xmax, prm, cache, dirty):
    """MOA's ``while (blnReduceWidth)`` loop: scan, drop the oldest bucket at a cut, scan again until no cut.

    ``dirty`` is the highest row changed since ``work``'s split grid was last built for this
    instance (:data:`ALL_ROWS`: unknown). Returns ``(changed, win, cache)``.
    """
    changed = False
    cut = True
    while cut:
        cut, win, cache = scan(hist, work, win, xmax, prm, cache, dirty)
        changed = changed or cut
        dirty = np.int64(ALL_ROWS)
    return changed, win, cache
