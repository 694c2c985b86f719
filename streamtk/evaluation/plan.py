"""The plan of an evaluation: everything fixed before the first instance, validated once.

Semantics (the default ``convention="streamtk"``)
------------------------------------------------
* An instance is *evaluated* for a model when its label and that model's prediction are
  present and its weight is > 0. Other instances are skipped: they contribute to no estimate,
  occupy no window slot and do not advance a fading factor's clock. Use weight 0 for "not
  tested in this fold"; a missing prediction (None / NaN) means the model made none.
* Weighted estimates divide weighted sums by the weight total; every formula is scale-free.
* Baseline classifiers are real test-then-train classifiers whose memory follows the estimator,
  scored on the evaluated instances: **Majority Class** predicts the argmax of the (weighted)
  true-class counts the estimator holds *before* ``t`` (ties to the lowest class code);
  **Persistent** predicts the last present label before ``t`` (from the whole stream, never
  reset by a window); before any label both predict class code 0 (the first class of
  ``classes``). So ``kappa_m`` of the Majority Class classifier with the estimator's memory is
  exactly 0 and ``kappa_per`` of the Persistent classifier is exactly 0.
* Sliding windows are exact under any weights: a sum whose members all left the window is 0,
  so an absent class has no recall (NaN) and undefined values stay NaN.

``convention="moa"`` reproduces MOA's Basic / Window / FadingFactor / Adwin
ClassificationPerformanceEvaluator for accuracy, kappa, kappa_m and kappa_per, bit for bit
(DESIGN.md section 4; :mod:`streamtk._kernels.confusion.moa`): weighted sums divided by the
*number* of instances; weight-0 instances skip accuracy and kappa but feed the baselines; the
Majority Class includes the current label; the previous label starts at class 0; IEEE inf/NaN and
0 for the kappas before anything was observed; instances before the first one of positive weight
are ignored (MOA resets its evaluator then); a missing prediction counts as class index 0 (MOA's
``Utils.maxIndex`` of empty votes, e.g. a learner's first instance). Other metrics are computed from the same state with
streamtk's formulas. MOA has no tumbling or landmark evaluator: those are refused.
"""

from __future__ import annotations

import copy

import numpy as np

from .._core import metrics as _metrics
from .._core.adwin import check_adwin_options
from .._core.chunks import EstimatorTable
from .._core.conventions import CONVENTIONS
from .._core.intervals.select import banded_metrics, check_sequence_estimators
from .._core.labels import Encoding
from .._core.mechanisms import build_estimators, refuse_for_moa, resolve_every, squared_spec
from .._core.metrics.base import BOUND_SIDES
from .._core.validation import as_float_array, check_choice
from .scoring_rules import score_losses

__all__ = ["EvaluationPlan", "SEQUENCE_VALUES"]

#: the per-instance values of the confusion pass a confidence sequence runs on (``Metric.mean_of``)
SEQUENCE_VALUES = ("hit", "miss", "risk", "brier")


