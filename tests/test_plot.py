"""streamtk.plot and the ``ds.streamtk`` accessor: each function draws exactly the Dataset's numbers."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import xarray as xr  # noqa: E402

import streamtk  # noqa: E402
import streamtk.accessor  # noqa: E402,F401  (registers ds.streamtk)
from streamtk.comparison.compare import compare  # noqa: E402
from streamtk.datasets.simulate import simulate_log  # noqa: E402
from streamtk.dependence.label_dependence import label_dependence  # noqa: E402
from streamtk.drift.adwin import adwin  # noqa: E402
from streamtk.drift.page_hinkley import page_hinkley  # noqa: E402
from streamtk.drift.scoring import score_detections  # noqa: E402
from streamtk.kfold.folds import fold_summary, significance_curves  # noqa: E402
from streamtk.plot.compare import plot_comparison  # noqa: E402
from streamtk.plot.curves import plot_baselines, plot_curves  # noqa: E402
from streamtk.plot.drift import plot_detection_delays, plot_detector  # noqa: E402
from streamtk.plot.figure import result_figure  # noqa: E402
from streamtk.plot.significance import plot_cd, plot_fold_summary, plot_significance  # noqa: E402
from streamtk.plot.temporal import plot_dependence, plot_evidence  # noqa: E402
from streamtk.stats import friedman_test  # noqa: E402

N = 3000
DRIFT = 1500


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def log():
    return simulate_log(N, drifts=[DRIFT], seed=4)


@pytest.fixture(scope="module")
def curves(log):
    return streamtk.evaluate(log.y_true, log.y_pred, windows=[500], fading=[0.99], every=50)


@pytest.fixture(scope="module")
def errors(log):
    return (log.y_pred != log.y_true).astype(np.float64)


def png_pixels(fig):
    """Render to PNG in memory; return (bytes, RGBA array)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=60)
    data = buf.getvalue()
    buf.seek(0)
    return data, plt.imread(buf)


def assert_drawn(fig):
    data, img = png_pixels(fig)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert img.shape[0] > 50 and img.shape[1] > 50
    # not a blank canvas: many distinct colours
    assert len(np.unique(img.reshape(-1, img.shape[-1]), axis=0)) > 20


# --------------------------------------------------------------------------- curves
def test_plot_curves_draws_the_dataset_values(curves):
    lines = plot_curves(curves, "kappa", model="static")
    assert len(lines) == curves.sizes["estimator"]
    for line, est in zip(lines, curves.estimator.values):
        np.testing.assert_array_equal(line.get_xdata(), curves.instance.values)
        np.testing.assert_array_equal(line.get_ydata(), curves.kappa.sel(model="static", estimator=est).values)
        assert line.get_label() == str(est)
    ax = lines[0].axes
    assert ax.get_ylabel() == r"$\kappa$"  # the papers' symbol
    assert_drawn(ax.figure)


def test_plot_curves_markers_and_adwin_width(curves, errors):
    ad = adwin(errors.sel(model="adaptive"))
    det = np.flatnonzero(ad.detection.values != 0)
    arts = plot_curves(
        curves, "accuracy", model="adaptive", estimators=["window=500"], drifts=[DRIFT], detections=det, width=ad
    )
    line, drift_line, markers, width_line = arts
    np.testing.assert_array_equal(drift_line.get_xdata(), [DRIFT + 1, DRIFT + 1])  # index -> instance
    np.testing.assert_array_equal(markers.get_xdata(), det + 1.0)
    np.testing.assert_array_equal(width_line.get_ydata(), ad.width.values)
    assert width_line.axes is not line.axes  # second y axis
    assert_drawn(line.figure)


