"""``streamtk drift``."""

from __future__ import annotations

from pathlib import Path

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
    _write,
)

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


def _run_detector(name, x, args):
    if name == "page-hinkley":
        from ..drift.page_hinkley import page_hinkley

        return page_hinkley(x, convention=args.ph_convention, delta=args.ph_delta, lambda_=args.ph_lambda)
    if name == "adwin":
        from ..drift.adwin import adwin

        return adwin(x, delta=args.adwin_delta)
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

    convention = convention or args.convention
    kwargs = {"convention": convention, "n": n, "rate_period": args.rate_period}
    if convention != "moa":
        kwargs.update(max_delay=args.max_delay, max_early_detection=args.max_early_detection)
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


def _cmd_drift(args) -> int:
    import numpy as np

    _check_output(args.output)
    log = _read_log(args.log, args.format, args)
    models = [str(m) for m in log.model.values]
    if args.model:
        bad = [m for m in args.model if m not in models]
        if bad:
            raise UsageError(f"--model {' '.join(bad)}: not in {args.log} (models: {', '.join(models)})")
        models = args.model
    detectors = args.detector or list(DETECTORS)
    n = log.sizes["time"]
    import xarray as xr

    from .._core.labels import encode_labels

    _, (yt, yp) = encode_labels(log.y_true.values, log.y_pred.sel(model=models).values)
    pos = np.flatnonzero(yt >= 0)  # instances with a label (missing labels have code -1)
    err = (yp[:, pos] != yt[pos]).astype(np.float64)
    x = xr.DataArray(err, dims=("model", "time"), coords={"model": models})
    truth = _parse_drifts(args, log)
    if args.score and truth is None:
        raise UsageError("--score needs the true drifts: --drifts, or a log with attrs['drifts']")
    if args.convention == "capymoa" and args.score and args.max_delay is None:
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
    _say(args, "\n".join(lines))
    if truth is not None:
        _say(args, f"(true drifts at 0-based index {truth.describe()}; delay = alarm index - drift start)")
    if args.score:
        for name, sc in scores.items():
            _say(args, "", f"{name}: scores ({args.convention} convention)", _score_table(sc, args.convention))
    if args.output:
        out = Path(args.output)
        for name, res in results.items():
            res = res.copy()
            res.attrs["source_log"] = str(args.log)
            res.attrs["error_stream"] = "y_pred != y_true over the instances with a label"
            if truth is not None:
                res["true_drifts"] = truth.to_dataarray()
                res.attrs["true_drifts"] = truth.describe()
            target = out.with_name(f"{out.stem}-{name}{out.suffix}")
            _say(args, f"wrote {_write(res, target)}")
            if args.score:
                target = out.with_name(f"{out.stem}-{name}-scores{out.suffix}")
                _say(args, f"wrote {_write(scores[name], target)}")
    return 0


def register(sub) -> None:
    """Add the ``drift`` command to the sub-parsers ``sub``."""
    p = _sub(
        sub,
        "drift",
        "run drift detectors on each model's error stream",
        "Run change detectors (Page-Hinkley, DDM, EDDM, ADWIN) on each model's 0/1 error stream "
        "(instances without a label are skipped) and list the alarms; with known drifts (--drifts, or "
        "attrs['drifts'] of a streamtk log) also the detection delay and false alarms, and with --score every "
        "measure of the chosen convention (streamtk's, capymoa's EvaluateDriftDetector or MOA's evaluator).",
        "  streamtk drift run.csv --detector ddm --detector adwin --drifts 5000,10000\n"
        "  streamtk drift run.csv --drifts 5000,8000-9000 --score --convention capymoa --max-delay 1000\n"
        "  streamtk drift run.nc --model HT --ph-lambda 50 -o drift.nc   (writes drift-<detector>.nc)\n",
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
        default="streamtk",
        help="scoring convention: streamtk (default), capymoa (its EvaluateDriftDetector; needs --max-delay) or moa",
    )
    p.add_argument("--max-delay", type=int, help="longest delay counted as a detection (default: next drift)")
    p.add_argument(
        "--max-early-detection", type=int, default=0, help="instances before a drift a detection still counts"
    )
    p.add_argument("--rate-period", type=int, default=1000, help="instances per period of the alarm rates")
    p.add_argument(
        "--ph-convention",
        choices=["streamtk", "moa"],
        default="streamtk",
        help="Page-Hinkley form, as page_hinkley(convention=): streamtk = Gama et al. 2013 (default; delta 0.1, "
        "lambda 100) or moa = MOA's PageHinkleyDM (delta 0.005, lambda 50)",
    )
    p.add_argument("--ph-delta", type=float, help="Page-Hinkley delta (default of --ph-convention)")
    p.add_argument("--ph-lambda", type=float, help="Page-Hinkley threshold lambda (default of --ph-convention)")
    p.add_argument("--adwin-delta", type=float, default=0.002, help="ADWIN confidence (default 0.002)")
    p.add_argument(
        "-o",
        "--output",
        help="write each detector's run (with the true drifts) to <stem>-<detector>.nc, and with --score its "
        "scores to <stem>-<detector>-scores.nc",
    )
    _add_common(p)
    p.set_defaults(func=_cmd_drift)
