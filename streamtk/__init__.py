"""streamtk: exact, fast, offline evaluation of stream classifiers from recorded predictions.

Layers (imports go one way, down):

* ``streamtk._kernels`` — numba loops over one time axis (no xarray/scipy/matplotlib);
* numpy layer (``streamtk.engine`` and friends) — validate, encode, allocate, call kernels;
* labelled layer (``streamtk.evaluate`` ...) — ``xarray.Dataset`` results with names,
  coordinates and attrs;
* consumers: ``streamtk.plot``, ``streamtk.cli``, ``streamtk.io``, ``streamtk.datasets``.

Subpackages and the less central functions are imported on first use.
"""

from __future__ import annotations

import importlib

from ._version import __version__
from .curves import Evaluator, evaluate, evaluate_holdout
from .metrics import REGISTRY as METRICS
from . import accessor as _accessor  # noqa: F401  (registers the ``ds.streamtk`` accessor)

_SUBMODULES = {
    "arff", "baselines", "bounds", "correction", "datasets", "drift", "engine", "estimators", "experiments",
    "folds", "io", "labels", "metrics", "noise", "plot", "scores", "shuffle", "simulate", "stats", "temporal",
    "validation", "compare", "losses", "distributed", "outofcore", "cli", "demo", "accessor",
}
_FUNCTIONS = {
    "label_dependence": "temporal", "LabelDependence": "temporal", "quick_test": "temporal",
    "no_information": "baselines", "majority_class": "baselines", "persistent": "baselines",
    "random_classifier": "baselines",
    "temporal_correction": "correction", "augment_with_past_labels": "correction",
    "iid_shuffle": "shuffle", "label_order_preserving_shuffle": "shuffle",
    "fold_assignments": "validation", "fold_summary": "folds", "significance_curves": "folds",
    "friedman_test": "stats", "simulate_log": "simulate",
    "compare_models": ("compare", "compare"), "compare_losses": "compare", "Comparator": "compare",
    "loss_curves": "losses", "regression_curves": "losses", "regression_losses": "losses",
    "resource_curves": "losses",
    "auc_curves": "scores", "roc_pr_curves": "scores", "log_loss": "scores", "brier_score": "scores",
    "evaluate_dask": "distributed", "evaluate_store": "outofcore",
}

__all__ = ["__version__", "evaluate", "Evaluator", "evaluate_holdout", "METRICS", *sorted(_FUNCTIONS)]


def __getattr__(name):
    if name in _FUNCTIONS:
        where = _FUNCTIONS[name]
        module_name, attr = where if isinstance(where, tuple) else (where, name)
        return getattr(importlib.import_module(f".{module_name}", __name__), attr)
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'streamtk' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _SUBMODULES | set(_FUNCTIONS))
