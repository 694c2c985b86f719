"""The series of an evaluation (models, folds, runs) on threads: the kernels release the GIL."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

__all__ = ["in_parallel"]


def in_parallel(run, L: int) -> None:
    """Call ``run(lo, hi)`` on contiguous groups of the ``L`` series, one thread each.

    The kernels release the GIL (``nogil=True``), so the groups run in parallel on
    ``numba.config.NUMBA_NUM_THREADS`` threads (``NUMBA_NUM_THREADS=1``: one core). Threads
    instead of numba's ``prange`` keep the compile time down.
    """
    nthreads = max(1, min(int(numba.config.NUMBA_NUM_THREADS), L))
    if nthreads == 1:
        run(0, L)
        return
    bounds = np.linspace(0, L, nthreads + 1).round().astype(int)
    with ThreadPoolExecutor(max_workers=nthreads) as pool:
        futures = [pool.submit(run, int(lo), int(hi)) for lo, hi in zip(bounds[:-1], bounds[1:]) if hi > lo]
        for f in futures:
            f.result()
