"""State and snapshot layouts of the confusion family.

State of one (series, estimator) in the default convention, kept so that every sum over a set
of members is exactly 0 when the set is empty (the *exact window* rule: a sum whose member count
drops to 0 is reset to 0, so no rounding residue of non-integer weights survives):

``sc[S_*]`` scalars
    ``S_C`` / ``S_M`` weighted hits / misses, ``S_BMH`` / ``S_BMM`` Majority-Class hits / misses,
    ``S_BPH`` / ``S_BPM`` Persistent hits / misses, ``S_NF`` the number of members held (the faded
    count for a fading factor), ``S_SCALE`` the lazy fading multiplier, the member counts
    ``S_NC ... S_NBPM`` of the six sums (sliding windows only), then the sums of ``nq`` extra
    per-instance quantities from ``S_Q``.
``cv[V_*, :]`` class vectors
    ``V_DIAG`` hits by class, ``V_OFFROW`` misses by true class, ``V_OFFCOL`` misses by predicted
    class, and their member counts. True-class weight ``ROW_i = DIAG_i + OFFROW_i``, predicted-class
    weight ``COL_i = DIAG_i + OFFCOL_i``, weight total ``W = C + M``: when a class's members are all
    hits its recall is exactly 1, and with one class held ``p_ran`` is exactly 1.
``pt[P_*]`` int64
    ``P_TAIL`` absolute position at which the search for the oldest member starts, ``P_HELD`` members
    held, ``P_BEST`` the Majority Class, ``P_CURSOR`` the next landmark, ``P_TAIL_BASE`` /
    ``P_HELD_BASE`` the same for the baselines' members (MOA's convention only).

MOA's convention keeps MOA's own sums in the same arrays (see :mod:`.moa`).

A *snapshot* is what every finaliser reads (the ``s`` of :mod:`streamtk._core.metrics.confusion_sums`):
per series and estimator a block ``(F, C)``, one row per statistic and one column per checkpoint, rows

``F_W`` weight total, ``F_N`` members held (faded count; the ADWIN width), ``F_DEN`` the denominator
of estimates (``W``; MOA divides by the number of instances), ``F_C`` weighted hits, ``F_BM`` /
``F_BMW`` Majority-Class hits and their denominator, ``F_BP`` / ``F_BPW`` the same for Persistent,
``F_EMPTY`` MOA's estimate before anything was observed (written by MOA's kernels only: 0 for its
fading evaluator, NaN otherwise), the ``nq`` quantity sums from ``F_Q``, then ``ROW``, ``COL`` and
``DIAG`` (``k`` rows each). Values are true (unscaled) sums.
"""

from __future__ import annotations

S_C, S_M, S_BMH, S_BMM, S_BPH, S_BPM, S_NF, S_SCALE = 0, 1, 2, 3, 4, 5, 6, 7
S_NC, S_NM, S_NBMH, S_NBMM, S_NBPH, S_NBPM = 8, 9, 10, 11, 12, 13
S_Q = 14
V_DIAG, V_OFFROW, V_OFFCOL, V_NDIAG, V_NOFFROW, V_NOFFCOL = 0, 1, 2, 3, 4, 5
N_VECTORS = 6
P_TAIL, P_HELD, P_BEST, P_CURSOR, P_TAIL_BASE, P_HELD_BASE = 0, 1, 2, 3, 4, 5
N_POINTERS = 6
F_W, F_N, F_DEN, F_C, F_BM, F_BMW, F_BP, F_BPW, F_EMPTY, F_Q = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9


def state_size(nq: int) -> int:
    """Scalars of one estimator's state with ``nq`` extra quantities."""
    return S_Q + nq


def snapshot_size(nq: int, k: int) -> int:
    """Rows of a snapshot: 9 scalars, ``nq`` quantity sums, ROW, COL, DIAG."""
    return F_Q + nq + 3 * k


def row0(nq: int) -> int:
    """First snapshot row of ROW (COL follows at ``+ k``, DIAG at ``+ 2 k``)."""
    return F_Q + nq
