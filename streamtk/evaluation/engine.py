"""numpy layer of the curve engine: validate, encode, allocate, call the one-pass kernel.

Semantics (the default ``convention="streamtk"``)
------------------------------------------------
* An instance is *evaluated* when its label is present and its weight is > 0.
  Missing labels and weight-0 instances are skipped entirely: they contribute to
  no estimate and occupy no window slot (a window of ``w`` holds the last ``w``
  evaluated instances; a fading factor decays once per evaluated instance). Use
  weight 0 for "not tested in this fold".
* Weighted estimates divide weighted sums by the weight total.
* Baseline classifiers are real test-then-train classifiers whose memory follows the
  estimator, scored on the evaluated instances:

  - **Majority Class** predicts the argmax of the (weighted) true-class counts the
    estimator holds *before* ``t`` (all evaluated instances so far, the last ``w``,
    or faded counts), ties to the lowest class code;
  - **Persistent** predicts the last present label before ``t`` (from the whole
    stream, never reset by a window);
  - before any label has been seen both predict class code 0 (the first class in
    ``classes`` order). The same rule holds in chunked processing and in
    :mod:`streamtk.dependence.baselines`, so ``kappa_m`` of the Majority Class classifier with
    the estimator's memory is exactly 0 and ``kappa_per`` of the Persistent
    classifier is exactly 0.

``convention="moa"`` reproduces MOA's Basic / Window / FadingFactor
ClassificationPerformanceEvaluator for accuracy, kappa, kappa_m, kappa_per
(DESIGN.md sec. 4): weighted sums divided by the *number* of instances; weight-0
instances skip accuracy and kappa but feed the baselines; the Majority Class
includes the current label; the previous label starts at class 0; no
zero-division guards (IEEE inf/NaN) and 0 for the kappas before anything was
observed; instances before the first one of positive weight are ignored (MOA
resets its evaluator then). Other metrics are computed from the same (MOA-style)
state with streamtk's formulas.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from .._core import registry as _metrics
from .._core.labels import MISSING, Encoding, encode_labels
from .._core.mechanisms import build_estimators, checkpoint_positions  # noqa: F401 (re-export)
from .._core.validation import as_float_array, check_choice, check_positive_int, check_weights  # noqa: F401 (re-export)
from .._kernels import confusion as K
from .._kernels import finalise as F
from .._kernels.adwin import LAST_ROW as ADWIN_LAST_ROW
from .._kernels.adwin import VARIANT_CODES as ADWIN_VARIANTS
from .._kernels.adwin import adwin_state_new
from .._kernels.moa_adwin import run_moa_adwin
from ._segments import compress, segment_capacity
from .score_engine import score_losses

ADWIN_DEFAULTS = {"max_buckets": 5, "clock": 32, "min_window": 5, "variant": "moa"}


def in_parallel(run, L: int) -> None:
    """Call ``run(lo, hi)`` on contiguous groups of the ``L`` leading series, one thread each.

    The kernels release the GIL (``nogil=True``), so the groups run in parallel on
    ``numba.config.NUMBA_NUM_THREADS`` threads (set ``NUMBA_NUM_THREADS=1`` for one
    core). Threads instead of ``prange`` keep the engine's compile time down.
    """
    nthreads = max(1, min(int(numba.config.NUMBA_NUM_THREADS), L))
    if nthreads == 1:
        run(0, L)
        return
    bounds = np.linspace(0, L, nthreads + 1).round().astype(int)
    with ThreadPoolExecutor(max_workers=nthreads) as pool:
        futures = [pool.submit(run, int(lo), int(hi)) for lo, hi in zip(bounds[:-1], bounds[1:]) if hi > lo]
        for f in futures:
            f.result()


def _check_adwin_options(options) -> dict:
    """ADWIN parameters of ``adwin=`` estimators (see :func:`streamtk.drift.adwin.adwin`)."""
    opts = dict(ADWIN_DEFAULTS)
    if options is None:
        return opts
    if not isinstance(options, dict):
        raise TypeError(f"adwin_options must be a dict, got {options!r}")
    unknown = set(options) - set(opts)
    if unknown:
        raise ValueError(f"adwin_options has unknown keys {sorted(unknown)!r}; known: {sorted(opts)!r}")
    opts.update(options)
    opts["max_buckets"] = check_positive_int(opts["max_buckets"], "adwin_options['max_buckets']", minimum=2)
    opts["clock"] = check_positive_int(opts["clock"], "adwin_options['clock']")
    opts["min_window"] = check_positive_int(opts["min_window"], "adwin_options['min_window']")
    opts["variant"] = check_choice(opts["variant"], "adwin_options['variant']", tuple(ADWIN_VARIANTS))
    return opts


__all__ = ["EngineCore", "CONVENTIONS"]

CONVENTIONS = ("streamtk", "moa")


class EngineCore:
    """State, options and accumulated output of one (possibly chunked) evaluation.

    The labelled layer (:func:`streamtk.evaluate`, :class:`streamtk.Evaluator`)
    wraps this; it works on ``(L, n)`` arrays of already-split leading dims.
    """

    def __init__(
        self,
        *,
        encoding: Encoding,
        windows=(),
        fading=(),
        adwin=(),
        adwin_options=None,
        every=1,
        metrics=None,
        cost=None,
        convention="streamtk",
        pos_label=None,
        scores=None,
    ):
        self.convention = check_choice(convention, "convention", CONVENTIONS)
        self.scores = scores  # None, "binary" or "multi": the kind of y_score given
        self.every = check_positive_int(every, "every")
        self.encoding = encoding
        self.k = encoding.n_classes
        self.code_dtype = encoding.compact_dtype  # the kernels run on int8 codes up to 127 classes
        self.specs = build_estimators(windows, fading, adwin)
        self.adwin_options = _check_adwin_options(adwin_options)
        self.cost = self._check_cost(cost)
        self.pos = self._check_pos_label(pos_label)
        self.pos_label_given = pos_label is not None
        chosen = _metrics.resolve_metrics(metrics, n_classes=self.k, has_cost=self.cost is not None, scores=scores)
        if metrics is None and self.k != 2 and not self.pos_label_given:
            chosen = [m for m in chosen if m.name != "f1"]
        elif any(m.name == "f1" for m in chosen) and self.k != 2 and not self.pos_label_given:
            raise ValueError(f"metric 'f1' needs pos_label= when there are {self.k} classes")
        self.metrics = chosen
        self.scalar = [m for m in chosen if m.kind == "scalar"]
        self.per_class = [m for m in chosen if m.kind == "class"]
        self.auc_metrics = [m for m in chosen if m.kind == "auc"]
        self.quantities = []  # names of extra per-instance quantities, in slot order
        arg = []
        for m in self.scalar:
            if m.quantity is not None:
                if m.quantity not in self.quantities:
                    self.quantities.append(m.quantity)
                arg.append(self.quantities.index(m.quantity))
            else:
                arg.append(0)
        self.metric_ids = np.array([m.code for m in self.scalar], dtype=np.int64)
        self.metric_arg = np.array(arg, dtype=np.int64)
        self.class_ids = np.array([m.code for m in self.per_class], dtype=np.int64)
        self.kinds = np.array([s.code for s in self.specs], dtype=np.int64)
        self.wsize = np.array([s.param if s.kind == "window" else 0 for s in self.specs], dtype=np.int64)
        self.alphas = np.array([s.param if s.kind == "fading" else 1.0 for s in self.specs], dtype=np.float64)
        win = [i for i, s in enumerate(self.specs) if s.kind in ("window", "adwin")]
        self.hslot = np.full(len(self.specs), -1, dtype=np.int64)
        self.hslot[win] = np.arange(len(win))
        self.n_hist = len(win)
        ad = [i for i, s in enumerate(self.specs) if s.kind == "adwin"]
        self.aslot = np.full(len(self.specs), -1, dtype=np.int64)
        self.aslot[ad] = np.arange(len(ad))
        self.n_adwin = len(ad)
        self.deltas = np.array([s.param if s.kind == "adwin" else 0.0 for s in self.specs], dtype=np.float64)
        self.L = None
        self.n_seen = 0
        self._outputs = []  # list of (positions, out, outc)
        self._moa_started = None
        self._closed = False  # set by update(last=True): no chunk may follow

    # ------------------------------------------------------------------ checks
    def _check_cost(self, cost):
        if cost is None:
            return None
        arr = as_float_array(cost, "cost")
        k = self.k
        if arr.shape != (k, k) and not (arr.ndim == 3 and arr.shape[1:] == (k, k)):
            raise ValueError(
                f"cost must have shape ({k}, {k}) (cost[true, predicted]) or (n, {k}, {k}) for per-instance costs, "
                f"got shape {arr.shape}"
            )
        return arr

    def _check_pos_label(self, pos_label):
        if pos_label is None:
            return 1 if self.k == 2 else 0
        code = self.encoding.index.get(pos_label.item() if isinstance(pos_label, np.generic) else pos_label)
        if code is None:
            raise ValueError(f"pos_label {pos_label!r} is not one of the classes {self.encoding.classes.tolist()!r}")
        return code

    # ------------------------------------------------------------------ state
    def _allocate(self, L: int):
        self.L = L
        E = len(self.specs)
        nq = len(self.quantities)
        self.sc = np.zeros((L, E, F.state_size(nq)), dtype=np.float64)
        self.sc[:, :, F.EI] = 1.0
        self.sc[:, :, F.BI] = 1.0
        self.cls = np.zeros((L, E, 3, self.k), dtype=np.float64)
        self.ptr = np.zeros((L, E, 4), dtype=np.int64)
        self.prev = np.zeros(L, dtype=np.int64)
        self.hist_start = 0  # absolute position of the first kept history instance
        self.h_ytrue = np.zeros(0, dtype=self.code_dtype)
        self.h_ypred = np.zeros((L, 0), dtype=self.code_dtype)
        self.h_w = None
        self.h_q = np.zeros((L, nq, 0), dtype=np.float64)
        self.h_per = np.zeros((L, 0), dtype=np.uint8)
        self.h_maj = np.zeros((L, self.n_hist, 0), dtype=np.uint8)
        opts = self.adwin_options
        state = adwin_state_new(L * max(1, self.n_adwin), opts["max_buckets"], 1 if self.n_adwin == 0 else 64)
        self.adwin_state = tuple(a.reshape((L, max(1, self.n_adwin)) + a.shape[1:]) for a in state)
        EA = max(1, self.n_adwin)
        S = segment_capacity(opts["max_buckets"]) if self.n_adwin and self.convention != "moa" else 0
        self.seg_pay = np.zeros((L, EA, S, F.state_size(nq) + 3 * self.k), dtype=np.float64)
        self.seg_mem = np.zeros((L, EA, S), dtype=np.int64)
        self.seg_span = np.zeros((L, EA, S), dtype=np.int64)
        self.seg_head = np.zeros((L, EA), dtype=np.int64)
        self.seg_count = np.zeros((L, EA), dtype=np.int64)
        if self.convention == "moa" and self.n_adwin:
            # MOA: a separate ADWIN per estimated quantity (2k + 3 of them per estimator)
            self.moa_adwin_state = adwin_state_new(L * self.n_adwin * (2 * self.k + 3), opts["max_buckets"])
            self.moa_adwin_prev = np.zeros((L, self.n_adwin), dtype=np.int64)
            self.moa_adwin_seen = np.zeros((L, self.n_adwin), dtype=np.float64)

    def quantities_for(self, ytrue: np.ndarray, ypred: np.ndarray, start: int, y_score=None) -> np.ndarray:
        """Per-instance extra quantities ``(L, nq, T)`` for a chunk starting at absolute ``start``."""
        L, T = ypred.shape
        q = np.zeros((L, len(self.quantities), T), dtype=np.float64)
        for j, name in enumerate(self.quantities):
            if name in ("log_loss", "brier"):
                if y_score is None:
                    raise ValueError(f"metric {name!r} needs y_score for every chunk")
                q[:, j, :] = score_losses(name, ytrue, y_score, self.scores, self.k, self.pos)
            elif name == "risk":
                yt = np.where(ytrue >= 0, ytrue, 0)
                if self.cost.ndim == 2:
                    q[:, j, :] = self.cost[yt[None, :], ypred]
                else:
                    if start + T > self.cost.shape[0]:
                        raise ValueError(
                            f"cost has per-instance costs for {self.cost.shape[0]} instances but the stream has "
                            f"at least {start + T}"
                        )
                    rows = np.arange(start, start + T)
                    q[:, j, :] = self.cost[rows[None, :], yt[None, :], ypred]
        return q

    def update(
        self, ytrue: np.ndarray, ypred: np.ndarray, weights: np.ndarray | None, y_score=None, *, last: bool = False
    ):
        """Process one chunk: ``ytrue`` (T,) codes, ``ypred`` (L, T) codes, weights (L, T) or None.

        ``y_score``: ``(L, T)`` positive-class scores or ``(L, T, k)`` class scores (see
        :func:`streamtk.evaluation.score_engine.check_scores`) when score metrics are requested.
        ``last=True``: no chunk follows, so nothing is kept for later chunks (one-pass
        :func:`streamtk.evaluate`); a further update is refused.
        """
        if self._closed:
            raise ValueError("this evaluation was closed by its last chunk (last=True): start a new one")
        self._closed = last
        L, T = ypred.shape
        if self.L is None:
            self._allocate(L)
            self._weighted = weights is not None
        elif L != self.L:
            raise ValueError(f"y_pred has {L} leading series in this chunk but {self.L} in earlier chunks")
        if (weights is not None) != self._weighted:
            raise ValueError("weights must be given for every chunk or for none")
        if T == 0:
            return
        start = self.n_seen
        if self.convention == "moa" and weights is not None:
            weights = self._moa_mask_leading_zero_weights(ytrue, weights)
        q = self.quantities_for(ytrue, ypred, start, y_score)
        # prepend kept history so that window removals can read leaving instances
        h = self.h_ytrue.shape[0]
        yt = np.concatenate([self.h_ytrue, ytrue]) if h else ytrue
        yp = np.concatenate([self.h_ypred, ypred], axis=1) if h else ypred
        if weights is not None:
            w = np.concatenate([self.h_w, weights], axis=1) if h else weights
        else:
            w = np.zeros((L, 0), dtype=np.float64)
        qq = np.concatenate([self.h_q, q], axis=2) if h else q
        per = np.zeros((L, h + T), dtype=np.uint8)  # zeros: calloc, pages are touched only where written
        per[:, :h] = self.h_per
        maj = np.zeros((L, self.n_hist, h + T), dtype=np.uint8)
        maj[:, :, :h] = self.h_maj
        dense = weights is None and int(yt.min()) >= 0
        positions = checkpoint_positions(start, start + T, self.every)
        if positions.size == 0 or positions[-1] != start + T - 1:
            # the chunk's last instance is finalised too; collect() keeps it only if it ends the stream
            positions = np.append(positions, start + T - 1)
        ck_index = positions - start + h
        C = positions.shape[0]
        # time last: each metric's curve per estimator is contiguous (and written contiguously)
        out = np.empty((L, len(self.specs), len(self.scalar), C), dtype=np.float64)
        outc = np.empty((L, len(self.specs), len(self.per_class), C, self.k), dtype=np.float64)
        ytc = np.ascontiguousarray(yt, dtype=self.code_dtype)
        ypc = np.ascontiguousarray(yp, dtype=self.code_dtype)
        w64 = np.ascontiguousarray(w, dtype=np.float64)
        opts = self.adwin_options

        def run(lo, hi):
            a = slice(lo, hi)
            K.run(
                ytc,
                ypc[a],
                w64[a],
                qq[a],
                self.kinds,
                self.wsize,
                self.alphas,
                self.hslot,
                self.aslot,
                self.deltas,
                *(st[a] for st in self.adwin_state),
                opts["clock"],
                opts["min_window"],
                ADWIN_VARIANTS[opts["variant"]],
                self.seg_pay[a],
                self.seg_mem[a],
                self.seg_span[a],
                self.seg_head[a],
                self.convention == "moa",
                dense,
                self.pos,
                self.k,
                self.hist_start,
                h,
                ck_index,
                self.sc[a],
                self.cls[a],
                self.ptr[a],
                self.prev[a],
                per[a],
                maj[a],
                self.metric_ids,
                self.metric_arg,
                self.class_ids,
                float(self.k),
                out[a],
                outc[a],
            )

        in_parallel(run, L)
        if self.convention == "moa" and self.n_adwin:
            eidx = np.flatnonzero(self.kinds == F.KIND_ADWIN).astype(np.int64)
            Q = 2 * self.k + 3
            EA = self.n_adwin

            def run_moa(lo, hi):
                a = slice(lo, hi)
                st = tuple(arr[lo * EA * Q : hi * EA * Q] for arr in self.moa_adwin_state)
                run_moa_adwin(
                    ytc,
                    ypc[a],
                    w64[a],
                    eidx,
                    self.deltas[eidx],
                    *st,
                    opts["clock"],
                    opts["min_window"],
                    ADWIN_VARIANTS[opts["variant"]],
                    self.k,
                    h,
                    ck_index,
                    self.moa_adwin_prev[a],
                    self.moa_adwin_seen[a],
                    self.pos,
                    float(self.k),
                    self.metric_ids,
                    self.metric_arg,
                    self.class_ids,
                    out[a],
                    outc[a],
                    True,
                )

            in_parallel(run_moa, L)
        self._outputs.append((positions, out, outc))
        self.n_seen = start + T
        if not last:  # ``last``: no chunk follows (one-pass evaluate): nothing to keep for later chunks
            self._keep_history(yt, yp, w if weights is not None else None, qq, per, maj)

    def _moa_mask_leading_zero_weights(self, ytrue, weights):
        """MOA resets its evaluator at the first instance of positive weight: ignore what came before.

        Ignored instances get the internal weight -1, which the kernel treats as a
        missing label for that series only.
        """
        if self._moa_started is None:
            self._moa_started = np.zeros(weights.shape[0], dtype=bool)
        if self._moa_started.all():
            return weights
        weights = weights.copy()
        ok = (ytrue >= 0)[None, :] & (weights > 0)
        for l in np.flatnonzero(~self._moa_started):
            pos = np.flatnonzero(ok[l])
            if pos.size == 0:
                weights[l, :] = -1.0
            else:
                weights[l, : pos[0]] = -1.0
                self._moa_started[l] = True
        return weights

    def _keep_history(self, yt, yp, w, q, per, maj):
        """Keep the inputs that some fixed window still holds (from the oldest window start).

        ADWIN windows, which grow without bound, keep their older members as
        per-bucket sums instead (:mod:`streamtk.evaluation._segments`): memory O(log W).
        """
        T = yt.shape[0]
        end = self.hist_start + T  # absolute end
        win = self.kinds == F.KIND_WINDOW
        starts = np.minimum(self.ptr[:, win, F.P_ES], self.ptr[:, win, F.P_BS])
        keep_from = int(starts.min()) if starts.size else end
        if self.n_adwin and self.convention != "moa":
            self._compress_adwin(keep_from, (yt, yp, w, q, per, maj))
        cut = keep_from - self.hist_start
        self.h_ytrue = yt[cut:].copy()
        self.h_ypred = yp[:, cut:].copy()
        self.h_w = w[:, cut:].copy() if w is not None else None
        self.h_q = q[:, :, cut:].copy()
        self.h_per = per[:, cut:].copy()
        self.h_maj = maj[:, :, cut:].copy()
        self.hist_start = keep_from

    def _compress_adwin(self, keep_from, arrays):
        """Hold every ADWIN window's members before ``keep_from`` as per-bucket segments."""
        yt, yp, w, q, per, maj = arrays
        counts, istate = self.adwin_state[2], self.adwin_state[3]
        for e in np.flatnonzero(self.kinds == F.KIND_ADWIN):
            a, h = self.aslot[e], self.hslot[e]
            for l in range(self.L):
                seg = (
                    self.seg_pay[l, a],
                    self.seg_mem[l, a],
                    self.seg_span[l, a],
                    self.seg_head[l, a : a + 1],
                    self.seg_count[l, a : a + 1],
                )
                compress(
                    seg,
                    int(self.ptr[l, e, F.P_ES]),
                    int(self.ptr[l, e, F.P_EC]),
                    counts[l, a],
                    int(istate[l, a, ADWIN_LAST_ROW]),
                    self.hist_start,
                    keep_from,
                    (yt, yp[l], None if w is None else w[l], q[l], per[l], maj[l, h]),
                    self.k,
                    len(self.quantities),
                )

    # ------------------------------------------------------------------ output
    def _rows(self, pieces, last):
        positions, outs, outcs = [], [], []
        for pos, out, outc in pieces:
            keep = ((pos + 1) % self.every == 0) | (pos == last)
            if keep.all():
                positions.append(pos)
                outs.append(out)
                outcs.append(outc)
            elif keep.any():
                positions.append(pos[keep])
                outs.append(out[..., keep])
                outcs.append(outc[..., keep, :])
        if not outs:
            L, E = self.L, len(self.specs)
            return (
                np.zeros(0, dtype=np.int64),
                np.zeros((L, E, len(self.scalar), 0)),
                np.zeros((L, E, len(self.per_class), 0, self.k)),
            )
        if len(outs) == 1:
            return positions[0], outs[0], outcs[0]
        return np.concatenate(positions), np.concatenate(outs, axis=-1), np.concatenate(outcs, axis=-2)

    def collect(self):
        """All checkpoint rows plus the final instance: ``(positions, out, outc)``.

        ``out`` is ``(L, E, M, C)`` and ``outc`` is ``(L, E, MC, C, k)``. Each chunk
        also finalised its last instance; those rows are kept only where they are
        regular checkpoints or the end of the stream.
        """
        if self.L is None or self.n_seen == 0:
            raise ValueError("no instances were evaluated: y_true is empty")
        return self._rows(self._outputs, self.n_seen - 1)

    def drain(self, *, final: bool):
        """Like :meth:`collect` but only the rows produced since the last drain, which are then dropped.

        For streaming the curves out (bounded memory): every regular checkpoint
        row, and the last instance's row when ``final`` (the stream ended).
        """
        if self.L is None:
            raise ValueError("no instances were evaluated yet")
        pieces, self._outputs = self._outputs, []
        return self._rows(pieces, self.n_seen - 1 if final else -1)


def encode_inputs(y_true, y_pred_2d, *, classes, compact=False):
    """Encode labels once: returns ``(encoding, ytrue_codes (n,), ypred_codes (L, n))``.

    Codes are int32, or with ``compact=True`` the encoding's compact dtype (int8 for
    up to 127 classes; 8-bit labels ``0 .. k-1`` are passed through without a copy).
    """
    y_true = np.asarray(y_true) if not isinstance(y_true, np.ma.MaskedArray) else y_true
    if y_true.ndim != 1:
        raise ValueError(f"y_true must be one-dimensional (n,), got shape {y_true.shape}")
    if y_true.shape[0] == 0:
        raise ValueError("y_true is empty: there is nothing to evaluate")
    enc, (yt, yp) = encode_labels(y_true, y_pred_2d, classes=classes, compact=compact)
    return enc, yt, yp


__all__ += ["encode_inputs", "check_weights", "checkpoint_positions", "MISSING"]
