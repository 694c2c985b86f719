"""Real faults in real processes: SIGKILL of evaluate_store at random moments, and every writer on a
full disk (``RLIMIT_FSIZE`` in a child process: a write beyond the limit fails with EFBIG, as on a
full disk or quota).

Oracles: the uninterrupted run's store (byte for byte, group attributes without ``created``) and the
old file's bytes, which a failed write must leave untouched; the error must name the target file.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from streamtk.io import open_dataset
from streamtk.runners._resume import state_path
from streamtk.runners.outofcore import evaluate_store

from .test_resume import store_files, write_log

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and resource limits")

OPTS = (
    "dict(classes=[0, 1, 2], windows=[10, 300], fading=0.99, adwin=0.01, every=7, chunk=100, out_chunk=32, "
    "metrics=['accuracy', 'kappa', 'kappa_m', 'recall', 'brier', 'auc'])"
)


def _child(script: str, *args, **popen) -> subprocess.Popen:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parents[1]), env.get("PYTHONPATH", "")])
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script), *map(str, args)], env=env, text=True, **popen
    )


def _log(tmp_path, n=4000, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    p = np.where(rng.random((2, n)) < 0.7, y, rng.integers(0, 3, (2, n)))
    log = xr.Dataset({"y_true": ("time", y), "y_pred": (("model", "time"), p)}, coords={"model": ["a", "b"]})
    log["y_score"] = (("model", "time", "class"), np.round(rng.random((2, n, 3)), 3))
    return write_log(log, tmp_path / "log.zarr")


KILLABLE = f"""
import sys
from streamtk.runners.outofcore import evaluate_store
src, out = sys.argv[1], sys.argv[2]
print("start", flush=True)
evaluate_store(src, out=out, y_score="y_score",
               progress=lambda done, total: print(done, flush=True), **{OPTS})
print("end", flush=True)
"""


@pytest.mark.parametrize("seed", [0, 1])
def test_sigkill_at_a_random_moment_then_resume_equals_the_uninterrupted_run(tmp_path, seed):
    src = _log(tmp_path)
    opts = eval(OPTS)  # noqa: S307 - our own literal, shared with the child
    ref = tmp_path / "ref.zarr"
    evaluate_store(src, out=ref, y_score="y_score", **opts)
    rng = np.random.default_rng(seed)
    out = tmp_path / "curves.zarr"
    child = _child(KILLABLE, src, out, stdout=subprocess.PIPE)
    try:
        assert child.stdout.readline().strip() == "start"
        lines = int(rng.integers(1, 38))  # 40 chunks: kill after a random number of them ...
        for _ in range(lines):
            if child.stdout.readline().strip() in ("", "end"):
                break
        time.sleep(float(rng.uniform(0, 0.05)))  # ... plus a random part of the next one
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=120)
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    assert out.exists()
    ds = xr.open_zarr(out)
    assert {ds[v].sizes["time"] for v in ds.data_vars} == {ds.sizes["time"]}
    assert "incomplete" in ds.attrs["streamtk_incomplete"] and ds.attrs["windows"] == [10, 300]
    rows = ds.attrs["streamtk_rows_done"]
    ref_ds = xr.open_zarr(ref)
    xr.testing.assert_identical(ds.accuracy[..., :rows].load(), ref_ds.accuracy[..., :rows].load())
    evaluate_store(src, out=out, y_score="y_score", resume=True, **opts)
    assert store_files(out) == store_files(ref)
    assert not state_path(out).exists()


# ----------------------------------------------------------------------------- full disk

FULL_DISK = """
import resource, sys, traceback
import numpy as np
from streamtk import io as sio
kind, path, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = np.random.default_rng(0)
n = 100_000
log = sio.make_log(rng.integers(0, 3, n), rng.integers(0, 3, (2, n)), y_score=rng.random((2, n, 3)), classes=[0, 1, 2])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
try:
    if kind == "csv": sio.write_csv(log, path)
    elif kind == "npz": sio.write_npz(log, path)
    elif kind == "parquet": sio.write_parquet(log, path)
    elif kind == "netcdf": sio.to_netcdf(log, path)
    elif kind == "zarr": sio.to_zarr(log, path)
    elif kind == "figure":
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from streamtk.io.atomic import save_figure
        fig, ax = plt.subplots(figsize=(40, 40), dpi=100)
        ax.imshow(rng.random((400, 400)))
        save_figure(fig, path)
except OSError as exc:
    print(type(exc).__name__, "|", exc)
    sys.exit(3)
