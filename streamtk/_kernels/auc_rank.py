"""Dense ranks of float64 scores by LSD radix sort (rank compression for the exact AUC).

A float64 ``x`` (NaN excluded, ``-0.0`` folded into ``+0.0``) maps to a uint64 key whose
unsigned order is the numeric order: flip every bit of a negative number, set the sign
bit of a non-negative one. The keys and their instance indices are sorted by 11-bit
digits, least significant first (a stable counting sort per digit; digits on which
every key agrees are skipped), and equal keys share one dense rank. ``O(n)`` per digit
with sequential scans, against the ``O(n log n)`` comparison sort of ``numpy.unique``.
"""

from __future__ import annotations

import numba
import numpy as np

_BITS = 11
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
    for i in range(n):
        u = np.float64(x[i] + 0.0).view(np.uint64)  # x + 0.0 folds -0.0 into +0.0
        keys[i] = ~u if u & _SIGN else u | _SIGN
    idx = np.arange(n)
    k2 = np.empty(n, dtype=np.uint64)
    i2 = np.empty(n, dtype=np.int64)
    cnt = np.empty(_RADIX + 1, dtype=np.int64)
    shift = 0
    while shift < 64:
        sh = np.uint64(shift)
        cnt[:] = 0
        for i in range(n):
            cnt[np.int64((keys[i] >> sh) & np.uint64(_MASK)) + 1] += 1
        skip = False
        for d in range(_RADIX):
            if cnt[d + 1] == n:
                skip = True
                break
        if not skip:
            for d in range(_RADIX):
                cnt[d + 1] += cnt[d]
            for i in range(n):
                d = np.int64((keys[i] >> sh) & np.uint64(_MASK))
                j = cnt[d]
                k2[j] = keys[i]
                i2[j] = idx[i]
                cnt[d] = j + 1
            keys, k2 = k2, keys
            idx, i2 = i2, idx
        shift += _BITS
    r = 0
    out[idx[0]] = 0
    for j in range(1, n):
        if keys[j] != keys[j - 1]:
            r += 1
        out[idx[j]] = r
    return r + 1
