"""Slow, obviously correct references and stream makers for the AUC family's tests."""

from __future__ import annotations

import numpy as np

from streamtk._core.mechanisms import build_estimators
from streamtk._core.metrics import REGISTRY
from streamtk.evaluation.auc_engine import AucEngine

AUC_METRICS = ["auc", "auc_u1", "auc_u0", "auc_z"]


def pair_u(score, y, v, pos):
    """``(U1, W0, W1)`` of class ``pos`` against the rest by explicit pair counting, ties one half."""
    u = 0.0
    for i in range(len(y)):
        if y[i] != pos:
            continue
        for j in range(len(y)):
            if y[j] == pos:
                continue
            h = 1.0 if score[i] > score[j] else (0.5 if score[i] == score[j] else 0.0)
            u += v[i] * v[j] * h
    return u, float(v[y != pos].sum()), float(v[y == pos].sum())


def pair_auc(score, y, v, pos):
    u, w0, w1 = pair_u(score, y, v, pos)
    n1 = int((y == pos).sum())
    return u / (w0 * w1) if (n1 and n1 < len(y)) else np.nan


def held(member, w, t, kind, param, widths=None):
    """Positions and weights an estimator holds after position ``t``: the plain definition.

    ``member (n,)`` bool, ``w (n,)`` weights; ``kind``/``param`` as an EstimatorSpec; ``widths``
    the ADWIN width after each member position.
    """
    idx = np.flatnonzero(member[: t + 1])
    v = np.asarray(w, dtype=float)[idx]
    if kind == "window":
        idx, v = idx[-int(param) :], v[-int(param) :]
    elif kind == "fading":
        v = v * param ** np.arange(idx.size - 1, -1, -1, dtype=float)
    elif kind == "tumbling":
        keep = idx >= (t // param) * param
        idx, v = idx[keep], v[keep]
    elif kind == "landmarks":
        start = max([0] + [m for m in param if m <= t])
        keep = idx >= start
        idx, v = idx[keep], v[keep]
    elif kind == "adwin":
        m = int(widths[idx[-1]]) if idx.size else 0
        idx, v = idx[idx.size - m :], v[idx.size - m :]
    return idx, v


def stream(seed, n, *, k=2, n_values=6, p_missing=0.1, L=1, weighted=False, p_zero=0.1):
    """``(y (n,), y_pred (L, n), scores (L, n) or (L, n, k), weights (L, n) or None)`` with ties and gaps."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y[rng.random(n) < p_missing] = -1
    shape = (L, n) if k == 2 else (L, n, k)
    s = rng.integers(0, n_values, shape) / n_values
    p = rng.integers(0, k, (L, n))
    w = None
    if weighted:
        w = np.where(rng.random((L, n)) < p_zero, 0.0, rng.uniform(0.5, 2.0, (L, n)))
    return y, p, s, w


def make_engine(k=2, *, every=1, pairwise=False, moa=False, route="auto", offline=None, metrics=None, **forgetting):
    """An :class:`AucEngine` for ``k`` classes (binary scores when ``k == 2``) and the given estimators."""
    multi = k > 2
    names = metrics or (
        AUC_METRICS + (["auc_macro"] if multi else []) + (["auc_ovo", "auc_hand_till"] if pairwise else [])
    )
    return AucEngine(build_estimators(**forgetting), every=every, n_classes=k, mode="multi" if multi else "binary",
                     metrics=[REGISTRY[m] for m in names], pairwise=pairwise, moa=moa,
                     adwin_options={"max_buckets": 5, "clock": 32, "min_window": 5, "bound": "bernstein"},
                     route=route, offline=offline)  # fmt: skip


def run_engine(y, s, w=None, p=None, *, cuts=None, **options):
    """The engine over ``y``/``s`` in chunks ``cuts`` (one pass when None); returns ``(positions, arrays, engine)``."""
    eng = make_engine(s.shape[-1] if np.ndim(s) == 3 else 2, **options)
    n = len(y)
    cuts = [0, n] if cuts is None else cuts
    for a, b in zip(cuts[:-1], cuts[1:]):
        eng.update(y[a:b], s[:, a:b], None if w is None else w[:, a:b], None if p is None else p[:, a:b],
                   last=b == n and cuts == [0, n])  # fmt: skip
    pos, arrays = eng.collect()
    return pos, arrays, eng


def check_auc_pairwise(name):
    """The registry's reference check of the pairwise family (``auc_ovo``, ``auc_hand_till``): every pair
    counted on the class-``i`` column, ties one half (Hand & Till 2001), prequential and a window of 9."""
    from streamtk.evaluation.scores import auc_curves

    rng = np.random.default_rng(11)
    n, k = 50, 3
    y = rng.integers(0, k, n)
    s = rng.random((n, k)).round(1)  # ties
    ds = auc_curves(y, s, classes=list(range(k)), multi_class="ovo", windows=9, every=1, metrics=[name])
    for e, lo in enumerate([lambda t: 0, lambda t: max(0, t - 8)]):
        for t in range(n):
            yy, ss = y[lo(t) : t + 1], s[lo(t) : t + 1]
            pair = np.full((k, k), np.nan)
            for i in range(k):
                for j in range(k):
                    sel = (yy == i) | (yy == j)
                    if i != j and (yy == i).any() and (yy == j).any():
                        pair[i, j] = pair_auc(ss[sel, i], yy[sel], np.ones(int(sel.sum())), i)
            if name == "auc_ovo":
                want = pair
            else:
                sym = [(pair[i, j] + pair[j, i]) / 2 for i in range(k) for j in range(i + 1, k)]
                sym = [v for v in sym if not np.isnan(v)]
                want = np.mean(sym) if sym else np.nan
            np.testing.assert_allclose(ds[name].values[e, t], want, rtol=1e-12, atol=1e-12, equal_nan=True)
