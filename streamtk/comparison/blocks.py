"""The tables the many-streams tests rank: one value per (block, model), and the bands behind them."""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.validation import check_choice
from .collection import select_table

__all__ = ["block_table", "band_cells", "RUNS", "MISSING"]

RUNS = ("mean", "median", "blocks")
MISSING = ("raise", "drop")


def block_table(collection, *, metric=None, summary=None, estimator=None, runs="mean", missing="raise"):
    """The ``(block, model)`` table the tests rank, with the per-(dataset, model) values it came from.

    Returns ``(table DataArray (block, model), cells DataArray (dataset, model, run), dropped datasets)``.
    """
    check_choice(runs, "runs", RUNS)
    check_choice(missing, "missing", MISSING)
    cells = select_table(collection, metric=metric, summary=summary, estimator=estimator)
    # a run that no model has on a dataset is not missing (datasets may have different numbers of runs)
    present = cells.notnull().any("model")
    holes = cells.isnull() & present
    names = [str(d) for d in cells["dataset"].values]
    has_hole = holes.any(("model", "run")).values
    empty = ~present.any("run").values
    bad_ds = [d for d, h, e in zip(names, has_hole, empty) if h or e]
    dropped = []
    if bad_ds:
        if missing == "raise":
            st = holes.transpose("dataset", "model", "run")
            idx = np.argwhere(st.values)[:5]
            examples = [(names[a], str(cells["model"].values[b]), str(cells["run"].values[c])) for a, b, c in idx]
            raise ValueError(
                f"missing values for {cells.name!r} on datasets {bad_ds} (e.g. (dataset, model, run) = {examples}); "
                "pass missing='drop' to leave those datasets out"
            )
        dropped = bad_ds
        cells = cells.drop_sel(dataset=bad_ds)
        present = present.drop_sel(dataset=bad_ds)
    if cells.sizes["dataset"] < 2:
        raise ValueError(f"at least 2 datasets are needed, the collection has {cells.sizes['dataset']} usable")
    if runs == "blocks":
        st = cells.stack(block=("dataset", "run")).transpose("block", "model")
        keep = present.stack(block=("dataset", "run")).values
        table = st.isel(block=np.flatnonzero(keep))
        labels = [f"{d}/{r}" for d, r in table["block"].values]
        table = xr.DataArray(
            table.values, dims=("block", "model"), coords={"block": labels, "model": cells["model"].values}
        )
    else:
        red = cells.mean("run", skipna=True) if runs == "mean" else cells.median("run", skipna=True)
        table = red.rename(dataset="block").transpose("block", "model")
    table.name = cells.name
    table.attrs = dict(cells.attrs)
    return table, cells, dropped


def band_cells(collection, cells, metric):
    """``(lower, upper)`` ``(dataset, model, run)`` of ``metric`` aligned with ``cells`` (the same summary,
    estimator and datasets), or ``(None, None)`` when the collection has no bands or they are all undefined."""
    out = []
    for side in ("lower", "upper"):
        name = f"{metric}_{side}"
        if name not in collection:
            return None, None
        da = collection[name].sel(summary=cells["summary"].values, estimator=cells["estimator"].values)
        da = da.sel(dataset=cells["dataset"].values)
        out.append(da.rename(name))
    if all(bool(da.isnull().all()) for da in out):
        return None, None
    return tuple(out)
