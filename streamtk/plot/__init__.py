"""Plotting: every function takes ``ax=None``, returns its artists and imports matplotlib lazily.

Learning curves (:func:`plot_curves`: several models and estimators on one axes;
:func:`facet_curves`: the paper figure, datasets and estimators as panels, rows per metric,
shared y-limits; :func:`plot_baselines`), detectors
(:func:`plot_detector`, :func:`plot_detection_delays`), model comparison
(:func:`plot_comparison`: Q statistic and signed McNemar with thresholds),
significance over folds (:func:`plot_significance`, :func:`plot_fold_summary`,
:func:`plot_cd` / :func:`cd_diagram`), temporal dependence (:func:`plot_dependence`,
:func:`plot_evidence`) and :func:`result_figure` for any streamtk Dataset. The same
plots are reachable as ``ds.streamtk.plot(...)``.

Legends never sit over data (:func:`streamtk.plot._common.place_legend`: an empty corner,
else outside the axes); curves get robust y-limits with clipped values marked on the edges;
axes carry the papers' symbols (kappa_m as a subscripted kappa) and units. Save as PDF or SVG for vector output.
"""

from .cd_diagram import cd_diagram
from .compare import plot_comparison
from .curves import plot_baselines, plot_curves
from .drift import plot_detection_delays, plot_detector
from .figure import facet_curves, result_figure
from .significance import plot_cd, plot_fold_summary, plot_significance
from .temporal import plot_dependence, plot_evidence

__all__ = [
    "cd_diagram",
    "facet_curves",
    "plot_baselines",
    "plot_cd",
    "plot_comparison",
    "plot_curves",
    "plot_dependence",
    "plot_detection_delays",
    "plot_detector",
    "plot_evidence",
    "plot_fold_summary",
    "plot_significance",
    "result_figure",
]
