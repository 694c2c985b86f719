"""Layouts of the regression and prediction-interval families: per-instance quantities, state, snapshot rows.

Two families share one kernel (:mod:`.kernel`); a family is a code (``REG``, ``INT``) that says how a member's
quantities are computed from its target ``y`` and its prediction columns:

``REG`` (point predictions, one column ``p``; ``e = y - p``)
    weighted sums of ``|e|``, ``e**2``, ``|e| / max(|y|, eps)``, ``2 |e| / (|y| + |p|)`` (0 when both are 0)
    and of the TargetMean baseline's errors ``|y - b|``, ``(y - b)**2`` (``b``: the weighted mean of the
    targets the estimator held before the member, 0 when it held none); the targets' weighted mean and sum
    of squared deviations (Welford); the extremum stream ``|e|`` (maximum error); the median key of ``|e|``.
``INT`` (intervals: columns ``lower``, ``upper``, then one column per quantile level)
    weighted sums of ``[lower <= y <= upper]``, ``upper - lower``, the interval (Winkler) score
    ``(upper - lower) + (2 / alpha)((lower - y)[y < lower] + (y - upper)[y > upper])`` and the pinball loss of
    each quantile column; the extremum streams ``y`` and ``-y`` (the targets' range).

Snapshot rows (one column per checkpoint; true, unscaled values): ``F_W`` weight held, ``F_N`` members held
(faded count), ``F_MEAN`` / ``F_M2`` the targets' weighted mean and sum of squared deviations (``REG``; NaN
otherwise), the ``K`` quantity sums from ``F_Q``, then the ``J`` extrema (maximum over the members held, NaN
when none), then the weighted median of ``|e|`` (``REG`` with the median asked; NaN otherwise).

State of one (series, estimator): ``sf`` floats (the ``K`` sums, then ``W``, ``N``, the lazy fading
multiplier, the mean, ``M2``, the ``J`` running maxima of an accumulator, the ``K`` compensations of a window's
sums) and ``si`` ints (window tail, members held, next landmark, the non-zero member counts of the ``K`` sums, then
head and length of the ``J`` monotone deques).
"""

from __future__ import annotations

REG, INT = 0, 1

# quantities of REG
Q_AE, Q_SE, Q_APE, Q_SAPE, Q_BAE, Q_BSE = 0, 1, 2, 3, 4, 5
K_REG = 6
J_REG = 1
# quantities of INT (then one pinball loss per quantile column)
Q_COVER, Q_WIDTH, Q_WINK, Q_PIN = 0, 1, 2, 3
J_INT = 2
#: prediction columns of INT before its quantile columns
INT_BOUNDS = 2

# snapshot rows
F_W, F_N, F_MEAN, F_M2, F_Q = 0, 1, 2, 3, 4

# float state after the K sums (offsets from K)
S_W, S_N, S_SCALE, S_MEAN, S_M2, S_MAX = 0, 1, 2, 3, 4, 5
# int state
I_TAIL, I_HELD, I_CURSOR, I_NZ = 0, 1, 2, 3

#: absolute machine epsilon: scikit-learn's floor of ``|y|`` in the absolute percentage error
EPS = 2.220446049250313e-16


def n_quantities(fam: int, n_quantiles: int = 0) -> int:
    """``K``: the weighted sums of a family."""
    return K_REG if fam == REG else Q_PIN + n_quantiles


def n_extrema(fam: int) -> int:
    """``J``: the extremum streams of a family."""
    return J_REG if fam == REG else J_INT


def n_fields(K: int, J: int) -> int:
    """Snapshot rows: ``W, N, MEAN, M2``, ``K`` sums, ``J`` extrema, the median."""
    return F_Q + K + J + 1


def state_sizes(K: int, J: int) -> tuple:
    """``(floats, ints)`` of one estimator's state (the floats end with the ``K`` sums' compensations)."""
    return K + S_MAX + J + K, I_NZ + K + 2 * J


# MOA's evaluators (streamtk._kernels.regression.moa): snapshot rows
#: REG: weight held (MOA's weightObserved), MOA's getTotalWeightObserved, squared / absolute errors, squared /
#: absolute errors of the running mean, whether any member was seen (numAttributes is set then)
M_W, M_TW, M_SE, M_AE, M_STE, M_ATE, M_SEEN = 0, 1, 2, 3, 4, 5, 6
#: INT: MOA's coverage count, width sum, denominator (counter or window size), truth maximum and minimum (with
#: MOA's initial values and a window's empty slots), whether the estimator is a window (its rounding order),
#: the members held
M_COVER, M_WIDTH, M_DEN, M_YMAX, M_YMIN, M_WINDOW, M_HELD = 0, 1, 2, 3, 4, 5, 6
N_MOA_FIELDS = 7
