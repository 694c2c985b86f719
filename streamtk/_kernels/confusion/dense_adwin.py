"""The dense two-class kernel's ADWIN windows (:mod:`.dense`): a kernel of its own, compiled only for ``adwin=``.

Block by block, each estimator's ADWIN (:func:`streamtk._kernels.adwin.adwin_run_one`) takes the
block's 0/1 losses and gives the widths its window follows; the window then runs on six integer
counts, bit-identical to :func:`.streamtk.slide`. Arguments as in :func:`.dense.run`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..adwin.run import adwin_run_one
from .dense import BLOCK, HIT, PAD, PH, YHIT, Y, _fill, _store_sliding, _write_binary
from .layout import P_HELD, P_TAIL, S_BMH, S_BPH, S_C, V_DIAG, V_OFFROW
from .streamtk import pop_segment


@nb.njit(cache=True, error_model="numpy")
def _adwin(limits, lim0, series, buf, b0, b1, base, est, majh, seg, ck, ci, snap, cvl):
    """An ADWIN window over a block: add each member, then the oldest leave while more than its width are held.

    The operations of :func:`.streamtk.slide` on a dense stream, on six integer counts (members,
    hits, class-1 members, class-1 hits, Majority-Class and Persistent hits): every sum is an
    exact integer, so the result is bit-identical. Leaving members are read back from the
    inputs (``series = (ytrue, yp, perhit)``) and their stored Majority hits ``majh``; the
    compressed members of earlier chunks leave through :func:`.streamtk.pop_segment`.
    """
    ytrue, yp, perhit = series
    sc, cv, pt = est
    held = pt[P_HELD]
    tail = pt[P_TAIL] - base
    C = sc[S_C]
    BMH = sc[S_BMH]
    BPH = sc[S_BPH]
    D1 = cv[V_DIAG, 1]
    Y1 = D1 + cv[V_OFFROW, 1]
    nck = ck.shape[0]
    for t in range(b0, b1):
        i = t - b0
        y = buf[Y, i]
        best = 1.0 if Y1 > held - Y1 else 0.0  # the majority of the window before t
        mh = 1.0 - abs(best - y)
        majh[t] = np.uint8(mh)
        C += buf[HIT, i]
        Y1 += y
        D1 += buf[YHIT, i]
        BMH += mh
        BPH += buf[PH, i]
        held += 1
        lim = limits[t - lim0]
        while held > lim:
            if tail < 0:  # compressed members of earlier chunks leave as whole segments
                _store_sliding(sc, cv, pt, tail + base, held, C, Y1, D1, BMH, BPH)
                tail, held, _ = pop_segment(seg, sc, cv, tail, held)
                C = sc[S_C]
                BMH = sc[S_BMH]
                BPH = sc[S_BPH]
                D1 = cv[V_DIAG, 1]
                Y1 = D1 + cv[V_OFFROW, 1]
                continue
            yr = float(ytrue[tail])
            hr = 1.0 - abs(yr - float(yp[tail]))
            C -= hr
            Y1 -= yr
            D1 -= yr * hr
            BMH -= float(majh[tail])
            BPH -= float(perhit[tail])
            held -= 1
            tail += 1
        while ci < nck and ck[ci] == t:
            n = float(held)
            M, O1 = n - C, Y1 - D1
            _write_binary(snap, ci, C, M, BMH, n - BMH, BPH, n - BPH, n, 1.0, C - D1, D1, M - O1, O1)
            ci += 1
    _store_sliding(sc, cv, pt, tail + base, held, C, Y1, D1, BMH, BPH)
    return ci


@nb.njit(cache=True, nogil=True, error_model="numpy")
def run_adwin(inputs, mech, state, segments, adwin, span, which, ck, snap):
    """The ADWIN estimators ``which`` of every series of a dense two-class chunk over ``[t_begin, T)``.

    A kernel of its own, compiled only when ``adwin=`` is asked. Block by block, each estimator's
    ADWIN (:func:`streamtk._kernels.adwin.adwin_run_one`) takes the block's 0/1 losses and gives the
    widths its window follows (fed block after block, an ADWIN equals one run on the whole stream;
    the losses and widths stay in cache). ``mech = (hslot, aslot)``; ``segments`` as in
    :func:`.streamtk.run`; ``adwin = (states, deltas, (clock, min_window, bound))``: the ADWIN state
    arrays with leading dims ``(L, EA)`` (see :class:`streamtk._core.adwin.LossAdwins`)
    and each slot's delta; other arguments as in :func:`run`.
    """
    ytrue, ypred, perhit = inputs
    hslot, aslot = mech
    sc, cv, pt, majhit = state
    seg_pay, seg_mem, seg_span, seg_head = segments
    a_state, deltas, options = adwin
    clock, min_window, bound = options
    base, t_begin = span
    L = ypred.shape[0]
    T = ytrue.shape[0]
    cvl = np.zeros((6, 2))
    buf = np.empty((4, BLOCK + PAD))
    loss = np.empty(BLOCK)
    widths = np.empty(BLOCK, dtype=np.int64)
    none_f = np.empty(0)
    none_i = np.empty(0, dtype=np.int8)
    for l in range(L):
        yp = ypred[l]
        series = (ytrue, yp, perhit)
        ci0 = np.int64(0)
        for b0 in range(t_begin, T, BLOCK):
            b1 = min(T, b0 + BLOCK)
            nb_ = b1 - b0
            _fill(buf, ytrue, yp, perhit, b0, b1)
            for i in range(nb_):
                loss[i] = 1.0 - buf[HIT, i]
            ci1 = ci0
            for e in which:
                a = aslot[e]
                st = (a_state[0][l, a], a_state[1][l, a], a_state[2][l, a], a_state[3][l, a], a_state[4][l, a])
                params = (deltas[a], clock, min_window, bound)
                adwin_run_one(loss[:nb_], st, params, (widths[:nb_], none_f, none_f, none_i))
                seg = (seg_pay[l, a], seg_mem[l, a], seg_span[l, a], seg_head[l, a : a + 1])
                est = (sc[l, e], cv[l, e], pt[l, e])
                ci1 = _adwin(
                    widths, b0, series, buf, b0, b1, base, est, majhit[l, hslot[e]], seg, ck, ci0, snap[l, e], cvl
                )
            ci0 = ci1
