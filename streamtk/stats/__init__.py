"""Significance tests for comparing stream classifiers (Bifet et al. 2015, section 4).

* :func:`sign_test`, :func:`wilcoxon_test` — paired tests over folds, vectorised
  over any other axes (checkpoints, estimators, metrics);
* :func:`mcnemar_test` — signed McNemar on discordant counts;
* :func:`friedman_test` — Friedman + Nemenyi / Bonferroni-Dunn critical difference;
* :func:`posthoc_test` — post-hoc tests on average ranks, all pairs or against a control
  (Nemenyi, Bonferroni-Dunn, Holm, Hochberg, Finner, Shaffer's static procedure);
  :func:`adjust_pvalues` — the adjusted p-values of those procedures;
* :func:`bayesian_signed_rank_test` — Bayesian signed-rank test with a ROPE (Benavoli et al. 2017).

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

from .adjust import ADJUSTMENTS, adjust_pvalues, shaffer_true_sets
from .bayesian import BayesianResult, bayesian_signed_rank_test
from .friedman import (
    FriedmanResult,
    bonferroni_dunn_q,
    critical_difference,
    friedman_statistics,
    friedman_test,
    nemenyi_q,
)
from .mcnemar import McNemarResult, mcnemar_counts, mcnemar_test
from .posthoc import POSTHOC_METHODS, PosthocResult, posthoc_from_ranks, posthoc_test
from .sign import SignResult, sign_critical_wins, sign_test
from .wilcoxon import WilcoxonResult, wilcoxon_null_distribution, wilcoxon_test

__all__ = [
    "ADJUSTMENTS",
    "BayesianResult",
    "POSTHOC_METHODS",
    "PosthocResult",
    "adjust_pvalues",
    "bayesian_signed_rank_test",
    "friedman_statistics",
    "posthoc_from_ranks",
    "posthoc_test",
    "shaffer_true_sets",
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
