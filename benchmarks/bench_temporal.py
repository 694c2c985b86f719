"""Benchmark: label temporal-dependence diagnostics, baselines and temporal correction.

Run ``python benchmarks/bench_temporal.py [--n N] [--max-lag L] [--classes K]``.

Prints (single numba thread):

* compile time of the kernels (fresh numba cache) vs the warm-cache first call;
* ``label_dependence`` throughput (labels/s) with ``L`` lags, prequential only and with a
  window and a fading factor, against a hand-written vectorised numpy version of the same
  prequential statistics (run-length encoding + one bincount per lag), checked equal;
* Majority Class / Persistent baseline predictions against numpy and river's
  ``PriorClassifier`` / ``NoChangeClassifier`` (river on a 10^5 prefix: it is per-instance
  Python);
* the Temporal Correction factors.

The target of issue 8 is >= 50 M labels/s single core for the diagnostics with L = 50 on
10^7 labels. Timings are noisy when the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

COMPILE_SNIPPET = """
import time, numpy as np
t0 = time.perf_counter()
from streamtk.dependence.label_dependence import label_dependence
from streamtk.dependence.baselines import majority_codes
from streamtk.dependence.correction import correction_factor_codes
y = np.array([0, 1, 1, 0, 2, 2, 2, 1] * 10)
label_dependence(y, max_lag=5, windows=4, fading=0.9)
majority_codes(y, 3); majority_codes(y, 3, kind="window", param=3); majority_codes(y, 3, kind="fading", param=0.9)
correction_factor_codes(y, 3); correction_factor_codes(y, 3, alpha=0.1); correction_factor_codes(y, 3, window=5)
print(time.perf_counter() - t0)
"""


def compile_times():
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, NUMBA_NUM_THREADS="1")
        cold = float(
            subprocess.run([sys.executable, "-c", COMPILE_SNIPPET], env=env, capture_output=True, text=True, check=True)
            .stdout.strip()
            .splitlines()[-1]
        )
        warm = float(
            subprocess.run([sys.executable, "-c", COMPILE_SNIPPET], env=env, capture_output=True, text=True, check=True)
            .stdout.strip()
            .splitlines()[-1]
        )
    return cold, warm


def make_stream(n, k, mean_run, rng):
    """Runs of geometric length (first-order dependence), vectorised."""
    lengths = rng.geometric(1.0 / mean_run, size=n // max(1, int(mean_run) // 2) + 10)
    classes = rng.integers(0, k, size=lengths.size)
    y = np.repeat(classes, lengths)
    while y.size < n:
        y = np.concatenate((y, y))
    return np.ascontiguousarray(y[:n].astype(np.int64))


def numpy_dependence(y, k, max_lag):
    """Hand-written numpy: counts, transitions, P(T) and P_l via run-length encoding."""
    n = y.size
    cnt = np.bincount(y, minlength=k).astype(float)
    trans = np.bincount(y[:-1] * k + y[1:], minlength=k * k).reshape(k, k).astype(float)
    starts = np.flatnonzero(np.concatenate(([True], y[1:] != y[:-1])))
    lengths = np.diff(np.concatenate((starts, [n])))
    cls = y[starts]
    terminated = np.ones(lengths.size)
    terminated[-1] = 0.0  # the last run has no following label
    big_n = np.empty((max_lag, k))
    big_h = np.empty((max_lag, k))
    for ell in range(1, max_lag + 1):
        h = np.maximum(lengths - ell, 0).astype(float)
        big_h[ell - 1] = np.bincount(cls, weights=h, minlength=k)
        big_n[ell - 1] = np.bincount(cls, weights=h + terminated * (lengths >= ell), minlength=k)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_run = big_h / big_n
    return cnt / n, trans / trans.sum(1, keepdims=True), np.trace(trans) / trans.sum(), p_run


def best_of(fn, repeat=3):
    times = []
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--max-lag", type=int, default=50)
    ap.add_argument("--classes", type=int, default=5)
    ap.add_argument("--skip-compile", action="store_true", help="skip the fresh-cache compile measurement")
    args = ap.parse_args()

    import numba

    numba.set_num_threads(1)
    from streamtk.dependence.baselines import majority_codes, persistent_codes
    from streamtk.dependence.correction import correction_factor_codes
    from streamtk.dependence.label_dependence import label_dependence

    n, k, lag = args.n, args.classes, args.max_lag
    print(f"n = {n:,} labels, k = {k} classes, L = {lag}, numba threads = {numba.get_num_threads()}")
    if not args.skip_compile:
        cold, warm = compile_times()
        print(f"compile (fresh cache, all kernels, incl. import): {cold:6.2f} s;  warm cache: {warm:6.2f} s")

    rng = np.random.default_rng(0)
    y = make_stream(n, k, 8.0, rng)
    classes = list(range(k))
    label_dependence(y[:1000], max_lag=lag, windows=100, fading=0.999, classes=classes)  # load kernels

    t_st, ds = best_of(lambda: label_dependence(y, max_lag=lag, classes=classes))
    t_np, ref = best_of(lambda: numpy_dependence(y, k, lag), repeat=1)
    sub = ds.isel(estimator=0, time=-1)
    np.testing.assert_allclose(sub["prior"].values, ref[0], rtol=1e-12)
    np.testing.assert_allclose(sub["transition"].values, ref[1], rtol=1e-12)
    np.testing.assert_allclose(sub["p_t"].item(), ref[2], rtol=1e-12)
    np.testing.assert_allclose(sub["p_run"].values, ref[3], rtol=1e-12, equal_nan=True)
    print(
        f"label_dependence prequential, L={lag}: {n / t_st / 1e6:8.1f} M labels/s "
        f"({t_st:.3f} s); numpy run-length version {n / t_np / 1e6:8.1f} M labels/s; "
        f"ratio {t_np / t_st:5.1f}x  [target >= 50 M labels/s]"
    )
    t3, _ = best_of(lambda: label_dependence(y, max_lag=lag, windows=1000, fading=0.999, classes=classes))
    print(
        f"label_dependence prequential + window + fading: {n / t3 / 1e6:8.1f} M labels/s "
        f"({3 * n / t3 / 1e6:.1f} M label-estimator updates/s)"
    )

    # baselines
    majority_codes(y[:100], k)
    t_maj, maj = best_of(lambda: majority_codes(y, k))
    t_per, per = best_of(lambda: persistent_codes(y))

    def numpy_majority():
        onehot = np.zeros((n, k), dtype=np.int32)
        onehot[np.arange(n), y] = 1
        counts = np.cumsum(onehot, 0)
        out = np.zeros(n, dtype=np.int64)
        out[1:] = np.argmax(counts[:-1], 1)
        return out

    t_maj_np, maj_np = best_of(numpy_majority, repeat=1)
    assert np.array_equal(maj, maj_np)
    print(
        f"Majority Class (cumulative): {n / t_maj / 1e6:8.1f} M/s; numpy cumsum+argmax "
        f"{n / t_maj_np / 1e6:8.1f} M/s; ratio {t_maj_np / t_maj:5.1f}x"
    )
    print(f"Persistent: {n / t_per / 1e6:8.1f} M/s")
    try:
        from river.dummy import NoChangeClassifier, PriorClassifier
    except ImportError:  # pragma: no cover - river is optional
        print("river not installed: skipping the river comparison")
    else:
        m = min(n, 100_000)
        prior, nochange = PriorClassifier(), NoChangeClassifier()
        t0 = time.perf_counter()
        rp, rn = [], []
        for label in y[:m].tolist():
            rp.append(prior.predict_one({}))
            rn.append(nochange.predict_one({}))
            prior.learn_one({}, label)
            nochange.learn_one({}, label)
        t_river = time.perf_counter() - t0
        agree_n = np.mean(np.array(rn[1:]) == per[1:m])
        print(
            f"river PriorClassifier + NoChangeClassifier on {m:,}: {m / t_river / 1e6:8.3f} M/s; "
            f"streamtk majority+persistent {n / (t_maj + t_per) / 1e6:8.1f} M/s; ratio "
            f"{(t_river / m) / ((t_maj + t_per) / n):8.0f}x; NoChange agreement (t >= 1) {agree_n:.4f}"
        )

    correction_factor_codes(y[:100], k, alpha=0.001)
    t_cf, _ = best_of(lambda: correction_factor_codes(y, k, alpha=0.001), repeat=2)
    print(f"Temporal Correction factors (alpha = 0.001): {n / t_cf / 1e6:8.1f} M labels/s")


if __name__ == "__main__":
    main()
