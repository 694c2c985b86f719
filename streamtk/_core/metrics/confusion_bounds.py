"""Analytic bands of the confusion family: Wilson with Kish's effective size, the delta method for the kappas.

With ``n_eff = W^2 / W2`` (Kish's effective number of instances an estimator holds, :mod:`.bounds`):

* proportions (accuracy ``p0``, error ``1 - p0``, ``p_maj``, ``p_per``): Wilson's score interval at
  ``n_eff``; recall ``DIAG_i / ROW_i`` and precision ``DIAG_i / COL_i`` at the effective size of the
  class's instances, ``ROW_i^2 / ROW2_i`` and ``COL_i^2 / COL2_i``;
* ``kappa``: ``kappa +- z SE`` with ``SE = sqrt(p0 (1 - p0) / (n_eff (1 - p_ran)^2))``, the standard
  error of ``kappa_se`` (Zliobaite et al. 2015, seed 003, eq. 11) at the effective size: the delta
  method with the chance agreement taken as known; ``kappa_m`` and ``kappa_per`` alike with ``p_maj``
  and ``p_per`` in place of ``p_ran``; ``kappa_plus = sqrt(kappa kappa_per)`` (when both are positive)
  by the delta method on ``p0``: ``SE = (kappa_per / (1 - p_ran) + kappa / (1 - p_per)) / (2 kappa_plus)
  sqrt(p0 (1 - p0) / n_eff)``. Upper bounds are clipped at 1 (no kappa exceeds it).

Undefined values are NaN (nothing held, ``p_ran = 1``, a class not held).
"""

from __future__ import annotations

from .base import Interval, Metric
from .bounds import wald_lower, wald_upper, wilson_lower, wilson_upper
from .confusion_sums import KAPPA, KAPPA_PER, N_EFF, P0, P_MAJ, P_PER, chance_corrected, p_ran
from .dialect import NAN, formula, minimum, sqrt, where

__all__ = ["BANDS", "METRICS", "kappa_se_of"]

_WILSON = "Wilson score interval at Kish's effective size n_eff = W^2 / W2"
_REF = "Wilson 1927; Kish 1965"
_DELTA = "delta method (the standard error of kappa_se at Kish's effective size)"
_ZL = "Zliobaite et al. 2015 (seed 003) eq. 11; Kish 1965"


@formula
def kappa_se_of(p0, base, n):
    """``sqrt(p0 (1 - p0) / (n (1 - base)^2))``: the standard error of a chance-corrected accuracy with ``base``
    taken as known (NaN when ``n <= 0`` or ``base = 1``)."""
    ok = (n > 0.0) & (base != 1.0)
    nn = where(ok, n, 1.0)
    return where(ok, sqrt(p0 * (1.0 - p0) / (nn * ((1.0 - base) * (1.0 - base)))), NAN)


@formula
def _acc_lo(s, v, m, x):
    return wilson_lower(v[P0, m], v[N_EFF, m], x.z)


@formula
def _acc_hi(s, v, m, x):
    return wilson_upper(v[P0, m], v[N_EFF, m], x.z)


@formula
def _err_lo(s, v, m, x):
    return 1.0 - wilson_upper(v[P0, m], v[N_EFF, m], x.z)


@formula
def _err_hi(s, v, m, x):
    return 1.0 - wilson_lower(v[P0, m], v[N_EFF, m], x.z)


@formula
def _maj_lo(s, v, m, x):
    return wilson_lower(v[P_MAJ, m], v[N_EFF, m], x.z)


@formula
def _maj_hi(s, v, m, x):
    return wilson_upper(v[P_MAJ, m], v[N_EFF, m], x.z)


@formula
def _per_lo(s, v, m, x):
    return wilson_lower(v[P_PER, m], v[N_EFF, m], x.z)


@formula
def _per_hi(s, v, m, x):
    return wilson_upper(v[P_PER, m], v[N_EFF, m], x.z)


@formula
def _kappa_lo(s, v, m, x):
    return wald_lower(v[KAPPA, m], kappa_se_of(v[P0, m], p_ran(s, v, m, x), v[N_EFF, m]), x.z)


@formula
def _kappa_hi(s, v, m, x):
    return minimum(wald_upper(v[KAPPA, m], kappa_se_of(v[P0, m], p_ran(s, v, m, x), v[N_EFF, m]), x.z), 1.0)


@formula
def _kappa_m_value(s, v, m, x):
    return chance_corrected(s, v, m, x, v[P0, m], v[P_MAJ, m])


@formula
def _kappa_m_lo(s, v, m, x):
    return wald_lower(_kappa_m_value(s, v, m, x), kappa_se_of(v[P0, m], v[P_MAJ, m], v[N_EFF, m]), x.z)


@formula
def _kappa_m_hi(s, v, m, x):
    se = kappa_se_of(v[P0, m], v[P_MAJ, m], v[N_EFF, m])
    return minimum(wald_upper(_kappa_m_value(s, v, m, x), se, x.z), 1.0)


@formula
def _kappa_per_lo(s, v, m, x):
    return wald_lower(v[KAPPA_PER, m], kappa_se_of(v[P0, m], v[P_PER, m], v[N_EFF, m]), x.z)


