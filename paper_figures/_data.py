"""The data sets the figure scripts read, checked before anything runs.

A script that reads a data set through :mod:`streamtk.datasets` (``ctx.load`` / ``ctx.labels``)
declares it with ``data_needed(quick) -> tuple of dataset names``; a script without that function
reads none. :func:`make_all.main` asks every selected script, looks each data set up where the loader
would (``--data``, ``$STREAMTK_DATA``, the cache directory) and, when one is missing, stops before
running anything with the missing data sets, the scripts that need them, where to put them and how
to obtain them. :func:`undeclared` lets :func:`_common.run_script` refuse a script that read a data
set it did not declare, so the declarations cannot drift from what the scripts read.
"""

from __future__ import annotations

import importlib
import os

__all__ = ["declared", "needed", "missing", "missing_message", "mode", "undeclared"]


def declared(name, quick) -> tuple:
    """The data sets script ``name`` of this package declares for quick or full mode (``()`` if none)."""
    try:
        mod = importlib.import_module(f"{__package__}.{name}")
    except Exception:  # noqa: BLE001 - a script that cannot be imported fails (and is reported) when it runs
        return ()
    fn = getattr(mod, "data_needed", None)
    return tuple(fn(bool(quick))) if fn is not None else ()


def needed(names, quick) -> dict:
    """``{dataset: [scripts]}`` over the scripts ``names``, in the order the data sets are first needed."""
    out = {}
    for name in names:
        for d in declared(name, quick):
            out.setdefault(d, []).append(name)
    return out


def missing(names, quick, data=None) -> dict:
    """``{dataset: [scripts]}`` for the data sets the scripts need and the loader cannot find."""
    from streamtk.datasets import DatasetNotFoundError, find

    out = {}
    for d, scripts in needed(names, quick).items():
        try:
            find(d, path=data)
        except DatasetNotFoundError:
            out[d] = scripts
    return out


def missing_message(miss, names, quick, data=None) -> str:
    """What is missing, who needs it, where the loader looked, where to put it and how to obtain it."""
    from streamtk.datasets import info
    from streamtk.datasets.locate import ENV_DATA, cache_dir

    env = os.environ.get(ENV_DATA)
    lines = [
        f"{len(miss)} data set(s) needed by the selected scripts ({'quick' if quick else 'full'} mode) were not "
        "found; nothing was run.",
    ]
    for d, scripts in miss.items():
        entry = info(d)
        lines.append(f"  - {d}: file {entry.relpath}, needed by {', '.join(scripts)}")
        lines.append(f"      to obtain it: {entry.obtain}")
    looked = [
        f"--data {data}" if data is not None else "--data (not given)",
        f"${ENV_DATA}={env}" if env else f"${ENV_DATA} (not set)",
        f"the cache directory {cache_dir()}",
    ]
    example = next(iter(miss))
    lines += [
        "Looked at: " + "; ".join(looked) + ".",
        "Put the files in one data directory with the layout above (e.g. DIR/" + info(example).relpath + ") and "
        f"pass --data DIR or set {ENV_DATA}=DIR (or put them under the cache directory).",
    ]
    runnable = [n for n in names if not any(n in s for s in miss.values())]
    if runnable:
        lines.append(
            f"{len(runnable)} of the {len(names)} selected scripts need none of them: --only {' '.join(runnable)}"
        )
    return "\n".join(lines)


def undeclared(name, quick, read) -> list:
    """The data sets of ``read`` that script ``name`` read without declaring them in ``data_needed``."""
    decl = set(declared(name, quick))
    return sorted(set(read) - decl)


def mode(quick):
    """A stand-in for the run context that only says the mode, for a script's settings functions."""
    from types import SimpleNamespace

    return SimpleNamespace(quick=bool(quick))
