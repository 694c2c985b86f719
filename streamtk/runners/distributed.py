"""Many runs at once on dask: lazy, block-by-block evaluation over the leading dimensions.

Researchers evaluate hundreds of runs (classifiers x folds x seeds). When ``y_pred``
(and ``weights``, detector inputs, per-fold results) are **dask-backed**
``xarray.DataArray`` objects chunked along their leading dims (``model``, ``fold``,
``run`` ...), the functions here build a lazy graph with :func:`xarray.map_blocks` /
:func:`xarray.apply_ufunc` (``dask="parallelized"``): every block of leading series is
evaluated by the ordinary in-memory function on a worker, and the result is a
dask-backed ``xarray.Dataset`` with the same variables, coordinates and numbers as the
in-memory path (the series are independent, so the block split cannot change any value).

Rules
-----
* **One label encoding for every block.** Pass ``classes=``; otherwise it is computed
  up front from ``y_true`` and a dask reduction (``dask.array.unique``) over ``y_pred``,
  giving the same sorted class order the in-memory path chooses (labels that cannot be
  sorted need ``classes=``).
* **The time axis is one chunk.** The in-memory kernels see the whole stream of a
  series; an input chunked along time is refused with a message pointing to
  ``.chunk({time: -1})`` or to :mod:`streamtk.runners.outofcore` (streams longer than memory).
* **Shapes must not depend on the data** (dask needs them before computing): the
  detectors' ``detection_index`` (its width is the number of detections) is dropped;
  the detections are the non-zero entries of the per-instance traces (``detection``,
  ``drift``), or ``n_detections``.

Per-fold results (fold summaries, significance curves) have their lazy twins in
:mod:`streamtk.runners.dask_folds`.

Nothing here starts a cluster: the graph runs on whatever dask scheduler is active
(threads by default, or a ``dask.distributed.Client``).
"""

from __future__ import annotations

import functools

import numpy as np
import xarray as xr

from .._core.labels import encode_labels
from ..drift.registry import DETECTORS as _DETECTOR_REGISTRY
from ..drift.registry import detector_function

__all__ = [
    "map_leading",
    "evaluate_dask",
    "auc_dask",
    "compare_dask",
    "detect_dask",
    "DETECTORS",
]


#: names accepted by :func:`detect_dask` (:data:`streamtk.drift.registry.DETECTORS`)
DETECTORS = tuple(_DETECTOR_REGISTRY)


def is_dask(da) -> bool:
    return isinstance(da, xr.DataArray) and da.chunks is not None


def _as_dataarray(values, name: str, time_dim: str | None) -> xr.DataArray:
    if isinstance(values, xr.DataArray):
        return values
    arr = np.asarray(values) if not isinstance(values, np.ma.MaskedArray) else values
    if time_dim is None:
        raise TypeError(f"{name} must be an xarray.DataArray (dask-backed for lazy evaluation), got {type(values)}")
    if arr.ndim != 1:
        raise ValueError(f"{name} given as a plain array must be one-dimensional (time,), got shape {arr.shape}")
    if isinstance(arr, np.ma.MaskedArray):
        arr = arr.astype(object).filled(None) if arr.dtype.kind in "OUS" else arr.astype(float).filled(np.nan)
    return xr.DataArray(arr, dims=(time_dim,))


def _check_time_chunks(inputs: dict, time_dim: str) -> None:
    for name, da in inputs.items():
        if is_dask(da) and time_dim in da.dims:
            chunks = da.chunks[da.dims.index(time_dim)]
            if len(chunks) > 1:
                raise ValueError(
                    f"{name} is chunked along its time dimension {time_dim!r} (chunks {chunks[:3]}...); the "
                    f"in-memory kernels need the whole time axis in one chunk: use "
                    f"{name}.chunk({{{time_dim!r}: -1}}), or streamtk.runners.outofcore.evaluate_store for streams "
                    "longer than memory"
                )


def _block_call(block: xr.Dataset, *, func, names, time_dim, drop_dims, kwargs):
    out = func(*(block[name] if name in block else None for name in names), **kwargs)
    return out.drop_vars([v for v in out.data_vars if set(out[v].dims) & set(drop_dims)])


