"""Labelled layer of the curve engine: :func:`evaluate`, :class:`Evaluator`, :func:`evaluate_holdout`."""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.labels import encode_labels
from .._core.mechanisms import estimator_coords
from .._labelled import LeadingDims, base_attrs, split_leading, time_coords
from .engine import ADWIN_VARIANTS, EngineCore, check_weights, encode_inputs
from .score_engine import ChunkedAUC, auc_arrays, auc_variables, check_scores

__all__ = ["evaluate", "Evaluator", "evaluate_holdout"]

_SEMANTICS = (
    "streamtk: instances with a missing label or weight 0 are not evaluated and occupy no window slot; "
    "weighted sums are divided by the weight total; Majority Class = argmax of the true-class counts held by "
    "the estimator before t (ties to the lowest class), Persistent = last present label before t; both predict "
    "the first class before any label is seen."
)
_MOA_SEMANTICS = (
    "moa: MOA's Basic/Window/FadingFactor ClassificationPerformanceEvaluator for accuracy, kappa, kappa_m and "
    "kappa_per (sums divided by instance counts; weight-0 instances feed only the baselines; majority includes "
    "the current label; previous label starts at class 0; IEEE inf/NaN; kappas 0 before anything is observed)."
)


def _class_coord(classes: np.ndarray) -> np.ndarray:
    if classes.dtype == object:
        return np.array([str(c) for c in classes.tolist()])
    return classes


def _build_dataset(
    core: EngineCore, lead: LeadingDims, positions, out, outc, *, time_extra=None, title=None, extra_attrs=None
):
    lead_names = lead.names
    coords = {}
    coords.update(estimator_coords(core.specs))
    coords.update(time_coords(positions + 1, time_extra))
    coords.update(lead.coords)
    coords["class"] = ("class", _class_coord(core.encoding.classes))
    data_vars = {}
    for j, m in enumerate(core.scalar):
        data_vars[m.name] = xr.Variable(
            lead_names + ("estimator", "time"),
            lead.reshape(out[:, :, j, :]),  # (*lead, E, C)
            attrs={"long_name": m.long_name, "units": m.units, "formula": m.formula, "reference": m.reference},
        )
    for j, m in enumerate(core.per_class):
        data_vars[m.name] = xr.Variable(
            lead_names + ("estimator", "time", "class"),
            lead.reshape(outc[:, :, j]),  # (*lead, E, C, k)
            attrs={"long_name": m.long_name, "units": m.units, "formula": m.formula, "reference": m.reference},
        )
    attrs = base_attrs(
        title or "streamtk evaluation curves",
        convention=core.convention,
        semantics=_MOA_SEMANTICS if core.convention == "moa" else _SEMANTICS,
        every=core.every,
        windows=[s.param for s in core.specs if s.kind == "window"],
        fading=[s.param for s in core.specs if s.kind == "fading"],
        adwin=[s.param for s in core.specs if s.kind == "adwin"],
        adwin_options=str(core.adwin_options),
        metrics=[m.name for m in core.metrics],
        pos_label=str(core.encoding.classes[core.pos]) if core.k >= 2 else "None",
        n_instances=core.n_seen,
        weighted=int(bool(getattr(core, "_weighted", False))),
        cost="per-instance"
        if (core.cost is not None and core.cost.ndim == 3)
        else (core.cost.tolist() if core.cost is not None else "None"),
    )
    if extra_attrs:
        attrs.update(extra_attrs)
    return xr.Dataset(data_vars, coords=coords, attrs=attrs)


