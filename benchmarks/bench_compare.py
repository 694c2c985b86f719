"""Benchmark: comparing two classifiers over time (Q statistic, signed McNemar, contingency counts).

Run ``python benchmarks/bench_compare.py [--n N] [--every E]``.

Prints (single numba thread, CPU time of this process via ``time.process_time`` because
the machine is shared; wall-clock numbers under load are meaningless):

* compile time of the kernels with a fresh numba cache vs the warm-cache first call;
* the scalar-sums kernel (``streamtk._kernels.sums.run`` through ``SumsEngine``) on a pair of
  models with prequential + 2 windows + 2 fading factors, in instances/s, with its fast paths
  (dense runs; windows of 0-1 losses without member counts) and with its general loops only
  (``SumsEngine(fast_paths=False)``): the ratio is what each fast path buys (issue 19 keeps a fast path
  only where it is more than 10% faster), and the results are checked identical; the same for a
  single loss stream (``loss_curves``);
* the public functions ``compare_losses`` (from 0-1 losses) and ``compare`` (from
  class predictions, including label encoding);
* a hand-written vectorised numpy version of the same statistics (cumulative sums;
  window sums as differences of cumulative sums; fading sums by blocked
  ``alpha**-k`` rescaling), checked equal, and the speed ratio;
* ``loss_curves`` and ``resource_curves`` throughput.

The target of issue 5 is >= 50 M instances/s single core for the pair with
prequential + 2 windows + 2 fading on 10^7 instances. river and MOA have no streaming
Q statistic or McNemar evaluator, so there is no river baseline here.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

WINDOWS = (100, 1000)
FADING = (0.99, 0.999)

COMPILE_SNIPPET = """
import time, numpy as np
t0 = time.perf_counter()
import streamtk.comparison.compare as sc, streamtk.evaluation.losses as sl
y = np.array([0, 1, 1, 0, 1, 1, 0, 0] * 10)
sc.compare(y, y[::-1].copy(), y, windows=3, fading=0.9)
sl.loss_curves(y.astype(float), windows=3, fading=0.9, adwin=0.01)
print(time.perf_counter() - t0)
"""


def compile_times():
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, NUMBA_NUM_THREADS="1")

        def run():
            return float(
                subprocess.run(
                    [sys.executable, "-c", COMPILE_SNIPPET], env=env, capture_output=True, text=True, check=True
                ).stdout.split()[-1]
            )

        return run(), run()


def cpu(fn, repeat=3):
    best = np.inf
    out = None
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t0)
    return best, out


def numpy_faded_sum(x, alpha, block=2048):
    """S_t = x_t + alpha S_{t-1} in numpy: per block, cumsum of x_k alpha**-k, rescaled, plus the carry."""
    out = np.empty_like(x)
    k = np.arange(block, dtype=np.float64)
    up = alpha**-k  # alpha**-2047 stays finite for alpha >= 0.7
    down = alpha**k
    carry = 0.0
    for b0 in range(0, x.size, block):
        seg = x[b0 : b0 + block]
        m = seg.size
        s = np.cumsum(seg * up[:m]) * down[:m] + carry * alpha * down[:m]
        out[b0 : b0 + m] = s
        carry = s[-1]
    return out


def numpy_compare(la, lb, ck):
    """The same statistics with vectorised numpy: dict of (E, C) arrays."""
    u = la * (1.0 - lb)
    v = lb * (1.0 - la)
    series = (la, lb, u, v)
    res = {"q": [], "mcnemar": [], "n01": [], "n10": []}
    cums = [np.cumsum(x) for x in series]
    est = [(None, None)] + [("w", w) for w in WINDOWS] + [("f", a) for a in FADING]
    for kind, p in est:
        if kind is None:
            sa, sb, su, sv = (c[ck] for c in cums)
        elif kind == "w":
            lag = ck - p
            sa, sb, su, sv = (c[ck] - np.where(lag >= 0, c[np.maximum(lag, 0)], 0.0) for c in cums)
        else:
            sa, sb, su, sv = (numpy_faded_sum(x, p)[ck] for x in series)
        with np.errstate(divide="ignore", invalid="ignore"):
            res["q"].append(np.log(sa / sb))
            d = su - sv
            res["mcnemar"].append(np.sign(d) * d * d / (su + sv))
        res["n01"].append(su)
        res["n10"].append(sv)
    return {k: np.array(v) for k, v in res.items()}


def engine_run(specs, every, loss, groups, *, fast, binary):
    """Raw sums ``(G, E, C, 5)`` of one SumsEngine pass (``fast=False``: the general loops only)."""
    from streamtk._core.adwin import check_adwin_options
    from streamtk._kernels.sums import FIELDS
    from streamtk.evaluation.sums import SumsEngine, raw_sums

    engine = SumsEngine(specs, every, check_adwin_options(None), fast_paths=fast, **raw_sums(len(groups)))
    engine.update(loss, groups, last=True, binary=binary)
    raw = engine.collect()[1]
    return np.stack([raw[name] for name in FIELDS], axis=-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--every", type=int, default=1000)
    ap.add_argument("--skip-compile", action="store_true")
    args = ap.parse_args()
    n, every = args.n, args.every

    import numba

    numba.set_num_threads(1)
    import streamtk.comparison.compare as sc
    import streamtk.evaluation.losses as sl
    from streamtk._core.mechanisms import build_estimators, checkpoints

    print(
        f"n = {n:,}, every = {every}, estimators: prequential, windows {WINDOWS}, fading {FADING}; "
        "1 numba thread; CPU seconds (process_time), best of 3; shared machine: numbers are noisy"
    )
    if not args.skip_compile:
        cold, warm = compile_times()
        print(f"compile (fresh cache) {cold:6.2f} s | warm-cache first call {warm:6.2f} s  (incl. imports)")

    rng = np.random.default_rng(42)
    y = rng.integers(0, 2, n).astype(np.int8)
    pa = np.where(rng.random(n) < 0.25, 1 - y, y).astype(np.int8)
    pb = np.where(rng.random(n) < 0.20, 1 - y, y).astype(np.int8)
    loss = np.stack([(pa != y), (pb != y)]).astype(np.float64)
    specs = build_estimators(windows=WINDOWS, fading=FADING)
    pair, single = np.array([[0, 1]]), np.array([[0, 0]])
    engine_run(specs, every, loss[:, :1000], pair, fast=True, binary=True)

    rates = {}
    for name, groups, fast, binary in [
        ("pair, fast paths (0-1 losses)", pair, True, True),
        ("pair, fast paths (not declared 0-1)", pair, True, False),
        ("pair, general loops", pair, False, False),
        ("single stream, fast paths", single, True, False),
        ("single stream, general loops", single, False, False),
    ]:
        t, raw = cpu(lambda g=groups, f=fast, b=binary: engine_run(specs, every, loss, g, fast=f, binary=b))
        rates[name] = (n / t, raw)
    for kind in ("pair", "single stream"):
        general = rates[f"{kind}, general loops"]
        for name, (rate, raw) in rates.items():
            if name.startswith(kind):
                assert np.array_equal(raw, general[1]), name  # fast paths: identical sums
                print(f"sums kernel, {name:38s} {rate / 1e6:8.1f} M instances/s   x{rate / general[0]:.2f} vs general")

    kernel_rate, raw = rates["pair, fast paths (0-1 losses)"]
    positions = checkpoints(0, n, every, last=True)
    t_np, ref = cpu(lambda: numpy_compare(loss[0], loss[1], positions), repeat=1)
    ours = sc.compare_losses(loss[0], loss[1], windows=WINDOWS, fading=FADING, every=every)
    for k, v in (("q", "q"), ("mcnemar", "mcnemar"), ("n01", "n01"), ("n10", "n10")):
        np.testing.assert_allclose(ours[v].values, ref[k], rtol=1e-6, atol=1e-6, err_msg=k)
    print(
        f"numpy (hand-written)     {n / t_np / 1e6:8.1f} M instances/s  ({t_np:.3f} s)   "
        f"ratio streamtk kernel / numpy = {kernel_rate * t_np / n:.1f}x  (results checked equal)"
    )

    t_l, _ = cpu(lambda: sc.compare_losses(loss[0], loss[1], windows=WINDOWS, fading=FADING, every=every))
    print(
        f"compare_losses (API)     {n / t_l / 1e6:8.1f} M instances/s  ({t_l:.3f} s)   ratio vs numpy {t_np / t_l:.1f}x"
    )
    t_c, _ = cpu(lambda: sc.compare(y, pa, pb, windows=WINDOWS, fading=FADING, every=every, classes=[0, 1]))
    print(
        f"compare (API, labels)    {n / t_c / 1e6:8.1f} M instances/s  ({t_c:.3f} s)   incl. label encoding "
        "and the 0-1 losses"
    )

    models = np.stack([pa, pb, np.where(rng.random(n) < 0.3, 1 - y, y).astype(np.int8)])
    m = min(n, 2_000_000)
    t_m, _ = cpu(
        lambda: sc.compare(y[:m], models[:, :m], windows=WINDOWS, fading=FADING, every=every, classes=[0, 1]),
        repeat=1,
    )
    print(
        f"compare, 3 models        {m / t_m / 1e6:8.1f} M instances/s  "
        f"(9 ordered pairs from 6 kernel pairs a <= b, n = {m:,})"
    )

    t_lc, _ = cpu(lambda: sl.loss_curves(loss[0], windows=WINDOWS, fading=FADING, every=every))
    print(f"loss_curves              {n / t_lc / 1e6:8.1f} M instances/s  ({t_lc:.3f} s)")
    t_lp, _ = cpu(lambda: sl.loss_curves(loss[0], every=every))
    print(f"loss_curves, prequential {n / t_lp / 1e6:8.1f} M instances/s  ({t_lp:.3f} s)")
    sec = rng.exponential(1e-5, n)
    mem = rng.uniform(1e6, 2e6, n)
    t_r, _ = cpu(lambda: sl.resource_curves(sec, mem, windows=WINDOWS, fading=FADING, every=every))
    print(f"resource_curves          {n / t_r / 1e6:8.1f} M instances/s  ({t_r:.3f} s)  (3 quantities)")
    m = min(n, 1_000_000)
    t_a, _ = cpu(lambda: sl.loss_curves(loss[0, :m], adwin=0.002, every=every), repeat=1)
    print(f"loss_curves, ADWIN       {m / t_a / 1e6:8.1f} M instances/s  (n = {m:,})")


if __name__ == "__main__":
    main()
