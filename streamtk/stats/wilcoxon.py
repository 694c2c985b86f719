"""Wilcoxon's signed-rank test over folds (Bifet et al. 2015, section 4; Demsar 2006, 3.1.3).

The absolute differences ``|A_i - B_i|`` of the folds are ranked (average ranks for
ties); ``R+`` and ``R-`` are the rank sums of the folds where A, respectively B, is
better. Two-sided, the statistic ``T = min(R+, R-)`` is compared with the critical
value ``V_alpha``; the null hypothesis is rejected when ``T <= V_alpha``.

Exact p-values use the permutation (sign-flip) distribution of ``R+`` given the
observed ranks: every non-zero fold's sign is + or - with probability 1/2. Without
ties it is the classical Wilcoxon distribution; with ties or zeros it is the exact
conditional distribution, computed by dynamic programming over the doubled
(integer) ranks, so the exact test stays exact with ties.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats as _sps

from .._core.validation import check_choice
from ._common import check_test_options, paired_differences, reject_from_pvalue
from ._result import ArrayResult

__all__ = ["WilcoxonResult", "wilcoxon_test", "wilcoxon_null_distribution"]

_METHODS = ("auto", "exact", "approx")
_ZERO_METHODS = ("wilcox", "pratt", "zsplit")
#: ``method="auto"`` uses the exact distribution up to this many folds (as scipy)
EXACT_MAX_FOLDS = 50


@dataclass(frozen=True, repr=False)
class WilcoxonResult(ArrayResult):
    """Result of :func:`wilcoxon_test`; every field has the input's shape without the fold axis.

    Attributes
    ----------
    statistic : ndarray
        ``min(R+, R-)`` for ``two-sided``, ``R+`` otherwise (as ``scipy.stats.wilcoxon``).
    r_plus, r_minus : ndarray
        Rank sums of the folds with ``x > y`` and ``x < y`` (with ``zsplit`` each
        also gets half the ranks of the zero differences).
    signed_statistic : ndarray
        ``R+ - R-``: swapping ``x`` and ``y`` flips its sign.
    n : ndarray
        Number of ranked folds (non-zero differences for ``zero_method="wilcox"``).
    z : ndarray
        Normal-approximation z score (tie- and zero-corrected, with the continuity
        correction if requested); reported for both methods.
    pvalue : ndarray
        p-value of ``alternative``; 1 when no fold is informative.
    critical : ndarray
        ``V_alpha``. Two-sided and ``less``: reject when ``statistic <= critical``;
        ``greater``: reject when ``statistic >= critical``. NaN when no value of the
        statistic can reject (e.g. fewer than 6 folds two-sided at 0.05).
    reject : ndarray of bool
        ``pvalue <= alpha``.
    exact : ndarray of bool
        Whether the p-value of that element came from the exact distribution.
    """

    _title = "Wilcoxon signed-rank test"

    statistic: np.ndarray
    r_plus: np.ndarray
    r_minus: np.ndarray
    signed_statistic: np.ndarray
    n: np.ndarray
    z: np.ndarray
    pvalue: np.ndarray
    critical: np.ndarray
    reject: np.ndarray
    exact: np.ndarray
    alternative: str
    alpha: float
    zero_method: str


def _doubled_ranks(d: np.ndarray, zero_method: str):
    """Doubled average ranks (integers) of ``|d|`` along the last axis; 0 = not ranked.

    Returns ``(rank2, ranked, sum_t3_t)``: the doubled ranks, the mask of ranked
    elements and the tie correction ``sum(t^3 - t)`` over groups of tied ranked
    values (as scipy: the zeros form a tie group under ``zsplit``, not under ``pratt``).
    """
    a = np.abs(d)
    ranked = np.ones(d.shape, dtype=bool) if zero_method != "wilcox" else d != 0
    nonzero = d != 0
    n = d.shape[-1]
    rank2 = np.zeros(d.shape, dtype=np.int64)
    ties = np.zeros(d.shape[:-1], dtype=np.float64)
    # pairwise comparisons are exact and cheap for the small fold counts this serves;
    # chunk over the leading axis to bound memory
    flat_a = a.reshape(-1, n)
    flat_r = ranked.reshape(-1, n)
    flat_nz = nonzero.reshape(-1, n)
    out = rank2.reshape(-1, n)
    tie_out = ties.reshape(-1)
    step = max(1, 2_000_000 // max(1, n * n))
    for s in range(0, flat_a.shape[0], step):
        aa = flat_a[s : s + step]
        rr = flat_r[s : s + step]
        other = rr[:, None, :]
        less = np.sum((aa[:, None, :] < aa[:, :, None]) & other, axis=-1)
        equal = np.sum((aa[:, None, :] == aa[:, :, None]) & other, axis=-1)
        out[s : s + step] = np.where(rr, 2 * less + equal + 1, 0)
        # each member of a tie group of size g adds g^2 - 1, so a group adds g^3 - g
        nz = (flat_nz[s : s + step] | (zero_method == "zsplit")) & rr
        tie_out[s : s + step] = np.sum(np.where(nz, equal.astype(np.float64) ** 2 - 1.0, 0.0), axis=-1)
    return rank2, ranked, ties


def wilcoxon_null_distribution(rank2: np.ndarray) -> np.ndarray:
    """Exact sign-flip distribution of the doubled rank sum for one set of doubled ranks.

    ``rank2`` holds the doubled ranks (``0`` entries are ignored). Returns ``pmf`` with
    ``pmf[s] = P(2 R+ = s)``, ``s = 0 .. sum(rank2)``.
    """
    rank2 = np.asarray(rank2, dtype=np.int64)
    total = int(rank2.sum())
    pmf = np.zeros(total + 1)
    pmf[0] = 1.0
    top = 0
    for r in rank2[rank2 > 0]:
        r = int(r)
        new = 0.5 * pmf[: top + r + 1].copy()
        new[r:] += 0.5 * pmf[: top + 1]
        pmf[: top + r + 1] = new
        top += r
    return pmf


def _exact_tails(rank2: np.ndarray, obs2: np.ndarray, alpha_level: float):
    """Lower/upper tail probabilities of ``2 R+`` at ``obs2`` and the lower critical value.

    Rows sharing a multiset of ranks share one distribution (computed once).
    """
    m = rank2.shape[0]
    lower = np.empty(m)
    upper = np.empty(m)
    crit_lo = np.full(m, np.nan)
    crit_hi = np.full(m, np.nan)
    if m == 0:
        return lower, upper, crit_lo, crit_hi
    # group identical multisets of ranks: sort each row, lexsort the rows, split at changes
    srt = np.sort(rank2, axis=-1)
    order = np.lexsort(srt.T[::-1])
    change = np.any(srt[order[1:]] != srt[order[:-1]], axis=-1)
    bounds = np.concatenate([[0], np.flatnonzero(change) + 1, [m]])
    for g in range(len(bounds) - 1):
        rows = order[bounds[g] : bounds[g + 1]]
        pmf = wilcoxon_null_distribution(srt[rows[0]])
        cdf = np.cumsum(pmf)
        sf = np.cumsum(pmf[::-1])[::-1]  # P(S >= s)
        support = np.flatnonzero(pmf > 0)
        o = obs2[rows]
        lower[rows] = cdf[o]
        upper[rows] = sf[o]
        ok = support[cdf[support] <= alpha_level * (1 + 1e-12)]
        if ok.size:
            crit_lo[rows] = ok.max() / 2.0
        ok = support[sf[support] <= alpha_level * (1 + 1e-12)]
        if ok.size:
            crit_hi[rows] = ok.min() / 2.0
    return np.minimum(lower, 1.0), np.minimum(upper, 1.0), crit_lo, crit_hi


def wilcoxon_test(
    x,
    y=None,
    *,
    axis: int = 0,
    alternative: str = "two-sided",
    alpha: float = 0.05,
    method: str = "auto",
    zero_method: str = "wilcox",
    correction: bool = False,
) -> WilcoxonResult:
    """Wilcoxon signed-rank test of paired per-fold measurements, vectorised.

    Parameters
    ----------
    x, y : array_like
        Per-fold measurements of classifiers A and B (same shape), folds along
        ``axis``; ``y=None`` means ``x`` holds ``A - B``. NaN is refused.
    axis : int
        The fold axis.
    alternative : {"two-sided", "greater", "less"}
        ``greater``: A tends to be better.
    alpha : float
        Level used for ``critical`` and ``reject``.
    method : {"auto", "exact", "approx"}
        ``exact``: sign-flip distribution of ``R+`` given the observed ranks (exact
        also with ties and zeros). ``approx``: normal approximation
        ``z = (R+ - mu) / sigma`` with ``mu = n(n+1)/4`` and
        ``sigma^2 = [n(n+1)(2n+1) - sum(t^3 - t)/2] / 24`` (tie correction; with
        ``pratt`` the zeros' ``n0`` is removed from ``mu`` and ``sigma^2`` as in
        Cureton 1967). ``auto``: exact for up to 50 folds, approx above.
    zero_method : {"wilcox", "pratt", "zsplit"}
        Zero differences are dropped (``wilcox``), ranked but counted in neither sum
        (``pratt``), or ranked and split half/half between ``R+`` and ``R-`` (``zsplit``).
    correction : bool
        Continuity correction of the normal approximation (``0.5`` towards the mean).

    Returns
    -------
    WilcoxonResult

    Notes
    -----
    Bifet et al. 2015 Table 1 (seed 000): ``R+ = 53``, ``R- = 3``, ``T = 3 <= V_0.05 = 8``
    for 10 folds, so the null hypothesis is rejected.

    Deliberate differences from ``scipy.stats.wilcoxon``: ``auto`` decides per test
    (scipy decides once for the whole array); with ties or zeros and more than 13
    folds scipy's ``auto`` falls back to the normal approximation, here the exact
    conditional distribution is used up to 50 folds (for up to 13 folds it equals
    scipy's permutation p-value). When every difference is zero the p-value is 1
    (the exact null distribution is the point mass at 0), also under ``approx``.

    See Also
    --------
    scipy.stats.wilcoxon : the same test on one or many samples (used as the reference
        in the tests).

    Examples
    --------
    Bifet et al. 2015, Table 1 (10 folds):

    >>> a = [77.98, 72.26, 76.95, 77.94, 72.23, 76.90, 77.93, 72.37, 76.93, 77.97]
    >>> b = [77.91, 72.27, 76.97, 76.57, 71.63, 75.48, 75.75, 71.33, 74.54, 77.94]
    >>> res = wilcoxon_test(a, b)
    >>> float(res.r_plus), float(res.r_minus), float(res.critical), bool(res.reject)
    (52.0, 3.0, 8.0, True)
    """
    alternative, alpha = check_test_options(alternative, alpha)
    check_choice(method, "method", _METHODS)
    check_choice(zero_method, "zero_method", _ZERO_METHODS)
    if not isinstance(correction, (bool, np.bool_)):
        raise TypeError(f"correction must be a bool, got {correction!r}")
    d = paired_differences(x, y, axis)
    shape = d.shape[:-1]
    nfold = d.shape[-1]
    d2 = d.reshape(-1, nfold)
    rank2, ranked, ties = _doubled_ranks(d2, zero_method)
    pos = d2 > 0
    neg = d2 < 0
    zero = d2 == 0
    rp2 = np.sum(np.where(pos, rank2, 0), axis=-1)  # doubled R+ of the non-zero folds
    rm2 = np.sum(np.where(neg, rank2, 0), axis=-1)
    z2 = np.sum(np.where(zero, rank2, 0), axis=-1)  # doubled rank sum of the zeros (ranked ones)
    split = z2 / 2.0 if zero_method == "zsplit" else 0.0
    r_plus = rp2 / 2.0 + split / 2.0
    r_minus = rm2 / 2.0 + split / 2.0
    count = np.sum(ranked, axis=-1).astype(np.float64)
    n_zero = np.sum(zero & ranked, axis=-1).astype(np.float64)
    mu = count * (count + 1) / 4.0
    var = count * (count + 1) * (2 * count + 1)
    if zero_method == "pratt":
        mu = mu - n_zero * (n_zero + 1) / 4.0
        var = var - n_zero * (n_zero + 1) * (2 * n_zero + 1)
    se = np.sqrt(np.maximum(var - ties / 2.0, 0.0) / 24.0)
    informative = (rp2 + rm2) > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        z = (r_plus - mu) / se
        if correction:
            sgn = 1.0 if alternative == "greater" else -1.0 if alternative == "less" else np.sign(z)
            z = z - sgn * 0.5 / se
    p = np.empty(d2.shape[0])
    crit = np.full(d2.shape[0], np.nan)
    use_exact = np.full(d2.shape[0], method == "exact")
    if method == "auto":
        use_exact[:] = nfold <= EXACT_MAX_FOLDS
    level = alpha / 2 if alternative == "two-sided" else alpha
    ex = np.flatnonzero(use_exact)
    if ex.size:
        nz_rank2 = np.where(zero[ex], 0, rank2[ex])  # zeros never flip sign
        lower, upper, lo, hi = _exact_tails(nz_rank2, rp2[ex], level)
        if alternative == "greater":
            p[ex] = upper
            crit[ex] = hi + split[ex] / 2.0 if np.ndim(split) else hi
        elif alternative == "less":
            p[ex] = lower
            crit[ex] = lo + (split[ex] / 2.0 if np.ndim(split) else 0.0)
        else:
            p[ex] = np.minimum(1.0, 2.0 * np.minimum(lower, upper))
            crit[ex] = lo + (split[ex] / 2.0 if np.ndim(split) else 0.0)
    ap = np.flatnonzero(~use_exact)
    if ap.size:
        za = z[ap]
        if alternative == "greater":
            p[ap] = _sps.norm.sf(za)
        elif alternative == "less":
            p[ap] = _sps.norm.cdf(za)
        else:
            p[ap] = 2.0 * _sps.norm.sf(np.abs(za))
        zq = float(_sps.norm.isf(level))
        cc = 0.5 if correction else 0.0
        if alternative == "greater":
            crit[ap] = mu[ap] + zq * se[ap] + cc
        else:
            crit[ap] = mu[ap] - zq * se[ap] - cc
    p = np.where(informative, p, 1.0)
    statistic = np.minimum(r_plus, r_minus) if alternative == "two-sided" else r_plus

    def _r(a):
        return np.asarray(a).reshape(shape)

    return WilcoxonResult(
        statistic=_r(statistic.astype(np.float64)),
        r_plus=_r(r_plus),
        r_minus=_r(r_minus),
        signed_statistic=_r(r_plus - r_minus),
        n=_r(count.astype(np.int64)),
        z=_r(z),
        pvalue=_r(p),
        critical=_r(crit),
        reject=_r(reject_from_pvalue(p, alpha)),
        exact=_r(use_exact),
        alternative=alternative,
        alpha=alpha,
        zero_method=zero_method,
    )
