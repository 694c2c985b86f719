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

from .base import Metric
from .confusion_bounds import BANDS, kappa_se_of
from .confusion_bounds import METRICS as _EFFECTIVE
from .confusion_sums import KAPPA, KAPPA_PER, P0, P_MAJ, P_PER, RQ, TABLE, N, chance_corrected, p_ran
from .dialect import NAN, exp, formula, full, isnan, log, maximum, sqrt, where

__all__ = ["TABLE", "METRICS"]

_BI = "Bifet et al. 2015 (seed 000)"
_ZL = "Zliobaite et al. 2015 (seed 003)"
_GA = "Gama et al. 2013 (seed 004)"
_AM = "AMIDST deliverable (seed 001)"


@formula
def _accuracy(s, v, m, x):
    return v[P0, m]


@formula
def _error(s, v, m, x):
    return 1.0 - v[P0, m]


@formula
def _kappa(s, v, m, x):
    return v[KAPPA, m]


@formula
def _kappa_m(s, v, m, x):
    return chance_corrected(s, v, m, x, v[P0, m], v[P_MAJ, m])


@formula
def _kappa_per(s, v, m, x):
    return v[KAPPA_PER, m]


@formula
def _kappa_plus(s, v, m, x):
    kap, kper = v[KAPPA, m], v[KAPPA_PER, m]
    return where(isnan(kap) | isnan(kper), NAN, sqrt(maximum(kap, 0.0) * maximum(kper, 0.0)))


@formula
def _p_ran(s, v, m, x):
    return p_ran(s, v, m, x)


@formula
def _p_maj(s, v, m, x):
    return v[P_MAJ, m]


@formula
def _p_per(s, v, m, x):
    return v[P_PER, m]


@formula
def _p_no_info(s, v, m, x):
    return full(s[N, m], 1.0 / x.k)


@formula
def _kappa_se(s, v, m, x):
    return kappa_se_of(v[P0, m], p_ran(s, v, m, x), s[N, m])


@formula
def _kappa_z(s, v, m, x):
    kap, pr, n = v[KAPPA, m], p_ran(s, v, m, x), s[N, m]
    ok = (n > 0.0) & (pr != 1.0) & (pr != 0.0)
    return where(ok, kap / sqrt(pr / (n * (1.0 - pr))), NAN)


@formula
def _recall_of(s, m, x, i):
    """``A_i = DIAG_i / ROW_i`` (NaN when class ``i`` is not held)."""
    return s[x.r0 + 2 * x.k + i, m] / s[x.r0 + i, m]


@formula
def _arithmetic_mean(s, v, m, x):
    total, count = full(s[N, m], 0.0), full(s[N, m], 0.0)
    for i in range(x.k):
        present = s[x.r0 + i, m] > 0.0
        total = total + where(present, _recall_of(s, m, x, i), 0.0)
        count = count + where(present, 1.0, 0.0)
    return where(count > 0.0, total / count, NAN)


@formula
def _geometric_mean(s, v, m, x):
    if x.k == 2:  # two classes: the square root of the product of two recalls, one recall, or none
        a0, a1 = _recall_of(s, m, x, 0), _recall_of(s, m, x, 1)
        if x.moa:  # MOA's imbalanced evaluators: sqrt(posAcc negAcc), NaN while a class is absent
            return sqrt(a0 * a1)
        h0, h1 = s[x.r0, m] > 0.0, s[x.r0 + 1, m] > 0.0
        return where(h0 & h1, sqrt(a0 * a1), where(h0, a0, where(h1, a1, NAN)))
    logs, count = full(s[N, m], 0.0), full(s[N, m], 0.0)
    for i in range(x.k):
        present = s[x.r0 + i, m] > 0.0
        logs = logs + where(present, log(maximum(where(present, _recall_of(s, m, x, i), 1.0), 0.0)), 0.0)
        count = count + where(present, 1.0, 0.0)
    return where(count > 0.0, exp(logs / maximum(count, 1.0)), NAN)


@formula
def _harmonic_mean(s, v, m, x):
    inv, count = full(s[N, m], 0.0), full(s[N, m], 0.0)
    for i in range(x.k):
        present = s[x.r0 + i, m] > 0.0
        inv = inv + where(present, 1.0 / maximum(where(present, _recall_of(s, m, x, i), 1.0), 0.0), 0.0)
        count = count + where(present, 1.0, 0.0)
    return where(count > 0.0, count / inv, NAN)


@formula
def _f1(s, v, m, x):
    r0, k, i = x.r0, x.k, x.pos
    return 2.0 * s[r0 + 2 * k + i, m] / (s[r0 + i, m] + s[r0 + k + i, m])


