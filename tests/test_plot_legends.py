"""Every plot function of streamtk.plot: its legend covers no plotted point, its figure saves as vector
graphics, and curves get robust shared limits with clipped values marked.

``CASES`` holds one call per public plot function; ``test_every_plot_function_has_a_case`` fails when
a new function of ``streamtk.plot.__all__`` has none, so that the legend check keeps covering them all.
"""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import xarray as xr  # noqa: E402

import streamtk  # noqa: E402
import streamtk.plot as splot  # noqa: E402
from streamtk.plot._common import covered_points, layout_problems, place_legend, robust_limits  # noqa: E402

N, DRIFT = 3000, 1500


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def inputs():
    from streamtk.comparison import collection_from_array, compare_over_time
    from streamtk.comparison.compare import compare
    from streamtk.datasets.simulate import simulate_log
    from streamtk.dependence.label_dependence import label_dependence
    from streamtk.drift import error_stream
    from streamtk.drift.adwin import adwin
    from streamtk.drift.page_hinkley import page_hinkley
    from streamtk.drift.scoring import score_detections
    from streamtk.drift.tradeoff import run_tradeoff
    from streamtk.kfold.folds import significance_curves
    from streamtk.stats import friedman_test

    log = simulate_log(N, drifts=[DRIFT], seed=4)
    curves = streamtk.evaluate(log.y_true, log.y_pred, windows=[500], fading=[0.99], adwin=[0.5], every=50)
    errors = (log.y_pred != log.y_true).astype(np.float64)
    rng = np.random.default_rng(0)
    a = 0.80 + 0.01 * rng.standard_normal((10, 40))
    b = a - np.linspace(-0.02, 0.05, 40) + 0.005 * rng.standard_normal((10, 40))
    folds = xr.Dataset(
        {"accuracy": (("model", "fold", "estimator", "time"), np.stack([a, b])[:, :, None, :])},
        coords={"model": ["A", "B"], "estimator": ["prequential"], "instance": ("time", np.arange(1, 41) * 100)},
    )
    scores = np.array([[0.9, 0.8, 0.7], [0.85, 0.8, 0.6], [0.95, 0.7, 0.65], [0.9, 0.85, 0.5], [0.88, 0.8, 0.7]])
    return {
        "log": log,
        "curves": curves,
        "compare": compare(log.y_true, log.y_pred, windows=[500], every=50),
        "ph": page_hinkley(errors, delta=0.005, lambda_=[20.0]),
        "adwin": adwin(errors.sel(model="adaptive")),
        "delays": score_detections([[120, 2050], [130], [110, 2100]], [100, 2000], max_delay=500, n=3000),
        "sig": significance_curves(folds),
        "folds": folds,
        "dep": label_dependence(log.y_true, windows=[500], every=50, max_lag=4),
        "friedman": friedman_test(scores, names=["A", "B", "C"]),
        "collection": collection_from_array(scores, datasets=[f"d{i}" for i in range(5)], models=["A", "B", "C"]),
        "ranks": compare_over_time(
            xr.Dataset(
                {"accuracy": (("dataset", "model", "time"), rng.uniform(size=(6, 3, 5)))},
                coords={"model": list("abc"), "fraction": ("time", np.linspace(0.2, 1, 5))},
            )
        ),
        "tradeoff": run_tradeoff(
            error_stream(3000, [1500], [0.05, 0.4], runs=3, seed=2),
            [1500],
            {"ddm": {"drift_level": [2.5, 3.0, 4.0]}, "adwin": {"delta": [0.002, 0.1]}},
            max_delay=600,
        ),
    }


