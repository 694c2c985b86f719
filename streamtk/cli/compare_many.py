"""``streamtk compare-many``: many logs (datasets x models x runs) -> collection, tests, tables and figures."""

from __future__ import annotations

from ._common import (
    UsageError,
    _add_common,
    _add_estimator_args,
    _forgetting,
    _say,
    _split_list,
    _sub,
    check_has_rows,
)


def _cmd_compare_many(args) -> int:
    from pathlib import Path

    from ..comparison.across_streams import compare_many
    from ..comparison.collection import collect
    from ..io.collection import read_collection
    from ..report.comparison_report import write_report
    from ..report.paper_tables import results_table

    if args.alpha is not None and not 0 < args.alpha < 1:
        raise UsageError(f"--alpha must be in (0, 1), got {args.alpha}")
    if args.every is not None and args.every < 1:
        raise UsageError(f"--every must be a positive integer, got {args.every}")
    if args.rope is not None and args.rope < 0:
        raise UsageError(f"--rope must be >= 0, got {args.rope}")
    formats = _split_list(args.table_format, "--table-format")
    bad = [f for f in formats if f not in ("latex", "markdown", "html")]
    if bad:
        raise UsageError(f"--table-format: {', '.join(bad)} unknown; use latex, markdown, html")
    for p in args.logs:
        if not Path(p).exists():
            raise UsageError(f"{p}: no such file")
        check_has_rows(p)
    from .._core.mechanisms import build_estimators

    estimators = [s.label for s in build_estimators(**_forgetting(args))]
    estimator = args.estimator or "prequential"
    if estimator not in estimators:
        estimators.append(estimator)
    collection = None
    if len(args.logs) == 1 and Path(args.logs[0]).suffix in (".nc", ".nc4"):
        try:
            collection = read_collection(args.logs[0])  # a collection written by an earlier run
        except ValueError:
            collection = None
    if collection is None:
        options = dict(_forgetting(args), **({"every": args.every} if args.every is not None else {})) or None
        collection = collect(
            args.logs,
            metrics=[args.metric],
            summaries=[args.summary],
            estimators=estimators,
            pattern=args.pattern,
            evaluate_options=options,
        )
    _check_missing(collection, args, estimator)
    hib = None if args.direction is None else args.direction == "higher"
    result = compare_many(
        collection,
        metric=args.metric,
        summary=args.summary,
        estimator=estimator,
        posthoc=args.posthoc,
        control=args.control,
        alpha=args.alpha or 0.05,
        runs=args.runs,
        missing=args.missing,
        higher_is_better=hib,
    )
    _say(args, repr(result), "", results_table(result, fmt="markdown", digits=args.digits))
    if args.output:
        written = write_report(
            result,
            args.output,
            collection=collection,
            formats=formats,
            force=args.force,
            rope=args.rope,
            seed=args.seed,
            overwrite=args.overwrite,
            digits=args.digits,
        )
        if not result.significant and not args.force:
            _say(args, "(no CD diagram: the Friedman/Iman-Davenport test does not reject; --force draws it)")
        _say(args, "", "wrote " + ", ".join(str(p) for p in written))
    return 0


def _check_missing(collection, args, estimator) -> None:
    """Refuse missing values as the command line spells it: name the datasets, the models and the flag.

    The library's own messages speak Python (``missing='drop'``) and, when dropping leaves fewer than
    two datasets, do not say which models are to blame.
    """
    from ..comparison.collection import select_table

    cells = select_table(collection, metric=args.metric, summary=args.summary, estimator=estimator)
    present = cells.notnull().any("model")  # a run no model has is not missing
    hole = (cells.isnull() & present).any("run") | ~present.any("run")  # (dataset, model)
    datasets = [str(d) for d in cells["dataset"].values]
    bad = [d for d, h in zip(datasets, hole.any("model").values) if h]
    if not bad:
        return
    per_model = hole.sum("dataset")
    culprits = [(str(m), int(k)) for m, k in zip(cells["model"].values, per_model.values) if k > 0]
    culprits.sort(key=lambda mk: -mk[1])
    blame = ", ".join(f"{m} (on {k} of {len(datasets)})" for m, k in culprits)
    usable = len(datasets) - len(bad)
    if args.missing == "raise":
        raise UsageError(
            f"--metric {cells.name} has missing values on dataset(s) {', '.join(bad)}; models with missing values: "
            f"{blame}. --missing drop leaves those datasets out ({usable} of {len(datasets)} would remain)"
        )
    if usable < 2:
        everywhere = ", ".join(m for m, k in culprits if k == len(bad)) or "those models"
        raise UsageError(
            f"--missing drop leaves {usable} of {len(datasets)} datasets (at least 2 are needed): models with "
            f"missing values: {blame}; {everywhere} lack values on every unusable dataset ({', '.join(bad)}). "
            f"Leave {everywhere} out (the columns or logs) to compare the others"
        )


