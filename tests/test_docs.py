"""The documentation site builds with warnings as errors: API reference from the docstrings, the tutorials
rendered from their stored outputs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_docs_build_without_warnings(tmp_path):
    pytest.importorskip("sphinx", reason="sphinx is in the test extra")
    pytest.importorskip("myst_nb", reason="myst-nb is in the test extra")
    out = tmp_path / "html"
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html", "-d", str(tmp_path / "doctrees"),
         str(REPO / "docs"), str(out)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    api = (out / "api.html").read_text()
    for name in ("streamtk.recorders.record", "streamtk.io.from_capymoa", "streamtk.plot.facet_curves"):
        assert f'id="{name}"' in api, name
    for nb in sorted((REPO / "notebooks").glob("*.ipynb")):
        page = (out / "tutorials" / f"{nb.stem}.html").read_text()
        assert "<img" in page, f"{nb.stem}: no figure rendered from the stored outputs"
