"""numba kernels: plain loops over one time axis writing into preallocated outputs.

Rules for this package (see ``DESIGN.md``): import only numpy, numba and ``math``; never xarray,
scipy or matplotlib. Every kernel is compiled with ``cache=True`` and without ``fastmath``; the
compiled kernels are cached per user, not in the package folder (:mod:`._cache`). Kernels take and
return their state in explicit arrays so that a stream can be processed chunk by chunk with results
identical to one pass.

Layout: the shared helpers (:mod:`.forgetting` for every forgetting mechanism, :mod:`.baselines` for the
baseline classifiers' rules, :mod:`.checks`, :mod:`.encode`) and one module or package per statistics
family (:mod:`.confusion`, :mod:`.sums`, :mod:`.dependence`, the AUC family, the detectors, ADWIN).
"""

from . import _cache

_cache.install()
