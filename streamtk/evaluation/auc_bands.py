"""numpy layer of the AUC family's bands: which metrics get analytic bands, and the bootstrap's replicates.

* Analytic: Hanley & McNeil's (1982) standard error of the AUC (a formula of the registry, finalised with the
  metric). It reads the number of positives and negatives held, so it applies to unweighted estimators without a
  fading factor only (:func:`check_auc_analytic`); elsewhere use the bootstrap.
* ``"bootstrap"`` / ``"block_bootstrap"``: :class:`AucBands` runs the ``B`` replicates of every series as weighted
  series of a second :class:`~streamtk.evaluation.auc_engine.AucEngine` (weights ``w P``, a left-out instance stays
  a member), reduced to percentile bands chunk by chunk.
"""

from __future__ import annotations

import numpy as np

from .._core.intervals.bootstrap import PercentileReducer, Resampler, chunk_length
from .auc_engine import AucEngine

__all__ = ["AucBands", "check_auc_analytic", "COUNTS_NOTE"]

COUNTS_NOTE = (
    "Hanley & McNeil's standard error reads the numbers of positives and negatives held, which are not the "
    "effective sizes of weighted or faded instances; use interval_method='bootstrap'"
)


def check_auc_analytic(metrics, specs, weighted, *, explicit: bool):
    """The AUC metrics that keep analytic bands: those whose interval needs counts are refused (``explicit``) or
    dropped (the second result, with the reason) when the instances are weighted or an estimator fades."""
    faded = [s.label for s in specs if s.kind == "fading"]
    if not (weighted or faded):
        return list(metrics), []
    why = "weights are given" if weighted else f"the estimators {faded} fade"
    keep, dropped = [], []
    for m in metrics:
        if m.analytic is not None and m.analytic.needs == "counts":
            if explicit:
                raise ValueError(
                    f"interval_method='analytic' does not apply to metric {m.name!r} here ({why}): {COUNTS_NOTE}"
                )
            dropped.append(f"{m.name}: {why}; {COUNTS_NOTE}")
        else:
            keep.append(m)
    return keep, dropped


class AucBands:
    """Bootstrap bands of the AUC metrics ``metrics`` of ``L`` series (engine options as :class:`AucEngine`'s)."""

    def __init__(self, spec, metrics, blocks=None, **engine):
        self.spec, self.metrics, self.options = spec, list(metrics), engine
        self.blocks = blocks
        self.engine = None
        self.n_seen = 0

    @property
    def active(self) -> bool:
        return bool(self.metrics) and self.spec is not None and self.spec.resamples

    def update(self, y, s, weights=None, ypred=None, *, last=False) -> None:
        """The next chunk, as :meth:`AucEngine.update` takes it (the series' own inputs)."""
        if not self.active:
            return
        L, T = s.shape[:2]
        B = self.spec.replicates
        if self.engine is None:
            blocks = np.ones(L, dtype=np.int64)
            if self.spec.method == "block_bootstrap":
                if self.spec.block_length is not None:
                    blocks = np.full(L, self.spec.block_length, dtype=np.int64)
                elif self.blocks is not None:
                    blocks = np.asarray(self.blocks, dtype=np.int64)
                else:
                    raise ValueError("block_length='auto' needs the whole stream: chunk by chunk, pass block_length=")
            self.resampler = Resampler(self.spec.key, B, blocks)
            reduce = PercentileReducer(L, B, self.spec.level)
            self.engine = AucEngine(metrics=self.metrics, zero_members=True, reduce=reduce, **self.options)
        step = chunk_length(L * B * (s.shape[2] if s.ndim == 3 else 1))
        for a in range(0, T, step):
            b = min(T, a + step)
            wr = self.resampler.weights(self.n_seen + a, b - a, None if weights is None else weights[:, a:b])
            sr = np.repeat(s[:, a:b], B, axis=0)
            pr = None if ypred is None else np.repeat(np.asarray(ypred)[:, a:b], B, axis=0)
            self.engine.update(y[a:b], sr, wr, pr, last=last and b == T)
        self.n_seen += T

    def collect(self):
        """``(positions, {<metric>_lower, <metric>_upper: (L, E, C[, k])})``."""
        if not self.active:
            return None, {}
        return self.engine.collect()

    def drain(self, *, final: bool):
        if not self.active:
            return None, {}
        return self.engine.drain(final=final)
