"""The regression baselines as models: their test-then-train predictions, operation for operation as MOA's.

Each predicts instance ``t`` from the instances before it that carry a target and a positive weight (MOA's
learners train only on those), and predicts 0 before the first one:

* ``NoChange``: the last target seen (MOA's ``functions.NoChange``, its ``lastSeenClass``);
* ``TargetMean``: ``sum w y / sum w`` (MOA's ``rules.functions.TargetMean``: ``n += w``, ``sum += y w``);
* ``FadingTargetMean``: ``sum / nD`` with ``nD = w + f nD``, ``sum = y w + f sum`` (MOA's
  ``rules.functions.FadingTargetMean``, fading factor ``f``).
"""

from __future__ import annotations

import numba as nb

NO_CHANGE, TARGET_MEAN, FADING_TARGET_MEAN = 0, 1, 2


@nb.njit(cache=True, nogil=True)
def predict(y, w, fade, out):
    """The three baselines' predictions ``out (3, T)`` for targets ``y (T,)`` (NaN: none) and weights ``w (T,)``."""
    last = 0.0
    n = 0.0
    s = 0.0
    nd = 0.0
    sf = 0.0
    for t in range(y.shape[0]):
        out[NO_CHANGE, t] = last
        out[TARGET_MEAN, t] = s / n if n > 0.0 else 0.0
        out[FADING_TARGET_MEAN, t] = sf / nd if nd > 0.0 else 0.0
        v = y[t]
        g = w[t]
        if v == v and g > 0.0:
            last = v
            n += g
            s += v * g
            nd = g + fade * nd
            sf = v * g + fade * sf
