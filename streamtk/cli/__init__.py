"""The ``streamtk`` command line (also ``python -m streamtk``).

Commands: ``evaluate``, ``compare``, ``drift``, ``plot``, ``figures``, ``demo``; ``streamtk
COMMAND --help`` shows each one's options and examples. Exit status: 0 on success, 2 for
a usage or input error (one line on stderr naming the file or the flag, no traceback: a
damaged or truncated file, a bad flag value, an empty ``--metrics ''``, a full disk, ...; see
:mod:`streamtk.cli._errors`), 1 when there was nothing to do (``figures`` without figure
scripts) or a figure script failed, 130 when interrupted.
"""

from __future__ import annotations

import argparse
import sys

from .._version import __version__
from . import compare, compare_many, demo, drift, evaluate, figures, plot
from ._common import UsageError
from ._errors import check_parsed, describe, flag_names, is_input_error, one_line
from ._interrupt import catching
from ._interrupt import check as check_interrupt

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


def _command_parser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return action.choices[command]
    return parser  # pragma: no cover - every command has its sub-parser


def main(argv=None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 nothing done/failed, 2 usage or input error, 130 Ctrl-C).

    Every input error (a bad flag value, an empty ``--metrics ''``, an unreadable or damaged file, a
    full disk, ...) is reported on one line ``streamtk COMMAND: error: ...`` naming the flag or the
    file, with exit status 2; library argument names in messages are replaced by the command's
    flags (``windows`` -> ``--window``). Ctrl-C prints ``streamtk COMMAND: interrupted`` and returns
    130, leaving no partial output (see :mod:`streamtk.cli._interrupt`). Anything else is a bug and
    shows its traceback.
    """
    command = "streamtk"
    with catching(program=argv is None):  # argv None: the arguments of the process itself
        try:
            parser = build_parser()
            try:
                args = parser.parse_args(argv)
            except SystemExit as exc:  # --help, --version, or argparse's own usage error (already printed)
                return int(exc.code or 0) if not isinstance(exc.code, str) else 2
            if not getattr(args, "command", None):
                parser.print_help(sys.stderr)
                return 2
            command = f"streamtk {args.command}"
            sub = _command_parser(parser, args.command)
            try:
                check_parsed(sub, args)
                status = args.func(args)
                check_interrupt()  # interrupted, and some library swallowed it: still report it
                return status
            except UsageError as err:
                print(f"{command}: error: {one_line(str(err))}", file=sys.stderr)
                return 2
            except Exception as err:
                if not is_input_error(err):
                    raise
                print(f"{command}: error: {one_line(describe(err), flag_names(sub, args))}", file=sys.stderr)
                return 2
        except KeyboardInterrupt:
            print(f"{command}: interrupted", file=sys.stderr)
            return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