CASES = {
    "plot_curves": lambda d: splot.plot_curves(d["curves"], "kappa_per", estimator="adwin=0.5", drifts=[DRIFT]),
    "plot_curves (ADWIN width)": lambda d: splot.plot_curves(
        d["curves"], "accuracy", model="adaptive", width="adwin=0.5", detections=[1520], drifts=[DRIFT]
    ),  # a second y axis on the right: an outside legend must clear its tick labels and label
    "plot_curves (long title)": lambda d: splot.plot_curves(
        d["curves"],
        "accuracy",
        model="adaptive",
        title="a title much longer than the axes it belongs to, which a "
        "layout never widens for it, so it must be broken into lines: $Q = \\log(S_A / S_B)$ kept whole",
    ),
    "plot_baselines": lambda d: splot.plot_baselines(d["curves"], model="adaptive", drifts=[DRIFT]),
    "plot_comparison": lambda d: splot.plot_comparison(d["compare"], a="adaptive", b="static", drifts=[DRIFT]),
    "plot_dependence": lambda d: splot.plot_dependence(d["dep"], drifts=[DRIFT]),
    "plot_evidence": lambda d: splot.plot_evidence(d["dep"], estimator="prequential"),
    "plot_significance": lambda d: splot.plot_significance(d["sig"]),
    "plot_fold_summary": lambda d: splot.plot_fold_summary(d["folds"]),
    "plot_detector": lambda d: splot.plot_detector(d["ph"], sel={"model": "adaptive", "lambda": 20.0}, drifts=[DRIFT]),
    "plot_detector (ADWIN)": lambda d: splot.plot_detector(d["adwin"], drifts=[DRIFT]),
    "plot_detection_delays": lambda d: splot.plot_detection_delays(d["delays"]),
    "plot_cd": lambda d: splot.plot_cd(d["friedman"]),
    "cd_diagram": lambda d: splot.cd_diagram(d["friedman"]),
    "result_figure": lambda d: splot.result_figure(d["curves"], metric="kappa"),
    "facet_curves": lambda d: splot.facet_curves(
        {"one": d["curves"], "two": d["curves"]}, ["accuracy", "kappa_per"], estimators="window=500"
    ),  # fmt: skip
    "plot_detections": lambda d: splot.plot_detections([[1520, 2600], [40, 1600]], [1500], max_delay=300, n=N),
    "plot_posterior": lambda d: splot.plot_posterior(d["collection"], rope=0.01, n_samples=1000, control="A"),
    "plot_ranks_over_time": lambda d: splot.plot_ranks_over_time(d["ranks"]),
    "plot_tradeoff": lambda d: splot.plot_tradeoff(d["tradeoff"]),
}


def _figure(result):
    if isinstance(result, matplotlib.figure.Figure):
        return result
    first = result[0] if isinstance(result, (list, tuple)) else next(iter(result.values()))
    first = first[0] if isinstance(first, (list, tuple)) or hasattr(first, "patches") else first
    return first.figure if hasattr(first, "figure") else plt.gcf()


def test_every_plot_function_has_a_case():
    names = {c.split(" ")[0] for c in CASES}
    missing = [f for f in splot.__all__ if f not in names]
    assert not missing, f"add a legend case for {missing}"


@pytest.mark.parametrize("case", list(CASES))
def test_legends_cover_no_plotted_point(inputs, case):
    fig = _figure(CASES[case](inputs))
    fig.canvas.draw()
    for ax in fig.axes:
        leg = ax.get_legend()
        if leg is not None and leg.get_visible():
            assert covered_points(ax, leg) == 0, f"{case}: the legend of {ax.get_title()!r} covers data"
    renderer = fig.canvas.get_renderer()
    for leg in fig.legends:  # a figure legend must lie outside every axes
        box = leg.get_window_extent(renderer)
        for ax in fig.axes:
            if ax.get_visible():
                assert not box.overlaps(ax.get_window_extent(renderer)), f"{case}: the figure legend overlaps an axes"
    # no legend over a title, a tick label or an axis label; no title cut by the figure's edge or over an axes
    assert layout_problems(fig) == [], case


