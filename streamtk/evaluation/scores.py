"""Score-based evaluation: exact streaming AUC (Mann-Whitney U) under every estimator, ROC and PR curves.

AUC as a concordance probability (AMIDST deliverable, seed ``001``, sec. 2.1.2-2.2): over the
instances an estimator holds, with positives ``i``, negatives ``j``, scores ``q`` and instance
weights ``v``,

* ``U1 = sum_{i, j} v_i v_j H(q_i - q_j)`` with ``H(0) = 1/2`` (eq. 2.6, ties counted one half),
* ``U0 = W0 W1 - U1`` where ``W0``, ``W1`` are the weight totals of negatives and positives,
* ``AUC = P(Q1 > Q0) = U1 / (W0 W1)`` (eqs. 2.5, 2.9; prequentially eq. 2.12),
* ``z = (U0 - W0 W1 / 2) / sqrt(W0 W1 (W0 + W1 + 1) / 12)`` (eqs. 2.7-2.8; no tie correction).

Estimators are the forgetting mechanisms of :mod:`streamtk._core.mechanisms`; a fading factor
gives instance ``s`` the weight ``alpha**(t - s)`` (``t``, ``s`` counting evaluated instances), so
a *pair* weighs ``alpha**(t - i) alpha**(t - j)``. Every formula is in the metric registry
(:mod:`streamtk._core.metrics.auc`); the exact sums come from Fenwick trees over rank-compressed
scores (:mod:`streamtk._kernels.auc`), ``O(log n)`` per instance and estimator.
"""

from __future__ import annotations

import numpy as np

from .._core.adwin import check_adwin_options
from .._core.conventions import CONVENTIONS
from .._core.intervals import check_interval
from .._core.intervals.options import band_parameters
from .._core.intervals.select import banded_metrics
from .._core.labels import encode_labels
from .._core.mechanisms import (
    build_estimators,
    estimator_coords,
    forgetting_parameters,
    kernel_arrays,
    mechanism_attrs,
    refuse_for_moa,
    resolve_every,
)
from .._core.metrics import REGISTRY, resolve_metrics
from .._core.metrics.base import BOUND_SIDES
from .._core.validation import as_float_array, check_choice, check_weights
from .auc_bands import AucBands, check_auc_analytic
from .auc_engine import AucEngine
from .score_baseline import with_baseline
from .scoring_rules import binary_targets, brier_score, log_loss, positive_code

__all__ = ["auc_curves", "roc_pr_curves", "rank_compress", "binary_targets", "log_loss", "brier_score"]

_REF = "AMIDST deliverable (seed 001) sec. 2.1.2-2.2"
#: the estimators of MOA's AUC evaluator (WindowAUCImbalancedPerformanceEvaluator)
_MOA_AUC = ("prequential", "window")


def rank_compress(values):
    """Dense 0-based ranks of each row along the last axis (ties share a rank; ``-0.0 == 0.0``).

    Returns ``(ranks, n_ranks)``: int64 ranks of the shape of ``values`` (``±inf`` allowed, NaN
    refused) and the largest number of distinct values in a row. LSD radix sort
    (:func:`streamtk._kernels.auc.ranks.dense_ranks`), the same order as ``numpy.unique``.
    """
    from .._kernels.auc.ranks import dense_ranks

    arr = as_float_array(values, "values", allow_nan=True)
    if np.isnan(arr).any():
        idx = tuple(int(i) for i in np.argwhere(np.isnan(arr))[0])
        raise ValueError(f"scores contain NaN at index {idx}")
    flat = np.ascontiguousarray(arr.reshape(-1, arr.shape[-1]))
    ranks = np.empty(flat.shape, dtype=np.int64)
    n_ranks = 0
    for r in range(flat.shape[0]):
        n_ranks = max(n_ranks, int(dense_ranks(flat[r], ranks[r], np.zeros(0))))
    return ranks.reshape(arr.shape), n_ranks


def _moa_votes(y_score, n):
    """MOA's score from class votes ``(..., n, 2)``: ``v1 / (v0 + v1)``, ``0 / 0 -> 0``."""
    import xarray as xr

    if isinstance(y_score, xr.DataArray):
        last = y_score.dims[-1]
        v0, v1 = (y_score.isel({last: i}, drop=True) for i in (0, 1))
        ratio = v1 / (v0 + v1)
        return xr.where(np.isnan(ratio), 0.0, ratio)
    p = as_float_array(y_score, "y_score")
    with np.errstate(invalid="ignore", divide="ignore"):
        s = p[..., 1] / (p[..., 0] + p[..., 1])
    return np.where(np.isnan(s), 0.0, s)


