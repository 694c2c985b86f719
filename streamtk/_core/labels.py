"""Label encoding: any hashable labels in, integer codes inside, original labels out.

Classes are encoded once per call; their order is either the order given in
``classes=`` or the sorted order of the labels observed in ``y_true`` and the
predictions together. Code ``0`` is the first class of that order; the baseline
classifiers use it as their prediction before any label has been seen (see
:mod:`streamtk.evaluation.engine`).

Missing labels
    In ``y_true`` a missing label (``None``, ``float('nan')``, ``pandas.NA``, a masked
    entry of a ``numpy.ma`` array) means "this instance has no label": it gets the
    code ``MISSING = -1`` and is skipped by every estimator (it is never counted as a
    class). In predictions a missing value means "this model made no prediction here": the
    instance is not evaluated for that model (as with weight 0).

Label types (nothing is cast silently)
    Integer labels keep their exact value: ``int64``, or ``uint64`` for labels above
    ``2**63 - 1`` (a set of labels that needs both a negative value and one above
    ``2**63 - 1``, or an integer beyond 64 bits, is refused). Text and numbers are never
    mixed: numpy would turn ``[1, "1"]`` into ``["1", "1"]`` (one class) and ``[1.0, "a"]``
    into ``["1.0", "a"]`` (so ``1.0`` no longer equals ``1``); such inputs, in one argument or
    across ``y_true`` and the predictions, raise a ``TypeError`` naming the arguments and
    the two types. Python sequences are read through :func:`as_label_array`, which applies
    these rules before numpy sees them. Big-endian arrays are converted to native order.
    Numbers compare by value (``1 == 1.0 == True``), as in numpy and Python.

Labels that do not match (:class:`LabelMismatchWarning`)
    When the class order is inferred from the labels themselves (no ``classes=``), ``y_true`` and
    the predictions are checked for labels spelled or coded differently (``UP``/``DOWN``
    against ``up``/``down``, ``1``/``2`` against ``0``/``1``), which would otherwise be
    evaluated as different classes without a word. For each series of predictions (one row of
    the leading dims), with ``Y`` the labels occurring in ``y_true`` and ``P`` those the series
    predicts, a warning is given when ``P`` holds a label that ``Y`` does not and

    * ``Y`` and ``P`` share no label, or
    * fewer than half of the instances with both a label and a prediction are *matched*: an
      instance is matched when its prediction is in ``Y`` and its true label is in ``P``.

    A model that never predicts some classes of ``y_true`` (a constant or majority predictor)
    is not warned about: all its predictions are labels of ``y_true``. Weights are not looked at,
    and a series with fewer than 30 instances holding both a label and a prediction is not judged
    (too few to tell two codings from a poor model; a chunk of a longer stream is never judged).
    A relabelling that keeps most labels in common (``1 .. 7`` against ``0 .. 6``) cannot be
    told from a poor model by the labels alone and is not detected. A class order that is given
    (``classes=``, or the inputs' own: a ``class`` coordinate or a ``classes`` attribute, as on a
    log whose source declares its classes) declares every label a class: then nothing is checked.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._kernels import encode as _enc
from .label_values import (
    INT64_MAX,
    as_label_array,
    check_unmasked,
    int_dtype,
    is_missing_label,
    label_kind,
    refuse_inexact_floats,
    refuse_mix,
    scan_objects,
)

__all__ = [
    "MISSING",
    "Encoding",
    "LabelMismatchWarning",
    "as_label_array",
    "check_label_overlap",
    "check_unmasked",
    "encode_labels",
    "is_missing_label",
]

MISSING = -1


def _classes_from(given, keys: list, name: str) -> np.ndarray:
    """The class array: numpy's own reading of ``given`` when it is exact, else :func:`_class_array`.

    Keeps the dtype numpy picks (e.g. int8 for int8 input) unless numpy would cast (text from
    mixed types, float64 from integers above 2**53, a 2-D array from tuples).
    """
    exact = _class_array(keys, name)
    if hasattr(given, "dtype") and getattr(given, "ndim", 1) == 1 and given.dtype.kind != "O":
        arr = np.asarray(given)
        if not arr.dtype.isnative:
            arr = arr.astype(arr.dtype.newbyteorder("="))
    else:
        try:
            arr = np.asarray(list(given))
        except (ValueError, OverflowError):
            return exact
    if arr.ndim == 1 and arr.dtype.kind == exact.dtype.kind and arr.dtype.kind != "O":
        return arr
    return exact


def _class_array(keys: list, name: str = "classes") -> np.ndarray:
    """The class array of distinct normalised labels, with exact integer dtypes (never rounded to float)."""
    examples, _, lo, hi = scan_objects(keys, name)
    refuse_mix(examples)
    kinds = set(examples)
    if not keys:
        return np.array([], dtype=np.float64)
    if kinds == {"text"}:
        return np.array(keys, dtype=str)
    if kinds == {"bool"}:
        return np.array(keys, dtype=bool)
    if kinds <= {"bool", "int"}:
        return np.array([int(v) for v in keys], dtype=int_dtype(lo, hi, name))
    if kinds <= {"bool", "int", "float"}:
        refuse_inexact_floats(lo, hi, name)
        return np.array([float(v) for v in keys], dtype=np.float64)
    out = np.empty(len(keys), dtype=object)
    out[:] = keys
    return out


class Encoding:
    """The result of :func:`encode_labels`: ``classes`` (original labels) and code lookup."""

    def __init__(self, classes: np.ndarray):
        self.classes = classes
        self.index = {_key(c): i for i, c in enumerate(classes.tolist())}

    @property
    def n_classes(self) -> int:
        return len(self.classes)

    @property
    def compact_dtype(self) -> np.dtype:
        """The smallest code dtype for these classes: int8 up to 127 classes, else int32 (MISSING is -1)."""
        return np.dtype(np.int8) if self.n_classes <= 127 else np.dtype(np.int32)

    def encode(self, values, name: str, *, allow_missing: bool, dtype=np.int32) -> np.ndarray:
        """Codes of ``values`` (``dtype``: int32, or :attr:`compact_dtype`); unknown labels raise,
        missing -> ``MISSING`` if allowed. Integer labels that already equal their codes
        (classes ``0 .. k-1``) are returned without a copy when ``dtype`` matches their own.
        """
        return _encode_with(self, values, name, allow_missing=allow_missing, dtype=np.dtype(dtype))


def _key(value):
    # numpy scalars hash like Python scalars, but normalise so 1 == 1.0 == np.int8(1)
    if isinstance(value, np.generic):
        value = value.item()
    return value


def _flat_values(values, name):
    """``(data array, mask or None)``: masked arrays split, sequences read exactly, native byte order."""
    if isinstance(values, np.ma.MaskedArray):
        data = np.asarray(as_label_array(values.data, name))
        mask = np.ma.getmaskarray(values)
        return data, mask
    arr = np.asarray(as_label_array(values, name)) if not isinstance(values, (str, bytes)) else np.asarray(values)
    if arr.ndim == 0:
        raise ValueError(f"{name} must be an array of labels, got a scalar {values!r}")
    return arr, None


def _missing_mask(arr: np.ndarray, mask) -> np.ndarray:
    if np.issubdtype(arr.dtype, np.floating):
        miss = np.isnan(arr)
    elif np.issubdtype(arr.dtype, np.integer) or arr.dtype == np.bool_:
        miss = np.zeros(arr.shape, dtype=bool)
    elif arr.dtype.kind in "US":
        miss = np.zeros(arr.shape, dtype=bool)
    else:
        miss = np.frompyfunc(is_missing_label, 1, 1)(arr).astype(bool)
    if mask is not None:
        miss = miss | mask
    return miss


def _encode_with(enc: Encoding, values, name, *, allow_missing, dtype=np.int32):
    codes = _encode_int32_or_identity(enc, values, name, allow_missing=allow_missing, dtype=dtype)
    return codes if codes.dtype == dtype else codes.astype(dtype)


def _is_identity(classes: np.ndarray, lo: int, hi: int) -> bool:
    """True when integer label ``v`` has code ``v`` for every ``v`` in ``[lo, hi]`` (classes ``0 .. k-1``)."""
    if classes.dtype.kind not in "iub" or lo < 0 or hi >= len(classes):
        return False
    return bool((classes[lo : hi + 1].astype(np.int64) == np.arange(lo, hi + 1)).all())


def _encode_int32_or_identity(enc: Encoding, values, name, *, allow_missing, dtype):
    arr, mask = _flat_values(values, name)
    miss = _missing_mask(arr, mask)
    if miss.any() and not allow_missing:
        where = tuple(int(i) for i in np.argwhere(miss)[0])
        raise ValueError(
            f"{name} has a missing value at index {where}; predictions must be given for every instance "
            "(mark instances that should not be evaluated with weights=0)"
        )
    classes = enc.classes
    # fastest path: small-range integer labels, integer classes -> one table lookup
    rng = _small_int_range(arr) if mask is None else None
    if rng is not None and classes.dtype.kind in "iub":
        lo, hi = rng
        if _is_identity(classes, lo, hi):
            # the labels are their own codes: only a dtype change, or nothing (a view) for 8-bit input
            # (read-only input is copied: the kernels are compiled for writeable arrays only)
            flat = np.ascontiguousarray(arr.view(np.uint8) if arr.dtype == np.bool_ else arr)
            if flat.dtype.itemsize == dtype.itemsize and hi <= np.iinfo(dtype).max and flat.flags.writeable:
                return flat.view(dtype)
            return flat.astype(dtype)
        lut = np.full(hi - lo + 1, MISSING, dtype=np.int32)
        cls = classes.astype(np.int64)
        inside = (cls >= lo) & (cls <= hi)
        lut[cls[inside] - lo] = np.flatnonzero(inside).astype(np.int32)
        flat = _as_int_1d(arr)
        codes = np.empty(flat.shape[0], dtype=np.int32)
        bad = _enc.int_map(flat, lut, lo, codes)
        if bad >= 0:
            raise ValueError(
                f"{name} contains the label {flat[bad].item()!r}, which is not one of the classes {classes.tolist()!r}"
            )
        return codes.reshape(arr.shape)
    # fast path: numeric labels with a numeric class array
    if arr.dtype.kind in "biuf" and classes.dtype.kind in "biuf":
        codes = np.full(arr.shape, MISSING, dtype=np.int32)
        present = ~miss
        vals, classes = _exact_pair(arr[present], classes, name)
        order = np.argsort(classes, kind="stable")
        sorted_classes = classes[order]
        pos = np.searchsorted(sorted_classes, vals)
        pos_clipped = np.minimum(pos, len(sorted_classes) - 1)
        ok = sorted_classes[pos_clipped] == vals
        if not ok.all():
            bad = vals[~ok][0].item()
            raise ValueError(f"{name} contains the label {bad!r}, which is not one of the classes {classes.tolist()!r}")
        codes[present] = order[pos_clipped]
        return codes
    if arr.dtype.kind in "US" and classes.dtype.kind in "US":
        codes = np.full(arr.shape, MISSING, dtype=np.int32)
        uniq, inverse = np.unique(arr[~miss], return_inverse=True)
        lut = np.empty(len(uniq), dtype=np.int32)
        for j, u in enumerate(uniq.tolist()):
            code = enc.index.get(_key(u))
            if code is None:
                raise ValueError(
                    f"{name} contains the label {u!r}, which is not one of the classes {classes.tolist()!r}"
                )
            lut[j] = code
        codes[~miss] = lut[inverse.reshape(-1)]
        return codes
    flat = arr.reshape(-1)
    mflat = miss.reshape(-1)
    codes = np.empty(flat.shape, dtype=np.int32)
    for i, (v, m) in enumerate(zip(flat.tolist(), mflat.tolist())):
        if m:
            codes[i] = MISSING
            continue
        code = enc.index.get(_key(v))
        if code is None:
            raise ValueError(f"{name} contains the label {v!r}, which is not one of the classes {classes.tolist()!r}")
        codes[i] = code
    return codes.reshape(arr.shape)


def _exact_pair(vals: np.ndarray, classes: np.ndarray, name: str):
    """Labels and classes in dtypes that compare exactly (numpy compares uint64 with int64 as float64)."""
    kinds = {vals.dtype.kind, classes.dtype.kind}
    if "u" not in kinds or not kinds & {"i", "f", "b"} or vals.size == 0:
        return vals, classes
    if "f" in kinds:
        return vals.astype(object), classes.astype(object)  # rare: compare as Python numbers
    signed, unsigned = (vals, classes) if vals.dtype.kind in "ib" else (classes, vals)
    if signed.size and int(signed.min()) < 0:
        if unsigned is classes:  # a negative label cannot be one of the (unsigned) classes
            bad = int(vals[vals < 0][0])
            raise ValueError(f"{name} contains the label {bad!r}, which is not one of the classes {classes.tolist()!r}")
        return vals.astype(object), classes.astype(object)
    return vals.astype(np.uint64), classes.astype(np.uint64)


def _as_int_1d(arr: np.ndarray) -> np.ndarray:
    if arr.dtype == np.bool_:
        arr = arr.view(np.uint8)
    return np.ascontiguousarray(arr.reshape(-1))


def _small_int_range(arr: np.ndarray):
    """(lo, hi) if ``arr`` is an integer array spanning a small range, else None."""
    if arr.dtype.kind not in "iub" or arr.size == 0:
        return None
    if arr.dtype.kind == "u" and arr.dtype.itemsize == 8 and int(arr.max()) > INT64_MAX:
        return None  # the kernel works in int64: labels above 2**63 - 1 take the exact numpy path
    flat = _as_int_1d(arr)
    lo, hi = int(flat.min()), int(flat.max())  # numpy's SIMD reductions: no kernel to compile on a first call
    if hi - lo > (1 << 20):
        return None
    return int(lo), int(hi)


def _observed(values, name):
    arr, mask = _flat_values(values, name)
    rng = _small_int_range(arr) if mask is None else None
    if rng is not None:
        lo, hi = rng
        if hi - lo <= 1:  # the minimum and the maximum are both present
            return list(range(lo, hi + 1))
        present = np.zeros(hi - lo + 1, dtype=np.bool_)
        _enc.int_presence(_as_int_1d(arr), lo, hi - lo + 1, present)
        return (np.flatnonzero(present) + lo).tolist()
    miss = _missing_mask(arr, mask)
    present = arr[~miss]
    if present.dtype == object:
        uniq = {}
        for v in present.tolist():
            uniq.setdefault(_key(v), v)
        return list(uniq.values())
    return np.unique(present).tolist()


#: the fewest instances with a label and a prediction on which :func:`check_label_overlap` judges a series
MIN_JUDGED = 30


class LabelMismatchWarning(UserWarning):
    """The true and the predicted labels barely overlap: probably two codings of the same classes."""


def _shown(labels: list) -> str:
    return repr(labels if len(labels) <= 10 else labels[:10] + ["..."])


def _codes_present(codes: np.ndarray, k: int) -> np.ndarray:
    """Which of the codes ``0 .. k - 1`` occur in ``codes`` (``MISSING`` ignored), in a few fast passes: one
    comparison per class for few classes (no copy of the codes), a count otherwise."""
    if k <= 32:
        return np.array([bool((codes == i).any()) for i in range(k)], dtype=bool)
    valid = codes[codes >= 0] if codes.size and codes.min() < 0 else codes
    return np.bincount(valid.astype(np.intp, copy=False), minlength=k)[:k] > 0


def check_label_overlap(enc: Encoding, y_codes: np.ndarray, pred_codes: np.ndarray, names=("y_true", "y_pred")):
    """Warn (:class:`LabelMismatchWarning`) when predictions and true labels look like two codings.

    The rule is stated in the module docstring ("Labels that do not match"). ``y_codes``: codes
    ``(n,)`` of ``y_true``; ``pred_codes``: codes ``(..., n)`` of one prediction argument (every
    row is a series). Returns True when a warning was given.
    """
    y_codes = np.asarray(y_codes).reshape(-1)
    pred_codes = np.asarray(pred_codes)
    n = y_codes.shape[0]
    if pred_codes.ndim == 0 or pred_codes.shape[-1] != n or n == 0:
        return False
    k = enc.n_classes
    in_y = _codes_present(y_codes, k)
    rows = pred_codes.reshape(-1, n)
    for r, row in enumerate(rows):
        in_p = _codes_present(row, k)
        if not (in_p & ~in_y).any():  # every prediction is a label of y_true: nothing to say
            continue
        both = (row >= 0) & (y_codes >= 0)
        n_both = int(both.sum())
        if n_both < MIN_JUDGED:  # too few to tell two codings from a poor model
            continue
        matched = int((in_y[row[both]] & in_p[y_codes[both]]).sum())
        shared = bool((in_p & in_y).any())
        if shared and 2 * matched >= n_both:
            continue
        classes = enc.classes.tolist()
        y_labels = [c for c, f in zip(classes, in_y.tolist()) if f]
        p_labels = [c for c, f in zip(classes, in_p.tolist()) if f]
        only_p = [c for c, f, g in zip(classes, in_p.tolist(), in_y.tolist()) if f and not g]
        only_y = [c for c, f, g in zip(classes, in_y.tolist(), in_p.tolist()) if f and not g]
        at = tuple(int(i) for i in np.unravel_index(r, pred_codes.shape[:-1]))
        where = names[1] if rows.shape[0] == 1 else f"{names[1]} (series at index {at})"
        if not shared:
            what = f"do not overlap at all: no prediction is a label of {names[0]}, so every one counts as wrong"
        else:
            what = (
                f"match in only {matched} of the {n_both} instances with a label and a prediction "
                f"({100.0 * matched / n_both:.1f}%, under half; matched: the prediction is a label of {names[0]} "
                f"and the label one that {where} predicts): {where} predicts the labels {_shown(only_p)} that "
                f"{names[0]} never has"
                + (f", and never predicts {names[0]}'s labels {_shown(only_y)}" if only_y else "")
            )
        warnings.warn(
            f"the labels of {where} {_shown(p_labels)} and of {names[0]} {_shown(y_labels)} {what}. "
            "Labels spelled or coded differently are different classes (e.g. 'UP' and 'up', or 1/2 and 0/1): "
            f"recode one of them; if the labels are meant as they are, pass classes=[...] listing every class "
            "(code 0 first) to say so and silence this warning",
            LabelMismatchWarning,
            stacklevel=_user_stacklevel(),
        )
        return True
    return False


def _user_stacklevel() -> int:
    """The stack level of the first frame outside streamtk (so a warning points at the caller's line)."""
    import sys

    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_globals.get("__name__", "").split(".")[0] == "streamtk":
        frame, level = frame.f_back, level + 1
    return level


def encode_labels(y_true, *predictions, classes=None, names=("y_true", "y_pred"), compact=False, check_overlap=None):
    """Encode ``y_true`` and predictions to integer codes (missing values: ``MISSING``).

    Parameters
    ----------
    y_true : array-like of hashable labels, shape ``(n,)``
    *predictions : array-likes of labels, any shape
    classes : sequence of labels, optional
        The class order. Default: sorted union of the labels observed (mixed
        types that cannot be sorted keep first-seen order).
    names : tuple of str
        Argument names used in error messages.
    compact : bool
        Return codes in :attr:`Encoding.compact_dtype` (int8 for up to 127 classes)
        instead of int32; 8-bit integer labels that equal their codes are then
        returned as views, without a copy.
    check_overlap : bool, optional
        Check every prediction argument against ``y_true`` with :func:`check_label_overlap`
        (a :class:`LabelMismatchWarning` when they look like two codings of the classes).
        Default: when ``classes`` is None (the class order is inferred from the labels). Pass
        False for a chunk of a longer stream (a chunk is too short to judge).

    Returns
    -------
    encoding : Encoding
    codes : list of numpy.ndarray (int32, or the compact dtype), ``y_true`` first.
    """
    if classes is None:
        seen, found = [], {}
        for i, v in enumerate((y_true,) + predictions):
            arg = names[min(i, len(names) - 1)]
            observed = _observed(v, arg)
            for u in observed:
                found.setdefault(label_kind(u), (arg, u))
            seen.extend(observed)
        refuse_mix(found)
        uniq = list(dict.fromkeys(_key(v) for v in seen))
        if not uniq:
            raise ValueError(f"{names[0]} has no labels (every value is missing)")
        try:
            uniq = sorted(uniq)
        except TypeError:
            pass
        classes_arr = _classes_from(uniq, uniq, " and ".join(dict.fromkeys(names[: 1 + len(predictions)])))
    else:
        if isinstance(classes, (str, bytes)):
            raise TypeError(f"classes must be a sequence of labels, got the single value {classes!r}")
        classes_list = list(classes)
        if not classes_list:
            raise ValueError("classes must not be empty")
        keys = [_key(c) for c in classes_list]
        if len(set(keys)) != len(keys):
            raise ValueError(f"classes contains duplicates: {classes_list!r}")
        if any(is_missing_label(c) for c in classes_list):
            raise ValueError(f"classes must not contain a missing value, got {classes_list!r}")
        classes_arr = _classes_from(classes, keys, "classes")
    enc = Encoding(classes_arr)
    dtype = enc.compact_dtype if compact else np.dtype(np.int32)
    codes = [enc.encode(y_true, names[0], allow_missing=True, dtype=dtype)]
    for i, p in enumerate(predictions):
        codes.append(enc.encode(p, names[min(i + 1, len(names) - 1)], allow_missing=True, dtype=dtype))
    if classes is None if check_overlap is None else check_overlap:
        for i, c in enumerate(codes[1:]):
            check_label_overlap(enc, codes[0], c, (names[0], names[min(i + 1, len(names) - 1)]))
    return enc, codes
