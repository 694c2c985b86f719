"""numpy layer of the multi-label family (:mod:`streamtk._kernels.multilabel`): state, chunks, finalisation.

:class:`MultilabelEngine` evaluates recorded label sets of ``L`` series (models, folds, runs) under a list
of estimators, chunk by chunk with results identical to one pass, and finalises the registry's
multi-label metrics (:mod:`streamtk._core.metrics.multilabel`) at the checkpoints straight into its
outputs. An instance is a member of series ``l`` when its true labels and the series' prediction are
present and (``convention="streamtk"``) its weight is > 0; under MOA's convention weights are not read.
ADWIN windows are those of an ADWIN run on each series' per-instance Hamming loss
(``|Y xor P| / q``, as :func:`streamtk.evaluate` runs ADWIN on the 0/1 loss). The per-label statistics
are kept only when a requested metric reads them.
"""

from __future__ import annotations

import numpy as np

from .._core.adwin import LossAdwins
from .._core.alloc import Scratch, output_array
from .._core.chunks import CurveRows, EstimatorTable, oldest
from .._core.finalise import Finaliser, use_compiled
from .._core.mechanisms import checkpoints, segments
from .._core.metrics.multilabel import TABLE, context
from .._core.parallel import in_parallel
from .._kernels import multilabel as K

__all__ = ["MultilabelEngine"]

#: floats of table (statistics and intermediates) per segment
SNAPSHOT_BUDGET = 1 << 18
#: the longest segment: its inputs' table (with the history the windows read back) is built per segment
MAX_SEGMENT = 1 << 16


