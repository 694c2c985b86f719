"""Metrics of the dependence family: the temporal dependence of a label stream.

Zliobaite, Bifet, Read, Pfahringer & Holmes 2015 (seed 003): Definition 1 (transition
probabilities), Table 3 (``P(M)``, ``P(T)``), Proposition 7 and section 6.8 / Figure 5 (the
order-``l`` evidence ``Delta(l)``). The sufficient statistics, per estimator and checkpoint, are the
class counts ``c_i``, the transition counts ``t_ji`` (previous label ``j``, label ``i``) and the
run-event bins ``e_n[i, r]`` / ``e_h[i, r]``: labels that follow a run of ``r`` equal labels of
class ``i`` (``r`` capped at ``L + 1``), and those of them that continue the run.
"""

from __future__ import annotations

import numpy as np

from .base import Metric, Sums, intermediate

__all__ = ["DependenceSums", "METRICS"]

_REF = "Zliobaite et al. 2015 (seed 003)"


class DependenceSums(Sums):
    """Counts ``(..., k)``, transitions ``(..., k, k)``, run events ``(..., k, L + 1)`` twice, and ``L``."""

    def __init__(self, counts, transitions, run_events, run_continued, max_lag):
        super().__init__()
        self.counts = counts
        self.transitions = transitions
        self.run_events = run_events
        self.run_continued = run_continued
        self.max_lag = max_lag

    @intermediate
    def n(self):
        """Labels in memory (effective weight under a fading factor)."""
        return self.counts.sum(-1)

    @intermediate
    def prior(self):
        """``P(y = i) = c_i / sum_j c_j``; NaN with no label in memory."""
        n = self.n[..., None]
        return np.where(n > 0, self.counts / np.where(n > 0, n, 1.0), np.nan)

    @intermediate
    def rows(self):
        """Transitions out of each class ``sum_i t_ji``."""
        return self.transitions.sum(-1)

    @intermediate
    def runs(self):
        """``(N_l, H_l)``, shape ``(..., k, L)``: events after a run of ``>= l`` labels of the class, and continued."""
        big_n = np.flip(np.cumsum(np.flip(self.run_events, -1), -1), -1)[..., : self.max_lag]
        big_h = np.flip(np.cumsum(np.flip(self.run_continued, -1), -1), -1)[..., : self.max_lag]
        return big_n, big_h

    @intermediate
    def p_run(self):
        """``P_l(i) = H_l(i) / N_l(i)``, shape ``(..., k, L)``; NaN with no run of length ``>= l``."""
        big_n, big_h = self.runs
        return np.where(big_n > 0, big_h / np.where(big_n > 0, big_n, 1.0), np.nan)


def _lag_major(a):
    """``(..., k, L)`` -> ``(..., L, k)``, the Dataset's ``(lag, class)`` order."""
    return np.swapaxes(a, -1, -2)


def _p_m(s):
    return np.where(s.n > 0, np.max(s.prior, axis=-1, initial=-np.inf), np.nan)


def _transition(s):
    rows = s.rows[..., None]
    return np.where(rows > 0, s.transitions / np.where(rows > 0, rows, 1.0), np.nan)


def _p_t(s):
    total = s.rows.sum(-1)
    same = np.trace(s.transitions, axis1=-2, axis2=-1)
    return np.where(total > 0, same / np.where(total > 0, total, 1.0), np.nan)


def _evidence(s):
    p_run = s.p_run
    lower = np.concatenate((s.prior[..., None], p_run[..., :-1]), axis=-1)
    return _lag_major(p_run - lower)


def _m(name, long_name, formula, compute, reads, **kw):
    kw.setdefault("higher_is_better", None)
    return Metric(name, "dependence", long_name, formula, kw.pop("reference", _REF), compute, reads, **kw)


METRICS = [
    _m(
        "n_labels",
        "labels in memory (effective weight for fading factors)",
        "sum_i c_i",
        lambda s: s.n,
        ("n",),
    ),
    _m(
        "prior",
        "class prior P(y = i)",
        "c_i / sum_j c_j over the estimator's memory; NaN with no label in memory",
        lambda s: s.prior,
        ("prior",),
        shape="class",
    ),
    _m(
        "majority_class",
        "majority class M (lowest class on ties; the first class when no label is in memory)",
        "argmax_i c_i",
        lambda s: np.argmax(s.counts, axis=-1),
        (),
        units="",
        extra={"class_label": True},
    ),
    _m(
        "p_m",
        "P(M), prior of the majority class",
        "max_i P(y = i)",
        _p_m,
        ("n", "prior"),
        reference=_REF + ", Table 3",
        symbol="P(M)",
    ),
    _m(
        "transition",
        "transition probability P(y_t = i | y_{t-1} = j)",
        "t_ji / sum_i t_ji; NaN when no transition out of j",
        _transition,
        ("rows",),
        shape="transition",
        reference=_REF + ", Definition 1",
    ),
    _m(
        "n_transitions",
        "transitions (pairs of consecutive present labels) in memory",
        "sum_ji t_ji",
        lambda s: s.rows.sum(-1),
        ("rows",),
    ),
    _m(
        "p_t",
        "P(T), probability that a label repeats the previous one",
        "sum_i t_ii / sum_ji t_ji; NaN with no transition in memory",
        _p_t,
        ("rows",),
        reference=_REF + ", Table 3, Proposition 7",
        symbol="P(T)",
    ),
    _m(
        "n_run",
        "instances preceded by at least l consecutive labels of class i",
        "N_l(i) = sum_{r >= l} e_n[i, r]",
        lambda s: _lag_major(s.runs[0]),
        ("runs",),
        shape="lag",
    ),
    _m(
        "p_run",
        "P_l(i) = P(y_t = i | y_{t-1} = ... = y_{t-l} = i)",
        "H_l(i) / N_l(i), H_l(i) = sum_{r >= l} e_h[i, r]; NaN when no run of length >= l",
        lambda s: _lag_major(s.p_run),
        ("p_run",),
        shape="lag",
    ),
    _m(
        "evidence",
        "order-l evidence Delta(l) = P_l(i) - P_{l-1}(i), P_0(i) = P(y = i)",
        "P_l(i) - P_{l-1}(i) with P_0(i) = P(y = i)",
        _evidence,
        ("p_run", "prior"),
        shape="lag",
        reference=_REF + ", section 6.8, Figure 5 (index shifted, see label_dependence)",
        symbol="Delta(l)",
    ),
]
