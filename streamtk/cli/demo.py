"""``streamtk demo``."""

from __future__ import annotations

from ._common import _sub


def _cmd_demo(args) -> int:
    from ..demo import run_demo

    run_demo(args.output, n=args.n, seed=args.seed, quiet=args.quiet)
    return 0


def register(sub) -> None:
    """Add the ``demo`` command to the sub-parsers ``sub``."""
    p = _sub(
        sub,
        "demo",
        "simulate a logged stream with drift and temporal dependence, analyse it, write netCDF + PNG",
        "Simulate (seeded, no downloads) a logged stream with drift and temporal dependence for three models, "
        "evaluate it with every estimator, compare the models, run the drift detectors on the adaptive "
        "model's errors, compute the temporal diagnostics, write streamtk-demo.nc and streamtk-demo.png "
        "and print a summary.",
        "  streamtk demo\n  streamtk demo -o results --n 50000\n",
    )
    p.add_argument("-o", "--output", default=".", help="output directory (default: current directory)")
    p.add_argument("--n", type=int, default=100_000, help="number of simulated instances (default 100000)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing")
    p.set_defaults(func=_cmd_demo)