def register(sub) -> None:
    """Add the ``compare-many`` command to the sub-parsers ``sub``."""
    p = _sub(
        sub,
        "compare-many",
        "compare many models over many streams: Friedman, post-hoc tests, paper tables, CD diagram",
        "Collect many logs (or evaluation curves) into one results collection (dims dataset, model, run), "
        "summarise each curve (final, mean, area, at=N), rank the models on every dataset, run Friedman's test "
        "with Iman-Davenport's correction and a post-hoc procedure (Demsar 2006; Garcia & Herrera 2008), and "
        "write the collection, the tests, LaTeX/Markdown/HTML tables and a CD diagram. A single .nc collection "
        "written by an earlier run reproduces every artefact.",
        "  streamtk compare-many logs/*.nc --metric kappa --summary final --posthoc holm -o report/\n"
        "  streamtk compare-many logs/*.csv --pattern '{dataset}_seed{run}.csv' --metric accuracy --rope 0.01 -o out/\n"
        "  streamtk compare-many report/collection.nc --metric kappa --posthoc shaffer -o report_shaffer/\n",
    )
    p.add_argument("logs", nargs="+", metavar="LOG", help="logs or curves (.csv/.parquet/.npz/.pred/.nc/.zarr)")
    p.add_argument("--pattern", help="labels in file names, e.g. '{dataset}_{model}_seed{run}.nc' or a regex")
    p.add_argument("--metric", default="accuracy", help="metric to compare (default accuracy)")
    p.add_argument("--summary", default="final", help="final, mean, area or at=N (default final)")
    p.add_argument("--estimator", help="estimator label, e.g. window=1000 (default prequential)")
    _add_estimator_args(p)  # logs are evaluated with these estimators too
    p.add_argument(
        "--posthoc",
        default="holm",
        choices=["nemenyi", "bonferroni-dunn", "holm", "hochberg", "finner", "shaffer"],
        help="post-hoc procedure (default holm)",
    )
    p.add_argument("--control", help="compare every model with this one (default: all pairs)")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    p.add_argument(
        "--runs", default="mean", choices=["mean", "median", "blocks"], help="runs of a dataset (default mean)"
    )
    p.add_argument("--missing", default="raise", choices=["raise", "drop"], help="datasets with missing values")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--lower-is-better", dest="direction", action="store_const", const="lower", default=None)
    g.add_argument("--higher-is-better", dest="direction", action="store_const", const="higher")
    p.add_argument("--rope", type=float, help="also run the Bayesian signed-rank test of every pair with this ROPE")
    p.add_argument("--seed", type=int, default=0, help="seed of the Bayesian test's draws (default 0)")
    p.add_argument("--table-format", default="latex,markdown,html", help="comma-separated table formats")
    p.add_argument("--digits", type=int, default=3, help="decimals in the tables (default 3)")
    p.add_argument("--force", action="store_true", help="draw the CD diagram even if Friedman does not reject")
    p.add_argument("--overwrite", action="store_true", help="replace existing files in the output folder")
    p.add_argument("-o", "--output", help="folder for the collection, tests, tables and figures")
    _add_common(p, progress=False)
    p.set_defaults(func=_cmd_compare_many)
