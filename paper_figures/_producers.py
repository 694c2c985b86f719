"""Who makes the recorded logs: MOA's learners through capymoa (the default when capymoa and Java are
available), else river (the fallback). :func:`produce` runs learners test-then-train over a
:class:`Source` and caches the log (:func:`streamtk.io.make_log`, netCDF) per producer; the log's attrs
name the producer, the engine, the MOA command lines and the scale, and REPORT.md lists every log.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from . import _moa

__all__ = ["Learner", "Source", "Holdout", "produce", "dataset_source", "LEARNERS", "river_version", "LOG_FORMAT"]

#: bumped whenever the content of a produced log changes for the same key (part of the cache file name)
LOG_FORMAT = 2


def river_version():
    import river

    return f"river {river.__version__}"


@dataclass(frozen=True)
class Learner:
    """A classifier by its MOA command line and its river fallback (``None`` = none)."""

    name: str
    moa: str | None
    river: Callable | None = None
    river_text: str = ""

    def seeded(self, seed, name=None):
        """The same learner with a random seed (MOA: ``setRandomSeed``; river: ``seed=``)."""
        river = None if self.river is None else (lambda: self.river(seed))
        return Learner(name or self.name, f"{self.moa} @seed={seed}" if self.moa else None, river, self.river_text)


def _river(cls_path, **kw):
    def make(seed=None):
        import importlib

        mod, _, name = cls_path.rpartition(".")
        cls = getattr(importlib.import_module(mod), name)
        args = dict(kw)
        if seed is not None:
            args["seed"] = seed
        return cls(**args)

    return make


def _river_lbag(seed=None):
    from river import ensemble, tree

    return ensemble.LeveragingBaggingClassifier(tree.HoeffdingTreeClassifier(), seed=seed)


def _river_ddm(seed=None):
    from river import naive_bayes

    from ._common import DDMLearner

    return DDMLearner(naive_bayes.GaussianNB)


#: the learners of the papers, by the names the papers use
LEARNERS = {
    "NB": Learner("NB", "bayes.NaiveBayes", _river("river.naive_bayes.GaussianNB"), "river GaussianNB"),
    "HT": Learner("HT", "trees.HoeffdingTree", _river("river.tree.HoeffdingTreeClassifier"), "river HoeffdingTree"),
    "VFDT-MC": Learner(
        "VFDT-MC",
        "trees.HoeffdingTree -l MC",
        _river("river.tree.HoeffdingTreeClassifier", leaf_prediction="mc"),
        "river HoeffdingTree (mc leaves)",
    ),
    "VFDT-NBa": Learner(
        "VFDT-NBa",
        "trees.HoeffdingTree -l NBAdaptive",
        _river("river.tree.HoeffdingTreeClassifier", leaf_prediction="nba"),
        "river HoeffdingTree (nba leaves)",
    ),
    "HAT": Learner(
        "HAT", "trees.HoeffdingAdaptiveTree", _river("river.tree.HoeffdingAdaptiveTreeClassifier", seed=1), "river HAT"
    ),
    "LBAG": Learner("LBAG", "meta.LeveragingBag", _river_lbag, "river LeveragingBagging(HoeffdingTree)"),
    "DDM": Learner(
        "DDM",
        "drift.DriftDetectionMethodClassifier -l bayes.NaiveBayes -d DDM",
        _river_ddm,
        "river GaussianNB relearning on river's DDM",
    ),
}


@dataclass
class Source:
    """A stream: a MOA command line with a river factory (``_streams.Gen``), or arrays."""

    name: str
    classes: list
    gen: object = None  # _streams.Gen
    X: np.ndarray | None = None
    y: np.ndarray | None = None  # class codes
    feature_names: tuple = ()
    nominal: dict = field(default_factory=dict)  # feature name -> number of values (codes in X)

    def describe(self):
        return self.gen.moa if self.gen is not None else f"{self.name} ({len(self.y)} instances)"


@dataclass
class Holdout:
    """Every ``every`` instances each learner predicts ``m`` fresh instances of the concept in force:
    ``concepts`` is a list of ``(first instance (0-based), Gen)``."""

    every: int
    m: int
    concepts: list


def dataset_source(ctx, name, n, *, order="original", seed=1, augment=0):
    """The first ``n`` instances of dataset ``name`` after an optional reordering, as a :class:`Source`.

    ``order``: ``"original"``, ``"iid"`` (:func:`streamtk.dependence.shuffle.iid_shuffle`) or
    ``"label_order"`` (:func:`streamtk.dependence.shuffle.label_order_preserving_shuffle`).
    ``augment=l`` appends the ``l`` previous labels (:func:`streamtk.dependence.correction.augment_with_past_labels`,
    ``encoding="codes"``) as nominal attributes: Zliobaite et al.'s Temporally Augmented inputs.
    """
    from streamtk.dependence.correction import augment_with_past_labels
    from streamtk.dependence.shuffle import iid_shuffle, label_order_preserving_shuffle

    st = ctx.load(name)
    classes = list(st.classes)
    codes = st.y_codes
    if order == "iid":
        idx = iid_shuffle(len(codes), seed=seed)
    elif order == "label_order":
        idx = label_order_preserving_shuffle(st.y, seed=seed)
    elif order == "original":
        idx = np.arange(len(codes))
    else:
        raise ValueError(f"order must be 'original', 'iid' or 'label_order', got {order!r}")
    idx = np.asarray(idx)[:n]
    X, y = np.asarray(st.X, dtype=float)[idx], codes[idx]
    feats = list(st.feature_names)
    nominal = {f: len(v) for f, v in st.categories.items()}
    if augment:
        X = augment_with_past_labels(X, y, order=augment, encoding="codes", classes=np.arange(len(classes)))
        for j in range(1, augment + 1):
            feats.append(f"y_t-{j}")
            nominal[f"y_t-{j}"] = len(classes)
    tag = f"{name}_{order}{f'_s{seed}' if order != 'original' else ''}{f'_aug{augment}' if augment else ''}_n{len(y)}"
    return Source(tag, classes, X=X, y=y, feature_names=tuple(feats), nominal=nominal)


# ----------------------------------------------------------------------------- MOA
def _produce_moa(ctx, source, learners, n, keep_scores, holdout, resets, train_weight, chunk=50_000):
    _moa.set_cache(ctx.cache)
    if source.gen is not None:
        stream = _moa.make_stream(source.gen.moa)
        header = stream.getHeader()
        data = stream
    else:
        header = _moa.header(source.feature_names, range(len(source.classes)), nominal=source.nominal)
        data = _moa.instances(header, source.X[:n], source.y[:n])
        if len(data) < n:
            raise ValueError(f"source {source.name!r} has {len(data)} instances, fewer than n={n}")
    sess = _moa.MoaSession([lr.moa for lr in learners], header, ctx.cache, python_loop=ctx.python_loop)
    for l, pos in (resets or {}).items():
        sess.set_resets(l, pos)
    L = len(learners)
    y_true = np.empty(n, dtype=np.int64)
    y_pred = np.empty((L, n), dtype=np.int64)
    scores = np.zeros((L, n, sess.num_classes), dtype=np.float32) if keep_scores else None
    ho_sets, ho_y, ho_pred, ho_at = {}, [], [], []
    stops = list(range(holdout.every, n + 1, holdout.every)) if holdout else []
    stops = sorted(set(stops + list(range(chunk, n, chunk)) + [n]))
    pos = 0
    for stop in stops:
        k = stop - pos
        tw = None if train_weight is None else np.ascontiguousarray(train_weight[:, pos:stop])
        yt, yp, v = sess.run(data, k, start=pos, train_weight=tw, keep_votes=keep_scores)
        y_true[pos:stop], y_pred[:, pos:stop] = yt, yp
        if keep_scores:
            scores[:, pos:stop] = v
        pos = stop
        if holdout and stop % holdout.every == 0:
            c = max(i for i, (start, _) in enumerate(holdout.concepts) if start <= stop - 1)
            if c not in ho_sets:
                s = _moa.make_stream(holdout.concepts[c][1].moa)
                inst = _moa.take(s, holdout.m)
                ho_sets[c] = (inst, np.array([int(i.classValue()) for i in inst]))
            inst, hy = ho_sets[c]
            ho_at.append(stop)
            ho_y.append(hy)
            ho_pred.append(sess.predict(inst))
    import capymoa

    producer = "; ".join(f"MOA {lr.moa} via capymoa {capymoa.__version__}" for lr in learners)
    return y_true, y_pred, scores, (ho_at, ho_y, ho_pred), producer, sess.engine


# ----------------------------------------------------------------------------- river
def _river_items(source, n):
    if source.gen is not None:
        it = source.gen.river()
        for i, (x, y) in enumerate(it):
            if i >= n:
                return
            yield x, int(source.gen.classes.index(y)) if y in source.gen.classes else int(y)
        return
    names = list(source.feature_names)
    for xi, yi in zip(source.X[:n].tolist(), source.y[:n].tolist()):
        yield {k: v for k, v in zip(names, xi) if v == v}, int(yi)


def _produce_river(ctx, source, learners, n, keep_scores, holdout, resets, train_weight):
    missing = [lr.name for lr in learners if lr.river is None]
    if missing:
        raise RuntimeError(f"no river equivalent of {missing}; MOA (capymoa + Java) is needed for this log")
    C = len(source.classes) if source.gen is None else source.gen.n_classes
    models = [lr.river() for lr in learners]
    reset_at = {l: set(int(p) for p in pos) for l, pos in (resets or {}).items()}
    L = len(models)
    y_true = np.empty(n, dtype=np.int64)
    y_pred = np.empty((L, n), dtype=np.int64)
    scores = np.zeros((L, n, C), dtype=np.float32) if keep_scores else None
    ho_sets, ho_y, ho_pred, ho_at = {}, [], [], []

    def predict(model, x):
        p = model.predict_proba_one(x)
        row = np.array([float(p.get(c, 0.0)) for c in range(C)])
        return row, (int(np.argmax(row)) if row.sum() > 0 else 0)

    i = -1
    for i, (x, y) in enumerate(_river_items(source, n)):
        y_true[i] = y
        for l in range(L):
            if i in reset_at.get(l, ()):
                models[l] = learners[l].river()
            row, y_pred[l, i] = predict(models[l], x)
            if keep_scores and row.sum() > 0:
                scores[l, i] = row / row.sum()
            w = 1.0 if train_weight is None else float(train_weight[l, i])
            for _ in range(int(round(w))):
                models[l].learn_one(x, y)
        if holdout and (i + 1) % holdout.every == 0:
            c = max(j for j, (start, _) in enumerate(holdout.concepts) if start <= i)
            if c not in ho_sets:
                pairs = [p for _, p in zip(range(holdout.m), holdout.concepts[c][1].river())]
                ho_sets[c] = ([p[0] for p in pairs], np.array([int(p[1]) for p in pairs]))
            hx, hy = ho_sets[c]
            ho_at.append(i + 1)
            ho_y.append(hy)
            ho_pred.append(np.array([[predict(m, xx)[1] for xx in hx] for m in models]))
    if i + 1 < n:
        raise ValueError(f"source {source.name!r} ended after {i + 1} instances, fewer than n={n}")
    producer = "; ".join(f"{river_version()} {type(m).__name__}" for m in models)
    return y_true, y_pred, scores, (ho_at, ho_y, ho_pred), producer, "Python loop over river"


# ----------------------------------------------------------------------------- public
def produce(
    ctx,
    key,
    source,
    learners,
    *,
    n,
    description,
    keep_scores=False,
    holdout=None,
    resets=None,
    train_weight=None,
    section=None,
):
    """Run ``learners`` test-then-train over the first ``n`` instances of ``source``; cache the log.

    Parameters
    ----------
    key : str
        Cache name (the producer is appended); put every parameter that changes the log in it.
    learners : sequence of Learner
    keep_scores : bool
        Record the class scores (MOA: the votes normalised to sum 1).
    holdout : Holdout, optional
        Periodic holdout tests, recorded as ``y_true_holdout`` (checkpoint, holdout_item),
        ``y_pred_holdout`` (model, checkpoint, holdout_item) and ``holdout_instance``.
    resets : dict, optional
        learner index -> 0-based positions where it restarts from scratch before predicting.
    train_weight : array (L, n), optional
        Training weight of every learner for every instance (0 = test only).
    """

    from streamtk.io import open_dataset

    sec = section or ctx.current
    producer = ctx.resolve_producer()
    path = ctx.cache / f"{key}_{producer}_v{LOG_FORMAT}.nc"
    with _locked(path):  # scripts run in parallel (make_all --jobs) produce each log once
        if path.exists():
            log = open_dataset(path).load()
            sec.log(key, log.attrs.get("producer", "?"), f"{log.attrs.get('description', '')} (cached: {path.name})")
            return log
        return _produce(
            ctx, key, source, learners, n, description, keep_scores, holdout, resets, train_weight, sec, producer, path
        )


@contextmanager
def _locked(path):
    """An exclusive lock on ``<path>.lock`` (POSIX ``flock``; no lock where that does not exist)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: scripts then run one at a time
        yield
        return
    with open(path.with_name(path.name + ".lock"), "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _produce(
    ctx, key, source, learners, n, description, keep_scores, holdout, resets, train_weight, sec, producer, path
):
    import xarray as xr

    from streamtk.io import make_log, to_netcdf

    t0 = time.perf_counter()
    run = _produce_moa if producer == "capymoa" else _produce_river
    y_true, y_pred, scores, (ho_at, ho_y, ho_pred), producer, engine = run(
        ctx, source, learners, n, keep_scores, holdout, resets, train_weight
    )
    seconds = time.perf_counter() - t0
    classes = list(source.classes) if source.gen is None else source.gen.classes
    cls = np.asarray(classes)
    log = make_log(
        cls[y_true],
        cls[y_pred],
        models=[lr.name for lr in learners],
        y_score=scores,
        classes=classes,
        attrs={
            "producer": producer,
            "engine": engine,
            "source": source.describe(),
            "description": description,
            "produce_seconds": seconds,
        },
    )
    if holdout:
        log["y_true_holdout"] = xr.DataArray(cls[np.array(ho_y)], dims=("checkpoint", "holdout_item"))
        log["y_pred_holdout"] = xr.DataArray(
            cls[np.array(ho_pred)].transpose(1, 0, 2), dims=("model", "checkpoint", "holdout_item")
        )
        log["holdout_instance"] = xr.DataArray(np.array(ho_at), dims=("checkpoint",))
    tmp = path.with_name(f"{path.stem}.tmp{os.getpid()}{path.suffix}")  # written beside, renamed on success
    to_netcdf(log, tmp)
    tmp.replace(path)
    sec.log(key, producer, f"{description}; {engine}; produced in {seconds:.1f} s, cached as {path.name}")
    return log
