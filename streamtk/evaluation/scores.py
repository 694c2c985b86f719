"""Score-based evaluation: exact streaming AUC (Mann-Whitney U), log-loss, Brier score.

AUC as a concordance probability (AMIDST deliverable, seed ``001``, sec. 2.1.2-2.2):
over the instances an estimator holds, with positives ``i``, negatives ``j``, scores
``q`` and instance weights ``v``,

* ``U1 = sum_{i, j} v_i v_j H(q_i - q_j)`` with ``H(0) = 1/2`` (eq. 2.6, ties counted one half),
* ``U0 = W0 W1 - U1`` where ``W0``, ``W1`` are the weight totals of negatives and positives,
* ``AUC = P(Q1 > Q0) = U1 / (W0 W1)`` (eqs. 2.5, 2.9; prequentially eq. 2.12),
* ``z = (U0 - W0 W1 / 2) / sqrt(W0 W1 (W0 + W1 + 1) / 12)`` (eqs. 2.7-2.8; without a tie
  correction, as in the paper; with unit weights ``W0 = n0``, ``W1 = n1``).

Estimators (:mod:`streamtk._core.mechanisms`): ``prequential`` (all evaluated instances so
far), ``window=w`` (the last ``w`` evaluated instances) and ``fading=alpha``: instance
``s`` carries the weight ``alpha**(t - s)`` at time ``t`` (``t``, ``s`` counting
evaluated instances), so a *pair* weighs ``alpha**(t - i) alpha**(t - j)`` and

``AUC_t = sum_{i pos, j neg} a^(t-i) a^(t-j) H(q_i - q_j) / (sum_pos a^(t-i) * sum_neg a^(t-j))``.

An instance is evaluated when its label is present and its weight is ``> 0``. The
AUC of a state with no positive or no negative is NaN (``convention="moa"``: 1.0, as
MOA's ``WindowAUCImbalancedPerformanceEvaluator``). Every score column is
rank-compressed once (ties share a rank), and the U statistics are maintained
exactly with Fenwick trees (:mod:`streamtk._kernels.auc`), ``O(log n)`` per instance
and estimator.

Multi-class scores ``(..., n, k)``: one-vs-rest AUC per class (``class`` dim) and its
macro average; with ``multi_class="ovo"`` also the pairwise AUCs ``A(i|j)`` and Hand &
Till's ``M = 2 / (k (k - 1)) sum_{i < j} (A(i|j) + A(j|i)) / 2`` (Hand & Till 2001), exact:
each instance costs ``O(k)`` Fenwick operations, the state holds ``k * k`` trees.
"""

from __future__ import annotations

import numpy as np

from .._core.labels import MISSING, encode_labels
from .._core.mechanisms import build_estimators, checkpoint_positions, estimator_coords
from .._core.validation import as_float_array, check_choice, check_positive_int, check_weights
from .._kernels import auc as K
from .._kernels.auc_rank import dense_ranks

__all__ = [
    "rank_compress",
    "binary_targets",
    "log_loss",
    "brier_score",
    "auc_statistics",
    "finalise_binary",
    "finalise_multiclass",
    "CONVENTIONS",
    "auc_curves",
    "roc_pr_curves",
]

CONVENTIONS = ("streamtk", "moa")
LOG_LOSS_EPS = 1e-15


# ----------------------------------------------------------------------------- inputs
def rank_compress(values):
    """Dense 0-based ranks of each row along the last axis (ties share a rank).

    Parameters
    ----------
    values : array-like ``(..., n)`` of real scores (``±inf`` allowed, NaN refused).

    Returns
    -------
    ranks : int64 array of the same shape; ``ranks[..., a] < ranks[..., b]`` iff
        ``values[..., a] < values[..., b]``.
    n_ranks : int, the largest number of distinct values in a row.
    """
    arr = np.asarray(values, dtype=np.float64)
    if np.isnan(arr).any():
        idx = tuple(int(i) for i in np.argwhere(np.isnan(arr))[0])
        raise ValueError(f"scores contain NaN at index {idx}")
    flat = np.ascontiguousarray(arr.reshape(-1, arr.shape[-1]))
    ranks = np.empty(flat.shape, dtype=np.int64)
    n_ranks = 0
    for r in range(flat.shape[0]):  # LSD radix sort (O(n) per 11-bit digit), as numpy.unique's inverse
        n_ranks = max(n_ranks, int(dense_ranks(flat[r], ranks[r])))
    return ranks.reshape(arr.shape), n_ranks


