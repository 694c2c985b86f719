"""evaluate_store: never destroys data, a run stopped at any point leaves a consistent incomplete store,
and ``resume=True`` finishes it with exactly the bytes of an uninterrupted run.

Oracles: the uninterrupted run's store (every file compared byte for byte; the group attributes
compared without ``created``), ``streamtk.evaluate`` on the whole log, and the stated rounding
bound of chunked ADWIN estimators. Stops are simulated in process at every atomic rename the run
makes (the only moments at which the files on disk change state); ``tests/test_faults.py``
kills real processes with SIGKILL at random moments.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import threading
from pathlib import Path

import numpy as np
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st

import streamtk
from streamtk.drift.adwin import Adwin
from streamtk.drift.ddm import DDM
from streamtk.io import LogFormatError, open_dataset, to_netcdf, to_zarr
from streamtk.io.netcdf import incomplete_marker
from streamtk.runners._resume import state_path
from streamtk.runners.outofcore import evaluate_store

OPTS = dict(classes=[0, 1, 2], windows=[10, 300], fading=0.99, adwin=0.01, every=7, chunk=400, out_chunk=32)


def make_log(n=3000, seed=0, scores=True, weights=False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    p = np.where(rng.random((2, n)) < 0.7, y, rng.integers(0, 3, (2, n)))
    log = xr.Dataset({"y_true": ("time", y), "y_pred": (("model", "time"), p)}, coords={"model": ["a", "b"]})
    if scores:
        log["y_score"] = (("model", "time", "class"), rng.random((2, n, 3)))
    if weights:
        log["weights"] = ("time", rng.random(n) * 2)
    return log


def write_log(log, path):
    enc = {
        v: {"chunks": tuple(500 if d == "time" else s for d, s in zip(log[v].dims, log[v].shape))}
        for v in log.data_vars
    }
    log.to_zarr(path, zarr_format=2, encoding=enc, write_empty_chunks=True)
    return path


def store_files(path: Path) -> dict:
    """Every file of a store: bytes, except the group attributes, parsed and without ``created``.

    zarr's own temporaries (``<key>.<32 hex>.partial``), which a kill can leave and no reader
    looks at, are not part of the store."""
    out = {}
    for root, _, files in os.walk(path):
        for f in files:
            if re.fullmatch(r".*\.[0-9a-f]{32}\.partial", f):
                continue
            full = Path(root, f)
            rel = str(full.relative_to(path))
            data = full.read_bytes()
            if rel in (".zattrs", ".zmetadata"):
                obj = json.loads(data)
                attrs = obj["metadata"][".zattrs"] if rel == ".zmetadata" else obj
                attrs.pop("created", None)
                data = obj
            out[rel] = data
    return out


def _differences(a, b, path=""):
    """Where two nested dicts differ (for failure messages)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for key in sorted(set(a) | set(b)) for d in _differences(a.get(key), b.get(key), f"{path}/{key}")]
    return [] if a == b else [(path, str(a)[:80], str(b)[:80])]


class Stop(Exception):
    """A simulated crash."""


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    return write_log(make_log(), tmp_path_factory.mktemp("log") / "log.zarr")


