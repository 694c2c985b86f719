"""Metrics of the confusion family: each formula once, over the snapshot of any forgetting mechanism.

Notation over the instances an estimator holds (all so far, the last ``w``, a tumble, the
members since a landmark, the ADWIN window, or faded weights ``alpha**(t-s)``), with instance
weights: ``W`` weight total, ``N`` number of members (faded count), ``C`` weighted hits,
``ROW_i`` / ``COL_i`` weight of true / predicted class ``i``, ``DIAG_i`` hits of class ``i``,
``p_maj`` / ``p_per`` the accuracy of the Majority Class / Persistent classifier under the same
estimator (Zliobaite et al. 2015, seed 003, section 4; DESIGN.md section 4).

Every formula is scale-free (it reads proportions), so multiplying every weight by a constant
does not change a metric (up to rounding; exactly for powers of two), and tiny or huge weights
neither underflow nor overflow. Undefined values are NaN. Under ``convention="moa"`` the
formulas follow MOA's ``BasicClassificationPerformanceEvaluator`` (estimates are sums divided by
the number of instances; no guards; before anything is observed the kappas are 0).

Seeds: ``000`` Bifet et al. 2015; ``001`` AMIDST deliverable; ``003`` Zliobaite et al. 2015;
``004`` Gama et al. 2013.
"""

from __future__ import annotations

import numpy as np

from .base import Metric
from .confusion_sums import ConfusionSums

__all__ = ["ConfusionSums", "METRICS"]

_BI = "Bifet et al. 2015 (seed 000)"
_ZL = "Zliobaite et al. 2015 (seed 003)"
_GA = "Gama et al. 2013 (seed 004)"
_AM = "AMIDST deliverable (seed 001)"


def _accuracy(s):
    return s.p0


def _error(s):
    return 1.0 - s.p0


def _kappa(s):
    return s.kappa


def _kappa_m(s):
    return s.chance_corrected(s.p0, s.p_maj)


def _kappa_per(s):
    return s.kappa_per


def _kappa_plus(s):
    kap, kper = s.kappa, s.kappa_per
    return np.where(np.isnan(kap) | np.isnan(kper), np.nan, np.sqrt(np.maximum(kap, 0.0) * np.maximum(kper, 0.0)))


def _p_ran(s):
    return s.p_ran


def _p_maj(s):
    return s.p_maj


def _p_per(s):
    return s.p_per


def _p_no_info(s):
    return np.full(s.N.shape, 1.0 / s.k)


def _kappa_se(s):
    p0, pr, n = s.p0, s.p_ran, s.N
    ok = (n > 0.0) & (pr != 1.0)
    return np.where(ok, np.sqrt(p0 * (1.0 - p0) / (n * (1.0 - pr) ** 2)), np.nan)


def _kappa_z(s):
    kap, pr, n = s.kappa, s.p_ran, s.N
    ok = (n > 0.0) & (pr != 1.0) & (pr != 0.0)
    return np.where(ok, kap / np.sqrt(pr / (n * (1.0 - pr))), np.nan)


def _arithmetic_mean(s):
    a, present = s.recall, s.present
    count = present.sum(axis=0)
    return np.where(count > 0, np.where(present, a, 0.0).sum(axis=0) / count, np.nan)


def _geometric_mean(s):
    a, present = s.recall, s.present
    count = present.sum(axis=0)
    logs = np.where(present, np.log(np.maximum(np.where(present, a, 1.0), 0.0)), 0.0)
    return np.where(count > 0, np.exp(logs.sum(axis=0) / np.maximum(count, 1)), np.nan)


def _harmonic_mean(s):
    a, present = s.recall, s.present
    count = present.sum(axis=0)
    inv = np.where(present, 1.0 / np.maximum(np.where(present, a, 1.0), 0.0), 0.0)
    return np.where(count > 0, count / inv.sum(axis=0), np.nan)


def _f1(s):
    i = s.pos
    return 2.0 * s.diag[i] / (s.row[i] + s.col[i])


