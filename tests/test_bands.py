"""Bands on every metric: analytic formulas, confidence sequences and options against slow, obvious references.

* analytic: Wilson's interval at Kish's effective size (accuracy, error, recall, precision, the baselines), the
  delta method of the kappas, Agresti-Min of paired differences, Hanley-McNeil of the AUC, each computed here from
  the explicit weights every estimator gives the instances it holds (``alpha**(t - s) w_s`` for a fading factor);
* confidence sequences: a plain-Python transcription of Waudby-Smith & Ramdas (2024) PrPl-EB and of the union
  bound; ``confseq`` 0.0.11's own ``predmix_empbern_twosided_cs``
  (``pip install confseq``: the ``test`` extra; skipped when it is absent);
* properties: chunked == one pass, window >= n == prequential, fading 1 == prequential, the bootstrap is seeded.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import xarray as xr
from scipy import stats
from sklearn.metrics import roc_auc_score

import streamtk
from streamtk._core.intervals.sequences import union_half_width

Z90 = stats.norm.ppf(0.95)
MECH = dict(windows=7, fading=0.8, tumbling=11, landmarks=[5, 23])


def _held(kind, param, evaluated, t, w):
    """The held instances ``s`` of an estimator at stream position ``t`` and their weights (the estimator's weighting
    of the user's weights): the definitions, written plainly."""
    ev = [s for s in evaluated if s <= t]
    if kind == "prequential":
        return ev, [w[s] for s in ev]
    if kind == "window":
        h = ev[-param:]
        return h, [w[s] for s in h]
    if kind == "fading":
        m = len(ev)
        return ev, [w[s] * param ** (m - 1 - j) for j, s in enumerate(ev)]
    resets = list(range(0, t + 1, param)) if kind == "tumbling" else [r for r in param if r <= t]
    start = max(resets, default=0)
    h = [s for s in ev if s >= start]
    return h, [w[s] for s in h]


def _wilson(p, n, z):
    if not n > 0 or p != p:
        return math.nan, math.nan
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def _stream(n=60, k=3, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.6, y, rng.integers(0, k, n))
    p[rng.random(n) < 0.1] = -1  # no prediction: not evaluated
    w = rng.choice([0.0, 0.5, 1.0, 3.0], size=n)
    return y, p, w


@pytest.mark.parametrize("weighted", [False, True])
def test_analytic_bands_are_wilson_and_delta_at_kish_effective_size(weighted):
    y, p, w = _stream()
    k = 3
    weights = w if weighted else np.ones_like(w)
    ds = streamtk.evaluate(
        y,
        np.where(p < 0, np.nan, p),
        weights=w if weighted else None,
        every=1,
        interval=0.9,
        metrics=["accuracy", "error", "kappa", "kappa_m", "recall", "precision", "n_effective", "p_maj"],
        classes=[0, 1, 2],
        **MECH,
    )
    evaluated = [s for s in range(y.size) if p[s] >= 0 and weights[s] > 0]
    for e, label in enumerate(ds.estimator.values):
        kind, _, value = str(label).partition("=")
        param = None if kind == "prequential" else (MECH["landmarks"] if kind == "landmarks" else eval(value))
        sel = ds.isel(estimator=e)
        for t in range(y.size):
            h, om = _held(kind, param, evaluated, t, weights)
            om = np.array(om)
            if om.sum() == 0:
                assert np.isnan(sel.accuracy_lower.values[t])
                continue
            hit = np.array([y[s] == p[s] for s in h], dtype=float)
            W, W2 = om.sum(), (om * om).sum()
            n_eff = W * W / W2
            assert sel.n_effective.values[t] == pytest.approx(n_eff, rel=1e-12)
            p0 = (om * hit).sum() / W
            lo, hi = _wilson(p0, n_eff, Z90)
            assert sel.accuracy_lower.values[t] == pytest.approx(lo, rel=1e-10, abs=1e-12)
            assert sel.accuracy_upper.values[t] == pytest.approx(hi, rel=1e-10, abs=1e-12)
            assert sel.error_lower.values[t] == pytest.approx(1 - hi, rel=1e-10, abs=1e-12)
            row = [sum(om[j] for j, s in enumerate(h) if y[s] == i) / W for i in range(k)]
            col = [sum(om[j] for j, s in enumerate(h) if p[s] == i) / W for i in range(k)]
            pr = sum(r * c for r, c in zip(row, col))
            if pr != 1:
                kap = (p0 - pr) / (1 - pr)
                se = math.sqrt(p0 * (1 - p0) / (n_eff * (1 - pr) ** 2))
                assert sel.kappa_lower.values[t] == pytest.approx(kap - Z90 * se, rel=1e-9, abs=1e-12)
                assert sel.kappa_upper.values[t] == pytest.approx(min(kap + Z90 * se, 1.0), rel=1e-9, abs=1e-12)
            for i in range(k):
                ri = np.array([om[j] for j, s in enumerate(h) if y[s] == i])
                if ri.size and ri.sum() > 0:
                    rec = sum(om[j] for j, s in enumerate(h) if y[s] == i and p[s] == i) / ri.sum()
                    lo, hi = _wilson(rec, ri.sum() ** 2 / (ri * ri).sum(), Z90)
                    assert sel.recall_lower.values[t, i] == pytest.approx(lo, rel=1e-9, abs=1e-12)
                    assert sel.recall_upper.values[t, i] == pytest.approx(hi, rel=1e-9, abs=1e-12)
                ci = np.array([om[j] for j, s in enumerate(h) if p[s] == i])
                if ci.size and ci.sum() > 0:
                    prec = sum(om[j] for j, s in enumerate(h) if y[s] == i and p[s] == i) / ci.sum()
                    lo, hi = _wilson(prec, ci.sum() ** 2 / (ci * ci).sum(), Z90)
                    assert sel.precision_lower.values[t, i] == pytest.approx(lo, rel=1e-9, abs=1e-12)


def test_wilson_matches_statsmodels_on_counts():
    from statsmodels.stats.proportion import proportion_confint

    y = np.array([1, 0, 1, 1, 0, 1, 1, 1, 0, 1] * 7)
    ds = streamtk.evaluate(y, np.ones_like(y), metrics=["accuracy"], interval=0.95, every=1)
    for t in (0, 9, 69):
        lo, hi = proportion_confint(int(y[: t + 1].sum()), t + 1, alpha=0.05, method="wilson")
        assert float(ds.accuracy_lower[0, t]) == pytest.approx(lo, rel=1e-9)
        assert float(ds.accuracy_upper[0, t]) == pytest.approx(hi, rel=1e-9)


def test_fading_effective_size_is_about_one_plus_alpha_over_one_minus_alpha():
    y = np.zeros(5000, dtype=int)
    ds = streamtk.evaluate(y, y, fading=0.99, metrics=["n_effective"], every=5000)
    assert float(ds.n_effective[1, -1]) == pytest.approx(1.99 / 0.01, rel=1e-6)


def test_compare_bands_are_wilson_and_agresti_min():
    rng = np.random.default_rng(5)
    n = 80
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.7, y, 1 - y)
    b = np.where(rng.random(n) < 0.6, y, 1 - y)
    ds = streamtk.compare(y, a, b, every=1, windows=9, fading=0.7, interval=0.9)
    la, lb = (a != y).astype(float), (b != y).astype(float)
    for e, label in enumerate(ds.estimator.values):
        kind, _, value = str(label).partition("=")
        param = None if kind == "prequential" else eval(value)
        for t in (0, 5, 40, 79):
            h, om = _held(kind, param, list(range(n)), t, np.ones(n))
            om = np.array(om)
            N, n_eff = om.sum(), om.sum() ** 2 / (om * om).sum()
            lo, hi = _wilson((om * la[h]).sum() / N, n_eff, Z90)
            assert float(ds.loss_a_lower[e, t]) == pytest.approx(lo, rel=1e-9)
            assert float(ds.loss_a_upper[e, t]) == pytest.approx(hi, rel=1e-9)
            p01 = ((om * ((la[h] == 1) & (lb[h] == 0))).sum() / N * n_eff + 0.5) / (n_eff + 2)
            p10 = ((om * ((la[h] == 0) & (lb[h] == 1))).sum() / N * n_eff + 0.5) / (n_eff + 2)
            d = p01 - p10
            half = Z90 * math.sqrt((p01 + p10 - d * d) / (n_eff + 2))
            assert float(ds.error_difference_lower[e, t]) == pytest.approx(max(d - half, -1), rel=1e-9, abs=1e-12)
            assert float(ds.error_difference_upper[e, t]) == pytest.approx(min(d + half, 1), rel=1e-9, abs=1e-12)


