"""numpy layer of the bootstrap replicates of the confusion family: two engines, one result.

* :class:`ReplicateEngine` runs the ``B`` replicates of every series on the replicate kernel
  (:mod:`streamtk._kernels.confusion.replicates`): the inputs stay the series' own, the resampling weights
  are drawn inside the kernel, the replicates' sums are updated side by side. It runs the accumulators and
  sliding windows.
* :func:`series_engine` runs them as plain weighted series of the general engine (repeated predictions and
  materialised weights ``w P``): the ADWIN windows, and the oracle of the fast path in the tests.

Both give the same doubles; both reduce each chunk's replicate outputs to percentile bands before keeping
them (``reduce``), so memory holds one chunk of replicates.
"""

from __future__ import annotations

import copy

import numpy as np

from .._core.chunks import ChunkHistory, EstimatorTable
from .._core.intervals.bootstrap import chunk_length
from .._core.parallel import in_parallel
from .._kernels.resample import GAMMA, replicate_seed
from .engine import ConfusionEngine

__all__ = ["ReplicateEngine", "series_engine", "feed_series", "restrict", "seeds_of"]


def seeds_of(resampler) -> np.ndarray:
    """The replicates' seeds ``(L, B)`` uint64: series ``l`` has key ``key + l * GAMMA`` (as :class:`Resampler`)."""
    out = np.empty((resampler.L, resampler.B), dtype=np.uint64)
    for l in range(resampler.L):
        key = np.uint64((resampler.key + l * int(GAMMA)) % 2**64)
        for b in range(resampler.B):
            out[l, b] = replicate_seed(key, np.uint64(b))
    return out


def restrict(plan, keep):
    """A copy of ``plan`` with only the estimators ``keep`` (indices)."""
    out = copy.copy(plan)
    out.specs = [plan.specs[e] for e in keep]
    out.estimators = EstimatorTable(out.specs)
    return out


class ReplicateEngine(ConfusionEngine):
    """The ``B`` replicates of each series of a chunked evaluation (state rows ``l * B + b``), fed the series' own
    inputs; ``metrics`` finalised per replicate and reduced by ``reduce``."""

    def __init__(self, plan, metrics, resampler, reduce, *, fast_paths: bool = True):
        super().__init__(plan, fast_paths=fast_paths, metrics=metrics, reduce=reduce)
        if plan.estimators.adwin.size:
            raise ValueError("ADWIN estimators take the replicates as series (series_engine)")
        self.resampler = resampler
        self.B = resampler.B
        self.seeds = seeds_of(resampler)

    def _n_series(self, ypred) -> int:
        return ypred.shape[0] * self.B

    def _allocate(self, L: int, weighted: bool):
        super()._allocate(L, weighted)
        L0, p = L // self.B, self.plan
        dtype = p.encoding.compact_dtype
        arrays = self.history.arrays
        self.history = ChunkHistory(
            yt=arrays["yt"],
            yp=np.zeros((L0, 0), dtype=dtype),
            w=np.zeros((L0, 0)) if weighted else None,
            q=np.zeros((L0, len(p.quantities), 0)),
            per=arrays["per"],
            maj=arrays["maj"],
        )

    def _is_dense(self, ytrue, ypred, weights, nq):
        return False

    def _run_segment(self, arrays, t0, t1, dense, ck, snap):
        from .._kernels.confusion import replicates as K

        p = self.plan
        est = p.estimators
        yt, yp, w, q, per, maj = (arrays[n] for n in ("yt", "yp", "w", "q", "per", "maj"))
        L0 = yp.shape[0]
        B = self.B
        wc = w[:, :t1] if w is not None else np.zeros((L0, 0))
        mech = est.mechanisms() + (est.hslot,)
        span = (np.int64(self.history.start), np.int64(t0))
        which = np.arange(len(est), dtype=np.int64)
        res = self.resampler

        def run(lo, hi):
            K.run(
                (yt[:t1], yp[lo:hi, :t1], wc[lo:hi], q[lo:hi, :, :t1], per[:t1]),
                mech,
                (self.sc[lo * B : hi * B], self.cv[lo * B : hi * B], self.pt[lo * B : hi * B], maj[lo * B : hi * B]),
                (np.int64(B), self.seeds[lo:hi], res.blocks[lo:hi], res.offsets[lo:hi]),
                span,
                which,
                ck,
                snap[lo * B : hi * B],
            )

        in_parallel(run, L0)


def series_engine(plan, metrics, resampler, reduce, *, fast_paths: bool = True) -> ConfusionEngine:
    """The replicates as weighted series of the general engine (feed it with :func:`feed_series`)."""
    L, B = resampler.L, resampler.B
    return ConfusionEngine(
        plan,
        fast_paths=fast_paths,
        metrics=metrics,
        zero_members=True,
        reduce=reduce,
        adwin_of=np.repeat(np.arange(L), B),
    )


def feed_series(engine, resampler, start, yt, yp, w, q, *, last: bool) -> None:
    """Feed a chunk (the series' own inputs, from stream position ``start``) to a :func:`series_engine`, in pieces
    whose materialised replicate inputs stay within :func:`streamtk._core.intervals.bootstrap.chunk_length`."""
    B = resampler.B
    T = yt.shape[0]
    step = chunk_length(yp.shape[0] * B)
    for a in range(0, T, step):
        b = min(T, a + step)
        wr = resampler.weights(start + a, b - a, None if w is None else w[:, a:b])
        ypr = np.repeat(yp[:, a:b], B, axis=0)
        qr = None if q is None else np.repeat(q[:, :, a:b], B, axis=0)
        engine.update(yt[a:b], ypr, wr, qr, last=last and b == T)
