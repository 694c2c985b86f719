"""Benchmark of the regression and prediction-interval families (issue 33), single core, every=1000.

    python benchmarks/bench_regression.py [--n 2000000] [--river-n 50000] [--moa-n 1000000] [--no-moa]

A regression stream of ``--n`` instances (an AR(1) target, predictions with noise, intervals of random width
around them), estimators prequential + windows (100, 1000, 10000) + fading (0.99, 0.999), a checkpoint every
1000 instances. Printed, each measured in this process (``time.process_time``, alternating calls, best of
``--repeat``) with its peak resident memory above the start:

* ``regression_curves`` (every default metric: mae, mse, rmse, r2, rmae, rrmse, mape, smape, max_error) and
  ``interval_curves`` (coverage, mean_width, nmpiw, target_range, interval_score) end to end, in instances/s;
* the classification engine (``streamtk.evaluate``, its default metrics) on a binary stream of the same ``n`` and
  estimators: the issue's target is regression and intervals within 2x of it;
* the regression fast path (:mod:`streamtk._kernels.regression.point`) against the general loops it is checked
  against (``tests/test_fast_paths.py``), on the engine alone;
* river's ``MAE``, ``RMSE``, ``R2`` (prequential, and ``utils.Rolling`` for the three windows; river has no
  fading factors, which favours river) on the first ``--river-n`` instances, extrapolated per instance
  (target: streamtk >= 100x);
* MOA's ``BasicRegressionPerformanceEvaluator`` + ``WindowRegressionPerformanceEvaluator`` (the three widths) and
  ``BasicPredictionIntervalEvaluator`` + ``WindowPredictionIntervalEvaluator`` (capymoa's jar; MOA has no fading
  regression evaluator, which favours MOA) on the first ``--moa-n`` instances in a Java loop timed inside the
  JVM (``benchmarks/_moa.py``), per instance (target: streamtk >= 10x).

On a shared machine the timings are noisy: the ratios (same process, alternating) are what to read.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _moa import MoaBaseline  # noqa: E402

WINDOWS = [100, 1000, 10000]
FADING = [0.99, 0.999]
EVERY = 1000


def make_stream(n, seed=0):
    """Targets (AR(1)), point predictions, interval bounds; and a binary classification stream of the same n."""
    rng = np.random.default_rng(seed)
    e = rng.normal(size=n)
    y = e.copy()
    for t in range(1, n):  # AR(1), a = 0.9
        y[t] += 0.9 * y[t - 1]
    p = y + 0.5 * rng.normal(size=n)
    half = rng.uniform(0.2, 1.5, n)
    yc = (rng.random(n) < 0.6).astype(np.int8)
    pc = np.where(rng.random(n) < 0.85, yc, 1 - yc).astype(np.int8)
    return y, p, p - half, p + half, yc, pc


def rss() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def peak_memory(f):
    """Peak resident bytes above the start during ``f()``, sampled every millisecond."""
    start = rss()
    peak = [start]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss())
            time.sleep(0.001)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    f()
    done.set()
    th.join()
    return max(peak[0], rss()) - start


def timed(f):
    t = time.process_time()
    f()
    return time.process_time() - t


def river_per_instance(y, p):
    """Seconds per instance of river's MAE, RMSE, R2, prequential and rolling over the three windows."""
    from river import metrics, utils

    ms = []
    for make in (metrics.MAE, metrics.RMSE, metrics.R2):
        ms.append(make())
        ms.extend(utils.Rolling(make, window_size=w) for w in WINDOWS)
    yl, pl = y.tolist(), p.tolist()
    t = time.process_time()
    for i, (a, b) in enumerate(zip(yl, pl)):
        for m in ms:
            m.update(a, b)
        if (i + 1) % EVERY == 0:
            for m in ms:
                m.get()
    return (time.process_time() - t) / len(yl)


