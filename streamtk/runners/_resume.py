"""The curve store of :func:`streamtk.runners.outofcore.evaluate_store`: safe against a kill, resumable.

Protocol (every file write below is atomic: written beside and renamed, by zarr's local store
or :mod:`streamtk.io.atomic`):

1. **Create** the whole store in a temporary folder beside ``out`` and rename it into place: every
   curve array already has its final length (the number of checkpoints is known from the log's
   length and ``every``), the ``instance`` coordinate is complete, the group attributes carry the
   parameters and the marker ``streamtk_incomplete``, and the resume state is saved. So from
   the first moment the arrays agree in length and a reader sees an explicitly incomplete store.
2. **Write rows** into their region (whole zarr chunks of ``out_chunk`` rows; new chunk files only):
   rows not written yet read as NaN, the fill value.
3. **Save** the resume state (``<out>.resume.pkl`` beside the store: the pickled evaluator and detectors, the
   rows not yet written, the instances done), then update the marker. A kill between any two
   steps leaves rows that are correct (a resumed run rewrites them with the same bytes) and a
   marker that never claims more than is done.
4. **Finish**: the last partial chunk, the detector variables, the final attributes (the marker
   removed; identical to an uninterrupted run's except ``created``, which is the first start),
   consolidated metadata; then the state file is deleted.

Resuming unpickles the state file: resume only stores you (or someone you trust) wrote.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import time
from pathlib import Path

import numpy as np
import xarray as xr

from .._labelled import netcdf_safe
from .._version import __version__
from ..io.atomic import WriteError, atomic_path, check_writable_target, io_failure_reason, is_io_failure
from ..io.netcdf import INCOMPLETE_ATTR, encode_strings, incomplete_marker

STATE_SUFFIX = ".resume.pkl"


def state_path(out: Path) -> Path:
    """The resume state of the store ``out``: ``<out>.resume.pkl`` beside it (zarr warns about foreign
    files inside a store), present only while the store is incomplete."""
    return out.with_name(out.name + STATE_SUFFIX)


STATE_FORMAT = 1
DONE_ATTR = "streamtk_instances_done"
ROWS_ATTR = "streamtk_rows_done"


def _canonical(value):
    """A comparable, readable form of an argument (arrays by shape, dtype and digest)."""
    if isinstance(value, np.ndarray) or (hasattr(value, "dtype") and hasattr(value, "shape")):
        arr = np.ascontiguousarray(np.asarray(value))
        if arr.dtype.kind == "O":
            return ("array", arr.shape, "object", tuple(map(repr, arr.reshape(-1).tolist())))
        return ("array", arr.shape, str(arr.dtype), hashlib.sha256(arr.tobytes()).hexdigest()[:16])
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def fingerprint(*, source, log, names: dict, chunk: int, out_chunk: int, options: dict, detectors: dict) -> dict:
    """What must be equal for a resumed run to continue the interrupted one."""
    shapes = {}
    for name in names.values():
        if name is not None:
            var = log[name]
            shapes[name] = (tuple(var.dims), tuple(int(s) for s in var.shape), str(var.dtype))
    return {
        "source": _source_path(source) or "in-memory Dataset",
        "variables": _canonical(names),
        "log shapes": shapes,
        "chunk": chunk,
        "out_chunk": out_chunk,
        **{k: _canonical(v) for k, v in sorted(options.items())},
        "detectors": {k: (type(d).__name__, repr(_canonical(d.params))) for k, d in sorted(detectors.items())},
    }


def compare_fingerprints(old: dict, new: dict, out) -> None:
    for key in sorted(set(old) | set(new)):
        if key == "classes" and new.get(key) is None:
            continue  # not given now: the interrupted run's classes are used
        if old.get(key) != new.get(key):
            raise ValueError(
                f"resume=True, but {key} differs from the interrupted run stored in {out}: "
                f"{new.get(key)!r} now, {old.get(key)!r} then; call evaluate_store with the same arguments, "
                "or pass overwrite=True (instead of resume=True) to start again"
            )


def _source_path(source):
    if isinstance(source, xr.Dataset):
        src = source.encoding.get("source")
        return None if src is None else str(Path(src).resolve())
    return str(Path(source).resolve())


def refuse_overlap(source, out: Path) -> None:
    """``out`` must not be the input log, inside it, or hold it."""
    src = _source_path(source)
    if src is None:
        return
    src, dst = Path(src), out.resolve()
    if src == dst or src.is_relative_to(dst) or dst.is_relative_to(src):
        what = (
            "is the input log"
            if src == dst
            else ("is inside the input log" if dst.is_relative_to(src) else "holds the input log")
        )
        raise ValueError(f"out={str(out)!r} {what} ({src}); writing the curves there would destroy the input")


def _remove_stale_temporaries(out: Path) -> None:
    """Temporaries of ``out`` left by a killed run (``.<token>.partial.<name>``, ``.<token>.old.<name>``)."""
    import re
    import shutil

    pattern = re.compile(r"\.[0-9a-f]{8}\.(partial|old)\." + re.escape(out.name) + r"(\.resume\.pkl)?")
    if not out.parent.is_dir():
        return
    for p in out.parent.iterdir():
        if not pattern.fullmatch(p.name):
            continue
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)


def _remove_partial_files(out: Path) -> None:
    """zarr's own temporaries (``<key>.<32 hex>.partial``) that a kill left inside the store."""
    import re

    pattern = re.compile(r".*\.[0-9a-f]{32}\.partial")
    for root, _, files in os.walk(out):
        for f in files:
            if pattern.fullmatch(f):
                Path(root, f).unlink(missing_ok=True)


