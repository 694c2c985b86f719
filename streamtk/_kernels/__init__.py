"""numba kernels: plain loops over one time axis writing into preallocated outputs.

Rules for this package (see ``DESIGN.md``): import only numpy, numba and
``math``; never xarray, scipy or matplotlib. Every kernel is compiled with
``cache=True`` and without ``fastmath``. Kernels take and return their state in
explicit arrays so that a stream can be processed chunk by chunk with results
identical to one pass.
"""
