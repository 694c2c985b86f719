"""Streams longer than memory: evaluate a stored log chunk by chunk along time.

:func:`evaluate_store` reads a log (``y_true (time)``, ``y_pred (..., time)``,
optionally ``weights`` and scores ``y_score``) from a chunked zarr store or a netCDF file ``chunk``
instances at a time, feeds each slice to :class:`streamtk.Evaluator` (state carried
between chunks: windows, fading, ADWIN, baselines) and to chunked drift detectors
(:class:`~streamtk.drift.adwin.Adwin`, :class:`~streamtk.drift.ddm.DDM`,
:class:`~streamtk.drift.eddm.EDDM`, :class:`~streamtk.drift.page_hinkley.PageHinkley`
on each model's 0/1 loss), and writes the finished checkpoint rows into a zarr store
after every chunk.

Exactness against ``streamtk.evaluate`` on the whole log
---------------------------------------------------------
Bit-identical for every metric of the prequential, sliding-window and fading estimators,
and for ``adwin=`` estimators whenever the sums they hold are integer-valued: no weights (or
integer weights) and metrics built from counts (accuracy, kappa and its variants, precision,
recall, F1, MCC, the means, ``n_instances``, ``risk`` with integer costs). Not bit-identical:

* ``adwin=`` with a non-integer per-instance quantity ``x`` (``brier``, ``log_loss``, ``risk``
  with non-integer costs) or non-integer weights ``w``: the members that left the kept history
  are held as one sum per ADWIN bucket (:mod:`streamtk.evaluation._segments`), added in another
  order than the one pass subtracts them instance by instance. Both are running sums over the
  whole stream with the leaving members subtracted, so both carry the rounding of the whole
  prefix: at instance ``t`` the two agree within
  ``64 * eps * sum_{s <= t} w_s |x_s| / sum_{s in window} w_s`` (``eps = 2**-52``; measured at most
  ``13 * eps`` on that scale; ``tests/test_resume.py`` checks it). A window 100 times shorter
  than the prefix therefore agrees to about ``1e-13`` relative, not to the last place;
* the faded and weighted AUC: summed in another order, to a few units in the last place
  (:class:`streamtk.evaluation.score_engine.ChunkedAUC`).

Safety
------
``out`` may not be the input (or hold it, or lie inside it); an existing ``out`` is replaced
only with ``overwrite=True`` (and only if it is a zarr store or empty). The store is created
whole before the first row is written (every array at its final length, the parameters in
its attributes, the marker ``streamtk_incomplete = "incomplete: N of M instances done, ..."``)
and a resume state is saved as the run goes (:mod:`streamtk.runners._resume`), so a kill
(SIGKILL, the out-of-memory killer, a full disk) at any moment leaves a store whose arrays
agree, that says it is incomplete, and that ``resume=True`` finishes with exactly the bytes of
an uninterrupted run (the attribute ``created`` is the first start in both).

Memory
------
Bounded by the chunk (inputs and their int32 codes), the state, the checkpoint rows
of one chunk, and what the estimators must remember:

* sliding windows keep the inputs still inside the largest window (bounded by it);
* ``adwin=`` estimators hold the members of their window older than the kept
  inputs as one sum per ADWIN bucket (:mod:`streamtk.evaluation._segments`): O(M log W), so an
  ADWIN window that grows over a long stationary log costs no more memory (see
  Exactness above);
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

import numbers
import os
import time
from pathlib import Path

import numpy as np
import xarray as xr

from .._core.mechanisms import checkpoints
from .._core.validation import check_positive_int
from ..evaluation.curves import Evaluator
from ..io.log import LogFormatError
from ._detectors import check_detectors, detector_vars, feed_detectors, loss_of
from ._resume import (
    CurveStore,
    Sink,
    compare_fingerprints,
    existing_output,
    fingerprint,
    marker,
    refuse_overlap,
)

__all__ = ["evaluate_store", "open_log"]

_MISSING_ATTR = "streamtk_missing_label"  # marker written by streamtk.io.to_zarr / to_netcdf
_SAVE_OVERHEAD = 10.0  # adaptive saving: at least this many times the last save's cost between saves


def open_log(source) -> xr.Dataset:
    """Open a stored log lazily (nothing is read until sliced): zarr directory or netCDF file.

    A zarr store is first checked for missing chunks (:func:`streamtk.io.netcdf.check_zarr_chunks`),
    which zarr would otherwise read as zeros; an unreadable file raises :class:`LogFormatError`.
    """
    if isinstance(source, xr.Dataset):
        return source
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"source must be a path or an xarray.Dataset, got {source!r} of type {type(source).__name__}")
    path = Path(source)
    if not path.exists():
        raise FileNotFoundError(f"log store not found: {path}")
    zarr_store = path.is_dir() or path.suffix == ".zarr"
    if zarr_store:
        from ..io.netcdf import check_zarr_chunks

        check_zarr_chunks(path, what="log")
    try:
        if zarr_store:
            return xr.open_dataset(path, engine="zarr", chunks=None)
        return xr.open_dataset(path, chunks=None, cache=False)
    except Exception as exc:  # noqa: BLE001 - every backend has its own error types
        raise LogFormatError(f"not a readable log store ({type(exc).__name__}: {exc})", path=path) from None


def _labels(var: xr.DataArray) -> np.ndarray:
    values = var.values
    if _MISSING_ATTR in var.attrs:
        values = values.astype(object)
        values[values == var.attrs[_MISSING_ATTR]] = None
    elif values.dtype.kind == "T":  # numpy StringDType (zarr 3 reads text so): plain Python strings
        values = values.astype(object)
    return values


def _read(source, var: xr.DataArray, name: str, lo: int, hi: int, labels: bool = False):
    """``var``'s values (labels decoded); a damaged chunk is a LogFormatError naming the place."""
    try:
        return _labels(var) if labels else var.values
    except (MemoryError, KeyboardInterrupt, LogFormatError):
        raise
    except Exception as exc:  # noqa: BLE001 - codecs and backends raise many types
        where = "in-memory Dataset" if isinstance(source, xr.Dataset) else source
        raise LogFormatError(
            f"cannot read the data ({type(exc).__name__}: {exc})",
            path=where,
            chunk=f"instances {lo + 1}-{hi}",
            column_name=name,
        ) from None


