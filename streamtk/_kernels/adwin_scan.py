"""The cut scan of ADWIN (MOA's ``ADWIN.setInput`` after the insertion): numba kernels.

Used by :mod:`streamtk._kernels.adwin` (state layout and the insertion are
described there). MOA tests every split point of the window with four
divisions and a square root; :func:`_scan_filtered` first clears most split
points with a division-free filter that provably never clears a split where
MOA's floating-point test would cut, and evaluates MOA's exact expression
(:func:`_cut_test`, in MOA's order with MOA's prefix sums) only at the rest,
so every detection is MOA's bit for bit. :func:`_scan_exact` is the
unfiltered scan (used where the filter's range conditions fail, and as the
oracle of the filter in the tests).
"""

from __future__ import annotations

import math

import numba
import numpy as np


@numba.njit(cache=True, inline="always")
def _java_int_mul(a, b):
    """``a * b`` with Java ``int`` (32-bit two's complement) wrap-around, as MOA computes it."""
    p = (a * b) & 0xFFFFFFFF
    if p >= 0x80000000:
        p -= 0x100000000
    return p


@numba.njit(cache=True, error_model="numpy")
def _delete_oldest(S, V, C, w, last, total, var, max_buckets):
    """Drop the oldest bucket (MOA's ``deleteElement``); return the new
    ``(w, last, total, var)``. ``n1 * WIDTH`` wraps like Java's ``int``."""
    n1 = np.int64(1) << last
    w = w - n1
    oldest = S[last, 0]
    total = total - oldest
    u1 = oldest / n1
    inc = V[last, 0] + _java_int_mul(n1, w) * (u1 - total / w) * (u1 - total / w) / (n1 + w)
    var = var - inc
    c = C[last] - 1
    for s in range(c):
        S[last, s] = S[last, s + 1]
        V[last, s] = V[last, s + 1]
    C[last] = c
    if c == 0:
        last -= 1
    return w, last, total, var


# ---------------------------------------------------------------- cut scan

# Constants of the filter in _scan_filtered (the proof is in its docstring).
_U = 2.0**-53  # unit roundoff of float64
_KAPPA = 1e-12  # relative safety margin (>= 9000 u)
_ABS_SLACK = 1e-290  # absorbs every absolute (subnormal) rounding error
_DD_SLACK = 1e-9  # a cached ln-term is used as lower bound with this relative margin
_FILTER_MAX_WIDTH = 2**40
_FILTER_MAX_X = 1e60
_FILTER_MAX_SUM = 1e75
_FILTER_MIN_VARIANCE = 1e-100
_FILTER_MAX_VARIANCE = 1e130


@numba.njit(cache=True, error_model="numpy", inline="always")
def _cut_test(u0, u1, n0, n1, v, dd, lg, min_window, variant):
    """MOA's ``blnCutexpression`` (variant 0) or the Theorem 3 rule (variant 1),
    in MOA's floating-point order (``v``, ``dd`` and ``lg`` precomputed per scan)."""
    absvalue = u0 / n0 - u1 / n1
    if variant == 0:
        m = 1.0 / (n0 - min_window + 1) + 1.0 / (n1 - min_window + 1)
        eps = math.sqrt(2 * m * v * dd) + 2.0 / 3.0 * dd * m
        return abs(absvalue) > eps
    m = 1.0 / (1.0 / n0 + 1.0 / n1)
    eps = math.sqrt(1.0 / (2.0 * m) * lg)
    return abs(absvalue) >= eps


