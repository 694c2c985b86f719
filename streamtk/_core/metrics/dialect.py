"""The language of metric formulas: one scalar formula that runs compiled and in numpy, with the same bits.

A formula of the registry is a plain Python function decorated with :func:`formula`. It reads a
family's sufficient statistics ``s`` and intermediates ``v`` at column ``m`` (``s[ROW, m]``) and
returns the value there. The same source runs two ways:

* **compiled**: the finaliser (:mod:`streamtk._core.finalise`) calls it from a numba loop over
  the checkpoints with an integer ``m``, so it is inlined into that loop;
* **numpy**: called from Python with ``m = slice(None)`` on views whose rows are arrays, it
  evaluates every checkpoint at once (small outputs, and the reference tests).

For both to give the same doubles a formula uses only:

* arithmetic (``+ - * /``; IEEE: ``x / 0`` is inf or NaN, never an error), comparisons, ``& | ~``
  on comparisons, ``for`` loops over class indices, ``if`` on the context ``x`` (constants of the
  evaluation such as ``x.k`` or ``x.moa``), never ``if`` on a value read from ``s`` or ``v``;
* the helpers below instead of ``math`` / ``numpy`` calls: :func:`where` (a select, both sides
  evaluated), :func:`sqrt`, :func:`log`, :func:`exp`, :func:`erfc`, :func:`isnan`, :func:`maximum`,
  :func:`minimum`, :func:`fabs`, :func:`copysign`, :func:`floor`, :func:`full`. In numpy they call the C library's
  functions element by element (``math``), exactly as the compiled code does: numpy's own ``log`` and
  ``exp`` differ from the C library in the last bit for some inputs.
"""

from __future__ import annotations

import math

import numpy as np
from numba.extending import overload, register_jitable

__all__ = [
    "formula",
    "called_formula",
    "where",
    "sqrt",
    "log",
    "exp",
    "erfc",
    "isnan",
    "maximum",
    "minimum",
    "fabs",
    "copysign",
    "floor",
    "full",
    "NAN",
    "INF",
]

NAN = math.nan
INF = math.inf


def formula(fn):
    """Decorator of a registry formula (or a helper formulas call): plain Python, inlined by numba into loops."""
    return register_jitable(inline="always")(fn)


def called_formula(fn):
    """Decorator of a helper with a loop that one formula calls more than once: compiled as a function of its
    own and called (numba's inlining of such a helper at several call sites of one function is unsound)."""
    return register_jitable(fn)


def _elementwise(fn, domain=None, outside=None):
    """A C-library function of one argument, applied element by element to an array (scalars as they are).

    ``domain(a)``: the elements where ``fn`` is called; ``outside(a)``: the values elsewhere (where the
    Python function raises but the compiled code returns an IEEE value). ``map`` over a list of floats:
    about 60 ns per element, a tenth of ``np.frompyfunc`` with a Python wrapper (McNemar's p-value of
    ``compare`` at ``every=1000`` over 2x10^6 instances: 17 of 40 ms).
    """

    def apply(x):
        a = np.asarray(x, dtype=np.float64)
        if domain is not None:
            inside = domain(a)
            values = np.where(inside, a, 1.0)
        else:
            values = a
        out = np.fromiter(map(fn, values.ravel().tolist()), np.float64, values.size).reshape(a.shape)
        if domain is not None:
            out = np.where(inside, out, outside(a))
        return out if a.ndim else float(out)

    return apply


#: the largest argument of ``math.exp`` that does not raise OverflowError (the compiled code gives inf above)
_EXP_MAX = 709.782712893384

_log = _elementwise(math.log, lambda a: a > 0.0, lambda a: np.where(a == 0.0, -math.inf, math.nan))
_exp = _elementwise(math.exp, lambda a: ~(a > _EXP_MAX), lambda a: np.full(a.shape, math.inf))
_erfc = _elementwise(math.erfc)


def where(cond, a, b):
    """``a`` where ``cond`` else ``b`` (both evaluated)."""
    return np.where(cond, a, b)


def sqrt(x):
    """Square root (correctly rounded everywhere; NaN below 0)."""
    with np.errstate(invalid="ignore"):
        return np.sqrt(x)


def log(x):
    """Natural logarithm (``-inf`` at 0, NaN below)."""
    return _log(x)


def exp(x):
    """Exponential."""
    return _exp(x)


def erfc(x):
    """Complementary error function."""
    return _erfc(x)


def isnan(x):
    """Whether ``x`` is NaN."""
    return np.isnan(x)


def maximum(a, b):
    """The larger of ``a`` and ``b`` (NaN if either is NaN)."""
    return np.maximum(a, b)


def minimum(a, b):
    """The smaller of ``a`` and ``b`` (NaN if either is NaN)."""
    return np.minimum(a, b)


def fabs(x):
    """Absolute value."""
    return np.abs(x)


def copysign(a, b):
    """``|a|`` with the sign of ``b``."""
    return np.copysign(a, b)


def floor(x):
    """The largest integer not above ``x``, as a double (NaN and infinities as they are)."""
    return np.floor(x)


def full(like, value):
    """``value`` at every column of ``like`` (a value read at ``m``): a constant shaped like a statistic."""
    return np.full(np.shape(like), value, dtype=np.float64) if np.ndim(like) else float(value)


# --------------------------------------------------------------------------- compiled versions
@overload(where)
def _where_nb(cond, a, b):
    def impl(cond, a, b):
        return a if cond else b

    return impl


@overload(sqrt)
def _sqrt_nb(x):
    return lambda x: math.sqrt(x) if x >= 0.0 else math.nan


@overload(log)
def _log_nb(x):
    return lambda x: math.log(x) if x > 0.0 else (-math.inf if x == 0.0 else math.nan)


@overload(exp)
def _exp_nb(x):
    return lambda x: math.exp(x)


@overload(erfc)
def _erfc_nb(x):
    return lambda x: math.erfc(x)


@overload(isnan)
def _isnan_nb(x):
    return lambda x: x != x


@overload(maximum)
def _maximum_nb(a, b):
    return lambda a, b: a if (a != a or a > b) else b  # as numpy: b when they are equal (-0.0 and 0.0)


@overload(minimum)
def _minimum_nb(a, b):
    return lambda a, b: a if (a != a or a < b) else b


@overload(fabs)
def _fabs_nb(x):
    return lambda x: math.fabs(x)


@overload(copysign)
def _copysign_nb(a, b):
    return lambda a, b: math.copysign(a, b)


@overload(floor)
def _floor_nb(x):
    return lambda x: np.floor(x)


@overload(full)
def _full_nb(like, value):
    return lambda like, value: float(value)