def map_leading(func, inputs: dict, *, time_dim: str, dummies: dict, lead_dims=None, drop_dims=(), **kwargs):
    """Run ``func(*inputs.values(), **kwargs)`` lazily, block by block over the leading dims.

    Parameters
    ----------
    func : callable
        An in-memory streamtk function taking its array inputs positionally (in
        the order of ``inputs``; ``None`` for a missing one) and returning an
        ``xarray.Dataset`` whose leading dims are those of the inputs and whose
        other sizes do not depend on the values (time, estimator, class ...).
    inputs : dict of str -> xarray.DataArray or None
        The array inputs; dask-backed ones are processed block by block along
        their leading dims (every dim but ``time_dim``), which may be chunked
        freely; ``time_dim`` must be one chunk.
    time_dim : str
        Name of the time dimension (the last dim of every input that has it).
    dummies : dict of str -> scalar or None
        A valid value per input, used to build the output template from one
        series of the right length (func is run once on a constant stream);
        ``None`` keeps the input's own values (e.g. ``y_true``, which every
        block shares).
    lead_dims : sequence of str, optional
        Leading dims that are kept in the output (default: every non-time dim of
        the inputs).
    drop_dims : sequence of str
        Output variables having one of these dims (data-dependent sizes) are dropped.

    Returns
    -------
    xarray.Dataset
        Dask-backed when any input is; equal to ``func`` on the whole inputs.
        Every block keeps the inputs' dim order.
    """
    present = {k: v for k, v in inputs.items() if v is not None}
    _check_time_chunks(present, time_dim)
    ds_in = xr.Dataset(present)
    if any(is_dask(v) for v in present.values()):
        ds_in = ds_in.unify_chunks()
    lead = tuple(lead_dims) if lead_dims is not None else tuple(d for d in ds_in.dims if d != time_dim)
    call = functools.partial(
        _block_call, func=func, names=tuple(inputs), time_dim=time_dim, drop_dims=tuple(drop_dims), kwargs=kwargs
    )
    if not any(is_dask(v) for v in present.values()):
        return call(ds_in)
    template = output_template(call, ds_in, dummies, lead, time_dim)
    return xr.map_blocks(call, ds_in, template=template)


def output_template(call, ds_in: xr.Dataset, dummies: dict, lead: tuple, time_dim: str) -> xr.Dataset:
    """Output skeleton: ``call`` on a constant stream with one series, expanded to the full leading shape."""
    import dask.array as dsa

    small = ds_in.isel({d: slice(0, 1) for d in lead})
    fake = {}
    for name, var in small.data_vars.items():
        fill = dummies[name]
        if fill is None:
            fake[name] = var.compute()
            continue
        dtype = var.dtype if not (var.dtype.kind in "OUST" or isinstance(fill, str)) else object
        fake[name] = xr.DataArray(np.full(var.shape, fill, dtype=dtype), dims=var.dims, coords=var.coords)
    out_small = call(xr.Dataset(fake, coords=small.coords))
    chunks = dict(ds_in.chunks)
    sizes = dict(ds_in.sizes)
    data_vars = {}
    for name, var in out_small.data_vars.items():
        shape = tuple(sizes[d] if d in lead else var.sizes[d] for d in var.dims)
        chunk = tuple(
            chunks[d] if d in lead and d in chunks else (var.sizes[d] if d not in lead else sizes[d],) for d in var.dims
        )
        data_vars[name] = xr.Variable(var.dims, dsa.empty(shape, chunks=chunk, dtype=var.dtype), var.attrs)
    coords = {k: v.variable for k, v in out_small.coords.items() if not set(v.dims) & set(lead)}
    coords.update({k: v.variable for k, v in ds_in.coords.items() if set(v.dims) and set(v.dims) <= set(lead)})
    return xr.Dataset(data_vars, coords=coords, attrs=out_small.attrs)


def _aligned_to(ref_name: str, ref: xr.DataArray, inputs: dict) -> dict:
    """``inputs`` (name -> DataArray or None) on ``ref``'s dims, matched by label, sizes checked.

    ``xarray.Dataset`` would align them itself with an outer join (an input of another length, or
    with other time labels, would silently add rows of NaN) or fail with an error naming no
    argument. Here a dim shared with ``ref`` must have ``ref``'s length (a ``ValueError`` naming the
    argument, the dim and both shapes) and, when both have labels on it, the same labels, taken in
    ``ref``'s order.
    """
    out = {}
    for name, da in inputs.items():
        if da is None:
            out[name] = None
            continue
        for dim in da.dims:
            if dim not in ref.dims:
                continue
            if da.sizes[dim] != ref.sizes[dim]:
                raise ValueError(
                    f"{name} has {da.sizes[dim]} entries along {dim!r} (dims {da.dims}, shape {da.shape}) but "
                    f"{ref_name} has {ref.sizes[dim]} (dims {ref.dims}, shape {ref.shape})"
                )
            want, have = ref.indexes.get(dim), da.indexes.get(dim)
            if want is None or have is None or have.equals(want):
                continue
            if have.has_duplicates or len(want.difference(have)) or len(have.difference(want)):
                raise ValueError(
                    f"{name}'s {dim!r} labels do not match {ref_name}'s: missing {list(want.difference(have))[:5]}, "
                    f"extra {list(have.difference(want))[:5]}"
                )
            da = da.reindex({dim: want})
        out[name] = da
    return out


