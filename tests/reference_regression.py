"""Slow, obviously correct references of the regression and prediction-interval families.

At every step the instances an estimator holds are listed with their weights (the last ``w`` members, faded
weights ``a**age``, the members since a restart, the last ``width`` members of an ADWIN window), the TargetMean
baseline's prediction of each member is recomputed from the members held just before it, and every metric is
computed from scratch with numpy.
"""

from __future__ import annotations

import math

import numpy as np

EPS = np.finfo(np.float64).eps


def held(kind, param, members, t, widths=None):
    """``[(s, factor)]``: the members ``s <= t`` an estimator holds at stream position ``t`` and their forgetting
    factor (``widths[s]``: an ADWIN's width after member ``s``)."""
    seen = [s for s in members if s <= t]
    if kind == "prequential":
        return [(s, 1.0) for s in seen]
    if kind == "window":
        return [(s, 1.0) for s in seen[-param:]]
    if kind in ("fading", "ewma"):
        a = 1.0 - param if kind == "ewma" else param
        return [(s, a ** (len(seen) - 1 - j)) for j, s in enumerate(seen)]
    if kind == "adwin":
        return [(s, 1.0) for s in seen[-int(widths[seen[-1]]) :]] if seen else []
    starts = range(0, t + 1, param) if kind == "tumbling" else [r for r in param if r <= t]
    start = max(starts, default=0)
    return [(s, 1.0) for s in seen if s >= start]


def weighted_median(values, weights):
    """The averaged inverted CDF of ``values`` with ``weights`` (NaN when no weight)."""
    order = np.argsort(values, kind="stable")
    v, w = np.asarray(values, float)[order], np.asarray(weights, float)[order]
    keep = w > 0
    v, w = v[keep], w[keep]
    if v.size == 0:
        return math.nan
    cdf = np.cumsum(w)
    half = cdf[-1] / 2
    i = int(np.searchsorted(cdf, half, side="left"))
    if cdf[i] != half:
        return float(v[i])
    return float((v[i] + v[i + 1]) / 2)


def regression_reference(y, p, w, kind, param, *, n_features=None, widths=None):
    """Every regression metric of one series at every position: ``{name: (n,)}`` (``y`` NaN: no target)."""
    n = y.size
    members = [t for t in range(n) if not math.isnan(y[t]) and w[t] > 0]
    base = {}
    for j, s in enumerate(members):
        before = held(kind, param, members[:j], s - 1, widths) if j else []
        if kind in ("tumbling", "landmarks"):
            starts = range(0, s + 1, param) if kind == "tumbling" else [r for r in param if r <= s]
            start = max(starts, default=0)
            before = [(r, f) for r, f in before if r >= start]
        gw = np.array([w[r] * f for r, f in before])
        base[s] = float(np.sum(gw * y[[r for r, _ in before]]) / gw.sum()) if before else 0.0
    names = ["mae", "mse", "rmse", "mape", "smape", "r2", "adjusted_r2", "rmae", "rrmse", "max_error",
             "median_absolute_error", "n_instances"]  # fmt: skip
    out = {k: np.full(n, np.nan) for k in names}
    for t in range(n):
        h = held(kind, param, members, t, widths)
        if not h:
            out["n_instances"][t] = 0.0
            continue
        idx = np.array([s for s, _ in h])
        g = np.array([w[s] * f for s, f in h])
        yy, pp = y[idx], p[idx]
        e = yy - pp
        W = g.sum()
        nn = sum(f for _, f in h)
        b = np.array([base[s] for s in idx])
        ybar = np.sum(g * yy) / W
        sst = np.sum(g * (yy - ybar) ** 2) if np.ptp(yy) > 0 else 0.0  # equal targets: exactly 0
        sse = np.sum(g * e * e)
        with np.errstate(divide="ignore", invalid="ignore"):
            r2 = 1 - sse / sst
            den = np.abs(yy) + np.abs(pp)
            smape = np.where(den > 0, 2 * np.abs(e) / np.where(den > 0, den, 1), 0.0)
            vals = {
                "mae": np.sum(g * np.abs(e)) / W,
                "mse": sse / W,
                "rmse": math.sqrt(sse / W),
                "mape": np.sum(g * np.abs(e) / np.maximum(np.abs(yy), EPS)) / W,
                "smape": np.sum(g * smape) / W,
                "r2": r2,
                "rmae": np.sum(g * np.abs(e)) / np.sum(g * np.abs(yy - b)),
                "rrmse": np.sqrt(sse / np.sum(g * (yy - b) ** 2)),
                "max_error": np.max(np.abs(e)),
                "median_absolute_error": weighted_median(np.abs(e), g),
                "n_instances": nn,
            }
            if n_features is not None:
                free = nn - n_features - 1
                vals["adjusted_r2"] = 1 - (1 - r2) * (nn - 1) / free if free > 0 else math.nan
        for k, v in vals.items():
            out[k][t] = v
    return out


def interval_reference(y, lo, up, qs, taus, w, kind, param, *, alpha=None, widths=None):
    """Every interval metric of one series at every position (``qs (nq, n)`` quantile predictions)."""
    n = y.size
    members = [t for t in range(n) if not math.isnan(y[t]) and w[t] > 0]
    out = {k: np.full(n, np.nan) for k in ("coverage", "mean_width", "nmpiw", "interval_score", "target_range")}
    out["pinball"] = np.full((n, len(taus)), np.nan)
    for t in range(n):
        h = held(kind, param, members, t, widths)
        if not h:
            continue
        idx = np.array([s for s, _ in h])
        g = np.array([w[s] * f for s, f in h])
        W = g.sum()
        yy, ll, uu = y[idx], lo[idx], up[idx]
        inside = (ll <= yy) & (yy <= uu)
        width = np.sum(g * (uu - ll)) / W
        rng = yy.max() - yy.min()
        out["coverage"][t] = np.sum(g * inside) / W
        out["mean_width"][t] = width
        out["target_range"][t] = rng
        out["nmpiw"][t] = width / rng if rng > 0 else math.nan
        if alpha is not None:
            f = 2 / alpha
            score = (uu - ll) + f * (ll - yy) * (yy < ll) + f * (yy - uu) * (yy > uu)
            out["interval_score"][t] = np.sum(g * score) / W
        for j, tau in enumerate(taus):
            u = yy - qs[j, idx]
            out["pinball"][t, j] = np.sum(g * np.where(u >= 0, tau * u, (tau - 1) * u)) / W
    return out
