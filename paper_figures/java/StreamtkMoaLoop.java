// Test-then-train loop over MOA learners, run inside the JVM for speed (streamtk paper_figures).
//
// For every instance, every learner first predicts it (MOA's getVotesForInstance; the predicted
// class is moa.core.Utils.maxIndex of the votes, as in MOA's evaluators) and then trains on it
// (with the given training weight; 0 = no training). A learner can be reset (resetLearning) before
// given positions. paper_figures/_moa.py drives this class and has a pure-Python (JPype) twin of
// the same loop, used when no Java compiler is available; both give the same predictions.

import com.yahoo.labs.samoa.instances.DenseInstance;
import com.yahoo.labs.samoa.instances.Instance;
import com.yahoo.labs.samoa.instances.InstancesHeader;
import moa.classifiers.Classifier;
import moa.core.Utils;
import moa.streams.ExampleStream;

public final class StreamtkMoaLoop {
    private final Classifier[] learners;
    private final int numClasses;
    private final long[][] resets;
    private final int[] nextReset;
    private long position = 0;

    /** Result of one chunk: true class codes, predictions (learner-major) and optionally the votes. */
    public static final class Chunk {
        public int[] yTrue;
        public int[] pred;
        public float[] votes;
    }

    public StreamtkMoaLoop(Classifier[] learners, int numClasses) {
        this.learners = learners;
        this.numClasses = numClasses;
        this.resets = new long[learners.length][];
        this.nextReset = new int[learners.length];
    }

    /** Reset learner l (resetLearning) before predicting each of the sorted 0-based positions. */
    public void setResets(int l, long[] sortedPositions) {
        resets[l] = sortedPositions;
        nextReset[l] = 0;
    }

    public long getPosition() {
        return position;
    }

    /** Dense instances with the given header from a row-major (n, d) array and class codes. */
    public static Instance[] makeInstances(InstancesHeader header, double[] x, int n, int d, int[] y) {
        Instance[] out = new Instance[n];
        for (int i = 0; i < n; i++) {
            double[] values = new double[d + 1];
            System.arraycopy(x, i * d, values, 0, d);
            values[d] = y[i];
            Instance inst = new DenseInstance(1.0, values);
            inst.setDataset(header);
            out[i] = inst;
        }
        return out;
    }

    /**
     * Class scores from MOA's votes: the finite, positive votes normalised to sum 1; when a vote is
     * +infinity, the infinite votes share the mass equally; NaN and negative votes count as 0; all 0
     * when nothing is left.
     */
    static void scores(double[] v, float[] out, int base, int numClasses) {
        int m = Math.min(v.length, numClasses);
        int inf = 0;
        double s = 0;
        for (int k = 0; k < m; k++) {
            if (v[k] == Double.POSITIVE_INFINITY) {
                inf++;
            } else if (v[k] > 0 && v[k] < Double.POSITIVE_INFINITY) {
                s += v[k];
            }
        }
        for (int k = 0; k < m; k++) {
            double x;
            if (inf > 0) {
                x = v[k] == Double.POSITIVE_INFINITY ? 1.0 / inf : 0.0;
            } else {
                x = (s > 0 && v[k] > 0) ? v[k] / s : 0.0;
            }
            out[base + k] = (float) x;
        }
    }

    private static int predicted(double[] votes) {
        return votes.length == 0 ? 0 : Utils.maxIndex(votes);
    }

    /**
     * Test-then-train over the next n instances, read from stream (when data is null) or from
     * data[start .. start + n). trainWeight is learner-major (L * n) or null (weight 1).
     */
    public Chunk run(ExampleStream stream, Instance[] data, int start, int n, double[] trainWeight, boolean keepVotes) {
        int L = learners.length;
        Chunk c = new Chunk();
        c.yTrue = new int[n];
        c.pred = new int[L * n];
        c.votes = keepVotes ? new float[L * n * numClasses] : null;
        for (int i = 0; i < n; i++) {
            Instance inst = data == null ? (Instance) stream.nextInstance().getData() : data[start + i];
            c.yTrue[i] = (int) inst.classValue();
            for (int l = 0; l < L; l++) {
                long[] r = resets[l];
                if (r != null) {
                    while (nextReset[l] < r.length && r[nextReset[l]] < position) {
                        nextReset[l]++;
                    }
                    if (nextReset[l] < r.length && r[nextReset[l]] == position) {
                        learners[l].resetLearning();
                        nextReset[l]++;
                    }
                }
                double[] v = learners[l].getVotesForInstance(inst);
                c.pred[l * n + i] = predicted(v);
                if (keepVotes) {
                    scores(v, c.votes, (l * n + i) * numClasses, numClasses);
                }
                double w = trainWeight == null ? 1.0 : trainWeight[l * n + i];
                if (w > 0) {
                    Instance t = inst.copy();
                    t.setWeight(w);
                    learners[l].trainOnInstance(t);
                }
            }
            position++;
        }
        return c;
    }

    /** Predictions (learner-major, L * m) of every learner on the instances, without training. */
    public int[] predict(Instance[] holdout) {
        int L = learners.length;
        int m = holdout.length;
        int[] out = new int[L * m];
        for (int l = 0; l < L; l++) {
            for (int j = 0; j < m; j++) {
                out[l * m + j] = predicted(learners[l].getVotesForInstance(holdout[j]));
            }
        }
        return out;
    }

    /** The next m instances of a stream (e.g. a holdout set). */
    public static Instance[] take(ExampleStream stream, int m) {
        Instance[] out = new Instance[m];
        for (int j = 0; j < m; j++) {
            out[j] = (Instance) stream.nextInstance().getData();
        }
        return out;
    }
}
