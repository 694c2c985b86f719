"""MOA itself as a benchmark baseline, timed inside the JVM (where capymoa and a JDK are installed).

capymoa ships MOA's jar and starts a Java virtual machine through JPype. Calling MOA
once per instance from Python would time JPype's crossing (microseconds per call), not
MOA, so a small Java harness (:data:`HARNESS`, compiled here with ``javac`` against the
jar) runs MOA's own classes in a Java loop over the recorded arrays, as MOA's tasks do,
and reports the elapsed time of that loop (after a warm-up run for the JIT).

Usage, before anything else starts the JVM::

    moa = MoaBaseline.start()          # None, with the reason in MoaBaseline.why_not
    if moa:
        seconds, changes = moa.detector("DDM", x)
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

HARNESS = r"""
import com.yahoo.labs.samoa.instances.Attribute;
import com.yahoo.labs.samoa.instances.DenseInstance;
import com.yahoo.labs.samoa.instances.Instances;
import java.util.ArrayList;
import java.util.Arrays;
import moa.classifiers.core.driftdetection.ChangeDetector;
import com.yahoo.labs.samoa.instances.InstancesHeader;
import com.yahoo.labs.samoa.instances.MultiLabelPrediction;
import com.yahoo.labs.samoa.instances.Range;
import java.io.StringReader;
import moa.core.InstanceExample;
import moa.core.Measurement;
import moa.evaluation.LearningPerformanceEvaluator;
import moa.evaluation.MultiTargetPerformanceEvaluator;

/** streamtk's benchmarks: MOA's classes in a Java loop over recorded arrays. */
public final class StreamtkMoaHarness {
    private StreamtkMoaHarness() {}

