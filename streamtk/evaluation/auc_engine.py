"""numpy layer of the AUC family: key spaces, state, chunks, kernel dispatch, finalisation.

:class:`AucEngine` computes the exact U statistics of recorded scores under a list of
estimators, for a stream given chunk by chunk (one chunk for a one-pass call), and finalises
them through the metric registry (:class:`streamtk._core.metrics.auc.AucSums`). Each estimator
runs on one kernel for the whole evaluation (:mod:`streamtk._kernels.auc`):

* binary scores: prequential and fading factors on the interleaved trees and sliding windows on
  block-local ranks (:mod:`~streamtk._kernels.auc.binary`); for a whole stream in one chunk with
  a large rank space, prequential and fading by divide and conquer over time
  (:mod:`~streamtk._kernels.auc.offline`);
* everything else (class scores, tumbling, landmarks, ADWIN windows) on the general kernel
  (:mod:`~streamtk._kernels.auc.general`); ``route="general"`` runs every estimator there (the
  reference the fast paths are tested against).

Key spaces. Accumulators (prequential, fading, tumbling, landmarks) keep Fenwick trees over the
sorted distinct scores seen so far, per series and score column: each chunk's distinct scores are
merged in and the trees moved to the merged key space in ``O(D)``
(:func:`streamtk._kernels.fenwick.rekey`), so their memory is ``O(distinct scores seen)`` (flat for
rounded scores, growing with the stream when every score is distinct). Sliding windows keep the
inputs they still hold (ADWIN windows: their whole current window) and work on the ranks of those
inputs and the chunk, rebuilt per chunk. For one chunk both are the dense ranks of the stream.

Chunked evaluation equals one pass exactly where the sums are exact in float64 (integer weights,
no fading factor); with non-integer weights or fading factors the same terms are summed over
other tree nodes (the key spaces differ) and agree to ~1e-15 relative. Engines are picklable.
"""

from __future__ import annotations

import math

import numpy as np

from .._core.adwin import LossAdwins
from .._core.alloc import Scratch, line_aligned_zeros, output_array
from .._core.chunks import CurveRows, EstimatorTable
from .._core.finalise import Finaliser, use_compiled
from .._core.mechanisms import checkpoints, segments
from .._core.metrics.auc import TABLE, AucContext
from .._core.parallel import in_parallel
from .._kernels.auc import layout as LY
from .._kernels.auc.general import REMOVE_FACTOR
from .._kernels.forgetting import ADWIN, FADES, PREQUENTIAL, RESTARTING, WINDOW
from .auc_groups import _groups, _shape
from .auc_keys import KeySpaces
from .auc_sweep import N_SWEEP, Ranking
from .scoring_rules import binary_codes

__all__ = ["AucEngine", "SNAPSHOT_BUDGET"]


#: floats of table per segment: a chunk is cut into segments whose tables stay in the cache between the
#: kernels that write them and the formulas that read them
SNAPSHOT_BUDGET = 1 << 19
#: the longest segment (bounds the per-position ADWIN widths and window ranks of one kernel call)
MAX_SEGMENT = 1 << 22
ROUTES = ("auto", "general")


