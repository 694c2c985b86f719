"""Slow, obviously correct reference implementations used as test oracles.

Nothing here is clever: at every step the set of instances an estimator holds
is listed explicitly with its weights (prefix, last ``w`` evaluated instances,
or ``alpha**age`` weights), the baseline classifiers' predictions are recomputed
from their definitions, and every metric is recomputed from scratch.
"""

from __future__ import annotations

import math

import numpy as np

NAN = float("nan")


def _div(a, b):
    return a / b if b != 0 else NAN


def metrics_from_sample(ys, ps, om, k, pos, maj_hits, per_hits, n_eff):
    """Every scalar and per-class metric of a weighted sample (lists)."""
    W = float(sum(om))
    row = [sum(o for y, o in zip(ys, om) if y == i) for i in range(k)]
    col = [sum(o for p, o in zip(ps, om) if p == i) for i in range(k)]
    dia = [sum(o for y, p, o in zip(ys, ps, om) if y == i and p == i) for i in range(k)]
    correct = sum(dia)
    p0 = _div(correct, W)
    pc = _div(sum(r * c for r, c in zip(row, col)), W * W)
    pmaj = _div(sum(o * h for o, h in zip(om, maj_hits)), W)
    pper = _div(sum(o * h for o, h in zip(om, per_hits)), W)

    def cc(p, b):
        if math.isnan(p) or math.isnan(b) or b == 1.0:
            return NAN
        return (p - b) / (1 - b)

    kap = cc(p0, pc)
    kper = cc(p0, pper)
    rec = [_div(dia[i], row[i]) for i in range(k)]
    prec = [_div(dia[i], col[i]) for i in range(k)]
    cf1 = [_div(2 * dia[i], row[i] + col[i]) for i in range(k)]
    present = [rec[i] for i in range(k) if row[i] > 0]
    if present:
        A = sum(present) / len(present)
        G = 0.0 if min(present) == 0 else math.prod(present) ** (1 / len(present))
        H = 0.0 if min(present) == 0 else len(present) / sum(1 / a for a in present)
    else:
        A = G = H = NAN
    f1s = [cf1[i] for i in range(k) if row[i] + col[i] > 0]
    num = correct * W - sum(r * c for r, c in zip(row, col))
    den = (W * W - sum(c * c for c in col)) * (W * W - sum(r * r for r in row))
    mcc = num / math.sqrt(den) if den > 0 else NAN
    out = {
        "accuracy": p0,
        "error": 1 - p0,
        "kappa": kap,
        "kappa_m": cc(p0, pmaj),
        "kappa_per": kper,
        "kappa_plus": NAN if (math.isnan(kap) or math.isnan(kper)) else math.sqrt(max(0, kap) * max(0, kper)),
        "p_ran": pc,
        "p_maj": pmaj,
        "p_per": pper,
        "p_no_info": 1.0 / k,
        "kappa_se": NAN
        if (n_eff <= 0 or pc == 1 or math.isnan(pc))
        else math.sqrt(max(0.0, p0 * (1 - p0)) / (n_eff * (1 - pc) ** 2)),
        "kappa_z": NAN
        if (n_eff <= 0 or pc in (0.0, 1.0) or math.isnan(pc))
        else kap / math.sqrt(pc / (n_eff * (1 - pc))),
        "arithmetic_mean": A,
        "geometric_mean": G,
        "harmonic_mean": H,
        "f1": cf1[pos],
        "macro_f1": sum(f1s) / len(f1s) if f1s else NAN,
        "mcc": mcc,
        "n_instances": n_eff,
        # Kish's effective size of the weights the estimator gives its instances
        "n_effective": W * W / sum(o * o for o in om) if W > 0 else NAN,
        "recall": rec,
        "precision": prec,
        "class_f1": cf1,
    }
    if k == 2:
        tp, tn = dia[1], dia[0]
        fn, fp = row[1] - tp, row[0] - tn
        out["cmd"] = _div(tp * tn - fn * fp, W * W)
    return out


def held(kind, param, evaluated_before_and_t, t_index_of):
    """(indices, age-in-evaluated-steps) of the instances an estimator holds."""
    idx = evaluated_before_and_t
    if kind == "prequential":
        return idx, None
    if kind == "window":
        return idx[-param:], None
    return idx, None


