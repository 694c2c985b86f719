"""Command-line errors name the file or the flags, flags never silently do nothing, and outputs are where
the user asked: a log without rows, ``drift --max-delay`` without ``--drifts``, ``drift -o drift.nc``
then ``plot drift.nc``, what the drift table and the plot count, and ``compare-many --missing``."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

from streamtk.cli import main
from streamtk.datasets.simulate import simulate_log
from streamtk.drift.adwin import adwin
from streamtk.io import to_netcdf, write_csv

N = 4000
DRIFT = 2000


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli35")
    log = simulate_log(N, drifts=[DRIFT], seed=7)
    to_netcdf(log, d / "run.nc")
    plain = log.drop_vars("y_score")
    plain.attrs.pop("drifts", None)
    write_csv(plain, d / "run.csv")  # no true drifts in a CSV
    return {"dir": d, "log": log, "nc": d / "run.nc", "csv": d / "run.csv"}


def group(path, name):
    with xr.open_dataset(path, group=name) as ds:  # closed at once: xarray shares one handle between groups
        return ds.load()


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


# --------------------------------------------------------------------------- a log without rows
@pytest.mark.parametrize("command", ["evaluate", "drift", "compare"])
@pytest.mark.parametrize("header", ["y_true,y_pred\n", "y_true,y_pred:a,y_pred:b\n"])
def test_a_header_only_csv_is_named_and_said_to_have_no_rows(tmp_path, capsys, command, header):
    path = tmp_path / "empty.csv"
    path.write_text(header)
    rc, _, err = run(capsys, command, path, "--classes", "0,1")
    one_line_error(rc, err, str(path), "no rows")
    assert "n_instances" not in err


def test_a_header_only_tsv_gz_and_compare_many_are_named(tmp_path, capsys):
    import gzip

    path = tmp_path / "empty.tsv.gz"
    with gzip.open(path, "wt") as fh:
        fh.write("y_true\ty_pred\n\n")
    rc, _, err = run(capsys, "evaluate", path)
    one_line_error(rc, err, str(path), "no rows")
    good = tmp_path / "good.csv"
    good.write_text("y_true,y_pred\n0,1\n1,1\n")
    empty = tmp_path / "empty.csv"
    empty.write_text("y_true,y_pred\n")
    rc, _, err = run(capsys, "compare-many", good, empty)
    one_line_error(rc, err, str(empty), "no rows")


# --------------------------------------------------------------------------- drift: flags that do nothing
def test_max_delay_without_true_drifts_is_refused_naming_both_flags(files, capsys):
    rc, _, err = run(capsys, "drift", files["csv"], "--max-delay", "3")
    one_line_error(rc, err, "--max-delay", "--drifts")
    rc, _, err = run(capsys, "drift", files["csv"], "--max-early-detection", "3")
    one_line_error(rc, err, "--max-early-detection", "--drifts")


def test_a_negative_max_delay_is_refused_even_without_drifts(files, capsys):
    for argv in (["--max-delay", "-3"], ["--max-delay", "-3", "--drifts", str(DRIFT)]):
        rc, _, err = run(capsys, "drift", files["csv"], *argv)
        one_line_error(rc, err, "--max-delay", "-3")
    rc, _, err = run(capsys, "drift", files["csv"], "--drifts", str(DRIFT), "--max-early-detection", "-1")
    one_line_error(rc, err, "--max-early-detection", "-1")


@pytest.mark.parametrize(
    "argv, needles",
    [
        (["--convention", "moa"], ("--convention", "--score")),
        (["--rate-period", "500"], ("--rate-period", "--score")),
        (["--detector", "ddm", "--ph-lambda", "50"], ("--ph-lambda", "--detector page-hinkley")),
        (["--detector", "ddm", "--ph-convention", "moa"], ("--ph-convention", "--detector page-hinkley")),
        (["--detector", "ddm", "--adwin-delta", "0.01"], ("--adwin-delta", "--detector adwin")),
    ],
)
def test_flags_without_the_flag_they_need_are_refused(files, capsys, argv, needles):
    rc, _, err = run(capsys, "drift", files["nc"], "--drifts", str(DRIFT), *argv)
    one_line_error(rc, err, *needles)


def test_the_same_flags_with_what_they_need_work(files, capsys):
    rc, _, err = run(capsys, "drift", files["csv"], "--drifts", str(DRIFT), "--max-delay", "500", "--detector", "ddm")
    assert rc == 0, err
    rc, _, err = run(capsys, "drift", files["nc"], "--score", "--convention", "moa", "--rate-period", "500", "-q")
    assert rc == 0, err


# --------------------------------------------------------------------------- drift -o, then plot
def test_drift_writes_exactly_the_file_given_and_plot_draws_it(files, capsys, tmp_path):
    out = tmp_path / "drift.nc"
    detectors = ["--detector", "page-hinkley", "--detector", "adwin"]
    rc, text, err = run(capsys, "drift", files["nc"], *detectors, "--model", "static", "--score", "-o", out)
    assert rc == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["drift.nc"]  # no drift-<detector>.nc beside it
    assert f"wrote {out}" in text
    for name in ("page-hinkley", "adwin"):
        run_ds = group(out, name)
        assert "model" in run_ds.dims and run_ds.attrs["source_log"] == str(files["nc"])
        assert [int(d) for d in np.atleast_1d(run_ds.attrs["drifts"])] == [DRIFT]
        assert "delay" in group(out, f"{name}-scores")
    rc, text, err = run(capsys, "plot", out)
    assert rc == 0, err
    png = tmp_path / "drift.png"
    assert f"wrote {png}" in text and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rc, text, err = run(capsys, "plot", out, "--group", "adwin", "-o", tmp_path / "adwin.png")
    assert rc == 0 and (tmp_path / "adwin.png").is_file(), err


def test_drift_to_zarr_and_plot_one_model(files, capsys, tmp_path):
    out = tmp_path / "drift.zarr"
    rc, _, err = run(capsys, "drift", files["nc"], "--detector", "ddm", "--detector", "adwin", "-o", out, "-q")
    assert rc == 0, err
    rc, _, err = run(capsys, "plot", out, "--model", "static", "-o", tmp_path / "d.png")
    assert rc == 0 and (tmp_path / "d.png").is_file(), err


# --------------------------------------------------------------------------- drift: what is counted
def test_the_table_and_the_plot_say_what_they_count_for_adwin(files, capsys, tmp_path):
    out = tmp_path / "d.nc"
    rc, text, _ = run(capsys, "drift", files["nc"], "--detector", "adwin", "--model", "adaptive", "-o", out)
    assert rc == 0
    log = files["log"]
    err = (log.y_pred.sel(model="adaptive") != log.y_true).values.astype(float)
    det = adwin(err).detection.values
    rises, cuts = int((det > 0).sum()), int((det != 0).sum())
    assert rises < cuts  # the two counts differ here: both must be explained
    row = next(line for line in text.splitlines() if line.startswith("adaptive"))
    assert row.split()[2] == str(rises)
    note = next(line for line in text.splitlines() if line.strip().startswith("adwin: alarms ="))
    assert "error rate rose" in note and "rises and falls" in note and f"adaptive {cuts}" in note
    saved = group(out, "adwin")
    assert "up or down" in saved.attrs["title"]  # the plot's panel title: its "cuts (N)" are both directions
    assert "rose" in saved.attrs["alarms"]


# --------------------------------------------------------------------------- compare-many: missing values
@pytest.fixture(scope="module")
def holes(tmp_path_factory):
    d = tmp_path_factory.mktemp("holes")
    rng = np.random.default_rng(1)
    paths = []
    for name, models in (("d1", "ABC"), ("d2", "AC"), ("d3", "AC"), ("d4", "AC")):
        y = rng.integers(0, 2, 300)
        cols = [y] + [np.where(rng.random(300) < 0.8, y, 1 - y) for _ in models]
        path = d / f"{name}.csv"
        header = ",".join(["y_true"] + [f"y_pred:{m}" for m in models])
        np.savetxt(path, np.column_stack(cols), fmt="%d", delimiter=",", header=header, comments="")
        paths.append(path)
    return paths


def test_compare_many_spells_the_flag_and_names_the_models(holes, capsys):
    rc, _, err = run(capsys, "compare-many", *holes, "--pattern", "{dataset}.csv")
    one_line_error(rc, err, "--missing drop", "d2, d3, d4", "B (on 3 of 4)")
    assert "missing='drop'" not in err
    rc, _, err = run(capsys, "compare-many", *holes, "--pattern", "{dataset}.csv", "--missing", "drop")
    one_line_error(rc, err, "--missing drop", "1 of 4", "B")
