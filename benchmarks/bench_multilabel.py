"""Benchmark: the multi-label family (``streamtk.multilabel_curves``) against the classification engine, river, MOA.

    python benchmarks/bench_multilabel.py [--n 1000000] [--q 5] [--river-n 20000] [--moa-n 1000000]
                                          [--dense-n 100000] [--reps 3] [--no-moa]

A stream of ``n`` instances with ``q`` labels (label ``j`` true with probability ``0.2 + 0.1 j``, each predicted
label flipped with probability 0.15), one numba thread, CPU seconds (``time.process_time``), best of
``--reps`` runs alternated in this process (the machine is shared):

* ``every=1000`` with the estimators of ``benchmarks/bench_engine.py`` (prequential, windows 100/1000/10000,
  fading 0.99/0.999): every multi-label metric, and the example-based and micro metrics alone (no per-label
  statistics); beside the classification engine (``streamtk.evaluate``, the 8 metrics of bench_engine) on one
  binary label column -- the same ``n`` and estimators -- and on the ``q`` label columns as ``q`` series (the
  binary-relevance evaluation of the same predictions);
* river's ``metrics.multioutput`` (ExactMatch, SampleAverage of Jaccard/Precision/F1, MicroAverage F1,
  MacroAverage F1) prequential and with ``utils.Rolling`` windows 100/1000/10000 on ``--river-n`` instances,
  per instance, against streamtk on the same metrics and estimators;
* MOA's ``BasicMultiLabelPerformanceEvaluator`` (its only estimator, prequential; read every 1000 instances,
  timed inside the JVM: ``benchmarks/_moa.py``) against ``convention="moa"`` prequential;
* dense curves (``every=1``) on ``--dense-n`` instances against the fresh-write floor (allocating and writing
  arrays of the same shapes, ``benchmarks/bench_dense.py``), and the peak resident memory of the call.
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
from bench_dense import floor, output_arrays, peak_memory  # noqa: E402
from bench_engine import FADING, METRICS, WINDOWS  # noqa: E402

EXAMPLE = ["hamming_loss", "exact_match", "jaccard", "precision_samples", "recall_samples", "f1_samples",
           "precision_micro", "recall_micro", "f1_micro"]  # fmt: skip
RIVER = ["exact_match", "jaccard", "precision_samples", "f1_samples", "f1_micro", "f1_macro"]


def make_stream(n, q, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random((n, q)) < 0.2 + 0.1 * np.arange(q)).astype(np.uint8)
    p = np.where(rng.random((n, q)) < 0.85, y, 1 - y).astype(np.uint8)
    return y, p


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


def river_seconds(y, p, windows):
    """CPU seconds per instance of river's multi-output metrics (prequential and rolling windows)."""
    from river import metrics, utils

    mo = metrics.multioutput
    makers = [(mo.ExactMatch, None), (mo.SampleAverage, metrics.Jaccard), (mo.SampleAverage, metrics.Precision),
              (mo.SampleAverage, metrics.F1), (mo.MicroAverage, metrics.F1), (mo.MacroAverage, metrics.F1)]  # fmt: skip
    ms = []
    for cls, inner in makers:
        args = {} if inner is None else {"metric": inner()}
        ms.append(cls(**args))
        for w in windows:
            ms.append(utils.Rolling(cls, window_size=w, **({} if inner is None else {"metric": inner()})))
    q = y.shape[1]
    rows_t = [{j: bool(v) for j, v in zip(range(q), r)} for r in y.tolist()]
    rows_p = [{j: bool(v) for j, v in zip(range(q), r)} for r in p.tolist()]
    t = time.process_time()
    for i, (a, b) in enumerate(zip(rows_t, rows_p)):
        for m in ms:
            m.update(a, b)
        if (i + 1) % 1000 == 0:
            for m in ms:
                m.get()
    return (time.process_time() - t) / len(rows_t)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--q", type=int, default=5)
    ap.add_argument("--river-n", type=int, default=20_000)
    ap.add_argument("--moa-n", type=int, default=1_000_000)
    ap.add_argument("--dense-n", type=int, default=100_000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--no-moa", action="store_true")
    args = ap.parse_args(argv)
    moa = MoaBaseline.start_or_say_why(args.no_moa)  # before streamtk: the JVM joins the harness's class path
    import streamtk

    n, q = args.n, args.q
    y, p = make_stream(n, q)
    yc, pc = y[:, 0].astype(np.int8), p[:, 0].astype(np.int8)
    br_y = y.T.astype(np.int8)  # binary relevance: q series of one label each
    kw = dict(windows=WINDOWS, fading=FADING, every=1000)
    ml = streamtk.multilabel_curves
    fns = {
        "multilabel, every metric": lambda: ml(y, p, **kw),
        "multilabel, example + micro": lambda: ml(y, p, metrics=EXAMPLE, **kw),
        "classification, 1 label": lambda: streamtk.evaluate(yc, pc, metrics=METRICS, **kw),
        f"classification, {q} labels": lambda: [
            streamtk.evaluate(br_y[j], p[:, j], metrics=METRICS, **kw) for j in range(q)
        ],  # fmt: skip
    }
    for f in fns.values():  # compile
        f.__call__() if n <= 20_000 else None
    ml(y[:5000], p[:5000], **kw), ml(y[:5000], p[:5000], metrics=EXAMPLE, **kw)
    streamtk.evaluate(yc[:5000], pc[:5000], metrics=METRICS, **kw)
    t = best(fns, args.reps)
    print(f"n = {n:,} instances, q = {q} labels, estimators prequential + windows {WINDOWS} + fading {FADING}, "
          f"every=1000, one thread, best of {args.reps} alternated (CPU s):")  # fmt: skip
    base = t["classification, 1 label"]
    for k, v in t.items():
        print(f"  {k:<32}{n / v / 1e6:8.2f} M inst/s  {v:7.3f} s  {v / base:6.2f} x classification (1 label)")
    ratio = t["multilabel, every metric"] / t[f"classification, {q} labels"]
    print(f"  every metric / classification of the {q} label columns: {ratio:.2f}")

    # river, on a prefix, per instance; streamtk on the same metrics and estimators (prequential + 3 windows)
    rn = min(args.river_n, n)
    per_river = river_seconds(y[:rn], p[:rn], WINDOWS)
    ours = best({"s": lambda: ml(y, p, metrics=RIVER, windows=WINDOWS, every=1000)}, args.reps)["s"] / n
    print(
        f"river multioutput ({len(RIVER)} metrics x prequential + windows {WINDOWS}, {rn:,} instances): "
        f"{1 / per_river / 1e3:.1f} k inst/s; streamtk {1 / ours / 1e6:.2f} M inst/s: {per_river / ours:,.0f} x"
    )

    if moa is not None:
        mn = min(args.moa_n, n)
        moa_s = moa.multilabel(y[:mn], p[:mn], 1000) / mn
        ours = best({"s": lambda: ml(y, p, convention="moa", every=1000)}, args.reps)["s"] / n
        print(
            f"MOA BasicMultiLabelPerformanceEvaluator (prequential, read every 1000, {mn:,} instances): "
            f"{1 / moa_s / 1e6:.2f} M inst/s; streamtk convention='moa' {1 / ours / 1e6:.2f} M inst/s: "
            f"{moa_s / ours:.1f} x"
        )

    dn = min(args.dense_n, n)
    yd, pd = y[:dn], p[:dn]
    dkw = dict(windows=WINDOWS, fading=FADING, every=1)
    dense = {"every metric": lambda: ml(yd, pd, **dkw), "example + micro": lambda: ml(yd, pd, metrics=EXAMPLE, **dkw)}
    print(f"dense (every=1) on {dn:,} instances, against the fresh-write floor of the same arrays:")
    for name, f in dense.items():
        shapes = output_arrays(f())
        t = best({"job": f, "floor": lambda: floor(shapes)}, args.reps)
        peak, ds = peak_memory(f)
        out_mb = sum(v.nbytes for v in ds.data_vars.values()) / 2**20
        print(
            f"  {name:<18}{dn / t['job'] / 1e6:7.2f} M inst/s  job {t['job']:.3f} s  floor {t['floor']:.3f} s  "
            f"job/floor {t['job'] / t['floor']:.2f}  output {out_mb:.0f} MB  peak {peak / 2**20:.0f} MB"
        )


if __name__ == "__main__":
    main()
