"""Shared machinery of the detectors: argument checks, parameter grids, chunks aligned by label, labelled output.

Every grid detector of :mod:`streamtk.drift` (Page-Hinkley, DDM, EDDM, the random detector) is a
subclass of :class:`ChunkedDetector`: ``update(x)`` processes the next chunk of a stream of shape
``(..., m)`` (state is carried, so any chunking gives the same result as one pass) and
``result()`` returns the labelled :class:`xarray.Dataset`. Chunks are read by
:class:`ChunkReader` (also used by :class:`streamtk.drift.adwin.Adwin`): the first fixes the
leading dims and their labels; a later ``DataArray`` chunk is aligned to them *by label* (its
``model`` labels may come in another order; labels that do not match are an error).

Parameters given as a scalar are recorded as attributes; parameters given as a sequence (list,
tuple, 1-D array) become a *grid dimension* named after the parameter, and all combinations are
evaluated in the same single pass over the data. Output dims are ``(*lead, *grid dims, time)``.
Detector objects hold only numpy arrays, lists and dicts: they pickle mid-stream.
"""

from __future__ import annotations

import itertools
import numbers
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
import xarray as xr

from .._core.validation import as_float_array, check_positive_int
from .._kernels.checks import first_not_binary
from .._labelled import align_like, base_attrs, split_leading, time_coords

__all__ = [
    "GridParam",
    "build_grid",
    "group_settings",
    "ChunkReader",
    "ChunkedDetector",
    "check_nonnegative_real",
    "check_nonnegative_int",
    "check_bool",
    "check_binary",
    "check_level_order",
    "run_rows",
    "run_with_capacity",
]


# ------------------------------------------------------------------------------------------- checks
def check_nonnegative_real(value, name: str) -> float:
    """A finite real number ``>= 0`` (Page-Hinkley delta and lambda)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a finite real number >= 0, got {value!r}")
    value = float(value)
    if not (np.isfinite(value) and value >= 0.0):
        raise ValueError(f"{name} must be a finite real number >= 0, got {value!r}")
    return value


def check_nonnegative_int(value, name: str) -> int:
    return check_positive_int(value, name, minimum=0)


def check_bool(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_binary(x2d: np.ndarray, name: str) -> None:
    """Refuse anything but 0 and 1 (an error stream: 1 = misclassified)."""
    bad = first_not_binary(np.ascontiguousarray(x2d.reshape(-1)))
    if bad >= 0:
        r, t = np.unravel_index(bad, x2d.shape)
        raise ValueError(
            f"{name} must hold 0/1 error indicators, got {float(x2d[r, t])!r} at (flattened row {r}, index {t})"
        )


def check_level_order(settings: list, warning: str, drift: str, *, warning_below: bool) -> None:
    """Refuse a setting whose warning level is beyond its drift level (the warning zone comes first).

    ``warning_below``: the statistic rises to the levels (DDM: warning level <= drift level);
    otherwise it falls to them (EDDM: warning level >= drift level).
    """
    for s in settings:
        w, d = s[warning], s[drift]
        if (w > d) if warning_below else (w < d):
            side = "above" if warning_below else "below"
            raise ValueError(
                f"{warning}={w!r} is {side} {drift}={d!r}: the warning level must come before the drift level"
            )


# -------------------------------------------------------------------------------------------- grids
class GridParam:
    """One detector parameter: its dimension name, values and whether it is a grid dim."""

    def __init__(self, name: str, value, check, *, dim: str | None = None):
        self.name = name
        self.dim = dim or name
        if isinstance(value, (list, tuple, np.ndarray)):
            values = [check(v, name) for v in (value.tolist() if isinstance(value, np.ndarray) else value)]
            if not values:
                raise ValueError(f"{name} must not be empty")
            if len(set(values)) != len(values):
                raise ValueError(f"{name} contains a repeated value: {list(values)!r}")
            self.values = values
            self.is_dim = True
        else:
            self.values = [check(value, name)]
            self.is_dim = False


def build_grid(params: list[GridParam]):
    """All combinations (last parameter fastest) as a list of dicts, plus dims/shape/coords."""
    dims = tuple(p.dim for p in params if p.is_dim)
    shape = tuple(len(p.values) for p in params if p.is_dim)
    combos = [dict(zip([p.name for p in params], c)) for c in itertools.product(*[p.values for p in params])]
    coords = {p.dim: (p.dim, np.asarray(p.values)) for p in params if p.is_dim}
    return combos, dims, shape, coords


def group_settings(keys: list):
    """Group setting indices by key: ``(members, start)``, group ``g`` is ``members[start[g]:start[g + 1]]``."""
    groups: dict = {}
    for q, key in enumerate(keys):
        groups.setdefault(key, []).append(q)
    members = np.array([q for g in groups.values() for q in g], np.int64)
    start = np.cumsum([0] + [len(g) for g in groups.values()]).astype(np.int64)
    return members, start


# ------------------------------------------------------------------------------------------- chunks
class ChunkReader:
    """The chunks of one stream ``(..., m)``, as ``(L, m)`` float64 arrays aligned to the first chunk's labels."""

    def __init__(self, lead_dims=None):
        self._lead_dims = lead_dims
        self.lead = None

    def read(self, x, name: str = "x"):
        """``(values (L, m), time coords)`` of the next chunk; the first one fixes ``self.lead``."""
        if self.lead is None or not isinstance(x, xr.DataArray):
            arr2d, lead, tcoords = split_leading(x, name, lead_dims=self._lead_dims)
            if self.lead is None:
                self.lead = lead
            elif (lead.names, lead.shape) != (self.lead.names, self.lead.shape):
                raise ValueError(
                    f"{name} has leading dims {dict(zip(lead.names, lead.shape))} but earlier chunks had "
                    f"{dict(zip(self.lead.names, self.lead.shape))}"
                )
        else:
            tdim = "time" if "time" in x.dims else x.dims[-1]
            m = x.sizes[tdim]
            try:
                values = align_like(x, self.lead, None, m, name, ref="the first chunk")
            except ValueError as err:
                raise ValueError(f"{err} (earlier chunks had leading dims {self.lead.names})") from None
            arr2d = np.asarray(values).reshape(self.lead.size, m)
            tcoords = {k: v.variable for k, v in x.coords.items() if v.dims == (tdim,)}
        return as_float_array(arr2d, name), tcoords


