"""Baseline classifiers as models: their predictions, generated from ``y_true`` alone.

Zliobaite et al. 2015 (seed ``003_d673204241cbf689.txt``), section 4.1: the
no-information classifier (eq. 5), the Majority Class classifier (Definition 2, eq. 6),
the Persistent classifier (Definition 3, eq. 7) and the Random classifier (Definition 4,
eq. 9). The predictions can be evaluated, compared and plotted like any model's.

Conventions (shared with the evaluation engine, so that ``kappa_m`` of the Majority Class
classifier and ``kappa_per`` of the Persistent classifier are exactly 0):

* every baseline is test-then-train: the prediction at ``t`` uses only labels before ``t``;
* Majority Class predicts the argmax (lowest class code on ties) of the class counts of
  the labels before ``t`` -- all of them (cumulative memory), the last ``w`` present
  labels (sliding window) or the faded counts ``sum_{s<t} alpha**(t-1-s) [y_s = i]``
  (fading memory; ``t`` and ``s`` count present labels);
* Persistent predicts the last present label before ``t``;
* before any label has been seen (``t = 0``) both predict the first class of the encoding
  (code 0);
* missing labels (code -1) never enter a memory, do not count toward ``w`` and do not
  advance a fading clock.

Outputs are in the original label space (``DataArray`` with dims ``(..., time)``, a
``baseline`` dim when several are requested) with the seed recorded in attrs.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.labels import encode_labels
from .._core.mechanisms import build_estimators, forgetting_parameters
from .._core.validation import as_rng
from .._labelled import base_attrs, split_leading, time_coords
from .engine import DependenceEngine

__all__ = [
    "no_information_codes",
    "majority_codes",
    "persistent_codes",
    "permutation_codes",
    "no_information",
    "majority_class",
    "persistent",
    "random_classifier",
    "baselines",
]

REFERENCE = "Zliobaite et al. 2015, Machine Learning 98(3) (seed 003_d673204241cbf689.txt), section 4.1"


# ----------------------------------------------------------------------------- numpy layer
def no_information_codes(n: int, k: int, rng: np.random.Generator) -> np.ndarray:
    """Uniform random codes in ``0..k-1`` (eq. 5: expected accuracy ``1/k``)."""
    return rng.integers(0, k, size=n, dtype=np.int64)


def majority_codes(codes: np.ndarray, k: int, specs=None) -> np.ndarray:
    """Codes predicted by the test-then-train Majority Class classifier, one row per estimator.

    ``specs``: the memories (:func:`streamtk._core.mechanisms.build_estimators`; default the
    cumulative one). Returns ``(E, n)`` int64. See the module docstring for the conventions.
    """
    specs = build_estimators() if specs is None else specs
    return DependenceEngine(specs, k, 1).update(np.asarray(codes, dtype=np.int64), mode="majority")


def persistent_codes(codes: np.ndarray, out=None) -> np.ndarray:
    """Codes predicted by the Persistent classifier: the last present label before ``t``
    (code 0 before any label). ``out``: an int64 array of ``n`` codes to write them into."""
    codes = np.asarray(codes, dtype=np.int64)
    n = codes.shape[0]
    out = np.empty(n, dtype=np.int64) if out is None else out
    if n == 0:
        return out
    out[0] = 0
    last = np.arange(n, dtype=np.int64)  # the position of the last present label up to each t (-1: none yet)
    last[codes < 0] = -1
    np.maximum.accumulate(last, out=last)
    prev = last[:-1]
    none = prev < 0
    np.maximum(prev, 0, out=prev)
    np.take(codes, prev, out=out[1:])
    out[1:][none] = 0
    return out


def permutation_codes(pred: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Each row of ``pred (L, n)`` randomly permuted along time (the Random classifier)."""
    return np.stack([pred[i, rng.permutation(pred.shape[1])] for i in range(pred.shape[0])])


