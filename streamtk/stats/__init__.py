"""Significance tests for comparing stream classifiers (Bifet et al. 2015, section 4).

* :func:`sign_test`, :func:`wilcoxon_test` — paired tests over folds, vectorised
  over any other axes (checkpoints, estimators, metrics);
* :func:`mcnemar_test` — signed McNemar on discordant counts;
* :func:`friedman_test` — Friedman + Nemenyi / Bonferroni-Dunn critical difference.

The labelled significance curves over time live in :mod:`streamtk.kfold.folds`.

Where scipy already does the job well it is used: binomial tails and quantiles for
the Sign test (``scipy.stats.binom``), normal tails (``scipy.stats.norm``), the
chi-square and F tails of McNemar and Friedman (``chi2``, ``f``), the Studentized
range quantile of the Nemenyi test (``studentized_range``) and per-dataset ranking
(``rankdata``). The Wilcoxon statistic, its exact conditional null distribution and
the critical values are computed here, vectorised over every slice in one call
(``scipy.stats.wilcoxon`` decides exact/approximate once per array and falls back to
a slow permutation test when any slice has ties).
"""

from .friedman import FriedmanResult, bonferroni_dunn_q, critical_difference, friedman_test, nemenyi_q
from .mcnemar import McNemarResult, mcnemar_counts, mcnemar_test
from .sign import SignResult, sign_critical_wins, sign_test
from .wilcoxon import WilcoxonResult, wilcoxon_null_distribution, wilcoxon_test

__all__ = [
    "FriedmanResult",
    "McNemarResult",
    "SignResult",
    "WilcoxonResult",
    "bonferroni_dunn_q",
    "critical_difference",
    "friedman_test",
    "mcnemar_counts",
    "mcnemar_test",
    "nemenyi_q",
    "sign_critical_wins",
    "sign_test",
    "wilcoxon_null_distribution",
    "wilcoxon_test",
]
