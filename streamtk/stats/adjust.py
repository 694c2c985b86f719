"""Adjusted p-values of multiple-comparison procedures (Garcia & Herrera 2008; Garcia et al. 2010).

A family of ``m`` hypotheses with unadjusted p-values ``p_1 <= ... <= p_m`` (sorted
ascending). The *adjusted* p-value (APV) of a hypothesis is the smallest family-wise
level at which the procedure rejects it, so "reject at level alpha" is simply
``APV <= alpha`` (Wright 1992; Garcia & Herrera 2008, section 3):

* ``bonferroni``  (single step; Bonferroni-Dunn against a control, and what Garcia &
  Herrera 2008 call Nemenyi's APV for all pairs): ``min(1, m p_i)``;
* ``holm`` (step-down, Holm 1979): ``min(1, max_{j <= i} (m - j + 1) p_j)``;
* ``hochberg`` (step-up, Hochberg 1988): ``min_{j >= i} min(1, (m - j + 1) p_j)``;
* ``finner`` (step-down, Finner 1993): ``min(1, max_{j <= i} 1 - (1 - p_j)^(m / j))``;
* ``shaffer`` (Shaffer's static procedure, all ``m = k (k - 1) / 2`` pairs of k
  classifiers only): ``min(1, max_{j <= i} t_j p_j)`` where ``t_j`` is the largest number
  of hypotheses that can all be true once any ``j - 1`` have been rejected, i.e. the
  largest element of ``S(k)`` not above ``m - j + 1``, with
  ``S(k) = U_{j=1..k} {C(j, 2) + x : x in S(k - j)}`` and ``S(0) = S(1) = {0}``
  (Shaffer 1986; Garcia & Herrera 2008, section 3.2).

Everything is vectorised over leading axes (one family per slice of the last axis).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .._core.validation import as_float_array, check_choice

__all__ = ["ADJUSTMENTS", "adjust_pvalues", "shaffer_counts", "shaffer_true_sets"]

ADJUSTMENTS = ("bonferroni", "holm", "hochberg", "finner", "shaffer")


@lru_cache(maxsize=64)
def shaffer_true_sets(k: int) -> tuple:
    """``S(k)``: the possible numbers of true hypotheses among all pairs of ``k`` classifiers.

    Sorted ascending; e.g. ``S(4) = (0, 1, 2, 3, 6)`` (Shaffer 1986).
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 0:
        raise ValueError(f"k must be a non-negative integer, got {k!r}")
    k = int(k)
    if k <= 1:
        return (0,)
    out = set()
    for j in range(1, k + 1):
        out.update(j * (j - 1) // 2 + x for x in shaffer_true_sets(k - j))
    return tuple(sorted(out))


def shaffer_counts(k: int) -> np.ndarray:
    """``t_1 .. t_m`` of Shaffer's static procedure for all ``m = k (k - 1) / 2`` pairs of ``k`` classifiers.

    ``t_j = max {s in S(k) : s <= m - j + 1}``: the multiplier of the ``j``-th smallest p-value.
    """
    sets = np.asarray(shaffer_true_sets(k))
    m = k * (k - 1) // 2
    remaining = m - np.arange(m)  # m - j + 1 for j = 1..m
    idx = np.searchsorted(sets, remaining, side="right") - 1
    return sets[idx].astype(np.float64)


def _multipliers(method: str, m: int, k: int | None) -> np.ndarray | None:
    if method == "bonferroni":
        return np.full(m, float(m))
    if method in ("holm", "hochberg"):
        return m - np.arange(m, dtype=np.float64)
    if method == "shaffer":
        if k is None or k * (k - 1) // 2 != m:
            raise ValueError(
                f"shaffer's static procedure needs the family of all k (k - 1) / 2 pairs of k classifiers; "
                f"got m = {m} hypotheses and k = {k!r}"
            )
        return shaffer_counts(k)
    return None


def adjust_sorted(p_sorted: np.ndarray, method: str, k: int | None = None) -> np.ndarray:
    """Adjusted p-values of ascending-sorted p-values along the last axis (no checks, vectorised)."""
    m = p_sorted.shape[-1]
    if m == 0:
        return p_sorted.copy()
    if method == "finner":
        j = np.arange(1, m + 1, dtype=np.float64)
        # 1 - (1 - p)^(m / j), computed without cancellation for small p
        with np.errstate(divide="ignore"):  # p = 1 gives log(0) = -inf and an adjusted value of 1
            raw = -np.expm1((m / j) * np.log1p(-np.minimum(p_sorted, 1.0)))
        return np.minimum(1.0, np.maximum.accumulate(raw, axis=-1))
    mult = _multipliers(method, m, k)
    raw = np.minimum(1.0, mult * p_sorted)
    if method == "bonferroni":
        return raw
    if method == "hochberg":
        return np.minimum.accumulate(raw[..., ::-1], axis=-1)[..., ::-1]
    return np.maximum.accumulate(raw, axis=-1)  # holm, shaffer: step-down


def adjust_pvalues(pvalues, method: str = "holm", *, k: int | None = None) -> np.ndarray:
    """Adjusted p-values of one family (or one family per slice of the last axis).

    Parameters
    ----------
    pvalues : array_like (..., m)
        Unadjusted p-values in ``[0, 1]``, in any order; NaN is refused.
    method : {"bonferroni", "holm", "hochberg", "finner", "shaffer"}
        See the module docstring for each formula.
    k : int, optional
        Number of classifiers; needed by ``shaffer`` (the family must be all
        ``k (k - 1) / 2`` pairs).

    Returns
    -------
    ndarray (..., m)
        Adjusted p-values in the input order; reject hypothesis ``i`` at family-wise
        level ``alpha`` when ``adjusted[i] <= alpha``.

    Notes
    -----
    Ties among p-values are ordered stably; every procedure gives tied p-values the
    same adjusted value except the step-wise multiplier differences inside a tie,
    which the running max / min removes (tied p-values always get equal APVs).

    See Also
    --------
    statsmodels.stats.multitest.multipletests : ``bonferroni``, ``holm`` and
        ``simes-hochberg`` agree with ``bonferroni``, ``holm`` and ``hochberg`` here
        (checked in the tests).

    Examples
    --------
    >>> adjust_pvalues([0.01, 0.04, 0.03], "holm").round(4).tolist()
    [0.03, 0.06, 0.06]
    """
    check_choice(method, "method", ADJUSTMENTS)
    p = as_float_array(pvalues, "pvalues", ndim_min=1)
    if np.any((p < 0) | (p > 1)):
        bad = p[(p < 0) | (p > 1)].reshape(-1)[0]
        raise ValueError(f"pvalues must lie in [0, 1], got {bad!r}")
    order = np.argsort(p, axis=-1, kind="stable")
    p_sorted = np.take_along_axis(p, order, axis=-1)
    adj_sorted = adjust_sorted(p_sorted, method, k)
    out = np.empty_like(adj_sorted)
    np.put_along_axis(out, order, adj_sorted, axis=-1)
    return out
