"""Kernels for comparing two loss streams and for estimator sums of scalar streams.

Two loop kernels, both built on the scalar step functions of
:mod:`streamtk._kernels.scalar_estimators` (cumulative, sliding-window and
fading-factor sums, Gama, Sebastiao & Rodrigues 2013, ``seeds/004_*.txt``,
Algorithms 1-3):

:func:`pair_run`
    For every pair ``(A, B)`` of loss streams (rows ``ia[p]`` and ``ib[p]`` of one
    ``(M, T)`` loss matrix, read by index, never copied) and every estimator, the
    four sums ``S_A = sum l_A``, ``S_B = sum l_B``, ``U = sum max(l_A - l_B, 0)``,
    ``V = sum max(l_B - l_A, 0)`` and the count (or faded count) ``N`` of the
    instances held by the estimator. For 0-1 losses ``U = n01`` (A wrong, B right)
    and ``V = n10`` (B wrong, A right), so the Q statistic (section 4) and the
    signed McNemar statistic and its contingency table (section 4.1) are pure
    functions of these five numbers: :func:`pair_finalise`.
:func:`stream_run`
    For every row of an ``(L, Q, T)`` array of per-instance quantities (losses,
    processing times, memory) and every estimator, the sum and the count held by
    the estimator; means, throughputs and RAM-Hours are finalised by the caller.

Layout and conventions shared by both kernels:

* estimators are given as ``kinds`` (0 prequential, 1 window, 2 fading; the codes
  of :data:`streamtk._core.mechanisms.KIND_CODES`), ``wsize`` and ``alphas``;
* arrays cover stream positions ``[0, T)`` of which ``[t_begin, T)`` are new; the
  positions before ``t_begin`` are history that a sliding window reads when an
  element leaves it (``x[t - w]``), so a chunked caller passes the last
  ``max(w)`` inputs of the previous chunk in front of the new chunk and carries
  ``state``: chunked processing is identical to one pass;
* ``state[p, e, :]`` holds the running sums of the step functions and, in the
  last slot, the step functions' input count ``n`` (windows, prequential) or the
  fading increment ``N_alpha`` (fading);
* ``ck`` (sorted, duplicates allowed) lists the positions after which the sums are
  written to ``out[p, e, c, :]`` (time last but one, so that each estimator's
  curve is contiguous); a position below ``t_begin`` writes the state
  as it was before this call (e.g. ``-1``: nothing seen yet). The count written
  is the number of instances the estimator holds (``min(n, w)`` for a window).

Loop order (as :mod:`streamtk._kernels.confusion`): blocks of ``BLOCK`` instances,
estimator-major inside a block with the state in local variables, time-major
across blocks, ``prange`` over pairs / rows.
"""

from __future__ import annotations

import math

import numba as nb

from .scalar_estimators import cumulative_mean_step, fading_mean_step, window_mean_step

__all__ = [
    "BLOCK",
    "PAIR_FIELDS",
    "pair_run",
    "pair_finalise",
    "stream_run",
    "chi2_1_sf",
]

BLOCK = 2048
KIND_PREQUENTIAL, KIND_WINDOW, KIND_FADING = 0, 1, 2

#: slots of a pair's state / raw output
SA, SB, SU, SV, SN = 0, 1, 2, 3, 4
PAIR_FIELDS = ("sum_a", "sum_b", "n01", "n10", "n")


@nb.njit(cache=True, inline="always", error_model="numpy")
def _split(d):
    """``(max(d, 0), max(-d, 0))``: the parts of ``l_A - l_B`` counted in ``U`` and ``V``."""
    u = d if d > 0.0 else 0.0
    v = -d if d < 0.0 else 0.0
    return u, v


