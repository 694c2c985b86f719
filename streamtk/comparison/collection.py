"""A results collection: many logs or curves (datasets x models x runs) in, one labelled Dataset out.

:func:`collect` reads logs of recorded predictions (evaluated here) or curves from
``streamtk.evaluate`` -- files or in-memory Datasets -- and keeps the chosen summaries of
each curve (:mod:`streamtk.comparison.summaries`: ``final``, ``mean``, ``area``, ``at=N``).
The result is one ``xarray.Dataset``:

==================== ================================================ ==========================
variable             dims                                             meaning
==================== ================================================ ==========================
``<metric>``         ``(summary, estimator, dataset, model, run)``    the summaries (NaN = missing)
``<metric>_lower``,  ``(summary, estimator, dataset, model, run)``    the band of the summary, when the curves
``<metric>_upper``                                                    carry bands (``interval=``; see below)
``stream_length``    ``(dataset, model, run)``                        instances in the stream
``source``           ``(dataset, model, run)``                        file or ``<memory>``
==================== ================================================ ==========================

with the metric's ``long_name`` and ``higher_is_better`` in its attrs. Curves computed with ``interval=`` (or logs
evaluated with ``evaluate_options={"interval": 0.95, ...}``) give each metric its bounds: the band at the
checkpoint of a ``final`` or ``at=N`` summary (a pointwise band of that value, at the curves' level and method);
``mean`` and ``area`` get none (NaN): a mean of pointwise bounds is no band of the mean. ``run`` holds seeds,
folds or repetitions. The collection round-trips through netCDF (:func:`streamtk.io.write_collection`,
:func:`streamtk.io.read_collection`) and every comparison, table and figure is computed from it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import xarray as xr

from .._core.mechanisms import BARE_LABELS, mechanism_attrs, spec_from_label
from .._core.metrics import EVALUATION_FAMILIES, REGISTRY, higher_is_better
from .._labelled import base_attrs
from .summaries import checkpoint_every, parse_summaries, summarise_curves

__all__ = [
    "collect",
    "collection_from_array",
    "select_table",
    "higher_is_better",
    "direction",
]

_TITLE = "streamtk results collection"


def direction(attrs, metric: str, given=None) -> bool:
    """The orientation to rank ``metric`` with: ``given``, else its ``higher_is_better`` attribute, else the registry's.

    The attribute may be a bool, an int or the text ``"true"``/``"false"``/``"none"``; a metric without
    orientation (counts, test statistics) is refused unless ``given``.
    """
    if given is not None:
        return bool(given)
    value = attrs.get("higher_is_better", "missing")
    if isinstance(value, str):
        value = {"true": True, "1": True, "false": False, "0": False, "none": None}.get(
            value.strip().lower(), higher_is_better(metric)
        )
    elif isinstance(value, (bool, int, np.integer, np.bool_)):
        value = bool(value)
    else:
        value = higher_is_better(metric)
    if value is None:
        raise ValueError(f"{metric!r} has no orientation (higher or lower is better); pass higher_is_better=")
    return value


def _estimator_options(estimators) -> dict:
    """``evaluate`` options that produce the requested estimator labels."""
    try:  # "landmarks" names no positions: they come with evaluate_options={"landmarks": [...]}
        specs = [spec_from_label(e) for e in estimators if e not in BARE_LABELS]
    except ValueError as err:
        raise ValueError(f"estimators: {err}") from None
    return {k: v for k, v in mechanism_attrs(specs).items() if v}


def _labels_from_pattern(pattern, path: str) -> dict:
    if pattern is None:
        return {}
    if "{" in pattern and "(?P<" not in pattern:
        regex = re.escape(pattern)
        for field in ("dataset", "model", "run"):
            regex = regex.replace(re.escape("{" + field + "}"), f"(?P<{field}>.+?)")
        pattern = regex
    m = re.fullmatch(pattern, Path(path).name) or re.fullmatch(pattern, Path(path).stem)
    if m is None:
        raise ValueError(f"pattern {pattern!r} does not match the file name {Path(path).name!r}")
    return {k: v for k, v in m.groupdict().items() if v is not None}


def _key_labels(key) -> dict:
    if key is None:
        return {}
    if isinstance(key, tuple):
        if len(key) == 2:
            return {"dataset": key[0], "run": key[1]}
        if len(key) == 3:
            return {"dataset": key[0], "model": key[1], "run": key[2]}
        raise ValueError(
            f"a key of sources must be a dataset name, (dataset, run) or (dataset, model, run); got {key!r}"
        )
    return {"dataset": key}


def _load(item):
    if isinstance(item, xr.Dataset):
        return item, "<memory>"
    if isinstance(item, (str, os.PathLike)):
        from ..io import read_log

        path = Path(item)
        if not path.exists():
            raise FileNotFoundError(f"sources: {path} does not exist")
        return read_log(path), str(path)
    raise TypeError(f"each source must be an xarray.Dataset or a file path, got {type(item).__name__}")


def _curves_of(ds, src, metrics, estimators, summaries, evaluate_options):
    """The curves Dataset of one source (a log is evaluated first)."""
    if "y_true" in ds and "y_pred" in ds:
        from ..evaluation.curves import evaluate

        opts = dict(evaluate_options or {})
        for k, v in _estimator_options(estimators).items():
            opts.setdefault(k, v)
        if "every" not in opts or opts["every"] is None:
            opts["every"] = checkpoint_every(ds.sizes["time"], summaries)
        if metrics is not None:
            # only what evaluate computes (not e.g. the regression or resources families of the registry)
            opts.setdefault(
                "metrics", [m for m in metrics if m in REGISTRY and REGISTRY[m].family in EVALUATION_FAMILIES]
            )
        y_pred = ds["y_pred"]
        kw = {}
        if (
            "y_score" in ds
            and "metrics" in opts
            and any(REGISTRY[m].needs in ("scores", "multiscores") for m in opts["metrics"])
        ):
            kw["y_score"] = ds["y_score"]
        if "weights" in ds:
            kw["weights"] = ds["weights"]
        return evaluate(ds["y_true"], y_pred, **kw, **opts)
    if "time" not in ds.dims:
        raise ValueError(f"{src}: neither a log (y_true, y_pred) nor evaluation curves (a 'time' dimension)")
    return ds


def collect(
    sources,
    *,
    metrics=None,
    summaries="final",
    estimators="prequential",
    pattern: str | None = None,
    run_dim: str | None = None,
    evaluate_options: dict | None = None,
) -> xr.Dataset:
    """Gather many logs or curves into one results collection with dims ``dataset``, ``model``, ``run``.

    Parameters
    ----------
    sources : mapping or sequence
        Logs of recorded predictions (``y_true``, ``y_pred``; evaluated here) or curves from
        :func:`streamtk.evaluate`, as Datasets or file paths (any format
        :func:`streamtk.io.read_log` reads; curves as netCDF/zarr). A mapping's keys label
        its values: ``dataset``, ``(dataset, run)`` or ``(dataset, model, run)``. Otherwise
        labels come from ``pattern`` (file names), then from the Dataset's attrs ``dataset``,
        ``model``, ``run`` (or ``seed``), then default to the file stem (``dataset<i>`` in
        memory) and run 0. Models come from the ``model`` dimension when there is one.
    metrics : sequence of str, optional
        Metric names (:data:`streamtk.METRICS`); default: every scalar metric of the first source.
    summaries : str or sequence
        ``"final"``, ``"mean"``, ``"area"``, ``"at=N"`` (see :mod:`streamtk.comparison.summaries`).
    estimators : str or sequence
        Estimator labels to keep (``"prequential"``, ``"window=1000"``, ``"fading=0.999"``...);
        logs are evaluated with the windows / fading factors / ADWIN deltas they name.
    pattern : str, optional
        How file names carry labels: a template such as ``"{dataset}_{model}_seed{run}.nc"``
        or a regular expression with named groups ``dataset``, ``model``, ``run``.
    run_dim : str, optional
        A leading dimension of the curves holding runs (default ``run``, else ``fold``, if present).
    evaluate_options : dict, optional
        Passed to :func:`streamtk.evaluate` for logs (``every`` defaults to about 10^4
        checkpoints, made a divisor of each ``at=N``).

    Returns
    -------
    xarray.Dataset
        The collection (module docstring). Cells no source provides are NaN; a cell two
        sources provide is an error.

    Examples
    --------
    >>> import streamtk as st
    >>> from streamtk.comparison import collect
    >>> logs = {(name, seed): st.simulate_log(3000, seed=seed) for name in ("s1", "s2") for seed in (0, 1)}
    >>> coll = collect(logs, metrics=["accuracy", "kappa"], summaries=["final", "mean"])
    >>> dict(coll["kappa"].sizes)
    {'summary': 2, 'estimator': 1, 'dataset': 2, 'model': 3, 'run': 2}
    """
    summaries = parse_summaries(summaries)
    cells, metrics, estimators = gather(
        sources,
        reduce=lambda arr, inst: summarise_curves(arr, inst, summaries),
        metrics=metrics,
        estimators=estimators,
        pattern=pattern,
        run_dim=run_dim,
        evaluate_options=evaluate_options,
        summaries=summaries,
    )
    return _assemble(cells, metrics, estimators, ("summary", summaries), evaluate_options)


def gather(sources, *, reduce, metrics, estimators, pattern, run_dim, evaluate_options, summaries=("final",)):
    """Load every source and reduce each curve: ``{(dataset, model, run): ({metric: (L, E)}, length, source)}``.

    ``reduce(values (model, run, estimator, time), instance (time,))`` returns ``(L, model, run, estimator)``.
    Shared by :func:`collect` (summaries) and :func:`streamtk.comparison.over_time.collect_curves` (curves on a grid).
    """
    estimators = (estimators,) if isinstance(estimators, str) else tuple(estimators)
    if not estimators:
        raise ValueError("estimators must name at least one estimator, e.g. 'prequential'")
    if isinstance(sources, Mapping):
        items = list(sources.items())
    elif isinstance(sources, (str, os.PathLike, xr.Dataset)):
        items = [(None, sources)]
    else:
        items = [(None, s) for s in sources]
    if not items:
        raise ValueError("sources is empty: nothing to collect")
    cells = {}
    for i, (key, item) in enumerate(items):
        ds, src = _load(item)
        labels = {}
        for k_attr, k in (("dataset", "dataset"), ("model", "model"), ("run", "run"), ("seed", "run")):
            if k_attr in ds.attrs and k not in labels:
                labels[k] = ds.attrs[k_attr]
        labels.update(_labels_from_pattern(pattern, src) if src != "<memory>" else {})
        labels.update(_key_labels(key))
        labels.setdefault("dataset", Path(src).stem if src != "<memory>" else f"dataset{i}")
        curves = _curves_of(ds, src, metrics, estimators, summaries, evaluate_options)
        if metrics is None:
            metrics = [v for v in curves.data_vars if v in REGISTRY and "class" not in curves[v].dims]
            if not metrics:
                raise ValueError(f"{src}: no metric variable found; pass metrics=")
        _add_cells(cells, curves, src, labels, metrics, estimators, reduce, run_dim)
    return cells, list(metrics), estimators


def _add_cells(cells, curves, src, labels, metrics, estimators, reduce, run_dim):
    missing = [m for m in metrics if m not in curves]
    if missing:
        raise ValueError(
            f"{src}: metrics {missing} are not in the curves (they have {sorted(map(str, curves.data_vars))})"
        )
    if "estimator" in curves.dims:
        have = [str(e) for e in curves["estimator"].values]
        bad = [e for e in estimators if e not in have]
        if bad:
            raise ValueError(f"{src}: estimators {bad} are not in the curves (they have {have})")
        if have != list(estimators):  # select only the metrics used: the other variables are never copied
            curves = curves[[m for m in metrics] + _bounds_in(curves, metrics)].sel(estimator=list(estimators))
    elif estimators != ("prequential",):
        raise ValueError(f"{src}: the curves have no estimator dimension; only estimators='prequential' applies")
    if run_dim is None:
        rdim = "run" if "run" in curves.dims else "fold" if "fold" in curves.dims else None
    else:
        if run_dim not in curves.dims:
            raise ValueError(f"{src}: run_dim={run_dim!r} is not a dimension of the curves ({tuple(curves.dims)})")
        rdim = run_dim
    if rdim is not None and "run" in labels:
        raise ValueError(f"{src}: the run is labelled twice (by the key/pattern/attrs and by the dimension {rdim!r})")
    if "model" in curves.dims and "model" in labels:
        if curves.sizes["model"] != 1:
            raise ValueError(f"{src}: labelled as model {labels['model']!r} but holds {curves.sizes['model']} models")
        curves = curves.isel(model=0, drop=True)
    keep = {"model", "time", "estimator", "class"} | ({rdim} if rdim else set())
    extra = [d for m in metrics for d in curves[m].dims if d not in keep]
    if extra:
        raise ValueError(f"{src}: unexpected dimensions {sorted(set(extra))}; select them first (or pass run_dim=)")
    inst = curves["instance"].values if "instance" in curves.coords else np.arange(1, curves.sizes["time"] + 1)
    models = [str(v) for v in curves["model"].values] if "model" in curves.dims else [str(labels.get("model", "model"))]
    if rdim is None:
        runs = [labels.get("run", 0)]
    else:
        runs = curves[rdim].values.tolist() if rdim in curves.coords else list(range(curves.sizes[rdim]))
    order = [d for d in ("model", rdim, "estimator", "time") if d and d in curves.dims]
    per_metric = {}
    for m in list(metrics) + _bounds_in(curves, metrics):
        da = curves[m]
        if "class" in da.dims:
            raise ValueError(f"{src}: {m!r} is per class; choose a scalar metric")
        da = da.transpose(*[d for d in order if d in da.dims])
        arr = np.asarray(da.values, dtype=np.float64)
        if "model" not in da.dims:
            arr = arr[None]
        if rdim is None:
            arr = arr[:, None]
        if "estimator" not in da.dims:
            arr = arr[:, :, None]
        per_metric[m] = reduce(arr, inst)  # (L, model, run, E)
    length = int(inst[-1]) if len(inst) else 0
    dataset = str(labels["dataset"])
    for a, model in enumerate(models):
        for b, run in enumerate(runs):
            cell = (dataset, model, _run_label(run))
            if cell in cells:
                raise ValueError(f"(dataset, model, run) = {cell} comes from two sources: {cells[cell][2]} and {src}")
            band = {k: curves.attrs[k] for k in ("interval", "interval_method") if k in curves.attrs}
            cells[cell] = ({m: v[:, a, b, :] for m, v in per_metric.items()}, length, src, band)


def _bounds_in(curves, metrics) -> list:
    """The band variables ``<metric>_lower`` / ``<metric>_upper`` the curves hold for ``metrics``."""
    return [f"{m}_{side}" for m in metrics for side in ("lower", "upper") if f"{m}_{side}" in curves]


def _run_label(run):
    if isinstance(run, (np.integer, int)) and not isinstance(run, bool):
        return int(run)
    if isinstance(run, str) and re.fullmatch(r"\d+", run):
        return int(run)
    return str(run)


def _assemble(cells, metrics, estimators, lead, evaluate_options, extra_attrs=None) -> xr.Dataset:
    datasets = list(dict.fromkeys(c[0] for c in cells))
    models = list(dict.fromkeys(c[1] for c in cells))
    runs = list(dict.fromkeys(c[2] for c in cells))
    if all(isinstance(r, int) for r in runs):
        runs = sorted(runs)
    else:
        runs = [str(r) for r in runs]
        cells = {(d, m, str(r)): v for (d, m, r), v in cells.items()}
    lead_dim, lead_labels = lead
    shape = (len(lead_labels), len(estimators), len(datasets), len(models), len(runs))
    bounds = [f"{m}_{side}" for m in metrics for side in ("lower", "upper")]
    bounds = [b for b in bounds if any(b in c[0] for c in cells.values())]
    # the bands' level and method (one collection, one kind of band: otherwise none is stated)
    kinds = {tuple(sorted(c[3].items())) for c in cells.values() if len(c) > 3 and c[3]}
    band_attrs = dict(next(iter(kinds))) if len(kinds) == 1 else {}
    data = {m: np.full(shape, np.nan) for m in list(metrics) + bounds}
    length = np.full(shape[2:], np.nan)
    source = np.full(shape[2:], None, dtype=object)
    di = {d: i for i, d in enumerate(datasets)}
    mi = {m: i for i, m in enumerate(models)}
    ri = {r: i for i, r in enumerate(runs)}
    for (d, m, r), (vals, n, src, *_) in cells.items():
        idx = (di[d], mi[m], ri[r])
        for name, v in vals.items():
            data[name][(slice(None), slice(None)) + idx] = v
        length[idx] = n
        source[idx] = src
    dims = (lead_dim, "estimator", "dataset", "model", "run")
    if lead_dim == "summary":  # a pointwise band bounds a value at a checkpoint, not a mean over checkpoints
        point = np.array([s == "final" or s.startswith("at=") for s in lead_labels])
        for b in bounds:
            data[b][~point] = np.nan
    out = xr.Dataset(
        {m: (dims, v, {**_metric_attrs(m), **(band_attrs if m in bounds else {})}) for m, v in data.items()},
        coords={
            lead_dim: np.array(lead_labels),
            "estimator": np.array(estimators),
            "dataset": np.array(datasets),
            "model": np.array(models),
            "run": np.array(runs),
        },
    )
    out["stream_length"] = (dims[2:], length, {"long_name": "instances in the stream", "units": "1"})
    out["source"] = (dims[2:], source, {"long_name": "file the cell was read from"})
    opts = {k: v for k, v in (evaluate_options or {}).items() if k != "cost"}
    if lead_dim == "summary":
        out.attrs = base_attrs(
            _TITLE,
            metrics=list(metrics),
            summaries=list(lead_labels),
            estimators=list(estimators),
            evaluate_options=opts,
        )
    else:
        out.attrs = base_attrs(
            "streamtk curves collection",
            metrics=list(metrics),
            estimators=list(estimators),
            evaluate_options=opts,
            **(extra_attrs or {}),
        )
    return out


def _metric_attrs(m: str) -> dict:
    base, _, side = m.rpartition("_")
    if side in ("lower", "upper") and base in REGISTRY:
        return {"long_name": f"{side} bound of {REGISTRY[base].long_name}", "units": REGISTRY[base].units}
    hib = higher_is_better(m)
    attrs = {"higher_is_better": "none" if hib is None else str(bool(hib)).lower()}
    if m in REGISTRY:
        attrs.update(long_name=REGISTRY[m].long_name, units=REGISTRY[m].units)
    return attrs


def collection_from_array(
    values,
    *,
    datasets,
    models,
    runs=None,
    metric="accuracy",
    summary="final",
    estimator="prequential",
    higher_is_better: bool | None = None,
) -> xr.Dataset:
    """A collection from a table of values ``(dataset, model)`` or ``(dataset, model, run)``.

    For results computed elsewhere (e.g. a published table); NaN marks missing cells.
    """
    v = np.asarray(values, dtype=np.float64)
    if v.ndim == 2:
        v = v[..., None]
    if v.ndim != 3:
        raise ValueError(f"values must be 2-D (dataset, model) or 3-D (dataset, model, run), got shape {v.shape}")
    runs = list(range(v.shape[2])) if runs is None else list(runs)
    for name, labels, n in (
        ("datasets", datasets, v.shape[0]),
        ("models", models, v.shape[1]),
        ("runs", runs, v.shape[2]),
    ):
        if len(labels) != n or len(set(map(str, labels))) != n:
            raise ValueError(f"{name} must hold {n} distinct labels, got {list(labels)!r}")
    attrs = _metric_attrs(str(metric))
    if higher_is_better is not None:
        attrs["higher_is_better"] = str(bool(higher_is_better)).lower()
    out = xr.Dataset(
        {str(metric): (("summary", "estimator", "dataset", "model", "run"), v[None, None], attrs)},
        coords={
            "summary": [summary],
            "estimator": [estimator],
            "dataset": [str(d) for d in datasets],
            "model": [str(m) for m in models],
            "run": runs,
        },
    )
    out["stream_length"] = (
        ("dataset", "model", "run"),
        np.full(v.shape, np.nan),
        {"long_name": "instances in the stream"},
    )
    out.attrs = base_attrs(_TITLE, metrics=[str(metric)], summaries=[summary], estimators=[estimator])
    return out


def select_table(collection, *, metric=None, summary=None, estimator=None) -> xr.DataArray:
    """One metric / summary / estimator of a collection as a ``(dataset, model, run)`` DataArray.

    Each of ``metric``, ``summary``, ``estimator`` may be omitted when the collection holds
    only one; otherwise the error lists the choices.
    """
    if not isinstance(collection, xr.Dataset):
        raise TypeError(
            f"collection must be an xarray.Dataset from streamtk.comparison.collect, got {type(collection).__name__}"
        )
    dims = ("summary", "estimator", "dataset", "model", "run")
    names = [v for v in collection.data_vars if collection[v].dims == dims]
    names = [v for v in names if not (v.endswith(("_lower", "_upper")) and v.rpartition("_")[0] in names)]
    if not names:
        raise ValueError(f"collection holds no variable with dims {dims}; build it with streamtk.comparison.collect")
    if metric is None:
        if len(names) != 1:
            raise ValueError(f"metric: the collection holds {names}; choose one")
        metric = names[0]
    if metric not in names:
        raise ValueError(f"metric {metric!r} is not in the collection; it holds {names}")
    da = collection[metric]
    for dim, value in (("summary", summary), ("estimator", estimator)):
        choices = [str(v) for v in da[dim].values]
        if value is None:
            if len(choices) != 1:
                raise ValueError(f"{dim}: the collection holds {choices}; choose one")
            value = choices[0]
        if str(value) not in choices:
            raise ValueError(f"{dim} {value!r} is not in the collection; it holds {choices}")
        da = da.sel({dim: str(value)})
    da.attrs = dict(collection[metric].attrs)
    da.attrs.update(metric=str(metric), summary=str(da["summary"].values), estimator=str(da["estimator"].values))
    return da.rename(str(metric))
