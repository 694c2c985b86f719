"""The confusion family under ``convention="moa"``: MOA's evaluators bit for bit.

MOA's ``BasicClassificationPerformanceEvaluator`` and its ``Window`` / ``FadingFactor``
subclasses (DESIGN.md section 4) keep one estimator per quantity, each a sum over its own
members: *evaluation* sums (weighted hits ``C``, true-class weights ``ROW_i`` -- MOA's
``columnKappa`` --, predicted-class weights ``COL_i`` -- ``rowKappa``) take the instances of
positive weight; *baseline* sums (Persistent hits ``BP``, Majority hits ``BM``) take every
instance with a label, weight 0 included. Estimates are sums divided by the number of members
(not their weight). The Majority Class is MOA's (:func:`~streamtk._kernels.baselines.moa_majority`,
the current label included). The window estimator subtracts the value that leaves before it adds
the new one, ``S = (S - forget) + value``; the fading estimator fades every sum at every member,
``S = alpha S + value``. Those operations are done here in MOA's order, so the sums are MOA's
doubles, for any non-negative weights.

State slots (the arrays of :mod:`.layout`, read with MOA's meaning): ``S_C`` hits, ``S_M`` weight
total, ``S_NF`` members, ``S_BMH`` Majority hits, ``S_BPH`` Persistent hits, ``S_BMM`` baseline
members; ``V_DIAG`` hits by class (for streamtk's per-class metrics), ``V_OFFROW`` = ROW,
``V_OFFCOL`` = COL; ``P_TAIL`` / ``P_HELD`` and ``P_TAIL_BASE`` / ``P_HELD_BASE`` the two windows.

MOA's ``EWMAClassificationPerformanceEvaluator`` (``ewma=a``; the ``fading`` array holds ``a`` itself here)
replaces every estimator by ``S = S + a (value - S)``, starting at 0, and reads ``S`` itself: its estimates
are *unnormalised* (their weights ``a (1 - a)**age`` sum to ``1 - (1 - a)**n``, below 1 at the start), the
denominators are 1 (``S_NF`` holds the same average of the member indicator, MOA has no such estimator). Each
instance moves every estimator, so an instance of weight 0 with a label decays the baselines' estimates. MOA
feeds its per-class precision (recall) estimators ``NaN`` for an instance predicted (labelled) as another
class, which an EWMA keeps forever: ``V_DIAG`` becomes NaN from the first instance whose label or prediction
is another class, so precision, recall and the class F1 are NaN from then on (MOA's behaviour).
A weight of ``-1`` marks an instance MOA never sees (before its first instance of positive weight,
when MOA resets the evaluator); a missing prediction counts as weight 0.
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np

from ..baselines import moa_majority, persistent_hit
from ..forgetting import EWMA, FADING, is_sliding
from .layout import (
    F_BM,
    F_BMW,
    F_BP,
    F_BPW,
    F_C,
    F_DEN,
    F_EMPTY,
    F_N,
    F_Q,
    F_W,
    P_HELD,
    P_HELD_BASE,
    P_TAIL,
    P_TAIL_BASE,
    S_BMH,
    S_BMM,
    S_BPH,
    S_C,
    S_M,
    S_NF,
    S_Q,
    V_DIAG,
    V_OFFCOL,
    V_OFFROW,
)
from .streamtk import BLOCK


@nb.njit(cache=True)
def write_snapshot(out, ci, sc, cv, nq, k, empty, unit):
    """Column ``ci`` of a snapshot block ``out (F, C)`` of a MOA state: estimates divide by the number of
    members (by 1 when ``unit``: the EWMA's estimates are its sums); ``empty`` is the evaluator's estimate
    before anything was observed."""
    out[F_W, ci] = sc[S_M]
    out[F_N, ci] = sc[S_NF]
    out[F_DEN, ci] = 1.0 if unit else sc[S_NF]
    out[F_C, ci] = sc[S_C]
    out[F_BM, ci] = sc[S_BMH]
    out[F_BMW, ci] = 1.0 if unit else sc[S_BMM]
    out[F_BP, ci] = sc[S_BPH]
    out[F_BPW, ci] = 1.0 if unit else sc[S_BMM]
    out[F_EMPTY, ci] = empty
    for j in range(nq):
        out[F_Q + j, ci] = sc[S_Q + j]
    r0 = F_Q + nq
    for c in range(k):
        out[r0 + c, ci] = cv[V_OFFROW, c]
        out[r0 + k + c, ci] = cv[V_OFFCOL, c]
        out[r0 + 2 * k + c, ci] = cv[V_DIAG, c]


@nb.njit(cache=True, inline="always")
def _eval_value(sc, cv, nq, ql, y, p, w, r, sign):
    """Add (``sign = 1``) or forget (``sign = -1``) one evaluated instance's values, MOA's way."""
    g = sign * w
    h = g if y == p else 0.0
    sc[S_C] += h
    sc[S_M] += g
    cv[V_OFFROW, y] += g
    cv[V_OFFCOL, p] += g
    cv[V_DIAG, y] += h
    for j in range(nq):
        sc[S_Q + j] += g * ql[j, r]


@nb.njit(cache=True, inline="always")
def _ewma_value(sc, cv, nq, ql, y, p, w, r, a):
    """One evaluated instance into MOA's EWMA estimators (``S += a (value - S)``, every class's estimators)."""
    h = w if y == p else 0.0
    sc[S_C] += a * (h - sc[S_C])
    sc[S_M] += a * (w - sc[S_M])
    sc[S_NF] += a * (1.0 - sc[S_NF])
    for c in range(cv.shape[1]):
        cv[V_OFFROW, c] += a * ((w if y == c else 0.0) - cv[V_OFFROW, c])
        cv[V_OFFCOL, c] += a * ((w if p == c else 0.0) - cv[V_OFFCOL, c])
        cv[V_DIAG, c] += a * ((h if (y == c and p == c) else np.nan) - cv[V_DIAG, c])
    for j in range(nq):
        sc[S_Q + j] += a * (w * ql[j, r] - sc[S_Q + j])


#: one estimator's mechanism: its kernel code, window size and fading factor
Mechanism = namedtuple("Mechanism", "kind size fade")
#: one series' inputs: labels and predictions (codes), weights (``has_w``: given), extra quantities ``(nq, T)``
#: and the Persistent classifier's hits
Series = namedtuple("Series", "ytrue yp wl has_w ql perhit")
#: positions ``[b0, b1)`` of the arrays, whose index 0 is absolute stream position ``base``
Block = namedtuple("Block", "b0 b1 base")
#: one estimator's state (:mod:`.layout`) and its materialised Majority hits
State = namedtuple("State", "sc cv pt majh")
#: the checkpoint indices, the next one to write, and the estimator's snapshot block ``(F, C)``
Out = namedtuple("Out", "ck ci snap")


@nb.njit(cache=True, error_model="numpy")
def block(mech, series, blk, est, out):
    """One estimator under MOA's conventions over ``[b0, b1)``; returns the next checkpoint.

    Arguments are named records (:data:`Mechanism`, :data:`Series`, :data:`Block`, :data:`State`,
    :data:`Out`); window tails are stored as absolute positions (``base`` + index).
    """
    kind, size, fade = mech
    ytrue, yp, wl, has_w, ql, perhit = series
    b0, b1, base = blk
    sc, cv, pt, majh = est
    ck, ci, snap = out
    nq = ql.shape[0]
    k = cv.shape[1]
    sliding = is_sliding(kind)
    fading = kind == FADING
    ewma = kind == EWMA
    nck = ck.shape[0]
    for t in range(b0, b1):
        y = ytrue[t]
        w = wl[t] if has_w else 1.0
        if y >= 0 and w >= 0.0:
            p = yp[t]
            if w > 0.0 and p >= 0 and ewma:
                _ewma_value(sc, cv, nq, ql, y, p, w, t, fade)
            elif w > 0.0 and p >= 0:
                if sliding:
                    if pt[P_HELD] == size:  # MOA's ring: the oldest value is forgotten first
                        r = pt[P_TAIL] - base
                        while not (ytrue[r] >= 0 and yp[r] >= 0 and (wl[r] if has_w else 1.0) > 0.0):
                            r += 1
                        _eval_value(sc, cv, nq, ql, ytrue[r], yp[r], wl[r] if has_w else 1.0, r, -1.0)
                        pt[P_TAIL] = r + 1 + base
                    else:
                        pt[P_HELD] += 1
                    sc[S_NF] = float(pt[P_HELD])
                elif fading:
                    sc[S_C] *= fade
                    sc[S_M] *= fade
                    sc[S_NF] = fade * sc[S_NF] + 1.0
                    for j in range(nq):
                        sc[S_Q + j] *= fade
                    for c in range(k):
                        cv[V_OFFROW, c] *= fade
                        cv[V_OFFCOL, c] *= fade
                        cv[V_DIAG, c] *= fade
                else:
                    sc[S_NF] += 1.0
                _eval_value(sc, cv, nq, ql, y, p, w, t, 1.0)
            mh = 1.0 if moa_majority(cv[V_OFFROW], k, 1.0 if ewma else sc[S_NF]) == y else 0.0
            majh[t] = np.uint8(mh)
            ph = perhit[t]
            if sliding:
                if pt[P_HELD_BASE] == size:
                    r = pt[P_TAIL_BASE] - base
                    while not (ytrue[r] >= 0 and (wl[r] if has_w else 1.0) >= 0.0):
                        r += 1
                    wr = wl[r] if has_w else 1.0
                    sc[S_BMH] -= wr * majh[r]
                    sc[S_BPH] -= wr * perhit[r]
                    pt[P_TAIL_BASE] = r + 1 + base
                else:
                    pt[P_HELD_BASE] += 1
                sc[S_BMH] += w * mh
                sc[S_BPH] += w * ph
                sc[S_BMM] = float(pt[P_HELD_BASE])
            elif ewma:
                sc[S_BMH] += fade * (w * mh - sc[S_BMH])
                sc[S_BPH] += fade * (w * ph - sc[S_BPH])
                sc[S_BMM] = 1.0
            elif fading:
                sc[S_BMH] = fade * sc[S_BMH] + w * mh
                sc[S_BPH] = fade * sc[S_BPH] + w * ph
                sc[S_BMM] = fade * sc[S_BMM] + 1.0
            else:
                sc[S_BMH] += w * mh
                sc[S_BPH] += w * ph
                sc[S_BMM] += 1.0
        while ci < nck and ck[ci] == t:
            write_snapshot(snap, ci, sc, cv, nq, k, 0.0 if (fading or ewma) else np.nan, ewma)
            ci += 1
    return ci


@nb.njit(cache=True, nogil=True, error_model="numpy")
def run(inputs, mech, state, span, which, ck, snap):
    """The estimators ``which`` (prequential, windows, fading) of every series under MOA's conventions.

    ``inputs = (ytrue, ypred, weights, quantities)``, ``mech = (kinds, sizes, fading, hslot)``,
    ``state = (sc, cv, pt, prev (L,), perhit (L, T), majhit (L, H, T))``, ``span = (base, t_begin)``.
    """
    ytrue, ypred, weights, quantities = inputs
    kinds, sizes, fading, hslot = mech
    sc, cv, pt, prev, perhit, majhit = state
    base, t_begin = span
    L = ypred.shape[0]
    T = ytrue.shape[0]
    has_w = weights.shape[1] > 0
    scratch = np.zeros((1, T), dtype=np.uint8)
    for l in range(L):
        wl = weights[l]
        ph = perhit[l]
        ci0 = np.int64(0)
        for b0 in range(t_begin, T, BLOCK):
            b1 = min(T, b0 + BLOCK)
            pv = prev[l]
            for t in range(b0, b1):  # MOA's lastSeenClass: every labelled instance MOA sees
                y = ytrue[t]
                if y >= 0 and (wl[t] >= 0.0 if has_w else True):
                    h, pv = persistent_hit(pv, y)
                    ph[t] = np.uint8(h)
            prev[l] = pv
            ci1 = ci0
            for e in which:
                s = hslot[e]
                mh = majhit[l, s] if s >= 0 else scratch[0]
                ci1 = block(
                    Mechanism(kinds[e], sizes[e], fading[e]),
                    Series(ytrue, ypred[l], wl, has_w, quantities[l], ph),
                    Block(b0, b1, base),
                    State(sc[l, e], cv[l, e], pt[l, e], mh),
                    Out(ck, ci0, snap[l, e]),
                )
            ci0 = ci1