@nb.njit(cache=True, error_model="numpy")
def _pair_block(xa, xb, b0, b1, kind, w, alpha, st, ck, c0, c1, out, e):
    """One estimator over ``[b0, b1)``; state in locals; checkpoints ``ck[c0:c1]``.

    One loop per kind, so that the kind test is not inside the time loop.
    """
    sa = st[SA]
    sb = st[SB]
    su = st[SU]
    sv = st[SV]
    n = st[SN]
    wf = float(w)
    c = c0
    # the next checkpoint position inside the block (b1 if none)
    nxt = ck[c] if c < c1 else b1
    if kind == KIND_PREQUENTIAL:
        for t in range(b0, b1):
            a = xa[t]
            b = xb[t]
            u, v = _split(a - b)
            sa, n1, _ = cumulative_mean_step(sa, n, a)
            sb, _, _ = cumulative_mean_step(sb, n, b)
            su, _, _ = cumulative_mean_step(su, n, u)
            sv, _, _ = cumulative_mean_step(sv, n, v)
            n = n1
            if t == nxt:
                c = _emit(out, ck, c, c1, e, t, sa, sb, su, sv, n)
                nxt = ck[c] if c < c1 else b1
    elif kind == KIND_WINDOW:
        for t in range(b0, b1):
            a = xa[t]
            b = xb[t]
            u, v = _split(a - b)
            ao = 0.0
            bo = 0.0
            if t >= w:
                ao = xa[t - w]
                bo = xb[t - w]
            uo, vo = _split(ao - bo)
            sa, n1, _ = window_mean_step(sa, n, a, ao, wf)
            sb, _, _ = window_mean_step(sb, n, b, bo, wf)
            su, _, _ = window_mean_step(su, n, u, uo, wf)
            sv, _, _ = window_mean_step(sv, n, v, vo, wf)
            n = n1
            if t == nxt:
                c = _emit(out, ck, c, c1, e, t, sa, sb, su, sv, min(n, wf))
                nxt = ck[c] if c < c1 else b1
    else:
        for t in range(b0, b1):
            a = xa[t]
            b = xb[t]
            u, v = _split(a - b)
            sa, n1, _ = fading_mean_step(sa, n, a, alpha)
            sb, _, _ = fading_mean_step(sb, n, b, alpha)
            su, _, _ = fading_mean_step(su, n, u, alpha)
            sv, _, _ = fading_mean_step(sv, n, v, alpha)
            n = n1
            if t == nxt:
                c = _emit(out, ck, c, c1, e, t, sa, sb, su, sv, n)
                nxt = ck[c] if c < c1 else b1
    st[SA] = sa
    st[SB] = sb
    st[SU] = su
    st[SV] = sv
    st[SN] = n


@nb.njit(cache=True, error_model="numpy")
def _emit(out, ck, c, c1, e, t, sa, sb, su, sv, count):
    """Write the sums to every checkpoint equal to ``t`` (duplicates allowed); return the next index."""
    while c < c1 and ck[c] == t:
        o = out[e, c]
        o[SA] = sa
        o[SB] = sb
        o[SU] = su
        o[SV] = sv
        o[SN] = count
        c += 1
    return c


@nb.njit(cache=True, error_model="numpy")
def _write_state(st, kind, w, out_ce, nq):
    for j in range(nq):
        out_ce[j] = st[j]
    n = st[nq]
    out_ce[nq] = min(n, float(w)) if kind == KIND_WINDOW else n


@nb.njit(cache=True, parallel=True, error_model="numpy")
def pair_run(loss, ia, ib, kinds, wsize, alphas, t_begin, ck, state, out):
    """Sums of every pair and estimator at the checkpoints.

    Parameters
    ----------
    loss : (M, T) float64
        Per-instance losses of ``M`` models (history before ``t_begin``).
    ia, ib : (P,) int64
        Rows of model A and model B of each pair.
    kinds, wsize, alphas : (E,) int64, int64, float64
        Estimators (see the module docstring).
    t_begin : int
        First new position.
    ck : (C,) int64
        Sorted checkpoint positions (``< t_begin`` = the incoming state).
    state : (P, E, 5) float64
        ``S_A, S_B, U, V, n`` per pair and estimator, updated in place.
    out : (P, E, C, 5) float64
        ``S_A, S_B, U (= n01), V (= n10), N`` at each checkpoint.
    """
    P = ia.shape[0]
    T = loss.shape[1]
    E = kinds.shape[0]
    C = ck.shape[0]
    for p in nb.prange(P):
        xa = loss[ia[p]]
        xb = loss[ib[p]]
        op = out[p]
        c0 = 0
        while c0 < C and ck[c0] < t_begin:
            for e in range(E):
                _write_state(state[p, e], kinds[e], wsize[e], op[e, c0], 4)
            c0 += 1
        for b0 in range(t_begin, T, BLOCK):
            b1 = min(T, b0 + BLOCK)
            c1 = c0
            while c1 < C and ck[c1] < b1:
                c1 += 1
            for e in range(E):
                _pair_block(xa, xb, b0, b1, kinds[e], wsize[e], alphas[e], state[p, e], ck, c0, c1, op, e)
            c0 = c1


@nb.njit(cache=True, inline="always", error_model="numpy")
def chi2_1_sf(x):
    """Upper tail of the chi-square distribution with one degree of freedom: ``erfc(sqrt(x / 2))``."""
    return math.erfc(math.sqrt(0.5 * x))


