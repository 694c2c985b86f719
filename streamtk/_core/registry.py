"""The metric registry: one entry per metric drives kernel outputs, Dataset variables and docs.

Each :class:`Metric` names a finaliser of the engine's sufficient statistics
(:mod:`streamtk._kernels.finalise`), its output shape (scalar or per class),
metadata written into the Dataset attrs (``long_name``, ``units``, ``formula``,
``reference``) and what it needs (labels only, a cost matrix, scores).

Notation: over the instances held by an estimator (all so far, the last ``w``,
or weights ``alpha**(t-s)``), with instance weights ``w_s``:

* ``p0`` = weighted fraction of correct predictions;
* ``ROW_i`` / ``COL_i`` = weighted count of true / predicted class ``i``;
  ``p_ran = sum_i ROW_i COL_i / W^2`` (the Random classifier, Zliobaite et al.
  2015 eq. 9, = Cohen's chance agreement ``p_c``);
* ``p_maj`` / ``p_per`` = accuracy of the Majority Class / Persistent classifier
  under the same estimator (see :mod:`streamtk.evaluation.engine` for their exact definition).

Seeds: ``000`` Bifet et al. 2015; ``001`` AMIDST deliverable; ``003`` Zliobaite et
al. 2015; ``004`` Gama et al. 2013.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._kernels import finalise as K

__all__ = ["Metric", "REGISTRY", "DEFAULT_METRICS", "resolve_metrics", "describe"]


@dataclass(frozen=True)
class Metric:
    name: str
    code: int
    kind: str  # "scalar" or "class" (confusion finalisers), "auc" (exact AUC pass)
    long_name: str
    formula: str
    reference: str
    needs: str = "labels"  # "labels", "cost", "binary", "scores", "multiscores"
    quantity: str | None = None  # for quantity means: name of the per-instance quantity
    units: str = "1"


_ZL = "Zliobaite et al. 2015 (seed 003)"
_BI = "Bifet et al. 2015 (seed 000)"

_METRICS = [
    Metric(
        "accuracy",
        K.M_ACCURACY,
        "scalar",
        "accuracy (p0)",
        "p0 = sum_s w_s [y_s == yhat_s] / sum_s w_s",
        f"{_BI} sec. 5; Gama et al. 2013 (seed 004) Algorithms 1-3",
    ),
    Metric("error", K.M_ERROR, "scalar", "error rate", "1 - p0", "Gama et al. 2013 (seed 004) sec. 3"),
    Metric(
        "kappa", K.M_KAPPA, "scalar", "Cohen's kappa", "(p0 - p_ran) / (1 - p_ran)", f"{_ZL} eq. 10; {_BI} sec. 5.1"
    ),
    Metric("kappa_m", K.M_KAPPA_M, "scalar", "kappa_m statistic", "(p0 - p_maj) / (1 - p_maj)", f"{_BI} sec. 5.3"),
    Metric(
        "kappa_per",
        K.M_KAPPA_PER,
        "scalar",
        "Kappa-Temporal statistic",
        "(p0 - p_per) / (1 - p_per)",
        f"{_ZL} eq. 13; {_BI} eq. 3",
    ),
    Metric(
        "kappa_plus",
        K.M_KAPPA_PLUS,
        "scalar",
        "combined measure kappa+",
        "sqrt(max(0, kappa) * max(0, kappa_per))",
        f"{_ZL} eq. 14",
    ),
    Metric(
        "p_ran",
        K.M_P_RAN,
        "scalar",
        "accuracy of the Random classifier (chance agreement p_c)",
        "sum_i ROW_i COL_i / W^2",
        f"{_ZL} eq. 9",
    ),
    Metric(
        "p_maj",
        K.M_P_MAJ,
        "scalar",
        "accuracy of the Majority Class classifier",
        "sum_s w_s [maj_s == y_s] / sum_s w_s",
        f"{_ZL} eq. 6; {_BI} sec. 5.3",
    ),
    Metric(
        "p_per",
        K.M_P_PER,
        "scalar",
        "accuracy of the Persistent classifier",
        "sum_s w_s [y_{s-1} == y_s] / sum_s w_s",
        f"{_ZL} eq. 7",
    ),
    Metric("p_no_info", K.M_P_NO_INFO, "scalar", "accuracy of the no-information classifier", "1 / k", f"{_ZL} eq. 5"),
    Metric(
        "kappa_se",
        K.M_KAPPA_SE,
        "scalar",
        "standard error of kappa",
        "sqrt(p0 (1 - p0) / (N (1 - p_ran)^2)), N = number of instances held (faded count for fading)",
        f"{_ZL} eq. 11",
    ),
    Metric(
        "kappa_z",
        K.M_KAPPA_Z,
        "scalar",
        "z statistic of kappa",
        "kappa / sqrt(p_ran / (N (1 - p_ran)))",
        f"{_ZL} eq. 12",
    ),
    Metric(
        "arithmetic_mean",
        K.M_ARITHMETIC_MEAN,
        "scalar",
        "arithmetic mean of class recalls (A)",
        "(1/c) sum_i A_i, A_i = DIAG_i / ROW_i over the c classes present",
        f"{_BI} sec. 5.2",
    ),
    Metric(
        "geometric_mean",
        K.M_GEOMETRIC_MEAN,
        "scalar",
        "geometric mean of class recalls (G)",
        "(prod_i A_i)^(1/c)",
        f"{_BI} sec. 5.2",
    ),
    Metric(
        "harmonic_mean",
        K.M_HARMONIC_MEAN,
        "scalar",
        "harmonic mean of class recalls (H)",
        "c / sum_i (1 / A_i)  (0 if some A_i = 0)",
        f"{_BI} sec. 5.2 eq. 1",
    ),
    Metric(
        "f1", K.M_F1, "scalar", "F1 score of the positive class", "2 TP / (2 TP + FN + FP)", f"{_BI} sec. 5.2 eq. 2"
    ),
    Metric(
        "macro_f1",
        K.M_MACRO_F1,
        "scalar",
        "macro-averaged F1",
        "mean over classes present (true or predicted) of 2 DIAG_i / (ROW_i + COL_i)",
        "Sokolova & Lapalme 2009",
    ),
    Metric(
        "mcc",
        K.M_MCC,
        "scalar",
        "Matthews correlation coefficient",
        "(C W - sum_i ROW_i COL_i) / sqrt((W^2 - sum_i COL_i^2)(W^2 - sum_i ROW_i^2))",
        f"{_BI} sec. 5.1 (binary); Gorodkin 2004 (multi-class)",
    ),
    Metric(
        "cmd",
        K.M_CMD,
        "scalar",
        "determinant of the binary confusion matrix (proportions)",
        "(TP TN - FN FP) / W^2",
        f"{_BI} sec. 5.1",
        needs="binary",
    ),
    Metric(
        "risk",
        K.M_QUANTITY_MEAN,
        "scalar",
        "empirical risk (mean misclassification cost)",
        "sum_s w_s L(x_s, yhat_s, y_s) / sum_s w_s with L = cost[y_s, yhat_s] or cost[s, y_s, yhat_s]",
        "AMIDST deliverable (seed 001) eqs. 2.2-2.3, 2.11",
        needs="cost",
        quantity="risk",
    ),
    Metric(
        "log_loss",
        K.M_QUANTITY_MEAN,
        "scalar",
        "logarithmic loss",
        "mean of -log p_y (binary: -(y log p + (1 - y) log(1 - p))), p clipped to [1e-15, 1 - 1e-15]",
        "AMIDST deliverable (seed 001) eq. 2.11 with the log loss",
        needs="scores",
        quantity="log_loss",
    ),
    Metric(
        "brier",
        K.M_QUANTITY_MEAN,
        "scalar",
        "Brier score",
        "mean of (p - y)^2 (binary) or sum_c (p_c - [y == c])^2 (class scores)",
        "Brier 1950; AMIDST deliverable (seed 001) eq. 2.11",
        needs="scores",
        quantity="brier",
    ),
    Metric(
        "auc",
        -1,
        "auc",
        "AUC = concordance probability P(Q1 > Q0)",
        "U1 / (W0 W1), exact (Fenwick trees over rank-compressed scores); NaN with one class only",
        "AMIDST deliverable (seed 001) eqs. 2.5, 2.9, 2.12",
        needs="scores",
    ),
    Metric(
        "auc_u1",
        -1,
        "auc",
        "Mann-Whitney U1 (weighted)",
        "sum_{i pos, j neg} v_i v_j H(q_i - q_j), H(0) = 1/2",
        "AMIDST deliverable (seed 001) eq. 2.6",
        needs="scores",
    ),
    Metric(
        "auc_u0",
        -1,
        "auc",
        "Mann-Whitney U0 (weighted)",
        "W0 W1 - U1",
        "AMIDST deliverable (seed 001) eq. 2.6",
        needs="scores",
    ),
    Metric(
        "auc_z",
        -1,
        "auc",
        "Mann-Whitney z statistic",
        "(U0 - W0 W1 / 2) / sqrt(W0 W1 (W0 + W1 + 1) / 12)",
        "AMIDST deliverable (seed 001) eqs. 2.7-2.8",
        needs="scores",
    ),
    Metric(
        "auc_macro",
        -1,
        "auc",
        "macro-averaged one-vs-rest AUC",
        "mean over classes with a defined AUC",
        "AMIDST deliverable (seed 001) eq. 2.9; Hand & Till 2001",
        needs="multiscores",
    ),
    Metric(
        "n_instances",
        K.M_N_INSTANCES,
        "scalar",
        "number of instances held by the estimator",
        "count (prequential), min(count, w) (window), sum_s alpha^(t-s) (fading), ADWIN width (adwin)",
        "Gama et al. 2013 (seed 004) Algorithm 3 (N_alpha)",
    ),
    Metric("recall", K.C_RECALL, "class", "recall (class accuracy A_i)", "DIAG_i / ROW_i", f"{_BI} sec. 5.2"),
    Metric("precision", K.C_PRECISION, "class", "precision", "DIAG_i / COL_i", f"{_BI} sec. 5.2"),
    Metric("class_f1", K.C_F1, "class", "per-class F1", "2 DIAG_i / (ROW_i + COL_i)", f"{_BI} sec. 5.2 eq. 2"),
]

REGISTRY: dict[str, Metric] = {m.name: m for m in _METRICS}

#: computed when ``metrics=None`` (metrics whose requirements are unmet are left out)
DEFAULT_METRICS = tuple(m.name for m in _METRICS)


def _unmet(m: Metric, n_classes, has_cost, scores) -> str | None:
    """Why a metric cannot be computed here (None if it can)."""
    if m.needs == "cost" and not has_cost:
        return f"metric {m.name!r} needs a cost matrix: pass cost="
    if m.needs == "binary" and n_classes != 2:
        return f"metric {m.name!r} is defined for two classes only, got {n_classes} classes"
    if m.needs in ("scores", "multiscores") and scores is None:
        return f"metric {m.name!r} needs class scores: pass y_score="
    if m.needs == "multiscores" and scores != "multi":
        return f"metric {m.name!r} needs (..., n, k) class scores"
    return None


def resolve_metrics(metrics, *, n_classes: int, has_cost: bool, scores: str | None = None) -> list[Metric]:
    """Validate a metric selection; ``None`` selects every applicable metric.

    ``scores``: ``None`` (no scores given), ``"binary"`` or ``"multi"``.
    """
    if metrics is None:
        return [m for m in _METRICS if _unmet(m, n_classes, has_cost, scores) is None]
    if isinstance(metrics, str):
        metrics = (metrics,)
    chosen = []
    for name in metrics:
        if name not in REGISTRY:
            raise ValueError(f"unknown metric {name!r}; known metrics: {', '.join(REGISTRY)}")
        m = REGISTRY[name]
        why = _unmet(m, n_classes, has_cost, scores)
        if why:
            raise ValueError(why)
        if m not in chosen:
            chosen.append(m)
    if not chosen:
        raise ValueError("metrics must name at least one metric, got an empty selection")
    return chosen


def describe() -> str:
    """A text table of every metric: name, formula, reference."""
    lines = []
    for m in _METRICS:
        lines.append(f"{m.name:16s} {m.formula}  [{m.reference}]")
    return "\n".join(lines)