def _scan_classes(source, log, y_true, y_pred, tdim, chunk):
    """Sorted union of the labels in the log (one streaming pass)."""
    from .._core.labels import encode_labels

    seen = {}
    n = log.sizes[tdim]
    for s in range(0, n, chunk):
        e = min(s + chunk, n)
        sl = {tdim: slice(s, e)}
        yt = _read(source, log[y_true].isel(sl), y_true, s, e, labels=True)
        yp = _read(source, log[y_pred].isel(sl), y_pred, s, e, labels=True)
        if yt.dtype.kind in "iub" and yp.dtype.kind in "iub":
            labels = np.union1d(np.unique(yt), np.unique(yp)).tolist()
        else:  # the project's rules for missing labels and mixed types
            labels = encode_labels(yt, yp, names=(y_true, y_pred), check_overlap=False)[0].classes.tolist()
        seen.update(dict.fromkeys(labels))
    enc, _ = encode_labels(np.array(list(seen), dtype=object), names=(y_true,))
    return enc.classes.tolist()


def _check_save_every(value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not value >= 0:
        raise ValueError(f"save_every must be None or a number of seconds >= 0, got {value!r}")
    return float(value)


def _check_flag(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def evaluate_store(
    source,
    *,
    chunk=1_000_000,
    out=None,
    overwrite=False,
    resume=False,
    save_every=None,
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
    """Evaluate a stored log chunk by chunk along time, with bounded memory; safe to kill and resume.

    Parameters
    ----------
    source : path or xarray.Dataset
        A zarr store (directory) or netCDF file holding the log (see
        :mod:`streamtk.io`), or a lazily opened Dataset. Only ``chunk`` instances
        are read at a time. A zarr store with a missing chunk is refused
        (:class:`~streamtk.io.LogFormatError`), as is a damaged chunk when it is read.
    chunk : int
        Instances per step (align it with the store's time chunks for speed).
    out : path, optional
        zarr store (format 2) for the curves, created whole at the start and filled as
        the run goes (see the module docstring); returned opened lazily. It may not be
        the input. If ``None``, the curves are kept in memory and returned (memory then
        grows with the number of checkpoints).
    overwrite : bool
        Replace an existing ``out`` (a zarr store or an empty folder; any other folder or
        a file is never replaced). Default: an existing ``out`` is an error, nothing is written.
    resume : bool
        Continue the interrupted run whose incomplete store is ``out`` (its saved state is
        unpickled: resume only stores you trust). Every argument must equal the interrupted
        run's (``classes`` may be omitted); the result is the uninterrupted run's store, byte
        for byte. If ``out`` does not exist the run starts from the beginning.
    save_every : float, optional
        Seconds between saves of the resume state (0: after every chunk). Default: adaptive,
        after a chunk whenever the time since the last save is at least 10 times what that
        save took (saving costs at most about a tenth of the run). A kill loses the work
        since the last save, never the results before it.
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
        and written in whole chunks of this many checkpoints.
    **options
        Options of :func:`streamtk.evaluate` (``windows``, ``fading``, ``adwin``,
        ``every``, ``metrics``, ``convention``, ``cost`` (an ``(n, k, k)`` cost is
        held in memory whole), ``pos_label``, ``adwin_options``).

    Returns
    -------
    xarray.Dataset
        The curves of :func:`streamtk.evaluate` on the whole log (see the module docstring
        for where they are bit-identical), plus the detector variables.

    Raises
    ------
    FileExistsError
        ``out`` exists and neither ``overwrite`` nor ``resume`` is given.
    ValueError
        ``out`` is the input; ``resume=True`` with different arguments (naming the argument
        and both values) or on a complete store.
    LogFormatError
        A missing or damaged chunk of the log (naming the file, the variable and the instances).

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
    out_chunk = check_positive_int(out_chunk, "out_chunk")
    overwrite, resume = _check_flag(overwrite, "overwrite"), _check_flag(resume, "resume")
    save_every = _check_save_every(save_every)
    state = None
    if out is None:
        if resume or overwrite:
            raise ValueError(f"{'resume' if resume else 'overwrite'}=True applies to out=, which is None")
    else:
        if not isinstance(out, (str, os.PathLike)):
            raise TypeError(f"out must be a path (str or os.PathLike), got {out!r} of type {type(out).__name__}")
        out = Path(out)
        if isinstance(source, (str, os.PathLike, xr.Dataset)):
            refuse_overlap(source, out)
        if out.suffix.lower() in (".nc", ".nc4", ".netcdf", ".h5", ".csv", ".gz", ".parquet", ".npz", ".txt"):
            raise ValueError(f"out is a zarr store (a folder): give it a name like 'curves.zarr', got {str(out)!r}")
        state = existing_output(out, overwrite=overwrite, resume=resume)
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
    dets = check_detectors(detectors)
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
    names = {"y_true": y_true, "y_pred": y_pred, "weights": weights, "y_score": y_score}
    if state is None and classes is None:
        classes = _scan_classes(source, log, y_true, y_pred, tdim, chunk)
    fp = fingerprint(
        source=source, log=log, names=names, chunk=chunk, out_chunk=out_chunk,
        options={**options, "classes": None if classes is None else list(classes)}, detectors=dets,
    )  # fmt: skip
    if state is not None:
        compare_fingerprints(state["fingerprint"], fp, out)
        fp = state["fingerprint"]
        ev, dets, adwin_hits = state["evaluator"], state["detectors"], state["adwin_hits"]
        start, created = state["n_done"], state["created"]
    else:
        ev = Evaluator(classes=classes, n_instances=n, **options)
        adwin_hits = None
        start, created = 0, None
    expected = checkpoints(0, n, ev.plan.every, last=True)
    store = None if out is None else CurveStore(out, out_chunk, expected.size, n, overwrite=overwrite)
    if store is not None and state is not None:
        store.created = True
    sink = Sink(store, out_chunk, expected, *(() if state is None else (state["pending"], state["rows_done"])))
    bar = None
    if progress is True:
        from tqdm.auto import tqdm

        bar = tqdm(total=n, initial=start, unit="inst")
    last_save, save_cost = time.perf_counter(), 0.0
    base_attrs = None
    for s in range(start, n, chunk):
        e = min(s + chunk, n)
        sl = {tdim: slice(s, e)}
        yt = _read(source, log[y_true].isel(sl), y_true, s, e, labels=True)
        yp_da = ypda.isel(sl)
        yp = xr.DataArray(
            _read(source, yp_da, y_pred, s, e, labels=True),
            dims=yp_da.dims,
            coords={k: v for k, v in yp_da.coords.items() if tdim not in v.dims},
        )
        w = None
        if weights is not None:
            wda = log[weights].isel(sl).transpose(..., tdim)
            w = wda.copy(data=_read(source, wda, weights, s, e))
        sc = _read(source, scda.isel(sl), y_score, s, e) if scda is not None else None
        ev.update(yt, yp if yp.ndim > 1 else yp.values, weights=w, y_score=sc)
        if dets:
            if adwin_hits is None:
                adwin_hits = {k: [[] for _ in range(ev._lead.size)] for k in dets}
            feed_detectors(dets, adwin_hits, loss_of(yt, yp.values, ev._lead.size), ev._lead)
        rows = ev.drain(final=ev.n_seen == n)
        sink.add(rows)
        if store is not None:
            if base_attrs is None:
                base_attrs = _run_attrs(rows.attrs, chunk, source, created)
                created = base_attrs["created"]

            def snapshot():
                return {
                    "fingerprint": fp, "evaluator": ev, "detectors": dets, "adwin_hits": adwin_hits,
                    "n_done": e, "rows_done": sink.rows_done, "pending": sink.pending, "created": created,
                }  # fmt: skip

            if not store.created:  # the whole store, incomplete, with the state after this first chunk
                t0 = time.perf_counter()
                store.create(rows, expected + 1, _incomplete(base_attrs, e, n, 0, expected.size), snapshot())
                last_save = time.perf_counter()
                save_cost = last_save - t0
                sink.flush(final=False)
            else:
                elapsed = time.perf_counter() - last_save
                due = elapsed >= (_SAVE_OVERHEAD * save_cost if save_every is None else save_every)
                if (due and e < n) or sink.rows_pending >= sink.batch_rows():
                    sink.flush(final=False)  # whole chunks; the rest goes into the saved state
                if due and e < n:
                    save_cost = store.save(snapshot(), _incomplete(base_attrs, e, n, sink.rows_done, expected.size))
                    last_save = time.perf_counter()
        if bar is not None:
            bar.update(e - s)
        elif callable(progress):
            progress(e, n)
    if bar is not None:
        bar.close()
    extra = [detector_vars(dets, adwin_hits, ev._lead)] if dets else []
    attrs = ev.drain(final=False).attrs
    attrs.update(chunk=chunk, log=_log_name(source))
    if created is not None:
        attrs["created"] = created
    if store is None:
        ds = sink.in_memory()
        for e in extra:
            ds = ds.merge(e)
        ds.attrs = attrs
        return ds
    sink.flush(final=True)
    ds = store.finish(extra, attrs)
    ds.attrs = attrs  # exact types (length-1 lists stay lists)
    return ds


def _log_name(source) -> str:
    return "in-memory Dataset" if isinstance(source, xr.Dataset) else str(source)


def _run_attrs(drained: dict, chunk, source, created) -> dict:
    attrs = dict(drained)
    attrs.update(chunk=chunk, log=_log_name(source))
    if created is not None:
        attrs["created"] = created
    return attrs


def _incomplete(base: dict, done: int, n: int, rows: int, total_rows: int) -> dict:
    return {**base, "n_instances": done, **marker(done, n, rows, total_rows)}
