"""ADWIN's exponential histogram: the state layout and the arithmetic of an insertion, a merge and a deletion.

The algorithm is ADWIN2 of Bifet & Gavalda (2007) in the form of MOA's
``moa.classifiers.core.driftdetection.ADWIN`` (the reference implementation the evaluation
papers used; ``DESIGN.md`` section 4). Every floating-point expression below is evaluated in
MOA's order, so widths, means, variances and cuts are MOA's bit for bit.

State layout
------------
Many independent ADWIN *instances* share one set of arrays whose leading axis is the instance
index ``i`` (e.g. leads x estimators x quantities); :func:`adwin_state_new` returns them as the
tuple ``(sums, variances, counts, istate, fstate)``:

``sums[i, r, s]``, ``variances[i, r, s]`` (float64, shape ``(I, R, M + 1)``)
    total and variance sum (sum of squared deviations from the bucket mean) of bucket ``s`` of
    row ``r``. Row ``r`` holds buckets of ``2**r`` inputs; within a row slot 0 is the oldest
    bucket; slots at or beyond ``counts[i, r]`` hold stale values that are never read.
``counts[i, r]`` (int64, shape ``(I, R)``)
    number of buckets in row ``r`` (at most ``M`` between steps).
``istate[i, k]`` (int64, shape ``(I, 4)``)
    ``WIDTH`` (inputs in the window), ``LAST_ROW`` (index of the oldest row, MOA's
    ``lastBucketRow``), ``TICK`` (inputs seen, MOA's ``mintTime``), ``N_DETECTIONS`` (cuts so
    far, at most one per input).
``fstate[i, k]`` (float64, shape ``(I, 3)``)
    ``TOTAL`` (sum of the window), ``VARIANCE`` (sum of squared deviations of the window from
    its mean; MOA's ``VARIANCE``) and ``XMAX`` (largest ``|x|`` seen; it only decides when the
    filter of a cut scan is safe, :mod:`.scan`).

``M`` (``max_buckets``) is taken from the shape of ``sums`` (``M + 1`` slots per row), so a state
can never be stepped with a mismatching ``M``. The memory per instance is ``O(R M)`` with a fixed
row capacity ``R`` (default 64; a state holds windows of up to :func:`adwin_capacity`
``= M (2**R - 1)`` inputs). ADWIN itself uses at most ``log2(W + 1)`` rows for a window of ``W``
inputs: for ``M >= 2`` every row holds at least one bucket.

Fidelity notes: MOA's 32-bit ``int`` products are reproduced (the merge term ``n1 * n2``, both
``2**r``, and the deletion term ``n1 * WIDTH`` wrap modulo ``2**32`` as Java's ``int`` does; this
happens only for rows >= 16 or windows of more than about 10**5 inputs and changes MOA's variance,
hence its later cuts). Bucket sizes are powers of two, so MOA's divisions by ``2**r`` in a merge
are computed as products with ``2**-r`` (the same real number, so the same double). Deliberate
limits: the tick is int64 (MOA's ``int`` wraps after ``2**31`` inputs); ``max_buckets >= 2``.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = [
    "WIDTH",
    "LAST_ROW",
    "TICK",
    "N_DETECTIONS",
    "TOTAL",
    "VARIANCE",
    "XMAX",
    "MIN_WIDTH_FOR_CHECK",
    "adwin_state_new",
    "adwin_capacity",
    "adwin_work_new",
    "adwin_width",
    "adwin_mean",
    "adwin_variance",
    "adwin_start",
    "adwin_rows",
    "load",
    "store",
]

#: MOA's ``mintMinimLongitudWindow``: no cut test while the window holds <= 10 inputs
MIN_WIDTH_FOR_CHECK = 10

# columns of istate / fstate
WIDTH = 0
LAST_ROW = 1
TICK = 2
N_DETECTIONS = 3
TOTAL = 0
VARIANCE = 1
XMAX = 2


def adwin_state_new(n_instances: int, max_buckets: int = 5, max_rows: int = 64):
    """The state ``(sums, variances, counts, istate, fstate)`` of ``n_instances`` empty ADWIN instances.

    Row 0 exists from the start (MOA's list starts with one row); ``LAST_ROW`` is 0. The
    arguments are assumed validated by the caller (``n_instances >= 1``, ``max_buckets >= 2``,
    ``max_rows >= 1``).
    """
    sums = np.zeros((n_instances, max_rows, max_buckets + 1), dtype=np.float64)
    variances = np.zeros((n_instances, max_rows, max_buckets + 1), dtype=np.float64)
    counts = np.zeros((n_instances, max_rows), dtype=np.int64)
    istate = np.zeros((n_instances, 4), dtype=np.int64)
    fstate = np.zeros((n_instances, 3), dtype=np.float64)
    return sums, variances, counts, istate, fstate


def adwin_work_new(sums) -> np.ndarray:
    """Scratch buffer of the cut scans (:mod:`.scan`) for a state whose ``sums`` is given."""
    return np.empty((4, sums.shape[-2] * sums.shape[-1]), dtype=np.float64)


def adwin_capacity(max_buckets: int, max_rows: int) -> int:
    """Largest window a state with ``max_rows`` rows can hold: ``M (2**R - 1)``.

    A window is never wider than the number of inputs seen, so a state is safe for any stream
    of at most this many inputs (``R = 64`` is unlimited in practice).
    """
    return max_buckets * (2**max_rows - 1)


@numba.njit(cache=True, inline="always")
def load(ist, fst):
    """One instance's scalars from its rows of ``istate`` / ``fstate``:
    ``(width, last row, tick, detections, total, variance, xmax)``."""
    return ist[WIDTH], ist[LAST_ROW], ist[TICK], ist[N_DETECTIONS], fst[TOTAL], fst[VARIANCE], fst[XMAX]


@numba.njit(cache=True, inline="always")
def store(ist, fst, w, last, tick, ndet, total, var, xmax):
    """The inverse of :func:`load`."""
    ist[WIDTH] = w
    ist[LAST_ROW] = last
    ist[TICK] = tick
    ist[N_DETECTIONS] = ndet
    fst[TOTAL] = total
    fst[VARIANCE] = var
    fst[XMAX] = xmax


@numba.njit(cache=True, inline="always")
def java_int_mul(a, b):
    """``a * b`` with Java ``int`` (32-bit two's complement) wrap-around, as MOA computes it."""
    p = (a * b) & 0xFFFFFFFF
    if p >= 0x80000000:
        p -= 0x100000000
    return p


@numba.njit(cache=True, inline="always", error_model="numpy")
def add_moments(w, total, var, xmax, mean, x):
    """The window's moments after input ``x`` (MOA's ``insertElement``): ``(w, total, var, xmax, mean)``.

    ``VARIANCE += (W - 1) (x - TOTAL / (W - 1))**2 / W`` with ``W`` the new width; ``mean`` must be
    the window mean before ``x`` (``TOTAL / (W - 1)``) and the returned one is ``TOTAL / W``.
    """
    w = w + 1
    if w > 1:
        dev = x - mean
        var = var + (w - 1) * dev * dev / w
    total = total + x
    ax = abs(x)
    if ax > xmax:
        xmax = ax
    return w, total, var, xmax, total / w


@numba.njit(cache=True, inline="always", error_model="numpy")
def merge(s0, v0, s1, v1, row):
    """Two buckets of row ``row`` (totals ``s0, s1``, variances ``v0, v1``) as one bucket of the next row.

    MOA's ``compressBuckets``: ``n1 = n2 = 2**row``, ``u = s / n``, variance
    ``v0 + v1 + n1 n2 (u1 - u2)**2 / (n1 + n2)``, the product ``n1 n2`` in Java ``int``.
    """
    n1 = np.int64(1) << row
    scale = 1.0 / n1
    u1 = s0 * scale
    u2 = s1 * scale
    inc = java_int_mul(n1, n1) * (u1 - u2) * (u1 - u2) * (0.5 * scale)
    return s0 + s1, v0 + v1 + inc


@numba.njit(cache=True, error_model="numpy", inline="always")
def compress(S, V, C, last, max_buckets, row):
    """Merge the two oldest buckets of every overflowing row from ``row`` on into the next row.

    ``S``, ``V``, ``C`` are one instance's ``sums``, ``variances``, ``counts``; rows below ``row``
    must hold at most ``M`` buckets. Returns the new ``LAST_ROW`` and the highest row that changed.
    """
    while C[row] == max_buckets + 1:
        nxt = row + 1
        if last == row:
            C[nxt] = 0
            last = nxt
        k = C[nxt]
        S[nxt, k], V[nxt, k] = merge(S[row, 0], V[row, 0], S[row, 1], V[row, 1], row)
        C[nxt] = k + 1
        for s in range(2, max_buckets + 1):
            S[row, s - 2] = S[row, s]
            V[row, s - 2] = V[row, s]
        C[row] = max_buckets - 1
        row = nxt
    return last, row


@numba.njit(cache=True, error_model="numpy")
def delete_oldest(S, V, C, w, last, total, var):
    """Drop the oldest bucket (MOA's ``deleteElement``); returns the new ``(w, last, total, var)``.

    The product ``n1 * WIDTH`` wraps like Java's ``int``.
    """
    n1 = np.int64(1) << last
    w = w - n1
    oldest = S[last, 0]
    total = total - oldest
    u1 = oldest / n1
    inc = V[last, 0] + java_int_mul(n1, w) * (u1 - total / w) * (u1 - total / w) / (n1 + w)
    var = var - inc
    c = C[last] - 1
    for s in range(c):
        S[last, s] = S[last, s + 1]
        V[last, s] = V[last, s + 1]
    C[last] = c
    if c == 0:
        last -= 1
    return w, last, total, var


@numba.njit(cache=True, inline="always")
def test_due(tick, clock):
    """True when a cut test is due after input number ``tick`` (MOA: ``tick % clock == 0``).

    No 64-bit division when ``clock`` is a power of two.
    """
    if clock & (clock - 1) == 0:
        return (tick & (clock - 1)) == 0
    return tick % clock == 0


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
