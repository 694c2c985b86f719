"""Forgetting mechanisms ("estimators") and checkpoints: one registry for every curve-producing function.

An estimator says which past instances a statistic at time ``t`` is computed over:

``prequential``
    every instance so far (Gama et al. 2013, seed 004, Algorithm 1).
``window=<w>``  (``windows=``)
    the last ``w`` evaluated instances (Algorithm 2); before ``w`` instances the window holds
    all of them, as MOA's window evaluator does.
``fading=<a>``  (``fading=``)
    every past instance ``s`` with weight ``a**(t - s)`` (Algorithm 3).
``adwin=<d>``  (``adwin=``)
    the instances inside the current ADWIN window (confidence ``d``) run on the model's loss
    (Bifet et al. 2015, seed 000, section 6).
``tumbling=<w>``  (``tumbling=``)
    the evaluated instances since the last stream position that is a multiple of ``w``:
    the statistics restart every ``w`` instances of the stream.
``ewma=<a>``  (``ewma=``)
    MOA's exponentially weighted moving average with smoothing factor ``a``:
    ``S_t = S_(t-1) + a (x_t - S_(t-1))`` from ``S = 0``, so instance ``s`` weighs ``a (1 - a)**(t - s)``.
    streamtk's estimates are ratios of weighted sums, in which ``a`` cancels: ``ewma=a`` gives the
    values of ``fading=1 - a``; ``convention="moa"`` gives MOA's unnormalised ``S_t`` (MOA's
    ``EWMAClassificationPerformanceEvaluator``).
``landmarks``  (``landmarks=``)
    the evaluated instances since the last landmark: the statistics restart at the given
    0-based stream positions (for example the known drift positions).
``holdout``
    predictions on a separate holdout set (:func:`streamtk.evaluate_holdout`).

Each mechanism is declared once in :data:`MECHANISMS`; public functions receive them through
:func:`forgetting_parameters`, which also writes their signature and documentation, and the
kernels receive :func:`kernel_arrays`. Checkpoints: :func:`checkpoints` (every ``every``-th
instance and always the last one); the default spacing is :func:`default_every`.
"""

from __future__ import annotations

import functools
import inspect
import numbers
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .._kernels import forgetting as _kf
from .validation import check_fading_factor, check_in_open_unit_interval, check_positive_int

__all__ = [
    "MECHANISMS",
    "MONITORABLE",
    "BARE_LABELS",
    "refuse_for_moa",
    "EstimatorSpec",
    "squared_spec",
    "build_estimators",
    "estimator_coords",
    "mechanism_attrs",
    "spec_from_label",
    "kernel_arrays",
    "forgetting_parameters",
    "checkpoints",
    "checkpoint_positions",
    "is_checkpoint",
    "segments",
    "default_every",
    "resolve_every",
    "MAX_CHECKPOINTS",
]


def _check_landmarks(value, name):
    arr = np.asarray(value)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty sequence of 0-based stream positions, got {value!r}")
    if not (
        np.issubdtype(arr.dtype, np.integer)
        or (arr.dtype == object and all(isinstance(v, numbers.Integral) for v in arr.tolist()))
    ):
        raise TypeError(f"{name} must hold integer stream positions, got {value!r}")
    arr = arr.astype(np.int64)
    if (arr < 0).any():
        raise ValueError(f"{name} are 0-based stream positions and must be >= 0, got {arr[arr < 0][0]}")
    if (np.diff(arr) <= 0).any():
        raise ValueError(f"{name} must be strictly increasing, got {arr.tolist()!r}")
    return tuple(int(v) for v in arr)