def binary_targets(y_true, *, pos_label=None):
    """Encode binary targets: 1 positive, 0 negative, ``-1`` missing label.

    With ``pos_label=None`` the labels must be a subset of ``{0, 1}`` (or booleans),
    or exactly two distinct labels (the larger in sorted order is positive). With
    ``pos_label`` given, that label is positive and every other present label negative
    (one-vs-rest).
    """
    enc, (codes,) = encode_labels(y_true, names=("y_true",))
    classes = enc.classes.tolist()
    out = np.full(codes.shape, MISSING, dtype=np.int64)
    present = codes >= 0
    if pos_label is None:
        if set(classes) <= {0, 1}:
            pos = [i for i, c in enumerate(classes) if c == 1]
        elif len(classes) == 2:
            pos = [1]
        else:
            raise ValueError(f"y_true has the classes {classes!r}; pass pos_label= to say which one is positive")
    else:
        pos = [i for i, c in enumerate(classes) if c == pos_label]
        if not pos:
            raise ValueError(f"pos_label {pos_label!r} is not one of the labels in y_true {classes!r}")
    out[present] = 0
    if pos:
        out[codes == pos[0]] = 1
    return out


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


# ------------------------------------------------------------------------ finalisers
def finalise_binary(u1, w0, w1, n0, n1, *, convention="streamtk"):
    """AUC, U0 and the Mann-Whitney z from the binary sufficient statistics.

    ``auc = u1 / (w0 w1)``; NaN where ``n0 == 0`` or ``n1 == 0`` (one class only), 1.0
    there under ``convention="moa"``. ``u0 = w0 w1 - u1``;
    ``z = (u0 - w0 w1 / 2) / sqrt(w0 w1 (w0 + w1 + 1) / 12)`` (seed 001 eqs. 2.7-2.8;
    NaN with one class only). Returns a dict of arrays.
    """
    u1, w0, w1, n0, n1 = (np.asarray(a, dtype=np.float64) for a in (u1, w0, w1, n0, n1))
    defined = (n0 > 0) & (n1 > 0)
    prod = w0 * w1
    with np.errstate(invalid="ignore", divide="ignore"):
        auc = np.where(defined, u1 / np.where(defined, prod, 1.0), np.nan)
        sigma = np.sqrt(prod * (w0 + w1 + 1.0) / 12.0)
        u0 = prod - u1  # 0 when a class is absent: there is no pair
        z = np.where(defined, (u0 - prod / 2.0) / np.where(defined, sigma, 1.0), np.nan)
    if convention == "moa":
        auc = np.where(defined, auc, 1.0)
    return {"auc": auc, "u1": u1, "u0": u0, "mw_z": z, "w_neg": w0, "w_pos": w1, "n_neg": n0, "n_pos": n1}


def finalise_multiclass(U, W, N, *, multi_class):
    """One-vs-rest (and pairwise) statistics from the general kernel output.

    ``U``, ``W``, ``N`` have trailing dims ``(C, G)``: for ``"ovr"`` ``G = 2`` (group 1 the
    class, group 0 the rest); for ``"ovo"`` ``G = k`` (``U[..., i, j]`` the U statistic of
    class ``i`` against ``j`` on score column ``i``). The macro average and Hand & Till's
    M average over the classes / pairs whose AUC is defined (NaN if none is).
    """
    k = U.shape[-2]
    if multi_class == "ovr":
        out = finalise_binary(U[..., 0], W[..., 0], W[..., 1], N[..., 0], N[..., 1])
    else:
        eye = np.eye(k, dtype=bool)
        diag = lambda a: np.diagonal(a, axis1=-2, axis2=-1)  # noqa: E731
        rest = lambda a: np.where(eye, 0.0, a).sum(axis=-1)  # noqa: E731
        out = finalise_binary(rest(U), rest(W), diag(W), rest(N), diag(N))
        npos = diag(N)[..., :, None]
        wpos = diag(W)[..., :, None]
        defined = (npos > 0) & (N > 0) & ~eye
        with np.errstate(invalid="ignore", divide="ignore"):
            pair = np.where(defined, U / np.where(defined, wpos * W, 1.0), np.nan)
        sym = 0.5 * (pair + np.swapaxes(pair, -1, -2))
        iu = np.triu_indices(k, 1)
        upper = sym[..., iu[0], iu[1]]
        out["auc_ovo"] = pair
        out["auc_hand_till"] = _nanmean(upper)
    out["auc_macro"] = _nanmean(out["auc"])
    return out


