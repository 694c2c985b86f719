"""numpy layer joining the score-based metrics to the curve engine.

* Per-instance score losses (``log_loss``, ``brier``) are extra quantities of the
  engine's one pass, so they are averaged under every estimator (ADWIN included)
  exactly like the empirical risk.
* The AUC family (``auc``, ``auc_u1``, ``auc_u0``, ``auc_z``, ``auc_macro``):
  :func:`auc_arrays` (one pass over a stream in memory) takes the prequential,
  window and fading statistics from the exact Fenwick-tree kernels of
  :mod:`streamtk.evaluation.scores` (every score rank-compressed once) and the ADWIN-window
  statistics from :class:`ChunkedAUC`; :class:`ChunkedAUC` computes all of them
  chunk by chunk with carried state (:class:`streamtk.Evaluator`,
  :func:`streamtk.runners.outofcore.evaluate_store`), keeping Fenwick trees over the sorted
  distinct scores the estimators still hold (:mod:`streamtk._kernels.auc_chunked`).
  ADWIN windows are those of the ADWIN the engine runs on the 0/1 loss (one window
  for every class: one-vs-rest AUC per class and the macro average for class scores).
"""

from __future__ import annotations

import numpy as np

from .._core.mechanisms import checkpoint_positions
from .._core.validation import as_float_array
from .._kernels import auc as AK
from .._kernels import auc_chunked as AC
from .._kernels.adwin import adwin_run, adwin_state_new
from .._kernels.auc_adwin import adwin_auc_run
from .scores import auc_statistics, brier_score, finalise_binary, finalise_multiclass, log_loss

__all__ = ["check_scores", "score_losses", "auc_arrays", "auc_variables", "finalise_auc", "ChunkedAUC", "AUC_NAMES"]

#: Dataset variable -> key of the finalised statistics
AUC_NAMES = {"auc": "auc", "auc_u1": "u1", "auc_u0": "u0", "auc_z": "mw_z", "auc_macro": "auc_macro"}


def check_scores(y_score, L: int, n: int, k: int) -> tuple[str, np.ndarray]:
    """``(mode, scores)``: ``"binary"`` with ``(L, n)`` positive-class scores or ``"multi"`` with ``(L, n, k)``."""
    s = as_float_array(y_score, "y_score")
    if s.shape[-1] == n and s.size == L * n or (s.ndim >= 1 and s.shape[-1] == n and s.size == n):
        s2 = np.broadcast_to(s.reshape(-1, n), (L, n)) if s.size == n else s.reshape(L, n)
        return "binary", np.ascontiguousarray(s2)
    if s.ndim >= 2 and s.shape[-2:] == (n, k) and s.size in (L * n * k, n * k):
        s3 = np.broadcast_to(s.reshape(-1, n, k), (L, n, k)) if s.size == n * k else s.reshape(L, n, k)
        return "multi", np.ascontiguousarray(s3)
    raise ValueError(
        f"y_score must have shape (..., n) with the positive-class score or (..., n, k) with one column per class "
        f"(n = {n}, k = {k}, leading series = {L}); got shape {s.shape}"
    )


def _targets(ytrue, mode, pos):
    present = ytrue >= 0
    if mode == "binary":
        return np.where(present, (ytrue == pos).astype(np.float64), np.nan)
    return np.where(present, ytrue.astype(np.float64), np.nan)


def score_losses(name: str, ytrue, s, mode: str, k: int, pos: int) -> np.ndarray:
    """Per-instance ``log_loss`` or ``brier`` ``(L, T)``; 0 where the label is missing (never evaluated)."""
    fn = log_loss if name == "log_loss" else brier_score
    y = _targets(ytrue, mode, pos)
    vals = fn(y, s) if mode == "binary" else fn(y, s, classes=list(range(k)))
    return np.nan_to_num(vals, nan=0.0)


