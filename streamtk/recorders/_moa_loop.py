"""The test-then-train loop inside the JVM, for MOA learners on a MOA stream.

capymoa's ``prequential_evaluation`` runs MOA learners in a Java loop; a loop driven from Python
costs 3-6 times as much for fast learners. When every model is a MOA learner and the stream is
a capymoa stream, :func:`record` runs this small Java class instead: for a block of instances it
predicts with every learner (``getVotesForInstance``), trains it (``trainOnInstance``), and
writes the class index, each prediction, the normalised votes and the nanoseconds of the
prediction and training into Java arrays that Python copies once per block. The rules are those
of the Python adapters (:class:`streamtk.recorders._learners.MoaLearner`): the first class of
the highest vote (MOA's ``Utils.maxIndex``), votes divided by their sum, no vote (empty, all
zero or a non-finite sum) = missing prediction.

The class is compiled once per MOA jar with the JDK's compiler (``javax.tools``) into the
streamtk cache (``$STREAMTK_CACHE``, else ``~/.cache/streamtk``); without a JDK the Python
loop runs instead (:func:`java_loop` returns ``None``) and the log says so.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

__all__ = ["java_loop", "JavaBlockRunner"]

_SOURCE = r"""
package streamtk.recorder;

import com.yahoo.labs.samoa.instances.Instance;
import moa.classifiers.Classifier;
import moa.streams.InstanceStream;

public final class TestThenTrain {
    private TestThenTrain() {}

    /** Test then train up to n instances; returns how many the stream had. */
    public static int run(InstanceStream stream, Classifier[] learners, int n, int k,
                          int[] y, int[] pred, double[] score, long[] nanos) {
        final int m = learners.length;
        int i = 0;
        while (i < n && stream.hasMoreInstances()) {
            Instance inst = stream.nextInstance().getData();
            int yi = inst.classIsMissing() ? -1 : (int) inst.classValue();
            y[i] = yi;
            for (int j = 0; j < m; j++) {
                long t0 = System.nanoTime();
                double[] v = learners[j].getVotesForInstance(inst);
                if (yi >= 0) {
                    learners[j].trainOnInstance(inst);
                }
                int row = j * n + i;
                nanos[row] = System.nanoTime() - t0;
                double total = 0.0;
                for (int c = 0; c < v.length; c++) {
                    total += v[c];
                }
                int base = row * k;
                if (v.length == 0 || !(total > 0.0) || Double.isInfinite(total)) {
                    pred[row] = -1;
                    for (int c = 0; c < k; c++) {
                        score[base + c] = Double.NaN;
                    }
                } else {
                    int best = 0;
                    for (int c = 1; c < v.length; c++) {
                        if (v[c] > v[best]) {
                            best = c;
                        }
                    }
                    pred[row] = best;
                    for (int c = 0; c < k; c++) {
                        score[base + c] = c < v.length ? v[c] / total : 0.0;
                    }
                }
            }
            i++;
        }
        return i;
    }
}
"""

_CLASS = "streamtk.recorder.TestThenTrain"
_loaded = {}


def _cache_root() -> Path:
    from streamtk.datasets.locate import cache_dir

    return cache_dir() / "java"


def _compile(jar: str) -> Path | None:
    """Compile the class against ``jar`` (once); the folder holding it, or None without a JDK."""
    from jpype import JClass, JString

    key = hashlib.sha256((_SOURCE + jar + str(os.path.getmtime(jar))).encode()).hexdigest()[:16]
    out = _cache_root() / key
    if (out / "streamtk" / "recorder" / "TestThenTrain.class").is_file():
        return out
    compiler = JClass("javax.tools.ToolProvider").getSystemJavaCompiler()
    if compiler is None:
        return None
    src_dir = out / "src" / "streamtk" / "recorder"
    src_dir.mkdir(parents=True, exist_ok=True)
    src = src_dir / "TestThenTrain.java"
    src.write_text(_SOURCE)
    tmp = out.with_name(out.name + f".tmp{os.getpid()}")
    tmp.mkdir(parents=True, exist_ok=True)
    args = ["-classpath", jar, "-d", str(tmp), "-nowarn", str(src)]
    err = JClass("java.io.ByteArrayOutputStream")()
    status = compiler.run(None, None, err, [JString(a) for a in args])
    if status != 0:
        raise RuntimeError(f"compiling the recorder's Java loop failed: {err.toString()}")
    for p in tmp.rglob("*.class"):
        dest = out / p.relative_to(tmp)
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(p, dest)
    return out


def java_loop():
    """The Java class (compiled and loaded on first use), or None when no JDK compiler is available."""
    if "cls" in _loaded:
        return _loaded["cls"]
    import capymoa  # noqa: F401 - starts the JVM with MOA's jar
    import jpype
    from jpype import JClass

    jar = next((p for p in jpype.getClassPath().split(os.pathsep) if p.endswith("moa.jar")), None)
    folder = _compile(jar) if jar else None
    cls = None
    if folder is not None:
        parent = JClass("moa.classifiers.Classifier").class_.getClassLoader()
        url = JClass("java.io.File")(str(folder)).toURI().toURL()
        loader = JClass("java.net.URLClassLoader")([url], parent)
        cls = JClass(_CLASS, loader=loader)
    _loaded["cls"] = cls
    return cls


class JavaBlockRunner:
    """Runs blocks of the Java loop and hands back numpy copies of the block's arrays."""

    def __init__(self, cls, stream, learners, k: int, block: int):
        from jpype import JArray, JClass, JDouble, JInt, JLong

        self.cls, self.stream, self.k, self.block = cls, stream, k, block
        self.m = len(learners)
        self.learners = JArray(JClass("moa.classifiers.Classifier"))(learners)
        self.y = JArray(JInt)(block)
        self.pred = JArray(JInt)(self.m * block)
        self.score = JArray(JDouble)(self.m * block * k)
        self.nanos = JArray(JLong)(self.m * block)

    def run(self, n: int):
        """Up to ``n`` (<= block) instances: ``(count, y, pred, score, seconds)`` (models first)."""
        got = int(self.cls.run(self.stream, self.learners, n, self.k, self.y, self.pred, self.score, self.nanos))
        # model j's rows start at j * n (the stride of this call)
        y = np.asarray(self.y)[:got].copy()
        pred = np.asarray(self.pred)[: self.m * n].reshape(self.m, n)[:, :got].copy()
        score = np.asarray(self.score)[: self.m * n * self.k].reshape(self.m, n, self.k)[:, :got].copy()
        nanos = np.asarray(self.nanos)[: self.m * n].reshape(self.m, n)[:, :got]
        return got, y, pred, score, nanos.astype(np.float64) * 1e-9
