"""numpy layer of the scalar-sums family (:mod:`streamtk._kernels.sums`): state, chunks, checkpoints.

:class:`SumsEngine` runs groups of value rows (a loss stream, or two models' losses) through
every estimator, chunk by chunk with identical results to one pass, and returns the raw sums
``S_A, S_B, U, V, N`` at the checkpoints. ADWIN windows of a group are those of an ADWIN run on
the group's values (on ``x_a - x_b`` for a pair of different rows). Used by
:func:`streamtk.evaluation.losses.loss_curves` and friends and by :func:`streamtk.compare`.
"""

from __future__ import annotations

import numpy as np

from .._core.mechanisms import checkpoints, kernel_arrays
from .._kernels import sums as K
from .._kernels.forgetting import ADWIN, WINDOW
from .adwin_windows import LossAdwins
from .engine import in_parallel

__all__ = ["SumsEngine"]


class SumsEngine:
    """Sums of ``G`` groups of rows under the estimators ``specs``, chunk by chunk."""

    def __init__(self, specs, every: int, adwin_options: dict, *, fast_paths: bool = True):
        self.specs = specs
        self.fast_paths = bool(fast_paths)  # False: the kernel's general loops only (the oracle of its fast paths)
        self.binary = True  # every value so far is 0 or 1 (as the callers declare)
        self.every = every
        self.kinds, self.sizes, self.fading, self.marks, self.mark_off = kernel_arrays(specs)
        adwin = [i for i, s in enumerate(specs) if s.kind == "adwin"]
        self.aslot = np.full(len(specs), -1, dtype=np.int64)
        self.aslot[adwin] = np.arange(len(adwin))
        self.deltas = np.array([specs[i].param for i in adwin], dtype=np.float64)
        self.adwin_options = adwin_options
        self.max_window = max([s.param for s in specs if s.kind == "window"], default=0)
        self.G = None
        self.n_seen = 0
        self._pieces = []

    def _allocate(self, groups, R):
        self.groups = np.ascontiguousarray(groups, dtype=np.int64)
        self.G = self.groups.shape[0]
        E = len(self.specs)
        self.sf = np.zeros((self.G, E, K.N_FLOAT))
        self.sf[..., K.SCALE] = 1.0
        self.si = np.zeros((self.G, E, K.N_INT), dtype=np.int64)
        self.adwins = LossAdwins(self.G, self.deltas, self.adwin_options) if self.deltas.size else None
        self.hist_start = 0
        self.h_x = np.zeros((R, 0))
        self.h_member = np.zeros(0, dtype=np.uint8)
        self.R = R

    def update(self, x, groups, member=None, *, last=False, binary=False):
        """Process a chunk: ``x (R, T)`` values, ``groups (G, 2)`` row pairs, ``member (T,)`` bool or None.

        ``binary=True`` declares that every value of ``x`` at the members is 0 or 1 (0-1 losses): while
        every chunk so far was, the kernel's windows need not count their non-zero members.
        """
        R, T = x.shape
        if self.G is None:
            self._allocate(groups, R)
        elif R != self.R or not np.array_equal(groups, self.groups):
            raise ValueError("the rows and groups must be the same in every chunk")
        if T == 0:
            return
        start = self.n_seen
        self.binary = self.binary and bool(binary)
        h = self.h_x.shape[1]
        xx = np.ascontiguousarray(np.concatenate([self.h_x, x], axis=1) if h else x, dtype=np.float64)
        dense = member is None and self.h_member.size == 0
        if dense:
            mm = np.zeros(0, dtype=np.uint8)
        else:
            new = np.ones(T, dtype=np.uint8) if member is None else np.asarray(member, dtype=np.uint8)
            old = self.h_member if self.h_member.size == h else np.ones(h, dtype=np.uint8)
            mm = np.concatenate([old, new])
        limits = self._limits(xx, mm, h, h + T)
        pos = checkpoints(start, start + T, self.every, last=True)
        ck = pos - start + h
        E = len(self.specs)
        snap = np.empty((self.G, E, ck.size, 5))
        mech_fixed = (self.kinds, self.sizes, self.fading, self.marks, self.mark_off)
        span = (np.int64(self.hist_start), np.int64(h))

        def run(lo, hi):
            K.run(
                xx,
                self.groups[lo:hi],
                mm,
                mech_fixed + (limits[lo:hi], self.aslot),
                (self.sf[lo:hi], self.si[lo:hi]),
                span,
                ck,
                snap[lo:hi],
                (self.fast_paths, self.binary),
            )

        in_parallel(run, self.G)
        self._pieces.append((pos, snap))
        self.n_seen = start + T
        if not last:
            self._keep_history(xx, mm)

    def _limits(self, xx, mm, t0, t1):
        """ADWIN widths ``(G, EA, t1 - t0)`` after each member (an ADWIN per group on its values)."""
        if self.adwins is None:
            return np.zeros((self.G, 1, 0), dtype=np.int64)
        out = np.zeros((self.G, self.deltas.size, t1 - t0), dtype=np.int64)
        member = np.ones(t1 - t0, dtype=bool) if mm.size == 0 else mm[t0:t1].astype(bool)
        for g, (a, b) in enumerate(self.groups):
            values = xx[a, t0:t1] if a == b else xx[a, t0:t1] - xx[b, t0:t1]
            self.adwins.limits(member, values, g, out[g])
        return out

    def _keep_history(self, xx, mm):
        win = self.kinds == WINDOW
        end = self.hist_start + xx.shape[1]
        tails = self.si[:, win, K.TAIL]
        keep_from = int(tails.min()) if tails.size else end
        if (self.kinds == ADWIN).any():  # ADWIN windows read their leaving members back: keep their tails too
            keep_from = min(keep_from, int(self.si[:, self.kinds == ADWIN, K.TAIL].min()))
        cut = keep_from - self.hist_start
        self.h_x = xx[:, cut:].copy()
        self.h_member = mm[cut:].copy() if mm.size else np.zeros(0, dtype=np.uint8)
        self.hist_start = keep_from

    def _rows(self, pieces, last):
        positions, raws = [], []
        for pos, snap in pieces:
            keep = ((pos + 1) % self.every == 0) | (pos == last)
            positions.append(pos[keep])
            raws.append(snap[:, :, keep])
        if not positions:
            return np.zeros(0, dtype=np.int64), np.zeros((self.G, len(self.specs), 0, 5))
        return np.concatenate(positions), np.concatenate(raws, axis=2)

    def collect(self):
        """Every checkpoint row plus the latest instance: ``(positions, raw (G, E, C, 5))``."""
        if self.G is None or self.n_seen == 0:
            raise ValueError("nothing was processed yet")
        return self._rows(self._pieces, self.n_seen - 1)