@formula
def _macro_f1(s, v, m, x):
    r0, k = x.r0, x.k
    total, count = full(s[N, m], 0.0), full(s[N, m], 0.0)
    for i in range(k):
        dd = s[r0 + i, m] + s[r0 + k + i, m]
        present = dd > 0.0
        total = total + where(present, 2.0 * s[r0 + 2 * k + i, m] / where(present, dd, 1.0), 0.0)
        count = count + where(present, 1.0, 0.0)
    return where(count > 0.0, total / maximum(count, 1.0), NAN)


@formula
def _mcc(s, v, m, x):
    r0, k = x.r0, x.k
    tr, tc, td = s[r0, m], s[r0 + k, m], s[r0 + 2 * k, m]
    for i in range(1, k):
        tr, tc, td = tr + s[r0 + i, m], tc + s[r0 + k + i, m], td + s[r0 + 2 * k + i, m]
    r, q = s[r0, m] / tr, s[r0 + k, m] / tc
    sq_row, sq_col = r * r, q * q
    for i in range(1, k):
        r, q = s[r0 + i, m] / tr, s[r0 + k + i, m] / tc
        sq_row, sq_col = sq_row + r * r, sq_col + q * q
    f_col = 1.0 - sq_col
    f_row = 1.0 - sq_row
    ok = (f_col > 0.0) & (f_row > 0.0)
    num = td / tr - v[RQ, m]
    return where(ok, num / (sqrt(where(ok, f_col, 1.0)) * sqrt(where(ok, f_row, 1.0))), NAN)


@formula
def _cmd(s, v, m, x):
    r0 = x.r0
    total = s[r0, m] + s[r0 + 1, m]  # two classes: ROW_0 + ROW_1
    tp = s[r0 + 5, m] / total  # DIAG_1 (k = 2: DIAG starts at r0 + 4)
    tn = s[r0 + 4, m] / total
    return tp * tn - (s[r0 + 1, m] / total - tp) * (s[r0, m] / total - tn)


@formula
def _n_instances(s, v, m, x):
    return s[N, m]


@formula
def _recall(s, v, m, x, i):
    return _recall_of(s, m, x, i)


@formula
def _precision(s, v, m, x, i):
    return s[x.r0 + 2 * x.k + i, m] / s[x.r0 + x.k + i, m]


