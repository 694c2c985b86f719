"""Where a recording goes: chunk buffers kept in memory, or appended to a zarr store as they fill.

A chunk holds, for ``size`` instances, the true class codes, each model's predicted codes
(-1: none), class scores (NaN: none), time per instance (s) and memory (bytes, NaN between
measurements). :class:`MemorySink` keeps the chunks and builds the log at the end;
:class:`ZarrSink` appends each full chunk to a zarr store and marks the store
``recording = "incomplete"`` with ``n_instances`` done until the run ends.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

__all__ = ["Chunk", "MemorySink", "ZarrSink", "label_array"]


class Chunk:
    """Buffers for ``size`` instances of ``m`` models and ``k`` class-score columns (``k`` may grow)."""

    def __init__(self, m: int, size: int, k: int, scores: bool):
        self.m, self.size = m, size
        self.y = np.full(size, -1, np.int32)
        self.pred = np.full((m, size), -1, np.int32)
        self.score = np.zeros((m, size, max(k, 1))) if scores else None
        self.time = np.full((m, size), np.nan)
        self.mem = np.full((m, size), np.nan)
        self.n = 0

    def widen(self, k: int) -> None:
        """Room for ``k`` score columns: new columns 0 (a class a model has not scored), NaN in NaN rows."""
        if self.score is not None and k > self.score.shape[2]:
            old = self.score
            wider = np.zeros((self.m, self.size, max(k, 2 * old.shape[2])))
            wider[:, :, : old.shape[2]] = old
            wider[np.isnan(old[:, :, 0])] = np.nan
            self.score = wider

    def trimmed(self, k: int):
        """``(y, pred, score, time, mem)`` of the filled rows, scores with exactly ``k`` columns."""
        n = self.n
        sc = None
        if self.score is not None:
            sc = self.score[:, :n, :k]
            if sc.shape[2] < k:  # classes that appeared after this chunk: score 0 (NaN in NaN rows)
                pad = np.zeros((self.m, n, k - sc.shape[2]))
                pad[np.isnan(sc[:, :, 0])] = np.nan
                sc = np.concatenate([sc, pad], axis=2)
        return self.y[:n], self.pred[:, :n], sc, self.time[:, :n], self.mem[:, :n]


def label_array(codes: np.ndarray, classes: list, *, storage: bool = False) -> np.ndarray:
    """Class codes (-1 missing) -> labels: object array with None (``storage=False``), or for a
    store: fixed-width text with '' missing / float64 with NaN missing."""
    if storage:
        if all(isinstance(c, str) for c in classes):
            width = max([len(c) for c in classes] + [1])
            table = np.array(list(classes) + [""], dtype=f"<U{width}")
        else:
            table = np.array([float(c) for c in classes] + [np.nan], dtype=np.float64)
    else:
        table = np.array(list(classes) + [None], dtype=object)
    return table[np.where(codes < 0, len(classes), codes)]


class MemorySink:
    """Keeps the filled chunks; :meth:`arrays` concatenates them."""

    def __init__(self):
        self.chunks = []

    def flush(self, chunk: Chunk, k: int) -> None:
        self.chunks.append(chunk.trimmed(k))

    def arrays(self, k: int):
        parts = list(zip(*self.chunks)) if self.chunks else None
        if parts is None:
            return None
        y = np.concatenate(parts[0])
        pred = np.concatenate(parts[1], axis=1)
        sc = None
        if parts[2][0] is not None:
            sc = np.concatenate([_pad(s, k) for s in parts[2]], axis=1)
        return y, pred, sc, np.concatenate(parts[3], axis=1), np.concatenate(parts[4], axis=1)


def _pad(sc, k):
    """Score columns up to ``k``: 0 for classes that appeared later (NaN in rows without scores)."""
    if sc.shape[2] == k:
        return sc
    pad = np.zeros(sc.shape[:2] + (k - sc.shape[2],))
    pad[np.isnan(sc[:, :, 0])] = np.nan
    return np.concatenate([sc, pad], axis=2)


class ZarrSink:
    """Appends chunks to a zarr store (format 2, consolidated metadata) along ``time``."""

    def __init__(self, path, *, models, classes, attrs, overwrite: bool):
        try:
            import zarr  # noqa: F401
        except ImportError:
            raise ImportError("out=<store>.zarr needs the zarr package: pip install zarr") from None
        self.final = Path(path)
        if self.final.exists() and not overwrite:
            raise FileExistsError(f"out={str(path)!r} exists; pass overwrite=True to replace it")
        if not self.final.parent.is_dir():
            raise FileNotFoundError(f"out={str(path)!r}: the folder {self.final.parent} does not exist")
        # an existing store is replaced only when the new one is complete
        self.path = self.final.with_name(self.final.name + ".partial") if self.final.exists() else self.final
        if self.path != self.final and self.path.exists():
            shutil.rmtree(self.path)
        self.models = list(models)
        self.classes = list(classes)
        self.attrs = dict(attrs)
        self.n_done = 0

    def flush(self, chunk: Chunk, k: int) -> None:
        import xarray as xr

        from streamtk.io._classes import attr_value
        from streamtk.io.log import as_labels

        y, pred, sc, tim, mem = chunk.trimmed(k)
        n0, n = self.n_done, len(y)
        cls = as_labels(self.classes, "classes")
        label_attrs = {"classes": attr_value(cls)}
        if all(isinstance(c, str) for c in self.classes):
            label_attrs["streamtk_missing_label"] = ""
        data = {
            "y_true": ("time", label_array(y, self.classes, storage=True), {"long_name": "true label", **label_attrs}),
            "y_pred": (("model", "time"), label_array(pred, self.classes, storage=True),
                       {"long_name": "predicted label", **label_attrs}),
            "time_s": (("model", "time"), tim, {"long_name": "processing time", "units": "s"}),
            "memory_bytes": (("model", "time"), mem, {"long_name": "model memory", "units": "bytes"}),
        }  # fmt: skip
        if sc is not None:
            data["y_score"] = (("model", "time", "class"), sc, {"long_name": "class score"})
        coords = {"instance": ("time", np.arange(n0 + 1, n0 + n + 1, dtype=np.int64))}
        if n0 == 0:
            coords["model"] = ("model", np.array(self.models, dtype=str))
            coords["class"] = ("class", cls.astype(str) if cls.dtype.kind == "O" else cls)
        ds = xr.Dataset(data, coords=coords)
        if n0 == 0:
            ds.attrs = {**self.attrs, "recording": "incomplete", "n_instances": 0}
            ds.to_zarr(self.path, mode="w-", zarr_format=2, consolidated=True, write_empty_chunks=True)
        else:
            ds = ds.drop_vars([v for v in ds.variables if "time" not in ds[v].dims])
            ds.to_zarr(
                self.path, mode="a", append_dim="time", zarr_format=2, consolidated=True, write_empty_chunks=True
            )
        self.n_done = n0 + n
        self._mark("incomplete")

    def _mark(self, state: str) -> None:
        import zarr

        group = zarr.open_group(str(self.path), mode="r+", zarr_format=2)
        group.attrs.update({"recording": state, "n_instances": int(self.n_done)})
        zarr.consolidate_metadata(str(self.path))

    def close(self) -> Path:
        """Mark the store complete (and put it in place of the old one); returns its path."""
        self._mark("complete")
        if self.path != self.final:
            old = self.final.with_name(self.final.name + ".old")
            self.final.rename(old)
            self.path.rename(self.final)
            shutil.rmtree(old)
        return self.final
