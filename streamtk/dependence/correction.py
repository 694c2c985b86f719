"""Temporal Correction of recorded class scores and Temporally Augmented inputs.

Zliobaite et al. 2015 (seed ``003_d673204241cbf689.txt``), section 3:

* **Temporal Correction** (section 3.1, eq. 3): with the previous label known,
  ``P(y_t=i | X_t, y_{t-1}) = P(y_t=i | y_{t-1}) / P(y_t=i) * P(y_t=i | X_t)`` (up to
  normalisation). :func:`temporal_correction` applies it post hoc to a model's recorded
  class scores, estimating ``P(y_t | y_{t-1})`` and ``P(y_t)`` prequentially from the labels
  before ``t`` (test-then-train), under any forgetting mechanism (exponential smoothing as in
  section 6.3 is ``fading = 1 - alpha``), or with known matrices.
* **Temporally Augmented** inputs (section 3.2, eq. 4): :func:`augment_with_past_labels`
  appends the previous ``l`` labels to a feature matrix, using only labels available
  before ``t``, for users who retrain their own models.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.labels import encode_labels
from .._core.mechanisms import build_estimators, forgetting_parameters
from .._core.validation import as_float_array, check_choice, check_positive_int
from .._labelled import DEFAULT_LEADING_NAMES, base_attrs, time_coords
from .engine import DependenceEngine

__all__ = ["correction_factor_codes", "apply_correction", "temporal_correction", "augment_with_past_labels"]

REFERENCE = "Zliobaite et al. 2015, Machine Learning 98(3) (seed 003_d673204241cbf689.txt)"


# ----------------------------------------------------------------------------- numpy layer
def _check_known(transition, prior, k):
    if (transition is None) != (prior is None):
        raise ValueError("pass both transition and prior (known temporal model) or neither")
    a = as_float_array(transition, "transition")
    p = as_float_array(prior, "prior")
    if a.shape != (k, k):
        raise ValueError(f"transition must have shape ({k}, {k}) for {k} classes, got {a.shape}")
    if p.shape != (k,):
        raise ValueError(f"prior must have shape ({k},) for {k} classes, got {p.shape}")
    if (a < 0).any() or not np.allclose(a.sum(1), 1.0, atol=1e-8):
        raise ValueError(
            f"transition must be a row-stochastic matrix (rows >= 0 summing to 1), got row sums {a.sum(1).tolist()}"
        )
    if (p <= 0).any() or not np.isclose(p.sum(), 1.0, atol=1e-8):
        raise ValueError(f"prior must be positive and sum to 1, got {p.tolist()}")
    return a, p


def correction_factor_codes(codes, k, *, specs=None, transition=None, prior=None, adwin_options=None) -> np.ndarray:
    """Correction factors ``P(y_t=i | y_{t-1}) / P(y_t=i)``, shape ``(n, k)``.

    ``codes`` are int64 label codes (-1 = missing); ``y_{t-1}`` is the last present label before
    ``t``. The probabilities are estimated test-then-train from the labels before ``t`` in the
    memory of one forgetting mechanism (``specs``, one estimator: all past labels by default; a
    fading factor ``a`` weighs a label by ``a**d``, ``d`` the number of present labels after it, which
    is the paper's exponential smoothing with weight ``alpha = 1 - a`` started from the first
    observation), or given as a known temporal model (``transition`` (k, k), rows ``j`` -> columns
    ``i``, and ``prior`` (k,)).

    Initialisation (before the estimates exist): the factor is 1 (no correction) for every class
    while no transition out of ``y_{t-1}`` is in memory -- at ``t = 0``, at the first present label,
    and for a previous class never seen followed by a label -- and 1 for a class that has no label
    in memory (both estimates are 0: no evidence).
    """
    codes = np.ascontiguousarray(codes, dtype=np.int64)
    n = codes.shape[0]
    if transition is not None or prior is not None:
        if specs is not None:
            raise ValueError("pass a forgetting mechanism or a known temporal model (transition, prior), not both")
        a, p = _check_known(transition, prior, k)
        prev = np.asarray(_previous_present(codes))
        out = np.ones((n, k))
        has = prev >= 0
        out[has] = a[prev[has]] / p
        return out
    specs = build_estimators() if specs is None else specs
    if len(specs) != 1:
        raise ValueError(f"the correction takes one memory, got {[s.label for s in specs]}")
    return DependenceEngine(specs, k, 1, adwin_options).update(codes, mode="factors")[0]


def _previous_present(codes):
    n = codes.shape[0]
    idx = np.where(codes >= 0, np.arange(n), -1)
    last = np.maximum.accumulate(idx) if n else idx
    prev = np.full(n, -1, dtype=np.int64)
    if n > 1:
        p = last[:-1]
        prev[1:] = np.where(p >= 0, codes[np.maximum(p, 0)], -1)
    return prev


def apply_correction(scores: np.ndarray, factors: np.ndarray):
    """Corrected scores and predicted codes from scores ``(L, n, k)`` and factors ``(n, k)``.

    ``corrected = factor * score / sum_i(factor_i * score_i)``. Where that sum is 0
    (the correction rules out every class the model gives weight to, or the scores are
    all 0) the corrected scores are NaN (undefined) and the prediction falls back to the
    argmax of the uncorrected scores. Ties go to the lowest class code.
    """
    prod = scores * factors[None]
    total = prod.sum(-1, keepdims=True)
    ok = total > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        corrected = np.where(ok, prod / np.where(ok, total, 1.0), np.nan)
    pred = np.where(ok[..., 0], np.argmax(np.where(ok, corrected, 0.0), -1), np.argmax(scores, -1))
    return corrected, pred.astype(np.int64)


# ----------------------------------------------------------------------------- labelled layer
def _scores_array(scores):
    if isinstance(scores, xr.DataArray):
        if scores.ndim < 2:
            raise ValueError(f"scores must have dims (..., time, class), got {scores.dims}")
        names = scores.dims[:-2]
        coords = {k: v.variable for k, v in scores.coords.items() if set(v.dims) <= set(names)}
        return as_float_array(scores.values, "scores", ndim_min=2), tuple(names), coords
    arr = as_float_array(scores, "scores", ndim_min=2)
    nlead = arr.ndim - 2
    names = DEFAULT_LEADING_NAMES[:nlead] if nlead <= 3 else tuple(f"dim_{i}" for i in range(nlead))
    return arr, tuple(names), {}


def temporal_correction(
    scores, y_true, *, transition=None, prior=None, classes=None, adwin_options=None, **forgetting
) -> xr.Dataset:
    """Temporal Correction (eq. 3) of recorded class scores, applied post hoc.

    ``P(y_t=i | X_t, y_{t-1}) = P(y_t=i | y_{t-1}) / P(y_t=i) * P(y_t=i | X_t) / Z_t``

    with ``P(y_t=i | X_t)`` the model's recorded scores (taken as proportional to its
    posterior; rows are renormalised) and the correction factor estimated
    prequentially from the labels before ``t`` (see :func:`correction_factor_codes` for
    the estimators and their initialisation).

    Parameters
    ----------
    scores : array-like or DataArray, shape ``(..., n, k)``
        Non-negative finite class scores; column ``i`` is class ``classes[i]``.
    y_true : array-like, shape ``(n,)``
        True labels (missing allowed: skipped by the estimators).
    {forgetting}
        One memory at most (default: every past label). The paper's exponential smoothing
        weight ``alpha`` (section 6.3: 0.001 for Electricity, 0.0001 for Covertype, 0.00001 for
        KDD99) is the fading factor ``fading = 1 - alpha``.
    transition, prior : arrays ``(k, k)``, ``(k,)``, optional
        A known temporal model (e.g. a simulation's): no estimation.
    classes : sequence, optional
        Class order of the score columns; default the sorted labels of ``y_true``.

    Returns
    -------
    xarray.Dataset
        ``scores (..., time, class)`` corrected (NaN where undefined, see
        :func:`apply_correction`), ``y_pred (..., time)`` in the original labels, and
        ``factor (time, class)``.

    See Also
    --------
    streamtk.dependence.label_dependence.label_dependence : the transition matrix the correction uses.
    MOA and river have no Temporal Correction wrapper.

    Examples
    --------
    >>> ds = temporal_correction([[0.6, 0.4]] * 4, [0, 1, 1, 1])
    >>> ds["y_pred"].values.tolist()
    [0, 0, 0, 1]
    """
    arr, lead_names, lead_coords = _scores_array(scores)
    yv = y_true.values if isinstance(y_true, xr.DataArray) else y_true
    enc, (codes,) = encode_labels(yv, classes=classes)
    if codes.ndim != 1:
        raise ValueError(f"y_true must be one-dimensional (time), got shape {codes.shape}")
    n, k = arr.shape[-2], arr.shape[-1]
    if n != codes.shape[0]:
        raise ValueError(f"scores has {n} instances along its time axis but y_true has {codes.shape[0]}")
    if k != enc.n_classes:
        raise ValueError(
            f"scores has {k} class columns but there are {enc.n_classes} classes "
            f"{enc.classes.tolist()!r}; pass classes= in the column order"
        )
    if (arr < 0).any():
        raise ValueError("scores must be non-negative")
    given = any(v not in (None, ()) for v in forgetting.values())
    specs = build_estimators(prequential=False, **forgetting) if given else None
    factors = correction_factor_codes(
        codes, k, specs=specs, transition=transition, prior=prior, adwin_options=adwin_options
    )
    flat = arr.reshape((-1, n, k))
    corrected, pred = apply_correction(flat, factors)
    lead_shape = arr.shape[:-2]
    coords = time_coords(np.arange(1, n + 1))
    coords["class"] = ("class", enc.classes)
    coords.update(lead_coords)
    ds = xr.Dataset(
        {
            "scores": (
                lead_names + ("time", "class"),
                corrected.reshape(arr.shape),
                {
                    "long_name": "temporally corrected class scores P(y_t=i | X_t, y_{t-1})",
                    "units": "1",
                    "formula": "P(y_t=i|y_{t-1}) / P(y_t=i) * P(y_t=i|X_t), normalised (eq. 3)",
                    "reference": REFERENCE + ", section 3.1, eq. 3",
                },
            ),
            "y_pred": (
                lead_names + ("time",),
                enc.classes[pred.reshape(lead_shape + (n,))],
                {"long_name": "prediction of the Temporal Correction classifier"},
            ),
            "factor": (
                ("time", "class"),
                factors,
                {"long_name": "correction factor P(y_t=i | y_{t-1}) / P(y_t=i)", "units": "1"},
            ),
        },
        coords=coords,
    )
    est = "known" if transition is not None else (specs[0].label if specs else "prequential")
    ds.attrs = base_attrs("temporal correction", estimator=est, reference=REFERENCE + ", eq. 3")
    return ds


temporal_correction = forgetting_parameters()(temporal_correction)


def augment_with_past_labels(X, y_true, *, order=1, encoding="onehot", classes=None) -> np.ndarray:
    """Temporally Augmented inputs: ``[X_t, y_{t-1}, ..., y_{t-order}]`` (eq. 4).

    ``y_{t-j}`` is the ``j``-th last *present* label before ``t`` (test-then-train: never
    ``y_t`` or later; missing labels are skipped).

    Parameters
    ----------
    X : array-like, shape ``(n, r)``
        Features (NaN allowed and passed through).
    y_true : array-like, shape ``(n,)``
    order : int, default 1
        ``l``, the number of past labels appended.
    encoding : {"onehot", "codes"}
        ``"onehot"``: ``k`` columns per lag (lag 1 first, classes in encoding order),
        all 0 where fewer than ``j`` labels precede ``t``. ``"codes"``: one column per
        lag holding the class code (index into ``classes``), NaN where undefined.
    classes : sequence, optional
        Class order; default the sorted labels of ``y_true``.

    Returns
    -------
    numpy.ndarray, float64, shape ``(n, r + order * k)`` or ``(n, r + order)``

    Examples
    --------
    >>> augment_with_past_labels([[0.5], [0.1], [0.2]], ["a", "b", "a"], encoding="codes").tolist()
    [[0.5, nan], [0.1, 0.0], [0.2, 1.0]]
    """
    order = check_positive_int(order, "order")
    check_choice(encoding, "encoding", ("onehot", "codes"))
    x = as_float_array(X, "X", allow_nan=True, ndim_min=2)
    if x.ndim != 2:
        raise ValueError(f"X must have shape (n, r), got {x.shape}")
    enc, (codes,) = encode_labels(y_true, classes=classes)
    if codes.ndim != 1 or codes.shape[0] != x.shape[0]:
        raise ValueError(f"y_true must have shape ({x.shape[0]},) to match X, got {codes.shape}")
    n, k = x.shape[0], enc.n_classes
    present = codes >= 0
    cc = codes[present]
    before = np.concatenate(([0], np.cumsum(present)))[:-1]
    width = order * k if encoding == "onehot" else order
    lagged = np.zeros((n, width)) if encoding == "onehot" else np.full((n, width), np.nan)
    rows = np.arange(n)
    for j in range(1, order + 1):
        idx = before - j
        ok = idx >= 0
        lab = cc[idx[ok]]
        if encoding == "onehot":
            lagged[rows[ok], (j - 1) * k + lab] = 1.0
        else:
            lagged[rows[ok], j - 1] = lab
    return np.hstack((x, lagged))
