"""Comparing models: two models over time (:mod:`~streamtk.comparison.compare`) and many models over many streams.

* :mod:`~streamtk.comparison.collection` -- :func:`collect` many logs or curves into one results
  collection (dims ``dataset``, ``model``, ``run``) of curve summaries
  (:mod:`~streamtk.comparison.summaries`: final, mean, area, value at an instance);
* :mod:`~streamtk.comparison.across_streams` -- :func:`compare_many` (Friedman, Iman-Davenport and a
  post-hoc procedure), :func:`compare_two` (Wilcoxon, Sign, Bayesian signed-rank), :func:`bayesian_pairs`;
* :mod:`~streamtk.comparison.over_time` -- the same tests at every checkpoint of the curves.
"""

from .across_streams import ManyComparison, TwoComparison, bayesian_pairs, compare_many, compare_two
from .collection import (
    collect,
    collection_from_array,
    higher_is_better,
    select_table,
)
from .over_time import collect_curves, compare_over_time, compare_two_over_time

__all__ = [
    "ManyComparison",
    "TwoComparison",
    "bayesian_pairs",
    "collect",
    "collect_curves",
    "collection_from_array",
    "compare_many",
    "compare_over_time",
    "compare_two",
    "compare_two_over_time",
    "higher_is_better",
    "select_table",
]
