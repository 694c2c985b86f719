"""Dense curves (``every=1``): each job's time against the fresh-write floor, and its peak memory.

The *fresh-write floor* of a job is the time to allocate and write arrays of the same shapes as the
job's output variables: what writing the curves costs at the least. It is measured two ways, because
the kernel's page handling dominates it: ``np.empty`` + ``fill`` (numpy asks for transparent huge pages
for arrays of 4 MB and more; on a fragmented machine their first writes can stall on compaction) and
the same on small pages (an anonymous ``mmap`` with ``MADV_NOHUGEPAGE``); the floor is the faster of
the two in each round, and the ratio ``job / floor`` the median over the rounds. Floors and job run
alternately in this process (the order rotated every round), each timed in CPU seconds. Peak memory:
the resident set sampled every millisecond during one call, above the resident set before it, beside
the size of the output (the returned Dataset's data variables and coordinates).

    python benchmarks/bench_dense.py [--n 1000000] [--pairs 5] [--only evaluate8,compare]

Jobs (binary int8 streams, one numba thread):

* ``evaluate8``: 8 metrics (accuracy, kappa, kappa_m, kappa_per, kappa_plus, f1, mcc, geometric_mean)
  x prequential + windows 100/1000/10000 + fading 0.99/0.999 (issue 31's target: at most 2x the floor);
* ``evaluate2``: accuracy and kappa, window 1000 + fading 0.999 (plus prequential);
* ``compare``: Q and McNemar of two models, windows 1000/10000 + fading 0.99/0.999;
* ``loss_curves``: a real-valued loss, windows 100/1000/10000 + fading 0.99/0.999;
* ``auc_curves``: exact AUC, window 1000 + fading 0.999 (``n / 10`` instances: the Fenwick trees);
* ``label_dependence``: window 1000 + fading 0.999, ``max_lag=5``;
* ``baselines``: every baseline classifier's predictions (a log), window 1000 + fading 0.999.
"""

from __future__ import annotations

import argparse
import mmap
import os
import statistics
import sys
import threading
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

M8 = ["accuracy", "kappa", "kappa_m", "kappa_per", "kappa_plus", "f1", "mcc", "geometric_mean"]


def data(n, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.6).astype(np.int8)
    y = np.where(rng.random(n) < 0.7, np.roll(y, 1), y).astype(np.int8)
    p = np.where(rng.random(n) < 0.85, y, 1 - y).astype(np.int8)
    p2 = np.where(rng.random(n) < 0.8, y, 1 - y).astype(np.int8)
    loss = np.abs(rng.normal(size=n))
    s = np.clip(p * 0.5 + rng.random(n) * 0.5, 0, 1)
    return y, p, p2, loss, s


def jobs(n):
    """``name -> (callable, instances)``."""
    import streamtk
    from streamtk.dependence.baselines import baselines
    from streamtk.evaluation.losses import loss_curves

    y, p, p2, loss, s = data(n)
    W, F = [100, 1000, 10000], [0.99, 0.999]
    na = max(1000, n // 10)
    return {
        "evaluate8": (lambda: streamtk.evaluate(y, p, windows=W, fading=F, metrics=M8, every=1), n),
        "evaluate2": (lambda: streamtk.evaluate(y, p, windows=1000, fading=0.999, metrics=M8[:2], every=1), n),
        "compare": (lambda: streamtk.compare(y, p, p2, windows=[1000, 10000], fading=F, every=1), n),
        "loss_curves": (lambda: loss_curves(loss, windows=W, fading=F, every=1), n),
        "auc_curves": (lambda: streamtk.auc_curves(y[:na], s[:na], windows=1000, fading=0.999, every=1), na),
        "label_dependence": (
            lambda: streamtk.label_dependence(y, windows=1000, fading=0.999, max_lag=5, every=1),
            n,
        ),
        "baselines": (lambda: baselines(y, windows=1000, fading=0.999), n),
    }


def output_arrays(ds):
    """The shapes and dtypes of a result's data variables (what the floor allocates and writes)."""
    return [(v.shape, v.dtype) for v in ds.data_vars.values()]


def floor(shapes):
    """Allocate (``np.empty``) and write arrays of ``shapes``: the least that producing them costs."""
    out = [np.empty(shape, dtype=dtype) for shape, dtype in shapes]
    for a in out:
        a.fill(1)
    return out


def floor_small_pages(shapes):
    """The same on small pages (an anonymous mapping advised ``MADV_NOHUGEPAGE``, where Linux has it)."""
    out = []
    for shape, dtype in shapes:
        nbytes = max(int(np.prod(shape)) * np.dtype(dtype).itemsize, 1)
        buf = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        if hasattr(mmap, "MADV_NOHUGEPAGE"):
            buf.madvise(mmap.MADV_NOHUGEPAGE)
        a = np.frombuffer(buf, dtype=dtype, count=int(np.prod(shape))).reshape(shape)
        a.fill(1)
        out.append(a)
    return out


def cpu(f):
    t = time.process_time()
    f()
    return time.process_time() - t


def rss() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def peak_memory(f) -> tuple[float, object]:
    """``(peak resident bytes above the start, result)`` of one call, sampled every millisecond."""
    start = rss()
    peak = [start]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss())
            time.sleep(0.001)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    out = f()
    done.set()
    th.join()
    peak[0] = max(peak[0], rss())
    return peak[0] - start, out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--pairs", type=int, default=5, help="rounds (job and both floors, in rotated order)")
    ap.add_argument("--only", default="", help="comma-separated job names")
    args = ap.parse_args(argv)
    table = jobs(args.n)
    names = [j for j in table if not args.only or j in args.only.split(",")]
    print(
        "dense jobs (every=1), one numba thread, CPU seconds; floor = allocating and writing the same arrays "
        "(numpy's np.empty, small pages; the faster of the two per round)"
    )
    print(f"{'job':<18}{'n':>10}{'M inst/s':>10}{'job s':>9}{'numpy s':>9}{'small s':>9}{'job/floor':>10}"
          f"{'output MB':>11}{'peak MB':>9}{'peak/output':>12}")  # fmt: skip
    for name in names:
        f, n = table[name]
        ds = f()  # compile, warm
        shapes = output_arrays(ds)
        out_bytes = ds.nbytes  # everything the result holds (its coordinates too)
        del ds
        t_job, t_np, t_small = [], [], []
        steps = [(f, t_job), (lambda: floor(shapes), t_np), (lambda: floor_small_pages(shapes), t_small)]
        for i in range(args.pairs):
            for g, acc in steps[i % 3 :] + steps[: i % 3]:
                acc.append(cpu(g))
        ratios = [a / min(b, c) for a, b, c in zip(t_job, t_np, t_small)]
        peak, _ = peak_memory(f)
        tj = statistics.median(t_job)
        print(
            f"{name:<18}{n:>10}{n / tj / 1e6:>10.2f}{tj:>9.3f}{statistics.median(t_np):>9.3f}"
            f"{statistics.median(t_small):>9.3f}"
            f"{statistics.median(ratios):>10.2f}{out_bytes / 2**20:>11.0f}{peak / 2**20:>9.0f}"
            f"{peak / max(out_bytes, 1):>12.2f}",
            flush=True,
        )


if __name__ == "__main__":
    sys.exit(main())
