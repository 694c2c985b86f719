"""numpy layer of the bands of the sums family (comparisons, loss, regression and resource curves).

Analytic bands are formulas of the registry that :class:`streamtk.evaluation.sums.SumsEngine` finalises with the
metrics (it writes the sum of squared weights they read). :class:`SumsBands` adds, chunk by chunk with identical
results to one pass,

* ``"bootstrap"`` / ``"block_bootstrap"``: for each group of rows (a loss stream, or two models' paired losses)
  ``B`` replicates ``(x_a P, x_b P)`` with the same resampling weights for both models (paired resampling), their
  member weights ``P`` as a group of their own whose sum is the replicate's ``N``, and the group's own ADWIN windows;
  the jobs of the point estimates, read on the replicates, reduced to percentile bands;
* ``"sequence"``: the empirical-Bernstein confidence sequence of each output row's per-instance values (a loss, or
  the difference of two losses) for the prequential estimator, the union bound at Kish's effective size for the
  others (:mod:`streamtk._core.intervals.sequences`). The values must lie in ``[0, 1]`` (differences in
  ``[-1, 1]``).
"""

from __future__ import annotations

import numpy as np

from .._core.chunks import CurveRows
from .._core.intervals.bootstrap import PercentileReducer, Resampler, chunk_length
from .._core.intervals.options import BOOTSTRAPS
from .._core.intervals.sequences import PrequentialSequence, union_half_width
from .._core.mechanisms import checkpoints
from .._core.metrics.bounds import squared_sum_fading
from .sums import SumsEngine, sums_job

__all__ = ["SumsBands", "VALUE_RANGES"]

#: the range of the per-instance values of each ``Metric.mean_of`` of the sums family
VALUE_RANGES = {"loss": (0.0, 1.0), "loss_a": (0.0, 1.0), "loss_b": (0.0, 1.0), "loss_difference": (-1.0, 1.0)}


