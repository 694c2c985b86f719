"""The imbalanced family (average precision, PR AUC, scored AUC, pos/neg ratio) against scikit-learn, MOA and river."""

from __future__ import annotations

import math

import numpy as np
import pytest

import streamtk
from streamtk.evaluation.scores import auc_curves

from ._auc import make_engine
from ._imbalanced import ESTIMATORS, KW, NAMES, reference, stream
from ._moa import import_capymoa


@pytest.mark.parametrize("k", [2, 3])
def test_equal_to_scikit_learn_on_the_held_instances_under_every_mechanism(k):
    # float weights (some 0), ties, missing labels, two models, every mechanism, binary and class scores
    y, p, s, w = stream(0, k=k)
    yy = np.where(y < 0, np.nan, y.astype(float))
    extra = {"classes": list(range(k))} if k > 2 else {}
    ds = auc_curves(yy, s, y_pred=p, weights=w, every=4, metrics=list(NAMES), **extra, **KW)
    for (l, e, c, col), want in reference(0, k, 4).items():
        for name in NAMES:
            got = ds[name].values[l, e, c] if k == 2 else ds[name].values[l, e, c, col]
            ok = math.isclose(got, want[name], rel_tol=1e-10, abs_tol=1e-12) or (
                math.isnan(got) and math.isnan(want[name])) or got == want[name]  # fmt: skip
            assert ok, (name, l, ESTIMATORS[e], c, col, got, want[name])


def test_evaluate_computes_them_when_named_and_not_by_default():
    y, p, s, w = stream(1)
    s = s / 1.5  # probabilities: evaluate's default log loss reads them
    yy = np.where(y < 0, np.nan, y.astype(float))
    ds = streamtk.evaluate(yy, p, y_score=s, weights=w, windows=[9], metrics=["accuracy", *NAMES])
    ref = auc_curves(yy, s, y_pred=p, weights=w, windows=[9], metrics=list(NAMES), every=ds.attrs["every"])
    for name in NAMES:
        np.testing.assert_array_equal(ds[name].values, ref[name].values)
    default = streamtk.evaluate(yy, p, y_score=s, weights=w)
    assert not set(NAMES) & set(default.data_vars)


@pytest.mark.parametrize("cuts", [[3, 40, 41], [55], [1, 2, 3, 90, 109]])
@pytest.mark.parametrize("weighted", [False, True])
def test_chunked_equals_one_pass(cuts, weighted):
    # new distinct scores in every chunk: the per-rank arrays move to the merged key space
    y, p, s, w = stream(2, ties=False)
    w = np.round(w * 4) if not weighted else w  # integer weights: the same sums exactly
    names = list(NAMES) + ["auc"]
    one = make_engine(metrics=names, **KW)
    one.update(y, s, w, p, last=True)
    many = make_engine(metrics=names, **KW)
    bounds = [0, *cuts, y.size]
    for a, b in zip(bounds[:-1], bounds[1:]):
        many.update(y[a:b], s[:, a:b], w[:, a:b], p[:, a:b], last=b == y.size)
    (p1, v1), (p2, v2) = one.collect(), many.collect()
    assert np.array_equal(p1, p2)
    fading = [e for e, (kind, _) in enumerate(ESTIMATORS) if kind == "fading"]
    for name in names:
        if weighted:  # restarting windows may sweep their members or their rank arrays: the same sums reordered
            np.testing.assert_allclose(v1[name], v2[name], rtol=1e-12, atol=1e-15, err_msg=name)
        else:  # exact, but the U statistics of a fading factor (summed over other tree nodes: ~1e-16)
            exact = np.ones(len(ESTIMATORS), dtype=bool)
            exact[fading] = name != "auc"
            np.testing.assert_array_equal(v1[name][:, exact], v2[name][:, exact], err_msg=name)
            np.testing.assert_allclose(v1[name], v2[name], rtol=1e-14, err_msg=name)


