"""Argument handling shared by the significance tests (numpy layer).

The tests take paired per-fold measurements ``x`` and ``y`` (or their
differences ``x - y``) with the folds along ``axis`` and any number of other
axes (checkpoints, estimators, metrics...), and return arrays shaped like the
inputs without ``axis``.
"""

from __future__ import annotations

import numpy as np

from .._core.validation import as_float_array, check_choice, check_in_open_unit_interval

ALTERNATIVES = ("two-sided", "greater", "less")


def paired_differences(x, y, axis) -> np.ndarray:
    """``x - y`` with the fold axis moved last; NaN refused (a fold without a value
    cannot take part in a paired test, and dropping it silently would change ``n``)."""
    x = as_float_array(x, "x", ndim_min=1)
    if y is None:
        d = x
    else:
        y = as_float_array(y, "y", ndim_min=1)
        if x.shape != y.shape:
            raise ValueError(f"x and y must have the same shape, got {x.shape} and {y.shape}")
        d = x - y
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"axis must be an integer, got {axis!r}")
    if not -d.ndim <= axis < d.ndim:
        raise ValueError(f"axis must be in [{-d.ndim}, {d.ndim - 1}] for inputs of shape {d.shape}, got {axis!r}")
    if d.shape[axis] == 0:
        raise ValueError(
            f"x is empty along the fold axis {axis} (shape {d.shape}): a paired test needs at least one pair"
        )
    return np.moveaxis(d, axis, -1)


def check_test_options(alternative, alpha) -> tuple[str, float]:
    alternative = check_choice(alternative, "alternative", ALTERNATIVES)
    alpha = check_in_open_unit_interval(alpha, "alpha")
    return alternative, alpha


def reject_from_pvalue(pvalue: np.ndarray, alpha: float) -> np.ndarray:
    """``p <= alpha``; an undefined (NaN) p-value never rejects."""
    with np.errstate(invalid="ignore"):
        return np.asarray(pvalue <= alpha) & ~np.isnan(pvalue)
