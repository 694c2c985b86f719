"""The regression family: errors of point predictions of one or several targets, under every estimator.

Statistics (:mod:`streamtk._kernels.regression`), per target ``i`` a block of ``x.nf`` rows from row
``i * x.nf``, over the members an estimator holds (weights ``w_s``, faded for a fading factor or an EWMA):
``W = sum w``, ``N`` members (faded count), the targets' weighted mean ``ybar`` and ``M2 = sum w (y - ybar)**2``,
the weighted sums of ``|e|``, ``e**2`` (``e = y - yhat``), ``|e| / max(|y|, eps)``, ``2 |e| / (|y| + |yhat|)``
and of the TargetMean baseline's errors ``|y - b|``, ``(y - b)**2`` (``b``: the weighted mean of the targets
the estimator held *before* the instance, 0 when it held none: a test-then-train running-mean predictor whose
memory follows the estimator), the largest ``|e|`` held and the weighted median of ``|e|``.

Under ``convention="moa"`` the rows are MOA's sums (:mod:`streamtk._kernels.regression.moa`) and the formulas
MOA's ``BasicRegressionPerformanceEvaluator`` / ``WindowRegressionPerformanceEvaluator`` (single target) and
``BasicMultiTargetPerformanceEvaluator`` / ``BasicMultiTargetPerformanceRelativeMeasuresEvaluator`` (several):
weights only in the denominators, 0 where MOA guards a division, adjusted R^2 counting the class attribute.

Seeds: ``004`` Gama, Sebastiao & Rodrigues 2013, section 3.3 (MAE, MSE and RMSE under prequential, window and
fading estimators).
"""

from __future__ import annotations

from typing import NamedTuple

from ..._kernels.regression.layout import (
    F_M2,
    F_N,
    F_Q,
    F_W,
    K_REG,
    M_AE,
    M_ATE,
    M_SE,
    M_SEEN,
    M_STE,
    M_TW,
    M_W,
    Q_AE,
    Q_APE,
    Q_BAE,
    Q_BSE,
    Q_SAPE,
    Q_SE,
)
from .base import Metric, Table
from .dialect import NAN, formula, maximum, sqrt, where

__all__ = ["RegressionContext", "TABLE", "METRICS", "MAX_ROW", "MEDIAN_ROW"]

_GAMA = "Gama, Sebastiao & Rodrigues 2013 (seed 004), sec. 3.3"
_MOA = "MOA's BasicRegressionPerformanceEvaluator / WindowRegressionPerformanceEvaluator"
_MOA_MT = "MOA's BasicMultiTargetPerformanceEvaluator / BasicMultiTargetPerformanceRelativeMeasuresEvaluator"
_SK = "scikit-learn's sklearn.metrics"
#: the rows of the extremum (largest |e|) and of the weighted median of |e| in a target's block
MAX_ROW = F_Q + K_REG
MEDIAN_ROW = F_Q + K_REG + 1


class RegressionContext(NamedTuple):
    """Constants of a regression evaluation: ``nt`` targets of ``nf`` rows each, the number of features ``p``
    of the adjusted R^2 (NaN when not given), MOA's convention."""

    nt: int
    nf: int
    n_features: float
    moa: bool


TABLE = Table(
    "regression",
    (),
    "per target (x.nf rows from i * x.nf): W, N, ybar, M2, sums of |e|, e^2, |e|/max(|y|, eps), 2|e|/(|y|+|yhat|), "
    "|y - b|, (y - b)^2, max |e|, weighted median |e| (MOA: W, total W, SE, AE, STE, ATE, seen)",
    RegressionContext,
)


# ------------------------------------------------------------------------------------------- per target
@formula
def _w(s, m, x, i):
    return s[i * x.nf + F_W, m]


@formula
def _sum(s, m, x, i, q):
    return s[i * x.nf + F_Q + q, m]


@formula
def mae_of(s, m, x, i):
    """MAE of target ``i`` (MOA: ``AE / W``, 0 before the first instance)."""
    b = i * x.nf
    if x.moa:
        return where(s[b + M_W, m] > 0.0, s[b + M_AE, m] / s[b + M_W, m], 0.0)
    return maximum(_sum(s, m, x, i, Q_AE) / _w(s, m, x, i), 0.0)


@formula
def mse_of(s, m, x, i):
    """MSE of target ``i`` (MOA: ``SE / W``, 0 before the first instance)."""
    b = i * x.nf
    if x.moa:
        return where(s[b + M_W, m] > 0.0, s[b + M_SE, m] / s[b + M_W, m], 0.0)
    return maximum(_sum(s, m, x, i, Q_SE) / _w(s, m, x, i), 0.0)