def _prepare(y_true, y_pred, weights, lead_dims):
    yp2, lead, tcoords_pred = split_leading(y_pred, "y_pred", lead_dims=lead_dims)
    tcoords = {}
    if isinstance(y_true, xr.DataArray):
        if y_true.ndim != 1:
            raise ValueError(f"y_true must be one-dimensional (n,), got dims {y_true.dims}")
        tcoords = {k: v.variable for k, v in y_true.coords.items() if v.dims == y_true.dims}
        y_true = y_true.values
    tcoords.update(tcoords_pred)
    if np.ndim(y_true) != 1:
        raise ValueError(f"y_true must be one-dimensional (n,), got shape {np.shape(y_true)}")
    n = np.shape(y_true)[0]
    if yp2.shape[1] != n:
        raise ValueError(f"y_pred has {yp2.shape[1]} instances along its last axis but y_true has {n}")
    if isinstance(weights, xr.DataArray):
        # align a labelled weight array with y_pred's leading dims by name (time last)
        tdim = weights.dims[-1]
        extra = [d for d in weights.dims[:-1] if d not in lead.names]
        if extra:
            raise ValueError(f"weights has dims {extra} that y_pred does not have (y_pred's: {lead.names})")
        w = weights
        for name, size in zip(lead.names, lead.shape):
            if name not in w.dims:
                w = w.expand_dims({name: size})
        weights = w.transpose(*lead.names, tdim).values
    return y_true, yp2, lead, tcoords, n, weights


