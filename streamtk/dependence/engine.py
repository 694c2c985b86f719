"""numpy layer of the label-dependence family (:mod:`streamtk._kernels.dependence`).

:class:`DependenceEngine` holds the label-dependence state of every estimator across chunks
(chunked == one pass), computes the per-position events the kernel reads
(:func:`streamtk._kernels.dependence.label_events`) and runs the kernel in one of its modes:
statistics at checkpoints, Majority Class predictions, Temporal Correction factors. ADWIN windows
of the label stream are those of an ADWIN run on the Persistent classifier's 0/1 loss
``[y_t != y_(t-1)]`` (the window shrinks when the rate of label changes, the stream's temporal
dependence, changes).
"""

from __future__ import annotations

import numpy as np

from .._core.adwin import LossAdwins, check_adwin_options
from .._core.chunks import ChunkHistory, EstimatorTable, oldest
from .._kernels import dependence as K

__all__ = ["DependenceEngine", "label_events_reference", "MODES"]

MODES = {"stats": K.STATS, "majority": K.MAJORITY, "factors": K.FACTORS}


def label_events_reference(codes: np.ndarray, cursor, max_lag: int):
    """``(prev, bins, cursor)`` of a chunk of codes (-1 = missing), in numpy: the tests' reference for
    the kernel :func:`streamtk._kernels.dependence.label_events`.

    ``prev[t]``: the last present label before ``t`` (-1 if none); ``bins[t]`` (present ``t``): the
    run-length bin ``min(r, L + 1) - 1`` of the run of equal labels ending just before ``t``;
    ``cursor = (label, run length)`` of the last run, carried across chunks ((-1, 0) initially).
    """
    T = codes.shape[0]
    last, run = int(cursor[0]), int(cursor[1])
    prev = np.full(T, -1, dtype=np.int64)
    bins = np.zeros(T, dtype=np.int64)
    idx = np.flatnonzero(codes >= 0)
    if idx.size == 0:
        prev[:] = last
        return prev, bins, (last, run)
    labels = codes[idx].astype(np.int64)
    before = np.empty_like(labels)
    before[0] = last
    before[1:] = labels[:-1]
    change = np.ones(labels.size, dtype=bool)
    change[1:] = labels[1:] != labels[:-1]
    starts = np.flatnonzero(change)
    run_id = np.cumsum(change) - 1
    length = np.arange(labels.size) - starts[run_id] + 1  # length of the run ending at each label
    if labels[0] == last and last >= 0:
        length[run_id == 0] += run
    r = np.empty(labels.size, dtype=np.int64)
    r[0] = run
    r[1:] = length[:-1]
    bins[idx] = np.where(r <= max_lag, r - 1, max_lag)
    # the last present label strictly before every position
    owner = np.full(T, -1, dtype=np.int64)
    owner[idx] = idx
    owner = np.maximum.accumulate(owner)
    prev[1:] = np.where(owner[:-1] >= 0, codes[np.maximum(owner[:-1], 0)], last)
    prev[0] = last
    return prev, bins, (int(labels[-1]), int(length[-1]))