def _adwin_widths(ytrue, ypred, weights, delta, opts, variant_code, state):
    """Width of the ADWIN the engine runs on the 0/1 loss of the evaluated instances, after each instance.

    ``state`` (from :func:`adwin_state_new` with ``L`` instances) is carried across chunks.
    """
    L, n = ypred.shape
    widths = np.zeros((L, n), dtype=np.int64)
    none = np.empty((1, 0))
    for l in range(L):
        ev = (ytrue >= 0) & ((weights[l] > 0) if weights is not None else True)
        loss = (ytrue[ev] != ypred[l, ev]).astype(np.float64)
        wout = np.empty((1, loss.size), dtype=np.int64)
        adwin_run(
            loss[None, :],
            *(a[l : l + 1] for a in state),
            delta,
            opts["clock"],
            opts["min_window"],
            variant_code,
            wout,
            none,
            none,
            np.empty((1, 0), dtype=np.int8),
        )
        widths[l, ev] = wout[0]
    return widths


def _key_space(values):
    """Sorted distinct values per row ``(R, m)`` -> padded ``(R, D)`` keys and counts ``(R,)``."""
    uniq = [np.unique(v) for v in values]
    nk = np.array([u.size for u in uniq], dtype=np.int64)
    keys = np.full((len(uniq), int(nk.max()) if uniq else 0), np.inf)
    for i, u in enumerate(uniq):
        keys[i, : u.size] = u
    return keys, nk


def _ranks(keys, nk, s, lo):
    """Positions ``(L, m, C)`` of the scores ``s (L, m, C)`` in the key spaces ``keys (L, C, D)``.

    Rows before ``lo[l]`` (not held, never read) are clipped into range.
    """
    L, m, C = s.shape
    ranks = np.zeros((L, m, C), dtype=np.int64)
    for l in range(L):
        for c in range(C):
            d = int(nk[l, c])
            r = np.searchsorted(keys[l, c, :d], s[l, lo[l] :, c])
            ranks[l, lo[l] :, c] = np.minimum(r, max(d - 1, 0))
    return ranks


