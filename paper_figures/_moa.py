"""MOA (through capymoa's JVM) as the producer of the recorded logs.

The papers ran MOA's learners and generators; so do these scripts when capymoa and a Java runtime
are available. Learners and streams are named by MOA's own command-line strings (e.g.
``"trees.HoeffdingTree -l MC"``, ``"ConceptDriftStream -s (generators.LEDGenerator -i 3) -d
(generators.LEDGeneratorDrift -d 7 -i 3) -p 128000 -w 1"``), parsed by MOA itself
(``moa.options.ClassOption.cliStringToObject``), so a log's attrs say exactly what was run.

The test-then-train loop runs inside the JVM (``java/StreamtkMoaLoop.java``, compiled once into the
log cache when a Java compiler is present) or, without ``javac``, in :class:`PythonLoop`, its
line-by-line Python twin over the same Java objects (about 2-3 times slower; both give the same
predictions, see tests/test_paper_figures.py). For every instance each learner predicts (the class
is ``moa.core.Utils.maxIndex`` of the votes, as in MOA's evaluators; the votes normalised to sum 1
are kept as class scores) and then trains on a copy of the instance with the given weight.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import numpy as np

__all__ = ["status", "capymoa_version", "MoaSession", "PythonLoop"]

_JAVA_SOURCE = Path(__file__).resolve().parent / "java" / "StreamtkMoaLoop.java"


@lru_cache(maxsize=1)
def status():
    """``(True, "")`` when capymoa imports and its JVM runs, else ``(False, reason)``."""
    try:
        import capymoa  # noqa: F401  (starts the JVM)
        import jpype

        jpype.JClass("moa.classifiers.trees.HoeffdingTree")
    except Exception as err:  # noqa: BLE001 - any failure means "use the fallback", with its reason
        return False, f"{type(err).__name__}: {err}".strip()
    return True, ""


def capymoa_version() -> str:
    import capymoa

    return capymoa.__version__


def _moa_jar() -> Path:
    from capymoa.env import capymoa_moa_jar

    return Path(capymoa_moa_jar())


_LOOP_CLASSES: dict = {}


def _compile_loop(cache: Path):
    """The compiled ``StreamtkMoaLoop`` class, or ``None`` (no ``javac``, or it failed); loaded once."""
    key = str(Path(cache).resolve())
    if key not in _LOOP_CLASSES:
        _LOOP_CLASSES[key] = _compile_and_load(Path(cache))
    return _LOOP_CLASSES[key]


def _compile_and_load(cache: Path):
    import jpype

    javac = shutil.which("javac")
    if javac is None:
        return None
    src = _JAVA_SOURCE.read_bytes()
    tag = hashlib.sha256(src + str(_moa_jar().stat().st_size).encode()).hexdigest()[:16]
    out = Path(cache) / f"java-{tag}"
    if not (out / "StreamtkMoaLoop.class").exists():
        tmp = out.with_name(out.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        r = subprocess.run(
            [javac, "-nowarn", "-cp", str(_moa_jar()), "-d", str(tmp), str(_JAVA_SOURCE)],
            capture_output=True,
            text=True,
        )
        if r.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            return None
        shutil.rmtree(out, ignore_errors=True)
        tmp.rename(out)
    url = jpype.JClass("java.io.File")(str(out)).toURI().toURL()
    parent = jpype.JClass("java.lang.Thread").currentThread().getContextClassLoader()
    loader = jpype.JClass("java.net.URLClassLoader")([url], parent)
    return jpype.JClass("StreamtkMoaLoop", loader=loader)


def _scores(v):
    """The Python twin of ``StreamtkMoaLoop.scores`` (float32, same rule)."""
    v = np.asarray(v, dtype=np.float64)
    inf = v == np.inf
    if inf.any():
        return (inf / inf.sum()).astype(np.float32)
    ok = (v > 0) & np.isfinite(v)
    s = v[ok].sum()
    out = np.where(ok, v, 0.0) / s if s > 0 else np.zeros_like(v)
    return out.astype(np.float32)


class PythonLoop:
    """The Python twin of ``StreamtkMoaLoop`` (same semantics, same Java learners)."""

    class Chunk:
        pass

    def __init__(self, learners, num_classes):
        self.learners = list(learners)
        self.num_classes = int(num_classes)
        self.resets = [None] * len(self.learners)
        self.next_reset = [0] * len(self.learners)
        self.position = 0

    def setResets(self, l, positions):  # noqa: N802 - mirrors the Java method
        self.resets[l] = [int(p) for p in positions]
        self.next_reset[l] = 0

    @staticmethod
    def _predicted(votes):
        v = list(votes)
        return 0 if not v else int(np.argmax(v))

    def run(self, stream, data, start, n, train_weight, keep_votes):
        L, C = len(self.learners), self.num_classes
        c = PythonLoop.Chunk()
        c.yTrue = np.zeros(n, dtype=np.int32)
        c.pred = np.zeros(L * n, dtype=np.int32)
        c.votes = np.zeros(L * n * C, dtype=np.float32) if keep_votes else None
        for i in range(n):
            inst = stream.nextInstance().getData() if data is None else data[start + i]
            c.yTrue[i] = int(inst.classValue())
            for l, learner in enumerate(self.learners):
                r = self.resets[l]
                if r is not None:
                    while self.next_reset[l] < len(r) and r[self.next_reset[l]] < self.position:
                        self.next_reset[l] += 1
                    if self.next_reset[l] < len(r) and r[self.next_reset[l]] == self.position:
                        learner.resetLearning()
                        self.next_reset[l] += 1
                v = np.asarray(learner.getVotesForInstance(inst), dtype=np.float64)
                c.pred[l * n + i] = self._predicted(v)
                if keep_votes and v.size:
                    base = (l * n + i) * C
                    c.votes[base : base + min(v.size, C)] = _scores(v[:C])
                w = 1.0 if train_weight is None else float(train_weight[l * n + i])
                if w > 0:
                    t = inst.copy()
                    t.setWeight(w)
                    learner.trainOnInstance(t)
            self.position += 1
        return c

    def predict(self, holdout):
        return np.array([[self._predicted(m.getVotesForInstance(h)) for h in holdout] for m in self.learners]).ravel()


class MoaSession:
    """MOA objects for one log: the learners, their loop and helpers for streams and holdout sets.

    Parameters
    ----------
    learners : sequence of str
        MOA command lines of the classifiers (relative to ``moa.classifiers``).
    header : Java ``InstancesHeader``
        The stream's header (from :meth:`stream` or :func:`header`).
    cache : Path
        Where the compiled loop class lives.
    """

    def __init__(self, learners, header, cache, *, python_loop=False):
        import jpype

        self.header = header
        self.num_classes = int(header.numClasses())
        objs = [make_learner(spec, header) for spec in learners]
        cls = None if python_loop else _compile_loop(cache)
        if cls is None:
            self.loop = PythonLoop(objs, self.num_classes)
            self.engine = "Python loop over MOA (JPype)"
        else:
            arr = jpype.JArray(jpype.JClass("moa.classifiers.Classifier"))(objs)
            self.loop = cls(arr, self.num_classes)
            self.engine = "Java loop (StreamtkMoaLoop) over MOA"
        self.loop_class = cls
        self.n_learners = len(objs)

    def set_resets(self, l, positions):
        import jpype

        pos = np.sort(np.asarray(positions, dtype=np.int64))
        self.loop.setResets(l, pos if isinstance(self.loop, PythonLoop) else jpype.JArray(jpype.JLong)(pos))

    def run(self, source, n, *, start=0, train_weight=None, keep_votes=False):
        """Test-then-train over ``n`` instances of ``source`` (a MOA stream or a Java ``Instance[]``).

        Returns ``(y_true (n,), y_pred (L, n), votes (L, n, C) or None)`` as numpy arrays.
        """
        import jpype

        is_array = not hasattr(source, "nextInstance")
        tw = None
        if train_weight is not None:
            tw = np.ascontiguousarray(train_weight, dtype=np.float64).reshape(-1)
            if not isinstance(self.loop, PythonLoop):
                tw = jpype.JArray(jpype.JDouble)(tw)
        c = self.loop.run(
            None if is_array else source, source if is_array else None, int(start), int(n), tw, keep_votes
        )
        y = np.asarray(c.yTrue, dtype=np.int64)
        pred = np.asarray(c.pred, dtype=np.int64).reshape(self.n_learners, n)
        votes = None
        if keep_votes:
            votes = np.asarray(c.votes, dtype=np.float32).reshape(self.n_learners, n, self.num_classes)
        return y, pred, votes

    def predict(self, holdout):
        """Predictions ``(L, m)`` of every learner on a Java ``Instance[]`` (no training)."""
        m = len(holdout)
        return np.asarray(self.loop.predict(holdout), dtype=np.int64).reshape(self.n_learners, m)


def _cli_object(cli, java_type):
    import jpype

    ClassOption = jpype.JClass("moa.options.ClassOption")
    obj = ClassOption.cliStringToObject(cli, jpype.JClass(java_type), None)
    return obj


def make_learner(cli, header):
    """A prepared MOA classifier from its command line, e.g. ``"bayes.NaiveBayes"``.

    A trailing ``" @seed=<int>"`` sets the learner's random seed (``Classifier.setRandomSeed``) for
    learners such as ``meta.LeveragingBag`` that have no ``-r`` option.
    """
    seed = None
    if " @seed=" in cli:
        cli, _, s = cli.partition(" @seed=")
        seed = int(s)
    obj = _cli_object(cli, "moa.classifiers.Classifier")
    if seed is not None:
        obj.setRandomSeed(seed)
    obj.setModelContext(header)
    obj.prepareForUse()
    return obj


def make_stream(cli):
    """A prepared MOA stream from its command line (relative to ``moa.streams``)."""
    obj = _cli_object(cli, "moa.streams.ExampleStream")
    obj.prepareForUse()
    return obj


def take(stream, m):
    """The next ``m`` instances of a MOA stream as a Java ``Instance[]``."""
    import jpype

    arr = jpype.JArray(jpype.JClass("com.yahoo.labs.samoa.instances.Instance"))(int(m))
    for j in range(int(m)):
        arr[j] = stream.nextInstance().getData()
    return arr


def header(feature_names, classes, *, nominal=None, name="streamtk"):
    """A MOA ``InstancesHeader``: numeric features except ``nominal`` (name -> number of values),
    then the nominal class with values ``classes`` (as strings)."""
    from capymoa.stream import Schema

    nominal = dict(nominal or {})
    names = [str(f) for f in feature_names]
    cats = {f: [str(v) for v in range(int(k))] for f, k in nominal.items()}
    cats["class"] = [str(c) for c in classes]
    schema = Schema.from_custom(features=names + ["class"], target="class", categories=cats, name=name)
    return schema.get_moa_header()


def instances(hdr, X, y_codes):
    """A Java ``Instance[]`` from features ``X`` (n, d) (NaN = missing; nominal columns hold codes)
    and class codes."""
    import jpype

    X = np.ascontiguousarray(X, dtype=np.float64)
    n, d = X.shape
    y = np.ascontiguousarray(y_codes, dtype=np.int32)
    xs = jpype.JArray(jpype.JDouble)(X.reshape(-1))
    ys = jpype.JArray(jpype.JInt)(y)
    cls = _compile_loop_for_arrays()
    if cls is not None:
        return cls.makeInstances(hdr, xs, n, d, ys)
    Dense = jpype.JClass("com.yahoo.labs.samoa.instances.DenseInstance")
    arr = jpype.JArray(jpype.JClass("com.yahoo.labs.samoa.instances.Instance"))(n)
    for i in range(n):
        vals = jpype.JArray(jpype.JDouble)(np.append(X[i], y[i]))
        inst = Dense(1.0, vals)
        inst.setDataset(hdr)
        arr[i] = inst
    return arr


_ARRAY_LOOP: dict = {}


def set_cache(cache):
    """Where the compiled loop class goes (called by the producer before building instances)."""
    _ARRAY_LOOP["cache"] = Path(cache)


def _compile_loop_for_arrays():
    cache = _ARRAY_LOOP.get("cache")
    return None if cache is None else _compile_loop(cache)