def test_mechanism_and_invariance_properties():
    y, p, s, w = stream(3, ties=False)
    y = np.where(y < 0, np.nan, y.astype(float))  # missing labels
    n = y.size
    kw = dict(y_pred=p, weights=w, every=1, metrics=list(NAMES))
    pre = auc_curves(y, s, **kw).sel(estimator="prequential")
    big = auc_curves(y, s, windows=[n], fading=[1.0], tumbling=[n], landmarks=[0], **kw)
    for est in big.estimator.values:
        for name in NAMES:
            np.testing.assert_allclose(big[name].sel(estimator=est).values, pre[name].values, rtol=1e-12,
                                       err_msg=(est, name))  # fmt: skip
    base = auc_curves(y, s, **kw, **KW)
    scaled = auc_curves(y, s, y_pred=p, weights=3.0 * w, every=1, metrics=list(NAMES), **KW)
    monotone = auc_curves(y, np.exp(3 * s), y_pred=p, weights=w, every=1, metrics=list(NAMES), **KW)
    labels = np.array(["normal", "attack", None], dtype=object)[np.where(np.isnan(y), 2, np.nan_to_num(y)).astype(int)]
    named = auc_curves(labels, s, y_pred=np.array(["normal", "attack"])[p], pos_label="attack", weights=w,
                       every=1, metrics=list(NAMES), **KW)  # fmt: skip
    for name in NAMES:
        np.testing.assert_allclose(scaled[name].values, base[name].values, rtol=1e-12, err_msg=name)
        np.testing.assert_allclose(named[name].values, base[name].values, rtol=1e-12, err_msg=name)
        if name != "sauc":  # ranks only: a monotone map of the scores changes nothing
            np.testing.assert_allclose(monotone[name].values, base[name].values, rtol=1e-12, err_msg=name)
    # causality
    cut = auc_curves(y[:60], s[:, :60], y_pred=p[:, :60], weights=w[:, :60], every=1, metrics=list(NAMES), **KW)
    for name in NAMES:
        np.testing.assert_array_equal(cut[name].values, base[name].values[:, :, :60], err_msg=name)


def test_constant_score_baseline_row():
    y, p, s, w = stream(4)
    y = np.where(y < 0, np.nan, y.astype(float))
    ds = auc_curves(y, s[0], y_pred=p[0], weights=w[0], baseline=True, every=1, windows=[9], tumbling=[17],
                    metrics=["auc", *NAMES])  # fmt: skip
    assert ds.model.values.tolist() == ["y_score", "constant score"]
    b = ds.sel(model="constant score")
    both = ~np.isnan(b.auc.values)
    assert (b.auc.values[both] == 0.5).all() and (b.sauc.values[both] == 0.0).all()
    prev = 1.0 / (1.0 + 1.0 / b.pos_neg_ratio.values[both])  # the positive weight fraction held
    np.testing.assert_allclose(b.average_precision.values[both], prev, rtol=1e-12)
    np.testing.assert_allclose(b.pr_auc.values[both], (1.0 + prev) / 2.0, rtol=1e-12)
    two = auc_curves(y, s, y_pred=p, weights=w[0], baseline=True, metrics=["average_precision"], windows=[9])
    assert two.model.values.tolist() == ["0", "1", "constant score"]
    with pytest.raises(ValueError, match="the same weights for every series"):
        auc_curves(y, s, weights=w, baseline=True, metrics=["auc"])


@pytest.mark.parametrize(
    "kw,match",
    [
        ({"multi_class": "ovo", "classes": [0, 1, 2], "metrics": ["average_precision"]}, "with multi_class='ovr'"),
        ({"convention": "moa", "metrics": ["average_precision"]}, r"convention='moa' has no \['average_precision'\]"),
        ({"convention": "moa", "metrics": ["pr_auc"], "windows": [5]}, r"convention='moa' has no \['pr_auc'\]"),
    ],
)
def test_refusals(kw, match):
    y = np.array([0, 1, 2, 1, 0, 1]) if "classes" in kw else np.array([0, 1, 1, 0, 1, 0])
    s = np.random.default_rng(0).random((6, 3)) if "classes" in kw else np.linspace(0, 1, 6)
    with pytest.raises(ValueError, match=match):
        auc_curves(y, s, **kw)


def test_infinite_scores_are_refused_for_the_scored_auc_only():
    y = np.array([0, 1, 1, 0, 1])
    s = np.array([0.1, np.inf, 0.3, -np.inf, 0.5])
    with pytest.raises(ValueError, match=r"y_score holds inf at instance 1 \(0-based\) of series 0: the scored AUC"):
        auc_curves(y, s, metrics=["sauc"])
    ok = auc_curves(y, s, metrics=["average_precision", "auc"], every=1)  # ranks only: infinities are scores
    assert ok.average_precision.values[0, -1] == 1.0
    with pytest.raises(ValueError, match=r"y_score holds inf at instance 1"):
        streamtk.evaluate(y, y, y_score=s, metrics=["sauc"])
    w = np.array([1.0, 0.0, 1.0, 1.0, 1.0])  # not evaluated: never read
    with pytest.raises(ValueError, match=r"y_score holds -inf at instance 3"):
        auc_curves(y, s, weights=w, metrics=["sauc"])