def evaluate(
    y_true,
    y_pred,
    *,
    y_score=None,
    windows=(),
    fading=(),
    adwin=(),
    every=1,
    metrics=None,
    weights=None,
    classes=None,
    convention="streamtk",
    cost=None,
    pos_label=None,
    lead_dims=None,
    adwin_options=None,
) -> xr.Dataset:
    """Evaluate recorded predictions with every estimator in one pass; return labelled curves.

    Parameters
    ----------
    y_true : array-like, shape ``(n,)``
        True labels, any hashable values. Missing labels (``None``, NaN, masked)
        mark instances without a label: they are skipped (never a class).
    y_pred : array-like or xarray.DataArray, shape ``(..., n)``
        Predicted labels; leading dims (models, folds, runs) are evaluated in
        parallel and kept in the output (numpy leading dims are named
        ``model``, ``fold``, ``run`` unless ``lead_dims`` names them; a
        DataArray keeps its own dims and coordinates, its last dim is time).
    windows : int or sequence of int
        Sliding-window sizes ``w`` (Gama et al. 2013, Algorithm 2): the last ``w``
        evaluated instances.
    fading : float or sequence of float
        Fading factors ``alpha`` in ``(0, 1]`` (Algorithm 3): weights ``alpha**(t-s)``.
    adwin : float or sequence of float
        ADWIN confidences ``delta`` (Bifet et al. 2015 sec. 6): ADWIN runs on the
        model's 0/1 loss of the evaluated instances and every metric is computed
        over the instances inside its current window (``n_instances`` is the ADWIN
        width). Each model/fold has its own ADWIN. Instance weights scale the
        metrics, ADWIN sees the unweighted loss. Chunked evaluation holds the
        window's older members as one sum per ADWIN bucket (O(log W) memory; see
        :mod:`streamtk.evaluation._segments`).
    adwin_options : dict, optional
        ``max_buckets`` (5), ``clock`` (32), ``min_window`` (5), ``variant``
        ("moa" or "theorem3"); see :func:`streamtk.drift.adwin.adwin`.
    every : int
        Write a checkpoint every ``every`` instances (and always at the last).
    metrics : sequence of str, optional
        Names from :data:`streamtk._core.registry.REGISTRY`; default: every applicable one.
    weights : array-like ``(..., n)``, optional
        Non-negative instance weights. Weight 0 = not evaluated (e.g. not in a
        fold's test set): it occupies no window slot.
    classes : sequence, optional
        Class order (code 0 first). Default: sorted labels observed.
    convention : {"streamtk", "moa"}
        ``"moa"`` reproduces MOA's evaluators exactly (see :mod:`streamtk.evaluation.engine`).
    cost : array ``(k, k)`` or ``(n, k, k)``, optional
        Misclassification costs ``cost[true, predicted]`` for the ``risk`` metric
        (AMIDST deliverable eqs. 2.2-2.3); per-instance costs for ``(n, k, k)``.
    pos_label : label, optional
        Positive class of ``f1`` (default: the second class when there are two).
    lead_dims : str or sequence of str, optional
        Names of the leading dims of a numpy ``y_pred``.
    y_score : array-like ``(..., n)`` or ``(..., n, k)``, optional
        Recorded scores: the positive class's score (binary; the positive class is
        ``pos_label``), or one column per class in ``classes`` order. Adds
        ``log_loss`` and ``brier`` (averaged under every estimator in the same pass)
        and the exact AUC family ``auc``, ``auc_u1``, ``auc_u0``, ``auc_z`` (per class
        one-vs-rest, plus ``auc_macro``, for class scores) from the Fenwick-tree
        kernels of :mod:`streamtk.evaluation.scores` over the same estimators and checkpoints
        (a second jitted pass over labels and scores). AUC with one class held is NaN (MOA's 1.0
        under ``convention="moa"``, which has no faded or ADWIN AUC: those are NaN).

    Returns
    -------
    xarray.Dataset
        One variable per metric on dims ``(*lead, "estimator", "time")`` (per-class
        metrics add ``"class"``); coordinates ``estimator`` ("prequential",
        "window=<w>", "fading=<alpha>"), ``estimator_kind``, ``estimator_param``,
        ``instance`` (1-based count of instances seen) on ``time``, ``class``.
        Undefined values are NaN (e.g. kappa when ``p_ran = 1``, recall of a class
        absent from the window).

    See Also
    --------
    Evaluator : the same evaluation chunk by chunk (streams longer than memory).
    evaluate_holdout : holdout evaluation on the same schema.
    moa.evaluation.WindowClassificationPerformanceEvaluator, river.metrics.Accuracy with river.utils.Rolling.

    Examples
    --------
    >>> import numpy as np, streamtk
    >>> y = np.array([0, 1, 1, 0, 1, 1])
    >>> p = np.array([0, 1, 0, 0, 1, 1])
    >>> ds = streamtk.evaluate(y, p, windows=3, metrics=["accuracy"])
    >>> ds.accuracy.sel(estimator="window=3").values.round(3).tolist()
    [1.0, 1.0, 0.667, 0.667, 0.667, 1.0]
    """
    y_true, yp2, lead, tcoords, n, weights = _prepare(y_true, y_pred, weights, lead_dims)
    enc, yt, yp = encode_inputs(y_true, yp2, classes=classes, compact=True)
    mode, s = (None, None)
    if y_score is not None:
        if isinstance(y_score, xr.DataArray):
            y_score = y_score.transpose(
                *[d for d in y_score.dims if d != "class"], *(["class"] if "class" in y_score.dims else [])
            ).values
        mode, s = check_scores(y_score, yp.shape[0], n, enc.n_classes)
    core = EngineCore(
        encoding=enc,
        windows=windows,
        fading=fading,
        adwin=adwin,
        adwin_options=adwin_options,
        every=every,
        metrics=metrics,
        cost=cost,
        convention=convention,
        pos_label=pos_label,
        scores=mode,
    )
    w = check_weights(weights, lead.shape, n)
    core.update(yt, yp, w, s, last=True)
    positions, out, outc = core.collect()
    time_extra = {
        name: ("time", np.asarray(var.values)[positions]) for name, var in tcoords.items() if name not in ("instance",)
    }
    ds = _build_dataset(core, lead, positions, out, outc, time_extra=time_extra)
    if core.auc_metrics:
        arrays = auc_arrays(
            core,
            yt.astype(np.int32),
            yp.astype(np.int32),
            w,
            s,
            mode,
            positions,
            ADWIN_VARIANTS[core.adwin_options["variant"]],
        )
        for m in core.auc_metrics:
            arr = np.swapaxes(lead.reshape(arrays[m.name]), len(lead.shape), len(lead.shape) + 1)
            dims = lead.names + ("estimator", "time") + (("class",) if arr.ndim > len(lead.shape) + 2 else ())
            ds[m.name] = xr.Variable(
                dims,
                arr,
                attrs={"long_name": m.long_name, "units": m.units, "formula": m.formula, "reference": m.reference},
            )
    return ds