@numba.njit(cache=True, error_model="numpy")
def _scan_exact(S, V, C, w, last, total, var, v, dd, lg, min_window, variant, max_buckets):
    """One pass over the split points, oldest bucket first, evaluating the cut
    test at every admissible split (MOA's inner ``do ... while``). At the first
    cut the oldest bucket is dropped. Returns ``(cut, w, last, total, var)``."""
    limit = min_window + 1
    n0 = 0
    n1 = w
    u0 = 0.0
    u1 = total
    row = last
    while row >= 0:
        size = np.int64(1) << row
        nb = C[row]
        for k in range(nb):
            tot = S[row, k]
            n0 += size
            n1 -= size
            u0 += tot
            u1 -= tot
            if row == 0 and k == nb - 1:
                return False, w, last, total, var
            if n1 > limit and n0 > limit and _cut_test(u0, u1, n0, n1, v, dd, lg, min_window, variant):
                w, last, total, var = _delete_oldest(S, V, C, w, last, total, var, max_buckets)
                return True, w, last, total, var
        row -= 1
    return False, w, last, total, var


#: ``dirty`` value of :func:`_scan_filtered` that rebuilds every row of the split grid
_ALL_ROWS = 1 << 30


@numba.njit(cache=True, error_model="numpy", inline="always")
def _split_grid(S, C, last, top, max_buckets, work):
    """Approximate prefix sums of every split point, oldest first.

    Cell ``j`` of ``work`` is the ``j``-th split point in MOA's scan order
    (rows ``last`` down to 0, oldest bucket first): ``work[1, j]`` its exact
    ``n0``, ``work[0, j]`` the sum of the buckets before it (row by row, not
    in MOA's order: the filter accounts for that). Only rows ``top`` down to 0
    are rebuilt: a row's cells depend on it and the older rows only, whose
    running totals after each row ``r`` are kept in ``work[2, r]`` (sum),
    ``work[2, R + r]`` (count), ``work[2, 2R + r]`` (sum of ``|S|``) and
    ``work[3, r]`` (cells). Fixed trip counts, every slot written and the
    cell index advanced only for existing buckets (no branches). Returns
    ``(number of split points, sum |S| over all buckets)``; the newest bucket
    (the last cell) is no split point.
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


@numba.njit(cache=True, error_model="numpy", inline="always")
def _cannot_cut(e, f0, f1, e_slack, shift, alpha, beta, k1, k2, k3):
    """Filter predicate at one split (proof in :func:`_scan_filtered`): True
    only if the cut test in floating point cannot cut there.

    ``e`` is the computed ``|U W - TOTAL n0|``, ``f0, f1 = n0, n1``.
    MOA's bound: ``alpha, beta = 1, 0``, ``k1 = (1 - kappa) 2/3 dd_lo Sg``,
    ``k2 = (1 - kappa) 2 v dd_lo Sg`` (-1 when ``v == 0``), ``k3 = 0``.
    Theorem 3: ``alpha, beta = 0, 1``, ``k1 = k2 = 0``,
    ``k3 = (1 - kappa) lg_lo W / 2``. One formula for both keeps one loop
    (and one inlined copy) instead of two.
    """
    big_l = (e + e_slack) * (1.0 + _KAPPA)
    q = (f0 + shift) * (f1 + shift) * alpha + beta
    g = f0 * f1
    z = big_l * q - k1 * g
    return (z <= 0.0) | (z * z * (1.0 + _KAPPA) <= g * (k2 * g * q + k3))


@numba.njit(cache=True, error_model="numpy")
def _ln_terms(w, delta, variant):
    """MOA's ``dd = ln(2 ln W / delta)`` (variant 0) or ``ln(4 / (delta / W))`` (variant 1)."""
    if variant == 0:
        return math.log(2 * math.log(w) / delta)
    return math.log(4.0 / (delta / w))