@formula
def mape_of(s, m, x, i):
    return maximum(_sum(s, m, x, i, Q_APE) / _w(s, m, x, i), 0.0)


@formula
def smape_of(s, m, x, i):
    return maximum(_sum(s, m, x, i, Q_SAPE) / _w(s, m, x, i), 0.0)


@formula
def r2_of(s, m, x, i):
    """``1 - SS_res / SS_tot`` (MOA: ``1 - SE / STE`` of the running-mean predictor, 0 before the first instance)."""
    b = i * x.nf
    if x.moa:
        return where(s[b + M_W, m] > 0.0, 1.0 - s[b + M_SE, m] / s[b + M_STE, m], 0.0)
    return 1.0 - _sum(s, m, x, i, Q_SE) / maximum(s[b + F_M2, m], 0.0)


@formula
def adjusted_r2_of(s, m, x, i):
    """``1 - (1 - R^2)(n - 1) / (n - p - 1)``, NaN where ``n <= p + 1`` (MOA: MOA's operations, ``p`` counting the
    class attribute once an instance was seen, ``n`` MOA's total weight)."""
    b = i * x.nf
    r2 = r2_of(s, m, x, i)
    if x.moa:
        tw = s[b + M_TW, m]
        p = where(s[b + M_SEEN, m] > 0.0, x.n_features + 1.0, 0.0)
        return 1.0 - ((1.0 - r2) * (tw - 1.0)) / ((tw - p) - 1.0)
    n = s[b + F_N, m]
    free = n - x.n_features - 1.0
    return where(free > 0.0, 1.0 - (1.0 - r2) * (n - 1.0) / where(free > 0.0, free, 1.0), NAN)


@formula
def rmae_of(s, m, x, i):
    """``sum w |e| / sum w |y - b|`` (MOA: ``AE / ATE``, 0 while ``ATE`` is 0)."""
    b = i * x.nf
    if x.moa:
        return where(s[b + M_ATE, m] > 0.0, s[b + M_AE, m] / s[b + M_ATE, m], 0.0)
    return _sum(s, m, x, i, Q_AE) / _sum(s, m, x, i, Q_BAE)


@formula
def rrmse_of(s, m, x, i):
    """``sqrt(sum w e^2 / sum w (y - b)^2)`` (MOA: ``sqrt(SE / STE)``, 0 while ``STE`` is 0)."""
    b = i * x.nf
    if x.moa:
        return sqrt(where(s[b + M_STE, m] > 0.0, s[b + M_SE, m] / s[b + M_STE, m], 0.0))
    return sqrt(maximum(_sum(s, m, x, i, Q_SE) / _sum(s, m, x, i, Q_BSE), 0.0))


@formula
def _mae(s, v, m, x, i):
    return mae_of(s, m, x, i)


@formula
def _mse(s, v, m, x, i):
    return mse_of(s, m, x, i)


@formula
def _rmse(s, v, m, x, i):
    return sqrt(mse_of(s, m, x, i))


@formula
def _mape(s, v, m, x, i):
    return mape_of(s, m, x, i)


@formula
def _smape(s, v, m, x, i):
    return smape_of(s, m, x, i)


@formula
def _r2(s, v, m, x, i):
    return r2_of(s, m, x, i)


@formula
def _adjusted_r2(s, v, m, x, i):
    return adjusted_r2_of(s, m, x, i)


@formula
def _rmae(s, v, m, x, i):
    return rmae_of(s, m, x, i)


@formula
def _rrmse(s, v, m, x, i):
    return rrmse_of(s, m, x, i)


@formula
def _max_error(s, v, m, x, i):
    return s[i * x.nf + MAX_ROW, m]


@formula
def _median_absolute_error(s, v, m, x, i):
    return s[i * x.nf + MEDIAN_ROW, m]


# ------------------------------------------------------------------------------------------- averages
@formula
def _average_mae(s, v, m, x):
    if x.moa:  # MOA: sum_i AE_i / (W * targets)
        ae = s[M_AE, m]
        for i in range(1, x.nt):
            ae = ae + s[i * x.nf + M_AE, m]
        return where(s[M_W, m] > 0.0, ae / (s[M_W, m] * x.nt), 0.0)
    total = mae_of(s, m, x, 0)
    for i in range(1, x.nt):
        total = total + mae_of(s, m, x, i)
    return total / x.nt


@formula
def _average_mse(s, v, m, x):
    total = mse_of(s, m, x, 0)
    for i in range(1, x.nt):
        total = total + mse_of(s, m, x, i)
    return total / x.nt


