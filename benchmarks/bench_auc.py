"""Benchmark: exact streaming AUC (prequential + window + fading in one pass), single core.

    python benchmarks/bench_auc.py [--n 10000000] [--distinct 0] [--window 1000] [--alpha 0.999]
                                   [--river-n 20000] [--seed 0]

Binary stream, 30 % positives, positive scores shifted up. ``--distinct 0`` gives
float64 scores that are all distinct (the worst case: ``R = n`` ranks); ``--distinct d``
rounds scores to ``d`` decimals (``R ~ 1.3 * 10**d``, like probabilities logged with a
few digits). Printed:

* the binary kernel (``streamtk._kernels.auc.binary.run``: prequential AUC, windowed AUC
  with ``w = --window`` and faded AUC with ``alpha = --alpha`` updated at *every*
  instance, statistics written every 1000 instances) in instances/s, and the general
  kernel (``streamtk._kernels.auc.general.run``, the reference every fast path is tested
  against) on the same three estimators: the fast path's ratio to it;
* prequential + fading by the Fenwick kernel and by the offline divide and conquer over
  time (``streamtk._kernels.auc.offline.cumulative_offline``, checked equal), and the
  one-pass path ``auc_curves`` takes (window kernel + offline cumulative when
  ``R >= OFFLINE_MIN_RANKS``);
* the preparation the kernel needs (rank compression of the scores once,
  block-local window ranks) and the public ``streamtk.evaluation.scores.auc_curves`` end to end;
* the chunked exact AUC (:class:`streamtk.evaluation.auc_engine.AucEngine`, the state carried
  by :class:`streamtk.Evaluator` and :func:`streamtk.runners.outofcore.evaluate_store`) on the
  first ``--chunked-n`` instances in chunks of ``--chunk``, checked against the one-pass
  values (prequential and window exactly, fading to 1e-12);
* MOA's ``WindowAUCImbalancedPerformanceEvaluator`` (capymoa's jar, where capymoa and a
  JDK are installed) on ``--moa-n`` instances in a Java loop timed inside the JVM
  (``benchmarks/_moa.py``), its AUC read every 1000 instances and at every instance;
* river's ``metrics.RollingROCAUC`` (window) and ``metrics.ROCAUC`` (prequential, 10
  thresholds, approximate) on the first ``--river-n`` instances, and a hand-written
  numpy baseline (windowed AUC by the rank-sum formula recomputed at every
  instance, as a naive online evaluator does), each in the same process, with ratios;
* numba's cold compile time (fresh cache directory, subprocess) vs a warm on-disk cache.

Timings are process CPU time (``time.process_time``; the work is single threaded).
On a shared machine they are noisy: repeat and read the best.
"""

from __future__ import annotations

import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # single core, before numba is imported

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _moa import MoaBaseline  # noqa: E402

_FIRST_CALL = """
import time
t = time.perf_counter()
from streamtk.evaluation.scores import auc_curves
from streamtk._kernels.auc import offline
auc_curves([0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.9], windows=2, fading=0.9)
auc_curves([0, 1, 2, 1], [[.2, .3, .5], [.1, .8, .1], [.3, .3, .4], [.5, .4, .1]], classes=[0, 1, 2])
t1 = time.perf_counter()
offline.OFFLINE_MIN_RANKS = 1  # the offline cumulative path of large rank spaces (compiled on first use)
auc_curves([0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.9], windows=2, fading=0.9)
print(t1 - t, time.perf_counter() - t1)
"""


def first_call_seconds(cache_dir: str | None) -> tuple[float, float]:
    env = dict(os.environ, NUMBA_NUM_THREADS="1", PYTHONPATH=str(REPO))
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "-c", _FIRST_CALL], env=env, check=True, capture_output=True, text=True)
    first, offline = out.stdout.strip().splitlines()[-1].split()
    return float(first), float(offline)


