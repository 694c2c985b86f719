"""streamtk: exact, fast, offline evaluation of stream classifiers from recorded predictions.

Layers (imports go one way, down):

* ``streamtk._kernels`` -- numba loops over one time axis (no xarray, scipy or matplotlib);
* ``streamtk._core`` -- the shared numpy layer: validation, label encoding, forgetting
  mechanisms and checkpoints, the metric registry;
* ``streamtk._labelled`` -- the shared labelled layer: leading dims, alignment by labels, attrs;
* domain packages, each with its numpy and labelled parts: ``evaluation``, ``comparison``,
  ``drift``, ``dependence``, ``kfold``, ``stats``;
* consumers: ``io``, ``datasets``, ``plot``, ``report``, ``runners`` (dask, out-of-core),
  ``cli``, ``demo``.

Subpackages and the less central functions are imported on first use.
"""

from __future__ import annotations

import importlib

from . import accessor as _accessor  # noqa: F401  (registers the ``ds.streamtk`` accessor)
from ._core.metrics import REGISTRY as METRICS
from ._version import __version__
from .evaluation.curves import Evaluator, evaluate, evaluate_holdout

_SUBMODULES = {
    "comparison",
    "datasets",
    "dependence",
    "drift",
    "evaluation",
    "io",
    "kfold",
    "plot",
    "report",
    "runners",
    "stats",
    "cli",
    "demo",
}
#: public name -> (module, attribute)
_FUNCTIONS = {
    "label_dependence": ("dependence.label_dependence", "label_dependence"),
    "LabelDependence": ("dependence.label_dependence", "LabelDependence"),
    "quick_test": ("dependence.label_dependence", "quick_test"),
    "no_information": ("dependence.baselines", "no_information"),
    "majority_class": ("dependence.baselines", "majority_class"),
    "persistent": ("dependence.baselines", "persistent"),
    "random_classifier": ("dependence.baselines", "random_classifier"),
    "baselines": ("dependence.baselines", "baselines"),
    "temporal_correction": ("dependence.correction", "temporal_correction"),
    "augment_with_past_labels": ("dependence.correction", "augment_with_past_labels"),
    "iid_shuffle": ("dependence.shuffle", "iid_shuffle"),
    "label_order_preserving_shuffle": ("dependence.shuffle", "label_order_preserving_shuffle"),
    "fold_assignments": ("kfold.assignments", "fold_assignments"),
    "fold_summary": ("kfold.folds", "fold_summary"),
    "significance_curves": ("kfold.folds", "significance_curves"),
    "friedman_test": ("stats", "friedman_test"),
    "simulate_log": ("datasets.simulate", "simulate_log"),
    "simulate_errors": ("datasets.simulate", "simulate_errors"),
    "compare": ("comparison.compare", "compare"),
    "collect": ("comparison.collection", "collect"),
    "collect_curves": ("comparison.over_time", "collect_curves"),
    "compare_many": ("comparison.across_streams", "compare_many"),
    "compare_two": ("comparison.across_streams", "compare_two"),
    "compare_over_time": ("comparison.over_time", "compare_over_time"),
    "posthoc_test": ("stats.posthoc", "posthoc_test"),
    "bayesian_signed_rank_test": ("stats.bayesian", "bayesian_signed_rank_test"),
    "compare_losses": ("comparison.compare", "compare_losses"),
    "Comparator": ("comparison.compare", "Comparator"),
    "loss_curves": ("evaluation.losses", "loss_curves"),
    "regression_curves": ("evaluation.losses", "regression_curves"),
    "regression_losses": ("evaluation.losses", "regression_losses"),
    "resource_curves": ("evaluation.losses", "resource_curves"),
    "auc_curves": ("evaluation.scores", "auc_curves"),
    "roc_pr_curves": ("evaluation.scores", "roc_pr_curves"),
    "log_loss": ("evaluation.scores", "log_loss"),
    "brier_score": ("evaluation.scores", "brier_score"),
    "evaluate_dask": ("runners.distributed", "evaluate_dask"),
    "evaluate_store": ("runners.outofcore", "evaluate_store"),
}

__all__ = ["__version__", "evaluate", "Evaluator", "evaluate_holdout", "METRICS", *sorted(_FUNCTIONS)]


def __getattr__(name):
    if name in _FUNCTIONS:
        module_name, attr = _FUNCTIONS[name]
        return getattr(importlib.import_module(f".{module_name}", __name__), attr)
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'streamtk' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _SUBMODULES | set(_FUNCTIONS))
