"""numba kernels for temporal dependence: label diagnostics, baselines, temporal correction.

Estimator kinds follow :data:`streamtk._core.mechanisms.KIND_CODES`: ``0`` prequential
(all the past), ``1`` sliding window of ``w`` *present* labels, ``2`` fading factor
``alpha`` per present label (``S_t = alpha S_{t-1} + x_t``; missing labels neither enter
the memory nor advance its clock, exactly as they do not count toward a window's ``w``;
this is the evaluation engine's convention too).

Fading factors use lazy global scaling: the stored value ``S'`` and the running
scale ``g`` give the true value ``S = g * S'``; a step multiplies ``g`` by
``alpha`` and adds ``1/g``, so a step is O(1). When ``g`` falls below
``RENORM`` every stored value is multiplied by ``g`` and ``g`` is reset to 1.

Only numpy, numba and math are imported here (see ``DESIGN.md``).
"""

from __future__ import annotations

import numba as nb
import numpy as np

RENORM = 1e-150

__all__ = [
    "RENORM",
    "dependence_pass",
    "advance_cursor",
    "majority_best_after_add",
    "majority_rescan",
    "majority_pass",
    "correction_factor_pass",
]


@nb.njit(cache=True, parallel=True)
def dependence_pass(
    codes,
    start,
    kinds,
    params,
    max_lag,
    cnt,
    trans,
    ev_n,
    ev_h,
    scale,
    cursor,
    tcursor,
    checkpoints,
    snap_cnt,
    snap_trans,
    snap_ev_n,
    snap_ev_h,
):
    """One pass of the label-dependence statistics over present label codes.

    Parameters
    ----------
    codes : int64 (m,)
        Present label codes (missing labels removed). Positions ``< start`` are
        history (already processed in an earlier chunk) kept only so that sliding
        windows can remove the label leaving them (``codes[s - w]``).
    start : int
        First position to process.
    kinds, params : int64 (E,), float64 (E,)
        Estimator kind code and parameter (window size or fading factor).
    max_lag : int
        ``L``: run lengths above ``L`` share the last bin.
    cnt, trans, ev_n, ev_h : float64 (E, k), (E, k, k), (E, k, L+1), (E, k, L+1)
        State: label counts, transition counts ``[prev, cur]``, and per previous
        class and run-length bin the number of events (``ev_n``) and of events
        that continued the run (``ev_h``). Updated in place.
    scale : float64 (E,)
        Lazy fading scale ``g`` (1 for other kinds). Updated in place.
    cursor : int64 (2,)
        ``[previous label, its run length]`` before ``codes[start]`` (-1, 0 if none).
        Not modified: the caller recomputes it (see ``advance_cursor``).
    tcursor : int64 (E, 2)
        Trailing cursor of each window: ``[label, run length]`` before the label
        that leaves next. Updated in place.
    checkpoints : int64 (T,)
        Sorted positions ``p`` (``start <= p <= m``): snapshot the state after the
        labels ``codes[:p]`` were processed.
    snap_* : float64 (E, T, ...)
        Snapshots (true, unscaled values).
    """
    n_est = kinds.shape[0]
    m = codes.shape[0]
    n_cp = checkpoints.shape[0]
    prev0 = cursor[0]
    run0 = cursor[1]
    for e in nb.prange(n_est):
        kind = kinds[e]
        param = params[e]
        w = int(param) if kind == 1 else 0
        g = scale[e]
        prev = prev0
        run = run0
        tprev = tcursor[e, 0]
        trun = tcursor[e, 1]
        ci = np.int64(0)  # not a literal: callees compile once
        while ci < n_cp and checkpoints[ci] <= start:
            _snapshot(np.int64(e), ci, g, cnt, trans, ev_n, ev_h, snap_cnt, snap_trans, snap_ev_n, snap_ev_h)
            ci += 1
        for s in range(start, m):
            c = codes[s]
            inc = 1.0
            if kind == 2:
                g = g * param
                if g < RENORM:
                    _rescale(np.int64(e), g, cnt, trans, ev_n, ev_h)
                    g = 1.0
                inc = 1.0 / g
            cnt[e, c] += inc
            if prev >= 0:
                b = run - 1 if run <= max_lag else max_lag
                trans[e, prev, c] += inc
                ev_n[e, prev, b] += inc
                if c == prev:
                    ev_h[e, prev, b] += inc
            if c == prev:
                run += 1
            else:
                prev = c
                run = 1
            if kind == 1 and s - w >= 0:
                r = codes[s - w]
                cnt[e, r] -= 1.0
                if tprev >= 0:
                    b = trun - 1 if trun <= max_lag else max_lag
                    trans[e, tprev, r] -= 1.0
                    ev_n[e, tprev, b] -= 1.0
                    if r == tprev:
                        ev_h[e, tprev, b] -= 1.0
                if r == tprev:
                    trun += 1
                else:
                    tprev = r
                    trun = 1
            while ci < n_cp and checkpoints[ci] == s + 1:
                _snapshot(np.int64(e), ci, g, cnt, trans, ev_n, ev_h, snap_cnt, snap_trans, snap_ev_n, snap_ev_h)
                ci += 1
        scale[e] = g
        tcursor[e, 0] = tprev
        tcursor[e, 1] = trun


