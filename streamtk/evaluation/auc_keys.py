"""Key spaces of the AUC family's accumulators and sliding windows (a part of :class:`.auc_engine.AucEngine`).

Accumulators keep their trees (and the imbalanced family its per-rank arrays) over the sorted distinct
scores seen so far, per series and score column: a chunk's distinct scores are merged in and the trees
moved to the merged key space in ``O(D)``. Sliding windows work on the dense ranks of the inputs they
still hold and the chunk, rebuilt per chunk.
"""

from __future__ import annotations

import numpy as np

from .._core.alloc import line_aligned_zeros

__all__ = ["KeySpaces"]


class KeySpaces:
    """The key-space methods of :class:`streamtk.evaluation.auc_engine.AucEngine` (its state: ``keys``, ``trees``,
    ``itree``, ``ranking``)."""

    def _accumulator_ranks(self, s3, S, h):
        """Ranks ``(L, h + T, C)`` in the accumulators' key spaces, extended by the chunk's scores (trees moved)."""
        if not (self.cum.size or self.gacc.size):
            return np.zeros((self.L, 0, self.C), dtype=np.int64), 0
        from .._kernels.auc.ranks import dense_ranks, merge_keys

        L, T, C = s3.shape
        ranks = (np.zeros if h else np.empty)((L, h + T, C), dtype=np.int64)
        moves = {}
        for l in range(L):
            for c in range(C):
                x = np.ascontiguousarray(s3[l, :, c])
                old = self.keys[l][c]
                view = ranks[l, h:, c]
                r = view if (old.size == 0 and view.flags.c_contiguous) else np.empty(T, dtype=np.int64)
                u = np.empty(T)
                u = u[: dense_ranks(x, r, u)]  # the distinct scores, ascending (a view: no copy)
                if old.size == 0:
                    self.keys[l][c] = u
                    if r is not view:
                        view[:] = r
                    continue
                merged, old_pos, u_pos = merge_keys(old, u)
                ranks[l, h:, c] = u_pos[r]
                moves[l, c] = old_pos
                self.keys[l][c] = merged
        D = max(k.size for row in self.keys for k in row)
        if D != self.key_size or any(p.size != p[-1] + 1 for p in moves.values()):
            self._rekey(moves, D)
        if h and self.restarts.any():  # restarts remove held members: their ranks in the new key space
            for l in range(L):
                for c in range(C):
                    ranks[l, :h, c] = np.searchsorted(self.keys[l][c], S[l, :h, c])
        return ranks, D

    def _rekey(self, moves, D):
        """Move the accumulator trees to the merged key spaces (``D`` positions at most), ``O(D)`` each.

        ``moves[l, c]``: the new positions of the old keys of series ``l``, column ``c`` (pairs
        without old keys hold empty trees). Every tree is rebuilt, since a Fenwick tree padded with
        zeros is not a valid larger tree. The imbalanced family's per-rank arrays move too.
        """
        from .._kernels.fenwick import rekey

        self.key_size = D
        if self.ranking is not None:
            self.ranking.rekey(moves, D)
        if not self.ustat:
            return
        trees = np.zeros(self.trees.shape[:4] + (D + 1,))
        itree = line_aligned_zeros((self.L, D + 1) + self.itree.shape[2:])
        for (l, c), old_pos in moves.items():
            for a in range(self.gacc.size):
                for g in range(self.G):
                    rekey(self.trees[l, a, c, g][:, None], old_pos, trees[l, a, c, g][:, None])
            if self.cum.size:
                rekey(self.itree[l].reshape(self.itree.shape[1], -1), old_pos, itree[l].reshape(D + 1, -1))
        self.trees, self.itree = trees, itree

    def _sliding_ranks(self, S, h, same):
        """Dense ranks ``(L, h + T, C)`` of the kept inputs and the chunk (the sliding windows' key space)."""
        if not (self.gsl.size or self.win.size):
            return np.zeros((self.L, 0, self.C), dtype=np.int64)
        if same is not None and same.shape[1] == S.shape[1]:
            return same
        from .._kernels.auc.ranks import dense_ranks

        out = np.empty(S.shape, dtype=np.int64)
        for l in range(S.shape[0]):
            for c in range(S.shape[2]):
                col = np.empty(S.shape[1], dtype=np.int64)
                dense_ranks(np.ascontiguousarray(S[l, :, c]), col, np.zeros(0))
                out[l, :, c] = col
        return out
