"""Benchmark: coverage of the bands on simulated streams, and their cost against the point estimates.

Run ``python benchmarks/bench_intervals.py [--streams 2000] [--n 1000] [--cost-n 1000000] [--skip-coverage]``.

1. **Coverage table** (issue 34, item 4). ``--streams`` error streams of ``--n`` instances from
   :func:`streamtk.simulate_errors` (true error rate 0.2; independent, or Markov-dependent with lag-1
   autocorrelation 0.3 and 0.5), all in one :func:`streamtk.loss_curves` call per method (the streams are the
   ``model`` dim), checkpoints every 50 instances, estimators prequential, ``window=200`` and
   ``fading=0.99``. Per method and estimator: the minimum and the mean over checkpoints of the pointwise
   coverage (share of streams whose band holds 0.2), and the uniform coverage (share of streams whose band holds
   0.2 at every checkpoint at once, the property of a confidence sequence). With 2,000 streams a coverage has
   the binomial standard error 0.0057 at 0.93.
2. **Cost** (issue 34, performance): CPU time (``time.process_time``, one numba thread, best of alternating
   repeats, warm kernels) of ``evaluate`` of a binary stream of ``--cost-n`` instances (accuracy, error, kappa;
   no kappa with sequences; prequential + a window + a fading factor) without bands, with analytic bands, with
   confidence sequences and with the bootstrap (B = 100, on a tenth of the stream: the ratio is per instance);
   the same for ``loss_curves`` and ``compare``. Targets: analytic <= 1.3x, sequences <= 2x, bootstrap <= 30x.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

LEVEL = 0.95
TRUTH = 0.2
METHODS = (
    ("analytic", {}),
    ("sequence", {}),
    ("bootstrap", dict(seed=1)),
    ("block_bootstrap", dict(seed=1)),
)


def coverage_table(streams, n):
    import streamtk

    print(f"coverage of 95% bands: {streams} streams of {n} instances, true error rate {TRUTH}, checkpoints every 50")
    head = f"{'errors':<22}{'method':<17}{'estimator':<13}{'min pointwise':>14}{'mean pointwise':>15}{'uniform':>9}"
    print(head)
    print("-" * len(head))
    for dep in (0.0, 0.3, 0.5):
        x = streamtk.simulate_errors(streams, n, error=TRUTH, dependence=dep, seed=17)
        label = "independent" if dep == 0 else f"Markov, autocorr {dep}"
        for method, kw in METHODS:
            t0 = time.perf_counter()
            ds = streamtk.loss_curves(
                x, windows=200, fading=0.99, every=50, interval=LEVEL, interval_method=method, **kw
            )
            lo, hi = ds.loss_lower.values, ds.loss_upper.values
            cov = (lo <= TRUTH) & (TRUTH <= hi)
            point, uniform = cov.mean(axis=0), cov.all(axis=-1).mean(axis=0)
            for e, est in enumerate(ds.estimator.values):
                print(
                    f"{label:<22}{method:<17}{str(est):<13}{point[e].min():>14.3f}{point[e].mean():>15.3f}"
                    f"{uniform[e]:>9.3f}",
                    flush=True,
                )
            print(f"{'':<22}({time.perf_counter() - t0:.1f} s)")


def cpu_ratio(base, other, repeat):
    """Best CPU seconds of ``base`` and ``other`` over ``repeat`` alternating calls."""
    tb = to = np.inf
    for _ in range(repeat):
        t0 = time.process_time()
        base()
        tb = min(tb, time.process_time() - t0)
        t0 = time.process_time()
        other()
        to = min(to, time.process_time() - t0)
    return tb, to


def costs(n, repeat):
    import streamtk

    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.4).astype(np.int64)
    p = np.where(rng.random(n) < 0.85, y, 1 - y)
    q = np.where(rng.random(n) < 0.8, y, 1 - y)
    err = (y != p).astype(float)
    mech = dict(windows=1000, fading=0.999, every=max(n // 1000, 1))

    def metrics(kw):  # a confidence sequence is for means: no kappa
        return ["accuracy", "error"] + ([] if kw.get("interval_method") == "sequence" else ["kappa"])

    m = n // 10
    calls = {
        "evaluate": (
            lambda k, sl=slice(None): streamtk.evaluate(y[sl], p[sl], metrics=metrics(k), **mech, **k),
            ("analytic", "sequence", "bootstrap"),
        ),
        "loss_curves": (
            lambda k, sl=slice(None): streamtk.loss_curves(err[sl], **mech, **k),
            ("analytic", "sequence", "bootstrap"),
        ),
        "compare": (
            lambda k, sl=slice(None): streamtk.compare(y[sl], p[sl], q[sl], **mech, **k),
            ("analytic", "sequence", "bootstrap"),
        ),
    }
    targets = {"analytic": 1.3, "sequence": 2.0, "bootstrap": 30.0}
    print(
        f"\ncost of bands (CPU, one numba thread, best of {repeat} alternating calls; bootstrap B=100 on {m} instances)"
    )
    head = f"{'function':<14}{'method':<12}{'instances':>10}{'point (s)':>11}{'bands (s)':>11}{'ratio':>8}{'target':>8}"
    print(head)
    print("-" * len(head))
    for name, (call, methods) in calls.items():
        for method in methods:
            sl = slice(0, m) if method == "bootstrap" else slice(None)
            kw = dict(interval=LEVEL, interval_method=method)
            if method == "bootstrap":
                kw["seed"] = 0
            call(kw, sl), call({}, sl)  # warm
            tb, to = cpu_ratio(lambda: call({}, sl), lambda: call(kw, sl), repeat)
            size = m if method == "bootstrap" else n
            print(
                f"{name:<14}{method:<12}{size:>10}{tb:>11.3f}{to:>11.3f}{to / tb:>7.2f}x{targets[method]:>7.1f}x",
                flush=True,
            )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--streams", type=int, default=2000)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--cost-n", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-coverage", action="store_true")
    ap.add_argument("--skip-cost", action="store_true")
    args = ap.parse_args()
    import numba

    numba.set_num_threads(1)
    if not args.skip_coverage:
        coverage_table(args.streams, args.n)
    if not args.skip_cost:
        costs(args.cost_n, args.repeat)


if __name__ == "__main__":
    main()
