"""The options of bands on every metric: ``interval``, ``interval_method``, ``replicates``, ``block_length``, ``seed``.

One validation for every public function that draws bands (:func:`streamtk.evaluate`,
:class:`streamtk.Evaluator`, :func:`streamtk.compare`, :func:`streamtk.loss_curves`,
:func:`streamtk.auc_curves`, ...), so the arguments mean the same everywhere (DESIGN.md section 8):

``interval``
    the confidence level in ``(0, 1)`` (``None``: no bands);
``interval_method``
    ``"analytic"`` (default: a formula declared by the metric), ``"bootstrap"`` (the online Poisson
    bootstrap), ``"block_bootstrap"`` (the same with blocks of consecutive instances), ``"sequence"``
    (anytime-valid confidence sequences);
``replicates``
    the bootstrap's ``B`` (default 100, at least 10);
``block_length``
    the block bootstrap's block length in instances (default: chosen from the error stream's
    autocorrelation, :mod:`.block_length`);
``seed``
    an int, a ``numpy.random.SeedSequence`` or a ``numpy.random.Generator``: the bootstrap draws its
    resampling weights from it (required: streamtk never uses unseeded random state).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri

from ..validation import as_rng, check_choice, check_in_open_unit_interval, check_positive_int

__all__ = [
    "METHODS",
    "BOOTSTRAPS",
    "IntervalSpec",
    "check_interval",
    "DEFAULT_REPLICATES",
    "MIN_REPLICATES",
    "BAND_PARAMETERS",
    "band_parameters",
]

METHODS = ("analytic", "bootstrap", "block_bootstrap", "sequence")
#: the methods that resample
BOOTSTRAPS = ("bootstrap", "block_bootstrap")
DEFAULT_REPLICATES = 100
MIN_REPLICATES = 10


#: the numpydoc text of the band parameters (every public function that draws bands)
BAND_PARAMETERS = """interval : float in (0, 1), optional
        Confidence level of bands on every metric that estimates something: adds ``<metric>_lower`` and
        ``<metric>_upper`` on the metric's dims (counts and test statistics get none). See
        :mod:`streamtk._core.intervals` and ``docs/intervals.md``.
    interval_method : {"analytic", "bootstrap", "block_bootstrap", "sequence"}, optional
        ``"analytic"`` (default): the metric's closed form (Wilson's interval at Kish's effective size for
        proportions, the delta method for the kappas, ...; with ``metrics=None`` the metrics without one get
        no bands, listed in the attrs); ``"bootstrap"``: the online Poisson bootstrap, percentile bands of
        ``replicates`` replicates computed in the same pass, for every metric; ``"block_bootstrap"``: the same
        with blocks of ``block_length`` consecutive instances (for temporally dependent errors);
        ``"sequence"``: anytime-valid confidence sequences (the band covers the true value at every checkpoint
        at once) for means of bounded per-instance values.
    replicates : int, optional
        Bootstrap replicates ``B`` (default 100, at least 10).
    block_length : int or "auto", optional
        Block length of ``"block_bootstrap"`` in instances (default ``"auto"``: chosen per series from the
        autocorrelation of its errors, Politis & White 2004).
    seed : int, numpy.random.SeedSequence or numpy.random.Generator, optional
        Seed of the bootstrap's resampling weights (required by the bootstrap methods)."""


def band_parameters(func):
    """Decorator: write :data:`BAND_PARAMETERS` where the docstring says ``{bands}`` (indented by 4)."""
    if func.__doc__ and "    {bands}" in func.__doc__:
        func.__doc__ = func.__doc__.replace("    {bands}", "    " + BAND_PARAMETERS)
    return func


@dataclass(frozen=True)
class IntervalSpec:
    """Validated band options. ``key``: the uint64 the resampling weights are a function of (bootstrap only);
    ``block_length``: ``None`` for ``"auto"`` (chosen per series from its errors), else the length."""

    level: float
    method: str
    replicates: int = 0
    block_length: int | None = None
    key: int = 0
    seed_text: str = ""

    @property
    def z(self) -> float:
        """The standard normal quantile of a two-sided band at :attr:`level`."""
        return float(ndtri(0.5 + self.level / 2.0))

    @property
    def alpha(self) -> float:
        """``1 - level``."""
        return 1.0 - self.level

    @property
    def resamples(self) -> bool:
        return self.method in BOOTSTRAPS

    def attrs(self) -> dict:
        """The Dataset attrs recording the bands' options."""
        out = {"interval": self.level, "interval_method": self.method}
        if self.resamples:
            out["replicates"] = self.replicates
            out["seed"] = self.seed_text
            out["bootstrap_key"] = str(self.key)
        if self.method == "block_bootstrap":
            out["block_length"] = "auto" if self.block_length is None else int(self.block_length)
        return out


def check_interval(
    interval, interval_method=None, replicates=None, block_length=None, seed=None, *, n=None
) -> IntervalSpec | None:
    """The band options validated (``None`` when ``interval`` is None and nothing else is set).

    ``n``: the stream length when known (a block longer than the stream is refused).
    """
    if interval is None:
        given = {"interval_method": interval_method, "replicates": replicates, "block_length": block_length}
        extra = [k for k, v in given.items() if v is not None]
        if extra:
            raise ValueError(f"{', '.join(extra)} given but interval is None: pass interval= (e.g. 0.95) for bands")
        return None
    level = check_in_open_unit_interval(interval, "interval")
    method = check_choice("analytic" if interval_method is None else interval_method, "interval_method", METHODS)
    if method not in BOOTSTRAPS:
        for name, value in (("replicates", replicates), ("seed", seed)):
            if value is not None:
                raise ValueError(f"{name} applies to interval_method='bootstrap' or 'block_bootstrap', not {method!r}")
    if method != "block_bootstrap" and block_length is not None:
        raise ValueError(f"block_length applies to interval_method='block_bootstrap', not {method!r}")
    if method not in BOOTSTRAPS:
        return IntervalSpec(level, method)
    B = DEFAULT_REPLICATES if replicates is None else check_positive_int(replicates, "replicates")
    if B < MIN_REPLICATES:
        raise ValueError(f"replicates must be at least {MIN_REPLICATES} for percentile bands, got {B}")
    length = None
    if block_length is not None and block_length != "auto":
        length = check_positive_int(block_length, "block_length")
        if n is not None and length > n:
            raise ValueError(f"block_length must be at most the stream's length ({n} instances), got {length}")
    if seed is None:
        raise TypeError(
            f"interval_method={method!r} needs seed= (an int, a numpy.random.SeedSequence or a "
            "numpy.random.Generator): streamtk never uses unseeded random state"
        )
    rng = as_rng(seed, "seed")
    key = int(rng.integers(0, 2**63, dtype=np.int64))
    seed_text = str(int(seed)) if isinstance(seed, (int, np.integer)) else repr(seed)
    return IntervalSpec(level, method, B, length, key, seed_text)
