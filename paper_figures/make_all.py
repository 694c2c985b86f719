"""Regenerate every reproduced figure and table and write ``REPORT.md``.

Usage (from the repository root)::

    python -m paper_figures.make_all [--quick] [--out DIR] [--data DIR] [--only NAME ...] [--list]
    python paper_figures/make_all.py --quick          # also works as a plain script

or from Python / the CLI: ``paper_figures.make_all.main(["--quick", "--out", "figs"])`` (returns
the exit status: 0 when every script succeeded, 1 otherwise). ``--quick`` runs CI-sized
versions (short prefixes of the data, smaller synthetic streams, fewer repetitions; each
section of REPORT.md states its scale); the full mode reproduces the papers' scales where that
is feasible (README.md gives its run time). Logs produced with river are cached as netCDF under
``$STREAMTK_CACHE/paper_figures`` or ``OUT/cache``, so a second run only recomputes the
evaluation. Data come from :mod:`streamtk.datasets` (``--data`` or ``$STREAMTK_DATA``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from paper_figures._common import Context, run_script  # noqa: E402

#: The figure/table scripts, in REPORT.md order (module names inside ``paper_figures``).
SCRIPTS = (
    "bifet_table1",
    "bifet_table5",
    "bifet_fig2",
    "bifet_fig3",
    "bifet_fig4",
    "bifet_tables2_4",
    "zliobaite_table3",
    "zliobaite_table5",
    "zliobaite_fig2",
    "zliobaite_fig3_4",
    "zliobaite_fig5",
    "zliobaite_fig7",
    "gama_fig3",
    "gama_fig4_7",
    "gama_fig8",
    "gama_tables2_3",
    "gama_slides_fading_delay",
    "gama_appendix_a",
    "amidst_auc",
)


def available():
    """The scripts of :data:`SCRIPTS` present in this checkout."""
    here = Path(__file__).resolve().parent
    return [s for s in SCRIPTS if (here / f"{s}.py").exists()]


def _has_capymoa():
    import importlib.util

    return importlib.util.find_spec("capymoa") is not None


def _runner(name):
    """``run(ctx)`` of script ``name``; an import error is raised inside it (so it is reported)."""

    def run(ctx):
        importlib.import_module(f"paper_figures.{name}").run(ctx)

    run.__module__ = name
    return run


def build_parser():
    p = argparse.ArgumentParser(prog="paper_figures.make_all", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="CI-sized runs (each section states its scale)")
    p.add_argument("--out", default="paper_figures_output", help="output directory (default ./paper_figures_output)")
    p.add_argument("--data", default=None, help="data directory for streamtk.datasets (default $STREAMTK_DATA)")
    p.add_argument("--cache", default=None, help="log cache (default $STREAMTK_CACHE/paper_figures or OUT/cache)")
    p.add_argument("--only", nargs="+", metavar="NAME", help="run only these scripts")
    p.add_argument(
        "--producer",
        choices=("river", "capymoa"),
        default="river",
        help="who trains the learners that make the logs: river (default) or MOA through capymoa "
        "(needs capymoa and Java; learners without a MOA equivalent stay river's)",
    )
    p.add_argument("--list", action="store_true", help="list the scripts and exit")
    return p


def main(argv=None) -> int:
    """Run the scripts and write ``OUT/REPORT.md``; returns 0 if all succeeded, else 1."""
    a = build_parser().parse_args(argv)
    names = available()
    if a.list:
        print("\n".join(names))
        return 0
    if a.only:
        unknown = [n for n in a.only if n not in names]
        if unknown:
            print(f"make_all: unknown script(s) {unknown}; available: {names}", file=sys.stderr)
            return 2
        names = [n for n in names if n in a.only]
    import streamtk

    try:
        ctx = Context(Path(a.out), quick=a.quick, data=a.data, cache=a.cache, producer=a.producer)
    except ValueError as err:
        print(f"make_all: {err}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    ok = True
    for name in names:
        print(f"[make_all] {name} ...", flush=True)
        t1 = time.perf_counter()
        ok &= run_script(_runner(name), ctx)
        print(f"[make_all] {name}: {time.perf_counter() - t1:.1f} s", flush=True)
    total = time.perf_counter() - t0
    ctx.report.header = (
        f"Mode: **{'quick' if a.quick else 'full'}**; streamtk {streamtk.__version__}; {len(names)} scripts in "
        f"{total:.0f} s. Log cache: `{ctx.cache}`. Recorded logs are produced with {ctx.producer} (each section "
        f"names the producer of its logs; capymoa/MOA is {'installed' if _has_capymoa() else 'not installed'}; "
        "`--producer capymoa` uses MOA's learners), see README.md. "
        "*difference* = streamtk - paper; the paper's rounding is kept."
    )
    path = ctx.report.write(ctx.out / "REPORT.md")
    print(f"[make_all] wrote {path} ({total:.0f} s)")
    failed = [s.key for s in ctx.report.sections.values() if s.error]
    if failed:
        print(f"[make_all] failed: {failed}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