def _inputs(y_true, y_score, y_pred, weights, lead_dims, classes, multi):
    """Aligned inputs: the scores (or ``y_pred``) fix the leading dims; returns ``(Inputs, scores)``."""
    import xarray as xr

    from .._labelled import labelled_inputs

    if np.ndim(y_true) == 1 and np.shape(y_true)[0] == 0:
        raise ValueError("y_true is empty: there is nothing to evaluate")
    ref = y_pred
    if ref is None:  # the scores' own leading dims and time axis
        if not multi:
            ref = y_score
        elif isinstance(y_score, xr.DataArray):
            if "class" not in y_score.dims:
                raise ValueError(f"y_score must have a 'class' dim with classes=, got dims {y_score.dims}")
            ref = y_score.isel({"class": 0}, drop=True)
        else:
            arr = as_float_array(y_score, "y_score", allow_nan=True)
            n = np.shape(y_true)[0] if np.ndim(y_true) == 1 else None
            if arr.ndim < 2 or (n is not None and arr.shape[-2] != n):
                raise ValueError(f"y_score must have shape (..., n, k) = (..., {n}, k) with classes=, got {arr.shape}")
            ref = arr[..., 0]
    try:
        inputs = labelled_inputs(y_true, ref, y_score=y_score, weights=weights, lead_dims=lead_dims, classes=classes)
    except ValueError as err:  # the scores stand in for y_pred: name them
        if y_pred is not None:
            raise
        raise ValueError(str(err).replace("y_pred", "y_score")) from None
    if multi and inputs.classes is None:
        raise ValueError("class scores need classes= (or a 'class' coordinate on y_score) to name their columns")
    L, n = inputs.y_pred.shape
    s = as_float_array(inputs.y_score, "y_score", allow_nan=True)
    if multi:
        k = len(inputs.classes)
        if s.ndim < 2 or s.shape[-2] != n or s.shape[-1] != k or s.size not in (n * k, L * n * k):
            raise ValueError(f"y_score must have shape (..., n, k) = (..., {n}, {k}) with classes=, got {s.shape}")
        s = np.broadcast_to(s.reshape(-1, n, k), (L, n, k))
    else:
        if s.shape[-1] != n or s.size not in (n, L * n):
            raise ValueError(f"y_score has {s.shape[-1]} instances along its last axis but y_true has {n}")
        s = np.broadcast_to(s.reshape(-1, n), (L, n))
    return inputs, np.ascontiguousarray(s)


def _codes(inputs, multi, pos_label, given_pred):
    """``(encoding, y codes (n,), prediction codes (L, n) or None, positive code, positive label)``.

    Binary scores: the codes of ``y`` alone, or with predictions of both over the union of their labels;
    the engine compares them with the positive code (:func:`binary_targets`' rule).
    """
    preds = (inputs.y_pred,) if given_pred else ()
    if multi:
        enc, codes = encode_labels(inputs.y_true, *preds, classes=inputs.classes)
        return enc, codes[0], (codes[1] if given_pred else None), 0, None
    enc_y, (codes_y,) = encode_labels(inputs.y_true, names=("y_true",))
    code = positive_code(enc_y.classes.tolist(), pos_label)
    label = None if code is None else enc_y.classes.tolist()[code]
    if not given_pred:  # the engine compares the codes with the positive one (-2: no positive label)
        return enc_y, codes_y, None, (-2 if code is None else code), label
    enc, codes = encode_labels(inputs.y_true, *preds)
    return enc, codes[0], codes[1], (-2 if label is None else enc.index[label]), label