def _as_labels(pred: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """The labels of the codes ``pred``: in place, a row at a time, when the labels are int64 (else a new array)."""
    if classes.dtype != np.int64:
        return classes[pred]
    if not np.array_equal(classes, np.arange(classes.shape[0])):
        for row in pred:
            row[...] = classes[row]
    return pred


# ----------------------------------------------------------------------------- labelled layer
def _values_1d(y_true):
    if isinstance(y_true, xr.DataArray):
        if y_true.ndim != 1:
            raise ValueError(f"y_true must be one-dimensional (time), got dims {y_true.dims}")
        tdim = y_true.dims[0]
        tcoords = {k: v.variable for k, v in y_true.coords.items() if v.dims == (tdim,)}
        return y_true.values, tcoords
    values = y_true if isinstance(y_true, np.ma.MaskedArray) else np.asarray(y_true)
    if values.ndim != 1:
        raise ValueError(f"y_true must be one-dimensional (time), got shape {values.shape}")
    return values, {}


def _prepare(y_true, classes):
    values, tcoords = _values_1d(y_true)
    enc, (codes,) = encode_labels(values, classes=classes)
    return enc, codes, tcoords


def _coords(n, tcoords):
    coords = time_coords(np.arange(1, n + 1))
    for k, v in tcoords.items():
        if k != "instance":
            coords[k] = ("time", np.asarray(v.values))
    return coords


def _seed_attr(seed):
    return seed if isinstance(seed, (int, np.integer)) else repr(seed)


def _single(enc, codes_pred, tcoords, name, long_name, **params):
    da = xr.DataArray(enc.classes[codes_pred], dims=("time",), coords=_coords(codes_pred.shape[-1], tcoords), name=name)
    da.attrs = base_attrs(long_name, **params) | {"long_name": long_name, "reference": REFERENCE}
    return da


def no_information(y_true, *, seed, classes=None) -> xr.DataArray:
    """Predictions of the no-information classifier: a uniformly random class per instance.

    Expected accuracy ``p_0 = 1/k`` (eq. 5). ``seed`` is an int, SeedSequence or
    ``numpy.random.Generator`` (required: streamtk has no global random state).

    Examples
    --------
    >>> da = no_information(["a", "b", "a", "b"], seed=0)
    >>> da.dims, set(da.values) <= {"a", "b"}
    (('time',), True)
    """
    rng = as_rng(seed)
    enc, codes, tc = _prepare(y_true, classes)
    pred = no_information_codes(codes.shape[0], enc.n_classes, rng)
    return _single(
        enc,
        pred,
        tc,
        "no_information",
        "no-information (uniform random) classifier",
        seed=_seed_attr(seed),
        formula="P(y_hat = i) = 1/k; p_0 = 1/k (eq. 5)",
    )


def majority_class(y_true, *, classes=None, adwin_options=None, **forgetting) -> xr.DataArray:
    """Predictions of the test-then-train Majority Class classifier (Definition 2).

    ``y_hat_t = argmax_i c_i(t)`` where ``c_i(t)`` counts the labels of class ``i`` before ``t``
    in the classifier's memory: all of them (the default), or the memory of the one forgetting
    mechanism given (the last ``w`` present labels, counts faded by ``a**(t-1-s)``, the labels
    since the last tumble or landmark, or an ADWIN window on the Persistent classifier's 0/1 loss).
    Ties go to the lowest class code; at ``t = 0`` the first class is predicted. Its accuracy on a
    stationary stream tends to ``p_maj = P(M)`` (eq. 6). For several memories at once use
    :func:`baselines`.

    Parameters
    ----------
    {forgetting}

    See Also
    --------
    river.dummy.PriorClassifier : river's cumulative majority; it predicts ``None`` before
        any label and breaks ties in favour of the class seen first (streamtk: class 0,
        then the lowest class code).
    MOA ``MajorityClass`` learner: cumulative majority of the training labels.

    Examples
    --------
    >>> majority_class([1, 0, 0, 1, 1, 1]).values.tolist()
    [0, 1, 0, 0, 0, 1]
    """
    specs = (
        build_estimators(prequential=False, **forgetting)
        if any(v not in (None, ()) for v in forgetting.values())
        else build_estimators()
    )
    if len(specs) != 1:
        raise ValueError(
            f"majority_class takes one memory, got {[s.label for s in specs]}; use baselines() for several"
        )
    enc, codes, tc = _prepare(y_true, classes)
    pred = DependenceEngine(specs, enc.n_classes, 1, adwin_options).update(codes, mode="majority")[0]
    return _single(
        enc,
        pred,
        tc,
        "majority",
        "Majority Class classifier (test-then-train)",
        memory=specs[0].label,
        formula="argmax_i of the class counts of the labels before t (ties: lowest class)",
    )


majority_class = forgetting_parameters()(majority_class)


def persistent(y_true, *, classes=None) -> xr.DataArray:
    """Predictions of the Persistent classifier: ``y_hat_t = y_{t-1}`` (Definition 3).

    The previous label is the last *present* label before ``t``; at ``t = 0`` the first
    class is predicted (as MOA's kappa_temp assumes ``y_{-1}`` = class 0). Its accuracy
    is ``p_per = sum_i P(i) P(i | i)`` (eq. 7).

    See Also
    --------
    river.dummy.NoChangeClassifier : the same classifier, predicting ``None`` before any label.
    streamtk.dependence.label_dependence.label_dependence : ``p_t``, its in-sample accuracy over the transitions.

    Examples
    --------
    >>> persistent(["x", "y", "y"]).values.tolist()
    ['x', 'x', 'y']
    """
    enc, codes, tc = _prepare(y_true, classes)
    return _single(
        enc,
        persistent_codes(codes),
        tc,
        "persistent",
        "Persistent classifier",
        formula="y_hat_t = y_{t-1}; class 0 before any label",
    )


def random_classifier(y_pred, *, seed, lead_dims=None) -> xr.DataArray:
    """Predictions of the Random classifier: a random permutation of ``y_pred`` in time.

    Definition 4: it predicts from the distribution of the reference classifier's
    predictions ``P_h``, so its accuracy is ``p_ran = sum_i P(i) P_h(i)`` (eq. 9), the
    chance agreement of Cohen's kappa. ``y_pred`` may have leading dims ``(..., n)``
    (each row is permuted independently); labels are kept as given.

    Examples
    --------
    >>> sorted(random_classifier([0, 0, 1, 2], seed=1).values.tolist())
    [0, 0, 1, 2]
    """
    rng = as_rng(seed)
    arr, lead, tc = split_leading(y_pred, "y_pred", lead_dims=lead_dims, labels=True)
    perm = permutation_codes(arr, rng)
    coords = _coords(arr.shape[1], tc)
    coords.update(lead.coords)
    da = xr.DataArray(lead.reshape(perm), dims=lead.names + ("time",), coords=coords, name="random")
    da.attrs = base_attrs("Random classifier", seed=_seed_attr(seed)) | {
        "long_name": "Random classifier (permuted reference predictions)",
        "reference": REFERENCE,
        "formula": "p_ran = sum_i P(y = i) P_h(y_hat = i) (eq. 9)",
    }
    return da


def baselines(y_true, *, y_pred=None, seed=0, classes=None, adwin_options=None, **forgetting) -> xr.Dataset:
    """Every baseline classifier's predictions as a log: ``y_true`` and ``y_pred`` on ``(model, time)``.

    Models, in order: ``no_information``, ``majority`` (cumulative), ``majority[<estimator>]`` for
    each forgetting mechanism given, ``persistent``, and ``random`` when a one-dimensional reference
    ``y_pred`` is given. One seeded Generator (``seed``) draws the no-information predictions
    first, then the permutation of ``y_pred``. The non-index coordinate ``memory`` holds the
    estimator label of the Majority Class variants ("" elsewhere). The result is a log
    (:mod:`streamtk.io`): ``streamtk.evaluate(baselines(y, windows=100))`` evaluates every
    baseline in one call.

    Parameters
    ----------
    {forgetting}

    Examples
    --------
    >>> log = baselines([0, 1, 1, 1], windows=2, seed=3)
    >>> log["model"].values.tolist()
    ['no_information', 'majority', 'majority[window=2]', 'persistent']
    """
    rng = as_rng(seed)
    values, tc = _values_1d(y_true)
    if y_pred is not None:
        pv = np.asarray(y_pred.values if isinstance(y_pred, xr.DataArray) else y_pred)
        if pv.ndim != 1:
            raise ValueError(
                f"y_pred must be one-dimensional here (use random_classifier for leading dims), got shape {pv.shape}"
            )
        if pv.shape[0] != values.shape[0]:
            raise ValueError(f"y_pred has {pv.shape[0]} instances but y_true has {values.shape[0]}")
        enc, (codes, pcodes) = encode_labels(values, pv, classes=classes)
    else:
        enc, (codes,) = encode_labels(values, classes=classes)
    k, n = enc.n_classes, codes.shape[0]
    specs = build_estimators(**forgetting)
    E = len(specs)
    # every model's codes written into one matrix (no list of rows stacked: the output's size once, not twice)
    pred = np.empty((E + 2 + (y_pred is not None), n), dtype=np.int64)
    pred[0] = no_information_codes(n, k, rng)
    names, memory = ["no_information"], [""]
    DependenceEngine(specs, k, 1, adwin_options).update(codes, mode="majority", out=pred[1 : 1 + E])
    for spec in specs:
        names.append("majority" if spec.kind == "prequential" else f"majority[{spec.label}]")
        memory.append(spec.label)
    persistent_codes(codes, out=pred[1 + E])
    names.append("persistent")
    memory.append("")
    if y_pred is not None:
        pred[2 + E] = permutation_codes(pcodes[None, :], rng)[0]
        names.append("random")
        memory.append("")
    coords = _coords(n, tc)
    coords["model"] = ("model", np.array(names))
    coords["memory"] = ("model", np.array(memory))
    coords["class"] = ("class", enc.classes)
    y_obs = values if not isinstance(values, np.ma.MaskedArray) else values.astype(object).filled(None)
    log = xr.Dataset(
        {
            "y_true": (("time",), np.asarray(y_obs), {"long_name": "true label"}),
            "y_pred": (
                ("model", "time"),
                _as_labels(pred, enc.classes),
                {"long_name": "predictions of the baseline classifiers", "reference": REFERENCE},
            ),
        },
        coords=coords,
    )
    log.attrs = base_attrs("baseline classifiers", seed=_seed_attr(seed), estimators=[s.label for s in specs])
    return log


baselines = forgetting_parameters()(baselines)
