"""``streamtk plot``."""

from __future__ import annotations

from pathlib import Path

from ._common import UsageError, _add_common, _say, _sub


def _open_group(path, group):
    """A group of a netCDF file (e.g. ``comparison`` in ``streamtk-demo.nc``), loaded into memory."""
    import xarray as xr

    try:
        with xr.open_dataset(path, group=group) as src:
            return src.load()
    except OSError as err:
        if "group not found" in str(err).lower() or group in str(err):
            import netCDF4

            with netCDF4.Dataset(path) as nc:
                groups = sorted(nc.groups)
            raise ValueError(f"{path} has no group {group!r}; groups: {', '.join(groups) or 'none'}") from None
        raise


def _groups_of(path):
    from ._groups import group_names

    try:
        return group_names(path)
    except (OSError, ValueError, ImportError):
        return []


def _groups_figure(path, args, drifts):
    """Every detector run of a file with one group per detector: a row per detector, a panel per model."""
    import matplotlib.pyplot as plt
    import numpy as np

    from ..plot.drift import plot_detector
    from ..plot.kinds import dataset_kind

    groups = _groups_of(path)
    runs = {}
    for name in groups:
        ds = _open_group(path, name)
        if dataset_kind(ds) == "detector":
            runs[name] = ds
    if not runs:
        raise ValueError(
            f"{path} holds only groups ({', '.join(groups)}) and none is a detector run: choose one with --group"
        )
    if args.kind or args.metric or args.estimator:
        flag = "--kind" if args.kind else "--metric" if args.metric else "--estimator"
        raise UsageError(f"{flag} needs --group: {path} holds the groups {', '.join(groups)}")
    first = next(iter(runs.values()))
    models = [str(m) for m in first["model"].values] if "model" in first.coords else [None]
    if args.model:
        bad = [m for m in args.model if m not in models]
        if bad:
            raise UsageError(f"--model {' '.join(bad)}: not in {path} (models: {', '.join(map(str, models))})")
        models = list(args.model)
    fig, axes = plt.subplots(
        len(runs), len(models), figsize=(6.0 * len(models), 3.4 * len(runs)), squeeze=False, constrained_layout=True
    )
    for row, (name, ds) in zip(axes, runs.items()):
        var = ds["statistic"] if "statistic" in ds else ds["width"]
        sel = {d: var[d].values[0] for d in var.dims if d not in ("time", "model")}
        marks = drifts if drifts is not None else ds.attrs.get("drifts")
        marks = None if marks is None else [int(d) for d in np.atleast_1d(marks)]
        for ax, model in zip(row, models):
            where = {**sel, "model": model} if model is not None else sel
            title = ds.attrs.get("title", name) + (f" - {model}" if model is not None else "")
            plot_detector(ds, sel=where, ax=ax, drifts=marks, title=title)
    return fig


def _cmd_plot(args) -> int:
    from ..io import open_dataset

    path = Path(args.file)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file")
    if args.group:
        ds = _open_group(path, args.group)
    else:
        ds = open_dataset(path)
    out = Path(args.output) if args.output else path.with_suffix(".png")
    if out.suffix.lower() not in (".png", ".pdf", ".svg", ".eps", ".ps", ".jpg", ".jpeg", ".tif", ".tiff"):
        raise UsageError(f"-o {out}: use .png, .pdf, .svg or .eps (PDF/SVG/EPS are vector graphics)")
    drifts = None
    if args.drifts is not None:
        from ._common import _split_list

        drifts = _split_list(args.drifts, "--drifts", int)
        ds = ds.copy()
        ds.attrs["drifts"] = drifts
    if not args.group and not ds.data_vars and _groups_of(path):
        fig = _groups_figure(path, args, drifts)  # e.g. `streamtk drift -o drift.nc`: a group per detector
    else:
        from ..plot.figure import result_figure

        fig = result_figure(
            ds, metric=args.metric, model=args.model, kind=args.kind, estimator=args.estimator, bands=args.bands
        )
    fig.savefig(out, dpi=args.dpi)
    import matplotlib.pyplot as plt

    plt.close(fig)
    _say(args, f"wrote {out}")
    return 0


def register(sub) -> None:
    """Add the ``plot`` command to the sub-parsers ``sub``."""
    p = _sub(
        sub,
        "plot",
        "plot a result file (curves, comparison, detector run, ...) to PNG",
        "Plot a netCDF/zarr result written by streamtk: evaluation curves (one panel per model), "
        "a comparison (McNemar or Q per pair), a detector run, detection delays, significance curves "
        "or temporal dependence.",
        "  streamtk plot curves.nc -o curves.pdf --metric kappa --estimator window=1000   (the paper figure)\n"
        "  streamtk plot curves.nc -o curves.png --metric kappa_per --drifts 1000,5000\n"
        "  streamtk plot streamtk-demo.nc --group comparison -o comparison.png\n"
        "  streamtk plot compare.nc --metric q\n"
        "  streamtk plot drift.nc -o drift.png   (every detector run written by `streamtk drift -o drift.nc`)\n",
    )
    p.add_argument("file", metavar="FILE", help="a .nc or .zarr result written by streamtk")
    p.add_argument("-o", "--output", help="figure to write: .png, or .pdf/.svg for vector output (default FILE.png)")
    p.add_argument(
        "--metric",
        help="variable to plot (curves: default accuracy, else the result's first metric, e.g. of a regression, "
        "interval or multi-label result; comparison: mcnemar or q)",
    )
    p.add_argument("--model", action="append", help="model(s) to show (default all)")
    p.add_argument(
        "--estimator",
        action="append",
        help="curves: estimator(s) to show, one panel each with every model (default all, up to 6)",
    )
    p.add_argument(
        "--drifts",
        metavar="I,J,...",
        help="true drift positions (0-based indices) to mark (default: the file's attrs['drifts'])",
    )
    p.add_argument("--kind", help="force the plot kind (curves, baselines, comparison, detector, ...)")
    p.add_argument(
        "--bands",
        action="store_true",
        help="shade the confidence bands of curves, baselines and comparisons (a result computed with interval=)",
    )
    p.add_argument(
        "--group",
        help="group to plot (e.g. comparison, dependence, drift_adwin of streamtk-demo.nc; adwin, ddm-scores of a "
        "`streamtk drift -o` file). Without it, a file holding only detector runs (`streamtk drift -o`) is drawn "
        "whole: a row per detector, a panel per model",
    )
    p.add_argument("--dpi", type=int, default=110, help="resolution (default 110)")
    _add_common(p, progress=False)
    p.set_defaults(func=_cmd_plot)
