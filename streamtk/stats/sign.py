"""The Sign test over folds (Bifet et al. 2015, section 4; Demsar 2006, section 3.1.3).

Each fold is one trial: classifier A "wins" a fold when its measurement is larger
(``x > y``). Under the null hypothesis that both classifiers perform equally the
number of wins among the ``n`` non-tied folds is Binomial(n, 1/2).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats as _sps

from .._core.validation import check_choice
from ._common import check_test_options, paired_differences, reject_from_pvalue
from ._result import ArrayResult

__all__ = ["SignResult", "sign_test", "sign_critical_wins"]

_METHODS = ("exact", "normal")
_ZERO_METHODS = ("drop", "split")


@dataclass(frozen=True, repr=False)
class SignResult(ArrayResult):
    """Result of :func:`sign_test`; every field has the input's shape without the fold axis.

    Attributes
    ----------
    statistic : ndarray
        Wins of ``x`` (``x > y``) counted over the ``n`` non-tied folds (plus half the
        ties with ``zero_method="split"``).
    losses : ndarray
        Wins of ``y``.
    n : ndarray
        Number of folds that enter the binomial (``statistic + losses``).
    signed_statistic : ndarray
        ``statistic - losses``: swapping ``x`` and ``y`` flips its sign.
    pvalue : ndarray
        p-value of the chosen ``alternative`` (1 when ``n == 0``).
    critical : ndarray
        ``w_alpha``: the smallest number of wins that rejects at level ``alpha``
        (for ``two-sided`` either classifier's wins; NaN when no count can reject,
        e.g. ``n <= 5`` at ``alpha = 0.05`` two-sided).
    reject : ndarray of bool
        ``pvalue <= alpha``.
    """

    _title = "Sign test"

    statistic: np.ndarray
    losses: np.ndarray
    n: np.ndarray
    signed_statistic: np.ndarray
    pvalue: np.ndarray
    critical: np.ndarray
    reject: np.ndarray
    alternative: str
    alpha: float
    method: str


def _z_quantile(alternative: str, alpha: float) -> float:
    return float(_sps.norm.isf(alpha / 2 if alternative == "two-sided" else alpha))


def sign_critical_wins(n, alpha: float = 0.05, *, alternative: str = "two-sided", method: str = "exact"):
    """Critical win count ``w_alpha`` of the Sign test for ``n`` non-tied folds.

    ``exact``: the smallest ``w`` with ``P(X >= w) <= alpha / 2`` (two-sided) or
    ``<= alpha`` (one-sided), ``X ~ Binomial(n, 1/2)``; NaN if even ``w = n`` does not
    reach that level. ``normal``: Demsar's (2006) approximation, the smallest integer
    ``w >= n/2 + z sqrt(n)/2`` with ``z`` the normal quantile of the chosen tail.

    Bifet et al. 2015 (seed 000, section 4) quote ``w_0.05 = 8`` for 10 folds; that is
    the one-sided normal value (``5 + 1.645 * sqrt(10) / 2 = 7.60``). The exact
    binomial critical count is 9 for both one- and two-sided tests at 0.05
    (``P(X >= 8) = 56/1024 = 0.0547``).
    """
    alternative, alpha = check_test_options(alternative, alpha)
    check_choice(method, "method", _METHODS)
    n_arr = np.asarray(n)
    if not np.issubdtype(n_arr.dtype, np.integer) or np.any(n_arr < 0):
        raise ValueError(f"n must be non-negative integers, got {n!r}")
    level = alpha / 2 if alternative == "two-sided" else alpha
    nf = n_arr.astype(np.float64)
    if method == "normal":
        w = np.ceil(nf / 2 + _z_quantile(alternative, alpha) * np.sqrt(nf) / 2)
    else:
        # smallest w with sf(w - 1) <= level; isf gives the smallest k with sf(k) <= level
        w = _sps.binom.isf(level, n_arr, 0.5) + 1.0
    w = np.where(w > nf, np.nan, w)
    return w[()] if w.ndim == 0 else w


def sign_test(
    x,
    y=None,
    *,
    axis: int = 0,
    alternative: str = "two-sided",
    alpha: float = 0.05,
    method: str = "exact",
    zero_method: str = "drop",
) -> SignResult:
    """Sign test of paired per-fold measurements, vectorised over every other axis.

    Parameters
    ----------
    x, y : array_like
        Per-fold measurements of classifiers A and B (same shape), folds along
        ``axis``. With ``y=None``, ``x`` holds the differences ``A - B``. NaN is refused.
    axis : int
        The fold axis.
    alternative : {"two-sided", "greater", "less"}
        ``greater``: A is better (wins more often).
    alpha : float
        Level used for ``critical`` and ``reject``.
    method : {"exact", "normal"}
        ``exact``: binomial tail probabilities (``scipy.stats.binom``), two-sided
        ``p = min(1, 2 min(P(X >= w), P(X <= w)))``, which equals
        ``scipy.stats.binomtest`` for ``p = 1/2``. ``normal``: ``z = (w - n/2) / (sqrt(n)/2)``
        (Demsar 2006), no continuity correction.
    zero_method : {"drop", "split"}
        ``drop``: tied folds are discarded (the classical sign test). ``split``: ties
        are shared evenly between A and B, an odd one out is discarded (Demsar 2006).

    Returns
    -------
    SignResult

    Notes
    -----
    Bifet et al. 2015 (seed 000, section 4 and Table 1): A wins 8 of 10 folds and the
    paper rejects with ``w_0.05 = 8``; that corresponds to ``method="normal",
    alternative="greater"`` (one-sided ``p = 0.029``). The exact one-sided p-value
    is ``56/1024 = 0.0547`` and does not reject at 0.05.

    See Also
    --------
    scipy.stats.binomtest : the same exact test on one count.
    streamtk.stats.wilcoxon_test : uses the magnitudes too and is more powerful.

    Examples
    --------
    >>> d = [0.07, -0.01, -0.02, 1.37, 0.60, 1.42, 2.18, 1.04, 2.39, 0.03]  # Table 1, A - B
    >>> r = sign_test(d, method="normal", alternative="greater")
    >>> float(r.statistic), float(r.critical), bool(r.reject)
    (8.0, 8.0, True)
    >>> round(float(sign_test(d, alternative="greater").pvalue), 4)  # exact: 56/1024
    0.0547
    """
    alternative, alpha = check_test_options(alternative, alpha)
    check_choice(method, "method", _METHODS)
    check_choice(zero_method, "zero_method", _ZERO_METHODS)
    d = paired_differences(x, y, axis)
    wins = np.sum(d > 0, axis=-1)
    losses = np.sum(d < 0, axis=-1)
    if zero_method == "split":
        half = np.sum(d == 0, axis=-1) // 2
        wins = wins + half
        losses = losses + half
    n = wins + losses
    if method == "exact":
        upper = _sps.binom.sf(wins - 1, n, 0.5)  # P(X >= wins)
        lower = _sps.binom.cdf(wins, n, 0.5)  # P(X <= wins)
    else:
        with np.errstate(invalid="ignore", divide="ignore"):
            z = (wins - n / 2.0) / (np.sqrt(n) / 2.0)
        upper = _sps.norm.sf(z)
        lower = _sps.norm.cdf(z)
    if alternative == "greater":
        p = upper
    elif alternative == "less":
        p = lower
    else:
        p = np.minimum(1.0, 2.0 * np.minimum(upper, lower))
    p = np.where(n == 0, 1.0, p)
    n_unique, n_inverse = np.unique(n, return_inverse=True)  # few distinct fold counts
    crit = np.asarray(sign_critical_wins(n_unique, alpha, alternative=alternative, method=method))
    crit = crit.reshape(-1)[n_inverse].reshape(np.shape(n))
    return SignResult(
        statistic=wins.astype(np.float64),
        losses=losses.astype(np.float64),
        n=n.astype(np.int64),
        signed_statistic=(wins - losses).astype(np.float64),
        pvalue=np.asarray(p, dtype=np.float64),
        critical=crit.astype(np.float64),
        reject=reject_from_pvalue(np.asarray(p, dtype=np.float64), alpha),
        alternative=alternative,
        alpha=alpha,
        method=method,
    )
