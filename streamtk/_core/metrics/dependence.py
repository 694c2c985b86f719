"""Metrics of the dependence family: the temporal dependence of a label stream.

Zliobaite, Bifet, Read, Pfahringer & Holmes 2015 (seed 003): Definition 1 (transition
probabilities), Table 3 (``P(M)``, ``P(T)``), Proposition 7 and section 6.8 / Figure 5 (the
order-``l`` evidence ``Delta(l)``). The sufficient statistics, per estimator and checkpoint, are the
class counts ``c_i``, the transition counts ``t_ji`` (previous label ``j``, label ``i``) and the
run-event bins ``e_n[i, r]`` / ``e_h[i, r]``: labels that follow a run of ``r`` equal labels of
class ``i`` (``r`` capped at ``L + 1``), and those of them that continue the run.
"""

from __future__ import annotations

from typing import NamedTuple

from .base import Intermediate, Metric, Table
from .dialect import NAN, formula, full, maximum, where

__all__ = ["DependenceContext", "TABLE", "METRICS", "context"]

_REF = "Zliobaite et al. 2015 (seed 003)"


class DependenceContext(NamedTuple):
    """Constants of a label-dependence evaluation: ``k`` classes, ``lags = L`` orders, and the first rows of
    the transitions ``t0``, their row totals ``r0``, the run counts ``n0`` and the continued runs ``h0``
    (the class counts are rows ``0 .. k - 1``): ``c_i`` row ``i``, ``t_ji`` row ``t0 + j k + i``,
    ``sum_i t_ji`` row ``r0 + j``, ``N_l(i)`` row ``n0 + i L + l - 1``, ``H_l(i)`` row ``h0 + i L + l - 1``."""

    k: int
    lags: int
    t0: int
    r0: int
    n0: int
    h0: int


def context(k: int, max_lag: int) -> DependenceContext:
    """The context of ``k`` classes and ``max_lag`` (the rows the kernel writes, :func:`n_rows` of them)."""
    t0 = k
    r0 = t0 + k * k
    n0 = r0 + k
    return DependenceContext(k, max_lag, t0, r0, n0, n0 + k * max_lag)


def n_rows(x: DependenceContext) -> int:
    """Rows of the statistics of context ``x``."""
    return x.h0 + x.k * x.lags


N_LABELS, N_TRANSITIONS = 0, 1


@formula
def _n(s, v, m, x):
    """Labels in memory (effective weight under a fading factor): ``sum_i c_i``."""
    total = s[0, m]
    for i in range(1, x.k):
        total = total + s[i, m]
    return total


@formula
def _n_trans(s, v, m, x):
    """Transitions in memory: ``sum_j sum_i t_ji``, the row totals summed."""
    total = s[x.r0, m]
    for j in range(1, x.k):
        total = total + s[x.r0 + j, m]
    return total


TABLE = Table(
    "dependence",
    (
        Intermediate("n", _n, (), "labels in memory"),
        Intermediate("n_transitions", _n_trans, (), "transitions in memory"),
    ),
    "class counts c_i, transitions t_ji, their row totals, N_l(i) and H_l(i) (rows: DependenceContext)",
    DependenceContext,
)


@formula
def _prior_of(s, v, m, x, i):
    """``P(y = i) = c_i / sum_j c_j``; NaN with no label in memory."""
    n = v[N_LABELS, m]
    return where(n > 0.0, s[i, m] / where(n > 0.0, n, 1.0), NAN)


@formula
def _p_run_of(s, m, x, lag, i):
    """``P_l(i) = H_l(i) / N_l(i)`` at ``l = lag + 1``; NaN with no run of length ``>= l``."""
    big_n = s[x.n0 + i * x.lags + lag, m]
    return where(big_n > 0.0, s[x.h0 + i * x.lags + lag, m] / where(big_n > 0.0, big_n, 1.0), NAN)


@formula
def _n_labels(s, v, m, x):
    return v[N_LABELS, m]


@formula
def _prior(s, v, m, x, i):
    return _prior_of(s, v, m, x, i)


@formula
def _majority_class(s, v, m, x):
    best, top = full(s[0, m], 0.0), s[0, m]
    for i in range(1, x.k):
        more = s[i, m] > top
        best = where(more, float(i), best)
        top = where(more, s[i, m], top)
    return best


