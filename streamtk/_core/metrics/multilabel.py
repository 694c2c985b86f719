"""The multi-label family: example-based and label-based measures of recorded label sets.

The table (:data:`TABLE`): the multi-label kernel (:mod:`streamtk._kernels.multilabel`) writes, per
estimator, the weighted sums of the example values of the instances it holds (``S_f = sum_s w_s
ex[s, f]``: the weight ``W``, the mismatches, ``[Y = P]``, the per-instance Jaccard, precision, recall
and F1 with the weight of the instances where each is defined, MOA's two per-instance values and the
true/false positives and false negatives over the labels), the members held ``N``, and per label ``j``
its weighted ``TP_j, FP_j, FN_j``. ``q`` is the number of labels.

Definitions (Tsoumakas, Katakis & Vlahavas 2010, *Mining multi-label data*, evaluation measures;
scikit-learn's ``average="samples"``, ``"micro"``, ``"macro"``, ``None``): example-based measures are
weighted means over the instances held of a per-instance value; an instance where it is ``0 / 0`` (no
predicted label for precision, no true label for recall, neither for Jaccard and F1) counts
``zero_division`` (0, 1, or NaN: left out of the mean), as scikit-learn's ``zero_division``; label-based
measures are functions of the summed (micro) or per-label (macro: their unweighted mean) counts, a
``0 / 0`` being ``zero_division`` (NaN: the label is left out of the macro mean). Every measure is NaN
while the estimator holds no instance.

``convention="moa"``: MOA's ``BasicMultiLabelPerformanceEvaluator`` (``EvaluatePrequentialMultiLabel``),
prequential only, every instance with a prediction counted once (weights are not read), each measure a
sum over instances divided by their number: ``exact_match`` is MOA's "Exact Match", ``jaccard`` its
"Accuracy" and ``f1_samples`` its "F-Measure" (an instance without true or predicted label adds 0),
``hamming_loss`` is ``1 -`` its "Hamming Score" (the sum of ``(q - mismatches) / q``). MOA's
"Precision" adds ``|Y & P| / |Y|`` (what is usually called the instance's recall) and its "Recall" adds
the *integer* quotient ``|Y & P| // |P|`` (1 when every predicted label is true, else 0): under
``convention="moa"`` ``precision_samples`` and ``recall_samples`` report those two numbers as MOA does.
This is MOA's behaviour, reproduced for comparison, not streamtk's definition.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from ..._kernels.multilabel import (
    EX_EXACT,
    EX_F1,
    EX_FN,
    EX_FP,
    EX_JACCARD,
    EX_MISMATCH,
    EX_MOA_HAMMING,
    EX_MOA_RECALL,
    EX_PRECISION,
    EX_PREDICTED,
    EX_RECALL,
    EX_TP,
    EX_TRUE,
    EX_UNION,
    EX_W,
    L_FN,
    L_FP,
    L_TP,
    ROW_LABEL,
    ROW_N,
)
from .base import Metric, Table
from .dialect import NAN, formula, full, maximum, where

__all__ = ["MultilabelContext", "context", "TABLE", "METRICS", "MOA_METRICS", "ZERO_DIVISION"]

_TKV = "Tsoumakas, Katakis & Vlahavas 2010 (Mining multi-label data), evaluation measures"
_MOA = "MOA's BasicMultiLabelPerformanceEvaluator under convention='moa' (Read et al. 2012)"
#: the values ``zero_division`` may take (as scikit-learn's, NaN included)
ZERO_DIVISION = (0.0, 1.0, math.nan)
#: the metrics MOA's multi-label evaluator reports (``convention="moa"`` computes only these)
MOA_METRICS = ("hamming_loss", "exact_match", "jaccard", "precision_samples", "recall_samples", "f1_samples")


class MultilabelContext(NamedTuple):
    """Constants of a multi-label evaluation: ``n_labels`` (``q``), ``zero_division`` (the value of a
    ``0 / 0``) and whether it is NaN (``zd_nan``: undefined values are left out of the means), MOA's
    convention."""

    n_labels: int
    zero_division: float
    zd_nan: bool
    moa: bool


def context(n_labels: int, zero_division: float, moa: bool) -> MultilabelContext:
    """The context of an evaluation (``zero_division`` checked by the caller)."""
    zd = float(zero_division)
    return MultilabelContext(int(n_labels), zd, math.isnan(zd), bool(moa))


@formula
def _samples(s, m, x, num, den):
    """Example-based mean of a per-instance value (sum ``num``) defined on the instances of weight ``den``."""
    w = s[EX_W, m]
    d = s[den, m]
    if x.zd_nan:
        ok = d > 0.0
        return where(ok, s[num, m] / where(ok, d, 1.0), NAN)
    ok = w > 0.0
    return where(ok, (s[num, m] + x.zero_division * (w - d)) / where(ok, w, 1.0), NAN)


@formula
def _moa_mean(s, m, row):
    """MOA: a per-instance sum over the number of instances."""
    return s[row, m] / s[ROW_N, m]


@formula
def _ratio(a, d, held, x):
    """``a / d``, ``zero_division`` where ``d = 0``; NaN while nothing is held."""
    ok = d > 0.0
    return where(held, where(ok, a / where(ok, d, 1.0), x.zero_division), NAN)


@formula
def _hamming_loss(s, v, m, x):
    if x.moa:
        return 1.0 - _moa_mean(s, m, EX_MOA_HAMMING)
    w = s[EX_W, m]
    ok = w > 0.0
    return where(ok, s[EX_MISMATCH, m] / (x.n_labels * where(ok, w, 1.0)), NAN)


@formula
def _exact_match(s, v, m, x):
    if x.moa:
        return _moa_mean(s, m, EX_EXACT)
    w = s[EX_W, m]
    ok = w > 0.0
    return where(ok, s[EX_EXACT, m] / where(ok, w, 1.0), NAN)


@formula
def _jaccard(s, v, m, x):
    if x.moa:
        return _moa_mean(s, m, EX_JACCARD)
    return _samples(s, m, x, EX_JACCARD, EX_UNION)


@formula
def _precision_samples(s, v, m, x):
    if x.moa:  # MOA's "Precision": |Y & P| / |Y|
        return _moa_mean(s, m, EX_RECALL)
    return _samples(s, m, x, EX_PRECISION, EX_PREDICTED)


@formula
def _recall_samples(s, v, m, x):
    if x.moa:  # MOA's "Recall": the integer quotient |Y & P| // |P|
        return _moa_mean(s, m, EX_MOA_RECALL)
    return _samples(s, m, x, EX_RECALL, EX_TRUE)


@formula
def _f1_samples(s, v, m, x):
    if x.moa:
        return _moa_mean(s, m, EX_F1)
    return _samples(s, m, x, EX_F1, EX_UNION)


@formula
def _held(s, m):
    return s[ROW_N, m] > 0.0


@formula
def _precision_micro(s, v, m, x):
    tp = s[EX_TP, m]
    return _ratio(tp, tp + s[EX_FP, m], _held(s, m), x)


@formula
def _recall_micro(s, v, m, x):
    tp = s[EX_TP, m]
    return _ratio(tp, tp + s[EX_FN, m], _held(s, m), x)


@formula
def _f1_micro(s, v, m, x):
    tp2 = 2.0 * s[EX_TP, m]
    return _ratio(tp2, tp2 + s[EX_FP, m] + s[EX_FN, m], _held(s, m), x)


@formula
def _counts(s, m, j):
    """``(TP, FP, FN)`` of label ``j``."""
    b = ROW_LABEL + 3 * j
    return s[b + L_TP, m], s[b + L_FP, m], s[b + L_FN, m]


@formula
def _label_precision_of(s, m, x, j):
    tp, fp, fn = _counts(s, m, j)
    return _ratio(tp, tp + fp, _held(s, m), x)


@formula
def _label_recall_of(s, m, x, j):
    tp, fp, fn = _counts(s, m, j)
    return _ratio(tp, tp + fn, _held(s, m), x)


@formula
def _label_f1_of(s, m, x, j):
    tp, fp, fn = _counts(s, m, j)
    return _ratio(2.0 * tp, 2.0 * tp + fp + fn, _held(s, m), x)


@formula
def _mean_of(total, count, held):
    ok = held & (count > 0.0)
    return where(ok, total / where(ok, count, 1.0), NAN)


@formula
def _precision_macro(s, v, m, x):
    total, count = full(s[0, m], 0.0), full(s[0, m], 0.0)
    for j in range(x.n_labels):
        a = _label_precision_of(s, m, x, j)
        ok = a == a
        total = total + where(ok, a, 0.0)
        count = count + where(ok, 1.0, 0.0)
    return _mean_of(total, count, _held(s, m))


@formula
def _recall_macro(s, v, m, x):
    total, count = full(s[0, m], 0.0), full(s[0, m], 0.0)
    for j in range(x.n_labels):
        a = _label_recall_of(s, m, x, j)
        ok = a == a
        total = total + where(ok, a, 0.0)
        count = count + where(ok, 1.0, 0.0)
    return _mean_of(total, count, _held(s, m))


@formula
def _f1_macro(s, v, m, x):
    total, count = full(s[0, m], 0.0), full(s[0, m], 0.0)
    for j in range(x.n_labels):
        a = _label_f1_of(s, m, x, j)
        ok = a == a
        total = total + where(ok, a, 0.0)
        count = count + where(ok, 1.0, 0.0)
    return _mean_of(total, count, _held(s, m))


@formula
def _label_precision(s, v, m, x, i):
    return _label_precision_of(s, m, x, i)


@formula
def _label_recall(s, v, m, x, i):
    return _label_recall_of(s, m, x, i)


@formula
def _label_f1(s, v, m, x, i):
    return _label_f1_of(s, m, x, i)


@formula
def _label_tp(s, v, m, x, i):
    return s[ROW_LABEL + 3 * i + L_TP, m]


@formula
def _label_fp(s, v, m, x, i):
    return s[ROW_LABEL + 3 * i + L_FP, m]


@formula
def _label_fn(s, v, m, x, i):
    return s[ROW_LABEL + 3 * i + L_FN, m]


@formula
def _label_tn(s, v, m, x, i):
    # W - TP - FP - FN: exact with integer weights; a window's rounding residue is clipped at 0
    tp, fp, fn = _counts(s, m, i)
    return maximum(s[EX_W, m] - tp - fp - fn, 0.0)


TABLE = Table(
    "multilabel",
    (),
    "the example sums S_f (streamtk._kernels.multilabel.EX_FIELDS), N, then TP_j, FP_j, FN_j per label",
    MultilabelContext,
)

_ZD = "; 0/0 counts zero_division"


def _m(name, long_name, text, compute, *, reference=_TKV, per_label=False, **kw):
    kw.setdefault("needs", "multilabel")
    return Metric(name, "multilabel", long_name, text, reference, compute, (), extra={"per_label": per_label}, **kw)


METRICS = [
    _m(
        "hamming_loss",
        "Hamming loss",
        "sum_s w_s |Y_s xor P_s| / (q sum_s w_s)",
        _hamming_loss,
        higher_is_better=False,
        limits=(0.0, 1.0),
        notes="convention='moa': 1 - MOA's Hamming Score",
    ),
    _m(
        "exact_match",
        "exact match (subset accuracy)",
        "sum_s w_s [Y_s == P_s] / sum_s w_s",
        _exact_match,
        limits=(0.0, 1.0),
    ),
    _m(
        "jaccard",
        "example-based Jaccard index (accuracy)",
        "sum_s w_s |Y_s & P_s| / |Y_s | P_s| / sum_s w_s" + _ZD,
        _jaccard,
        limits=(0.0, 1.0),
        notes="scikit-learn's jaccard_score(average='samples'); MOA's 'Accuracy'",
    ),
    _m(
        "precision_samples",
        "example-based precision",
        "sum_s w_s |Y_s & P_s| / |P_s| / sum_s w_s" + _ZD,
        _precision_samples,
        limits=(0.0, 1.0),
        notes="convention='moa': MOA's 'Precision', the mean of |Y & P| / |Y|",
    ),
    _m(
        "recall_samples",
        "example-based recall",
        "sum_s w_s |Y_s & P_s| / |Y_s| / sum_s w_s" + _ZD,
        _recall_samples,
        limits=(0.0, 1.0),
        notes="convention='moa': MOA's 'Recall', the mean of the integer quotient |Y & P| // |P|",
    ),
    _m(
        "f1_samples",
        "example-based F1",
        "sum_s w_s 2 |Y_s & P_s| / (|Y_s| + |P_s|) / sum_s w_s" + _ZD,
        _f1_samples,
        limits=(0.0, 1.0),
    ),
    _m(
        "precision_micro",
        "micro-averaged precision",
        "sum_j TP_j / sum_j (TP_j + FP_j)" + _ZD,
        _precision_micro,
        limits=(0.0, 1.0),
    ),
    _m(
        "recall_micro",
        "micro-averaged recall",
        "sum_j TP_j / sum_j (TP_j + FN_j)" + _ZD,
        _recall_micro,
        limits=(0.0, 1.0),
    ),  # fmt: skip
    _m(
        "f1_micro",
        "micro-averaged F1",
        "2 sum_j TP_j / (2 sum_j TP_j + sum_j FP_j + sum_j FN_j)" + _ZD,
        _f1_micro,
        limits=(0.0, 1.0),
    ),
    _m(
        "precision_macro",
        "macro-averaged precision",
        "(1/q) sum_j TP_j / (TP_j + FP_j)" + _ZD + " (NaN: the label is left out)",
        _precision_macro,
        per_label=True,
        limits=(0.0, 1.0),
    ),
    _m(
        "recall_macro",
        "macro-averaged recall",
        "(1/q) sum_j TP_j / (TP_j + FN_j)" + _ZD + " (NaN: the label is left out)",
        _recall_macro,
        per_label=True,
        limits=(0.0, 1.0),
    ),
    _m(
        "f1_macro",
        "macro-averaged F1",
        "(1/q) sum_j 2 TP_j / (2 TP_j + FP_j + FN_j)" + _ZD + " (NaN: the label is left out)",
        _f1_macro,
        per_label=True,
        limits=(0.0, 1.0),
    ),
    _m(
        "label_precision",
        "precision of each label",
        "TP_j / (TP_j + FP_j)" + _ZD,
        _label_precision,
        per_label=True,
        shape="label",
        limits=(0.0, 1.0),
    ),  # fmt: skip
    _m(
        "label_recall",
        "recall of each label",
        "TP_j / (TP_j + FN_j)" + _ZD,
        _label_recall,
        per_label=True,
        shape="label",
        limits=(0.0, 1.0),
    ),  # fmt: skip
    _m(
        "label_f1",
        "F1 of each label",
        "2 TP_j / (2 TP_j + FP_j + FN_j)" + _ZD,
        _label_f1,
        per_label=True,
        shape="label",
        limits=(0.0, 1.0),
    ),  # fmt: skip
    _m(
        "label_tp",
        "true positives of each label",
        "sum_s w_s [y_sj = 1][p_sj = 1]",
        _label_tp,
        per_label=True,
        shape="label",
        higher_is_better=None,
        limits=(0.0, None),
    ),  # fmt: skip
    _m(
        "label_fp",
        "false positives of each label",
        "sum_s w_s [y_sj = 0][p_sj = 1]",
        _label_fp,
        per_label=True,
        shape="label",
        higher_is_better=None,
        limits=(0.0, None),
    ),  # fmt: skip
    _m(
        "label_fn",
        "false negatives of each label",
        "sum_s w_s [y_sj = 1][p_sj = 0]",
        _label_fn,
        per_label=True,
        shape="label",
        higher_is_better=None,
        limits=(0.0, None),
    ),  # fmt: skip
    _m(
        "label_tn",
        "true negatives of each label",
        "sum_s w_s - TP_j - FP_j - FN_j",
        _label_tn,
        per_label=True,
        shape="label",
        higher_is_better=None,
        limits=(0.0, None),
    ),  # fmt: skip
]
