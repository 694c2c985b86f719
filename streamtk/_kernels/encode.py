"""Single-pass integer label encoding (the numpy layer's fast path for integer labels)."""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True)
def int_presence(a, lo, nbins, present):
    """Mark ``present[v - lo] = True`` for every value ``v`` of ``a`` (stops once all ``nbins`` are seen)."""
    found = 0
    for i in range(a.shape[0]):
        j = np.int64(a[i]) - lo
        if not present[j]:
            present[j] = True
            found += 1
            if found == nbins:
                return


@nb.njit(cache=True)
def int_map(a, lut, lo, out):
    """``out[i] = lut[a[i] - lo]``; returns the first index whose value has no code (-1 if none)."""
    bad = -1
    n = lut.shape[0]
    for i in range(a.shape[0]):
        j = np.int64(a[i]) - lo
        if j < 0 or j >= n:
            out[i] = -1
            if bad < 0:
                bad = i
            continue
        c = lut[j]
        out[i] = c
        if c < 0 and bad < 0:
            bad = i
    return bad
