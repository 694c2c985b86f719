"""Test-then-train recording of multi-label learners: :func:`record_multilabel` returns a multi-label log.

Three kinds of learners, each given the instance in its own library's form:

* river multi-label classifiers (``predict_one`` / ``learn_one``; ``river.multioutput.ClassifierChain``,
  ``MonteCarloClassifierChain``, ``ProbabilisticClassifierChain``, ...): ``x`` a dict, the label set a dict
  ``label -> bool``; an empty prediction (before any learning) is a missing one;
* MOA multi-label learners (the Java objects of ``moa.classifiers.multilabel`` and
  ``moa.classifiers.rules.multilabel``, reached through capymoa's JVM; capymoa itself has no multi-label
  API): an instance whose first ``q`` attributes are the labels (MOA's multi-label layout), label ``j``
  predicted when its vote for 1 exceeds its vote for 0 (as MOA's ``BasicMultiLabelPerformanceEvaluator``
  reads it); no prediction, or one for fewer labels, is a missing one (MOA's evaluator skips those);
* any object with ``predict(x)`` (a sequence of ``q`` 0/1 values, a mapping label -> 0/1, or None) and
  ``learn(x, y)`` (``y`` the row of 0/1), given the feature row.
"""

from __future__ import annotations

import math
import pickle
import sys
import time

import numpy as np

from ..io.multilabel import make_multilabel_log

__all__ = ["record_multilabel"]

_PROTOCOL = (
    "test-then-train (prequential): for each instance every model predicts the label set first (y_pred), then "
    "learns from the instance; time_s is the time of that prediction and learning"
)


class _River:
    form = "dict"

    def __init__(self, model, labels):
        self.model, self.labels = model, labels

    def test(self, x):
        pred = self.model.predict_one(x)
        if not pred:
            return None
        return [1.0 if pred.get(lb, False) else 0.0 for lb in self.labels]

    def learn(self, x, y):
        self.model.learn_one(x, {lb: bool(v) for lb, v in zip(self.labels, y)})

    def memory(self):
        raw = getattr(self.model, "_raw_memory_usage", None)
        return float(raw) if raw is not None else _pickled(self.model)

    def describe(self):
        import river

        return f"river {river.__version__} {self.model!r}".replace("\n", " ")


class _Moa:
    form = "instance"

    def __init__(self, model, labels, n_features):
        from jpype import JClass

        q = len(labels)
        arff = "@relation streamtk\n" + "".join(f"@attribute label{j} {{0,1}}\n" for j in range(q))
        arff += "".join(f"@attribute x{i} numeric\n" for i in range(n_features)) + "@data\n"
        inst = JClass("com.yahoo.labs.samoa.instances.Instances")(
            JClass("java.io.StringReader")(arff), JClass("com.yahoo.labs.samoa.instances.Range")(f"1-{q}")
        )
        self.header = JClass("com.yahoo.labs.samoa.instances.InstancesHeader")(inst)
        self.Dense = JClass("com.yahoo.labs.samoa.instances.DenseInstance")
        self.Example = JClass("moa.core.InstanceExample")
        self.model, self.q = model, q
        model.setModelContext(self.header)
        model.prepareForUse()

    def instance(self, x, y):
        inst = self.Dense(1.0, np.concatenate([np.asarray(y, dtype=np.float64), x]).tolist())
        inst.setDataset(self.header)
        return self.Example(inst)

    def test(self, ex):
        pred = self.model.getPredictionForInstance(ex)
        if pred is None or pred.numOutputAttributes() < self.q:
            return None
        return [1.0 if pred.getVote(j, 1) > pred.getVote(j, 0) else 0.0 for j in range(self.q)]

    def learn(self, ex, y):
        self.model.trainOnInstance(ex)

    def memory(self):
        try:
            return float(self.model.measureByteSize())
        except Exception:  # noqa: BLE001 - a learner that cannot measure itself
            return math.nan

    def describe(self):
        return f"MOA (capymoa's jar) {self.model.getClass().getName()}"


class _Generic:
    form = "array"

    def __init__(self, model, labels):
        self.model, self.labels = model, labels

    def test(self, x):
        pred = self.model.predict(x)
        if pred is None:
            return None
        if hasattr(pred, "get"):
            return [1.0 if pred.get(lb, 0) else 0.0 for lb in self.labels]
        pred = np.asarray(pred, dtype=np.float64).reshape(-1)
        if pred.size != len(self.labels):
            raise ValueError(
                f"{type(self.model).__name__}.predict gave {pred.size} labels, expected {len(self.labels)}"
            )
        return pred.tolist()

    def learn(self, x, y):
        self.model.learn(x, y)

    def memory(self):
        return _pickled(self.model)

    def describe(self):
        return f"{type(self.model).__module__}.{type(self.model).__name__}"


def _pickled(model):
    try:
        return float(len(pickle.dumps(model, protocol=pickle.HIGHEST_PROTOCOL)))
    except Exception:  # noqa: BLE001
        return math.nan


