"""ADWIN as an evaluation window of the engine (issue 3, "Evaluation window")."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import streamtk
from streamtk.drift.adwin import adwin

from .reference import reference_curves


def _shifting_stream(n, seed, k=2):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    acc = np.where((np.arange(n) // (n // 3)) % 2 == 0, 0.9, 0.55)
    p = np.where(rng.random(n) < acc, y, rng.integers(0, k, n))
    return y, p


def _adwin_widths(y, p, w=None, delta=0.002, **opts):
    evaluated = (y >= 0) & ((w > 0) if w is not None else True)
    loss = (y != p)[evaluated].astype(float)
    return adwin(loss, delta=delta, **opts).width.values


def test_adwin_window_equals_reference_over_its_width():
    y, p = _shifting_stream(1200, 1)
    widths = _adwin_widths(y, p, delta=0.05)
    assert widths.min() < widths.max()  # the window did shrink
    ds = streamtk.evaluate(
        y, p, adwin=[0.05], metrics=["accuracy", "kappa", "kappa_m", "kappa_per", "p_maj", "n_instances", "mcc"]
    )
    ref = reference_curves(y, p, 2, [("varwindow", widths)])[0]
    for t in range(0, len(y), 7):
        for name in ("accuracy", "kappa", "kappa_m", "kappa_per", "p_maj", "n_instances", "mcc"):
            got = float(ds[name].sel(estimator="adwin=0.05").values[t])
            want = ref[t][name]
            assert (math.isnan(got) and math.isnan(want)) or math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12), (
                t,
                name,
                got,
                want,
            )


@pytest.mark.slow
@settings(max_examples=15)
@given(st.integers(0, 10_000), st.booleans(), st.integers(3, 5))
def test_adwin_window_multiclass_weighted_matches_reference(seed, weighted, k):
    rng = np.random.default_rng(seed)
    n = 400
    y, p = _shifting_stream(n, seed, k=k)
    w = rng.choice([0.0, 1.0, 2.0], size=n) if weighted else None
    widths = _adwin_widths(y, p, w, delta=0.1, clock=4)
    ds = streamtk.evaluate(
        y,
        p,
        weights=w,
        adwin=[0.1],
        adwin_options={"clock": 4},
        metrics=["accuracy", "kappa", "p_maj", "p_per", "n_instances"],
        classes=list(range(k)),
    )
    ref = reference_curves(y, p, k, [("varwindow", widths)], weights=w)[0]
    for t in range(n):
        for name in ("accuracy", "kappa", "p_maj", "p_per", "n_instances"):
            got = float(ds[name].sel(estimator="adwin=0.1").values[t])
            want = ref[t][name]
            assert (math.isnan(got) and math.isnan(want)) or math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12), (
                t,
                name,
                got,
                want,
            )


def test_adwin_estimator_chunked_equals_one_pass_and_leads_independent():
    y, p = _shifting_stream(3000, 4)
    p2 = np.where(np.random.default_rng(0).random(3000) < 0.2, 1 - p, p)
    kw = dict(adwin=[0.002, 0.1], windows=[50], every=13, classes=[0, 1])
    one = streamtk.evaluate(y, np.stack([p, p2]), **kw)
    ev = streamtk.Evaluator(**kw)
    for a, b in [(0, 700), (700, 701), (701, 2500), (2500, 3000)]:
        ev.update(y[a:b], np.stack([p, p2])[:, a:b])
    chunked = ev.result()
    for name in one.data_vars:
        np.testing.assert_array_equal(chunked[name].values, one[name].values, err_msg=name)
    single = streamtk.evaluate(y, p2, **kw)
    for name in one.data_vars:
        np.testing.assert_array_equal(one[name].values[1], single[name].values, err_msg=name)


def test_adwin_estimator_label_and_width_output():
    y, p = _shifting_stream(2000, 2)
    ds = streamtk.evaluate(y, p, adwin=0.002, every=100)
    assert ds.estimator.values.tolist() == ["prequential", "adwin=0.002"]
    assert ds.estimator_kind.values.tolist() == ["prequential", "adwin"]
    widths = _adwin_widths(y, p)
    np.testing.assert_array_equal(ds.n_instances.sel(estimator="adwin=0.002").values, widths[ds.instance.values - 1])


# --------------------------------------------------------------------------- MOA convention

from .reference import MoaEvaluator  # noqa: E402
from .test_adwin import RefAdwin  # noqa: E402


class _AdwinEst:
    """MOA's AdwinEstimator: estimate = ADWIN window mean of the added values."""

    def __init__(self, delta):
        self.a = RefAdwin(delta=delta)

    def add(self, v):
        self.a.update(float(v))

    def est(self):
        return self.a.mean()


