"""Recording the alarms of the detector kernels, written once for all of them.

An alarm is kept as its absolute 0-based instance index in a buffer ``det_idx`` of
``cap = det_idx.shape[2]`` slots per (row, setting); ``det_n`` counts every alarm, also those beyond
``cap``, so the numpy layer sees an overflow (``count > cap``) and reruns the chunk with a larger
buffer (:func:`streamtk.drift._common.run_with_capacity`).
"""

from __future__ import annotations

import numba

__all__ = ["record_alarm"]


@numba.njit(cache=True, inline="always")
def record_alarm(rec, r, q, index):
    """Append alarm ``index`` to row ``r``, setting ``q`` of ``rec = (det_idx, det_n)`` (dropped, but counted,
    once the buffer is full)."""
    det_idx, det_n = rec
    c = det_n[r, q]
    if c < det_idx.shape[2]:
        det_idx[r, q, c] = index
    det_n[r, q] = c + 1
