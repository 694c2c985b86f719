"""Benchmark: the imbalanced family (average precision, PR AUC, scored AUC, pos/neg ratio) against the
classification engine, river and MOA.

    python benchmarks/bench_imbalanced.py [--n 1000000] [--decimals 3] [--river-n 20000] [--moa-n 200000]
                                          [--reps 3] [--no-moa]

A detector's stream of ``n`` instances, 5 % positives (rare events), anomaly scores in [0, 1] rounded to
``--decimals`` digits (ties, as logged scores have), positives' scores shifted up; predictions ``score > 0.5``.
One numba thread, CPU seconds (``time.process_time``), best of ``--reps`` runs alternated in this process
(the machine is shared):

* ``every=1000`` with the estimators of ``benchmarks/bench_engine.py`` (prequential, windows 100/1000/10000,
  fading 0.99/0.999): the four imbalanced metrics (``streamtk.evaluation.scores.auc_curves``), ``auc`` alone
  (the Fenwick engine they extend), beside the classification engine (``streamtk.evaluate``, the 8 metrics of
  bench_engine) on the same ``n`` and estimators, with the peak resident memory of each call;
* river's ``metrics.RollingPRAUC`` with windows 100/1000/10000 on ``--river-n`` instances (updated per
  instance, read every 1000), and on a tenth of them read at every instance (a progressive evaluation's
  curve), against streamtk's ``pr_auc`` and ``average_precision`` on the same windows (``every=1000``,
  ``every=1``);
* MOA's ``BasicAUCImbalancedPerformanceEvaluator`` (prequential, AUC on) and
  ``WindowAUCImbalancedPerformanceEvaluator`` (width 1000) on ``--moa-n`` instances, timed inside the JVM
  (``benchmarks/_moa.py``), read every 1000 instances, against ``convention="moa"`` on the same estimator and
  the same measures (``auc``, ``sauc``, ``pos_neg_ratio``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout's streamtk
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _moa import MoaBaseline  # noqa: E402
from bench_dense import peak_memory  # noqa: E402
from bench_engine import FADING, METRICS, WINDOWS  # noqa: E402

NAMES = ["average_precision", "pr_auc", "sauc", "pos_neg_ratio"]
MOA_NAMES = ["auc", "sauc", "pos_neg_ratio"]


def make_stream(n, decimals, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.05).astype(np.int8)
    s = np.clip(0.7 * rng.random(n) + 0.3 * y * rng.random(n), 0.0, 1.0)
    s = np.round(s, decimals) if decimals > 0 else s
    return y, s, (s > 0.5).astype(np.int8)


def cpu(f):
    t = time.process_time()
    f()
    return time.process_time() - t


def best(fns, reps):
    """Best CPU seconds of each function, run alternately ``reps`` times."""
    times = {k: [] for k in fns}
    for _ in range(reps):
        for k, f in fns.items():
            times[k].append(cpu(f))
    return {k: min(v) for k, v in times.items()}


def river_seconds(y, s, windows, read):
    """CPU seconds per instance of river's RollingPRAUC over each window (updated per instance, read every ``read``)."""
    from river import metrics

    ms = [metrics.RollingPRAUC(window_size=w) for w in windows]
    yb, sb = y.astype(bool).tolist(), s.tolist()
    t = time.process_time()
    for i, (a, b) in enumerate(zip(yb, sb)):
        for m in ms:
            m.update(a, b)
        if (i + 1) % read == 0:
            for m in ms:
                m.get()
    return (time.process_time() - t) / len(yb)


def moa_evaluators(moa, kind):
    def make():
        if kind == "prequential":
            ev = moa.evaluator("BasicAUCImbalancedPerformanceEvaluator")
            ev.calculateAUC.set()
        else:
            ev = moa.evaluator("WindowAUCImbalancedPerformanceEvaluator", widthOption=1000)
        return [ev]

    return make


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--decimals", type=int, default=3, help="round the scores (0: distinct float64 scores)")
    ap.add_argument("--river-n", type=int, default=20_000)
    ap.add_argument("--moa-n", type=int, default=200_000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--no-moa", action="store_true")
    args = ap.parse_args(argv)
    moa = MoaBaseline.start_or_say_why(args.no_moa)  # before streamtk: the JVM joins the harness's class path
    import streamtk
    from streamtk.evaluation.scores import auc_curves

    n = args.n
    y, s, p = make_stream(n, args.decimals)
    kw = dict(windows=WINDOWS, fading=FADING, every=1000)
    fns = {
        "imbalanced, 4 metrics": lambda: auc_curves(y, s, y_pred=p, metrics=NAMES, **kw),
        "auc alone": lambda: auc_curves(y, s, metrics=["auc"], **kw),
        "classification": lambda: streamtk.evaluate(y, p, metrics=METRICS, **kw),
    }
    m = min(n, 5000)
    auc_curves(y[:m], s[:m], y_pred=p[:m], metrics=NAMES, **kw), auc_curves(y[:m], s[:m], metrics=["auc"], **kw)
    streamtk.evaluate(y[:m], p[:m], metrics=METRICS, **kw)  # compiled before timing
    t = best(fns, args.reps)
    print(f"n = {n:,} instances (5 % positives, scores rounded to {args.decimals} decimals), estimators prequential "
          f"+ windows {WINDOWS} + fading {FADING}, every=1000, 1 thread, best of {args.reps}:")  # fmt: skip
    base = t["classification"]
    for k, v in t.items():
        peak, _ = peak_memory(fns[k])
        print(f"  {k:<24}{n / v / 1e6:8.2f} M inst/s  {v:7.3f} s  {v / base:6.2f} x classification  "
              f"peak {peak / 2**20:5.0f} MB")  # fmt: skip

    rn = min(args.river_n, n)
    for read, m_r in ((1000, rn), (1, max(rn // 10, 1000))):
        per_river = river_seconds(y[:m_r], s[:m_r], WINDOWS, read)
        f = lambda: auc_curves(y[:m_r], s[:m_r], metrics=["pr_auc", "average_precision"], windows=WINDOWS, every=read)  # noqa: E731
        f()
        ours = best({"s": f}, args.reps)["s"] / m_r
        print(f"river RollingPRAUC (windows {WINDOWS}, read every {read}, {m_r:,} instances): "
              f"{1 / per_river / 1e3:.1f} k inst/s; streamtk pr_auc + average_precision (prequential + the same "
              f"windows, every={read}) {1 / ours / 1e6:.3f} M inst/s: {per_river / ours:,.1f} x")  # fmt: skip

    if moa is not None:
        mn = min(args.moa_n, n)
        for kind, est in (("prequential", {}), ("window", {"windows": [1000]})):
            moa_s = moa.evaluators(moa_evaluators(moa, kind), y[:mn], p[:mn], 2, 1000, score=s[:mn]) / mn
            f = lambda: auc_curves(y[:mn], s[:mn], metrics=MOA_NAMES, convention="moa", every=1000, **est)  # noqa: E731
            ours = best({"s": f}, args.reps)["s"] / mn
            name = "BasicAUCImbalanced" if kind == "prequential" else "WindowAUCImbalanced(width=1000)"
            print(f"MOA {name} ({mn:,} instances, read every 1000): {1 / moa_s / 1e6:.3f} M inst/s; streamtk "
                  f"convention='moa' (prequential{' + window 1000' if est else ''}, {', '.join(MOA_NAMES)}) "
                  f"{1 / ours / 1e6:.2f} M inst/s: {moa_s / ours:,.1f} x")  # fmt: skip


if __name__ == "__main__":
    main()
