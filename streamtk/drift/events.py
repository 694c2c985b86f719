"""Detections (and warnings) of many runs and detector settings, in one flat form for scoring.

Every accepted input - a detector's Dataset, a boolean flag array or DataArray, a
list of index sequences - becomes an :class:`Events`: the sorted 0-based indices of
every ``(setting, run)`` row laid end to end (``flat``), with ``offsets`` marking
where each row starts, plus the labels of the setting dims and of the runs. The
scoring conventions then work on all rows at once (``numpy.searchsorted`` on a
single sorted key array) instead of looping over runs in Python.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import xarray as xr

__all__ = ["Events", "as_events", "as_warnings"]


@dataclass
class Events:
    """Event indices of ``rows = settings x runs`` (setting-major), sorted within each row.

    ``flat[offsets[i]:offsets[i + 1]]`` are the events of row ``i``; ``gdims`` /
    ``gshape`` / ``gcoords`` describe the setting dims (possibly none), ``runs``
    the run labels (or None), ``n`` the stream length (or None when unknown).
    """

    flat: np.ndarray
    offsets: np.ndarray
    gdims: tuple
    gshape: tuple
    gcoords: dict
    n_runs: int
    runs: np.ndarray | None
    n: int | None

    @property
    def n_groups(self) -> int:
        return int(np.prod(self.gshape, dtype=np.int64)) if self.gshape else 1

    @property
    def n_rows(self) -> int:
        return self.n_groups * self.n_runs

    def row_of_each(self) -> np.ndarray:
        """The row index of every entry of ``flat``."""
        return np.repeat(np.arange(self.n_rows, dtype=np.int64), np.diff(self.offsets))

    def counts(self) -> np.ndarray:
        """Events per row, shape (groups, runs)."""
        return np.diff(self.offsets).reshape(self.n_groups, self.n_runs)

    def unique(self) -> Events:
        """The same rows without repeated indices (an instance alarms or not)."""
        if self.flat.size == 0:
            return self
        row = self.row_of_each()
        keep = np.ones(self.flat.size, bool)
        keep[1:] = (self.flat[1:] != self.flat[:-1]) | (row[1:] != row[:-1])
        new_counts = np.bincount(row[keep], minlength=self.n_rows)
        offsets = np.concatenate([[0], np.cumsum(new_counts)]).astype(np.int64)
        return Events(self.flat[keep], offsets, self.gdims, self.gshape, self.gcoords, self.n_runs, self.runs, self.n)


def _from_rows(rows: list[np.ndarray], gdims, gshape, gcoords, n_runs, runs, n) -> Events:
    counts = np.array([r.size for r in rows], np.int64)
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    flat = np.concatenate(rows).astype(np.int64) if rows else np.zeros(0, np.int64)
    return Events(flat, offsets, tuple(gdims), tuple(gshape), gcoords, n_runs, runs, n)


def _check_indices(flat: np.ndarray, n, name: str) -> None:
    if flat.size and flat.min() < 0:
        raise ValueError(f"{name} must hold 0-based indices >= 0, got {int(flat.min())}")
    if n is not None and flat.size and flat.max() >= n:
        raise ValueError(f"{name} must hold indices < n = {n} (the stream length), got {int(flat.max())}")


def _grid_of(da: xr.DataArray, run_dim: str, tail: tuple):
    """Move ``run_dim`` (added with size 1 if absent) just before ``tail``; the setting dims before it."""
    if run_dim not in da.dims:
        da = da.expand_dims({run_dim: 1})
    other = [d for d in da.dims if d != run_dim and d not in tail]
    da = da.transpose(*other, run_dim, *tail)
    gcoords = {k: v for k, v in da.coords.items() if run_dim not in v.dims and not set(v.dims) & set(tail)}
    runs = da[run_dim].values if run_dim in da.coords else None
    return da, tuple(other), tuple(da.shape[: len(other)]), gcoords, runs


def _from_flags(flags: xr.DataArray, run_dim: str, n, name: str) -> Events:
    da, gdims, gshape, gcoords, runs = _grid_of(flags, run_dim, ("time",))
    values = np.asarray(da.values)
    if values.dtype != np.bool_:
        if not np.issubdtype(values.dtype, np.number):
            raise TypeError(f"{name} flags must be boolean or numeric (non-zero = event), got {values.dtype}")
        values = values > 0 if np.issubdtype(values.dtype, np.signedinteger) else values != 0
    n_time = values.shape[-1]
    rows2d = values.reshape(-1, n_time)
    r, t = np.nonzero(rows2d)
    counts = np.bincount(r, minlength=rows2d.shape[0]).astype(np.int64)
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    n = n_time if n is None else n
    return Events(t.astype(np.int64), offsets, gdims, gshape, gcoords, da.sizes[run_dim], runs, n)


def _from_dataset(ds: xr.Dataset, run_dim: str, name: str) -> Events:
    n = ds.attrs.get("n_instances")
    n = int(n) if n is not None else (ds.sizes["time"] if "time" in ds.dims else None)
    if "detection_index" in ds and "n_detections" in ds:
        idx, cnt = ds["detection_index"], ds["n_detections"]
        cnt_da, gdims, gshape, gcoords, runs = _grid_of(cnt, run_dim, ())
        idx_da = idx if run_dim in idx.dims else idx.expand_dims({run_dim: 1})
        idx_da = idx_da.transpose(*gdims, run_dim, "detection_number")
        c = np.asarray(cnt_da.values).reshape(-1).astype(np.int64)
        i = np.asarray(idx_da.values).reshape(c.size, -1)
        flat = i[np.arange(i.shape[1])[None, :] < c[:, None]].astype(np.int64)
        offsets = np.concatenate([[0], np.cumsum(c)]).astype(np.int64)
        ev = Events(flat, offsets, gdims, gshape, gcoords, cnt_da.sizes[run_dim], runs, n)
        ev.flat = _sort_rows(ev)
        return ev
    if "detection" in ds and "time" in ds["detection"].dims:
        return _from_flags(ds["detection"], run_dim, n, name)
    raise ValueError(
        f"{name} as a Dataset must be a detector's output (with 'detection_index' and 'n_detections', or a "
        f"'detection' trace over time); it has {sorted(map(str, ds.data_vars))}"
    )


def _sort_rows(ev: Events) -> np.ndarray:
    """``flat`` sorted within each row (rows kept in order)."""
    if ev.flat.size == 0:
        return ev.flat
    row = ev.row_of_each()
    order = np.lexsort((ev.flat, row))
    return ev.flat[order]


def as_events(detections, *, run_dim: str = "run", n=None, name: str = "detections") -> Events:
    """Normalise ``detections`` (see :func:`streamtk.drift.scoring.score_detections`) to :class:`Events`."""
    if isinstance(detections, xr.Dataset):
        ev = _from_dataset(detections, run_dim, name)
    elif isinstance(detections, xr.DataArray):
        if "time" not in detections.dims:
            raise ValueError(f"{name} as a DataArray must be flags over a 'time' dim, got dims {detections.dims}")
        ev = _from_flags(detections, run_dim, None, name)
    elif isinstance(detections, np.ndarray) and detections.dtype == np.bool_:
        if detections.ndim > 2:
            raise ValueError(
                f"{name} as a boolean array must have shape (n,) or (runs, n), got {detections.shape}; use a "
                "DataArray with named dims for settings"
            )
        flags = detections.reshape(-1, detections.shape[-1])
        ev = _from_flags(xr.DataArray(flags, dims=(run_dim, "time")), run_dim, None, name)
    elif isinstance(detections, (list, tuple)):
        rows = []
        for r, run in enumerate(detections):
            arr = np.asarray(run)
            if arr.ndim != 1 or (arr.size and not np.issubdtype(arr.dtype, np.integer)):
                raise TypeError(f"{name}[{r}] must be a 1-D sequence of integer indices, got {run!r}")
            rows.append(np.sort(arr.astype(np.int64)))
        ev = _from_rows(rows, (), (), {}, len(rows), None, None)
    else:
        raise TypeError(
            f"{name} must be a detector's Dataset, a boolean flag array (runs, n), a DataArray of flags or a list "
            f"of index sequences (one per run), got {type(detections).__name__}"
        )
    if n is not None:
        ev.n = n
    _check_indices(ev.flat, ev.n, name)
    return ev


def as_warnings(warnings, events: Events, *, run_dim: str = "run", detections=None) -> Events:
    """Warning flags of every row as :class:`Events` (the indices at which the detector was warning).

    ``warnings`` is ``True`` (the ``warning`` trace of the detector Dataset given as
    ``detections``), or a Dataset / DataArray / boolean array / list of index
    sequences with the same settings and runs as the detections (a list holds, per
    run, the indices at which the detector was in its warning zone).
    """
    if warnings is True:
        if not isinstance(detections, xr.Dataset) or "warning" not in detections:
            raise ValueError(
                "warnings=True needs a detector Dataset with a 'warning' trace (ddm or eddm with trace=True)"
            )
        warnings = detections["warning"]
    if isinstance(warnings, xr.Dataset):
        if "warning" not in warnings:
            raise ValueError("warnings as a Dataset must hold a 'warning' trace over time")
        warnings = warnings["warning"]
    wev = as_events(warnings, run_dim=run_dim, n=events.n, name="warnings")
    if (wev.gshape, wev.n_runs) != (events.gshape, events.n_runs):
        raise ValueError(
            f"warnings have {wev.n_groups} settings x {wev.n_runs} runs but the detections have "
            f"{events.n_groups} x {events.n_runs}"
        )
    return wev.unique()