def make_stream(n, distinct, seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = rng.random(n) * 0.7 + 0.3 * y
    if distinct:
        s = np.round(s, distinct)
    return y, s


def numpy_window_auc(y, s, w):
    """Naive baseline: rank-sum AUC of the last ``w`` instances, recomputed at every instance."""
    out = np.empty(len(y))
    for t in range(len(y)):
        lo = max(0, t - w + 1)
        ys, ss = y[lo : t + 1], s[lo : t + 1]
        n1 = ys.sum()
        n0 = ys.size - n1
        if n0 == 0 or n1 == 0:
            out[t] = np.nan
            continue
        order = np.argsort(ss, kind="stable")
        sorted_s = ss[order]
        # average ranks over ties
        _, first, counts = np.unique(sorted_s, return_index=True, return_counts=True)
        avg = first + (counts + 1) / 2.0
        ranks = np.repeat(avg, counts)
        r1 = ranks[ys[order] == 1].sum()
        out[t] = (r1 - n1 * (n1 + 1) / 2) / (n0 * n1)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--distinct", type=int, default=0)
    ap.add_argument("--window", type=int, default=1000)
    ap.add_argument("--alpha", type=float, default=0.999)
    ap.add_argument("--river-n", type=int, default=20_000)
    ap.add_argument("--numpy-n", type=int, default=5_000)
    ap.add_argument("--chunked-n", type=int, default=2_000_000)
    ap.add_argument("--chunk", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="kernel timings: best of this many runs")
    ap.add_argument("--skip-compile", action="store_true")
    ap.add_argument("--moa-n", type=int, default=1_000_000, help="instances fed to MOA's windowed AUC evaluator")
    ap.add_argument("--no-moa", action="store_true", help="skip MOA's evaluator (capymoa's jar, timed in the JVM)")
    args = ap.parse_args(argv)

    from streamtk._kernels.auc import offline as KO
    from streamtk.evaluation import scores as S

    n, w, a = args.n, args.window, args.alpha
    y, s = make_stream(n, args.distinct, args.seed)
    print(
        f"n = {n:,}, window = {w}, alpha = {a}, scores: "
        f"{'all distinct' if not args.distinct else f'{args.distinct} decimals'}"
    )

    # warm up the kernels (cached compile), the offline cumulative path of large rank spaces too
    S.auc_curves(y[:2000], s[:2000], windows=w, fading=a, every=1000)
    min_ranks, KO.OFFLINE_MIN_RANKS = KO.OFFLINE_MIN_RANKS, 1
    S.auc_curves(y[:2000], s[:2000], windows=w, fading=a, every=1000)
    KO.OFFLINE_MIN_RANKS = min_ranks

    c = time.process_time()
    ranks, R = S.rank_compress(s.reshape(1, -1))
    t_rank = time.process_time() - c
    c = time.process_time()
    local = local_ranks(ranks, w)
    t_local = time.process_time() - c
    cps = np.arange(999, n, 1000, dtype=np.int64)
    kern = BinaryKernels(y, ranks, R, local, cps)

    def kernel_rate(alphas, wsizes, general=False, prefetch=True):
        best = np.inf
        for _ in range(args.repeat):
            run = kern.general(alphas, wsizes) if general else kern.binary(alphas, wsizes, prefetch)
            best = min(best, run[0])
        return n / best

    def offline_seconds(alphas):
        """The cumulative estimators by divide and conquer over time (offline), best of --repeat."""
        alphas = np.asarray(alphas, dtype=np.float64)
        best = np.inf
        for _ in range(args.repeat):
            out = np.zeros((alphas.size, cps.size, 3, 1, 2))
            c = time.process_time()
            KO.cumulative_offline(ranks[0], y, kern.none_u8, kern.none_f, False, alphas, R, cps, out, KO.BLOCK)
            best = min(best, time.process_time() - c)
        return best, out

    rate_all = kernel_rate([1.0, a], [w])
    rate_win = kernel_rate([], [w])
    rate_pre = kernel_rate([1.0], [])
    rate_cum = kernel_rate([1.0, a], [])
    rate_gen = kernel_rate([1.0, a], [w], general=True)
    rate_gen_cum = kernel_rate([1.0, a], [], general=True)
    rate_gen_win = kernel_rate([], [w], general=True)
    rate_nopf = kernel_rate([1.0, a], [], prefetch=False)
    t_off, out_off = offline_seconds([1.0, a])
    # the offline statistics equal the Fenwick kernel's (prequential exactly, fading to 1e-12)
    ref = kern.binary([1.0, a], [])[1]
    np.testing.assert_array_equal(out_off[0], ref[0])
    np.testing.assert_allclose(out_off[1], ref[1], rtol=1e-12, atol=1e-12 * np.abs(ref[1]).max())
    rate_one = n / (n / rate_win + t_off)
    print(f"distinct scores R = {R:,}")
    print(
        f"kernel, 3 estimators in one pass : {rate_all / 1e6:8.2f} M instances/s ({n / rate_all:.2f} s; "
        f"issue 7 target >= 10 M/s)"
    )
    print(f"kernel, window only / prequential only: {rate_win / 1e6:.2f} / {rate_pre / 1e6:.2f} M instances/s")
    print(
        f"general kernel, the same 3 estimators: {rate_gen / 1e6:.2f} M instances/s; the binary fast path is "
        f"{rate_all / rate_gen:.2f}x faster (interleaved prequential + fading {rate_cum / rate_gen_cum:.2f}x, "
        f"block-local window {rate_win / rate_gen_win:.2f}x, prefetch on / off {rate_cum / rate_nopf:.2f}x)"
    )
    print(
        f"prequential + fading: Fenwick kernel {1e9 / rate_cum:.0f} ns/instance, offline (divide and conquer "
        f"over time) {t_off / n * 1e9:.0f} ns/instance (equal: prequential exactly, fading to 1e-12)"
    )
    used = KO.use_offline(n, R)
    print(
        f"one-pass path (auc_curves: window kernel + {'offline' if used else 'Fenwick'} cumulative, "
        f"offline from R >= {KO.OFFLINE_MIN_RANKS:,}): "
        f"{(rate_one if used else rate_all) / 1e6:.2f} M instances/s"
        + ("" if used else f" (with the offline cumulative it would be {rate_one / 1e6:.2f})")
    )
    print(f"  rank compression (once)        : {t_rank:.2f} s;  block-local window ranks: {t_local:.2f} s")
    c = time.process_time()
    ds = S.auc_curves(y, s, windows=w, fading=a, every=1000)
    t_api = time.process_time() - c
    print(f"auc_curves end to end            : {n / t_api / 1e6:8.2f} M instances/s ({t_api:.2f} s)")
    final = ds.auc.isel(time=-1).values
    print(f"  final AUC prequential / window / fading: {final.round(6).tolist()}")

    chunked_rate(y, s, w, a, min(args.chunked_n, n), args.chunk)

    # ---------------------------------------------------------------- baselines
    # MOA itself: WindowAUCImbalancedPerformanceEvaluator (Brzezinski & Stefanowski's prequential AUC) in a
    # Java loop timed inside the JVM (benchmarks/_moa.py); its AUC read every 1000 instances as the
    # kernel writes it, and at every instance (a curve at every instance costs MOA a walk over the window)
    moa = MoaBaseline.start_or_say_why(args.no_moa)
    if moa is not None:
        for every, m in ((1000, min(args.moa_n, n)), (1, min(args.moa_n // 10, n))):
            t = moa.evaluators(lambda: [moa.evaluator("WindowAUCImbalancedPerformanceEvaluator", widthOption=w)],
                               y[:m], (s[:m] > 0.5).astype(np.int32), 2, every, score=s[:m])  # fmt: skip
            print(f"MOA WindowAUCImbalanced(width={w}), AUC read every {every:>4}: {m / t / 1e6:8.4f} M instances/s "
                  f"on {m:,}; the streamtk window kernel is {rate_win / (m / t):,.1f}x faster, all 3 estimators "
                  f"{rate_all / (m / t):,.1f}x")  # fmt: skip

    m = min(args.river_n, n)
    try:
        from river import metrics as rm
    except ImportError:  # pragma: no cover - river is in the test environment
        rm = None
        print("river not installed: skipping the river baselines")
    if rm is not None:
        yb = y[:m].astype(bool)
        sb = s[:m].tolist()
        for name, metric, rate in [
            (f"RollingROCAUC(window_size={w})", rm.RollingROCAUC(window_size=w), rate_win),
            ("ROCAUC(n_thresholds=10)", rm.ROCAUC(), rate_pre),
        ]:
            c = time.process_time()
            for yi, si in zip(yb.tolist(), sb):
                metric.update(yi, si)
                metric.get()
            dt = time.process_time() - c
            print(
                f"river {name:28s}: {m / dt / 1e6:8.4f} M instances/s on {m:,}; "
                f"the same estimator in the streamtk kernel is {rate / (m / dt):,.0f}x faster, "
                f"all 3 estimators {rate_all / (m / dt):,.0f}x"
            )
        ds_small = S.auc_curves(y[:m], s[:m], windows=w, every=m)
        ours = float(ds_small.auc.sel(estimator=f"window={w}")[-1])
        print(
            f"  check at {m:,}: streamtk window AUC {ours:.6f} vs river "
            f"RollingROCAUC {metric_window_value(rm, y[:m], s[:m], w):.6f} "
            "(they agree when scores are distinct; streamtk counts tied pairs one half)"
        )
    k = min(args.numpy_n, n)
    c = time.process_time()
    ref = numpy_window_auc(y[:k], s[:k], w)
    dt = time.process_time() - c
    got = S.auc_curves(y[:k], s[:k], windows=w).auc.sel(estimator=f"window={w}").values
    assert np.allclose(ref, got, equal_nan=True), "numpy baseline disagrees"
    print(
        f"numpy rank-sum window AUC        : {k / dt / 1e6:8.4f} M instances/s on {k:,}; "
        f"streamtk window kernel is {rate_win / (k / dt):,.0f}x faster (values agree)"
    )

    if not args.skip_compile:
        with tempfile.TemporaryDirectory() as tmp:
            cold = first_call_seconds(tmp)
            warm = first_call_seconds(tmp)
        print(
            f"first call (import + compile, cold cache): {cold[0]:.1f} s; "
            f"with a warm on-disk cache: {warm[0]:.1f} s; "
            f"the offline path of large rank spaces on first use: +{cold[1]:.1f} s cold, +{warm[1]:.1f} s warm"
        )


def chunked_rate(y, s, w, a, m, chunk):
    """Throughput of the chunked exact AUC (carried state) and its agreement with the one pass."""
    from streamtk._core.mechanisms import build_estimators
    from streamtk._core.metrics import REGISTRY
    from streamtk.evaluation import scores as S
    from streamtk.evaluation.auc_engine import AucEngine

    specs = build_estimators(windows=[w], fading=[a])
    yc = y[:m]
    sc = s[None, :m]
    best = np.inf
    for _ in range(2):
        eng = AucEngine(specs, every=1000, n_classes=2, mode="binary", metrics=[REGISTRY["auc"], REGISTRY["auc_u1"]])
        c = time.process_time()
        for lo in range(0, m, chunk):
            eng.update(yc[lo : lo + chunk], sc[:, lo : lo + chunk])
        best = min(best, time.process_time() - c)
    _, got = eng.collect()
    ref = S.auc_curves(y[:m], s[:m], windows=w, fading=a, every=1000).auc.values  # (estimator, time)
    np.testing.assert_array_equal(got["auc"][0, :2], ref[:2])
    np.testing.assert_allclose(got["auc"][0, 2], ref[2], rtol=1e-12, atol=1e-12)
    print(
        f"chunked exact AUC (carried state): {m / best / 1e6:8.2f} M instances/s on {m:,} in chunks of {chunk:,} "
        "(3 estimators; equal to the one pass: prequential and window exactly, fading to 1e-12)"
    )


def local_ranks(ranks, w):
    """Block-local ranks ``(new, old)`` ``(1, 1, n)`` of a window of ``w`` over every instance."""
    from streamtk._kernels.auc.ranks import window_local_ranks

    n = ranks.shape[1]
    new, old = np.zeros((1, 1, n), dtype=np.int64), np.zeros((1, 1, n), dtype=np.int64)
    used = window_local_ranks(ranks[0], np.zeros(0, dtype=np.uint8), w, new[0, 0], old[0, 0])
    return new, old, used


class BinaryKernels:
    """The binary fast path and the general kernel called directly on one series (no weights, every
    instance a member), timed in CPU seconds; each call returns ``(seconds, snapshots (E, C, 3, 1, 2))``."""

    def __init__(self, y, ranks, R, local, cps):
        self.y, self.R, self.local, self.cps = y.astype(np.int64), R, local, cps
        self.ranks = np.ascontiguousarray(ranks.reshape(1, -1, 1))
        self.none_u8, self.none_f = np.zeros(0, dtype=np.uint8), np.zeros(0)

    def _inputs(self):
        from streamtk._kernels.auc import layout as LY

        return LY.Inputs(self.y, self.none_u8[None], self.none_f[None], self.ranks, self.ranks)

    def binary(self, alphas, wsizes, prefetch=True):
        from streamtk._kernels.auc import binary as KB
        from streamtk._kernels.auc import layout as LY

        alphas, wsizes = np.asarray(alphas, dtype=np.float64), np.asarray(wsizes, dtype=np.int64)
        Ec, Ew = alphas.size, wsizes.size
        E = Ec + Ew
        cum, win = np.arange(Ec, dtype=np.int64), np.arange(Ec, E, dtype=np.int64)
        new, old, used = self.local
        state = LY.BinaryState(np.zeros((1, E, 3, 1, 2)), np.ones((1, E)), np.zeros((1, E, LY.N_PTR), dtype=np.int64),
                               np.zeros((1, self.R + 1, 2, Ec)))  # fmt: skip
        snap = np.zeros((1, E, 3, 1, 2, self.cps.size))
        span = (np.int64(0), np.int64(0))
        c = time.process_time()
        plan = LY.BinaryPlan(cum, alphas, win, wsizes, new[:, :Ew], old[:, :Ew], used,
                             KB.PREFETCH_MIN_ROWS if prefetch else 1 << 62)  # fmt: skip
        KB.run(self._inputs(), False, plan, state, span, self.cps, snap)
        return time.process_time() - c, np.moveaxis(snap[0], -1, 1)

    def general(self, alphas, wsizes):
        from streamtk._core.mechanisms import build_estimators, kernel_arrays
        from streamtk._kernels.auc import general as KG
        from streamtk._kernels.auc import layout as LY

        specs = build_estimators(prequential=1.0 in alphas, windows=wsizes, fading=[x for x in alphas if x < 1])
        kinds, sizes, fading, marks, mark_off = kernel_arrays(specs)
        E = len(specs)
        sliding = np.array([sp.kind == "window" for sp in specs])
        slot = np.where(sliding, np.cumsum(sliding) - 1, np.cumsum(~sliding) - 1).astype(np.int64)
        mech = LY.Mechanisms(kinds, sizes, fading, marks, mark_off, slot, np.full(E, -1, dtype=np.int64),
                             np.zeros((1, 1, 0), dtype=np.int64))  # fmt: skip
        state = LY.State(np.zeros((1, E, 3, 1, 2)), np.ones((1, E)), np.zeros((1, E, LY.N_PTR), dtype=np.int64),
                         np.zeros((1, int((~sliding).sum()), 1, 2, self.R + 1)),
                         np.zeros((1, int(sliding.sum()), 1, 2, self.R + 1)))  # fmt: skip
        grps = LY.Groups(np.array([[0, 1]], dtype=np.int64), np.ones(1, dtype=np.int64), False)
        snap = np.zeros((1, E, 3, 1, 2, self.cps.size))
        c = time.process_time()
        KG.run(self._inputs(), grps, mech, state, (np.int64(0), np.int64(0)), np.arange(E), self.cps, snap)
        return time.process_time() - c, np.moveaxis(snap[0], -1, 1)


def metric_window_value(rm, y, s, w):
    metric = rm.RollingROCAUC(window_size=w)
    for yi, si in zip(y.astype(bool).tolist(), s.tolist()):
        metric.update(yi, si)
    return metric.get()


if __name__ == "__main__":
    main()
