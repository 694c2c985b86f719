"""ADWIN's input step and its loop over a stream: MOA's ``ADWIN.setInput``, one input or a whole chunk.

Arguments are grouped: ``state = (sums, variances, counts, istate, fstate)`` (:mod:`.histogram`;
the arrays of many instances for :func:`adwin_update`, one instance's rows for
:func:`adwin_run_one`), ``params = (delta, clock, min_window, bound)`` (bound codes in
:mod:`.scan`), ``out = (width, mean, variance, detection)`` per-step outputs.

One input (MOA's ``setInput``): increment the tick, add the input's moments
(:func:`~.histogram.add_moments`), insert it as a new bucket of row 0, merge overflowing rows
(:func:`~.histogram.compress`), and, when ``tick % clock == 0`` and ``W > 10``, scan the split
points from the oldest bucket to the newest; at a cut drop the oldest bucket and scan again,
until a scan finds no cut (:func:`~.scan.reduce`). Detection code of a step: 0 if no bucket was
dropped; otherwise +1 when the window mean after the step is strictly greater than before it
(exactly when MOA's ``ADWINChangeDetector`` sets ``isChangeDetected``), -1 otherwise.

:func:`adwin_update` is that step on instance ``i`` of a state (for kernels that interleave many
instances input by input, e.g. MOA's ADWIN evaluator). :func:`adwin_run_one` runs a chunk through
one instance with the same helpers and operands (tested bit for bit against the step), organised
for speed: the inputs between two cut tests run in one loop without a tick test; rows 0 and 1 of
the histogram live outside the state arrays between cut tests (row 0 is always the newest inputs,
read back from ``x``; row 1 a ring buffer), so their merges shift nothing; the scan's split grid is
rebuilt only for the rows that changed since the previous scan. Called per input from another
numba loop, :func:`adwin_update` costs about three times the per-input time of the loop (numba
reference-counts the state arrays at every call): where the input stream is known before the pass
that needs the window (e.g. a 0/1 loss), run :func:`adwin_run_one` over the chunk first and read
the widths.
"""

from __future__ import annotations

import numba
import numpy as np

from .histogram import MIN_WIDTH_FOR_CHECK, add_moments, compress, load, merge, store, test_due
from .scan import ALL_ROWS, reduce

__all__ = ["adwin_update", "adwin_run_one", "adwin_run"]


@numba.njit(cache=True, error_model="numpy")
def adwin_update(state, work, i, x, params):
    """Add the value ``x`` to ADWIN instance ``i`` of ``state``; returns the detection code.

    ``work`` is a scratch buffer (:func:`~.histogram.adwin_work_new`; one per concurrently running
    loop, its content is irrelevant between calls). ``x`` must be finite.
    """
    sums, variances, counts, istate, fstate = state
    delta, clock, min_window, bound = params
    S = sums[i]
    V = variances[i]
    C = counts[i]
    max_buckets = S.shape[1] - 1
    w, last, tick, ndet, total, var, xmax = load(istate[i], fstate[i])
    tick += 1
    mean_before = total / w
    w, total, var, xmax, mean_after = add_moments(w, total, var, xmax, mean_before, x)
    k = C[0]  # x becomes the newest bucket of row 0 (variance 0)
    S[0, k] = x
    V[0, k] = 0.0
    C[0] = k + 1
    if k == max_buckets:
        last, _ = compress(S, V, C, last, max_buckets, 0)
    code = 0
    if test_due(tick, clock) and w > MIN_WIDTH_FOR_CHECK:
        changed, win, _ = reduce(
            (S, V, C),
            work,
            (w, last, total, var),
            xmax,
            (delta, min_window, bound),
            (np.int64(0), 0.0),
            np.int64(ALL_ROWS),
        )
        w, last, total, var = win
        if changed:
            mean_after = total / w
            code = 1 if mean_after > mean_before else -1
            ndet += 1
    store(istate[i], fstate[i], w, last, tick, ndet, total, var, xmax)
    return code


@numba.njit(cache=True, inline="always", error_model="numpy")
def _emit(out, wanted, t, w, mean, var, code):
    """Step ``t``'s outputs into the arrays of ``out`` that are ``wanted``."""
    if wanted[0]:
        out[0][t] = w
    if wanted[1]:
        out[1][t] = mean
    if wanted[2]:
        out[2][t] = var / w
    if wanted[3]:
        out[3][t] = code