class EvaluationPlan:
    """Classes, estimators, metrics and options of one evaluation (one pass or chunk by chunk).

    ``n_instances``: the stream length when known (it resolves ``every=None``: at most 10^4
    checkpoints and 10^7 values per series, whatever the number of series). ``interval``: the band
    options (:func:`streamtk._core.intervals.check_interval`); ``banded`` are the metrics that get bands,
    ``bounds`` the registry entries of their analytic bounds (``interval_method="analytic"``).
    """

    def __init__(
        self,
        *,
        encoding: Encoding,
        every=None,
        n_instances=None,
        metrics=None,
        cost=None,
        convention="streamtk",
        pos_label=None,
        scores=None,
        adwin_options=None,
        interval=None,
        weighted=None,
        **forgetting,
    ):
        self.convention = check_choice(convention, "convention", CONVENTIONS)
        self.moa = self.convention == "moa"
        self.scores = scores  # None, "binary" or "multi": the kind of y_score given
        self.encoding = encoding
        self.k = encoding.n_classes
        self.specs = build_estimators(**forgetting)
        if self.moa:
            refuse_for_moa(self.specs)
        self.adwin_options = check_adwin_options(adwin_options)
        if self.moa and self.adwin_options["bound"] != "bernstein" and any(s.kind == "adwin" for s in self.specs):
            raise ValueError("convention='moa' runs MOA's ADWIN: adwin_options['bound'] must be 'bernstein'")
        self.cost = self._check_cost(cost, n_instances)
        self.pos = self._check_pos_label(pos_label)
        chosen = _metrics.resolve_metrics(metrics, n_classes=self.k, has_cost=self.cost is not None, scores=scores)
        if self.k != 2 and pos_label is None:
            if metrics is None:
                chosen = [m for m in chosen if m.name != "f1"]
            elif any(m.name == "f1" for m in chosen):
                raise ValueError(f"metric 'f1' needs pos_label= when there are {self.k} classes")
        self.metrics = chosen
        self.confusion = [m for m in chosen if m.family in ("confusion", "quantity")]
        self.auc_metrics = [m for m in chosen if m.family in ("auc", "imbalanced")]
        self.quantities = tuple(m.name for m in chosen if m.family == "quantity")
        self.estimators = EstimatorTable(self.specs)
        self.interval = interval
        self._plan_bands(metrics is not None, bool(weighted))
        per_class = sum(1 for m in self.metrics if m.shape == "class" or (m.shape == "column" and scores == "multi"))
        values = len(self.specs) * (len(self.metrics) - per_class + per_class * self.k)
        self.every = resolve_every(every, n_instances, per_checkpoint=values)

    def _plan_bands(self, explicit: bool, weighted: bool) -> None:
        """The metrics with bands and their analytic bounds (see :mod:`streamtk._core.intervals`)."""
        spec = self.interval
        if spec is not None and self.moa:
            raise ValueError(
                "interval= draws streamtk's bands; convention='moa' reproduces MOA's evaluators, which report none: "
                "use convention='streamtk' for bands"
            )
        values = [v for v in SEQUENCE_VALUES if v != "risk" or self.cost is not None]
        self.banded, self.interval_skipped = banded_metrics(
            self.metrics, spec, explicit=explicit, sequence_values=values
        )
        if spec is not None and spec.method == "sequence":
            check_sequence_estimators(self.specs)
        analytic = spec is not None and spec.method == "analytic"
        if analytic:
            from .auc_bands import check_auc_analytic

            auc = [m for m in self.banded if m.table == "auc"]
            keep, dropped = check_auc_analytic(auc, self.specs, weighted, explicit=explicit)
            self.banded = [m for m in self.banded if m.table != "auc" or m in keep]
            self.interval_skipped = list(self.interval_skipped) + dropped
        confusion = [m for m in self.banded if analytic and m.table == "confusion"]
        self.bounds = [m.bound(side) for m in confusion for side in BOUND_SIDES]
        self.auc_bounds = [m.bound(side) for m in self.banded if analytic and m.table == "auc" for side in BOUND_SIDES]
        # union-bound sequences of windows, fading factors, ... read Kish's effective size
        union = spec is not None and spec.method == "sequence" and any(s.kind != "prequential" for s in self.specs)
        given = any(m.name == "n_effective" for m in self.confusion)
        self.hidden = [_metrics.REGISTRY["n_effective"]] if union and self.banded and not given else []

    def squared(self) -> EvaluationPlan:
        """A plan of the same stream whose estimators weigh every instance by the square of its weight here
        (:func:`streamtk._core.mechanisms.squared_spec`), with no metric: the squared-weights pass of the bands."""
        out = copy.copy(self)
        out.specs = [squared_spec(s) for s in self.specs]
        out.estimators = EstimatorTable(out.specs)
        out.metrics, out.confusion, out.auc_metrics, out.bounds, out.banded, out.hidden = [], [], [], [], [], []
        out.auc_bounds = []
        out.quantities = ()
        out.interval = None
        return out

    def _check_cost(self, cost, n_instances=None):
        """``(k, k)`` costs, or ``(n, k, k)`` per-instance costs with ``n`` the stream length when it is known.

        A one-pass evaluation knows ``n``: per-instance costs of another length are refused. Chunk by
        chunk, ``n_instances`` (when given) is the stream length; without it each chunk is checked
        to lie within the cost rows (:meth:`quantities_for`).
        """
        if cost is None:
            return None
        arr = as_float_array(cost, "cost")
        k = self.k
        if arr.shape != (k, k) and not (arr.ndim == 3 and arr.shape[1:] == (k, k)):
            raise ValueError(
                f"cost must have shape ({k}, {k}) (cost[true, predicted]) or (n, {k}, {k}) for per-instance costs, "
                f"got shape {arr.shape}"
            )
        if arr.ndim == 3 and n_instances is not None and arr.shape[0] != n_instances:
            raise ValueError(
                f"cost holds per-instance costs for {arr.shape[0]} instances (shape {arr.shape}) but the stream "
                f"has {n_instances} instances: give one ({k}, {k}) cost matrix per instance"
            )
        return arr

    def _check_pos_label(self, pos_label):
        if pos_label is None:
            return 1 if self.k == 2 else 0
        code = self.encoding.index.get(pos_label.item() if isinstance(pos_label, np.generic) else pos_label)
        if code is None:
            raise ValueError(f"pos_label {pos_label!r} is not one of the classes {self.encoding.classes.tolist()!r}")
        return code

    def quantities_for(self, ytrue, ypred, start, y_score=None) -> np.ndarray:
        """Per-instance extra quantities ``(L, nq, T)`` of a chunk starting at absolute position ``start``."""
        L, T = ypred.shape
        q = np.zeros((L, len(self.quantities), T), dtype=np.float64)
        for j, name in enumerate(self.quantities):
            needs = _metrics.REGISTRY[name].needs
            if needs == "scores":
                if y_score is None:
                    raise ValueError(f"metric {name!r} needs y_score for every chunk")
                q[:, j, :] = score_losses(name, ytrue, y_score, self.scores, self.k, self.pos)
            elif needs == "cost":
                yt = np.where(ytrue >= 0, ytrue, 0)
                yp = np.where(ypred >= 0, ypred, 0)
                if self.cost.ndim == 2:
                    q[:, j, :] = self.cost[yt[None, :], yp]
                else:
                    if start + T > self.cost.shape[0]:
                        raise ValueError(
                            f"cost has per-instance costs for {self.cost.shape[0]} instances but the stream has "
                            f"at least {start + T}"
                        )
                    rows = np.arange(start, start + T)
                    q[:, j, :] = self.cost[rows[None, :], yt[None, :], yp]
            else:  # pragma: no cover - a quantity metric the pass does not know how to compute
                raise ValueError(f"metric {name!r} needs {needs!r}, which the confusion pass does not provide")
        return q
