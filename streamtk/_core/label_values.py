"""Label values: which values are missing labels, and how Python sequences of labels become arrays.

Part of :mod:`streamtk._core.labels` (the rules are stated in its docstring, "Missing labels" and
"Label types"): :func:`is_missing_label`, :func:`as_label_array` (exact integers, text and numbers
never mixed, big-endian converted) and :func:`check_unmasked`.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = ["as_label_array", "check_unmasked", "from_pandas_extension", "is_missing_label"]


def is_missing_label(value) -> bool:
    """True for ``None``, NaN (any float NaN, ``numpy.datetime64('NaT')``) and ``pandas.NA``."""
    if value is None:
        return True
    try:
        if isinstance(value, (float, np.floating)) and math.isnan(value):
            return True
    except TypeError:  # pragma: no cover - exotic float-likes
        return False
    if type(value).__name__ in ("NAType", "NaTType"):
        return True
    return False


INT64_MAX = 2**63 - 1
_UINT64_MAX = 2**64 - 1
EXACT_FLOAT_INT = 2**53  # integers up to this magnitude are exact in float64


def label_kind(value) -> str:
    """The label kind of one present value: 'text', 'bytes', 'bool', 'int', 'float' or 'other'."""
    if isinstance(value, (str, np.str_)):
        return "text"
    if isinstance(value, (bytes, np.bytes_)):
        return "bytes"
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, numbers.Integral):
        return "int"
    if isinstance(value, numbers.Real):
        return "float"
    return "other"


_NUMBER_KINDS = frozenset({"bool", "int", "float"})


def refuse_mix(found: dict) -> None:
    """``found``: kind -> (argument name, example value). Raise if text (or bytes) meets another kind."""
    groups: dict = {}
    for kind, example in found.items():
        groups.setdefault("number" if kind in _NUMBER_KINDS else kind, example)
    text = next((g for g in ("text", "bytes") if g in groups), None)
    if text is None or len(groups) < 2:
        return
    other = next(g for g in groups if g != text)
    (na, va), (nb, vb) = groups[other], groups[text]
    if na == nb:
        head = f"{na} must hold labels of one kind: it holds {type(va).__name__} labels (e.g. {va!r}) and "
    else:
        head = (
            f"{na} and {nb} must hold labels of one kind: {na} holds {type(va).__name__} labels (e.g. {va!r}) "
            f"but {nb} holds "
        )
    raise TypeError(
        f"{head}{type(vb).__name__} labels (e.g. {vb!r}); numpy would turn them all into text, so 1 and '1' "
        "would become one class and 1.0 and 1 two classes: convert the labels to one type first"
    )


def int_dtype(lo: int, hi: int, name: str):
    """int64 if ``[lo, hi]`` fits, uint64 for non-negative values up to ``2**64 - 1``, else refuse."""
    if lo >= -INT64_MAX - 1 and hi <= INT64_MAX:
        return np.dtype(np.int64)
    if lo >= 0 and hi <= _UINT64_MAX:
        return np.dtype(np.uint64)
    if lo >= -INT64_MAX - 1 and hi <= _UINT64_MAX:
        raise ValueError(
            f"{name}: the integer labels span {lo} .. {hi}, and no 64-bit integer type holds both a negative label "
            "and one above 2**63 - 1; give the labels as strings or re-code them"
        )
    bad = lo if lo < -INT64_MAX - 1 else hi
    raise ValueError(
        f"{name}: the integer label {bad} does not fit in 64 bits (int64 or uint64); "
        "give such labels as strings or re-code them"
    )


def refuse_inexact_floats(lo, hi, name: str) -> None:
    """Refuse float labels beside an integer label that float64 cannot hold exactly (``|v| > 2**53``)."""
    if lo is not None and max(-lo, hi) > EXACT_FLOAT_INT:
        big = hi if hi > EXACT_FLOAT_INT else lo
        raise ValueError(
            f"{name} mixes float labels with the integer label {big}, which float64 cannot hold exactly "
            "(it would be rounded); give all labels as integers or as strings"
        )


def scan_objects(flat: list, name: str):
    """Kinds of the present values of a flat list: ``(kinds, examples, missing mask, lo, hi)``."""
    examples: dict = {}
    missing = []
    lo = hi = None
    for v in flat:
        if is_missing_label(v):
            missing.append(True)
            continue
        missing.append(False)
        k = label_kind(v)
        if k not in examples:
            examples[k] = (name, v)
        if k == "int":
            iv = int(v)
            lo = iv if lo is None or iv < lo else lo
            hi = iv if hi is None or iv > hi else hi
    return examples, missing, lo, hi


def from_pandas_extension(values):
    """A pandas extension array or Series (nullable ``Int64``, ``boolean``, ``string``, ``Float64``,
    categorical, ...) as numpy; anything else unchanged.

    ``pandas.NA`` is a missing value: integers and booleans with one become an object array (Python
    values, None missing: float64 would round integers above 2**53), floats become float64 with
    NaN, other kinds (text, categories) Python objects with None, read by :func:`as_label_array`'s
    rules for sequences. Without a missing value the numbers keep their numpy dtype.
    """
    dt = getattr(values, "dtype", None)
    if dt is None or isinstance(dt, np.dtype) or not hasattr(values, "to_numpy") or not hasattr(values, "isna"):
        return values
    na = np.asarray(values.isna(), dtype=bool)
    base = getattr(dt, "numpy_dtype", None)  # masked numeric dtypes: Int64 -> int64, boolean -> bool, Float64 -> ...
    if base is not None and np.dtype(base).kind in "biuf":
        base = np.dtype(base)
        if base.kind == "f":
            return values.to_numpy(dtype=np.float64, na_value=np.nan)
        if not na.any():
            return values.to_numpy(dtype=base)
        return values.to_numpy(dtype=object, na_value=None)
    return values.to_numpy(dtype=object, na_value=None).tolist()


def as_label_array(values, name: str, *, allow_missing: bool = True):
    """An array of labels with nothing lost: ``values`` as numpy would read them, minus its silent casts.

    * Python sequences are read element by element: text mixed with numbers (or bytes) is
      refused (``TypeError`` naming ``name`` and the two types); integers become ``int64``, or
      ``uint64`` above ``2**63 - 1`` (numpy would round them to float64), and are refused
      beyond 64 bits; integers mixed with floats become float64 only when exact (``|v| <=
      2**53``); missing values (None, NaN) give an object array (None) for integers and text,
      NaN for floats.
    * Arrays (numpy, masked, or anything with a ``dtype`` such as an xarray DataArray) keep
      their dtype; big-endian numeric data is converted to native byte order (the kernels
      need it); object arrays are checked for mixed kinds and out-of-range integers.
    * With ``allow_missing=False`` a masked entry (``numpy.ma``) is refused naming ``name``
      and its index (a mask must never be ignored, leaving the value under it in use).

    * pandas extension arrays (nullable ``Int64``, ``boolean``, ``string``, ``Float64``, ...)
      are read with ``pandas.NA`` as a missing value (:func:`from_pandas_extension`).

    Returns the same kind of object it was given for arrays (a DataArray stays a DataArray,
    a masked array stays masked); a new numpy array for sequences.
    """
    values = from_pandas_extension(values)
    if hasattr(values, "dtype") and hasattr(values, "shape"):
        if not allow_missing:
            check_unmasked(values, name)
        dt = values.dtype
        if dt.kind in "biufc" and not dt.isnative:
            values = values.astype(dt.newbyteorder("="))
        elif dt.kind == "O":
            data = np.asarray(values.data if isinstance(values, np.ma.MaskedArray) else values)
            examples, _, lo, hi = scan_objects(data.reshape(-1).tolist(), name)
            refuse_mix(examples)
            if lo is not None:
                int_dtype(lo, hi, name)
        return values
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a sequence or array of labels, got the single value {values!r}")
    try:
        obj = np.asarray(values, dtype=object)
    except ValueError as exc:  # ragged nested sequences
        raise ValueError(f"{name} must be a rectangular sequence of labels ({exc})") from None
    if obj.ndim == 0:
        raise ValueError(f"{name} must be an array of labels, got a scalar {values!r}")
    flat = obj.reshape(-1).tolist()
    nested = next((v for v in flat if isinstance(v, (list, np.ndarray, dict, set))), None)
    if nested is not None:  # numpy keeps the rows of a ragged sequence as lists
        raise ValueError(
            f"{name} must be a rectangular sequence of hashable labels, got an element {nested!r} "
            f"of type {type(nested).__name__}"
        )
    examples, missing, lo, hi = scan_objects(flat, name)
    refuse_mix(examples)
    kinds = set(examples)
    any_missing = any(missing)
    if any_missing and not allow_missing:
        where = tuple(int(i) for i in np.unravel_index(missing.index(True), obj.shape))
        raise ValueError(f"{name} has a missing value at index {where}; labels must be given for every instance")
    if not kinds:
        return np.full(obj.shape, np.nan)
    if kinds <= {"text"}:
        return obj if any_missing else np.array(flat, dtype=str).reshape(obj.shape)
    if kinds == {"bool"}:
        return obj if any_missing else np.array(flat, dtype=bool).reshape(obj.shape)
    if kinds <= {"bool", "int"}:
        dtype = int_dtype(lo, hi, name)
        if any_missing:
            return obj
        return np.array([int(v) for v in flat], dtype=dtype).reshape(obj.shape)
    if kinds <= {"bool", "int", "float"}:
        refuse_inexact_floats(lo, hi, name)
        return np.array([np.nan if m else float(v) for v, m in zip(flat, missing)]).reshape(obj.shape)
    return obj  # other hashables (tuples, enums, ...): compared as Python objects


def check_unmasked(values, name: str):
    """Refuse a ``numpy.ma`` array with masked entries (its mask would otherwise be ignored downstream).

    Returns ``values`` unchanged when nothing is masked. For arguments where a masked entry
    cannot mean "missing" (predictions, weights, scores), so that the value under the mask is
    never used silently.
    """
    if isinstance(values, np.ma.MaskedArray):
        mask = np.ma.getmaskarray(values)
        if mask.any():
            where = tuple(int(i) for i in np.argwhere(mask)[0])
            raise ValueError(
                f"{name} is a masked array with {int(mask.sum())} masked entr{'y' if mask.sum() == 1 else 'ies'} "
                f"(first at index {where}); masked values cannot be used for {name}: fill them "
                f"(e.g. {name}.filled(...)) or give weights=0 to the instances that must not count"
            )
    return values
