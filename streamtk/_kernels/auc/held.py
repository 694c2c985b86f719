"""Which members an estimator holds, and with which weight, at chosen positions (ROC and PR curves).

The same mechanism helpers as every kernel (:mod:`streamtk._kernels.forgetting`), so a curve at
position ``t`` is computed over exactly the instances the AUC kernels hold there: all members so
far (prequential), the members since the last restart (tumbling, landmarks), the last ``size``
members (window) or the ADWIN window's width (adwin), each with its weight, times
``alpha**k`` for a fading factor (``k``: members after it, up to ``t``).
"""

from __future__ import annotations

import numba as nb

from ..forgetting import fades, is_sliding, next_member, next_restart, sliding_limit
from .step import is_member, member_weight


@nb.njit(cache=True)
def held_weights(kind, size, fade, marks, limits, mem, wl, unit, at, out):
    """``out[a, s]``: the weight of member ``s`` held at position ``at[a]`` (0 if not held).

    ``at`` sorted positions; ``limits (T,)``: the ADWIN width after each position (ADWIN only);
    ``mem`` (uint8, empty: every position), ``wl`` (empty: unit weights), ``unit`` as in
    :mod:`.general`.
    """
    has_w = wl.shape[0] > 0
    T = out.shape[1]
    tail = 0
    held = 0
    nxt, cursor = next_restart(kind, size, marks, 0, 0)
    a = 0
    for t in range(T):
        if t == nxt:
            tail = t
            held = 0
            nxt, cursor = next_restart(kind, size, marks, cursor, t + 1)
        if is_member(mem, t):
            held += 1
            if is_sliding(kind):
                lim = sliding_limit(kind, size, limits, t)
                while held > lim:
                    tail = next_member(mem, tail) + 1
                    held -= 1
        while a < at.shape[0] and at[a] == t:
            f = 1.0
            for s in range(t, tail - 1, -1):
                if is_member(mem, s):
                    out[a, s] = member_weight(wl, has_w, unit, s) * f
                    if fades(kind):
                        f *= fade
            a += 1