@nb.njit(cache=True, parallel=True, error_model="numpy")
def pair_finalise(raw, threshold, q, loss_a, loss_b, counts, mcnemar, p_value, reject):
    """Statistics from the raw sums ``raw`` (..., 5) flattened to ``(K, 5)``.

    Writes, per row ``i``:

    * ``q[i] = log(S_A / S_B)`` (Gama et al. 2013, section 4; NaN for ``0/0``,
      ``-inf``/``+inf`` when only one sum is 0);
    * ``loss_a[i] = S_A / N``, ``loss_b[i] = S_B / N`` (NaN when ``N = 0``);
    * ``counts[i] = (n00, n01, n10, n11)`` with ``n01 = U``, ``n10 = V``,
      ``n11 = (S_A + S_B - U - V) / 2``, ``n00 = N - (S_A + S_B + U + V) / 2``
      (for 0-1 losses; exact integers for prequential and window estimators);
    * ``mcnemar[i] = sign(n01 - n10) (n01 - n10)**2 / (n01 + n10)`` (section 4.1;
      NaN when ``n01 + n10 = 0``), ``p_value[i] = P(chi2_1 > |M|)`` and
      ``reject[i] = |M| > threshold`` (False when M is NaN).

    ``counts`` etc. with zero rows are not written (losses that are not 0-1).
    """
    K = raw.shape[0]
    binary = counts.shape[0] == K
    for i in nb.prange(K):
        sa = raw[i, SA]
        sb = raw[i, SB]
        n = raw[i, SN]
        q[i] = math.log(sa / sb) if not (sa == 0.0 and sb == 0.0) else math.nan
        loss_a[i] = sa / n
        loss_b[i] = sb / n
        if binary:
            u = raw[i, SU]
            v = raw[i, SV]
            # symmetric in (A, B) so that swapping the models swaps n01/n10 exactly
            both = 0.5 * ((sa + sb) - (u + v))
            counts[i, 0] = n - 0.5 * ((sa + sb) + (u + v))
            counts[i, 1] = u
            counts[i, 2] = v
            counts[i, 3] = both
            diff = u - v
            disc = u + v
            m = math.copysign(diff * diff / disc, diff) if disc > 0.0 else math.nan
            mcnemar[i] = m
            p_value[i] = chi2_1_sf(abs(m))
            reject[i] = abs(m) > threshold


@nb.njit(cache=True, error_model="numpy")
def _stream_block(x, b0, b1, kind, w, alpha, s, n):
    """One quantity and estimator over ``[b0, b1)``: returns ``(s, n)``; no output."""
    wf = float(w)
    if kind == KIND_PREQUENTIAL:
        for t in range(b0, b1):
            s, n, _ = cumulative_mean_step(s, n, x[t])
    elif kind == KIND_WINDOW:
        for t in range(b0, b1):
            xo = x[t - w] if t >= w else 0.0
            s, n, _ = window_mean_step(s, n, x[t], xo, wf)
    else:
        for t in range(b0, b1):
            s, n, _ = fading_mean_step(s, n, x[t], alpha)
    return s, n


@nb.njit(cache=True, parallel=True, error_model="numpy")
def stream_run(x, kinds, wsize, alphas, t_begin, ck, state, out):
    """Estimator sums of every quantity of every row at the checkpoints.

    Parameters
    ----------
    x : (L, Q, T) float64
        ``Q`` per-instance quantities of ``L`` series (history before ``t_begin``).
    kinds, wsize, alphas : (E,)
        Estimators.
    t_begin : int
        First new position.
    ck : (C,) int64
        Sorted checkpoint positions.
    state : (L, E, Q + 1) float64
        Sums of the ``Q`` quantities and the count ``n`` (fading: ``N_alpha``).
    out : (L, E, C, Q + 1) float64
        Sums and the count held by the estimator at each checkpoint.
    """
    L = x.shape[0]
    Q = x.shape[1]
    T = x.shape[2]
    E = kinds.shape[0]
    C = ck.shape[0]
    for l in nb.prange(L):
        ol = out[l]
        c0 = 0
        while c0 < C and ck[c0] < t_begin:
            for e in range(E):
                _write_state(state[l, e], kinds[e], wsize[e], ol[e, c0], Q)
            c0 += 1
        # checkpoints cut the stream into segments; between two of them each
        # (estimator, quantity) runs its own tight loop with the state in registers
        t = t_begin
        while t < T:
            c1 = c0
            while c1 < C and ck[c1] < t:
                c1 += 1
            stop = min(T, t + BLOCK)
            if c1 < C and ck[c1] < stop:
                stop = ck[c1] + 1
            for e in range(E):
                st = state[l, e]
                n0 = st[Q]
                n = n0
                for j in range(Q):
                    s, n = _stream_block(x[l, j], t, stop, kinds[e], wsize[e], alphas[e], st[j], n0)
                    st[j] = s
                st[Q] = n
            while c1 < C and ck[c1] == stop - 1:
                for e in range(E):
                    _write_state(state[l, e], kinds[e], wsize[e], ol[e, c1], Q)
                c1 += 1
            c0 = c1
            t = stop
