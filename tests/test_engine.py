"""The curve engine against slow references, hypothesis properties and published numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import streamtk
from streamtk._core.metrics import REGISTRY
from streamtk._core.validation import FADING_MIN, WEIGHT_MAX
from streamtk.evaluation.losses import loss_curves

from .reference import MoaEvaluator, _Basic, _Fading, _Window, reference_curves

SCALARS = [m for m in REGISTRY.values() if m.family == "confusion" and m.shape == "scalar"]
CLASSWISE = ["recall", "precision", "class_f1"]


def _close(a, b, rtol=1e-9, atol=1e-12):
    if isinstance(b, float) and math.isnan(b):
        return math.isnan(a)
    return math.isclose(a, b, rel_tol=rtol, abs_tol=atol)


def _check_against_reference(y, p, k, windows, fading, weights=None, pos=1, tumbling=(), landmarks=()):
    ests = [("prequential", None)] + [("window", w) for w in windows] + [("fading", a) for a in fading]
    ests += [("tumbling", w) for w in tumbling] + ([("landmarks", list(landmarks))] if len(landmarks) else [])
    ds = streamtk.evaluate(
        y,
        p,
        windows=windows,
        fading=fading,
        tumbling=tumbling,
        landmarks=landmarks,
        weights=weights,
        classes=list(range(k)),
        pos_label=pos,
    )
    ref = reference_curves(y, p, k, ests, weights=weights, pos=pos)
    for e in range(len(ests)):
        for t in range(len(y)):
            r = ref[e][t]
            for m in SCALARS:
                if m.name not in ds:
                    continue
                got = float(ds[m.name].values[e, t])
                # kappa_plus is a square root: a rounding difference of 1e-16 near 0 becomes 1e-8
                atol = 1e-7 if m.name in ("kappa_plus", "kappa_se") else 1e-12
                assert _close(got, r[m.name], atol=atol), (ests[e], t, m.name, got, r[m.name])
            for name in CLASSWISE:
                for i in range(k):
                    got = float(ds[name].values[e, t, i])
                    assert _close(got, r[name][i]), (ests[e], t, name, i, got, r[name][i])


labels = st.integers(min_value=0, max_value=2)


@st.composite
def streams(draw, max_k=3, max_n=40, allow_missing=False):
    k = draw(st.integers(2, max_k))
    n = draw(st.integers(1, max_n))
    y = draw(st.lists(st.integers(-1 if allow_missing else 0, k - 1), min_size=n, max_size=n))
    p = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    return k, np.array(y), np.array(p)


@settings(max_examples=30)
@given(
    streams(max_n=25),
    st.lists(st.integers(1, 12), max_size=2, unique=True),
    st.lists(st.sampled_from([0.5, 0.9, 0.99]), max_size=2, unique=True),
)
def test_matches_reference_unweighted(stream, windows, fading):
    k, y, p = stream
    _check_against_reference(y, p, k, windows, fading)


@settings(max_examples=30)
@given(
    streams(max_n=30),
    st.lists(st.integers(1, 9), max_size=2, unique=True),
    st.lists(st.integers(0, 30), max_size=3, unique=True),
    st.booleans(),
)
def test_tumbling_and_landmarks_match_reference(stream, tumbling, landmarks, weighted):
    k, y, p = stream
    # dyadic weights: every window sum is exact, so the running sums equal the reference's from-scratch sums
    w = np.random.default_rng(len(y)).choice([0.0, 0.25, 1.0, 2.5], size=len(y)) if weighted else None
    _check_against_reference(y, p, k, [3], [], weights=w, tumbling=tumbling, landmarks=sorted(landmarks))


@settings(max_examples=30)
@given(
    streams(allow_missing=True, max_n=25),
    st.lists(st.integers(1, 8), max_size=2, unique=True),
    st.lists(st.sampled_from([0.5, 0.9]), max_size=1, unique=True),
    st.data(),
)
def test_matches_reference_weighted_with_missing_labels(stream, windows, fading, data):
    k, y, p = stream
    if (y < 0).all():
        y[0] = 0
    w = np.array(data.draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0]), min_size=len(y), max_size=len(y))))
    yl = np.where(y < 0, np.nan, y.astype(float))
    ests = [("prequential", None)] + [("window", x) for x in windows] + [("fading", a) for a in fading]
    ds = streamtk.evaluate(yl, p, windows=windows, fading=fading, weights=w, classes=list(range(k)))
    ref = reference_curves(y, p, k, ests, weights=w)
    for e in range(len(ests)):
        for t in range(len(y)):
            for name in ("accuracy", "kappa", "kappa_m", "kappa_per", "p_maj", "p_per", "mcc", "harmonic_mean"):
                assert _close(float(ds[name].values[e, t]), ref[e][t][name]), (ests[e], t, name)


@pytest.mark.parametrize(
    "k,alpha,weighted",
    [(2, 0.5, False), (2, 0.8, False), (2, 0.8, True), (3, 0.8, False), (3, 0.5, True)],
)
def test_long_stream_fading_renormalisation_matches_reference(k, alpha, weighted):
    # Long enough for the lazy scale alpha**-t of the fading sums to pass the renormalisation bound (and, at
    # alpha = 0.8, for the sums' fourth power to pass the float64 maximum before it: mcc was 0 there while
    # its denominator was the square root of a product of two squares). Every scalar metric against explicit
    # alpha**age weights; unweighted two-class streams take the fused dense path, the others the general one.
    from .reference import metrics_from_sample

    n = 1500
    rng = np.random.default_rng(1)
    y = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.8, y, rng.integers(0, k, n))
    w = rng.random(n) + 0.5 if weighted else np.ones(n)
    names = [m.name for m in SCALARS if m.needs == "labels" or (m.needs == "binary" and k == 2)]
    names = [m for m in names if m != "f1" or k == 2]
    ds = streamtk.evaluate(
        y, p, fading=[alpha], every=31, metrics=names, weights=w if weighted else None, classes=list(range(k))
    )
    maj = np.zeros(n, dtype=np.int64)  # the faded Majority Class before t (ties -> lowest class)
    for t in range(1, n):
        om = w[:t] * alpha ** (t - 1 - np.arange(t))
        maj[t] = int(np.argmax([om[y[:t] == i].sum() for i in range(k)]))
    per = np.r_[0, y[:-1]]  # the Persistent classifier: the previous label (class 0 first)
    for c, inst in enumerate(ds.instance.values):
        t = int(inst) - 1
        ages = t - np.arange(t + 1)
        ref = metrics_from_sample(list(y[: t + 1]), list(p[: t + 1]), list(w[: t + 1] * alpha**ages), k, 1,
                                  list(maj[: t + 1] == y[: t + 1]), list(per[: t + 1] == y[: t + 1]),
                                  float((alpha**ages).sum()))  # fmt: skip
        for name in names:
            got = float(ds[name].values[1, c])
            atol = 1e-7 if name in ("kappa_plus", "kappa_se") else 1e-12
            assert _close(got, ref[name], atol=atol), (t, name, got, ref[name])


@settings(max_examples=40)
@given(streams(allow_missing=True), st.sampled_from([2.0**-600, 1e-200, 0.37, 1e140, 2.0**480]), st.data())
def test_metrics_do_not_depend_on_the_scale_of_the_weights(stream, scale, data):
    # every formula reads proportions: scaling every weight by a constant changes nothing (exactly for a power
    # of two, to rounding otherwise); weights of 1e-200 or 1e140 neither underflow nor overflow
    k, y, p = stream
    w = np.array(data.draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 3.0]), min_size=len(y), max_size=len(y))))
    yl = np.where(y < 0, np.nan, y.astype(float))
    kw = dict(windows=[3], fading=[0.8], tumbling=[5], classes=list(range(k)))
    a = streamtk.evaluate(yl, p, weights=w, **kw)
    b = streamtk.evaluate(yl, p, weights=w * scale, **kw)
    exact = math.frexp(scale)[0] == 0.5
    for name in a.data_vars:
        if name == "n_instances":
            continue
        if exact:
            np.testing.assert_array_equal(a[name].values, b[name].values, err_msg=name)
        else:
            np.testing.assert_allclose(a[name].values, b[name].values, rtol=1e-9, atol=1e-9, err_msg=name)


@pytest.mark.parametrize("scale", [2.0**495, 2.0**-400])
def test_the_extremes_of_fading_and_weights_give_numbers_in_every_family(scale):
    # the smallest fading factor and weights near WEIGHT_MAX (or tiny ones): every family's faded curves equal those
    # of weights of order 1 (metrics are scale-free; powers of two, so that rounding cannot flip a tie of the
    # Majority Class), none overflows to NaN (issue 35: fading=5e-324 gave NaN)
    assert scale < WEIGHT_MAX / 3.0
    rng = np.random.default_rng(3)
    n = 60
    y = rng.integers(0, 3, n)
    p = np.where(rng.random(n) < 0.6, y, rng.integers(0, 3, n))
    w = rng.choice([0.5, 1.0, 3.0], n)
    fk = dict(fading=[FADING_MIN, 0.5, 1.0 - 1e-12], windows=[4])
    a = streamtk.evaluate(y, p, weights=w, every=1, **fk)
    b = streamtk.evaluate(y, p, weights=w * scale, every=1, **fk)
    tiny = f"fading={FADING_MIN:g}"
    # under the smallest factor a class last seen k instances ago weighs 1e-50**k: it underflows to absent at another
    # age at another scale, so the per-class metrics (and their macro means) of that estimator may differ there
    per_class = {"recall", "precision", "class_f1", "macro_f1", "arithmetic_mean", "geometric_mean", "harmonic_mean"}
    for name in a.data_vars:
        x, z = a[name], b[name]
        if name in per_class:
            x, z = x.drop_sel(estimator=tiny), z.drop_sel(estimator=tiny)
        np.testing.assert_allclose(x.values, z.values, rtol=1e-9, atol=1e-12, err_msg=name)  # NaN where a has NaN
    assert not np.isnan(b["accuracy"].sel(estimator=tiny).values).any()
    s = rng.random(n)
    a = streamtk.auc_curves(y == 1, s, weights=w, every=1, **fk)
    b = streamtk.auc_curves(y == 1, s, weights=w * scale, every=1, **fk)
    np.testing.assert_allclose(a["auc"].drop_sel(estimator=tiny), b["auc"].drop_sel(estimator=tiny), rtol=1e-9)
    # (the AUC's statistics are products of two weights, faded: terms below 1e-308 underflow at one scale and not
    # at the other, hence values of 1e-100 against 0; products of weights below 1e-154 underflow: 2**-400, no less)
    held = ~np.isnan(b["auc"].sel(estimator=tiny).values) & ~np.isnan(a["auc"].sel(estimator=tiny).values)
    assert held.sum() > 10
    np.testing.assert_allclose(
        a["auc"].sel(estimator=tiny).values[held], b["auc"].sel(estimator=tiny).values[held], rtol=1e-9, atol=1e-90
    )
    loss = (y != p).astype(float)
    a = loss_curves(loss * w, every=1, **fk)
    b = loss_curves(loss * w * scale, every=1, **fk)
    np.testing.assert_allclose(a["loss"].values, b["loss"].values / scale, rtol=1e-9, atol=1e-200, err_msg="loss")
    # the smallest factor: a faded estimate is the last instance's, up to terms of 1e-50
    last = a["loss"].sel(estimator=f"fading={FADING_MIN:g}").values
    np.testing.assert_allclose(last, loss * w, rtol=0, atol=1e-45)


def test_bifet_table5_published_numbers():
    # Bifet et al. 2015 Table 5: TP 40, FN 30, FP 5, TN 25 (Class+ is the positive class)
    y = ["+"] * 70 + ["-"] * 30
    p = ["+"] * 40 + ["-"] * 30 + ["+"] * 5 + ["-"] * 25
    ds = streamtk.evaluate(y, p, classes=["+", "-"], pos_label="+").isel(time=-1).sel(estimator="prequential")
    assert float(ds.accuracy) == pytest.approx(0.65)
    assert float(ds.p_ran) == pytest.approx(0.48)
    assert round(float(ds.kappa) * 100, 2) == 32.69
    assert round(float(ds.mcc) * 100, 2) == 37.28
    assert round(float(ds.recall.sel({"class": "+"})) * 100, 2) == 57.14
    assert round(float(ds.recall.sel({"class": "-"})) * 100, 2) == 83.33
    assert round(float(ds.arithmetic_mean) * 100, 2) == 70.24
    assert round(float(ds.geometric_mean) * 100, 2) == 69.01
    assert round(float(ds.harmonic_mean) * 100, 2) == 67.80
    # test-then-train Majority Class: "+" (class code 0) before any label, then "+" throughout
    assert float(ds.p_maj) == pytest.approx(0.70)
    assert round(float(ds.kappa_m) * 100, 2) == -16.67
    assert float(ds.f1) == pytest.approx(2 * 40 / (2 * 40 + 30 + 5))
    assert float(ds.cmd) == pytest.approx((40 * 25 - 30 * 5) / 100**2)


@pytest.mark.parametrize("k", [2, 4])
def test_recall_means_edge_cases_against_the_definition(k):
    # the class-recall means: absent classes (ROW = 0) are left out, a recall of 0 makes G = H = 0, nothing
    # present gives NaN; G of more than two recalls goes through logarithms
    from streamtk._core.finalise import finalise_columns
    from streamtk._core.metrics import TABLES
    from streamtk._core.metrics.confusion_sums import ConfusionContext
    from streamtk._kernels.confusion.layout import F_Q, snapshot_size

    rng = np.random.default_rng(k)
    cols = []
    for _ in range(400):
        row = rng.integers(0, 4, size=k).astype(float) * rng.choice([1.0, 0.37], size=k)
        dia = np.floor(row * rng.random(k) * 1.3).clip(0, row)
        cols.append((row, dia))
    cols.append((np.zeros(k), np.zeros(k)))  # nothing held
    cols.append((np.r_[2.0, np.zeros(k - 1)], np.r_[1.0, np.zeros(k - 1)]))  # one class present
    table = np.zeros((snapshot_size(0, k), len(cols)))
    for i, (row, dia) in enumerate(cols):
        table[F_Q : F_Q + k, i] = row
        table[F_Q + 2 * k : F_Q + 3 * k, i] = dia
    x = ConfusionContext(k, 1 if k == 2 else 0, F_Q, (-1, -1, -1), False)
    names = ("arithmetic_mean", "geometric_mean", "harmonic_mean")
    outs = [finalise_columns(TABLES["confusion"], [REGISTRY[n] for n in names], table, x, compiled=c) for c in (0, 1)]
    for a, b in zip(*outs):
        np.testing.assert_array_equal(outs[0][a], outs[1][b])  # compiled == numpy, bit for bit
    for name in names:
        out = outs[0][name]
        for i, (row, dia) in enumerate(cols):
            rec = [d / r for r, d in zip(row, dia) if r > 0]
            if not rec:
                want = math.nan
            elif name == "arithmetic_mean":
                want = sum(rec) / len(rec)
            elif min(rec) <= 0:
                want = 0.0
            elif name == "geometric_mean":
                want = math.prod(rec) ** (1 / len(rec))
            else:
                want = len(rec) / sum(1 / a for a in rec)
            assert _close(float(out[i]), want, rtol=1e-12, atol=0.0), (name, row, dia, out[i], want)


# --------------------------------------------------------------------------- properties


@given(streams(), st.integers(1, 39), st.lists(st.integers(1, 6), max_size=2, unique=True))
def test_causality(stream, cut, windows):
    k, y, p = stream
    cut = min(cut, len(y))
    full = streamtk.evaluate(y, p, windows=windows, fading=[0.9], classes=list(range(k)))
    head = streamtk.evaluate(y[:cut], p[:cut], windows=windows, fading=[0.9], classes=list(range(k)))
    for name in ("accuracy", "kappa", "kappa_m", "kappa_per", "mcc", "recall"):
        np.testing.assert_array_equal(full[name].values[:, :cut], head[name].values)


@given(
    streams(max_n=60),
    st.lists(st.integers(1, 20), min_size=1, max_size=4),
    st.integers(1, 7),
    st.booleans(),
    st.sampled_from(["streamtk", "moa"]),
)
def test_chunked_equals_one_pass(stream, cuts, every, weighted, convention):
    k, y, p = stream
    rng = np.random.default_rng(len(y))
    w = rng.choice([0.0, 1.0, 2.5], size=len(y)) if weighted else None
    kw = dict(windows=[1, 3, 10], fading=[0.7], every=every, classes=list(range(k)), convention=convention)
    one = streamtk.evaluate(y, p, weights=w, **kw)
    ev = streamtk.Evaluator(**kw)
    bounds = sorted(set([0, len(y)] + [min(c, len(y)) for c in np.cumsum(cuts)]))
    for a, b in zip(bounds[:-1], bounds[1:]):
        ev.update(y[a:b], p[a:b], None if w is None else w[a:b])
    chunked = ev.result()
    np.testing.assert_array_equal(chunked.instance.values, one.instance.values)
    for name in one.data_vars:
        np.testing.assert_array_equal(chunked[name].values, one[name].values, err_msg=name)


@given(streams())
def test_window_at_least_n_equals_prequential(stream):
    k, y, p = stream
    ds = streamtk.evaluate(y, p, windows=[len(y), len(y) + 5], classes=list(range(k)))
    for name in ds.data_vars:
        if name == "n_instances":
            continue
        a = ds[name].sel(estimator="prequential").values
        for lab in (f"window={len(y)}", f"window={len(y) + 5}"):
            np.testing.assert_array_equal(ds[name].sel(estimator=lab).values, a, err_msg=name)


@given(streams())
def test_fading_one_equals_prequential(stream):
    k, y, p = stream
    ds = streamtk.evaluate(y, p, fading=[1.0], classes=list(range(k)))
    for name in ds.data_vars:
        np.testing.assert_array_equal(ds[name].values[1], ds[name].values[0], err_msg=name)


@given(streams(), st.permutations([0, 1, 2]))
def test_relabelling_invariance(stream, perm):
    k, y, p = stream
    names = np.array(["alpha", "beta", "gamma"])[list(perm)]
    ds = streamtk.evaluate(y, p, windows=[4], fading=[0.8], classes=list(range(k)))
    # the same stream with every label renamed (class order carried along)
    dr = streamtk.evaluate(names[y], names[p], windows=[4], fading=[0.8], classes=list(names[:k]))
    for name in ds.data_vars:
        np.testing.assert_array_equal(ds[name].values, dr[name].values, err_msg=name)


@given(streams(), st.lists(st.integers(1, 6), max_size=2, unique=True))
def test_unit_weights_equal_no_weights(stream, windows):
    k, y, p = stream
    a = streamtk.evaluate(y, p, windows=windows, fading=[0.9], classes=list(range(k)))
    b = streamtk.evaluate(y, p, windows=windows, fading=[0.9], classes=list(range(k)), weights=np.ones(len(y)))
    for name in a.data_vars:
        np.testing.assert_array_equal(a[name].values, b[name].values, err_msg=name)


def _majority_predictions(y, kind, param, k):
    """Majority Class classifier with the estimator's memory (test-then-train, ties to lowest)."""
    out = []
    for t in range(len(y)):
        past = y[:t]
        if kind == "window":
            past = past[-param:]
            counts = np.bincount(past, minlength=k).astype(float)
        elif kind == "fading":
            counts = np.zeros(k)
            for j, v in enumerate(past):
                counts[v] += param ** (t - 1 - j)
        else:
            counts = np.bincount(past, minlength=k).astype(float)
        out.append(int(np.argmax(counts)) if t else 0)
    return np.array(out)


