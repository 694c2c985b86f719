"""Exact U statistics over ADWIN windows (the window is driven by given widths).

The same monotone-window scheme as the engine: after evaluated instance ``t`` the
window holds the last ``widths[t]`` evaluated instances; leaving instances are
removed with :func:`streamtk._kernels.auc.auc_add` (``sign = -1``), read from the
recorded arrays at their index. The state layout is the general one of
:mod:`streamtk._kernels.auc` (``C`` score columns, ``G`` groups), so the same kernel
gives binary AUC (``C = 1``, ``G = 2``), one-vs-rest per class (``C = k``, ``G = 2``)
and pairwise AUC (``C = k``, ``G = k``) over the ADWIN window, ``O(C G log D)`` per
instance and per removal. The state is carried across calls (chunks).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .auc import auc_add, auc_value


@nb.njit(cache=True)
def _adwin_lead(rl, yl, wl, widths, grp, pos_group, unit, t0, t1, cps, tree, W, N, U, ist, out_U, out_W, out_N):
    ncp = cps.shape[0]
    k = 0
    tail = ist[0]
    held = ist[1]
    for t in range(t0, t1):
        if yl[t] >= 0 and wl[t] > 0.0:
            g = 1.0 if unit else wl[t]
            auc_add(tree, W, N, U, grp, pos_group, rl[t], yl[t], g, 1.0)
            held += 1
            while held > widths[t - t0]:
                j = tail
                while not (yl[j] >= 0 and wl[j] > 0.0):
                    j += 1
                gj = 1.0 if unit else wl[j]
                auc_add(tree, W, N, U, grp, pos_group, rl[j], yl[j], gj, -1.0)
                tail = j + 1
                held -= 1
        if k < ncp and cps[k] == t:
            auc_value(W, N, U, 1.0, out_U[k], out_W[k], out_N[k])
            k += 1
    ist[0] = tail
    ist[1] = held


@nb.njit(cache=True, parallel=True)
def adwin_auc_run(ranks, y, w, widths, grp, pos_group, unit, t0, t1, cps, tree, W, N, U, istate, out_U, out_W, out_N):
    """U statistics over each lead's ADWIN window for instances ``t0 <= t < t1``.

    Parameters
    ----------
    ranks : int64 ``(L, m, C)`` positions of the scores in the key space of ``tree``.
    y : int64 ``(Ly, m)`` class codes (``-1`` missing); ``w`` float64 ``(Lw, m)`` weights
        (``0`` = not evaluated); ``Ly``, ``Lw`` are 1 (shared) or ``L``.
    widths : int64 ``(L, t1 - t0)`` the ADWIN width after each instance of
        ``t0 .. t1 - 1`` (read at evaluated instances only).
    grp, pos_group, unit : as :func:`streamtk._kernels.auc.auc_run`.
    cps : int64 sorted indices in ``[t0, t1)`` of the rows to write.
    tree ``(L, 1, C, G, D + 1)``, W, N, U ``(L, 1, C, G)``, istate int64 ``(L, 1, 2)`` =
        (index of the oldest instance that may still be held, number held): the state.
    out_U, out_W, out_N : ``(L, 1, T, C, G)``.
    """
    L = ranks.shape[0]
    Ly = y.shape[0]
    Lw = w.shape[0]
    for li in nb.prange(L):
        l = np.int64(li)
        ly = l if Ly > 1 else np.int64(0)
        lw = l if Lw > 1 else np.int64(0)
        _adwin_lead(
            ranks[l],
            y[ly],
            w[lw],
            widths[l],
            grp,
            pos_group,
            unit,
            t0,
            t1,
            cps,
            tree[l, 0],
            W[l, 0],
            N[l, 0],
            U[l, 0],
            istate[l, 0],
            out_U[l, 0],
            out_W[l, 0],
            out_N[l, 0],
        )
