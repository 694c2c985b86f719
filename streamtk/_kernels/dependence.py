"""The label-dependence family: label counts, transitions and run events under every forgetting mechanism.

Zliobaite et al. 2015 (seed 003): the statistics of the label stream alone. Each present label
``y_s`` (code >= 0) is one *member*; with it comes one *event*: the previous present label
``j = prev[s]`` and the run-length bin ``b = bins[s]`` of the run of ``j``'s ending just before
``s`` (``-1`` when ``s`` is the first present label). A member adds ``cnt[y] += g``,
``trans[j, y] += g``, ``rows[j] += g``, ``evn[j, b] += g`` and, when ``y == j``, ``evh[j, b] += g``;
a leaving member subtracts exactly that (the events are materialised per position, so removal
needs no trailing cursor). Mechanisms come from :mod:`streamtk._kernels.forgetting`.

One loop serves three outputs (``mode``): the statistics at checkpoints (``STATS``), the
test-then-train Majority Class prediction before every position (``MAJORITY``; ties to the lowest
code, class 0 with an empty memory, :mod:`streamtk._kernels.baselines`), and the Temporal
Correction factors ``P(y_t = i | y_(t-1)) / P(y_t = i)`` before every position (``FACTORS``;
1 while no transition out of ``y_(t-1)`` is held, 1 for a class without labels in memory).

Arguments: ``inputs = (codes (T,), prev (T,), bins (T,))`` int64 (``prev[t]``: the last present
label before ``t``, every position); ``mech = (kinds, sizes, fading, marks, mark_off, limits
(E, T - t_begin))``; ``state = (cnt (E, k), trans (E, k, k), evn (E, k, B), evh (E, k, B), rows (E, k),
sf (E, 2): total, scale; si (E, 4): tail, held, cursor, best)``; ``span = (base, t_begin)``;
``out = (cnt (E, C, k), trans (E, C, k, k), evn (E, C, k, B), evh (E, C, k, B), predictions (E, T) int64,
factors (E, T, k))``: the snapshots at ``ck`` (``STATS``), or the per-position outputs of the other modes
(arrays a mode does not write may be empty).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .baselines import majority_after_gain, majority_scan
from .forgetting import advance, fading_step, is_sliding, next_member, next_restart, overdue, sliding_limit

STATS, MAJORITY, FACTORS = 0, 1, 2
TOTAL, SCALE = 0, 1
TAIL, HELD, CURSOR, BEST = 0, 1, 2, 3


@nb.njit(cache=True, inline="always")
def _apply(cnt, trans, evn, evh, rows, y, j, b, g):
    """Add (``g > 0``) or remove (``g < 0``) a member and its event."""
    cnt[y] += g
    if j >= 0:
        trans[j, y] += g
        rows[j] += g
        evn[j, b] += g
        if y == j:
            evh[j, b] += g


@nb.njit(cache=True, nogil=True)
def label_events(codes, last, run, max_lag, prev, bins):
    """Fill ``prev`` and ``bins`` (``(T,)`` int64) for a chunk of ``codes``; returns the carried ``(last, run)``.

    ``prev[t]``: the last present label before ``t`` (``last`` from earlier chunks, -1 if none);
    ``bins[t]`` (present ``t``): ``min(r, max_lag + 1) - 1`` with ``r`` the length of the run of
    equal present labels ending just before ``t`` (0 when ``t`` is the first present label, so -1).
    ``(last, run)``: the label and length of the current run (``(-1, 0)`` before any label).
    """
    for t in range(codes.shape[0]):
        prev[t] = last
        y = codes[t]
        if y < 0:
            bins[t] = 0
            continue
        bins[t] = run - 1 if run <= max_lag else max_lag
        if y == last:
            run += 1
        else:
            last = y
            run = 1
    return last, run


@nb.njit(cache=True)
def _scale(cnt, trans, evn, evh, rows, m):
    """Divide the lazily scaled state by its multiplier."""
    cnt /= m
    trans /= m
    evn /= m
    evh /= m
    rows /= m


@nb.njit(cache=True)
def _emit(mode, t, prev_t, cnt, trans, evn, evh, rows, total, m, best, ck, ci, out):
    """Write what ``mode`` asks for at position ``t`` (before ``t`` is added); returns the next checkpoint."""
    if mode == MAJORITY:
        out[4][t] = best
    elif mode == FACTORS:
        fac = out[5][t]
        k = cnt.shape[0]
        if prev_t < 0 or not rows[prev_t] > 0.0:
            for i in range(k):
                fac[i] = 1.0
        else:
            for i in range(k):
                fac[i] = (trans[prev_t, i] / rows[prev_t]) / (cnt[i] / total) if cnt[i] > 0.0 else 1.0
    return ci


@nb.njit(cache=True)
def _snapshot(out, ci, cnt, trans, evn, evh, m):
    out[0][ci] = cnt / m
    out[1][ci] = trans / m
    out[2][ci] = evn / m
    out[3][ci] = evh / m


@nb.njit(cache=True)
def accumulate(kind, size, fade, marks, inputs, b0, b1, base, st, mode, ck, ci, out):
    """An accumulator (prequential, fading, tumbling, landmarks) over ``[b0, b1)``."""
    codes, prev, bins = inputs
    cnt, trans, evn, evh, rows, sf, si = st
    k = cnt.shape[0]
    total, m, best = sf[TOTAL], sf[SCALE], si[BEST]
    step = fading_step(kind, fade)
    nxt, cursor = next_restart(kind, size, marks, si[CURSOR], base + b0)
    nck = ck.shape[0]
    for t in range(b0, b1):
        if base + t == nxt:
            cnt[:] = 0.0
            trans[:] = 0.0
            evn[:] = 0.0
            evh[:] = 0.0
            rows[:] = 0.0
            total = 0.0
            m = 1.0
            best = 0
            nxt, cursor = next_restart(kind, size, marks, cursor, base + t + 1)
        if mode != STATS:
            ci = _emit(mode, t, prev[t], cnt, trans, evn, evh, rows, total, m, best, ck, ci, out)
        y = codes[t]
        if y >= 0:
            m = advance(m, step)
            _apply(cnt, trans, evn, evh, rows, y, prev[t], bins[t], m)
            total += m
            best = majority_after_gain(best, cnt[best], y, cnt[y])
            if overdue(m):
                _scale(cnt, trans, evn, evh, rows, m)
                total /= m
                m = 1.0
        while mode == STATS and ci < nck and ck[ci] == t:
            _snapshot(out, ci, cnt, trans, evn, evh, m)
            ci += 1
    sf[TOTAL], sf[SCALE] = total, m
    si[BEST], si[CURSOR] = best, cursor
    _ = k
    return ci


@nb.njit(cache=True)
def slide(kind, size, limits, lim0, inputs, member, b0, b1, base, st, mode, ck, ci, out):
    """A sliding window (``WINDOW``, ``ADWIN``) of present labels over ``[b0, b1)``."""
    codes, prev, bins = inputs
    cnt, trans, evn, evh, rows, sf, si = st
    k = cnt.shape[0]
    zeros = np.zeros(k)
    total, best = sf[TOTAL], si[BEST]
    tail, held = si[TAIL] - base, si[HELD]
    nck = ck.shape[0]
    for t in range(b0, b1):
        if mode != STATS:
            ci = _emit(mode, t, prev[t], cnt, trans, evn, evh, rows, total, 1.0, best, ck, ci, out)
        y = codes[t]
        if y >= 0:
            _apply(cnt, trans, evn, evh, rows, y, prev[t], bins[t], 1.0)
            total += 1.0
            held += 1
            best = majority_after_gain(best, cnt[best], y, cnt[y])
            lim = sliding_limit(kind, size, limits, t - lim0)
            while held > lim:
                r = next_member(member, tail)
                yr = codes[r]
                _apply(cnt, trans, evn, evh, rows, yr, prev[r], bins[r], -1.0)
                total -= 1.0
                held -= 1
                tail = r + 1
                if yr == best:
                    best = majority_scan(cnt, zeros, k)
        while mode == STATS and ci < nck and ck[ci] == t:
            _snapshot(out, ci, cnt, trans, evn, evh, 1.0)
            ci += 1
    sf[TOTAL] = total
    si[BEST], si[TAIL], si[HELD] = best, tail + base, held
    return ci


@nb.njit(cache=True, nogil=True)
def run(inputs, member, mech, state, span, mode, ck, out):
    """Every estimator over ``[t_begin, T)`` (see the module docstring)."""
    kinds, sizes, fading, marks, mark_off, limits = mech
    cnt, trans, evn, evh, rows, sf, si = state
    base, t_begin = span
    T = inputs[0].shape[0]
    for e in range(kinds.shape[0]):
        st = (cnt[e], trans[e], evn[e], evh[e], rows[e], sf[e], si[e])
        oe = (out[0][e], out[1][e], out[2][e], out[3][e], out[4][e], out[5][e])
        kind = kinds[e]
        if is_sliding(kind):
            slide(kind, sizes[e], limits[e], t_begin, inputs, member, t_begin, T, base, st, mode, ck, 0, oe)
        else:
            accumulate(
                kind,
                sizes[e],
                fading[e],
                marks[mark_off[e] : mark_off[e + 1]],
                inputs,
                t_begin,
                T,
                base,
                st,
                mode,
                ck,
                0,
                oe,
            )
