"""``streamtk figures``: regenerate the seed papers' figures and tables (``paper_figures``).

The figure scripts live in the repository's top-level ``paper_figures/`` folder; ``pip install .``
installs them as the package ``streamtk.paper_figures`` (see ``setup.py``), so the command works
from any folder after a regular installation. In a source checkout without that installation the
folder next to the package is used.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ._common import _add_common, _say, _sub


def _package():
    """``(module name, folder)`` of the figure scripts, or ``(None, None)``."""
    try:
        import streamtk.paper_figures as pf  # installed by pip (setup.py maps paper_figures/ here)

        return pf.__name__, Path(pf.__file__).resolve().parent
    except ImportError:
        pass
    here = Path(__file__).resolve().parents[2] / "paper_figures"  # a source checkout
    if (here / "make_all.py").exists():
        return "paper_figures", here
    return None, None


def _figures_dir(arg):
    """The folder of the figure scripts: ``--dir``, else the installed or checked-out ``paper_figures``."""
    if arg:
        return Path(arg)
    _, folder = _package()
    return folder if folder is not None else Path.cwd() / "paper_figures"


def _make_all_options(args):
    opts = ["--list"] if args.list else []
    opts += ["--quick"] if args.quick else []
    if not args.list:
        # never write into the repository or site-packages: default ./paper_figures_output in the working directory
        opts += ["--out", str(Path(args.out or "paper_figures_output").resolve())]
    opts += ["--data", str(Path(args.data).resolve())] if args.data else []
    opts += ["--cache", str(Path(args.cache).resolve())] if args.cache else []
    opts += ["--only", *args.only] if args.only else []
    opts += ["--jobs", str(args.jobs)] if args.jobs != 1 else []
    opts += ["--producer", args.producer] if args.producer != "auto" else []
    return opts


def _run_each(args, folder) -> int:
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


def _cmd_figures(args) -> int:
    if args.dir:
        folder = Path(args.dir)
        if not folder.is_dir():
            raise FileNotFoundError(f"{folder}: no paper_figures directory (pass --dir)")
        make_all = folder / "make_all.py"
        if not make_all.exists():
            return _run_each(args, folder)
        cmd, env, where = [sys.executable, str(make_all)], None, make_all
    else:
        module, folder = _package()
        if module is None:
            print(
                "streamtk figures: the figure scripts are not installed (reinstall streamtk with pip, or pass --dir "
                "with a paper_figures folder of a source checkout)",
                file=sys.stderr,
            )
            return 1
        cmd, where = [sys.executable, "-m", f"{module}.make_all"], f"{module}.make_all"
        env = dict(os.environ)
        root = str(folder.parent if module == "paper_figures" else folder.parent.parent)
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    # paper_figures' make_all owns the list of scripts, the output directory and REPORT.md
    rc = subprocess.run([*cmd, *_make_all_options(args)], env=env).returncode
    if rc != 0:
        print(f"streamtk figures: {where} exited with status {rc}", file=sys.stderr)
    return 0 if rc == 0 else (2 if rc == 2 else 1)


def register(sub) -> None:
    """Add the ``figures`` command to the sub-parsers ``sub``."""
    p = _sub(
        sub,
        "figures",
        "regenerate the papers' figures and tables (paper_figures)",
        "Regenerate every figure and table of the five seed papers and write OUT/REPORT.md with a verdict per "
        "item (paper_figures.make_all). Logs are produced by MOA's learners through capymoa when capymoa and "
        "Java are available, else by river, and cached. The data sets the selected scripts read are looked up "
        "first (--data, $STREAMTK_DATA, the cache): a missing one stops the command before anything runs, with "
        "its name, the scripts that need it and where to put it (exit status 2).",
        "  streamtk figures --list\n  streamtk figures --quick -o figs\n"
        "  streamtk figures --only bifet_table1 zliobaite_table3 --data /path/to/data\n"
        "  streamtk figures -o figs --jobs 2            # full mode, two scripts at a time\n",
    )
    p.add_argument("--dir", help="a paper_figures folder to run instead of the installed one")
    p.add_argument("--list", action="store_true", help="list the scripts and exit")
    p.add_argument("--quick", action="store_true", help="CI-sized runs")
    p.add_argument("-o", "--out", help="output directory (default: ./paper_figures_output)")
    p.add_argument("--data", help="data directory for streamtk.datasets (default $STREAMTK_DATA)")
    p.add_argument("--cache", help="log cache (default $STREAMTK_CACHE/paper_figures or OUT/cache)")
    p.add_argument("--only", nargs="+", metavar="NAME", help="run only these scripts")
    p.add_argument("--jobs", type=int, default=1, help="scripts run at once, each in its own process (default 1)")
    p.add_argument(
        "--producer",
        choices=("auto", "capymoa", "river"),
        default="auto",
        help="who trains the learners of the recorded logs: auto (MOA through capymoa when available, else "
        "river), capymoa, or river",
    )
    _add_common(p, progress=False)
    p.set_defaults(func=_cmd_figures)
