"""The ``streamtk`` command line (also ``python -m streamtk``).

Commands: ``evaluate``, ``compare``, ``drift``, ``plot``, ``figures``, ``demo``; ``streamtk
COMMAND --help`` shows each one's options and examples. Exit status: 0 on success, 2 for
a usage or input error (one line on stderr naming the file or argument, no traceback),
1 when there was nothing to do (``figures`` without figure scripts) or a figure script
failed, 130 when interrupted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ._version import __version__

__all__ = ["main", "build_parser"]

EPILOG = """examples:
  streamtk demo                                     simulate, evaluate, compare, detect; write netCDF + PNG
  streamtk evaluate run.csv --window 1000 --fading 0.999 --every 100 -o curves.nc
  streamtk compare run.csv --models HT NB --window 1000 -o compare.nc
  streamtk drift run.csv --detector ddm --detector adwin --drifts 5000
  streamtk plot curves.nc -o curves.png
  streamtk figures --list

A LOG is a file of recorded predictions: CSV/TSV (columns y_true, y_pred:<model>...),
Parquet, .npz, MOA's EvaluatePrequential -o dump (.pred) or netCDF/zarr written by
streamtk (see streamtk.io).
"""


class UsageError(Exception):
    """A bad argument combination found after parsing (exit status 2)."""


# --------------------------------------------------------------------------- helpers
def _progress_enabled(args) -> bool:
    if getattr(args, "quiet", False):
        return False
    if getattr(args, "progress", None) is not None:
        return args.progress
    return sys.stderr.isatty()


def _progress(total, desc, enabled):
    """A tqdm bar on stderr when enabled and tqdm is installed; otherwise a no-op object."""
    if enabled:
        try:
            from tqdm.auto import tqdm
        except ImportError:
            pass
        else:
            return tqdm(total=total, desc=desc, unit="inst", unit_scale=True, file=sys.stderr, leave=False)

    class _Null:
        def update(self, n):
            pass

        def close(self):
            pass

    return _Null()


def _say(args, *lines):
    if not getattr(args, "quiet", False):
        for line in lines:
            print(line)


def _read_log(path, fmt):
    from .io import read_log

    log = read_log(path, format=fmt)
    missing = [v for v in ("y_true", "y_pred") if v not in log]
    if missing:
        raise ValueError(f"{path}: not a log of recorded predictions (no {', '.join(missing)})")
    if "model" not in log.y_pred.dims:
        log["y_pred"] = log.y_pred.expand_dims(model=["model"])
    return log


def _check_output(path):
    """Refuse an output name we cannot write before any work is done."""
    if path is None:
        return
    path = Path(path)
    if path.suffix not in (".nc", ".nc4", ".netcdf", ".zarr"):
        raise UsageError(f"output {path}: use a .nc (netCDF) or .zarr file name")
    if not path.parent.is_dir():
        raise UsageError(f"output {path}: the directory {path.parent} does not exist")


def _write(ds, path) -> Path:
    from .io import to_netcdf, to_zarr

    _check_output(path)
    path = Path(path)
    return to_zarr(ds, path) if path.suffix == ".zarr" else to_netcdf(ds, path)


def _every(args, n):
    if args.every is None:
        return max(1, n // 1000)
    if args.every < 1:
        raise UsageError(f"--every must be a positive integer, got {args.every}")
    return args.every


def _split_list(text, name, cast=str):
    items = [s.strip() for s in str(text).split(",") if s.strip()]
    try:
        return [cast(s) for s in items]
    except ValueError:
        raise UsageError(f"{name} must be a comma-separated list of {cast.__name__}, got {text!r}") from None


def _log_classes(log):
    from ._core.labels import encode_labels

    enc, _ = encode_labels(log.y_true.values, log.y_pred.values)
    return enc.classes


def _drifts_of(args, log):
    import numpy as np

    if getattr(args, "drifts", None):
        return _split_list(args.drifts, "--drifts", int)
    if "drifts" in log.attrs:
        return [int(d) for d in np.atleast_1d(log.attrs["drifts"])]
    return []


# --------------------------------------------------------------------------- evaluate
def _cmd_evaluate(args) -> int:
    from .report.tables import summary_table

    _check_output(args.output)
    log = _read_log(args.log, args.format)
    n = log.sizes["time"]
    every = _every(args, n)
    metrics = _split_list(args.metrics, "--metrics") if args.metrics else None
    if args.chunk_size < 1:
        raise UsageError(f"--chunk-size must be a positive integer, got {args.chunk_size}")
    options = dict(classes=_log_classes(log), windows=args.window or (), fading=args.fading or (), every=every,
                   metrics=metrics, convention=args.convention)
    if args.adwin:
        options["adwin"] = args.adwin
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
        _say(args, f"\nwrote {out} ({n} instances, {ds.sizes.get('model', 1)} model(s), "
                   f"{ds.sizes['estimator']} estimator(s), {ds.sizes['time']} checkpoints)")
    return 0


def _evaluate_chunked(args, log, options, weights, scores=None):
    """Chunk by chunk with a progress bar (identical to one pass; the exact AUC carries its state too)."""
    from .evaluation.curves import Evaluator

    n = log.sizes["time"]
    ev = Evaluator(**options)
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


# --------------------------------------------------------------------------- compare
def _cmd_compare(args) -> int:
    from .comparison.compare import compare
    from .report.tables import comparison_table

    _check_output(args.output)
    log = _read_log(args.log, args.format)
    n = log.sizes["time"]
    every = _every(args, n)
    models = [str(m) for m in log.model.values]
    options = dict(windows=args.window or (), fading=args.fading or (), every=every, significance=args.significance)
    if args.models:
        bad = [m for m in args.models if m not in models]
        if bad:
            raise UsageError(f"--models {' '.join(bad)}: not in {args.log} (models: {', '.join(models)})")
        a, b = args.models
        ds = compare(log.y_true, log.y_pred.sel(model=a), log.y_pred.sel(model=b), **options)
        ds.attrs.update(model_a=a, model_b=b)
    else:
        if len(models) < 2:
            raise UsageError(f"{args.log} holds one model ({models[0]}); compare needs two")
        ds = compare(log.y_true, log.y_pred, model_dim="model", **options)
    ds.attrs["source_log"] = str(args.log)
    drifts = _drifts_of(args, log)
    if drifts:
        ds.attrs["drifts"] = drifts
    _say(args, comparison_table(ds))
    if args.output:
        _say(args, f"\nwrote {_write(ds, args.output)}")
    return 0


# --------------------------------------------------------------------------- drift
DETECTORS = ("page-hinkley", "ddm", "eddm", "adwin")


def _run_detector(name, x, args):
    if name == "page-hinkley":
        from .drift.page_hinkley import page_hinkley

        return page_hinkley(x, variant=args.ph_variant, delta=args.ph_delta, lambda_=args.ph_lambda)
    if name == "ddm":
        from .drift.ddm import ddm

        return ddm(x)
    if name == "eddm":
        from .drift.eddm import eddm

        return eddm(x)
    from .drift.adwin import adwin

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

    from .drift.scoring import score_detections

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

    from ._core.labels import encode_labels

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


# --------------------------------------------------------------------------- plot
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
    from .io import open_dataset

    path = Path(args.file)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file")
    if args.group:
        ds = _open_group(path, args.group)
    else:
        ds = open_dataset(path)
    out = Path(args.output) if args.output else path.with_suffix(".png")
    from .plot.figure import result_figure

    fig = result_figure(ds, metric=args.metric, model=args.model, kind=args.kind)
    fig.savefig(out, dpi=args.dpi)
    import matplotlib.pyplot as plt

    plt.close(fig)
    _say(args, f"wrote {out}")
    return 0


# --------------------------------------------------------------------------- figures
def _figures_dir(arg):
    if arg:
        return Path(arg)
    here = Path(__file__).resolve().parent.parent / "paper_figures"
    return here if here.is_dir() else Path.cwd() / "paper_figures"


def _cmd_figures(args) -> int:
    import subprocess

    folder = _figures_dir(args.dir)
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: no paper_figures directory (pass --dir)")
    make_all = folder / "make_all.py"
    if make_all.exists():
        # paper_figures/make_all.py owns the list of scripts, the output directory and REPORT.md
        cmd = [sys.executable, str(make_all)]
        cmd += ["--list"] if args.list else []
        cmd += ["--quick"] if args.quick else []
        if not args.list:
            # never write into the repository: default to ./paper_figures_output in the working directory
            cmd += ["--out", str(Path(args.out or "paper_figures_output").resolve())]
        cmd += ["--data", str(Path(args.data).resolve())] if args.data else []
        cmd += ["--only", *args.only] if args.only else []
        cmd += ["--producer", args.producer] if args.producer != "river" else []
        rc = subprocess.run(cmd).returncode
        if rc != 0:
            print(f"streamtk figures: {make_all} exited with status {rc}", file=sys.stderr)
        return 0 if rc == 0 else (2 if rc == 2 else 1)
    scripts = sorted(p for p in folder.glob("*.py") if not p.name.startswith("_"))
    if args.only:
        scripts = [p for p in scripts if p.stem in args.only]
    if not scripts:
        print(f"streamtk figures: no figure scripts in {folder}; nothing was generated", file=sys.stderr)
        return 1
    if args.list:
        print("\n".join(p.stem for p in scripts))
        return 0
    failed = []
    for script in scripts:
        _say(args, f"running {script.name} ...")
        rc = subprocess.run([sys.executable, str(script), *(["--quick"] if args.quick else [])]).returncode
        if rc != 0:
            failed.append(f"{script.name} (exit {rc})")
    if failed:
        print(f"streamtk figures: failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


# --------------------------------------------------------------------------- demo
def _cmd_demo(args) -> int:
    from .demo import run_demo

    run_demo(args.output, n=args.n, seed=args.seed, quiet=args.quiet)
    return 0


# --------------------------------------------------------------------------- parser
def _add_log_args(p):
    p.add_argument("log", metavar="LOG", help="recorded predictions: .csv/.tsv/.parquet/.npz/.pred/.nc/.zarr")
    p.add_argument("--format", choices=["csv", "tsv", "parquet", "npz", "moa", "netcdf", "zarr"],
                   help="log format (default: from the file name)")


def _add_estimator_args(p, adwin: bool):
    p.add_argument("-w", "--window", type=int, action="append", metavar="W",
                   help="sliding window of W instances (repeatable)")
    p.add_argument("-f", "--fading", type=float, action="append", metavar="ALPHA",
                   help="fading factor in (0, 1] (repeatable)")
    if adwin:
        p.add_argument("--adwin", type=float, action="append", metavar="DELTA",
                       help="ADWIN-windowed estimates with confidence DELTA (repeatable)")
    p.add_argument("--every", type=int, metavar="N",
                   help="checkpoint every N instances (default: about 1000 checkpoints)")


def _add_common(p, progress=True):
    if progress:
        g = p.add_mutually_exclusive_group()
        g.add_argument("--progress", dest="progress", action="store_true", default=None,
                       help="show a progress bar (default: only when stderr is a terminal)")
        g.add_argument("--no-progress", dest="progress", action="store_false", help="never show a progress bar")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")


def _sub(sub, name, help_, description, examples):
    return sub.add_parser(name, help=help_, description=description, epilog="examples:\n" + examples,
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="streamtk",
        description="Offline evaluation of stream classifiers from recorded predictions.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"streamtk {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = _sub(sub, "evaluate", "evaluate a log with prequential, window, fading (and ADWIN) estimators",
             "Evaluate every model of a log in one pass (chunk by chunk, identical to one pass) with the "
             "prequential estimator plus every window and fading factor given; print the final values and "
             "write the curves.",
             "  streamtk evaluate run.csv --window 1000 --fading 0.999 --every 100 -o curves.nc\n"
             "  streamtk evaluate run.pred --convention moa --window 1000 --metrics accuracy,kappa,kappa_per\n"
             "  streamtk evaluate run.parquet --scores --fading 0.999 -o curves.nc   (adds AUC, log loss, Brier)\n")
    _add_log_args(p)
    _add_estimator_args(p, adwin=True)
    p.add_argument("--metrics", help="comma-separated metric names (default: every applicable one)")
    p.add_argument("--convention", choices=["streamtk", "moa"], default="streamtk",
                   help="'moa' reproduces MOA's evaluators exactly (default streamtk)")
    p.add_argument("--scores", action="store_true",
                   help="also evaluate the log's class scores (y_score): exact AUC, log loss, Brier (chunked too)")
    p.add_argument("--chunk-size", type=int, default=1_000_000, metavar="N",
                   help="instances per chunk (default 1000000)")
    p.add_argument("-o", "--output", help="write the curves to this .nc or .zarr file")
    _add_common(p)
    p.set_defaults(func=_cmd_evaluate)

    p = _sub(sub, "compare", "compare models over time: Q statistic and signed McNemar test",
             "Compare two models (--models A B) or every pair of models of a log on the 0-1 loss: Q statistic "
             "log(S_A/S_B) and signed McNemar statistic over the prequential estimator, windows and fading "
             "factors (Gama et al. 2013, section 4). Positive values: A makes more errors.",
             "  streamtk compare run.csv --models HT NB --window 1000 --fading 0.999 -o compare.nc\n"
             "  streamtk compare run.csv --significance 0.05\n")
    _add_log_args(p)
    _add_estimator_args(p, adwin=False)
    p.add_argument("--models", nargs=2, metavar=("A", "B"), help="the two models (default: every pair)")
    p.add_argument("--significance", type=float, default=0.01,
                   help="level of the McNemar test (default 0.01: threshold 6.635)")
    p.add_argument("--drifts", help="comma-separated true drift positions (0-based), stored for plotting")
    p.add_argument("-o", "--output", help="write the comparison to this .nc or .zarr file")
    _add_common(p, progress=False)
    p.set_defaults(func=_cmd_compare)

    p = _sub(sub, "drift", "run drift detectors on each model's error stream",
             "Run change detectors (Page-Hinkley, DDM, EDDM, ADWIN) on each model's 0/1 error stream "
             "(instances without a label are skipped) and list the alarms; with known drifts (--drifts, or "
             "attrs['drifts'] of a streamtk log) also the detection delay and false alarms.",
             "  streamtk drift run.csv --detector ddm --detector adwin --drifts 5000,10000\n"
             "  streamtk drift run.nc --model HT --ph-lambda 50 -o drift.nc   (writes drift-<detector>.nc)\n")
    _add_log_args(p)
    p.add_argument("--detector", action="append", choices=DETECTORS, help="detector (repeatable; default all)")
    p.add_argument("--model", action="append", help="model to monitor (repeatable; default all)")
    p.add_argument("--drifts", help="comma-separated true drift positions (0-based indices)")
    p.add_argument("--max-delay", type=int, help="longest delay counted as a detection (default: next drift)")
    p.add_argument("--ph-variant", choices=["moa", "gama2013"], default="moa",
                   help="Page-Hinkley form: MOA's PageHinkleyDM (default; delta 0.005, lambda 50) or Gama et al. "
                        "2013 (delta 0.1, lambda 100)")
    p.add_argument("--ph-delta", type=float, help="Page-Hinkley delta (default of the variant)")
    p.add_argument("--ph-lambda", type=float, help="Page-Hinkley threshold lambda (default of the variant)")
    p.add_argument("--adwin-delta", type=float, default=0.002, help="ADWIN confidence (default 0.002)")
    p.add_argument("-o", "--output", help="write each detector's run to <stem>-<detector>.nc")
    _add_common(p)
    p.set_defaults(func=_cmd_drift)

    p = _sub(sub, "plot", "plot a result file (curves, comparison, detector run, ...) to PNG",
             "Plot a netCDF/zarr result written by streamtk: evaluation curves (one panel per model), "
             "a comparison (McNemar or Q per pair), a detector run, detection delays, significance curves "
             "or temporal dependence.",
             "  streamtk plot curves.nc -o curves.png --metric kappa_per\n"
             "  streamtk plot streamtk-demo.nc --group comparison -o comparison.png\n"
             "  streamtk plot compare.nc --metric q\n")
    p.add_argument("file", metavar="FILE", help="a .nc or .zarr result written by streamtk")
    p.add_argument("-o", "--output", help="PNG (or PDF/SVG) to write (default: FILE with .png)")
    p.add_argument("--metric", help="variable to plot (curves: default accuracy; comparison: mcnemar or q)")
    p.add_argument("--model", action="append", help="model(s) to show (default all, up to 6)")
    p.add_argument("--kind", help="force the plot kind (curves, baselines, comparison, detector, ...)")
    p.add_argument("--group", help="netCDF group to plot (e.g. comparison, dependence, drift_adwin of "
                                   "streamtk-demo.nc)")
    p.add_argument("--dpi", type=int, default=110, help="resolution (default 110)")
    _add_common(p, progress=False)
    p.set_defaults(func=_cmd_plot)

    p = _sub(sub, "figures", "regenerate the papers' figures (runs paper_figures/)",
             "Regenerate the papers' figures and tables with paper_figures/make_all.py (which writes "
             "OUT/REPORT.md); without make_all.py, run every script in the directory.",
             "  streamtk figures --list\n  streamtk figures --quick -o figs\n"
             "  streamtk figures --only bifet_table1 zliobaite_table3\n")
    p.add_argument("--dir", help="the paper_figures directory (default: the one next to the package)")
    p.add_argument("--list", action="store_true", help="list the scripts and exit")
    p.add_argument("--quick", action="store_true", help="CI-sized runs")
    p.add_argument("-o", "--out", help="output directory (default: make_all's, ./paper_figures_output)")
    p.add_argument("--data", help="data directory for streamtk.datasets (default $STREAMTK_DATA)")
    p.add_argument("--only", nargs="+", metavar="NAME", help="run only these scripts")
    p.add_argument("--producer", choices=("river", "capymoa"), default="river",
                   help="who trains the learners of the recorded logs: river (default) or MOA via capymoa")
    _add_common(p, progress=False)
    p.set_defaults(func=_cmd_figures)

    p = _sub(sub, "demo", "simulate a logged stream with drift and temporal dependence, analyse it, write netCDF + PNG",
             "Simulate (seeded, no downloads) a logged stream with drift and temporal dependence for three models, "
             "evaluate it with every estimator, compare the models, run the drift detectors on the adaptive "
             "model's errors, compute the temporal diagnostics, write streamtk-demo.nc and streamtk-demo.png "
             "and print a summary.",
             "  streamtk demo\n  streamtk demo -o results --n 50000\n")
    p.add_argument("-o", "--output", default=".", help="output directory (default: current directory)")
    p.add_argument("--n", type=int, default=100_000, help="number of simulated instances (default 100000)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing")
    p.set_defaults(func=_cmd_demo)
    return parser


def main(argv=None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 nothing done/failed, 2 usage or input error)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or argparse's own usage error (already printed)
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print(f"streamtk {args.command}: interrupted", file=sys.stderr)
        return 130
    except (UsageError, ValueError, TypeError, KeyError, OSError, ImportError) as err:
        msg = str(err) if not isinstance(err, KeyError) else f"missing {err}"
        print(f"streamtk {args.command}: error: {msg}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
