"""``bands=True`` on every curve plot: the shaded area is exactly ``[<metric>_lower, <metric>_upper]``."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402

import streamtk  # noqa: E402
from streamtk.plot import facet_curves, plot_baselines, plot_comparison, plot_curves, result_figure  # noqa: E402

N = 600
RNG = np.random.default_rng(0)
Y = RNG.integers(0, 2, N)
A = np.where(RNG.random(N) < 0.9, Y, 1 - Y)
B = np.where(RNG.random(N) < 0.7, Y, 1 - Y)


@pytest.fixture(scope="module")
def curves():
    return streamtk.evaluate(Y, np.stack([A, B]), windows=100, every=20, interval=0.9, lead_dims="model")


def _shaded(artists):
    return [a for a in artists if isinstance(a, PolyCollection)]


def _edges(poly):
    """The lower and upper edges of a fill_between polygon (x ascending)."""
    v = poly.get_paths()[0].vertices
    return v


def test_plot_curves_shades_the_band_of_every_curve(curves):
    artists = plot_curves(curves, "accuracy", estimator="window=100", bands=True)
    polys = _shaded(artists)
    assert len(polys) == 2  # one per model
    ax = polys[0].axes
    for poly, m in zip(polys, curves.model.values):
        v = _edges(poly)
        lo = curves.accuracy_lower.sel(model=m, estimator="window=100").values
        hi = curves.accuracy_upper.sel(model=m, estimator="window=100").values
        assert np.isclose(v[:, 1].min(), np.nanmin(lo)) and np.isclose(v[:, 1].max(), np.nanmax(hi))
    labels = ax.get_legend_handles_labels()[1]
    assert "90% analytic band" in labels and labels.count("90% analytic band") == 1
    plt.close("all")


def test_bands_need_interval(curves):
    plain = streamtk.evaluate(Y, A, every=50)
    with pytest.raises(ValueError, match=r"interval=.*'accuracy'"):
        plot_curves(plain, "accuracy", bands=True)
    with pytest.raises(ValueError, match="interval="):
        facet_curves(plain, "accuracy", bands=True)
    plt.close("all")


def test_facet_baselines_accessor_and_result_figure(curves):
    fig = facet_curves(curves, ["accuracy", "kappa"], bands=True)
    assert all(_shaded(ax.collections) for ax in fig.axes)
    one = curves.sel(model=curves.model.values[0])
    artists = plot_baselines(one, "accuracy", bands=True)
    assert len(_shaded(artists)) == 2  # the no-skill band and the confidence band
    assert _shaded(one.streamtk.plot("accuracy", bands=True))
    fig = result_figure(curves, bands=True)
    assert all(_shaded(ax.collections) for ax in fig.axes if ax.get_visible())
    plt.close("all")


def test_comparison_shows_the_difference_in_error_with_its_sequence():
    ds = streamtk.compare(Y, A, B, every=20, interval=0.95, interval_method="sequence")
    artists = plot_comparison(ds, "error_difference", bands=True)
    poly = _shaded(artists)[0]
    v = _edges(poly)
    assert np.isclose(v[:, 1].min(), np.nanmin(ds.error_difference_lower.values))
    ax = poly.axes
    labels = ax.get_legend_handles_labels()[1]
    assert "95% confidence sequence" in labels
    assert "first checkpoint where A is better (anytime-valid)" in labels  # A is much better here
    with pytest.raises(ValueError, match="not the test statistic 'mcnemar'"):
        plot_comparison(ds, "mcnemar", bands=True)
    fig = result_figure(ds, bands=True)
    assert _shaded(fig.axes[0].collections)
    plt.close("all")


def test_cli_plot_bands(tmp_path):
    from streamtk.cli import main

    ds = streamtk.evaluate(Y, A, windows=100, every=20, interval=0.9)
    path = tmp_path / "c.nc"
    ds.to_netcdf(path)
    assert main(["plot", str(path), "--bands", "-o", str(tmp_path / "c.png")]) == 0
    assert (tmp_path / "c.png").stat().st_size > 0
