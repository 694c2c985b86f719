"""Multi-label evaluation of recorded label sets: :func:`multilabel_curves`.

A multi-label learner predicts, for every instance, a subset of ``q`` labels. A log holds the true
sets ``y_true (n, q)`` and the predicted ones ``y_pred (..., n, q)`` as 0/1 (or boolean) matrices. The
measures (Tsoumakas, Katakis & Vlahavas 2010; scikit-learn's ``average=`` options) and their sufficient
statistics are in :mod:`streamtk._core.metrics.multilabel`; the kernel in :mod:`streamtk._kernels.multilabel`
(every forgetting mechanism, one pass, exact windows); the numpy layer in
:mod:`streamtk.evaluation.multilabel_engine`.
"""

from __future__ import annotations

import math

import numpy as np
import xarray as xr

from .._core.adwin import check_adwin_options
from .._core.conventions import CONVENTIONS
from .._core.mechanisms import (
    build_estimators,
    estimator_coords,
    forgetting_parameters,
    mechanism_attrs,
    refuse_for_moa,
    resolve_every,
)
from .._core.metrics import REGISTRY, family
from .._core.metrics.multilabel import MOA_METRICS
from .._core.validation import check_choice, check_weights
from .._labelled import DEFAULT_LEADING_NAMES, LeadingDims, base_attrs, check_lead_dims, time_coords
from .multilabel_engine import MultilabelEngine

__all__ = ["multilabel_curves", "label_matrix", "check_zero_division"]

LABEL_DIM = "label"
_SEMANTICS = (
    "streamtk: an instance is evaluated for a model when its true labels and the model's prediction are present "
    "and its weight is > 0; example-based measures are weighted means over the instances held, label-based ones "
    "functions of the summed (micro) or per-label (macro) weighted counts; 0/0 counts zero_division; NaN while "
    "nothing is held."
)
_MOA_SEMANTICS = (
    "moa: MOA's BasicMultiLabelPerformanceEvaluator (EvaluatePrequentialMultiLabel): every instance with a "
    "prediction counted once (weights are not read), sums over instances divided by their number; MOA's "
    "'Precision' is the mean of |Y & P| / |Y| and its 'Recall' the mean of the integer quotient |Y & P| // |P| "
    "(reported as precision_samples and recall_samples); hamming_loss = 1 - MOA's Hamming Score."
)


def _variable_attrs(m, moa):
    """The registry's attrs of metric ``m``; under ``convention="moa"`` its MOA definition where that differs
    (the registry's ``notes``: MOA's swapped precision/recall, its Hamming score, its unweighted means)."""
    attrs = m.attrs()
    if moa and m.family == "multilabel":
        attrs["convention"] = "moa"
        note = m.notes.split("convention='moa': ", 1)
        if len(note) == 2:
            attrs["formula"] = f"{note[1]} (MOA's evaluator, over instances, weights ignored)"
        else:
            attrs["formula"] += " (MOA's evaluator: over instances, weights ignored)"
    return attrs


