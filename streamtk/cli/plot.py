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
    if args.drifts is not None:
        from ._common import _split_list

        ds = ds.copy()
        ds.attrs["drifts"] = _split_list(args.drifts, "--drifts", int)
    from ..plot.figure import result_figure

    fig = result_figure(ds, metric=args.metric, model=args.model, kind=args.kind, estimator=args.estimator)
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
        "  streamtk plot compare.nc --metric q\n",
    )
    p.add_argument("file", metavar="FILE", help="a .nc or .zarr result written by streamtk")
    p.add_argument("-o", "--output", help="figure to write: .png, or .pdf/.svg for vector output (default FILE.png)")
    p.add_argument("--metric", help="variable to plot (curves: default accuracy; comparison: mcnemar or q)")
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
        "--group", help="netCDF group to plot (e.g. comparison, dependence, drift_adwin of streamtk-demo.nc)"
    )
    p.add_argument("--dpi", type=int, default=110, help="resolution (default 110)")
    _add_common(p, progress=False)
    p.set_defaults(func=_cmd_plot)
