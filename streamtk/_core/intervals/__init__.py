"""Bands on every metric: pointwise intervals (analytic, bootstrap, block bootstrap) and confidence sequences.

* :mod:`.options` -- ``interval``, ``interval_method``, ``replicates``, ``block_length``, ``seed``;
* :mod:`.select` -- which metrics get bands under a method, and why a method does not apply;
* :mod:`.bootstrap` -- the online Poisson bootstrap as a weight multiplier, percentile bands;
* :mod:`.block_length` -- the block length chosen from a stream's autocorrelation;
* :mod:`.sequences` -- anytime-valid confidence sequences for running means of bounded values.

Analytic intervals are formulas of the metric registry (:class:`streamtk._core.metrics.Interval`), run by the
finaliser with the metrics.
"""

from .options import BOOTSTRAPS, METHODS, IntervalSpec, check_interval

__all__ = ["METHODS", "BOOTSTRAPS", "IntervalSpec", "check_interval"]
