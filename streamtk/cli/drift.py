"""``streamtk drift``."""

from __future__ import annotations

from ..drift.registry import DETECTORS as _DETECTOR_REGISTRY
from ._common import (
    UsageError,
    _add_common,
    _add_log_args,
    _check_output,
    _progress,
    _progress_enabled,
    _read_log,
    _say,
    _sub,
)
from ._groups import write_groups

DETECTORS = tuple(name.replace("_", "-") for name in _DETECTOR_REGISTRY)  # CLI spelling: page-hinkley
CONVENTIONS = ("streamtk", "capymoa", "moa")


def _parse_drifts(args, log):
    """``--drifts 5000,8000-9000`` (a change point, a gradual drift from 8000 to 9000), else the log's attrs."""
    import numpy as np

    from ..drift.truth import DriftTruth

    if getattr(args, "drifts", None):
        items = []
        for part in [p.strip() for p in str(args.drifts).split(",") if p.strip()]:
            bounds = part.split("-")
            try:
                values = [int(b) for b in bounds]
            except ValueError:
                values = []
            if len(values) not in (1, 2) or any(v < 0 for v in values):
                raise UsageError(
                    f"--drifts must be comma-separated 0-based change points or start-end ranges (gradual drifts), "
                    f"e.g. 5000,8000-9000; got {args.drifts!r}"
                )
            items.append(values[0] if len(values) == 1 else tuple(values))
        try:
            return DriftTruth.shared(items, "--drifts")
        except (TypeError, ValueError) as err:
            raise UsageError(str(err)) from None
    if "drifts" in log.attrs:
        return DriftTruth.shared([int(d) for d in np.atleast_1d(log.attrs["drifts"])], "drifts of the log")
    return None


def _check_flags(args, detectors) -> None:
    """Refuse bad values and flags that would have no effect (naming both flags), before any work."""
    for flag, value, minimum in (("--max-delay", args.max_delay, 0), ("--max-early-detection",
                                 args.max_early_detection, 0), ("--rate-period", args.rate_period, 1)):  # fmt: skip
        if value is not None and value < minimum:
            kind = "non-negative" if minimum == 0 else "positive"
            raise UsageError(f"{flag} must be a {kind} number of instances, got {value}")
    for flag, value in (("--convention", args.convention), ("--rate-period", args.rate_period)):
        if value is not None and not args.score:
            raise UsageError(f"{flag} has no effect without --score (it sets how --score measures the detections)")
    needs = {"page-hinkley": ("--ph-convention", "--ph-delta", "--ph-lambda"), "adwin": ("--adwin-delta",)}
    for detector, flags in needs.items():
        if detector in detectors:
            continue
        for flag in flags:
            if getattr(args, flag[2:].replace("-", "_")) is not None:
                raise UsageError(
                    f"{flag} has no effect without --detector {detector} (the detectors run: {', '.join(detectors)})"
                )


def _check_truth_flags(args, truth) -> None:
    if truth is not None:
        return
    for flag, value in (("--max-delay", args.max_delay), ("--max-early-detection", args.max_early_detection)):
        if value is not None:
            raise UsageError(
                f"{flag} has no effect without --drifts (the true drifts, which {args.log} does not carry either)"
            )


def _run_detector(name, x, args):
    if name == "page-hinkley":
        from ..drift.page_hinkley import page_hinkley

        convention = args.ph_convention or "streamtk"
        return page_hinkley(x, convention=convention, delta=args.ph_delta, lambda_=args.ph_lambda)
    if name == "adwin":
        from ..drift.adwin import adwin

        return adwin(x, delta=0.002 if args.adwin_delta is None else args.adwin_delta)
    from ..drift.registry import detector_function

    return detector_function(name.replace("-", "_"))(x)  # a detector without flags: its defaults


def _detections(name, res):
    """Per model: 0-based indices (in the error stream) of the alarms."""
    import numpy as np

    if name == "adwin":
        det = res["detection"].transpose("model", "time").values
        # MOA's ADWINChangeDetector flags only the cuts after which the mean (the error rate) rose
        return [np.flatnonzero(row > 0) for row in det]
    idx = res["detection_index"].transpose("model", ...).values
    return [row[row >= 0] for row in idx.reshape(idx.shape[0], -1)]


def _score(alarms, truth, models, n, args, convention=None):
    """The library's score_detections with the models as the run dim."""
    from ..drift.scoring import score_detections

    convention = convention or args.convention or "streamtk"
    kwargs = {"convention": convention, "n": n, "rate_period": args.rate_period or 1000}
    if convention != "moa":
        kwargs.update(max_delay=args.max_delay, max_early_detection=args.max_early_detection or 0)
    sc = score_detections([a.tolist() for a in alarms], truth, **kwargs)
    return sc.rename({"run": "model"}).assign_coords(model=("model", list(models)))


