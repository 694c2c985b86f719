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
def test_quickstart_runs_as_written_and_saves_its_figure(data_dir, tmp_path, monkeypatch):
    # the README's code exactly as written: Electricity comes from streamtk.datasets ($STREAMTK_DATA or the cache)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot  # noqa: F401 - closed below whatever the README code did

    pytest.importorskip("river", reason="river is in the test extra")
    from ._moa import import_capymoa

    import_capymoa()
    monkeypatch.setenv("STREAMTK_DATA", str(data_dir))
    monkeypatch.chdir(tmp_path)
    code = quickstart_code()
    scope = {"__name__": "__main__"}
    try:
        exec(compile(code, str(README), "exec"), scope)  # noqa: S102 - the README's own code
        ax = matplotlib.pyplot.gca()
        assert [ln.get_label() for ln in ax.get_lines()[:2]] == ["HT (MOA)", "NB (river)"]
    finally:
        matplotlib.pyplot.close("all")
    png = tmp_path / "kappa.png"
    assert png.is_file() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    assert (tmp_path / "curves.nc").is_file() and (tmp_path / "elec.arff").is_file()
    curves = scope["curves"]
    assert list(curves.model.values) == ["HT (MOA)", "NB (river)"]
    assert curves.sizes["time"] > 1 and int(curves.instance.values[-1]) == 45312  # the whole stream
