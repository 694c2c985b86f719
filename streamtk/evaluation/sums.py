"""numpy layer of the scalar-sums family (:mod:`streamtk._kernels.sums`): state, chunks, finalisation.

:class:`SumsEngine` runs groups of value rows (a loss stream, or two models' losses) through
every estimator, chunk by chunk with identical results to one pass, and finalises the sums table
(``S_A, S_B, U, V, N``: :mod:`streamtk._core.metrics.comparison`) at the checkpoints straight into
the callers' outputs: each :class:`SumsJob` says which groups of the table its metrics read and
which output rows they fill. ADWIN windows of a group are those of an ADWIN run on the group's
values (on ``x_a - x_b`` for a pair of different rows). Used by
:func:`streamtk.evaluation.losses.loss_curves` and friends and by :func:`streamtk.compare`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._core.adwin import LossAdwins
from .._core.alloc import Scratch, output_array
from .._core.chunks import ChunkHistory, CurveRows, EstimatorTable, oldest
from .._core.finalise import Finaliser, use_compiled
from .._core.mechanisms import checkpoints, segments
from .._core.metrics.bounds import squared_sum_fading
from .._core.metrics.comparison import SW2, SWAP, TABLE, SumsContext
from .._core.parallel import in_parallel
from .._kernels import sums as K

__all__ = ["SumsEngine", "SumsJob", "sums_job", "raw_sums"]

#: floats of table (sums and intermediates) per segment: a chunk is cut into segments whose tables stay in
#: the cache between the kernel that writes them and the formulas that read them
SNAPSHOT_BUDGET = 1 << 18


class SumsJob(NamedTuple):
    """Metrics of the sums table over the groups ``groups`` (a slice of the table's series) into the output
    rows ``rows``; ``swap``: read the table of the pair (B, A); ``copies``: ``{output: table row}`` written
    as they are (e.g. the member count ``N``); ``n_from``: groups (a slice as long as ``groups``) whose sum
    ``S_A`` is the weight total ``N`` of the job's groups (bootstrap replicates: the sum of their weights)."""

    finaliser: Finaliser
    groups: slice
    rows: np.ndarray
    swap: bool = False
    copies: dict = {}
    n_from: slice | None = None


def sums_job(metrics, groups: slice, rows, *, swap: bool = False, copies=None, n_from=None) -> SumsJob:
    """A :class:`SumsJob` of registry ``metrics`` (of the sums table)."""
    return SumsJob(
        Finaliser(TABLE, metrics), groups, np.asarray(rows, dtype=np.int64), swap, dict(copies or {}), n_from
    )


def raw_sums(G: int) -> dict:
    """``jobs`` and ``outputs`` of a :class:`SumsEngine` whose outputs are the sums themselves (named by
    :data:`streamtk._kernels.sums.FIELDS`, ``(G, E, C)`` each): what the kernel's tests compare."""
    copies = {name: row for row, name in enumerate(K.FIELDS)}
    return {
        "jobs": [sums_job([], slice(0, G), np.arange(G), copies=copies)],
        "outputs": {name: (G, np.dtype(np.float64)) for name in K.FIELDS},
    }


class SumsEngine:
    """Sums of ``G`` groups of rows under the estimators ``specs``, chunk by chunk, finalised by ``jobs``.

    ``outputs``: ``{name: (rows, dtype)}``, the arrays the jobs fill (``(rows, E, checkpoints)``);
    ``threshold``: the critical value of the McNemar statistic (comparisons); ``z``: the normal quantile of
    analytic bands (their formulas read the sum of squared weights, row ``SW2``, which the engine writes:
    ``N`` for mechanisms whose weights are 0 or 1, the closed form of a fading factor's); ``reduce``: applied to
    each chunk's outputs before they are kept (bootstrap replicates); ``adwin_of``: the group whose values
    drive each group's ADWIN (default: its own).
    """

    def __init__(
        self,
        specs,
        every: int,
        adwin_options: dict,
        *,
        jobs=(),
        outputs=None,
        threshold=0.0,
        fast_paths=True,
        z=float("nan"),
        reduce=None,
        adwin_of=None,
    ):
        self.estimators = EstimatorTable(specs)
        self.specs = self.estimators.specs
        self.fast_paths = bool(fast_paths)  # False: the kernel's general loops only (the oracle of its fast paths)
        self.binary = True  # every value so far is 0 or 1 (as the callers declare)
        self.every = every
        self.adwin_options = adwin_options
        self.jobs = list(jobs)
        self.outputs = dict(outputs or {})
        self.context = SumsContext(float(threshold), float(z))
        self.squares = any(m.squares for job in self.jobs for m in job.finaliser.metrics)
        self.F = len(K.FIELDS) + (1 if self.squares else 0)
        self.reduce = reduce
        self.adwin_of = None if adwin_of is None else np.asarray(adwin_of, dtype=np.int64)
        self.rows = CurveRows(every)
        self._tables = (Scratch(), Scratch())  # the segments' sums and intermediates
        self.G = None
        self.n_seen = 0

    def _allocate_rows(self, C):
        E = len(self.estimators)
        return {name: output_array((R, E, C), dtype) for name, (R, dtype) in self.outputs.items()}

    def _allocate(self, groups, R):
        self.groups = np.ascontiguousarray(groups, dtype=np.int64)
        self.G = self.groups.shape[0]
        E = len(self.estimators)
        self.sf = np.zeros((self.G, E, K.N_FLOAT))
        self.sf[..., K.SCALE] = 1.0
        self.si = np.zeros((self.G, E, K.N_INT), dtype=np.int64)
        deltas = self.estimators.deltas
        if self.adwin_of is None:
            self.adwin_of = np.arange(self.G, dtype=np.int64)
        self._sources = np.unique(self.adwin_of)
        n_adwin = self._sources.size
        self.adwins = LossAdwins(n_adwin, deltas, self.adwin_options) if deltas.size else None
        self.history = ChunkHistory(x=np.zeros((R, 0)), member=None)
        self.R = R

    def update(self, x, groups, member=None, *, last=False, binary=False):
        """Process a chunk: ``x (R, T)`` values, ``groups (G, 2)`` row pairs, ``member (T,)`` bool or None.

        ``binary=True`` declares that every value of ``x`` at the members is 0 or 1 (0-1 losses): while
        every chunk so far was, the kernel's windows need not count their non-zero members. Returns the
        absolute positions of the chunk's checkpoints.
        """
        R, T = x.shape
        if self.G is None:
            self._allocate(groups, R)
        elif R != self.R or not np.array_equal(groups, self.groups):
            raise ValueError("the rows and groups must be the same in every chunk")
        if T == 0:
            return np.zeros(0, dtype=np.int64)
        start = self.n_seen
        self.binary = self.binary and bool(binary)
        h = self.history.length
        kept = self.history.arrays["member"]
        dense = member is None and kept is None
        if not dense:  # members as uint8 over the kept history and the chunk
            old = kept if kept is not None else np.ones(h, dtype=np.uint8)
            new = np.ones(T, dtype=np.uint8) if member is None else np.asarray(member, dtype=np.uint8)
            self.history.arrays["member"] = old
            member = new
        joined = self.history.join(x=np.asarray(x, dtype=np.float64), member=member)
        xx = np.ascontiguousarray(joined["x"])
        mm = np.zeros(0, dtype=np.uint8) if dense else np.ascontiguousarray(joined["member"])
        limits = self._limits(xx, mm, h, h + T)
        pos = checkpoints(start, start + T, self.every, last=True)
        E = len(self.estimators)
        outs = self._allocate_rows(pos.size)
        compiled = use_compiled(self.G * E * pos.size)
        span = (np.int64(self.history.start), np.int64(h))
        est = self.estimators
        mech = est.mechanisms()
        per_ck = self.G * E * (self.F + 1)
        c0 = 0
        for s0, s1, sel in segments(pos - start, T, per_ck, budget=SNAPSHOT_BUDGET, max_segment=max(T, 1)):
            ck = pos[sel] - start + h
            snap = self._tables[0].array((self.G, E, self.F, ck.size))
            t1 = h + s1
            xs = xx[:, :t1]
            ms = mm[:t1] if mm.size else mm
            lim = limits[:, :, s0:s1]  # the kernel reads them from its first position on

            def run(lo, hi):
                K.run(
                    xs,
                    self.groups[lo:hi],
                    ms,
                    mech + (lim[lo:hi], est.aslot),
                    (self.sf[lo:hi], self.si[lo:hi]),
                    (span[0], np.int64(h + s0)),
                    ck,
                    snap[lo:hi],
                    (self.fast_paths, self.binary),
                )

            in_parallel(run, self.G)
            if self.squares:
                self._fill_squares(snap)
            self._finalise(snap, outs, c0, compiled)
            c0 += ck.size
        if self.reduce is not None:
            outs = self.reduce(outs)
        self.rows.store(pos, outs, last=last)
        self.n_seen = start + T
        if not last:
            self._keep_history(xx, mm)
        return pos

    def _fill_squares(self, snap):
        """Row ``SW2``: the sum of squared weights of the members held (every member weighs 1 here)."""
        fading = self.estimators.fading
        for e in range(snap.shape[1]):
            n = snap[:, e, K.SN]
            snap[:, e, SW2] = n if fading[e] == 1.0 else squared_sum_fading(n, fading[e])

    def _finalise(self, snap, outs, c0, compiled):
        for job in self.jobs:
            table = snap[job.groups]
            if job.n_from is not None:
                table = table.copy()
                table[:, :, K.SN] = snap[job.n_from, :, K.SA]
            if job.swap:
                table = np.ascontiguousarray(table[:, :, list(SWAP[: self.F])])
            L, E, _, C = table.shape
            fin = job.finaliser
            vals = fin.scratch(L, E, C, into=self._tables[1])
            fin.run(table, vals, self.context, outs, c0, compiled=compiled, rows=job.rows)
            for name, row in job.copies.items():
                outs[name][job.rows, :, c0 : c0 + C] = table[:, :, row, :]

    def _limits(self, xx, mm, t0, t1):
        """ADWIN widths ``(G, EA, t1 - t0)`` after each member (an ADWIN per group on its values)."""
        if self.adwins is None:
            return np.zeros((self.G, 1, 0), dtype=np.int64)
        out = np.zeros((self._sources.size, self.estimators.deltas.size, t1 - t0), dtype=np.int64)
        member = np.ones(t1 - t0, dtype=bool) if mm.size == 0 else mm[t0:t1].astype(bool)
        for i, g in enumerate(self._sources):
            a, b = self.groups[g]
            values = xx[a, t0:t1] if a == b else xx[a, t0:t1] - xx[b, t0:t1]
            self.adwins.limits(member, values, i, out[i])
        return out[np.searchsorted(self._sources, self.adwin_of)]

    def _keep_history(self, xx, mm):
        """Keep the values some window still reads back (windows and ADWIN windows: from their oldest tail)."""
        end = self.history.start + xx.shape[1]
        tails = self.si[:, self.estimators.sliding, K.TAIL]
        self.history.keep(oldest(tails, end), {"x": xx, "member": mm if mm.size else None})

    def collect(self):
        """Every checkpoint row plus the latest instance: ``(positions, {name: (rows, E, C)})``."""
        if self.G is None or self.n_seen == 0:
            raise ValueError("nothing was processed yet")
        return self.rows.collect()
