"""``streamtk evaluate``."""

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
    _log_classes,
    _progress,
    _progress_enabled,
    _read_log,
    _say,
    _split_list,
    _sub,
    _write,
)


def _cmd_evaluate(args) -> int:
    from ..report.tables import summary_table

    _check_output(args.output)
    log = _read_log(args.log, args.format, args)
    task = _task(args, log)
    if task == "multilabel":
        return _evaluate_multilabel(args, log)
    n = log.sizes["time"]
    every = _every(args, n)
    metrics = _split_list(args.metrics, "--metrics") if args.metrics else None
    if task != "classification":
        return _cmd_evaluate_regression(args, log, task, every, metrics)
    for flag, given in (("--n-features", args.n_features), ("--alpha", args.alpha)):
        if given is not None:
            raise UsageError(f"{flag} applies to --task regression or intervals; {args.log} is a classification log")
    if args.chunk_size < 1:
        raise UsageError(f"--chunk-size must be a positive integer, got {args.chunk_size}")
    options = dict(
        classes=_log_classes(log),
        **_forgetting(args),
        every=every,
        metrics=metrics,
        convention=args.convention,
    )
    weights = log["weights"] if "weights" in log else None
    scores = None
    if args.scores:
        if "y_score" not in log:
            raise UsageError(f"{args.log} holds no class scores (y_score); drop --scores")
        scores = log.y_score
        options["scores"] = "multi" if "class" in scores.dims else "binary"
    ds = _evaluate_chunked(args, log, options, weights, scores)
    ds.attrs["source_log"] = str(args.log)
    drifts = _drifts_of(args, log)
    if drifts:
        ds.attrs["drifts"] = drifts
    _say(args, summary_table(ds))
    if args.output:
        out = _write(ds, args.output)
        _say(
            args,
            f"\nwrote {out} ({n} instances, {ds.sizes.get('model', 1)} model(s), "
            f"{ds.sizes['estimator']} estimator(s), {ds.sizes['time']} checkpoints)",
        )
    return 0


def _cmd_evaluate_regression(args, log, task, every, metrics) -> int:
    """``--task regression`` (:func:`streamtk.regression_curves`) or ``intervals`` (:func:`streamtk.interval_curves`)
    on the whole log, with the API's defaults."""
    from ..evaluation.intervals import interval_curves
    from ..evaluation.regression import regression_curves
    from ..report.tables import summary_table

    if args.scores:
        raise UsageError(f"--scores evaluates class scores; {args.log} is a {task} log")
    options = dict(**_forgetting(args), every=every, metrics=metrics, convention=args.convention)
    if task == "regression":
        if "y_pred" not in log:
            raise UsageError(f"{args.log} holds no point predictions (y_pred) for --task regression")
        if args.alpha is not None:
            raise UsageError("--alpha applies to --task intervals")
        keep = [v for v in ("y_true", "y_pred", "weights") if v in log]
        ds = regression_curves(log[keep], n_features=args.n_features, **options)
    else:
        if args.n_features is not None:
            raise UsageError("--n-features applies to --task regression")
        if not (("lower" in log and "upper" in log) or "y_quantiles" in log):
            raise UsageError(f"{args.log} holds no intervals (lower and upper, or y_quantiles) for --task intervals")
        keep = [v for v in ("y_true", "lower", "upper", "y_quantiles", "weights") if v in log]
        ds = interval_curves(log[keep], alpha=args.alpha, **options)
    ds.attrs["source_log"] = str(args.log)
    _say(args, summary_table(ds))
    if args.output:
        out = _write(ds, args.output)
        _say(args, f"\nwrote {out} ({log.sizes['time']} instances, {task}, {ds.sizes['estimator']} estimator(s), "
                   f"{ds.sizes['time']} checkpoints)")  # fmt: skip
    return 0


def _evaluate_chunked(args, log, options, weights, scores=None):
    """Chunk by chunk with a progress bar (identical to one pass; the exact AUC carries its state too)."""
    from ..evaluation.curves import Evaluator

    n = log.sizes["time"]
    ev = Evaluator(n_instances=n, **options)
    if scores is not None:  # (..., time) positive-class scores or (..., time, class)
        order = [d for d in scores.dims if d not in ("time", "class")] + ["time"]
        scores = scores.transpose(*order, *(["class"] if "class" in scores.dims else []))
    bar = _progress(n, "evaluate", _progress_enabled(args))
    try:
        for start in range(0, n, args.chunk_size):
            part = slice(start, min(n, start + args.chunk_size))
            w = None if weights is None else weights.isel(time=part).values
            s = None if scores is None else scores.isel(time=part).values
            ev.update(log.y_true.isel(time=part).values, log.y_pred.isel(time=part), w, s)
            bar.update(part.stop - part.start)
    finally:
        bar.close()
    return ev.result()


def _metrics_help() -> str:
    """The --metrics help: the registry's metric names per task."""
    from .._core.metrics import family

    tasks = (("regression", "regression"), ("intervals", "intervals"), ("multilabel", "multilabel"))
    names = {task: ", ".join(m.name for m in family(fam)) for task, fam in tasks}
    return (
        "comma-separated metric names of the task (default: every applicable one; classification: see "
        f"streamtk.METRICS; regression: {names['regression']}; intervals: {names['intervals']}; "
        f"multilabel: {names['multilabel']})"
    )


# ------------------------------------------------------------------------------------ multi-label logs
#: the tasks ``--task`` names (default: from the log)
TASKS = ("classification", "regression", "intervals", "multilabel")
#: the final values ``streamtk evaluate`` prints for a multi-label log
_ML_SUMMARY = ("hamming_loss", "exact_match", "jaccard", "f1_samples", "f1_micro", "f1_macro")


