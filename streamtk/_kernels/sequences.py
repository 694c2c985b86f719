"""Anytime-valid confidence sequences for the running mean of values in ``[0, 1]``, in one pass.

The predictable plug-in empirical-Bernstein confidence sequence (PrPl-EB) of Waudby-Smith &
Ramdas (2024, *Estimating means of bounded random variables by betting*, JRSS B, Theorem 2,
eqs. 13-15), as their reference implementation computes it (``confseq.predmix``,
``predmix_empbern_twosided_cs``): for the ``i``-th value ``x_i``,

* ``lambda_i = min(c, sqrt(2 log(2 / alpha) / (i log(1 + i) sigma2_(i-1))))`` with ``c = 1/2``,
  ``sigma2_i = (1/4 + sum_(j<=i) (x_j - mu_j)^2) / (i + 1)``, ``mu_j = (1/2 + sum_(l<=j) x_l) / (j + 1)``;
* ``v_i = (x_i - m_(i-1))^2`` with the running mean ``m_(i-1)`` (0 before the first value; for the
  upper side the same of ``1 - x``), ``psi(l) = -log(1 - l) - l``;
* the band ``sum lambda_i x_i / sum lambda_i`` minus / plus
  ``(log(2 / alpha) + sum v_i psi(lambda_i)) / sum lambda_i``, clipped to ``[0, 1]``.

It covers the mean of independent values with a common mean at every ``t`` at once with
probability at least ``1 - alpha`` (a time-uniform bound from a nonnegative supermartingale and
Ville's inequality). Every weight is predictable, so the state carried across chunks gives the
bands of one pass. Non-members (NaN) are skipped.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

__all__ = ["N_STATE", "prpl_eb", "new_state"]

#: the state of one series: count, sum of x, sum of squared deviations from the regularised mean,
#: sum of lambdas, sum of lambda x, sums of v psi for the lower and the upper side
N_STATE = 7
_N, _SX, _SQ, _SL, _SLX, _SLO, _SHI = range(7)


@nb.njit(cache=True, nogil=True, error_model="numpy")
def prpl_eb(x, state, ck, log_a, trunc, lower, upper):
    """The band of every series ``x (L, T)`` (NaN: not a member) at the checkpoint indices ``ck (C,)``.

    ``state (L, N_STATE)`` is read and updated; ``log_a = log(2 / alpha)``; ``trunc = c``;
    ``lower`` / ``upper`` ``(L, C)`` receive the band ([0, 1] before the first member).
    """
    L, T = x.shape
    for l in range(L):
        st = state[l]
        n, sx, sq, sl, slx, slo, shi = st[_N], st[_SX], st[_SQ], st[_SL], st[_SLX], st[_SLO], st[_SHI]
        ci = 0
        for t in range(T):
            v = x[l, t]
            if v == v:
                i = n + 1.0
                lam = math.sqrt(2.0 * log_a / (i * math.log(1.0 + i) * ((0.25 + sq) / i)))
                if lam > trunc:
                    lam = trunc
                if lam != lam:
                    lam = 0.0
                m_lo = sx / n if n > 0.0 else 0.0
                m_hi = 1.0 - m_lo if n > 0.0 else 0.0
                psi = -math.log1p(-lam) - lam
                slo += (v - m_lo) * (v - m_lo) * psi
                shi += ((1.0 - v) - m_hi) * ((1.0 - v) - m_hi) * psi
                sl += lam
                slx += lam * v
                sx += v
                mu = (0.5 + sx) / (i + 1.0)
                sq += (v - mu) * (v - mu)
                n = i
            while ci < ck.shape[0] and ck[ci] == t:
                if sl > 0.0:
                    centre = slx / sl
                    lower[l, ci] = max(centre - (log_a + slo) / sl, 0.0)
                    upper[l, ci] = min(centre + (log_a + shi) / sl, 1.0)
                else:
                    lower[l, ci] = 0.0
                    upper[l, ci] = 1.0
                ci += 1
        st[_N], st[_SX], st[_SQ], st[_SL], st[_SLX], st[_SLO], st[_SHI] = n, sx, sq, sl, slx, slo, shi


def new_state(L: int) -> np.ndarray:
    """The state of ``L`` series before any value."""
    return np.zeros((L, N_STATE))