@numba.njit(cache=True, error_model="numpy")
def adwin_run_one(x, state, params, out):
    """Feed the stream ``x`` (n,) to one instance (``state`` of rows ``sums[i]``, ... , updated in place).

    Writes per step into ``out = (width int64, mean, variance, detection int8)``; an output of any
    other length than ``n`` (e.g. ``np.empty(0)``) is not written, so a caller that needs only the
    widths pays for no other stores. Calling it chunk after chunk equals one call on the whole
    stream.
    """
    S, V, C, ist, fst = state
    delta, clock, min_window, bound = params
    prm = (delta, min_window, bound)
    w, last, tick, ndet, total, var, xmax = load(ist, fst)
    max_buckets = S.shape[1] - 1
    work = np.empty((4, S.shape[0] * S.shape[1]), dtype=np.float64)
    ring_size = 1
    while ring_size < max_buckets + 1:
        ring_size <<= 1
    mask = ring_size - 1
    ring_s = np.empty(ring_size, dtype=np.float64)  # row 1, oldest at ring position h1
    ring_v = np.empty(ring_size, dtype=np.float64)
    cache = (np.int64(0), 0.0)  # the ln-term of the scans, cached across them (not literals: callees compile once)
    mean = total / w
    pow2 = clock & (clock - 1) == 0
    n = x.shape[0]
    wanted = (out[0].shape[0] == n, out[1].shape[0] == n, out[2].shape[0] == n, out[3].shape[0] == n)
    dirty = np.int64(ALL_ROWS)  # highest row changed since the last scan (its grid cells are stale)
    last_scanned = -1
    a = 0
    while a < n:
        since = (tick & (clock - 1)) if pow2 else tick % clock
        to_test = clock - since  # inputs up to and including the next tick that is a multiple of clock
        b = a + to_test if to_test < n - a else n
        # row 0 is the sequence S[0, :n_old] followed by x[a:]; p0 indexes its oldest bucket
        n_old = C[0]
        c0 = n_old
        p0 = 0
        c1 = C[1]
        h1 = 0
        for k in range(c1):
            ring_s[k] = S[1, k]
            ring_v[k] = V[1, k]
        mean_before = mean
        for t in range(a, b):
            xt = x[t]
            mean_before = mean
            w, total, var, xmax, mean = add_moments(w, total, var, xmax, mean, xt)
            # x becomes the newest bucket of row 0; at M + 1 buckets the two oldest merge into row 1
            c0 += 1
            if c0 > max_buckets:
                s0 = S[0, p0] if p0 < n_old else x[a + p0 - n_old]
                s1 = S[0, p0 + 1] if p0 + 1 < n_old else x[a + p0 + 1 - n_old]
                p0 += 2
                c0 -= 2
                if last == 0:
                    last = 1
                    dirty = ALL_ROWS
                if dirty < 1:
                    dirty = 1
                pos = (h1 + c1) & mask
                ring_s[pos], ring_v[pos] = merge(s0, 0.0, s1, 0.0, 0)
                c1 += 1
                if c1 > max_buckets:  # row 1 merges its two oldest into row 2
                    r0 = h1
                    r1 = (h1 + 1) & mask
                    h1 = (h1 + 2) & mask
                    c1 -= 2
                    if last == 1:
                        C[2] = 0
                        last = 2
                        dirty = ALL_ROWS
                    if dirty < 2:
                        dirty = 2
                    k = C[2]
                    S[2, k], V[2, k] = merge(ring_s[r0], ring_v[r0], ring_s[r1], ring_v[r1], 1)
                    C[2] = k + 1
                    if k == max_buckets:
                        if max_buckets == 5:  # MOA's M as a constant: LLVM unrolls the row shifts
                            last, top = compress(S, V, C, last, 5, 2)
                        else:
                            last, top = compress(S, V, C, last, max_buckets, 2)
                        if top > dirty:
                            dirty = top
            _emit(out, wanted, t, w, mean, var, 0)
        # rows 0 and 1 back into the canonical layout
        for k in range(c0):
            q = p0 + k
            S[0, k] = S[0, q] if q < n_old else x[a + q - n_old]
        C[0] = c0
        for k in range(c1):
            q = (h1 + k) & mask
            S[1, k] = ring_s[q]
            V[1, k] = ring_v[q]
        C[1] = c1
        tick += b - a
        if b - a == to_test and w > MIN_WIDTH_FOR_CHECK:
            if last != last_scanned:  # a new row shifts every split point
                dirty = ALL_ROWS
            change, win, cache = reduce((S, V, C), work, (w, last, total, var), xmax, prm, cache, dirty)
            w, last, total, var = win
            dirty = ALL_ROWS if change else 0
            last_scanned = last
            if change:
                ndet += 1
                mean = total / w
                _emit(out, wanted, b - 1, w, mean, var, 1 if mean > mean_before else -1)
        a = b
    store(ist, fst, w, last, tick, ndet, total, var, xmax)


@numba.njit(cache=True, nogil=True, error_model="numpy")
def adwin_run(x, state, params, out):
    """:func:`adwin_run_one` for every lead: ``x[l]`` (``(L, n)``) into instance ``l`` of ``state``.

    ``out`` holds ``(L, n)`` arrays (or ``(L, 0)`` for outputs not wanted). Serial over leads and
    releasing the GIL: the numpy layer runs blocks of leads on threads.
    """
    sums, variances, counts, istate, fstate = state
    width, mean, variance, detection = out
    for lead in range(x.shape[0]):
        adwin_run_one(
            x[lead],
            (sums[lead], variances[lead], counts[lead], istate[lead], fstate[lead]),
            params,
            (width[lead], mean[lead], variance[lead], detection[lead]),
        )
