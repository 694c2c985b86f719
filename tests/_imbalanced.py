"""Slow references of the imbalanced family: scikit-learn and pair counting on the instances each estimator holds."""

from __future__ import annotations

import functools
import math
import warnings

import numpy as np

from streamtk._core.adwin import LossAdwins, check_adwin_options

from ._auc import held

NAMES = ("average_precision", "pr_auc", "sauc", "pos_neg_ratio")
#: every mechanism (in :func:`streamtk._core.mechanisms.build_estimators` order)
ESTIMATORS = [("prequential", None), ("window", 9), ("fading", 0.9), ("adwin", 0.3), ("tumbling", 17),
              ("landmarks", (20, 61))]  # fmt: skip
KW = dict(windows=[9], fading=[0.9], adwin=[0.3], tumbling=[17], landmarks=[20, 61])


def ranking(pos, s, v):
    """``{name: value}`` of one weighted sample: scikit-learn's AP and trapezoidal PR AUC, the scored AUC by
    counting every pair, the weight ratio; NaN where a class is missing."""
    from sklearn.metrics import auc, average_precision_score, precision_recall_curve

    w1, w0 = float(v[pos].sum()), float(v[~pos].sum())
    out = {"pos_neg_ratio": w1 / w0 if w0 > 0 else (math.inf if w1 > 0 else math.nan)}
    if not (pos.any() and (~pos).any()):
        return out | {"average_precision": math.nan, "pr_auc": math.nan, "sauc": math.nan}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out["average_precision"] = average_precision_score(pos, s, sample_weight=v)
        p, r, _ = precision_recall_curve(pos, s, sample_weight=v)
        out["pr_auc"] = auc(r, p)
    d = s[pos][:, None] - s[~pos][None, :]
    out["sauc"] = float(np.sum(v[pos][:, None] * v[~pos][None, :] * np.where(d > 0, d, 0.0))) / (w0 * w1)
    return out


def stream(seed=0, n=110, L=2, k=2, ties=True):
    """``(y (n,) with -1 missing, p (L, n), s (L, n) or (L, n, k), w (L, n))``: rare positives, a drift halfway."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.25).astype(int) if k == 2 else rng.integers(0, k, n)
    y[rng.random(n) < 0.05] = -1
    shift = np.where(np.arange(n) < n // 2, 0.4, 0.05)
    if k == 2:
        s = rng.random((L, n)) + shift * (y == 1)
    else:
        s = rng.random((L, n, k)) + shift[:, None] * (np.arange(k)[None, :] == y[:, None])
    if ties:
        s = np.round(s, 1)
    p = np.where(rng.random((L, n)) < np.where(np.arange(n) < n // 2, 0.9, 0.5), np.maximum(y, 0), 1 - np.maximum(y, 0))
    if k > 2:
        p = np.where(rng.random((L, n)) < 0.7, np.maximum(y, 0), rng.integers(0, k, (L, n)))
    w = rng.choice([0.0, 0.5, 1.0, 2.25], size=(L, n), p=[0.1, 0.3, 0.4, 0.2])
    return y, p, s, w


@functools.lru_cache(maxsize=8)
def reference(seed, k, every):
    """``{(l, e, checkpoint, column): {name: value}}`` on :func:`stream` ``(seed, k=k)``."""
    y, p, s, w = stream(seed, k=k)
    L, n = p.shape
    member = (y[None] >= 0) & (w > 0) & (p >= 0)
    cks = [t for t in range(n) if (t + 1) % every == 0 or t == n - 1]
    out = {}
    for l in range(L):
        widths = np.zeros((1, n), dtype=np.int64)
        LossAdwins(1, [0.3], check_adwin_options(None)).limits(member[l], y != p[l], 0, widths)
        for e, (kind, param) in enumerate(ESTIMATORS):
            for c, t in enumerate(cks):
                idx, v = held(member[l], w[l], t, kind, param, widths[0])
                for col in range(1 if k == 2 else k):
                    pos = y[idx] == (1 if k == 2 else col)
                    sc = s[l, idx] if k == 2 else s[l, idx, col]
                    out[l, e, c, col] = ranking(pos, sc, v)
    return out