def _fixed_classes(y_true: xr.DataArray, preds: list, classes):
    """The class list every block uses: ``classes`` or the sorted labels of y_true and the predictions."""
    if classes is not None:
        return list(classes)
    import dask.array as dsa

    seen = []
    for p in preds:
        if p is None:
            continue
        data = p.data if is_dask(p) else dsa.from_array(np.asarray(p.values))
        seen.append(np.asarray(dsa.unique(data.reshape(-1)).compute()))
    yt = y_true.values if not is_dask(y_true) else y_true.compute().values
    enc, _ = encode_labels(yt, *seen, check_overlap=False)  # seen: distinct labels, not instances
    return enc.classes.tolist()


def _time_dim(y_pred, name="y_pred") -> str:
    if not isinstance(y_pred, xr.DataArray):
        raise TypeError(f"{name} must be an xarray.DataArray chunked along its leading dims, got {type(y_pred)}")
    if y_pred.ndim == 0:
        raise ValueError(f"{name} must have a time dimension, got a 0-d DataArray")
    return y_pred.dims[-1]


def _evaluate_block(y_true, y_pred, weights, **options):
    from ..evaluation.curves import evaluate

    return evaluate(y_true, y_pred, weights=weights, **options)


def evaluate_dask(y_true, y_pred, *, weights=None, classes=None, **options) -> xr.Dataset:
    """Lazy :func:`streamtk.evaluate` for dask-backed ``y_pred`` chunked along its leading dims.

    Parameters
    ----------
    y_true : array-like or xarray.DataArray, shape ``(n,)``
        True labels on ``y_pred``'s time dim (its last dim).
    y_pred : xarray.DataArray ``(..., time)``
        Predictions; chunk the leading dims freely (``y_pred.chunk({"run": 10})``),
        keep ``time`` in one chunk.
    weights : xarray.DataArray, optional
        ``(time,)`` or with any of ``y_pred``'s leading dims, chunked alike.
    classes : sequence, optional
        The class order; default computed up front (see the module notes).
    **options
        Every other keyword of :func:`streamtk.evaluate` (``windows``, ``fading``,
        ``adwin``, ``every``, ``metrics``, ``convention``, ``cost``, ``pos_label``,
        ``adwin_options``).

    Returns
    -------
    xarray.Dataset
        Dask-backed, chunked like ``y_pred`` along the leading dims; ``.compute()``
        equals ``streamtk.evaluate(y_true, y_pred.compute(), ...)`` exactly.

    See Also
    --------
    streamtk.evaluate : the in-memory path run on every block.
    streamtk.runners.outofcore.evaluate_store : streams longer than memory (chunked along time).

    Examples
    --------
    >>> import numpy as np, xarray as xr, streamtk
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 50)
    >>> p = xr.DataArray(rng.integers(0, 2, (4, 50)), dims=("run", "time")).chunk({"run": 2})
    >>> lazy = evaluate_dask(y, p, windows=10, every=10, metrics=["accuracy"])
    >>> lazy.accuracy.chunks[0]
    (2, 2)
    >>> ref = streamtk.evaluate(y, p.values, windows=10, every=10, metrics=["accuracy"], lead_dims="run")
    >>> bool((lazy.accuracy.values == ref.accuracy.values).all())
    True
    """
    if "lead_dims" in options:
        raise TypeError("evaluate_dask takes y_pred as a DataArray whose dims name the leading dims; drop lead_dims")
    tdim = _time_dim(y_pred)
    y_true = _as_dataarray(y_true, "y_true", tdim)
    w = None if weights is None else _as_dataarray(weights, "weights", tdim)
    y_true, w = _aligned_to("y_pred", y_pred, {"y_true": y_true, "weights": w}).values()
    cls = _fixed_classes(y_true, [y_pred], classes)
    lead = tuple(d for d in y_pred.dims if d != tdim)
    return map_leading(
        _evaluate_block,
        {"y_true": y_true, "y_pred": y_pred, "weights": w},
        time_dim=tdim,
        dummies={"y_true": None, "y_pred": cls[0], "weights": 1.0},
        lead_dims=lead,
        classes=cls,
        **options,
    )


def _auc_block(y_true, y_score, weights, **options):
    from ..evaluation.scores import auc_curves

    return auc_curves(y_true, y_score, weights=weights, **options)


