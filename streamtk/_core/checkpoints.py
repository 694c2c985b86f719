"""The checkpoint rules: where curves are read (``every``), its default spacing, and the segments engines run.

One place for ``(pos + 1) % every == 0 or pos == last`` and for how far a segment of checkpoints may reach;
:mod:`streamtk._core.mechanisms` re-exports these names.
"""

from __future__ import annotations

import math

import numpy as np

from .validation import check_positive_int

__all__ = [
    "MAX_CHECKPOINTS",
    "MAX_OUTPUT_VALUES",
    "default_every",
    "resolve_every",
    "is_checkpoint",
    "checkpoint_positions",
    "checkpoints",
    "segments",
]

#: the default spacing of checkpoints keeps at most about this many per curve
MAX_CHECKPOINTS = 10_000


#: the default spacing keeps the output below about this many values (80 MB of float64)
MAX_OUTPUT_VALUES = 10_000_000


def default_every(n: int, per_checkpoint: int = 1) -> int:
    """The default checkpoint spacing for a stream of ``n`` instances.

    Rule: the smallest spacing among ``1, 2, 5 x 10^j`` that gives at most 10,000 checkpoints
    (plus the last instance) and at most 10^7 output values per series (model, fold, run), when
    each checkpoint of a series holds ``per_checkpoint`` values (estimators x metrics, a transition
    matrix...). Short streams get every instance; a default output never exceeds about 80 MB per
    series, whatever the stream length. The rule does not depend on the number of series, so
    blocks of series (dask) get the same checkpoints as the whole.
    """
    n = int(n)
    cap = max(1, min(MAX_CHECKPOINTS, MAX_OUTPUT_VALUES // max(1, int(per_checkpoint))))
    if n <= cap:
        return 1
    target = n / cap
    exp = 10 ** math.floor(math.log10(target))
    for mult in (1, 2, 5, 10):
        if mult * exp >= target:
            return int(mult * exp)
    return int(10 * exp)  # pragma: no cover


def resolve_every(every, n: int | None, *, per_checkpoint: int = 1, name: str = "every") -> int:
    """``every`` as given (a positive int), or :func:`default_every` of ``n`` when it is None.

    An explicit ``every`` whose output could not fit in memory (more than half of this machine's
    physical memory for ``n`` instances and ``per_checkpoint`` values per checkpoint) is refused up
    front, naming ``every`` and the size.
    """
    if every is None:
        if n is None:
            raise ValueError(
                f"{name}=None (automatic) needs the stream length: pass {name}= explicitly, or n_instances= "
                "when the stream arrives in chunks"
            )
        return default_every(n, per_checkpoint)
    every = check_positive_int(every, name)
    if n is not None:
        values = (int(n) // every + 1) * max(1, int(per_checkpoint))
        limit = _memory_bytes() // 2
        if values * 8 > limit:
            raise ValueError(
                f"{name}={every} over {int(n):,} instances would produce {values:,} output values "
                f"({values * 8 / 2**30:,.1f} GiB), more than half of this machine's memory "
                f"({2 * limit / 2**30:,.1f} GiB): pass a larger {name}"
            )
    return every


def _memory_bytes() -> int:
    """This machine's physical memory in bytes (a large number where it cannot be read)."""
    try:
        import os

        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return 1 << 50


def is_checkpoint(pos, every: int):
    """Whether 0-based position(s) ``pos`` are regular checkpoints: every ``every``-th instance."""
    return (np.asarray(pos) + 1) % every == 0


def checkpoint_positions(start: int, stop: int, every: int) -> np.ndarray:
    """0-based positions ``p`` in ``[start, stop)`` with ``(p + 1) % every == 0``."""
    first = ((start // every) + 1) * every - 1
    if first < start:
        first += every
    return np.arange(first, stop, every, dtype=np.int64)


def checkpoints(start: int, stop: int, every: int, *, last: bool) -> np.ndarray:
    """The checkpoints of ``[start, stop)``: every ``every``-th instance, and ``stop - 1`` when ``last``.

    This is the one checkpoint rule: every curve has a point at each multiple of ``every``
    (1-based ``instance``) and at the end of the stream.
    """
    pos = checkpoint_positions(start, stop, every)
    if last and stop > start and (pos.size == 0 or pos[-1] != stop - 1):
        pos = np.append(pos, np.int64(stop - 1))
    return pos


def segments(rel: np.ndarray, T: int, per_checkpoint: int, *, budget: int, max_segment: int):
    """Split a chunk of ``T`` positions into segments ``[s0, s1)`` that bound the scratch memory.

    Yields ``(s0, s1, selector)``: a segment holds at most ``max_segment`` positions and at most
    ``budget // per_checkpoint`` of the checkpoints ``rel`` (sorted, chunk-relative); ``selector`` is
    the slice of ``rel`` inside the segment. The one segmentation rule of the engines.
    """
    max_ck = max(1, budget // max(1, per_checkpoint))
    s0, lo = 0, 0
    while s0 < T:
        s1 = min(T, s0 + max_segment)
        hi = int(np.searchsorted(rel, s1, side="left"))
        if hi - lo > max_ck:
            hi = lo + max_ck
            s1 = int(rel[hi - 1]) + 1
        yield s0, s1, slice(lo, hi)
        s0, lo = s1, hi
