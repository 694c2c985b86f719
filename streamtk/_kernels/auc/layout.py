"""State layout and kernel argument groups of the AUC (U-statistics) family.

State of one (series, estimator), layout shared by every kernel of the family:

``stat (3, C, G)`` float64
    ``stat[ST_U, c, h]``: the weighted count of (positive, group-``h``) pairs correctly ordered on
    score column ``c``, ties one half (the Mann-Whitney ``U1`` of seed 001, eq. 2.6);
    ``stat[ST_W, c, h]``: the weight of group ``h``; ``stat[ST_N, c, h]``: its number of members.
    All three are *true* values (a fading estimator decays them, :func:`.step.decay`), so a snapshot is
    a copy of ``stat``.
``tree (C, G, D + 1)``
    one Fenwick row per column and group (:mod:`streamtk._kernels.fenwick`) holding the group's
    weight at each rank, times the estimator's lazy fading multiplier ``m``
    (:func:`streamtk._kernels.forgetting.advance`: member ``s`` is stored as ``g_s m_s``, its true
    weight at ``t`` is ``g_s m_s / m_t = g_s alpha**(t - s)``). Only the tree is scaled (``U``
    holds products of two weights and could not share the multiplier), so it is renormalised
    (``O(C G D)``) only when ``m`` passes :data:`.step.TREE_RENORM`.
``ptr (4,)`` int64
    ``P_TAIL`` absolute position from which the oldest held member is searched (sliding windows;
    the first position since the last restart for tumbling and landmark windows), ``P_HELD``
    members held, ``P_CURSOR`` the next landmark, ``P_BLOCK`` members of the current block
    (block-local window ranks).

Column ``c`` has one *positive* group ``pos[c]``; ``grp[c, k]`` is the group of class code ``k``
on column ``c``: binary scores ``C = 1, G = 2`` (group 1 the positive class), one-vs-rest
``C = K, G = 2``, pairwise (Hand & Till) ``C = K, G = K`` (``U[i, j]``: class ``i`` against ``j``
on the class-``i`` column).

Kernel arguments are grouped in the named tuples below (see :mod:`.general`).
"""

from __future__ import annotations

from collections import namedtuple

ST_U, ST_W, ST_N = 0, 1, 2
N_STAT = 3
P_TAIL, P_HELD, P_CURSOR, P_BLOCK = 0, 1, 2, 3
N_PTR = 4

#: ``y (T,)`` int64 class codes (-1: no label); ``member (L, T)`` uint8 members, or ``(L, 0)`` when every
#: position is one; ``weights (L, T)`` or ``(L, 0)``; ``ranks (L, T, C)`` int64 ranks in the accumulators'
#: key space; ``sranks (L, T, C)`` ranks in the sliding windows' key space
Inputs = namedtuple("Inputs", "y member weights ranks sranks")
#: ``grp (C, K)`` int64 group of each class code per column, ``pos (C,)`` the positive group per column,
#: ``unit``: every member weighs 1 (MOA's convention)
Groups = namedtuple("Groups", "grp pos unit")
#: per estimator: ``kinds``, ``sizes``, ``fading``, landmark ``marks[mark_off[e]:mark_off[e + 1]]``
#: (:func:`streamtk._core.mechanisms.kernel_arrays`), ``slot`` its tree in ``State.trees`` or
#: ``State.strees``, ``aslot`` its ADWIN in ``limits (L, EA, T - t_begin)`` (widths after each position)
Mechanisms = namedtuple("Mechanisms", "kinds sizes fading marks mark_off slot aslot limits")
#: ``stat (L, E, 3, C, G)``, ``scale (L, E)`` lazy fading multipliers, ``ptr (L, E, 4)`` int64,
#: ``trees (L, EA, C, G, DA + 1)`` of the accumulators, ``strees (L, ES, C, G, DS + 1)`` of the sliding windows
State = namedtuple("State", "stat scale ptr trees strees")
#: the binary fast path (:mod:`.binary`): ``cum (EI,)`` the interleaved estimators and ``alphas (EI,)`` their
#: fading factors (1: prequential), ``win (EW,)`` the windows and ``wsizes (EW,)`` their sizes, ``new`` / ``old``
#: ``(L, EW, T)`` their block-local ranks, ``n_local`` the largest local rank + 1, ``prefetch_rows`` the
#: interleaved tree size from which walks are prefetched
BinaryPlan = namedtuple("BinaryPlan", "cum alphas win wsizes new old n_local prefetch_rows")
#: ``stat``, ``scale``, ``ptr`` as :class:`State`; ``itree (L, DA + 1, 2, EI)`` the interleaved trees
BinaryState = namedtuple("BinaryState", "stat scale ptr itree")
