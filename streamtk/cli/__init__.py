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

from .._version import __version__
from . import compare, compare_many, demo, drift, evaluate, figures, plot
from ._common import UsageError

__all__ = ["main", "build_parser", "UsageError"]

EPILOG = """examples:
  streamtk demo                                     simulate, evaluate, compare, detect; write netCDF + PNG
  streamtk evaluate run.csv --window 1000 --fading 0.999 --every 100 -o curves.nc
  streamtk compare run.csv --models HT NB --window 1000 -o compare.nc
  streamtk compare-many logs/*.nc --metric kappa --posthoc holm -o report/
  streamtk drift run.csv --detector ddm --detector adwin --drifts 5000
  streamtk plot curves.nc -o curves.png
  streamtk figures --list

A LOG is a file of recorded predictions: CSV/TSV (columns y_true, y_pred:<model>...),
Parquet, .npz, MOA's EvaluatePrequential -o dump (.pred) or netCDF/zarr written by
streamtk (see streamtk.io).
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="streamtk",
        description="Offline evaluation of stream classifiers from recorded predictions.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"streamtk {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in (evaluate, compare, compare_many, drift, plot, figures, demo):
        command.register(sub)
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
