"""Streams longer than memory: evaluate a stored log chunk by chunk along time.

:func:`evaluate_store` reads a log (``y_true (time)``, ``y_pred (..., time)``,
optionally ``weights`` and scores ``y_score``) from a chunked zarr store or a netCDF file ``chunk``
instances at a time, feeds each slice to :class:`streamtk.Evaluator` (state carried
between chunks: windows, fading, ADWIN, baselines) and to chunked drift detectors
(:class:`~streamtk.drift.adwin.Adwin`, :class:`~streamtk.drift.ddm.DDM`,
:class:`~streamtk.drift.eddm.EDDM`, :class:`~streamtk.drift.page_hinkley.PageHinkley`
on each model's 0/1 loss), and appends the finished checkpoint rows to a zarr store
along ``time`` after every chunk. The curves equal ``streamtk.evaluate`` on the whole
log exactly (the faded and weighted AUC sums to a few units in the last place: they are
summed in another order, see :class:`streamtk.evaluation.score_engine.ChunkedAUC`).

Memory
------
Bounded by the chunk (inputs and their int32 codes), the state, the checkpoint rows
of one chunk, and what the estimators must remember:

* sliding windows keep the inputs still inside the largest window (bounded by it);
* ``adwin=`` estimators hold the members of their window older than the kept
  inputs as one sum per ADWIN bucket (:mod:`streamtk.evaluation._segments`): O(M log W), so an
  ADWIN window that grows over a long stationary log costs no more memory (exact
  without weights; with non-integer weights equal to rounding);
* detectors keep their state and their detection indices (no per-instance traces);
* with ``y_score=``, the exact AUC (:class:`streamtk.evaluation.score_engine.ChunkedAUC`) keeps,
  per model and score column, the sorted **distinct scores seen** with Fenwick trees
  over them for the prequential and fading estimators (``O(distinct scores)``:
  bounded when the scores take few values, e.g. rounded probabilities, but growing
  with the stream when every score is distinct: 8 bytes per distinct score plus 16
  per prequential / fading estimator, twice that while a chunk is merged in); each
  sliding window the scores it holds and a tree over at most ``w + max(8 w, 8192)``
  keys; each ADWIN window the scores of its current window. Measured by
  ``benchmarks/bench_outofcore.py`` (flat RSS with rounded scores).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import xarray as xr

from .._core.validation import check_positive_int
from ..evaluation.curves import Evaluator

__all__ = ["evaluate_store", "open_log"]

_MISSING_ATTR = "streamtk_missing_label"  # marker written by streamtk.io.to_zarr / to_netcdf


def open_log(source) -> xr.Dataset:
    """Open a stored log lazily (nothing is read until sliced): zarr directory or netCDF file."""
    if isinstance(source, xr.Dataset):
        return source
    path = Path(source)
    if not path.exists():
        raise FileNotFoundError(f"log store not found: {path}")
    if path.is_dir() or path.suffix == ".zarr":
        return xr.open_dataset(path, engine="zarr", chunks=None)
    return xr.open_dataset(path, chunks=None)


def _labels(var: xr.DataArray) -> np.ndarray:
    values = var.values
    if _MISSING_ATTR in var.attrs:
        values = values.astype(object)
        values[values == var.attrs[_MISSING_ATTR]] = None
    elif values.dtype.kind == "T":  # numpy StringDType (zarr 3 reads text so): plain Python strings
        values = values.astype(object)
    return values


def _scan_classes(log, y_true, y_pred, tdim, chunk):
    """Sorted union of the labels in the log (one streaming pass)."""
    from .._core.labels import encode_labels

    seen = {}
    n = log.sizes[tdim]
    for s in range(0, n, chunk):
        sl = {tdim: slice(s, min(s + chunk, n))}
        yt, yp = _labels(log[y_true].isel(sl)), _labels(log[y_pred].isel(sl))
        if yt.dtype.kind in "iub" and yp.dtype.kind in "iub":
            labels = np.union1d(np.unique(yt), np.unique(yp)).tolist()
        else:  # the project's rules for missing labels and mixed types
            labels = encode_labels(yt, yp)[0].classes.tolist()
        seen.update(dict.fromkeys(labels))
    enc, _ = encode_labels(np.array(list(seen), dtype=object))
    return enc.classes.tolist()


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


class _Sink:
    """Appends curve rows to a zarr store along ``time`` in whole zarr chunks (or keeps them in memory)."""

    def __init__(self, out, out_chunk):
        self.out = None if out is None else Path(out)
        self.out_chunk = out_chunk
        self.pieces = []  # curve rows not written yet
        self.rows = 0
        self.extra = []
        self.started = False

    def write(self, ds: xr.Dataset) -> None:
        if ds.sizes["time"] == 0:
            return
        self.pieces.append(ds)
        self.rows += ds.sizes["time"]
        if self.out is not None and self.rows >= self.out_chunk:
            self._flush(final=False)

    def _flush(self, *, final: bool) -> None:
        if not self.pieces:
            return
        ds = _concat_time(self.pieces)
        cut = ds.sizes["time"] if final else ds.sizes["time"] // self.out_chunk * self.out_chunk
        head, rest = ds.isel(time=slice(0, cut)), ds.isel(time=slice(cut, None))
        self.pieces = [rest] if rest.sizes["time"] else []
        self.rows = rest.sizes["time"]
        self._append(head)

    def _append(self, ds: xr.Dataset) -> None:
        from ..io import _encode_strings

        enc = _encode_strings(ds)
        if not self.started:
            encoding = {
                name: {"chunks": tuple(self.out_chunk if d == "time" else s for d, s in zip(var.dims, var.shape))}
                for name, var in enc.data_vars.items()
            }
            enc.to_zarr(self.out, mode="w", zarr_format=2, consolidated=True, encoding=encoding)
            self.started = True
        else:
            keep = [k for k, v in enc.variables.items() if "time" in v.dims]
            enc[keep].drop_attrs(deep=False).to_zarr(
                self.out, mode="a", append_dim="time", zarr_format=2, consolidated=True
            )

    def add_vars(self, ds: xr.Dataset) -> None:
        self.extra.append(ds)

    def finish(self, attrs: dict) -> xr.Dataset:
        if self.out is None:
            ds = _concat_time(self.pieces)
            for e in self.extra:
                ds = ds.merge(e)
            ds.attrs = attrs
            return ds
        self._flush(final=True)
        for e in self.extra:
            e.to_zarr(self.out, mode="a", zarr_format=2, consolidated=True)
        import zarr

        from .._labelled import netcdf_safe

        group = zarr.open_group(str(self.out), mode="r+", zarr_format=2)
        for key in list(group.attrs):
            del group.attrs[key]  # the first piece's attrs (partial counts, IO markers)
        group.attrs.update({k: _jsonable(netcdf_safe(v)) for k, v in attrs.items()})
        zarr.consolidate_metadata(str(self.out))
        ds = xr.open_zarr(self.out, consolidated=True)
        ds.attrs = attrs  # exact types (length-1 lists stay lists)
        return ds


def _jsonable(v):
    return v.tolist() if isinstance(v, np.ndarray) else v


def _check_detectors(detectors) -> dict:
    from ..drift._common import ChunkedDetector
    from ..drift.adwin import Adwin

    if detectors is None:
        return {}
    if not isinstance(detectors, dict):
        raise TypeError(
            f"detectors must be a dict name -> detector object (e.g. {{'ddm': DDM(trace=False)}}), got {detectors!r}"
        )
    for key, det in detectors.items():
        if isinstance(det, ChunkedDetector):
            if det.trace:
                raise ValueError(
                    f"detectors[{key!r}] keeps a per-instance trace, which grows with the stream: "
                    "construct it with trace=False"
                )
        elif not isinstance(det, Adwin):
            raise TypeError(f"detectors[{key!r}] must be an Adwin, DDM, EDDM or PageHinkley object, got {det!r}")
        if det.n_seen:
            raise ValueError(f"detectors[{key!r}] has already seen {det.n_seen} instances; pass a fresh one")
    return dict(detectors)


def _feed_detectors(detectors, adwin_hits, loss, lead):
    from ..drift.adwin import Adwin

    for key, det in detectors.items():
        x = lead.reshape(loss) if lead.names else loss[0]
        det.update(xr.DataArray(x, dims=lead.names + ("time",), coords=lead.coords) if lead.names else x)
        if isinstance(det, Adwin):  # keep only the detection steps, not the per-instance trace
            for _width, _mean, _variance, detection, instance in det._chunks:
                rows, cols = np.nonzero(detection)
                for r, c in zip(rows.tolist(), cols.tolist()):
                    adwin_hits[key][r].append((int(instance[c]) - 1, int(detection[r, c])))
            det._chunks.clear()
            det._time_coords.clear()


def _detector_vars(detectors, adwin_hits, lead) -> xr.Dataset:
    from ..drift.adwin import Adwin

    parts = []
    for key, det in detectors.items():
        num = f"{key}_detection_number"
        if isinstance(det, Adwin):
            hits = adwin_hits[key]
            width = max([len(h) for h in hits] + [0])
            idx = np.full((len(hits), width), -1, dtype=np.int64)
            sign = np.zeros((len(hits), width), dtype=np.int8)
            for r, h in enumerate(hits):
                if h:
                    idx[r, : len(h)] = [i for i, _ in h]
                    sign[r, : len(h)] = [s for _, s in h]
            dims = lead.names + (num,)
            parts.append(
                xr.Dataset(
                    {
                        f"{key}_n_detections": (
                            lead.names,
                            lead.reshape(np.array([len(h) for h in hits], dtype=np.int64))
                            if lead.names
                            else np.int64(len(hits[0])),
                            {"long_name": "number of ADWIN cuts", "units": "1"},
                        ),
                        f"{key}_detection_index": (
                            dims,
                            lead.reshape(idx) if lead.names else idx[0],
                            {
                                "long_name": "0-based instance index of each ADWIN cut",
                                "fill_value_meaning": "-1 pads rows with fewer detections",
                            },
                        ),
                        f"{key}_detection_sign": (
                            dims,
                            lead.reshape(sign) if lead.names else sign[0],
                            {"long_name": "ADWIN detection flag at the cut (+1 mean rose, -1 not)"},
                        ),
                    },
                    coords=lead.coords,
                )
            )
        else:
            res = det.result()
            res = res.rename({v: f"{key}_{v}" for v in res.data_vars}).rename_dims({"detection_number": num})
            parts.append(res.drop_attrs(deep=False))
    return xr.merge(parts, combine_attrs="drop") if parts else xr.Dataset()


def evaluate_store(
    source,
    *,
    chunk=1_000_000,
    out=None,
    classes=None,
    y_true="y_true",
    y_pred="y_pred",
    weights=None,
    y_score=None,
    detectors=None,
    progress=None,
    out_chunk=1024,
    **options,
) -> xr.Dataset:
    """Evaluate a stored log chunk by chunk along time, with bounded memory.

    Parameters
    ----------
    source : path or xarray.Dataset
        A zarr store (directory) or netCDF file holding the log (see
        :mod:`streamtk.io`), or a lazily opened Dataset. Only ``chunk`` instances
        are read at a time.
    chunk : int
        Instances per step (align it with the store's time chunks for speed).
    out : path, optional
        zarr store (format 2) for the curves: after every step the finished
        checkpoint rows are appended along ``time``; returned opened lazily. If
        ``None``, the curves are kept in memory and returned (memory then grows
        with the number of checkpoints).
    classes : sequence, optional
        The class order; default: a first streaming pass collects the labels.
    y_true, y_pred, weights : str
        Variable names in the log (``weights`` optional).
    y_score : str, optional
        Name of the log's scores (e.g. ``"y_score"``): ``(..., time)`` positive-class
        scores or ``(..., time, class)`` class scores (columns in ``classes`` order).
        Adds ``log_loss``, ``brier`` and the exact AUC family (``auc``, ``auc_u1``,
        ``auc_u0``, ``auc_z``; per class one-vs-rest and ``auc_macro`` for class
        scores), as :func:`streamtk.evaluate` with ``y_score=``; see the module
        docstring for the memory the AUC keeps.
    detectors : dict of str -> detector, optional
        Fresh chunked detectors fed with each model's 0/1 loss
        ``[y_pred != y_true]`` (the log must then have no missing label):
        :class:`~streamtk.drift.adwin.Adwin` (only its detections are kept) or
        ``DDM`` / ``EDDM`` / ``PageHinkley`` with ``trace=False``. Their
        ``n_detections`` and ``detection_index`` are stored as
        ``<name>_n_detections``, ``<name>_detection_index`` (Adwin adds
        ``<name>_detection_sign``).
    progress : None, True or callable
        ``True`` shows a tqdm bar; a callable is called as ``progress(n_done, n_total)``
        after every step.
    out_chunk : int
        zarr chunk length of the stored curves along ``time``; rows are buffered
        and appended in whole chunks of this many checkpoints.
    **options
        Options of :func:`streamtk.evaluate` (``windows``, ``fading``, ``adwin``,
        ``every``, ``metrics``, ``convention``, ``cost`` (an ``(n, k, k)`` cost is
        held in memory whole), ``pos_label``, ``adwin_options``).

    Returns
    -------
    xarray.Dataset
        The curves of :func:`streamtk.evaluate` on the whole log (identical values),
        plus the detector variables.

    See Also
    --------
    streamtk.Evaluator : the chunked evaluator used here.
    streamtk.runners.distributed.evaluate_dask : many runs that each fit in memory.
    moa.tasks.EvaluatePrequential : MOA streams from its generator or an ARFF file, never a recorded log.

    Examples
    --------
    >>> import numpy as np, xarray as xr
    >>> log = xr.Dataset({"y_true": ("time", np.array([0, 1, 1, 0, 1, 1])),
    ...                   "y_pred": (("model", "time"), np.array([[0, 1, 0, 0, 1, 1]]))})
    >>> ds = evaluate_store(log, chunk=4, classes=[0, 1], windows=3, metrics=["accuracy"])
    >>> ds.accuracy.sel(estimator="window=3").values.round(3).tolist()
    [[1.0, 1.0, 0.667, 0.667, 0.667, 1.0]]
    """
    chunk = check_positive_int(chunk, "chunk")
    log = open_log(source)
    for name in (y_true, y_pred) + tuple(v for v in (weights, y_score) if v is not None):
        if name not in log:
            raise ValueError(f"the log has no variable {name!r}; it has {sorted(log.data_vars)}")
    tdim = log[y_true].dims[-1] if log[y_true].ndim == 1 else None
    if tdim is None:
        raise ValueError(f"{y_true} must be one-dimensional (time,), got dims {log[y_true].dims}")
    ypda = log[y_pred].transpose(..., tdim)
    n = log.sizes[tdim]
    if n == 0:
        raise ValueError("the log is empty: there is nothing to evaluate")
    if classes is None:
        classes = _scan_classes(log, y_true, y_pred, tdim, chunk)
    dets = _check_detectors(detectors)
    scda = None
    if y_score is not None:
        scda = log[y_score]
        if tdim not in scda.dims:
            raise ValueError(f"{y_score} must have the time dim {tdim!r}, got dims {scda.dims}")
        extra = [d for d in scda.dims if d != tdim and d not in ypda.dims]
        if len(extra) > 1:
            raise ValueError(f"{y_score} must have dims (..., {tdim}[, class]), got {scda.dims}")
        scda = scda.transpose(*[d for d in ypda.dims if d in scda.dims], *extra)
        options["scores"] = "multi" if extra else "binary"
    ev = Evaluator(classes=classes, n_instances=n, **options)
    sink = _Sink(out, check_positive_int(out_chunk, "out_chunk"))
    bar = None
    if progress is True:
        from tqdm.auto import tqdm

        bar = tqdm(total=n, unit="inst")
    adwin_hits = None
    for s in range(0, n, chunk):
        e = min(s + chunk, n)
        sl = {tdim: slice(s, e)}
        yt = _labels(log[y_true].isel(sl))
        yp_da = ypda.isel(sl)
        yp = xr.DataArray(
            _labels(yp_da), dims=yp_da.dims, coords={k: v for k, v in yp_da.coords.items() if tdim not in v.dims}
        )
        w = log[weights].isel(sl).transpose(..., tdim) if weights is not None else None
        sc = scda.isel(sl).values if scda is not None else None
        ev.update(yt, yp if yp.ndim > 1 else yp.values, weights=w, y_score=sc)
        if dets:
            if adwin_hits is None:
                adwin_hits = {k: [[] for _ in range(ev._lead.size)] for k in dets}
            _feed_detectors(dets, adwin_hits, _loss(yt, yp.values, ev._lead.size), ev._lead)
        sink.write(ev.drain(final=ev.n_seen == n))
        if bar is not None:
            bar.update(e - s)
        elif callable(progress):
            progress(e, n)
    if bar is not None:
        bar.close()
    if dets:
        sink.add_vars(_detector_vars(dets, adwin_hits, ev._lead))
    attrs = ev.drain(final=False).attrs
    attrs.update(chunk=chunk, log=str(source) if not isinstance(source, xr.Dataset) else "in-memory Dataset")
    return sink.finish(attrs)


def _loss(yt, yp, L) -> np.ndarray:
    miss = (
        np.array([v is None for v in yt.tolist()])
        if yt.dtype == object
        else (np.isnan(yt) if yt.dtype.kind == "f" else np.zeros(yt.shape, bool))
    )
    if miss.any():
        raise ValueError(
            "detectors need a label for every instance: y_true has missing labels at 0-based "
            f"chunk positions {np.flatnonzero(miss)[:5].tolist()}"
        )
    return (yp.reshape(L, -1) != yt[None, :]).astype(np.float64)
