"""numpy layer of the regression and prediction-interval families: state, chunks, kernels, finalisation.

:class:`RegressionEngine` runs ``M`` models' predictions of ``nt`` targets (series ``l = model * nt + target``)
through every estimator, chunk by chunk with the results of one pass, and finalises the family's table
(:mod:`streamtk._core.metrics.regression` or :mod:`~streamtk._core.metrics.intervals`) at the checkpoints
straight into the outputs. Kernels: :mod:`streamtk._kernels.regression.kernel` (default convention) and
:mod:`~streamtk._kernels.regression.moa` (MOA's evaluators). Between chunks the engine keeps the inputs a
sliding window still holds (from its oldest tail), the members since the last restart of a tumbling or landmark
estimator when the median is asked (a restart empties its tree exactly by reading them back), the keys of the
median (the sorted distinct ``|e|`` seen so far: a chunk with new values moves the trees to the larger key
space, :func:`streamtk._kernels.fenwick.rekey`), and one ADWIN per series and ADWIN estimator, run on the
series' absolute errors (regression) or interval misses ``1 - [lower <= y <= upper]`` (intervals).
"""

from __future__ import annotations

import numpy as np

from .._core.adwin import LossAdwins
from .._core.alloc import Scratch, output_array
from .._core.chunks import ChunkHistory, CurveRows, EstimatorTable, oldest
from .._core.finalise import Finaliser, use_compiled
from .._core.mechanisms import checkpoints, segments
from .._core.parallel import in_parallel
from .._kernels.forgetting import RESTARTING
from .._kernels.regression import layout as LY

__all__ = ["RegressionEngine", "SNAPSHOT_BUDGET"]

#: floats of table per segment (statistics and intermediates stay in the cache between kernel and formulas)
SNAPSHOT_BUDGET = 1 << 19