@formula
def _kappa_per_hi(s, v, m, x):
    return minimum(wald_upper(v[KAPPA_PER, m], kappa_se_of(v[P0, m], v[P_PER, m], v[N_EFF, m]), x.z), 1.0)


@formula
def _kappa_plus_se(s, v, m, x):
    kap, kper, p0, n = v[KAPPA, m], v[KAPPA_PER, m], v[P0, m], v[N_EFF, m]
    ok = (kap > 0.0) & (kper > 0.0) & (n > 0.0)
    plus = sqrt(where(ok, kap * kper, 1.0))
    slope = (kper / (1.0 - p_ran(s, v, m, x)) + kap / (1.0 - v[P_PER, m])) / (2.0 * plus)
    return where(ok, slope * sqrt(p0 * (1.0 - p0) / where(ok, n, 1.0)), NAN)


@formula
def _kappa_plus_lo(s, v, m, x):
    kap, kper = v[KAPPA, m], v[KAPPA_PER, m]
    return wald_lower(sqrt(where((kap > 0.0) & (kper > 0.0), kap * kper, NAN)), _kappa_plus_se(s, v, m, x), x.z)


@formula
def _kappa_plus_hi(s, v, m, x):
    kap, kper = v[KAPPA, m], v[KAPPA_PER, m]
    value = sqrt(where((kap > 0.0) & (kper > 0.0), kap * kper, NAN))
    return minimum(wald_upper(value, _kappa_plus_se(s, v, m, x), x.z), 1.0)


@formula
def _class_n(s, m, x, row, sq):
    """Kish's effective size of the instances of one class vector entry (``ROW_i`` or ``COL_i``)."""
    w = s[row, m]
    return where(w > 0.0, w * w / s[sq, m], NAN)


@formula
def _recall_lo(s, v, m, x, i):
    r0, k = x.r0, x.k
    return wilson_lower(s[r0 + 2 * k + i, m] / s[r0 + i, m], _class_n(s, m, x, r0 + i, x.s2 + 1 + i), x.z)


@formula
def _recall_hi(s, v, m, x, i):
    r0, k = x.r0, x.k
    return wilson_upper(s[r0 + 2 * k + i, m] / s[r0 + i, m], _class_n(s, m, x, r0 + i, x.s2 + 1 + i), x.z)


@formula
def _precision_lo(s, v, m, x, i):
    r0, k = x.r0, x.k
    return wilson_lower(s[r0 + 2 * k + i, m] / s[r0 + k + i, m], _class_n(s, m, x, r0 + k + i, x.s2 + 1 + k + i), x.z)


@formula
def _precision_hi(s, v, m, x, i):
    r0, k = x.r0, x.k
    return wilson_upper(s[r0 + 2 * k + i, m] / s[r0 + k + i, m], _class_n(s, m, x, r0 + k + i, x.s2 + 1 + k + i), x.z)


def _wilson(lo, hi, reads):
    return Interval(lo, hi, reads, "total", _WILSON, _REF)


def _delta(lo, hi, reads):
    return Interval(lo, hi, reads, "total", _DELTA, _ZL)


#: the analytic interval of each metric of the confusion family that has one
BANDS = {
    "accuracy": _wilson(_acc_lo, _acc_hi, ("p0", "n_eff")),
    "error": _wilson(_err_lo, _err_hi, ("p0", "n_eff")),
    "p_maj": _wilson(_maj_lo, _maj_hi, ("p_maj", "n_eff")),
    "p_per": _wilson(_per_lo, _per_hi, ("p_per", "n_eff")),
    "kappa": _delta(_kappa_lo, _kappa_hi, ("kappa", "p0", "rq", "p_moa", "n_eff")),
    "kappa_m": _delta(_kappa_m_lo, _kappa_m_hi, ("nothing_yet", "p0", "p_maj", "n_eff")),
    "kappa_per": _delta(_kappa_per_lo, _kappa_per_hi, ("kappa_per", "p0", "p_per", "n_eff")),
    "kappa_plus": _delta(_kappa_plus_lo, _kappa_plus_hi, ("kappa", "kappa_per", "p0", "rq", "p_moa", "p_per", "n_eff")),
    "recall": Interval(_recall_lo, _recall_hi, (), "classes", f"{_WILSON[:21]} at ROW_i^2 / ROW2_i", _REF),
    "precision": Interval(_precision_lo, _precision_hi, (), "classes", f"{_WILSON[:21]} at COL_i^2 / COL2_i", _REF),
}


@formula
def _n_effective(s, v, m, x):
    return v[N_EFF, m]


#: metrics of the effective sizes behind the bands
METRICS = [
    Metric(
        "n_effective",
        "confusion",
        "Kish's effective number of instances held",
        "(sum_s w_s)^2 / sum_s w_s^2 with the estimator's weights (alpha**(t - s) w_s for a fading factor)",
        "Kish 1965",
        _n_effective,
        ("n_eff",),
        higher_is_better=None,
        label="effective instances $n_{eff}$",
        limits=(0.0, None),
        bands=False,
        squares="total",
        default=False,
    ),
]