print("no error")
"""


@pytest.mark.parametrize(
    "kind, name",
    [
        ("csv", "log.csv"),
        ("csv", "log.csv.gz"),
        ("npz", "log.npz"),
        ("parquet", "log.parquet"),
        ("netcdf", "log.nc"),
        ("zarr", "log.zarr"),
        ("figure", "fig.png"),
    ],
)
def test_a_writer_on_a_full_disk_keeps_the_old_file_and_names_it(tmp_path, kind, name):
    from streamtk import io as sio

    path = tmp_path / name
    if kind == "zarr":
        sio.to_zarr(sio.make_log([0, 1, 2], [0, 1, 1]), path)
        before = store_files(path)
    elif kind == "figure":
        path.write_bytes(b"an old figure")
        before = path.read_bytes()
    else:
        writer = {"csv": sio.write_csv, "npz": sio.write_npz, "parquet": sio.write_parquet, "netcdf": sio.to_netcdf}
        writer[kind](sio.make_log([0, 1, 2], [0, 1, 1]), path)
        before = path.read_bytes()
    child = _child(FULL_DISK, kind, path, 200_000, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = child.communicate(timeout=300)
    assert child.returncode == 3, (out, err)
    assert out.startswith("WriteError | ") and f"cannot write {path}: " in out, out
    assert ("size limit" in out or "HDF error" in out) and "nothing was changed" in out
    after = store_files(path) if kind == "zarr" else path.read_bytes()
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # no temporary left
    if kind != "figure":
        sio.read_log(path) if kind != "zarr" else open_dataset(path)  # still a readable log


GROWING = f"""
import resource, sys
from streamtk.runners.outofcore import evaluate_store
src, out, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
try:
    evaluate_store(src, out=out, y_score="y_score", save_every=0, overwrite=True, **{{**{OPTS}, "chunk": 400}})
except OSError as exc:
    print(type(exc).__name__, "|", exc)
    sys.exit(3)
print("no error")
"""


@pytest.mark.slow
def test_evaluate_store_on_a_full_disk_stops_consistent_and_resumes(tmp_path):
    """The resume state grows with the distinct scores the exact AUC keeps: a save fails part way."""
    rng = np.random.default_rng(4)
    n = 8000
    y = rng.integers(0, 3, n)
    log = xr.Dataset(
        {
            "y_true": ("time", y),
            "y_pred": (("model", "time"), np.where(rng.random((2, n)) < 0.7, y, 0)),
            "y_score": (("model", "time", "class"), rng.random((2, n, 3))),  # every score distinct
        }
    )
    src = write_log(log, tmp_path / "log.zarr")
    opts = {**eval(OPTS), "chunk": 400}  # noqa: S307 - our own literal, shared with the child
    ref = tmp_path / "ref.zarr"
    evaluate_store(src, out=ref, y_score="y_score", **opts)
    out = tmp_path / "curves.zarr"
    evaluate_store(src, out=out, y_score="y_score", **{**opts, "windows": [10]})  # an old store
    old = store_files(out)
    # too small for the first state: the old store is kept (nothing was changed)
    child = _child(GROWING, src, out, 100_000, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout, stderr = child.communicate(timeout=300)
    assert child.returncode == 3, (stdout, stderr)
    assert f"cannot write {out}.resume.pkl" in stdout and "nothing was changed" in stdout
    assert store_files(out) == old
    # room for the first states but not for the later ones: stops part way, incomplete and consistent
    child = _child(GROWING, src, out, 1_500_000, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout, stderr = child.communicate(timeout=300)
    assert child.returncode == 3, (stdout, stderr)
    assert f"cannot write {out}: " in stdout and "resume=True" in stdout, stdout
    ds = xr.open_zarr(out)
    assert "streamtk_incomplete" in ds.attrs and 0 < ds.attrs["streamtk_instances_done"] < n
    evaluate_store(src, out=out, y_score="y_score", resume=True, **opts)
    assert store_files(out) == store_files(ref)


CLI_FULL = """
import resource, sys
from streamtk.cli import main
limit = int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
sys.exit(main(["evaluate", sys.argv[1], "--window", "100", "--every", "1", "-o", sys.argv[2], "-q"]))
"""


def test_cli_on_a_full_disk_exits_2_with_one_line_naming_the_file(tmp_path):
    from streamtk import io as sio

    rng = np.random.default_rng(0)
    log = sio.write_csv(sio.make_log(rng.integers(0, 2, 20000), rng.integers(0, 2, 20000)), tmp_path / "run.csv")
    out = tmp_path / "curves.nc"
    out.write_bytes(b"old curves")
    child = _child(CLI_FULL, log, out, 300_000, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout, stderr = child.communicate(timeout=300)
    lines = stderr.strip().splitlines()
    assert child.returncode == 2 and len(lines) == 1, stderr
    assert lines[0].startswith(f"streamtk evaluate: error: cannot write {out}: ") and "nothing was changed" in lines[0]
    assert out.read_bytes() == b"old curves"