def _macro_f1(s):
    dd = s.row + s.col
    present = dd > 0.0
    count = present.sum(axis=0)
    f = np.where(present, 2.0 * s.diag / np.where(present, dd, 1.0), 0.0)
    return np.where(count > 0, f.sum(axis=0) / np.maximum(count, 1), np.nan)


def _mcc(s):
    c, r, q = s.proportions
    f_col = 1.0 - (q * q).sum(axis=0)
    f_row = 1.0 - (r * r).sum(axis=0)
    ok = (f_col > 0.0) & (f_row > 0.0)
    num = c - (r * q).sum(axis=0)
    return np.where(ok, num / (np.sqrt(np.where(ok, f_col, 1.0)) * np.sqrt(np.where(ok, f_row, 1.0))), np.nan)


def _cmd(s):
    _, r, _ = s.proportions
    total = s.row.sum(axis=0)
    tp = s.diag[1] / total
    tn = s.diag[0] / total
    return tp * tn - (r[1] - tp) * (r[0] - tn)


def _n_instances(s):
    return s.N


def _recall(s):
    return s.recall


def _precision(s):
    return s.diag / s.col


def _class_f1(s):
    return 2.0 * s.diag / (s.row + s.col)


METRICS = [
    Metric(
        "accuracy",
        "confusion",
        "accuracy (p0)",
        "p0 = sum_s w_s [y_s == yhat_s] / sum_s w_s",
        f"{_BI} sec. 5; {_GA} Algorithms 1-3",
        _accuracy,
        ("p0",),
        symbol="p_0",
    ),
    Metric("error", "confusion", "error rate", "1 - p0", f"{_GA} sec. 3", _error, ("p0",), higher_is_better=False),
    Metric(
        "kappa",
        "confusion",
        "Cohen's kappa",
        "(p0 - p_ran) / (1 - p_ran)",
        f"{_ZL} eq. 10; {_BI} sec. 5.1",
        _kappa,
        ("kappa",),
        symbol="\\kappa",
    ),
    Metric(
        "kappa_m",
        "confusion",
        "kappa_m statistic",
        "(p0 - p_maj) / (1 - p_maj)",
        f"{_BI} sec. 5.3",
        _kappa_m,
        ("p0", "p_maj"),
        symbol="\\kappa_m",
    ),
    Metric(
        "kappa_per",
        "confusion",
        "Kappa-Temporal statistic",
        "(p0 - p_per) / (1 - p_per)",
        f"{_ZL} eq. 13; {_BI} eq. 3",
        _kappa_per,
        ("kappa_per",),
        symbol="\\kappa_{per}",
    ),
    Metric(
        "kappa_plus",
        "confusion",
        "combined measure kappa+",
        "sqrt(max(0, kappa) * max(0, kappa_per))",
        f"{_ZL} eq. 14",
        _kappa_plus,
        ("kappa", "kappa_per"),
        symbol="\\kappa^+",
    ),
    Metric(
        "p_ran",
        "confusion",
        "accuracy of the Random classifier (chance agreement p_c)",
        "sum_i (ROW_i / W)(COL_i / W)",
        f"{_ZL} eq. 9",
        _p_ran,
        ("p_ran",),
        symbol="p_{ran}",
    ),
    Metric(
        "p_maj",
        "confusion",
        "accuracy of the Majority Class classifier",
        "sum_s w_s [maj_s == y_s] / sum_s w_s",
        f"{_ZL} eq. 6; {_BI} sec. 5.3",
        _p_maj,
        ("p_maj",),
        symbol="p_{maj}",
    ),
    Metric(
        "p_per",
        "confusion",
        "accuracy of the Persistent classifier",
        "sum_s w_s [y_(s-1) == y_s] / sum_s w_s",
        f"{_ZL} eq. 7",
        _p_per,
        ("p_per",),
        symbol="p_{per}",
    ),
    Metric(
        "p_no_info",
        "confusion",
        "accuracy of the no-information classifier",
        "1 / k",
        f"{_ZL} eq. 5",
        _p_no_info,
        (),
        symbol="p_0^{rand}",
    ),
    Metric(
        "kappa_se",
        "confusion",
        "standard error of kappa",
        "sqrt(p0 (1 - p0) / (N (1 - p_ran)^2)), N = number of instances held (faded count for fading)",
        f"{_ZL} eq. 11",
        _kappa_se,
        ("p0", "p_ran"),
        higher_is_better=False,
    ),
    Metric(
        "kappa_z",
        "confusion",
        "z statistic of kappa",
        "kappa / sqrt(p_ran / (N (1 - p_ran)))",
        f"{_ZL} eq. 12",
        _kappa_z,
        ("kappa", "p_ran"),
        higher_is_better=None,
    ),
    Metric(
        "arithmetic_mean",
        "confusion",
        "arithmetic mean of class recalls (A)",
        "(1/c) sum_i A_i, A_i = DIAG_i / ROW_i over the c classes present",
        f"{_BI} sec. 5.2",
        _arithmetic_mean,
        ("recall", "present"),
    ),
    Metric(
        "geometric_mean",
        "confusion",
        "geometric mean of class recalls (G)",
        "(prod_i A_i)^(1/c)",
        f"{_BI} sec. 5.2",
        _geometric_mean,
        ("recall", "present"),
    ),
    Metric(
        "harmonic_mean",
        "confusion",
        "harmonic mean of class recalls (H)",
        "c / sum_i (1 / A_i)  (0 if some A_i = 0)",
        f"{_BI} sec. 5.2 eq. 1",
        _harmonic_mean,
        ("recall", "present"),
    ),
    Metric(
        "f1",
        "confusion",
        "F1 score of the positive class",
        "2 TP / (2 TP + FN + FP)",
        f"{_BI} sec. 5.2 eq. 2",
        _f1,
        ("diag", "row", "col"),
    ),
    Metric(
        "macro_f1",
        "confusion",
        "macro-averaged F1",
        "mean over classes present (true or predicted) of 2 DIAG_i / (ROW_i + COL_i)",
        "Sokolova & Lapalme 2009",
        _macro_f1,
        ("diag", "row", "col"),
    ),
    Metric(
        "mcc",
        "confusion",
        "Matthews correlation coefficient",
        "(C W - sum_i ROW_i COL_i) / sqrt((W^2 - sum_i COL_i^2)(W^2 - sum_i ROW_i^2))",
        f"{_BI} sec. 5.1 (binary); Gorodkin 2004 (multi-class)",
        _mcc,
        ("proportions",),
    ),
    Metric(
        "cmd",
        "confusion",
        "determinant of the binary confusion matrix (proportions)",
        "(TP TN - FN FP) / W^2",
        f"{_BI} sec. 5.1",
        _cmd,
        ("proportions", "row", "diag"),
        needs="binary",
    ),
    Metric(
        "n_instances",
        "confusion",
        "number of instances held by the estimator",
        "count (prequential, tumbling, landmarks), min(count, w) (window), sum_s alpha^(t-s) (fading), "
        "ADWIN width (adwin)",
        f"{_GA} Algorithm 3 (N_alpha)",
        _n_instances,
        (),
        units="1",
        higher_is_better=None,
    ),
    Metric(
        "recall",
        "confusion",
        "recall (class accuracy A_i)",
        "DIAG_i / ROW_i",
        f"{_BI} sec. 5.2",
        _recall,
        ("recall",),
        shape="class",
    ),
    Metric(
        "precision",
        "confusion",
        "precision",
        "DIAG_i / COL_i",
        f"{_BI} sec. 5.2",
        _precision,
        ("diag", "col"),
        shape="class",
    ),
    Metric(
        "class_f1",
        "confusion",
        "per-class F1",
        "2 DIAG_i / (ROW_i + COL_i)",
        f"{_BI} sec. 5.2 eq. 2",
        _class_f1,
        ("diag", "row", "col"),
        shape="class",
    ),
]