class DependenceEngine:
    """Label-dependence state of every estimator (``specs``) over ``k`` classes, chunk by chunk."""

    def __init__(self, specs, k: int, max_lag: int, adwin_options: dict | None = None):
        self.estimators = EstimatorTable(specs)
        self.specs = self.estimators.specs
        self.k = k
        self.max_lag = max_lag
        E, B = len(specs), max_lag + 1
        self.state = (
            np.zeros((E, k)),
            np.zeros((E, k, k)),
            np.zeros((E, k, B)),
            np.zeros((E, k, B)),
            np.zeros((E, k)),
            np.tile(np.array([0.0, 1.0]), (E, 1)),
            np.tile(np.array([0, 0, 0, 0, -1, 0], dtype=np.int64), (E, 1)),
        )
        self.lead = np.array([-1, 0], dtype=np.int64)  # the run cursor (label, run length)
        self.sliding = bool(self.estimators.sliding.any())
        self.mode = None
        self.history = ChunkHistory(codes=np.zeros(0, dtype=np.int64))
        self.n_seen = 0
        deltas = self.estimators.deltas
        self.adwins = LossAdwins(1, deltas, check_adwin_options(adwin_options)) if deltas.size else None

    def update(self, codes: np.ndarray, *, mode: str = "stats", ck=None, out=None):
        """Process a chunk of codes; returns what ``mode`` produces (snapshots at ``ck``, or per position).

        An engine keeps the state of one mode (the first it ran): another mode raises. ``out``: for mode
        ``"majority"`` without history (the first chunk), an ``(E, T)`` int64 array with contiguous rows that
        receives the predictions (and is returned), so that a caller's larger array is written in place.
        """
        m = MODES[mode]
        if self.mode is not None and self.mode != m:
            raise ValueError(f"this engine runs mode {self.mode!r}; use a new engine for mode {mode!r}")
        self.mode = m
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        T = codes.shape[0]
        h = self.history.length
        cc = np.ascontiguousarray(self.history.join(codes=codes)["codes"])
        E, k, B = len(self.specs), self.k, self.max_lag + 1
        limits = self._limits(codes)
        ck = np.zeros(0, dtype=np.int64) if ck is None else np.asarray(ck, dtype=np.int64) + h
        C = ck.size
        snaps = pred = fac = None
        if m == K.STATS:
            snaps = np.empty((E, k + k * k + k + 2 * k * (B - 1), C))
        elif m == K.MAJORITY:
            if out is not None and h == 0:
                if out.shape != (E, T) or out.dtype != np.int64 or out.strides[1] != 8:
                    raise ValueError(f"out must be an (E, T) = {(E, T)} int64 array with contiguous rows")
                pred = out
            else:
                pred = np.empty((E, h + T), dtype=np.int64)
        else:
            fac = np.empty((E, h + T, k))
        member = (cc >= 0).view(np.uint8) if self.sliding else None
        self._run(cc, member, limits, h, ck, snaps, pred, fac)
        self.n_seen += T
        self._keep_history(cc)
        if m == K.STATS:
            return snaps
        return pred[:, h:] if m == K.MAJORITY else fac[:, h:]

    def _run(self, codes, member, limits, h, ck, snaps, pred, fac):
        """Every estimator over the chunk ``codes[h:]`` (``h`` codes of history first), one kernel call each.

        The loop over estimators is here rather than in a numba driver: a driver would compile (and
        optimise again) both kernels for each mode, whereas each kernel is compiled on its own, for the
        mechanisms present only.
        """
        base, t_begin = np.int64(self.history.start), np.int64(h)
        cnt, trans, evn, evh, rows, sf, si = self.state
        cursor = None
        est = self.estimators
        for e in range(len(self.specs)):
            st = (cnt[e], trans[e], evn[e], evh[e], rows[e], sf[e], si[e])
            kind = est.kinds[e]
            if est.sliding[e]:
                args = (kind, est.sizes[e], limits[e], codes, member)
                cursor = K.slide(e, *args, self.lead, t_begin, codes.shape[0], base, st, ck, snaps, pred, fac)
            else:
                marks = est.marks[est.mark_off[e] : est.mark_off[e + 1]]
                args = (kind, est.sizes[e], est.fading[e], marks, codes)
                cursor = K.accumulate(e, *args, self.lead, t_begin, codes.shape[0], base, st, ck, snaps, pred, fac)
        if cursor is not None:
            self.lead[0], self.lead[1] = cursor

    def _limits(self, new):
        E = len(self.specs)
        if self.adwins is None:
            return np.zeros((E, 0), dtype=np.int64)
        prev = np.empty(new.shape[0], dtype=np.int64)
        bins = np.empty(new.shape[0], dtype=np.int64)
        K.label_events(new, self.lead[0], self.lead[1], self.max_lag, prev, bins)
        out = np.zeros((E, new.shape[0]), dtype=np.int64)
        member = new >= 0
        widths = np.zeros((self.adwins.deltas.size, new.shape[0]), dtype=np.int64)
        self.adwins.limits(member, (new != prev).astype(np.float64), 0, widths)
        est = self.estimators
        for e in est.adwin:
            out[e] = widths[est.aslot[e]]
        return out

    def _keep_history(self, cc):
        end = self.history.start + cc.shape[0]
        tails = self.state[6][self.estimators.sliding, K.TAIL]
        self.history.keep(oldest(tails, end), {"codes": cc})