@settings(max_examples=10)
@given(st.integers(0, 10_000), st.booleans(), st.sampled_from([2, 3]))
def test_moa_convention_adwin_is_one_adwin_per_quantity(seed, weighted, k):
    rng = np.random.default_rng(seed)
    n = 300
    y, p = _shifting_stream(n, seed, k=k)
    y = y.astype(float)
    y[rng.random(n) < 0.05] = np.nan
    w = rng.choice([0.0, 1.0, 2.0], size=n) if weighted else np.ones(n)
    ds = streamtk.evaluate(
        y,
        p,
        weights=w if weighted else None,
        adwin=[0.1],
        convention="moa",
        classes=list(range(k)),
        metrics=["accuracy", "kappa", "kappa_m", "kappa_per"],
    )
    ev = MoaEvaluator(k, lambda: _AdwinEst(0.1))
    for t in range(n):
        ev.add(-1 if np.isnan(y[t]) else int(y[t]), int(p[t]), float(w[t]))
        ref = ev.values()
        for name, val in ref.items():
            got = float(ds[name].sel(estimator="adwin=0.1").values[t])
            ok = (math.isnan(got) and math.isnan(val)) or got == val or math.isclose(got, val, rel_tol=1e-9)
            assert ok, (t, name, got, val)


def test_moa_fading_before_first_observation_is_zero():
    # MOA's fading estimator returns 0 while nothing has been added (b == 0)
    ds = streamtk.evaluate(
        [0, 1, 1], [0, 1, 0], weights=[0.0, 1.0, 1.0], fading=[0.9], convention="moa", metrics=["accuracy", "kappa"]
    )
    assert float(ds.accuracy.sel(estimator="fading=0.9").values[0]) == 0.0
    assert np.isnan(ds.accuracy.sel(estimator="prequential").values[0])
    assert float(ds.kappa.sel(estimator="fading=0.9").values[0]) == 0.0


@pytest.mark.parametrize("every", [1, 1000])
def test_adwin_window_keeps_its_width_across_blocks_that_start_without_a_width(every):
    # regression: a block (256 or 2048 instances) starting with weight-0 or unlabelled instances used to
    # evict the whole ADWIN window there, before the block's first evaluated instance brought a width
    rng = np.random.default_rng(3)
    n = 6000
    y, p = _shifting_stream(n, 5, k=3)
    w = rng.choice([1.0, 2.0], size=n)
    w[[256, 512, 513, 2048, 4096, 4097]] = 0.0
    yl = y.astype(float)
    yl[[768, 2560]] = np.nan
    evaluated = ~np.isnan(yl) & (w > 0)
    loss = (y != p)[evaluated].astype(float)
    widths = adwin(loss, delta=0.1, clock=4).width.values
    ds = streamtk.evaluate(
        yl,
        p,
        weights=w,
        adwin=[0.1],
        adwin_options={"clock": 4},
        every=every,
        metrics=["n_instances"],
        classes=[0, 1, 2],
    )
    got = ds.n_instances.sel(estimator="adwin=0.1").values
    rows = np.flatnonzero(evaluated)
    want = dict(zip(rows.tolist(), widths.tolist()))
    for c, inst in enumerate(ds.instance.values):
        t = inst - 1
        if t in want:
            assert got[c] == want[t], (t, got[c], want[t])


@pytest.mark.parametrize("weighted", [False, True])
def test_chunked_adwin_window_memory_is_bounded_and_equals_one_pass(weighted):
    # stationary stream: ADWIN never cuts, its window grows to the whole stream; between chunks the engine
    # keeps only what the fixed window needs plus one segment per ADWIN bucket
    rng = np.random.default_rng(11)
    n, chunk = 60_000, 2_500
    y = (rng.random(n) < 0.4).astype(np.int8)
    p = np.where(rng.random(n) < 0.8, y, 1 - y).astype(np.int8)
    w = rng.choice([0.0, 0.5, 1.0, 3.0], size=n) if weighted else None
    kw = dict(
        windows=[100],
        adwin=[0.002, 0.3],
        every=97,
        classes=[0, 1],
        metrics=["accuracy", "kappa", "kappa_m", "kappa_per", "mcc", "n_instances"],
    )
    one = streamtk.evaluate(y, p, weights=w, **kw)
    ev = streamtk.Evaluator(**kw)
    for a in range(0, n, chunk):
        ev.update(y[a : a + chunk], p[a : a + chunk], None if w is None else w[a : a + chunk])
        engine = ev._engine
        assert engine.history.length <= (400 if weighted else 101)  # the fixed window of 100 members
        assert engine.seg[4].max() <= 6 * 17  # at most M + 1 buckets per row, log2(60000) < 16 rows
    chunked = ev.result()
    assert float(chunked.n_instances.sel(estimator="adwin=0.002").values[-1]) > 50_000 * (0.75 if weighted else 1)
    for name in one.data_vars:
        if weighted:  # segment sums add the weights in another order: equal to rounding
            np.testing.assert_allclose(chunked[name].values, one[name].values, rtol=1e-12, atol=1e-12, err_msg=name)
        else:  # integer-valued sums: exact
            np.testing.assert_array_equal(chunked[name].values, one[name].values, err_msg=name)
