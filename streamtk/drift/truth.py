"""Ground truth of a drift experiment: change points or ``(start, end)`` intervals, shared or per run.

A *drift* is known by the 0-based index of the first instance of the new concept
(an abrupt drift, a change point ``d``) or by an interval ``(start, end)`` of
instances over which the old concept gives way to the new one (a gradual drift;
``start == end`` is an abrupt drift at ``start``). Drifts are ordered and do not
overlap: ``start_k <= end_k < start_{k+1}``.

The same drifts can hold for every run (a synthetic stream generated with
different seeds) or each run can have its own (``DriftTruth.per_run``, or a
``DataArray`` with a ``run`` dim); runs with fewer drifts are padded.
"""

from __future__ import annotations

import numbers

import numpy as np
import xarray as xr

from .._core.validation import check_positive_int

__all__ = ["DriftTruth", "as_truth"]


def _is_int(v) -> bool:
    return isinstance(v, (numbers.Integral, np.integer)) and not isinstance(v, (bool, np.bool_))


def _one_drift(item, where: str):
    """An int (abrupt) or a pair ``(start, end)`` -> ``(start, end)``."""
    if _is_int(item):
        d = check_positive_int(item, where, minimum=0)
        return d, d
    if isinstance(item, (tuple, list, np.ndarray)) and len(item) == 2 and all(_is_int(v) for v in item):
        s = check_positive_int(item[0], where, minimum=0)
        e = check_positive_int(item[1], where, minimum=0)
        if e < s:
            raise ValueError(f"{where} must have start <= end, got {tuple(item)!r}")
        return s, e
    raise TypeError(
        f"{where} must be a 0-based change point (int) or a (start, end) pair of ints for a gradual drift, got {item!r}"
    )


def _sequence(value, name: str):
    """A sequence of drifts -> (starts, ends) lists, checked for order."""
    if _is_int(value):
        value = [value]
    if isinstance(value, np.ndarray):
        if value.ndim == 2 and value.shape[1] == 2:
            value = [tuple(row) for row in value.tolist()]
        elif value.ndim <= 1:
            value = np.atleast_1d(value).tolist()
        else:
            raise ValueError(f"{name} as an array must have shape (drifts,) or (drifts, 2), got {value.shape}")
    if not isinstance(value, (list, tuple)):
        raise TypeError(
            f"{name} must be an int, a sequence of change points and/or (start, end) pairs, a DriftTruth or a "
            f"DataArray, got {type(value).__name__}"
        )
    pairs = [_one_drift(item, f"{name}[{i}]") for i, item in enumerate(value)]
    for (_, e0), (s1, _) in zip(pairs, pairs[1:]):
        if s1 <= e0:
            raise ValueError(
                f"{name} must be ordered and must not overlap (start_k <= end_k < start_k+1), got "
                f"{[p[0] if p[0] == p[1] else p for p in pairs]!r}"
            )
    return [p[0] for p in pairs], [p[1] for p in pairs]


