"""numpy layer of the confusion family: state, chunks, kernel dispatch, finalisation.

:class:`ConfusionEngine` evaluates a stream given chunk by chunk (one chunk for a one-pass
:func:`streamtk.evaluate`) with the plan of :mod:`.plan`. Each chunk is processed in segments
whose snapshots fit in a bounded buffer; each segment runs

* the dense two-class kernel (:mod:`streamtk._kernels.confusion.dense`) when the stream has been
  dense so far (no weights, labels and predictions everywhere, two classes, no extra
  quantities), for every estimator but ADWIN windows;
* the general kernel (:mod:`streamtk._kernels.confusion.streamtk`) otherwise, and for ADWIN
  windows, whose widths come from an ADWIN run on the 0/1 loss (:mod:`streamtk._core.adwin`);
* MOA's kernels (:mod:`streamtk._kernels.confusion.moa`, ``moa_adwin``) under ``convention="moa"``;

then finalises every requested metric from the snapshots (the registry's formulas). A kernel
is compiled the first time a call needs it. Bands (:mod:`streamtk._core.intervals`) add rows to the
snapshots: the sums of squared weights of Kish's effective sizes (:meth:`ConfusionEngine._fill_squares`),
and their analytic bounds are finalised with the metrics; a bootstrap runs replicates on a second
engine (``zero_members=True``, ``reduce=`` the percentile bounds). Between chunks the engine keeps the inputs that a
sliding window still holds (at most the largest window) and, for ADWIN windows, their older
members as one sum per ADWIN bucket (:mod:`._segments`), so chunked evaluation equals one pass.
Engines are picklable: a pickled engine continues identically.
"""

from __future__ import annotations

import numpy as np

from .._core.adwin import LossAdwins
from .._core.alloc import Scratch, output_array
from .._core.chunks import ChunkHistory, CurveRows, oldest
from .._core.finalise import Finaliser, use_compiled
from .._core.mechanisms import checkpoints, segments
from .._core.metrics.bounds import squared_sum_fading
from .._core.metrics.confusion_sums import TABLE, ConfusionContext
from .._core.metrics.quantity import QUANTITIES
from .._core.parallel import in_parallel
from .._kernels.confusion import layout as LY
from .._kernels.forgetting import ADWIN, WINDOW
from ._segments import compress, segment_capacity
from .engine_moa import MoaRuns
from .plan import EvaluationPlan

__all__ = ["ConfusionEngine", "persistent_hits", "SNAPSHOT_BUDGET"]

#: floats of table (statistics and intermediates) per segment: a chunk is cut into segments whose tables
#: stay in the cache between the kernel that writes them and the formulas that read them
SNAPSHOT_BUDGET = 1 << 20
#: ADWIN widths materialised per segment (int64 values: 32 MB): with ``adwin=`` a segment holds at
#: most ``ADWIN_BUDGET // (series x ADWIN estimators)`` positions (and at least ``MIN_SEGMENT``);
#: without it a segment is bounded by the snapshot budget only (one kernel call, one finalisation)
ADWIN_BUDGET = 1 << 22
MIN_SEGMENT = 1 << 16


def persistent_hits(ytrue: np.ndarray, prev: int):
    """The Persistent classifier's hits ``(T,)`` uint8 on the labelled positions, and the last label.

    ``prev``: the last label before the chunk (class 0 before the first label).
    """
    T = ytrue.shape[0]
    hits = np.zeros(T, dtype=np.uint8)
    if T == 0:
        return hits, prev
    if ytrue.min() >= 0:
        hits[0] = ytrue[0] == prev
        np.equal(ytrue[1:], ytrue[:-1], out=hits[1:].view(bool))
        return hits, int(ytrue[-1])
    idx = np.flatnonzero(ytrue >= 0)
    if idx.size == 0:
        return hits, prev
    labels = ytrue[idx]
    before = np.empty_like(labels)
    before[0] = prev
    before[1:] = labels[:-1]
    hits[idx] = labels == before
    return hits, int(labels[-1])


