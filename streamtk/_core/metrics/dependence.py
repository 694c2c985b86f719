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
from .dialect import NAN, called_formula, formula, full, maximum, where

__all__ = ["DependenceContext", "TABLE", "METRICS", "context"]

_REF = "Zliobaite et al. 2015 (seed 003)"


class DependenceContext(NamedTuple):
    """Constants of a label-dependence evaluation: ``k`` classes, ``nbins = L + 1`` run-length bins, and the
    first rows of the transitions ``t0``, the run events ``n0`` and the continued runs ``h0`` (the class
    counts are rows ``0 .. k - 1``): ``c_i`` row ``i``, ``t_ji`` row ``t0 + j k + i``, ``e_n[i, r]`` row
    ``n0 + i nbins + r``, ``e_h[i, r]`` row ``h0 + i nbins + r``."""

    k: int
    nbins: int
    t0: int
    n0: int
    h0: int


def context(k: int, max_lag: int) -> DependenceContext:
    """The context of ``k`` classes and ``max_lag`` (the rows the kernel writes, :func:`n_rows` of them)."""
    B = max_lag + 1
    return DependenceContext(k, B, k, k + k * k, k + k * k + k * B)


def n_rows(x: DependenceContext) -> int:
    """Rows of the statistics of context ``x``."""
    return x.h0 + x.k * x.nbins


N_LABELS = 0


@formula
def _n(s, v, m, x):
    """Labels in memory (effective weight under a fading factor): ``sum_i c_i``."""
    total = s[0, m]
    for i in range(1, x.k):
        total = total + s[i, m]
    return total


TABLE = Table(
    "dependence",
    (Intermediate("n", _n, (), "labels in memory"),),
    "class counts c_i, transitions t_ji, run events e_n[i, r] and continued runs e_h[i, r] (rows: DependenceContext)",
    DependenceContext,
)


@called_formula
def _prior_of(s, v, m, x, i):
    """``P(y = i) = c_i / sum_j c_j``; NaN with no label in memory."""
    n = v[N_LABELS, m]
    return where(n > 0.0, s[i, m] / where(n > 0.0, n, 1.0), NAN)


@called_formula
def _row_total(s, m, x, j):
    """Transitions out of class ``j``: ``sum_i t_ji``."""
    total = s[x.t0 + j * x.k, m]
    for i in range(1, x.k):
        total = total + s[x.t0 + j * x.k + i, m]
    return total


@called_formula
def _suffix(s, m, x, r0, i, lag):
    """``sum_{r >= lag - 1} e[i, r]`` of the run events from row ``r0`` (``N_l`` or ``H_l`` at ``l = lag``)."""
    base = r0 + i * x.nbins
    total = s[base + x.nbins - 1, m]
    for r in range(x.nbins - 2, lag - 2, -1):
        total = total + s[base + r, m]
    return total


@called_formula
def _p_run_of(s, m, x, lag, i):
    """``P_l(i) = H_l(i) / N_l(i)`` at ``l = lag``; NaN with no run of length ``>= l``."""
    big_n = _suffix(s, m, x, x.n0, i, lag)
    return where(big_n > 0.0, _suffix(s, m, x, x.h0, i, lag) / where(big_n > 0.0, big_n, 1.0), NAN)


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
    top = _prior_of(s, v, m, x, 0)
    for i in range(1, x.k):
        top = maximum(top, _prior_of(s, v, m, x, i))
    return where(n > 0.0, top, NAN)


@formula
def _transition(s, v, m, x, j, i):
    rows = _row_total(s, m, x, j)
    return where(rows > 0.0, s[x.t0 + j * x.k + i, m] / where(rows > 0.0, rows, 1.0), NAN)


@called_formula
def _all_transitions(s, m, x):
    """Every transition held: ``sum_j sum_i t_ji`` (rows first)."""
    total = _row_total(s, m, x, 0)
    for j in range(1, x.k):
        total = total + _row_total(s, m, x, j)
    return total


@formula
def _n_transitions(s, v, m, x):
    return _all_transitions(s, m, x)


@formula
def _p_t(s, v, m, x):
    total = _all_transitions(s, m, x)
    same = s[x.t0, m]
    for i in range(1, x.k):
        same = same + s[x.t0 + i * x.k + i, m]
    return where(total > 0.0, same / where(total > 0.0, total, 1.0), NAN)


@formula
def _n_run(s, v, m, x, lag, i):
    return _suffix(s, m, x, x.n0, i, lag + 1)


@formula
def _p_run(s, v, m, x, lag, i):
    return _p_run_of(s, m, x, lag + 1, i)


@formula
def _evidence(s, v, m, x, lag, i):
    if lag == 0:
        return _p_run_of(s, m, x, 1, i) - _prior_of(s, v, m, x, i)
    return _p_run_of(s, m, x, lag + 1, i) - _p_run_of(s, m, x, lag, i)


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
        (),
    ),
    _m(
        "p_t",
        "P(T), probability that a label repeats the previous one",
        "sum_i t_ii / sum_ji t_ji; NaN with no transition in memory",
        _p_t,
        (),
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
