"""MOA's convention in the confusion engine: its kernels and its weights (``convention="moa"``).

A mixin of :class:`streamtk.evaluation.engine.ConfusionEngine`: the engine's state (``sc``, ``cv``, ``pt``,
``prev``, ``history``, ``moa_adwin``, ``started``) is allocated there; these methods run MOA's kernels
(:mod:`streamtk._kernels.confusion.moa`, ``moa_adwin``) on it.
"""

from __future__ import annotations

import numpy as np

from .._core.parallel import in_parallel
from .._kernels.forgetting import ADWIN

__all__ = ["MoaRuns"]


class MoaRuns:
    """The MOA-convention methods of the confusion engine."""

    def _run_moa(self, yt, yp, w, q, per, maj, t0, t1, ck, snap):
        p = self.plan
        est = p.estimators
        L = yp.shape[0]
        plain = np.flatnonzero(est.kinds != ADWIN)
        if plain.size:
            from .._kernels.confusion import moa as K

            mech = (est.kinds, est.sizes, est.moa_factors(), est.hslot)

            def run(lo, hi):
                K.run(
                    (yt, yp[lo:hi], w[lo:hi], q[lo:hi]),
                    mech,
                    (self.sc[lo:hi], self.cv[lo:hi], self.pt[lo:hi], self.prev[lo:hi], per[lo:hi], maj[lo:hi]),
                    (np.int64(self.history.start), np.int64(t0)),
                    plain,
                    ck,
                    snap[lo:hi],
                )

            in_parallel(run, L)
        if est.adwin.size:
            from .._core.adwin import ADWIN_BOUNDS
            from .._kernels.confusion import moa_adwin as KA

            EA, Q = est.adwin.size, 2 * p.k + 3
            opts = p.adwin_options
            params = (opts["clock"], opts["min_window"], ADWIN_BOUNDS[opts["bound"]])

            def run_adwin(lo, hi):
                st = tuple(a[lo * EA * Q : hi * EA * Q] for a in self.moa_adwin[:5])
                KA.run(
                    (yt, yp[lo:hi], w[lo:hi]),
                    st + (self.moa_adwin[5][lo:hi], self.moa_adwin[6][lo:hi]),
                    params,
                    (np.int64(p.k), np.int64(t0)),
                    est.deltas,
                    est.adwin,
                    ck,
                    snap[lo:hi],
                )

            in_parallel(run_adwin, L)

    def _moa_weights(self, ytrue, ypred, weights):
        """MOA's weights: instances before the first one of positive weight are ignored (MOA resets its
        evaluator then: weight -1 marks them for the kernels). A missing prediction is MOA's prediction for
        empty class votes, class index 0 (``Utils.maxIndex``), so it keeps its weight."""
        L, T = ypred.shape
        w = np.ones((L, T)) if weights is None else np.array(weights, dtype=np.float64)
        if not self.started.all():
            ok = (ytrue >= 0)[None, :] & (w > 0)
            for l in np.flatnonzero(~self.started):
                first = np.flatnonzero(ok[l])
                if first.size == 0:
                    w[l, :] = -1.0
                else:
                    w[l, : first[0]] = -1.0
                    self.started[l] = True
        return w
