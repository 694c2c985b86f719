"""``benchmarks/bench_versions.py --against``: the old checkout becomes an importable ``streamtk_before``."""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _module():
    # importing the script must not touch the environment (numba refuses a thread count that changes
    # once its threads run: a NUMBA_NUM_THREADS set here broke every later parallel test)
    before = dict(os.environ)
    spec = importlib.util.spec_from_file_location("bench_versions", ROOT / "benchmarks" / "bench_versions.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert dict(os.environ) == before
    return mod


def test_importable_copy_renames_absolute_imports_and_is_reused(tmp_path, monkeypatch):
    old = tmp_path / "checkout" / "streamtk"
    (old / "sub").mkdir(parents=True)
    (old / "__init__.py").write_text("from streamtk.sub import value\nfrom .sub import value as same\n")
    (old / "sub" / "__init__.py").write_text("import streamtk\nvalue = 41 + 1\n\ndef package():\n    return streamtk\n")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    bv = _module()
    folder = bv.importable_copy(tmp_path / "checkout")
    assert folder.name.startswith("streamtk_before-")
    text = (folder / "streamtk_before" / "sub" / "__init__.py").read_text()
    assert "import streamtk_before as streamtk\n" in text and "streamtk.sub" not in text
    monkeypatch.syspath_prepend(str(folder))
    try:
        pkg = importlib.import_module("streamtk_before")
        assert pkg.value == pkg.same == 42
        assert pkg.sub.package() is pkg  # the renamed package, not the installed streamtk
    finally:
        for name in [m for m in sys.modules if m.startswith("streamtk_before")]:
            del sys.modules[name]
    assert bv.importable_copy(tmp_path / "checkout") == folder  # same files: the copy is reused
    assert len(list((tmp_path / "tmp").iterdir())) == 1