@nb.njit(cache=True)
def _snapshot(e, ci, g, cnt, trans, ev_n, ev_h, snap_cnt, snap_trans, snap_ev_n, snap_ev_h):
    k = cnt.shape[1]
    nb_bins = ev_n.shape[2]
    for i in range(k):
        snap_cnt[e, ci, i] = cnt[e, i] * g
        for j in range(k):
            snap_trans[e, ci, i, j] = trans[e, i, j] * g
        for b in range(nb_bins):
            snap_ev_n[e, ci, i, b] = ev_n[e, i, b] * g
            snap_ev_h[e, ci, i, b] = ev_h[e, i, b] * g


@nb.njit(cache=True)
def _rescale(e, factor, cnt, trans, ev_n, ev_h):
    k = cnt.shape[1]
    nb_bins = ev_n.shape[2]
    for i in range(k):
        cnt[e, i] *= factor
        for j in range(k):
            trans[e, i, j] *= factor
        for b in range(nb_bins):
            ev_n[e, i, b] *= factor
            ev_h[e, i, b] *= factor


@nb.njit(cache=True)
def advance_cursor(codes, start, cursor):
    """Advance the run-length cursor ``[label, run]`` over ``codes[start:]`` (in place).

    Scans backwards over the last run only: O(length of the last run), not O(n).
    """
    m = codes.shape[0]
    if m <= start:
        return
    last = codes[m - 1]
    s = m - 1
    while s > start and codes[s - 1] == last:
        s -= 1
    run = m - s
    if s == start and cursor[0] == last:
        run += cursor[1]
    cursor[0] = last
    cursor[1] = run


# --------------------------------------------------------------------------------------
# Majority Class classifier (test-then-train)
# --------------------------------------------------------------------------------------


@nb.njit(cache=True)
def majority_best_after_add(counts, best, c):
    """Step: after ``counts[c]`` grew (and nothing else changed except a label other than
    ``best`` shrank), the new argmax (ties to the lowest code)."""
    if counts[c] > counts[best] or (counts[c] == counts[best] and c < best):
        return c
    return best


@nb.njit(cache=True)
def majority_rescan(counts):
    """Argmax of ``counts`` with ties to the lowest code (O(k))."""
    best = 0
    for i in range(1, counts.shape[0]):
        if counts[i] > counts[best]:
            best = i
    return best