@dataclass(frozen=True)
class Mechanism:
    """A forgetting mechanism as the public API and the kernels see it."""

    argument: str  # the public keyword argument ("windows")
    kind: str  # the estimator kind ("window"), also the label prefix
    code: int  # the kernel code (streamtk._kernels.forgetting)
    check: object  # validates one value: (value, name) -> value
    doc: str  # the numpydoc parameter text
    value_type: type = float  # the type of one value (the CLI parses its flag with it)
    metavar: str = "X"  # the value's name in the CLI help
    plural_values: bool = True  # False: the argument is one estimator's value (landmark positions)
    moa: bool = True  # MOA has an evaluator of this mechanism (convention="moa" refuses the others)
    adaptive: bool = False  # its size follows the loss of the predictions (ADWIN): a detector cannot monitor it
    kernel_param: str = "sizes"  # the kernel array its value goes to: "sizes", "fading", "marks" or "" (none)
    kernel_value: object = None  # the value the kernels read, from the public one (None: the same)
    squared: object = None  # the value whose weights are this one's squared (bands); None: 0/1 weights

    @property
    def summary(self) -> str:
        """The parameter text without its type prefix and markup (CLI help)."""
        return self.doc.split(": ", 1)[-1].replace("``", "")

    def values(self, given) -> tuple:
        """The validated values of this argument (one per estimator)."""
        if given is None:
            return ()
        if not self.plural_values:
            if isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
                raise TypeError(f"{self.argument} must be a sequence of stream positions, got {given!r}")
            given = list(given)
            if len(given) == 0:
                return ()
            return (self.check(given, self.argument),)
        if isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
            given = (given,)
        out = tuple(self.check(v, self.argument) for v in given)
        if len(set(out)) != len(out):
            dup = next(v for v in out if out.count(v) > 1)
            raise ValueError(f"{self.argument} contains the value {dup!r} more than once")
        return out


MECHANISMS = (
    Mechanism(
        "windows",
        "window",
        _kf.WINDOW,
        check_positive_int,
        "int or sequence of int: sliding windows of the last ``w`` evaluated instances (Gama et al. 2013, "
        "Algorithm 2).",
        int,
        "W",
    ),
    Mechanism(
        "fading",
        "fading",
        _kf.FADING,
        check_fading_factor,
        "float or sequence of float: fading factors ``a`` in [1e-50, 1]; instance ``s`` weighs ``a**(t - s)`` "
        "(Gama et al. 2013, Algorithm 3).",
        float,
        "ALPHA",
        kernel_param="fading",
        squared=lambda a: a * a,
    ),
    Mechanism(
        "adwin",
        "adwin",
        _kf.ADWIN,
        check_in_open_unit_interval,
        "float or sequence of float: ADWIN confidences ``delta``; the statistics are computed over the "
        "current ADWIN window of the loss (Bifet et al. 2015, section 6).",
        float,
        "DELTA",
        adaptive=True,
        kernel_param="",  # ADWIN's confidences go to its own kernels (streamtk._core.adwin)
    ),
    Mechanism(
        "tumbling",
        "tumbling",
        _kf.TUMBLING,
        check_positive_int,
        "int or sequence of int: tumbling windows; the statistics restart at every stream position that is "
        "a multiple of ``w``.",
        int,
        "W",
        moa=False,
    ),
    Mechanism(
        "landmarks",
        "landmarks",
        _kf.LANDMARKS,
        _check_landmarks,
        "sequence of int: landmark positions (0-based stream positions, increasing); the statistics restart "
        "at each of them (one estimator, labelled ``landmarks``).",
        int,
        "P1,P2,...",
        plural_values=False,
        moa=False,
        kernel_param="marks",
    ),
    Mechanism(
        "ewma",
        "ewma",
        _kf.EWMA,
        check_in_open_unit_interval,
        "float or sequence of float: EWMA smoothing factors ``a`` in (0, 1), MOA's "
        "``S_t = S_(t-1) + a (x_t - S_(t-1))`` from 0: instance ``s`` weighs ``a (1 - a)**(t - s)``; streamtk's "
        "estimates (weighted ratios) equal those of ``fading=1 - a``, ``convention='moa'`` gives MOA's "
        "unnormalised ones.",
        float,
        "A",
        kernel_param="fading",
        kernel_value=lambda a: 1.0 - a,
        squared=lambda a: 1.0 - (1.0 - a) ** 2,  # the EWMA whose fading factor is (1 - a)**2
    ),
)
_BY_ARG = {m.argument: m for m in MECHANISMS}
_BY_KIND = {m.kind: m for m in MECHANISMS}
#: the mechanism arguments a detector can monitor on its own input (every one not driven by the loss)
MONITORABLE = tuple(m.argument for m in MECHANISMS if not m.adaptive)
#: estimator labels that carry no parameter value (``landmarks``: its positions are an attribute)
BARE_LABELS = tuple(m.kind for m in MECHANISMS if not m.plural_values)


