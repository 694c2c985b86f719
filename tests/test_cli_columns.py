"""The command line on logs as other tools write them: column mapping, --classes, --drifts, vector figures."""

from __future__ import annotations

import numpy as np
import pytest

import streamtk
from streamtk.cli import main
from streamtk.io import open_dataset


def run(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def one_line_error(rc, err, *needles):
    assert rc == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    rng = np.random.default_rng(3)
    n = 600
    y = rng.choice(["UP", "DOWN"], size=n)
    a = np.where(rng.random(n) < 0.8, y, np.where(y == "UP", "DOWN", "UP"))
    b = np.where(rng.random(n) < 0.6, y, np.where(y == "UP", "DOWN", "UP"))
    d = tmp_path_factory.mktemp("cols")
    path = d / "run.csv"
    rows = ["label,prediction,other,p_up,p_down"] + [
        f"{t},{p},{q},{s:.3f},{1 - s:.3f}" for t, p, q, s in zip(y, a, b, rng.random(n))
    ]
    path.write_text("\n".join(rows) + "\n")
    return {"path": path, "y": y, "a": a, "b": b, "dir": d}


def test_label_prediction_csv_with_classes_and_drifts(table, capsys, tmp_path):
    out = tmp_path / "c.nc"
    rc, text, err = run(capsys, "evaluate", table["path"], "--y-true", "label", "--y-pred", "prediction",
                        "--classes", "UP,DOWN", "--drifts", "100,400", "-w", 50, "--every", 10, "-o", out)  # fmt: skip
    assert rc == 0, err
    got = open_dataset(out)
    ref = streamtk.evaluate(table["y"], table["a"], windows=[50], every=10, classes=["UP", "DOWN"])
    for name in ("accuracy", "kappa", "kappa_per", "kappa_m"):
        np.testing.assert_array_equal(got[name].values.reshape(ref[name].shape), ref[name].values)
    assert got["class"].values.tolist() == ["UP", "DOWN"]
    assert np.atleast_1d(got.attrs["drifts"]).tolist() == [100, 400]


def test_several_models_by_name(table, capsys, tmp_path):
    out = tmp_path / "m.nc"
    rc, _, err = run(capsys, "evaluate", table["path"], "--y-true", "label", "--y-pred", "A=prediction,B=other",
                     "--metrics", "accuracy", "-o", out, "-q")  # fmt: skip
    assert rc == 0, err
    got = open_dataset(out)
    assert got.model.values.tolist() == ["A", "B"]
    last = got.accuracy.sel(estimator="prequential").isel(time=-1).values
    np.testing.assert_allclose(last, [np.mean(table["a"] == table["y"]), np.mean(table["b"] == table["y"])])
    rc, _, err = run(capsys, "compare", table["path"], "--y-true", "label", "--y-pred", "A=prediction,B=other",
                     "--alpha", 0.01, "-q")  # fmt: skip
    assert rc == 0, err


def test_default_class_order_is_the_api_default(table, capsys, tmp_path):
    out = tmp_path / "d.nc"
    rc, _, err = run(capsys, "evaluate", table["path"], "--y-true", "label", "--y-pred", "prediction", "-o", out,
                     "-q")  # fmt: skip
    assert rc == 0, err
    assert open_dataset(out)["class"].values.tolist() == ["DOWN", "UP"]  # sorted, as streamtk.evaluate


@pytest.mark.parametrize(
    ("extra", "needles"),
    [
        (["--classes", "UP"], ["--classes", "'DOWN'"]),
        (["--y-pred", "A=prediction,other"], ["--y-pred", "NAME=COLUMN"]),
        (["--y-score", "p_up,p_down"], ["--y-score", "--classes"]),
        (["--y-true", "truth"], ["truth", "label"]),
    ],
)
def test_mapping_errors_are_one_line(table, capsys, extra, needles):
    args = ["evaluate", table["path"], "--y-true", "label", "--y-pred", "prediction", *extra]
    rc, _, err = run(capsys, *args)
    one_line_error(rc, err, *needles)


def test_mapping_flags_refused_for_a_netcdf_log(table, capsys, tmp_path):
    from streamtk.io import make_log, to_netcdf

    path = to_netcdf(make_log(table["y"], table["a"]), tmp_path / "log.nc")
    rc, _, err = run(capsys, "evaluate", path, "--y-true", "label")
    one_line_error(rc, err, "--y-true", "CSV/TSV/Parquet")


def test_scores_mapped_in_class_order(table, capsys, tmp_path):
    out = tmp_path / "s.nc"
    rc, _, err = run(capsys, "evaluate", table["path"], "--y-true", "label", "--y-pred", "prediction",
                     "--y-score", "p_up,p_down", "--classes", "UP,DOWN", "--scores", "--metrics", "accuracy,brier",
                     "-o", out, "-q")  # fmt: skip
    assert rc == 0, err
    assert "brier" in open_dataset(out)


def test_plot_vector_output_estimator_panel_and_drifts(table, capsys, tmp_path):
    curves = tmp_path / "c.nc"
    run(capsys, "evaluate", table["path"], "--y-true", "label", "--y-pred", "A=prediction,B=other", "-w", 50,
        "-o", curves, "-q")  # fmt: skip
    pdf = tmp_path / "fig.pdf"
    rc, _, err = run(capsys, "plot", curves, "--metric", "kappa", "--estimator", "window=50", "--drifts", "300",
                     "-o", pdf)  # fmt: skip
    assert rc == 0, err
    assert pdf.read_bytes()[:5] == b"%PDF-"
    rc, _, err = run(capsys, "plot", curves, "-o", tmp_path / "fig.docx")
    one_line_error(rc, err, "fig.docx", ".pdf")
    rc, _, err = run(capsys, "plot", curves, "--estimator", "window=7", "-o", tmp_path / "x.png")
    one_line_error(rc, err, "window=7")
