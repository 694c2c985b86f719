"""A fresh virtualenv for install tests that sees the packages of the interpreter running the tests.

``python -m venv --system-site-packages`` is not that: a virtualenv is always made from the *base*
interpreter, so from inside a virtualenv (the way most users install) the new one sees the base
interpreter's packages, not the outer virtualenv's (``No module named 'xarray'``). Instead the new
virtualenv gets a ``.pth`` file listing the site directories of the running interpreter: their
packages import, but their own ``.pth`` files are not processed, so an editable streamtk of the
running interpreter stays invisible and the virtualenv's own streamtk (installed by the test) is the
one imported. pip comes from the running interpreter too (no ``ensurepip``: faster).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
from pathlib import Path

__all__ = ["inner_venv", "site_dirs", "source_copy"]


def site_dirs() -> list:
    """The site directories on the running interpreter's ``sys.path`` (virtualenv, base, user)."""
    dirs = []
    for entry in sys.path:
        p = Path(entry)
        if p.name in ("site-packages", "dist-packages") and p.is_dir() and str(p) not in dirs:
            dirs.append(str(p))
    return dirs


def inner_venv(path) -> Path:
    """Create a virtualenv at ``path`` that imports the running interpreter's packages; its python."""
    path = Path(path)
    venv.EnvBuilder(with_pip=False, system_site_packages=False).create(path)
    py = path / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    purelib = Path(subprocess.run([str(py), "-c", code], capture_output=True, text=True, check=True).stdout.strip())
    purelib.mkdir(parents=True, exist_ok=True)
    (purelib / "_streamtk_tests_outer_site.pth").write_text("\n".join(site_dirs()) + "\n")
    return py


def source_copy(root, dest) -> Path:
    """A copy of the source tree at ``dest`` to build from: pip builds in the tree it is given (``build/``,
    ``*.egg-info``), so two install tests running at once (pytest-xdist) must not build in the same one."""
    ignore = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", ".hypothesis", "*.nc",
                                    "*.zarr", "_cache", "output", ".venv", "venv*")  # fmt: skip
    shutil.copytree(root, dest, ignore=ignore, symlinks=True)
    return Path(dest)
