"""Per-fold results on dask: lazy fold summaries and significance curves (Bifet et al. 2015, seed 000, section 3).

The lazy twins of :func:`streamtk.kfold.folds.fold_summary` and
:func:`streamtk.kfold.folds.significance_curves`, on the block machinery of
:mod:`streamtk.runners.distributed`: the folds (and, when ``b`` is None, the models) are one chunk,
every other dimension may be chunked, and ``.compute()`` equals the in-memory result exactly.
"""

from __future__ import annotations

import functools

import numpy as np
import xarray as xr

from .distributed import is_dask, output_template

__all__ = ["fold_summary_dask", "significance_curves_dask"]


def _summaries_last(x):
    from ..kfold.folds import summaries

    return np.moveaxis(summaries(np.asarray(x, dtype=np.float64)), 0, -1)


def fold_summary_dask(data, *, dim: str = "fold"):
    """Lazy :func:`streamtk.kfold.folds.fold_summary` of dask-backed per-fold results.

    ``dim`` must be one chunk; every other dim may be chunked. Uses
    ``xarray.apply_ufunc(..., dask="parallelized")`` with the same numpy
    finaliser, so the values equal the in-memory summaries exactly.
    """
    from ..kfold.folds import SUMMARIES, fold_summary

    if isinstance(data, xr.Dataset):
        names = [k for k, v in data.data_vars.items() if dim in v.dims]
        if not names:
            raise ValueError(f"no variable of data has the dimension {dim!r}; dims are {tuple(data.dims)}")
        out = xr.Dataset({k: fold_summary_dask(data[k], dim=dim) for k in names})
        sub = data[names]
        tiny = sub.isel({d: slice(0, 1) for d in sub.dims if d != dim}).compute()
        out.attrs = fold_summary(tiny, dim=dim).attrs
        return out
    if not isinstance(data, xr.DataArray):
        raise TypeError(f"data must be an xarray Dataset or DataArray, got {type(data).__name__}")
    if dim not in data.dims:
        raise ValueError(f"{data.name or 'data'} has no dimension {dim!r}; its dims are {data.dims}")
    if not (np.issubdtype(data.dtype, np.number) or data.dtype == bool):
        raise TypeError(f"{data.name or 'data'} must be numeric, got dtype {data.dtype}")
    if is_dask(data) and len(data.chunks[data.dims.index(dim)]) > 1:
        raise ValueError(f"{data.name or 'data'} is chunked along {dim!r}; use .chunk({{{dim!r}: -1}})")
    out = xr.apply_ufunc(
        _summaries_last,
        data,
        input_core_dims=[[dim]],
        output_core_dims=[["summary"]],
        dask="parallelized",
        output_dtypes=[np.float64],
        dask_gufunc_kwargs={"output_sizes": {"summary": len(SUMMARIES)}},
        keep_attrs=True,
    )
    out = out.transpose("summary", ...).assign_coords(summary=np.array(SUMMARIES))
    out.attrs = dict(data.attrs)
    out.attrs["cell_methods"] = f"{dim}: summary"
    return out.rename(data.name)


def _significance_block(block: xr.Dataset, *, options):
    from ..kfold.folds import significance_curves

    return significance_curves(block["a"], block["b"], **options)


