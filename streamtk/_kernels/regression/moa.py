"""MOA's regression and prediction-interval evaluators (``convention="moa"``), operation for operation.

``REG``: MOA's ``BasicRegressionPerformanceEvaluator`` (prequential) and ``WindowRegressionPerformanceEvaluator``
(window of ``w``). Per member (weight > 0): the error ``d = y - p`` enters *unweighted* sums of ``d**2`` and
``|d|``; the running-mean predictor's error ``y - mt`` enters sums of its square and absolute value, with
``mt = ST / W`` (``ST`` the unweighted sum of the targets before, ``W`` the weight): 0 at the first member;
the instance weight enters only ``W``. The window evaluator keeps one ring of ``w`` values per quantity,
``S = (S - old) + new`` (the value that leaves is subtracted before the new one is added, 0 while the ring
fills); its weight ring is added *before* ``mt`` is read, so ``mt`` divides the targets of the ``w`` members
before by the weights of the ``w`` members up to the current one; its total weight (adjusted R^2, "classified
instances") is the cumulative one. MOA's multi-target ``BasicMultiTargetPerformanceRelativeMeasuresEvaluator``
(``incl``) adds the weight and the target *first*: its ``mt`` includes the current target.

``INT``: MOA's ``BasicPredictionIntervalEvaluator`` as capymoa's ``PredictionIntervalEvaluator`` drives it (no
``reset()``: the truth maximum and minimum start at 0) and ``WindowPredictionIntervalEvaluator`` (its rings of
lower bounds, upper bounds, coverage indicators and targets; its maximum and minimum scan the whole ring, empty
slots (0) included, from ``Double.MIN_VALUE`` and ``Double.MAX_VALUE``). Counts are unweighted.

Snapshot rows: :data:`.layout.M_W` ... (``REG``), :data:`.layout.M_COVER` ... (``INT``). The arguments are those
of :func:`.kernel.run` (the window's ``mt`` are materialised in ``st.bm``, its target maxima in the deques).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..forgetting import WINDOW
from .layout import (
    M_AE,
    M_ATE,
    M_COVER,
    M_DEN,
    M_HELD,
    M_SE,
    M_SEEN,
    M_STE,
    M_TW,
    M_W,
    M_WIDTH,
    M_WINDOW,
    M_YMAX,
    M_YMIN,
    REG,
)
from .order import dq_leave, dq_max, dq_push

# float state: REG: W, TW, SE, AE, STE, ATE, ST, seen; INT: cover, upper sum, lower sum, count, ymax, ymin, W, TW
A_W, A_TW, A_SE, A_AE, A_STE, A_ATE, A_ST, A_SEEN = 0, 1, 2, 3, 4, 5, 6, 7
B_COVER, B_UP, B_LO, B_COUNT, B_YMAX, B_YMIN, B_WIDTH = 0, 1, 2, 3, 4, 5, 6
N_STATE = 8
# int state: window tail, members held, deque heads and lengths (y, -y)
I_TAIL, I_HELD, I_DQ = 0, 1, 2
MIN_VALUE = 5e-324
MAX_VALUE = 1.7976931348623157e308


@nb.njit(cache=True, inline="always")
def _ring(s, old, new):
    """MOA's ring sum: the value that leaves first, then the new one."""
    return (s - old) + new


