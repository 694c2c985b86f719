"""What a streamtk result Dataset is (:func:`dataset_kind`) and which plot function draws it (:data:`KINDS`).

Used by :func:`streamtk.plot.result_figure` and the ``ds.streamtk`` accessor (:mod:`streamtk.accessor`).
"""

from __future__ import annotations

import xarray as xr

__all__ = ["KINDS", "dataset_kind"]


#: kind -> (module under streamtk.plot, function name)
KINDS = {
    "curves": ("curves", "plot_curves"),
    "baselines": ("curves", "plot_baselines"),
    "comparison": ("compare", "plot_comparison"),
    "detector": ("drift", "plot_detector"),
    "delays": ("drift", "plot_detection_delays"),
    "significance": ("significance", "plot_significance"),
    "folds": ("significance", "plot_fold_summary"),
    "dependence": ("temporal", "plot_dependence"),
    "evidence": ("temporal", "plot_evidence"),
    "tradeoff": ("tradeoff", "plot_tradeoff"),
}


def dataset_kind(ds: xr.Dataset) -> str:
    """What a streamtk Dataset holds, from its variables and dims.

    Returns one of ``"comparison"`` (:func:`streamtk.comparison.compare.compare`), ``"delays"``
    (:func:`streamtk.drift.scoring.score_detections`), ``"tradeoff"``
    (:func:`streamtk.drift.tradeoff.tradeoff`), ``"significance"``
    (:func:`streamtk.kfold.folds.significance_curves`), ``"dependence"``
    (:func:`streamtk.dependence.label_dependence.label_dependence`), ``"detector"`` (a drift detector's
    run), ``"folds"`` (per-fold curves or their :func:`streamtk.kfold.folds.fold_summary`),
    ``"curves"`` (any other ``(..., estimator, time)`` result: :func:`streamtk.evaluate`,
    :func:`streamtk.evaluation.scores.auc_curves`, loss and resource curves) or ``"log"`` (recorded predictions,
    :mod:`streamtk.io`); raises ``ValueError`` for anything else.
    """
    v = set(map(str, ds.variables))
    if {"q", "loss_a", "loss_b"} <= v:
        return "comparison"
    if "setting_label" in v:  # before "delays": a trade-off also holds the delay measures
        return "tradeoff"
    if "delay_mean" in v:
        return "delays"
    if {"pvalue", "reject"} <= v and "test" in ds.dims:
        return "significance"
    if {"p_m", "p_t"} <= v:
        return "dependence"
    if "detection_index" in v or {"width", "mean", "detection"} <= v:
        return "detector"
    # evaluate / evaluate_holdout / auc_curves / loss and resource curves: (..., estimator, time)
    metric_vars = [name for name in ds.data_vars if {"estimator", "time"} <= set(ds[name].dims)]
    if metric_vars:
        dims = set(ds[metric_vars[0]].dims)
        return "folds" if ("fold" in dims or "summary" in dims) else "curves"
    if {"y_true", "y_pred"} <= v:
        return "log"
    raise ValueError(
        "this Dataset is not a streamtk result (no evaluation curves, comparison, detector, detection scores, "
        f"significance or dependence variables); it has {sorted(map(str, ds.data_vars))}"
    )