def run_with_capacity(run_once, states: list[np.ndarray], n_rows: int, n_set: int, m: int):
    """Call ``run_once(det_idx, det_n)``; on a detection-buffer overflow, restore the states and rerun
    the chunk with a buffer large enough (results are identical)."""
    saved = [s.copy() for s in states]
    cap = min(max(16, m // 500), max(m, 1))
    while True:
        det_idx = np.empty((n_rows, n_set, cap), dtype=np.int64)
        det_n = np.zeros((n_rows, n_set), dtype=np.int64)
        trace = run_once(det_idx, det_n)
        need = int(det_n.max()) if det_n.size else 0
        if need <= cap:
            return trace, det_idx, det_n
        for s, s0 in zip(states, saved):
            s[...] = s0
        cap = need


def run_rows(kernel_call, n_rows: int) -> None:
    """Call ``kernel_call(r0, r1)`` on blocks of rows covering ``0 .. n_rows - 1``.

    The detector kernels release the GIL, so the blocks run in parallel on
    ``numba.get_num_threads()`` threads (``numba.set_num_threads(1)`` gives one core). Threads
    over rows instead of ``numba.prange`` inside the kernels: the kernels compile in about half
    the time, and rows are independent anyway.
    """
    n_threads = max(1, min(numba.get_num_threads(), n_rows))
    if n_threads == 1:
        kernel_call(0, n_rows)
        return
    bounds = np.linspace(0, n_rows, n_threads + 1).round().astype(np.int64)
    with ThreadPoolExecutor(max_workers=n_threads) as pool:
        futures = [pool.submit(kernel_call, int(bounds[i]), int(bounds[i + 1])) for i in range(n_threads)]
        for f in futures:
            f.result()


# -------------------------------------------------------------------------------------- base class
class ChunkedDetector:
    """Base class: validation of chunks, state carry and the labelled result.

    Subclasses set ``title`` and implement ``_setup(n_rows)``,
    ``_run(x2d, count0) -> (trace: dict[name, array], det_idx, det_n)`` and the metadata hooks.
    A trace array is ``(L, P, m)`` (kind ``"setting"``) or ``(L, E, m)`` (kind ``"estimator"``).
    """

    title = "detector"
    binary = False

    def __init__(self, *, grid: list[GridParam], trace: bool, lead_dims, params: dict):
        self.settings, self.grid_dims, self.grid_shape, self.grid_coords = build_grid(grid)
        self.trace = check_bool(trace, "trace")
        self._reader = ChunkReader(lead_dims)
        self.params = params
        self.n_seen = 0
        self._chunks: list[dict] = []
        self._detections: list[list[list[int]]] | None = None
        self._time_coord_chunks: list[dict] = []

    @property
    def lead(self):
        """The leading dims fixed by the first chunk (None before it)."""
        return self._reader.lead

    # -- hooks -------------------------------------------------------------------------------------
    def _setup(self, n_rows: int) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _run(self, x2d: np.ndarray, count0: int):  # pragma: no cover - abstract
        raise NotImplementedError

    def _trace_meta(self) -> dict:
        return {}

    def _constant_vars(self) -> dict:
        return {}

    def _estimator_dims(self):
        return (), ()

    def _extra_coords(self) -> dict:
        return {}

    # -- public ------------------------------------------------------------------------------------
    def update(self, x):
        """Process the next chunk ``x`` of shape ``(..., m)``; returns ``self``."""
        first = self.lead is None
        arr2d, tcoord = self._reader.read(x)
        if self.binary:
            check_binary(arr2d, "x")
        if first:
            self._setup(arr2d.shape[0])
            self._detections = [[[] for _ in self.settings] for _ in range(arr2d.shape[0])]
        trace, det_idx, det_n = self._run(arr2d, self.n_seen)
        for r in range(det_n.shape[0]):
            for p in range(det_n.shape[1]):
                if det_n[r, p]:
                    self._detections[r][p].extend(det_idx[r, p, : det_n[r, p]].tolist())
        if self.trace:
            self._chunks.append(trace)
            self._time_coord_chunks.append(tcoord)
        self.n_seen += arr2d.shape[1]
        return self

    def detections(self) -> list:
        """Detection indices (0-based) as nested lists ``[row][setting] -> list``."""
        if self._detections is None:
            raise ValueError("no data: call update(x) first")
        return self._detections

    def result(self) -> xr.Dataset:
        """The labelled Dataset of everything processed so far."""
        if self.lead is None:
            raise ValueError("no data: call update(x) first")
        lead = self.lead
        n_rows, n_set = lead.size, len(self.settings)
        coords = {**lead.coords, **self.grid_coords, **self._extra_coords()}
        gdims = lead.names + self.grid_dims
        gshape = lead.shape + self.grid_shape
        counts = np.array([[len(d) for d in row] for row in self._detections], dtype=np.int64).reshape(n_rows, n_set)
        width = int(counts.max()) if counts.size else 0
        idx = np.full((n_rows, n_set, width), -1, dtype=np.int64)
        for r in range(n_rows):
            for p in range(n_set):
                idx[r, p, : counts[r, p]] = self._detections[r][p]
        data_vars = {
            "n_detections": (gdims, counts.reshape(gshape), {"long_name": "number of detections", "units": "1"}),
            "detection_index": (
                gdims + ("detection_number",),
                idx.reshape(gshape + (width,)),
                {
                    "long_name": "0-based instance index of each detection",
                    "units": "1",
                    "fill_value_meaning": "-1 pads rows with fewer detections",
                },
            ),
        }
        if self.trace:
            data_vars.update(self._trace_vars(gdims, gshape))
            coords.update(time_coords(np.arange(1, self.n_seen + 1)))
            if self._time_coord_chunks and all(self._time_coord_chunks):
                for key in self._time_coord_chunks[0]:
                    if key != "instance" and all(key in c for c in self._time_coord_chunks):
                        coords[key] = (
                            "time",
                            np.concatenate([np.asarray(c[key].values) for c in self._time_coord_chunks]),
                        )
        ds = xr.Dataset(data_vars, coords=coords)
        ds.attrs = base_attrs(self.title, n_instances=self.n_seen, trace=self.trace, **self.params)
        return ds

    def _run_rows(self, x2d, states: list, trace: dict, call):
        """Run the kernel over blocks of rows on threads, with a large enough detection buffer.

        ``trace``: name -> ``(dtype, second dim)`` of the per-step outputs ``(L, dim, m)`` (``dim`` None:
        the settings); ``call(a, b, tr, rec)`` runs rows ``a .. b - 1`` with ``tr`` the outputs' row
        blocks (``None`` without a trace) and ``rec = (det_idx, det_n)``. Returns ``_run``'s result.
        """
        n_rows, m = x2d.shape
        n_set = len(self.settings)

        def once(det_idx, det_n):
            out = None
            if self.trace:
                out = {k: np.empty((n_rows, n_set if d is None else d, m), dt) for k, (dt, d) in trace.items()}

            def rows(a, b):
                tr = None if out is None else tuple(o[a:b] for o in out.values())
                call(a, b, tr, (det_idx[a:b], det_n[a:b]))

            run_rows(rows, n_rows)
            return out or {}

        return run_with_capacity(once, states, n_rows, n_set, m)

    def _trace_vars(self, gdims, gshape) -> dict:
        lead = self.lead
        out = {}
        for name, (kind, attrs) in self._trace_meta().items():
            parts = [c[name] for c in self._chunks]
            arr = parts[0] if len(parts) == 1 else np.concatenate(parts, axis=-1)
            if kind == "setting":
                out[name] = (gdims + ("time",), arr.reshape(gshape + (arr.shape[-1],)), attrs)
            else:
                edims, eshape = self._estimator_dims()
                out[name] = (lead.names + edims + ("time",), arr.reshape(lead.shape + eshape + (arr.shape[-1],)), attrs)
        for name, (value_fn, attrs) in self._constant_vars().items():
            per_setting = np.array([value_fn(s) for s in self.settings], dtype=np.float64)
            per_setting = np.broadcast_to(per_setting.reshape(self.grid_shape), gshape)
            out[name] = (gdims + ("time",), np.broadcast_to(per_setting[..., None], gshape + (self.n_seen,)), attrs)
        return out