_SUMMARY = {
    "streamtk": ("n_alarms", "false_alarms", "delay"),
    "capymoa": ("tp", "fp", "fn", "precision", "recall", "episode_recall", "f1", "mdt", "ndt", "far", "ar"),
    "moa": ("detected_changes", "detected_warnings", "true_changes", "true_changes_detected",
            "delay_detection_average"),
}  # fmt: skip


def _score_table(sc, convention) -> str:
    import numpy as np

    names = [v for v in _SUMMARY[convention] if v in sc]
    rows = [["model"] + names]
    for j, m in enumerate(sc["model"].values):
        cells = [str(m)]
        for v in names:
            val = sc[v].values[j]
            if np.ndim(val):
                cells.append("/".join("miss" if np.isnan(x) else f"{x:g}" for x in np.ravel(val)))
            else:
                cells.append(f"{val:.4g}" if isinstance(val, (float, np.floating)) else str(val))
        rows.append(cells)
    if convention == "streamtk":
        keys = ("precision", "recall", "f1", "missed_detection_rate", "mean_time_to_detection",
                "mean_time_between_false_alarms", "mean_time_ratio", "false_alarm_rate")  # fmt: skip
        pooled = ", ".join(f"{k}={float(sc[k]):.4g}" for k in keys)
    else:
        pooled = ""
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    text = "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)
    return text + (f"\nover all models: {pooled}" if pooled else "")


#: what each detector's "alarms" column counts (printed under the table)
_COUNTS = {
    "adwin": "cuts after which the error rate rose (MOA's ADWINChangeDetector); every cut, rises and falls "
    "(the marks of `streamtk plot`)",
    "ddm": "drift signals (warnings not counted)",
    "eddm": "drift signals (warnings not counted)",
    "page-hinkley": "threshold crossings (the statistic restarts after each)",
}


def _cmd_drift(args) -> int:
    import numpy as np
    import xarray as xr

    from .._core.labels import encode_labels

    _check_output(args.output)
    detectors = args.detector or list(DETECTORS)
    _check_flags(args, detectors)
    log = _read_log(args.log, args.format, args)
    models = [str(m) for m in log.model.values]
    if args.model:
        bad = [m for m in args.model if m not in models]
        if bad:
            raise UsageError(f"--model {' '.join(bad)}: not in {args.log} (models: {', '.join(models)})")
        models = args.model
    n = log.sizes["time"]
    _, (yt, yp) = encode_labels(log.y_true.values, log.y_pred.sel(model=models).values)
    pos = np.flatnonzero(yt >= 0)  # instances with a label (missing labels have code -1)
    err = (yp[:, pos] != yt[pos]).astype(np.float64)
    x = xr.DataArray(err, dims=("model", "time"), coords={"model": models})
    truth = _parse_drifts(args, log)
    _check_truth_flags(args, truth)
    if args.score and truth is None:
        raise UsageError("--score needs the true drifts: --drifts, or a log with attrs['drifts']")
    if args.convention == "capymoa" and args.max_delay is None:
        raise UsageError("--convention capymoa needs --max-delay (capymoa's max_delay)")
    if truth is not None:
        truth.check_against(n, "--drifts")
    results = {}
    bar = _progress(len(detectors), "detectors", _progress_enabled(args))
    try:
        for name in detectors:
            results[name] = _run_detector(name, x, args)
            bar.update(1)
    finally:
        bar.close()
    head = f"{'model':<14}{'detector':<14}{'alarms':>7}  {'first alarms (instance)':<36}"
    if truth is not None:
        head += " delay per drift; false alarms"
    lines = [head, "-" * len(head)]
    scores = {}
    for name, res in results.items():
        alarms = [pos[idx] for idx in _detections(name, res)]  # indices in the log (missing labels skipped)
        if truth is not None:
            scores[name] = _score(alarms, truth, models, n, args)
        for j, (m, at) in enumerate(zip(models, alarms)):
            first = ", ".join(str(int(i) + 1) for i in at[:5]) + (" ..." if at.size > 5 else "")
            line = f"{m:<14}{name:<14}{at.size:>7}  {first:<36}"
            if truth is not None:
                s = _score(alarms[j : j + 1], truth, models[j : j + 1], n, args, convention="streamtk")
                delays = ["miss" if np.isnan(d) else f"{int(d)}" for d in s["delay"].values.ravel()]
                line += f" {', '.join(delays)}; {int(s['false_alarms'].sum())}"
            lines.append(line)
    _say(args, "\n".join(lines), *_count_notes(results, models))
    if truth is not None:
        _say(args, f"(true drifts at 0-based index {truth.describe()}; delay = alarm index - drift start)")
    if args.score:
        for name, sc in scores.items():
            convention = args.convention or "streamtk"
            _say(args, "", f"{name}: scores ({convention} convention)", _score_table(sc, convention))
    if args.output:
        groups = {}
        for name, res in results.items():
            groups[name] = _annotated(res, name, args, truth)
            if args.score:
                groups[f"{name}-scores"] = scores[name]
        root = {
            "title": "streamtk drift: one group per detector run (and <detector>-scores with --score)",
            "detectors": " ".join(results),
            "source_log": str(args.log),
        }
        _say(args, f"wrote {write_groups(args.output, groups, root)} (groups: {', '.join(groups)})")
    return 0


