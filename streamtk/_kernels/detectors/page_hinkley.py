"""Page-Hinkley over recorded streams: the one driver, a grid of settings in one pass per row.

Per row and block of :data:`BLOCK` inputs: every monitored quantity is computed once
(:func:`.monitored.estimate_block`, ratios :func:`.monitored.ratio_block`), then every test runs over
the block with its state in registers (:func:`.ph_test.test_steps`): each group's shared test, then
the private tests of the settings that restarts separated from their group. Two fast paths, chosen
by the numpy layer and compiled only when given (numba prunes the code of an argument that is
``None``): ``rawlanes`` runs the separated private tests of a quantity side by side on SIMD lanes
(:func:`.ph_lanes.rawlanes_block`), ``xlanes`` runs every setting as a lane with its own estimate
(:func:`.ph_lanes.xlanes_row`). Per-step outputs are written only when ``tr`` is given.

Arguments (grouped):

``data = (xx, h)``
    ``xx (L, h + m)``: ``h`` carried inputs of the previous chunk (at least the longest window, or
    all inputs seen if fewer), then the ``m`` inputs of this chunk.
``mon = (kinds, sizes, fading, marks, mark_off, ratios)``
    the base estimators (:mod:`streamtk._kernels.forgetting` codes, or ``RAW``; as
    :func:`streamtk._core.mechanisms.kernel_arrays` gives them) and the ratios ``(R, 2)`` (long,
    short) of two of them: monitored row ``e < E`` is estimator ``e``, row ``E + i`` ratio ``i``.
``sets``, ``flags``, ``rec``
    as in :mod:`.ph_test` (``flags = (count0, reset)``: the absolute index of the chunk's first input).
``form = (moa, up, down)``
    the convention and the side(s) tested, each ``True`` or ``None`` (:mod:`.ph_test`): compile-time
    constants by their types (each form is compiled when it is first used).
``state = (est_f (L, E, 3), est_i (L, E, 1), ph (L, G + P, 6), in_sync (L, P))``
    carried across chunks, updated in place.
``tr = (stat_out (L, P, m), det_out (L, P, m), mon_out (L, O, m), out_rows (O,))`` or ``None``
    per-step statistic, detection and the monitored rows ``out_rows`` (``O = 0``: none).
``xlanes``, ``rawlanes``
    ``None``, or the tables of :func:`.ph_lanes.xlanes_row` / ``(wk (LANES * LANE_ROWS,), minimum
    number of separated settings per quantity that take the lanes)``.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .monitored import estimate_block, ratio_block
from .ph_lanes import BLOCK, LANES, rawlanes_block, xlanes_row
from .ph_test import test_steps

__all__ = ["BLOCK", "run"]


@numba.njit(cache=True, inline="always")
def _finite(v, nb):
    for jj in range(nb):
        if not math.isfinite(v[jj]):
            return False
    return True


@numba.njit(cache=True, error_model="numpy")
def _separated_on_lanes(r, j0, nb, vals, rawlanes, sets, flags, tests, rec, form):
    """Separated private tests (in place since the block's start) of each quantity on raw lanes when
    there are enough of them; marks those done (``start[q] = -1``)."""
    wk, min_lanes = rawlanes
    sest = sets[0]
    in_sync, start = tests[1], tests[2]
    P = sest.shape[0]
    qs = np.empty(P, np.int64)
    for e in range(vals.shape[0]):
        nq = 0
        for q in range(P):
            if sest[q] == e and not in_sync[r, q] and start[q] == 0:
                qs[nq] = q
                nq += 1
        if nq < min_lanes or not _finite(vals[e], nb):
            continue
        for k0 in range(0, nq, LANES):
            k1 = min(nq, k0 + LANES)
            rawlanes_block(r, qs[k0:k1], vals[e], j0, nb, wk, sets, flags, tests, rec, form)
        for k in range(nq):
            start[qs[k]] = -1


@numba.njit(cache=True, nogil=True, error_model="numpy")
def run(data, mon, sets, flags, state, rec, tr, xlanes, rawlanes, form):
    """Page-Hinkley settings over every row of ``data`` (module docstring); releases the GIL."""
    xx, h = data
    kinds, sizes, fading, marks, mark_off, ratios = mon
    est_f, est_i, ph, in_sync = state
    sest, gstart, gmembers = sets[0], sets[5], sets[6]
    count0 = flags[0]
    L = xx.shape[0]
    m = xx.shape[1] - h
    E = kinds.shape[0]
    R = ratios.shape[0]
    P = sest.shape[0]
    G = gstart.shape[0] - 1
    zero = np.int64(0)  # not a literal: test_steps compiles once for both call sites
    for r in range(L):
        xrow = xx[r]
        start = np.zeros(P, np.int64)
        tests = (ph, in_sync, start)
        if xlanes is not None:
            xlanes_row(r, xrow, h, m, xlanes, sets, flags, tests, rec, tr, form)
            continue
        vals = np.empty((E + R, BLOCK))
        for j0 in range(0, m, BLOCK):
            nb = min(BLOCK, m - j0)
            for e in range(E):
                estimate_block(kinds[e], sizes[e], fading[e], marks[mark_off[e] : mark_off[e + 1]], xrow, h, count0,
                               j0, nb, est_f[r, e], est_i[r, e], vals[e])  # fmt: skip
            for i in range(R):
                ratio_block(vals[ratios[i, 0]], vals[ratios[i, 1]], nb, vals[E + i])
            if tr is not None:
                out_rows = tr[3]
                for i in range(out_rows.shape[0]):
                    for jj in range(nb):
                        tr[2][r, i, j0 + jj] = vals[out_rows[i], jj]
            for g in range(G):
                for k in range(gstart[g], gstart[g + 1]):
                    if in_sync[r, gmembers[k]]:
                        test_steps(r, g, vals[sest[gmembers[k]]], zero, nb, j0, sets, flags, tests, rec, tr, form)
                        break
            if rawlanes is not None:
                _separated_on_lanes(r, j0, nb, vals, rawlanes, sets, flags, tests, rec, form)
            for q in range(P):
                if not in_sync[r, q] and start[q] >= 0:
                    test_steps(r, G + q, vals[sest[q]], start[q], nb, j0, sets, flags, tests, rec, tr, form)
                start[q] = 0