class ChunkedAUC:
    """Exact AUC statistics of an evaluation fed chunk by chunk (the state is carried).

    Works on the engine's codes: ``update(ytrue (T,), ypred (L, T), weights (L, T) or None,
    scores (L, T) or (L, T, k))`` for each chunk in order, then :meth:`collect` or
    :meth:`drain` the checkpoint rows. Same definitions as :func:`streamtk.evaluation.scores.auc_curves`
    (seed 001 eqs. 2.5-2.12, ties one half, NaN with one class held; MOA's 1.0 under
    ``convention="moa"``, which has no faded or ADWIN AUC: NaN there).

    How: every estimator keeps Fenwick trees over a sorted array of distinct scores
    (its key space, :mod:`streamtk._kernels.auc_chunked`) instead of global ranks.

    * prequential and fading estimators: per chunk the chunk's new scores are merged
      into the key space and the trees moved onto it in ``O(D + T log T)`` (``D``
      distinct scores so far); binary scores use the interleaved trees of
      :func:`streamtk._kernels.auc.cumulative_add` (one walk for every estimator);
    * a sliding window of ``w`` processes the chunk in pieces of ``max(8 w, 8192)``
      instances, each over the key space of the instances it holds and the piece's
      scores (rebuilt from them), so its tree stays small;
    * an ADWIN window (the ADWIN the engine runs on the 0/1 loss, state carried)
      extends its key space like the cumulative ones and is rebuilt from the held
      instances when most of its keys are stale.

    Exactness: the rows equal the one-pass :func:`streamtk.evaluate` AUC exactly when
    the sums are exact in float64 (unit weights and no fading factor: U counts pairs
    and halves); with instance weights or fading factors the same sums are formed in
    another order (the trees differ) and agree to a few units in the last place
    (tested to ``1e-12`` relative).

    Memory, per lead and score column: prequential and fading estimators keep every
    **distinct score seen**: ``O(distinct scores)``, 8 bytes per key plus 16 per
    estimator (twice that while a chunk is merged in) -- bounded on a log whose scores
    take few values (e.g. rounded probabilities), growing with the stream when every
    score is distinct; a sliding window keeps the inputs it holds and a tree over at
    most ``w + max(8 w, 8192)`` keys; an ADWIN window keeps the inputs of its current
    window (which grows on a stationary stream). ``kinds`` restricts the estimators
    computed (the others are NaN).
    """

    def __init__(self, core, variant_code, kinds=("prequential", "window", "fading", "adwin")):
        self.core = core
        self.variant_code = variant_code
        moa = core.convention == "moa"
        if moa and core.scores == "multi":
            raise ValueError(
                "convention='moa' is binary only (MOA's AUC evaluator refuses other problems): "
                "give (..., n) positive-class scores or drop the AUC metrics"
            )
        specs = core.specs
        ok = [sp.kind in kinds and not (moa and sp.kind in ("fading", "adwin")) for sp in specs]
        self.computed = np.array(ok, dtype=bool)
        self.cum = [i for i, sp in enumerate(specs) if ok[i] and sp.kind in ("prequential", "fading")]
        self.win = [i for i, sp in enumerate(specs) if ok[i] and sp.kind == "window"]
        self.adw = [i for i, sp in enumerate(specs) if ok[i] and sp.kind == "adwin"]
        self.unit = moa
        self.L = None
        self.n_seen = 0
        self.rows = []

    def _setup(self, L, C):
        core = self.core
        self.L, self.C = L, C
        if core.scores == "binary":
            self.grp = np.array([[0, 1]], dtype=np.int64)
            self.pos_group = np.ones(1, dtype=np.int64)
        else:
            self.grp = np.eye(C, dtype=np.int64)
            self.pos_group = np.ones(C, dtype=np.int64)
        G = 2
        self.G = G
        specs = core.specs
        Ec = len(self.cum)
        self.c_kinds = np.array([specs[i].code for i in self.cum], dtype=np.int64)
        self.c_params = np.array(
            [specs[i].param if specs[i].kind == "fading" else 0.0 for i in self.cum], dtype=np.float64
        )
        self.c_keys = np.zeros((L, C, 0))
        self.c_nk = np.zeros((L, C), dtype=np.int64)
        self.c_tree = np.zeros((L, Ec, C, G, 1))
        self.c_sums = tuple(np.zeros((L, Ec, C, G)) for _ in range(3))  # W, N, U
        self.c_inv = np.ones((L, Ec))
        self.c_inv[:, self.c_kinds == AK.KIND_FADING] = self.c_params[self.c_kinds == AK.KIND_FADING]
        self.c_istate = np.zeros((L, Ec, 2), dtype=np.int64)
        # binary scores: the interleaved layout of streamtk._kernels.auc.cumulative_add
        self.c_alphas = np.where(self.c_kinds == AK.KIND_FADING, self.c_params, 1.0)
        self.c_btree = np.zeros((L, 1, 2, Ec))
        self.c_bstat = np.zeros((L, Ec, 5))
        self.c_binv = np.ones((L, Ec))
        # windows and ADWIN windows: sums and (absolute tail, number held) per estimator
        self.w_sums = {e: tuple(np.zeros((L, 1, C, G)) for _ in range(3)) for e in self.win + self.adw}
        self.w_istate = {e: np.zeros((L, 1, 2), dtype=np.int64) for e in self.win + self.adw}
        self.w_keys = {
            e: (
                np.zeros((L, C, 0)),
                np.zeros((L, C), dtype=np.int64),
                np.zeros((L, 1, C, G, 1)),
                np.zeros((L, 0, C), dtype=np.int64),
            )
            for e in self.adw
        }
        opts = core.adwin_options
        self.adwin_state = {e: adwin_state_new(L, opts["max_buckets"]) for e in self.adw}
        self.hist_start = 0
        self.h_y = np.zeros(0, dtype=np.int64)
        self.h_w = None
        self.h_s = np.zeros((L, 0, C))

    def update(self, ytrue, ypred, weights, s):
        """Process the next chunk (codes as the engine gets them, scores from :func:`check_scores`)."""
        core = self.core
        L, T = ypred.shape
        s3 = np.asarray(s, dtype=np.float64)
        s3 = s3[..., None] if core.scores == "binary" else s3
        if self.L is None:
            self._setup(L, s3.shape[-1])
            self.weighted = weights is not None
        if T == 0:
            return
        if np.isnan(s3).any():
            l, t = (int(i) for i in np.argwhere(np.isnan(s3))[0][:2])
            raise ValueError(
                f"y_score contains NaN at instance {self.n_seen + t} (0-based) of series {l}: "
                "AUC needs a score for every instance"
            )
        start = self.n_seen
        if core.scores == "binary":
            y = np.where(ytrue >= 0, (ytrue == core.pos).astype(np.int64), -1)
        else:
            y = ytrue.astype(np.int64)
        w = np.ones((1, T)) if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
        positions = checkpoint_positions(start, start + T, core.every)
        if positions.size == 0 or positions[-1] != start + T - 1:
            positions = np.append(positions, np.int64(start + T - 1))
        E, Tc, C, G = len(core.specs), positions.size, self.C, self.G
        U = np.full((L, E, Tc, C, G), np.nan)
        W = np.full((L, E, Tc, C, G), np.nan)
        N = np.full((L, E, Tc, C, G), np.nan)
        if self.cum:
            self._cumulative(y, w, s3, positions - start, U, W, N)
        if self.win or self.adw:
            self._windows(y, w, s3, ytrue, ypred, weights, positions - start, U, W, N)
        self.rows.append((positions, U, W, N))
        self.n_seen = start + T

    @staticmethod
    def _merge_keys(old_keys, old_nk, old_tree, s3):
        """Key spaces extended by the chunk's scores, the trees moved onto them (``O(D + T log T)``).

        Returns ``(keys, nk, tree, chunk_ranks (L, T, C), remap)``: ``remap[l][c][j]`` is
        the new position of old key ``j``.
        """
        keys, nk, ranks, remap = ChunkedAUC._extend_keys(old_keys, old_nk, s3)
        tree = np.zeros(old_tree.shape[:4] + (keys.shape[-1] + 1,))
        if old_keys.shape[-1]:
            AC.rekey(old_tree, old_keys, old_nk, keys, nk, tree)
        return keys, nk, tree, ranks, remap

    @staticmethod
    def _extend_keys(old_keys, old_nk, s3):
        """``(keys, nk, chunk_ranks, remap)`` of :meth:`_merge_keys` without moving a tree."""
        L, T, C = s3.shape
        merged = []
        ranks = np.empty((L, T, C), dtype=np.int64)
        remap = [[None] * C for _ in range(L)]
        for l in range(L):
            for c in range(C):
                old = np.ascontiguousarray(old_keys[l, c, : old_nk[l, c]])
                u, inv = np.unique(s3[l, :, c], return_inverse=True)  # O(T log T)
                keys_lc, remap[l][c], upos = AC.merge_keys(old, u)  # O(D + T)
                ranks[l, :, c] = upos[inv]
                merged.append(keys_lc)
        nk = np.array([k.size for k in merged], dtype=np.int64).reshape(L, C)
        keys = np.full((L, C, int(nk.max())), np.inf)
        for l in range(L):
            for c in range(C):
                keys[l, c, : nk[l, c]] = merged[l * C + c]
        return keys, nk, ranks, remap

    def _cumulative(self, y, w, s3, cps, U, W, N):
        L, T, C = s3.shape
        if self.core.scores == "binary":  # interleaved trees: one Fenwick walk serves every estimator
            keys, nk, ranks, _ = self._extend_keys(self.c_keys, self.c_nk, s3)
            tree = np.zeros((L, keys.shape[-1] + 1) + self.c_btree.shape[2:])
            if self.c_keys.shape[-1]:
                AC.rekey_interleaved(self.c_btree, self.c_keys, self.c_nk, keys, nk, tree)
            self.c_keys, self.c_nk, self.c_btree = keys, nk, tree
            out = np.zeros((L, len(self.cum), cps.size, 5))
            AC.binary_cumulative_run(
                np.ascontiguousarray(ranks[:, :, 0]),
                np.ascontiguousarray(y[None, :]),
                w,
                self.c_alphas,
                self.unit,
                cps,
                tree,
                self.c_bstat,
                self.c_binv,
                out,
            )
            for j, e in enumerate(self.cum):
                U[:, e, :, 0, 0], W[:, e, :, 0, 0], W[:, e, :, 0, 1] = out[:, j, :, 0], out[:, j, :, 1], out[:, j, :, 2]
                N[:, e, :, 0, 0], N[:, e, :, 0, 1] = out[:, j, :, 3], out[:, j, :, 4]
            return
        keys, nk, tree, ranks, _ = self._merge_keys(self.c_keys, self.c_nk, self.c_tree, s3)
        self.c_keys, self.c_nk, self.c_tree = keys, nk, tree
        Ec = len(self.cum)
        out = tuple(np.zeros((L, Ec, cps.size, C, self.G)) for _ in range(3))
        Ws, Ns, Us = self.c_sums
        AK.auc_run(
            ranks,
            np.ascontiguousarray(y[None, :]),
            w,
            self.c_kinds,
            self.c_params,
            self.grp,
            self.pos_group,
            self.unit,
            0,
            T,
            cps,
            0,
            tree,
            Ws,
            Ns,
            Us,
            self.c_inv,
            self.c_istate,
            *out,
        )
        for j, e in enumerate(self.cum):
            U[:, e], W[:, e], N[:, e] = out[0][:, j], out[1][:, j], out[2][:, j]

    def _window_keys(self, e, sa, s3, ya, wa, tails, h):
        """Key space, tree and ranks ``(L, h + T, C)`` of ADWIN window ``e`` for the history plus the chunk.

        Normally the key space grows by the chunk's scores and the held instances'
        ranks are remapped (``O(D + h)``); when it holds more than twice as many keys
        as the window holds instances (plus the chunk), it is rebuilt from the held
        instances (``O(held log held)``), which drops the keys no instance has any more.
        """
        L, T, C = s3.shape
        okeys, onk, otree, ohr = self.w_keys[e]
        held = int(self.w_istate[e][:, 0, 1].max())
        if int(onk.max()) + T <= 2 * (held + T) + 1024:
            keys, nk, tree, cr, remap = self._merge_keys(okeys, onk, otree, s3)
            ranks = np.empty((L, h + T, C), dtype=np.int64)
            ranks[:, h:] = cr
            for l in range(L):
                for c in range(C):
                    rm = remap[l][c]
                    ranks[l, :h, c] = rm[ohr[l, :, c]] if rm.size else 0
        else:
            keys, nk = _key_space([sa[l, tails[l] :, c] for l in range(L) for c in range(C)])
            keys, nk = keys.reshape(L, C, -1), nk.reshape(L, C)
            ranks = _ranks(keys, nk, sa, tails)
            tree = np.zeros((L, 1, C, self.G, keys.shape[-1] + 1))
            AC.build_held(ranks, ya, wa, self.grp, self.unit, tails, h, tree)
        return keys, nk, tree, ranks

    def _window_run(self, e, ya, wa, sa, h, T, ck, rel, out):
        """Sliding window ``e`` over the chunk, in pieces of ``P = max(8 w, 8192)`` instances.

        Each piece works in the key space of the instances the window holds and the
        piece's scores (``<= w + P`` keys, so the tree stays small and in cache),
        rebuilt in ``O((w + P) log(w + P))`` from the held instances.
        """
        L, C = sa.shape[0], sa.shape[2]
        win = np.array([AK.KIND_WINDOW])
        size = float(self.core.specs[e].param)
        P = max(8 * int(size), 8192)
        Ws, Ns, Us = self.w_sums[e]
        for a in range(0, T, P):
            b = min(a + P, T)
            base = int(rel[:, 0, 0].min())
            hi = h + b
            s_p = sa[:, base:hi]
            y_p = np.ascontiguousarray(ya[:, base:hi])
            w_p = np.ascontiguousarray(wa[:, base:hi])
            tails = rel[:, 0, 0] - base
            ranks = np.zeros(s_p.shape, dtype=np.int64)
            D = 1
            for l in range(L):
                for c in range(C):
                    u, ranks[l, tails[l] :, c] = np.unique(s_p[l, tails[l] :, c], return_inverse=True)
                    D = max(D, u.size)
            tree = np.zeros((L, 1, C, self.G, D + 1))
            AC.build_held(ranks, y_p, w_p, self.grp, self.unit, tails, h + a - base, tree)
            sel = (ck >= h + a) & (ck < hi)
            sub = tuple(np.zeros((L, 1, int(sel.sum()), C, self.G)) for _ in range(3))
            loc = rel.copy()
            loc[:, 0, 0] = tails
            AK.auc_run(
                ranks,
                y_p,
                w_p,
                win,
                np.array([size]),
                self.grp,
                self.pos_group,
                self.unit,
                h + a - base,
                hi - base,
                np.ascontiguousarray(ck[sel] - base),
                0,
                tree,
                Ws,
                Ns,
                Us,
                np.ones((L, 1)),
                loc,
                *sub,
            )
            rel[:, 0, 0] = loc[:, 0, 0] + base
            rel[:, 0, 1] = loc[:, 0, 1]
            for o, q in zip(out, sub):
                o[:, :, sel] = q

    def _windows(self, y, w, s3, ytrue, ypred, weights, cps, U, W, N):
        core = self.core
        L, T, C = s3.shape
        h = self.h_y.size
        ya = np.ascontiguousarray(np.concatenate([self.h_y, y])[None, :])
        wa = np.ascontiguousarray(np.concatenate([self.h_w, w], axis=1)) if h else w
        sa = np.concatenate([self.h_s, s3], axis=1) if h else s3
        ck = cps + h
        opts = core.adwin_options
        all_ranks = {}
        for e in self.win + self.adw:
            ist = self.w_istate[e]
            rel = ist.copy()
            rel[:, 0, 0] -= self.hist_start
            tails = rel[:, 0, 0]
            Ws, Ns, Us = self.w_sums[e]
            out = tuple(np.zeros((L, 1, cps.size, C, self.G)) for _ in range(3))
            if e in self.win:
                self._window_run(e, ya, wa, sa, h, T, ck, rel, out)
            else:
                keys, nk, tree, ranks = self._window_keys(e, sa, s3, ya, wa, tails, h)
                all_ranks[e] = ranks
                widths = _adwin_widths(
                    ytrue, ypred, weights, core.specs[e].param, opts, self.variant_code, self.adwin_state[e]
                )
                adwin_auc_run(
                    ranks,
                    ya,
                    wa,
                    widths,
                    self.grp,
                    self.pos_group,
                    self.unit,
                    h,
                    h + T,
                    ck,
                    tree,
                    Ws,
                    Ns,
                    Us,
                    rel,
                    *out,
                )
                self.w_keys[e] = (keys, nk, tree, None)
            ist[:, 0, 0] = rel[:, 0, 0] + self.hist_start
            ist[:, 0, 1] = rel[:, 0, 1]
            U[:, e], W[:, e], N[:, e] = out[0][:, 0], out[1][:, 0], out[2][:, 0]
        # keep the inputs some window still holds (and each window's ranks of them)
        keep_from = min(int(self.w_istate[e][:, 0, 0].min()) for e in self.win + self.adw)
        cut = keep_from - self.hist_start
        self.h_y = ya[0, cut:].copy()
        self.h_w = wa[:, cut:].copy()
        self.h_s = sa[:, cut:].copy()
        for e, ranks in all_ranks.items():
            self.w_keys[e] = self.w_keys[e][:3] + (ranks[:, cut:].copy(),)
        self.hist_start = keep_from

    def _finalise(self, pieces, last):
        core = self.core
        keep_rows = []
        for pos, U, W, N in pieces:
            keep = ((pos + 1) % core.every == 0) | (pos == last)
            if keep.any():
                keep_rows.append((pos[keep], U[:, :, keep], W[:, :, keep], N[:, :, keep]))
        if keep_rows:
            pos = np.concatenate([r[0] for r in keep_rows])
            U, W, N = (np.concatenate([r[i] for r in keep_rows], axis=2) for i in (1, 2, 3))
        else:
            pos = np.zeros(0, dtype=np.int64)
            U = W = N = np.zeros((self.L, len(core.specs), 0, self.C, self.G))
        return pos, finalise_auc(U, W, N, core, self.computed)

    def collect(self):
        """``(positions, arrays)``: every checkpoint row plus the last instance (see :func:`finalise_auc`)."""
        return self._finalise(self.rows, self.n_seen - 1)

    def drain(self, *, final: bool):
        """The rows produced since the last drain (the last instance's only when ``final``); then dropped."""
        pieces, self.rows = self.rows, []
        return self._finalise(pieces, self.n_seen - 1 if final else -1)