def test_plot_curves_with_explicit_ax_and_sel(curves):
    fig, ax = plt.subplots()
    (line, *_) = plot_curves(curves, "recall", sel={"model": "adaptive", "class": 1}, ax=ax)
    assert line.axes is ax
    expected = curves.recall.sel({"model": "adaptive", "class": 1}).isel(estimator=0).values
    np.testing.assert_array_equal(line.get_ydata(), expected)


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"metric": "nope"}, ValueError, r"variables \['nope'\]"),
        ({"metric": "accuracy", "model": "static", "models": ["static"]}, ValueError, "model= or models="),
        ({"metric": "accuracy", "model": "zzz"}, ValueError, r"models \['zzz'\] are not in the Dataset"),
        ({"metric": "accuracy", "model": "static", "estimators": ["window=7"]}, ValueError, "window=7"),
        ({"metric": "accuracy", "model": "static", "sel": {"fold": 0}}, ValueError, "no dimension 'fold'"),
        ({"metric": "accuracy", "model": "static", "width": "nope"}, ValueError, "width='nope'"),
    ],
)
def test_plot_curves_errors(curves, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        plot_curves(curves, **kwargs)


def test_plot_curves_refuses_non_datasets(curves):
    with pytest.raises(TypeError, match="xarray.Dataset"):
        plot_curves(curves.accuracy)


def test_plot_baselines_band_is_the_better_baseline(curves):
    band, pmaj, pper, model, drift = plot_baselines(curves, model="static", estimator="window=500", drifts=[DRIFT])
    sel = dict(model="static", estimator="window=500")
    np.testing.assert_array_equal(pmaj.get_ydata(), curves.p_maj.sel(sel).values)
    np.testing.assert_array_equal(pper.get_ydata(), curves.p_per.sel(sel).values)
    np.testing.assert_array_equal(model.get_ydata(), curves.accuracy.sel(sel).values)
    top = np.fmax(curves.p_maj.sel(sel).values, curves.p_per.sel(sel).values)
    verts = band.get_paths()[0].vertices
    assert np.isclose(verts[:, 1].max(), np.nanmax(top))
    assert_drawn(model.figure)


def test_plot_baselines_needs_the_baseline_metrics(log):
    ds = streamtk.evaluate(log.y_true, log.y_pred, metrics=["accuracy"], every=100)
    with pytest.raises(ValueError, match="p_maj"):
        plot_baselines(ds, model="static")


# --------------------------------------------------------------------------- detectors
def test_plot_detector_page_hinkley(errors):
    res = page_hinkley(errors, delta=0.005, lambda_=[20.0, 50.0])
    stat, thr, alarms, drift = plot_detector(res, sel={"model": "adaptive", "lambda": 20.0}, drifts=[DRIFT])
    one = res.sel(model="adaptive", **{"lambda": 20.0})
    np.testing.assert_array_equal(stat.get_ydata(), one.statistic.values)
    np.testing.assert_array_equal(thr.get_ydata(), one.threshold.values)
    idx = one.detection_index.values
    idx = idx[idx >= 0]
    assert idx.size > 0
    np.testing.assert_array_equal(alarms.get_xdata(), idx + 1.0)
    assert_drawn(stat.figure)
    with pytest.raises(ValueError, match=r"select the dims \['lambda'\]"):
        plot_detector(res, sel={"model": "adaptive"})


def test_plot_detector_adwin(errors):
    res = adwin(errors.sel(model="adaptive"))
    width, mean, cuts, drift = plot_detector(res, drifts=[DRIFT])
    np.testing.assert_array_equal(width.get_ydata(), res.width.values)
    np.testing.assert_array_equal(mean.get_ydata(), res["mean"].values)
    assert len(cuts.get_xdata()) == int((res.detection.values != 0).sum()) > 0
    assert_drawn(width.figure)


def test_plot_detector_needs_a_trace(errors):
    res = page_hinkley(errors.sel(model="adaptive"), trace=False)
    with pytest.raises(ValueError, match="trace=True"):
        plot_detector(res)
    with pytest.raises(TypeError, match="Dataset"):
        plot_detector(np.zeros(3))


def test_plot_detection_delays_bars_and_misses():
    runs = [[120, 2050], [130], [110, 2100]]
    scores = score_detections(runs, [100, 2000], max_delay=500, n=3000)
    (bars,) = plot_detection_delays(scores)
    heights = [r.get_height() for r in bars]
    np.testing.assert_allclose(heights, [20.0, 75.0])  # (10+30+20)/3 and (50+100)/2
    texts = [t.get_text() for t in bars[0].axes.texts]
    assert "(1)" in texts  # one run missed the second drift
    assert_drawn(bars[0].figure)
    missed = score_detections([[5], [7]], [100], n=1000)
    (bars,) = plot_detection_delays(missed)
    assert "Miss" in [t.get_text() for t in bars[0].axes.texts]


def test_plot_detection_delays_one_bar_per_setting(errors):
    runs = xr.concat([errors.sel(model="adaptive")] * 2, "run")
    res = page_hinkley(runs, delta=0.005, lambda_=[20.0, 50.0])
    scores = score_detections(res, [DRIFT], n=N)
    containers = plot_detection_delays(scores)
    assert len(containers) == 2
    got = [c[0].get_height() for c in containers]
    np.testing.assert_allclose(got, np.nan_to_num(scores.delay_mean.values[:, 0]))
    with pytest.raises(ValueError, match="delay_mean"):
        plot_detection_delays(res)


# --------------------------------------------------------------------------- comparison
def test_plot_comparison_mcnemar_and_q(log):
    cmp = compare(log.y_true, log.y_pred, windows=[500], every=50)
    arts = plot_comparison(cmp, "mcnemar", a="adaptive", b="static", drifts=[DRIFT])
    pre, win, hi, lo, span, drift = arts
    np.testing.assert_array_equal(
        pre.get_ydata(), cmp.mcnemar.sel(model_a="adaptive", model_b="static", estimator="prequential").values
    )
    thr = cmp.attrs["mcnemar_threshold"]
    assert np.isclose(thr, 3.841458820694124)  # alpha = 0.05
    assert hi.get_ydata()[0] == pytest.approx(thr) and lo.get_ydata()[0] == pytest.approx(-thr)
    assert pre.axes.get_yscale() == "symlog"
    assert_drawn(pre.figure)
    plt.close("all")
    q_pre, q_win, zero = plot_comparison(cmp, "q", a="static", b="persistent")
    np.testing.assert_array_equal(
        q_win.get_ydata(), cmp.q.sel(model_a="static", model_b="persistent", estimator="window=500").values
    )
    assert zero.get_ydata()[0] == 0.0
    with pytest.raises(ValueError, match="statistic must be"):
        plot_comparison(cmp, "kappa")
    with pytest.raises(ValueError, match="model_a"):
        plot_comparison(cmp, "q")
    with pytest.raises(ValueError, match="threshold must be a positive"):
        plot_comparison(cmp, a="static", b="adaptive", threshold=-1.0)


# --------------------------------------------------------------------------- folds and significance
@pytest.fixture(scope="module")
def per_fold():
    rng = np.random.default_rng(0)
    t = 40
    a = 0.80 + 0.01 * rng.standard_normal((10, t))
    b = a - np.linspace(-0.02, 0.05, t) + 0.005 * rng.standard_normal((10, t))
    return xr.Dataset(
        {"accuracy": (("model", "fold", "estimator", "time"), np.stack([a, b])[:, :, None, :])},
        coords={"model": ["A", "B"], "estimator": ["prequential"], "instance": ("time", np.arange(1, t + 1) * 100)},
    )


def test_plot_significance_draws_pvalues(per_fold):
    sig = significance_curves(per_fold)
    arts = plot_significance(sig)
    sign_line, wil_line, alpha_line = arts[:3]
    np.testing.assert_allclose(
        wil_line.get_ydata(), np.clip(sig.pvalue.sel(test="wilcoxon").squeeze().values, 1e-12, 1)
    )
    assert alpha_line.get_ydata()[0] == 0.05
    assert sig.reject.sel(test="wilcoxon").any() and not sig.reject.sel(test="wilcoxon").all()
    assert_drawn(sign_line.figure)
    with pytest.raises(ValueError, match="tests"):
        plot_significance(sig, tests=["t-test"])
    with pytest.raises(ValueError, match="pvalue"):
        plot_significance(per_fold)


def test_plot_fold_summary_mean_and_band(per_fold):
    arts = plot_fold_summary(per_fold)
    mean_a = arts[0]
    np.testing.assert_allclose(mean_a.get_ydata(), per_fold.accuracy.sel(model="A").mean("fold").squeeze())
    # the same from a precomputed summary
    plt.close("all")
    arts2 = plot_fold_summary(fold_summary(per_fold), band="minmax")
    np.testing.assert_allclose(arts2[2].get_ydata(), per_fold.accuracy.sel(model="B").mean("fold").squeeze())
    with pytest.raises(ValueError, match="band"):
        plot_fold_summary(per_fold, band="iqr")


def test_plot_cd_wraps_the_diagram():
    scores = np.array(
        [[0.9, 0.8, 0.7], [0.85, 0.8, 0.6], [0.95, 0.7, 0.65], [0.9, 0.85, 0.5], [0.88, 0.8, 0.7], [0.92, 0.75, 0.66]]
    )
    res = friedman_test(scores, names=["A", "B", "C"])
    assert res.significant
    arts = plot_cd(res, title="CD")
    assert [t.get_text().split()[0] for t in arts["labels"]] == ["A", "B", "C"]
    assert_drawn(arts["axis"].figure)
    flat = friedman_test(np.array([[0.9, 0.8, 0.85], [0.8, 0.9, 0.85]]), names=["A", "B", "C"])
    with pytest.raises(ValueError, match="force=True"):
        plot_cd(flat)
    assert plot_cd(flat, force=True)["cd_bar"] is not None


# --------------------------------------------------------------------------- temporal dependence
def test_plot_dependence_and_evidence(log):
    dep = label_dependence(log.y_true, windows=[500], every=50, max_lag=4)
    pm, pt, shade, pm2, pt2, shade2, drift = plot_dependence(dep, drifts=[DRIFT])
    np.testing.assert_array_equal(pt.get_ydata(), dep.p_t.sel(estimator="prequential").values)
    np.testing.assert_array_equal(pm2.get_ydata(), dep.p_m.sel(estimator="window=500").values)
    assert_drawn(pm.figure)
    plt.close("all")
    bars = plot_evidence(dep, estimator="prequential")
    assert len(bars) == 2  # one container per class
    np.testing.assert_allclose(
        [r.get_height() for r in bars[1]],
        dep.evidence.sel(estimator="prequential", **{"class": 1}).isel(time=-1).values,
    )
    with pytest.raises(ValueError, match="choose estimator"):
        plot_evidence(dep)
    with pytest.raises(ValueError, match="time must index"):
        plot_evidence(dep, estimator="prequential", time=10_000)
    with pytest.raises(ValueError, match="estimators"):
        plot_dependence(dep, estimators=["window=3"])


# --------------------------------------------------------------------------- accessor and result figure
def test_accessor_kinds_and_dispatch(log, curves, errors, per_fold):
    cmp = compare(log.y_true, log.y_pred, every=100)
    dep = label_dependence(log.y_true, every=100)
    ph = page_hinkley(errors)
    scores = score_detections([[1600]], [DRIFT], n=N)
    sig = significance_curves(per_fold)
    kinds = {
        "curves": curves,
        "comparison": cmp,
        "dependence": dep,
        "detector": ph,
        "delays": scores,
        "significance": sig,
        "folds": per_fold,
        "log": log,
    }
    for kind, ds in kinds.items():
        assert ds.streamtk.kind == kind
    assert adwin(errors).streamtk.kind == "detector"
    lines = curves.streamtk.plot("kappa_per", model="adaptive")
    np.testing.assert_array_equal(
        lines[0].get_ydata(), curves.kappa_per.sel(model="adaptive", estimator="prequential").values
    )
    arts = curves.streamtk.plot(kind="baselines", model="static")
    assert len(arts) == 4
    with pytest.raises(ValueError, match="evaluate it first"):
        log.streamtk.plot()
    with pytest.raises(ValueError, match="kind must be one of"):
        curves.streamtk.plot(kind="pie")
    with pytest.raises(ValueError, match="not a streamtk result"):
        _ = xr.Dataset({"x": ("t", [1, 2])}).streamtk.kind


def test_accessor_table(curves):
    text = curves.streamtk.table(["accuracy", "kappa_per"])
    last = curves.isel(time=-1)
    assert f"{float(last.accuracy.sel(model='static', estimator='window=500')):.4f}" in text
    assert text.count("\n") == 2 + 3 * 3 - 1  # header, rule, 3 models x 3 estimators
    with pytest.raises(ValueError, match="per class"):
        curves.streamtk.table(["recall"])
    with pytest.raises(ValueError, match="evaluation curves"):
        label_dependence([0, 1, 1]).streamtk.table()


def test_result_figure_panels(log, curves, errors):
    fig = result_figure(curves, metric="kappa")
    assert sum(ax.get_visible() for ax in fig.axes) == 3  # one panel per estimator, every model on each
    assert [len(ax.get_lines()) >= 3 for ax in fig.axes] == [True] * 3
    assert_drawn(fig)
    fig = result_figure(curves, model=["static"], kind="baselines")
    assert len([a for a in fig.axes if a.get_visible()]) == 1
    cmp = compare(log.y_true, log.y_pred, every=100)
    fig = result_figure(cmp, metric="q")
    assert sum(ax.get_visible() for ax in fig.axes) == 3  # three pairs
    fig = result_figure(page_hinkley(errors, lambda_=[20.0, 50.0]))
    assert "lambda=20.0" in fig.axes[0].get_title()
    with pytest.raises(ValueError, match="streamtk evaluate"):
        result_figure(log)
    with pytest.raises(ValueError, match="model"):
        result_figure(curves, model=["nobody"])


def test_plot_curves_width_of_an_adwin_estimator(log):
    ds = streamtk.evaluate(log.y_true, log.y_pred, adwin=[0.002], every=50, metrics=["accuracy", "n_instances"])
    arts = plot_curves(ds, "accuracy", model="adaptive", width="adwin=0.002")
    width_line = arts[-1]
    expected = ds.n_instances.sel(model="adaptive", estimator="adwin=0.002").values
    np.testing.assert_array_equal(width_line.get_ydata(), expected)
    assert expected.min() < expected.max() < N  # the window shrank after the drift


def test_accessor_knows_auc_curves(log):
    from streamtk.evaluation.scores import auc_curves

    auc = auc_curves(log.y_true, log.y_score.sel({"class": 1}), windows=[500], every=100)
    assert auc.streamtk.kind == "curves"
    lines = auc.streamtk.plot("auc", model="static")
    np.testing.assert_array_equal(lines[1].get_ydata(), auc.auc.sel(model="static", estimator="window=500").values)
