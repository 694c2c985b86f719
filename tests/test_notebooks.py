"""The tutorial notebooks: they start from a real recording, end with figures, carry their outputs (the
documentation renders them), say that the first call compiles, and run top to bottom without warnings."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def _read(path):
    nbformat = pytest.importorskip("nbformat", reason="nbformat is in the test extra")
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    return nb


def _code(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def test_there_are_tutorials():
    names = [p.stem for p in NOTEBOOKS]
    assert len(names) == 7, names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_starts_from_a_real_recording_and_says_it_compiles(path):
    nb = _read(path)
    first = "\n".join(c.source for c in _code(nb)[:3])
    assert any(f"{r}(" in first for r in ("record", "record_regression", "record_multilabel")), path.name
    assert "electricity" in first.lower(), path.name
    prose = " ".join(" ".join(c.source.split()) for c in nb.cells if c.cell_type == "markdown")
    assert prose.count("compiles its numba kernels") == 1, path.name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_carries_its_outputs_and_ends_with_figures(path):
    nb = _read(path)
    code = _code(nb)
    assert all(c.execution_count is not None for c in code), path.name
    counts = [c.execution_count for c in code]
    assert counts == sorted(counts), f"{path.name}: cells were run out of order"
    figures = [i for i, c in enumerate(code) for o in c.outputs if "image/png" in o.get("data", {})]
    assert figures and figures[-1] >= len(code) - 2, f"{path.name}: no figure at the end"
    for c in code:
        for o in c.outputs:
            assert o.get("output_type") != "error", (path.name, c.source[:60])
            assert not (o.get("output_type") == "stream" and o.get("name") == "stderr"), (path.name, o["text"][:200])


def _evaluate_takes_missing_predictions() -> bool:
    import streamtk

    try:
        streamtk.evaluate(np.array(["a", "b"]), np.array([None, "b"], dtype=object))
    except ValueError:
        return False
    return True


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_top_to_bottom(path, tmp_path, data_dir):  # data_dir: skip without the datasets
    nbformat = pytest.importorskip("nbformat", reason="nbformat is in the test extra")
    nbclient = pytest.importorskip("nbclient", reason="nbclient is in the test extra")
    pytest.importorskip("ipykernel", reason="ipykernel is in the test extra")
    pytest.importorskip("river", reason="the tutorials record river models")
    from ._moa import import_capymoa

    import_capymoa()
    if not _evaluate_takes_missing_predictions():
        pytest.skip(reason="this streamtk.evaluate refuses a missing prediction; the recorded logs have some "
                    "(the lead's part of issue 24)")  # fmt: skip
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # raises CellExecutionError with the cell and traceback on any error
    stderr = [
        o["text"]
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if o.get("output_type") == "stream" and o.get("name") == "stderr"
    ]
    assert not stderr, f"{path.name} wrote to stderr (a warning?): {stderr[0][:500]}"
