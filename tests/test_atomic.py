"""streamtk.io.atomic: a write replaces its target only when complete; on any failure the old file is
intact, no temporary is left and (for disk failures) the error names the target."""

from __future__ import annotations

import errno
import os

import numpy as np
import pytest
import xarray as xr

from streamtk import io as sio
from streamtk.io.atomic import WriteError, atomic_open, atomic_path, save_figure


class Boom(Exception):
    pass


def _names(folder):
    return sorted(p.name for p in folder.iterdir())


def test_success_replaces_and_failure_keeps_the_old_file(tmp_path):
    target = tmp_path / "f.txt"
    target.write_text("old")
    with pytest.raises(Boom):
        with atomic_open(target, "w") as fh:
            fh.write("half of the new")
            raise Boom
    assert target.read_text() == "old" and _names(tmp_path) == ["f.txt"]
    with atomic_open(target, "w") as fh:
        fh.write("new")
    assert target.read_text() == "new" and _names(tmp_path) == ["f.txt"]


def test_a_disk_error_becomes_a_write_error_naming_the_target(tmp_path):
    target = tmp_path / "f.bin"
    target.write_bytes(b"old")
    with pytest.raises(WriteError) as info:
        with atomic_path(target) as tmp:
            tmp.write_bytes(b"partial")
            raise OSError(errno.ENOSPC, "No space left on device")
    err = info.value
    assert isinstance(err, OSError) and err.errno == errno.ENOSPC and err.filename == str(target)
    assert (
        str(err) == f"cannot write {target}: the disk is full (No space left on device); nothing was changed "
        "(an existing file there is intact)"
    )
    assert target.read_bytes() == b"old" and _names(tmp_path) == ["f.bin"]


def test_the_temporary_keeps_the_suffix_and_lives_beside_the_target(tmp_path):
    with atomic_path(tmp_path / "log.csv.gz") as tmp:
        assert tmp.parent == tmp_path and tmp.name.endswith(".log.csv.gz") and tmp.name.startswith(".")
        tmp.write_bytes(b"x")


@pytest.mark.parametrize("exchange", [True, False])
def test_folders_are_swapped_whole(tmp_path, monkeypatch, exchange):
    """With renameat2(RENAME_EXCHANGE) where the system has it, else with two renames."""
    import streamtk.io.atomic as atomic

    if not exchange:
        monkeypatch.setattr(atomic, "_exchange", lambda a, b: False)
    old = tmp_path / "s.zarr"
    sio.to_zarr(xr.Dataset({"a": ("t", [1, 2, 3])}), old)
    with pytest.raises(Boom):
        with atomic_path(old, folder=True) as tmp:
            tmp.mkdir()
            (tmp / ".zgroup").write_text("{}")
            raise Boom
    assert sio.open_dataset(old).a.values.tolist() == [1, 2, 3]
    sio.to_zarr(xr.Dataset({"b": ("t", [4.0])}), old)
    got = sio.open_dataset(old)
    assert "a" not in got and got.b.values.tolist() == [4.0] and _names(tmp_path) == ["s.zarr"]


@pytest.mark.parametrize("fmt", ["csv", "csv.gz", "npz", "parquet", "nc"])
def test_writers_keep_the_old_file_when_the_data_fails_part_way(tmp_path, monkeypatch, fmt):
    rng = np.random.default_rng(0)
    log = sio.make_log(rng.integers(0, 3, 100), rng.integers(0, 3, 100))
    path = tmp_path / f"log.{fmt}"
    writer = {"csv": sio.write_csv, "csv.gz": sio.write_csv, "npz": sio.write_npz, "parquet": sio.write_parquet}
    write = writer.get(fmt, sio.to_netcdf)
    write(log, path)
    before = path.read_bytes()
    real_replace = os.replace

    def failing(*a, **k):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(WriteError, match=f"cannot write {path}: Input/output error"):
        write(log.isel(time=slice(0, 50)), path)
    monkeypatch.setattr(os, "replace", real_replace)
    assert path.read_bytes() == before and _names(tmp_path) == [path.name]


def test_gzip_output_is_deterministic_in_name(tmp_path):
    """The gzip header names the target, not the temporary."""
    import gzip

    path = tmp_path / "log.csv.gz"
    sio.write_csv(sio.make_log([0, 1], [0, 1]), path)
    with open(path, "rb") as fh:
        header = fh.read(64)
    assert b"log.csv\x00" in header and b"partial" not in header
    with gzip.open(path, "rt") as fh:
        assert fh.readline().startswith("y_true")


def test_save_figure(tmp_path):
    pytest.importorskip("matplotlib", reason="the atomic figure writer needs matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot([0, 1])
    path = save_figure(fig, tmp_path / "f.png", dpi=50)
    plt.close(fig)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and _names(tmp_path) == ["f.png"]