@forgetting_parameters()
@band_parameters
def auc_curves(
    y_true,
    y_score,
    *,
    y_pred=None,
    every=None,
    metrics=None,
    weights=None,
    pos_label=None,
    classes=None,
    multi_class="ovr",
    convention="streamtk",
    lead_dims=None,
    adwin_options=None,
    baseline=False,
    interval=None,
    interval_method=None,
    replicates=None,
    block_length=None,
    seed=None,
    **forgetting,
):
    """Exact prequential / windowed / faded / ADWIN / tumbling / landmark AUC, Mann-Whitney and ranking statistics.

    Parameters
    ----------
    y_true : array-like or DataArray ``(n,)``
        Labels, any hashable values; missing labels (None, NaN, masked) are skipped.
    y_score : array-like or DataArray ``(..., n)`` or ``(..., n, k)``
        Positive-class scores, or class scores (a DataArray with a ``class`` dim, or ``classes=``
        naming the columns). Leading dims (models, folds, runs) are kept; a DataArray's labels
        align ``weights`` and ``y_pred`` (never by position). Scores may be ``±inf``; NaN only
        where the instance is not evaluated.
    {forgetting}
    y_pred : array-like or DataArray ``(..., n)``, optional
        Predicted labels: ``adwin=`` needs them (its ADWIN runs on the 0/1 loss of the predictions,
        as in :func:`streamtk.evaluate`); an instance without a prediction is then not evaluated.
    every : int, optional
        A checkpoint every ``every`` instances and at the last one (default:
        :func:`streamtk._core.mechanisms.default_every`, at most ~10^4 checkpoints).
    metrics : sequence of str, optional
        Registry names (default: ``auc``, ``auc_u1``, ``auc_u0``, ``auc_z``; ``auc_macro`` for class
        scores; ``auc_ovo`` and ``auc_hand_till`` with ``multi_class="ovo"``). The imbalanced family is
        computed when named: ``average_precision`` and ``pr_auc`` (scikit-learn's
        ``average_precision_score`` and ``auc(recall, precision)`` of the held weighted instances),
        ``sauc`` (scored AUC) and ``pos_neg_ratio``; the first three sweep the held scores at every
        checkpoint (``O(distinct scores)`` for an accumulator, ``O(w log w)`` for a window of ``w``).
    weights : array-like or DataArray ``(..., n)``, optional
        Non-negative instance weights; 0 = not evaluated.
    pos_label : label, optional
        The positive label of binary scores (default: 1 of labels in {0, 1}, else the larger of two).
    classes : sequence, optional
        Class order of class scores (code 0 first); default: the ``class`` coordinate of ``y_score``.
    multi_class : {"ovr", "ovo"}
        ``"ovr"``: one-vs-rest per class and the macro average; ``"ovo"``: also the pairwise AUCs
        ``A(i|j)`` and Hand & Till's ``M`` (memory ``k * k`` trees per estimator).
    convention : {"streamtk", "moa"}
        ``"moa"``: MOA's ``WindowAUCImbalancedPerformanceEvaluator`` -- AUC 1.0 when the estimator
        holds one class (or nothing), every evaluated instance counts with weight 1, ``(..., n, 2)``
        scores are class votes normalised to ``v1 / (v0 + v1)`` (``0/0 -> 0``); binary scores,
        prequential and windows only. MOA's tie rule (half a pair) is the default here too.
    lead_dims : str or sequence of str, optional
        Names of the leading dims of numpy inputs (default ``model``, ``fold``, ``run``).
    adwin_options : dict, optional
        ADWIN parameters of ``adwin=`` (see :func:`streamtk.evaluate`).
    baseline : bool
        Add the row ``"constant score"`` to a ``model`` dim (created when ``y_score`` has no leading dim):
        a detector that gives every instance the same score (equivalently, predicts the positive class
        always), evaluated in the same pass: AUC 0.5, ``average_precision`` the positive weight fraction
        held, ``pr_auc`` ``(1 + that fraction) / 2``, ``sauc`` 0. A rare-event detector is read against it.
        Its ADWIN (``adwin=``) runs on the 0/1 loss of always predicting the positive class (class code 0
        with class scores); ``weights`` must then be the same for every series.
    {bands}
        The analytic band of ``auc`` is Hanley & McNeil's (1982): unweighted estimators without a fading
        factor only. No confidence sequence applies to an AUC (not a mean of per-instance values).

    Returns
    -------
    xarray.Dataset
        The registry's variables on ``(*lead, "estimator", "time"[, "class"])`` (``auc_ovo`` on
        ``(..., "class", "class_other")``), with ``interval=`` their bands ``<metric>_lower`` /
        ``<metric>_upper``, coordinates ``estimator``, ``instance`` (1-based) on
        ``time`` and ``class``. Undefined values are NaN (an estimator holding one class only).

    Notes
    -----
    With non-unit or faded weights ``auc_z`` is the same expression on the weight totals (a
    descriptive statistic, not a calibrated test). Each instance costs ``O(log n)`` per estimator
    (``O(k log n)`` with class scores).

    See Also
    --------
    streamtk.evaluate : the same AUC beside the confusion metrics (``y_score=``).
    moa.evaluation.WindowAUCImbalancedPerformanceEvaluator : windowed AUC (``convention="moa"``).
    river.metrics.RollingROCAUC : windowed AUC; equal to ``windows=w`` here when the scores are
        distinct, different when scores tie (we count a tied pair one half).
    sklearn.metrics.roc_auc_score : the same AUC over one whole sample (ties one half).

    Examples
    --------
    >>> from streamtk.evaluation.scores import auc_curves
    >>> ds = auc_curves([0, 1, 0, 1], [0.1, 0.8, 0.4, 0.3], windows=2)
    >>> float(ds.auc.sel(estimator="prequential").isel(time=-1))
    0.75
    """
    import xarray as xr

    from .._labelled import band_variables, base_attrs, time_coords

    convention = check_choice(convention, "convention", CONVENTIONS)
    multi_class = check_choice(multi_class, "multi_class", ("ovr", "ovo"))
    specs = build_estimators(**forgetting)
    moa = convention == "moa"
    multi = classes is not None or (isinstance(y_score, xr.DataArray) and "class" in y_score.dims)
    if moa:
        refuse_for_moa(specs, kinds=_MOA_AUC, what="MOA's AUC evaluator")
        if multi:
            raise ValueError("convention='moa' is binary only (MOA's AUC evaluator refuses other problems)")
        n = np.shape(y_true)[-1] if np.ndim(y_true) else 0
        if np.ndim(y_score) >= 2 and np.shape(y_score)[-2:] == (n, 2):
            y_score = _moa_votes(y_score, n)
    inputs, s = _inputs(y_true, y_score, y_pred, weights, lead_dims, classes, multi)
    L, n = inputs.y_pred.shape
    enc, yc, pc, pos, pos_name = _codes(inputs, multi, pos_label, y_pred is not None)
    w = check_weights(inputs.weights, inputs.lead.shape, n, against="y_score", what="score")
    lead = inputs.lead
    if baseline:
        s, pc, w, lead = with_baseline(s, pc, w, lead, 0 if multi else max(pos, 0))
    families = ("auc", "imbalanced", "auc_pairwise") if multi_class == "ovo" and multi else ("auc", "imbalanced")
    chosen = resolve_metrics(metrics, families=families, n_classes=enc.n_classes, scores="multi" if multi else "binary")
    k = enc.n_classes if multi else 1  # values per metric and checkpoint: one per class (k * k pairwise)
    per_checkpoint = len(specs) * sum(k * k if m.shape == "pair" else k for m in chosen)
    spec, banded, skipped, bounds = _auc_bands(interval, interval_method, replicates, block_length, seed, n, chosen)
    if spec is not None and moa:
        raise ValueError("interval= draws streamtk's bands; convention='moa' reproduces MOA, which reports none")
    if spec is not None and spec.method == "analytic":
        keep, dropped = check_auc_analytic(banded, specs, w is not None, explicit=metrics is not None)
        banded, skipped = keep, skipped + dropped
        bounds = [m.bound(side) for m in banded for side in BOUND_SIDES]
    options = dict(
        specs=specs,
        every=resolve_every(every, n, per_checkpoint=per_checkpoint),
        n_classes=enc.n_classes,
        mode="multi" if multi else "binary",
        pairwise=multi_class == "ovo",
        moa=moa,
        pos=pos,
        adwin_options=check_adwin_options(adwin_options),
    )
    engine = AucEngine(metrics=chosen + bounds, z=np.nan if spec is None else spec.z, **options)
    engine.update(yc, s, w, pc, last=True)
    positions, values = engine.collect()
    if spec is not None and spec.resamples:
        blocks = None
        if spec.method == "block_bootstrap" and spec.block_length is None:
            from .bands import error_blocks

            if pc is None:
                raise ValueError(
                    "block_length='auto' chooses the length from the errors: pass y_pred= (or block_length=)"
                )
            blocks = error_blocks(yc, pc, w)
        boot = AucBands(spec, banded, blocks, **options)
        boot.update(yc, s, w, pc, last=True)
        values.update(boot.collect()[1])
    coords = dict(lead.coords)
    coords.update(estimator_coords(specs))
    extra = {k: ("time", np.asarray(v.values)[positions]) for k, v in inputs.time_coords.items() if k != "instance"}
    coords.update(time_coords(positions + 1, extra))
    if multi:
        cls = enc.classes if enc.classes.dtype != object else np.array([str(c) for c in enc.classes.tolist()])
        coords["class"] = ("class", cls)
        if multi_class == "ovo":
            coords["class_other"] = ("class_other", cls)
    data = {}
    for m in chosen:
        arr = values[m.name]
        extra_dims = {0: (), 1: ("class",), 2: ("class", "class_other")}[arr.ndim - 3]
        dims = lead.names + ("estimator", "time") + extra_dims
        data[m.name] = xr.Variable(dims, lead.reshape(arr), REGISTRY[m.name].attrs())
        data.update(band_variables(lead, m, values, spec, dims=dims))
    attrs = base_attrs(
        "streaming AUC (Mann-Whitney U)",
        convention=convention,
        every=engine.every,
        estimators=[sp.label for sp in specs],
        **mechanism_attrs(specs),
        adwin_options=str(engine.adwin_options),
        multi_class=multi_class if multi else "binary",
        pos_label=str(pos_name),
        weighted=int(w is not None),
        metrics=[m.name for m in chosen],
        n_instances=n,
        baseline=int(bool(baseline)),
        **({} if spec is None else {**spec.attrs(), "interval_skipped": skipped or "none"}),
    )
    return xr.Dataset(data, coords=coords, attrs=attrs)


