"""Regenerate every figure and table of the five seeds and write ``REPORT.md``.

Usage (from the repository root, or anywhere after ``pip install``)::

    python -m paper_figures.make_all [--quick] [--out DIR] [--data DIR] [--only NAME ...] [--list]
    streamtk figures [--quick] [-o DIR] ...        # the same, through the CLI

``--quick`` runs CI-sized versions (each section states its scale); the full mode reproduces the
papers' scales where feasible (README.md gives its run time). Logs are produced by MOA's learners
through capymoa when capymoa and Java are available (``--producer auto``, the default), else by
river, and cached as netCDF under ``$STREAMTK_CACHE/paper_figures`` or ``OUT/cache``, so a second
run only recomputes the evaluation. Data come from :mod:`streamtk.datasets` (``--data`` or
``$STREAMTK_DATA``); every data set the selected scripts read is looked up first, and a missing one
stops the run before anything runs, naming it, the scripts that need it and where to put it
(:mod:`paper_figures._data`). :func:`main` returns 0 when every script succeeded, 1 when one failed
(its traceback is in REPORT.md) and 2 for a bad argument or missing data.
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

from . import _data  # noqa: E402
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


#: the longest scripts first when several run at once (``--jobs``); REPORT.md keeps the order of SCRIPTS
LONGEST_FIRST = (
    "zliobaite_fig2",
    "bifet_tables2_4",
    "zliobaite_fig7",
    "gama_tables2_3",
    "gama_fig2_3",
    "zliobaite_fig6",
    "bifet_fig4",
    "zliobaite_fig3_4",
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
    p.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="scripts run at once, each in its own process (default 1; logs shared by several scripts are "
        "produced once, under a lock)",
    )
    p.add_argument("--list", action="store_true", help="list the scripts and exit")
    return p


def _producer_summary(texts):
    used = [t for t in dict.fromkeys(texts) if not t.startswith("no learner")]
    return "; ".join(used) if used else "no learner (no log was needed)"


def _run_parallel(a, names, ctx, producers):
    """Run the scripts in ``a.jobs`` processes; merge their sections into ``ctx.report`` in SCRIPTS order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from ._common import run_in_worker

    options = dict(out=ctx.out, quick=a.quick, data=ctx.data, cache=ctx.cache, producer=a.producer)
    order = [n for n in LONGEST_FIRST if n in names] + [n for n in names if n not in LONGEST_FIRST]
    results, ok = {}, True
    with ProcessPoolExecutor(max_workers=a.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {name: pool.submit(run_in_worker, __package__, name, options) for name in order}
        for name in order:
            t1 = time.perf_counter()
            try:
                results[name] = futures[name].result()
            except Exception as err:  # noqa: BLE001 - a dead worker is reported like a failed script
                sec = ctx.section(name, name, "")
                sec.error = f"{type(err).__name__}: {err}"
                ctx.report.failed_scripts.add(name)
                ok = False
                continue
            print(f"[make_all] {name} done ({time.perf_counter() - t1:.1f} s after the previous one)", flush=True)
    for name in names:
        if name not in results:
            continue
        good, sections, failed, producer = results[name]
        ok &= good
        for s in sections:
            ctx.report.sections[s.key] = s
        ctx.report.failed_scripts |= failed
        producers.append(producer)
    return ok


def main(argv=None) -> int:
    """Run the scripts and write ``OUT/REPORT.md``; returns 0 if all succeeded, 1 if one failed, 2 on bad input
    or missing data (then nothing runs)."""
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

    if a.jobs < 1:
        print(f"make_all: --jobs must be a positive integer, got {a.jobs}", file=sys.stderr)
        return 2
    # every data set the selected scripts read, looked up before anything runs (or is created)
    data = Path(a.data) if a.data is not None else None
    miss = _data.missing(names, a.quick, data)
    if miss:
        print(f"make_all: {_data.missing_message(miss, names, a.quick, data)}", file=sys.stderr)
        return 2
    try:
        ctx = Context(Path(a.out), quick=a.quick, data=a.data, cache=a.cache, producer=a.producer)
    except ValueError as err:
        print(f"make_all: {err}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    ok = True
    producers = []
    if a.jobs == 1:
        for name in names:
            print(f"[make_all] {name} ...", flush=True)
            t1 = time.perf_counter()
            ok &= run_script(_runner(name), ctx, name=name)
            print(f"[make_all] {name}: {time.perf_counter() - t1:.1f} s", flush=True)
        producers.append(ctx.producer_text())
    else:
        ok = _run_parallel(a, names, ctx, producers)
    total = time.perf_counter() - t0
    ctx.report.header = (
        f"Mode: **{'quick' if a.quick else 'full'}**; streamtk {streamtk.__version__}; {len(names)} scripts in "
        f"{total:.0f} s{f' ({a.jobs} at once)' if a.jobs > 1 else ''}. Logs produced with "
        f"**{_producer_summary(producers)}** (every section lists its logs and "
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