@pytest.mark.parametrize("kind,param", [("prequential", None), ("window", 7), ("fading", 0.9)])
def test_majority_classifier_has_kappa_m_zero(kind, param):
    rng = np.random.default_rng(3)
    y = (rng.random(300) < np.repeat([0.3, 0.7, 0.4], 100)).astype(int)
    maj = _majority_predictions(y, kind, param, 2)
    kw = {"windows": [param]} if kind == "window" else ({"fading": [param]} if kind == "fading" else {})
    ds = streamtk.evaluate(y, maj, metrics=["kappa_m", "accuracy", "p_maj"], **kw)
    lab = "prequential" if kind == "prequential" else f"{kind}={param!r}"
    np.testing.assert_array_equal(ds.accuracy.sel(estimator=lab).values, ds.p_maj.sel(estimator=lab).values)
    km = ds.kappa_m.sel(estimator=lab).values
    assert np.all((km == 0) | np.isnan(km))
    assert np.count_nonzero(km == 0) > 250


def test_persistent_classifier_has_kappa_per_zero():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 400)
    y = np.where(rng.random(400) < 0.6, np.roll(y, 1), y)
    per = np.concatenate([[0], y[:-1]])
    ds = streamtk.evaluate(y, per, windows=[25], fading=[0.95], metrics=["kappa_per"])
    kp = ds.kappa_per.values
    assert np.all((kp == 0) | np.isnan(kp))