class Evaluator:
    """Chunked evaluation with carried state: ``update()`` chunk by chunk, then ``result()``.

    The result equals :func:`evaluate` on the concatenated stream exactly (same
    checkpoints, same numbers), so streams longer than memory can be evaluated.
    ``classes`` must be given (the encoding must not change between chunks).
    Memory: the state plus, for sliding windows, the inputs still inside the
    largest window. With ``scores=`` the exact AUC family is computed chunk by
    chunk too (:class:`streamtk.evaluation.score_engine.ChunkedAUC`); its prequential and
    fading estimators keep every distinct score seen (``O(distinct scores)``).

    Examples
    --------
    >>> import numpy as np, streamtk
    >>> ev = streamtk.Evaluator(classes=[0, 1], windows=2, every=2, metrics=["accuracy"])
    >>> ev.update([0, 1, 1], [0, 1, 0])
    >>> ev.update([1], [1])
    >>> ev.result().accuracy.sel(estimator="window=2").values.tolist()
    [1.0, 0.5]
    """

    def __init__(
        self,
        *,
        classes,
        windows=(),
        fading=(),
        adwin=(),
        every=1,
        metrics=None,
        convention="streamtk",
        cost=None,
        pos_label=None,
        lead_dims=None,
        adwin_options=None,
        scores=None,
    ):
        if classes is None:
            raise ValueError("Evaluator needs classes= (the label encoding must be fixed before the first chunk)")
        classes = list(classes)
        enc, _ = encode_labels(np.array(classes, dtype=object), classes=classes)
        if scores not in (None, "binary", "multi"):
            raise ValueError(f"scores must be None, 'binary' or 'multi', got {scores!r}")
        self._core = EngineCore(
            encoding=enc,
            windows=windows,
            fading=fading,
            adwin=adwin,
            adwin_options=adwin_options,
            every=every,
            metrics=metrics,
            cost=cost,
            convention=convention,
            pos_label=pos_label,
            scores=scores,
        )
        # exact AUC with carried state (Fenwick trees over the distinct scores held; see ChunkedAUC)
        self._auc = (
            ChunkedAUC(self._core, ADWIN_VARIANTS[self._core.adwin_options["variant"]])
            if self._core.auc_metrics
            else None
        )
        self._lead = None
        self._lead_dims = lead_dims
        self._time_extra = {}

    def update(self, y_true, y_pred, weights=None, y_score=None) -> None:
        """Evaluate the next chunk of the stream (``y_score`` when the Evaluator was made with ``scores=``)."""
        y_true, yp2, lead, tcoords, n, weights = _prepare(y_true, y_pred, weights, self._lead_dims)
        if self._lead is None:
            self._lead = lead
        elif (lead.names, lead.shape) != (self._lead.names, self._lead.shape):
            raise ValueError(
                f"y_pred leading dims changed between chunks: {dict(zip(self._lead.names, self._lead.shape))} "
                f"then {dict(zip(lead.names, lead.shape))}"
            )
        y_arr = np.asarray(y_true) if not isinstance(y_true, np.ma.MaskedArray) else y_true
        if y_arr.ndim != 1:
            raise ValueError(f"y_true must be one-dimensional (n,), got shape {y_arr.shape}")
        if n == 0:
            return
        yt = self._core.encoding.encode(y_arr, "y_true", allow_missing=True).astype(np.int32)
        yp = self._core.encoding.encode(yp2, "y_pred", allow_missing=False).astype(np.int32)
        w = check_weights(weights, lead.shape, n)
        s = None
        if self._core.scores is not None:
            if y_score is None:
                raise ValueError("this Evaluator was made with scores=: pass y_score with every chunk")
            mode, s = check_scores(y_score, yp.shape[0], n, self._core.k)
            if mode != self._core.scores:
                raise ValueError(
                    f"y_score holds {mode} scores but the Evaluator was made with scores={self._core.scores!r}"
                )
        self._core.update(yt, yp, w, s)
        if self._auc is not None:
            self._auc.update(yt, yp, w, s)

    @property
    def n_seen(self) -> int:
        """Number of instances processed so far."""
        return self._core.n_seen

    def result(self) -> xr.Dataset:
        """The curves so far (checkpoints plus the latest instance)."""
        if self._lead is None:
            raise ValueError("no instances were evaluated yet: call update() first")
        positions, out, outc = self._core.collect()
        ds = _build_dataset(self._core, self._lead, positions, out, outc)
        if self._auc is not None:
            ds = ds.assign(auc_variables(self._core, self._lead, self._auc.collect()[1]))
        return ds