def reference_curves(y, p, k, estimators, *, weights=None, pos=1, losses=None):
    """Per-step metrics for one series (codes; y = -1 missing).

    ``estimators``: list of ("prequential", None) / ("window", w) / ("fading", alpha) /
    ("varwindow", widths) where ``widths[j]`` is the number of instances held after
    the ``j``-th evaluated instance (an ADWIN window) / ("tumbling", w): the evaluated
    instances since the last stream position that is a multiple of ``w`` / ("landmarks",
    positions): the evaluated instances since the last landmark position.
    Returns ``{estimator_index: [metrics dict at t for t in range(n)]}``.
    """
    n = len(y)
    w = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
    evaluated = [t for t in range(n) if y[t] >= 0 and p[t] >= 0 and w[t] > 0]
    # Persistent prediction: last present label before t, class 0 before any
    per_pred = []
    last = 0
    for t in range(n):
        per_pred.append(last)
        if y[t] >= 0:
            last = y[t]
    result = {}
    for e, (kind, param) in enumerate(estimators):

        def weights_at(ev_upto, now):
            """weights of held evaluated instances given the evaluated list up to now (stream position ``now``)."""
            if kind in ("tumbling", "landmarks"):
                resets = [r for r in (range(0, now + 1, param) if kind == "tumbling" else param) if r <= now]
                start = max(resets, default=0)
                h = [s for s in ev_upto if s >= start]
                return h, [w[s] for s in h]
            if kind == "prequential":
                return ev_upto, [w[s] for s in ev_upto]
            if kind == "varwindow":  # param[j] = instances held after the j-th evaluated instance
                if not ev_upto:
                    return ev_upto, []
                h = ev_upto[-int(param[len(ev_upto) - 1]) :]
                return h, [w[s] for s in h]
            if kind == "window":
                h = ev_upto[-param:] if len(ev_upto) > param else ev_upto
                return h, [w[s] for s in h]
            m = len(ev_upto)
            a = 1.0 - param if kind == "ewma" else param  # an EWMA of smoothing factor a holds a (1 - a)**age
            return ev_upto, [w[s] * a ** (m - 1 - j) for j, s in enumerate(ev_upto)]

        # Majority prediction for each evaluated instance s: argmax of held true-class weights before s
        maj_pred = {}
        for j, s in enumerate(evaluated):
            hs, om = weights_at(evaluated[:j], s)
            counts = [sum(o for r, o in zip(hs, om) if y[r] == i) for i in range(k)]
            best = 0
            for i in range(1, k):
                if counts[i] > counts[best]:
                    best = i
            maj_pred[s] = best
        rows = []
        for t in range(n):
            ev = [s for s in evaluated if s <= t]
            hs, om = weights_at(ev, t)
            if kind in ("fading", "ewma"):
                a = 1.0 - param if kind == "ewma" else param
                n_eff = sum(a ** (len(ev) - 1 - j) for j in range(len(ev)))
            else:
                n_eff = float(len(hs))
            ys = [y[s] for s in hs]
            ps = [p[s] for s in hs]
            mh = [1 if maj_pred[s] == y[s] else 0 for s in hs]
            ph = [1 if per_pred[s] == y[s] else 0 for s in hs]
            row = metrics_from_sample(ys, ps, om, k, pos, mh, ph, n_eff)
            if losses is not None:
                row["risk"] = _div(sum(o * losses[s] for s, o in zip(hs, om)), sum(om))
            rows.append(row)
        result[e] = rows
    return result


# ---------------------------------------------------------------------------
# A literal restatement of MOA's evaluators (BasicClassificationPerformanceEvaluator and its
# Window / FadingFactor subclasses), written from the behaviour described in DESIGN.md sec. 4.


class _Basic:
    def __init__(self):
        self.s = 0.0
        self.n = 0.0

    def add(self, v):
        self.s += v
        self.n += 1

    def est(self):
        return self.s / self.n if self.n != 0 else (NAN if self.s == 0 else math.copysign(math.inf, self.s))


class _Window:
    def __init__(self, w):
        self.buf = [0.0] * w
        self.pos = 0
        self.len = 0
        self.w = w
        self.s = 0.0

    def add(self, v):
        self.s -= self.buf[self.pos]
        self.s += v
        self.buf[self.pos] = v
        self.pos = (self.pos + 1) % self.w
        self.len = min(self.len + 1, self.w)

    def est(self):
        return self.s / self.len if self.len else NAN


class _Fading:
    def __init__(self, a):
        self.a = a
        self.e = 0.0
        self.b = 0.0

    def add(self, v):
        self.e = self.a * self.e + v
        self.b = self.a * self.b + 1.0

    def est(self):
        return self.e / self.b if self.b > 0 else 0.0


class MoaEvaluator:
    """MOA's evaluator semantics for accuracy, kappa, kappa_m, kappa_temp."""

    def __init__(self, k, make):
        self.k = k
        self.make = make
        self.total = 0.0
        self._reset()

    def _reset(self):
        self.correct = self.make()
        self.rowk = [self.make() for _ in range(self.k)]  # predicted
        self.colk = [self.make() for _ in range(self.k)]  # true
        self.nochange = self.make()
        self.majority = self.make()
        self.last = 0

    def _majority(self):
        best, bp = 0, 0.0
        for i in range(self.k):
            if self.colk[i].est() > bp:
                best, bp = i, self.colk[i].est()
        return best

    def add(self, y, p, w):
        if y < 0:
            return
        if w > 0:
            if self.total == 0:
                self._reset()
            self.total += w
            self.correct.add(w if p == y else 0.0)
            for i in range(self.k):
                self.rowk[i].add(w if p == i else 0.0)
                self.colk[i].add(w if y == i else 0.0)
        self.nochange.add(w if self.last == y else 0.0)
        self.majority.add(w if self._majority() == y else 0.0)
        self.last = y

    def values(self):
        p0 = self.correct.est()
        if self.total > 0:
            pc = sum(self.rowk[i].est() * self.colk[i].est() for i in range(self.k))
            with np.errstate(divide="ignore", invalid="ignore"):
                kap = float(np.float64(p0 - pc) / np.float64(1.0 - pc))
                pt = self.nochange.est()
                kt = float(np.float64(p0 - pt) / np.float64(1.0 - pt))
                pm = self.majority.est()
                km = float(np.float64(p0 - pm) / np.float64(1.0 - pm))
        else:
            kap = kt = km = 0.0
        return {"accuracy": p0, "kappa": kap, "kappa_per": kt, "kappa_m": km}