def finalise_auc(U, W, N, core, computed) -> dict:
    """The AUC variables of ``core.auc_metrics`` from ``(L, E, T, C, G)`` sums: name -> ``(L, E, T[, k])``.

    Estimators whose AUC is not computed (``computed[e]`` false) are NaN.
    """
    if core.scores == "binary":
        st = finalise_binary(
            U[..., 0, 0], W[..., 0, 0], W[..., 0, 1], N[..., 0, 0], N[..., 0, 1], convention=core.convention
        )
    else:
        st = finalise_multiclass(U, W, N, multi_class="ovr")
    out = {}
    for m in core.auc_metrics:
        a = np.array(st[AUC_NAMES[m.name]], dtype=np.float64)
        a[:, ~computed] = np.nan
        out[m.name] = a
    return out


def auc_arrays(core, ytrue, ypred, weights, s, mode, positions, variant_code) -> dict:
    """The AUC variables of ``core.auc_metrics`` for a whole stream: name -> ``(L, C, E[, k])`` (NaN if undefined).

    Prequential, window and fading estimators come from the one-pass kernels of
    :func:`streamtk.evaluation.scores.auc_statistics` (global rank compression, binary fast
    path); ADWIN windows from :class:`ChunkedAUC` run as one chunk.
    """
    L = ypred.shape[0]
    k = core.k
    moa = core.convention == "moa"
    E = len(core.specs)
    out = {}
    for m in core.auc_metrics:
        per_class = mode == "multi" and m.name != "auc_macro"
        out[m.name] = np.full((L, positions.size, E) + ((k,) if per_class else ()), np.nan)
    y = _targets(ytrue, mode, core.pos)
    windows = [sp.param for sp in core.specs if sp.kind == "window"]
    fading = [sp.param for sp in core.specs if sp.kind == "fading"] if not moa else []
    specs, pos2, stats, _ = auc_statistics(
        y,
        s,
        windows=windows,
        fading=fading,
        prequential=True,
        every=core.every,
        weights=weights,
        classes=list(range(k)) if mode == "multi" else None,
        convention=core.convention,
    )
    if not np.array_equal(pos2, positions):  # pragma: no cover - both use checkpoints every `every` + the last
        raise AssertionError("AUC checkpoints differ from the engine's")
    labels = [sp.label for sp in core.specs]
    for i, sp in enumerate(specs):
        e = labels.index(sp.label)
        for name, arr in out.items():
            arr[:, :, e] = stats[AUC_NAMES[name]][:, i]
    if any(sp.kind == "adwin" for sp in core.specs) and not moa:
        ch = ChunkedAUC(core, variant_code, kinds=("adwin",))
        ch.update(ytrue, ypred, weights, s)
        _, arrays = ch.collect()
        for e in ch.adw:
            for name, arr in out.items():
                arr[:, :, e] = arrays[name][:, e]
    return out


def auc_variables(core, lead, arrays: dict) -> dict:
    """Labelled variables (``xarray.Variable``) of the AUC arrays ``name -> (L, E, T[, k])``."""
    import xarray as xr

    out = {}
    for m in core.auc_metrics:
        arr = lead.reshape(arrays[m.name])
        dims = lead.names + ("estimator", "time") + (("class",) if arr.ndim > len(lead.shape) + 2 else ())
        out[m.name] = xr.Variable(
            dims,
            arr,
            attrs={"long_name": m.long_name, "units": m.units, "formula": m.formula, "reference": m.reference},
        )
    return out