# --------------------------------------------------------------------------- MOA convention


@given(streams(allow_missing=True, max_n=50), st.sampled_from([None, 3, 10]), st.sampled_from([None, 0.9]), st.data())
def test_moa_convention_matches_moa_semantics(stream, window, alpha, data):
    # bit for bit: the restatement performs MOA's floating-point operations in MOA's order (so does the engine
    # under convention="moa"; tests/test_moa_evaluators.py checks both against MOA itself through capymoa)
    k, y, p = stream
    weighted = data.draw(st.booleans())
    w = (
        np.array(data.draw(st.lists(st.sampled_from([0.0, 1.0, 2.0]), min_size=len(y), max_size=len(y))))
        if weighted
        else np.ones(len(y))
    )
    if (y < 0).all():
        y[0] = 0
    if window is not None:
        make = lambda: _Window(window)  # noqa: E731
        kw = {"windows": [window]}
        lab = f"window={window}"
    elif alpha is not None:
        make = lambda: _Fading(alpha)  # noqa: E731
        kw = {"fading": [alpha]}
        lab = f"fading={alpha!r}"
    else:
        make = _Basic
        kw = {}
        lab = "prequential"
    yl = np.where(y < 0, np.nan, y.astype(float))
    ds = streamtk.evaluate(
        yl,
        p,
        weights=w if weighted else None,
        classes=list(range(k)),
        convention="moa",
        metrics=["accuracy", "kappa", "kappa_m", "kappa_per"],
        **kw,
    ).sel(estimator=lab)
    ev = MoaEvaluator(k, make)
    for t in range(len(y)):
        ev.add(int(y[t]), int(p[t]), float(w[t]))
        ref = ev.values()
        for name, val in ref.items():
            got = float(ds[name].values[t])
            assert got == val or (math.isnan(got) and math.isnan(val)), (t, name, got, val)


