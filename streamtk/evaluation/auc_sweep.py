"""numpy layer of the imbalanced family (``average_precision``, ``pr_auc``, ``sauc``, ``pos_neg_ratio``).

:class:`Ranking` is the part of an :class:`streamtk.evaluation.auc_engine.AucEngine` that keeps, for every
computed estimator, the held instances' class weights and (for the swept statistics) their score
distribution, and runs :mod:`streamtk._kernels.auc.sweep` at the checkpoints: per-rank arrays over the
accumulators' key space (moved with the trees when it grows), member sweeps for sliding windows. Its
statistics are the rows of the ``auc`` table after the U statistics
(:func:`streamtk._core.metrics.auc.swept`). Cost: ``O(1)`` per instance and estimator, plus a sweep per
checkpoint of ``O(D)`` (accumulators; ``D`` distinct scores seen) or ``O(h log h)`` (windows holding
``h`` instances) when ``average_precision``, ``pr_auc`` or ``sauc`` is asked.
"""

from __future__ import annotations

import numpy as np

from .._core.parallel import in_parallel
from .._kernels.auc import sweep as KS
from .._kernels.forgetting import RESTARTING, SLIDING

__all__ = ["Ranking", "N_SWEEP"]

N_SWEEP = KS.N_SWEEP


class Ranking:
    """Ranking state of the estimators ``which`` (kinds ``kinds``) of an AUC evaluation.

    ``sweep``: compute the swept statistics (else only the class weights and counts); ``moa``: MOA's scored
    AUC; ``grp``: the class -> group map of the score columns (group 1: the column's positives).
    """

    def __init__(self, kinds, which, grp, *, sweep, moa):
        self.kinds = np.asarray(kinds)
        self.which = np.asarray(which, dtype=np.int64)
        self.sliding = np.isin(self.kinds, SLIDING)
        acc = [e for e in self.which if not self.sliding[e]]
        self.slot = np.full(len(kinds), -1, dtype=np.int64)
        self.slot[acc] = np.arange(len(acc))
        self.n_acc = len(acc)
        self.grp = np.ascontiguousarray(grp, dtype=np.int64)
        self.sweep, self.moa = bool(sweep), bool(moa)
        self.L = None

    def allocate(self, L, C):
        E = self.kinds.size
        self.L, self.C = L, C
        self.tot = np.zeros((L, E, C, 2, 2))
        self.scale = np.ones((L, E))
        self.ptr = np.zeros((L, E, 3), dtype=np.int64)
        self.hw = np.zeros((L, self.n_acc, C, 2, 0))
        self.hn = np.zeros((L, self.n_acc, C, 2, 0), dtype=np.int64)
        self.vals = np.zeros((L, C, 0))

    def rekey(self, moves, D):
        """Move the per-rank arrays to the merged key spaces (``moves[l, c]``: new positions of the old keys)."""
        hw = np.zeros(self.hw.shape[:4] + (D,))
        hn = np.zeros(self.hn.shape[:4] + (D,), dtype=np.int64)
        for (l, c), old_pos in moves.items():
            hw[l, :, c, :, old_pos] = np.moveaxis(self.hw[l, :, c, :, : old_pos.size], -1, 0)
            hn[l, :, c, :, old_pos] = np.moveaxis(self.hn[l, :, c, :, : old_pos.size], -1, 0)
        self.hw, self.hn = hw, hn

    def values(self, keys):
        """The key values ``(L, C, D)`` of the accumulators' key spaces (``+inf`` past a column's own keys)."""
        D = self.hw.shape[-1]
        vals = np.full((self.L, self.C, D), np.inf)
        for l in range(self.L):
            for c in range(self.C):
                vals[l, c, : keys[l][c].size] = keys[l][c]
        self.vals = vals

    def run(self, arrays, scores, ranks, mech, span, ck, snap):
        """The statistics at the checkpoints ``ck`` of a segment into ``snap (L, E, N_SWEEP, C, len(ck))``.

        ``arrays = (y, member, weights)`` (the engine's group codes and members over the kept history and the
        segment), ``scores (L, T, C)``, ``ranks`` in the accumulators' key space, ``mech`` the engine's
        :class:`streamtk._kernels.auc.layout.Mechanisms` (limits of the segment), ``span = (base, t_begin)``.
        """
        y, M, W = arrays
        T = y.shape[0]
        m = KS.Mechanisms(mech.kinds, mech.sizes, mech.fading, mech.marks, mech.mark_off, self.slot, mech.aslot,
                          mech.limits)  # fmt: skip
        grps = KS.Groups(self.grp, self.moa, self.sweep, self.moa)  # MOA: every member weighs 1
        sc = np.ascontiguousarray(scores[:, :T])
        rk = ranks[:, :T] if ranks.shape[1] else ranks
        srk, svals = self._score_ranks(scores)
        srk = srk[:, :T] if srk.shape[1] else srk

        def run(lo, hi):
            inp = KS.Inputs(y, M[lo:hi], W[lo:hi], sc[lo:hi], rk[lo:hi], srk[lo:hi], svals[lo:hi])
            st = KS.State(self.tot[lo:hi], self.scale[lo:hi], self.ptr[lo:hi], self.hw[lo:hi], self.hn[lo:hi],
                          self.vals[lo:hi])  # fmt: skip
            KS.run(inp, grps, m._replace(limits=m.limits[lo:hi]), st, span, self.which, ck, snap[lo:hi])

        in_parallel(run, self.L)

    def _score_ranks(self, scores):
        """Dense ranks ``(L, T, C)`` of ``scores`` and their values ``(L, C, Ds)`` for the sliding windows' counting
        sweeps (built once per chunk; empty when no sliding window sweeps)."""
        L, T, C = scores.shape
        if not (self.sweep and self.sliding[self.which].any()):
            return np.zeros((L, 0, C), dtype=np.int64), np.zeros((L, C, 0))
        if getattr(self, "_sr_src", None) is not scores:  # the array itself is held: no stale cache
            from .._kernels.auc.ranks import dense_ranks

            srk = np.empty((L, T, C), dtype=np.int64)
            found = [[None] * C for _ in range(L)]
            r, u = np.empty(T, dtype=np.int64), np.empty(T)
            for l in range(L):
                for c in range(C):
                    x = np.ascontiguousarray(scores[l, :, c])
                    d = dense_ranks(np.where(np.isnan(x), 0.0, x), r, u)  # NaN: not evaluated, never read
                    srk[l, :, c] = r
                    found[l][c] = u[:d].copy()
            Ds = max(v.size for row in found for v in row)
            svals = np.full((L, C, Ds), np.inf)
            for l in range(L):
                for c in range(C):
                    svals[l, c, : found[l][c].size] = found[l][c]
            self._sr_src, self._sr = scores, (srk, svals)
        return self._sr

    def tails(self, end):
        """The oldest positions each estimator still reads back: a sliding window's tail; a restarting window's
        first member while it holds few enough for a member sweep or a removal (else it clears: ``end``)."""
        D = self.hw.shape[-1]
        out = []
        for e in self.which:
            pt = self.ptr[:, e]
            if self.sliding[e]:
                out.append(pt[:, KS.TAIL])
            elif self.kinds[e] in RESTARTING:
                held = pt[:, KS.HELD].astype(np.float64)
                out.append(np.where(held * (np.log2(held + 1.0) + 1.0) * 4.0 < D, pt[:, KS.TAIL], end))
        return out