class ConfusionEngine(MoaRuns):
    """State, options and accumulated curves of one (possibly chunked) confusion evaluation.

    ``metrics``: the registry entries to finalise (default: the plan's confusion metrics and their analytic
    bounds). ``zero_members``: the weights are the kernels' (a negative weight marks an instance that is not
    evaluated, 0 is a member that adds nothing: bootstrap replicates); otherwise they are the user's (0 = not
    evaluated). ``reduce``: applied to each chunk's outputs before they are kept (the replicates' percentiles).
    ``raw``: output the weight sums ``W``, ``ROW``, ``COL`` instead of metrics (the squared-weights pass).
    ``adwin_of``: the series whose ADWIN windows each series takes (replicates share their series' windows).
    """

    def __init__(
        self,
        plan: EvaluationPlan,
        *,
        fast_paths: bool = True,
        metrics=None,
        zero_members: bool = False,
        reduce=None,
        raw: bool = False,
        adwin_of=None,
    ):
        self.plan = plan
        self.fast_paths = fast_paths  # False: every chunk on the general kernel (tests: fast == general)
        self.L = None
        self.n_seen = 0
        self.zero_members = zero_members
        self.reduce = reduce
        self.raw = raw
        self.adwin_of = None if adwin_of is None else np.asarray(adwin_of, dtype=np.int64)
        if metrics is None:
            metrics = list(plan.confusion) + list(plan.bounds) + list(plan.hidden)
        self.finaliser = Finaliser(TABLE, [] if raw else metrics)
        self.squares = max((m.squares for m in self.finaliser.metrics), key=len, default="")
        nq = len(plan.quantities)
        q = tuple(LY.F_Q + plan.quantities.index(name) if name in plan.quantities else -1 for name in QUANTITIES)
        self.rows_sq = 1 + 2 * plan.k if self.squares else 0
        s2 = LY.snapshot_size(nq, plan.k) if self.squares else -1
        z = plan.interval.z if plan.interval is not None else float("nan")
        self.context = ConfusionContext(plan.k, plan.pos, LY.row0(nq), q, plan.moa, z, s2, s2 >= 0)
        self._closed = False
        self._dense = True  # every chunk so far took the dense path
        self._tables = (Scratch(), Scratch())  # the segments' statistics and intermediates

    # ------------------------------------------------------------------ state
    def _allocate(self, L: int, weighted: bool):
        p = self.plan
        est = p.estimators
        self.L = L
        self.weighted = weighted
        self.shadow = None
        if self.squares and (weighted or (self.squares == "classes" and bool((est.fading < 1.0).any()))):
            # the squared-weights pass: the same kernels with squared weights and squared fading factors
            self.shadow = ConfusionEngine(
                p.squared(), fast_paths=self.fast_paths, zero_members=True, raw=True, adwin_of=self.adwin_of
            )
        self.rows = CurveRows(p.every)
        E, k, nq = len(est), p.k, len(p.quantities)
        self.sc = np.zeros((L, E, LY.state_size(nq)))
        self.sc[:, :, LY.S_SCALE] = 1.0
        self.cv = np.zeros((L, E, LY.N_VECTORS, k))
        self.pt = np.zeros((L, E, LY.N_POINTERS), dtype=np.int64)
        H = int(est.sliding.sum())
        dtype = p.encoding.compact_dtype
        self.history = ChunkHistory(
            yt=np.zeros(0, dtype=dtype),
            yp=np.zeros((L, 0), dtype=dtype),
            w=np.zeros((L, 0)) if weighted else None,
            q=np.zeros((L, nq, 0)),
            per=np.zeros((L, 0) if p.moa else 0, dtype=np.uint8),
            maj=np.zeros((L, H, 0), dtype=np.uint8),
        )
        EA = max(1, est.adwin.size)
        if p.moa:
            self.prev = np.zeros(L, dtype=np.int64)
            self.started = np.zeros(L, dtype=bool)
            if est.adwin.size:
                from .._kernels.adwin import adwin_state_new

                Q = 2 * k + 3
                st = adwin_state_new(L * EA * Q, p.adwin_options["max_buckets"])
                self.moa_adwin = st + (np.zeros((L, EA), dtype=np.int64), np.zeros((L, EA)))
        else:
            self.prev = 0
            n_adwin = L if self.adwin_of is None else np.unique(self.adwin_of).size
            self.adwins = LossAdwins(n_adwin, est.deltas, p.adwin_options) if est.adwin.size else None
            S = segment_capacity(p.adwin_options["max_buckets"]) if est.adwin.size else 0
            width = LY.state_size(nq) + LY.N_VECTORS * k
            self.seg = (
                np.zeros((L, EA, S, width)),
                np.zeros((L, EA, S), dtype=np.int64),
                np.zeros((L, EA, S), dtype=np.int64),
                np.zeros((L, EA), dtype=np.int64),
                np.zeros((L, EA), dtype=np.int64),
            )

    def _allocate_rows(self, C):
        """The output arrays of ``C`` checkpoint rows: ``{name: (L, E, C[, k])}``."""
        p = self.plan
        E = len(p.estimators)
        if self.raw:
            shape = (self.L, E, C)
            return {"W": np.empty(shape), "ROW": np.empty(shape + (p.k,)), "COL": np.empty(shape + (p.k,))}
        return {
            m.name: output_array((self.L, E, C) + (p.k,) * len(m.extra_dims), m.dtype) for m in self.finaliser.metrics
        }

    # ------------------------------------------------------------------ chunks
    def update(self, ytrue, ypred, weights=None, quantities=None, *, last: bool = False):
        """Process one chunk: ``ytrue`` (T,) codes, ``ypred`` (L, T) codes, weights (L, T) or None.

        ``quantities``: ``(L, nq, T)`` per-instance quantities of the plan (see
        :meth:`EvaluationPlan.quantities_for`). ``last=True``: no chunk follows (nothing is kept
        for later chunks; a further update is refused).
        """
        if self._closed:
            raise ValueError("this evaluation was closed by its last chunk (last=True): start a new one")
        self._closed = last
        p = self.plan
        T = ypred.shape[1]
        L = self._n_series(ypred)
        if self.L is None:
            self._allocate(L, weights is not None)
        elif L != self.L:
            raise ValueError(f"y_pred has {L} leading series in this chunk but {self.L} in earlier chunks")
        if (weights is not None) != self.weighted:
            raise ValueError("weights must be given for every chunk or for none")
        nq = len(p.quantities)
        if quantities is None:
            if nq:
                raise ValueError(f"the metrics {list(p.quantities)} need per-instance quantities for every chunk")
            quantities = np.zeros((ypred.shape[0], 0, T))
        if T == 0:
            return
        start = self.n_seen
        dtype = p.encoding.compact_dtype
        ytrue = np.ascontiguousarray(ytrue, dtype=dtype)
        ypred = np.ascontiguousarray(ypred, dtype=dtype)
        if weights is not None and not p.moa and not self.zero_members:  # the kernels' weights: -1 = not evaluated
            weights = np.where(np.asarray(weights) > 0, weights, -1.0)
        squares = self._squares_pass(ytrue, ypred, weights, last)
        if p.moa:
            weights = self._moa_weights(ytrue, ypred, weights)
            ypred = np.where(ypred < 0, ypred.dtype.type(0), ypred)  # MOA: argmax of no votes is class index 0
        self._dense = dense = self._dense and self._is_dense(ytrue, ypred, weights, nq)
        if p.moa:
            per = np.zeros((L, T), dtype=np.uint8)
        else:
            per, self.prev = persistent_hits(ytrue, self.prev)
        H = self.history.arrays["maj"].shape[1]
        arrays = self.history.join(
            yt=ytrue,
            yp=ypred,
            w=None if weights is None else np.asarray(weights, dtype=np.float64),
            q=np.asarray(quantities, dtype=np.float64),
            per=per,
            maj=np.zeros((L, H, T), dtype=np.uint8),
        )
        arrays = {
            name: None if a is None else np.ascontiguousarray(a) for name, a in arrays.items()
        }  # the kernels take C-ordered arrays
        h = self.history.length
        pos = checkpoints(start, start + T, p.every, last=True)
        E = len(p.estimators)
        outs = self._allocate_rows(pos.size)
        compiled = use_compiled(L * E * pos.size)
        c0 = 0
        for s0, s1, sel in self._segments(pos - start, T, L):
            ck = pos[sel] - start + h
            snap = self._tables[0].array((L, E, LY.snapshot_size(nq, p.k) + self.rows_sq, ck.size))
            self._run_segment(arrays, h + s0, h + s1, dense, ck, snap)
            if self.raw:
                r0 = LY.row0(nq)
                outs["W"][:, :, c0 : c0 + ck.size] = snap[:, :, LY.F_W]
                outs["ROW"][:, :, c0 : c0 + ck.size] = np.moveaxis(snap[:, :, r0 : r0 + p.k], 2, 3)
                outs["COL"][:, :, c0 : c0 + ck.size] = np.moveaxis(snap[:, :, r0 + p.k : r0 + 2 * p.k], 2, 3)
                c0 += ck.size
                continue
            if self.squares:
                self._fill_squares(snap, squares, c0)
            vals = self.finaliser.scratch(L, E, ck.size, into=self._tables[1])
            self.finaliser.run(snap, vals, self.context, outs, c0, compiled=compiled)
            c0 += ck.size
        if self.reduce is not None:
            outs = self.reduce(outs)
        self.rows.store(pos, outs, last=last)
        self.n_seen = start + T
        if not last:
            self._keep_history(arrays)

    def _n_series(self, ypred) -> int:
        """The number of state series of a chunk's predictions ``(L, T)``: ``L`` (bootstrap replicates: more)."""
        return ypred.shape[0]

    def _squares_pass(self, ytrue, ypred, weights, last):
        """The squared-weights pass over the chunk (when one runs): its raw sums at the chunk's checkpoints."""
        if not self.squares or self.shadow is None:
            return None
        w2 = None if weights is None else np.where(weights >= 0, np.square(weights), -1.0)
        self.shadow.update(ytrue, ypred, w2, None, last=last)
        return self.shadow.rows.drain(final=True)[1]

    def _fill_squares(self, snap, squares, c0):
        """The rows of squared-weight sums (``W2``, ``ROW2``, ``COL2`` from ``context.s2``) of a segment's table.

        From the squared-weights pass when it runs (weights, or per-class sums under a fading factor); otherwise
        every weight is 1: ``W2 = N`` and ``ROW2 = ROW``, ``COL2 = COL`` for a mechanism whose weights are 0 or 1,
        and ``W2 = N (2 - N (1 - a)) / (1 + a)`` from the faded count ``N`` for a fading factor ``a``.
        """
        p = self.plan
        k, s2, C = p.k, self.context.s2, snap.shape[3]
        r0 = self.context.r0
        if squares is not None:
            snap[:, :, s2] = squares["W"][:, :, c0 : c0 + C]
            snap[:, :, s2 + 1 : s2 + 1 + k] = np.moveaxis(squares["ROW"][:, :, c0 : c0 + C], 3, 2)
            snap[:, :, s2 + 1 + k : s2 + 1 + 2 * k] = np.moveaxis(squares["COL"][:, :, c0 : c0 + C], 3, 2)
            return
        fading = p.estimators.fading
        for e in range(snap.shape[1]):
            n = snap[:, e, LY.F_N]
            snap[:, e, s2] = n if fading[e] == 1.0 else squared_sum_fading(n, fading[e])
        if self.squares == "classes":  # no fading factor here (else the pass runs): the weights are 0 or 1
            snap[:, :, s2 + 1 : s2 + 1 + 2 * k] = snap[:, :, r0 : r0 + 2 * k]

    def _is_dense(self, ytrue, ypred, weights, nq):
        """Whether the chunk can take the dense two-class kernel (every estimator of its kinds, unweighted,
        every label and prediction present, no extra quantities)."""
        from .._kernels.confusion.dense import KINDS as DENSE_KINDS

        p = self.plan
        return (
            self.fast_paths
            and bool(np.isin(p.estimators.kinds, DENSE_KINDS).all())
            and not p.moa
            and p.k == 2
            and weights is None
            and nq == 0
            and int(ytrue.min()) >= 0
            and int(ypred.min()) >= 0
        )

    def _segments(self, rel, T, L):
        """Segments ``[s0, s1)`` of the chunk, and the checkpoints (a slice of ``rel``) in each."""
        p = self.plan
        E = len(p.estimators)
        per_ck = L * E * (LY.snapshot_size(len(p.quantities), p.k) + self.rows_sq + self.finaliser.n_intermediates)
        longest = max(T, 1)
        if p.estimators.adwin.size and not p.moa:
            longest = max(MIN_SEGMENT, ADWIN_BUDGET // (L * p.estimators.adwin.size))
        return segments(rel, T, per_ck, budget=SNAPSHOT_BUDGET, max_segment=longest)

    def _run_segment(self, arrays, t0, t1, dense, ck, snap):
        """Every estimator of every series over array positions ``[t0, t1)``."""
        p = self.plan
        est = p.estimators
        yt, yp, w, q, per, maj = (arrays[n] for n in ("yt", "yp", "w", "q", "per", "maj"))
        L = yp.shape[0]
        base = self.history.start
        ytc, ypc = yt[:t1], yp[:, :t1]
        wc = w[:, :t1] if w is not None else np.zeros((L, 0))
        qc = q[:, :, :t1]
        span = (np.int64(base), np.int64(t0))
        if p.moa:
            self._run_moa(ytc, ypc, wc, qc, per, maj, t0, t1, ck, snap)
            return
        rest = np.flatnonzero(est.kinds != ADWIN) if dense else np.arange(len(est), dtype=np.int64)
        state = (self.sc, self.cv, self.pt, maj)
        if dense:
            from .._kernels.confusion import dense as K

            mech = est.mechanisms() + (est.hslot,)
            rings, upto = self._dense_rings(K, L, base + t1)

            def run(lo, hi):
                K.run(
                    (ytc, ypc[lo:hi], per[:t1]),
                    mech,
                    tuple(a[lo:hi] for a in state),
                    span,
                    rest,
                    ck,
                    snap[lo:hi],
                    (rings[lo:hi], upto[lo:hi]),
                )

            in_parallel(run, L)
            if est.adwin.size:
                from .._kernels.confusion import dense_adwin as KA

                def run_adwin(lo, hi):
                    KA.run_adwin(
                        (ytc, ypc[lo:hi], per[:t1]),
                        (est.hslot, est.aslot),
                        tuple(a[lo:hi] for a in state),
                        tuple(s[lo:hi] for s in self.seg[:4]),
                        self.adwins.kernel_args(lo, hi),
                        span,
                        est.adwin,
                        ck,
                        snap[lo:hi],
                    )

                in_parallel(run_adwin, L)
            return
        from .._kernels.confusion import streamtk as K

        limits = self._adwin_limits(ytc, ypc, wc, t0, t1)

        def run_general(lo, hi):
            K.run(
                (ytc, ypc[lo:hi], wc[lo:hi], qc[lo:hi], per[:t1]),
                est.mechanisms() + (est.hslot, est.aslot, limits[lo:hi]),
                tuple(a[lo:hi] for a in state),
                tuple(s[lo:hi] for s in self.seg[:4]),
                span,
                rest,
                ck,
                snap[lo:hi],
            )

        in_parallel(run_general, L)

    def _dense_rings(self, K, L, end):
        """The dense kernel's window prefix rings (kept between calls), long enough for a stream reaching ``end``."""
        est = self.plan.estimators
        windows = est.kinds == WINDOW
        nwin = int(windows.sum())
        hl = K.ring_length(int(est.sizes[windows].max()), end) if nwin else 1
        rings = getattr(self, "rings", None)
        if rings is None or rings.shape[2] < hl + K.PAD:
            self.rings = np.zeros((L, 4 + max(nwin, 1), hl + K.PAD))
            self.ring_upto = np.full(L, -1, dtype=np.int64)  # rebuilt from the kept history on the next call
        return self.rings, self.ring_upto

    def _adwin_limits(self, yt, yp, w, t0, t1):
        """ADWIN widths ``(L, EA, t1 - t0)`` after each member of the segment (``(L, 1, 0)`` without ADWIN)."""
        L = yp.shape[0]
        if not self.plan.estimators.adwin.size:
            return np.zeros((L, 1, 0), dtype=np.int64)
        if self.adwin_of is None:
            return self.adwins.prediction_limits(yt[t0:t1], yp[:, t0:t1], w[:, t0:t1])
        # every series takes the windows of its source series (bootstrap replicates: the same members)
        _, first, back = np.unique(self.adwin_of, return_index=True, return_inverse=True)
        ws = w[first, t0:t1] if w.shape[1] else w[first]
        return self.adwins.prediction_limits(yt[t0:t1], yp[first, t0:t1], ws)[back]

    def _keep_history(self, arrays):
        """Keep the inputs that some sliding window still holds (from the oldest window tail).

        ADWIN windows, which grow without bound, keep their older members as per-bucket sums
        instead (:mod:`._segments`): memory O(log W).
        """
        p = self.plan
        end = self.history.start + arrays["yt"].shape[0]
        win = p.estimators.kinds == WINDOW
        tails = self.pt[:, win, LY.P_TAIL]
        if p.moa:
            tails = np.minimum(tails, self.pt[:, win, LY.P_TAIL_BASE])
        keep_from = oldest(tails, end)
        if p.estimators.adwin.size and not p.moa:
            self._compress_adwin(keep_from, arrays)
        self.history.keep(keep_from, arrays)

    def _compress_adwin(self, keep_from, arrays):
        """Hold every ADWIN window's members before ``keep_from`` as per-bucket segments."""
        yt, yp, w, q, per, maj = (arrays[n] for n in ("yt", "yp", "w", "q", "per", "maj"))
        p = self.plan
        est = p.estimators
        for e in est.adwin:
            a, hs = est.aslot[e], est.hslot[e]
            for l in range(self.L):
                seg = tuple(s[l, a] for s in self.seg[:3]) + tuple(s[l, a : a + 1] for s in self.seg[3:])
                src = l if self.adwin_of is None else int(np.searchsorted(np.unique(self.adwin_of), self.adwin_of[l]))
                counts, last_row = self.adwins.buckets(src, a)
                compress(
                    seg,
                    int(self.pt[l, e, LY.P_TAIL]),
                    int(self.pt[l, e, LY.P_HELD]),
                    counts,
                    last_row,
                    self.history.start,
                    keep_from,
                    (yt, yp[l], None if w is None else w[l], q[l], per, maj[l, hs]),
                    p.k,
                    len(p.quantities),
                )

    # ------------------------------------------------------------------ output
    def collect(self):
        """Every checkpoint row plus the latest instance: ``(positions, {name: (L, E, C[, k])})``."""
        if self.L is None or self.n_seen == 0:
            raise ValueError("no instances were evaluated: y_true is empty")
        return self.rows.collect()

    def drain(self, *, final: bool):
        """Like :meth:`collect` but only the rows produced since the last drain, which are then dropped.

        For streaming the curves out (bounded memory): every regular checkpoint row, and the
        last instance's row when ``final`` (the stream ended).
        """
        if self.L is None:
            raise ValueError("no instances were evaluated yet")
        return self.rows.drain(final=final)
