"""Input validation shared by every numpy-layer module.

Every check raises ``ValueError`` or ``TypeError`` naming the argument and
echoing the offending value; nothing is silently cast, truncated or dropped.
"""

from __future__ import annotations

import numbers
import operator
from collections.abc import Iterable, Sequence

import numpy as np

from .._kernels.checks import first_non_finite
from .label_values import check_unmasked

__all__ = [
    "as_float_array",
    "as_rng",
    "check_choice",
    "check_fading_factor",
    "FADING_MIN",
    "WEIGHT_MAX",
    "check_in_open_unit_interval",
    "check_positive_int",
    "check_probability",
    "check_same_length",
    "check_window",
    "check_nonnegative_weights",
    "check_weights",
    "as_tuple_of",
]


def _is_integer(value) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return False
    try:
        operator.index(value)
    except TypeError:
        return False
    return True


_INT64_MAX = 2**63 - 1  # the kernels count in int64


def check_positive_int(value, name: str, *, minimum: int = 1) -> int:
    """Return ``value`` as ``int`` if it is an integer ``>= minimum``.

    Floats such as ``100.0`` are refused: a silent cast could hide a bug.
    """
    if not _is_integer(value):
        raise TypeError(f"{name} must be an integer, got {value!r} of type {type(value).__name__}")
    value = operator.index(value)
    if value > _INT64_MAX:
        raise ValueError(f"{name} must be at most 2**63 - 1 = {_INT64_MAX}, got {value!r}")
    if value < minimum:
        kind = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise ValueError(f"{name} must be {kind}, got {value!r}")
    return value


def check_window(value, name: str = "windows") -> int:
    """A sliding-window size: an integer >= 1."""
    return check_positive_int(value, name)


#: the smallest fading factor: the kernels hold faded sums lazily scaled by ``alpha**-t`` in float64 (renormalised
#: at 1e100), so one step may scale a weight by ``1 / alpha`` (up to 1e50); with :data:`WEIGHT_MAX` nothing overflows
FADING_MIN = 1e-50
#: the largest instance weight (metrics do not depend on the weights' scale: divide larger weights by a constant)
WEIGHT_MAX = 1e150


def check_fading_factor(value, name: str = "fading") -> float:
    """A fading factor ``alpha`` in ``[FADING_MIN, 1]`` (Gama et al. 2013, Algorithm 3).

    Factors below :data:`FADING_MIN` (an instance weighing less than 1e-50 of the next one) are
    refused: the lazily scaled sums would overflow. ``windows=[1]`` holds only the last instance.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number in (0, 1], got {value!r}")
    value = float(value)
    if not (0.0 < value <= 1.0):
        raise ValueError(f"{name} must be in (0, 1], got {value!r}")
    if value < FADING_MIN:
        raise ValueError(
            f"{name} must be at least {FADING_MIN:g} (each instance weighing at least 1e-50 of the next; the faded "
            f"sums are kept in float64 and would overflow), got {value!r}; windows=[1] holds only the last instance"
        )
    return value


def check_in_open_unit_interval(value, name: str) -> float:
    """A real number strictly between 0 and 1 (confidence levels, deltas)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number in (0, 1), got {value!r}")
    value = float(value)
    if not (0.0 < value < 1.0):
        raise ValueError(f"{name} must be in (0, 1), got {value!r}")
    return value


def check_probability(value, name: str) -> float:
    """A probability in ``[0, 1]``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number in [0, 1], got {value!r}")
    value = float(value)
    if not (0.0 <= value <= 1.0):
        raise ValueError(f"{name} must be in [0, 1], got {value!r}")
    return value


def check_choice(value, name: str, choices: Sequence[str]) -> str:
    """One of a fixed set of string options."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")
    return value


def as_tuple_of(values, name: str, check) -> tuple:
    """Normalise a scalar or an iterable of parameters to a tuple of checked values.

    Duplicates are refused (they would produce duplicate coordinate labels).
    """
    if values is None:
        return ()
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        values = (values,)
    out = tuple(check(v, name) for v in values)
    seen = set()
    for v in out:
        if v in seen:
            raise ValueError(f"{name} contains the value {v!r} more than once")
        seen.add(v)
    return out


