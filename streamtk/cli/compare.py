"""``streamtk compare``."""

from __future__ import annotations

from ._common import (
    UsageError,
    _add_common,
    _add_estimator_args,
    _add_log_args,
    _check_output,
    _drifts_of,
    _every,
    _forgetting,
    _read_log,
    _say,
    _sub,
    _write,
)


def _cmd_compare(args) -> int:
    from ..comparison.compare import compare
    from ..report.tables import comparison_table

    _check_output(args.output)
    log = _read_log(args.log, args.format, args)
    n = log.sizes["time"]
    every = _every(args, n)
    models = [str(m) for m in log.model.values]
    options = dict(_forgetting(args), every=every, alpha=args.alpha)
    if args.models:
        bad = [m for m in args.models if m not in models]
        if bad:
            raise UsageError(f"--models {' '.join(bad)}: not in {args.log} (models: {', '.join(models)})")
        a, b = args.models
        if a == b:
            raise UsageError(f"--models names {a!r} twice: compare needs two different models")
        ds = compare(log.y_true, log.y_pred.sel(model=a), log.y_pred.sel(model=b), **options)
        ds.attrs.update(model_a=a, model_b=b)
    else:
        if len(models) < 2:
            raise UsageError(f"{args.log} holds one model ({models[0]}); compare needs two")
        ds = compare(log.y_true, log.y_pred, **options)
    ds.attrs["source_log"] = str(args.log)
    drifts = _drifts_of(args, log)
    if drifts:
        ds.attrs["drifts"] = drifts
    _say(args, comparison_table(ds))
    if args.output:
        _say(args, f"\nwrote {_write(ds, args.output)}")
    return 0


def register(sub) -> None:
    """Add the ``compare`` command to the sub-parsers ``sub``."""
    p = _sub(
        sub,
        "compare",
        "compare models over time: Q statistic and signed McNemar test",
        "Compare two models (--models A B) or every pair of models of a log on the 0-1 loss: Q statistic "
        "log(S_A/S_B) and signed McNemar statistic over the prequential estimator, windows and fading "
        "factors (Gama et al. 2013, section 4). Positive values: A makes more errors.",
        "  streamtk compare run.csv --models HT NB --window 1000 --fading 0.999 -o compare.nc\n"
        "  streamtk compare run.csv --alpha 0.01   (the paper's 99%: threshold 6.635)\n",
    )
    _add_log_args(p, mapping=True)
    _add_estimator_args(p)
    p.add_argument("--models", nargs=2, metavar=("A", "B"), help="the two models (default: every pair)")
    p.add_argument(
        "--alpha",
        type=float,
        default=0.05,
        help="significance level of the McNemar test (default 0.05: threshold 3.841)",
    )
    p.add_argument("--drifts", help="comma-separated true drift positions (0-based), stored for plotting")
    p.add_argument("-o", "--output", help="write the comparison to this .nc or .zarr file")
    _add_common(p, progress=False)
    p.set_defaults(func=_cmd_compare)
