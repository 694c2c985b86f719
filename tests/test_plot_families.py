"""The paper plots of the multi-label and imbalanced families: result_figure, the accessor's kinds and the CLI."""

from __future__ import annotations

import numpy as np
import pytest

import streamtk
from streamtk.cli import main
from streamtk.plot import result_figure
from streamtk.plot._layout import layout_problems
from streamtk.plot.kinds import dataset_kind

pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def multilabel():
    rng = np.random.default_rng(0)
    y = (rng.random((600, 3)) < 0.3).astype(int)
    p = np.where(rng.random((2, 600, 3)) < 0.85, y, 1 - y)
    return streamtk.multilabel_curves(y, p, windows=[100], fading=[0.99], labels=["a", "b", "c"])


@pytest.fixture(scope="module")
def imbalanced():
    rng = np.random.default_rng(1)
    y = (rng.random(800) < 0.08).astype(int)
    s = np.clip(0.7 * rng.random(800) + 0.3 * y * rng.random(800), 0, 1)
    return streamtk.auc_curves(y, s, baseline=True, windows=[200], metrics=["average_precision", "pr_auc", "sauc",
                               "pos_neg_ratio"])  # fmt: skip


def _close(fig):
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_multilabel_curves_plot_without_accuracy_and_per_label(multilabel):
    import matplotlib

    matplotlib.use("Agg")
    assert dataset_kind(multilabel) == "curves"
    fig = result_figure(multilabel)  # no accuracy: the first metric, hamming_loss
    assert [ax.get_ylabel() for ax in fig.axes][0] != "" and len(fig.axes) == 3
    assert fig.axes[0].lines and layout_problems(fig) == []
    _close(fig)
    fig = result_figure(multilabel, metric="label_f1")  # a label dim: the first label, stated
    assert fig._suptitle.get_text() == "label_f1, label=a" and layout_problems(fig) == []
    np.testing.assert_allclose(fig.axes[0].lines[0].get_ydata(),
                               multilabel.label_f1.sel(label="a", estimator="prequential").values[0])  # fmt: skip
    _close(fig)


@pytest.mark.parametrize("metric", [None, "average_precision", "pr_auc", "sauc", "pos_neg_ratio"])
def test_imbalanced_curves_plot_with_their_baseline_row(imbalanced, metric):
    import matplotlib

    matplotlib.use("Agg")
    fig = result_figure(imbalanced, metric=metric)
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels == ["y_score", "constant score"] and layout_problems(fig) == []
    _close(fig)


def test_cli_plots_a_multilabel_result(multilabel, tmp_path):
    path = streamtk.io.to_netcdf(multilabel, tmp_path / "ml.nc")
    out = tmp_path / "ml.png"
    assert main(["plot", str(path), "--metric", "f1_macro", "-o", str(out)]) == 0
    assert out.stat().st_size > 1000
