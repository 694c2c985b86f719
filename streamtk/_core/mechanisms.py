"""Forgetting mechanisms ("estimators") shared by every curve-producing function.

An estimator says which past instances a statistic at time ``t`` is computed over:

``prequential``
    all instances ``0..t`` (Gama et al. 2013, Algorithm 1).
``window=<w>``
    the last ``w`` evaluated instances (Algorithm 2); before ``w`` instances have
    been seen the window holds all of them (as MOA's window evaluator does).
``fading=<alpha>``
    every past instance ``s`` with weight ``alpha**(t - s)`` (Algorithm 3:
    ``S_t = x_t + alpha S_{t-1}``, ``N_t = 1 + alpha N_{t-1}``, estimate ``S_t / N_t``).
``adwin=<delta>``
    the instances inside the current ADWIN window run on the model's 0/1 loss
    (Bifet et al. 2015, section 6).
``holdout``
    predictions on a separate holdout set at given stream positions (Gama et al.
    2013, section 3.2); produced by :func:`streamtk.evaluate_holdout`.

Every labelled output carries the estimator on an ``estimator`` dimension whose
labels are the strings above, with the non-index coordinates ``estimator_kind``
and ``estimator_param`` (NaN for parameter-free estimators).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .validation import as_tuple_of, check_fading_factor, check_in_open_unit_interval, check_window

__all__ = ["EstimatorSpec", "build_estimators", "estimator_coords", "checkpoint_positions", "KIND_CODES"]

#: integer codes used by the kernels
KIND_CODES = {"prequential": 0, "window": 1, "fading": 2, "adwin": 3, "holdout": 4}


@dataclass(frozen=True)
class EstimatorSpec:
    """One forgetting mechanism: ``kind`` and its parameter (``None`` if it has none)."""

    kind: str
    param: float | int | None = None

    @property
    def label(self) -> str:
        if self.param is None:
            return self.kind
        return f"{self.kind}={self.param!r}"

    @property
    def code(self) -> int:
        return KIND_CODES[self.kind]

    @property
    def param_value(self) -> float:
        return float("nan") if self.param is None else float(self.param)


def _check_delta(value, name):
    return check_in_open_unit_interval(value, name)


def build_estimators(windows=(), fading=(), adwin=(), *, prequential: bool = True) -> list[EstimatorSpec]:
    """Validate the estimator options and return them in output order.

    Order: ``prequential``, then windows, fading factors and ADWIN deltas in the
    order given. Scalars are accepted for convenience (``windows=1000``).

    Raises
    ------
    ValueError, TypeError
        For a window < 1 or not an integer, a fading factor outside ``(0, 1]``,
        an ADWIN delta outside ``(0, 1)``, or a repeated value.
    """
    specs = [EstimatorSpec("prequential")] if prequential else []
    specs += [EstimatorSpec("window", w) for w in as_tuple_of(windows, "windows", check_window)]
    specs += [EstimatorSpec("fading", a) for a in as_tuple_of(fading, "fading", check_fading_factor)]
    specs += [EstimatorSpec("adwin", d) for d in as_tuple_of(adwin, "adwin", _check_delta)]
    if not specs:
        raise ValueError("no estimator requested: pass windows=, fading= or adwin=, or keep prequential")
    return specs


def estimator_coords(specs: list[EstimatorSpec]) -> dict:
    """Coordinates for the ``estimator`` dimension of a labelled output."""
    return {
        "estimator": ("estimator", np.array([s.label for s in specs], dtype=object).astype(str)),
        "estimator_kind": ("estimator", np.array([s.kind for s in specs]).astype(str)),
        "estimator_param": ("estimator", np.array([s.param_value for s in specs], dtype=np.float64)),
    }


def checkpoint_positions(start: int, stop: int, every: int) -> np.ndarray:
    """0-based positions ``p`` in ``[start, stop)`` with ``(p + 1) % every == 0``.

    Every curve-producing function writes these checkpoints plus the last instance.
    """
    first = ((start // every) + 1) * every - 1
    if first < start:
        first += every
    return np.arange(first, stop, every, dtype=np.int64)
