"""Ranking statistics of the held instances at checkpoints: average precision, PR AUC, scored AUC, class weights.

Average precision and the area under the precision-recall curve are not sums over instances or pairs:
inserting one instance changes the precision at every threshold below its score, so no incremental
``O(log n)`` update is exact. At each checkpoint an estimator's held instances are swept once in
decreasing score (:func:`_step`: the distinct scores, ties together, as scikit-learn's thresholds):

* ``AP = sum_v p(v) P(v)`` (``p(v)``: the positive weight at score ``v``, ``P(v)`` the precision of
  ``q >= v``; :data:`SW_AP`, divided by ``W1`` in the formula: scikit-learn's ``average_precision_score``);
* ``PR = sum_v p(v) (P(v) + P(v_prev)) / 2`` (the trapezoidal area under the precision-recall curve from
  ``(recall 0, precision 1)``, scikit-learn's ``auc(recall, precision)``; :data:`SW_PR`);
* ``SAUC = sum_{i pos, j neg, q_i > q_j} w_i w_j (q_i - q_j)`` (the scored AUC of Wu et al. 2007, over
  ``W0 W1`` in the formula; :data:`SW_SAUC`);
* under MOA's convention, the three sums of MOA's ``getScoredAUC`` loop, instance by instance in MOA's
  order (positives before negatives at a tie), with MOA's arithmetic (:func:`_moa_step`).

Two ways to hold the instances, with the mechanism helpers of :mod:`streamtk._kernels.forgetting`:

* *points*: accumulators (prequential, fading, tumbling, landmarks) add each member's weight (times the
  lazy fading multiplier) and count to per-rank arrays ``hw``, ``hn`` over the accumulators' key space
  (the sorted distinct scores ``vals``); a checkpoint sweeps the ranks, ``O(D)``; a restart removes the
  held members one by one (counts reaching 0 set the weight to exactly 0) or clears the arrays;
* *members*: sliding windows (and a tumbling or landmark window holding few members) sort the scores of
  the members they hold (read back from the inputs) at a checkpoint, ``O(h log h)``; a sliding window whose
  scores take few distinct values (``Ds``) counts its members into per-rank scratch arrays over the dense
  ranks of the scores instead (:func:`sweep_ranked`, ``O(h + Ds)``), when that is cheaper.

Running class weights ``W`` and counts ``N`` per column and group (exact zero when a group's last member
leaves) are kept at every step, so ``pos_neg_ratio`` needs no sweep. Statistics are written in true units
(weights divided by the fading multiplier, pair sums by its square) into ``snap[l, e, N_SWEEP, C, ck]``.
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np

from ..forgetting import advance, fading_step, is_sliding, next_member, next_restart, sliding_limit
from .step import is_member, member_weight, tree_overdue

SW_W0, SW_W1, SW_N0, SW_N1, SW_AP, SW_PR, SW_SAUC, SW_MOA_AUC, SW_MOA_AOC, SW_MOA_R = range(10)
N_SWEEP = 10
TAIL, HELD, CURSOR = 0, 1, 2
#: running totals per column and group: weight (times the multiplier), count
TW, TN = 0, 1
#: MOA's initial "last score" (Double.MAX_VALUE)
_MOA_START = 1.7976931348623157e308

#: ``y (T,)`` group codes, ``member (L, T)`` / ``(L, 0)``, ``weights (L, T)`` / ``(L, 0)``, ``scores (L, T, C)`` the
#: raw scores, ``ranks (L, T, C)`` in the accumulators' key space (``(L, 0, C)`` without accumulators),
#: ``sranks (L, T, C)`` the dense ranks of the scores themselves and ``svals (L, C, Ds)`` their values (the
#: sliding windows' counting sort; ``(L, 0, C)`` / ``(L, C, 0)`` when not built)
Inputs = namedtuple("Inputs", "y member weights scores ranks sranks svals")
#: ``grp (C, K)`` the group of each class code per column (group 1: the column's positives), ``unit`` (MOA: weight
#: 1), ``sweep`` (compute the swept statistics), ``moa`` (MOA's scored AUC instead of streamtk's sums)
Groups = namedtuple("Groups", "grp unit sweep moa")
#: ``kinds sizes fading marks mark_off`` (kernel arrays), ``slot`` an accumulator's arrays in ``hw``/``hn``,
#: ``aslot`` its ADWIN in ``limits (L, EA, T - t_begin)``
Mechanisms = namedtuple("Mechanisms", "kinds sizes fading marks mark_off slot aslot limits")
#: ``tot (L, E, C, 2, 2)`` running W (scaled) and N per column and group, ``scale (L, E)``, ``ptr (L, E, 3)``,
#: ``hw (L, EA, C, 2, D)`` / ``hn`` (int64) per-rank weights and counts, ``vals (L, C, D)`` the key values
State = namedtuple("State", "tot scale ptr hw hn vals")


@nb.njit(cache=True, inline="always")
def _step(acc, v, p1, p0):
    """One distinct score ``v`` with positive / negative weights ``p1``, ``p0``, in decreasing order.

    ``acc``: ``tp, fp, ap, pr, previous precision, positive weight above, their weighted score sum, sauc``.
    A score whose held weight is 0 (weights 0, or faded weights that underflowed to 0) is no threshold.
    """
    if p1 == 0.0 and p0 == 0.0:
        return
    if p0 > 0.0:  # pairs with the positives above (ties weigh q_i - q_j = 0)
        acc[7] += p0 * (acc[6] - v * acc[5])
    acc[0] += p1
    acc[1] += p0
    prec = acc[0] / (acc[0] + acc[1])
    if p1 > 0.0:
        acc[2] += p1 * prec
        acc[3] += p1 * (prec + acc[4]) / 2.0
        acc[5] += p1
        acc[6] += p1 * v
    acc[4] = prec


@nb.njit(cache=True, inline="always")
def _moa_step(acc, v, k1, k0):
    """MOA's ``getScoredAUC`` over ``k1`` positives then ``k0`` negatives of score ``v``, one by one.

    ``acc``: ``c, prevc, lastPos, r, prevr, lastNeg, AUC, AOC`` as MOA names them.
    """
    for _ in range(k1):
        if v != acc[2]:
            acc[1] = acc[0]
            acc[2] = v
        acc[0] += v
        if v == acc[5]:
            acc[7] += (acc[3] + acc[4]) / 2.0
        else:
            acc[7] += acc[3]
    for _ in range(k0):
        if v != acc[5]:
            acc[4] = acc[3]
            acc[5] = v
        acc[3] += v
        if v == acc[2]:
            acc[6] += (acc[0] + acc[1]) / 2.0
        else:
            acc[6] += acc[0]


@nb.njit(cache=True, inline="always")
def _start(acc, moa):
    for i in range(8):
        acc[i] = 0.0
    if moa:
        acc[2] = _MOA_START
        acc[5] = _MOA_START
    else:
        acc[4] = 1.0


@nb.njit(cache=True, inline="always")
def _finish(acc, moa, out, c):
    """The swept sums of column ``c`` into the snapshot column ``out (N_SWEEP, C)``, in true units."""
    if moa:
        out[SW_MOA_AUC, c] = acc[6]
        out[SW_MOA_AOC, c] = acc[7]
        out[SW_MOA_R, c] = acc[3]
    else:
        out[SW_W0, c] = acc[1]
        out[SW_W1, c] = acc[0]
        out[SW_AP, c] = acc[2]
        out[SW_PR, c] = acc[3]
        out[SW_SAUC, c] = acc[7]


@nb.njit(cache=True)
def sweep_points(hw, hn, vals, moa, m, acc, out):
    """Sweep per-rank arrays ``hw``, ``hn (C, 2, D)`` (values ``vals (C, D)``) from the top rank down.

    The weights are taken in true units (divided by the lazy multiplier ``m``, up to ``TREE_RENORM``) as they
    are swept: the scored AUC's products of two weights would overflow in the multiplier's units.
    """
    inv = 1.0 / m
    for c in range(hw.shape[0]):
        _start(acc, moa)
        for r in range(hw.shape[2] - 1, -1, -1):
            k1, k0 = hn[c, 1, r], hn[c, 0, r]
            if k1 == 0 and k0 == 0:
                continue
            if moa:
                _moa_step(acc, vals[c, r], k1, k0)
            else:
                _step(acc, vals[c, r], hw[c, 1, r] * inv, hw[c, 0, r] * inv)
        _finish(acc, moa, out, c)


@nb.njit(cache=True)
def sweep_members(y, mem, wl, unit, scores, grp, lo, hi, moa, acc, out):
    """Sweep the members in ``[lo, hi]`` (their scores ``scores (T, C)`` sorted once per column)."""
    has_w = wl.shape[0] > 0
    n = 0
    for t in range(lo, hi + 1):
        if is_member(mem, t):
            n += 1
    idx = np.empty(n, dtype=np.int64)
    k = 0
    for t in range(lo, hi + 1):
        if is_member(mem, t):
            idx[k] = t
            k += 1
    key = np.empty(n)
    for c in range(scores.shape[1]):
        for i in range(n):
            key[i] = scores[idx[i], c]
        order = np.argsort(key)
        _start(acc, moa)
        i = n - 1
        while i >= 0:
            v = key[order[i]]
            p1 = p0 = 0.0
            k1 = k0 = 0
            while i >= 0 and key[order[i]] == v:
                t = idx[order[i]]
                g = member_weight(wl, has_w, unit, t)
                if grp[c, y[t]] == 1:
                    p1 += g
                    k1 += 1
                else:
                    p0 += g
                    k0 += 1
                i -= 1
            if moa:
                _moa_step(acc, v, k1, k0)
            else:
                _step(acc, v, p1, p0)
        _finish(acc, moa, out, c)


@nb.njit(cache=True)
def sweep_ranked(y, mem, wl, unit, srk, svals, grp, lo, hi, moa, acc, out, hw, hn):
    """Sweep the members in ``[lo, hi]`` by counting them into the scratch arrays ``hw``, ``hn (2, Ds)`` over the
    dense ranks ``srk (T, C)`` of their scores (values ``svals (C, Ds)``); the arrays are left zero."""
    has_w = wl.shape[0] > 0
    for c in range(srk.shape[1]):
        for t in range(lo, hi + 1):
            if is_member(mem, t):
                h, r = grp[c, y[t]], srk[t, c]
                hw[h, r] += member_weight(wl, has_w, unit, t)
                hn[h, r] += 1
        _start(acc, moa)
        for r in range(hw.shape[1] - 1, -1, -1):
            k1, k0 = hn[1, r], hn[0, r]
            if k1 == 0 and k0 == 0:
                continue
            if moa:
                _moa_step(acc, svals[c, r], k1, k0)
            else:
                _step(acc, svals[c, r], hw[1, r], hw[0, r])
        _finish(acc, moa, out, c)
        for t in range(lo, hi + 1):
            if is_member(mem, t):
                r = srk[t, c]
                hw[0, r] = hw[1, r] = 0.0
                hn[0, r] = hn[1, r] = 0


@nb.njit(cache=True, inline="always")
def _totals(tot, grp, yt, g, m, sign, out_tot=None):
    for c in range(tot.shape[0]):
        h = grp[c, yt]
        tot[c, h, TN] += sign
        tot[c, h, TW] = tot[c, h, TW] + sign * g * m if tot[c, h, TN] > 0 else 0.0


@nb.njit(cache=True, inline="always")
def _store_totals(tot, m, out):
    for c in range(tot.shape[0]):
        out[SW_W0, c] = tot[c, 0, TW] / m
        out[SW_W1, c] = tot[c, 1, TW] / m
        out[SW_N0, c] = tot[c, 0, TN]
        out[SW_N1, c] = tot[c, 1, TN]


@nb.njit(cache=True)
def _clear(hw, hn, tot):
    hw[...] = 0.0
    hn[...] = 0
    tot[...] = 0.0


@nb.njit(cache=True)
def accumulate(inp, grps, mech, state, l, e, t_begin, base, ck, snap):
    """An accumulator over ``[t_begin, T)``: per-rank arrays, restarts, checkpoint sweeps."""
    kind = mech.kinds[e]
    marks = mech.marks[mech.mark_off[e] : mech.mark_off[e + 1]]
    y, mem, wl = inp.y, inp.member[l], inp.weights[l]
    has_w = wl.shape[0] > 0
    rk = inp.ranks[l]
    hw, hn = state.hw[l, mech.slot[e]], state.hn[l, mech.slot[e]]
    tot, pt = state.tot[l, e], state.ptr[l, e]
    m = state.scale[l, e]
    step = fading_step(kind, mech.fading[e])
    D = hw.shape[2]
    nxt, cursor = next_restart(kind, mech.sizes[e], marks, pt[CURSOR], base + t_begin)
    acc = np.empty(8)
    ci = 0
    for t in range(t_begin, rk.shape[0]):
        if base + t == nxt:  # a tumble or landmark starts here
            lo, held = pt[TAIL] - base, pt[HELD]
            if lo >= 0 and held * 4 <= D:  # remove the held members (exact zeros), cheaper than clearing
                r = lo
                for _ in range(held):
                    r = next_member(mem, r)
                    for c in range(hw.shape[0]):
                        h = grps.grp[c, y[r]]
                        hn[c, h, rk[r, c]] -= 1
                        if hn[c, h, rk[r, c]] == 0:
                            hw[c, h, rk[r, c]] = 0.0
                    r += 1
                tot[...] = 0.0
            else:
                _clear(hw, hn, tot)
            m = 1.0
            pt[HELD] = 0
            pt[TAIL] = base + t
            nxt, cursor = next_restart(kind, mech.sizes[e], marks, cursor, base + t + 1)
        if is_member(mem, t):
            m = advance(m, step)
            if tree_overdue(m):
                hw *= 1.0 / m
                for c in range(tot.shape[0]):
                    for h in range(2):
                        tot[c, h, TW] /= m
                m = 1.0
            g = member_weight(wl, has_w, grps.unit, t)
            for c in range(hw.shape[0]):
                h = grps.grp[c, y[t]]
                r = rk[t, c]
                hw[c, h, r] += g * m
                hn[c, h, r] += 1
                tot[c, h, TW] += g * m
                tot[c, h, TN] += 1
            pt[HELD] += 1
        while ci < ck.shape[0] and ck[ci] == t:
            out = snap[:, :, ci]
            _store_totals(tot, m, out)
            if grps.sweep:
                held, lo = pt[HELD], pt[TAIL] - base
                if step == 1.0 and lo >= 0 and held * (np.log2(held + 1.0) + 1.0) * 4.0 < D:
                    sweep_members(y, mem, wl, grps.unit, inp.scores[l], grps.grp, lo, t, grps.moa, acc, out)
                else:
                    sweep_points(hw, hn, state.vals[l], grps.moa, m, acc, out)
            ci += 1
    state.scale[l, e] = m
    pt[CURSOR] = cursor


@nb.njit(cache=True)
def slide(inp, grps, mech, state, l, e, t_begin, base, ck, snap):
    """A sliding window (``WINDOW`` or ``ADWIN``) over ``[t_begin, T)``: running totals, member sweeps."""
    kind = mech.kinds[e]
    limits = mech.limits[l, max(mech.aslot[e], 0)]
    y, mem, wl = inp.y, inp.member[l], inp.weights[l]
    has_w = wl.shape[0] > 0
    tot, pt = state.tot[l, e], state.ptr[l, e]
    tail, held = pt[TAIL] - base, pt[HELD]
    acc = np.empty(8)
    ci = 0
    T = inp.scores.shape[1]
    srk, svals = inp.sranks[l], inp.svals[l]
    Ds = svals.shape[1] if srk.shape[0] > 0 else 0
    hw = np.zeros((2, Ds))
    hn = np.zeros((2, Ds), dtype=np.int64)
    for t in range(t_begin, T):
        if is_member(mem, t):
            _totals(tot, grps.grp, y[t], member_weight(wl, has_w, grps.unit, t), 1.0, 1.0)
            held += 1
            lim = sliding_limit(kind, mech.sizes[e], limits, t - t_begin)
            while held > lim:
                q = next_member(mem, tail)
                _totals(tot, grps.grp, y[q], member_weight(wl, has_w, grps.unit, q), 1.0, -1.0)
                held -= 1
                tail = q + 1
        while ci < ck.shape[0] and ck[ci] == t:
            out = snap[:, :, ci]
            _store_totals(tot, 1.0, out)
            if grps.sweep:
                if Ds > 0 and 2.0 * Ds < held * (np.log2(held + 1.0) + 1.0):  # counting beats sorting
                    sweep_ranked(y, mem, wl, grps.unit, srk, svals, grps.grp, tail, t, grps.moa, acc, out, hw, hn)
                else:
                    sweep_members(y, mem, wl, grps.unit, inp.scores[l], grps.grp, tail, t, grps.moa, acc, out)
            ci += 1
    pt[TAIL] = tail + base
    pt[HELD] = held


@nb.njit(cache=True, nogil=True)
def run(inp, grps, mech, state, span, which, ck, snap):
    """The estimators ``which`` of every series over ``[t_begin, T)``; ``snap (L, E, N_SWEEP, C, len(ck))``."""
    base, t_begin = span
    for l in range(state.tot.shape[0]):
        for e in which:
            if is_sliding(mech.kinds[e]):
                slide(inp, grps, mech, state, l, e, t_begin, base, ck, snap[l, e])
            else:
                accumulate(inp, grps, mech, state, l, e, t_begin, base, ck, snap[l, e])
