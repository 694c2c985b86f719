"""The Page-Hinkley step of the SIMD lane kernels, written once for all of them.

A step has two parts, each a pure ``numba.njit`` function of scalars that the
callers inline: the running mean of the monitored input (:func:`ph_mean_step`)
and the cumulative test on one side (:func:`ph_test_step`). Both lane kernels of
:mod:`streamtk._kernels.detectors_ph` (many monitored estimates; settings with
their own states on one monitored series) call them.

The scalar kernel's :func:`streamtk._kernels.detectors.ph_step_scalar` performs
the same floating-point operations in the same order, written out with branches:
called from its loop, these helpers made a single Page-Hinkley call 5-10 % slower
(the branches on ``moa`` became selects in the chain of the running minimum).
Tests hold the kernels to each other bit for bit (``tests/test_ph_shared_lanes.py``,
``tests/test_page_hinkley.py``).

Gama, Sebastiao & Rodrigues (2013), ``seeds/004_*.txt`` section 5.1: with
``n`` inputs since the (re)start,

    mean_T = (x_1 + ... + x_T) / T,   m_T = m_{T-1} + (x_T - mean_T - delta),
    PH_T = m_T - min_{t <= T} m_t,    alarm when PH_T > lambda.

MOA's released ``PageHinkleyDM`` (``moa`` true): incremental mean
``mean += (x - mean) / n`` and the faded sum ``m_T = alpha m_{T-1} + (x_T -
mean_T - delta)`` is itself the statistic (the minimum is not kept).
"""

from __future__ import annotations

import numba

__all__ = ["ph_mean_step", "ph_test_step"]


@numba.njit(cache=True, inline="always", error_model="numpy")
def ph_mean_step(n, acc, x, moa):
    """Count and running mean after input ``x``; returns ``(n, acc, mean)``.

    ``acc`` is the running sum (``mean = acc / n``), or the mean itself in MOA's
    form (``mean = acc + (x - acc) / n``).
    """
    n = n + 1.0
    # one division whatever the form: written with two (one per branch), a vectorised caller
    # computes both and selects
    quot = ((x - acc) if moa else (acc + x)) / n
    acc = (acc + quot) if moa else (acc + x)
    return n, acc, (acc if moa else quot)


@numba.njit(cache=True, inline="always", error_model="numpy")
def ph_test_step(m, m_min, dev, delta, alpha, moa):
    """One side of the test on the deviation ``dev`` (``x - mean`` for an increase,
    ``mean - x`` for a decrease); returns ``(m, m_min, statistic)``.

    ``m = alpha m + (dev - delta)`` (``alpha = 1`` in Gama's form); the statistic
    is ``m - min m`` (Gama) or ``m`` (MOA, whose minimum stays as it is).
    """
    m = alpha * m + (dev - delta)
    if moa:
        return m, m_min, m
    m_min = m if m <= m_min else m_min
    return m, m_min, m - m_min
