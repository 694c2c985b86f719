"""``streamtk drift``."""

from __future__ import annotations

from pathlib import Path

from ._common import (
    UsageError,
    _add_common,
    _add_log_args,
    _check_output,
    _drifts_of,
    _progress,
    _progress_enabled,
    _read_log,
    _say,
    _sub,
    _write,
)

DETECTORS = ("page-hinkley", "ddm", "eddm", "adwin")


def _run_detector(name, x, args):
    if name == "page-hinkley":
        from ..drift.page_hinkley import page_hinkley

        return page_hinkley(x, variant=args.ph_variant, delta=args.ph_delta, lambda_=args.ph_lambda)
    if name == "ddm":
        from ..drift.ddm import ddm

        return ddm(x)
    if name == "eddm":
        from ..drift.eddm import eddm

        return eddm(x)
    from ..drift.adwin import adwin

    return adwin(x, delta=args.adwin_delta)


def _detections(name, res):
    """Per model: 0-based indices (in the error stream) of the alarms."""
    import numpy as np

    if name == "adwin":
        det = res["detection"].transpose("model", "time").values
        # MOA's ADWINChangeDetector flags only the cuts after which the mean (the error rate) rose
        return [np.flatnonzero(row > 0) for row in det]
    idx = res["detection_index"].transpose("model", ...).values
    return [row[row >= 0] for row in idx.reshape(idx.shape[0], -1)]


def _cmd_drift(args) -> int:
    import numpy as np

    from ..drift.scoring import score_detections

    _check_output(args.output)
    log = _read_log(args.log, args.format)
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
    drifts = _drifts_of(args, log)
    results = {}
    bar = _progress(len(detectors), "detectors", _progress_enabled(args))
    try:
        for name in detectors:
            results[name] = _run_detector(name, x, args)
            bar.update(1)
    finally:
        bar.close()
    head = f"{'model':<14}{'detector':<14}{'alarms':>7}  {'first alarms (instance)':<36}"
    if drifts:
        head += " delay per drift; false alarms"
    lines = [head, "-" * len(head)]
    for name, res in results.items():
        for m, idx in zip(models, _detections(name, res)):
            at = pos[idx]  # indices in the log (missing labels skipped by the detector)
            first = ", ".join(str(int(i) + 1) for i in at[:5]) + (" ..." if at.size > 5 else "")
            line = f"{m:<14}{name:<14}{at.size:>7}  {first:<36}"
            if drifts:
                s = score_detections([at.tolist()], drifts, max_delay=args.max_delay, n=n)
                delays = ["miss" if np.isnan(d) else f"{int(d)}" for d in s["delay_mean"].values.ravel()]
                fa = int(s["false_alarms_before"]) + int(s["false_alarms_between"])
                line += f" {', '.join(delays)}; {fa}"
            lines.append(line)
    _say(args, "\n".join(lines))
    if drifts:
        _say(args, f"(true drifts at 0-based index {', '.join(map(str, drifts))}; delay = alarm index - drift index)")
    if args.output:
        out = Path(args.output)
        for name, res in results.items():
            res = res.copy()
            res.attrs["source_log"] = str(args.log)
            res.attrs["error_stream"] = "y_pred != y_true over the instances with a label"
            target = out.with_name(f"{out.stem}-{name}{out.suffix}")
            _say(args, f"wrote {_write(res, target)}")
    return 0


def register(sub) -> None:
    """Add the ``drift`` command to the sub-parsers ``sub``."""
    p = _sub(
        sub,
        "drift",
        "run drift detectors on each model's error stream",
        "Run change detectors (Page-Hinkley, DDM, EDDM, ADWIN) on each model's 0/1 error stream "
        "(instances without a label are skipped) and list the alarms; with known drifts (--drifts, or "
        "attrs['drifts'] of a streamtk log) also the detection delay and false alarms.",
        "  streamtk drift run.csv --detector ddm --detector adwin --drifts 5000,10000\n"
        "  streamtk drift run.nc --model HT --ph-lambda 50 -o drift.nc   (writes drift-<detector>.nc)\n",
    )
    _add_log_args(p)
    p.add_argument("--detector", action="append", choices=DETECTORS, help="detector (repeatable; default all)")
    p.add_argument("--model", action="append", help="model to monitor (repeatable; default all)")
    p.add_argument("--drifts", help="comma-separated true drift positions (0-based indices)")
    p.add_argument("--max-delay", type=int, help="longest delay counted as a detection (default: next drift)")
    p.add_argument(
        "--ph-variant",
        choices=["moa", "gama2013"],
        default="moa",
        help="Page-Hinkley form: MOA's PageHinkleyDM (default; delta 0.005, lambda 50) or Gama et al. "
        "2013 (delta 0.1, lambda 100)",
    )
    p.add_argument("--ph-delta", type=float, help="Page-Hinkley delta (default of the variant)")
    p.add_argument("--ph-lambda", type=float, help="Page-Hinkley threshold lambda (default of the variant)")
    p.add_argument("--adwin-delta", type=float, default=0.002, help="ADWIN confidence (default 0.002)")
    p.add_argument("-o", "--output", help="write each detector's run to <stem>-<detector>.nc")
    _add_common(p)
    p.set_defaults(func=_cmd_drift)
