"""The six scalar sums of a confusion state in registers: load, store, divide by the fading scale.

``C, M, BMH, BMM, BPH, BPM`` (hits, misses, Majority-Class hits / misses, Persistent hits /
misses) sit at ``sc[S_C : S_C + 6]`` and their member counts at ``sc[S_NC : S_NC + 6]``
(:mod:`.layout`). Every accumulator keeps them in locals inside a block; these helpers are the one
place that maps the locals to the state and applies the lazy fading convention's rescale
(:func:`streamtk._kernels.forgetting.overdue`: every scaled sum divided by the multiplier).
"""

from __future__ import annotations

import numba as nb

from .layout import S_BPM, S_C, S_NBPM, S_NC

assert S_BPM - S_C == 5 and S_NBPM - S_NC == 5  # six consecutive slots each


@nb.njit(cache=True)
def load6(sc, at):
    """The six sums (``at = S_C``) or their member counts (``at = S_NC``) as a tuple."""
    return sc[at], sc[at + 1], sc[at + 2], sc[at + 3], sc[at + 4], sc[at + 5]


@nb.njit(cache=True)
def store6(sc, at, six):
    """Write a tuple from :func:`load6` back to ``sc[at : at + 6]``."""
    sc[at], sc[at + 1], sc[at + 2], sc[at + 3], sc[at + 4], sc[at + 5] = six


@nb.njit(cache=True)
def unscale6(six, m):
    """The six scaled sums divided by the lazy fading multiplier ``m`` (its rescale step)."""
    return six[0] / m, six[1] / m, six[2] / m, six[3] / m, six[4] / m, six[5] / m
