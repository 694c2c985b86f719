"""The ``streamtk`` Dataset accessor: ``ds.streamtk.kind``, ``ds.streamtk.plot(...)``, ``ds.streamtk.table()``.

Importing this module registers the accessor (``import streamtk`` does it). Every
streamtk result Dataset knows what it is (:attr:`StreamtkAccessor.kind`, inferred
from its variables) and plots itself with the matching function of
:mod:`streamtk.plot`::

    ds = streamtk.evaluate(y, p, windows=1000)
    ds.streamtk.plot("kappa", model="A")          # plot_curves
    ds.streamtk.plot(kind="baselines", model="A")  # plot_baselines
"""

from __future__ import annotations

import xarray as xr

__all__ = ["StreamtkAccessor", "KINDS", "dataset_kind"]

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


@xr.register_dataset_accessor("streamtk")
class StreamtkAccessor:
    """``ds.streamtk``: the kind of a streamtk result, its default plot and its summary table."""

    def __init__(self, ds: xr.Dataset):
        self._ds = ds

    @property
    def kind(self) -> str:
        """See :func:`dataset_kind`."""
        return dataset_kind(self._ds)

    def plot(self, *args, kind: str | None = None, **kwargs):
        """Plot with the :mod:`streamtk.plot` function that fits the Dataset (or ``kind``).

        ``args`` and ``kwargs`` go to that function (``ax=``, ``model=``, ``sel=``...);
        ``kind`` is one of :data:`KINDS` (``"baselines"`` and ``"evidence"`` are only
        chosen explicitly). Returns the function's artists.
        """
        import importlib

        if kind is None:
            kind = self.kind
            if kind == "log":
                raise ValueError(
                    "this Dataset is a log of recorded predictions: evaluate it first "
                    "(streamtk.evaluate(log.y_true, log.y_pred) or `streamtk evaluate LOG`)"
                )
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {sorted(KINDS)}, got {kind!r}")
        module, name = KINDS[kind]
        func = getattr(importlib.import_module(f"streamtk.plot.{module}"), name)
        return func(self._ds, *args, **kwargs)

    def table(self, metrics=None, *, estimators=None) -> str:
        """Plain-text table of the final checkpoint of evaluation curves (one row per model x estimator)."""
        from streamtk.report.tables import summary_table

        if self.kind not in ("curves", "folds"):
            raise ValueError(f"table() needs evaluation curves (streamtk.evaluate), this Dataset holds {self.kind!r}")
        return summary_table(self._ds, metrics, estimators=estimators)
