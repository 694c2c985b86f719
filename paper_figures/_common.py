"""Shared machinery of the paper figure scripts.

* :class:`Context` -- where output goes (``out/``, ``out/figures/``), quick or full mode, the
  data directory handed to :mod:`streamtk.datasets`, and the log cache (``$STREAMTK_CACHE``
  or ``out/cache``; never inside the repository).
* :func:`river_log` -- runs river learners test-then-train over a stream (a dataset prefix or
  a generator) and records every instance's prediction and class scores as a streamtk log
  (:func:`streamtk.io.make_log`) cached as netCDF, so a second run only recomputes the
  evaluation. Periodic holdout tests are recorded too when asked for.
* :class:`Report` -- collects, per figure or table, the paper's numbers beside ours (with the
  difference), notes, the PNGs and which producer made each log, and writes ``REPORT.md``.

The figure scripts stay thin: load -> compute with streamtk -> plot/table -> save.
"""

from __future__ import annotations

import math
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = [
    "Context",
    "Report",
    "Section",
    "river_log",
    "ResettingLearner",
    "DDMLearner",
    "script_main",
    "river_version",
]


# ----------------------------------------------------------------------------- report
@dataclass
class Section:
    """One reproduced figure or table in REPORT.md."""

    key: str
    title: str
    source: str
    rows: list = field(default_factory=list)
    figures: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    logs: list = field(default_factory=list)
    seconds: float = float("nan")
    error: str = ""

    def compare(self, quantity, paper, ours, *, note="", decimals=4):
        """Add a row ``quantity | paper | ours | ours - paper | note``; returns the difference (or NaN)."""
        diff = float("nan")
        if isinstance(paper, (int, float, np.number)) and isinstance(ours, (int, float, np.number)):
            diff = float(ours) - float(paper)
        self.rows.append((quantity, paper, ours, diff, note, decimals))
        return diff

    def note(self, text):
        self.notes.append(text)

    def log(self, name, producer, detail):
        self.logs.append((name, producer, detail))

    def table_text(self, header, rows):
        """A free-form markdown table (for tables with no paper value, e.g. reduced-scale results)."""
        lines = ["| " + " | ".join(_fmt(h) for h in header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(_fmt(c) for c in r) + " |" for r in rows]
        self.notes.append("\n".join(lines))


def _fmt(v, decimals=4):
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        if math.isnan(v):
            return "–"
        if float(v).is_integer() and abs(v) < 1e12:
            return str(int(v))
        return f"{v:.{decimals}f}"
    return str(v).replace("|", "\\|")


class Report:
    """Collects sections and writes ``REPORT.md``."""

    def __init__(self, header=""):
        self.header = header
        self.sections: dict[str, Section] = {}

    def section(self, key, title, source) -> Section:
        s = Section(key, title, source)
        self.sections[key] = s
        return s

    def markdown(self) -> str:
        out = ["# streamtk: regenerated paper figures and tables", "", self.header, ""]
        out.append("| section | rows | max abs difference | figures | time (s) | status |")
        out.append("|---|---|---|---|---|---|")
        for s in self.sections.values():
            diffs = [abs(r[3]) for r in s.rows if not math.isnan(r[3])]
            out.append(
                f"| [{s.title}](#{s.key}) | {len(s.rows)} | {_fmt(max(diffs)) if diffs else '–'} | "
                f"{len(s.figures)} | {s.seconds:.1f} | {'FAILED' if s.error else 'ok'} |"
            )
        for s in self.sections.values():
            out += ["", f'<a id="{s.key}"></a>', f"## {s.title}", "", f"*Source:* {s.source}", ""]
            if s.error:
                out += ["**This script failed:**", "", "```", s.error.rstrip(), "```", ""]
            if s.rows:
                out += ["| quantity | paper | streamtk | difference | note |", "|---|---|---|---|---|"]
                for q, p, o, d, note, dec in s.rows:
                    out.append(f"| {_fmt(q)} | {_fmt(p, dec)} | {_fmt(o, dec)} | {_fmt(d, dec)} | {_fmt(note)} |")
                out.append("")
            for n in s.notes:
                out += [n, ""]
            if s.logs:
                out += ["| log | producer | detail |", "|---|---|---|"]
                out += [f"| {a} | {b} | {c} |" for a, b, c in s.logs]
                out.append("")
            for rel, cap in s.figures:
                out += [f"![{cap}]({rel})", "", f"*{cap}*", ""]
        return "\n".join(out) + "\n"

    def write(self, path) -> Path:
        path = Path(path)
        path.write_text(self.markdown())
        return path


# ----------------------------------------------------------------------------- context
@dataclass
class Context:
    """Output directory, mode, data directory and log cache shared by the scripts."""

    out: Path
    quick: bool = True
    data: Path | None = None
    cache: Path | None = None
    producer: str = "river"  # "river" or "capymoa" (MOA through capymoa, when installed)
    report: Report = field(default_factory=Report)
    current: Section | None = None

    def __post_init__(self):
        self.out = Path(self.out)
        (self.out / "figures").mkdir(parents=True, exist_ok=True)
        if self.cache is None:
            env = os.environ.get("STREAMTK_CACHE")
            self.cache = Path(env) / "paper_figures" if env else self.out / "cache"
        self.cache = Path(self.cache)
        self.cache.mkdir(parents=True, exist_ok=True)
        if self.data is not None:
            self.data = Path(self.data)
        if self.producer not in ("river", "capymoa"):
            raise ValueError(f"producer must be 'river' or 'capymoa', got {self.producer!r}")
        if self.producer == "capymoa" and not has_capymoa():
            raise ValueError(
                "producer 'capymoa' needs the capymoa package (pip install capymoa; it ships MOA's jar "
                "and needs a Java runtime)"
            )

    # data through the project loader only
    def load(self, name):
        from streamtk import datasets

        return datasets.load(name, path=self.data)

    def labels(self, name):
        from streamtk import datasets

        return datasets.load_labels(name, path=self.data)

    def section(self, key, title, source) -> Section:
        self.current = self.report.section(key, title, source)
        return self.current

    def savefig(self, fig, name, caption):
        """Save a matplotlib figure as ``figures/<name>.png`` and list it in the current section."""
        import matplotlib.pyplot as plt

        rel = f"figures/{name}.png"
        fig.tight_layout()
        fig.savefig(self.out / rel, dpi=100, bbox_inches="tight")
        plt.close(fig)
        self.current.figures.append((rel, caption))
        return self.out / rel

    def n(self, quick, full):
        return quick if self.quick else full


def new_figure(nrows=1, ncols=1, *, size=(6.0, 3.6), **kw):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(nrows, ncols, figsize=(size[0] * ncols, size[1] * nrows), squeeze=False, **kw)
    return fig, axes


def river_version():
    import river

    return f"river {river.__version__}"


def has_capymoa() -> bool:
    import importlib.util

    return importlib.util.find_spec("capymoa") is not None


class MoaLearner:
    """A MOA classifier (through capymoa) behind river's ``predict_proba_one`` / ``learn_one``.

    The MOA schema (numeric attributes in first-seen order, the nominal class with the given
    labels) is built from the first instance; an attribute missing from a later instance is
    passed as NaN (MOA's missing value). MOA's class votes are returned as probabilities.
    """

    #: river model class name -> capymoa classifier class name
    MOA_EQUIVALENT = {
        "HoeffdingTreeClassifier": "HoeffdingTree",
        "GaussianNB": "NaiveBayes",
        "HoeffdingAdaptiveTreeClassifier": "HoeffdingAdaptiveTree",
        "LeveragingBaggingClassifier": "LeveragingBagging",
        "ARFClassifier": "AdaptiveRandomForestClassifier",
    }

    def __init__(self, moa_name, classes):
        self.moa_name = moa_name
        self.classes = list(classes)
        self.model = None
        self.keys = None

    def _setup(self, x):
        import capymoa.classifier as cc
        from capymoa.stream import Schema

        self.keys = list(x)
        names = [f"x{i}" for i in range(len(self.keys))]
        self.schema = Schema.from_custom(
            features=names + ["class"],
            target="class",
            categories={"class": [str(c) for c in self.classes]},
            name="streamtk",
        )
        self.model = getattr(cc, self.moa_name)(schema=self.schema)

    def _instance(self, x, y=None):
        from capymoa.core import Instance, LabeledInstance

        # an attribute absent from this instance is missing (NaN, MOA's missing value)
        arr = np.array([float(x.get(k, np.nan)) for k in self.keys])
        if y is None:
            return Instance.from_array(self.schema, arr)
        return LabeledInstance.from_array(self.schema, arr, self.classes.index(y))

    def predict_proba_one(self, x):
        if self.model is None:
            self._setup(x)
        votes = self.model.predict_proba(self._instance(x))
        if votes is None:
            return {}
        return {c: float(v) for c, v in zip(self.classes, votes)}

    def learn_one(self, x, y):
        if self.model is None:
            self._setup(x)
        self.model.train(self._instance(x, y))


def producer_models(ctx, models: dict, classes) -> dict:
    """The factories to use: the river ones, or their MOA equivalents when ``ctx.producer == "capymoa"``.

    Models without a MOA equivalent (wrappers such as the DDM relearner) stay river models; the
    log's ``producer`` attribute names what made each one.
    """
    if ctx.producer != "capymoa":
        return models
    out = {}
    for name, factory in models.items():
        moa = MoaLearner.MOA_EQUIVALENT.get(type(factory()).__name__)
        out[name] = (lambda moa=moa: MoaLearner(moa, classes)) if moa else factory
    return out


def producer_name(ctx, learners) -> str:
    parts = []
    for m in learners:
        if isinstance(m, MoaLearner):
            import capymoa

            parts.append(f"MOA {m.moa_name} via capymoa {capymoa.__version__}")
        else:
            parts.append(f"{river_version()} {type(m).__name__}")
    return "; ".join(parts)


# ----------------------------------------------------------------------------- learners
class ResettingLearner:
    """A river learner rebuilt from scratch at given instance positions (0-based, before that
    instance is predicted) -- Zliobaite et al. 2015 sec. 6.9 "DDM-random"."""

    def __init__(self, factory, reset_at):
        self.factory = factory
        self.reset_at = set(int(i) for i in reset_at)
        self.t = 0
        self.model = factory()

    def predict_proba_one(self, x):
        if self.t in self.reset_at:
            self.model = self.factory()
        return self.model.predict_proba_one(x)

    def learn_one(self, x, y):
        self.model.learn_one(x, y)
        self.t += 1


class DDMLearner:
    """Naive Bayes (or any learner) that relearns from scratch when river's DDM signals a drift on
    its own 0/1 loss (the "variant that detects and relearns" of Gama et al. 2013 Fig. 6). The
    positions of the detections are kept in ``detections``."""

    def __init__(self, factory):
        from river.drift.binary import DDM

        self.factory = factory
        self.model = factory()
        self.ddm = DDM()
        self.detections = []
        self.t = 0
        self._last = None

    def predict_proba_one(self, x):
        p = self.model.predict_proba_one(x)
        self._last = max(p, key=p.get) if p else None
        return p

    def learn_one(self, x, y):
        self.ddm.update(self._last != y)
        if self.ddm.drift_detected:
            self.detections.append(self.t)
            self.model = self.factory()
        self.model.learn_one(x, y)
        self.t += 1


# ----------------------------------------------------------------------------- river logs
def _score_row(proba, classes):
    row = np.array([float(proba.get(c, 0.0)) for c in classes])
    s = row.sum()
    return row / s if s > 0 else row


def _predict(model, x, classes):
    sc = _score_row(model.predict_proba_one(x), classes)
    return int(np.argmax(sc)) if sc.sum() > 0 else 0


def river_log(ctx: Context, key: str, stream, models: dict, *, classes, n, description, holdout=None, section=None):
    """Test-then-train river ``models`` over the first ``n`` items of ``stream()`` and cache the log.

    Parameters
    ----------
    key : str
        Cache name; the file is ``<cache>/<key>.nc`` (put the scale in the key).
    stream : callable
        ``stream()`` returns an iterator of ``(x: dict, y)``.
    models : dict name -> factory
        Each factory returns a fresh river classifier (or a wrapper with ``predict_proba_one`` and
        ``learn_one``).
    classes : sequence
        The label set (defines the score columns). Before a model has seen anything it
        predicts ``classes[0]`` (river returns an empty probability dict there).
    holdout : (every, make_set) or None
        Every ``every`` instances (and at the end), each model predicts the holdout set
        ``make_set(t) -> (list of x, y array)``; recorded as ``y_true_holdout`` (C, m) and
        ``y_pred_holdout`` (model, C, m) with the positions in ``holdout_instance``.

    Returns
    -------
    xarray.Dataset
        A streamtk log (``streamtk.io.make_log``) with attrs ``producer`` and ``description``.
    """
    import xarray as xr

    from streamtk.io import make_log, open_dataset, to_netcdf

    sec = section or ctx.current
    if ctx.producer != "river":
        key = f"{key}_{ctx.producer}"
    models = producer_models(ctx, models, classes)
    path = ctx.cache / f"{key}.nc"
    if path.exists():
        log = open_dataset(path).load()
        sec.log(key, log.attrs.get("producer", "?"), f"{log.attrs.get('description', '')} (cached: {path.name})")
        return log
    classes = list(classes)
    names = list(models)
    learners = [models[m]() for m in names]
    y_true = np.empty(n, dtype=np.int64)
    y_pred = np.empty((len(names), n), dtype=np.int64)
    y_score = np.zeros((len(names), n, len(classes)))
    code = {c: i for i, c in enumerate(classes)}
    _ho_x, ho_y, ho_pred, ho_at = [], [], [], []
    t0 = time.perf_counter()
    i = -1
    for i, (x, y) in enumerate(stream()):
        if i >= n:
            break
        y_true[i] = code[y]
        for j, m in enumerate(learners):
            proba = m.predict_proba_one(x)
            sc = _score_row(proba, classes)
            y_score[j, i] = sc
            y_pred[j, i] = int(np.argmax(sc)) if sc.sum() > 0 else 0
            m.learn_one(x, y)
        if holdout is not None and ((i + 1) % holdout[0] == 0):
            hx, hy = holdout[1](i + 1)
            ho_at.append(i + 1)
            ho_y.append([code[v] for v in hy])
            ho_pred.append([[_predict(m, xx, classes) for xx in hx] for m in learners])
    if i + 1 < n:
        raise ValueError(f"stream {key!r} ended after {i + 1} items, fewer than n={n}")
    seconds = time.perf_counter() - t0
    producer = (
        producer_name(ctx, learners)
        if ctx.producer != "river"
        else f"{river_version()} ({', '.join(type(m).__name__ for m in learners)})"
    )
    log = make_log(
        np.array(classes)[y_true],
        np.array(classes)[y_pred],
        models=names,
        y_score=y_score,
        classes=classes,
        attrs={"producer": producer, "description": description, "produce_seconds": seconds},
    )
    if holdout is not None:
        log["y_true_holdout"] = xr.DataArray(np.array(classes)[np.array(ho_y)], dims=("checkpoint", "holdout_item"))
        log["y_pred_holdout"] = xr.DataArray(
            np.array(classes)[np.array(ho_pred).transpose(1, 0, 2)], dims=("model", "checkpoint", "holdout_item")
        )
        log["holdout_instance"] = xr.DataArray(np.array(ho_at), dims=("checkpoint",))
    for j, m in enumerate(learners):
        if hasattr(m, "detections"):
            log.attrs[f"detections_{names[j]}"] = np.array(m.detections, dtype=np.int64)
    to_netcdf(log, path)
    sec.log(key, producer, f"{description} (produced in {seconds:.1f} s, cached as {path.name})")
    return log


def dataset_stream(X, y, feature_names):
    """``stream()`` for :func:`river_log` over arrays (features as a dict per instance)."""
    names = list(feature_names)

    def gen():
        for xi, yi in zip(X.tolist(), y.tolist()):
            # missing values (NaN) are left out of the dict: river learners skip absent features
            yield {k: v for k, v in zip(names, xi) if v == v}, yi

    return gen


def learner_factories(names, seed=1):
    """river learners by the papers' names: NB (Gaussian naive Bayes), HT (Hoeffding tree), HAT
    (Hoeffding adaptive tree), NB-DDM (naive Bayes relearning on DDM drifts)."""
    from river import naive_bayes, tree

    table = {
        "NB": naive_bayes.GaussianNB,
        "HT": tree.HoeffdingTreeClassifier,
        "HAT": lambda: tree.HoeffdingAdaptiveTreeClassifier(seed=seed),
        "NB-DDM": lambda: DDMLearner(naive_bayes.GaussianNB),
    }
    return {n: table[n] for n in names}


def dataset_log(ctx, name, n, *, models=("NB", "HT", "HAT"), order="original", seed=1, augmented=False):
    """A river log over the first ``n`` instances of dataset ``name`` (after an optional reordering).

    ``order``: ``"original"``, ``"iid"`` (:func:`streamtk.dependence.shuffle.iid_shuffle`) or ``"label_order"``
    (:func:`streamtk.dependence.shuffle.label_order_preserving_shuffle`: labels keep their order, instances
    of a class are permuted). ``augmented=True`` appends the previous label (one-hot,
    :func:`streamtk.dependence.correction.augment_with_past_labels`) to the inputs -- Zliobaite et al.'s
    Temporally Augmented classifier. Returns ``(log, stream)``.
    """
    from streamtk.dependence.correction import augment_with_past_labels
    from streamtk.dependence.shuffle import iid_shuffle, label_order_preserving_shuffle

    st = ctx.load(name)
    X, y = np.asarray(st.X, dtype=float), st.y
    if order == "iid":
        idx = iid_shuffle(len(y), seed=seed)
    elif order == "label_order":
        idx = label_order_preserving_shuffle(y, seed=seed)
    elif order == "original":
        idx = np.arange(len(y))
    else:
        raise ValueError(f"order must be 'original', 'iid' or 'label_order', got {order!r}")
    X, y = X[idx][:n], y[idx][:n]
    feats = list(st.feature_names)
    if augmented:
        X = np.asarray(augment_with_past_labels(X, y, order=1, classes=st.classes), dtype=float)
        feats = feats + [f"prev_label_{c}" for c in range(X.shape[1] - len(feats))]
    key = f"{name}_{order}{'_aug' if augmented else ''}_s{seed}_n{n}_{'-'.join(models)}"
    seed_txt = f", seed {seed}" if order != "original" else ""
    desc = (
        f"{'+'.join(models)} test-then-train on {name} ({order} order{seed_txt}"
        f"{', inputs + previous label' if augmented else ''}), first {n} instances"
    )
    log = river_log(
        ctx,
        key,
        dataset_stream(X, y, feats),
        learner_factories(models, seed),
        classes=st.classes.tolist(),
        n=n,
        description=desc,
    )
    return log, st


def sea_stream(segment, *, seed, noise=0.1, variants=(0, 1, 2, 3)):
    """``stream()`` of river's SEA generator with abrupt concept changes every ``segment``
    instances (concept ``k`` uses ``variants[k]``: thresholds 8, 9, 7, 9.5), class noise ``noise``."""
    from river.datasets.synth import SEA

    def gen():
        for k, v in enumerate(variants):
            yield from SEA(variant=v, noise=noise, seed=seed + k).take(segment)

    return gen


def sea_holdout(segment, m, *, noise=0.1, variants=(0, 1, 2, 3), seed=10_000):
    """``make_set(t)`` for :func:`river_log`: ``m`` fresh instances of the concept that produced
    instance ``t`` (one fixed holdout set per concept)."""
    from river.datasets.synth import SEA

    sets = {}

    def make_set(t):
        k = min((t - 1) // segment, len(variants) - 1)
        if k not in sets:
            pairs = list(SEA(variant=variants[k], noise=noise, seed=seed + k).take(m))
            sets[k] = ([x for x, _ in pairs], np.array([y for _, y in pairs]))
        return sets[k]

    return make_set


SEA_ORDER = (3, 2, 0, 1)  # thresholds 9.5 -> 7 -> 8 -> 9: the first drift is the largest


def sea_nb_log(ctx, segment):
    """Naive Bayes and naive Bayes relearning on DDM drifts over four SEA concepts of ``segment``
    instances (Gama et al. 2013 Figs. 6-8); the DDM detections are in the log's attrs."""
    from river import naive_bayes

    models = {"NB": naive_bayes.GaussianNB, "NB-DDM": lambda: DDMLearner(naive_bayes.GaussianNB)}
    return river_log(
        ctx,
        f"sea_nb_seg{segment}_v{''.join(map(str, SEA_ORDER))}",
        sea_stream(segment, seed=1, variants=SEA_ORDER),
        models,
        classes=[0, 1],
        n=4 * segment,
        description=f"GaussianNB and GaussianNB relearning on river DDM drifts; SEA variants "
        f"{SEA_ORDER} (thresholds 9.5, 7, 8, 9; noise 0.1), drifts every {segment} instances",
    )


# ----------------------------------------------------------------------------- running
def run_script(run, ctx: Context):
    """Run one script's ``run(ctx)``; failures are recorded in its section rather than raised."""
    import traceback

    t0 = time.perf_counter()
    before = set(ctx.report.sections)
    try:
        run(ctx)
        ok = True
    except Exception:  # noqa: BLE001 - the report shows the traceback
        ok = False
        tb = traceback.format_exc()
        new = [k for k in ctx.report.sections if k not in before]
        sec = (
            ctx.report.sections[new[-1]]
            if new
            else ctx.section(getattr(run, "__module__", "script"), getattr(run, "__module__", "script"), "")
        )
        sec.error = tb
    secs = [ctx.report.sections[k] for k in ctx.report.sections if k not in before]
    for s in secs:
        s.seconds = (time.perf_counter() - t0) / max(len(secs), 1)
    return ok


def script_main(run, argv=None):
    """``python paper_figures/<script>.py [--quick] [--out DIR] [--data DIR]``: run one script and
    write its REPORT.md."""
    import argparse

    p = argparse.ArgumentParser(description=(run.__doc__ or "").strip().splitlines()[0] if run.__doc__ else None)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--out", default="paper_figures_output")
    p.add_argument("--data", default=None)
    p.add_argument("--producer", choices=("river", "capymoa"), default="river")
    a = p.parse_args(argv)
    ctx = Context(Path(a.out), quick=a.quick, data=a.data, producer=a.producer)
    ok = run_script(run, ctx)
    ctx.report.write(ctx.out / "REPORT.md")
    for s in ctx.report.sections.values():
        if s.error:
            print(s.error, file=sys.stderr)
    return 0 if ok else 1
