"""streamtk: exact, fast, offline evaluation of stream classifiers from recorded predictions.

Layers (imports go one way, down):

* ``streamtk._kernels`` — numba loops over one time axis (no xarray/scipy/matplotlib);
* numpy layer (``streamtk.engine`` and friends) — validate, encode, allocate, call kernels;
* labelled layer (``streamtk.evaluate`` ...) — ``xarray.Dataset`` results with names,
  coordinates and attrs;
* consumers: ``streamtk.plot``, ``streamtk.cli``, ``streamtk.io``, ``streamtk.datasets``.
"""

from ._version import __version__
from .curves import Evaluator, evaluate, evaluate_holdout
from .metrics import REGISTRY as METRICS

__all__ = ["__version__", "evaluate", "Evaluator", "evaluate_holdout", "METRICS"]
