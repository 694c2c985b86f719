"""What every engine of the numpy layer shares: the estimator table, the kept history, the curve rows.

* :class:`EstimatorTable`: the estimators of an evaluation as the kernels read them (mechanism codes,
  sizes, fading factors, landmarks), which of them slide, and their slots among the sliding and the
  ADWIN estimators.
* :class:`ChunkHistory`: the inputs a chunked evaluation keeps for its sliding windows, whose
  leaving members the kernels read back (from the oldest window tail on).
* :class:`CurveRows`: the rows of a chunked evaluation's curves: every regular checkpoint (every
  ``every``-th instance, :func:`.mechanisms.checkpoints`), and the latest instance apart until the
  stream ends or a later chunk passes it.
"""

from __future__ import annotations

import numpy as np

from .._kernels.forgetting import ADWIN, EWMA, SLIDING
from .mechanisms import is_checkpoint, kernel_arrays

__all__ = ["EstimatorTable", "ChunkHistory", "CurveRows"]


class EstimatorTable:
    """The estimators ``specs`` as arrays: ``kinds``, ``sizes``, ``fading``, ``marks``, ``mark_off``
    (:func:`.mechanisms.kernel_arrays`), ``sliding`` (bool per estimator), ``hslot`` / ``aslot`` (slot
    among the sliding / ADWIN estimators, -1 for the others), ``adwin`` (indices of the ADWIN estimators)
    and ``deltas`` (their confidences)."""

    def __init__(self, specs):
        self.specs = list(specs)
        self.kinds, self.sizes, self.fading, self.marks, self.mark_off = kernel_arrays(self.specs)
        self.sliding = np.isin(self.kinds, SLIDING)
        self.adwin = np.flatnonzero(self.kinds == ADWIN).astype(np.int64)
        self.hslot = np.full(len(self.specs), -1, dtype=np.int64)
        self.hslot[self.sliding] = np.arange(int(self.sliding.sum()))
        self.aslot = np.full(len(self.specs), -1, dtype=np.int64)
        self.aslot[self.adwin] = np.arange(self.adwin.size)
        self.deltas = np.array([self.specs[e].param for e in self.adwin], dtype=np.float64)
        #: each EWMA's smoothing factor itself (0 for the others): MOA's kernels read ``a``, not ``1 - a``
        self.smoothing = np.array([s.param if s.kind == "ewma" else 0.0 for s in self.specs], dtype=np.float64)

    def __len__(self) -> int:
        return len(self.specs)

    @property
    def max_window(self) -> int:
        """The largest sliding window (0 if none): how much history a chunked evaluation keeps at most."""
        return max([s.param for s in self.specs if s.kind == "window"], default=0)

    def mechanisms(self) -> tuple:
        """``(kinds, sizes, fading, marks, mark_off)``: the mechanism arrays every kernel reads."""
        return self.kinds, self.sizes, self.fading, self.marks, self.mark_off

    def moa_factors(self) -> np.ndarray:
        """The ``fading`` array of MOA's kernels: fading factors, and each EWMA's smoothing factor ``a`` itself."""
        return np.where(self.kinds == EWMA, self.smoothing, self.fading)


class ChunkHistory:
    """Inputs kept between chunks, from absolute stream position :attr:`start` on (time is their last axis)."""

    def __init__(self, **empty):
        self.start = 0
        self.arrays = dict(empty)

    @property
    def length(self) -> int:
        """How many positions are kept."""
        return next(iter(self.arrays.values())).shape[-1] if self.arrays else 0

    def join(self, **chunk) -> dict:
        """The kept inputs followed by the chunk's (no copy when nothing is kept); ``None`` stays ``None``."""
        h = self.length
        out = {}
        for name, new in chunk.items():
            old = self.arrays.get(name)
            out[name] = new if (new is None or old is None or h == 0) else np.concatenate([old, new], axis=-1)
        return out

    def keep(self, keep_from: int, joined: dict) -> None:
        """Keep ``joined`` (positions :attr:`start` on) from absolute position ``keep_from`` on (copies)."""
        cut = int(keep_from) - self.start
        if cut < 0:
            raise ValueError(f"cannot keep from position {keep_from}: the history starts at {self.start}")
        self.arrays = {name: None if a is None else a[..., cut:].copy() for name, a in joined.items()}
        self.start = int(keep_from)


def oldest(tails, end: int) -> int:
    """The oldest absolute position some sliding window still reads (``end`` when there is none)."""
    tails = np.asarray(tails)
    return int(min(end, tails.min())) if tails.size else int(end)


class CurveRows:
    """The output rows of a (possibly chunked) evaluation.

    A chunk's rows are its checkpoints (:func:`.mechanisms.checkpoints` with ``last=True``): the
    regular ones (every ``every``-th instance) are kept in pieces; its last instance, when it is not a
    regular checkpoint, is kept apart as the *tail* (the latest row of the curves), replaced by the next
    chunk's, and included in :meth:`collect` (and in :meth:`drain` once the stream ended). Outputs are
    ``{name: (L, E, C, ...)}``, time on axis 2. A CurveRows holds no reference to its engine, so that the
    outputs are released as soon as the last array that shows them is.
    """

    def __init__(self, every: int):
        self.every = int(every)
        self.pieces = []
        self.tail = None
        self._empty = None

    def store(self, pos: np.ndarray, outs: dict, *, last: bool) -> None:
        """Keep a chunk's rows (``pos``: their absolute positions; ``last``: the stream ended there)."""
        if self._empty is None:
            self._empty = {name: np.empty(a.shape[:2] + (0,) + a.shape[3:], a.dtype) for name, a in outs.items()}
        if last or pos.size == 0 or is_checkpoint(pos[-1], self.every):
            self.pieces.append((pos, outs))
            self.tail = None
            return
        self.pieces.append((pos[:-1], {name: a[:, :, :-1] for name, a in outs.items()}))
        self.tail = (pos[-1:], {name: a[:, :, -1:] for name, a in outs.items()})

    def _rows(self, pieces, tail):
        pieces = [pc for pc in pieces + ([tail] if tail is not None else []) if pc[0].size]
        if not pieces:
            return np.zeros(0, dtype=np.int64), dict(self._empty or {})
        if len(pieces) == 1:
            return pieces[0]
        return np.concatenate([pc[0] for pc in pieces]), {
            name: np.concatenate([pc[1][name] for pc in pieces], axis=2) for name in pieces[0][1]
        }

    def collect(self):
        """Every row so far, with the latest instance: ``(positions, {name: array})``."""
        return self._rows(self.pieces, self.tail)

    def drain(self, *, final: bool):
        """The rows stored since the last drain (then dropped), with the latest instance when ``final``."""
        pieces, self.pieces = self.pieces, []
        return self._rows(pieces, self.tail if final else None)