def check_zero_division(value) -> float:
    """``zero_division``: 0, 1 or NaN (as scikit-learn's)."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"zero_division must be 0, 1 or nan, got {value!r}") from None
    if not (v in (0.0, 1.0) or math.isnan(v)):
        raise ValueError(f"zero_division must be 0, 1 or nan, got {value!r}")
    return v


def _as_values(arr, name):
    """A label matrix as float64 (NaN: missing) or bool, refusing what cannot be a 0/1 value."""
    if isinstance(arr, np.ma.MaskedArray):
        mask = np.ma.getmaskarray(arr)
        arr = np.where(mask, np.nan, np.asarray(arr.data, dtype=object))
    a = np.asarray(arr)
    if a.dtype == bool:
        return a
    if a.dtype == object:
        flat = a.reshape(-1).tolist()
        bad = next((v for v in flat if not (v is None or isinstance(v, (bool, int, float, np.bool_, np.number)))), None)
        if bad is not None:
            raise TypeError(f"{name} must hold 0/1 or booleans (None or NaN rows: missing), got {bad!r}")
        return np.array([np.nan if v is None else float(v) for v in flat], dtype=np.float64).reshape(a.shape)
    if a.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold 0/1 or booleans, got an array of dtype {a.dtype}")
    return a


def label_matrix(values, name: str, labels=None):
    """``(values uint8 (..., n, q), present bool (..., n))`` of a 0/1 label matrix.

    A row that is entirely NaN (or None, or masked) is a missing instance; any other value than 0, 1,
    ``True`` or ``False`` (a 2, a -1, an infinity, a row only partly NaN) is a ``ValueError`` naming ``name``,
    the value and where it is (``labels``: the label names, for the message).
    """
    a = _as_values(values, name)
    if a.ndim < 2:
        raise ValueError(f"{name} must have shape (..., n, q) (instances x labels), got shape {a.shape}")
    if a.shape[-1] == 0:
        raise ValueError(f"{name} has no label (its last axis, the labels, has length 0)")
    if a.dtype == bool:
        return a.astype(np.uint8), np.ones(a.shape[:-1], dtype=bool)
    if a.dtype.kind == "f":
        nan = np.isnan(a)
        missing = nan.all(axis=-1)
        partial = nan.any(axis=-1) & ~missing
        if partial.any():
            idx = tuple(int(i) for i in np.argwhere(partial)[0])
            raise ValueError(
                f"{name} has a row only partly missing at index {idx}: a row of NaN marks a missing instance, "
                "otherwise every label must be 0 or 1"
            )
        ok = nan | (a == 0) | (a == 1)
    else:
        missing = np.zeros(a.shape[:-1], dtype=bool)
        ok = (a == 0) | (a == 1)
    if not ok.all():
        idx = tuple(int(i) for i in np.argwhere(~ok)[0])
        label = idx[-1] if labels is None else labels[idx[-1]]
        raise ValueError(
            f"{name} must hold 0/1 or booleans, got {a[idx].item()!r} at instance {idx[-2]}, label {label!r}"
            + (f" of series {idx[:-2]}" if len(idx) > 2 else "")
        )
    out = np.where(missing[..., None], 0, a).astype(np.uint8) if missing.any() else a.astype(np.uint8)
    return out, ~missing


def _dims_of(da: xr.DataArray, name: str):
    """``(time dim, label dim)`` of a labelled label matrix: ``label`` (else the last), ``time`` (else the one
    before)."""
    if da.ndim < 2:
        raise ValueError(f"{name} must have a time and a label dim, got dims {da.dims}")
    ldim = LABEL_DIM if LABEL_DIM in da.dims else da.dims[-1]
    rest = [d for d in da.dims if d != ldim]
    tdim = "time" if "time" in rest else rest[-1]
    return tdim, ldim


def _labelled(y_true, y_pred, labels, lead_dims):
    """``(y (n, q), p (..., n, q) values, LeadingDims, time coords, label names)`` aligned by their labels."""
    tcoords = {}
    if isinstance(y_pred, xr.DataArray):
        tdim, ldim = _dims_of(y_pred, "y_pred")
        lead_names = tuple(d for d in y_pred.dims if d not in (tdim, ldim))
        y_pred = y_pred.transpose(*lead_names, tdim, ldim)
        coords = {k: v.variable for k, v in y_pred.coords.items() if v.dims and set(v.dims) <= set(lead_names)}
        tcoords = {k: v.variable for k, v in y_pred.coords.items() if v.dims == (tdim,)}
        lead = LeadingDims(lead_names, y_pred.shape[:-2], coords)
        pred_labels = y_pred.indexes.get(ldim)
        pred_time = y_pred.indexes.get(tdim)
        p = y_pred.values
    else:
        p = y_pred if isinstance(y_pred, np.ma.MaskedArray) else np.asarray(y_pred)
        if p.ndim < 2:
            raise ValueError(f"y_pred must have shape (..., n, q) (instances x labels), got shape {p.shape}")
        nlead = p.ndim - 2
        names = DEFAULT_LEADING_NAMES[:nlead] if lead_dims is None else check_lead_dims(lead_dims)
        if len(names) != nlead:
            raise ValueError(f"lead_dims names {names!r} but y_pred has {nlead} leading dimension(s) ({p.shape})")
        lead = LeadingDims(names, p.shape[:-2], {})
        pred_labels = pred_time = None
    if isinstance(y_true, xr.DataArray):
        tdim, ldim = _dims_of(y_true, "y_true")
        if y_true.ndim != 2:
            raise ValueError(f"y_true must have dims (time, label), got {y_true.dims}")
        y_true = y_true.transpose(tdim, ldim)
        true_labels, true_time = y_true.indexes.get(ldim), y_true.indexes.get(tdim)
        if pred_labels is not None and true_labels is not None and not pred_labels.equals(true_labels):
            if set(pred_labels) != set(true_labels) or pred_labels.has_duplicates:
                raise ValueError(
                    f"y_pred's labels {list(pred_labels)[:10]} do not match y_true's {list(true_labels)[:10]}"
                )
            p = np.take(p, pred_labels.get_indexer(true_labels), axis=-1)
        if pred_time is not None and true_time is not None and not pred_time.equals(true_time):
            raise ValueError("y_true's time labels do not match y_pred's (align them, or pass numpy arrays)")
        y = y_true.values
        names = true_labels if true_labels is not None else pred_labels
    else:
        y = y_true
        names = pred_labels
    y_arr = np.asarray(y) if not isinstance(y, np.ma.MaskedArray) else y
    if np.ndim(y_arr) != 2:
        raise ValueError(f"y_true must have shape (n, q) (instances x labels), got shape {np.shape(y_arr)}")
    n, q = np.shape(y_arr)
    if p.shape[-2:] != (n, q):
        raise ValueError(f"y_pred must have shape (..., n, q) = (..., {n}, {q}) like y_true, got {p.shape}")
    if labels is not None:
        labels = list(labels)
        if len(labels) != q or len(set(map(str, labels))) != q:
            raise ValueError(f"labels must name the {q} labels (distinct names), got {labels!r}")
        if names is not None and [str(v) for v in names] != [str(v) for v in labels]:
            raise ValueError(f"labels {labels!r} do not match the label coordinate {list(names)!r} of the inputs")
    else:
        labels = list(names) if names is not None else list(range(q))
    return y_arr, p, lead, tcoords, labels


def _resolve(metrics, moa):
    pool = family("multilabel")
    if moa:
        pool = [m for m in pool if m.name in MOA_METRICS]
    if metrics is None:
        return pool
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    if not names:
        raise ValueError("metrics must name at least one metric, got an empty selection")
    chosen = []
    for nm in names:
        m = REGISTRY.get(nm)
        if m is None or m.family != "multilabel":
            known = ", ".join(x.name for x in family("multilabel"))
            raise ValueError(f"unknown multi-label metric {nm!r}; known: {known}")
        if moa and nm not in MOA_METRICS:
            raise ValueError(
                f"convention='moa' has no {nm!r}: MOA's multi-label evaluator reports {', '.join(MOA_METRICS)}"
            )
        if m not in chosen:
            chosen.append(m)
    return chosen


@forgetting_parameters()
def multilabel_curves(
    y_true,
    y_pred=None,
    *,
    every=None,
    metrics=None,
    weights=None,
    labels=None,
    zero_division=0.0,
    convention="streamtk",
    lead_dims=None,
    adwin_options=None,
    **forgetting,
) -> xr.Dataset:
    """Example-based and label-based multi-label measures under every estimator, in one pass.

    Parameters
    ----------
    y_true : array-like ``(n, q)``, DataArray ``(time, label)``, or a multi-label log Dataset
        The true label sets: 0/1 or booleans, one column per label. A row of NaN (or None, or masked)
        is an instance without labels: it is not evaluated. Any other value is an error. A log
        (:func:`streamtk.io.make_multilabel_log`) gives ``y_pred`` and ``weights`` too.
    y_pred : array-like ``(..., n, q)`` or DataArray ``(..., time, label)``
        The predicted label sets, likewise (a row of NaN: the model made no prediction). Leading dims
        (models, folds, runs) are kept; a DataArray's ``label`` coordinate is matched to ``y_true``'s by
        label, never by position.
    {forgetting}
    every : int, optional
        A checkpoint every ``every`` instances and at the last (default:
        :func:`streamtk._core.mechanisms.default_every`).
    metrics : sequence of str, optional
        Names of the ``multilabel`` family of :data:`streamtk.METRICS` (default: all of them; under
        ``convention="moa"`` those MOA reports). The per-label statistics are kept only when a requested
        metric reads them (``*_macro``, ``label_*``).
    weights : array-like ``(..., n)``, optional
        Non-negative instance weights; 0 = not evaluated.
    labels : sequence, optional
        The label names (the ``label`` coordinate); default: the inputs' ``label`` coordinate, else
        ``0 .. q - 1``.
    zero_division : {0, 1, nan}
        The value of a ``0 / 0``: an instance without predicted label in its precision, without true label
        in its recall, with neither in its Jaccard index and F1; a label never predicted (or never true) in
        its precision (recall); NaN leaves it out of the mean. Default 0, scikit-learn's default
        (``zero_division="warn"``), without the warning.
    convention : {"streamtk", "moa"}
        ``"moa"``: MOA's ``BasicMultiLabelPerformanceEvaluator`` exactly (prequential only; weights are not
        read; see :mod:`streamtk._core.metrics.multilabel` for its swapped precision and recall).
    lead_dims : str or sequence of str, optional
        Names of the leading dims of a numpy ``y_pred``.
    adwin_options : dict, optional
        ADWIN parameters of ``adwin=``; each ADWIN runs on the model's per-instance Hamming loss.

    Returns
    -------
    xarray.Dataset
        One variable per metric on ``(*lead, "estimator", "time")`` (``label_*`` add ``"label"``) and
        ``n_instances``; coordinates ``estimator``, ``instance`` (1-based) on ``time``, ``label``. Every
        measure is NaN while an estimator holds no instance.

    See Also
    --------
    sklearn.metrics.hamming_loss, sklearn.metrics.accuracy_score (subset accuracy),
    sklearn.metrics.jaccard_score, sklearn.metrics.precision_recall_fscore_support,
    sklearn.metrics.multilabel_confusion_matrix : the same measures over one sample (``average=`` "samples",
        "micro", "macro", None).
    river.metrics.multioutput : ``ExactMatch``, ``SampleAverage``, ``MicroAverage``, ``MacroAverage`` (equal to
        these with ``zero_division=0``; river counts an undefined value as 0).
    moa.evaluation.BasicMultiLabelPerformanceEvaluator : ``convention="moa"``.

    Examples
    --------
    >>> import numpy as np, streamtk
    >>> y = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    >>> p = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 1]])
    >>> ds = streamtk.multilabel_curves(y, p, windows=2, metrics=["hamming_loss", "f1_micro"])
    >>> ds.hamming_loss.sel(estimator="window=2").values.round(3).tolist()
    [0.333, 0.167, 0.333]
    """
    if isinstance(y_true, xr.Dataset):  # a multi-label log (streamtk.io.make_multilabel_log)
        log = y_true
        y_true = log["y_true"]
        y_pred = log["y_pred"] if y_pred is None else y_pred
        weights = log["weights"] if (weights is None and "weights" in log) else weights
    if y_pred is None:
        raise TypeError("multilabel_curves needs y_pred (or a log Dataset holding y_true and y_pred)")
    convention = check_choice(convention, "convention", CONVENTIONS)
    moa = convention == "moa"
    zd = check_zero_division(zero_division)
    specs = build_estimators(**forgetting)
    if moa:
        refuse_for_moa(specs, kinds=("prequential",), what="MOA's multi-label evaluator is prequential")
    y_raw, p_raw, lead, tcoords, names = _labelled(y_true, y_pred, labels, lead_dims)
    y, ymask = label_matrix(y_raw, "y_true", names)
    p, pmask = label_matrix(p_raw, "y_pred", names)
    n, q = y.shape
    if n == 0:
        raise ValueError("y_true is empty: there is nothing to evaluate")
    L = lead.size
    p = p.reshape(L, n, q)
    pmask = pmask.reshape(L, n)
    w = check_weights(weights, lead.shape, n)
    chosen = _resolve(metrics, moa)
    per_checkpoint = len(specs) * sum(q if m.shape == "label" else 1 for m in chosen)
    every = resolve_every(every, n, per_checkpoint=per_checkpoint)
    engine = MultilabelEngine(specs, every, q, chosen, zero_division=zd, moa=moa,
                              adwin_options=check_adwin_options(adwin_options))  # fmt: skip
    engine.update(y, ymask, p, pmask, w, last=True)
    positions, values = engine.collect()
    coords = dict(lead.coords)
    coords.update(estimator_coords(specs))
    extra = {k: ("time", np.asarray(v.values)[positions]) for k, v in tcoords.items() if k != "instance"}
    coords.update(time_coords(positions + 1, extra))
    coords[LABEL_DIM] = (LABEL_DIM, np.asarray([str(v) for v in names]) if _mixed(names) else np.asarray(names))
    base = lead.names + ("estimator", "time")
    data = {
        m.name: xr.Variable(base + m.extra_dims, lead.reshape(values[m.name]), _variable_attrs(m, moa))
        for m in chosen + [REGISTRY["n_instances"]]
    }
    attrs = base_attrs(
        "streamtk multi-label curves",
        convention=convention,
        semantics=_MOA_SEMANTICS if moa else _SEMANTICS,
        zero_division=zd,
        every=every,
        estimators=[sp.label for sp in specs],
        **mechanism_attrs(specs),
        adwin_options=str(engine.adwin_options),
        metrics=[m.name for m in chosen],
        n_instances=n,
        n_labels=q,
        weighted=int(w is not None and not moa),
        task="multilabel",
    )
    return xr.Dataset(data, coords=coords, attrs=attrs)


def _mixed(names) -> bool:
    """Whether label names are not all of one plain kind (then they are written as strings)."""
    kinds = {type(v) for v in names}
    return len(kinds) > 1 or not kinds <= {int, str, np.int64, np.str_}