def evaluate_holdout(
    y_true_holdout,
    y_pred_holdout,
    *,
    instance,
    metrics=None,
    classes=None,
    convention="streamtk",
    cost=None,
    pos_label=None,
    lead_dims=None,
) -> xr.Dataset:
    """Holdout evaluation (Gama et al. 2013 sec. 3.2; MOA's ``EvaluatePeriodicHeldOutTest``).

    At each of ``C`` stream positions the model predicted a holdout set of ``m``
    instances. Every metric is computed over that holdout set (as a prequential
    pass over the set in its order, whose last value is reported; baselines are
    therefore the test-then-train Majority Class / Persistent classifiers over
    the holdout sequence), with estimator ``"holdout"`` on the same ``instance``
    coordinate as :func:`evaluate`, so the two can be merged with
    ``xr.concat([...], "estimator")`` and plotted together.

    Parameters
    ----------
    y_true_holdout : array-like ``(m,)`` (same holdout set each time) or ``(C, m)``
    y_pred_holdout : array-like or DataArray ``(..., C, m)``
    instance : sequence of int, length ``C``
        Stream positions (number of instances seen, 1-based) of the holdout tests.
    """
    inst = np.asarray(instance)
    if inst.ndim != 1 or inst.size == 0 or not np.issubdtype(inst.dtype, np.integer):
        raise ValueError(f"instance must be a non-empty 1-D sequence of integers, got {instance!r}")
    if (inst < 1).any():
        raise ValueError(f"instance values are 1-based counts and must be >= 1, got {inst.tolist()!r}")
    C = inst.size
    if isinstance(y_pred_holdout, xr.DataArray):
        arr = y_pred_holdout.values
        names = y_pred_holdout.dims[:-2]
        lead = LeadingDims(
            names,
            arr.shape[:-2],
            {k: v.variable for k, v in y_pred_holdout.coords.items() if set(v.dims) <= set(names)},
        )
    else:
        arr = np.asarray(y_pred_holdout)
        nlead = arr.ndim - 2
        if nlead < 0:
            raise ValueError(f"y_pred_holdout must have shape (..., C, m), got {arr.shape}")
        if lead_dims is None:
            names = ("model", "fold", "run")[:nlead]
        else:
            names = (lead_dims,) if isinstance(lead_dims, str) else tuple(lead_dims)
        lead = LeadingDims(names, arr.shape[:-2], {})
    if arr.shape[-2] != C:
        raise ValueError(f"y_pred_holdout has {arr.shape[-2]} checkpoints but instance has {C}")
    m = arr.shape[-1]
    yt = np.asarray(y_true_holdout)
    if yt.ndim == 1:
        yt = np.broadcast_to(yt, (C, m))
    if yt.shape != (C, m):
        raise ValueError(f"y_true_holdout must have shape ({m},) or ({C}, {m}), got {np.shape(y_true_holdout)}")
    if m == 0:
        raise ValueError("the holdout set is empty (m = 0)")
    flat = arr.reshape((-1, C, m))
    enc, _ = encode_labels(yt.reshape(-1), flat.reshape(-1), classes=classes)
    outs, outcs, core = [], [], None
    for c in range(C):
        core = EngineCore(encoding=enc, every=m, metrics=metrics, cost=cost, convention=convention, pos_label=pos_label)
        ytc = enc.encode(yt[c], "y_true_holdout", allow_missing=True).astype(np.int32)
        ypc = enc.encode(flat[:, c, :], "y_pred_holdout", allow_missing=False).astype(np.int32)
        core.update(ytc, ypc, None)
        _, out, outc = core.collect()
        outs.append(out[..., -1:])
        outcs.append(outc[..., -1:, :])
    out = np.concatenate(outs, axis=-1)
    outc = np.concatenate(outcs, axis=-2)
    ds = _build_dataset(
        core,
        lead,
        inst.astype(np.int64) - 1,
        out,
        outc,
        title="streamtk holdout evaluation",
        extra_attrs={"holdout_size": m},
    )
    ds = ds.assign_coords(estimator=["holdout"], estimator_kind=("estimator", ["holdout"]))
    ds.attrs["every"] = "holdout"
    ds.attrs["n_instances"] = int(inst.max())
    return ds