class MultilabelEngine:
    """Multi-label statistics of ``L`` series under the estimators ``specs``, finalised into ``metrics``.

    ``n_labels``: ``q``; ``zero_division``: 0, 1 or NaN; ``moa``: MOA's convention (unit weights, MOA's
    formulas); ``adwin_options``: the ADWIN parameters of ``adwin=`` estimators.
    """

    def __init__(self, specs, every, n_labels, metrics, *, zero_division=0.0, moa=False, adwin_options=None):
        self.estimators = EstimatorTable(specs)
        self.specs = self.estimators.specs
        self.every = int(every)
        self.q = int(n_labels)
        self.metrics = list(metrics)
        self.labels = any(m.extra.get("per_label") for m in self.metrics)
        self.F = K.n_rows(self.q, self.labels)
        self.moa = bool(moa)
        self.finaliser = Finaliser(TABLE, self.metrics)
        self.context = context(self.q, zero_division, self.moa)
        self.adwin_options = adwin_options
        self.rows = CurveRows(every)
        self._tables = (Scratch(), Scratch(), Scratch())  # the segments' statistics, intermediates, inputs
        self.L = None
        self.n_seen = 0
        self.weighted = None
        self._lab = np.zeros(0, dtype=np.int64)

    def _allocate(self, L, weighted):
        E = len(self.estimators)
        self.L, self.weighted = L, weighted
        self.sums = np.zeros((L, E, self.F + 1))
        self.sums[..., self.F] = 1.0
        self.counts = np.zeros((L, E, self.F), dtype=np.int64)
        self.ptr = np.zeros((L, E, 3), dtype=np.int64)
        deltas = self.estimators.deltas
        self.adwins = LossAdwins(L, deltas, self.adwin_options) if deltas.size else None
        self.hist_start = 0
        self.history = None  # (y, ymask, p, pmask, w) kept for the sliding windows

    def update(self, y, ymask, p, pmask, weights=None, *, last=False):
        """Process a chunk: ``y (T, q)`` and ``p (L, T, q)`` 0/1 (uint8), ``ymask (T,)`` / ``pmask (L, T)`` the
        present rows, ``weights (L, T)`` or None. Returns the absolute positions of the chunk's checkpoints."""
        p = np.asarray(p, dtype=np.uint8)
        L, T, q = p.shape
        if q != self.q:
            raise ValueError(f"y_pred has {q} labels in this chunk but the evaluation has {self.q}")
        if self.L is None:
            self._allocate(L, weights is not None)
        elif L != self.L:
            raise ValueError(f"y_pred has {L} leading series in this chunk but {self.L} in earlier chunks")
        if (weights is not None) != self.weighted:
            raise ValueError("weights must be given for every chunk or for none")
        if T == 0:
            return np.zeros(0, dtype=np.int64)
        w = np.zeros((L, T)) if weights is None else np.asarray(weights, dtype=np.float64)
        chunk = (np.asarray(y, np.uint8), np.asarray(ymask, np.uint8), p, np.asarray(pmask, np.uint8), w)
        y, ymask, p, pmask, w = chunk if self.history is None else tuple(
            np.concatenate([old, new], axis=1 if a in (2, 3, 4) else 0)
            for a, (old, new) in enumerate(zip(self.history, chunk))
        )  # fmt: skip
        y, p = np.ascontiguousarray(y), np.ascontiguousarray(p)
        h = y.shape[0] - T
        start = self.n_seen
        member = ymask[None, :].astype(bool) & pmask.astype(bool)
        if self.weighted and not self.moa:
            member &= w > 0
        limits = self._limits(member, y, p, h)
        mem = np.zeros((L, 0), dtype=np.uint8) if member.all() else member.astype(np.uint8)
        wts = np.ascontiguousarray(w) if (self.weighted and not self.moa) else np.zeros((L, 0))
        pos = checkpoints(start, start + T, self.every, last=True)
        E = len(self.estimators)
        outs = {m.name: output_array((L, E, pos.size) + self._extra(m), m.dtype) for m in self.metrics}
        outs["n_instances"] = output_array((L, E, pos.size))
        compiled = use_compiled(L * E * pos.size)
        est = self.estimators
        per_ck = L * E * (self.F + 1)
        state = K.State(self.sums, self.counts, self.ptr)
        c0 = 0
        for s0, s1, sel in segments(pos - start, T, per_ck, budget=SNAPSHOT_BUDGET, max_segment=MAX_SEGMENT):
            ck = pos[sel] - start + h
            a = min(h + s0, self._oldest_tail())  # the table covers what the windows still read back
            inp = self._table(y[a : h + s1], ymask[a : h + s1], p[:, a : h + s1], pmask[:, a : h + s1], a, mem, wts)
            snap = self._tables[0].array((L, E, self.F, ck.size))
            mech = K.Mechanisms(*est.mechanisms(), est.aslot, limits[:, :, s0:s1])
            span = (np.int64(self.hist_start), np.int64(h + s0))

            def run(lo, hi):
                sub = inp._replace(ex=inp.ex[lo:hi], indptr=inp.indptr[lo:hi], member=inp.member[lo:hi],
                                   weights=inp.weights[lo:hi])  # fmt: skip
                K.run(sub, mech._replace(limits=mech.limits[lo:hi]), K.State(*(x[lo:hi] for x in state)), span,
                      ck, snap[lo:hi])  # fmt: skip

            in_parallel(run, L)
            vals = self.finaliser.scratch(L, E, ck.size, into=self._tables[1])
            self.finaliser.run(snap, vals, self.context, outs, c0, compiled=compiled)
            outs["n_instances"][:, :, c0 : c0 + ck.size] = snap[:, :, K.ROW_N]
            c0 += ck.size
        self.rows.store(pos, outs, last=last)
        self.n_seen = start + T
        if not last:
            self._keep_history(y, ymask, p, pmask, w)
        return pos

    def _extra(self, m):
        return (self.q,) if m.shape == "label" else ()

    def _oldest_tail(self):
        """The oldest position (index of the kept history and the chunk) a sliding window reads back."""
        tails = self.ptr[:, self.estimators.sliding, K.TAIL]
        return int(tails.min()) - self.hist_start if tails.size else np.iinfo(np.int64).max

    def _table(self, y, ymask, p, pmask, off, mem, wts):
        """The kernel's inputs over positions ``off ..`` (:func:`streamtk._kernels.multilabel.instance_table`)."""
        L, T, _ = p.shape
        nex = K.N_EX if self.moa else K.N_EX_STREAMTK
        ex = self._tables[2].array((L, T, nex))
        indptr = np.empty((L, T + 1), dtype=np.int64)
        # at most q entries per instance: a segment's bound is small (MAX_SEGMENT and the windows' history)
        lab = self._lab if self.labels else np.zeros(0, dtype=np.int64)
        if self.labels and lab.size < L * T * self.q:
            self._lab = lab = np.empty(L * T * self.q, dtype=np.int64)
        K.instance_table(y, ymask, p, pmask, self.labels, ex, indptr, lab)
        return K.Inputs(ex, indptr, lab, mem, wts, np.int64(off))

    def _limits(self, member, y, p, h):
        """ADWIN widths ``(L, EA, T)`` after each position of the chunk (an ADWIN per series on its Hamming loss
        ``|Y xor P| / q``)."""
        L, n = member.shape
        if self.adwins is None:
            return np.zeros((L, 1, n - h), dtype=np.int64)
        out = np.zeros((L, self.estimators.deltas.size, n - h), dtype=np.int64)
        loss = (y[None, h:] != p[:, h:]).sum(axis=-1) / self.q
        for l in range(L):
            self.adwins.limits(member[l, h:], loss[l], l, out[l])
        return out

    def _keep_history(self, y, ymask, p, pmask, w):
        """Keep the inputs some sliding window still reads back (from the oldest window tail on)."""
        end = self.hist_start + y.shape[0]
        tails = self.ptr[:, self.estimators.sliding, K.TAIL]
        keep = oldest(tails, end)
        cut = keep - self.hist_start
        self.history = (y[cut:].copy(), ymask[cut:].copy(), p[:, cut:].copy(), pmask[:, cut:].copy(), w[:, cut:].copy())
        self.hist_start = keep

    def collect(self):
        """Every checkpoint row plus the latest instance: ``(positions, {name: (L, E, C[, q])})``."""
        if self.L is None or self.n_seen == 0:
            raise ValueError("no instances were evaluated: y_true is empty")
        return self.rows.collect()

    def drain(self, *, final: bool):
        """The rows produced since the last drain (then dropped), with the latest instance when ``final``."""
        if self.L is None:
            raise ValueError("no instances were evaluated yet")
        return self.rows.drain(final=final)