# ----------------------------------------------------------------------------------------------------- MOA
def _moa_imbalanced(kind, width, y, s, w):
    """MOA's Basic (or Window) AUCImbalancedPerformanceEvaluator fed votes ``[1 - s, s]``: its measures after each."""
    import_capymoa()
    from jpype import JPackage

    from .test_moa_evaluators import _class_instance

    moa = JPackage("moa")
    if kind == "prequential":
        ev = moa.evaluation.BasicAUCImbalancedPerformanceEvaluator()
        ev.calculateAUC.set()
    else:
        ev = moa.evaluation.WindowAUCImbalancedPerformanceEvaluator()
        ev.widthOption.setValue(int(width))
    ev.prepareForUse()
    import jpype

    inst = _class_instance((moa, jpype.JPackage("com").yahoo.labs.samoa.instances, jpype.JClass("java.util.ArrayList")),
                           2)  # fmt: skip
    names = ("AUC", "sAUC", "Pos/Neg ratio", "Accuracy", "Kappa", "G-Mean", "Recall", "KappaM")
    out = {k: np.full(len(y), np.nan) for k in names}
    for t in range(len(y)):
        inst.setClassValue(float(y[t]))
        inst.setWeight(float(w[t]))
        ev.addResult(moa.core.InstanceExample(inst), [1.0 - s[t], s[t]])
        got = {str(m.getName()): float(m.getValue()) for m in ev.getPerformanceMeasurements()}
        for k in names:
            out[k][t] = got.get(k, np.nan)
    return out


@pytest.mark.parametrize(
    "kind,width,ties,weighted",
    [("prequential", None, False, False), ("prequential", None, True, True), ("window", 40, True, True)],
)
def test_convention_moa_is_moas_auc_imbalanced_evaluator(kind, width, ties, weighted):
    rng = np.random.default_rng(21 + ties)
    n = 400
    y = (rng.random(n) < 0.2).astype(int)
    s = rng.integers(0, 5, n) / 4.0 if ties else rng.random(n)
    s = np.clip(s + 0.3 * y * rng.random(n), 0.0, 1.0)
    w = rng.choice([0.0, 1.0, 3.0], n, p=[0.1, 0.7, 0.2]) if weighted else np.ones(n)  # weight 0: skipped
    ref = _moa_imbalanced(kind, width, y, s, w)
    kw = {"windows": [width]} if kind == "window" else {}
    ds = auc_curves(y, s, weights=w, convention="moa", every=1, metrics=["auc", "sauc", "pos_neg_ratio"], **kw)
    est = "prequential" if kind == "prequential" else f"window={width}"
    first = int(np.argmax(w > 0))  # MOA's evaluator starts at the first instance of positive weight
    for ours, theirs in (("auc", "AUC"), ("sauc", "sAUC"), ("pos_neg_ratio", "Pos/Neg ratio")):
        got, want = ds[ours].sel(estimator=est).values[first:], ref[theirs][first:]
        assert np.array_equal(got, want), (
            ours,
            int(np.argmax(got != want)),
            got[got != want][:3],
            want[got != want][:3],
        )
    if not weighted:
        # the evaluator's other measures: evaluate's MOA convention on the argmax of the votes, for unit weights (the
        # imbalanced evaluator counts an instance once in its accuracy and kappa whatever its weight, but adds the
        # weight in its KappaM baseline; MOA's classification evaluators, which evaluate follows, add weights in all)
        p = (s > 0.5).astype(int)
        ev = streamtk.evaluate(y, p, weights=w, convention="moa", every=1, classes=[0, 1],
                               metrics=["accuracy", "kappa", "kappa_m", "geometric_mean", "recall"])  # fmt: skip
        ev = ev.sel(estimator="prequential")
        pairs = {"accuracy": "Accuracy", "kappa": "Kappa", "kappa_m": "KappaM", "geometric_mean": "G-Mean"}
        for ours, theirs in pairs.items():
            np.testing.assert_allclose(ev[ours].values[first:], ref[theirs][first:], rtol=1e-12, err_msg=ours)
        np.testing.assert_allclose(ev.recall.sel({"class": 1}).values[first:], ref["Recall"][first:], rtol=1e-12)


# ---------------------------------------------------------------------------------------------------- river
def _river(y, s, window):
    from river import metrics

    m = metrics.RollingPRAUC(window_size=window)
    out = []
    for a, b in zip(y, s):
        m.update(bool(a), float(b))
        out.append(m.get())
    return np.array(out)


def _interpolated_area(recall, precision):
    """The trapezoidal area under the running maximum of precision towards lower thresholds, from (0, 1)."""
    keep = ~np.isnan(recall)
    r, p = recall[keep][1:], precision[keep][1:]  # the thresholds in decreasing order (after T = +inf)
    interp = np.maximum.accumulate(p[::-1])[::-1]
    r0, p0 = np.r_[0.0, r], np.r_[1.0, interp]
    return float(np.sum(np.diff(r0) * (p0[1:] + p0[:-1]) / 2.0))


