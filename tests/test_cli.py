"""The ``streamtk`` command line: outputs equal the library's, exit codes and one-line errors."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import xarray as xr

import streamtk
from streamtk.cli import main
from streamtk.comparison.compare import compare
from streamtk.datasets.simulate import simulate_log
from streamtk.drift.ddm import ddm
from streamtk.io import open_dataset, to_netcdf, write_csv

N = 4000
DRIFT = 2000


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    log = simulate_log(N, drifts=[DRIFT], seed=7)
    write_csv(log.drop_vars("y_score"), d / "run.csv")
    to_netcdf(log, d / "run.nc")
    one = log.drop_vars("y_score").sel(model=["adaptive"])
    write_csv(one, d / "one.csv")
    return {"dir": d, "log": log, "csv": d / "run.csv", "nc": d / "run.nc", "one": d / "one.csv"}


def run(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def assert_one_line_error(rc, err, *needles):
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


# --------------------------------------------------------------------------- evaluate
def test_evaluate_writes_the_library_result_chunk_by_chunk(files, capsys, tmp_path):
    out = tmp_path / "curves.nc"
    rc, text, err = run(
        capsys, "evaluate", files["csv"], "-w", 500, "-f", 0.99, "--every", 100, "--chunk-size", 700, "-o", out
    )
    assert rc == 0 and err == ""
    got = open_dataset(out)
    log = files["log"]
    ref = streamtk.evaluate(log.y_true.values, log.y_pred, windows=[500], fading=[0.99], every=100)
    for name in ("accuracy", "kappa", "kappa_per", "kappa_m", "p_per"):
        np.testing.assert_array_equal(got[name].values, ref[name].values)
    assert got.estimator.values.tolist() == ["prequential", "window=500", "fading=0.99"]
    assert f"{float(ref.accuracy.sel(model='static', estimator='window=500')[-1]):.4f}" in text
    assert f"wrote {out}" in text


def test_evaluate_adwin_option(files, capsys, tmp_path):
    out = tmp_path / "adwin.nc"
    rc, _, _ = run(capsys, "evaluate", files["nc"], "--adwin", 0.002, "--metrics", "accuracy", "-o", out, "-q")
    assert rc == 0
    log = files["log"]
    # the CLI's default checkpoint spacing is the API's own (streamtk.evaluate's every=None)
    ref = streamtk.evaluate(log.y_true.values, log.y_pred, adwin=[0.002], metrics=["accuracy"])
    np.testing.assert_array_equal(open_dataset(out).accuracy.values, ref.accuracy.values)
    rc, _, err = run(capsys, "evaluate", files["csv"], "--adwin", 1.5)
    assert_one_line_error(rc, err, "1.5")


def test_every_forgetting_mechanism_has_a_flag(files, capsys, tmp_path):
    # the flags come from the mechanism registry: tumbling windows and landmarks as in the API
    out = tmp_path / "mech.nc"
    rc, _, _ = run(capsys, "evaluate", files["nc"], "--tumbling", 500, "--tumbling", 800, "--landmarks", "100,1500",
                   "--metrics", "accuracy", "--every", 50, "-o", out, "-q")  # fmt: skip
    assert rc == 0
    log = files["log"]
    ref = streamtk.evaluate(log.y_true.values, log.y_pred, tumbling=[500, 800], landmarks=[100, 1500],
                            metrics=["accuracy"], every=50)  # fmt: skip
    got = open_dataset(out)
    assert got.estimator.values.tolist() == ["prequential", "tumbling=500", "tumbling=800", "landmarks"]
    np.testing.assert_array_equal(got.accuracy.values, ref.accuracy.values)
    rc, _, err = run(capsys, "evaluate", files["csv"], "--landmarks", "300,100")
    assert_one_line_error(rc, err, "landmarks")
    rc, _, err = run(capsys, "compare", files["nc"], "--tumbling", 400, "--every", 100, "-o", tmp_path / "c.nc", "-q")
    assert rc == 0 and "tumbling=400" in open_dataset(tmp_path / "c.nc").estimator.values.tolist()


def test_evaluate_scores(files, capsys, tmp_path):
    out = tmp_path / "auc.nc"
    rc, text, _ = run(capsys, "evaluate", files["nc"], "--scores", "-f", 0.999, "--every", 200, "-o", out)
    assert rc == 0
    log = files["log"]
    ref = streamtk.evaluate(log.y_true.values, log.y_pred, y_score=log.y_score, fading=[0.999], every=200)
    got = open_dataset(out)
    np.testing.assert_array_equal(got.auc_macro.values, ref.auc_macro.values)
    np.testing.assert_array_equal(got.log_loss.values, ref.log_loss.values)
    assert "auc_macro" in text.splitlines()[0]
    # chunk by chunk: the exact AUC carries its state (faded sums in another order: equal to rounding)
    out2 = tmp_path / "auc_chunked.nc"
    rc, _, _ = run(
        capsys, "evaluate", files["nc"], "--scores", "-f", 0.999, "--every", 200, "--chunk-size", 333, "-o", out2, "-q"
    )
    assert rc == 0
    got2 = open_dataset(out2)
    np.testing.assert_allclose(got2.auc_macro.values, ref.auc_macro.values, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(got2.log_loss.values, ref.log_loss.values)
    rc, _, err = run(capsys, "evaluate", files["csv"], "--scores")
    assert_one_line_error(rc, err, "no class scores")


def test_evaluate_quiet_and_progress(files, capsys):
    rc, out, err = run(capsys, "evaluate", files["csv"], "--metrics", "accuracy", "-q")
    assert rc == 0 and out == "" and err == ""  # stderr is not a terminal: no bar by default
    rc, out, err = run(capsys, "evaluate", files["csv"], "--metrics", "accuracy", "--progress", "--chunk-size", 1000)
    assert rc == 0 and "evaluate" in err  # the tqdm bar went to stderr


@pytest.mark.parametrize(
    "args, needles",
    [
        (["evaluate", "missing.csv"], ["streamtk evaluate: error", "missing.csv"]),
        (["evaluate", "{csv}", "--every", "0"], ["--every must be a positive integer, got 0"]),
        (["evaluate", "{csv}", "--chunk-size", "0"], ["--chunk-size"]),
        (["evaluate", "{csv}", "-o", "out.txt"], ["out.txt", ".nc"]),
        (["evaluate", "{csv}", "-o", "{dir}/no/such/dir/c.nc"], ["does not exist"]),
        (["compare", "{csv}", "-o", "cmp.csv"], ["cmp.csv", ".zarr"]),
        (["drift", "{csv}", "-o", "d.png"], ["d.png"]),
        (["evaluate", "{csv}", "--metrics", "accuracy,nope"], ["nope"]),
        (["evaluate", "{csv}", "--window", "0"], ["0"]),
        (["evaluate", "{csv}", "--fading", "1.5"], ["1.5"]),
        (["evaluate", "{dir}/not-a-log.xyz"], ["not-a-log.xyz"]),
    ],
)
def test_input_errors(files, capsys, args, needles):
    args = [a.format(csv=files["csv"], dir=files["dir"]) for a in args]
    rc, _, err = run(capsys, *args)
    assert_one_line_error(rc, err, *needles)


def test_usage_errors_exit_2(capsys):
    rc, _, err = run(capsys, "evaluate")
    assert rc == 2 and "the following arguments are required: LOG" in err
    rc, _, err = run(capsys, "evaluate", "x.csv", "--window", "ten")
    assert rc == 2 and "invalid int value: 'ten'" in err
    rc, _, err = run(capsys, "frobnicate")
    assert rc == 2 and "invalid choice" in err
    rc, out, _ = run(capsys, "evaluate", "--help")
    assert rc == 0 and "examples:" in out and "--window" in out
    rc, _, err = run(capsys)
    assert rc == 2 and "COMMAND" in err


# --------------------------------------------------------------------------- compare
def test_compare_pair_and_all_pairs(files, capsys, tmp_path):
    log = files["log"]
    out = tmp_path / "cmp.nc"
    rc, text, _ = run(
        capsys, "compare", files["csv"], "--models", "adaptive", "static", "-w", 500, "--every", 50, "-o", out
    )
    assert rc == 0
    ref = compare(
        log.y_true.values, log.y_pred.sel(model="adaptive"), log.y_pred.sel(model="static"), windows=[500], every=50
    )
    got = open_dataset(out)
    for name in ("q", "mcnemar", "n01", "n10"):
        np.testing.assert_array_equal(got[name].values, ref[name].values)
    last = ref.isel(time=-1).sel(estimator="window=500")
    assert f"{float(last.mcnemar):.2f}" in text and "adaptive" in text
    out2 = tmp_path / "all.nc"
    rc, text, _ = run(capsys, "compare", files["nc"], "--alpha", 0.05, "-o", out2)
    assert rc == 0
    allp = open_dataset(out2)
    assert allp.sizes["model_a"] == 3 and allp.attrs["alpha"] == 0.05
    assert text.count("prequential") == 3  # one row per unordered pair
    assert list(allp.attrs["drifts"].reshape(-1)) == [DRIFT]


def test_compare_errors(files, capsys):
    rc, _, err = run(capsys, "compare", files["csv"], "--models", "adaptive", "nobody")
    assert_one_line_error(rc, err, "nobody", "adaptive, static, persistent")
    rc, _, err = run(capsys, "compare", files["one"])
    assert_one_line_error(rc, err, "one model", "two")
    rc, _, err = run(capsys, "compare", files["csv"], "--alpha", 2)
    assert_one_line_error(rc, err, "2")


# --------------------------------------------------------------------------- drift
def test_drift_lists_the_detectors_alarms(files, capsys, tmp_path):
    log = files["log"]
    rc, text, _ = run(capsys, "drift", files["nc"], "--detector", "ddm", "--model", "static", "-o", tmp_path / "d.nc")
    assert rc == 0
    err = (log.y_pred.sel(model="static") != log.y_true).values.astype(float)
    idx = ddm(err).detection_index.values
    idx = idx[idx >= 0]
    row = next(line for line in text.splitlines() if line.startswith("static"))
    assert row.split()[2] == str(idx.size)
    assert ", ".join(str(i + 1) for i in idx[:5]) in row
    # the simulated log carries its drift: delays are scored
    assert "delay per drift" in text and f"index {DRIFT}" in text
    with xr.open_dataset(tmp_path / "d.nc", group="ddm") as saved:  # one file, a group per detector
        saved = saved.load()
    np.testing.assert_array_equal(saved.detection_index.values.ravel()[: idx.size], idx)


def test_drift_all_detectors_and_given_drifts(files, capsys):
    rc, text, _ = run(capsys, "drift", files["csv"], "--drifts", DRIFT, "--max-delay", 1000)
    assert rc == 0
    for det in ("page-hinkley", "ddm", "eddm", "adwin"):
        assert sum(line.split()[1] == det for line in text.splitlines()[2:] if line.split()) == 3


def test_drift_skips_missing_labels(files, capsys, tmp_path):
    log = files["log"].drop_vars("y_score")
    y = log.y_true.values.astype(float)
    y[:100] = np.nan  # the first 100 labels were never recorded
    log = log.assign(y_true=("time", y))
    path = tmp_path / "gaps.nc"
    to_netcdf(log, path)
    rc, text, _ = run(capsys, "drift", path, "--detector", "ddm", "--model", "static")
    assert rc == 0
    err = (log.y_pred.sel(model="static").values[100:] != y[100:]).astype(float)
    idx = ddm(err).detection_index.values
    idx = idx[idx >= 0] + 100  # back to positions in the log
    row = next(line for line in text.splitlines() if line.startswith("static"))
    assert ", ".join(str(i + 1) for i in idx[:5]) in row


def test_drift_errors(files, capsys):
    rc, _, err = run(capsys, "drift", files["csv"], "--model", "nobody")
    assert_one_line_error(rc, err, "nobody")
    rc, _, err = run(capsys, "drift", files["csv"], "--drifts", "10,x")
    assert_one_line_error(rc, err, "--drifts", "10,x")
    rc, _, err = run(capsys, "drift", files["csv"], "--detector", "kswin")
    assert rc == 2 and "invalid choice: 'kswin'" in err


# --------------------------------------------------------------------------- plot
def test_plot_every_result_kind(files, capsys, tmp_path):
    curves = tmp_path / "curves.nc"
    assert main(["evaluate", str(files["nc"]), "-w", "500", "-o", str(curves), "-q"]) == 0
    cmp = tmp_path / "cmp.nc"
    assert main(["compare", str(files["nc"]), "-o", str(cmp), "-q"]) == 0
    assert main(["drift", str(files["nc"]), "--detector", "adwin", "-o", str(tmp_path / "d.nc"), "-q"]) == 0
    capsys.readouterr()
    for src, extra in ((curves, ["--metric", "kappa_per"]), (cmp, ["--metric", "q"]), (tmp_path / "d.nc", [])):
        png = src.with_suffix(".png")
        rc, text, _ = run(capsys, "plot", src, *extra)
        assert rc == 0 and f"wrote {png}" in text
        data = png.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    rc, _, _ = run(capsys, "plot", curves, "-o", tmp_path / "one.svg", "--model", "static", "--kind", "baselines")
    assert rc == 0 and (tmp_path / "one.svg").read_text().startswith("<?xml")


def test_plot_errors(files, capsys, tmp_path):
    rc, _, err = run(capsys, "plot", tmp_path / "none.nc")
    assert_one_line_error(rc, err, "none.nc")
    rc, _, err = run(capsys, "plot", files["nc"], "-o", tmp_path / "x.png")
    assert_one_line_error(rc, err, "streamtk evaluate")
    curves = tmp_path / "c.nc"
    assert main(["evaluate", str(files["csv"]), "--metrics", "accuracy", "-o", str(curves), "-q"]) == 0
    rc, _, err = run(capsys, "plot", curves, "--metric", "kappa")
    assert_one_line_error(rc, err, "'kappa'")


# --------------------------------------------------------------------------- figures
def test_figures_without_scripts_says_so(capsys, tmp_path):
    rc, out, err = run(capsys, "figures", "--dir", tmp_path)
    assert rc == 1 and out == ""
    assert f"no figure scripts in {tmp_path}; nothing was generated" in err
    rc, _, err = run(capsys, "figures", "--dir", tmp_path / "absent")
    assert_one_line_error(rc, err, "absent")


def test_figures_passes_options_to_make_all(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    figs = tmp_path / "pf"
    figs.mkdir()
    (figs / "make_all.py").write_text(
        "import sys, pathlib\npathlib.Path(__file__).with_name('argv.txt').write_text(' '.join(sys.argv[1:]))\n"
    )
    rc, _, _ = run(capsys, "figures", "--dir", figs, "--quick", "-o", "out", "--only", "a", "b")
    assert rc == 0
    assert (figs / "argv.txt").read_text() == f"--quick --out {tmp_path / 'out'} --only a b"
    (figs / "make_all.py").write_text("raise SystemExit(1)\n")
    rc, _, err = run(capsys, "figures", "--dir", figs)
    assert rc == 1 and "exited with status 1" in err


def test_figures_without_make_all_runs_each_script(capsys, tmp_path):
    (tmp_path / "fig_one.py").write_text("raise SystemExit(0)\n")
    (tmp_path / "fig_two.py").write_text("raise SystemExit(3)\n")
    (tmp_path / "_helper.py").write_text("raise SystemExit(4)\n")
    rc, out, _ = run(capsys, "figures", "--dir", tmp_path, "--list")
    assert rc == 0 and out.split() == ["fig_one", "fig_two"]
    rc, _, err = run(capsys, "figures", "--dir", tmp_path, "--only", "fig_one")
    assert rc == 0
    rc, _, err = run(capsys, "figures", "--dir", tmp_path)
    assert rc == 1 and "fig_two.py (exit 3)" in err and "_helper" not in err


def test_figures_lists_the_repository_scripts(capsys):
    from streamtk.cli.figures import _figures_dir

    folder = _figures_dir(None)
    if not (folder / "make_all.py").exists():
        pytest.skip(reason=f"no paper_figures/make_all.py in {folder} (not a source checkout)")
    r = subprocess.run([sys.executable, "-m", "streamtk", "figures", "--list"], capture_output=True, text=True)
    assert r.returncode == 0
    listed = set(r.stdout.split())
    assert listed and listed <= {p.stem for p in folder.glob("*.py")}


# --------------------------------------------------------------------------- a real process
def test_subprocess_exit_codes_and_messages(files, tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "streamtk", "evaluate", str(tmp_path / "nope.csv")], capture_output=True, text=True
    )
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == f"streamtk evaluate: error: log file not found: {tmp_path / 'nope.csv'}"
    out = tmp_path / "c.nc"
    r = subprocess.run(
        [sys.executable, "-m", "streamtk", "evaluate", str(files["csv"]), "--metrics", "accuracy", "-o", str(out)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0 and r.stderr == ""  # not a terminal: no progress bar
    assert xr.load_dataset(out).accuracy.dims == ("model", "estimator", "time")


def test_plot_a_group_of_a_netcdf_file(files, capsys, tmp_path):
    log = files["log"]
    path = tmp_path / "multi.nc"
    to_netcdf(streamtk.evaluate(log.y_true.values, log.y_pred, metrics=["accuracy"], every=100), path)
    compare(log.y_true.values, log.y_pred, every=100).to_netcdf(path, mode="a", group="comparison")
    rc, text, _ = run(capsys, "plot", path, "--group", "comparison", "-o", tmp_path / "c.png")
    assert rc == 0 and (tmp_path / "c.png").stat().st_size > 20_000
    rc, _, err = run(capsys, "plot", path, "--group", "nope")
    assert_one_line_error(rc, err, "no group 'nope'", "groups: comparison")


def test_console_script(tmp_path):
    import shutil

    exe = shutil.which("streamtk")
    if exe is None:
        pytest.skip(reason="the streamtk console script is not installed (pip install -e .)")
    # the script imports the package under test, wherever the environment's (editable) install points
    import os
    from pathlib import Path

    root = str(Path(streamtk.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    r = subprocess.run([exe, "plot", str(tmp_path / "x.nc")], capture_output=True, text=True, env=env)
    assert r.returncode == 2 and r.stderr.strip() == f"streamtk plot: error: {tmp_path / 'x.nc'}: no such file"