@numba.njit(cache=True, error_model="numpy")
def _scan_filtered(S, V, C, work, w, last, total, var, xmax, delta, min_window, variant, max_buckets, w_c, ln_c, dirty):
    """Same result as :func:`_scan_exact` (bit for bit), faster.

    MOA's test at a split costs four divisions and a square root. Here every
    split is first put through a division-free *filter* that can only answer
    "this split cannot cut"; MOA's exact expression (with MOA's own prefix
    sums, accumulated in MOA's order) is then evaluated, oldest split first,
    only where the filter could not answer. A split the filter clears is one
    where MOA's floating-point test is false, so the first cut, hence every
    detection, width, mean and variance, is MOA's.

    Why the filter is sound (``u = 2**-53``, ``gamma_k = k u / (1 - k u)``;
    ``n0, n1`` the sides of a split, ``W = n0 + n1``; ``U0, U1`` MOA's prefix
    sums; ``A = sum |bucket totals|``, ``T = |TOTAL|``, ``K`` a bound on the
    number of buckets plus 4):

    1. The filter's ``U`` is summed row by row; it and MOA's ``U0`` are both
       sums of the same bucket totals, so ``|U - U0| <= 2 gamma_K A`` and
       ``|U0 + U1 - TOTAL| <= gamma_K (2A + T)``. Hence
       ``X = |U0 n1 - U1 n0| = |U0 W - (U0 + U1) n0| <= e + 8 K u W (A + T)``
       with ``e`` the computed ``|U W - TOTAL n0|`` (its own rounding included).
    2. MOA's ``d = fl(fl(U0/n0) - fl(U1/n1))`` obeys
       ``n0 n1 |d| <= (1 + u) (X + u W (|U0| + |U1|))``; with 1.,
       ``n0 n1 |d| <= (1 + u) (e + E)``, ``E = 16 K u W (A + T + max|x|)
       + 1e-290`` (the last term covers absolute errors of subnormal results).
    3. MOA's bound evaluates to at least ``(1 - u)**7`` times its exact value
       at the same ``v`` and ``dd`` (seven roundings, all of non-negative
       terms); it grows with ``dd``, so a lower bound ``dd_lo`` of MOA's ``dd``
       (cached from a narrower window, less a relative ``1e-9``) may replace it.
       With ``P = n - min_window + 1``, ``Sg = P0 + P1``, ``Q = P0 P1``,
       ``G = n0 n1``, ``L = (e + E)(1 + kappa)``: ``|d| <= eps`` holds if
       ``L Q <= 2/3 dd_lo Sg G + G sqrt(2 v dd_lo Sg Q)``, i.e. if
       ``z = L Q - 2/3 dd_lo Sg G <= 0`` or ``z**2 <= 2 v dd_lo Sg G**2 Q``.
    4. The filter evaluates 3. in floating point with every left side
       enlarged and every right side shrunk by ``kappa = 1e-12`` (>= 9000 u,
       far more than its own dozen roundings); the sign of a computed
       difference is exact.
    5. Theorem 3 (``cut iff |d| >= sqrt(lg W / (2 n0 n1))``, evaluated in
       the same style with eight roundings): cleared when
       ``L**2 (1 + kappa) <= (1 - kappa) lg_lo W G / 2`` (the margins make the
       real inequality strict, as the ``>=`` of the cut requires).
       :func:`_cannot_cut` is one formula for both bounds.

    The split-point table (``U``, ``n0``; :func:`_split_grid`) is rebuilt only
    for rows up to ``dirty``; the older rows' cells are the previous scan's
    (their buckets, hence their sums, have not changed). Where the filter
    cannot clear a split, MOA's scan runs with MOA's own prefix sums and
    applies the filter again with them (1. holds with ``U = U0``) before each
    exact test.

    The filter is used only where no product can overflow or lose relative
    accuracy (window narrower than ``2**40``, ``max|x| <= 1e60``,
    ``A + T <= 1e75``, and for MOA's bound ``v`` zero or in
    ``(1e-100, 1e130)``); otherwise the scan is :func:`_scan_exact`.
    ``w_c, ln_c`` cache the ln-term: ``ln_c`` is its exact value at width
    ``w_c`` (0: none yet); returns ``(cut, w, last, total, var, w_c, ln_c)``.
    """
    if max_buckets == 5:  # MOA's M as a constant: LLVM unrolls the slot loop
        n_cells, a_all = _split_grid(S, C, last, dirty, 5, work)
    else:
        n_cells, a_all = _split_grid(S, C, last, dirty, max_buckets, work)
    t_abs = abs(total)
    v = var / w
    in_range = (
        w < _FILTER_MAX_WIDTH
        and xmax <= _FILTER_MAX_X
        and a_all + t_abs <= _FILTER_MAX_SUM
        and (variant != 0 or v == 0.0 or (v > _FILTER_MIN_VARIANCE and v < _FILTER_MAX_VARIANCE))
    )
    if not in_range:
        lnv = _ln_terms(w, delta, variant)
        cut, w, last, total, var = _scan_exact(
            S, V, C, w, last, total, var, v, lnv, lnv, min_window, variant, max_buckets
        )
        return cut, w, last, total, var, w_c, ln_c
    if w_c == 0 or w < w_c or w > 2 * w_c:  # the ln-term grows with W: reuse it up to 2 W
        w_c = w
        ln_c = _ln_terms(w, delta, variant)
    ln_lo = ln_c * (1.0 - _DD_SLACK)
    fw = float(w)
    n_terms = (last + 1) * (max_buckets + 1) + 4
    e_slack = 16.0 * n_terms * _U * fw * (a_all + t_abs + xmax) + _ABS_SLACK
    flim = float(min_window + 1)
    shift = 1.0 - min_window
    if variant == 0:
        alpha, beta = 1.0, 0.0
        sg = fw + 2.0 * shift
        k1 = 2.0 / 3.0 * ln_lo * sg * (1.0 - _KAPPA)
        k2 = 2.0 * v * ln_lo * sg * (1.0 - _KAPPA) if v > 0.0 else -1.0
        k3 = 0.0
    else:
        alpha, beta = 0.0, 1.0
        k1 = 0.0
        k2 = 0.0
        k3 = ln_lo * fw * 0.5 * (1.0 - _KAPPA)
    n_amb = 0
    for j in range(n_cells):
        f0 = work[1, j]
        f1 = fw - f0
        e = abs(work[0, j] * fw - total * f0)
        n_amb += (f0 > flim) & (f1 > flim) & (not _cannot_cut(e, f0, f1, e_slack, shift, alpha, beta, k1, k2, k3))
    if n_amb == 0:
        return False, w, last, total, var, w_c, ln_c
    # MOA's scan with MOA's prefix sums; its exact test only where the filter
    # (valid for these sums too) cannot clear the split
    lnv = _ln_terms(w, delta, variant)
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
                return False, w, last, total, var, w_c, ln_c
            if n1 > limit and n0 > limit:
                f0 = float(n0)
                e = abs(u0 * fw - total * f0)
                clear = _cannot_cut(e, f0, fw - f0, e_slack, shift, alpha, beta, k1, k2, k3)
                if not clear and _cut_test(u0, u1, n0, n1, v, lnv, lnv, min_window, variant):
                    w, last, total, var = _delete_oldest(S, V, C, w, last, total, var, max_buckets)
                    return True, w, last, total, var, w_c, ln_c
    return False, w, last, total, var, w_c, ln_c


@numba.njit(cache=True, error_model="numpy")
def _reduce_window(S, V, C, work, w, last, total, var, xmax, delta, min_window, variant, max_buckets, w_c, ln_c, dirty):
    """MOA's ``while (blnReduceWidth)`` loop: scan, drop the oldest bucket at a
    cut, scan again until no cut. ``dirty`` is the highest row changed since
    ``work``'s split grid was last built for this instance (``_ALL_ROWS``:
    unknown). Returns ``(changed, w, last, total, var, w_c, ln_c)``."""
    changed = False
    cut = True
    while cut:
        cut, w, last, total, var, w_c, ln_c = _scan_filtered(
            S, V, C, work, w, last, total, var, xmax, delta, min_window, variant, max_buckets, w_c, ln_c, dirty
        )
        changed = changed or cut
        dirty = np.int64(_ALL_ROWS)
    return changed, w, last, total, var, w_c, ln_c