# ---------------------------------------------------------------------------
# Vectorised restatement for long streams (every sum an explicit linear filter)


def filtered_sums(kind, param, x):
    """``sum_s weight(t, s) x_s`` at every ``t``: all ``s <= t`` (prequential), the last ``param``
    (window), the last ``param[t]`` (varwindow: an ADWIN window's widths) or ``param**(t - s)``
    (fading, as a first-order recursive filter)."""
    from scipy.signal import lfilter

    if kind == "prequential":
        return np.cumsum(x)
    if kind == "varwindow":
        c = np.r_[0.0, np.cumsum(x)]
        t = np.arange(len(x))
        return c[t + 1] - c[t + 1 - np.asarray(param)]
    if kind == "window":
        c = np.cumsum(x)
        c[param:] = c[param:] - c[:-param].copy()
        return c
    return lfilter([1.0], [1.0, -param], x)


def vectorised_curves(y, p, k, estimators, weights=None, pos=1):
    """Scalar metrics at every instance of a stream with no missing label, for long streams.

    The same definitions as :func:`metrics_from_sample` (the default convention: the
    Majority Class predicts the largest held true-class weight before ``t``, ties to the
    lowest class; the Persistent classifier the previous label, class 0 first), with
    every weighted sum computed as a filter over the whole stream. Returns a list with a
    ``{metric: (n,) array}`` per estimator.
    """
    n = len(y)
    w = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
    per_pred = np.r_[0, y[:-1]]
    result = []
    for kind, a in estimators:
        row = np.stack([filtered_sums(kind, a, w * (y == i)) for i in range(k)])
        col = np.stack([filtered_sums(kind, a, w * (p == i)) for i in range(k)])
        dia = np.stack([filtered_sums(kind, a, w * ((y == i) & (p == i))) for i in range(k)])
        W = filtered_sums(kind, a, w)
        C = dia.sum(0)
        maj = np.argmax(np.concatenate([np.zeros((k, 1)), row[:, :-1]], axis=1), axis=0)
        BM = filtered_sums(kind, a, w * (maj == y))
        BP = filtered_sums(kind, a, w * (per_pred == y))
        neff = filtered_sums(kind, a, np.ones(n))
        # Kish's effective size: sum of the weights squared over the sum of their squares (fading: alpha**2)
        W2 = filtered_sums(kind, a * a if kind == "fading" else a, w * w)
        with np.errstate(all="ignore"):
            p0 = C / W
            pc = (row * col).sum(0) / W**2
            pm = BM / W
            pp = BP / W
            kap, km, kp = ((p0 - b) / (1 - b) for b in (pc, pm, pp))
            present = row > 0
            rec = np.where(present, dia / row, np.nan)
            f1c = 2 * dia / (row + col)
            out = {
                "accuracy": p0,
                "error": 1 - p0,
                "kappa": kap,
                "kappa_m": km,
                "kappa_per": kp,
                "kappa_plus": np.sqrt(np.maximum(kap, 0) * np.maximum(kp, 0)),
                "p_ran": pc,
                "p_maj": pm,
                "p_per": pp,
                "p_no_info": np.full(n, 1.0 / k),
                "kappa_se": np.sqrt(np.maximum(p0 * (1 - p0), 0.0) / (neff * (1 - pc) ** 2)),
                "kappa_z": kap / np.sqrt(pc / (neff * (1 - pc))),
                "arithmetic_mean": np.nanmean(rec, 0),
                "geometric_mean": np.exp(np.nanmean(np.log(rec), 0)),
                "harmonic_mean": present.sum(0) / np.nansum(1 / rec, 0),
                "f1": f1c[pos],
                "macro_f1": np.nanmean(np.where(row + col > 0, f1c, np.nan), 0),
                "mcc": (C * W - (row * col).sum(0)) / np.sqrt((W**2 - (col**2).sum(0)) * (W**2 - (row**2).sum(0))),
                "n_instances": neff,
                "n_effective": W * W / W2,
            }
            if k == 2:
                tp, tn = dia[1], dia[0]
                out["cmd"] = (tp * tn - (row[1] - tp) * (row[0] - tn)) / W**2
        result.append(out)
    return result
