"""The ``streamtk`` command line (also ``python -m streamtk``)."""

from __future__ import annotations

import argparse
import sys

from ._version import __version__

EPILOG = """examples:
  streamtk demo                      simulate a logged stream, evaluate it, write streamtk-demo.nc/.png
  streamtk demo -o results --n 50000 smaller run into ./results
"""


def _cmd_demo(args) -> int:
    from .demo import run_demo

    run_demo(args.output, n=args.n, seed=args.seed, quiet=args.quiet)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="streamtk",
        description="Offline evaluation of stream classifiers from recorded predictions.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"streamtk {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser(
        "demo",
        help="simulate a logged stream with drift and temporal dependence, evaluate it, write netCDF + PNG",
        description="Simulate (seeded, no downloads) a logged stream with drift and temporal dependence for three "
        "models, evaluate it with prequential, sliding-window and fading-factor estimators, write the curves to "
        "streamtk-demo.nc and a figure to streamtk-demo.png, and print a summary table.",
    )
    demo.add_argument("-o", "--output", default=".", help="output directory (default: current directory)")
    demo.add_argument("--n", type=int, default=100_000, help="number of simulated instances (default 100000)")
    demo.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    demo.add_argument("-q", "--quiet", action="store_true", help="print nothing")
    demo.set_defaults(func=_cmd_demo)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except (ValueError, TypeError, FileNotFoundError) as err:
        print(f"streamtk {args.command}: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
