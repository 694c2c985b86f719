"""Helpers shared by the command modules of the ``streamtk`` command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ._interrupt import check as check_interrupt


class UsageError(Exception):
    """A bad argument combination found after parsing (exit status 2)."""


# --------------------------------------------------------------------------- helpers
def _progress_enabled(args) -> bool:
    if getattr(args, "quiet", False):
        return False
    if getattr(args, "progress", None) is not None:
        return args.progress
    return sys.stderr.isatty()


class _Bar:
    """Progress of a long step: a tqdm bar (or nothing); every update is also a point where Ctrl-C is acted on."""

    def __init__(self, bar=None):
        self._bar = bar

    def update(self, n):
        check_interrupt()
        if self._bar is not None:
            self._bar.update(n)

    def close(self):
        if self._bar is not None:
            self._bar.close()


def _progress(total, desc, enabled):
    """A tqdm bar on stderr when enabled and tqdm is installed (else nothing shown); ``update`` checks for Ctrl-C."""
    if enabled:
        try:
            from tqdm.auto import tqdm
        except ImportError:
            pass
        else:
            return _Bar(tqdm(total=total, desc=desc, unit="inst", unit_scale=True, file=sys.stderr, leave=False))
    return _Bar()


def _say(args, *lines):
    if not getattr(args, "quiet", False):
        for line in lines:
            print(line)


_TABLE_FORMATS = ("csv", "tsv", "parquet")
_MAPPING_FLAGS = (("y_true", "--y-true"), ("y_pred", "--y-pred"), ("y_score", "--y-score"), ("weights", "--weights"))


def _column_mapping(args, path, fmt) -> dict:
    """Reader options from --y-true/--y-pred/--y-score/--weights (tables only)."""
    given = {key: getattr(args, key, None) for key, _ in _MAPPING_FLAGS}
    given = {k: v for k, v in given.items() if v}
    if not given:
        return {}
    from ..io.dispatch import read_log  # noqa: F401 - the reader that takes these options

    kind = _table_kind(path, fmt)
    if kind is None:
        flag = dict(_MAPPING_FLAGS)[next(iter(given))]
        raise UsageError(f"{flag} maps columns of a CSV/TSV/Parquet table; {path} is not one (use --format)")
    opts = {}
    if "y_true" in given:
        opts["y_true"] = given["y_true"]
    if "y_pred" in given:
        pairs = [item.strip() for item in given["y_pred"].split(",") if item.strip()]
        if not pairs:
            raise UsageError(f"--y-pred needs a column name, got {given['y_pred']!r}")
        if all("=" in item for item in pairs):
            opts["y_pred"] = {k.strip(): v.strip() for k, v in (item.split("=", 1) for item in pairs)}
        elif any("=" in item for item in pairs):
            raise UsageError(f"--y-pred: give every model as NAME=COLUMN or none, got {given['y_pred']!r}")
        else:
            opts["y_pred"] = pairs if len(pairs) > 1 else pairs[0]
    if "y_score" in given:
        opts["y_score"] = _split_list(given["y_score"], "--y-score")
        if not getattr(args, "classes", None):
            raise UsageError("--y-score needs --classes (the class of each score column, in the same order)")
        opts["classes"] = _split_list(args.classes, "--classes")
    if "weights" in given:
        opts["weights"] = given["weights"]
    return opts


def _table_kind(path, fmt):
    """``csv``, ``tsv`` or ``parquet`` for a table log (from ``--format`` or the file name), else None."""
    name = Path(path).name.lower()
    name = name[:-3] if name.endswith(".gz") else name
    kind = fmt or {".csv": "csv", ".txt": "csv", ".tsv": "tsv", ".tab": "tsv", ".parquet": "parquet",
                   ".pq": "parquet"}.get(Path(name).suffix)  # fmt: skip
    return kind if kind in _TABLE_FORMATS else None


def _no_rows(path, what="a header line"):
    return ValueError(f"{path}: the log has no rows (only {what}); it needs at least one instance")


def check_has_rows(path, fmt=None) -> None:
    """Refuse a CSV/TSV/Parquet log without data rows, naming the file (the readers' own message does not)."""
    kind = _table_kind(path, fmt)
    if kind is None or not Path(path).is_file():
        return  # other formats are checked once read; a missing file is the reader's error
    if kind == "parquet":
        try:
            import pyarrow.parquet as pq

            rows = pq.ParquetFile(path).metadata.num_rows
        except Exception:  # noqa: BLE001 - unreadable: the reader reports it with its own message
            return
        if rows == 0:
            raise _no_rows(path, "a schema")
        return
    import gzip

    try:
        with open(path, "rb") as fh:
            gz = fh.read(2) == b"\x1f\x8b"
        with gzip.open(path, "rt", errors="replace") if gz else open(path, errors="replace") as fh:
            lines = (line for line in fh if line.strip())
            if next(lines, None) is None:
                raise ValueError(f"{path}: the file is empty (not even a header line)")
            if next(lines, None) is None:
                raise _no_rows(path)
    except (OSError, EOFError):
        return  # unreadable or damaged: the reader reports it


def _read_log(path, fmt, args=None):
    from ..io import read_log

    check_has_rows(path, fmt)
    log = read_log(path, format=fmt, **(_column_mapping(args, path, fmt) if args is not None else {}))
    if log.sizes.get("time", 0) == 0:
        raise _no_rows(path, "metadata")
    intervals = ("lower" in log and "upper" in log) or "y_quantiles" in log
    missing = [v for v in ("y_true", "y_pred") if v not in log and not (v == "y_pred" and intervals)]
    if missing:
        raise ValueError(f"{path}: not a log of recorded predictions (no {', '.join(missing)})")
    if "y_pred" in log and "model" not in log.y_pred.dims:
        log["y_pred"] = log.y_pred.expand_dims(model=["model"])
    if args is not None and getattr(args, "classes", None):
        log = _apply_classes(log, args.classes)
    return log


def _apply_classes(log, text):
    """The log with the class order given by --classes (labels parsed like the log's own: numbers or text)."""
    from ..io._classes import with_class_order
    from ..io.log import parse_labels

    items = _split_list(text, "--classes")
    if not items:
        raise UsageError(f"--classes needs comma-separated labels, got {text!r}")
    classes = parse_labels(items, "--classes").tolist()
    try:
        return with_class_order(log, classes)
    except ValueError as err:
        raise UsageError(f"--classes {text}: {err}") from None


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
    check_interrupt()  # an interrupt that a library swallowed: write nothing
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
    """The log's own class order (coordinate or array attrs), else every label sorted (the API's default)."""
    from .._core.labels import encode_labels
    from ..io._classes import class_order_of

    order = class_order_of(log)
    if order is not None:
        return order
    enc, _ = encode_labels(log.y_true.values, log.y_pred.values)
    return enc.classes


def _drifts_of(args, log):
    import numpy as np

    if getattr(args, "drifts", None):
        return _split_list(args.drifts, "--drifts", int)
    if "drifts" in log.attrs:
        return [int(d) for d in np.atleast_1d(log.attrs["drifts"])]
    return []


def _add_log_args(p, mapping: bool = False):
    """LOG and --format; with ``mapping``, also the column mapping and --classes (read by _read_log(..., args))."""
    p.add_argument("log", metavar="LOG", help="recorded predictions: .csv/.tsv/.parquet/.npz/.pred/.nc/.zarr")
    p.add_argument(
        "--format",
        choices=["csv", "tsv", "parquet", "npz", "moa", "netcdf", "zarr"],
        help="log format (default: from the file name)",
    )
    if not mapping:
        return
    g = p.add_argument_group("columns of a CSV/TSV/Parquet log (default: y_true, y_pred or y_pred:<model>, ...)")
    g.add_argument("--y-true", metavar="COL", help="column of the true labels")
    g.add_argument(
        "--y-pred",
        metavar="COLS",
        help="column of the predictions, or NAME=COL,NAME=COL,... for several models",
    )
    g.add_argument("--y-score", metavar="COLS", help="score columns of a single model, in --classes order")
    g.add_argument("--weights", metavar="COL", help="column of the instance weights")
    p.add_argument(
        "--classes",
        metavar="LABELS",
        help="class order, code 0 first, e.g. UP,DOWN (default: the log's own order, else sorted labels)",
    )


#: short flags of the most used mechanisms
_SHORT = {"window": "-w", "fading": "-f"}


def _add_estimator_args(p):
    """One flag per forgetting mechanism of the registry (:data:`streamtk._core.mechanisms.MECHANISMS`).

    The flag is the estimator kind (``--window``, ``--fading``, ``--adwin``, ``--tumbling``,
    ``--landmarks``); a plural mechanism's flag repeats, a single-estimator one takes a comma-separated
    list. Read them back with :func:`_forgetting`.
    """
    from .._core.mechanisms import MECHANISMS

    for m in MECHANISMS:
        flags = [_SHORT[m.kind]] if m.kind in _SHORT else []
        if m.plural_values:
            p.add_argument(*flags, f"--{m.kind}", dest=f"mech_{m.argument}", type=m.value_type, action="append",
                           metavar=m.metavar, help=f"{m.summary} (repeatable)")  # fmt: skip
        else:
            p.add_argument(*flags, f"--{m.kind}", dest=f"mech_{m.argument}", metavar=m.metavar,
                           help=f"{m.summary} (comma-separated)")  # fmt: skip
    p.add_argument(
        "--every",
        type=int,
        metavar="N",
        help="checkpoint every N instances (default: the API default, at most 10,000 checkpoints)",
    )


def _forgetting(args) -> dict:
    """The forgetting-mechanism keyword arguments of the API from the flags of :func:`_add_estimator_args`."""
    from .._core.mechanisms import MECHANISMS

    out = {}
    for m in MECHANISMS:
        given = getattr(args, f"mech_{m.argument}", None)
        if given is None:
            continue
        out[m.argument] = given if m.plural_values else _split_list(given, f"--{m.kind}", m.value_type)
    return out


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
