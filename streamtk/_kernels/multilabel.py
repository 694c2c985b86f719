"""The multi-label family: example-based sums and per-label confusion counts under every forgetting mechanism.

An instance ``t`` has a true label set ``Y_t`` and a predicted set ``P_t`` over ``q`` labels (rows of 0/1).
:func:`instance_table` turns them, per series, into

* the *example values* ``ex[t, f]`` (rows :data:`EX_FIELDS`): ``1`` (the weight row), the mismatches
  ``|Y xor P|``, ``[Y == P]``, ``|Y & P| / |Y | P|`` and ``[Y | P non-empty]``, ``|Y & P| / |P|`` and
  ``[P non-empty]``, ``|Y & P| / |Y|`` and ``[Y non-empty]``, ``2 |Y & P| / (|Y| + |P|)`` (0 where a
  denominator is 0: the indicator rows say where), MOA's Hamming score ``(q - mismatches) / q`` and
  MOA's integer quotient ``|Y & P| // |P|``, and the instance's true positives ``|Y & P|``, false
  positives ``|P| - |Y & P|`` and false negatives ``|Y| - |Y & P|`` summed over the labels;
* the labels where ``y`` or ``p`` is 1, as compressed rows (``indptr``, ``lab``): ``lab`` holds the
  label's statistic to add to, ``3 j`` (true positive), ``3 j + 1`` (false positive) or ``3 j + 2`` (false
  negative); the per-label counts read only these, so an instance costs its label cardinality, not ``q``.

Statistics (rows of a state and of a snapshot, :data:`N_EX` example sums first): ``S_f = sum_s w_s
ex[s, f]`` over the members ``s`` an estimator holds, ``N`` (:data:`ROW_N`, the members held, faded
for a fading factor), then per label ``j`` its weighted ``TP, FP, FN`` (rows ``ROW_LABEL + 3 j``).
Mechanisms come from :mod:`streamtk._kernels.forgetting`: accumulators add with the lazy fading
multiplier and restart empty; sliding windows add, then remove the leaving members read back from
the inputs. Exact windows: each statistic counts its non-zero members and is exactly 0 once none is
left (as :mod:`streamtk._kernels.sums`), so a denominator that should be 0 (no predicted label held)
is 0, never a rounding residue of the weights that went through the window.

Arguments of :func:`run`: the named tuples below; ``span = (base, t_begin)`` (absolute position of
index 0, first index to process), ``ck`` checkpoint indices, ``snap (L, E, F, C)`` the statistics at the
checkpoints (``F`` rows: the example rows and ``N``, plus the label rows when ``labels``).
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np

from .forgetting import advance, fading_step, is_sliding, next_member, next_restart, overdue, sliding_limit

EX_FIELDS = ("w", "mismatch", "exact", "jaccard", "union", "precision", "predicted", "recall", "true", "f1",
             "tp", "fp", "fn", "moa_hamming", "moa_recall")  # fmt: skip
(EX_W, EX_MISMATCH, EX_EXACT, EX_JACCARD, EX_UNION, EX_PRECISION, EX_PREDICTED, EX_RECALL, EX_TRUE, EX_F1,
 EX_TP, EX_FP, EX_FN, EX_MOA_HAMMING, EX_MOA_RECALL) = range(len(EX_FIELDS))  # fmt: skip
N_EX = len(EX_FIELDS)
#: the example rows outside MOA's convention (MOA's two come last; their sums stay 0 otherwise)
N_EX_STREAMTK = EX_MOA_HAMMING
ROW_N = N_EX
ROW_LABEL = N_EX + 1
#: per label: true positives, false positives, false negatives
L_TP, L_FP, L_FN = 0, 1, 2
TAIL, HELD, CURSOR = 0, 1, 2
BLOCK = 2048

#: ``ex (L, Tt, nex)`` the example values (the first ``nex`` rows) and ``indptr (L, Tt + 1)`` (into ``lab (nnz,)``)
#: of the positions ``off .. off + Tt - 1`` (a segment and the history its windows read back), ``member (L, T)``
#: uint8 or ``(L, 0)`` (every position), ``weights (L, T)`` or ``(L, 0)`` (unit weights)
Inputs = namedtuple("Inputs", "ex indptr lab member weights off")
#: ``kinds``, ``sizes``, ``fading``, ``marks``, ``mark_off`` (:func:`streamtk._core.mechanisms.kernel_arrays`),
#: ``aslot`` the ADWIN of each estimator in ``limits (L, EA, T - t_begin)``
Mechanisms = namedtuple("Mechanisms", "kinds sizes fading marks mark_off aslot limits")
#: ``sums (L, E, F + 1)`` (the statistics, then the lazy multiplier), ``counts (L, E, F)`` int64 non-zero
#: members of each statistic (sliding windows), ``ptr (L, E, 3)`` int64 tail, held, next landmark
State = namedtuple("State", "sums counts ptr")


def n_rows(n_labels: int, labels: bool) -> int:
    """The statistics of one estimator: the example rows and ``N``, plus three per label when ``labels``."""
    return ROW_LABEL + (3 * n_labels if labels else 0)


@nb.njit(cache=True, nogil=True)
def instance_table(y, ymask, p, pmask, labels, ex, indptr, lab):
    """The example values and label rows of every instance of every series; returns the number of label entries.

    ``y (T, q)`` uint8 and ``p (L, T, q)`` uint8 hold 0/1; ``ymask (T,)`` / ``pmask (L, T)`` uint8 flag the
    present rows (the others are skipped: zero values, no entries). ``ex (L, T, nex)`` (the first ``nex``
    example rows: :data:`N_EX_STREAMTK`, or :data:`N_EX` with MOA's) and ``indptr (L, T + 1)`` are filled;
    ``lab`` receives the entries when ``labels`` (it must hold them: ``L T q`` at most). Entries are numbered
    series by series.
    """
    L, T, q = p.shape
    moa = ex.shape[2] > N_EX_STREAMTK
    k = 0
    for l in range(L):
        for t in range(T):
            indptr[l, t] = k
            row = ex[l, t]
            for f in range(ex.shape[2]):
                row[f] = 0.0
            if ymask[t] == 0 or pmask[l, t] == 0:
                continue
            inter = 0
            ny = 0
            npred = 0
            for j in range(q):
                a = y[t, j]
                b = p[l, t, j]
                ny += a
                npred += b
                inter += a & b
                if labels and (a | b):  # TP (a = b = 1): 3 j; FP (b only): 3 j + 1; FN (a only): 3 j + 2
                    lab[k] = 3 * j + (1 - a) + 2 * (1 - b)
                    k += 1
            union = ny + npred - inter
            mismatch = ny + npred - 2 * inter
            row[EX_W] = 1.0
            row[EX_MISMATCH] = float(mismatch)
            row[EX_EXACT] = 1.0 if mismatch == 0 else 0.0
            if union > 0:
                row[EX_JACCARD] = float(inter) / float(union)
                row[EX_UNION] = 1.0
                row[EX_F1] = 2.0 * float(inter) / float(ny + npred)
            if npred > 0:
                row[EX_PRECISION] = float(inter) / float(npred)
                row[EX_PREDICTED] = 1.0
            if ny > 0:
                row[EX_RECALL] = float(inter) / float(ny)
                row[EX_TRUE] = 1.0
            row[EX_TP] = float(inter)
            row[EX_FP] = float(npred - inter)
            row[EX_FN] = float(ny - inter)
            if moa:
                row[EX_MOA_HAMMING] = float(q - mismatch) / float(q)
                row[EX_MOA_RECALL] = float(inter // npred) if npred > 0 else 0.0
        indptr[l, T] = k
    return k


@nb.njit(cache=True, inline="always")
def _weight(wl, t):
    return wl[t] if wl.shape[0] > 0 else 1.0


@nb.njit(cache=True, inline="always")
def _store(s, snap, ci, F, m):
    for f in range(F):
        snap[f, ci] = s[f] / m


@nb.njit(cache=True, inline="always")
def _stop(ck, ci, t0, t1):
    """The end of a run from ``t0`` that goes up to the next checkpoint at most."""
    if ci < ck.shape[0] and t0 <= ck[ci] < t1:
        return ck[ci] + 1
    return t1


@nb.njit(cache=True)
def accumulate(kind, size, fade, marks, inp, l, F, blk, est, out):
    """An accumulator (prequential, fading, tumbling, landmarks) over ``[b0, b1)``; returns the next checkpoint.

    ``blk = (b0, b1, base)``, ``est = (s, ptr)`` the estimator's sums and pointers, ``out = (ck, ci, snap)``.
    """
    ex, indptr, lab, off = inp.ex[l], inp.indptr[l], inp.lab, inp.off
    nex = ex.shape[1]
    mem, wl = inp.member[l], inp.weights[l]
    dense = mem.shape[0] == 0
    labels = F > ROW_LABEL
    b0, b1, base = blk
    s, pt = est
    ck, ci, snap = out
    m = s[F]
    step = fading_step(kind, fade)
    nxt, cursor = next_restart(kind, size, marks, pt[CURSOR], base + b0)
    t = b0
    while t < b1:
        if base + t == nxt:  # a tumble or landmark starts here: the statistics restart empty
            for f in range(F):
                s[f] = 0.0
            m = 1.0
            nxt, cursor = next_restart(kind, size, marks, cursor, base + t + 1)
        stop = _stop(ck, ci, t, min(b1, nxt - base))
        for r in range(t, stop):
            if dense or mem[r]:
                m = advance(m, step)
                g = _weight(wl, r) * m
                x = r - off
                for f in range(nex):
                    s[f] += g * ex[x, f]
                s[ROW_N] += m
                if labels:
                    for k in range(indptr[x], indptr[x + 1]):
                        s[ROW_LABEL + lab[k]] += g
                if overdue(m):
                    for f in range(F):
                        s[f] /= m
                    m = 1.0
        t = stop
        while ci < ck.shape[0] and ck[ci] == t - 1:
            _store(s, snap, ci, F, m)
            ci += 1
    s[F] = m
    pt[CURSOR] = cursor
    return ci


@nb.njit(cache=True, inline="always")
def _leave(s, z, f, v):
    """Remove ``v`` from statistic ``f``; exactly 0 once its non-zero members all left (no branch: the values
    are zero or not at random, a branch on them is mispredicted half the time)."""
    z[f] -= v != 0.0
    s[f] = s[f] - v if z[f] > 0 else 0.0


@nb.njit(cache=True)
def slide(kind, size, limits, lim0, inp, l, F, blk, est, out):
    """A sliding window (``WINDOW`` of ``size`` members, or ``ADWIN`` with the widths ``limits``) over ``[b0, b1)``.

    Each member is added, then the oldest members leave (read back at the tail) while more than the
    limit are held. Arguments as :func:`accumulate`, ``est = (s, z, ptr)`` with the non-zero counts ``z``.
    """
    ex, indptr, lab, off = inp.ex[l], inp.indptr[l], inp.lab, inp.off
    nex = ex.shape[1]
    mem, wl = inp.member[l], inp.weights[l]
    dense = mem.shape[0] == 0
    labels = F > ROW_LABEL
    b0, b1, base = blk
    s, z, pt = est
    ck, ci, snap = out
    tail = pt[TAIL] - base
    held = pt[HELD]
    t = b0
    while t < b1:
        stop = _stop(ck, ci, t, b1)
        for r in range(t, stop):
            if not (dense or mem[r]):
                continue
            g = _weight(wl, r)
            x = r - off
            for f in range(nex):
                v = g * ex[x, f]
                s[f] += v
                z[f] += v != 0.0
            if labels:
                for k in range(indptr[x], indptr[x + 1]):
                    f = ROW_LABEL + lab[k]
                    s[f] += g
                    z[f] += 1
            held += 1
            lim = sliding_limit(kind, size, limits, r - lim0)
            while held > lim:
                q = next_member(mem, tail)
                gq = _weight(wl, q)
                x = q - off
                for f in range(nex):
                    _leave(s, z, f, gq * ex[x, f])
                if labels:
                    for k in range(indptr[x], indptr[x + 1]):
                        _leave(s, z, ROW_LABEL + lab[k], gq)
                held -= 1
                tail = q + 1
        t = stop
        while ci < ck.shape[0] and ck[ci] == t - 1:
            s[ROW_N] = float(held)
            _store(s, snap, ci, F, 1.0)
            ci += 1
    s[ROW_N] = float(held)
    pt[TAIL] = tail + base
    pt[HELD] = held
    return ci


@nb.njit(cache=True, nogil=True)
def run(inp, mech, state, span, ck, snap):
    """Every series and estimator over ``[t_begin, T)`` (see the module docstring)."""
    base, t_begin = span
    T = inp.ex.shape[1] + inp.off
    E = mech.kinds.shape[0]
    F = snap.shape[2]
    for l in range(state.sums.shape[0]):
        ci0 = np.int64(0)
        for b0 in range(t_begin, T, BLOCK):
            blk = (b0, min(T, b0 + BLOCK), base)
            ci1 = ci0
            for e in range(E):
                kind = mech.kinds[e]
                out = (ck, ci0, snap[l, e])
                if is_sliding(kind):
                    lim = mech.limits[l, max(mech.aslot[e], 0)]
                    est = (state.sums[l, e], state.counts[l, e], state.ptr[l, e])
                    ci1 = slide(kind, mech.sizes[e], lim, t_begin, inp, l, F, blk, est, out)
                else:
                    marks = mech.marks[mech.mark_off[e] : mech.mark_off[e + 1]]
                    est = (state.sums[l, e], state.ptr[l, e])
                    ci1 = accumulate(kind, mech.sizes[e], mech.fading[e], marks, inp, l, F, blk, est, out)
            ci0 = ci1
