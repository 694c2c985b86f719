"""The paper plots on the regression and prediction-interval families: plot_curves draws the Dataset's values, the
registry's axis labels, legends that cover no point, and ``streamtk plot`` picks the family's first metric."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import streamtk  # noqa: E402
from streamtk.cli import main  # noqa: E402
from streamtk.io import to_netcdf  # noqa: E402
from streamtk.plot import plot_curves  # noqa: E402
from streamtk.plot._common import axis_label, covered_points  # noqa: E402
from streamtk.plot.figure import result_figure  # noqa: E402


@pytest.fixture(scope="module")
def results():
    rng = np.random.default_rng(2)
    n = 800
    y = np.cumsum(rng.normal(size=n))
    p = y + rng.normal(size=(2, n))
    qs = np.stack([p[0] - 1.5, p[0], p[0] + 1.5], axis=1)
    return {
        "regression": streamtk.regression_curves(y, p, windows=[100], fading=[0.99], baselines=True, every=10),
        "intervals": streamtk.interval_curves(
            y, y_quantiles=qs, quantiles=[0.05, 0.5, 0.95], windows=[100], every=10
        ),  # fmt: skip
        "multi": streamtk.regression_curves(np.stack([y, -y], 1), np.stack([p[0], -p[1]], 1), windows=[100], every=10),
    }


@pytest.mark.parametrize(
    "which, metric, sel",
    [("regression", "mae", None), ("regression", "r2", None), ("regression", "rrmse", None),
     ("intervals", "coverage", None), ("intervals", "nmpiw", None), ("intervals", "pinball", {"quantile": 0.95}),
     ("multi", "average_rmse", None), ("multi", "mae", {"target": 1})],
)  # fmt: skip
def test_plot_curves_draws_the_values(results, which, metric, sel):
    ds = results[which]
    fig, ax = plt.subplots()
    lines = plot_curves(ds, metric, ax=ax, estimator="window=100", sel=sel)
    da = ds[metric].sel(estimator="window=100", **(sel or {}))
    rows = da.values.reshape(-1, da.sizes["time"])
    assert len(lines) == rows.shape[0]
    for line, row in zip(lines, rows):
        np.testing.assert_array_equal(line.get_xdata(), ds.instance.values)
        np.testing.assert_array_equal(line.get_ydata(), row)
    assert ax.get_ylabel() == axis_label(metric, ds[metric])
    leg = ax.get_legend()
    if leg is not None:
        assert covered_points(ax, leg) == 0
    plt.close(fig)


def test_cli_plot_picks_the_family_metric(results, tmp_path, capsys):
    for which, want in (("regression", "mae"), ("intervals", "coverage"), ("multi", "average_mae")):
        fig = result_figure(results[which])
        assert any(ax.get_ylabel() == axis_label(want, results[which][want]) for ax in fig.axes), which
        plt.close(fig)
        to_netcdf(results[which], tmp_path / f"{which}.nc")
        assert main(["plot", str(tmp_path / f"{which}.nc"), "-o", str(tmp_path / f"{which}.png")]) == 0
        assert (tmp_path / f"{which}.png").stat().st_size > 0
