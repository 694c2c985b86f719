"""Allocation of the numpy layer's arrays where their placement in memory matters."""

from __future__ import annotations

import mmap

import numpy as np

__all__ = ["CACHE_LINE", "line_aligned_zeros", "output_array", "POPULATE_BYTES"]

#: byte alignment of the interleaved trees: a cache line, so no node of ``2 x 2`` floats straddles two
CACHE_LINE = 64


def line_aligned_zeros(shape) -> np.ndarray:
    """``np.zeros(shape)`` (float64, C order) starting on a cache line.

    ``malloc`` aligns to 16 bytes only. The interleaved tree of two estimators has 32-byte nodes
    and its walks visit mostly even positions; when the array starts 48 bytes into a line, those
    nodes straddle two lines. Measured (binary kernel alone, prequential + fading, 10**6 distinct
    scores, median of 7 alternating calls in one process, three processes): 193-221 ms at offset
    48, 94-126 ms at offsets 0, 16 and 32 - before, one evaluation in four ran on the slow layout.
    """
    n = int(np.prod(shape))
    buf = np.zeros(n + CACHE_LINE // 8)
    skip = (-buf.ctypes.data % CACHE_LINE) // 8
    return buf[skip : skip + n].reshape(shape)


#: outputs of at least this many bytes are allocated with their pages mapped up front (:func:`output_array`)
POPULATE_BYTES = 1 << 26


def output_array(shape, dtype=np.float64) -> np.ndarray:
    """An uninitialised array for curves that a finaliser fills segment by segment, in many places at once.

    On Linux, an array of at least :data:`POPULATE_BYTES` has its pages mapped when it is allocated
    (``mmap`` with ``MAP_POPULATE``: the kernel zeroes them in one sweep), instead of one page fault per
    page while the segments are written, spread over every output array. Elsewhere, and for smaller
    arrays, ``np.empty``. The memory is released with the array.
    """
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    flag = getattr(mmap, "MAP_POPULATE", None)
    if flag is None or nbytes < POPULATE_BYTES:
        return np.empty(shape, dtype=dtype)
    try:
        buf = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | flag)
    except (OSError, ValueError):  # pragma: no cover - no such mapping here: the allocator's memory
        return np.empty(shape, dtype=dtype)
    return np.frombuffer(buf, dtype=dtype).reshape(shape)
