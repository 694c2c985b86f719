"""Per-instance proper scoring rules of recorded class scores: log-loss and the Brier score.

Averaged under any estimator (``streamtk.evaluate(..., y_score=...)`` does it in its one pass,
:func:`streamtk.evaluation.losses.loss_curves` for a loss array) they give the prequential
log-loss and Brier score (the empirical risk of eq. 2.11 of the AMIDST deliverable, seed 001).
:func:`binary_targets` encodes binary labels (1 positive, 0 negative, -1 missing).
"""

from __future__ import annotations

import numpy as np

from .._core.labels import MISSING, encode_labels
from .._core.validation import as_float_array

__all__ = ["binary_targets", "positive_code", "log_loss", "brier_score", "LOG_LOSS_EPS"]

LOG_LOSS_EPS = 1e-15


def positive_code(classes: list, pos_label=None):
    """The code of the positive class among ``classes`` (None when absent and ``pos_label`` is None).

    ``pos_label=None``: labels that are a subset of ``{0, 1}`` (or booleans) make ``1`` positive;
    exactly two labels make the larger (in their sorted order) positive; more raise.
    """
    if pos_label is None:
        if set(classes) <= {0, 1}:
            return next((i for i, c in enumerate(classes) if c == 1), None)
        if len(classes) == 2:
            return 1
        raise ValueError(f"y_true has the classes {classes!r}; pass pos_label= to say which one is positive")
    pos = [i for i, c in enumerate(classes) if c == pos_label]
    if not pos:
        raise ValueError(f"pos_label {pos_label!r} is not one of the labels in y_true {classes!r}")
    return pos[0]


def binary_codes(codes, pos):
    """Class codes -> binary targets (int64): 1 where the code is ``pos``, 0 for another class, -1 missing.

    ``pos`` None (or a code no class has): every labelled instance is negative.
    """
    codes = np.asarray(codes)
    return np.where(codes >= 0, codes == (-2 if pos is None else pos), MISSING).astype(np.int64, copy=False)


def binary_targets(y_true, *, pos_label=None):
    """Encode binary targets: 1 positive, 0 negative, ``-1`` missing label.

    With ``pos_label=None`` the labels must be a subset of ``{0, 1}`` (or booleans),
    or exactly two distinct labels (the larger in sorted order is positive). With
    ``pos_label`` given, that label is positive and every other present label negative
    (one-vs-rest).
    """
    enc, (codes,) = encode_labels(y_true, names=("y_true",))
    pos = positive_code(enc.classes.tolist(), pos_label)
    return binary_codes(codes, pos)


def _check_proba(p, name):
    bad = np.flatnonzero(((p < 0) | (p > 1)).reshape(-1))
    if bad.size:
        idx = np.unravel_index(bad[0], p.shape)
        raise ValueError(
            f"{name} must hold probabilities in [0, 1], got {float(p[idx])!r} at index {tuple(map(int, idx))}"
        )


def _prob_inputs(y_true, y_score, pos_label, classes):
    p = as_float_array(y_score, "y_score")
    yt = np.asarray(y_true) if not isinstance(y_true, np.ma.MaskedArray) else y_true
    n = np.shape(yt)[-1] if np.ndim(yt) else 0
    if np.ndim(yt) != 1:
        raise ValueError(f"y_true must be one-dimensional (n,), got shape {np.shape(yt)}")
    _check_proba(p, "y_score")
    if p.ndim >= 2 and classes is not None:
        if p.shape[-2] != n:
            raise ValueError(f"y_score has {p.shape[-2]} instances (axis -2) but y_true has {n}")
        enc, (codes,) = encode_labels(yt, classes=classes, names=("y_true",))
        if p.shape[-1] != enc.n_classes:
            raise ValueError(f"y_score has {p.shape[-1]} class columns but classes has {enc.n_classes}")
        return "multi", p, codes
    if p.shape[-1] != n:
        raise ValueError(
            f"y_score has {p.shape[-1]} instances along its last axis but y_true has {n}; "
            "pass classes= for (..., n, k) class scores"
        )
    return "binary", p, binary_targets(yt, pos_label=pos_label)


def log_loss(y_true, y_score, *, eps=LOG_LOSS_EPS, pos_label=None, classes=None):
    """Per-instance logarithmic loss (cross-entropy), NaN where the label is missing.

    Binary (``y_score`` ``(..., n)``, probability of the positive class ``p``):
    ``-(y log p + (1 - y) log(1 - p))``; multi-class (``y_score`` ``(..., n, k)`` with
    ``classes=`` naming the columns): ``-log p_y``. Probabilities are clipped to
    ``[eps, 1 - eps]`` (``eps = 1e-15`` by default) so a confident mistake costs at
    most ``-log(eps) ~ 34.5`` instead of ``inf``; rows are *not* renormalised.

    Average the result under any estimator (prequential, window, fading) to get the
    prequential log-loss (the empirical risk of eq. 2.11, seed ``001``).

    See Also
    --------
    sklearn.metrics.log_loss : the same loss averaged (it renormalises rows; we do not).
    river.metrics.LogLoss, river.metrics.CrossEntropy
    """
    if not (isinstance(eps, float) and 0.0 < eps < 0.5):
        raise ValueError(f"eps must be a float in (0, 0.5), got {eps!r}")
    mode, p, y = _prob_inputs(y_true, y_score, pos_label, classes)
    with np.errstate(invalid="ignore"):
        if mode == "binary":
            pc = np.clip(p, eps, 1 - eps)
            loss = -np.where(y == 1, np.log(pc), np.log1p(-pc))
        else:
            py = np.take_along_axis(p, np.maximum(y, 0)[:, None] + np.zeros(p.shape[:-1] + (1,), np.int64), -1)[..., 0]
            loss = -np.log(np.clip(py, eps, 1 - eps))
    return np.where(y >= 0, loss, np.nan)


def brier_score(y_true, y_score, *, pos_label=None, classes=None):
    """Per-instance Brier score, NaN where the label is missing.

    Binary: ``(p - y)**2`` in ``[0, 1]``; multi-class (``(..., n, k)`` with ``classes=``):
    Brier's original ``sum_c (p_c - [y == c])**2`` in ``[0, 2]`` (for ``k = 2`` twice the
    binary value).

    See Also
    --------
    sklearn.metrics.brier_score_loss : the binary form, averaged.
    """
    mode, p, y = _prob_inputs(y_true, y_score, pos_label, classes)
    if mode == "binary":
        loss = (p - (y == 1)) ** 2
    else:
        onehot = y[:, None] == np.arange(p.shape[-1])[None, :]
        loss = ((p - onehot) ** 2).sum(axis=-1)
    return np.where(y >= 0, loss, np.nan)


def score_losses(name: str, ytrue, s, mode: str, k: int, pos: int) -> np.ndarray:
    """Per-instance ``log_loss`` or ``brier`` ``(L, T)``; 0 where the label is missing (never evaluated).

    NaN scores (only where the instance is not evaluated: :func:`check_scores_evaluated`) give 0.
    """
    if np.isnan(s).any():
        s = np.where(np.isnan(s), 0.5 if mode == "binary" else 1.0 / k, s)
    present = ytrue >= 0
    if mode == "binary":
        y = np.where(present, (ytrue == pos).astype(np.float64), np.nan)
        vals = (log_loss if name == "log_loss" else brier_score)(y, s)
    else:
        y = np.where(present, ytrue.astype(np.float64), np.nan)
        vals = (log_loss if name == "log_loss" else brier_score)(y, s, classes=list(range(k)))
    return np.nan_to_num(vals, nan=0.0)