def refuse_for_moa(specs, *, kinds=None, what="MOA has no such evaluator") -> None:
    """Raise when ``convention="moa"`` is asked for estimators MOA cannot compute.

    ``kinds``: the estimator kinds the caller's MOA evaluator has (default: ``prequential`` and every
    mechanism declared with ``moa=True``).
    """
    if kinds is None:
        kinds = ("prequential",) + tuple(m.kind for m in MECHANISMS if m.moa)
    bad = [s.label for s in specs if s.kind not in kinds]
    if bad:
        raise ValueError(f"convention='moa' has only the estimators {', '.join(kinds)} ({what}), got {bad}")


#: kernel code of every estimator kind
KIND_CODES = {"prequential": _kf.PREQUENTIAL, **{m.kind: m.code for m in MECHANISMS}, "holdout": -1}


@dataclass(frozen=True)
class EstimatorSpec:
    """One estimator: ``kind`` and its parameter (``None`` for prequential; positions for landmarks)."""

    kind: str
    param: object = None

    @property
    def label(self) -> str:
        if self.param is None or self.kind in BARE_LABELS:
            return self.kind
        return f"{self.kind}={self.param!r}"

    @property
    def code(self) -> int:
        return KIND_CODES[self.kind]

    @property
    def param_value(self) -> float:
        """The parameter as a number for the ``estimator_param`` coordinate (NaN when it has none)."""
        if self.param is None or self.kind in BARE_LABELS:
            return float("nan")
        return float(self.param)


def squared_spec(spec: EstimatorSpec) -> EstimatorSpec:
    """The estimator whose weights are the squares of ``spec``'s (its mechanism's ``squared`` rule; ``spec`` itself
    for 0/1 weights): with squared instance weights, the ``sum w^2`` of Kish's effective size."""
    mech = _BY_KIND.get(spec.kind)
    if mech is None or mech.squared is None:
        return spec
    return EstimatorSpec(spec.kind, mech.squared(spec.param))


def build_estimators(*, prequential: bool = True, allowed=None, **forgetting) -> list[EstimatorSpec]:
    """Validate forgetting-mechanism arguments (``windows=``, ``fading=``, ...) and return the estimators.

    Order: ``prequential``, then each mechanism in :data:`MECHANISMS` order, values in the order
    given. ``allowed``: the mechanism arguments the caller supports (default: all); others raise.
    """
    specs = [EstimatorSpec("prequential")] if prequential else []
    allowed = tuple(_BY_ARG) if allowed is None else tuple(allowed)
    for name, given in forgetting.items():
        if name not in _BY_ARG:
            raise TypeError(f"unknown forgetting mechanism {name!r}; known: {', '.join(_BY_ARG)}")
        if name not in allowed and given not in (None, ()) and not (hasattr(given, "__len__") and len(given) == 0):
            raise ValueError(f"{name}= is not supported here (supported: {', '.join(allowed)})")
    for mech in MECHANISMS:
        specs += [EstimatorSpec(mech.kind, v) for v in mech.values(forgetting.get(mech.argument))]
    if not specs:
        raise ValueError(f"no estimator requested: pass one of {', '.join(allowed)}, or keep prequential")
    return specs


def mechanism_attrs(specs: list[EstimatorSpec]) -> dict:
    """The forgetting arguments that made ``specs``, as Dataset attrs: ``{argument: values}`` for every mechanism.

    A plural argument (``windows``) gives its list of values, a single-estimator one (``landmarks``) its
    positions; a mechanism not asked for gives ``[]``.
    """
    out = {}
    for m in MECHANISMS:
        values = [s.param for s in specs if s.kind == m.kind]
        out[m.argument] = values if m.plural_values else list(values[0] if values else ())
    return out


def spec_from_label(label: str) -> EstimatorSpec:
    """The estimator an ``estimator`` label names (``"prequential"``, ``"window=1000"``, ``"fading=0.999"``...).

    The inverse of :attr:`EstimatorSpec.label`. ``"landmarks"`` does not carry its positions: pass
    ``landmarks=`` itself.
    """
    label = str(label)
    if label == "prequential":
        return EstimatorSpec("prequential")
    kind, sep, value = label.partition("=")
    mech = _BY_KIND.get(kind)
    if mech is None or not sep or not mech.plural_values:
        known = ", ".join(["'prequential'"] + [f"'{m.kind}=<{m.metavar}>'" for m in MECHANISMS if m.plural_values])
        raise ValueError(f"estimator label {label!r} names no estimator; labels are {known}")
    try:
        parsed = mech.value_type(value)
    except ValueError:
        raise ValueError(f"estimator label {label!r}: {value!r} is not a {mech.value_type.__name__}") from None
    return EstimatorSpec(kind, mech.check(parsed, mech.argument))