def significance_curves_dask(a, b=None, *, dim: str = "fold", metrics=None, models=None, **options) -> xr.Dataset:
    """Lazy :func:`streamtk.kfold.folds.significance_curves` of dask-backed per-fold results.

    Parameters
    ----------
    a, b : xarray.Dataset or DataArray
        Per-fold results of classifiers A and B (``b=None``: both along the ``model``
        dim), as for ``significance_curves``. ``dim`` (the folds) must be one chunk, and so
        must ``model`` when ``b`` is None; every other dim (time, estimator, run, ...) may be
        chunked freely.
    dim, metrics, models
        As in ``significance_curves``: pairing the models and stacking the metrics
        along ``metric`` are done lazily up front.
    **options
        ``tests``, ``alpha``, ``alternative``, ``wilcoxon_method``, ``zero_method``,
        passed to ``significance_curves`` on every block.

    Returns
    -------
    xarray.Dataset
        Dask-backed when an input is, chunked like the inputs along their non-fold
        dims (``test`` is one chunk). ``.compute()`` equals ``significance_curves``
        on the whole inputs exactly: the Sign and Wilcoxon tests act on each slice
        over the folds on its own (Wilcoxon's ``method="auto"`` decides per slice),
        so the block split cannot change a value. In-memory inputs are passed straight
        to ``significance_curves``.

    See Also
    --------
    streamtk.kfold.folds.significance_curves : the in-memory path run on every block.
    fold_summary_dask : lazy fold summaries of the same inputs.

    Examples
    --------
    >>> import numpy as np, xarray as xr
    >>> from streamtk.kfold.folds import significance_curves
    >>> rng = np.random.default_rng(0)
    >>> acc = xr.DataArray(rng.random((2, 6, 40)), dims=("model", "fold", "time"))
    >>> lazy = significance_curves_dask(acc.chunk({"time": 10}))
    >>> lazy.pvalue.chunks
    ((2,), (10, 10, 10, 10))
    >>> bool(lazy.pvalue.equals(significance_curves(acc).pvalue))
    True
    """
    from ..kfold.folds import as_pair, significance_curves, to_array

    for name, x in (("a", a), ("b", b)):
        if x is not None and not isinstance(x, (xr.Dataset, xr.DataArray)):
            raise TypeError(f"{name} must be an xarray Dataset or DataArray, got {type(x).__name__}")
    inputs = [x for x in (a, b) if x is not None]
    if not any(_lazy(x) for x in inputs):
        return significance_curves(a, b, dim=dim, metrics=metrics, models=models, **options)
    for name, x in zip(("a", "b"), inputs):
        for d, what in ((dim, "dim"), ("model" if b is None else None, "model")):
            chunks = _chunks_along(x, d)
            if len(chunks) > 1:
                unit = "fold" if what == "dim" else "model"
                where = f"dim={d!r}" if what == "dim" else f"its {d!r} dim"
                raise ValueError(
                    f"{name} is chunked along {where} (chunks {chunks}); the tests need "
                    f"every {unit} in one block: use .chunk({{{d!r}: -1}})"
                )
    pa, pb = as_pair(a, b, models)
    da_a, was_ds = to_array(pa, dim, metrics)
    da_b, _ = to_array(pb, dim, metrics if metrics is not None or not was_ds else list(da_a.coords["metric"].values))
    if dim not in da_a.dims:
        raise ValueError(f"a has no dimension {dim!r}; its dims are {da_a.dims}")
    # transposed like significance_curves does it, so each block's result has the template's dim order
    da_a = da_a.transpose(..., dim)
    da_b = da_b.transpose(*da_a.dims)
    ds_in = xr.Dataset({"a": da_a.variable, "b": da_b.variable}, coords=da_a.coords).unify_chunks()
    if "metric" in ds_in.dims:
        ds_in = ds_in.chunk({"metric": -1})  # the stacked metrics: one block, as one call handles them all
    lead = tuple(d for d in ds_in.dims if d != dim)
    call = functools.partial(_significance_block, options={"dim": dim, **options})
    template = output_template(call, ds_in, {"a": None, "b": None}, lead, dim)
    return xr.map_blocks(call, ds_in, template=template)


def _lazy(x) -> bool:
    variables = x.data_vars.values() if isinstance(x, xr.Dataset) else [x]
    return any(v.chunks is not None for v in variables)


def _chunks_along(x, dim) -> tuple:
    """The most finely split chunks of any variable of ``x`` along ``dim`` (``()`` if none)."""
    if dim is None:
        return ()
    variables = x.data_vars.values() if isinstance(x, xr.Dataset) else [x]
    return max((tuple(v.variable.chunksizes.get(dim, ())) for v in variables), key=len, default=())