def _count_notes(results, models) -> list:
    """One line per detector run saying what its "alarms" column counts (ADWIN: also every cut, per model)."""
    import numpy as np

    notes = []
    for name, res in results.items():
        text = f"  {name}: alarms = {_COUNTS.get(name, 'alarms')}"
        if name == "adwin":
            cuts = (res["detection"].transpose("model", "time").values != 0).sum(axis=1)
            text += ": " + ", ".join(f"{m} {int(c)}" for m, c in zip(models, np.atleast_1d(cuts)))
        notes.append(text)
    return ["", "what is counted:", *notes]


def _annotated(res, name, args, truth):
    """A detector run as written: its source, the error stream, the true drifts, a title saying what is marked."""
    res = res.copy()
    res.attrs["source_log"] = str(args.log)
    res.attrs["error_stream"] = "y_pred != y_true over the instances with a label"
    res.attrs["alarms"] = _COUNTS.get(name, "alarms")
    if name == "adwin":
        res.attrs["title"] = "ADWIN cuts (error rate up or down)"
    if truth is not None:
        res["true_drifts"] = truth.to_dataarray()
        res.attrs["true_drifts"] = truth.describe()
        if not truth.per_run:
            res.attrs["drifts"] = [int(v) for v in truth.start[0]]  # marked by `streamtk plot`
    return res


def register(sub) -> None:
    """Add the ``drift`` command to the sub-parsers ``sub``."""
    p = _sub(
        sub,
        "drift",
        "run drift detectors on each model's error stream",
        "Run change detectors (Page-Hinkley, DDM, EDDM, ADWIN) on each model's 0/1 error stream "
        "(instances without a label are skipped) and list the alarms (what each detector's count means is printed "
        "under the table); with known drifts (--drifts, or "
        "attrs['drifts'] of a streamtk log) also the detection delay and false alarms, and with --score every "
        "measure of the chosen convention (streamtk's, capymoa's EvaluateDriftDetector or MOA's evaluator).",
        "  streamtk drift run.csv --detector ddm --detector adwin --drifts 5000,10000\n"
        "  streamtk drift run.csv --drifts 5000,8000-9000 --score --convention capymoa --max-delay 1000\n"
        "  streamtk drift run.nc --model HT --ph-lambda 50 -o drift.nc   (one file, a group per detector)\n"
        "  streamtk plot drift.nc -o drift.png                           (every detector; --group adwin: one)\n",
    )
    _add_log_args(p, mapping=True)
    p.add_argument("--detector", action="append", choices=DETECTORS, help="detector (repeatable; default all)")
    p.add_argument("--model", action="append", help="model to monitor (repeatable; default all)")
    p.add_argument(
        "--drifts",
        help="true drifts: comma-separated 0-based change points, start-end for a gradual drift (e.g. 5000,8000-9000)",
    )
    p.add_argument("--score", action="store_true", help="print (and with -o write) every measure of --convention")
    p.add_argument(
        "--convention",
        choices=CONVENTIONS,
        help="with --score: scoring convention streamtk (default), capymoa (its EvaluateDriftDetector; needs "
        "--max-delay) or moa",
    )
    p.add_argument(
        "--max-delay", type=int, help="with --drifts: longest delay counted as a detection (default: next drift)"
    )
    p.add_argument(
        "--max-early-detection", type=int, help="with --drifts: instances before a drift a detection still counts (0)"
    )
    p.add_argument("--rate-period", type=int, help="with --score: instances per period of the alarm rates (1000)")
    p.add_argument(
        "--ph-convention",
        choices=["streamtk", "moa"],
        help="Page-Hinkley form, as page_hinkley(convention=): streamtk = Gama et al. 2013 (default; delta 0.1, "
        "lambda 100) or moa = MOA's PageHinkleyDM (delta 0.005, lambda 50)",
    )
    p.add_argument("--ph-delta", type=float, help="Page-Hinkley delta (default of --ph-convention)")
    p.add_argument("--ph-lambda", type=float, help="Page-Hinkley threshold lambda (default of --ph-convention)")
    p.add_argument("--adwin-delta", type=float, help="ADWIN confidence (default 0.002)")
    p.add_argument(
        "-o",
        "--output",
        help="write every detector's run (with the true drifts) to this one .nc (or .zarr) file, one group per "
        "detector (e.g. adwin, page-hinkley), and with --score its scores in group <detector>-scores; "
        "`streamtk plot FILE` draws every run, --group one",
    )
    _add_common(p)
    p.set_defaults(func=_cmd_drift)