@nb.njit(cache=True, error_model="numpy")
def block(kind, size, inp, l, e, h, incl, st, blk, out):
    """One estimator (prequential or a window of ``size``) of series ``l`` over ``[b0, b1)``; the next checkpoint."""
    ys, ps, trow, wts, mem, rk, fam, par = inp
    b0, b1, base = blk
    ck, ci, snap = out
    sf = st.sf[l, e]
    si = st.si[l, e]
    window = kind == WINDOW
    bml = st.bm[l, max(h, 0)]
    dqv = st.dqv[l, max(h, 0)]
    dqp = st.dqp[l, max(h, 0)]
    yl = ys[trow[l]]
    pc = ps[l]
    wl = wts[l]
    ml = mem[l]
    has_w = wl.shape[0] > 0
    dense = ml.shape[0] == 0
    tail = si[I_TAIL] - base
    held = si[I_HELD]
    snapl = snap[e]
    nck = ck.shape[0]
    for t in range(b0, b1):
        if dense or ml[t]:
            w = wl[t] if has_w else 1.0
            y = yl[t]
            full = window and held == size
            r = tail
            if full:
                while not (dense or ml[r]):
                    r += 1
            if fam == REG:
                d = y - pc[0, t]
                if window:
                    sf[A_TW] += w
                    wo = (wl[r] if has_w else 1.0) if full else 0.0
                    sf[A_W] = _ring(sf[A_W], wo, w)
                    mt = sf[A_ST] / sf[A_W] if sf[A_W] != 0.0 else 0.0
                    bml[t] = mt
                    if full:
                        do = yl[r] - pc[0, r]
                        to = yl[r] - bml[r]
                        so, ao, teo, tao, yo = do * do, abs(do), to * to, abs(to), yl[r]
                    else:
                        so = ao = teo = tao = yo = 0.0
                    dt = y - mt
                    sf[A_SE] = _ring(sf[A_SE], so, d * d)
                    sf[A_STE] = _ring(sf[A_STE], teo, dt * dt)
                    sf[A_ST] = _ring(sf[A_ST], yo, y)
                    sf[A_ATE] = _ring(sf[A_ATE], tao, abs(dt))
                    sf[A_AE] = _ring(sf[A_AE], ao, abs(d))
                else:
                    if incl:  # the multi-target relative evaluator: weight and target first
                        sf[A_W] += w
                        sf[A_ST] += y
                        mt = sf[A_ST] / sf[A_W]
                    else:
                        mt = sf[A_ST] / sf[A_W] if sf[A_W] != 0.0 else 0.0
                    dt = y - mt
                    sf[A_SE] += d * d
                    sf[A_AE] += abs(d)
                    sf[A_STE] += dt * dt
                    sf[A_ATE] += abs(dt)
                    if not incl:
                        sf[A_ST] += y
                        sf[A_W] += w
                    sf[A_TW] = sf[A_W]
                sf[A_SEEN] = 1.0
            else:
                lo = pc[0, t]
                up = pc[1, t]
                inside = 1.0 if (y >= lo and y <= up) else 0.0
                if window:
                    if full:
                        lo_o, up_o = pc[0, r], pc[1, r]
                        c_o = 1.0 if (yl[r] >= lo_o and yl[r] <= up_o) else 0.0
                    else:
                        lo_o = up_o = c_o = 0.0
                    sf[B_LO] = _ring(sf[B_LO], lo_o, lo)
                    sf[B_UP] = _ring(sf[B_UP], up_o, up)
                    sf[B_COVER] = _ring(sf[B_COVER], c_o, inside)
                    for j in range(2):
                        hl = (si[I_DQ + 2 * j], si[I_DQ + 2 * j + 1])
                        if full:
                            hl = dq_leave(dqp[j], hl, base + r)
                        si[I_DQ + 2 * j], si[I_DQ + 2 * j + 1] = dq_push(
                            dqv[j], dqp[j], hl, base + t, y if j == 0 else -y
                        )
                else:
                    sf[B_COUNT] += 1.0
                    sf[B_COVER] += inside
                    if y > sf[B_YMAX]:
                        sf[B_YMAX] = y
                    if y < sf[B_YMIN]:
                        sf[B_YMIN] = y
                    sf[B_WIDTH] += up - lo
            if full:
                tail = r + 1
            elif window:
                held += 1
        while ci < nck and ck[ci] == t:
            o = snapl
            if fam == REG:
                o[M_W, ci] = sf[A_W]
                o[M_TW, ci] = sf[A_TW]
                o[M_SE, ci] = sf[A_SE]
                o[M_AE, ci] = sf[A_AE]
                o[M_STE, ci] = sf[A_STE]
                o[M_ATE, ci] = sf[A_ATE]
                o[M_SEEN, ci] = sf[A_SEEN]
            elif window:
                o[M_COVER, ci] = sf[B_COVER]
                o[M_WIDTH, ci] = sf[B_UP] - sf[B_LO]
                o[M_DEN, ci] = float(size)
                empty = 0.0 if held < size else -np.inf  # MOA scans the empty slots (0) too
                ymax = max(dq_max(dqv[0], (si[I_DQ], si[I_DQ + 1])), empty) if held > 0 else 0.0
                ymin = -max(dq_max(dqv[1], (si[I_DQ + 2], si[I_DQ + 3])), empty) if held > 0 else 0.0
                o[M_YMAX, ci] = max(MIN_VALUE, ymax)
                o[M_YMIN, ci] = min(MAX_VALUE, ymin)
                o[M_WINDOW, ci] = 1.0
                o[M_HELD, ci] = float(held)
            else:
                o[M_COVER, ci] = sf[B_COVER]
                o[M_WIDTH, ci] = sf[B_WIDTH]
                o[M_DEN, ci] = sf[B_COUNT]
                o[M_YMAX, ci] = sf[B_YMAX]
                o[M_YMIN, ci] = sf[B_YMIN]
                o[M_WINDOW, ci] = 0.0
                o[M_HELD, ci] = sf[B_COUNT]
            ci += 1
    si[I_TAIL] = tail + base
    si[I_HELD] = held
    return ci


@nb.njit(cache=True, nogil=True, error_model="numpy")
def run(inp, e, mech, st, span, nt, incl, ck, snap):
    """Estimator ``e`` (``mech = (kind, size, h)``: prequential or a window of ``size``, its sliding slot ``h``) of
    every series under MOA's conventions over ``[t_begin, T)`` (``snap (M, E, nt * F, C)`` as in
    :func:`.kernel.run_accumulator`)."""
    kind, size, h = mech
    base, t_begin = span
    T = inp.ps.shape[2]
    F = snap.shape[2] // nt
    for l in range(inp.ps.shape[0]):
        r0 = (l % nt) * F
        block(kind, size, inp, l, e, h, incl, st, (t_begin, T, base), (ck, np.int64(0), snap[l // nt, :, r0 : r0 + F]))