def test_moa_majority_includes_current_label_and_prev_starts_at_zero():
    # y = [1, 1]: MOA's majority at t=0 already counts y_0 = 1 -> hit; Persistent y_{-1}=0 -> miss
    ds = streamtk.evaluate(
        [1, 1], [1, 1], classes=[0, 1], convention="moa", metrics=["kappa_m", "kappa_per", "p_maj", "p_per"]
    )
    assert ds.p_maj.values[0, 0] == 1.0
    assert ds.p_per.values[0, 0] == 0.0
    d2 = streamtk.evaluate([1, 1], [1, 1], classes=[0, 1], metrics=["p_maj", "p_per"])
    assert d2.p_maj.values[0, 0] == 0.0  # test-then-train: class 0 predicted before any label
    assert d2.p_per.values[0, 0] == 0.0


def test_moa_weights_divide_by_instance_count():
    # DESIGN.md sec. 4: weights [2, 1] with hits [1, 0] give 1.0 under MOA's convention
    ds = streamtk.evaluate([1, 1], [1, 0], weights=[2.0, 1.0], convention="moa", metrics=["accuracy"])
    assert ds.accuracy.values[0, -1] == 1.0
    d2 = streamtk.evaluate([1, 1], [1, 0], weights=[2.0, 1.0], metrics=["accuracy"])
    assert d2.accuracy.values[0, -1] == pytest.approx(2 / 3)