class DriftTruth:
    """True drifts of an experiment (see the module docstring).

    Attributes
    ----------
    start, end : numpy.ndarray of int64, shape (runs, drifts)
        First and last instance (0-based) of each drift; ``-1`` pads runs with
        fewer drifts. ``runs`` is 1 when the drifts are shared by every run.
    count : numpy.ndarray of int64, shape (runs,)
        Number of drifts of each run.
    per_run : bool
        Whether each run has its own drifts.
    runs : numpy.ndarray or None
        Run labels of a per-run truth given as a ``DataArray`` (used to align with
        the detections' ``run`` coordinate); None otherwise.
    """

    def __init__(self, start, end, count, *, per_run: bool, runs=None):
        self.start = np.asarray(start, dtype=np.int64)
        self.end = np.asarray(end, dtype=np.int64)
        self.count = np.asarray(count, dtype=np.int64)
        self.per_run = bool(per_run)
        self.runs = None if runs is None else np.asarray(runs)

    # -- constructors ------------------------------------------------------------------------------
    @classmethod
    def shared(cls, drifts, name: str = "true_drifts") -> DriftTruth:
        """The same drifts in every run: change points and/or ``(start, end)`` pairs."""
        s, e = _sequence(drifts, name)
        return cls(np.array([s], np.int64).reshape(1, len(s)), np.array([e], np.int64).reshape(1, len(e)),
                   [len(s)], per_run=False)  # fmt: skip

    @classmethod
    def per_run(cls, drifts_per_run, *, runs=None, name: str = "true_drifts") -> DriftTruth:
        """One sequence of drifts per run (each as in :meth:`shared`); ``runs``: optional run labels."""
        if not isinstance(drifts_per_run, (list, tuple)) or not drifts_per_run:
            raise TypeError(f"{name} per run must be a non-empty list with one sequence of drifts per run")
        seqs = [_sequence(d, f"{name}[run {r}]") for r, d in enumerate(drifts_per_run)]
        k = max(len(s) for s, _ in seqs)
        start = np.full((len(seqs), k), -1, np.int64)
        end = np.full((len(seqs), k), -1, np.int64)
        for r, (s, e) in enumerate(seqs):
            start[r, : len(s)] = s
            end[r, : len(e)] = e
        if runs is not None and len(runs) != len(seqs):
            raise ValueError(f"runs has {len(runs)} labels but {name} has {len(seqs)} runs")
        return cls(start, end, [len(s) for s, _ in seqs], per_run=True, runs=runs)

    @classmethod
    def from_dataarray(cls, da: xr.DataArray, name: str = "true_drifts") -> DriftTruth:
        """From a DataArray with dims ``([run,] drift[, bound])``; ``bound`` = ``("start", "end")``.

        Negative or NaN entries pad runs with fewer drifts (they must come last).
        """
        extra = [d for d in da.dims if d not in ("run", "drift", "bound")]
        if "drift" not in da.dims or extra:
            raise ValueError(f"{name} as a DataArray must have dims (run, drift[, bound]), got {da.dims}")
        if "bound" in da.dims:
            if da.sizes["bound"] != 2:
                raise ValueError(f"{name}: the bound dim must have size 2 (start, end), got {da.sizes['bound']}")
            starts, ends = da.isel(bound=0), da.isel(bound=1)
        else:
            starts = ends = da
        order = [d for d in ("run", "drift") if d in da.dims]
        s = np.atleast_2d(np.asarray(starts.transpose(*order).values, dtype=np.float64))
        e = np.atleast_2d(np.asarray(ends.transpose(*order).values, dtype=np.float64))
        seqs = []
        for r in range(s.shape[0]):
            ok = np.isfinite(s[r]) & (s[r] >= 0)
            if ok.size and not np.all(ok[: ok.sum()]):
                raise ValueError(f"{name}: padding (negative or NaN) must come after the drifts of run {r}")
            if np.any(s[r][ok] != np.floor(s[r][ok])) or np.any(e[r][ok] != np.floor(e[r][ok])):
                raise ValueError(f"{name}: drift positions must be integers, got {s[r][ok].tolist()!r}")
            seqs.append([(int(a), int(b)) for a, b in zip(s[r][ok], e[r][ok])])
        if "run" not in da.dims:
            return cls.shared(seqs[0], name)
        runs = da["run"].values if "run" in da.coords else None
        return cls.per_run(seqs, runs=runs, name=name)

    # -- use -------------------------------------------------------------------------------------------
    @property
    def n_drifts(self) -> int:
        """Width of the drift dim (the largest number of drifts of a run)."""
        return int(self.start.shape[1])

    @property
    def is_abrupt(self) -> bool:
        return bool(np.all(self.start == self.end))

    def check_against(self, n: int | None, name: str = "true_drifts") -> None:
        """Every drift must start and end inside a stream of ``n`` instances."""
        if n is None:
            return
        valid = self.start >= 0
        if np.any(self.end[valid] >= n):
            raise ValueError(f"{name} must lie inside the stream (< n = {n}), got ends {self.end[valid].tolist()!r}")

    def for_runs(self, n_runs: int, run_labels=None, name: str = "true_drifts") -> DriftTruth:
        """This truth with one row per run (a shared truth broadcast; a labelled one aligned by labels)."""
        if not self.per_run:
            rep = lambda a: np.repeat(a, n_runs, axis=0)  # noqa: E731
            return DriftTruth(rep(self.start), rep(self.end), np.repeat(self.count, n_runs), per_run=False)
        if self.runs is not None and run_labels is not None:
            pos = {v: i for i, v in enumerate(np.asarray(self.runs).tolist())}
            labels = np.asarray(run_labels).tolist()
            missing = [v for v in labels if v not in pos]
            if missing:
                raise ValueError(f"{name} has no drifts for the runs {missing!r} (its runs: {list(pos)!r})")
            idx = np.array([pos[v] for v in labels], np.int64)
            return DriftTruth(self.start[idx], self.end[idx], self.count[idx], per_run=True, runs=run_labels)
        if self.start.shape[0] != n_runs:
            raise ValueError(f"{name} has drifts for {self.start.shape[0]} runs but the detections have {n_runs} runs")
        return self

    def coords(self) -> dict:
        """Coordinates describing the drifts, for a Dataset with a ``drift`` dim."""
        if not self.per_run:
            return {
                "drift": ("drift", self.start[0].copy(), {
                    "long_name": "0-based index of the first instance of the new concept (drift start)"}),
                "drift_end": ("drift", self.end[0].copy(), {
                    "long_name": "0-based index of the last instance of the drift (= drift for an abrupt drift)"}),
            }  # fmt: skip
        return {
            "drift_start": (("run", "drift"), self.start.copy(), {
                "long_name": "0-based first instance of each run's drift", "fill_value_meaning": "-1: no such drift"}),
            "drift_end": (("run", "drift"), self.end.copy(), {
                "long_name": "0-based last instance of each run's drift", "fill_value_meaning": "-1: no such drift"}),
        }  # fmt: skip

    def to_dataarray(self) -> xr.DataArray:
        """The drifts as a DataArray ``([run,] drift, bound)`` (-1 pads), e.g. to store beside a result."""
        data = np.stack([self.start, self.end], axis=-1)
        if not self.per_run:
            return xr.DataArray(data[0], dims=("drift", "bound"), coords={"bound": ["start", "end"]},
                                name="true_drifts")  # fmt: skip
        coords = {"bound": ["start", "end"]}
        if self.runs is not None:
            coords["run"] = self.runs
        return xr.DataArray(data, dims=("run", "drift", "bound"), coords=coords, name="true_drifts")

    def describe(self) -> str:
        """A short text form for attrs: ``"100, (300, 400)"`` or ``"per run"``."""
        if self.per_run:
            return f"per run ({self.start.shape[0]} runs, up to {self.n_drifts} drifts)"
        items = [str(s) if s == e else f"({s}, {e})" for s, e in zip(self.start[0], self.end[0])]
        return ", ".join(items) if items else "none"

    def __repr__(self) -> str:
        return f"DriftTruth({self.describe()})"


def as_truth(value, name: str = "true_drifts") -> DriftTruth:
    """Normalise the accepted forms of ground truth to a :class:`DriftTruth`.

    ``value`` is a :class:`DriftTruth`; an int; a sequence whose items are change
    points (ints) or ``(start, end)`` pairs (shared by every run); an array of shape
    ``(drifts,)`` or ``(drifts, 2)``; or a ``DataArray`` (see
    :meth:`DriftTruth.from_dataarray`). Different drifts per run: use
    :meth:`DriftTruth.per_run` or a ``DataArray`` with a ``run`` dim.
    """
    if isinstance(value, DriftTruth):
        return value
    if isinstance(value, xr.DataArray):
        return DriftTruth.from_dataarray(value, name)
    return DriftTruth.shared(value, name)
