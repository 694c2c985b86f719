"""The label-dependence family: label counts, transitions and run events under every forgetting mechanism.

Zliobaite et al. 2015 (seed 003): the statistics of the label stream alone. Each present label
``y_s`` (code >= 0) is one *member*; with it comes one *event*: the previous present label
``j = prev[s]`` and the run-length bin ``b = bins[s]`` of the run of ``j``'s ending just before
``s`` (``-1`` when ``s`` is the first present label). A member adds ``cnt[y] += g``,
``trans[j, y] += g``, ``rows[j] += g``, ``evn[j, b] += g`` and, when ``y == j``, ``evh[j, b] += g``;
a leaving member subtracts exactly that. The events are computed in the pass from the run cursor
``(last, run)`` (the label and length of the current run, carried across chunks in ``lead``), and
a sliding window's leaving member gets its event from a trailing cursor of the same kind (so only
the codes are kept as history). :func:`label_events` materialises them (the ADWIN limits, tests).
Mechanisms come from :mod:`streamtk._kernels.forgetting`.

One loop serves three outputs: the statistics at checkpoints (``STATS``), the
test-then-train Majority Class prediction before every position (``MAJORITY``; ties to the lowest
code, class 0 with an empty memory, :mod:`streamtk._kernels.baselines`), and the Temporal
Correction factors ``P(y_t = i | y_(t-1)) / P(y_t = i)`` before every position (``FACTORS``;
1 while no transition out of ``y_(t-1)`` is held, 1 for a class without labels in memory).

Two kernels, called once per estimator by the numpy layer (:class:`streamtk.dependence.engine.DependenceEngine`):
:func:`accumulate` (prequential, fading, tumbling, landmarks) and :func:`slide` (window, ADWIN). No
numba driver loops over the estimators: it would compile both kernels again inside itself for every
mode, where now each kernel compiles on its own, and only for the mechanisms a call has.

The output a call writes is chosen by which of ``snaps``, ``pred``, ``fac`` is not ``None``, so each
mode compiles only its own code: ``snaps (E, F, C)`` the tables of statistics at ``ck`` (``STATS``; rows
as in :func:`streamtk._core.metrics.dependence.context`: the counts, transitions and run counts),
``pred (E, T)`` int64 the Majority predictions, ``fac (E, T, k)`` the correction factors (row ``e`` is the
estimator's). The state a mode does not read is not kept up to date (``rows`` stays 0 outside
``FACTORS``, so it is the zero second part of a Majority rescan; ``BEST`` is kept in ``MAJORITY`` only):
an engine keeps one mode.

Arguments: ``codes (T,)`` int64 (the history a window still holds, then the chunk from ``b0``);
``member (T,)`` uint8 (``codes >= 0``); ``lead (2,)`` int64, the run cursor before ``b0`` (read; the
cursor after ``b1`` is returned); one estimator's mechanism (``kind``, ``size``, ``fade``, ``marks``;
``limits (T - b0,)`` its sliding limits); its state ``st = (cnt (k,), trans (k, k), evn (k, B),
evh (k, B), rows (k,), sf (2,): total, scale; si (6,): tail, held, cursor, best, tlast, trun)``;
``base`` the absolute position of ``codes[0]``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .baselines import majority_after_gain, majority_scan
from .forgetting import advance, fading_step, next_member, next_restart, overdue, sliding_limit

STATS, MAJORITY, FACTORS = 0, 1, 2
TOTAL, SCALE = 0, 1
TAIL, HELD, CURSOR, BEST, TLAST, TRUN = 0, 1, 2, 3, 4, 5


@nb.njit(cache=True, inline="always")
def _bin(run, max_lag):
    """The run-length bin of an event whose run (of the previous label) has length ``run``."""
    return run - 1 if run <= max_lag else max_lag


@nb.njit(cache=True, inline="always")
def _apply(cnt, trans, evn, evh, rows, y, j, b, g, fac):
    """Add (``g > 0``) or remove (``g < 0``) a member and its event (``rows`` only when ``fac`` is written)."""
    cnt[y] += g
    if j >= 0:
        trans[j, y] += g
        if fac is not None:
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
        bins[t] = _bin(run, max_lag)
        if y == last:
            run += 1
        else:
            last = y
            run = 1
    return last, run


@nb.njit(cache=True)
def _scale(cnt, trans, evn, evh, rows, m):
    """Divide the lazily scaled state by its multiplier (element by element: no array expressions to compile)."""
    k, nb_bins = evn.shape
    for i in range(k):
        cnt[i] /= m
        rows[i] /= m
        for j in range(k):
            trans[i, j] /= m
        for b in range(nb_bins):
            evn[i, b] /= m
            evh[i, b] /= m


@nb.njit(cache=True, inline="always")
def _before(t, e, last, cnt, trans, rows, total, best, pred, fac):
    """The per-position outputs at ``t`` (before ``t`` is added): a Majority prediction, correction factors."""
    if pred is not None:
        pred[e, t] = best
    if fac is not None:
        k = cnt.shape[0]
        if last < 0 or not rows[last] > 0.0:
            for i in range(k):
                fac[e, t, i] = 1.0
        else:
            for i in range(k):
                fac[e, t, i] = (trans[last, i] / rows[last]) / (cnt[i] / total) if cnt[i] > 0.0 else 1.0


@nb.njit(cache=True, inline="always")
def _stop(t, stop, ck, ci):
    """The end of the positions from ``t`` on that the loop runs without a check: ``stop``, or just past
    the next checkpoint ``ck[ci]`` (snapshots are taken after the last position of a stretch)."""
    if ci < ck.shape[0] and ck[ci] >= t:
        return min(stop, ck[ci] + 1)
    return stop


@nb.njit(cache=True)
def _snapshot(snaps, e, ci, cnt, trans, evn, evh, m):
    """The true statistics ``stored / m`` into column ``ci`` of estimator ``e``'s table ``snaps[e] (F, C)``:
    rows ``c_i``, ``t_ji`` (``j`` major), the transitions' row totals ``sum_i t_ji``, then per class ``i``
    the run counts ``N_l(i) = sum_{r >= l - 1} e_n[i, r]`` and ``H_l(i)`` (from ``e_h``) for ``l = 1 .. L``
    (suffix sums from the last bin down; rows of :func:`streamtk._core.metrics.dependence.context`)."""
    k, nb_bins = evn.shape
    lags = nb_bins - 1
    out = snaps[e]
    t0 = k
    r0 = t0 + k * k
    n0 = r0 + k
    h0 = n0 + k * lags
    for i in range(k):
        out[i, ci] = cnt[i] / m
        total = 0.0
        for j in range(k):
            t = trans[i, j] / m
            out[t0 + i * k + j, ci] = t
            total = total + t if j else t
        out[r0 + i, ci] = total
        big_n = evn[i, lags] / m
        big_h = evh[i, lags] / m
        for b in range(lags - 1, -1, -1):
            big_n = big_n + evn[i, b] / m
            big_h = big_h + evh[i, b] / m
            out[n0 + i * lags + b, ci] = big_n
            out[h0 + i * lags + b, ci] = big_h


@nb.njit(cache=True, nogil=True)
def accumulate(e, kind, size, fade, marks, codes, lead, b0, b1, base, st, ck, snaps, pred, fac):
    """An accumulator (prequential, fading, tumbling, landmarks) over ``[b0, b1)``."""
    cnt, trans, evn, evh, rows, sf, si = st
    max_lag = evn.shape[1] - 1
    last, run = lead[0], lead[1]
    total, m, best = sf[TOTAL], sf[SCALE], si[BEST]
    step = fading_step(kind, fade)
    nxt, cursor = next_restart(kind, size, marks, si[CURSOR], base + b0)
    ci, nck = np.int64(0), ck.shape[0]  # not a literal 0: _snapshot compiles once
    t = b0
    while t < b1:
        if base + t == nxt:
            cnt.fill(0.0)
            trans.fill(0.0)
            evn.fill(0.0)
            evh.fill(0.0)
            rows.fill(0.0)
            total = 0.0
            m = 1.0
            best = 0
            nxt, cursor = next_restart(kind, size, marks, cursor, base + t + 1)
        stop = _stop(t, min(b1, nxt - base), ck, ci)
        for s in range(t, stop):
            _before(s, e, last, cnt, trans, rows, total, best, pred, fac)
            y = codes[s]
            if y >= 0:
                m = advance(m, step)
                _apply(cnt, trans, evn, evh, rows, y, last, _bin(run, max_lag), m, fac)
                if y == last:
                    run += 1
                else:
                    last = y
                    run = 1
                total += m
                if pred is not None:
                    best = majority_after_gain(best, cnt[best], y, cnt[y])
                if overdue(m):
                    _scale(cnt, trans, evn, evh, rows, m)
                    total /= m
                    m = 1.0
        t = stop
        if snaps is not None:
            while ci < nck and ck[ci] == t - 1:
                _snapshot(snaps, e, ci, cnt, trans, evn, evh, m)
                ci += 1
    sf[TOTAL], sf[SCALE] = total, m
    si[BEST], si[CURSOR] = best, cursor
    return last, run


@nb.njit(cache=True, nogil=True)
def slide(e, kind, size, limits, codes, member, lead, b0, b1, base, st, ck, snaps, pred, fac):
    """A sliding window (``WINDOW``, ``ADWIN``) of present labels over ``[b0, b1)``.

    A leaving member's event comes from a trailing cursor ``(TLAST, TRUN)``: the last present label
    before the window's tail and the length of its run there.
    """
    cnt, trans, evn, evh, rows, sf, si = st
    k = cnt.shape[0]
    max_lag = evn.shape[1] - 1
    last, run = lead[0], lead[1]
    total, best = sf[TOTAL], si[BEST]
    tail, held = si[TAIL] - base, si[HELD]
    tlast, trun = si[TLAST], si[TRUN]
    ci, nck = np.int64(0), ck.shape[0]  # not a literal 0: _snapshot compiles once
    t = b0
    while t < b1:
        stop = _stop(t, b1, ck, ci)
        for s in range(t, stop):
            _before(s, e, last, cnt, trans, rows, total, best, pred, fac)
            y = codes[s]
            if y >= 0:
                _apply(cnt, trans, evn, evh, rows, y, last, _bin(run, max_lag), 1.0, fac)
                if y == last:
                    run += 1
                else:
                    last = y
                    run = 1
                total += 1.0
                held += 1
                if pred is not None:
                    best = majority_after_gain(best, cnt[best], y, cnt[y])
                lim = sliding_limit(kind, size, limits, s - b0)
                while held > lim:
                    r = next_member(member, tail)
                    yr = codes[r]
                    _apply(cnt, trans, evn, evh, rows, yr, tlast, _bin(trun, max_lag), -1.0, fac)
                    if yr == tlast:
                        trun += 1
                    else:
                        tlast = yr
                        trun = 1
                    total -= 1.0
                    held -= 1
                    tail = r + 1
                    if pred is not None:
                        if yr == best:
                            best = majority_scan(cnt, rows, k)  # rows: all 0 without fac
        t = stop
        if snaps is not None:
            while ci < nck and ck[ci] == t - 1:
                _snapshot(snaps, e, ci, cnt, trans, evn, evh, 1.0)
                ci += 1
    sf[TOTAL] = total
    si[BEST], si[TAIL], si[HELD] = best, tail + base, held
    si[TLAST], si[TRUN] = tlast, trun
    return last, run
