"""The online Poisson bootstrap as a weight multiplier: replicates of any family run as extra series.

Replicate ``b`` of series ``l`` gives instance ``t`` the weight ``w_lt P_tb`` with ``P_tb ~
Poisson(1)`` (Oza & Russell 2001; the bootstrap of Bifet et al. 2015, seed 000, section 3); the
block bootstrap draws one ``P`` per block of consecutive stream positions, with a random phase per
replicate (:mod:`streamtk._kernels.resample`). A family's engine runs the ``L x B`` replicate
series with these weights, exactly as it runs weighted models: an instance a replicate leaves out
(``P = 0``) stays a member (it keeps its window slot and its place on a fading clock) and adds
nothing, so every replicate holds the same instances as the point estimate. The weights are a
function of the stream position, the replicate and a key drawn once from the seed: chunked
evaluation equals one pass, replicate by replicate.

Bands are percentile intervals of the replicates (:func:`percentile_bounds`).
"""

from __future__ import annotations

import numpy as np

from ..._kernels.resample import multipliers

__all__ = ["Resampler", "PercentileReducer", "percentile_bounds", "chunk_length"]

#: resampling weights held at once, ``L x B x chunk`` float64 (a chunk of the replicates' pass)
WEIGHTS_BUDGET = 1 << 22


def chunk_length(series: int) -> int:
    """Positions per chunk of a replicates' pass over ``series`` replicate series (at least 1024)."""
    return max(1024, WEIGHTS_BUDGET // max(series, 1))


class Resampler:
    """The resampling weights of ``L`` series and ``B`` replicates.

    ``blocks``: the block length of each series (``(L,)`` int64, 1 for the independent bootstrap);
    ``key``: the uint64 the weights are a function of. The replicates' phases (one per series and
    replicate, uniform in ``[0, block)``) are drawn from the key.
    """

    def __init__(self, key: int, replicates: int, blocks):
        self.key = int(key)
        self.B = int(replicates)
        self.blocks = np.asarray(blocks, dtype=np.int64)
        rng = np.random.default_rng(self.key)
        self.offsets = np.stack([rng.integers(0, max(int(b), 1), size=self.B) for b in self.blocks]).astype(np.int64)

    @property
    def L(self) -> int:
        return self.blocks.size

    def weights(self, start: int, T: int, base=None) -> np.ndarray:
        """The replicate series' weights ``(L * B, T)`` of positions ``start .. start + T - 1`` (series-major).

        ``base (L, T)``: the series' own weights (None: 1); a position with base weight 0 (not evaluated)
        gets -1, the engines' mark of a non-member.
        """
        out = np.empty((self.L, self.B, T))
        for l in range(self.L):
            key = np.uint64((self.key + l * 0x9E3779B97F4A7C15) % 2**64)
            multipliers(key, np.int64(start), np.int64(self.blocks[l]), self.offsets[l], out[l])
        if base is not None:
            b = np.asarray(base, dtype=np.float64)[:, None, :]
            out = np.where(b > 0, out * b, -1.0)
        return out.reshape(self.L * self.B, T)


def percentile_bounds(values: np.ndarray, level: float, axis: int = 1):
    """``(lower, upper)``: the ``(1 -+ level) / 2`` quantiles of the replicates along ``axis``.

    The quantile ``q`` of ``B`` replicates is their ``q (B + 1)``-th smallest value (interpolated between order
    statistics; Hyndman & Fan's definition 6, numpy's ``method="weibull"``): the bootstrap percentile interval of
    Davison & Hinkley (1997, section 5.2), whose ends are unbiased in probability. numpy's default (``q (B - 1) +
    1``-th) puts them about one order statistic inside on each side at ``B = 100`` and under-covers by about one
    point (benchmarks/bench_intervals.py).

    Replicates where the metric is undefined (NaN) are left out; where more than ``(1 - level) / 2``
    of them are undefined the bounds are NaN (the replicates do not say where the tail is).
    """
    v = np.moveaxis(np.asarray(values, dtype=np.float64), axis, -1)
    B = v.shape[-1]
    s = np.sort(v, axis=-1)  # NaN last
    valid = B - np.isnan(v).sum(axis=-1)
    tail = (1.0 - level) / 2.0
    out = []
    for q in (tail, 1.0 - tail):
        pos = np.clip(q * (valid + 1.0) - 1.0, 0.0, np.maximum(valid - 1, 0))  # 0-based rank q (B + 1) - 1
        lo = np.floor(pos).astype(np.int64)
        hi = np.minimum(lo + 1, np.maximum(valid - 1, 0))
        frac = pos - lo
        a = np.take_along_axis(s, lo[..., None], -1)[..., 0]
        b = np.take_along_axis(s, hi[..., None], -1)[..., 0]
        with np.errstate(invalid="ignore"):
            value = a + frac * (b - a)
        value = np.where(frac == 0.0, a, value)  # exact at the order statistics (inf stays inf)
        out.append(np.where((B - valid) > tail * B, np.nan, value))
    return out[0], out[1]


class PercentileReducer:
    """The percentile bands of replicate outputs: ``{name: (L * B, ...)}`` -> ``{name_lower, name_upper: (L, ...)}``
    (the replicates of series ``l`` are rows ``l * B .. l * B + B - 1``). Picklable (chunked evaluators)."""

    def __init__(self, L: int, B: int, level: float):
        self.L, self.B, self.level = int(L), int(B), float(level)

    def __call__(self, outs: dict) -> dict:
        res = {}
        for name, arr in outs.items():
            v = np.asarray(arr, dtype=np.float64).reshape((self.L, self.B) + arr.shape[1:])
            res[f"{name}_lower"], res[f"{name}_upper"] = percentile_bounds(v, self.level, axis=1)
        return res