def engine_fast_vs_general(y, p, repeat):
    """Seconds of the regression engine alone with and without its fast path (best of ``repeat``, alternating)."""
    from streamtk._core.adwin import check_adwin_options
    from streamtk._core.mechanisms import build_estimators
    from streamtk._core.metrics import family
    from streamtk._core.metrics.regression import TABLE, RegressionContext
    from streamtk._kernels.regression import layout as LY
    from streamtk.evaluation.regression_engine import RegressionEngine

    specs = build_estimators(windows=WINDOWS, fading=FADING)
    metrics = [m for m in family("regression") if m.needs is None]
    ctx = RegressionContext(1, LY.n_fields(LY.K_REG, LY.J_REG), float("nan"), False)

    def run(fast):
        eng = RegressionEngine(specs, EVERY, check_adwin_options(None), fam=LY.REG, table=TABLE, metrics=metrics,
                               context=ctx, fast_paths=fast)  # fmt: skip
        eng.update(y[None], p[None, None], None, None, last=True)
        eng.collect()

    best = {True: np.inf, False: np.inf}
    for _ in range(repeat + 1):  # the first round compiles
        for fast in (True, False):
            best[fast] = min(best[fast], timed(lambda fast=fast: run(fast)))
    return best[True], best[False]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2_000_000)
    ap.add_argument("--river-n", type=int, default=50_000)
    ap.add_argument("--moa-n", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-moa", action="store_true")
    args = ap.parse_args(argv)
    moa = MoaBaseline.start_or_say_why(args.no_moa)  # before anything else starts the JVM

    import streamtk

    n = args.n
    y, p, lo, up, yc, pc = make_stream(n)
    mech = {"windows": WINDOWS, "fading": FADING, "every": EVERY}
    jobs = {
        "regression_curves": lambda: streamtk.regression_curves(y, p, **mech),
        "interval_curves": lambda: streamtk.interval_curves(y, lo, up, alpha=0.1, **mech),
        "evaluate (classification)": lambda: streamtk.evaluate(yc, pc, **mech),
    }
    for f in jobs.values():  # compile
        f()
    best = dict.fromkeys(jobs, np.inf)
    for _ in range(args.repeat):
        for k, f in jobs.items():
            best[k] = min(best[k], timed(f))
    peaks = {k: peak_memory(f) for k, f in jobs.items()}
    print(f"n = {n:,}, estimators: prequential, windows {WINDOWS}, fading {FADING}; every={EVERY}; "
          f"process_time, best of {args.repeat}")  # fmt: skip
    cls = best["evaluate (classification)"]
    print(f"{'job':<28}{'seconds':>9}{'Minst/s':>9}{'peak MB':>9}{'/ classification':>18}")
    for k in jobs:
        print(f"{k:<28}{best[k]:>9.3f}{n / best[k] / 1e6:>9.2f}{peaks[k] / 2**20:>9.0f}{best[k] / cls:>18.2f}")

    fast, general = engine_fast_vs_general(y, p, args.repeat)
    print(f"regression engine alone: fast path {fast:.3f} s, general loops {general:.3f} s: "
          f"fast path {general / fast:.2f}x")  # fmt: skip

    per_reg = best["regression_curves"] / n
    per_int = best["interval_curves"] / n
    m = min(args.river_n, n)
    river = river_per_instance(y[:m], p[:m])
    print(f"river MAE, RMSE, R2 (prequential + 3 rolling windows), {m:,} instances: {1 / river:,.0f} inst/s; "
          f"streamtk regression_curves {river / per_reg:,.0f}x faster (target >= 100x)")  # fmt: skip

    if moa is not None:
        mn = min(args.moa_n, n)

        def regression():
            evs = [moa.evaluator("BasicRegressionPerformanceEvaluator")]
            evs += [moa.evaluator("WindowRegressionPerformanceEvaluator", widthOption=w) for w in WINDOWS]
            return evs

        def intervals():
            evs = [moa.evaluator("BasicPredictionIntervalEvaluator")]
            evs += [moa.evaluator("WindowPredictionIntervalEvaluator", widthOption=w) for w in WINDOWS]
            return evs

        same = {"windows": WINDOWS, "every": EVERY}  # MOA's estimators only (it has no fading evaluator)
        same_reg = min(timed(lambda: streamtk.regression_curves(y, p, **same)) for _ in range(args.repeat)) / n
        same_int = min(timed(lambda: streamtk.interval_curves(y, lo, up, alpha=0.1, **same))
                       for _ in range(args.repeat)) / n  # fmt: skip
        s_reg = moa.regression_evaluators(regression, y[:mn], [p[:mn]], EVERY) / mn
        s_int = moa.regression_evaluators(intervals, y[:mn], [lo[:mn], p[:mn], up[:mn]], EVERY) / mn
        print(f"MOA Basic + 3 Window regression evaluators, {mn:,} instances: {1 / s_reg:,.0f} inst/s; "
              f"streamtk regression_curves {s_reg / per_reg:,.1f}x faster with fading too, {s_reg / same_reg:,.1f}x "
              "on MOA's estimators (target >= 10x)")  # fmt: skip
        print(f"MOA Basic + 3 Window prediction-interval evaluators, {mn:,} instances: {1 / s_int:,.0f} inst/s; "
              f"streamtk interval_curves {s_int / per_int:,.1f}x faster with fading too, {s_int / same_int:,.1f}x "
              "on MOA's estimators (target >= 10x)")  # fmt: skip


if __name__ == "__main__":
    main()
