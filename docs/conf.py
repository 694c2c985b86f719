"""Sphinx configuration of the streamtk documentation (``python -m sphinx -W -b html docs docs/_build/html``).

The API reference comes from the numpydoc docstrings (autodoc + napoleon); the tutorials are the
notebooks of ``notebooks/``, rendered from their stored outputs (myst-nb, never executed here),
copied into ``docs/tutorials/`` at build time.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import streamtk  # noqa: E402

project = "streamtk"
author = "streamtk developers"
release = version = streamtk.__version__

extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "myst_nb"]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
nb_execution_mode = "off"  # the notebooks carry their outputs
myst_enable_extensions = ["dollarmath"]
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
autodoc_member_order = "bysource"
autodoc_typehints = "none"
html_theme = "alabaster"
html_title = f"streamtk {version}"
suppress_warnings = ["myst.header"]

# the tutorials: copies of ../notebooks (rendered, not executed)
_TUT = Path(__file__).parent / "tutorials"
_TUT.mkdir(exist_ok=True)
for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
    target = _TUT / nb.name
    if not target.exists() or target.read_bytes() != nb.read_bytes():
        shutil.copyfile(nb, target)