def test_auc_band_is_hanley_mcneil():
    rng = np.random.default_rng(2)
    n = 200
    y = rng.integers(0, 2, n)
    s = rng.random(n) + 0.4 * y
    ds = streamtk.auc_curves(y, s, windows=50, interval=0.95, every=1)
    for e, lo_ in ((0, 0), (1, 150)):
        for t in (30, 120, 199):
            sl = slice(max(lo_ if e == 0 else t - 49, 0), t + 1) if e == 1 else slice(0, t + 1)
            A = roc_auc_score(y[sl], s[sl])
            n1, n0 = y[sl].sum(), (1 - y[sl]).sum()
            q1, q2 = A / (2 - A), 2 * A * A / (1 + A)
            se = math.sqrt((A * (1 - A) + (n1 - 1) * (q1 - A * A) + (n0 - 1) * (q2 - A * A)) / (n0 * n1))
            z = stats.norm.ppf(0.975)
            assert float(ds.auc_lower[e, t]) == pytest.approx(max(A - z * se, 0), rel=1e-9)
            assert float(ds.auc_upper[e, t]) == pytest.approx(min(A + z * se, 1), rel=1e-9)


# ---------------------------------------------------------------------------------------- sequences
def prpl_eb_reference(x, alpha, c=0.5):
    """Waudby-Smith & Ramdas (2024) Theorem 2 as their confseq computes it (predmix_empbern_twosided_cs): a loop."""
    lows, highs = [], []
    log_a = math.log(2 / alpha)
    sx = sq = sl = slx = slo = shi = 0.0
    for i, v in enumerate(x, start=1):
        sigma2 = (0.25 + sq) / i
        lam = min(c, math.sqrt(2 * log_a / (i * math.log(1 + i) * sigma2)))
        m_lo = sx / (i - 1) if i > 1 else 0.0
        m_hi = 1 - m_lo if i > 1 else 0.0
        psi = -math.log(1 - lam) - lam
        slo += (v - m_lo) ** 2 * psi
        shi += ((1 - v) - m_hi) ** 2 * psi
        sl += lam
        slx += lam * v
        sx += v
        sq += (v - (0.5 + sx) / (i + 1)) ** 2
        lows.append(max(slx / sl - (log_a + slo) / sl, 0.0))
        highs.append(min(slx / sl + (log_a + shi) / sl, 1.0))
    return np.array(lows), np.array(highs)