@formula
def _p_m(s, v, m, x):
    n = v[N_LABELS, m]
    top = s[0, m]
    for i in range(1, x.k):
        top = maximum(top, s[i, m])
    return where(n > 0.0, top / where(n > 0.0, n, 1.0), NAN)


@formula
def _transition(s, v, m, x, j, i):
    rows = s[x.r0 + j, m]
    return where(rows > 0.0, s[x.t0 + j * x.k + i, m] / where(rows > 0.0, rows, 1.0), NAN)


@formula
def _n_transitions(s, v, m, x):
    return v[N_TRANSITIONS, m]


@formula
def _p_t(s, v, m, x):
    total = v[N_TRANSITIONS, m]
    same = s[x.t0, m]
    for i in range(1, x.k):
        same = same + s[x.t0 + i * x.k + i, m]
    return where(total > 0.0, same / where(total > 0.0, total, 1.0), NAN)


@formula
def _n_run(s, v, m, x, lag, i):
    return s[x.n0 + i * x.lags + lag, m]


@formula
def _p_run(s, v, m, x, lag, i):
    return _p_run_of(s, m, x, lag, i)


@formula
def _evidence(s, v, m, x, lag, i):
    # P_0(i) = P(y = i): the prior below lag 1 (both sides evaluated: where, not an early return)
    lower = where(lag == 0, _prior_of(s, v, m, x, i), _p_run_of(s, m, x, maximum(lag - 1, 0), i))
    return _p_run_of(s, m, x, lag, i) - lower


def _m(name, long_name, text, compute, reads, **kw):
    kw.setdefault("higher_is_better", None)
    return Metric(name, "dependence", long_name, text, kw.pop("reference", _REF), compute, reads, **kw)


METRICS = [
    _m(
        "n_labels",
        "labels in memory (effective weight for fading factors)",
        "sum_i c_i",
        _n_labels,
        ("n",),
    ),
    _m(
        "prior",
        "class prior P(y = i)",
        "c_i / sum_j c_j over the estimator's memory; NaN with no label in memory",
        _prior,
        ("n",),
        shape="class",
    ),
    _m(
        "majority_class",
        "majority class M (lowest class on ties; the first class when no label is in memory)",
        "argmax_i c_i",
        _majority_class,
        (),
        units="",
        dtype="int64",
        extra={"class_label": True},
    ),
    _m(
        "p_m",
        "P(M), prior of the majority class",
        "max_i P(y = i)",
        _p_m,
        ("n",),
        reference=_REF + ", Table 3",
        symbol="P(M)",
    ),
    _m(
        "transition",
        "transition probability P(y_t = i | y_{t-1} = j)",
        "t_ji / sum_i t_ji; NaN when no transition out of j",
        _transition,
        (),
        shape="transition",
        reference=_REF + ", Definition 1",
    ),
    _m(
        "n_transitions",
        "transitions (pairs of consecutive present labels) in memory",
        "sum_ji t_ji",
        _n_transitions,
        ("n_transitions",),
    ),
    _m(
        "p_t",
        "P(T), probability that a label repeats the previous one",
        "sum_i t_ii / sum_ji t_ji; NaN with no transition in memory",
        _p_t,
        ("n_transitions",),
        reference=_REF + ", Table 3, Proposition 7",
        symbol="P(T)",
    ),
    _m(
        "n_run",
        "instances preceded by at least l consecutive labels of class i",
        "N_l(i) = sum_{r >= l} e_n[i, r]",
        _n_run,
        (),
        shape="lag",
    ),
    _m(
        "p_run",
        "P_l(i) = P(y_t = i | y_{t-1} = ... = y_{t-l} = i)",
        "H_l(i) / N_l(i), H_l(i) = sum_{r >= l} e_h[i, r]; NaN when no run of length >= l",
        _p_run,
        (),
        shape="lag",
    ),
    _m(
        "evidence",
        "order-l evidence Delta(l) = P_l(i) - P_{l-1}(i), P_0(i) = P(y = i)",
        "P_l(i) - P_{l-1}(i) with P_0(i) = P(y = i)",
        _evidence,
        ("n",),
        shape="lag",
        reference=_REF + ", section 6.8, Figure 5 (index shifted, see label_dependence)",
        symbol="Delta(l)",
    ),
]
