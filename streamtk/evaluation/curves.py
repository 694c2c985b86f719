"""Labelled layer of the curve engine: :func:`evaluate`, :class:`Evaluator`, :func:`evaluate_holdout`."""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.adwin import ADWIN_BOUNDS
from .._core.intervals import check_interval
from .._core.intervals.options import band_parameters
from .._core.labels import encode_labels
from .._core.mechanisms import forgetting_parameters
from .._core.validation import check_positive_int, check_weights
from .._labelled import LeadingDims, labelled_inputs, reorder_like
from .bands import ConfusionBands, error_blocks
from .dataset import build_dataset
from .engine import ConfusionEngine
from .plan import EvaluationPlan
from .score_engine import (
    ChunkedAUC,
    auc_arrays,
    auc_bands,
    check_scores,
    check_scores_evaluated,
    moa_no_votes,
    wants_scores,
)

__all__ = ["evaluate", "Evaluator", "evaluate_holdout"]


def _scores(inputs, L, n, k, metrics):
    """``(mode, scores)`` of ``y_score``, or ``(None, None)`` when no requested metric reads scores."""
    if inputs.y_score is None or not wants_scores(metrics):
        return None, None
    return check_scores(inputs.y_score, L, n, k)


@forgetting_parameters()
@band_parameters
def evaluate(
    y_true,
    y_pred=None,
    *,
    y_score=None,
    every=None,
    metrics=None,
    weights=None,
    classes=None,
    convention="streamtk",
    cost=None,
    pos_label=None,
    lead_dims=None,
    adwin_options=None,
    interval=None,
    interval_method=None,
    replicates=None,
    block_length=None,
    seed=None,
    **forgetting,
) -> xr.Dataset:
    """Evaluate recorded predictions with every estimator in one pass; return labelled curves.

    Parameters
    ----------
    y_true : array-like ``(n,)``, DataArray, or a log Dataset
        True labels, any hashable values. Missing labels (``None``, NaN, masked) mark instances
        without a label: they are skipped (never a class). A log Dataset (``y_true``, ``y_pred``,
        optionally ``y_score``, ``weights``; :mod:`streamtk.io`) may be given instead of the arrays.
    y_pred : array-like or DataArray ``(..., n)``
        Predicted labels; leading dims (models, folds, runs) are evaluated in parallel and kept
        in the output (numpy leading dims are named ``model``, ``fold``, ``run`` unless
        ``lead_dims`` names them; a DataArray keeps its own dims and coordinates; its time dim is
        ``time``, else its last dim). A missing prediction (None / NaN) means the model made
        none: the instance is not evaluated for that model.
    {forgetting}
    every : int, optional
        A checkpoint every ``every`` instances, and always at the last. Default: every instance
        up to 10,000 instances, else the smallest of 1, 2, 5 x 10^j giving at most 10,000
        checkpoints (:func:`streamtk._core.mechanisms.default_every`).
    metrics : sequence of str, optional
        Names from :data:`streamtk.METRICS`; default: every applicable one.
    weights : array-like or DataArray ``(..., n)``, optional
        Non-negative instance weights, at most 1e150 (metrics do not depend on their scale); 0 = not
        evaluated (e.g. not in a fold's test set).
    classes : sequence, optional
        Class order (code 0 first). Default: the inputs' own class order (a ``class``
        coordinate of ``y_score`` or of the log, or a ``classes`` attribute), else sorted labels.
        With neither, labels of ``y_pred`` that barely overlap those of ``y_true`` (``UP``/``DOWN``
        against ``up``/``down``: no common label; or under half of the instances matched, see
        :mod:`streamtk._core.labels`) give a :class:`~streamtk._core.labels.LabelMismatchWarning`
        naming both label sets; passing ``classes=`` declares the labels as meant and skips it.
    convention : {"streamtk", "moa"}
        ``"moa"`` reproduces MOA's evaluators exactly (see :mod:`streamtk.evaluation.plan`).
    cost : array ``(k, k)`` or ``(n, k, k)``, optional
        Misclassification costs ``cost[true, predicted]`` for the ``risk`` metric (AMIDST
        deliverable eqs. 2.2-2.3); per-instance costs for ``(n, k, k)``, ``n`` the length of the
        stream (another length is refused).
    pos_label : label, optional
        Positive class of ``f1`` and of binary scores (default: the second class of two).
    lead_dims : str or sequence of str, optional
        Names of the leading dims of a numpy ``y_pred``.
    y_score : array-like or DataArray ``(..., n)`` or ``(..., n, k)``, optional
        Recorded scores: the positive class's score, or one column per class (a DataArray's
        ``class`` coordinate is matched to ``classes`` by label). Adds ``log_loss``, ``brier``
        and the exact AUC family (``auc``, ``auc_u1``, ``auc_u0``, ``auc_z``; per class and
        ``auc_macro`` for class scores). Read only when a requested metric needs scores
        (``metrics=None`` asks for every applicable one). NaN is allowed only where the instance is
        not evaluated (missing label or prediction, weight 0; e.g. river's first instance); elsewhere
        an error. Under ``convention="moa"`` an instance without a prediction is evaluated (as class
        index 0, as MOA does); if its scores are NaN too (MOA's learner gave no vote, e.g. on its
        first instances), they are read as MOA's evaluators read no vote: ``1/k`` for every class
        in the log loss and Brier score, a positive-class score of 0 in the AUC family
        (:func:`streamtk.evaluation.score_engine.moa_no_votes`).
    adwin_options : dict, optional
        ``max_buckets`` (5), ``clock`` (32), ``min_window`` (5), ``bound`` ("bernstein", MOA's
        rule, or "hoeffding", Theorem 3 of Bifet et al. 2015); see :func:`streamtk.drift.adwin`.
    {bands}

    Returns
    -------
    xarray.Dataset
        One variable per metric on dims ``(*lead, "estimator", "time")`` (per-class metrics add
        ``"class"``), and with ``interval=`` its bands ``<metric>_lower``, ``<metric>_upper``;
        coordinates ``estimator`` ("prequential", "window=<w>", "fading=<a>",
        "adwin=<d>", "tumbling=<w>", "landmarks"), ``estimator_kind``, ``estimator_param``,
        ``instance`` (1-based count of instances seen) on ``time``, ``class``. Undefined values
        are NaN (kappa when ``p_ran = 1``, the recall of a class the window does not hold).

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
    _refuse_label_sets(y_true)
    inputs = labelled_inputs(y_true, y_pred, y_score=y_score, weights=weights, lead_dims=lead_dims, classes=classes)
    n = inputs.n
    if n == 0:
        raise ValueError("y_true is empty: there is nothing to evaluate")
    spec = check_interval(interval, interval_method, replicates, block_length, seed, n=n)
    enc, (yt, yp) = encode_labels(inputs.y_true, inputs.y_pred, classes=inputs.classes, compact=True)
    L = yp.shape[0]
    mode, s = _scores(inputs, L, n, enc.n_classes, metrics)
    options = dict(
        encoding=enc,
        every=every,
        n_instances=n,
        cost=cost,
        convention=convention,
        pos_label=pos_label,
        interval=spec,
        weighted=inputs.weights is not None,
    )
    plan = EvaluationPlan(metrics=metrics, scores=mode, adwin_options=adwin_options, **options, **forgetting)
    if metrics is None and plan.moa and mode == "multi" and plan.auc_metrics:
        # MOA's AUC evaluator is binary only: with class scores the AUC family is not applicable under MOA
        chosen = [m.name for m in plan.metrics if m.family != "auc"]
        plan = EvaluationPlan(metrics=chosen, scores=mode, adwin_options=adwin_options, **options, **forgetting)
    w = check_weights(inputs.weights, inputs.lead.shape, n)
    s_auc = s
    if s is not None:
        if plan.moa:
            s, s_auc = moa_no_votes(s, yp, plan.k)
        check_scores_evaluated(s, yt, yp, w, plan.moa)
    engine = ConfusionEngine(plan)
    q = plan.quantities_for(yt, yp, 0, s) if plan.quantities else None
    engine.update(yt, yp, w, q, last=True)
    positions, values = engine.collect()
    auto = spec is not None and spec.method == "block_bootstrap" and spec.block_length is None
    blocks = error_blocks(yt, yp, w) if auto else None
    bands = ConfusionBands(plan, blocks)
    bands.update(yt, yp, w, q, last=True)
    values.update(bands.bands(positions, values))
    if plan.auc_metrics:
        arrays = auc_arrays(
            plan,
            yt.astype(np.int32),
            yp.astype(np.int32),
            w,
            s_auc,
            mode,
            positions,
            ADWIN_BOUNDS[plan.adwin_options["bound"]],
        )
        for name, arr in arrays.items():
            values[name] = np.swapaxes(arr, 1, 2)
        boot = auc_bands(plan, blocks)
        boot.update(yt.astype(np.int32), s_auc, w, None if plan.moa else yp.astype(np.int32), last=True)
        values.update(boot.collect()[1])
    time_extra = {
        name: ("time", np.asarray(var.values)[positions])
        for name, var in inputs.time_coords.items()
        if name != "instance"
    }
    return build_dataset(plan, inputs.lead, positions, values, n_seen=n, weighted=w is not None, time_extra=time_extra)


def _refuse_label_sets(y_true) -> None:
    """A multi-label log (``y_true`` with a ``label`` dim) is evaluated by :func:`streamtk.multilabel_curves`."""
    y = y_true["y_true"] if isinstance(y_true, xr.Dataset) and "y_true" in y_true else y_true
    if isinstance(y, xr.DataArray) and "label" in y.dims:
        raise ValueError(
            "y_true holds label sets (a 'label' dim): evaluate a multi-label log with streamtk.multilabel_curves"
        )


class Evaluator:
    """Chunked evaluation with carried state: ``update()`` chunk by chunk, then ``result()``.

    The result equals :func:`evaluate` on the concatenated stream exactly (same checkpoints,
    same numbers), so streams longer than memory can be evaluated. ``classes`` must be given
    (the encoding must not change between chunks; as a declared class order, it also means that
    the labels of ``y_true`` and ``y_pred`` are not checked against each other, unlike
    :func:`evaluate` without ``classes=``); ``every`` must be given too, or
    ``n_instances`` (the stream length) for the default spacing. Memory: the state plus, for
    sliding windows, the inputs still inside the largest window (ADWIN windows: one sum per
    ADWIN bucket). With ``scores=`` the exact AUC family is computed chunk by chunk too.
    Evaluators are picklable, and a pickled Evaluator continues identically.

    Per-instance costs ``cost`` of shape ``(n, k, k)``: the stream length is not known up front,
    so with ``n_instances`` their length must equal it; without it, every chunk must lie within
    the cost rows (a chunk that passes their end is refused, naming ``cost``), and a stream that
    stops before the last row is not refused (it cannot be told from one that goes on).

    Bands (``interval=``, see :func:`evaluate`) are computed chunk by chunk too, equal to one pass;
    ``interval_method="block_bootstrap"`` needs ``block_length=`` (an int) here: ``"auto"`` reads the whole
    error stream.

    Examples
    --------
    >>> import numpy as np, streamtk
    >>> ev = streamtk.Evaluator(classes=[0, 1], windows=2, every=2, metrics=["accuracy"])
    >>> ev.update([0, 1, 1], [0, 1, 0])
    >>> ev.update([1], [1])
    >>> ev.result().accuracy.sel(estimator="window=2").values.tolist()
    [1.0, 0.5]
    """

    @forgetting_parameters()
    def __init__(
        self,
        *,
        classes,
        every=None,
        n_instances=None,
        metrics=None,
        convention="streamtk",
        cost=None,
        pos_label=None,
        lead_dims=None,
        adwin_options=None,
        scores=None,
        interval=None,
        interval_method=None,
        replicates=None,
        block_length=None,
        seed=None,
        **forgetting,
    ):
        if classes is None:
            raise ValueError("Evaluator needs classes= (the label encoding must be fixed before the first chunk)")
        spec = check_interval(interval, interval_method, replicates, block_length, seed, n=n_instances)
        if spec is not None and spec.method == "block_bootstrap" and spec.block_length is None:
            raise ValueError(
                "Evaluator: interval_method='block_bootstrap' needs block_length= (an int): 'auto' chooses it from "
                "the whole error stream, which a chunked evaluation does not see in advance"
            )
        classes = list(classes)
        enc, _ = encode_labels(np.array(classes, dtype=object), classes=classes)
        if scores not in (None, "binary", "multi"):
            raise ValueError(f"scores must be None, 'binary' or 'multi', got {scores!r}")
        if n_instances is not None:
            n_instances = check_positive_int(n_instances, "n_instances")
        self.plan = EvaluationPlan(
            encoding=enc,
            every=every,
            n_instances=n_instances,
            metrics=metrics,
            cost=cost,
            convention=convention,
            pos_label=pos_label,
            scores=scores,
            adwin_options=adwin_options,
            interval=spec,
            **forgetting,
        )
        self._engine = ConfusionEngine(self.plan)
        self._bands = ConfusionBands(self.plan)
        self._auc = (
            ChunkedAUC(self.plan, ADWIN_BOUNDS[self.plan.adwin_options["bound"]]) if self.plan.auc_metrics else None
        )
        self._auc_bands = auc_bands(self.plan) if self.plan.auc_metrics else None
        self._lead = None
        self._lead_dims = lead_dims
        self._weighted = None

    def __repr__(self) -> str:
        return f"Evaluator(n_seen={self.n_seen}, estimators={[s.label for s in self.plan.specs]})"

    def update(self, y_true, y_pred=None, weights=None, y_score=None) -> None:
        """Evaluate the next chunk of the stream (``y_score`` when the Evaluator was made with ``scores=``)."""
        plan = self.plan
        inputs = labelled_inputs(
            y_true,
            y_pred,
            y_score=y_score,
            weights=weights,
            lead_dims=self._lead_dims,
            classes=list(plan.encoding.classes),
            score_classes=False,
        )
        lead = inputs.lead
        rows = None
        if self._lead is None:
            self._lead = lead
        else:  # series matched to the first chunk's by their labels (a model order may change)
            rows = reorder_like(self._lead, lead)
        n = inputs.n
        if n == 0:
            return
        yt = plan.encoding.encode(inputs.y_true, "y_true", allow_missing=True, dtype=plan.encoding.compact_dtype)
        yp = plan.encoding.encode(inputs.y_pred, "y_pred", allow_missing=True, dtype=plan.encoding.compact_dtype)
        w = check_weights(inputs.weights, lead.shape, n)
        s = None
        if plan.scores is not None:
            if inputs.y_score is None:
                raise ValueError("this Evaluator was made with scores=: pass y_score with every chunk")
            mode, s = check_scores(inputs.y_score, yp.shape[0], n, plan.k)
            if mode != plan.scores:
                raise ValueError(f"y_score holds {mode} scores but the Evaluator was made with scores={plan.scores!r}")
        if rows is not None:
            yp = yp[rows]
            w = None if w is None else w[rows]
            s = None if s is None else s[rows]
        s_auc = s
        if s is not None:
            if plan.moa:
                s, s_auc = moa_no_votes(s, yp, plan.k)
            check_scores_evaluated(s, yt, yp, w, plan.moa, self._engine.n_seen)
        if plan.scores is None and inputs.y_score is not None:
            raise ValueError(
                "y_score was given but this Evaluator was made without scores=: pass scores='binary' "
                "or 'multi' when creating it"
            )
        q = plan.quantities_for(yt, yp, self._engine.n_seen, s) if plan.quantities else None
        self._engine.update(yt, yp, w, q)
        self._bands.update(yt, yp, w, q)
        self._weighted = w is not None
        if self._auc is not None:
            if w is not None and self.plan.auc_bounds:
                from .auc_bands import COUNTS_NOTE

                raise ValueError(
                    f"interval_method='analytic' does not apply to the AUC of weighted instances: {COUNTS_NOTE}"
                )
            self._auc.update(yt.astype(np.int32), yp.astype(np.int32), w, s_auc)
            self._auc_bands.update(yt.astype(np.int32), s_auc, w, None if plan.moa else yp.astype(np.int32))

    @property
    def n_seen(self) -> int:
        """Number of instances processed so far."""
        return self._engine.n_seen

    def result(self) -> xr.Dataset:
        """The curves so far (checkpoints plus the latest instance)."""
        if self._lead is None:
            raise ValueError("no instances were evaluated yet: call update() first")
        positions, values = self._engine.collect()
        values.update(self._bands.bands(positions, values))
        if self._auc is not None:
            values.update(self._auc.collect()[1])
            values.update(self._auc_bands.collect()[1])
        return build_dataset(self.plan, self._lead, positions, values, n_seen=self.n_seen, weighted=self._weighted)

    def drain(self, *, final: bool = False) -> xr.Dataset:
        """The curves' rows produced since the last drain (then dropped): for streaming them out.

        Every regular checkpoint row, and the latest instance's row when ``final`` (the stream
        ended). Memory stays bounded when a long stream is drained after every chunk.
        """
        if self._lead is None:
            raise ValueError("no instances were evaluated yet: call update() first")
        positions, values = self._engine.drain(final=final)
        if self._bands.active:
            values.update(self._bands.bands(positions, values, rows=self._bands.drain(final=final)))
        if self._auc is not None:
            pos, arrays = self._auc.drain(final=final)
            if not np.array_equal(pos, positions):  # pragma: no cover - one checkpoint rule on both sides
                raise AssertionError("AUC checkpoint rows differ from the engine's")
            values.update(arrays)
            values.update(self._auc_bands.drain(final=final)[1])
        return build_dataset(self.plan, self._lead, positions, values, n_seen=self.n_seen, weighted=self._weighted)


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

    At each of ``C`` stream positions the model predicted a holdout set of ``m`` instances.
    Every metric is computed over that holdout set (as a prequential pass over the set in its
    order, whose last value is reported; baselines are therefore the test-then-train Majority
    Class / Persistent classifiers over the holdout sequence), with estimator ``"holdout"`` on the
    same ``instance`` coordinate as :func:`evaluate`, so the two can be merged with
    ``xr.concat([...], "estimator")`` and plotted together.

    Parameters
    ----------
    y_true_holdout : array-like ``(m,)`` (same holdout set each time) or ``(C, m)``
    y_pred_holdout : array-like or DataArray ``(..., C, m)``
    instance : sequence of int, length ``C``
        Stream positions (number of instances seen, 1-based) of the holdout tests; strictly
        increasing.
    """
    inst = np.asarray(instance)
    if inst.ndim != 1 or inst.size == 0 or not np.issubdtype(inst.dtype, np.integer):
        raise ValueError(f"instance must be a non-empty 1-D sequence of integers, got {instance!r}")
    if (inst < 1).any():
        raise ValueError(f"instance values are 1-based counts and must be >= 1, got {inst.tolist()!r}")
    if (np.diff(inst) <= 0).any():
        raise ValueError(f"instance must be strictly increasing (one holdout test per position), got {inst.tolist()!r}")
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
        from .._labelled import DEFAULT_LEADING_NAMES, check_lead_dims

        names = DEFAULT_LEADING_NAMES[:nlead] if lead_dims is None else check_lead_dims(lead_dims)
        lead = LeadingDims(names, arr.shape[:-2], {})
    if arr.shape[-2] != C:
        raise ValueError(f"y_pred_holdout has {arr.shape[-2]} checkpoints but instance has {C}")
    m = arr.shape[-1]
    yt = np.asarray(y_true_holdout)
    if yt.shape not in ((m,), (C, m)):  # checked before broadcasting: numpy's own error names no argument
        raise ValueError(
            f"y_true_holdout must have shape ({m},) or ({C}, {m}) (y_pred_holdout has shape {arr.shape}), "
            f"got {np.shape(y_true_holdout)}"
        )
    if yt.ndim == 1:
        yt = np.broadcast_to(yt, (C, m))
    if m == 0:
        raise ValueError("the holdout set is empty (m = 0)")
    flat = arr.reshape((-1, C, m))
    enc, _ = encode_labels(
        yt.reshape(-1), flat.reshape(flat.shape[0], -1), classes=classes, names=("y_true_holdout", "y_pred_holdout")
    )
    pieces, plan = [], None
    for c in range(C):
        plan = EvaluationPlan(
            encoding=enc, every=m, metrics=metrics, cost=cost, convention=convention, pos_label=pos_label
        )
        engine = ConfusionEngine(plan)
        ytc = enc.encode(yt[c], "y_true_holdout", allow_missing=True)
        ypc = enc.encode(flat[:, c, :], "y_pred_holdout", allow_missing=True)
        engine.update(ytc, ypc, None, plan.quantities_for(ytc, ypc, 0) if plan.quantities else None, last=True)
        pieces.append(engine.collect()[1])
    values = {name: np.concatenate([pc[name][:, :, -1:] for pc in pieces], axis=2) for name in pieces[0]}
    ds = build_dataset(
        plan,
        lead,
        inst.astype(np.int64) - 1,
        values,
        n_seen=int(inst.max()),
        weighted=False,
        title="streamtk holdout evaluation",
        extra_attrs={"holdout_size": m},
    )
    ds = ds.assign_coords(estimator=["holdout"], estimator_kind=("estimator", ["holdout"]))
    ds.attrs["every"] = "holdout"
    return ds
