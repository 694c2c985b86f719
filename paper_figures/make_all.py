"""Regenerate every figure and table of the five seeds and write ``REPORT.md``.

Usage (from the repository root, or anywhere after ``pip install``)::

    python -m paper_figures.make_all [--quick] [--out DIR] [--data DIR] [--only NAME ...] [--list]
    streamtk figures [--quick] [-o DIR] ...        # the same, through the CLI

``--quick`` runs CI-sized versions (each section states its scale); the full mode reproduces the
papers' scales where feasible (README.md gives its run time). Logs are produced by MOA's learners
through capymoa when capymoa and Java are available (``--producer auto``, the default), else by
river, and cached as netCDF under ``$STREAMTK_CACHE/paper_figures`` or ``OUT/cache``, so a second
run only recomputes the evaluation. Data come from :mod:`streamtk.datasets` (``--data`` or
``$STREAMTK_DATA``). :func:`main` returns 0 when every script succeeded, 1 when one failed (its
traceback is in REPORT.md) and 2 for a bad argument.
"""

from __future__ import annotations

if __package__ in (None, ""):  # run as a file: make the package-relative imports work (PEP 366)
    import sys
    from pathlib import Path

    _pkg = Path(__file__).resolve().parent
    __package__ = ("streamtk." if _pkg.parent.name == "streamtk" else "") + _pkg.name
    sys.path.insert(0, str(_pkg.parent.parent if _pkg.parent.name == "streamtk" else _pkg.parent))

import argparse  # noqa: E402
import importlib  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from ._common import PRODUCERS, Context, run_script  # noqa: E402

#: The figure/table scripts, in REPORT.md order (module names inside this package).
SCRIPTS = (
    "bifet_fig1",
    "bifet_table1",
    "bifet_table5",
    "bifet_fig2",
    "bifet_fig3",
    "bifet_fig4",
    "bifet_tables2_4",
    "amidst_tables",
    "amidst_roc",
    "amidst_auc",
    "zliobaite_fig1",
    "zliobaite_table2",
    "zliobaite_table3",
    "zliobaite_table5",
    "zliobaite_fig2",
    "zliobaite_fig3_4",
    "zliobaite_fig5",
    "zliobaite_fig6",
    "zliobaite_fig7",
    "gama_fig2_3",
    "gama_fig4_7",
    "gama_fig8",
    "gama_tables2_3",
    "gama_slides_fading_delay",
    "gama_appendix_a",
)


def available():
    """The scripts of :data:`SCRIPTS` present in this installation."""
    here = Path(__file__).resolve().parent
    return [s for s in SCRIPTS if (here / f"{s}.py").exists()]


def _runner(name):
    """``run(ctx)`` of script ``name``; an import error is raised inside it (so it is reported)."""

    def run(ctx):
        importlib.import_module(f"{__package__}.{name}").run(ctx)

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
        choices=PRODUCERS,
        default="auto",
        help="who trains the learners that make the logs: auto (MOA through capymoa when capymoa and Java "
        "work, else river; the default), capymoa, or river",
    )
    p.add_argument("--list", action="store_true", help="list the scripts and exit")
    return p


def main(argv=None) -> int:
    """Run the scripts and write ``OUT/REPORT.md``; returns 0 if all succeeded, 1 if one failed, 2 on bad input."""
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
        ok &= run_script(_runner(name), ctx, name=name)
        print(f"[make_all] {name}: {time.perf_counter() - t1:.1f} s", flush=True)
    total = time.perf_counter() - t0
    ctx.report.header = (
        f"Mode: **{'quick' if a.quick else 'full'}**; streamtk {streamtk.__version__}; {len(names)} scripts in "
        f"{total:.0f} s. Logs produced with **{ctx.producer_text()}** (every section lists its logs and "
        f"their producer). Log cache: `{ctx.cache}`. Figures: 300 dpi PNG with a PDF beside each."
    )
    path = ctx.report.write(ctx.out / "REPORT.md", ran=set(names))
    print(f"[make_all] wrote {path} ({total:.0f} s)")
    failed = [s.key for s in ctx.report.sections.values() if s.error]
    if failed:
        print(f"[make_all] failed: {failed}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
