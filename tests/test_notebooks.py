"""The tutorial notebooks run top to bottom (nbclient), print no warnings, and are committed without outputs."""

from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def test_there_are_tutorials():
    names = [p.stem for p in NOTEBOOKS]
    assert len(names) == 4, names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_without_outputs(path):
    nbformat = pytest.importorskip("nbformat", reason="nbformat is in the test extra")
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, (path.name, cell.source[:60])


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_top_to_bottom(path, tmp_path):
    nbformat = pytest.importorskip("nbformat", reason="nbformat is in the test extra")
    nbclient = pytest.importorskip("nbclient", reason="nbclient is in the test extra")
    pytest.importorskip("ipykernel", reason="ipykernel is in the test extra")
    # the kernel inherits the environment (STREAMTK_DATA) and renders figures inline, as for a user
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
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
