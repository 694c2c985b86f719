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
import os as _os
import signal as _signal
import sys as _sys


def _command_line_import() -> bool:
    """True while ``streamtk`` is imported to run its command line: ``python -m streamtk ...`` (``sys.argv[0]``
    is ``-m`` while the module is located) or the ``streamtk`` console script."""
    first = _sys.argv[0] if _sys.argv else ""
    return first == "-m" or _os.path.basename(first) in ("streamtk", "streamtk.exe")


def _interrupted_while_importing(signum, frame):  # pragma: no cover - exercised in a subprocess
    # numba and xarray take about a second to import; a Ctrl-C then gets the command line's answer
    # (streamtk.cli._interrupt: "interrupted", exit 130) instead of a traceback of the import machinery
    words = [w for w in _sys.argv[1:2] if not w.startswith("-")]
    _sys.stderr.write(f"streamtk{' ' + words[0] if words else ''}: interrupted\n")
    _sys.stderr.flush()
    _os._exit(130)


if _command_line_import() and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    # the command line's own handler (streamtk.cli._interrupt.catching) takes over when a command starts
    _signal.signal(_signal.SIGINT, _interrupted_while_importing)

from . import accessor as _accessor  # noqa: F401, E402  (after the Ctrl-C guard above; registers the ``ds.streamtk`` accessor)
from ._core.metrics import REGISTRY as METRICS  # noqa: E402
from ._version import __version__  # noqa: E402
from .evaluation.curves import Evaluator, evaluate, evaluate_holdout  # noqa: E402

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
    "regression_curves": ("evaluation.regression", "regression_curves"),
    "regression_baselines": ("evaluation.regression", "regression_baselines"),
    "interval_curves": ("evaluation.intervals", "interval_curves"),
    "regression_losses": ("evaluation.losses", "regression_losses"),
    "resource_curves": ("evaluation.losses", "resource_curves"),
    "auc_curves": ("evaluation.scores", "auc_curves"),
    "multilabel_curves": ("evaluation.multilabel", "multilabel_curves"),
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
