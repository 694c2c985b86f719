"""ADWIN2 (adaptive windowing with an exponential histogram) as numba step functions.

The algorithm is ADWIN2 of Bifet & Gavalda (2007) in the form of MOA's
``moa.classifiers.core.driftdetection.ADWIN`` (the reference implementation the
evaluation papers used; ``DESIGN.md`` section 4). The cut rule of the ``"moa"``
variant is MOA's; the ``"theorem3"`` variant uses the literal bound of Bifet et
al. 2015, Theorem 3 (seed ``000_413ae63613f4eb28.txt``, section 6).

State layout
------------
Many independent ADWIN *instances* share one set of arrays whose leading axis
is the instance index ``i`` (e.g. leads x estimators x quantities):

``sums[i, r, s]``, ``variances[i, r, s]`` (float64, shape ``(I, R, M + 1)``)
    total and variance sum (sum of squared deviations from the bucket mean) of
    bucket ``s`` of row ``r``. Row ``r`` holds buckets of ``2**r`` inputs; within
    a row slot 0 is the oldest bucket; slots at or beyond ``counts[i, r]`` hold
    stale values that are never read.
``counts[i, r]`` (int64, shape ``(I, R)``)
    number of buckets in row ``r`` (at most ``M`` between steps).
``istate[i, k]`` (int64, shape ``(I, 4)``)
    ``WIDTH`` (items in the window), ``LAST_ROW`` (index of the oldest row, MOA's
    ``lastBucketRow``), ``TICK`` (inputs seen since the instance was created,
    MOA's ``mintTime``), ``N_DETECTIONS`` (cuts so far, at most one per input).
``fstate[i, k]`` (float64, shape ``(I, 3)``)
    ``TOTAL`` (sum of the window), ``VARIANCE`` (sum of squared deviations of
    the window from its mean; MOA's ``VARIANCE``) and ``XMAX`` (largest ``|x|``
    seen; used only to decide when the filter of a cut scan is safe).
``work`` (float64, shape ``(4, R (M + 1))``, :func:`adwin_work_new`)
    scratch for the cut scans, not state: one per concurrently running loop.

``M`` (``max_buckets``) is taken from the shape of ``sums`` (``M + 1`` slots per
row), so a state can never be stepped with a mismatching ``M``. The memory per
instance is ``O(R M)`` with a fixed row capacity ``R`` (default 64; a state
holds windows of up to :func:`adwin_capacity` ``= M (2**R - 1)`` inputs). ADWIN
itself uses at most ``log2(W + 1)`` rows for a window of ``W`` inputs: for
``M >= 2`` every row holds at least one bucket.

Floating-point fidelity
-----------------------
Every floating-point expression is evaluated in MOA's order (incremental
variance updates on insertion, merge and deletion; the cut expression), and
MOA's 32-bit ``int`` products are reproduced: the merge term ``n1 * n2`` (both
``2**r``) and the deletion term ``n1 * WIDTH`` wrap modulo ``2**32`` exactly as
Java's ``int`` arithmetic does (this happens only for rows >= 16 or windows of
more than about 10**5 inputs and changes MOA's variance, hence its later cuts).
Two values that MOA recomputes at every split point of a scan but that cannot
change within one (``dd = ln(2 ln W / delta)`` and ``v = VARIANCE / W``) are
computed once per scan: the same operations on the same operands, so identical
doubles. MOA's scan also updates two partial variances that its cut expression
never reads; they are omitted. Most split points are cleared by a
division-free filter that provably never clears a split MOA would cut at
(:mod:`streamtk._kernels.adwin_scan`, where the proof is); MOA's exact
expression, with MOA's prefix sums, decides the rest.

Bucket sizes are powers of two, so MOA's divisions by ``2**r`` in a merge are
computed as products with ``2**-r`` (the same real number, so the same
correctly rounded double). Java's ``Math.log`` may differ from the C library's
``log`` by an ulp on some platforms; a detection could only change if a test
statistic fell within that ulp of its bound.

Deliberate limits: the tick is int64 (MOA's ``int`` would wrap after
``2**31`` inputs); ``max_buckets >= 2`` (with MOA's fixed ``M = 5`` this never
matters; ``M = 1`` would leave empty rows inside the histogram).

Speed
-----
:func:`adwin_run_one` (the loop behind :func:`adwin_run` and the evaluation
engine) reorganises the work without changing any operand (tested bit for bit
against the per-input :func:`adwin_step` and a literal restatement of MOA):
the inputs between two cut tests run in one loop without a tick test; rows 0
and 1 of the histogram live outside the state arrays between cut tests (row 0
is always the newest inputs, row 1 a ring buffer), so their merges shift
nothing; the scan's split-point table is rebuilt only for the rows that
changed since the previous scan, and ``ln(2 ln W / delta)`` only when ``W``
left ``[W_c, 2 W_c]`` (the filter needs a lower bound only). Per input this
costs about 10.5 ns (widths only) to 11.5 ns (all four outputs) on one core
of the development machine (AMD EPYC, ~3.7 GHz), against 14.5 to 15.4 ns
before; roughly a third each goes to the cut scans (one every
``clock`` inputs over about 60 split points), the bucket merges, and the
incremental mean and variance with MOA's two divisions per input.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import prange

from .adwin_scan import _ALL_ROWS, _java_int_mul, _reduce_window

__all__ = [
    "VARIANT_CODES",
    "MIN_WIDTH_FOR_CHECK",
    "WIDTH",
    "LAST_ROW",
    "TICK",
    "N_DETECTIONS",
    "TOTAL",
    "VARIANCE",
    "XMAX",
    "adwin_state_new",
    "adwin_capacity",
    "adwin_work_new",
    "adwin_update",
    "adwin_width",
    "adwin_mean",
    "adwin_variance",
    "adwin_start",
    "adwin_rows",
    "adwin_run",
    "adwin_run_one",
    "adwin_step",
]

#: integer codes of the cut rules
VARIANT_CODES = {"moa": 0, "theorem3": 1}

#: MOA's ``mintMinimLongitudWindow``: no cut test while the window holds <= 10 inputs
MIN_WIDTH_FOR_CHECK = 10

# columns of istate / fstate
WIDTH = 0
LAST_ROW = 1
TICK = 2
N_DETECTIONS = 3
TOTAL = 0
VARIANCE = 1
XMAX = 2


def adwin_state_new(n_instances: int, max_buckets: int = 5, max_rows: int = 64):
    """Allocate the state of ``n_instances`` empty ADWIN instances.

    Returns ``(sums, variances, counts, istate, fstate)`` (see the module
    docstring). Row 0 exists from the start (MOA's list starts with one row);
    ``LAST_ROW`` is 0. The arguments are assumed validated by the caller
    (``n_instances >= 1``, ``max_buckets >= 2``, ``max_rows >= 1``).
    """
    sums = np.zeros((n_instances, max_rows, max_buckets + 1), dtype=np.float64)
    variances = np.zeros((n_instances, max_rows, max_buckets + 1), dtype=np.float64)
    counts = np.zeros((n_instances, max_rows), dtype=np.int64)
    istate = np.zeros((n_instances, 4), dtype=np.int64)
    fstate = np.zeros((n_instances, 3), dtype=np.float64)
    return sums, variances, counts, istate, fstate


def adwin_work_new(sums) -> np.ndarray:
    """Scratch buffer for :func:`adwin_update` on a state whose ``sums`` is given."""
    return np.empty((4, sums.shape[1] * sums.shape[2]), dtype=np.float64)


def adwin_capacity(max_buckets: int, max_rows: int) -> int:
    """Largest window a state with ``max_rows`` rows can hold: ``M (2**R - 1)``.

    A window can never be wider than the number of inputs seen, so a state is
    safe for any stream of at most this many inputs (``R = 64`` is unlimited
    in practice).
    """
    return max_buckets * (2**max_rows - 1)


@numba.njit(cache=True, error_model="numpy", inline="always")
def _compress(S, V, C, last, max_buckets, row):
    """Merge the two oldest buckets of every overflowing row into the next row
    (MOA's ``compressBuckets``, called once row 0 holds ``M + 1`` buckets);
    return the new ``LAST_ROW`` and the highest row that changed.

    ``S``, ``V``, ``C`` are one instance's ``sums``, ``variances``, ``counts``.
    Bucket sizes are powers of two, so MOA's divisions by ``2**r`` are computed
    as the bit-identical products with ``2**-r``. Slots at or beyond a row's
    count hold stale values that are never read. ``row > 0`` starts the
    cascade at that row (rows below it must hold at most ``M`` buckets).
    """
    while C[row] == max_buckets + 1:
        nxt = row + 1
        if last == row:
            C[nxt] = 0
            last = nxt
        n1 = np.int64(1) << row
        scale = 1.0 / n1
        u1 = S[row, 0] * scale
        u2 = S[row, 1] * scale
        inc = _java_int_mul(n1, n1) * (u1 - u2) * (u1 - u2) * (0.5 * scale)
        k = C[nxt]
        S[nxt, k] = S[row, 0] + S[row, 1]
        V[nxt, k] = V[row, 0] + V[row, 1] + inc
        C[nxt] = k + 1
        for s in range(2, max_buckets + 1):
            S[row, s - 2] = S[row, s]
            V[row, s - 2] = V[row, s]
        C[row] = max_buckets - 1
        row = nxt
    return last, row


@numba.njit(cache=True, error_model="numpy", inline="always")
def adwin_step(S, V, C, work, w, last, tick, total, var, xmax, mean_before, x, delta, clock, min_window, variant):
    """One input on one instance whose scalars live in the caller's registers.

    The core of :func:`adwin_update` for kernels that fuse ADWIN into their own
    loop: ``S, V, C`` are the instance's ``sums[i]``, ``variances[i]``,
    ``counts[i]`` (updated in place), ``work`` a scratch buffer
    (:func:`adwin_work_new`), and ``w, last, tick, total, var, xmax`` the
    values of ``istate[i, WIDTH]``, ``istate[i, LAST_ROW]``, ``istate[i, TICK]``,
    ``fstate[i, TOTAL]``, ``fstate[i, VARIANCE]``, ``fstate[i, XMAX]``;
    ``mean_before`` must be ``total / w`` (the previous call's ``mean_after``).
    Returns ``(code, w, last, tick, total, var, xmax, mean_after)``; write them
    back to the state arrays before handing the state to anything else.

    Performance: numba inlines this function (``inline="always"``) but then
    reference-counts the four arrays at every step, which roughly doubles the
    per-step cost compared with :func:`adwin_run_one` (whose loop is this body
    written out). Where the input stream is known before the pass that needs
    the window (e.g. a 0/1 loss), run :func:`adwin_run_one` / :func:`adwin_run`
    over the chunk first and read the widths.
    """
    max_buckets = S.shape[1] - 1
    tick += 1
    w = w + 1
    if w > 1:
        dev = x - mean_before
        var = var + (w - 1) * dev * dev / w
    total = total + x
    ax = abs(x)
    if ax > xmax:
        xmax = ax
    k = C[0]  # x becomes the newest bucket of row 0 (variance 0)
    S[0, k] = x
    V[0, k] = 0.0
    C[0] = k + 1
    if k == max_buckets:
        last, _ = _compress(S, V, C, last, max_buckets, 0)
    # tick % clock == 0 without a 64-bit division when clock is a power of two
    if clock & (clock - 1) == 0:
        due = (tick & (clock - 1)) == 0
    else:
        due = tick % clock == 0
    change = False
    if due and w > MIN_WIDTH_FOR_CHECK:
        change, w, last, total, var, _, _ = _reduce_window(
            S,
            V,
            C,
            work,
            w,
            last,
            total,
            var,
            xmax,
            delta,
            min_window,
            variant,
            max_buckets,
            np.int64(0),
            0.0,
            np.int64(_ALL_ROWS),
        )
    mean_after = total / w
    code = 0
    if change:
        code = 1 if mean_after > mean_before else -1
    return code, w, last, tick, total, var, xmax, mean_after


@numba.njit(cache=True, error_model="numpy")
def adwin_update(sums, variances, counts, istate, fstate, work, i, x, delta, clock, min_window, variant):
    """Add the value ``x`` to ADWIN instance ``i``; return the detection code.

    One call is MOA's ``ADWIN.setInput(x)``: increment the tick, insert ``x`` as a
    new bucket of row 0 (incremental window variance
    ``VARIANCE += (W-1)(x - TOTAL/(W-1))**2 / W``), merge overflowing rows, and,
    when ``tick % clock == 0`` and ``W > 10``, scan the split points from the
    oldest bucket to the newest; at the first split with both sides holding more
    than ``min_window + 1`` inputs whose means differ by more than the bound,
    drop the oldest bucket and scan again, until a scan finds no cut.

    Parameters
    ----------
    sums, variances, counts, istate, fstate : ndarray
        State arrays from :func:`adwin_state_new` (modified in place).
    work : ndarray
        Scratch buffer from :func:`adwin_work_new` (float64, ``(4, R (M + 1))``);
        its content is irrelevant between calls, so one buffer serves any number
        of instances of the same shape, but concurrently running loop bodies
        (``prange`` iterations) each need their own.
    i : int
        Instance index (first axis of every state array).
    x : float
        The input (finite; usually a 0/1 loss).
    delta : float
        Confidence parameter in (0, 1).
    clock : int
        Cut test every ``clock`` inputs (MOA: 32).
    min_window : int
        MOA's ``mintMinWinLength`` (5): both sides of a split need more than
        ``min_window + 1`` inputs; it also enters MOA's bound.
    variant : int
        0 = MOA's bound ``|mu0 - mu1| > sqrt(2 m v dd) + 2/3 dd m`` with
        ``dd = ln(2 ln W / delta)``, ``v = VARIANCE / W``,
        ``m = 1/(n0 - min_window + 1) + 1/(n1 - min_window + 1)``;
        1 = Theorem 3 of Bifet et al. 2015: ``|mu0 - mu1| >= sqrt(ln(4/delta') / (2m))``
        with ``delta' = delta / W`` and ``m = 1/(1/n0 + 1/n1)``.

    Called per element from another numba loop this costs about three times
    the per-element time of :func:`adwin_run_one` (a non-inlined call that
    passes six arrays); prefer running :func:`adwin_run_one` over a chunk.

    Returns
    -------
    int
        0 if no bucket was dropped at this step. If at least one was dropped
        (a cut, i.e. MOA's ``setInput`` returned true): +1 when the window
        mean after the step is strictly greater than the window mean before
        the step (before ``x`` was added), -1 otherwise. +1 is exactly the
        condition under which MOA's ``ADWINChangeDetector.input`` sets
        ``isChangeDetected`` (it compares ``getEstimation()`` before and
        after ``setInput``), so MOA's change detector flags the +1 steps only.
    """
    w = istate[i, WIDTH]
    total = fstate[i, TOTAL]
    code, w, last, tick, total, var, xmax, mean_after = adwin_step(
        sums[i],
        variances[i],
        counts[i],
        work,
        w,
        istate[i, LAST_ROW],
        istate[i, TICK],
        total,
        fstate[i, VARIANCE],
        fstate[i, XMAX],
        total / w,
        x,
        delta,
        clock,
        min_window,
        variant,
    )
    istate[i, WIDTH] = w
    istate[i, LAST_ROW] = last
    istate[i, TICK] = tick
    if code != 0:
        istate[i, N_DETECTIONS] += 1
    fstate[i, TOTAL] = total
    fstate[i, VARIANCE] = var
    fstate[i, XMAX] = xmax
    return code


@numba.njit(cache=True)
def adwin_width(istate, i):
    """Number of inputs in the window of instance ``i`` (MOA's ``getWidth``)."""
    return istate[i, WIDTH]


@numba.njit(cache=True, error_model="numpy")
def adwin_mean(istate, fstate, i):
    """Window mean ``TOTAL / W`` of instance ``i`` (MOA's ``getEstimation``; NaN if empty)."""
    return fstate[i, TOTAL] / istate[i, WIDTH]


@numba.njit(cache=True, error_model="numpy")
def adwin_variance(istate, fstate, i):
    """Population variance of the window ``VARIANCE / W`` (MOA's ``getVariance``; NaN if empty)."""
    return fstate[i, VARIANCE] / istate[i, WIDTH]


@numba.njit(cache=True)
def adwin_start(istate, i):
    """0-based index (among the inputs given to instance ``i``) of the oldest input in its window."""
    return istate[i, TICK] - istate[i, WIDTH]


@numba.njit(cache=True)
def adwin_rows(istate, i):
    """Number of bucket rows in use by instance ``i`` (``LAST_ROW + 1``)."""
    return istate[i, LAST_ROW] + 1


@numba.njit(cache=True, error_model="numpy")
def adwin_run_one(
    x, S, V, C, ist, fst, delta, clock, min_window, variant, width_out, mean_out, variance_out, detection_out
):
    """Serial loop of :func:`adwin_run` over one stream.

    ``x`` (n,) float64; ``S, V, C, ist, fst`` are one instance's rows of the
    state arrays (``sums[i]``, ``variances[i]``, ``counts[i]``, ``istate[i]``,
    ``fstate[i]``, updated in place); the outputs are (n,) arrays, and an
    output of any other length (e.g. ``np.empty(0)``) is not written, so a
    caller that needs only the widths pays for no other stores.

    This is the fast way to run ADWIN inside another computation: run it over
    the (chunk of the) loss stream first and read ``width_out`` (window start
    ``= tick - width``), rather than calling :func:`adwin_update` or
    :func:`adwin_step` per element from another kernel (numba's per-call
    reference counting of the state arrays makes those 2-3x slower).

    Same arithmetic as :func:`adwin_step` input by input (tested bit for bit),
    organised for speed. The inputs between two cut tests run in one loop
    without a tick test. Nothing reads the two lowest rows between cut tests,
    so there they live outside the state arrays: row 0 (always the newest
    ``C[0]`` inputs, each with variance 0) as a read position into ``x``, row
    1 as a ring buffer; their merges (MOA's expression with ``n1 = n2 = 1``
    and ``= 2``) need no shifting, and both rows are written back in the
    canonical layout before every scan and at the end. Rows from 2 on are
    merged by :func:`_compress`. The cut scan is :func:`_scan_filtered`,
    with its split grid rebuilt only for the rows that changed and the
    ln-term cached across the scans of one call.
    """
    w = ist[WIDTH]
    last = ist[LAST_ROW]
    tick = ist[TICK]
    ndet = ist[N_DETECTIONS]
    total = fst[TOTAL]
    var = fst[VARIANCE]
    xmax = fst[XMAX]
    max_buckets = S.shape[1] - 1
    work = np.empty((4, S.shape[0] * S.shape[1]), dtype=np.float64)
    ring_size = 1
    while ring_size < max_buckets + 1:
        ring_size <<= 1
    mask = ring_size - 1
    ring_s = np.empty(ring_size, dtype=np.float64)  # row 1, oldest at ring position h1
    ring_v = np.empty(ring_size, dtype=np.float64)
    w_c = np.int64(0)  # not a literal: callees compile once
    ln_c = 0.0
    mean = total / w
    pow2 = clock & (clock - 1) == 0
    n = x.shape[0]
    write_width = width_out.shape[0] == n
    write_mean = mean_out.shape[0] == n
    write_variance = variance_out.shape[0] == n
    write_detection = detection_out.shape[0] == n
    dirty = np.int64(_ALL_ROWS)  # highest row changed since the last scan (its grid cells are stale)
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
            w += 1
            if w > 1:
                dev = xt - mean
                var = var + (w - 1) * dev * dev / w
            total = total + xt
            ax = abs(xt)
            if ax > xmax:
                xmax = ax
            mean_before = mean
            mean = total / w
            # x becomes the newest bucket of row 0; at M + 1 buckets MOA merges the two oldest
            c0 += 1
            if c0 > max_buckets:
                s0 = S[0, p0] if p0 < n_old else x[a + p0 - n_old]
                s1 = S[0, p0 + 1] if p0 + 1 < n_old else x[a + p0 + 1 - n_old]
                p0 += 2
                c0 -= 2
                d = s0 * 1.0 - s1 * 1.0
                if last == 0:
                    last = 1
                    dirty = _ALL_ROWS
                if dirty < 1:
                    dirty = 1
                pos = (h1 + c1) & mask
                ring_s[pos] = s0 + s1
                ring_v[pos] = 0.0 + 0.0 + d * d * 0.5
                c1 += 1
                if c1 > max_buckets:  # row 1 merges its two oldest into row 2 (n1 = n2 = 2)
                    r0 = h1
                    r1 = (h1 + 1) & mask
                    h1 = (h1 + 2) & mask
                    c1 -= 2
                    d = ring_s[r0] * 0.5 - ring_s[r1] * 0.5
                    if last == 1:
                        C[2] = 0
                        last = 2
                        dirty = _ALL_ROWS
                    if dirty < 2:
                        dirty = 2
                    k = C[2]
                    S[2, k] = ring_s[r0] + ring_s[r1]
                    V[2, k] = ring_v[r0] + ring_v[r1] + 4 * d * d * 0.25
                    C[2] = k + 1
                    if k == max_buckets:
                        if max_buckets == 5:  # MOA's M as a constant: LLVM unrolls the row shifts
                            last, top = _compress(S, V, C, last, 5, 2)
                        else:
                            last, top = _compress(S, V, C, last, max_buckets, 2)
                        if top > dirty:
                            dirty = top
            if write_width:
                width_out[t] = w
            if write_mean:
                mean_out[t] = mean
            if write_variance:
                variance_out[t] = var / w
            if write_detection:
                detection_out[t] = 0
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
                dirty = _ALL_ROWS
            change, w, last, total, var, w_c, ln_c = _reduce_window(
                S, V, C, work, w, last, total, var, xmax, delta, min_window, variant, max_buckets, w_c, ln_c, dirty
            )
            dirty = _ALL_ROWS if change else 0
            last_scanned = last
            if change:
                ndet += 1
                mean = total / w
                t = b - 1
                if write_width:
                    width_out[t] = w
                if write_mean:
                    mean_out[t] = mean
                if write_variance:
                    variance_out[t] = var / w
                if write_detection:
                    detection_out[t] = 1 if mean > mean_before else -1
        a = b
    ist[WIDTH] = w
    ist[LAST_ROW] = last
    ist[TICK] = tick
    ist[N_DETECTIONS] = ndet
    fst[TOTAL] = total
    fst[VARIANCE] = var
    fst[XMAX] = xmax


@numba.njit(cache=True, parallel=True)
def adwin_run(
    x,
    sums,
    variances,
    counts,
    istate,
    fstate,
    delta,
    clock,
    min_window,
    variant,
    width_out,
    mean_out,
    variance_out,
    detection_out,
):
    """Feed ``x[l, :]`` to instance ``l`` for every lead ``l`` (parallel over leads).

    ``x`` is ``(L, n)`` float64; the state has ``L`` instances and is updated in
    place, so calling this chunk after chunk equals one call on the whole
    stream. Per step ``t`` it writes the window width (int64), mean and
    variance (float64) after the step and the detection code (int8, see
    :func:`adwin_update`) into the ``(L, n)`` outputs. Same arithmetic as
    :func:`adwin_update` (the loop body is :func:`adwin_step` written out, see
    :func:`adwin_run_one`), with the scalars kept in registers between steps.
    Outputs whose last axis is not ``n`` (e.g. shape ``(L, 0)``) are not written.
    """
    for lead in prange(x.shape[0]):
        adwin_run_one(
            x[lead],
            sums[lead],
            variances[lead],
            counts[lead],
            istate[lead],
            fstate[lead],
            delta,
            clock,
            min_window,
            variant,
            width_out[lead],
            mean_out[lead],
            variance_out[lead],
            detection_out[lead],
        )
