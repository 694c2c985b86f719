"""The baseline classifiers' rules, written once for every kernel that scores them.

Zliobaite et al. 2015 (seed 003, section 4) and Bifet et al. 2015 (seed 000, section 5.3):

* **Majority Class** (test-then-train): predicts the class with the largest (weighted,
  possibly faded or windowed) count among the labels its memory holds *before* ``t``; ties go
  to the lowest class code; with an empty memory it predicts class 0. The count of class ``i``
  is ``a[i] + b[i]`` (a state may keep a class's weight in two parts, e.g. hits and misses).
  :func:`majority_after_gain` keeps the argmax in O(1) when one class grows;
  :func:`majority_scan` recomputes it (O(k)) after the leader shrank.
* **MOA's Majority Class** (``BasicClassificationPerformanceEvaluator.getMajorityClass``): the
  first class whose *fraction* ``row[i] / den`` exceeds every earlier one and 0, the current
  label included (:func:`moa_majority`).
* **Persistent**: predicts the previous present label (class 0 before the first one), from the
  whole stream, never reset by a window (:func:`persistent_hit`). MOA's ``lastSeenClass``
  follows the same rule.
"""

from __future__ import annotations

import numba as nb


@nb.njit(cache=True, inline="always")
def majority_after_gain(best, best_count, c, c_count):
    """The majority after class ``c``'s count grew to ``c_count`` (the leader ``best`` has ``best_count``)."""
    if c_count > best_count or (c_count == best_count and c < best):
        return c
    return best


@nb.njit(cache=True)
def majority_scan(a, b, k):
    """Argmax of the class counts ``a[i] + b[i]`` over ``k`` classes, ties to the lowest code."""
    best = 0
    top = a[0] + b[0]
    for i in range(1, k):
        v = a[i] + b[i]
        if v > top:
            top = v
            best = i
    return best


@nb.njit(cache=True, inline="always")
def moa_majority(row, k, den):
    """MOA's Majority Class: the first class whose fraction ``row[i] / den`` beats every earlier one and 0.

    Compared as fractions, as MOA does: two sums that differ by less than their rounding can
    give equal fractions, and then the lower class wins.
    """
    best = 0
    top = 0.0
    for i in range(k):
        f = row[i] / den
        if f > top:
            top = f
            best = i
    return best


@nb.njit(cache=True, inline="always")
def persistent_hit(prev, y):
    """``(hit, new previous label)`` of the Persistent classifier for the present label ``y``."""
    return (1.0 if prev == y else 0.0), y
