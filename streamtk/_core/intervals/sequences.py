"""Anytime-valid confidence sequences of running means of bounded per-instance values.

A confidence sequence covers the true mean at every checkpoint at once: the probability that the
band misses it at some time is at most ``1 - level``, so a curve may be watched and the watching
stopped whenever (Howard, Ramdas, McAuliffe & Sekhon 2021; Waudby-Smith & Ramdas 2024). It assumes
values in a known range ``[low, high]`` that are independent with a common mean (more generally: each
value's mean given the past is that mean).

* **Prequential** estimates get the predictable plug-in empirical-Bernstein sequence of
  Waudby-Smith & Ramdas (2024), computed in one pass (:func:`streamtk._kernels.sequences.prpl_eb`):
  it adapts to the values' variance (narrow near accuracies 0 and 1), its width shrinks like
  ``sqrt(log(t) / t)``.
* **Sliding windows, fading factors, tumbling windows, landmarks** weigh the past with fixed weights
  that move with ``t``, so their sums are not one martingale. A union bound over instances gives a
  valid sequence: at instance ``t`` (1-based) Hoeffding's inequality for a weighted mean at level
  ``alpha_t = alpha / (t (t + 1))`` (these sum to ``alpha``), half-width
  ``(high - low) sqrt(log(2 t (t + 1) / alpha) / (2 n_eff))`` with Kish's effective size ``n_eff``
  (:func:`union_half_width`): wider than the pointwise band by a factor that grows like
  ``sqrt(log t)``, and never narrower than what ``n_eff`` instances allow.
* **ADWIN windows** are chosen from the losses themselves: no sequence is offered.
"""

from __future__ import annotations

import math

import numpy as np

from ..._kernels.sequences import new_state, prpl_eb

__all__ = ["PrequentialSequence", "union_half_width", "TRUNCATION", "METHOD_NOTE"]

#: the largest bet of the empirical-Bernstein sequence (Waudby-Smith & Ramdas 2024: 1/2)
TRUNCATION = 0.5
METHOD_NOTE = (
    "anytime-valid confidence sequence: prequential, the predictable plug-in empirical-Bernstein sequence of "
    "Waudby-Smith & Ramdas 2024 (Theorem 2); windows, fading factors, tumbling windows and landmarks, Hoeffding's "
    "bound at Kish's effective size with a union bound over instances, alpha_t = alpha / (t (t + 1))"
)


def union_half_width(n_eff, instance, alpha: float, span: float = 1.0):
    """The half-width of the union-bound sequence at instance ``instance`` (1-based) for a mean of values in a
    range of width ``span`` held with effective size ``n_eff`` (NaN where ``n_eff`` is not positive)."""
    t = np.asarray(instance, dtype=np.float64)
    n = np.asarray(n_eff, dtype=np.float64)
    level = np.log(2.0 / alpha) + np.log(t) + np.log(t + 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, span * np.sqrt(level / (2.0 * np.where(n > 0, n, 1.0))), np.nan)


class PrequentialSequence:
    """The empirical-Bernstein sequence of ``L`` series of values in ``[low, high]``, fed chunk by chunk.

    :meth:`update` takes the chunk's values ``(L, T)`` (NaN: not a member) and the chunk's checkpoint
    indices, and returns the bands ``(lower, upper)`` ``(L, C)`` in the values' units. The state is carried,
    so chunked feeding gives the bands of one pass.
    """

    def __init__(self, L: int, level: float, low: float = 0.0, high: float = 1.0):
        self.state = new_state(L)
        self.log_a = math.log(2.0 / (1.0 - level))
        self.low, self.high = float(low), float(high)

    def update(self, values, ck):
        x = np.asarray(values, dtype=np.float64)
        span = self.high - self.low
        if self.low != 0.0 or span != 1.0:
            x = (x - self.low) / span
        L = x.shape[0]
        lo, hi = np.empty((L, len(ck))), np.empty((L, len(ck)))
        prpl_eb(np.ascontiguousarray(x), self.state, np.asarray(ck, dtype=np.int64), self.log_a, TRUNCATION, lo, hi)
        return self.low + span * lo, self.low + span * hi