def as_float_array(values, name: str, *, allow_nan: bool = False, ndim_min: int = 1) -> np.ndarray:
    """Convert to a float64 array, refusing non-numeric input and (by default) NaN (``pandas.NA`` is NaN)."""
    arr = np.asarray(_numeric_extension(values))
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.bool_)):
        raise TypeError(f"{name} must be numeric, got an array of dtype {arr.dtype}")
    if np.issubdtype(arr.dtype, np.complexfloating):
        raise TypeError(f"{name} must be real, got an array of dtype {arr.dtype}")
    if arr.ndim < ndim_min:
        raise ValueError(f"{name} must have at least {ndim_min} dimension(s), got shape {arr.shape}")
    arr = arr.astype(np.float64, copy=False)
    if not allow_nan:
        bad = first_non_finite(np.ascontiguousarray(arr.reshape(-1)))
        if bad >= 0:
            idx = np.unravel_index(bad, arr.shape)
            raise ValueError(
                f"{name} contains a non-finite value {arr[idx].item()!r} at index {tuple(int(i) for i in idx)}"
            )
    return arr


def _numeric_extension(values):
    """A pandas nullable numeric array or Series (``Float64``, ``Int64``, ``boolean``) as float64, NA as NaN."""
    dt = getattr(values, "dtype", None)
    base = getattr(dt, "numpy_dtype", None)
    if base is None or isinstance(dt, np.dtype) or not hasattr(values, "to_numpy"):
        return values
    if np.dtype(base).kind not in "biuf":
        return values
    return values.to_numpy(dtype=np.float64, na_value=np.nan)


def check_nonnegative_weights(weights: np.ndarray, name: str = "weights") -> np.ndarray:
    """Weights must be finite, >= 0 and at most :data:`WEIGHT_MAX`."""
    weights = as_float_array(weights, name)
    flat = weights.reshape(-1)
    neg = np.flatnonzero(flat < 0)
    if neg.size:
        idx = np.unravel_index(neg[0], weights.shape)
        raise ValueError(
            f"{name} must be non-negative, got {weights[idx].item()!r} at index {tuple(int(i) for i in idx)}"
        )
    big = np.flatnonzero(flat > WEIGHT_MAX)
    if big.size:
        idx = np.unravel_index(big[0], weights.shape)
        raise ValueError(
            f"{name} must be at most {WEIGHT_MAX:g} (sums of faded weights are kept in float64; metrics do not "
            f"depend on the weights' scale, so divide them by a constant), got {weights[idx].item()!r} at index "
            f"{tuple(int(i) for i in idx)}"
        )
    return weights


def check_same_length(n: int, arr: np.ndarray, name: str, ref_name: str = "y_true") -> None:
    """The last (time) axis of ``arr`` must have length ``n``."""
    if arr.shape[-1] != n:
        raise ValueError(f"{name} has {arr.shape[-1]} instances along its last axis but {ref_name} has {n}")


def as_rng(seed, name: str = "seed") -> np.random.Generator:
    """A ``numpy.random.Generator`` from a seed, a SeedSequence or a Generator.

    ``None`` is refused on purpose: results must be reproducible, so pass a seed.
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, np.random.SeedSequence):
        return np.random.default_rng(seed)
    if seed is None:
        raise TypeError(
            f"{name} must be an int, a numpy.random.SeedSequence or a numpy.random.Generator; "
            "got None (streamtk never uses global or unseeded random state)"
        )
    if _is_integer(seed) and operator.index(seed) >= 0:
        return np.random.default_rng(operator.index(seed))
    raise TypeError(
        f"{name} must be a non-negative int, a numpy.random.SeedSequence or a numpy.random.Generator, got {seed!r}"
    )


def check_weights(weights, lead_shape: tuple, n: int, *, against: str = "y_pred", what: str = "prediction"):
    """Weights broadcastable to ``(*lead_shape, n)`` -> ``(L, n)`` float64, finite and >= 0 (None stays None).

    ``against`` / ``what`` name the array the weights go with, for the error message.
    """
    if weights is None:
        return None
    check_unmasked(weights, "weights")
    w = check_nonnegative_weights(weights, "weights")
    if w.ndim == 0 or w.shape[-1] != n:
        got = w.shape[-1] if w.ndim else "no"
        raise ValueError(f"weights has {got} instances along its last axis but y_true has {n}")
    try:
        w = np.broadcast_to(w, tuple(lead_shape) + (n,))
    except ValueError:
        L = int(np.prod(lead_shape, dtype=np.int64))
        raise ValueError(
            f"weights of shape {w.shape} do not broadcast against {against}'s leading shape {tuple(lead_shape)}: "
            f"it does not match the {L} {what} series and {n} instances"
        ) from None
    return np.ascontiguousarray(w.reshape(-1, n))