def test_river_rolling_pr_auc_is_the_interpolated_area():
    # river 0.26.1's RollingPRAUC: distinct scores grouped exactly (no rounding of ties), the trapezoid from
    # (0, 1) over the *interpolated* precision (running maximum towards lower thresholds), 0.0 with one class
    rng = np.random.default_rng(5)
    n, window = 160, 25
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.random(n) + 0.3 * y, 1)  # ties
    ours = auc_curves(y, s, windows=[window], every=1, metrics=["pr_auc"]).pr_auc.sel(estimator=f"window={window}")
    theirs = _river(y, s, window)
    at = np.arange(1, n + 1)
    curves = streamtk.roc_pr_curves(y, s, at=at, windows=[window]).sel(estimator=f"window={window}")
    differs = 0
    for t in range(n):
        one_class = y[max(0, t - window + 1) : t + 1].min() == y[max(0, t - window + 1) : t + 1].max()
        if one_class:
            assert math.isnan(ours.values[t]) and theirs[t] == 0.0
            continue
        rec, prec = curves.recall.values[t], curves.precision.values[t]
        assert math.isclose(theirs[t], _interpolated_area(rec, prec), rel_tol=1e-12), t
        assert theirs[t] >= ours.values[t] - 1e-12
        differs += theirs[t] > ours.values[t] + 1e-12
    assert differs > 10  # the interpolation raises the area wherever precision is not monotone in recall
    # where precision does not rise with recall (here: a positive alone on top, then a tie) the two are equal
    mono = np.array([1, 1, 0, 0, 0])
    sm = np.array([0.9, 0.5, 0.5, 0.5, 0.5])
    assert math.isclose(_river(mono, sm, 100)[-1], auc_curves(mono, sm, metrics=["pr_auc"]).pr_auc.values[0, -1])


def test_long_faded_streams_stay_finite_and_exact():
    # past the lazy multiplier's renormalisation (alpha = 0.9: every ~4400 instances) the oldest weights underflow
    # to 0 while their ranks still hold a count, and the scored AUC's weight products exceed the multiplier's range
    from ._imbalanced import ranking

    rng = np.random.default_rng(8)
    n, alpha = 12_000, 0.9
    y = (rng.random(n) < 0.05).astype(int)
    s = np.round(np.clip(0.7 * rng.random(n) + 0.3 * y * rng.random(n), 0.0, 0.99), 3)
    s[0] = 1.0  # the top score is held by the first instance alone: its weight underflows to 0 after ~7000
    ds = auc_curves(y, s, fading=[alpha], every=1, metrics=list(NAMES)).sel(estimator=f"fading={alpha}")
    assert all(np.isfinite(ds[name].values[30:]).all() for name in NAMES)  # both classes held from instance 30
    for t in (4300, 4360, 8000, n - 1):  # the multiplier near its limit (~1e200), and old weights underflowed
        j = t
        v = alpha ** (t - np.arange(t + 1, dtype=float))
        want = ranking(y[: t + 1] == 1, s[: t + 1], v)
        for name in NAMES:
            assert math.isclose(ds[name].values[j], want[name], rel_tol=1e-9), (name, t, ds[name].values[j], want)


@pytest.mark.parametrize("weighted", [False, True])
def test_windows_over_few_distinct_scores_count_instead_of_sorting(weighted):
    # few distinct scores: a sliding window counts its members over the scores' dense ranks (sweep_ranked)
    from ._imbalanced import ranking

    rng = np.random.default_rng(9)
    n = 700
    y = (rng.random(n) < 0.15).astype(int)
    s = rng.integers(0, 6, n) / 5.0 + 0.2 * y * rng.integers(0, 2, n)
    w = rng.choice([0.5, 1.0, 2.5], n) if weighted else np.ones(n)
    ds = auc_curves(y, s, weights=w, windows=[60, 250], every=7, metrics=list(NAMES))
    for width in (60, 250):
        cur = ds.sel(estimator=f"window={width}")
        for j, t in enumerate(cur.instance.values - 1):
            lo = max(0, t - width + 1)
            want = ranking(y[lo : t + 1] == 1, s[lo : t + 1], w[lo : t + 1])
            for name in NAMES:
                got = float(cur[name].values[j])
                assert math.isclose(got, want[name], rel_tol=1e-12, abs_tol=1e-15) or (
                    math.isnan(got) and math.isnan(want[name])), (name, width, t, got, want[name])  # fmt: skip