@formula
def _average_rmse(s, v, m, x):
    if x.moa:  # MOA: sqrt(sum_i SE_i / (W * targets))
        se = s[M_SE, m]
        for i in range(1, x.nt):
            se = se + s[i * x.nf + M_SE, m]
        return sqrt(where(s[M_W, m] > 0.0, se / (s[M_W, m] * x.nt), 0.0))
    total = sqrt(mse_of(s, m, x, 0))
    for i in range(1, x.nt):
        total = total + sqrt(mse_of(s, m, x, i))
    return total / x.nt


@formula
def _average_mape(s, v, m, x):
    total = mape_of(s, m, x, 0)
    for i in range(1, x.nt):
        total = total + mape_of(s, m, x, i)
    return total / x.nt


@formula
def _average_r2(s, v, m, x):
    total = r2_of(s, m, x, 0)
    for i in range(1, x.nt):
        total = total + r2_of(s, m, x, i)
    return total / x.nt


@formula
def _average_rmae(s, v, m, x):
    if x.moa:  # MOA: sum_i AE_i / ATE_i (unguarded), / targets; 0 before the first instance
        total = s[M_AE, m] / s[M_ATE, m]
        for i in range(1, x.nt):
            total = total + s[i * x.nf + M_AE, m] / s[i * x.nf + M_ATE, m]
        return where(s[M_W, m] > 0.0, total / x.nt, 0.0)
    total = rmae_of(s, m, x, 0)
    for i in range(1, x.nt):
        total = total + rmae_of(s, m, x, i)
    return total / x.nt


@formula
def _average_rrmse(s, v, m, x):
    if x.moa:  # MOA: sum_i sqrt(SE_i / STE_i) (unguarded), / targets; 0 before the first instance
        total = sqrt(s[M_SE, m] / s[M_STE, m])
        for i in range(1, x.nt):
            total = total + sqrt(s[i * x.nf + M_SE, m] / s[i * x.nf + M_STE, m])
        return where(s[M_W, m] > 0.0, total / x.nt, 0.0)
    total = rrmse_of(s, m, x, 0)
    for i in range(1, x.nt):
        total = total + rrmse_of(s, m, x, i)
    return total / x.nt


def _m(name, long_name, text, ref, compute, **kw):
    kw.setdefault("higher_is_better", False)
    kw.setdefault("units", "")
    kw.setdefault("needs", "targets")
    kw.setdefault("shape", "target")
    return Metric(name, "regression", long_name, text, ref, compute, (), **kw)


_UNIFORM = "the mean over the targets of the per-target values (scikit-learn's multioutput='uniform_average')"

