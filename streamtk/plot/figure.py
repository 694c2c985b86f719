"""One multi-panel figure for any streamtk result file (used by ``streamtk plot``)."""

from __future__ import annotations

import numpy as np

__all__ = ["result_figure"]

MAX_PANELS = 6


def _grid(n_panels, width=6.0, height=3.2):
    import matplotlib.pyplot as plt

    ncols = 1 if n_panels == 1 else 2
    nrows = int(np.ceil(n_panels / ncols))
    fig, axes = plt.subplots(
        nrows, ncols, figsize=(width * ncols, height * nrows), squeeze=False, constrained_layout=True
    )
    flat = list(axes.ravel())
    for ax in flat[n_panels:]:
        ax.set_visible(False)
    return fig, flat[:n_panels]


def _drifts(ds):
    return [int(d) for d in np.atleast_1d(ds.attrs["drifts"])] if "drifts" in ds.attrs else None


def _models(ds, dim, models):
    values = [str(v) for v in ds[dim].values] if dim in ds.coords else [str(i) for i in range(ds.sizes[dim])]
    if models:
        bad = [m for m in models if m not in values]
        if bad:
            raise ValueError(f"model(s) {bad} are not in the file; it has {values}")
        values = list(models)
    return values[:MAX_PANELS]


def _first_of_other_dims(da, keep):
    """Selection of the first label of every dim not in ``keep`` (stated in the panel title)."""
    sel = {}
    for d in da.dims:
        if d not in keep:
            sel[d] = da[d].values[0] if d in da.coords else 0
    return sel


def result_figure(ds, *, metric=None, model=None, kind=None):
    """A figure for a result Dataset: one panel per model (or pair), chosen by the Dataset's kind.

    Parameters
    ----------
    ds : xarray.Dataset
        Any result :meth:`xarray.Dataset.streamtk.plot` understands.
    metric : str, optional
        Curves: the metric (default ``accuracy``); comparison: ``mcnemar`` (default) or ``q``.
    model : sequence of str, optional
        Models to show (default all, at most six panels).
    kind : str, optional
        Force the kind (see :data:`streamtk.plot.kinds.KINDS`).

    Returns
    -------
    matplotlib.figure.Figure
    """
    from streamtk.plot.kinds import KINDS, dataset_kind

    kind = kind or dataset_kind(ds)
    if kind == "log":
        raise ValueError(
            "this file is a log of recorded predictions: run `streamtk evaluate LOG -o curves.nc` and plot the curves"
        )
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {sorted(KINDS)}, got {kind!r}")
    drifts = _drifts(ds)
    if kind in ("curves", "baselines"):
        from .curves import plot_baselines, plot_curves

        metric = metric or "accuracy"
        if metric not in ds:
            raise ValueError(f"metric {metric!r} is not in the file; it has {sorted(map(str, ds.data_vars))}")
        da = ds[metric]
        lead = "model" if "model" in da.dims else None
        names = _models(ds, lead, model) if lead else [None]
        fig, axes = _grid(len(names))
        for ax, m in zip(axes, names):
            sel = _first_of_other_dims(da.sel(model=m) if m is not None else da, ("estimator", "time"))
            note = "".join(f", {k}={v}" for k, v in sel.items())
            title = f"{m if m is not None else ''} {metric}{note}".strip()
            if kind == "baselines":
                plot_baselines(ds, metric, model=m, sel=sel, ax=ax, drifts=drifts, title=title)
            else:
                plot_curves(ds, metric, model=m, sel=sel, ax=ax, drifts=drifts, title=title)
        return fig
    if kind == "comparison":
        from .compare import plot_comparison

        stat = metric or "mcnemar"
        if "model_a" in ds.dims:
            values = [str(v) for v in ds.model_a.values]
            pairs = [
                (a, b) for i, a in enumerate(values) for b in values[i + 1 :] if not model or (a in model or b in model)
            ][:MAX_PANELS]
        else:
            pairs = [(None, None)]
        fig, axes = _grid(len(pairs))
        for ax, (a, b) in zip(axes, pairs):
            plot_comparison(ds, stat, a=a, b=b, ax=ax, drifts=drifts)
        return fig
    if kind == "detector":
        from .drift import plot_detector

        var = "statistic" if "statistic" in ds else "width"
        da = ds[var]
        lead = "model" if "model" in da.dims else None
        names = _models(ds, lead, model) if lead else [None]
        fig, axes = _grid(len(names))
        for ax, m in zip(axes, names):
            sub = da.sel(model=m) if m is not None else da
            sel = _first_of_other_dims(sub, ("time",))
            if m is not None:
                sel = {"model": m, **sel}
            note = ", ".join(f"{k}={v}" for k, v in sel.items())
            plot_detector(
                ds,
                sel=sel,
                ax=ax,
                drifts=drifts,
                title=f"{ds.attrs.get('title', 'detector')}" + (f" ({note})" if note else ""),
            )
        return fig
    # single-panel kinds
    import importlib

    module, name = KINDS[kind]
    func = getattr(importlib.import_module(f"streamtk.plot.{module}"), name)
    fig, (ax,) = _grid(1, width=7.5, height=3.8)
    kwargs = {}
    if kind == "significance":
        for dim in ("metric", "estimator"):
            if dim in ds.dims:
                kwargs[dim] = str(metric) if (dim == "metric" and metric) else ds[dim].values[0]
    elif kind == "folds" and metric:
        kwargs["metric"] = metric
    func(ds, ax=ax, **kwargs)
    return fig
