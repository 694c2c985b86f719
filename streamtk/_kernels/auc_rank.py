"""Dense ranks of float64 scores by LSD radix sort (rank compression for the exact AUC).

A float64 ``x`` (NaN excluded, ``-0.0`` folded into ``+0.0``) maps to a uint64 key whose
unsigned order is the numeric order: flip every bit of a negative number, set the sign
bit of a non-negative one. The keys and their instance indices are sorted by 8-bit
digits, least significant first (a stable counting sort per digit; digits on which
every key agrees are skipped), and equal keys share one dense rank. ``O(n)`` per digit
with sequential scans, against the ``O(n log n)`` comparison sort of ``numpy.unique``.

The counts of all eight digits are taken in the one pass that makes the keys. Measured
on 10^7 distinct uniform scores (CPU time, best of 3): 11-bit digits with a counting pass
per digit 0.66 s; 8-bit digits counted in one pass 0.45 s (their 256 buckets per scatter
pass stay in the cache; with 2048 they did not). With 2-decimal scores (two digits to
sort) 0.34 and 0.37 s.
"""

from __future__ import annotations

import numba
import numpy as np

_BITS = 8
_DIGITS = 64 // _BITS
_RADIX = 1 << _BITS
_MASK = _RADIX - 1
_SIGN = np.uint64(1) << np.uint64(63)


@numba.njit(cache=True)
def dense_ranks(x, out):
    """Write the 0-based dense rank of every ``x[i]`` into ``out[i]``; return the number of distinct values.

    ``x`` float64 ``(n,)`` without NaN; ``out`` int64 ``(n,)``.
    """
    n = x.shape[0]
    if n == 0:
        return 0
    keys = np.empty(n, dtype=np.uint64)
    cnt = np.zeros((_DIGITS, _RADIX + 1), dtype=np.int64)  # cnt[d, v + 1]: keys whose digit d is v
    for i in range(n):
        u = np.float64(x[i] + 0.0).view(np.uint64)  # x + 0.0 folds -0.0 into +0.0
        key = ~u if u & _SIGN else u | _SIGN
        keys[i] = key
        for d in range(_DIGITS):
            cnt[d, np.int64((key >> np.uint64(d * _BITS)) & np.uint64(_MASK)) + 1] += 1
    idx = np.arange(n)
    k2 = np.empty(n, dtype=np.uint64)
    i2 = np.empty(n, dtype=np.int64)
    for d in range(_DIGITS):
        c = cnt[d]
        skip = False  # every key has the same digit d: the pass would not move anything
        for v in range(_RADIX):
            if c[v + 1] == n:
                skip = True
                break
        if skip:
            continue
        for v in range(_RADIX):
            c[v + 1] += c[v]
        sh = np.uint64(d * _BITS)
        for i in range(n):
            key = keys[i]
            v = np.int64((key >> sh) & np.uint64(_MASK))
            j = c[v]
            k2[j] = key
            i2[j] = idx[i]
            c[v] = j + 1
        keys, k2 = k2, keys
        idx, i2 = i2, idx
    r = 0
    out[idx[0]] = 0
    for j in range(1, n):
        if keys[j] != keys[j - 1]:
            r += 1
        out[idx[j]] = r
    return r + 1
