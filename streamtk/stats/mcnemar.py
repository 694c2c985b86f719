"""Signed McNemar test (Gama et al. 2013, section 4; Bifet et al. 2015, section 4).

``a`` (``n01`` in Gama et al.) counts the instances misclassified by A and correctly
classified by B, ``b`` (``n10``) the opposite. The signed statistic

    M = sign(a - b) (a - b)^2 / (a + b)

is chi-square with one degree of freedom under the null hypothesis (in absolute
value). M > 0 means A makes more of the discordant errors, i.e. **B is better**.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats as _sps

from .._core.validation import as_float_array, check_in_open_unit_interval, check_nonnegative_weights
from ._common import reject_from_pvalue
from ._result import ArrayResult

__all__ = ["McNemarResult", "mcnemar_test", "mcnemar_counts"]


@dataclass(frozen=True, repr=False)
class McNemarResult(ArrayResult):
    """Result of :func:`mcnemar_test` (arrays shaped like the broadcast counts).

    Attributes
    ----------
    statistic : ndarray
        Signed ``M``; NaN when ``a + b == 0`` (no discordant instance: 0/0).
    pvalue : ndarray
        ``P(chi2_1 >= |M|)`` (``scipy.stats.chi2.sf``); NaN when ``M`` is NaN.
    reject : ndarray of bool
        ``pvalue <= alpha`` (never for NaN).
    a, b : ndarray
        The discordant counts used.
    """

    _title = "signed McNemar test"

    statistic: np.ndarray
    pvalue: np.ndarray
    reject: np.ndarray
    a: np.ndarray
    b: np.ndarray
    alpha: float
    correction: bool


def mcnemar_counts(y_true, pred_a, pred_b, *, weights=None, axis: int = -1):
    """Discordant counts ``(a, b)`` of two classifiers' predictions along ``axis``.

    ``a = sum w [pred_a != y_true and pred_b == y_true]``, ``b`` the opposite;
    ``weights`` (e.g. a fold's test mask) broadcast against the predictions.
    Labels may be any comparable values; ``y_true`` broadcasts against the predictions.
    """
    y = np.asarray(y_true)
    pa = np.asarray(pred_a)
    pb = np.asarray(pred_b)
    if pa.shape != pb.shape:
        raise ValueError(f"pred_a and pred_b must have the same shape, got {pa.shape} and {pb.shape}")
    try:
        np.broadcast_shapes(y.shape, pa.shape)
    except ValueError:
        raise ValueError(
            f"y_true of shape {y.shape} does not broadcast against predictions of shape {pa.shape}"
        ) from None
    ok_a = pa == y
    ok_b = pb == y
    w = 1.0 if weights is None else check_nonnegative_weights(weights, "weights")
    a = np.sum((~ok_a & ok_b) * w, axis=axis)
    b = np.sum((ok_a & ~ok_b) * w, axis=axis)
    return a, b


def mcnemar_test(a, b, *, correction: bool = False, alpha: float = 0.05) -> McNemarResult:
    """Signed McNemar test from discordant counts, vectorised (any broadcastable shapes).

    Parameters
    ----------
    a : array_like
        Instances misclassified by A and correctly classified by B (Gama's ``n01``).
    b : array_like
        Instances misclassified by B and correctly classified by A (``n10``).
    correction : bool
        Edwards' continuity correction: ``(|a - b| - 1)^2 / (a + b)`` (0 when
        ``|a - b| < 1``).
    alpha : float
        Level for ``reject``. Gama et al. 2013 use 0.01 (threshold 6.635).

    Notes
    -----
    ``a`` and ``b`` may be non-integer (weighted counts, or faded/windowed sums as in
    Gama et al. 2013, Figure 7). Bifet et al. 2015 show this test over-rejects when
    instances rather than folds are the unit (Tables 2-3).

    See Also
    --------
    statsmodels.stats.contingency_tables.mcnemar : unsigned, with an exact binomial variant.
    streamtk.stats.sign_test, streamtk.stats.wilcoxon_test : tests over folds.
    """
    alpha = check_in_open_unit_interval(alpha, "alpha")
    if not isinstance(correction, (bool, np.bool_)):
        raise TypeError(f"correction must be a bool, got {correction!r}")
    a = as_float_array(a, "a", ndim_min=0)
    b = as_float_array(b, "b", ndim_min=0)
    for name, v in (("a", a), ("b", b)):
        if np.any(v < 0):
            raise ValueError(f"{name} must be non-negative counts, got {v[v < 0].reshape(-1)[0]!r}")
    diff = a - b
    num = np.abs(diff)
    if correction:
        num = np.maximum(num - 1.0, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        m = np.sign(diff) * num**2 / (a + b)
    m = np.where(a + b > 0, m, np.nan)
    p = _sps.chi2.sf(np.abs(m), 1)
    p = np.asarray(p, dtype=np.float64)
    return McNemarResult(
        statistic=np.asarray(m, dtype=np.float64),
        pvalue=p,
        reject=reject_from_pvalue(p, alpha),
        a=a,
        b=b,
        alpha=alpha,
        correction=bool(correction),
    )