def test_prequential_sequence_is_the_published_empirical_bernstein_sequence():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    p = np.where(rng.random(400) < 0.85, y, 1 - y)
    p[::17] = -1  # not evaluated: skipped by the sequence
    ds = streamtk.evaluate(y, np.where(p < 0, np.nan, p), metrics=["accuracy", "error"], interval=0.9,
                           interval_method="sequence", every=1, classes=[0, 1])  # fmt: skip
    ev = p >= 0
    lo, hi = prpl_eb_reference((y[ev] == p[ev]).astype(float), 0.1)
    idx = np.cumsum(ev) - 1
    got_lo, got_hi = ds.accuracy_lower.values[0], ds.accuracy_upper.values[0]
    np.testing.assert_allclose(got_lo[ev], lo[idx[ev]], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(got_hi[ev], hi[idx[ev]], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(ds.error_lower.values[0][ev], 1 - hi[idx[ev]], rtol=1e-12, atol=1e-14)


def test_prequential_sequence_equals_confseq_when_installed(monkeypatch):
    if not hasattr(np, "float_"):  # confseq 0.0.11 still names np.float_ (removed in NumPy 2)
        monkeypatch.setattr(np, "float_", np.float64, raising=False)
    predmix = pytest.importorskip("confseq.predmix")
    x = (np.random.default_rng(4).random(300) < 0.7).astype(float)
    lo, hi = predmix.predmix_empbern_twosided_cs(x, alpha=0.05)
    ds = streamtk.loss_curves(x, interval=0.95, interval_method="sequence", every=1)
    np.testing.assert_allclose(ds.loss_lower.values[0], lo, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(ds.loss_upper.values[0], hi, rtol=1e-12, atol=1e-14)


def test_union_bound_sequence_of_windows_and_fading():
    rng = np.random.default_rng(1)
    x = (rng.random(500) < 0.3).astype(float)
    ds = streamtk.loss_curves(x, windows=40, fading=0.95, interval=0.9, interval_method="sequence", every=1)
    for e, (kind, param) in enumerate((("window", 40), ("fading", 0.95)), start=1):
        for t in (10, 200, 499):
            h, om = _held(kind, param, list(range(500)), t, np.ones(500))
            om = np.array(om)
            mean, n_eff = (om * x[h]).sum() / om.sum(), om.sum() ** 2 / (om * om).sum()
            half = math.sqrt(math.log(2 * (t + 1) * (t + 2) / 0.1) / (2 * n_eff))
            assert float(ds.loss_lower[e, t]) == pytest.approx(max(mean - half, 0), rel=1e-9, abs=1e-12)
            assert float(ds.loss_upper[e, t]) == pytest.approx(min(mean + half, 1), rel=1e-9, abs=1e-12)
    assert union_half_width(100.0, 1, 0.05) == pytest.approx(math.sqrt(math.log(2 * 2 / 0.05) / 200))


def test_comparison_sequence_reads_the_first_checkpoint_where_a_is_better():
    rng = np.random.default_rng(8)
    n = 4000
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.9, y, 1 - y)
    b = np.where(rng.random(n) < 0.7, y, 1 - y)
    ds = streamtk.compare(y, a, b, interval=0.95, interval_method="sequence", every=100)
    d = (a != y).astype(float) - (b != y)
    lo, hi = prpl_eb_reference((d + 1) / 2, 0.05)
    np.testing.assert_allclose(ds.error_difference_upper.values[0], 2 * hi[ds.instance.values - 1] - 1, rtol=1e-12)
    first = int(ds.instance.values[np.argmax(ds.error_difference_upper.values[0] < 0)])
    assert float(ds.first_a_better[0]) == first and np.isnan(float(ds.first_b_better[0]))
    assert ds.a_better.values[0, -1] and not ds.b_better.values[0].any()


# ---------------------------------------------------------------------------------------- properties
@pytest.mark.parametrize("method", ["analytic", "bootstrap", "sequence"])
def test_window_longer_than_the_stream_and_fading_one_equal_prequential(method):
    y, p, _ = _stream(n=80, k=2)
    kw = dict(seed=4) if method == "bootstrap" else {}
    ds = streamtk.evaluate(y, np.where(p < 0, np.nan, p), windows=500, fading=1.0, metrics=["accuracy"],
                           interval=0.9, interval_method=method, every=1, classes=[0, 1], **kw)  # fmt: skip
    pre = ds.accuracy_lower.sel(estimator="prequential").values
    if method != "sequence":  # sequences: the prequential one is the empirical-Bernstein sequence, the others not
        np.testing.assert_array_equal(ds.accuracy_lower.sel(estimator="window=500").values, pre)
        np.testing.assert_array_equal(ds.accuracy_lower.sel(estimator="fading=1.0").values, pre)
    else:
        np.testing.assert_array_equal(
            ds.accuracy_lower.sel(estimator="window=500").values, ds.accuracy_lower.sel(estimator="fading=1.0").values
        )


def test_bootstrap_is_seeded_and_weight_scale_invariant():
    y, p, w = _stream(n=120, k=2)
    pp = np.where(p < 0, np.nan, p)
    kw = dict(metrics=["accuracy", "kappa"], windows=20, interval=0.9, interval_method="bootstrap", every=10)
    a = streamtk.evaluate(y, pp, weights=w, seed=11, **kw)
    b = streamtk.evaluate(y, pp, weights=w, seed=np.random.default_rng(11), **kw)
    c = streamtk.evaluate(y, pp, weights=4 * w, seed=11, **kw)
    d = streamtk.evaluate(y, pp, weights=w, seed=12, **kw)
    xr.testing.assert_equal(a.accuracy_lower, b.accuracy_lower)
    xr.testing.assert_allclose(a.kappa_upper, c.kappa_upper, rtol=1e-12)
    assert not np.array_equal(a.accuracy_lower.values, d.accuracy_lower.values, equal_nan=True)
    assert a.attrs["seed"] == "11" and a.attrs["replicates"] == 100


@pytest.mark.parametrize("method", ["analytic", "bootstrap", "block_bootstrap", "sequence"])
def test_chunked_bands_equal_one_pass(method):
    rng = np.random.default_rng(0)
    n = 700
    y = rng.integers(0, 3, n)
    p = np.where(rng.random((2, n)) < 0.7, y, rng.integers(0, 3, (2, n)))
    kw = dict(seed=3) if method.endswith("bootstrap") else {}
    kw.update(block_length=5) if method == "block_bootstrap" else None
    mech = dict(windows=50, fading=0.95) if method == "sequence" else dict(windows=50, fading=0.95, adwin=0.05)
    opts = dict(metrics=["accuracy", "error"], interval=0.9, interval_method=method, every=50, **mech, **kw)
    one = streamtk.evaluate(y, p, classes=[0, 1, 2], **opts)
    ev = streamtk.Evaluator(classes=[0, 1, 2], **opts)
    for a, b in ((0, 123), (123, 124), (124, 600), (600, n)):
        ev.update(y[a:b], p[:, a:b])
    xr.testing.assert_identical(one.drop_attrs(), ev.result().drop_attrs())
    cmp = streamtk.Comparator(**{k: v for k, v in opts.items() if k != "metrics"})
    for a, b in ((0, 300), (300, n)):
        cmp.update(y[a:b], p[0, a:b], p[1, a:b])
    xr.testing.assert_identical(
        streamtk.compare(y, p[0], p[1], **{k: v for k, v in opts.items() if k != "metrics"}).drop_attrs(),
        cmp.result().drop_attrs(),
    )
