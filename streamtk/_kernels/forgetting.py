"""Forgetting mechanisms: the one place that says which past instances a statistic at time ``t`` holds.

Every statistics family (confusion counts, scalar sums, U statistics, label dependence) runs
its estimators through the helpers below, so a mechanism is written once. Two shapes cover
them all (Gama, Sebastiao & Rodrigues 2013, seed 004, Algorithms 1-3; Bifet et al. 2015,
seed 000, section 6):

*accumulators* -- add only, with a multiplier and optional restarts:

* ``PREQUENTIAL``: every member so far (multiplier 1, never restarts);
* ``FADING``: every member ``s`` with weight ``alpha**(t - s)`` (Algorithm 3,
  ``S_t = x_t + alpha S_(t-1)``), by *lazy scaling*: member ``t`` is added with the multiplier
  ``m_t = alpha**-t`` (:func:`advance`), the true sums are ``stored / m`` and ratios need no
  rescaling; the state is divided by ``m`` (:func:`overdue`) before ``m`` can overflow;
* ``EWMA``: MOA's exponentially weighted moving average ``S_t = S_(t-1) + a (x_t - S_(t-1))`` with
  smoothing factor ``a``: member ``s`` weighs ``a (1 - a)**(t - s)``. The kernels run it as a fading
  factor ``1 - a`` (the numpy layer passes ``1 - a`` in the ``fading`` array, :func:`fading_step`): every
  estimate of the default convention is a ratio of weighted sums, in which the constant ``a`` cancels.
  MOA's own unnormalised estimates (``convention="moa"``) are its kernels' business;
* ``TUMBLING``: the members since the last multiple of ``size`` (stream positions
  ``0, size, 2 size, ...`` start a new tumble);
* ``LANDMARKS``: the members since the last landmark position (sorted stream positions).

*sliding windows* -- add, then the oldest members leave while more than a limit are held:

* ``WINDOW``: the last ``size`` members (Algorithm 2);
* ``ADWIN``: the members inside the current ADWIN window (its width after each member is
  given per step, :func:`sliding_limit`).

Positions are absolute 0-based stream positions; a *member* is an instance the family
evaluates (for example: label present and weight > 0). A restart empties the state exactly
(the family zeroes its sums), so tumbling and landmark statistics carry no rounding residue
across restarts.
"""

from __future__ import annotations

import numba as nb
import numpy as np

PREQUENTIAL, WINDOW, FADING, ADWIN, TUMBLING, LANDMARKS, EWMA = 0, 1, 2, 3, 4, 5, 6
#: the mechanisms :func:`next_restart` ever restarts (the numpy layer keeps the inputs a restart removes)
RESTARTING = (TUMBLING, LANDMARKS)
#: "no restart ahead"
NEVER = np.int64(2**62)
#: lazily scaled fading state is divided by its multiplier once the multiplier exceeds this; the
#: largest stored value is then below ``RENORM * w_max / (1 - alpha)``, far from overflow
RENORM = 1e100


#: the mechanisms whose members fade by a factor per member (:func:`fades`; the ``fading`` array holds the factor)
FADES = (FADING, EWMA)

#: the mechanisms whose oldest members leave one by one (:func:`is_sliding`; the numpy layer keeps their inputs)
SLIDING = (WINDOW, ADWIN)


@nb.njit(cache=True, inline="always")
def is_sliding(kind):
    """True for the mechanisms of :data:`SLIDING` (``WINDOW``, ``ADWIN``)."""
    return kind in SLIDING


@nb.njit(cache=True, inline="always")
def fades(kind):
    """True for the mechanisms of :data:`FADES` (``FADING``, ``EWMA``): their factor is in the ``fading`` array."""
    return kind in FADES


@nb.njit(cache=True, inline="always")
def fading_step(kind, fading):
    """The per-member factor ``1 / alpha`` of the lazy multiplier (1 when the mechanism does not fade);
    ``alpha`` is the ``fading`` array's value (``1 - a`` for an EWMA of smoothing factor ``a``)."""
    return 1.0 / fading if kind in FADES else 1.0


@nb.njit(cache=True, inline="always")
def advance(m, step):
    """The lazy multiplier of the next member: ``m / alpha`` (``m`` unchanged without fading)."""
    return m * step


@nb.njit(cache=True, inline="always")
def overdue(m):
    """True when a lazily scaled state must be divided by its multiplier ``m`` (then ``m = 1``)."""
    return m > RENORM


@nb.njit(cache=True)
def next_restart(kind, size, marks, cursor, t):
    """``(p, cursor)``: the first restart position ``p >= t`` of an accumulator (``NEVER`` if none).

    ``TUMBLING`` restarts at the multiples of ``size``; ``LANDMARKS`` at the sorted positions
    ``marks`` (``cursor`` is the index of the first landmark not yet passed, carried by the
    caller across blocks and chunks); other mechanisms never restart.
    """
    if kind == TUMBLING:
        return ((t + size - 1) // size) * size, cursor
    if kind == LANDMARKS:
        while cursor < marks.shape[0] and marks[cursor] < t:
            cursor += 1
        if cursor < marks.shape[0]:
            return marks[cursor], cursor
    return NEVER, cursor


@nb.njit(cache=True, inline="always")
def sliding_limit(kind, size, limits, i):
    """How many members a sliding window may hold after its ``i``-th member of this block.

    ``WINDOW``: ``size``. ``ADWIN``: ``limits[i]``, the ADWIN width after that member.
    """
    if kind == ADWIN:
        return limits[i]
    return size


@nb.njit(cache=True, inline="always")
def next_member(member, r):
    """The first position ``>= r`` whose ``member`` flag is set (every position when ``member`` is empty)."""
    if member.shape[0] == 0:
        return r
    while member[r] == 0:
        r += 1
    return r