def _auc_bands(interval, method, replicates, block_length, seed, n, chosen):
    """``(spec, banded, skipped, analytic bounds)`` of the band options of :func:`auc_curves`."""
    spec = check_interval(interval, method, replicates, block_length, seed, n=n)
    banded, skipped = banded_metrics(chosen, spec, explicit=False)
    if spec is not None and not banded:
        raise ValueError(
            f"interval_method={spec.method!r} applies to none of {[m.name for m in chosen]}"
            + (
                ": an AUC is not a mean of per-instance values (no confidence sequence)"
                if spec.method == "sequence"
                else ""
            )
        )
    return spec, banded, skipped, []


def _curve(score, pos, v):
    """``(fpr, tpr, precision, threshold)`` over the distinct scores in decreasing order (after ``T = +inf``)."""
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


@forgetting_parameters()
def roc_pr_curves(
    y_true, y_score, *, at, y_pred=None, weights=None, pos_label=None, lead_dims=None, adwin_options=None, **forgetting
):
    """ROC and precision-recall curves of the instances each estimator holds at chosen instances.

    Binary scores only (for a class of a multi-class problem pass its score column and
    ``pos_label=``). At instance ``t`` (1-based, as the ``instance`` coordinate of
    :func:`auc_curves`) an estimator holds exactly the instances its AUC is computed over
    (:mod:`streamtk._kernels.auc.held`), with their weights (times ``alpha**k`` for a fading
    factor). Thresholds run over the distinct scores in decreasing order (``h_T(x) = 1`` iff
    ``q(x) >= T``, seed 001 eq. 2.4), after a first point at ``T = +inf`` (fpr = tpr = recall = 0,
    precision NaN). Curves are padded with NaN to a common length along ``point``.

    Parameters
    ----------
    at : int or sequence of int
        Instance numbers (1-based) in ``[1, n]``.
    {forgetting}
    y_pred, weights, pos_label, lead_dims, adwin_options
        As in :func:`auc_curves`.

    Returns
    -------
    xarray.Dataset with ``tpr`` and ``precision`` and the coordinates ``fpr``, ``recall``,
    ``threshold`` on ``(*lead, estimator, checkpoint, point)``, ``instance`` on ``checkpoint``.
    Plot with ``ds.tpr.isel(checkpoint=-1).plot.line(x="fpr", hue="estimator")``. The trapezoidal
    area under the ROC curve equals ``auc_curves(...).auc`` at that instance.

    See Also
    --------
    sklearn.metrics.roc_curve, sklearn.metrics.precision_recall_curve
    """
    import xarray as xr

    from .._core.adwin import LossAdwins
    from .._kernels.auc.held import held_weights
    from .._labelled import base_attrs

    specs = build_estimators(**forgetting)
    inputs, s = _inputs(y_true, y_score, y_pred, weights, lead_dims, None, False)
    L, n = s.shape
    enc, yc, pc, pos, pos_name = _codes(inputs, False, pos_label, y_pred is not None)
    at = np.atleast_1d(np.asarray(at))
    if at.ndim != 1 or at.size == 0 or not np.issubdtype(at.dtype, np.integer) or at.min() < 1 or at.max() > n:
        raise ValueError(f"at must be instance numbers in [1, {n}], got {at!r}")
    w = check_weights(inputs.weights, inputs.lead.shape, n, against="y_score", what="score")
    member = np.broadcast_to(yc >= 0, (L, n)) & (w > 0 if w is not None else True)
    if pc is not None:
        member = member & (pc >= 0)
    nan = np.isnan(s) & member
    if nan.any():
        l, t = (int(i) for i in np.argwhere(nan)[0])
        raise ValueError(
            f"y_score contains NaN at instance {t} (0-based) of series {l}: an evaluated instance needs a score"
        )
    deltas = np.array([sp.param for sp in specs if sp.kind == "adwin"], dtype=np.float64)
    if deltas.size and pc is None:
        raise ValueError("adwin= needs y_pred: its ADWIN runs on the 0/1 loss of the predictions")
    kinds, sizes, fading, marks, mark_off = kernel_arrays(specs)
    where = np.sort(np.unique(at - 1)).astype(np.int64)
    curves = {}
    for l in range(L):
        widths = np.zeros((max(1, deltas.size), n), dtype=np.int64)
        if deltas.size:
            LossAdwins(1, deltas, check_adwin_options(adwin_options)).limits(member[l], yc != pc[l], 0, widths)
        mem = member[l].astype(np.uint8)
        wl = np.ascontiguousarray(w[l]) if w is not None else np.zeros(0)
        a = 0
        for e, sp in enumerate(specs):
            out = np.zeros((where.size, n))
            lim = widths[a] if sp.kind == "adwin" else np.zeros(0, dtype=np.int64)
            a += sp.kind == "adwin"
            held_weights(
                kinds[e], sizes[e], fading[e], marks[mark_off[e] : mark_off[e + 1]], lim, mem, wl, False, where, out
            )
            for c, t in enumerate(at - 1):
                v = out[np.searchsorted(where, t)]
                idx = np.flatnonzero(v > 0)
                curves[l, e, c] = _curve(s[l, idx], yc[idx] == pos, v[idx])
    P = max(cv.shape[1] for cv in curves.values())
    out = np.full((L, len(specs), at.size, 4, P), np.nan)
    for (l, e, c), cv in curves.items():
        out[l, e, c, :, : cv.shape[1]] = cv
    lead = inputs.lead
    dims = lead.names + ("estimator", "checkpoint", "point")
    coords = dict(lead.coords)
    coords.update(estimator_coords(specs))
    coords["instance"] = ("checkpoint", at.astype(np.int64))
    parts = {nm: lead.reshape(out[..., i, :]) for i, nm in enumerate(("fpr", "tpr", "precision", "threshold"))}
    coords["fpr"] = (dims, parts["fpr"], {"long_name": "false positive rate", "units": "1"})
    coords["recall"] = (dims, parts["tpr"], {"long_name": "recall (true positive rate)", "units": "1"})
    coords["threshold"] = (dims, parts["threshold"], {"long_name": "score threshold T (predict 1 iff q >= T)"})
    data = {
        "tpr": (dims, parts["tpr"], {"long_name": "true positive rate", "units": "1", "reference": f"{_REF}, eq. 2.4"}),
        "precision": (dims, parts["precision"], {"long_name": "precision", "units": "1"}),
    }
    attrs = base_attrs(
        "ROC and precision-recall curves",
        at=at,
        estimators=[sp.label for sp in specs],
        **mechanism_attrs(specs),
        pos_label=str(pos_name),
        weighted=int(w is not None),
    )
    return xr.Dataset(data, coords=coords, attrs=attrs)
