"""Slow references of the multi-label family: scikit-learn on the instances each estimator holds."""

from __future__ import annotations

import functools
import math
import warnings

import numpy as np

from streamtk._core.adwin import LossAdwins, check_adwin_options

from ._auc import held

#: every mechanism, with values that make each of them hold a different set on a short stream
#: (in the order of :func:`streamtk._core.mechanisms.build_estimators`)
ESTIMATORS = [("prequential", None), ("window", 7), ("fading", 0.9), ("adwin", 0.3), ("tumbling", 13),
              ("landmarks", (30, 77))]  # fmt: skip
KW = dict(windows=[7], fading=[0.9], tumbling=[13], landmarks=[30, 77], adwin=[0.3])


def stream(seed=0, n=90, q=4, L=2, missing=True):
    """``(y (n, q) float with NaN rows, p (L, n, q) float with NaN rows, w (L, n))``: a drift halfway (ADWIN cuts)."""
    rng = np.random.default_rng(seed)
    y = (rng.random((n, q)) < np.linspace(0.2, 0.6, q)).astype(float)
    y[rng.random(n) < 0.15] = 0.0  # instances without a true label
    good = np.where(np.arange(n) < n // 2, 0.95, 0.55)[None, :, None]
    flip = rng.random((L, n, q)) > good
    p = np.where(flip, 1.0 - y, y)
    p[:, rng.random(n) < 0.1] = 0.0  # instances without a predicted label
    if missing:
        y[rng.random(n) < 0.05] = np.nan
        p[0, rng.random(n) < 0.05] = np.nan
    w = rng.choice([0.0, 0.25, 1.0, 2.5], size=(L, n), p=[0.1, 0.3, 0.4, 0.2])
    return y, p, w


def members(y, p, w):
    """``(L, n)`` bool: labels and prediction present and weight > 0."""
    return ~np.isnan(y).any(1)[None] & ~np.isnan(p).any(2) & (w > 0)


def adwin_widths(member, loss, delta):
    """The ADWIN width after each member position (an ADWIN on the per-instance loss)."""
    out = np.zeros((1, member.size), dtype=np.int64)
    LossAdwins(1, [delta], check_adwin_options(None)).limits(member, loss, 0, out)
    return out[0]


def _sk(y, p, v, zd):
    """Every multi-label metric of one weighted sample by scikit-learn (NaN for an empty sample)."""
    from sklearn import metrics as M

    names = ("hamming_loss", "exact_match", "jaccard", "precision_samples", "recall_samples", "f1_samples",
             "precision_micro", "recall_micro", "f1_micro", "precision_macro", "recall_macro", "f1_macro",
             "label_precision", "label_recall", "label_f1", "label_tp", "label_fp", "label_fn", "label_tn")  # fmt: skip
    q = y.shape[1]
    if y.shape[0] == 0:
        return {k: (np.full(q, np.nan) if k.startswith("label_") else math.nan) for k in names} | {
            k: np.zeros(q) for k in ("label_tp", "label_fp", "label_fn", "label_tn")
        }
    zdk = zd if not math.isnan(zd) else np.nan
    out = {
        "hamming_loss": M.hamming_loss(y, p, sample_weight=v),
        "exact_match": M.accuracy_score(y, p, sample_weight=v),
    }
    if math.isnan(zd):  # scikit-learn's jaccard_score takes 0 or 1 only: the mean over the defined instances
        inter, union = (y * p).sum(1), np.maximum(y, p).sum(1)
        ok = union > 0
        out["jaccard"] = float(np.sum(v[ok] * inter[ok] / union[ok]) / v[ok].sum()) if ok.any() else math.nan
    else:
        out["jaccard"] = M.jaccard_score(y, p, average="samples", sample_weight=v, zero_division=zd)
    for avg in ("samples", "micro", "macro", None):
        pr, rc, f1, _ = M.precision_recall_fscore_support(y, p, average=avg, sample_weight=v, zero_division=zdk)
        suffix = f"_{avg}" if avg else ""
        prefix = "label_" if avg is None else ""
        out[f"{prefix}precision{suffix}"], out[f"{prefix}recall{suffix}"], out[f"{prefix}f1{suffix}"] = pr, rc, f1
    cm = M.multilabel_confusion_matrix(y, p, sample_weight=v)
    out["label_tn"], out["label_fp"], out["label_fn"], out["label_tp"] = (
        cm[:, 0, 0],
        cm[:, 0, 1],
        cm[:, 1, 0],
        cm[:, 1, 1],
    )
    return out


@functools.lru_cache(maxsize=8)
def reference(seed, zd, every):
    """``{(model, estimator index, checkpoint index): {metric: value}}`` on :func:`stream` ``(seed)``."""
    y, p, w = stream(seed)
    L, n, q = p.shape
    mem = members(y, p, w)
    loss = np.nan_to_num(np.abs(np.nan_to_num(y)[None] - np.nan_to_num(p))).sum(2) / q
    cks = [t for t in range(n) if (t + 1) % every == 0 or t == n - 1]
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for l in range(L):
            widths = adwin_widths(mem[l], loss[l], 0.3)
            for e, (kind, param) in enumerate(ESTIMATORS):
                for c, t in enumerate(cks):
                    idx, v = held(mem[l], w[l], t, kind, param, widths)
                    out[l, e, c] = _sk(y[idx].astype(int), p[l, idx].astype(int), v, zd)
    return out