def existing_output(out: Path, *, overwrite: bool, resume: bool):
    """Check ``out`` before any work; returns the saved state when resuming, else None."""
    if resume and overwrite:
        raise ValueError("resume=True and overwrite=True contradict each other: pass one of them")
    _remove_stale_temporaries(out)
    if not os.path.lexists(out) or (out.is_dir() and not out.is_symlink() and not any(out.iterdir())):
        check_writable_target(out, overwrite=True, folder=True, name="out")
        return None
    if resume:
        state = load_state(out)
        _remove_partial_files(out)
        return state
    if not overwrite:
        raise FileExistsError(
            f"out={str(out)!r} already exists; pass overwrite=True to replace it, or resume=True to continue "
            "an interrupted run (nothing was written)"
        )
    check_writable_target(out, overwrite=True, folder=True, name="out")
    return None


def _metric_registry() -> dict:
    try:
        from .._core.metrics import REGISTRY
    except ImportError:
        from .._core.registry import REGISTRY
    return REGISTRY


def _registered_metric(name: str):
    """A metric of the registry, by name (how the resume state refers to metric definitions)."""
    return _metric_registry()[name]


class _StatePickler(pickle.Pickler):
    """Pickles the evaluation state with every registered metric by name: a metric definition is
    code (it may hold lambdas), not state, and is the same object in the resumed process."""

    def reducer_override(self, obj):
        name = getattr(obj, "name", None)
        if isinstance(name, str) and type(obj).__name__ == "Metric" and _metric_registry().get(name) is obj:
            return _registered_metric, (name,)
        return NotImplemented


def load_state(out: Path) -> dict:
    spath = state_path(out)
    try:
        marked = incomplete_marker(out)
    except ValueError as exc:
        raise ValueError(
            f"resume=True, but out={str(out)!r} is not a zarr store written by evaluate_store ({exc})"
        ) from None
    if marked is None:
        remove_state(out)  # a kill after the store was complete, before its state was deleted
        raise ValueError(
            f"resume=True, but out={str(out)!r} is complete: there is nothing to resume (open it with "
            "streamtk.io.open_dataset, or pass overwrite=True to compute it again)"
        )
    if not spath.is_file():
        raise ValueError(
            f"resume=True, but {spath} is missing, so the interrupted run cannot be continued; "
            "pass overwrite=True to start again"
        )
    try:
        with open(spath, "rb") as fh:
            state = pickle.load(fh)  # noqa: S301 - our own file; see the module docstring
    except Exception as exc:  # noqa: BLE001 - any unpickling failure means the same thing
        raise ValueError(f"resume=True, but {spath} cannot be read ({type(exc).__name__}: {exc})") from None
    if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
        raise ValueError(f"resume=True, but {spath} is not a resume state of this format")
    if state.get("streamtk_version") != __version__:
        raise ValueError(
            f"resume=True, but {spath} was written by streamtk {state.get('streamtk_version')} and this is "
            f"streamtk {__version__}; the state of one version cannot be continued by another: pass overwrite=True"
        )
    return state


