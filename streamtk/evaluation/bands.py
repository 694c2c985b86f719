"""numpy layer of the confusion family's bands beyond the analytic ones: bootstrap replicates, confidence sequences.

Analytic bands are formulas of the registry that :class:`streamtk.evaluation.engine.ConfusionEngine`
finalises with the metrics. :class:`ConfusionBands` adds, chunk by chunk with identical results to one pass,

* ``"bootstrap"`` / ``"block_bootstrap"``: ``B`` replicates of every series as extra series of a second
  engine (weights ``w P``, :mod:`streamtk._core.intervals.bootstrap`), reduced to percentile bands as each
  chunk's checkpoints are finalised, so memory holds one chunk of replicates;
* ``"sequence"``: for the prequential estimator the empirical-Bernstein confidence sequence of the
  per-instance hits (accuracy, error) or bounded quantities (risk, Brier score), for windows, fading factors,
  tumbling windows and landmarks the union bound over instances at Kish's effective size
  (:mod:`streamtk._core.intervals.sequences`).
"""

from __future__ import annotations

import copy

import numpy as np

from .._core.chunks import CurveRows
from .._core.intervals.block_length import auto_block_length
from .._core.intervals.bootstrap import PercentileReducer, Resampler
from .._core.intervals.options import BOOTSTRAPS
from .._core.intervals.sequences import PrequentialSequence, union_half_width
from .._core.mechanisms import checkpoints
from .replicates import ReplicateEngine, feed_series, restrict, series_engine

__all__ = ["ConfusionBands", "error_blocks", "sequence_ranges"]


def error_blocks(yt, yp, w) -> np.ndarray:
    """The block length of each series chosen from the 0/1 loss of its evaluated instances (Politis & White)."""
    L = yp.shape[0]
    out = np.ones(L, dtype=np.int64)
    for l in range(L):
        member = (yt >= 0) & (yp[l] >= 0)
        if w is not None:
            member &= w[l] > 0
        out[l] = auto_block_length((yt[member] != yp[l][member]).astype(np.float64)[None])[0]
    return out


def sequence_ranges(plan) -> dict:
    """The range ``(low, high)`` of the per-instance value of each banded metric with a confidence sequence."""
    out = {}
    for m in plan.banded:
        if m.mean_of in ("hit", "miss"):
            out[m.name] = (0.0, 1.0)
        elif m.mean_of == "risk":
            out[m.name] = (float(plan.cost.min()), float(plan.cost.max()))
        elif m.mean_of == "brier":
            out[m.name] = (0.0, 2.0 if plan.scores == "multi" else 1.0)
    return out