class AucEngine(KeySpaces):
    """State, options and accumulated curves of one (possibly chunked) AUC evaluation.

    Parameters
    ----------
    specs : list of :class:`streamtk._core.mechanisms.EstimatorSpec`
    every : int, checkpoint spacing (plus the last instance)
    n_classes : int, ``k`` (class codes ``0 .. k - 1``)
    mode : ``"binary"`` (one score per instance; ``y`` codes are compared with ``pos``) or ``"multi"``
        (``k`` class scores, one-vs-rest; ``pairwise=True`` adds the pairwise statistics)
    metrics : the registry metrics to finalise
    moa : MOA's convention (every member weighs 1, AUC 1.0 where undefined; MOA has no faded or
        ADWIN AUC: those estimators are NaN)
    adwin_options : the ADWIN parameters of ``adwin=`` estimators (widths from the 0/1 loss of the
        predictions, :class:`streamtk._core.adwin.LossAdwins`)
    route, offline : ``route="general"`` runs every estimator on the general kernel; ``offline``
        ``None`` (divide and conquer when the rank space is large), True (whenever it applies),
        False (never)
    z : the normal quantile of analytic bands (``metrics`` holding their bounds)
    zero_members, reduce : bootstrap replicates (:mod:`streamtk.evaluation.auc_bands`): weights are the kernels'
        (0: a member that adds nothing, negative: not a member), and each chunk's outputs are reduced before kept
    """

    def __init__(
        self,
        specs,
        *,
        every,
        n_classes,
        mode,
        metrics,
        pairwise=False,
        moa=False,
        pos=1,
        adwin_options=None,
        route="auto",
        offline=None,
        z=float("nan"),
        zero_members=False,
        reduce=None,
    ):
        if route not in ROUTES:
            raise ValueError(f"route must be one of {ROUTES}, got {route!r}")
        if moa and mode != "binary":
            raise ValueError(
                "convention='moa' is binary only (MOA's AUC evaluator refuses other problems): "
                "give (..., n) positive-class scores or drop the AUC metrics"
            )
        self.specs, self.every, self.k, self.mode = specs, every, n_classes, mode
        self.metrics, self.moa, self.pos = list(metrics), moa, pos
        self.offline = offline
        self.grp, self.gpos, self.layout = _groups(mode, n_classes, pairwise)
        est = EstimatorTable(specs)
        self.kinds, self.sizes, self.fading, self.marks, self.mark_off = est.mechanisms()
        kinds = self.kinds
        self.computed = np.array([not (moa and (kd in FADES or kd == ADWIN)) for kd in kinds], dtype=bool)
        fast = mode == "binary" and route == "auto"
        self.cum = np.array(
            [e for e, kd in enumerate(kinds) if fast and (kd == PREQUENTIAL or kd in FADES)], dtype=np.int64
        )
        self.cum = self.cum[self.computed[self.cum]]
        self.alphas = np.where(np.isin(kinds[self.cum], FADES), self.fading[self.cum], 1.0)
        self.win = np.array([e for e, kd in enumerate(kinds) if fast and kd == WINDOW], dtype=np.int64)
        general = [e for e in range(len(specs)) if self.computed[e] and e not in self.cum and e not in self.win]
        sliding = [e for e in general if est.sliding[e]]
        self.gacc = np.array([e for e in general if e not in sliding], dtype=np.int64)
        self.gsl = np.array(sliding, dtype=np.int64)
        self.general = np.array(general, dtype=np.int64)
        self.slot = np.full(len(specs), -1, dtype=np.int64)
        self.slot[self.gacc] = np.arange(self.gacc.size)
        self.slot[self.gsl] = np.arange(self.gsl.size)
        adw = [e for e in range(len(specs)) if self.computed[e] and kinds[e] == ADWIN]
        self.aslot = np.full(len(specs), -1, dtype=np.int64)
        self.aslot[adw] = np.arange(len(adw))
        self.deltas = np.array([specs[e].param for e in adw], dtype=np.float64)
        self.adwin_options = adwin_options
        self.restarts = np.isin(kinds[self.gacc], RESTARTING)
        self.L = None
        self.n_seen = 0
        self._closed = False
        self.finaliser = Finaliser(TABLE, self.metrics)
        self.context = AucContext(self.grp.shape[0], self.grp.shape[0] if self.layout == "ovo" else 2,
                                  self.layout == "ovo", moa, float(z))  # fmt: skip
        self.zero_members, self.reduce = zero_members, reduce
        self.rows = CurveRows(every)
        self._vals = Scratch()  # the segments' intermediates
        self._ranking(kinds, moa)

    def _ranking(self, kinds, moa):
        """The imbalanced family's part (:class:`.auc_sweep.Ranking`) when one of its metrics is asked."""
        ranked = [m for m in self.metrics if m.family == "imbalanced"]
        self.finite = any(m.name == "sauc" for m in ranked)
        self.ustat = len(ranked) < len(self.metrics)  # the U statistics' kernels run only for their metrics
        self.ranking = None
        if not ranked:
            return
        names = [m.name for m in ranked]
        if self.layout == "ovo":
            raise ValueError(f"metrics {names} are computed one-vs-rest: ask for them with multi_class='ovr'")
        bad = [m.name for m in ranked if moa and not m.extra.get("moa", True)]
        if bad:
            raise ValueError(
                f"convention='moa' has no {bad}: MOA's AUC evaluators report AUC, sAUC and the pos/neg ratio"
            )
        sweep = any(m.extra.get("sweep") for m in ranked)
        self.ranking = Ranking(kinds, np.flatnonzero(self.computed), self.grp, sweep=sweep, moa=moa)

    # ------------------------------------------------------------------ state
    def _allocate(self, L, C, weighted, predicted):
        E, G = len(self.specs), self.grp.shape[0] if self.layout == "ovo" else 2
        self.L, self.C, self.G = L, C, G
        self.weighted, self.predicted = weighted, predicted
        self.stat = np.zeros((L, E, LY.N_STAT, C, G))
        self.scale = np.ones((L, E))
        self.ptr = np.zeros((L, E, LY.N_PTR), dtype=np.int64)
        self.keys = [[np.zeros(0) for _ in range(C)] for _ in range(L)]
        self.trees = np.zeros((L, self.gacc.size, C, G, 1))
        self.itree = line_aligned_zeros((L, 1, 2, self.cum.size))
        self.adwins = LossAdwins(L, self.deltas, self.adwin_options) if self.deltas.size else None
        self.hist_start = 0
        self.h_y = np.zeros(0, dtype=np.int64)
        self.h_mem = None  # (L, h) uint8 once some position was not a member
        self.h_w = np.zeros((L, 0)) if weighted else None
        self.h_s = np.zeros((L, 0, C))
        self.key_size = 0
        if self.ranking is not None:
            self.ranking.allocate(L, C)

    # ------------------------------------------------------------------ chunks
    def update(self, y, s, weights=None, ypred=None, *, last=False):
        """Process one chunk: ``y (T,)`` class codes (-1: no label), scores ``s (L, T)`` (binary) or ``(L, T, k)``.

        ``weights (L, T)`` or None; ``ypred (L, T)`` codes (-1: no prediction) or None: an instance
        is a member of series ``l`` when its label is present, its weight is > 0 and (with
        predictions) series ``l`` made a prediction; ``adwin=`` estimators need the predictions.
        ``last=True``: no chunk follows.
        """
        if self._closed:
            raise ValueError("this evaluation was closed by its last chunk (last=True): start a new one")
        s3 = np.asarray(s, dtype=np.float64)
        s3 = s3[..., None] if self.mode == "binary" else s3
        L, T, C = s3.shape
        if self.L is None:
            self._allocate(L, C, weights is not None, ypred is not None)
        elif L != self.L:
            raise ValueError(f"y_score has {L} leading series in this chunk but {self.L} in earlier chunks")
        if (weights is not None) != self.weighted:
            raise ValueError("weights must be given for every chunk or for none")
        if (ypred is not None) != self.predicted:
            raise ValueError("y_pred must be given for every chunk or for none")
        if self.deltas.size and ypred is None:
            raise ValueError("adwin= needs y_pred: its ADWIN runs on the 0/1 loss of the predictions")
        self._closed = last
        if T == 0:
            return
        y = np.asarray(y)
        member = np.broadcast_to(y >= 0, (L, T))
        if weights is not None:  # the user's weight 0, or the kernels' negative weight, marks a non-member
            member = member & ((np.asarray(weights) >= 0) if self.zero_members else (np.asarray(weights) > 0))
        if ypred is not None:
            member = member & (np.asarray(ypred) >= 0)
        nan = np.isnan(s3)
        if nan.any():
            bad = np.argwhere(nan & member[..., None])
            if bad.size:
                l, t = int(bad[0, 0]), int(bad[0, 1])
                raise ValueError(
                    f"y_score contains NaN at instance {self.n_seen + t} (0-based) of series {l}: "
                    "an evaluated instance needs a score"
                )
            s3 = np.where(nan, -np.inf, s3)  # scores nobody reads
        if self.finite:  # the scored AUC weighs score differences
            bad = np.argwhere(np.isinf(s3) & member[..., None])
            if bad.size:
                l, t, c = (int(i) for i in bad[0])
                raise ValueError(
                    f"y_score holds {float(s3[l, t, c])!r} at instance {self.n_seen + t} (0-based) of series {l}: "
                    "the scored AUC (sauc) weighs score differences and needs finite scores"
                )
        # int64 codes in one pass (binary: 1 positive, 0 negative, -1 no label)
        codes = binary_codes(y, self.pos) if self.mode == "binary" else y.astype(np.int64, copy=False)
        self._run_chunk(codes, member, s3, weights, ypred, y, last)

    def _run_chunk(self, codes, member, s3, weights, ypred, y, last):
        L, T, C = s3.shape
        start, h = self.n_seen, self.h_y.size
        fresh = start == 0
        dense = self.h_mem is None and bool(member.all())
        Y = np.concatenate([self.h_y, codes]) if h else codes
        if dense:
            M = np.zeros((L, 0), dtype=np.uint8)
        else:
            old = self.h_mem if self.h_mem is not None else np.ones((L, h), dtype=np.uint8)
            M = np.ascontiguousarray(np.concatenate([old, member.astype(np.uint8)], axis=1))
        W = np.zeros((L, 0))
        if weights is not None:
            W = np.ascontiguousarray(np.concatenate([self.h_w, np.asarray(weights, dtype=np.float64)], axis=1))
        S = np.concatenate([self.h_s, s3], axis=1) if h else s3
        ranks, R = self._accumulator_ranks(s3, S, h)
        sranks = self._sliding_ranks(S, h, ranks if fresh else None) if self.ustat else ranks[:, :0]
        if self.gsl.size and self.ustat:
            self._rebuild_sliding(Y, M, W, sranks, h)
        if self.ranking is not None:
            self.ranking.values(self.keys)
        pos = checkpoints(start, start + T, self.every, last=True)
        fresh_whole = last and fresh and self.ustat
        offline = self._offline_rows(Y, M, W, ranks, R, pos - start) if fresh_whole else None
        self.offline_used = offline is not None
        E = len(self.specs)
        outs = self._allocate_rows(pos.size)
        compiled = use_compiled(L * E * pos.size)
        c0 = 0
        for s0, s1, sel in self._segments(pos - start, T, L):
            ck = pos[sel] - start + h
            arrays = (Y[: h + s1], M, W)  # the kernels stop at the end of y
            limits = self._limits(y, ypred, member, s0, s1)
            snap = ranked = None
            if self.ustat:
                snap = np.full((L, E, LY.N_STAT, C, self.G, ck.size), np.nan)
                self._run_binary(arrays, ranks, sranks, h + s0, h + s1, offline is not None, ck, snap)
                self._run_general(arrays, ranks, sranks, limits, h + s0, h + s1, ck, snap)
                if offline is not None:
                    snap[:, self.cum] = np.moveaxis(offline[:, :, sel], 2, -1)
            if self.ranking is not None:
                ranked = np.full((L, E, N_SWEEP, C, ck.size), np.nan)
                span = (np.int64(self.hist_start), np.int64(h + s0))
                self.ranking.run(arrays, S, ranks, self._mech(limits), span, ck, ranked)
            self._finalise(snap, ranked, outs, c0, compiled)
            c0 += ck.size
        if self.reduce is not None:
            outs = self.reduce(outs)
        self.rows.store(pos, outs, last=last)
        self.n_seen = start + T
        if not last:
            self._keep_history(Y, M, W, S, dense)

    def _segments(self, rel, T, L):
        """Segments ``[s0, s1)`` of the chunk and their checkpoints (a boolean selector of ``rel``)."""
        rows = LY.N_STAT * self.C * self.G + (N_SWEEP * self.C if self.ranking is not None else 0)
        per_ck = L * len(self.specs) * (rows + self.finaliser.n_intermediates)
        return segments(rel, T, per_ck, budget=SNAPSHOT_BUDGET, max_segment=MAX_SEGMENT)

    def _rebuild_sliding(self, Y, M, W, sranks, h):
        from .._kernels.auc import general as KG

        D = int(sranks.max()) + 1 if sranks.size else 1
        self.strees = np.zeros((self.L, self.gsl.size, self.C, self.G, D + 1))
        inp = LY.Inputs(Y, M, W, sranks, sranks)
        KG.rebuild_sliding(inp, self._grps(), self._mech(None), self._state(), self.gsl, self.hist_start, h)

    # ------------------------------------------------------------------ kernels
    def _grps(self):
        return LY.Groups(self.grp, self.gpos, self.moa)

    def _mech(self, limits):
        if limits is None:
            limits = np.zeros((self.L, 1, 0), dtype=np.int64)
        return LY.Mechanisms(
            self.kinds, self.sizes, self.fading, self.marks, self.mark_off, self.slot, self.aslot, limits
        )

    def _state(self):
        strees = getattr(self, "strees", np.zeros((self.L, 0, self.C, self.G, 1)))
        return LY.State(self.stat, self.scale, self.ptr, self.trees, strees)

    def _limits(self, y, ypred, member, s0, s1):
        """ADWIN widths ``(L, EA, s1 - s0)`` after each position of the segment (``(L, 1, 0)`` without ADWIN)."""
        if self.adwins is None:
            return np.zeros((self.L, 1, 0), dtype=np.int64)
        out = np.zeros((self.L, self.deltas.size, s1 - s0), dtype=np.int64)
        loss = y[None, s0:s1] != np.asarray(ypred)[:, s0:s1]
        for l in range(self.L):
            self.adwins.limits(member[l, s0:s1], loss[l], l, out[l])
        return out

    def _run_binary(self, arrays, ranks, sranks, t0, t1, offline, ck, snap):
        cum = self.cum[:0] if offline else self.cum
        if not (cum.size or self.win.size):
            return
        from .._kernels.auc import binary as KB
        from .._kernels.auc.ranks import window_local_ranks

        Y, M, W = arrays
        base = self.hist_start
        L, EW = self.L, self.win.size
        new = np.zeros((L, EW, t1), dtype=np.int64)
        old = np.zeros((L, EW, t1), dtype=np.int64)
        n_local = 1
        for l in range(L):
            for j, e in enumerate(self.win):
                lo = int(self.ptr[l, e, LY.P_TAIL]) - base
                mem = M[l, lo:t1] if M.shape[1] else M[l]
                rl = np.ascontiguousarray(sranks[l, lo:t1, 0])
                n_local = max(n_local, window_local_ranks(rl, mem, int(self.sizes[e]), new[l, j, lo:], old[l, j, lo:]))
        plan = LY.BinaryPlan(cum, self.alphas[: cum.size], self.win, self.sizes[self.win], new, old, n_local,
                             KB.PREFETCH_MIN_ROWS)  # fmt: skip
        span = (np.int64(base), np.int64(t0))

        def run(lo, hi):
            inp = LY.Inputs(Y, M[lo:hi], W[lo:hi], ranks[lo:hi], ranks[lo:hi, :0])
            state = LY.BinaryState(self.stat[lo:hi], self.scale[lo:hi], self.ptr[lo:hi], self.itree[lo:hi])
            KB.run(inp, self.moa, plan._replace(new=new[lo:hi], old=old[lo:hi]), state, span, ck, snap[lo:hi])

        in_parallel(run, L)

    def _run_general(self, arrays, ranks, sranks, limits, t0, t1, ck, snap):
        if not self.general.size:
            return
        from .._kernels.auc import general as KG

        Y, M, W = arrays
        grps, mech, state = self._grps(), self._mech(limits), self._state()
        span = (np.int64(self.hist_start), np.int64(t0))

        def run(lo, hi):
            inp = LY.Inputs(Y, M[lo:hi], W[lo:hi], ranks[lo:hi], sranks[lo:hi])
            m = mech._replace(limits=mech.limits[lo:hi])
            st = LY.State(*(a[lo:hi] for a in state))
            KG.run(inp, grps, m, st, span, self.general, ck, snap[lo:hi])

        in_parallel(run, self.L)

    def _offline_rows(self, Y, M, W, ranks, R, rel):
        """Snapshots ``(L, EI, C, 3, 1, 2)`` of the interleaved estimators of a whole binary stream, or None."""
        if not self.cum.size or self.offline is False:
            return None
        from .._kernels.auc import offline as KO

        if self.offline is None and not KO.use_offline(Y.shape[0], R):
            return None
        out = np.zeros((self.L, self.cum.size, rel.size, LY.N_STAT, 1, 2))
        rel = np.ascontiguousarray(rel, dtype=np.int64)

        def run(lo, hi):
            for l in range(lo, hi):  # M[l], W[l] are empty when every position is a member / without weights
                rl = np.ascontiguousarray(ranks[l, :, 0])
                KO.cumulative_offline(rl, Y, M[l], W[l], self.moa, self.alphas, R, rel, out[l], KO.BLOCK)

        in_parallel(run, self.L)
        return out

    # ------------------------------------------------------------------ history, output
    def _keep_history(self, Y, M, W, S, dense):
        """Keep the inputs some window still holds (and a restart may remove), from the oldest tail on."""
        end = self.hist_start + Y.shape[0]
        tails = [self.ptr[:, e, LY.P_TAIL] for e in np.r_[self.gsl, self.win].astype(np.int64)] if self.ustat else []
        D = max(1, self.trees.shape[-1] - 1)
        for a, e in enumerate(self.gacc):
            if self.restarts[a] and self.ustat:  # worth keeping only while a restart would remove them one by one
                held = self.ptr[:, e, LY.P_HELD]
                cheap = held * REMOVE_FACTOR * math.log2(D + 1) <= D
                tails.append(np.where(cheap, self.ptr[:, e, LY.P_TAIL], end))
        if self.ranking is not None:
            tails += self.ranking.tails(end)
        keep_from = int(min([end] + [int(t.min()) for t in tails]))
        cut = keep_from - self.hist_start
        self.h_y = Y[cut:].copy()
        self.h_mem = None if dense else M[:, cut:].copy()
        self.h_w = W[:, cut:].copy() if self.weighted else None
        self.h_s = S[:, cut:].copy()
        self.hist_start = keep_from

    def _allocate_rows(self, C):
        """The output arrays of ``C`` checkpoint rows: ``{name: (L, E, C[, columns[, columns]])}``."""
        E = len(self.specs)
        return {m.name: output_array((self.L, E, C) + self._extra(m), m.dtype) for m in self.metrics}

    def _extra(self, m):
        """The extra dims of metric ``m``'s output (a binary evaluation's one score column included)."""
        if m.shape == "pair":
            return (self.k, self.k)
        return (self.C,) if m.shape == "column" else ()

    def _finalise(self, snap, ranked, outs, c0, compiled):
        """Every requested metric of the table ``snap (L, E, 3, C, G, ck)`` (then the imbalanced family's rows
        ``ranked (L, E, N_SWEEP, C, ck)``, or None) into the outputs at ``c0``."""
        one = snap if snap is not None else ranked
        L, E = one.shape[:2]
        C = one.shape[-1]
        if ranked is None:
            table = snap.reshape(L, E, -1, C)
        else:  # the U rows (NaN when no U statistic is asked), then the ranking rows
            u = snap.reshape(L, E, -1, C) if snap is not None else np.full((L, E, LY.N_STAT * self.C * self.G, C),
                                                                             np.nan)  # fmt: skip
            table = np.concatenate([u, ranked.reshape(L, E, -1, C)], axis=2)
        vals = self.finaliser.scratch(L, E, C, into=self._vals)
        self.finaliser.run(table, vals, self.context, outs, c0, compiled=compiled)
        if not self.computed.all():  # MOA has no faded or ADWIN AUC
            for out in outs.values():
                out[:, ~self.computed, c0 : c0 + C] = np.nan

    def _squeezed(self, rows):
        positions, values = rows
        if self.mode == "binary":
            values = {k: v[..., 0] if _shape(k) == "column" else v for k, v in values.items()}
        return positions, values

    def collect(self):
        """Every checkpoint row plus the latest instance: ``(positions, {name: (L, E, C[, k])})``."""
        if self.L is None or self.n_seen == 0:
            raise ValueError("no instances were evaluated: y_true is empty")
        return self._squeezed(self.rows.collect())

    def drain(self, *, final: bool):
        """Like :meth:`collect` but only the rows produced since the last drain, which are then dropped.

        Every regular checkpoint row, and the last instance's row when ``final`` (the stream ended).
        """
        if self.L is None:
            raise ValueError("no instances were evaluated yet")
        return self._squeezed(self.rows.drain(final=final))