def json_attrs(attrs: dict) -> dict:
    """Attributes as zarr stores them (JSON): netCDF-safe values, arrays as lists."""
    out = {}
    for k, v in attrs.items():
        v = netcdf_safe(v)
        out[k] = v.tolist() if isinstance(v, (np.ndarray, np.generic)) else v
    return out


def remove_state(out: Path) -> None:
    """Delete the resume state of ``out`` (after the store is complete, or replaced)."""
    spath = state_path(out)
    if spath.exists():
        spath.unlink()


def marker(done: int, n: int, rows: int, total_rows: int) -> dict:
    return {
        INCOMPLETE_ATTR: (
            f"incomplete: {done} of {n} instances done, rows 1-{rows} of {total_rows} written "
            f"(the others are NaN); continue with evaluate_store(..., resume=True), which reads {STATE_SUFFIX}"
        ),
        DONE_ATTR: done,
        ROWS_ATTR: rows,
    }


class CurveStore:
    """The zarr store of the curves: created whole (incomplete), rows written by region, state saved."""

    def __init__(self, out: Path, out_chunk: int, total_rows: int, n: int, *, overwrite: bool):
        self.out, self.out_chunk, self.total_rows, self.n = out, out_chunk, total_rows, n
        self.overwrite = overwrite
        self.created = False

    @contextlib.contextmanager
    def _writing(self, what: str):
        """A failed write (full disk, ...) of the store in use: WriteError naming the store; it stays
        consistent (incomplete, resumable from its last saved state)."""
        try:
            yield
        except Exception as exc:
            cause = exc.__cause__ if isinstance(exc, WriteError) and exc.__cause__ is not None else exc
            if not (isinstance(exc, WriteError) or is_io_failure(exc)):
                raise
            reason, code = io_failure_reason(cause)
            raise WriteError(
                self.out,
                f"{reason} (while {what})",
                errno_=code,
                consequence="the store is left incomplete and consistent: make room and call evaluate_store "
                "again with resume=True",
            ) from cause

    # ------------------------------------------------------------------ creation
    def create(self, template: xr.Dataset, instance: np.ndarray, attrs: dict, state: dict) -> None:
        """Write the full-length, all-NaN store with its attributes and state beside ``out``; rename it in."""
        full = xr.Dataset(coords={k: v for k, v in template.coords.items() if "time" not in v.dims})
        for name, var in template.data_vars.items():
            shape = tuple(self.total_rows if d == "time" else template.sizes[d] for d in var.dims)
            fill = np.array(np.nan if var.dtype.kind == "f" else 0, dtype=var.dtype)
            full[name] = xr.Variable(var.dims, np.broadcast_to(fill, shape), var.attrs)
        full = full.assign_coords(instance=("time", instance.astype(np.int64)))
        full.attrs = {}
        enc = encode_strings(full)
        encoding = {}
        for name, var in enc.variables.items():
            if "time" in var.dims:
                chunks = tuple(self.out_chunk if d == "time" else s for d, s in zip(var.dims, var.shape))
                encoding[name] = {"chunks": chunks}
        self._save_state(state)  # first: a state without its store is ignored (the run starts again)
        with atomic_path(self.out, overwrite=True, folder=True, name="out") as tmp:
            # write_empty_chunks=False: the all-NaN curve chunks are not written (metadata only)
            enc.to_zarr(tmp, mode="w-", zarr_format=2, consolidated=False, encoding=encoding, write_empty_chunks=False)
            self._save_attrs(tmp, attrs)
        self.created = True

    # ------------------------------------------------------------------ rows
    def write_rows(self, ds: xr.Dataset, start: int) -> None:
        """Write curve rows ``[start, start + len)`` (``start`` a multiple of ``out_chunk``)."""
        keep = [k for k, v in ds.data_vars.items() if "time" in v.dims]
        rows = ds[keep].drop_vars([c for c in ds.coords], errors="ignore").drop_attrs(deep=False)
        end = start + rows.sizes["time"]
        with self._writing(f"writing curve rows {start + 1}-{end}"):
            rows.to_zarr(
                self.out,
                region={"time": slice(start, end)},
                zarr_format=2,
                consolidated=False,
                write_empty_chunks=True,
            )

    # ------------------------------------------------------------------ state
    def save(self, state: dict, attrs: dict) -> float:
        """Save the resume state, then the marker; returns the seconds it took."""
        t0 = time.perf_counter()
        with self._writing("saving the resume state"):
            self._save_state(state)
            self._save_attrs(self.out, attrs)
        return time.perf_counter() - t0

    def _save_state(self, state: dict) -> None:
        with atomic_path(state_path(self.out), name="out") as tmp, open(tmp, "wb") as fh:
            _StatePickler(fh, protocol=5).dump({**state, "format": STATE_FORMAT, "streamtk_version": __version__})

    @staticmethod
    def _save_attrs(folder: Path, attrs: dict) -> None:
        import zarr

        group = zarr.open_group(str(folder), mode="r+", zarr_format=2)
        group.attrs.put(json_attrs(attrs))
        zarr.consolidate_metadata(str(folder))

    # ------------------------------------------------------------------ the end
    def finish(self, extra: list, attrs: dict) -> xr.Dataset:

        with self._writing("finishing the store"):
            for e in extra:
                encode_strings(e.drop_attrs(deep=False)).to_zarr(
                    self.out, mode="a", zarr_format=2, consolidated=False, write_empty_chunks=True
                )
            self._save_attrs(self.out, attrs)
        remove_state(self.out)
        ds = xr.open_zarr(self.out, consolidated=True)
        return ds