@formula
def _class_f1(s, v, m, x, i):
    r0, k = x.r0, x.k
    return 2.0 * s[r0 + 2 * k + i, m] / (s[r0 + i, m] + s[r0 + k + i, m])


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
        label="accuracy $p_0$",
        limits=(0.0, 1.0),
        interval=BANDS["accuracy"],
        mean_of="hit",
    ),
    Metric(
        "error",
        "confusion",
        "error rate",
        "1 - p0",
        f"{_GA} sec. 3",
        _error,
        ("p0",),
        higher_is_better=False,
        label="error $1 - p_0$",
        limits=(0.0, 1.0),
        interval=BANDS["error"],
        mean_of="miss",
    ),
    Metric(
        "kappa",
        "confusion",
        "Cohen's kappa",
        "(p0 - p_ran) / (1 - p_ran)",
        f"{_ZL} eq. 10; {_BI} sec. 5.1",
        _kappa,
        ("kappa",),
        symbol="\\kappa",
        label="$\\kappa$",
        limits=(None, 1.0),
        interval=BANDS["kappa"],
    ),
    Metric(
        "kappa_m",
        "confusion",
        "kappa_m statistic",
        "(p0 - p_maj) / (1 - p_maj)",
        f"{_BI} sec. 5.3",
        _kappa_m,
        ("nothing_yet", "p0", "p_maj"),
        symbol="\\kappa_m",
        label="$\\kappa_m$",
        limits=(None, 1.0),
        interval=BANDS["kappa_m"],
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
        label="$\\kappa_{per}$",
        limits=(None, 1.0),
        interval=BANDS["kappa_per"],
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
        label="$\\kappa^{+}$",
        limits=(None, 1.0),
        interval=BANDS["kappa_plus"],
    ),
    Metric(
        "p_ran",
        "confusion",
        "accuracy of the Random classifier (chance agreement p_c)",
        "sum_i (ROW_i / W)(COL_i / W)",
        f"{_ZL} eq. 9",
        _p_ran,
        ("rq", "p_moa"),
        symbol="p_{ran}",
        label="$p_{ran}$",
        limits=(0.0, 1.0),
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
        label="$p_{maj}$",
        limits=(0.0, 1.0),
        interval=BANDS["p_maj"],
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
        label="$p_{per}$",
        limits=(0.0, 1.0),
        interval=BANDS["p_per"],
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
        label="$p_{no\\,info}$",
        limits=(0.0, 1.0),
        bands=False,
    ),
    Metric(
        "kappa_se",
        "confusion",
        "standard error of kappa",
        "sqrt(p0 (1 - p0) / (N (1 - p_ran)^2)), N = number of instances held (faded count for fading)",
        f"{_ZL} eq. 11",
        _kappa_se,
        ("p0", "rq", "p_moa"),
        higher_is_better=False,
        label="SE($\\kappa$)",
        bands=False,
    ),
    Metric(
        "kappa_z",
        "confusion",
        "z statistic of kappa",
        "kappa / sqrt(p_ran / (N (1 - p_ran)))",
        f"{_ZL} eq. 12",
        _kappa_z,
        ("kappa", "rq", "p_moa"),
        higher_is_better=None,
        label="$z_\\kappa$",
        bands=False,
    ),
    Metric(
        "arithmetic_mean",
        "confusion",
        "arithmetic mean of class recalls (A)",
        "(1/c) sum_i A_i, A_i = DIAG_i / ROW_i over the c classes present",
        f"{_BI} sec. 5.2",
        _arithmetic_mean,
        (),
        label="A (mean recall)",
        limits=(0.0, 1.0),
    ),
    Metric(
        "geometric_mean",
        "confusion",
        "geometric mean of class recalls (G)",
        "(prod_i A_i)^(1/c) over the c classes present (MOA, two classes: sqrt(A_0 A_1), NaN while one is absent)",
        f"{_BI} sec. 5.2",
        _geometric_mean,
        (),
        label="G (geometric mean recall)",
        limits=(0.0, 1.0),
    ),
    Metric(
        "harmonic_mean",
        "confusion",
        "harmonic mean of class recalls (H)",
        "c / sum_i (1 / A_i)  (0 if some A_i = 0)",
        f"{_BI} sec. 5.2 eq. 1",
        _harmonic_mean,
        (),
        label="H (harmonic mean recall)",
        limits=(0.0, 1.0),
    ),
    Metric(
        "f1",
        "confusion",
        "F1 score of the positive class",
        "2 TP / (2 TP + FN + FP)",
        f"{_BI} sec. 5.2 eq. 2",
        _f1,
        (),
        label="$F_1$",
        limits=(0.0, 1.0),
    ),
    Metric(
        "macro_f1",
        "confusion",
        "macro-averaged F1",
        "mean over classes present (true or predicted) of 2 DIAG_i / (ROW_i + COL_i)",
        "Sokolova & Lapalme 2009",
        _macro_f1,
        (),
        label="macro $F_1$",
        limits=(0.0, 1.0),
    ),
    Metric(
        "mcc",
        "confusion",
        "Matthews correlation coefficient",
        "(C W - sum_i ROW_i COL_i) / sqrt((W^2 - sum_i COL_i^2)(W^2 - sum_i ROW_i^2))",
        f"{_BI} sec. 5.1 (binary); Gorodkin 2004 (multi-class)",
        _mcc,
        ("rq",),
        label="MCC",
        limits=(-1.0, 1.0),
    ),
    Metric(
        "cmd",
        "confusion",
        "determinant of the binary confusion matrix (proportions)",
        "(TP TN - FN FP) / W^2",
        f"{_BI} sec. 5.1",
        _cmd,
        (),
        needs="binary",
        label="CMD",
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
        label="instances held",
        limits=(0.0, None),
        bands=False,
    ),
    Metric(
        "recall",
        "confusion",
        "recall (class accuracy A_i)",
        "DIAG_i / ROW_i",
        f"{_BI} sec. 5.2",
        _recall,
        (),
        shape="class",
        label="recall",
        limits=(0.0, 1.0),
        interval=BANDS["recall"],
    ),
    Metric(
        "precision",
        "confusion",
        "precision",
        "DIAG_i / COL_i",
        f"{_BI} sec. 5.2",
        _precision,
        (),
        shape="class",
        label="precision",
        limits=(0.0, 1.0),
        interval=BANDS["precision"],
    ),
    Metric(
        "class_f1",
        "confusion",
        "per-class F1",
        "2 DIAG_i / (ROW_i + COL_i)",
        f"{_BI} sec. 5.2 eq. 2",
        _class_f1,
        (),
        shape="class",
        label="class $F_1$",
        limits=(0.0, 1.0),
    ),
    *_EFFECTIVE,
]
