"""``streamtk figures``."""

from __future__ import annotations

import sys
from pathlib import Path

from ._common import _add_common, _say, _sub


def _figures_dir(arg):
    if arg:
        return Path(arg)
    here = Path(__file__).resolve().parents[2] / "paper_figures"
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


def register(sub) -> None:
    """Add the ``figures`` command to the sub-parsers ``sub``."""
    p = _sub(
        sub,
        "figures",
        "regenerate the papers' figures (runs paper_figures/)",
        "Regenerate the papers' figures and tables with paper_figures/make_all.py (which writes "
        "OUT/REPORT.md); without make_all.py, run every script in the directory.",
        "  streamtk figures --list\n  streamtk figures --quick -o figs\n"
        "  streamtk figures --only bifet_table1 zliobaite_table3\n",
    )
    p.add_argument("--dir", help="the paper_figures directory (default: the one next to the package)")
    p.add_argument("--list", action="store_true", help="list the scripts and exit")
    p.add_argument("--quick", action="store_true", help="CI-sized runs")
    p.add_argument("-o", "--out", help="output directory (default: make_all's, ./paper_figures_output)")
    p.add_argument("--data", help="data directory for streamtk.datasets (default $STREAMTK_DATA)")
    p.add_argument("--only", nargs="+", metavar="NAME", help="run only these scripts")
    p.add_argument(
        "--producer",
        choices=("river", "capymoa"),
        default="river",
        help="who trains the learners of the recorded logs: river (default) or MOA via capymoa",
    )
    _add_common(p, progress=False)
    p.set_defaults(func=_cmd_figures)