    /** Every input to the detector; returns {elapsed nanoseconds, changes flagged}. */
    public static long[] detector(ChangeDetector detector, double[] x) {
        long changes = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < x.length; i++) {
            detector.input(x[i]);
            if (detector.getChange()) {
                changes++;
            }
        }
        return new long[] {System.nanoTime() - t0, changes};
    }

    /** Every instance to each evaluator (one vote per class, or votes {1 - s, s} from the positive-class
     *  score s when score is not null), reading every evaluator's measurements each `every` instances and
     *  at the last; returns {elapsed nanoseconds, sum of the second measurement read (keeps the reads)}. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    public static double[] evaluators(LearningPerformanceEvaluator[] evaluators, int[] y, int[] p, double[] score,
                                      int k, int every) {
        ArrayList<String> values = new ArrayList<>();
        for (int c = 0; c < k; c++) {
            values.add(Integer.toString(c));
        }
        ArrayList<Attribute> attributes = new ArrayList<>();
        attributes.add(new Attribute("class", values));
        Instances header = new Instances("", attributes, 1);
        header.setClassIndex(0);
        DenseInstance instance = new DenseInstance(1);
        instance.setDataset(header);
        double[] votes = new double[k];
        double sink = 0.0;
        int n = y.length;
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            instance.setClassValue(y[i]);
            if (score != null) {
                votes[0] = 1.0 - score[i];
                votes[1] = score[i];
            } else {
                Arrays.fill(votes, 0.0);
                votes[p[i]] = 1.0;
            }
            InstanceExample example = new InstanceExample(instance);
            boolean read = (i + 1) % every == 0 || i == n - 1;
            for (LearningPerformanceEvaluator evaluator : evaluators) {
                evaluator.addResult(example, votes);
                if (read) {
                    Measurement[] m = evaluator.getPerformanceMeasurements();
                    sink += m[1].getValue();
                }
            }
        }
        return new double[] {System.nanoTime() - t0, sink};
    }

    /** Every instance (numeric target y[i]) to each regression or prediction-interval evaluator, the prediction
     *  {cols[0][i], cols[1][i], ...} (one column: a point prediction; three: lower, point, upper), reading the
     *  measurements each `every` instances and at the last; returns {elapsed nanoseconds, sum of the first
     *  measurement read}. */
    public static double[] regression(LearningPerformanceEvaluator[] evaluators, double[] y, double[][] cols,
                                      int every) {
        ArrayList<Attribute> attributes = new ArrayList<>();
        attributes.add(new Attribute("x"));
        attributes.add(new Attribute("y"));
        Instances header = new Instances("", attributes, 1);
        header.setClassIndex(1);
        DenseInstance instance = new DenseInstance(2);
        instance.setDataset(header);
        int k = cols.length;
        double sink = 0.0;
        int n = y.length;
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            instance.setClassValue(y[i]);
            double[] prediction = new double[k];
            for (int c = 0; c < k; c++) {
                prediction[c] = cols[c][i];
            }
            InstanceExample example = new InstanceExample(instance);
            boolean read = (i + 1) % every == 0 || i == n - 1;
            for (LearningPerformanceEvaluator evaluator : evaluators) {
                evaluator.addResult(example, prediction);
                if (read) {
                    Measurement[] m = evaluator.getPerformanceMeasurements();
                    sink += m[0].getValue();
                }
            }
        }
        return new double[] {System.nanoTime() - t0, sink};
    }

    /** Every instance to a multi-label evaluator: y and p hold n rows of q 0/1 labels (row-major); the
     *  prediction's votes are {1 - p, p} per label; measurements read every `every` instances and at the last;
     *  returns {elapsed nanoseconds, sum of the first measurement read}. */
    public static double[] multilabel(MultiTargetPerformanceEvaluator evaluator, int[] y, int[] p, int q, int every)
            throws Exception {
        StringBuilder arff = new StringBuilder("@relation streamtk\n");
        for (int j = 0; j < q; j++) {
            arff.append("@attribute L").append(j).append(" {0,1}\n");
        }
        arff.append("@attribute x numeric\n@data\n");
        InstancesHeader header = new InstancesHeader(
            new Instances(new StringReader(arff.toString()), new Range("1-" + q)));
        DenseInstance instance = new DenseInstance(q + 1);
        instance.setDataset(header);
        MultiLabelPrediction prediction = new MultiLabelPrediction(q);
        double sink = 0.0;
        int n = y.length / q;
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < q; j++) {
                instance.setValue(j, y[i * q + j]);
                prediction.setVotes(j, new double[] {1 - p[i * q + j], p[i * q + j]});
            }
            evaluator.addResult(new InstanceExample(instance), prediction);
            if ((i + 1) % every == 0 || i == n - 1) {
                sink += evaluator.getPerformanceMeasurements()[0].getValue();
            }
        }
        return new double[] {System.nanoTime() - t0, sink};
    }
}
"""

DETECTORS = {
    "ADWIN": "moa.classifiers.core.driftdetection.ADWINChangeDetector",
    "DDM": "moa.classifiers.core.driftdetection.DDM",
    "EDDM": "moa.classifiers.core.driftdetection.EDDM",
    "PageHinkley": "moa.classifiers.core.driftdetection.PageHinkleyDM",
}


class MoaBaseline:
    """MOA's detectors and evaluators timed inside the JVM; :meth:`start` returns None when unavailable."""

    why_not = ""

    def __init__(self, jpype, harness):
        self._jpype = jpype
        self._harness = harness

    @classmethod
    def start(cls):
        spec = importlib.util.find_spec("capymoa")
        if spec is None:
            cls.why_not = "capymoa is not installed"
            return None
        jar = Path(spec.submodule_search_locations[0]) / "jar" / "moa.jar"
        javac = shutil.which("javac")
        if not jar.is_file() or javac is None:
            cls.why_not = "capymoa's moa.jar or javac (a JDK) is missing"
            return None
        import jpype

        if jpype.isJVMStarted():
            cls.why_not = "the JVM was started before the harness could join its class path"
            return None
        build = Path(tempfile.mkdtemp(prefix="streamtk-moa-"))
        (build / "StreamtkMoaHarness.java").write_text(HARNESS)
        source = str(build / "StreamtkMoaHarness.java")
        r = subprocess.run([javac, "-nowarn", "-cp", str(jar), "-d", str(build), source],
                           capture_output=True, text=True)  # fmt: skip
        if r.returncode != 0:
            cls.why_not = f"javac failed: {r.stderr.strip()[:200]}"
            return None
        jpype.addClassPath(str(build))
        try:
            import capymoa  # noqa: F401  (starts the JVM with MOA's jar and the harness)
        except Exception as err:  # capymoa cannot start a JVM here
            cls.why_not = f"capymoa cannot start the JVM: {err}"
            return None
        return cls(jpype, jpype.JClass("StreamtkMoaHarness"))

    @classmethod
    def start_or_say_why(cls, skip=False):
        """:meth:`start`, or None after printing why MOA is not measured (``skip``: the caller's ``--no-moa``)."""
        moa = None if skip else cls.start()
        if moa is None:
            print(f"MOA: not measured ({'--no-moa' if skip else cls.why_not})")
        return moa

    def _doubles(self, a):
        return self._jpype.JArray(self._jpype.JDouble)(np.ascontiguousarray(a, dtype=np.float64))

    def _ints(self, a):
        return self._jpype.JArray(self._jpype.JInt)(np.ascontiguousarray(a, dtype=np.int32))

    def detector(self, name, x, **options):
        """Seconds MOA's detector ``name`` (:data:`DETECTORS`) takes over ``x`` (best of 2 after a warm-up on
        ``x``'s first 10^6 inputs), and the changes it flags. ``options``: MOA option fields and values."""
        cls = self._jpype.JClass(DETECTORS[name])

        def make():
            d = cls()
            for field, value in options.items():
                getattr(d, field).setValue(value)
            d.prepareForUse()
            return d

        xs = self._doubles(x)
        self._harness.detector(make(), self._doubles(x[:1_000_000]))
        best = None
        for _ in range(2):
            ns, changes = self._harness.detector(make(), xs)
            best = ns if best is None else min(best, ns)
        return best / 1e9, int(changes)

    def evaluators(self, make_all, y, p, k, every, score=None):
        """Seconds MOA takes to feed every instance to the evaluators ``make_all()`` returns (a list of
        configured, unprepared MOA evaluators), reading their measurements every ``every`` instances; best of
        2 after a warm-up on the first 10^5 instances."""
        jp = self._jpype

        def run(m):
            evs = make_all()
            arr = jp.JArray(jp.JClass("moa.evaluation.LearningPerformanceEvaluator"))(len(evs))
            for i, ev in enumerate(evs):
                arr[i] = ev
            s = None if score is None else self._doubles(score[:m])
            ns, _ = self._harness.evaluators(arr, self._ints(y[:m]), self._ints(p[:m]), s, k, every)
            return ns / 1e9

        run(min(len(y), 100_000))
        return min(run(len(y)) for _ in range(2))

    def regression_evaluators(self, make_all, y, cols, every):
        """Seconds MOA takes to feed every instance (targets ``y``, prediction columns ``cols (k, n)``: a point
        prediction, or lower, point, upper) to the regression or interval evaluators ``make_all()`` returns, reading
        their measurements every ``every`` instances; best of 2 after a warm-up on the first 10^5 instances."""
        jp = self._jpype

        def run(m):
            evs = make_all()
            arr = jp.JArray(jp.JClass("moa.evaluation.LearningPerformanceEvaluator"))(len(evs))
            for i, ev in enumerate(evs):
                arr[i] = ev
            c = jp.JArray(jp.JDouble, 2)([self._doubles(col[:m]) for col in cols])
            ns, _ = self._harness.regression(arr, self._doubles(y[:m]), c, every)
            return ns / 1e9

        run(min(len(y), 100_000))
        return min(run(len(y)) for _ in range(2))

    def multilabel(self, y, p, every):
        """Seconds MOA's ``BasicMultiLabelPerformanceEvaluator`` takes over label sets ``y``, ``p`` ``(n, q)`` (0/1),
        reading its measurements every ``every`` instances; best of 2 after a warm-up on the first 10^5."""
        jp = self._jpype
        q = y.shape[1]

        def run(m):
            ev = jp.JClass("moa.evaluation.BasicMultiLabelPerformanceEvaluator")()
            ns, _ = self._harness.multilabel(ev, self._ints(y[:m].reshape(-1)), self._ints(p[:m].reshape(-1)), q, every)
            return ns / 1e9

        run(min(len(y), 100_000))
        return min(run(len(y)) for _ in range(2))

    def evaluator(self, class_name, **options):
        """A new MOA evaluator ``moa.evaluation.<class_name>`` with option fields set (``widthOption=1000``)."""
        ev = self._jpype.JClass(f"moa.evaluation.{class_name}")()
        for field, value in options.items():
            getattr(ev, field).setValue(value)
        return ev
