"""Long streams against vectorised references: the numerics that only show after many instances.

The per-step references of ``tests/reference.py`` are quadratic, so the property tests
run on streams of tens of instances; scale effects (lazily scaled fading sums passing
1e77, renormalisation, windows much longer than a block, accumulated rounding) only
show on long streams. Here every scalar metric of streams of 10^5 - 3 * 10^5 instances is
checked at a few hundred checkpoints against :func:`reference.vectorised_curves`, which
computes every weighted sum as a filter over the whole stream (cumulative sums, window
differences, ``scipy.signal.lfilter``). The fused dense path (unweighted two-class
streams) and the general path (weights, more classes) are both covered.
"""

from __future__ import annotations

import numpy as np
import pytest

import streamtk
from streamtk._core.metrics import REGISTRY

from .reference import vectorised_curves

pytestmark = pytest.mark.slow


def _names(k):
    return [m.name for m in REGISTRY.values()
            if m.family == "confusion" and m.shape == "scalar"
            and (m.needs == "labels" or (m.needs == "binary" and k == 2))]  # fmt: skip


def _stream(n, k, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y = np.where(rng.random(n) < 0.6, np.r_[0, y[:-1]], y)  # temporal dependence: Persistent is a strong baseline
    p = np.where(rng.random(n) < 0.75, y, rng.integers(0, k, n))
    return y, p


# the chance-corrected measures divide by 1 - base and are undefined (NaN) where the base is 1; with weights, a
# rounding difference of 1e-16 between two ways of summing decides between NaN and a finite value there
_BASES = {"kappa": ["p_ran"], "kappa_se": ["p_ran"], "kappa_z": ["p_ran"], "kappa_m": ["p_maj"],
          "kappa_per": ["p_per"], "kappa_plus": ["p_ran", "p_per"]}  # fmt: skip


def _assert_curve(got, ref, idx, name, label):
    want = ref[name][idx]
    degenerate = np.zeros(want.shape, dtype=bool)
    for base in _BASES.get(name, []):
        degenerate |= np.abs(1.0 - ref[base][idx]) < 1e-9
    assert np.array_equal(np.isnan(got)[~degenerate], np.isnan(want)[~degenerate]), (label, name)
    ok = ~np.isnan(want) & ~degenerate
    # kappa_plus and kappa_se are square roots: 1e-16 near 0 becomes 1e-8
    atol = 1e-7 if name in ("kappa_plus", "kappa_se") else 1e-9
    np.testing.assert_allclose(got[ok], want[ok], rtol=1e-8, atol=atol, err_msg=f"{label} {name}")


def _check(ds, ref, names, windows, fading):
    idx = ds.instance.values - 1
    labels = ["prequential"] + [f"window={w}" for w in windows] + [f"fading={a!r}" for a in fading]
    assert list(ds.estimator.values) == labels
    for e, label in enumerate(labels):
        for name in names:
            _assert_curve(ds[name].values[e], ref[e], idx, name, label)


def test_dense_two_class_stream():
    n, windows, fading = 300_000, [100, 5000, 200_000], [0.99, 0.9995]
    y, p = _stream(n, 2, 0)
    names = _names(2)
    ds = streamtk.evaluate(y, p, windows=windows, fading=fading, every=997, metrics=names)
    ests = [("prequential", None)] + [("window", w) for w in windows] + [("fading", a) for a in fading]
    _check(ds, vectorised_curves(y, p, 2, ests), names, windows, fading)


def test_weighted_multi_class_stream():
    n, k, windows, fading = 150_000, 4, [500, 20_000], [0.995, 0.99995]
    y, p = _stream(n, k, 1)
    w = np.random.default_rng(2).gamma(2.0, 1.0, n)
    names = [m for m in _names(k) if m != "f1"]
    ds = streamtk.evaluate(y, p, windows=windows, fading=fading, weights=w, every=1009, metrics=names,
                           classes=list(range(k)))  # fmt: skip
    ests = [("prequential", None)] + [("window", x) for x in windows] + [("fading", a) for a in fading]
    _check(ds, vectorised_curves(y, p, k, ests, weights=w), names, windows, fading)


@pytest.mark.parametrize("weighted", [False, True])
def test_adwin_windows_of_a_long_stream(weighted):
    # An ADWIN window's curves, given the widths ADWIN chose (its own decisions are tested in test_adwin):
    # 2 * 10^5 instances with a drop of accuracy halfway, windows of up to ~10^5 instances
    n = 200_000
    y, p = _stream(n, 2, 3)
    rng = np.random.default_rng(4)
    p = np.where((np.arange(n) >= n // 2) & (rng.random(n) < 0.3), 1 - y, p)
    w = rng.gamma(2.0, 1.0, n) if weighted else None
    names = _names(2)
    ds = streamtk.evaluate(y, p, adwin=[0.002], metrics=names, weights=w, every=1).isel(estimator=[1])
    widths = ds.n_instances.values[0].astype(np.int64)
    assert widths.max() > 50_000 and widths[-1] < n // 2 + 5_000  # the window grew, then dropped the old concept
    ref = vectorised_curves(y, p, 2, [("varwindow", widths)], weights=w)
    for name in names:
        _assert_curve(ds[name].values[0], ref[0], ds.instance.values - 1, name, "adwin")


def _weighted_auc(s, y, w):
    """Concordance of positives over negatives with instance weights ``w`` (a pair weighs
    ``w_i w_j``; ties one half), by sorting: O(n log n) for one time step."""
    o = np.argsort(s, kind="stable")
    s, y, w = s[o], y[o], w[o]
    _, start = np.unique(s, return_index=True)
    w0 = np.add.reduceat(np.where(y == 0, w, 0.0), start)
    w1 = np.add.reduceat(np.where(y == 1, w, 0.0), start)
    below0 = np.cumsum(w0) - w0
    return (w1 * (below0 + 0.5 * w0)).sum() / (w1.sum() * w0.sum())


@pytest.mark.parametrize("decimals", [None, 2])
def test_exact_auc_of_long_streams(decimals):
    # prequential, sliding-window and faded AUC at a few checkpoints of a 3 * 10^5 stream, with all-distinct
    # scores and with heavy ties, against a sort of the held instances with explicit alpha**age weights
    n, window, fading = 300_000, 1000, [0.999, 0.99]
    rng = np.random.default_rng(7)
    y = (rng.random(n) < 0.3).astype(np.int8)
    s = rng.random(n) + 0.3 * y
    if decimals is not None:
        s = np.round(s, decimals)
    ds = streamtk.evaluate(y, (s > 0.5).astype(np.int8), y_score=s, windows=[window], fading=fading,
                           every=n // 7, metrics=["auc"])  # fmt: skip
    for c, inst in enumerate(ds.instance.values):
        t = int(inst)
        want = [_weighted_auc(s[:t], y[:t], np.ones(t)),
                _weighted_auc(s[t - window:t], y[t - window:t], np.ones(window))]  # fmt: skip
        want += [_weighted_auc(s[:t], y[:t], a ** (t - 1 - np.arange(t))) for a in fading]
        np.testing.assert_allclose(ds.auc.values[:, c], want, rtol=1e-11, atol=0, err_msg=f"t = {t}")
