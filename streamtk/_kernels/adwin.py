"""ADWIN2 (adaptive windowing with an exponential histogram) as numba step functions.

The algorithm is ADWIN2 of Bifet & Gavalda (2007) in the form of MOA's
``moa.classifiers.core.driftdetection.ADWIN`` (the reference implementation the
evaluation papers used; ``DESIGN.md`` section 4). The cut rule of the ``"moa"``
variant is MOA's; the ``"theorem3"`` variant uses the literal bound of Bifet et
al. 2015, Theorem 3 (seed ``000_413ae63613f4eb28.txt``, section 6).

State layout
------------
Many independent ADWIN *instances* share one set of arrays whose leading axis
is the instance index ``i`` (e.g. leads x estimators x quantities):

``sums[i, r, s]``, ``variances[i, r, s]`` (float64, shape ``(I, R, M + 1)``)
    total and variance sum (sum of squared deviations from the bucket mean) of
    bucket ``s`` of row ``r``. Row ``r`` holds buckets of ``2**r`` inputs; within
    a row slot 0 is the oldest bucket. Slots at or beyond ``counts[i, r]`` are 0.
``counts[i, r]`` (int64, shape ``(I, R)``)
    number of buckets in row ``r`` (at most ``M`` between steps).
``istate[i, k]`` (int64, shape ``(I, 4)``)
    ``WIDTH`` (items in the window), ``LAST_ROW`` (index of the oldest row, MOA's
    ``lastBucketRow``), ``TICK`` (inputs seen since the instance was created,
    MOA's ``mintTime``), ``N_DETECTIONS`` (cuts so far, at most one per input).
``fstate[i, k]`` (float64, shape ``(I, 2)``)
    ``TOTAL`` (sum of the window) and ``VARIANCE`` (sum of squared deviations of
    the window from its mean; MOA's ``VARIANCE``).

``M`` (``max_buckets``) is taken from the shape of ``sums`` (``M + 1`` slots per
row), so a state can never be stepped with a mismatching ``M``. The memory per
instance is ``O(R M)`` with a fixed row capacity ``R`` (default 64): ADWIN itself
uses at most ``ceil(log2(W / M + 1))`` rows for a window of ``W`` inputs.

Floating-point fidelity
-----------------------
Every floating-point expression is evaluated in MOA's order (incremental
variance updates on insertion, merge and deletion; the cut expression), and
MOA's 32-bit ``int`` products are reproduced: the merge term ``n1 * n2`` (both
``2**r``) and the deletion term ``n1 * WIDTH`` wrap modulo ``2**32`` exactly as
Java's ``int`` arithmetic does (this happens only for rows >= 16 or windows of
more than about 10**5 inputs and changes MOA's variance, hence its later cuts).
Two values that MOA recomputes at every split point of a scan but that cannot
change within one (``dd = ln(2 ln W / delta)`` and ``v = VARIANCE / W``) are
computed once per scan: the same operations on the same operands, so identical
doubles. MOA's scan also updates two partial variances that its cut expression
never reads; they are omitted.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numba import prange

__all__ = [
    "VARIANT_CODES",
    "MIN_WIDTH_FOR_CHECK",
    "WIDTH",
    "LAST_ROW",
    "TICK",
    "N_DETECTIONS",
    "TOTAL",
    "VARIANCE",
    "adwin_state_new",
    "adwin_capacity",
    "adwin_update",
    "adwin_width",
    "adwin_mean",
    "adwin_variance",
    "adwin_start",
    "adwin_rows",
    "adwin_run",
]

#: integer codes of the cut rules
VARIANT_CODES = {"moa": 0, "theorem3": 1}

#: MOA's ``mintMinimLongitudWindow``: no cut test while the window holds <= 10 inputs
MIN_WIDTH_FOR_CHECK = 10

# columns of istate / fstate
WIDTH = 0
LAST_ROW = 1
TICK = 2
N_DETECTIONS = 3
TOTAL = 0
VARIANCE = 1


def adwin_state_new(n_instances: int, max_buckets: int = 5, max_rows: int = 64):
    """Allocate the state of ``n_instances`` empty ADWIN instances.

    Returns ``(sums, variances, counts, istate, fstate)`` (see the module
    docstring). Row 0 exists from the start (MOA's list starts with one row);
    ``LAST_ROW`` is 0. The arguments are assumed validated by the caller
    (``n_instances >= 1``, ``max_buckets >= 2``, ``max_rows >= 1``).
    """
    sums = np.zeros((n_instances, max_rows, max_buckets + 1), dtype=np.float64)
    variances = np.zeros((n_instances, max_rows, max_buckets + 1), dtype=np.float64)
    counts = np.zeros((n_instances, max_rows), dtype=np.int64)
    istate = np.zeros((n_instances, 4), dtype=np.int64)
    fstate = np.zeros((n_instances, 2), dtype=np.float64)
    return sums, variances, counts, istate, fstate


def adwin_capacity(max_buckets: int, max_rows: int) -> int:
    """Largest window a state with ``max_rows`` rows can hold: ``M (2**R - 1)``.

    A window can never be wider than the number of inputs seen, so a state is
    safe for any stream of at most this many inputs (``R = 64`` is unlimited
    in practice).
    """
    return max_buckets * (2 ** max_rows - 1)


@numba.njit(cache=True, inline="always")
def _java_int_mul(a, b):
    """``a * b`` with Java ``int`` (32-bit two's complement) wrap-around."""
    p = (a * b) & 0xFFFFFFFF
    if p >= 0x80000000:
        p -= 0x100000000
    return p


@numba.njit(cache=True, error_model="numpy")
def _compress(sums, variances, counts, istate, i, max_buckets):
    """Merge the two oldest buckets of every overflowing row into the next row."""
    row = 0
    while counts[i, row] == max_buckets + 1:
        nxt = row + 1
        if istate[i, LAST_ROW] == row:
            # a new (empty) oldest row
            counts[i, nxt] = 0
            for s in range(max_buckets + 1):
                sums[i, nxt, s] = 0.0
                variances[i, nxt, s] = 0.0
            istate[i, LAST_ROW] = nxt
        n1 = np.int64(1) << row
        u1 = sums[i, row, 0] / n1
        u2 = sums[i, row, 1] / n1
        inc = _java_int_mul(n1, n1) * (u1 - u2) * (u1 - u2) / (n1 + n1)
        k = counts[i, nxt]
        sums[i, nxt, k] = sums[i, row, 0] + sums[i, row, 1]
        variances[i, nxt, k] = variances[i, row, 0] + variances[i, row, 1] + inc
        counts[i, nxt] = k + 1
        for s in range(2, max_buckets + 1):
            sums[i, row, s - 2] = sums[i, row, s]
            variances[i, row, s - 2] = variances[i, row, s]
        for s in range(max_buckets - 1, max_buckets + 1):
            sums[i, row, s] = 0.0
            variances[i, row, s] = 0.0
        counts[i, row] = max_buckets - 1
        row = nxt


@numba.njit(cache=True, error_model="numpy")
def _delete_oldest(sums, variances, counts, istate, fstate, i, max_buckets):
    """Drop the oldest bucket (MOA's ``deleteElement``); return its size."""
    last = istate[i, LAST_ROW]
    n1 = np.int64(1) << last
    w = istate[i, WIDTH] - n1
    istate[i, WIDTH] = w
    total = fstate[i, TOTAL] - sums[i, last, 0]
    fstate[i, TOTAL] = total
    u1 = sums[i, last, 0] / n1
    inc = variances[i, last, 0] + _java_int_mul(n1, w) * (u1 - total / w) * (u1 - total / w) / (n1 + w)
    fstate[i, VARIANCE] = fstate[i, VARIANCE] - inc
    for s in range(1, max_buckets + 1):
        sums[i, last, s - 1] = sums[i, last, s]
        variances[i, last, s - 1] = variances[i, last, s]
    sums[i, last, max_buckets] = 0.0
    variances[i, last, max_buckets] = 0.0
    c = counts[i, last] - 1
    counts[i, last] = c
    if c == 0:
        istate[i, LAST_ROW] = last - 1
    return n1


@numba.njit(cache=True, error_model="numpy")
def _scan_once(sums, variances, counts, istate, fstate, i, delta, min_window, variant, max_buckets):
    """One scan over the split points, oldest first; drop the oldest bucket at the
    first split that passes the cut test. Return True if a bucket was dropped."""
    w = istate[i, WIDTH]
    # constant over the scan (MOA recomputes them per split point, same values)
    dd = 0.0
    v = 0.0
    c23 = 0.0
    lg = 0.0
    if variant == 0:
        dd = math.log(2 * math.log(w) / delta)
        v = fstate[i, VARIANCE] / w
        c23 = 2.0 / 3.0
    else:
        lg = math.log(4.0 / (delta / w))
    limit = min_window + 1
    n0 = 0
    n1 = w
    u0 = 0.0
    u1 = fstate[i, TOTAL]
    row = istate[i, LAST_ROW]
    while row >= 0:
        size = np.int64(1) << row
        nb = counts[i, row]
        for k in range(nb):
            tot = sums[i, row, k]
            n0 += size
            n1 -= size
            u0 += tot
            u1 -= tot
            if row == 0 and k == nb - 1:
                return False
            if n1 > limit and n0 > limit:
                absvalue = u0 / n0 - u1 / n1
                if variant == 0:
                    m = 1.0 / (n0 - min_window + 1) + 1.0 / (n1 - min_window + 1)
                    eps = math.sqrt(2 * m * v * dd) + c23 * dd * m
                    cut = abs(absvalue) > eps
                else:
                    m = 1.0 / (1.0 / n0 + 1.0 / n1)
                    eps = math.sqrt(1.0 / (2.0 * m) * lg)
                    cut = abs(absvalue) >= eps
                if cut:
                    _delete_oldest(sums, variances, counts, istate, fstate, i, max_buckets)
                    return True
        row -= 1
    return False


@numba.njit(cache=True, error_model="numpy")
def adwin_update(sums, variances, counts, istate, fstate, i, x, delta, clock, min_window, variant):
    """Add the value ``x`` to ADWIN instance ``i``; return the detection code.

    One call is MOA's ``ADWIN.setInput(x)``: increment the tick, insert ``x`` as a
    new bucket of row 0 (incremental window variance
    ``VARIANCE += (W-1)(x - TOTAL/(W-1))**2 / W``), merge overflowing rows, and,
    when ``tick % clock == 0`` and ``W > 10``, scan the split points from the
    oldest bucket to the newest; at the first split with both sides holding more
    than ``min_window + 1`` inputs whose means differ by more than the bound,
    drop the oldest bucket and scan again, until a scan finds no cut.

    Parameters
    ----------
    sums, variances, counts, istate, fstate : ndarray
        State arrays from :func:`adwin_state_new` (modified in place).
    i : int
        Instance index (first axis of every state array).
    x : float
        The input (finite; usually a 0/1 loss).
    delta : float
        Confidence parameter in (0, 1).
    clock : int
        Cut test every ``clock`` inputs (MOA: 32).
    min_window : int
        MOA's ``mintMinWinLength`` (5): both sides of a split need more than
        ``min_window + 1`` inputs; it also enters MOA's bound.
    variant : int
        0 = MOA's bound ``|mu0 - mu1| > sqrt(2 m v dd) + 2/3 dd m`` with
        ``dd = ln(2 ln W / delta)``, ``v = VARIANCE / W``,
        ``m = 1/(n0 - min_window + 1) + 1/(n1 - min_window + 1)``;
        1 = Theorem 3 of Bifet et al. 2015: ``|mu0 - mu1| >= sqrt(ln(4/delta') / (2m))``
        with ``delta' = delta / W`` and ``m = 1/(1/n0 + 1/n1)``.

    Returns
    -------
    int
        0 if no bucket was dropped at this step. If at least one was dropped
        (a cut, i.e. MOA's ``setInput`` returned true): +1 when the window
        mean after the step is strictly greater than the window mean before
        the step (before ``x`` was added), -1 otherwise. +1 is exactly the
        condition under which MOA's ``ADWINChangeDetector.input`` sets
        ``isChangeDetected`` (it compares ``getEstimation()`` before and
        after ``setInput``), so MOA's change detector flags the +1 steps only.
    """
    max_buckets = sums.shape[2] - 1
    w_before = istate[i, WIDTH]
    total_before = fstate[i, TOTAL]
    tick = istate[i, TICK] + 1
    istate[i, TICK] = tick

    # insert x as a new bucket of row 0 (variance 0)
    w = w_before + 1
    istate[i, WIDTH] = w
    k = counts[i, 0]
    sums[i, 0, k] = x
    variances[i, 0, k] = 0.0
    counts[i, 0] = k + 1
    if w > 1:
        dev = x - total_before / (w - 1)
        fstate[i, VARIANCE] = fstate[i, VARIANCE] + (w - 1) * dev * dev / w
    fstate[i, TOTAL] = total_before + x
    if k + 1 > max_buckets:
        _compress(sums, variances, counts, istate, i, max_buckets)

    change = False
    if tick % clock == 0 and w > MIN_WIDTH_FOR_CHECK:
        while _scan_once(sums, variances, counts, istate, fstate, i, delta, min_window, variant, max_buckets):
            change = True
    if not change:
        return 0
    istate[i, N_DETECTIONS] += 1
    if fstate[i, TOTAL] / istate[i, WIDTH] > total_before / w_before:
        return 1
    return -1


@numba.njit(cache=True)
def adwin_width(istate, i):
    """Number of inputs in the window of instance ``i`` (MOA's ``getWidth``)."""
    return istate[i, WIDTH]


@numba.njit(cache=True, error_model="numpy")
def adwin_mean(istate, fstate, i):
    """Window mean ``TOTAL / W`` of instance ``i`` (MOA's ``getEstimation``; NaN if empty)."""
    return fstate[i, TOTAL] / istate[i, WIDTH]


@numba.njit(cache=True, error_model="numpy")
def adwin_variance(istate, fstate, i):
    """Population variance of the window ``VARIANCE / W`` (MOA's ``getVariance``; NaN if empty)."""
    return fstate[i, VARIANCE] / istate[i, WIDTH]


@numba.njit(cache=True)
def adwin_start(istate, i):
    """0-based index (among the inputs given to instance ``i``) of the oldest input in its window."""
    return istate[i, TICK] - istate[i, WIDTH]


@numba.njit(cache=True)
def adwin_rows(istate, i):
    """Number of bucket rows in use by instance ``i`` (``LAST_ROW + 1``)."""
    return istate[i, LAST_ROW] + 1


@numba.njit(cache=True, parallel=True, error_model="numpy")
def adwin_run(x, sums, variances, counts, istate, fstate, delta, clock, min_window, variant,
              width_out, mean_out, variance_out, detection_out):
    """Feed ``x[l, :]`` to instance ``l`` for every lead ``l`` (parallel over leads).

    ``x`` is ``(L, n)`` float64; the state has ``L`` instances and is updated in
    place, so calling this chunk after chunk equals one call on the whole
    stream. Per step ``t`` it writes the window width (int64), mean and
    variance (float64) after the step and the detection code (int8, see
    :func:`adwin_update`) into the ``(L, n)`` outputs.
    """
    n_leads, n = x.shape
    for lead in prange(n_leads):
        for t in range(n):
            code = adwin_update(sums, variances, counts, istate, fstate, lead, x[lead, t],
                                delta, clock, min_window, variant)
            w = istate[lead, WIDTH]
            width_out[lead, t] = w
            mean_out[lead, t] = fstate[lead, TOTAL] / w
            variance_out[lead, t] = fstate[lead, VARIANCE] / w
            detection_out[lead, t] = code