@pytest.fixture(scope="module")
def reference(source, tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "curves.zarr"
    evaluate_store(source, out=out, y_score="y_score", save_every=0, **OPTS)
    return out


# ----------------------------------------------------------------------------- refusing to destroy data


@pytest.mark.parametrize("where", ["same", "inside", "holds"])
def test_refuses_an_output_that_is_or_holds_the_input(tmp_path, where):
    log = write_log(make_log(200, scores=False), tmp_path / "log.zarr")
    before = store_files(log)
    out = {"same": log, "inside": log / "curves.zarr", "holds": tmp_path}[where]
    for kw in ({}, {"overwrite": True}):
        with pytest.raises(ValueError, match=r"out=.*(is the input log|inside the input log|holds the input log)"):
            evaluate_store(log, out=out, classes=[0, 1, 2], **kw)
    assert store_files(log) == before


def test_refuses_an_output_that_is_the_netcdf_input_also_when_opened(tmp_path):
    path = to_netcdf(make_log(200, scores=False), tmp_path / "log.nc")
    before = path.read_bytes()
    with pytest.raises(ValueError, match="is the input log"):
        evaluate_store(path, out=path, overwrite=True, classes=[0, 1, 2])
    with xr.open_dataset(path) as opened:
        with pytest.raises(ValueError, match="is the input log"):
            evaluate_store(opened, out=path, overwrite=True, classes=[0, 1, 2])
    assert path.read_bytes() == before


def test_existing_output_needs_overwrite_and_only_replaces_stores(tmp_path):
    log = make_log(300, scores=False)
    folder = tmp_path / "results"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    with pytest.raises(FileExistsError, match="already exists; pass overwrite=True"):
        evaluate_store(log, out=folder, classes=[0, 1, 2])
    with pytest.raises(FileExistsError, match="not a zarr store and not empty"):
        evaluate_store(log, out=folder, classes=[0, 1, 2], overwrite=True)
    assert (folder / "notes.txt").read_text() == "mine"
    a_file = tmp_path / "curves.zarr"
    a_file.write_text("a file")
    with pytest.raises(FileExistsError, match="a file"):
        evaluate_store(log, out=a_file, classes=[0, 1, 2], overwrite=True)
    assert a_file.read_text() == "a file"
    empty = tmp_path / "empty.zarr"
    empty.mkdir()  # an empty folder holds no data: used without overwrite
    evaluate_store(log, out=empty, classes=[0, 1, 2], windows=5)
    old = tmp_path / "old.zarr"
    to_zarr(xr.Dataset({"x": ("t", [1, 2])}), old)
    got = evaluate_store(log, out=old, classes=[0, 1, 2], windows=5, overwrite=True)
    assert "x" not in got and "accuracy" in got


def test_bad_resume_and_overwrite_arguments(tmp_path, source):
    with pytest.raises(ValueError, match="contradict"):
        evaluate_store(source, out=tmp_path / "c.zarr", resume=True, overwrite=True)
    with pytest.raises(ValueError, match="resume=True applies to out="):
        evaluate_store(source, resume=True)
    with pytest.raises(TypeError, match="overwrite must be True or False, got 'yes'"):
        evaluate_store(source, out=tmp_path / "c.zarr", overwrite="yes")
    with pytest.raises(ValueError, match="save_every must be None or a number of seconds >= 0, got -1"):
        evaluate_store(source, out=tmp_path / "c.zarr", save_every=-1)


# ----------------------------------------------------------------------------- stop, then resume


def _stopper(at):
    def progress(done, total):
        if done >= at:
            raise Stop

    return progress


def _assert_consistent_incomplete(out: Path, n: int):
    """The stopped store opens, its curve arrays agree in length, it says it is incomplete, rows written
    match the marker, and open_dataset refuses it."""
    ds = xr.open_zarr(out)
    lengths = {ds[v].sizes["time"] for v in ds.data_vars if "time" in ds[v].dims}
    assert lengths == {ds.sizes["time"]}
    assert "streamtk_incomplete" in ds.attrs and f"of {n} instances done" in ds.attrs["streamtk_incomplete"]
    done, rows = ds.attrs["streamtk_instances_done"], ds.attrs["streamtk_rows_done"]
    assert 0 < done <= n and 0 <= rows <= ds.sizes["time"]
    assert ds.attrs["windows"] == [10, 300]  # the parameters are there
    assert not np.isnan(ds.accuracy.values[..., :rows]).any()
    with pytest.raises(LogFormatError, match="incomplete"):
        open_dataset(out)
    return done, rows


@pytest.mark.parametrize("stop_at", [400, 1200, 3000])
def test_stopped_then_resumed_equals_uninterrupted(tmp_path, source, reference, stop_at):
    out = tmp_path / "curves.zarr"
    with pytest.raises(Stop):
        evaluate_store(source, out=out, y_score="y_score", save_every=0, progress=_stopper(stop_at), **OPTS)
    done, _ = _assert_consistent_incomplete(out, 3000)
    assert done == min(stop_at, 2800)  # saved after every chunk but the last (which finishes the store)
    first_start = xr.open_zarr(out).attrs["created"]
    seen = []
    got = evaluate_store(source, out=out, y_score="y_score", resume=True, progress=lambda d, t: seen.append(d), **OPTS)
    assert seen[0] == min(done + 400, 3000)  # continued from the saved chunk, not from the start
    assert store_files(out) == store_files(reference)
    assert not state_path(out).exists()
    assert got.attrs["created"] == first_start == xr.open_zarr(out).attrs["created"]
    xr.testing.assert_identical(open_dataset(out).drop_attrs(), open_dataset(reference).drop_attrs())


def _copy_unless_gone(src, dst):
    """Copy a file of the snapshot; a temporary that zarr's own writer threads removed meanwhile is left out
    (zarr 3 writes chunks from worker threads; a vanished temporary is never part of a kill state that
    matters: temporaries are removed on resume)."""
    try:
        return shutil.copy2(src, dst)
    except FileNotFoundError:
        return dst


@pytest.mark.slow
def test_a_kill_before_any_rename_leaves_a_resumable_store(tmp_path, monkeypatch):
    """Files change state on disk only when a finished temporary is renamed into place (zarr's local
    store and streamtk.io.atomic both write beside and rename). Snapshot the run's folder right before
    every rename (no other rename can happen during the copy) -- exactly the states a SIGKILL can
    leave -- and check that each one opens consistently and resumes to the uninterrupted bytes."""
    log = write_log(make_log(600, seed=3, scores=False), tmp_path / "log.zarr")
    opts = dict(
        classes=[0, 1, 2], windows=10, adwin=0.05, every=5, chunk=150, out_chunk=32, metrics=["accuracy", "kappa"]
    )
    ref = tmp_path / "ref" / "c.zarr"
    ref.parent.mkdir()
    evaluate_store(log, out=ref, save_every=0, **opts)
    run = tmp_path / "run"
    run.mkdir()
    lock = threading.Lock()
    snapshots = []

    def snapshotting(real):
        def f(*a, **kw):
            with lock:
                snap = tmp_path / f"snap{len(snapshots)}"
                shutil.copytree(run, snap, symlinks=True, copy_function=_copy_unless_gone)
                snapshots.append(snap)
                return real(*a, **kw)

        return f

    monkeypatch.setattr(os, "replace", snapshotting(os.replace))
    monkeypatch.setattr(os, "rename", snapshotting(os.rename))
    evaluate_store(log, out=run / "c.zarr", save_every=0, **opts)
    monkeypatch.undo()
    assert len(snapshots) > 20
    outcomes = set()
    for k, snap in enumerate(snapshots):
        out = snap / "c.zarr"
        if not out.exists():  # killed before the store was renamed into place: the run starts again
            outcomes.add("no store")
            evaluate_store(log, out=out, resume=True, save_every=0, **opts)
        elif incomplete_marker(out) is not None:  # in the group attributes or the consolidated metadata
            outcomes.add("incomplete")
            ds = xr.open_zarr(out)  # opens; the curve arrays have one length
            assert {ds[v].sizes["time"] for v in ds.data_vars} == {ds.sizes["time"]}
            evaluate_store(log, out=out, resume=True, save_every=0, **opts)
        else:  # complete; zarr may still rewrite metadata files with the same content
            outcomes.add("complete")
            open_dataset(out)
        got, want = store_files(out), store_files(ref)
        assert got == want, (f"killed before rename {k + 1} of {len(snapshots)}", _differences(got, want))
        assert not [p for p in snap.iterdir() if p.name != "c.zarr" and not p.name.endswith(".resume.pkl")]
    assert outcomes == {"no store", "incomplete", "complete"}


def test_resume_with_detectors_weights_and_text_labels(tmp_path):
    rng = np.random.default_rng(5)
    n = 2500
    y = rng.choice(np.array(["no", "yes", "maybe"], dtype=object), n)
    p = np.where(rng.random((2, n)) < 0.6, y, rng.choice(np.array(["no", "yes", "maybe"], dtype=object), (2, n)))
    log = xr.Dataset({"y_true": ("time", y), "y_pred": (("model", "time"), p), "weights": ("time", rng.random(n))})
    src = to_zarr(log, tmp_path / "log.zarr")
    opts = dict(windows=50, adwin=0.05, every=11, chunk=256, out_chunk=16, weights="weights")
    dets = lambda: {"adwin": Adwin(delta=0.05), "ddm": DDM(trace=False)}  # noqa: E731
    ref = tmp_path / "ref.zarr"
    evaluate_store(src, out=ref, detectors=dets(), **opts)
    out = tmp_path / "c.zarr"
    with pytest.raises(Stop):
        evaluate_store(src, out=out, detectors=dets(), save_every=0, progress=_stopper(1500), **opts)
    evaluate_store(src, out=out, detectors=dets(), resume=True, **opts)  # classes from the first run
    assert store_files(out) == store_files(ref)
    assert "adwin_detection_index" in xr.open_zarr(out)


def test_resume_refuses_other_arguments(tmp_path, source):
    out = tmp_path / "c.zarr"
    with pytest.raises(Stop):
        evaluate_store(source, out=out, save_every=0, progress=_stopper(800), **OPTS)
    for change, needle in [
        ({"windows": [10, 200]}, "windows differs"),
        ({"chunk": 200}, "chunk differs"),
        ({"classes": [0, 1, 2, 3]}, "classes differs"),
        ({"every": 3}, "every differs"),
        ({"detectors": {"d": DDM(trace=False)}}, "detectors differs"),
    ]:
        with pytest.raises(ValueError, match=f"resume=True, but {needle} from the interrupted run"):
            evaluate_store(source, out=out, resume=True, **{**OPTS, **change})
    with pytest.raises(FileExistsError, match="already exists"):
        evaluate_store(source, out=out, **OPTS)
    state_path(out).unlink()
    with pytest.raises(ValueError, match=r"resume.pkl is missing"):
        evaluate_store(source, out=out, resume=True, **OPTS)


def test_resume_of_a_complete_store_is_refused(tmp_path, source):
    out = tmp_path / "c.zarr"
    evaluate_store(source, out=out, **OPTS)
    with pytest.raises(ValueError, match="is complete: there is nothing to resume"):
        evaluate_store(source, out=out, resume=True, **OPTS)


def test_resume_without_a_store_starts_from_the_beginning(tmp_path, source, reference):
    out = tmp_path / "c.zarr"
    evaluate_store(source, out=out, resume=True, y_score="y_score", **OPTS)
    assert store_files(out) == store_files(reference)


def test_state_of_another_version_is_refused(tmp_path, source, monkeypatch):
    import streamtk.runners._resume as resume_mod

    out = tmp_path / "c.zarr"
    with pytest.raises(Stop):
        evaluate_store(source, out=out, save_every=0, progress=_stopper(800), **OPTS)
    monkeypatch.setattr(resume_mod, "__version__", "999.0")
    with pytest.raises(ValueError, match="written by streamtk .* and this is streamtk 999.0"):
        evaluate_store(source, out=out, resume=True, **OPTS)


# ----------------------------------------------------------------------------- damaged logs


def test_missing_or_damaged_log_chunks_are_named(tmp_path):
    log = write_log(make_log(1500, scores=False), tmp_path / "log.zarr")
    (log / "y_pred" / "0.1").unlink()
    with pytest.raises(
        LogFormatError, match=r"log.zarr, chunk 0.1, instances 501-1000, column 'y_pred': the chunk is missing"
    ):
        evaluate_store(log, classes=[0, 1, 2])
    log2 = write_log(make_log(1500, scores=False), tmp_path / "log2.zarr")
    chunk = log2 / "y_true" / "2"
    chunk.write_bytes(chunk.read_bytes()[:20])
    with pytest.raises(LogFormatError, match=r"log2.zarr, instances 1001-1500, column 'y_true': cannot read the data"):
        evaluate_store(log2, classes=[0, 1, 2], chunk=500)


# ----------------------------------------------------------------------------- exactness of adwin= (the stated bound)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**16), chunk=st.integers(40, 3000), weighted=st.booleans())
def test_adwin_estimates_agree_with_one_pass_within_the_stated_bound(seed, chunk, weighted):
    rng = np.random.default_rng(seed)
    n = 6000
    y = rng.integers(0, 2, n)
    p = np.where(rng.random((2, n)) < 0.8, y, 1 - y)
    s = rng.random((2, n))
    w = rng.random(n) * 3 if weighted else None
    log = xr.Dataset({"y_true": ("time", y), "y_pred": (("model", "time"), p), "y_score": (("model", "time"), s)})
    if weighted:
        log["weights"] = ("time", w)
    metrics = ["accuracy", "kappa", "brier", "log_loss", "n_instances"]
    opts = dict(adwin=[0.002, 0.5], windows=40, every=13, metrics=metrics)
    got = evaluate_store(
        log, chunk=chunk, classes=[0, 1], y_score="y_score", weights="weights" if weighted else None, **opts
    )
    ref = streamtk.evaluate(y, p, y_score=s, weights=w, **opts)
    t = ref.instance.values
    wt = np.ones(n) if w is None else w
    prefix_w = np.cumsum(wt)[t - 1]
    window_w = ref.n_instances.values * (prefix_w / t)  # the window's weight, to the precision needed here
    eps = np.finfo(float).eps
    for m, xmax in [("accuracy", 1.0), ("kappa", 4.0), ("brier", 1.0), ("log_loss", 35.0)]:
        diff = np.abs(got[m].values - ref[m].values)
        bound = 64 * eps * prefix_w * xmax / window_w
        ok = np.isnan(diff) & np.isnan(ref[m].values) | (diff <= bound)
        assert ok.all(), (m, float(np.nanmax(diff / bound)))
    if not weighted:  # integer-valued sums: bit-identical
        for m in ("accuracy", "kappa", "n_instances"):
            np.testing.assert_array_equal(got[m].values, ref[m].values)
    sel = {"estimator": [e for e in ref.estimator.values if not e.startswith("adwin")]}
    for m in metrics:  # prequential, window and fading: bit-identical always
        np.testing.assert_array_equal(got[m].sel(sel).values, ref[m].sel(sel).values)
