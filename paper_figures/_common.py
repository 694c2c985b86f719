"""Shared machinery of the figure scripts: the run context, running a script, river wrappers.

* :class:`Context` -- where output goes (``out/``, ``out/figures/``), quick or full mode, the data
  directory handed to :mod:`streamtk.datasets`, the log cache (``$STREAMTK_CACHE/paper_figures``
  or ``out/cache``; never inside the repository), the producer of the logs (MOA through capymoa
  when available, else river) and the :class:`~paper_figures._report.Report`.
* :func:`run_script` / :func:`script_main` -- run one script's ``run(ctx)``; a failure is recorded
  in its section (with the traceback) rather than raised.

The scripts stay thin: load -> produce or read the logs -> compute with streamtk -> figure/table.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import _moa
from ._inventory import INVENTORY
from ._plot import finish
from ._report import Report, Section

__all__ = ["Context", "run_script", "script_main", "PRODUCERS", "DDMLearner", "nanmean"]


def nanmean(a, axis=None):
    """Mean of the finite values (NaN where there is none), without numpy's empty-slice warning."""
    import numpy as np

    a = np.asarray(a, dtype=float)
    ok = np.isfinite(a)
    cnt = ok.sum(axis=axis)
    tot = np.where(ok, a, 0.0).sum(axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (
            np.where(cnt > 0, tot / np.maximum(cnt, 1), np.nan)
            if np.ndim(cnt)
            else (float(tot / cnt) if cnt else float("nan"))
        )


#: ``auto``: MOA through capymoa when it and a Java runtime work, else river
PRODUCERS = ("auto", "capymoa", "river")


@dataclass
class Context:
    """Output directory, mode, data directory, log cache and producer shared by the scripts."""

    out: Path
    quick: bool = True
    data: Path | None = None
    cache: Path | None = None
    producer: str = "auto"
    python_loop: bool = False  # MOA: force the Python twin of the Java loop
    report: Report = field(default_factory=lambda: Report(INVENTORY))
    current: Section | None = None
    producer_reason: str = ""
    _last_dataset: tuple = field(default=(None, None), repr=False)  # (name, Dataset) of the last load
    data_read: set = field(default_factory=set)  # data sets read by the script running now (run_script)

    def __post_init__(self):
        self.out = Path(self.out)
        if self.producer not in PRODUCERS:
            raise ValueError(f"producer must be one of {PRODUCERS}, got {self.producer!r}")
        if self.producer == "capymoa":
            self.resolve_producer()  # fail early when MOA was asked for and cannot run
        (self.out / "figures").mkdir(parents=True, exist_ok=True)
        if self.cache is None:
            env = os.environ.get("STREAMTK_CACHE")
            self.cache = Path(env) / "paper_figures" if env else self.out / "cache"
        self.cache = Path(self.cache)
        self.cache.mkdir(parents=True, exist_ok=True)
        if self.data is not None:
            self.data = Path(self.data)

    # data through the project loader only
    def load(self, name):
        """The dataset ``name``; the last one loaded is kept, so that a script reading it for many runs
        (Bifet Tables 2-4: 30 logs per stream) parses Covertype's CSV once, not 30 times."""
        from streamtk import datasets

        self.data_read.add(name)
        if self._last_dataset[0] != name:
            self._last_dataset = (None, None)  # free the previous one before loading the next
            self._last_dataset = (name, datasets.load(name, path=self.data))
        return self._last_dataset[1]

    def labels(self, name):
        from streamtk import datasets

        self.data_read.add(name)
        return datasets.load_labels(name, path=self.data)

    def section(self, key, title, source) -> Section:
        self.current = self.report.section(key, title, source)
        return self.current

    def savefig(self, fig, name, caption):
        """Check and save a figure as ``figures/<name>.png`` (300 dpi) and ``.pdf``; list it in the section."""
        png, pdf, clipped = finish(fig, self.out / "figures", name)
        if clipped:
            caption += f" ({clipped} value(s) beyond an axis limit are marked by triangles at the limit.)"
        self.current.figures.append((f"figures/{png.name}", f"figures/{pdf.name}", caption))
        return png

    def n(self, quick, full):
        return quick if self.quick else full

    def resolve_producer(self) -> str:
        """``"capymoa"`` or ``"river"``: ``auto`` becomes capymoa when capymoa and its JVM work (started on
        first use only, so runs that produce no log never start Java)."""
        if self.producer in ("auto", "capymoa") and self.producer_reason == "":
            ok, why = _moa.status()
            if ok:
                self.producer = "capymoa"
                self.producer_reason = "resolved"
            elif self.producer == "capymoa":
                raise ValueError(f"producer 'capymoa' needs capymoa and a Java runtime: {why}")
            else:
                self.producer, self.producer_reason = "river", f"MOA is not available ({why})"
        return self.producer

    def producer_text(self):
        if self.producer == "auto":
            return "no learner (no log was needed)"
        if self.producer == "capymoa":
            return f"MOA through capymoa {_moa.capymoa_version()}"
        return "river" + (f" ({self.producer_reason})" if self.producer_reason not in ("", "resolved") else "")


# ----------------------------------------------------------------------------- river wrappers
class DDMLearner:
    """A river learner that relearns from scratch when river's DDM signals a drift on its 0/1 loss
    (the river stand-in for MOA's DriftDetectionMethodClassifier)."""

    def __init__(self, factory):
        from river.drift.binary import DDM

        self.factory = factory
        self.model = factory()
        self.ddm = DDM()
        self._last = None

    def predict_proba_one(self, x):
        p = self.model.predict_proba_one(x)
        self._last = max(p, key=p.get) if p else None
        return p

    def learn_one(self, x, y):
        self.ddm.update(self._last != y)
        if self.ddm.drift_detected:
            self.model = self.factory()
        self.model.learn_one(x, y)


# ----------------------------------------------------------------------------- running
def run_script(run, ctx: Context, name=None):
    """Run one script's ``run(ctx)``; a failure is recorded in its section rather than raised."""
    import traceback

    from ._data import undeclared

    t0 = time.perf_counter()
    before = set(ctx.report.sections)
    ctx.data_read = set()
    try:
        run(ctx)
        extra = undeclared(name, ctx.quick, ctx.data_read) if name else []
        if extra:  # make_all checks the declared data sets before running anything: keep them complete
            raise RuntimeError(f"script {name!r} read data set(s) {extra} that its data_needed() does not declare")
        ok = True
    except Exception:  # noqa: BLE001 - the report shows the traceback
        ok = False
        tb = traceback.format_exc()
        new = [k for k in ctx.report.sections if k not in before]
        key = name or getattr(run, "__module__", "script")
        sec = ctx.report.sections[new[-1]] if new else ctx.section(key, key, "")
        sec.error = tb
        ctx.report.failed_scripts.add(name or getattr(run, "__module__", "script"))
    secs = [ctx.report.sections[k] for k in ctx.report.sections if k not in before]
    for s in secs:
        s.seconds = (time.perf_counter() - t0) / max(len(secs), 1)
    return ok


def run_in_worker(package, name, options):
    """Run script ``name`` of ``package`` in this (worker) process with a Context of its own.

    Returns ``(ok, sections, failed scripts, producer text)`` for :func:`make_all.main` to merge (the
    sections are plain dataclasses; the figures are already on disk)."""
    import importlib

    ctx = Context(**options)
    mod = importlib.import_module(f"{package}.{name}")

    def run(c):
        mod.run(c)

    ok = run_script(run, ctx, name=name)
    return ok, list(ctx.report.sections.values()), set(ctx.report.failed_scripts), ctx.producer_text()


def script_main(run, argv=None, name=None):
    """``python paper_figures/<script>.py [--quick] [--out DIR] [--data DIR] [--producer P]``."""
    import argparse

    doc = (run.__doc__ or "").strip().splitlines()
    p = argparse.ArgumentParser(description=doc[0] if doc else None)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--out", default="paper_figures_output")
    p.add_argument("--data", default=None)
    p.add_argument("--cache", default=None)
    p.add_argument("--producer", choices=PRODUCERS, default="auto")
    a = p.parse_args(argv)
    ctx = Context(Path(a.out), quick=a.quick, data=a.data, cache=a.cache, producer=a.producer)
    ok = run_script(run, ctx, name=name)
    ctx.report.header = f"Mode: **{'quick' if a.quick else 'full'}**; logs produced with {ctx.producer_text()}."
    ctx.report.write(ctx.out / "REPORT.md", ran={name} if name else None)
    for s in ctx.report.sections.values():
        if s.error:
            print(s.error, file=sys.stderr)
    return 0 if ok else 1
