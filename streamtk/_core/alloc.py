"""Allocation of the numpy layer's arrays where their placement in memory matters."""

from __future__ import annotations

import mmap

import numpy as np

__all__ = ["CACHE_LINE", "line_aligned_zeros", "output_array", "Scratch", "SMALL_PAGES_BYTES"]

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


#: outputs of at least this many bytes get small pages (:func:`output_array`)
SMALL_PAGES_BYTES = 1 << 27


def output_array(shape, dtype=np.float64) -> np.ndarray:
    """An uninitialised array for curves that a finaliser fills segment by segment, in many outputs at once.

    ``np.empty`` asks the kernel for transparent huge pages for arrays of 4 MB and more; written a segment
    at a time, interleaved with the other outputs and the segments' tables, a huge page's first write can
    stall on compaction. On Linux an output of at least :data:`SMALL_PAGES_BYTES` is therefore mapped with
    small pages (``mmap``, ``MADV_NOHUGEPAGE``). Measured (8 metrics x 6 estimators at every instance,
    10**7 instances, 3.8 GB of curves): 4.3 s with small pages, 7.2-7.7 s with huge pages (of which 3.5 s
    in the kernel); at 10**6 instances huge pages are faster (0.34 s against 0.42 s). The memory is
    released with the array.
    """
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    small = getattr(mmap, "MADV_NOHUGEPAGE", None)
    if small is None or nbytes < SMALL_PAGES_BYTES:
        return np.empty(shape, dtype=dtype)
    try:
        buf = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        buf.madvise(small)
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no such mapping here
        return np.empty(shape, dtype=dtype)
    return np.frombuffer(buf, dtype=dtype).reshape(shape)


class Scratch:
    """A buffer reused for arrays of varying shape (the tables of successive segments): a segment's table is
    a view of it, so that its pages are faulted once per evaluation, not once per segment."""

    def __init__(self):
        self._buf = np.empty(0)

    def array(self, shape) -> np.ndarray:
        """An uninitialised float64 array of ``shape`` (a view of the buffer, valid until the next call)."""
        n = int(np.prod(shape, dtype=np.int64))
        if self._buf.size < n:
            self._buf = np.empty(n)
        return self._buf[:n].reshape(shape)

    def __getstate__(self):  # a pickled engine carries no scratch
        return {}

    def __setstate__(self, state):
        self._buf = np.empty(0)