def auc_dask(y_true, y_score, *, weights=None, classes=None, **options) -> xr.Dataset:
    """Lazy :func:`streamtk.evaluation.scores.auc_curves` for dask-backed scores chunked along their leading dims.

    ``y_score`` is ``(..., time)`` (binary: positive-class scores) or, with
    ``classes=``, ``(..., time, class)``; the time and class dims are one chunk
    each. ``weights`` as in :func:`evaluate_dask`; other keywords as in
    ``auc_curves``. Every block sees the whole ``y_true``, so the positive label
    (or the class columns named by ``classes``) is the same for all of them and
    the result equals ``auc_curves`` on the whole input exactly.
    """
    if "lead_dims" in options:
        raise TypeError("auc_dask takes y_score as a DataArray whose dims name the leading dims; drop lead_dims")
    if not isinstance(y_score, xr.DataArray):
        raise TypeError(f"y_score must be an xarray.DataArray chunked along its leading dims, got {type(y_score)}")
    multi = classes is not None
    if y_score.ndim < (2 if multi else 1):
        raise ValueError(f"y_score must have dims (..., time{', class' if multi else ''}), got {y_score.dims}")
    tdim = y_score.dims[-2] if multi else y_score.dims[-1]
    core = y_score.dims[-2:] if multi else (tdim,)
    if multi and is_dask(y_score) and len(y_score.chunks[-1]) > 1:
        raise ValueError(f"y_score is chunked along its class dimension {core[-1]!r}; use .chunk({{{core[-1]!r}: -1}})")
    y_true = _as_dataarray(y_true, "y_true", tdim)
    w = None if weights is None else _as_dataarray(weights, "weights", tdim)
    y_true, w = _aligned_to("y_score", y_score, {"y_true": y_true, "weights": w}).values()
    lead = tuple(d for d in y_score.dims if d not in core)
    return map_leading(
        _auc_block,
        {"y_true": y_true, "y_score": y_score, "weights": w},
        time_dim=tdim,
        dummies={"y_true": None, "y_score": 0.5, "weights": 1.0},
        lead_dims=lead,
        classes=classes,
        **options,
    )


def _compare_block(y_true, y_pred_a, y_pred_b, **options):
    from ..comparison.compare import compare

    return compare(y_true, y_pred_a, y_pred_b, **options)


def compare_dask(y_true, y_pred_a, y_pred_b=None, *, classes=None, **options) -> xr.Dataset:
    """Lazy :func:`streamtk.compare` over dask-backed predictions.

    Blocks are taken along the leading dims other than ``model`` when ``y_pred_b`` is None (the
    ``model`` dim holds the models that are paired and must be one chunk); ``time`` is one chunk.
    ``classes`` as in :func:`evaluate_dask`; other keywords as in ``compare``.
    The result equals the in-memory ``compare`` exactly.
    """
    tdim = _time_dim(y_pred_a, "y_pred_a")
    model_dim = "model" if y_pred_b is None else None
    if model_dim is not None and is_dask(y_pred_a) and model_dim in y_pred_a.dims:
        chunks = y_pred_a.chunks[y_pred_a.dims.index(model_dim)]
        if len(chunks) > 1:
            raise ValueError(
                f"y_pred_a is chunked along its {model_dim!r} dim (chunks {chunks}); pairs need "
                f"every model in one block: use .chunk({{{model_dim!r}: -1}})"
            )
    y_true = _as_dataarray(y_true, "y_true", tdim)
    y_true, y_pred_b = _aligned_to("y_pred_a", y_pred_a, {"y_true": y_true, "y_pred_b": y_pred_b}).values()
    cls = _fixed_classes(y_true, [y_pred_a, y_pred_b], classes)
    lead = tuple(d for d in y_pred_a.dims if d not in (tdim, model_dim))
    return map_leading(
        _compare_block,
        {"y_true": y_true, "y_pred_a": y_pred_a, "y_pred_b": y_pred_b},
        time_dim=tdim,
        dummies={"y_true": None, "y_pred_a": cls[0], "y_pred_b": cls[0]},
        lead_dims=lead,
        classes=cls,
        **options,
    )


def _detect_block(x, *, _detector, **params):
    return detector_function(_detector)(x, **params)


def detect_dask(detector: str, x, **params) -> xr.Dataset:
    """Lazy drift detection (``"adwin"``, ``"page_hinkley"``, ``"ddm"``, ``"eddm"``) on a dask-backed stream.

    ``x`` is a DataArray ``(..., time)`` chunked along its leading dims (time in one
    chunk); ``params`` go to the detector function of :mod:`streamtk.drift`. The
    result equals the in-memory detector's except that the per-detection lists
    (``detection_index``, ``detection_sign``: their width is the number of detections,
    unknown before computing) are left out; the
    detections are the non-zero steps of the ``detection`` / ``drift`` traces and
    their number is ``n_detections``.
    """
    if detector not in DETECTORS:
        raise ValueError(f"detector must be one of {DETECTORS}, got {detector!r}")
    tdim = _time_dim(x, "x")
    lead = tuple(d for d in x.dims if d != tdim)
    return map_leading(
        _detect_block,
        {"x": x},
        time_dim=tdim,
        dummies={"x": 0.0},
        lead_dims=lead,
        drop_dims=("detection_number",),
        _detector=detector,
        **params,
    )
