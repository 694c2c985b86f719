"""The README's quickstart runs as written (on Electricity from $STREAMTK_DATA) and draws every model."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def quickstart_code() -> str:
    text = README.read_text()
    section = text[text.index("### Quickstart") :]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_quickstart_is_short():
    lines = [ln for ln in quickstart_code().splitlines() if ln.strip()]
    assert len(lines) < 15, lines


@pytest.mark.slow
def test_quickstart_runs(data_dir, tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    pytest.importorskip("river", reason="river is in the test extra")
    from ._moa import import_capymoa

    import_capymoa()
    arff = data_dir / "elec2" / "elecNormNew.arff"
    monkeypatch.chdir(tmp_path)
    code = quickstart_code().replace('"elecNormNew.arff"', repr(str(arff)))
    scope = {}
    exec(compile(code, str(README), "exec"), scope)  # noqa: S102 - the README's own code
    assert (tmp_path / "curves.nc").is_file()
    assert list(scope["curves"].model.values) == ["HT (MOA)", "NB (river)"]
    ax = matplotlib.pyplot.gca()
    assert [ln.get_label() for ln in ax.get_lines()[:2]] == ["HT (MOA)", "NB (river)"]
