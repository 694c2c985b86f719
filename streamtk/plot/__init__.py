"""Plotting: every function takes ``ax=None``, returns its artists and imports matplotlib lazily.

Learning curves (:func:`plot_curves`: several models and estimators on one axes;
:func:`facet_curves`: the paper figure, datasets and estimators as panels, rows per metric,
shared y-limits; :func:`plot_baselines`), detectors
(:func:`plot_detector`, :func:`plot_detection_delays`, :func:`plot_detections`,
:func:`plot_tradeoff`), model comparison
(:func:`plot_comparison`: Q statistic and signed McNemar with thresholds),
significance over folds (:func:`plot_significance`, :func:`plot_fold_summary`,
:func:`plot_cd` / :func:`cd_diagram` for Friedman and any post-hoc procedure), the Bayesian
signed-rank posterior (:func:`plot_posterior`), ranks over time (:func:`plot_ranks_over_time`),
temporal dependence (:func:`plot_dependence`,
:func:`plot_evidence`) and :func:`result_figure` for any streamtk Dataset. The same
plots are reachable as ``ds.streamtk.plot(...)``.

Legends never sit over data (:func:`streamtk.plot._common.place_legend`: an empty corner,
else outside the axes); curves get robust y-limits with clipped values marked on the edges;
axes carry the papers' symbols (kappa_m as a subscripted kappa) and units. Save as PDF or SVG for vector output.
"""

from .bayesian import plot_posterior
from .cd_diagram import cd_diagram
from .compare import plot_comparison
from .curves import plot_baselines, plot_curves
from .drift import plot_detection_delays, plot_detections, plot_detector
from .figure import facet_curves, result_figure
from .over_time import plot_ranks_over_time
from .significance import plot_cd, plot_fold_summary, plot_significance
from .temporal import plot_dependence, plot_evidence
from .tradeoff import plot_tradeoff

__all__ = [
    "cd_diagram",
    "facet_curves",
    "plot_baselines",
    "plot_cd",
    "plot_comparison",
    "plot_curves",
    "plot_dependence",
    "plot_detection_delays",
    "plot_detections",
    "plot_detector",
    "plot_evidence",
    "plot_fold_summary",
    "plot_posterior",
    "plot_ranks_over_time",
    "plot_significance",
    "plot_tradeoff",
    "result_figure",
]