def _concat_time(pieces: list) -> xr.Dataset:
    if len(pieces) == 1:
        return pieces[0]
    return xr.concat(
        pieces,
        "time",
        data_vars="minimal",
        coords="minimal",
        compat="override",
        join="override",
        combine_attrs="override",
    )


class Sink:
    """Curve rows on their way out: kept in memory (``out=None``) or written to the store in whole chunks."""

    def __init__(self, store: CurveStore | None, out_chunk: int, expected: np.ndarray, pending=(), rows_done=0):
        self.store, self.out_chunk, self.expected = store, out_chunk, expected
        self.pending = list(pending)  # rows not written yet
        self.rows_done = rows_done  # rows written to the store

    @property
    def rows_pending(self) -> int:
        return sum(p.sizes["time"] for p in self.pending)

    def batch_rows(self) -> int:
        """Rows to gather before a write: whole chunks of at least ~1 MB (each write has a fixed cost)."""
        if not self.pending:
            return self.out_chunk
        first = self.pending[0]
        per_row = sum(
            v.dtype.itemsize * int(np.prod([first.sizes[d] for d in v.dims if d != "time"]))
            for v in first.data_vars.values()
        )
        return max(1, -(-(1 << 20) // max(per_row * self.out_chunk, 1))) * self.out_chunk

    def add(self, ds: xr.Dataset) -> None:
        if ds.sizes["time"] or not self.pending:
            self.pending.append(ds)  # an empty piece only when nothing is pending (it keeps the variables)

    def flush(self, *, final: bool) -> None:
        """Write whole chunks of rows (all rows when ``final``) to the store."""
        if self.store is None or not self.pending:
            return
        ds = _concat_time(self.pending)
        rows = ds.sizes["time"]
        cut = rows if final else rows // self.out_chunk * self.out_chunk
        if cut == 0:
            self.pending = [ds]
            return
        head, rest = ds.isel(time=slice(0, cut)), ds.isel(time=slice(cut, None))
        got = head["instance"].values
        want = self.expected[self.rows_done : self.rows_done + cut] + 1
        if not np.array_equal(got, want):  # pragma: no cover - the checkpoint rule is the engine's
            raise RuntimeError(f"checkpoint rows {got[:3]}... differ from the planned instances {want[:3]}...")
        self.store.write_rows(head, self.rows_done)
        self.rows_done += cut
        self.pending = [rest]

    def in_memory(self) -> xr.Dataset:
        return _concat_time(self.pending)
