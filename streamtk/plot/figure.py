"""One multi-panel figure for any streamtk result file (used by ``streamtk plot``)."""

from __future__ import annotations

import numpy as np

__all__ = ["result_figure", "facet_curves"]

MAX_PANELS = 6


def _grid(n_panels, width=6.0, height=3.2, sharey=False):
    import matplotlib.pyplot as plt

    ncols = 1 if n_panels == 1 else 2
    nrows = int(np.ceil(n_panels / ncols))
    fig, axes = plt.subplots(
        nrows, ncols, figsize=(width * ncols, height * nrows), squeeze=False, constrained_layout=True, sharey=sharey
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


def _default_metric(ds):
    """``accuracy``, else the Dataset's first metric over ``time`` in its (the registry's) order, one without a
    target, quantile, class or label dim first."""
    if "accuracy" in ds:
        return "accuracy"
    names = [str(v) for v in ds.data_vars if "time" in ds[v].dims and v != "n_instances"]
    plain = [v for v in names if not {"target", "quantile", "class", "label"} & set(ds[v].dims)]
    return (plain or names or ["accuracy"])[0]


def result_figure(ds, *, metric=None, model=None, kind=None, estimator=None, bands=False):
    """A figure for a result Dataset: one panel per model (or pair), chosen by the Dataset's kind.

    Parameters
    ----------
    ds : xarray.Dataset
        Any result :meth:`xarray.Dataset.streamtk.plot` understands.
    metric : str, optional
        Curves: the metric (default ``accuracy``, else the Dataset's first metric, one without a target,
        quantile, class or label dim first: ``mae`` or ``average_mae`` of a regression result, ``coverage`` of
        an interval result, ``hamming_loss`` of :func:`streamtk.multilabel_curves`, the first asked of
        :func:`streamtk.auc_curves`); comparison: ``mcnemar`` (default) or ``q``.
    model : sequence of str, optional
        Models to show (default all; curves: all on each panel, other kinds: at most six panels).
    estimator : str or sequence of str, optional
        Curves: the estimators, one panel each (default all, at most six).
    kind : str, optional
        Force the kind (see :data:`streamtk.plot.kinds.KINDS`).
    bands : bool
        Curves, baselines and comparisons: shade the confidence bands (a Dataset computed with ``interval=``);
        a comparison then shows ``error_difference`` with its band.

    Returns
    -------
    matplotlib.figure.Figure
    """
    from streamtk.plot.kinds import KINDS, dataset_kind

    kind = kind or dataset_kind(ds)
    if bands and kind not in ("curves", "baselines", "comparison"):
        raise ValueError(f"bands=True shades curves, baselines and comparisons; this Dataset holds {kind!r}")
    if estimator is not None and kind != "curves":
        raise ValueError(f"estimator= chooses panels of evaluation curves; this Dataset holds {kind!r}")
    if kind == "log":
        raise ValueError(
            "this file is a log of recorded predictions: run `streamtk evaluate LOG -o curves.nc` and plot the curves"
        )
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {sorted(KINDS)}, got {kind!r}")
    drifts = _drifts(ds)
    if kind == "baselines":
        from .curves import plot_baselines

        metric = metric or _default_metric(ds)
        if metric not in ds:
            raise ValueError(f"metric {metric!r} is not in the file; it has {sorted(map(str, ds.data_vars))}")
        da = ds[metric]
        names = _models(ds, "model", model) if "model" in da.dims else [None]
        fig, axes = _grid(len(names), sharey=True)
        for ax, m in zip(axes, names):
            sel = _first_of_other_dims(da.sel(model=m) if m is not None else da, ("estimator", "time"))
            note = "".join(f", {k}={v}" for k, v in sel.items())
            title = f"{m if m is not None else ''} {metric}{note}".strip()
            plot_baselines(ds, metric, model=m, sel=sel, ax=ax, drifts=drifts, title=title, bands=bands)
        return fig
    if kind == "curves":
        metric = metric or _default_metric(ds)
        if metric not in ds:
            raise ValueError(f"metric {metric!r} is not in the file; it has {sorted(map(str, ds.data_vars))}")
        sel = _first_of_other_dims(ds[metric], ("model", "estimator", "time"))  # a class's or label's curves
        fig = facet_curves(ds, metric, models=model, estimators=estimator, drifts=drifts, sel=sel or None, bands=bands)
        if sel:
            fig.suptitle(f"{metric}" + "".join(f", {k}={v}" for k, v in sel.items()), fontsize="medium")
        return fig
    if kind == "comparison":
        from .compare import plot_comparison

        stat = metric or ("error_difference" if bands else "mcnemar")
        if "model_a" in ds.dims:
            values = [str(v) for v in ds.model_a.values]
            pairs = [
                (a, b) for i, a in enumerate(values) for b in values[i + 1 :] if not model or (a in model or b in model)
            ][:MAX_PANELS]
        else:
            pairs = [(None, None)]
        fig, axes = _grid(len(pairs))
        for ax, (a, b) in zip(axes, pairs):
            plot_comparison(ds, stat, a=a, b=b, ax=ax, drifts=drifts, bands=bands)
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


def _as_facets(curves):
    """``{facet name: Dataset}`` from a mapping, a Dataset with a ``dataset`` dim, or one Dataset."""
    import xarray as xr

    if isinstance(curves, dict):
        if not curves:
            raise ValueError("curves is empty: give at least one Dataset")
        bad = [k for k, v in curves.items() if not isinstance(v, xr.Dataset)]
        if bad:
            raise TypeError(f"curves[{bad[0]!r}] must be an xarray.Dataset (streamtk.evaluate's output)")
        return {str(k): v for k, v in curves.items()}
    if not isinstance(curves, xr.Dataset):
        raise TypeError(f"curves must be a Dataset or a mapping name -> Dataset, got {type(curves).__name__}")
    if "dataset" in curves.dims:
        return {str(d): curves.sel(dataset=d) for d in curves["dataset"].values}
    return {"": curves}


def facet_curves(
    curves,
    metrics="accuracy",
    *,
    estimators=None,
    models=None,
    sel=None,
    drifts=None,
    robust=True,
    ncols=None,
    panel_size=(4.2, 3.0),
    bands=False,
):
    """The paper figure: every model on one axes, one panel per dataset (and estimator), rows per metric.

    Panels of the same metric share their y-limits (robust limits over all of them, clipped
    values marked on the edges); a single legend sits below the panels, over no curve.

    Parameters
    ----------
    curves : xarray.Dataset or mapping name -> Dataset
        :func:`streamtk.evaluate` outputs: a mapping dataset name -> curves, or one Dataset
        (with a ``dataset`` dim for several datasets).
    metrics : str or sequence of str
        One row of panels per metric.
    estimators : str or sequence of str, optional
        Estimators to draw, one panel each (default: all of them when there is one
        dataset, else the first estimator).
    models : sequence, optional
        Models to draw (default all), one colour each, the same in every panel.
    sel : dict, optional
        Labels of other leading dims (``fold``, ``run``...).
    drifts : sequence of int or mapping name -> sequence, optional
        True drifts (0-based indices); default each Dataset's ``attrs["drifts"]``.
    robust : bool
        Robust shared limits with clipped values marked (see :func:`plot_curves`).
    ncols : int, optional
        Panels per row (default: all panels of a metric in one row, at most 4).
    bands : bool
        Shade each curve's confidence band (see :func:`plot_curves`); the shared limits include the bands.

    Returns
    -------
    matplotlib.figure.Figure
        Axes in ``fig.axes`` (row by row), the legend in ``fig.legends``.

    Examples
    --------
    >>> import numpy as np, streamtk
    >>> from streamtk.plot import facet_curves
    >>> y = np.array([0, 1, 1, 0, 1, 1, 0, 1])
    >>> a = streamtk.evaluate(y, [y, 1 - y], windows=4, lead_dims="model")
    >>> fig = facet_curves({"A": a, "B": a}, ["accuracy", "kappa"], estimators="window=4")
    >>> len(fig.axes)
    4
    """
    import matplotlib.pyplot as plt

    from ._common import axis_label, natural_range, robust_limits
    from .curves import plot_curves

    facets = _as_facets(curves)
    metrics = [metrics] if isinstance(metrics, str) else list(metrics)
    first = next(iter(facets.values()))
    for name, ds in facets.items():
        missing = [m for m in metrics if m not in ds]
        if missing:
            where = f"curves[{name!r}]" if name else "curves"
            raise ValueError(f"{where} has no {missing}; it has {sorted(map(str, ds.data_vars))}")
    if models is not None:
        models = [models] if isinstance(models, str) else list(models)
        for name, ds in facets.items():
            have = [str(m) for m in ds["model"].values] if "model" in ds.coords else []
            bad = [m for m in models if str(m) not in have]
            if bad:
                raise ValueError(f"model(s) {bad} are not in curves{f'[{name!r}]' if name else ''}; it has {have}")
    if estimators is None:
        ests = [str(e) for e in first["estimator"].values]
        ests = ests[:MAX_PANELS] if len(facets) == 1 else ests[:1]
    else:
        ests = [estimators] if isinstance(estimators, str) else [str(e) for e in estimators]
    panels = [(name, e) for name in facets for e in ests]
    ncols = ncols or min(len(panels), 4)
    nrows_per = int(np.ceil(len(panels) / ncols))
    fig, axes = plt.subplots(
        nrows_per * len(metrics),
        ncols,
        figsize=(panel_size[0] * ncols, panel_size[1] * nrows_per * len(metrics) + 0.6),
        squeeze=False,
        constrained_layout=True,
    )
    handles = {}
    for r, metric in enumerate(metrics):
        row_axes = axes[r * nrows_per : (r + 1) * nrows_per].ravel()
        values = []
        for name, e in panels:
            da = facets[name][metric].sel(estimator=e) if e in facets[name]["estimator"] else None
            if da is None:
                raise ValueError(f"estimator {e!r} is not in curves[{name!r}]")
            da = da.sel(sel) if sel else da
            if models is not None and "model" in da.dims:
                da = da.sel(model=list(models))
            values.append(da.values.ravel())
            if bands:
                for side in ("lower", "upper"):
                    if f"{metric}_{side}" not in facets[name]:
                        raise ValueError(
                            f"facet_curves(bands=True) needs {metric}_{side} in curves{f'[{name!r}]' if name else ''}:"
                            " compute the curves with interval= (e.g. interval=0.95)"
                        )
                    b = facets[name][f"{metric}_{side}"].sel(estimator=e)
                    b = b.sel(sel) if sel else b
                    if models is not None and "model" in b.dims:
                        b = b.sel(model=list(models))
                    values.append(b.values.ravel())
        lo_hi = None
        if robust:
            lo, hi, _ = robust_limits(np.concatenate(values), natural_range(metric))
            lo_hi = (lo, hi) if lo is not None else None
        for ax, (name, e) in zip(row_axes, panels):
            ds = facets[name]
            d = drifts.get(name) if isinstance(drifts, dict) else drifts
            plot_curves(ds, metric, ax=ax, models=models, estimator=e, sel=sel, drifts=d, robust=robust, ylim=lo_hi,
                        legend=False, title=" ".join(t for t in (name, e) if t), bands=bands)  # fmt: skip
            for h, lab in zip(*ax.get_legend_handles_labels()):
                handles.setdefault(lab, h)
            ax.set_ylabel(axis_label(metric, ds[metric]))
        for ax in row_axes[len(panels) :]:
            ax.set_visible(False)
    fig.legend(list(handles.values()), list(handles), loc="outside lower center", ncol=min(len(handles), 6),
               fontsize="small", frameon=False)  # fmt: skip
    return fig
