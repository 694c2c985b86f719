"""Benchmark of the single-pass curve engine (issue 2 targets).

Binary stream of ``n`` int8 labels, single core, estimators prequential + windows
(100, 1000, 10000) + fading (0.99, 0.999), metrics accuracy, kappa, kappa_m,
kappa_per, kappa_plus, F1, MCC, G-mean; written at every instance and every 1000;
and at every 1000 with an ADWIN window (delta 0.002) added (issue 3's target).

Baselines measured in the same process:

* a hand-written numpy version of the same curves (cumulative sums, window
  differences of cumulative sums, ``scipy.signal.lfilter`` for fading factors);
* river's metrics (prequential, and ``utils.Rolling`` for windows) on a subsample,
  extrapolated per instance (river has no fading factors, kappa_m or kappa_per:
  those are left out of its side, which favours river);
* MOA's own evaluators (capymoa's jar, where capymoa and a JDK are installed): Basic,
  Window and FadingFactor ``ClassificationPerformanceEvaluator`` for the same estimators
  (4 measures each) and the ADWIN evaluator, on a prefix of ``--moa-n`` instances in a
  Java loop timed inside the JVM (``benchmarks/_moa.py``).

Also reports the first-call compile time (fresh cache directory) and the warm time.

Last, every metric of the registry (``streamtk.METRICS``) alone, so each metric's cost is visible.

    python benchmarks/bench_engine.py [--n 10000000] [--river-n 100000] [--per-metric-n 1000000]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _moa import MoaBaseline  # noqa: E402

METRICS = ["accuracy", "kappa", "kappa_m", "kappa_per", "kappa_plus", "f1", "mcc", "geometric_mean"]
WINDOWS = [100, 1000, 10000]
FADING = [0.99, 0.999]


def make_stream(n, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.6).astype(np.int8)
    y = np.where(rng.random(n) < 0.7, np.roll(y, 1), y).astype(np.int8)
    p = np.where(rng.random(n) < 0.85, y, 1 - y).astype(np.int8)
    return y, p


# ----------------------------------------------------------------------------- numpy baseline


def _finish(c, r1, p1, d1, maj, per, N):
    with np.errstate(divide="ignore", invalid="ignore"):
        p0 = c / N
        r0 = N - r1
        q0 = N - p1
        pc = (r1 * p1 + r0 * q0) / N**2
        kap = (p0 - pc) / (1 - pc)
        km = (p0 - maj / N) / (1 - maj / N)
        kp = (p0 - per / N) / (1 - per / N)
        kplus = np.sqrt(np.maximum(kap, 0) * np.maximum(kp, 0))
        f1 = 2 * d1 / (r1 + p1)
        d0 = c - d1
        mcc = (c * N - (r1 * p1 + r0 * q0)) / np.sqrt((N**2 - p1**2 - q0**2) * (N**2 - r1**2 - r0**2))
        g = np.sqrt((d1 / r1) * (d0 / r0))
    return [p0, kap, km, kp, kplus, f1, mcc, g]


def numpy_curves(y, p, every):
    """The same curves with vectorised numpy (cumsum / window differences / lfilter)."""
    from scipy.signal import lfilter

    n = y.shape[0]
    y1 = (y == 1).astype(np.float64)
    p1 = (p == 1).astype(np.float64)
    hit = (y == p).astype(np.float64)
    d1 = hit * y1
    prev = np.concatenate([[0], y[:-1]])
    per = (prev == y).astype(np.float64)
    idx = np.arange(every - 1, n, every)
    out = []
    # prequential
    cs = [np.cumsum(a) for a in (hit, y1, p1, d1, per)]
    before1 = np.concatenate([[0.0], cs[1][:-1]])
    t = np.arange(n, dtype=np.float64)
    maj_pred = (before1 > (t - before1)).astype(np.int8)
    maj = np.cumsum((maj_pred == y).astype(np.float64))
    N = t + 1
    out.append([m[idx] for m in _finish(cs[0], cs[1], cs[2], cs[3], maj, cs[4], N)])
    # windows
    for w in WINDOWS:

        def win(a, w=w):
            c = np.cumsum(a)
            c[w:] = c[w:] - c[:-w]
            return c

        ones_before = np.concatenate([[0.0], win(y1)[:-1]])
        held = np.minimum(t, w)
        mp = (ones_before > held - ones_before).astype(np.int8)
        mh = (mp == y).astype(np.float64)
        Nw = np.minimum(t + 1, w)
        out.append([m[idx] for m in _finish(win(hit), win(y1), win(p1), win(d1), win(mh), win(per), Nw)])
    # fading
    for a in FADING:

        def fade(x, a=a):
            return lfilter([1.0], [1.0, -a], x)

        Nf = fade(np.ones(n))
        r1f = fade(y1)
        before = np.concatenate([[0.0], r1f[:-1]])
        nb = np.concatenate([[0.0], Nf[:-1]])
        mp = (before > nb - before).astype(np.int8)
        mh = (mp == y).astype(np.float64)
        out.append([m[idx] for m in _finish(fade(hit), r1f, fade(p1), fade(d1), fade(mh), fade(per), Nf)])
    return out


# ----------------------------------------------------------------------------- river baseline


def river_per_instance(y, p):
    from river import metrics, utils

    def make():
        ms = []
        for factory in (metrics.Accuracy, metrics.CohenKappa, metrics.F1, metrics.MCC, metrics.GeometricMean):
            ms.append(factory())
            for w in WINDOWS:
                ms.append(utils.Rolling(factory, window_size=w))
        return ms

    ms = make()
    yl = y.tolist()
    pl = p.tolist()
    t0 = time.perf_counter()
    for a, b in zip(yl, pl):
        for m in ms:
            m.update(a, b)
            m.get()
    return (time.perf_counter() - t0) / len(yl)


def compile_time_fresh() -> float:
    """First call in a fresh interpreter with an empty numba cache directory."""
    code = (
        "import time, numpy as np; t=time.perf_counter(); import streamtk; "
        "y=np.array([0,1,1,0],dtype=np.int8); "
        f"streamtk.evaluate(y, y, windows={WINDOWS}, fading={FADING}, metrics={METRICS}); "
        "print(time.perf_counter()-t)"
    )
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, NUMBA_CACHE_DIR=d)
        cold = float(
            subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            ).stdout.split()[-1]
        )
        warm = float(
            subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            ).stdout.split()[-1]
        )
    return cold, warm


def fresh_write_floor(points: int, repeat: int):
    """Best CPU seconds to allocate and write ``points`` float64 once (fresh pages), and to write them again."""
    fresh = warm = np.inf
    for _ in range(repeat):
        c0 = time.process_time()
        a = np.empty(points)
        a.fill(1.0)
        c1 = time.process_time()
        a.fill(2.0)
        c2 = time.process_time()
        fresh, warm = min(fresh, c1 - c0), min(warm, c2 - c1)
        del a
    return fresh, warm


def per_metric(streamtk, y, p, repeat):
    """Throughput of each registry metric alone (binary labels, the same estimators, every=1000).

    Driven by the registry (``streamtk.METRICS``): a new metric of the confusion family is timed
    here without touching this file. Metrics that need a cost matrix or class scores get one.
    """
    from streamtk._core.metrics import REGISTRY

    rng = np.random.default_rng(1)
    score = np.clip(np.where(y == 1, 0.7, 0.3) + rng.normal(0, 0.2, y.size), 0.0, 1.0)
    cost = np.array([[0.0, 1.0], [5.0, 0.0]])
    kw = dict(windows=WINDOWS, fading=FADING, every=1000)
    rows = []
    for m in REGISTRY.values():
        if m.family not in ("confusion", "quantity", "auc") or m.needs == "multiscores":
            continue
        extra = {"cost": cost} if m.needs == "cost" else {}
        if m.needs == "scores" or m.family == "auc":
            extra["y_score"] = score
        head = {key: (v[:5000] if key == "y_score" else v) for key, v in extra.items()}
        streamtk.evaluate(y[:5000], p[:5000], metrics=[m.name], **kw, **head)  # compile
        best = np.inf
        for _ in range(repeat):
            c0 = time.process_time()
            streamtk.evaluate(y, p, metrics=[m.name], **kw, **extra)
            best = min(best, time.process_time() - c0)
        rows.append((m.name, m.family, y.size / best))
    print(f"each registry metric alone on {y.size:,} instances (same estimators, every=1000), M inst/s CPU:")
    for name, fam, rate in rows:
        print(f"  {name:18s} {fam:10s} {rate / 1e6:8.1f}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--river-n", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-compile", action="store_true")
    ap.add_argument("--moa-n", type=int, default=1_000_000, help="instances fed to MOA's evaluators")
    ap.add_argument("--no-moa", action="store_true", help="skip MOA's evaluators (capymoa's jar, timed in the JVM)")
    ap.add_argument("--per-metric-n", type=int, default=1_000_000, help="instances per metric timing (0: skip)")
    args = ap.parse_args(argv)

    import streamtk

    y, p = make_stream(args.n)
    kw = dict(windows=WINDOWS, fading=FADING, metrics=METRICS)
    streamtk.evaluate(y[:20_000], p[:20_000], every=1, **kw)  # compile
    print(
        f"n = {args.n:,} binary int8 instances, 1 core, {1 + len(WINDOWS) + len(FADING)} estimators, "
        f"{len(METRICS)} metrics"
    )
    print("timings: best of repeats, wall clock and process CPU time (the CPU time is robust to other load)")
    results = {}
    for every in (1, 1000):
        best_wall = best_cpu = np.inf
        first = None
        user_sys = []
        for _ in range(args.repeat):
            w0, c0, t0 = time.perf_counter(), time.process_time(), os.times()
            ds = streamtk.evaluate(y, p, every=every, **kw)
            wall = time.perf_counter() - w0
            t1 = os.times()
            user_sys.append((t1.user - t0.user, t1.system - t0.system))
            best_wall = min(best_wall, wall)
            best_cpu = min(best_cpu, time.process_time() - c0)
            first = wall if first is None else first
            del ds
        if every == 1:
            # the first call of a process that allocates gigabytes of curves pays for the operating system's
            # first touch of fresh pages (on a VM with transparent huge pages, memory compaction as well)
            gb = args.n * (1 + len(WINDOWS) + len(FADING)) * len(METRICS) * 8 / 1e9
            print(
                f"every=    1: first call of the process {args.n / first / 1e6:.1f} M inst/s wall "
                f"({gb:.2f} GB of float64 curves allocated and touched for the first time)"
            )
            print(
                "             user / system CPU s of each call: "
                + ", ".join(f"{u:.2f} / {s_:.2f}" for u, s_ in user_sys)
                + "  (system: the operating system's first touch of the fresh output pages)"
            )
            fresh, warm = fresh_write_floor(args.n * (1 + len(WINDOWS) + len(FADING)) * len(METRICS), args.repeat)
            print(
                f"             floor in this process: writing {gb:.2f} GB of fresh float64 alone takes "
                f"{fresh:.2f} s CPU (best of {args.repeat}; {args.n / fresh / 1e6:.1f} M inst/s), "
                f"rewriting it {warm:.2f} s ({args.n / warm / 1e6:.1f} M inst/s)"
            )
        w0, c0 = time.perf_counter(), time.process_time()
        numpy_curves(y, p, every)
        np_wall, np_cpu = time.perf_counter() - w0, time.process_time() - c0
        results[every] = (best_wall, best_cpu, np_wall, np_cpu)
        points = args.n * (1 + len(WINDOWS) + len(FADING)) * len(METRICS) / every
        print(
            f"every={every:>5}: streamtk {args.n / best_cpu / 1e6:8.1f} M inst/s CPU "
            f"({args.n / best_wall / 1e6:.1f} wall; {points / best_cpu / 1e9:.2f} G curve points/s) | "
            f"numpy {args.n / np_cpu / 1e6:6.1f} M inst/s CPU | streamtk/numpy = {np_cpu / best_cpu:5.1f}x"
        )
    # issue 3: the same estimators plus an ADWIN window (delta 0.002), every=1000, in the same pass
    kw_adwin = dict(kw, adwin=[0.002])
    streamtk.evaluate(y[:20_000], p[:20_000], every=1000, **kw_adwin)  # compile
    best_wall = best_cpu = np.inf
    for _ in range(args.repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        streamtk.evaluate(y, p, every=1000, **kw_adwin)
        best_wall = min(best_wall, time.perf_counter() - w0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    rate_adwin = args.n / best_cpu
    print(
        f"every= 1000 + adwin=0.002: streamtk {rate_adwin / 1e6:8.1f} M inst/s CPU "
        f"({args.n / best_wall / 1e6:.1f} wall)"
    )
    # MOA itself: its evaluators for the same estimators (accuracy, kappa, kappa_temp, kappa_m each) on a
    # prefix, in a Java loop timed inside the JVM (benchmarks/_moa.py)
    moa = MoaBaseline.start_or_say_why(args.no_moa)
    if moa is not None:
        m = min(args.moa_n, args.n)

        def moa_evaluators():
            evs = [moa.evaluator("BasicClassificationPerformanceEvaluator")]
            evs += [moa.evaluator("WindowClassificationPerformanceEvaluator", widthOption=w) for w in WINDOWS]
            evs += [moa.evaluator("FadingFactorClassificationPerformanceEvaluator", alphaOption=a) for a in FADING]
            return evs

        print(f"MOA's evaluators (capymoa's jar; Basic + Window {WINDOWS} + FadingFactor {FADING}, 4 measures "
              f"each, a Java loop over the first {m:,} instances timed inside the JVM):")  # fmt: skip
        for every in (1, 1000):
            rate = m / moa.evaluators(moa_evaluators, y[:m], p[:m], 2, every)
            print(
                f"  every={every:>5}: MOA {rate / 1e6:6.2f} M inst/s | streamtk / MOA = "
                f"{args.n / results[every][1] / rate:,.1f}x"
            )
        rate = m / moa.evaluators(lambda: [moa.evaluator("AdwinClassificationPerformanceEvaluator")], y[:m], p[:m],
                                  2, 1000)  # fmt: skip
        print(
            f"  MOA's ADWIN evaluator alone (every=1000): {rate / 1e6:6.2f} M inst/s | streamtk with the six "
            f"estimators + ADWIN / MOA's ADWIN evaluator = {rate_adwin / rate:,.1f}x"
        )
    sub = min(args.river_n, args.n)
    per_inst = river_per_instance(y[:sub], p[:sub])
    river_rate = 1.0 / per_inst
    print(
        f"river (Accuracy, CohenKappa, F1, MCC, GeometricMean; prequential + Rolling windows; no fading, "
        f"no kappa_m/kappa_per) on {sub:,} instances: {river_rate / 1e6:.3f} M inst/s"
    )
    for every in (1, 1000):
        print(f"  streamtk every={every} / river = {args.n / results[every][1] / river_rate:,.0f}x")
    if args.per_metric_n:
        m = min(args.per_metric_n, args.n)
        per_metric(streamtk, y[:m], p[:m], args.repeat)
    if not args.skip_compile:
        cold, warm = compile_time_fresh()
        print(
            f"first call in a fresh process (empty numba cache, incl. import): {cold:.1f} s; "
            f"second process with the warm cache: {warm:.1f} s"
        )


if __name__ == "__main__":
    main()