def _task(args, log) -> str:
    """The task of the log: ``--task``, else from the log (``multilabel`` when its ``y_true`` has a ``label`` dim,
    else :func:`streamtk.io.regression_log.log_task`)."""
    from ..io.multilabel import is_multilabel
    from ..io.regression_log import log_task

    multilabel = is_multilabel(log)
    task = getattr(args, "task", None)
    if task is None:
        return "multilabel" if multilabel else log_task(log)
    if (task == "multilabel") != multilabel:
        held = "multilabel" if multilabel else "single-label"
        raise UsageError(f"--task {task}: {args.log} holds a {held} log (y_true has dims {log.y_true.dims})")
    return task


def _evaluate_multilabel(args, log) -> int:
    """``streamtk evaluate`` of a multi-label log (:func:`streamtk.multilabel_curves`, one pass)."""
    from ..evaluation.multilabel import multilabel_curves
    from ..report.tables import summary_table

    if args.scores:
        raise UsageError(f"--scores: {args.log} is a multi-label log (label sets, no class scores); drop --scores")
    metrics = _split_list(args.metrics, "--metrics") if args.metrics else None
    ds = multilabel_curves(
        log.y_true,
        log.y_pred,
        weights=log["weights"] if "weights" in log else None,
        every=_every(args, log.sizes["time"]),
        metrics=metrics,
        zero_division=_zero_division(args.zero_division),
        convention=args.convention,
        **_forgetting(args),
    )
    ds.attrs["source_log"] = str(args.log)
    _say(args, summary_table(ds, [m for m in _ML_SUMMARY if m in ds]))
    if args.output:
        out = _write(ds, args.output)
        _say(args, f"\nwrote {out} ({ds.sizes['time']} checkpoints, {ds.sizes['label']} labels)")
    return 0


def _zero_division(text: str) -> float:
    """The value of ``--zero-division`` (a one-line usage error naming the flag and the value)."""
    from ..evaluation.multilabel import check_zero_division

    try:
        return check_zero_division(text)
    except (TypeError, ValueError) as err:
        raise UsageError(f"--zero-division {text}: {err}") from None


def register(sub) -> None:
    """Add the ``evaluate`` command to the sub-parsers ``sub``."""
    p = _sub(
        sub,
        "evaluate",
        "evaluate a log with prequential, window, fading (and ADWIN) estimators",
        "Evaluate every model of a log in one pass (chunk by chunk, identical to one pass) with the "
        "prequential estimator plus every window and fading factor given; print the final values and "
        "write the curves.",
        "  streamtk evaluate run.csv --window 1000 --fading 0.999 --every 100 -o curves.nc\n"
        "  streamtk evaluate run.pred --convention moa --window 1000 --metrics accuracy,kappa,kappa_per\n"
        "  streamtk evaluate run.parquet --scores --fading 0.999 -o curves.nc   (adds AUC, log loss, Brier)\n"
        "  streamtk evaluate run.csv --y-true label --y-pred prediction --classes UP,DOWN --drifts 1000,5000\n"
        "  streamtk evaluate run.csv --y-pred HT=pred_ht,NB=pred_nb -o curves.nc\n"
        "  streamtk evaluate regression.csv --task regression --window 1000 --n-features 8 -o curves.nc\n"
        "  streamtk evaluate intervals.nc --alpha 0.1 --window 1000   (task detected from the log)\n"
        "  streamtk evaluate run.parquet --scores --metrics auc,average_precision,pr_auc --window 1000\n"
        "  streamtk evaluate ml.nc --task multilabel --window 500 --zero-division nan   (a multi-label log)\n",
    )
    _add_log_args(p, mapping=True)
    _add_estimator_args(p)
    p.add_argument(
        "--drifts",
        metavar="I,J,...",
        help="true drift positions (0-based indices), stored in the output for plots (default: the log's)",
    )
    p.add_argument(
        "--task",
        choices=TASKS,
        help="what the log holds (default: from the log: multilabel when y_true has a label dim, else the log's "
        "task attribute, else intervals with lower/upper or y_quantiles, regression with non-integer targets, "
        "else classification)",
    )
    p.add_argument("--metrics", help=_metrics_help())
    p.add_argument(
        "--n-features",
        type=int,
        metavar="P",
        help="the models' number of features, for adjusted_r2 (--task regression; as n_features= of the API)",
    )
    p.add_argument(
        "--alpha",
        type=float,
        metavar="A",
        help="the intervals' nominal miss rate, for interval_score (--task intervals; as alpha= of the API)",
    )
    p.add_argument(
        "--convention",
        choices=["streamtk", "moa"],
        default="streamtk",
        help="'moa' reproduces MOA's evaluators exactly (default streamtk)",
    )
    p.add_argument(
        "--scores",
        action="store_true",
        help="also evaluate the log's class scores (y_score): exact AUC, log loss, Brier (chunked too)",
    )
    p.add_argument(
        "--chunk-size", type=int, default=1_000_000, metavar="N", help="instances per chunk (default 1000000)"
    )
    p.add_argument("-o", "--output", help="write the curves to this .nc or .zarr file")
    # multi-label logs (streamtk.multilabel_curves)
    p.add_argument(
        "--zero-division",
        default="0",
        metavar="{0,1,nan}",
        help="multi-label: the value of a 0/0 in precision, recall, F1, Jaccard (default 0, as scikit-learn)",
    )
    _add_common(p)
    p.set_defaults(func=_cmd_evaluate)