def _adapter(model, labels, n_features):
    if hasattr(model, "getPredictionForInstance") and hasattr(model, "trainOnInstance"):
        return _Moa(model, labels, n_features)
    if hasattr(model, "predict_one") and hasattr(model, "learn_one"):
        return _River(model, labels)
    if hasattr(model, "predict") and hasattr(model, "learn"):
        return _Generic(model, labels)
    raise TypeError(
        f"cannot record {type(model).__name__}: a multi-label learner has predict_one/learn_one (river), "
        "getPredictionForInstance/trainOnInstance (MOA) or predict/learn"
    )


def _arrays(stream, labels):
    """``(X (n, d), Y (n, q), feature names, label names)`` of a stream."""
    if hasattr(stream, "X") and hasattr(stream, "Y"):  # streamtk.datasets.load_multilabel
        return stream.X, stream.Y, list(stream.feature_names), list(stream.labels) if labels is None else labels
    if isinstance(stream, tuple) and len(stream) == 2:
        X = np.asarray(stream[0], dtype=np.float64)
        Y = np.asarray(stream[1], dtype=np.float64)
        if X.ndim != 2 or Y.ndim != 2 or X.shape[0] != Y.shape[0]:
            raise ValueError(f"stream must be (X (n, d), Y (n, q)) arrays, got shapes {X.shape} and {Y.shape}")
        names = [f"x{i}" for i in range(X.shape[1])]
        return X, Y, names, list(range(Y.shape[1])) if labels is None else labels
    pairs = list(stream)  # an iterable of (x dict, y dict), e.g. a river multi-label dataset
    if not pairs:
        raise ValueError("stream yielded no instance")
    feats = list(pairs[0][0])
    labels = list(pairs[0][1]) if labels is None else labels
    X = np.array([[x.get(f, np.nan) for f in feats] for x, _ in pairs], dtype=np.float64)
    Y = np.array([[float(bool(y.get(lb, False))) for lb in labels] for _, y in pairs])
    return X, Y, feats, labels


def record_multilabel(models, stream, *, labels=None, max_instances=None, memory_every=10_000, progress=None,
                      attrs=None):  # fmt: skip
    """Run multi-label ``models`` test-then-train over ``stream`` and record every instance as a multi-label log.

    Parameters
    ----------
    models : learner, sequence of learners or mapping name -> learner
        river, MOA or generic multi-label learners (see the module docstring).
    stream : ``(X, Y)`` arrays, a :class:`streamtk.datasets.MultilabelStream`, or an iterable of ``(x, y)`` dicts
        ``Y`` holds 0/1 per label (every instance labelled).
    labels : sequence, optional
        The label names (default: the stream's, else ``0 .. q - 1``).
    max_instances : int, optional
        Stop after this many instances.
    memory_every : int or None
        Measure each model's size every this many instances (NaN between measurements).
    progress : bool, optional
        A progress bar (tqdm) on stderr; default: when stderr is a terminal.
    attrs : dict, optional
        Extra attributes of the log.

    Returns
    -------
    xarray.Dataset
        A multi-label log (:func:`streamtk.io.make_multilabel_log`): ``y_true (time, label)``, ``y_pred (model,
        time, label)`` (NaN rows where a model made no prediction), ``time_s``, ``memory_bytes``; evaluate it
        with :func:`streamtk.multilabel_curves` or ``streamtk evaluate``.
    """
    named = dict(models) if isinstance(models, dict) else {type(m).__name__: m for m in np.atleast_1d(models)}
    if not named:
        raise ValueError("models is empty: give at least one learner")
    X, Y, feats, labels = _arrays(stream, labels)
    n = X.shape[0] if max_instances is None else min(X.shape[0], int(max_instances))
    learners = [_adapter(m, labels, X.shape[1]) for m in named.values()]
    q, m = Y.shape[1], len(learners)
    pred = np.full((m, n, q), np.nan)
    secs = np.zeros((m, n))
    mem = np.full((m, n), np.nan)
    bar = None
    if progress or (progress is None and sys.stderr.isatty()):
        from tqdm.auto import tqdm

        bar = tqdm(total=n, desc="record", unit="inst", file=sys.stderr, leave=False)
    perf = time.perf_counter
    for t in range(n):
        x, y = X[t], Y[t]
        xd = None
        for j, L in enumerate(learners):
            if L.form == "dict":
                xd = {f: v for f, v in zip(feats, x.tolist()) if v == v} if xd is None else xd
                xx = xd
            else:
                xx = L.instance(x, y) if L.form == "instance" else x
            t0 = perf()
            p = L.test(xx)
            L.learn(xx, y)
            secs[j, t] = perf() - t0
            if p is not None:
                pred[j, t] = p
            if memory_every is not None and (t % memory_every == 0 or t == n - 1):
                mem[j, t] = L.memory()
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    meta = {"source_format": "streamtk multi-label recorder", "protocol": _PROTOCOL, "features": list(feats),
            **{f"model_{name}": L.describe() for name, L in zip(named, learners)}, **(attrs or {})}  # fmt: skip
    return make_multilabel_log(Y[:n], pred, models=list(named), labels=labels, time_s=secs, memory_bytes=mem,
                               attrs=meta)  # fmt: skip