class RegressionEngine:
    """One (possibly chunked) evaluation of ``M`` models' predictions of ``nt`` targets.

    ``fam``: :data:`~streamtk._kernels.regression.layout.REG` or ``INT``; ``table`` and ``metrics``: the
    family's table and the registry entries to finalise; ``context``: the table's context; ``par``: the
    family's parameters (INT: ``2 / alpha`` then the quantile levels); ``median``: keep the trees of the
    weighted median; ``moa`` / ``incl``: MOA's kernels (``incl``: the multi-target relative evaluator's mean).
    ``count_row``: the row of target 0's block copied into ``n_instances``.
    """

    def __init__(self, specs, every, adwin_options, *, fam, table, metrics, context, nt=1, nq=0, par=(),
                 median=False, moa=False, incl=False, fast_paths=True):  # fmt: skip
        self.estimators = EstimatorTable(specs)
        self.specs = self.estimators.specs
        self.every = int(every)
        self.adwin_options = adwin_options
        self.fam, self.nt, self.nq = int(fam), int(nt), int(nq)
        self.par = np.asarray(par, dtype=np.float64) if len(par) else np.zeros(1)
        self.median, self.moa, self.incl = bool(median), bool(moa), bool(incl)
        #: point predictions run the fast path (their state in registers) unless False (the general loops: its oracle)
        self.fast_paths = bool(fast_paths)
        self.finaliser = Finaliser(table, metrics)
        self.context = context
        self.K = LY.n_quantities(self.fam, self.nq)
        self.J = LY.n_extrema(self.fam)
        self.F = LY.N_MOA_FIELDS if moa else LY.n_fields(self.K, self.J)
        self.count_row = (LY.M_TW if fam == LY.REG else LY.M_HELD) if moa else LY.F_N
        self.rows = CurveRows(every)
        self._tables = (Scratch(), Scratch())
        self.L = None
        self.n_seen = 0

    # ------------------------------------------------------------------ state
    def _allocate(self, L, P, weighted, masked):
        est = self.estimators
        E = len(est)
        self.L, self.P, self.weighted, self.masked = L, P, weighted, masked
        if self.moa:
            from .._kernels.regression.moa import I_DQ, N_STATE

            nf, ni = N_STATE, I_DQ + 4
        else:
            nf, ni = LY.state_sizes(self.K, self.J)
        self.sf = np.zeros((L, E, nf))
        if not self.moa:
            self.sf[:, :, self.K + LY.S_SCALE] = 1.0
        self.si = np.zeros((L, E, ni), dtype=np.int64)
        self.H = int(est.sliding.sum())
        self.dqv = np.zeros((L, max(self.H, 1), self.J, 1))
        self.dqp = np.zeros((L, max(self.H, 1), self.J, 1), dtype=np.int64)
        self.trees = np.zeros((L, E, 1))
        self.keys = np.zeros((L, 0))
        self.nkeys = np.zeros(L, dtype=np.int64)
        self.adwins = LossAdwins(L, est.deltas, self.adwin_options) if est.deltas.size else None
        self.history = ChunkHistory(
            ys=np.zeros((self.nt, 0)),
            ps=np.zeros((L, P, 0)),
            w=np.zeros((L, 0)) if weighted else None,
            mem=np.zeros((L, 0), dtype=np.uint8) if masked else None,
            bm=np.zeros((L, max(self.H, 1), 0)),
        )

    def _deques(self, need):
        """Deques of at least ``need`` slots, a power of two (their contents moved in order, heads at 0)."""
        cap = self.dqv.shape[3]
        if need <= cap:
            return
        need = 1 << int(need - 1).bit_length()
        L, H, J = self.dqv.shape[:3]
        vals = np.zeros((L, H, J, need))
        pos = np.zeros((L, H, J, need), dtype=np.int64)
        d0 = LY.I_NZ + self.K if not self.moa else 2
        sliding = np.flatnonzero(self.estimators.sliding)
        for l in range(L):
            for e in sliding:
                h = self.estimators.hslot[e]
                for j in range(J):
                    head, n = self.si[l, e, d0 + 2 * j], self.si[l, e, d0 + 2 * j + 1]
                    idx = (head + np.arange(n)) % cap
                    vals[l, h, j, :n] = self.dqv[l, h, j, idx]
                    pos[l, h, j, :n] = self.dqp[l, h, j, idx]
                    self.si[l, e, d0 + 2 * j] = 0
        self.dqv, self.dqp = vals, pos

    def _keys(self, abs_err, member):
        """The median's key space after a chunk: old keys plus the chunk's values; trees moved when it grew."""
        from .._kernels.fenwick import rekey

        L, E = self.L, len(self.estimators)
        new = []
        for l in range(L):
            vals = abs_err[l] if member is None else abs_err[l][member[l].astype(bool)]
            new.append(np.union1d(self.keys[l, : self.nkeys[l]], vals))
        D = max(max((k.size for k in new), default=0), 1)
        keys = np.full((L, D), np.inf)
        trees = np.zeros((L, E, D + 1))
        for l in range(L):
            keys[l, : new[l].size] = new[l]
            n_old = int(self.nkeys[l])
            if n_old:
                pos = np.searchsorted(new[l], self.keys[l, :n_old]).astype(np.int64)
                old = np.ascontiguousarray(self.trees[l, :, : n_old + 1].T)
                moved = np.zeros((D + 1, E))
                rekey(old, pos, moved)
                trees[l] = moved.T
            self.nkeys[l] = new[l].size
        self.keys, self.trees = keys, trees

    # ------------------------------------------------------------------ chunks
    def update(self, ys, ps, weights=None, member=None, *, last=False):
        """Process a chunk: targets ``ys (nt, T)``, prediction columns ``ps (L, P, T)`` (``L = M * nt``), weights
        ``(L, T)`` or None, members ``(L, T)`` bool or None (every position). Returns the chunk's checkpoints."""
        L, P, T = ps.shape
        if self.L is None:
            self._allocate(L, P, weights is not None, member is not None)
        elif (
            (L, P) != (self.L, self.P) or (weights is not None) != self.weighted or (member is not None) != self.masked
        ):
            raise ValueError("every chunk must have the same series, prediction columns, weights and member mask")
        start = self.n_seen
        if T == 0:
            return np.zeros(0, dtype=np.int64)
        h = self.history.length
        joined = self.history.join(
            ys=np.asarray(ys, dtype=np.float64),
            ps=np.asarray(ps, dtype=np.float64),
            w=None if weights is None else np.asarray(weights, dtype=np.float64),
            mem=None if member is None else np.asarray(member, dtype=np.uint8),
            bm=np.zeros((L, max(self.H, 1), T)),
        )
        arrays = {k: None if a is None else np.ascontiguousarray(a) for k, a in joined.items()}
        ysj, psj = arrays["ys"], arrays["ps"]
        trow = np.arange(L, dtype=np.int64) % self.nt
        wj = arrays["w"] if arrays["w"] is not None else np.zeros((L, 0))
        mj = arrays["mem"] if arrays["mem"] is not None else np.zeros((L, 0), dtype=np.uint8)
        est = self.estimators
        needs_loss = self.median or est.adwin.size
        loss = self._losses(ysj[trow], psj) if needs_loss else None
        limits = self._limits(loss, mj, h, h + T)
        if self.median:
            self._keys(loss[:, h:], None if arrays["mem"] is None else mj[:, h:])
            rk = np.empty((L, h + T), dtype=np.int64)
            for l in range(L):
                rk[l] = np.searchsorted(self.keys[l, : self.nkeys[l]], loss[l]) + 1
        else:
            rk = np.zeros((L, 0), dtype=np.int64)
        held = h + T if est.adwin.size else int(est.max_window)
        self._deques(held + 1)
        from .._kernels.regression.kernel import Inputs, Median, State

        inp = Inputs(ysj, psj, trow, wj, mj, rk, np.int64(self.fam), self.par)
        st = State(self.sf, self.si, arrays["bm"], self.dqv, self.dqp)
        med = Median(self.trees, self.keys) if self.median else None
        pos = checkpoints(start, start + T, self.every, last=True)
        M, E = L // self.nt, len(est)
        outs = self._allocate_rows(M, pos.size)
        compiled = use_compiled(M * E * pos.size)
        span0 = np.int64(self.history.start)
        per_ck = M * E * (self.nt * self.F + self.finaliser.n_intermediates)
        c0 = 0
        for s0, s1, sel in segments(pos - start, T, per_ck, budget=SNAPSHOT_BUDGET, max_segment=max(T, 1)):
            ck = pos[sel] - start + h
            snap = self._tables[0].array((M, E, self.nt * self.F, ck.size))
            t1 = h + s1
            self._run(inp, st, med, limits[:, :, s0:s1], (span0, np.int64(h + s0)), t1, ck, snap)
            vals = self.finaliser.scratch(M, E, ck.size, into=self._tables[1])
            self.finaliser.run(snap, vals, self.context, outs, c0, compiled=compiled)
            outs["n_instances"][:, :, c0 : c0 + ck.size] = snap[:, :, self.count_row, :]
            c0 += ck.size
        self.rows.store(pos, outs, last=last)
        self.n_seen = start + T
        if not last:
            self._keep_history(arrays)
        return pos

    def _run(self, inp, st, med, limits, span, t1, ck, snap):
        """Every estimator of every series over array positions ``[t_begin, t1)``, models in parallel."""
        from .._kernels.regression import kernel as K
        from .._kernels.regression import moa as KM

        if self.fast_paths and self.fam == LY.REG:
            from .._kernels.regression import point as K

        est = self.estimators
        nt = np.int64(self.nt)
        inp = inp._replace(ys=inp.ys[:, :t1], ps=inp.ps[:, :, :t1])
        for e in range(len(est)):
            kind, size = est.kinds[e], est.sizes[e]
            if self.moa:
                mech = (kind, size, max(int(est.hslot[e]), 0))
                call = lambda i, s_, m_, lo, hi: KM.run(i, e, mech, s_, span, nt, self.incl, ck, snap[lo:hi])  # noqa: E731,B023
            elif est.sliding[e]:
                mech = (kind, size, int(est.hslot[e]), limits[:, max(int(est.aslot[e]), 0)])
                call = lambda i, s_, m_, lo, hi: K.run_window(i, e, self._cut(mech, lo, hi), s_, m_, span, nt, ck,  # noqa: E731
                                                              snap[lo:hi])  # fmt: skip  # noqa: B023
            else:
                marks = est.marks[est.mark_off[e] : est.mark_off[e + 1]]
                mech = (kind, size, est.fading[e], marks)
                call = lambda i, s_, m_, lo, hi: K.run_accumulator(i, e, mech, s_, m_, span, nt, ck, snap[lo:hi])  # noqa: E731,B023
            in_parallel(lambda lo, hi: call(*self._block(inp, st, med, lo, hi), lo, hi), snap.shape[0])  # noqa: B023

    def _cut(self, mech, lo, hi):
        """A sliding mechanism with the ADWIN widths of models ``lo:hi``."""
        return mech[:3] + (mech[3][lo * self.nt : hi * self.nt],)

    def _block(self, inp, st, med, lo, hi):
        """The inputs, state and median of models ``lo:hi`` (series ``lo * nt : hi * nt``)."""
        a, b = lo * self.nt, hi * self.nt
        inp = inp._replace(ps=inp.ps[a:b], trow=inp.trow[a:b], wts=inp.wts[a:b], mem=inp.mem[a:b], rk=inp.rk[a:b])
        st = type(st)(*(arr[a:b] for arr in st))
        return inp, st, None if med is None else type(med)(*(arr[a:b] for arr in med))

    def _losses(self, y, ps):
        """Per position and series: ``|e|`` (regression) or the interval miss (intervals); NaN where not defined."""
        with np.errstate(invalid="ignore"):
            if self.fam == LY.REG:
                return np.abs(y - ps[:, 0])
            return 1.0 - ((ps[:, 0] <= y) & (y <= ps[:, 1]))

    def _limits(self, loss, mem, t0, t1):
        """ADWIN widths ``(L, EA, t1 - t0)`` after each member of the chunk (an ADWIN per series on its losses)."""
        L = self.L
        if self.adwins is None:
            return np.zeros((L, 1, t1 - t0), dtype=np.int64)
        out = np.zeros((L, self.estimators.deltas.size, t1 - t0), dtype=np.int64)
        for l in range(L):
            member = np.ones(t1 - t0, dtype=bool) if mem.shape[1] == 0 else mem[l, t0:t1].astype(bool)
            self.adwins.limits(member, np.where(member, loss[l, t0:t1], 0.0), l, out[l])
        return out

    def _allocate_rows(self, M, C):
        E = len(self.estimators)
        extra = {"target": (self.nt,), "quantile": (self.nq,)}
        outs = {
            m.name: output_array((M, E, C) + extra.get(m.shape, ()), np.dtype(m.dtype)) for m in self.finaliser.metrics
        }
        outs["n_instances"] = output_array((M, E, C))
        return outs

    def _keep_history(self, arrays):
        """Keep the inputs a sliding window still reads, and (median) the members since the last restart."""
        est = self.estimators
        end = self.history.start + arrays["ys"].shape[1]
        keep = est.sliding.copy()
        if self.median:
            keep |= np.isin(est.kinds, RESTARTING)
        tails = self.si[:, keep, LY.I_TAIL]
        self.history.keep(oldest(tails, end), arrays)

    def collect(self):
        """Every checkpoint row plus the latest instance: ``(positions, {name: (M, E, C[, extra])})``."""
        if self.L is None or self.n_seen == 0:
            raise ValueError("nothing was processed yet")
        return self.rows.collect()
