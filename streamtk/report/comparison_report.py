"""A folder of every artefact of a many-models comparison: the collection, the tests, tables and figures.

:func:`write_report` writes, from one :class:`~streamtk.comparison.ManyComparison` (and the
collection it came from):

============================ ==========================================================
``collection.nc``            the results collection (reproduces everything below)
``comparison.nc``            the comparison's ``to_dataset()``
``comparison.txt``           its readable summary (Friedman, post-hoc, cliques)
``table.tex/.md/.html``      :func:`~streamtk.report.results_table` in each format
``cd_diagram.pdf/.png``      :func:`~streamtk.plot.cd_diagram` (only when the omnibus test
                             rejects, unless ``force``)
``bayesian.nc/.png``         the Bayesian signed-rank test of every pair (``rope`` given)
============================ ==========================================================

Each file is written to a temporary name in the folder and renamed on success; existing
files are refused unless ``overwrite=True``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .paper_tables import TABLE_FORMATS, public_mode, results_table, write_table

__all__ = ["write_report"]

_EXT = {"latex": "tex", "markdown": "md", "html": "html"}


def _save_figure(fig, path: Path) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix, dir=path.parent)
    os.close(fd)
    try:
        fig.savefig(tmp, bbox_inches="tight", dpi=150)
        public_mode(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def write_report(
    comparison,
    folder,
    *,
    collection=None,
    formats=TABLE_FORMATS,
    figures: bool = True,
    force: bool = False,
    rope: float | None = None,
    seed=0,
    overwrite: bool = False,
    digits: int = 3,
    scale: float = 1.0,
) -> list[Path]:
    """Write the artefacts of a comparison into ``folder`` (created if missing); returns the paths written.

    Parameters
    ----------
    comparison : ManyComparison
        From :func:`streamtk.comparison.compare_many`.
    collection : xarray.Dataset, optional
        The collection it was computed from (written as ``collection.nc``; needed for
        ``rope``).
    formats : sequence of {"latex", "markdown", "html"}
    figures : bool
        Write the CD diagram (and the Bayesian bars).
    force : bool
        Draw the CD diagram even if the omnibus test does not reject.
    rope : float, optional
        Run :func:`streamtk.comparison.bayesian_pairs` with this ROPE and write its results.
    """
    from ..comparison.across_streams import ManyComparison, bayesian_pairs
    from ..io.collection import write_collection

    if not isinstance(comparison, ManyComparison):
        raise TypeError(f"comparison must be a ManyComparison, got {type(comparison).__name__}")
    formats = [formats] if isinstance(formats, str) else list(formats)
    bad = [f for f in formats if f not in TABLE_FORMATS]
    if bad:
        raise ValueError(f"formats must be among {TABLE_FORMATS}, got {bad}")
    if rope is not None and collection is None:
        raise ValueError("rope needs the collection (pass collection=)")
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise FileExistsError(f"output {folder} exists and is not a folder")
    planned = ["comparison.nc", "comparison.txt"] + [f"table.{_EXT[f]}" for f in formats]
    if collection is not None:
        planned.append("collection.nc")
    draw_cd = figures and (comparison.significant or force)
    if draw_cd:
        planned += ["cd_diagram.pdf", "cd_diagram.png"]
    if rope is not None:
        planned += ["bayesian.nc"] + (["bayesian.png"] if figures else [])
    if not overwrite and folder.is_dir():
        clash = [name for name in planned if (folder / name).exists()]
        if clash:
            raise FileExistsError(
                f"output {folder}: {', '.join(clash)} exist(s); pass overwrite=True (--overwrite) to replace them"
            )
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    if collection is not None:
        written.append(write_collection(collection, folder / "collection.nc"))
    written.append(write_collection(comparison.to_dataset(), folder / "comparison.nc"))
    written.append(write_table(repr(comparison) + "\n", folder / "comparison.txt"))
    for f in formats:
        text = results_table(comparison, fmt=f, digits=digits, scale=scale)
        written.append(write_table(text, folder / f"table.{_EXT[f]}"))
    if figures:
        from matplotlib.figure import Figure  # no pyplot: the caller's backend and figures are left alone

        from ..plot.bayesian import plot_posterior
        from ..plot.cd_diagram import cd_diagram
    if draw_cd:
        k = len(comparison.posthoc.names)
        fig = Figure(figsize=(7.0, 1.8 + 0.3 * ((k + 1) // 2) + 0.2 * len(comparison.posthoc.cliques)))
        ax = fig.subplots()
        cd_diagram(comparison, ax=ax, force=force)
        for ext in ("pdf", "png"):
            _save_figure(fig, folder / f"cd_diagram.{ext}")
            written.append(folder / f"cd_diagram.{ext}")
    if rope is not None:
        pairs = bayesian_pairs(
            collection,
            metric=comparison.metric,
            summary=comparison.summary,
            estimator=comparison.estimator,
            rope=rope,
            seed=seed,
            runs=comparison.runs,
            higher_is_better=comparison.higher_is_better,
            missing="drop" if comparison.dropped else "raise",
        )
        written.append(write_collection(pairs, folder / "bayesian.nc"))
        if figures:
            fig = Figure(figsize=(7.0, 1.0 + 0.45 * pairs.sizes["pair"]))
            ax = fig.subplots()
            plot_posterior(pairs, ax=ax)
            _save_figure(fig, folder / "bayesian.png")
            written.append(folder / "bayesian.png")
    return written
