"""Helpers shared by the command modules of the ``streamtk`` command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


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
    from ..io import read_log

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
    from ..io import to_netcdf, to_zarr

    _check_output(path)
    path = Path(path)
    return to_zarr(ds, path) if path.suffix == ".zarr" else to_netcdf(ds, path)


def _every(args, n):
    """``--every``, or None: the API's own default spacing (the same rule as streamtk.evaluate)."""
    if args.every is None:
        return None
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
    from .._core.labels import encode_labels

    enc, _ = encode_labels(log.y_true.values, log.y_pred.values)
    return enc.classes


def _drifts_of(args, log):
    import numpy as np

    if getattr(args, "drifts", None):
        return _split_list(args.drifts, "--drifts", int)
    if "drifts" in log.attrs:
        return [int(d) for d in np.atleast_1d(log.attrs["drifts"])]
    return []


def _add_log_args(p):
    p.add_argument("log", metavar="LOG", help="recorded predictions: .csv/.tsv/.parquet/.npz/.pred/.nc/.zarr")
    p.add_argument(
        "--format",
        choices=["csv", "tsv", "parquet", "npz", "moa", "netcdf", "zarr"],
        help="log format (default: from the file name)",
    )


def _add_estimator_args(p, adwin: bool):
    p.add_argument(
        "-w", "--window", type=int, action="append", metavar="W", help="sliding window of W instances (repeatable)"
    )
    p.add_argument(
        "-f", "--fading", type=float, action="append", metavar="ALPHA", help="fading factor in (0, 1] (repeatable)"
    )
    if adwin:
        p.add_argument(
            "--adwin",
            type=float,
            action="append",
            metavar="DELTA",
            help="ADWIN-windowed estimates with confidence DELTA (repeatable)",
        )
    p.add_argument(
        "--every",
        type=int,
        metavar="N",
        help="checkpoint every N instances (default: the API default, at most 10,000 checkpoints)",
    )


def _add_common(p, progress=True):
    if progress:
        g = p.add_mutually_exclusive_group()
        g.add_argument(
            "--progress",
            dest="progress",
            action="store_true",
            default=None,
            help="show a progress bar (default: only when stderr is a terminal)",
        )
        g.add_argument("--no-progress", dest="progress", action="store_false", help="never show a progress bar")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")


def _sub(sub, name, help_, description, examples):
    return sub.add_parser(
        name,
        help=help_,
        description=description,
        epilog="examples:\n" + examples,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