METRICS = [
    _m(
        "mae",
        "mean absolute error",
        "sum w |y - yhat| / sum w over the instances held (NaN before the first); "
        "MOA: sum |y - yhat| / sum w, 0 before the first",
        f"{_GAMA}; {_SK}.mean_absolute_error; {_MOA}",
        _mae,
        symbol="MAE",
    ),
    _m(
        "mse",
        "mean squared error",
        "sum w (y - yhat)^2 / sum w over the instances held (NaN before the first)",
        f"{_GAMA}; {_SK}.mean_squared_error",
        _mse,
        symbol="MSE",
        moa=False,
    ),
    _m(
        "rmse",
        "root mean squared error",
        "sqrt(mse) under the same estimator; MOA: sqrt(sum (y - yhat)^2 / sum w), 0 before the first",
        f"{_GAMA}; {_SK}.root_mean_squared_error; {_MOA}",
        _rmse,
        symbol="RMSE",
    ),
    _m(
        "mape",
        "mean absolute percentage error",
        "sum w |y - yhat| / max(|y|, eps) / sum w (a fraction; eps = 2.2e-16, as scikit-learn)",
        f"{_SK}.mean_absolute_percentage_error",
        _mape,
        symbol="MAPE",
        moa=False,
        limits=(0.0, None),
    ),
    _m(
        "smape",
        "symmetric mean absolute percentage error",
        "sum w 2 |y - yhat| / (|y| + |yhat|) / sum w, a term 0 when y = yhat = 0 (a fraction in [0, 2]; "
        "river's SMAPE / 100)",
        "Makridakis 1993; river.metrics.SMAPE",
        _smape,
        symbol="sMAPE",
        moa=False,
        limits=(0.0, 2.0),
    ),
    _m(
        "r2",
        "coefficient of determination",
        "1 - sum w (y - yhat)^2 / sum w (y - ybar)^2, ybar the weighted mean of the targets held (-inf or NaN "
        "when they are all equal); MOA: 1 - SE / STE of the running-mean predictor, 0 before the first",
        f"{_SK}.r2_score(force_finite=False); river.metrics.R2; {_MOA}",
        _r2,
        symbol="R^2",
        higher_is_better=True,
        units="1",
        limits=(None, 1.0),
    ),
    _m(
        "adjusted_r2",
        "adjusted coefficient of determination",
        "1 - (1 - R^2)(n - 1) / (n - p - 1), n the instances held (faded count), p = n_features; NaN where "
        "n <= p + 1; MOA: p = n_features + 1 (the class attribute) and n MOA's total weight",
        f"Theil 1961; {_MOA}",
        _adjusted_r2,
        symbol="\\bar{R}^2",
        higher_is_better=True,
        units="1",
        needs="n_features",
        limits=(None, 1.0),
    ),
    _m(
        "rmae",
        "relative mean absolute error",
        "sum w |y - yhat| / sum w |y - b|, b the TargetMean prediction (the weighted mean of the targets held "
        "before the instance, 0 with none); MOA: its running mean, 0 while undefined",
        f"{_MOA}; Ikonomovska, Gama & Dzeroski 2011",
        _rmae,
        symbol="RMAE",
        units="1",
    ),
    _m(
        "rrmse",
        "relative root mean squared error",
        "sqrt(sum w (y - yhat)^2 / sum w (y - b)^2), b as for rmae; MOA: its running mean, 0 while undefined",
        f"{_MOA}; Ikonomovska, Gama & Dzeroski 2011",
        _rrmse,
        symbol="RRMSE",
        units="1",
    ),
    _m(
        "max_error",
        "maximum absolute error",
        "max |y - yhat| over the instances held (windows and ADWIN: exact, by a monotone deque; fading and EWMA "
        "hold every instance since the start with a positive weight: the prequential maximum)",
        f"{_SK}.max_error",
        _max_error,
        moa=False,
        limits=(0.0, None),
    ),
    _m(
        "median_absolute_error",
        "median absolute error",
        "weighted median of |y - yhat| over the instances held, their weights faded (averaged inverted CDF: the "
        "mean of the two middle values when the cumulative weight reaches exactly half); computed when asked by "
        "name (an order-statistics tree per series and estimator, O(log n) per instance)",
        f"{_SK}.median_absolute_error; Hyndman & Fan 1996, definition 2",
        _median_absolute_error,
        needs="tree",
        moa=False,
        limits=(0.0, None),
    ),
    _m(
        "average_mae",
        "mean absolute error averaged over the targets",
        f"{_UNIFORM} of mae; MOA: sum of the targets' absolute errors / (sum w x targets)",
        f"{_SK}.mean_absolute_error; {_MOA_MT}",
        _average_mae,
        shape="scalar",
        needs="multitarget",
    ),
    _m(
        "average_mse",
        "mean squared error averaged over the targets",
        f"{_UNIFORM} of mse",
        f"{_SK}.mean_squared_error",
        _average_mse,
        shape="scalar",
        needs="multitarget",
        moa=False,
    ),
    _m(
        "average_rmse",
        "root mean squared error averaged over the targets",
        f"{_UNIFORM} of rmse; MOA: sqrt(sum of the targets' squared errors / (sum w x targets))",
        f"{_SK}.root_mean_squared_error; {_MOA_MT}",
        _average_rmse,
        shape="scalar",
        needs="multitarget",
    ),
    _m(
        "average_mape",
        "mean absolute percentage error averaged over the targets",
        f"{_UNIFORM} of mape",
        f"{_SK}.mean_absolute_percentage_error",
        _average_mape,
        shape="scalar",
        needs="multitarget",
        moa=False,
        limits=(0.0, None),
    ),
    _m(
        "average_r2",
        "coefficient of determination averaged over the targets",
        f"{_UNIFORM} of r2",
        f"{_SK}.r2_score",
        _average_r2,
        shape="scalar",
        needs="multitarget",
        higher_is_better=True,
        units="1",
        moa=False,
        limits=(None, 1.0),
    ),
    _m(
        "average_rmae",
        "relative mean absolute error averaged over the targets",
        f"{_UNIFORM} of rmae; MOA: the mean of the targets' AE / ATE, MOA's running mean including the instance",
        _MOA_MT,
        _average_rmae,
        shape="scalar",
        needs="multitarget",
        units="1",
    ),
    _m(
        "average_rrmse",
        "relative root mean squared error averaged over the targets",
        f"{_UNIFORM} of rrmse; MOA: the mean of the targets' sqrt(SE / STE), MOA's running mean including the instance",
        _MOA_MT,
        _average_rrmse,
        shape="scalar",
        needs="multitarget",
        units="1",
    ),
]
