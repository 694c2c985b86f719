"""Benchmark: ADWIN detector throughput, single core, against river's ``drift.ADWIN``.

    python benchmarks/bench_adwin.py [--n 10000000] [--river-n 300000] [--seed 0]

The stream is Bernoulli in segments of 250,000 inputs with p cycling through
0.2, 0.35, 0.2, 0.5, so the detector both grows long windows and cuts. Printed: inputs/s of the kernel
(``streamtk._kernels.adwin.adwin_run_one``, the serial loop that
``adwin_run`` runs per lead) writing all four per-step outputs, writing the
widths only, and called as the evaluation engine calls it (blocks of 2048
inputs from a numba loop, widths only); of the public
``streamtk.drift.adwin.adwin`` (including output allocation and the Dataset),
MOA's ``ADWINChangeDetector`` (capymoa's jar, where installed: a Java loop over the same
inputs timed inside the JVM, ``benchmarks/_moa.py``) and
river's ``drift.ADWIN`` on the first ``--river-n`` inputs of the same stream in
the same process, the ratio, and numba's cold compile time (fresh cache
directory, in a subprocess) vs the first call with a warm on-disk cache.

Timings use process CPU time (``time.process_time``) where the work is single
threaded; on a shared machine they are still noisy: repeat and read the best.
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

SEGMENT = 250_000  # inputs per Bernoulli segment

_FIRST_CALL = """
import time, numpy as np
t = time.perf_counter()
from streamtk.drift.adwin import adwin
adwin(np.zeros(100))
print(time.perf_counter() - t)
"""


def first_call_seconds(cache_dir: str | None) -> float:
    """Import + first call of ``adwin`` in a fresh interpreter (numba cache in ``cache_dir``)."""
    env = dict(os.environ, NUMBA_NUM_THREADS="1", PYTHONPATH=str(REPO))
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "-c", _FIRST_CALL], env=env, check=True, capture_output=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def make_stream(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    p = np.resize(np.repeat([0.2, 0.35, 0.2, 0.5], SEGMENT), n)
    return (rng.random(n) < p).astype(np.float64)


def make_engine_blocks(run_one):
    """A numba loop calling ``run_one`` on blocks of 2048 inputs, widths only (as the engine does)."""
    import numba

    @numba.njit
    def blocks(x, S, V, C, ist, fst, width):
        none_f = np.empty(0)
        none_i = np.empty(0, np.int8)
        n = x.shape[0]
        for b0 in range(0, n, 2048):
            b1 = min(n, b0 + 2048)
            run_one(x[b0:b1], (S, V, C, ist, fst), (0.002, 32, 5, 0), (width[b0:b1], none_f, none_f, none_i))

    return blocks


def best_of(fn, repeats: int) -> float:
    best = np.inf
    for _ in range(repeats):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000_000, help="stream length for streamtk")
    ap.add_argument("--river-n", type=int, default=300_000, help="prefix length fed to river")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-moa", action="store_true", help="skip MOA's ADWIN (capymoa's jar, timed in the JVM)")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        cold = first_call_seconds(tmp)
        warm = first_call_seconds(tmp)  # same cache directory, now populated
    print(f"import + first call: cold compile {cold:.2f} s, warm on-disk cache {warm:.2f} s")

    from streamtk._kernels import adwin as K
    from streamtk.drift.adwin import adwin, adwin_detections

    x = make_stream(args.n, args.seed)
    outs = (
        np.empty(args.n, np.int64),
        np.empty(args.n, np.float64),
        np.empty(args.n, np.float64),
        np.empty(args.n, np.int8),
    )

    width_only = (outs[0], np.empty(0), np.empty(0), np.empty(0, np.int8))

    def run_kernel(o=outs):
        sums, variances, counts, istate, fstate = K.adwin_state_new(1, 5)
        K.adwin_run_one(x, (sums[0], variances[0], counts[0], istate[0], fstate[0]), (0.002, 32, 5, 0), o)

    engine_blocks = make_engine_blocks(K.adwin_run_one)

    def run_engine_style():
        sums, variances, counts, istate, fstate = K.adwin_state_new(1, 5)
        engine_blocks(x, sums[0], variances[0], counts[0], istate[0], fstate[0], outs[0])

    run_kernel()  # compile / load before timing
    run_engine_style()
    t_kernel = best_of(run_kernel, args.repeats)
    t_width = best_of(lambda: run_kernel(width_only), args.repeats)
    t_engine = best_of(run_engine_style, args.repeats)
    t_public = best_of(lambda: adwin(x), args.repeats)
    ds = adwin(x)
    n_det = int((ds.detection.values != 0).sum())
    print(
        f"streamtk kernel, all outputs : {args.n / t_kernel / 1e6:8.1f} M inputs/s  ({t_kernel:.3f} s for n={args.n:,})"
    )
    print(f"streamtk kernel, widths only : {args.n / t_width / 1e6:8.1f} M inputs/s")
    print(f"engine-style 2048-blocks     : {args.n / t_engine / 1e6:8.1f} M inputs/s  (widths only)")
    print(
        f"streamtk adwin()             : {args.n / t_public / 1e6:8.1f} M inputs/s  (Dataset incl.; {n_det} detections)"
    )

    # MOA itself: capymoa's jar, a Java loop over the same inputs timed inside the JVM (benchmarks/_moa.py)
    moa = MoaBaseline.start_or_say_why(args.no_moa)
    if moa is not None:
        s, changes = moa.detector("ADWIN", x)
        rises = int((ds.detection.values > 0).sum())  # MOA's detector flags a cut only when the mean rose
        print(f"MOA ADWINChangeDetector: {args.n / s / 1e6:8.2f} M inputs/s  (a Java loop timed inside the JVM; "
              f"{changes} changes, streamtk {rises} rises of its {n_det} cuts); streamtk adwin() / MOA: "
              f"{s / t_public:.1f}x, kernel (all outputs) / MOA: {s / t_kernel:.1f}x")  # fmt: skip

    try:
        from river import drift
    except ImportError:  # pragma: no cover - river is an optional dependency
        print("river not installed: no baseline")
        return
    m = min(args.river_n, args.n)
    xs = x[:m].tolist()

    def run_river():
        det = drift.ADWIN(delta=0.002)
        hits = []
        for i, v in enumerate(xs):
            det.update(v)
            if det.drift_detected:
                hits.append(i)
        return hits

    river_hits = run_river()
    t_river = best_of(run_river, 1)
    ours = adwin_detections(adwin(x[:m]))
    print(
        f"river drift.ADWIN: {m / t_river / 1e6:8.2f} M inputs/s  (n={m:,}; {len(river_hits)} detections, "
        f"streamtk {ours.size} on the same prefix; river's scan differs from MOA's)"
    )
    print(
        f"ratio kernel (all outputs) / river: {args.n / t_kernel / (m / t_river):.0f}x; "
        f"widths only / river: {args.n / t_width / (m / t_river):.0f}x"
    )


if __name__ == "__main__":
    main()