class ConfusionBands:
    """Bootstrap or sequence bands of a confusion evaluation's banded metrics (the plan's ``interval``).

    ``blocks``: the block length of each series for ``block_length="auto"`` (a one-pass evaluation chooses them
    from the whole stream, :func:`error_blocks`). Feed :meth:`update` the chunks the engine gets (codes, the
    user's weights, quantities) and read :meth:`bands` with the engine's rows.
    """

    def __init__(self, plan, blocks=None):
        self.plan = plan
        self.spec = plan.interval
        method = None if self.spec is None else self.spec.method
        self.metrics = [m for m in plan.banded if m.table == "confusion"] if method != "analytic" else []
        self.method = method
        self.blocks = blocks
        self.L = None
        self.engines = []
        self.rows = CurveRows(plan.every)
        self.n_seen = 0

    @property
    def active(self) -> bool:
        return bool(self.metrics)

    # ------------------------------------------------------------------ chunks
    def update(self, yt, yp, w, q, *, last: bool = False) -> None:
        """The next chunk: ``yt (T,)`` and ``yp (L, T)`` codes, the user's weights ``(L, T)`` or None, quantities."""
        if not self.active:
            return
        L, T = yp.shape
        if self.L is None:
            self.L = L
            if self.method in BOOTSTRAPS:
                self._setup_bootstrap(L)
            else:
                self._setup_sequence(L)
        if T == 0:
            return
        if self.method in BOOTSTRAPS:
            self._bootstrap(yt, yp, w, q, last)
        else:
            self._sequence(yt, yp, w, q, last)
        self.n_seen += T

    def _setup_bootstrap(self, L):
        spec = self.spec
        if spec.method == "bootstrap":
            blocks = np.ones(L, dtype=np.int64)
        elif spec.block_length is not None:
            blocks = np.full(L, spec.block_length, dtype=np.int64)
        elif self.blocks is not None:
            blocks = np.asarray(self.blocks, dtype=np.int64)
        else:
            raise ValueError(
                "block_length='auto' chooses the length from the whole error stream: chunk by chunk, "
                "pass block_length= (an int)"
            )
        self.used_blocks = blocks
        self.resampler = Resampler(spec.key, spec.replicates, blocks)
        plan = copy.copy(self.plan)
        plan.confusion, plan.bounds, plan.hidden, plan.interval = list(self.metrics), [], [], None
        reduce = PercentileReducer(L, spec.replicates, spec.level)
        kinds = [s.kind for s in plan.specs]
        # the replicate kernel runs every estimator but ADWIN windows, which take the replicates as series
        self.fast = [e for e, kd in enumerate(kinds) if kd != "adwin"]
        self.slow = [e for e, kd in enumerate(kinds) if kd == "adwin"]
        self.engines = []
        if self.fast:
            self.engines.append(
                (self.fast, ReplicateEngine(restrict(plan, self.fast), self.metrics, self.resampler, reduce))
            )
        if self.slow:
            self.engines.append(
                (self.slow, series_engine(restrict(plan, self.slow), self.metrics, self.resampler, reduce))
            )

    def _bootstrap(self, yt, yp, w, q, last):
        for _which, engine in self.engines:
            if isinstance(engine, ReplicateEngine):
                engine.update(yt, yp, w, q, last=last)
            else:
                feed_series(engine, self.resampler, self.n_seen, yt, yp, w, q, last=last)

    def _replicate_rows(self, how: str, final: bool = False):
        """The percentile bands of every estimator (the two engines' rows merged along the estimator axis)."""
        parts = [
            (which, engine.collect() if how == "collect" else engine.drain(final=final))
            for which, engine in self.engines
        ]
        positions = parts[0][1][0]
        E = len(self.plan.specs)
        out = {}
        for which, (_pos, arrays) in parts:
            for name, arr in arrays.items():
                if name not in out:
                    out[name] = np.full(arr.shape[:1] + (E,) + arr.shape[2:], np.nan)
                out[name][:, which] = arr
        return positions, out

    def _setup_sequence(self, L):
        ranges = sequence_ranges(self.plan)
        self.ranges = ranges
        specs = self.plan.specs
        self.prequential = next((e for e, s in enumerate(specs) if s.kind == "prequential"), None)
        self.scans = {}
        if self.prequential is not None:
            for m in self.metrics:
                key = "hit" if m.mean_of in ("hit", "miss") else m.mean_of
                if key not in self.scans:
                    low, high = (0.0, 1.0) if key == "hit" else ranges[m.name]
                    self.scans[key] = PrequentialSequence(L, self.spec.level, low, high)

    def _sequence(self, yt, yp, w, q, last):
        member = (yt >= 0)[None, :] & (yp >= 0)
        if w is not None:
            w = np.asarray(w)
            if np.any((w != 0) & (w != 1)):
                bad = w[(w != 0) & (w != 1)].flat[0]
                raise ValueError(
                    f"interval_method='sequence' takes weights of 0 (not evaluated) and 1 only, got a weight of "
                    f"{bad!r}: the confidence sequence treats every evaluated instance alike"
                )
            member &= w > 0
        pos = checkpoints(self.n_seen, self.n_seen + yt.shape[0], self.plan.every, last=True)
        ck = pos - self.n_seen
        outs = {}
        for key, scan in self.scans.items():
            if key == "hit":
                x = np.where(member, (yt[None, :] == yp).astype(np.float64), np.nan)
            else:
                x = np.where(member, q[:, self.plan.quantities.index(key)], np.nan)
            lo, hi = scan.update(x, ck)
            outs[f"{key}_lower"], outs[f"{key}_upper"] = lo[:, None], hi[:, None]
        self.rows.store(pos, outs, last=last)

    # ------------------------------------------------------------------ output
    def bands(self, positions, values: dict, *, rows=None) -> dict:
        """The bands ``{<metric>_lower, <metric>_upper: (L, E, C[, k])}`` at the engine's rows ``positions``.

        ``values``: the engine's outputs at those rows (the point estimates and ``n_effective``); ``rows``: this
        object's own rows (``collect()`` or ``drain()``), computed when not given.
        """
        if not self.active:
            return {}
        if rows is not None:
            own_pos, own = rows
        elif self.method in BOOTSTRAPS:
            own_pos, own = self._replicate_rows("collect")
        else:
            own_pos, own = self.rows.collect()
        if own_pos.size and not np.array_equal(own_pos, positions):  # pragma: no cover - one checkpoint rule
            raise AssertionError("band rows differ from the engine's")
        if self.method in BOOTSTRAPS:
            return own
        return self._sequence_bands(positions, values, own)

    def drain(self, *, final: bool):
        """This object's rows since the last drain (see :meth:`bands`)."""
        if self.method in BOOTSTRAPS:
            return self._replicate_rows("drain", final)
        return self.rows.drain(final=final)

    def _sequence_bands(self, positions, values, own) -> dict:
        alpha = 1.0 - self.spec.level
        instance = positions + 1
        out = {}
        for m in self.metrics:
            low, high = self.ranges[m.name]
            est = values[m.name]
            if "n_effective" in values:
                half = union_half_width(values["n_effective"], instance[None, None, :], alpha, high - low)
                lo, hi = np.clip(est - half, low, high), np.clip(est + half, low, high)
            else:  # the prequential estimator only
                lo, hi = np.full(est.shape, np.nan), np.full(est.shape, np.nan)
            if self.prequential is not None:
                key = "hit" if m.mean_of in ("hit", "miss") else m.mean_of
                plo, phi = own[f"{key}_lower"][:, 0], own[f"{key}_upper"][:, 0]
                if m.mean_of == "miss":
                    plo, phi = 1.0 - phi, 1.0 - plo
                lo[:, self.prequential], hi[:, self.prequential] = plo, phi
            out[f"{m.name}_lower"], out[f"{m.name}_upper"] = lo, hi
        return out