@nb.njit(cache=True)
def majority_pass(codes, k, kind, param, out):
    """Predictions of the test-then-train Majority Class classifier.

    ``out[t]`` is the argmax (lowest code on ties) of the class counts of the present
    labels before ``t``: all of them (``kind=0``), the last ``w = param`` present
    labels (``kind=1``) or the faded counts ``sum_s alpha**(t-1-s) [y_s = i]``
    (``kind=2``, ``alpha = param``; ``t`` and ``s`` count present labels). Missing
    labels (code < 0) are skipped: they neither enter the memory nor advance the
    fading clock. ``out[0] = 0``.
    """
    n = codes.shape[0]
    counts = np.zeros(k, dtype=np.float64)
    best = np.int64(0)
    g = 1.0
    w = int(param) if kind == 1 else 0
    tail = 0
    in_mem = 0
    for t in range(n):
        out[t] = best
        c = codes[t]
        if c < 0:
            continue
        if kind == 2:
            g *= param
            if g < RENORM:
                for i in range(k):
                    counts[i] *= g
                g = 1.0
            counts[c] += 1.0 / g
        else:
            counts[c] += 1.0
        removed = -1
        if kind == 1:
            in_mem += 1
            if in_mem > w:
                while codes[tail] < 0:
                    tail += 1
                removed = codes[tail]
                tail += 1
                counts[removed] -= 1.0
                in_mem -= 1
        if removed >= 0 and removed == best:
            best = majority_rescan(counts)
        else:
            best = majority_best_after_add(counts, best, c)
    return best


# --------------------------------------------------------------------------------------
# Temporal Correction (Zliobaite et al. 2015, eq. 3)
# --------------------------------------------------------------------------------------


@nb.njit(cache=True, error_model="numpy")
def correction_factor_pass(codes, k, kind, param, out):
    """Prequential correction factors ``P(y_t=i | y_{t-1}) / P(y_t=i)``.

    ``out[t, i]`` uses only the present labels before ``t``; ``y_{t-1}`` is the last
    present label. The memory holds all labels (``kind=0``), the last ``w`` present
    labels and the transitions into them (``kind=1``), or labels and transitions
    faded by ``alpha**(t-1-s)`` (``kind=2``; ``t``, ``s`` count present labels). Initialisation: the factor
    is 1 for every class while no transition out of ``y_{t-1}`` is in memory (in
    particular before the second present label), and 1 for a class with no label in
    memory (its estimates are both 0: no evidence either way).
    """
    n = codes.shape[0]
    cnt = np.zeros(k, dtype=np.float64)
    trans = np.zeros((k, k), dtype=np.float64)
    rows = np.zeros(k, dtype=np.float64)
    tot = 0.0
    g = 1.0
    w = int(param) if kind == 1 else 0
    prev = -1
    tail = 0
    tprev = -1
    in_mem = 0
    for t in range(n):
        if prev < 0 or not rows[prev] > 0.0:
            for i in range(k):
                out[t, i] = 1.0
        else:
            rp = rows[prev]
            for i in range(k):
                if cnt[i] > 0.0:
                    out[t, i] = (trans[prev, i] / rp) / (cnt[i] / tot)
                else:
                    out[t, i] = 1.0
        c = codes[t]
        if c < 0:
            continue
        if kind == 2:
            g *= param
            if g < RENORM:
                for i in range(k):
                    cnt[i] *= g
                    rows[i] *= g
                    for j in range(k):
                        trans[i, j] *= g
                tot *= g
                g = 1.0
        inc = 1.0 / g if kind == 2 else 1.0
        cnt[c] += inc
        tot += inc
        if prev >= 0:
            trans[prev, c] += inc
            rows[prev] += inc
        prev = c
        if kind == 1:
            in_mem += 1
            if in_mem > w:
                while codes[tail] < 0:
                    tail += 1
                r = codes[tail]
                tail += 1
                in_mem -= 1
                cnt[r] -= 1.0
                tot -= 1.0
                if tprev >= 0:
                    trans[tprev, r] -= 1.0
                    rows[tprev] -= 1.0
                tprev = r
    return tot
