"""Install hygiene: compiled kernels are cached per user (never in the package folder), a corrupt cache
entry is recompiled with a warning, and install / uninstall / editable reinstall leave no folder that
shadows the package."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ._venv import inner_venv

ROOT = Path(__file__).resolve().parent.parent
SNIPPET = textwrap.dedent(
    """
    import numpy as np, streamtk
    ds = streamtk.evaluate(np.array([0, 1, 1, 0]), np.array([0, 1, 0, 0]), windows=[2], metrics=["accuracy"])
    print(ds.accuracy.values[1].tolist())
    """
)


def _run(env, cwd, code=SNIPPET):
    full = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    full.update(env)
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=full, capture_output=True, text=True)


def _kernel_files(folder):
    return sorted(p for p in Path(folder).rglob("*") if p.suffix in (".nbi", ".nbc"))


@pytest.mark.slow
def test_compiled_kernels_go_to_the_user_cache_not_the_package(tmp_path):
    before = set(_kernel_files(ROOT / "streamtk"))
    r = _run({"STREAMTK_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[1.0, 1.0, 0.5, 0.5]"
    assert set(_kernel_files(ROOT / "streamtk")) == before  # nothing new next to the sources
    cached = _kernel_files(tmp_path / "cache")
    assert cached and all("numba-" in str(p) for p in cached)


@pytest.mark.slow
def test_numba_cache_dir_is_respected(tmp_path):
    r = _run({"STREAMTK_CACHE": str(tmp_path / "ours"), "NUMBA_CACHE_DIR": str(tmp_path / "theirs"),
              "PYTHONPATH": str(ROOT)}, tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert _kernel_files(tmp_path / "theirs") and not _kernel_files(tmp_path / "ours")


@pytest.mark.slow
def test_a_corrupt_cache_entry_is_compiled_again_with_a_warning(tmp_path):
    env = {"STREAMTK_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    assert _run(env, tmp_path).returncode == 0
    files = _kernel_files(tmp_path / "cache")
    for p in files:  # truncate every index and data file
        p.write_bytes(b"\x80garbage")
    r = _run(env, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[1.0, 1.0, 0.5, 0.5]"
    assert "could not be read" in r.stderr and "compiled again" in r.stderr
    r = _run(env, tmp_path)  # the fresh compilation was saved: no warning the third time
    assert r.returncode == 0 and "could not be read" not in r.stderr, r.stderr


@pytest.mark.slow
def test_install_uninstall_editable_reinstall_leave_no_shadowing_folder(tmp_path):
    py = inner_venv(tmp_path / "venv")  # works from a virtualenv too (see tests/_venv.py)
    pip = [str(py), "-m", "pip", "install", "--no-deps", "-q"]  # build isolation: setuptools>=68 and wheel
    env = {"STREAMTK_CACHE": str(tmp_path / "cache"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    full = {**{k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}, **env}

    def run(*cmd, cwd=tmp_path):
        r = subprocess.run(cmd, cwd=cwd, env=full, capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr
        return r.stdout

    site = Path(run(str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip())
    run(*pip, str(ROOT))
    assert run(str(py), "-c", SNIPPET).strip() == "[1.0, 1.0, 0.5, 0.5]"  # from another folder
    assert not _kernel_files(site / "streamtk")
    run(str(py), "-m", "pip", "uninstall", "-y", "-q", "streamtk")
    assert not (site / "streamtk").exists()  # no orphan folder to shadow a later install
    run(*pip, "-e", str(ROOT))
    out = run(str(py), "-c", "import streamtk, streamtk.io; print(streamtk.__file__)")
    assert Path(out.strip()).resolve() == (ROOT / "streamtk" / "__init__.py").resolve()
    assert run(str(py), "-c", SNIPPET).strip() == "[1.0, 1.0, 0.5, 0.5]"


@pytest.mark.slow
def test_the_cache_folder_follows_every_kernel_source(tmp_path):
    # numba only checks a cached function against its own file: an edited helper in another kernel
    # file must not reuse its callers' stale machine code, so the folder is keyed by all the sources
    import shutil

    from streamtk._kernels._cache import sources_tag

    copy = tmp_path / "_kernels"
    shutil.copytree(ROOT / "streamtk" / "_kernels", copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = sources_tag(copy)
    assert sources_tag.__wrapped__(copy) == before  # deterministic
    helper = copy / "forgetting.py"
    helper.write_text(helper.read_text() + "\n# an edit\n")
    edited = sources_tag.__wrapped__(copy)
    assert edited != before
    (copy / "new_family.py").write_text("")
    assert sources_tag.__wrapped__(copy) not in (before, edited)
    r = _run({"STREAMTK_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}, tmp_path)
    assert r.returncode == 0, r.stderr
    (folder,) = (tmp_path / "cache").iterdir()
    assert folder.name.endswith("-" + sources_tag()), folder.name


def test_each_process_names_its_compiled_functions_apart(tmp_path):
    # numba names the helpers compiled into a cached kernel by a per-process counter; kernels cached by two
    # processes and loaded by a third must not carry equal names for different bodies (numba issue 10486,
    # a segfault seen with two caches in one process), so each process starts the counter at random
    code = "import streamtk; from numba.core.bytecode import FunctionIdentity as F; print(next(F._unique_ids))"
    firsts = []
    for _ in range(2):
        r = _run({"STREAMTK_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}, tmp_path, code)
        assert r.returncode == 0, r.stderr
        firsts.append(int(r.stdout))
    assert firsts[0] != firsts[1]
    assert min(firsts) >= 2**40
    r = _run({"STREAMTK_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}, tmp_path)  # from the cache
    assert r.returncode == 0 and r.stdout.strip() == "[1.0, 1.0, 0.5, 0.5]", r.stderr
