"""Exact binary AUC over ADWIN windows (the window start is driven by given widths).

The same monotone-window scheme as the engine: after evaluated instance ``t`` the
window holds the last ``widths[t]`` evaluated instances; leaving instances are
removed with :func:`streamtk._kernels.auc.binary_add` (``sign = -1``), read from the
recorded arrays at their index. ``O(log R)`` per instance and per removal.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .auc import binary_add


@nb.njit(cache=True, parallel=True)
def adwin_window_auc(ranks, y2, w, has_w, widths, n_ranks, ck, stat_out):
    """``stat_out[l, c, :] = (U1, W0, W1, N0, N1)`` at checkpoint positions ``ck``.

    ``ranks`` (L, n) dense score ranks; ``y2`` (n,) 1 positive / 0 negative / -1
    missing; ``w`` (L, n) weights (used when ``has_w``); ``widths`` (L, n) ADWIN width
    after each evaluated instance (ignored elsewhere).
    """
    L = ranks.shape[0]
    n = y2.shape[0]
    nck = ck.shape[0]
    for l in nb.prange(L):
        tree = np.zeros((2, n_ranks + 1), dtype=np.float64)
        stat = np.zeros(5, dtype=np.float64)
        start = 0
        held = 0
        ci = 0
        for t in range(n):
            g = w[l, t] if has_w else 1.0
            if y2[t] >= 0 and g > 0.0:
                binary_add(tree, stat, ranks[l, t], y2[t] == 1, g, 1.0)
                held += 1
                while held > widths[l, t]:
                    r = start
                    while not (y2[r] >= 0 and (w[l, r] if has_w else 1.0) > 0.0):
                        r += 1
                    binary_add(tree, stat, ranks[l, r], y2[r] == 1, w[l, r] if has_w else 1.0, -1.0)
                    start = r + 1
                    held -= 1
            if ci < nck and ck[ci] == t:
                for j in range(5):
                    stat_out[l, ci, j] = stat[j]
                ci += 1