class SumsBands:
    """Bootstrap or sequence bands of the banded metrics of a sums evaluation.

    ``jobs``: the point estimates' :class:`~streamtk.evaluation.sums.SumsJob` list (which groups fill which output
    rows, swapped or not); ``n_rows``: the output rows; ``metrics``: the metrics with bands; ``spec``: the band
    options; ``blocks``: per group, the block length of ``block_length="auto"``.
    """

    def __init__(self, specs, every, adwin_options, jobs, n_rows, metrics, spec, *, threshold=0.0, blocks=None):
        self.specs, self.every, self.adwin_options = list(specs), every, adwin_options
        self.jobs, self.n_rows, self.metrics, self.spec = list(jobs), int(n_rows), list(metrics), spec
        self.threshold = threshold
        self.blocks = blocks
        self.method = None if spec is None else spec.method
        if self.method == "analytic":
            self.metrics = []
        self.engine = None
        self.rows = CurveRows(every)
        self.n_seen = 0
        self.G = None

    @property
    def active(self) -> bool:
        return bool(self.metrics)

    def update(self, x, groups, present=None, *, last: bool = False) -> None:
        """The next chunk: values ``x (R, T)``, the groups ``(G, 2)``, the present instances ``(T,)`` or None."""
        if not self.active or x.shape[1] == 0:
            return
        if self.G is None:
            self.G = groups.shape[0]
            if self.method in BOOTSTRAPS:
                self._setup_bootstrap(groups, x.shape[0])
            else:
                self._setup_sequence()
        if self.method in BOOTSTRAPS:
            self._bootstrap(x, groups, present, last)
        else:
            self._sequence(x, groups, present, last)
        self.n_seen += x.shape[1]

    # ------------------------------------------------------------------ bootstrap
    def _setup_bootstrap(self, groups, R):
        spec, G = self.spec, groups.shape[0]
        B = spec.replicates
        if spec.method == "bootstrap":
            blocks = np.ones(G, dtype=np.int64)
        elif spec.block_length is not None:
            blocks = np.full(G, spec.block_length, dtype=np.int64)
        elif self.blocks is not None:
            blocks = np.asarray(self.blocks, dtype=np.int64)
        else:
            raise ValueError(
                "block_length='auto' chooses the length from the whole loss stream: chunk by chunk, "
                "pass block_length= (an int)"
            )
        self.used_blocks = blocks
        self.resampler = Resampler(spec.key, B, blocks)
        GB = G * B
        pair = np.arange(GB, dtype=np.int64)
        single = groups[:, 0] == groups[:, 1]
        a_rows = R + pair
        b_rows = np.where(np.repeat(single, B), a_rows, R + GB + pair)
        p_rows = R + 2 * GB + pair
        self.rep_groups = np.concatenate(
            [groups, np.stack([a_rows, b_rows], axis=1), np.stack([p_rows, p_rows], axis=1)]
        ).astype(np.int64)
        jobs = []
        for job in self.jobs:
            banded = [m for m in job.finaliser.metrics if m in self.metrics]
            if not banded:
                continue
            g0, g1 = job.groups.start, job.groups.stop
            rows = (np.asarray(job.rows)[:, None] * B + np.arange(B)).ravel()
            jobs.append(
                sums_job(
                    banded,
                    slice(G + g0 * B, G + g1 * B),
                    rows,
                    swap=job.swap,
                    n_from=slice(G + GB + g0 * B, G + GB + g1 * B),
                )
            )
        outputs = {m.name: (self.n_rows * B, np.dtype(np.float64)) for m in self.metrics}
        source = np.concatenate([np.arange(G), np.repeat(np.arange(G), B), np.repeat(np.arange(G), B)])
        self.engine = SumsEngine(
            self.specs,
            self.every,
            self.adwin_options,
            jobs=jobs,
            outputs=outputs,
            threshold=self.threshold,
            reduce=PercentileReducer(self.n_rows, B, spec.level),
            adwin_of=source,
        )

    def _bootstrap(self, x, groups, present, last):
        B, G = self.spec.replicates, self.G
        T = x.shape[1]
        step = chunk_length(3 * G * B)
        for a in range(0, T, step):
            b = min(T, a + step)
            P = self.resampler.weights(self.n_seen + a, b - a).reshape(G, B, b - a)
            xa = (x[groups[:, 0], None, a:b] * P).reshape(G * B, b - a)
            xb = (x[groups[:, 1], None, a:b] * P).reshape(G * B, b - a)
            rows = np.concatenate([x[:, a:b], xa, xb, P.reshape(G * B, b - a)])
            mem = None if present is None else present[a:b]
            self.engine.update(rows, self.rep_groups, mem, last=last and b == T)

    # ------------------------------------------------------------------ sequence
    def _row_values(self):
        """Per metric and output row: ``(group, swap)`` whose values it is the mean of."""
        out = {}
        for job in self.jobs:
            for m in job.finaliser.metrics:
                rows = out.setdefault(m.name, {})
                for g, r in zip(range(job.groups.start, job.groups.stop), np.asarray(job.rows)):
                    rows[int(r)] = (g, job.swap)
        return out

    def _setup_sequence(self):
        self.prequential = next((e for e, s in enumerate(self.specs) if s.kind == "prequential"), None)
        self.where = self._row_values()
        self.scans = {}
        if self.prequential is not None:
            for m in self.metrics:
                low, high = VALUE_RANGES[m.mean_of]
                self.scans[m.name] = PrequentialSequence(self.n_rows, self.spec.level, low, high)

    def _values(self, m, x, groups, present):
        """The per-instance values ``(n_rows, T)`` of metric ``m`` of every output row (NaN: not present)."""
        T = x.shape[1]
        mean_of = m.mean_of
        out = np.full((self.n_rows, T), np.nan)
        for r, (g, swap) in self.where[m.name].items():
            a, b = groups[g]
            if swap:
                a, b = b, a
            v = {"loss": x[a], "loss_a": x[a], "loss_b": x[b], "loss_difference": x[a] - x[b]}[mean_of]
            out[r] = v if present is None else np.where(present, v, np.nan)
        low, high = VALUE_RANGES[mean_of]
        bad = (out < low) | (out > high)
        if bad.any():
            raise ValueError(
                f"interval_method='sequence' needs values in [{low:g}, {high:g}] (a confidence sequence needs a "
                f"known range); a loss of {float(out[bad][0])!r} is outside: rescale the losses to [0, 1]"
            )
        return out

    def _sequence(self, x, groups, present, last):
        pos = checkpoints(self.n_seen, self.n_seen + x.shape[1], self.every, last=True)
        ck = pos - self.n_seen
        outs = {}
        for m in self.metrics:
            values = self._values(m, x, groups, present)
            if m.name in self.scans:
                lo, hi = self.scans[m.name].update(values, ck)
                outs[f"{m.name}_lower"], outs[f"{m.name}_upper"] = lo[:, None], hi[:, None]
        self.rows.store(pos, outs, last=last)

    # ------------------------------------------------------------------ output
    def bands(self, positions, values: dict) -> dict:
        """The bands ``{<metric>_lower, <metric>_upper: (n_rows, E, C)}`` at the rows ``positions`` of the point
        estimates ``values`` (which hold ``n_instances``)."""
        if not self.active:
            return {}
        if self.method in BOOTSTRAPS:
            own_pos, own = self.engine.collect()
        else:
            own_pos, own = self.rows.collect()
            own = self._sequence_bands(positions, values, own)
        if own_pos.size and not np.array_equal(own_pos, positions):  # pragma: no cover - one checkpoint rule
            raise AssertionError("band rows differ from the engine's")
        return own

    def _sequence_bands(self, positions, values, own) -> dict:
        alpha = 1.0 - self.spec.level
        n = values["n_instances"]
        fading = np.array([s.param if s.kind == "fading" else 1.0 for s in self.specs])[None, :, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            w2 = np.where(fading < 1.0, squared_sum_fading(n, fading), n)
            n_eff = np.where(n > 0, n * n / w2, np.nan)
        out = {}
        for m in self.metrics:
            low, high = VALUE_RANGES[m.mean_of]
            est = values[m.name]
            half = union_half_width(n_eff, positions[None, None, :] + 1, alpha, high - low)
            lo, hi = np.clip(est - half, low, high), np.clip(est + half, low, high)
            if self.prequential is not None:
                lo[:, self.prequential] = own[f"{m.name}_lower"][:, 0]
                hi[:, self.prequential] = own[f"{m.name}_upper"][:, 0]
            out[f"{m.name}_lower"], out[f"{m.name}_upper"] = lo, hi
        return out