def _nanmean(a):
    ok = ~np.isnan(a)
    cnt = ok.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(cnt > 0, np.where(ok, a, 0.0).sum(axis=-1) / np.maximum(cnt, 1), np.nan)


# ---------------------------------------------------------------------------- driver
def checkpoints(n, every):
    """0-based instance positions of the checkpoints: every ``every`` instances, plus the last."""
    pos = checkpoint_positions(0, n, every)
    if pos.size == 0 or pos[-1] != n - 1:
        pos = np.append(pos, np.int64(n - 1))
    return pos


def _moa_votes(p):
    """MOA's score from class votes ``(..., n, 2)``: ``v1 / (v0 + v1)``, NaN -> 0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        s = p[..., 1] / (p[..., 0] + p[..., 1])
    return np.where(np.isnan(s), 0.0, s)


def _binary_run(ranks, R, y2, w, kinds, params, unit, positions):
    """Run the binary kernel; returns ``(L, E, T, 5)`` = (U1, W0, W1, N0, N1) in estimator order.

    On a large rank space the cumulative estimators (prequential, fading) run offline
    (:func:`streamtk._kernels.auc_offline.cumulative_offline`: same statistics, cache
    resident) and the Fenwick kernel keeps the windows only.
    """
    import numba

    from .._kernels import auc_offline as KO

    cum = np.flatnonzero(kinds != K.KIND_WINDOW)
    win = np.flatnonzero(kinds == K.KIND_WINDOW)
    alphas = np.where(kinds[cum] == K.KIND_FADING, params[cum], 1.0).astype(np.float64)
    # a window never holds more than n instances: cap its size (same results, bounded tree)
    wsizes = np.minimum(params[win], ranks.shape[1]).astype(np.int64)
    L, T = ranks.shape[0], positions.size
    offline = cum.size > 0 and KO.use_offline(ranks.shape[1], R, min(L, numba.get_num_threads()))
    kalphas = alphas[:0] if offline else alphas
    out_c = np.zeros((L, cum.size, T, 5))
    out_w = np.zeros((L, win.size, T, 5))
    if not offline or win.size:
        lrn, lro = K.binary_local_ranks(ranks, y2, w, wsizes, R)
        state = K.new_binary_state(L, 0 if offline else R, kalphas, wsizes)
        K.binary_auc_run(
            ranks,
            lrn,
            lro,
            y2,
            w,
            kalphas,
            wsizes,
            unit,
            0,
            ranks.shape[1],
            positions,
            0,
            *state,
            np.zeros((L, 0, T, 5)) if offline else out_c,
            out_w,
        )
    for l in range(L if offline else 0):  # leads one after another (see use_offline)
        KO.cumulative_offline(
            ranks[l],
            y2[min(l, y2.shape[0] - 1)],
            w[min(l, w.shape[0] - 1)],
            unit,
            alphas,
            R,
            positions,
            out_c[l],
            KO.BLOCK,
        )
    out = np.empty((L, kinds.size, T, 5))
    out[:, cum] = out_c
    out[:, win] = out_w
    return out


def auc_statistics(
    y_true,
    y_score,
    *,
    windows=(),
    fading=(),
    prequential=True,
    every=1,
    weights=None,
    pos_label=None,
    classes=None,
    multi_class="ovr",
    convention="streamtk",
):
    """numpy layer of :func:`auc_curves`: the AUC statistics on ``(L, n)`` inputs.

    ``y_true`` ``(n,)``; ``y_score`` ``(L, n)`` (binary) or ``(L, n, k)`` with ``classes=``
    (multi-class; under ``convention="moa"`` an ``(L, n, 2)`` array is MOA's class votes,
    normalised as ``v1 / (v0 + v1)`` with ``0/0 -> 0``).

    Returns ``(specs, positions, stats, mode)``: the estimator specs, the 0-based
    checkpoint positions and a dict of arrays with dims ``(L, E, T[, class[, class]])``.
    """
    check_choice(convention, "convention", CONVENTIONS)
    check_choice(multi_class, "multi_class", ("ovr", "ovo"))
    every = check_positive_int(every, "every")
    specs = build_estimators(windows, fading, prequential=prequential)
    yt = np.asarray(y_true) if not isinstance(y_true, np.ma.MaskedArray) else y_true
    if yt.ndim != 1:
        raise ValueError(f"y_true must be one-dimensional (n,), got shape {yt.shape}")
    n = yt.shape[0]
    if n == 0:
        raise ValueError("y_true is empty: there is nothing to evaluate")
    s = np.asarray(y_score)
    if convention == "moa":
        if any(sp.kind == "fading" for sp in specs):
            raise ValueError("convention='moa' has no faded AUC (MOA's evaluator is windowed); drop fading=")
        if classes is not None:
            raise ValueError(
                f"convention='moa' is binary only (MOA's AUC evaluator refuses other problems); got classes={classes!r}"
            )
        if s.ndim >= 2 and s.shape[-1] == 2 and s.shape[-2] == n:
            s = _moa_votes(as_float_array(s, "y_score"))
    multi = classes is not None
    if multi:
        if s.ndim < 2 or s.shape[-2] != n:
            raise ValueError(f"y_score must have shape (..., n, k) = (..., {n}, k) with classes=, got {s.shape}")
        enc, (y,) = encode_labels(yt, classes=classes, names=("y_true",))
        if s.shape[-1] != enc.n_classes:
            raise ValueError(f"y_score has {s.shape[-1]} class columns but classes has {enc.n_classes}")
        s3 = s.reshape(-1, n, s.shape[-1])
        ranks, R = rank_compress(np.moveaxis(s3, -1, 1))  # (L, k, n)
        ranks = np.ascontiguousarray(np.moveaxis(ranks, 1, -1))  # (L, n, k)
        L = s3.shape[0]
    else:
        if s.shape[-1] != n:
            raise ValueError(f"y_score has {s.shape[-1]} instances along its last axis but y_true has {n}")
        y = binary_targets(yt, pos_label=pos_label)
        ranks, R = rank_compress(s.reshape(-1, n))
        L = ranks.shape[0]
    w = check_weights(weights, (L,), n, against="y_score", what="score")
    w = np.ones((1, n)) if w is None else w
    kinds = np.array([sp.code for sp in specs], dtype=np.int64)
    params = np.array([sp.param if sp.param is not None else 0.0 for sp in specs], dtype=np.float64)
    positions = checkpoints(n, every)
    E, T = len(specs), positions.size
    y2 = np.ascontiguousarray(y.reshape(1, n), dtype=np.int64)
    unit = convention == "moa"
    if not multi:
        out = _binary_run(ranks, R, y2, w, kinds, params, unit, positions)
        stats = finalise_binary(*np.moveaxis(out, -1, 0), convention=convention)
        return specs, positions, stats, "binary"
    k = enc.n_classes
    cols = np.arange(k)
    if multi_class == "ovr":
        grp = (cols[:, None] == cols[None, :]).astype(np.int64)
        pos_group, G = np.ones(k, dtype=np.int64), 2
    else:
        grp = np.ascontiguousarray(np.broadcast_to(cols[None, :], (k, k)), dtype=np.int64)
        pos_group, G = cols.astype(np.int64), k
    state = K.new_state(L, E, k, G, R, kinds, params)
    oU, oW, oN = (np.zeros((L, E, T, k, G)) for _ in range(3))
    K.auc_run(ranks, y2, w, kinds, params, grp, pos_group, unit, 0, n, positions, 0, *state, oU, oW, oN)
    stats = finalise_multiclass(oU, oW, oN, multi_class=multi_class)
    stats["classes"] = enc.classes
    return specs, positions, stats, "multi"


# ---------------------------------------------------------------------- labelled layer
_REF = "AMIDST deliverable (seed 001) sec. 2.1.2-2.2"
_VAR_ATTRS = {
    "auc": ("AUC = concordance probability P(Q1 > Q0)", "U1 / (W0 W1); NaN with one class only", "eqs. 2.5, 2.9, 2.12"),
    "u1": ("Mann-Whitney U1 (weighted)", "sum_{i pos, j neg} v_i v_j H(q_i - q_j), H(0) = 1/2", "eq. 2.6"),
    "u0": ("Mann-Whitney U0 (weighted)", "W0 W1 - U1", "eq. 2.6"),
    "mw_z": ("Mann-Whitney z statistic", "(U0 - W0 W1 / 2) / sqrt(W0 W1 (W0 + W1 + 1) / 12)", "eqs. 2.7-2.8"),
    "w_neg": ("weight of negatives (n0 with unit weights)", "sum_{j neg} v_j", "eq. 2.12"),
    "w_pos": ("weight of positives (n1 with unit weights)", "sum_{i pos} v_i", "eq. 2.12"),
    "n_neg": ("number of negatives held", "count", "eq. 2.12"),
    "n_pos": ("number of positives held", "count", "eq. 2.12"),
    "auc_macro": ("macro-averaged one-vs-rest AUC", "mean over classes with a defined AUC", "eq. 2.9"),
    "auc_ovo": ("pairwise AUC A(i|j) on the class-i score", "U_ij / (W_i W_j)", "Hand & Till 2001"),
    "auc_hand_till": (
        "Hand & Till M",
        "2 / (k (k - 1)) sum_{i<j} (A(i|j) + A(j|i)) / 2 over defined pairs",
        "Hand & Till 2001, eq. 7",
    ),
}


def _split_scores(y_score, lead_dims, multi):
    import xarray as xr

    from .._labelled import split_leading

    if not multi:
        arr, lead, tco = split_leading(y_score, "y_score", lead_dims=lead_dims)
        return arr, lead, tco
    if isinstance(y_score, xr.DataArray):
        first = y_score.isel({y_score.dims[-1]: 0}, drop=True)
        values = y_score.values
    else:
        values = np.asarray(y_score)
        if values.ndim < 2:
            raise ValueError(f"y_score must have shape (..., n, k) with classes=, got {values.shape}")
        first = values[..., 0]
    _, lead, tco = split_leading(first, "y_score", lead_dims=lead_dims)
    return values.reshape((lead.size,) + values.shape[-2:]), lead, tco


def auc_curves(
    y_true,
    y_score,
    *,
    windows=(),
    fading=(),
    prequential=True,
    every=1,
    weights=None,
    pos_label=None,
    classes=None,
    multi_class="ovr",
    convention="streamtk",
    lead_dims=None,
):
    """Exact prequential / windowed / faded AUC and Mann-Whitney statistics over a stream.

    Parameters
    ----------
    y_true : array-like ``(n,)`` of labels; missing labels (None, NaN, masked) are skipped.
    y_score : ``(..., n)`` positive-class scores, or ``(..., n, k)`` class scores with
        ``classes=`` naming the columns. Leading dims (models, folds) are kept.
    windows, fading, prequential : the estimators (:func:`streamtk._core.mechanisms.build_estimators`).
    every : int, a checkpoint every ``every`` instances, plus the last instance.
    weights : ``(n,)`` or ``(..., n)`` non-negative instance weights; 0 = not evaluated.
    pos_label : the positive label for binary scores (see :func:`binary_targets`).
    multi_class : ``"ovr"`` (one-vs-rest per class + macro average) or ``"ovo"``
        (additionally the pairwise AUCs and Hand & Till's M; memory ``k * k`` trees).
    convention : ``"streamtk"`` or ``"moa"``: MOA's ``WindowAUCImbalancedPerformanceEvaluator``
        -- AUC 1.0 when the window holds one class (or nothing), every evaluated instance
        counts with weight 1, ``(..., n, 2)`` scores are class votes normalised to
        ``v1 / (v0 + v1)`` (``0/0 -> 0``); binary only, no fading. MOA's tie rule (half
        a pair for a positive and a negative with equal scores) is the default here too.

    Returns
    -------
    xarray.Dataset with ``auc``, ``u1``, ``u0``, ``mw_z``, ``w_neg``, ``w_pos``, ``n_neg``,
    ``n_pos`` on dims ``(*lead, estimator, time[, class])``; multi-class adds ``auc_macro``
    and with ``"ovo"`` ``auc_ovo`` ``(..., class, class_other)`` and ``auc_hand_till``.

    Notes
    -----
    The formulas are in the module docstring (seed 001, eqs. 2.5-2.12). ``mw_z`` is the
    paper's z; with non-unit or faded weights it is the same expression evaluated on the
    weight totals (a descriptive statistic, not a calibrated test). Each instance costs
    ``O(log n)`` per estimator (``O(k log n)`` multi-class); a fading factor renormalises
    its state in ``O(n)`` every ``~230 / -ln(alpha)`` instances.

    See Also
    --------
    moa.evaluation.WindowAUCImbalancedPerformanceEvaluator : windowed AUC (``convention="moa"``).
    river.metrics.ROCAUC : approximate prequential AUC (10 thresholds by default).
    river.metrics.RollingROCAUC : windowed AUC; equal to ``windows=w`` here when the scores
        are distinct, different when scores tie (we count a tied pair one half).
    sklearn.metrics.roc_auc_score : the same AUC over one whole sample (ties one half).

    Examples
    --------
    >>> import numpy as np
    >>> ds = auc_curves([0, 1, 0, 1], [0.1, 0.8, 0.4, 0.3], windows=2)
    >>> float(ds.auc.sel(estimator="prequential").isel(time=-1))
    0.75
    """
    import xarray as xr

    from .._labelled import base_attrs, time_coords

    multi = classes is not None
    n = np.shape(y_true)[0] if np.ndim(y_true) else 0
    if convention == "moa" and not multi and np.ndim(y_score) >= 2 and np.shape(y_score)[-2:] == (n, 2):
        if isinstance(y_score, xr.DataArray):
            last = y_score.dims[-1]
            v0, v1 = (y_score.isel({last: i}, drop=True) for i in (0, 1))
            y_score = xr.where(np.isnan(v1 / (v0 + v1)), 0.0, v1 / (v0 + v1))
        else:
            y_score = _moa_votes(as_float_array(y_score, "y_score"))
    arr, lead, tco = _split_scores(y_score, lead_dims, multi)
    w = weights.values if isinstance(weights, xr.DataArray) else weights
    specs, pos, stats, mode = auc_statistics(
        y_true,
        arr,
        windows=windows,
        fading=fading,
        prequential=prequential,
        every=every,
        weights=w,
        pos_label=pos_label,
        classes=classes,
        multi_class=multi_class,
        convention=convention,
    )
    dims = lead.names + ("estimator", "time")
    coords = dict(lead.coords)
    coords.update(estimator_coords(specs))
    coords.update(
        time_coords(pos + 1, {k: ("time", np.asarray(v.values)[pos]) for k, v in tco.items() if k != "instance"})
    )
    if mode == "multi":
        cls = stats.pop("classes")
        coords["class"] = ("class", cls)
        if multi_class == "ovo":
            coords["class_other"] = ("class_other", cls)
    data = {}
    for name, val in stats.items():
        extra = val.ndim - 3
        vd = dims + (("class", "class_other")[:extra])
        long_name, formula, ref = _VAR_ATTRS[name]
        units = "count" if name.startswith("n_") else ("1" if name.startswith("auc") else "")
        attrs = {"long_name": long_name, "formula": formula, "reference": f"{_REF} {ref}"}
        if units:
            attrs["units"] = units
        data[name] = (vd, lead.reshape(val), attrs)
    attrs = base_attrs(
        "streaming AUC (Mann-Whitney U)",
        windows=[s.param for s in specs if s.kind == "window"],
        fading=[s.param for s in specs if s.kind == "fading"],
        prequential=prequential,
        every=every,
        convention=convention,
        multi_class=multi_class if multi else "binary",
        pos_label=pos_label,
        weighted=weights is not None,
    )
    return xr.Dataset(data, coords=coords, attrs=attrs)


def _curve(score, pos, v):
    order = np.argsort(-score, kind="stable")
    s, p, v = score[order], pos[order], v[order]
    tp, fp = np.cumsum(v * p), np.cumsum(v * ~p)
    last = np.r_[np.flatnonzero(np.diff(s) != 0), s.size - 1] if s.size else np.zeros(0, np.int64)
    tp = np.r_[0.0, tp[last]]
    fp = np.r_[0.0, fp[last]]
    thr = np.r_[np.inf, s[last]]
    with np.errstate(invalid="ignore", divide="ignore"):
        tpr = tp / tp[-1] if tp[-1] > 0 else np.full(tp.shape, np.nan)
        fpr = fp / fp[-1] if fp[-1] > 0 else np.full(fp.shape, np.nan)
        prec = np.where(tp + fp > 0, tp / (tp + fp), np.nan)
    return np.stack([fpr, tpr, prec, thr])


def roc_pr_curves(
    y_true, y_score, *, at, windows=(), fading=(), prequential=True, weights=None, pos_label=None, lead_dims=None
):
    """ROC and precision-recall curves of the instances each estimator holds at chosen checkpoints.

    Binary scores only (for a class of a multi-class problem pass its score column and
    ``pos_label=``). At instance ``t`` (1-based, as the ``instance`` coordinate of
    :func:`auc_curves`) an estimator holds every evaluated instance so far
    (prequential), the last ``w`` (window) or all with weights ``alpha**(t - s)``
    (fading), times the instance weights. Thresholds run over the distinct scores in
    decreasing order (``h_T(x) = 1`` iff ``q(x) >= T``, seed 001 eq. 2.4), after a first
    point at ``T = +inf`` (fpr = tpr = recall = 0, precision NaN). Curves are padded with
    NaN to a common length along ``point``.

    Returns
    -------
    xarray.Dataset with ``tpr`` and ``precision`` and the coordinates ``fpr``, ``recall``,
    ``threshold`` on ``(*lead, estimator, checkpoint, point)``, ``instance`` on
    ``checkpoint``. Plot with ``ds.tpr.isel(checkpoint=-1).plot.line(x="fpr", hue="estimator")``
    or ``ds.precision.isel(...).plot.line(x="recall")``. The trapezoidal area under the ROC
    curve equals ``auc_curves(...).auc`` at that instance.

    See Also
    --------
    sklearn.metrics.roc_curve, sklearn.metrics.precision_recall_curve
    """
    import xarray as xr

    from .._labelled import base_attrs

    specs = build_estimators(windows, fading, prequential=prequential)
    arr, lead, _ = _split_scores(y_score, lead_dims, False)
    y = binary_targets(y_true, pos_label=pos_label)
    n = y.shape[0]
    if arr.shape[-1] != n:
        raise ValueError(f"y_score has {arr.shape[-1]} instances along its last axis but y_true has {n}")
    rank_compress(arr)  # validates (NaN refused)
    at = np.atleast_1d(np.asarray(at))
    if at.ndim != 1 or at.size == 0 or not np.issubdtype(at.dtype, np.integer) or at.min() < 1 or at.max() > n:
        raise ValueError(f"at must be instance numbers in [1, {n}], got {at!r}")
    w = check_weights(weights, (arr.shape[0],), n, against="y_score", what="score")
    w = np.ones((arr.shape[0], n)) if w is None else np.broadcast_to(w, (arr.shape[0], n))
    curves = {}
    for l in range(arr.shape[0]):
        ev = (y >= 0) & (w[l] > 0)
        for e, sp in enumerate(specs):
            for c, t in enumerate(at):
                idx = np.flatnonzero(ev[:t])
                v = w[l, idx]
                if sp.kind == "window":
                    idx, v = idx[-sp.param :], v[-sp.param :]
                elif sp.kind == "fading":
                    v = v * sp.param ** np.arange(idx.size - 1, -1, -1, dtype=np.float64)
                curves[l, e, c] = _curve(arr[l, idx], y[idx] == 1, v)
    P = max(cv.shape[1] for cv in curves.values())
    out = np.full((arr.shape[0], len(specs), at.size, 4, P), np.nan)
    for (l, e, c), cv in curves.items():
        out[l, e, c, :, : cv.shape[1]] = cv
    dims = lead.names + ("estimator", "checkpoint", "point")
    coords = dict(lead.coords)
    coords.update(estimator_coords(specs))
    coords["instance"] = ("checkpoint", at.astype(np.int64))
    names = ("fpr", "tpr", "precision", "threshold")
    parts = {nm: lead.reshape(out[..., i, :]) for i, nm in enumerate(names)}
    coords.update(
        {
            "fpr": (dims, parts["fpr"], {"long_name": "false positive rate", "units": "1"}),
            "recall": (dims, parts["tpr"], {"long_name": "recall (true positive rate)", "units": "1"}),
            "threshold": (dims, parts["threshold"], {"long_name": "score threshold T (predict 1 iff q >= T)"}),
        }
    )
    data = {
        "tpr": (
            dims,
            parts["tpr"],
            {"long_name": "true positive rate", "units": "1", "reference": f"{_REF} eq. 2.4 and Fig. 2.1"},
        ),
        "precision": (dims, parts["precision"], {"long_name": "precision", "units": "1"}),
    }
    attrs = base_attrs(
        "ROC and precision-recall curves",
        at=at,
        windows=[s.param for s in specs if s.kind == "window"],
        fading=[s.param for s in specs if s.kind == "fading"],
        prequential=prequential,
        pos_label=pos_label,
        weighted=weights is not None,
    )
    return xr.Dataset(data, coords=coords, attrs=attrs)