@pytest.mark.parametrize("case", ["plot_curves", "facet_curves", "plot_comparison"])
def test_figures_are_vector_graphics(inputs, case):
    fig = _figure(CASES[case](inputs))
    svg, pdf = io.BytesIO(), io.BytesIO()
    fig.savefig(svg, format="svg")
    fig.savefig(pdf, format="pdf")
    text = svg.getvalue().decode()
    assert "<path" in text and "<image" not in text  # drawn as paths, no raster image embedded
    assert pdf.getvalue()[:5] == b"%PDF-"


def test_place_legend_goes_outside_when_every_corner_holds_data():
    fig, ax = plt.subplots(figsize=(4, 3))
    x = np.linspace(0, 1, 200)
    for y0 in np.linspace(0, 1, 12):
        ax.plot(x, np.full_like(x, y0), label=f"{y0:.2f}")
    ax.plot(np.full(50, 0.5), np.linspace(0, 1, 50), label="v")
    leg = place_legend(ax)
    assert covered_points(ax, leg) == 0
    fig.canvas.draw()
    assert leg.get_window_extent().x0 >= ax.get_window_extent().x1  # to the right of the axes


def test_covered_points_sees_a_legend_over_data():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot(np.linspace(0, 1, 100), np.linspace(0, 1, 100), label="diagonal")
    leg = ax.legend(loc="center")
    fig.canvas.draw()
    assert covered_points(ax, leg) > 0


def test_robust_limits_clip_spikes_and_respect_natural_bounds():
    rng = np.random.default_rng(1)
    y = rng.normal(0.5, 0.05, 1000)
    y[[10, 500]] = [-13.0, -9.0]  # a tiny ADWIN window's kappa_per spikes
    lo, hi, clipped = robust_limits(y, (None, 1.0))
    assert clipped and -2.0 < lo < 0.3 and hi <= 1.0 + 0.05
    lo2, hi2, clipped2 = robust_limits(rng.normal(0.5, 0.05, 1000), (0.0, 1.0))
    assert not clipped2 and 0.0 <= lo2 < hi2 <= 1.02
    assert robust_limits([np.nan, np.nan]) == (None, None, False)


def test_plot_curves_marks_each_clipped_value(inputs):
    ds = inputs["curves"].copy(deep=True)
    ds["kappa_per"][0, 1, 5] = -50.0  # one spike, far below the rest
    arts = splot.plot_curves(ds, "kappa_per", model=str(ds.model.values[0]), estimator="window=500")
    ax = arts[0].axes
    assert ax.get_ylim()[0] > -50.0
    marks = [a for a in arts if a.get_label().startswith("clipped")]
    assert len(marks) == 1 and marks[0].get_label() == "clipped (1 value)"
    np.testing.assert_array_equal(marks[0].get_xdata(), [ds.instance.values[5]])


def test_facet_curves_share_limits_per_metric(inputs):
    curves = inputs["curves"]
    worse = curves.copy(deep=True)
    worse["accuracy"] = worse["accuracy"] - 0.3
    fig = splot.facet_curves({"easy": curves, "hard": worse}, ["accuracy", "kappa"], estimators="window=500")
    acc_axes, kappa_axes = fig.axes[:2], fig.axes[2:]
    assert acc_axes[0].get_ylim() == acc_axes[1].get_ylim()
    assert kappa_axes[0].get_ylim() == kappa_axes[1].get_ylim()
    assert acc_axes[0].get_ylim() != kappa_axes[0].get_ylim()
    lo, hi = acc_axes[0].get_ylim()
    assert lo <= float(worse.accuracy.sel(estimator="window=500").min()) and hi >= 0.9
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels == [str(m) for m in curves.model.values]  # one entry per model, shared by the panels


def test_accessor_plots_a_multi_model_result(inputs):
    arts = inputs["curves"].streamtk.plot("kappa", estimator="window=500")
    assert [a.get_label() for a in arts[:3]] == [str(m) for m in inputs["curves"].model.values]