def estimator_coords(specs: list[EstimatorSpec]) -> dict:
    """Coordinates for the ``estimator`` dimension: label, ``estimator_kind``, ``estimator_param``."""
    return {
        "estimator": ("estimator", np.array([s.label for s in specs], dtype=object).astype(str)),
        "estimator_kind": ("estimator", np.array([s.kind for s in specs]).astype(str)),
        "estimator_param": ("estimator", np.array([s.param_value for s in specs], dtype=np.float64)),
    }


def kernel_arrays(specs: list[EstimatorSpec]):
    """``(kinds, sizes, fading, marks, mark_off)``: the estimators as the kernels read them.

    Each mechanism's value (through its ``kernel_value``, e.g. ``1 - a`` for an EWMA) goes where its
    ``kernel_param`` says: ``sizes`` (window / tumbling sizes, 0 otherwise), ``fading`` (fading factors, and
    the EWMAs' ``1 - a``, 1 otherwise) or ``marks`` (the positions of estimator
    ``e`` are ``marks[mark_off[e]:mark_off[e + 1]]``, e.g. landmarks).
    """
    kinds = np.array([s.code for s in specs], dtype=np.int64)
    slot = [_BY_KIND[s.kind].kernel_param if s.kind in _BY_KIND else "" for s in specs]
    value = [_BY_KIND[s.kind].kernel_value if s.kind in _BY_KIND else None for s in specs]
    param = [s.param if f is None else f(s.param) for s, f in zip(specs, value)]
    sizes = np.array([p if k == "sizes" else 0 for p, k in zip(param, slot)], dtype=np.int64)
    fading = np.array([p if k == "fading" else 1.0 for p, k in zip(param, slot)], dtype=np.float64)
    marks = [np.asarray(s.param if k == "marks" else (), dtype=np.int64) for s, k in zip(specs, slot)]
    mark_off = np.zeros(len(specs) + 1, dtype=np.int64)
    mark_off[1:] = np.cumsum([m.size for m in marks])
    flat = np.concatenate(marks) if marks else np.zeros(0, dtype=np.int64)
    return kinds, sizes, fading, flat.astype(np.int64), mark_off


def forgetting_parameters(*allowed):
    """Decorator: give a function the forgetting-mechanism keywords (all of them, or ``allowed``).

    The function takes ``**forgetting``; the decorator lists the mechanisms as keyword-only
    parameters in its signature (default ``()``), writes their documentation where the docstring
    says ``{forgetting}``, refuses unknown keywords with a hint, and passes the given ones on.
    """
    names = tuple(allowed) if allowed else tuple(_BY_ARG)

    def decorate(func):
        sig = inspect.signature(func)
        params = [p for p in sig.parameters.values() if p.kind != inspect.Parameter.VAR_KEYWORD]
        first_kw = next((i for i, p in enumerate(params) if p.kind == inspect.Parameter.KEYWORD_ONLY), len(params))
        extra = [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=()) for n in names]
        new_sig = sig.replace(parameters=params[:first_kw] + extra + params[first_kw:])

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            bad = [k for k in kwargs if k not in new_sig.parameters]
            if bad:
                hint = _hint(bad[0], new_sig.parameters)
                raise TypeError(f"{func.__name__}() got an unexpected keyword argument {bad[0]!r}{hint}")
            return func(*args, **kwargs)

        wrapper.__signature__ = new_sig
        if func.__doc__ and "{forgetting}" in func.__doc__:
            indent = " " * 4
            lines = []
            for n in names:
                lines.append(f"{indent}{n} : {_BY_ARG[n].doc.split(': ', 1)[0]}")
                lines.append(f"{indent}    {_BY_ARG[n].doc.split(': ', 1)[1]}")
            wrapper.__doc__ = func.__doc__.replace(f"{indent}{{forgetting}}", "\n".join(lines))
        return wrapper

    return decorate


def _hint(bad, known):
    close = [k for k in known if k.rstrip("s") == bad.rstrip("s") or k.startswith(bad) or bad.startswith(k)]
    return f"; did you mean {close[0]!r}?" if close else ""


# the checkpoint rules live in their own module; re-exported here for the engines that read them from here
from .checkpoints import (  # noqa: E402
    MAX_CHECKPOINTS,
    checkpoint_positions,
    checkpoints,
    default_every,
    is_checkpoint,
    resolve_every,
    segments,
)
