"""What a user gets: streamtk's main jobs against MOA (through capymoa), river, numpy and the write floor.

One run, one process, single core (one numba thread): for each job the same recorded arrays go to
streamtk and to every baseline that can do the job, and the table gives instances per second and
streamtk's speed-up over each. The columns:

* **streamtk**: the public function as a user calls it (validation, labels, Dataset included), best CPU
  time of ``--repeat`` calls on ``n`` instances;
* **write floor**: for dense jobs (``every=1``), allocating and writing the same number of float64
  values once (``np.empty`` + ``fill``): no program that returns those curves can be faster;
* **numpy**: a hand-written vectorised numpy version of the same statistics (the functions of
  ``bench_engine.py``, ``bench_compare.py``, ``bench_auc.py``, ``bench_detectors.py``: cumulative sums,
  window differences, ``scipy.signal.lfilter``; the AUC recomputed per window with ``argsort``), on a
  prefix where it is slow;
* **river**: river's metrics or detectors updated and read at every instance, as its
  ``progressive_val_score`` does, on a prefix (``--river-n``), per instance;
* **MOA**: MOA's own evaluators and detectors (capymoa's ``moa.jar``) in a Java loop over the same
  arrays timed inside the JVM after a warm-up (``_moa.py``), measurements read at the job's checkpoints,
  on a prefix (``--moa-n``).

A baseline that lacks part of the job does less work than streamtk (river has no fading factor,
``kappa_m`` or ``kappa_per``; its side is timed without them), which favours it; the "what" column
says what each side computes. Last, the cold first call of ``evaluate`` (a fresh process and an empty
kernel cache; ``bench_compile.py`` gives every entry point) and the recorders' overhead over the
libraries' own loops (``bench_recorders.py``).

    python benchmarks/bench_overview.py [--n 2000000] [--river-n 50000] [--moa-n 500000] [--repeat 3]
                                        [--no-moa] [--no-recorders] [--markdown]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # single core, before numba is imported

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_auc  # noqa: E402
import bench_compare  # noqa: E402
import bench_engine  # noqa: E402
from _moa import MoaBaseline  # noqa: E402

METRICS, WINDOWS, FADING = bench_engine.METRICS, bench_engine.WINDOWS, bench_engine.FADING


def cpu_best(fn, repeat):
    """Best process CPU seconds of ``repeat`` calls, after one untimed call (compilation for this input's size:
    the compiled finalisers of large outputs are built once per machine, ``streamtk._core.finalise``)."""
    fn()
    best = np.inf
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def once(fn):
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


class Row:
    def __init__(self, job, what, n, seconds):
        self.job, self.what, self.rate = job, what, n / seconds
        self.base = {}  # column -> (rate, note)

    def add(self, column, m, seconds, note=""):
        self.base[column] = (m / seconds, note)


COLUMNS = ("write floor", "numpy", "river", "MOA")


def evaluate_jobs(args, moa, rows):
    import streamtk

    n = args.n
    y, p = bench_engine.make_stream(n)
    what = "8 metrics x prequential + windows 100/1000/10000 + fading 0.99/0.999"
    for every, dense_n in ((1000, n), (1, min(n, 10**6))):
        m = dense_n
        job = f"`evaluate`, every={every}" + (f" (n = {m:,})" if m != n else "")
        kw = dict(metrics=METRICS, windows=WINDOWS, fading=FADING, every=every)
        streamtk.evaluate(y[:1000], p[:1000], **kw)
        row = Row(job, what, m, cpu_best(lambda: streamtk.evaluate(y[:m], p[:m], **kw), args.repeat))
        if every == 1:
            points = len(METRICS) * (1 + len(WINDOWS) + len(FADING)) * m
            row.add("write floor", m, bench_engine.fresh_write_floor(points, args.repeat)[0])
        nm = min(m, 10**6)
        row.add("numpy", nm, cpu_best(lambda: bench_engine.numpy_curves(y[:nm], p[:nm], every), args.repeat),
                "the same curves")  # fmt: skip
        r = min(args.river_n, m)
        row.add("river", r, bench_engine.river_per_instance(y[:r], p[:r]) * r,
                "5 of the 8 metrics (no kappa_m, kappa_per, kappa_plus), no fading")  # fmt: skip
        if moa is not None:
            mm = min(args.moa_n, m) if every > 1 else min(args.moa_n // 10, m)

            def evaluators():
                evs = [moa.evaluator("BasicClassificationPerformanceEvaluator")]
                evs += [moa.evaluator("WindowClassificationPerformanceEvaluator", widthOption=w) for w in WINDOWS]
                evs += [moa.evaluator("FadingFactorClassificationPerformanceEvaluator", alphaOption=a) for a in FADING]
                return evs

            row.add("MOA", mm, moa.evaluators(evaluators, y[:mm], p[:mm], 2, every),
                    "Basic + 3 Window + 2 FadingFactor evaluators (accuracy, kappa, kappa_temp, kappa_m)")  # fmt: skip
        rows.append(row)

    # the ADWIN window: MOA's AdwinClassificationPerformanceEvaluator; river has no ADWIN-windowed metric
    kw = dict(metrics=["accuracy", "kappa"], adwin=[0.002], every=1000)
    streamtk.evaluate(y[:1000], p[:1000], **kw)
    row = Row("`evaluate`, ADWIN window, every=1000", "accuracy, kappa, prequential + adwin=[0.002]", n,
              cpu_best(lambda: streamtk.evaluate(y, p, **kw), args.repeat))  # fmt: skip
    if moa is not None:
        mm = min(args.moa_n, n)
        make = lambda: [moa.evaluator("AdwinClassificationPerformanceEvaluator")]  # noqa: E731
        row.add("MOA", mm, moa.evaluators(make, y[:mm], p[:mm], 2, 1000), "AdwinClassificationPerformanceEvaluator")
    rows.append(row)

    # compare: Q statistic and McNemar of two models (no river or MOA evaluator exists)
    p2 = np.where(np.random.default_rng(1).random(n) < 0.9, y, 1 - y).astype(np.int8)
    kw = dict(windows=WINDOWS[:2], fading=FADING, every=1000)
    streamtk.compare(y[:1000], p[:1000], p2[:1000], **kw)
    row = Row("`compare`, every=1000", "Q + McNemar, prequential + 2 windows + 2 fading", n,
              cpu_best(lambda: streamtk.compare(y, p, p2, **kw), args.repeat))  # fmt: skip
    la, lb = (p != y).astype(np.float64), (p2 != y).astype(np.float64)
    ck = np.arange(999, n, 1000)
    old = bench_compare.WINDOWS
    bench_compare.WINDOWS = WINDOWS[:2]
    try:
        row.add("numpy", n, cpu_best(lambda: bench_compare.numpy_compare(la, lb, ck), args.repeat), "the same")
    finally:
        bench_compare.WINDOWS = old
    rows.append(row)


def auc_job(args, moa, rows):
    import streamtk

    n = min(args.n, 10**6)
    y, s = bench_auc.make_stream(n, 0, 0)
    y = np.asarray(y)
    kw = dict(windows=[1000], every=1000)
    streamtk.auc_curves(y[:2000], s[:2000], **kw)
    seconds = cpu_best(lambda: streamtk.auc_curves(y, s, **kw), args.repeat)
    row = Row(f"`auc_curves`, window 1000, every=1000 (n = {n:,}, distinct scores)",
              "exact AUC, prequential + window 1000", n, seconds)  # fmt: skip
    m = min(args.river_n // 10, n)
    row.add("numpy", m, once(lambda: bench_auc.numpy_window_auc(y[:m], s[:m], 1000)), "window AUC by argsort")
    from river import metrics as rm

    r = min(args.river_n // 5, n)

    def river_auc():
        met = rm.RollingROCAUC(window_size=1000)
        for a, b in zip(y[:r].tolist(), s[:r].tolist()):
            met.update(bool(a), b)
            met.get()

    row.add("river", r, once(river_auc), "RollingROCAUC (window only)")
    if moa is not None:
        mm = min(args.moa_n, n)
        row.add("MOA", mm, moa.evaluators(lambda: [moa.evaluator("WindowAUCImbalancedPerformanceEvaluator",
                                                                 widthOption=1000)],
                                          y[:mm], (s[:mm] > 0.5).astype(np.int8), 2, 1000, score=s[:mm]),
                "WindowAUCImbalancedPerformanceEvaluator (window only)")  # fmt: skip
    rows.append(row)


def detector_jobs(args, moa, rows):
    import river.drift
    import river.drift.binary

    from streamtk.drift import adwin, ddm, page_hinkley

    n = args.n
    rng = np.random.default_rng(0)
    seg = np.repeat(rng.choice([0.1, 0.3], size=n // 100_000 + 1), 100_000)[:n]
    x = (rng.random(n) < seg).astype(np.float64)
    jobs = (
        ("ADWIN", lambda v: adwin(v, trace=False), lambda: river.drift.ADWIN(), "ADWIN"),
        ("DDM", lambda v: ddm(v, trace=False), lambda: river.drift.binary.DDM(), "DDM"),
        ("Page-Hinkley", lambda v: page_hinkley(v, trace=False), lambda: river.drift.PageHinkley(mode="up"),
         "PageHinkley"),
    )  # fmt: skip
    for name, ours, theirs, moa_name in jobs:
        ours(x[:1000])
        row = Row(f"`drift` {name}", "detections on a 0/1 error stream", n, cpu_best(lambda: ours(x), args.repeat))
        r = min(args.river_n * 4, n)

        def run_river():
            det = theirs()
            for v in x[:r].tolist():
                det.update(v)
                det.drift_detected  # noqa: B018  (read it, as a loop does)

        row.add("river", r, once(run_river))
        if moa is not None:
            row.add("MOA", n, moa.detector(moa_name, x)[0])
        rows.append(row)


def recorder_rows(args):
    """The recorders' overhead over the libraries' own loops (Electricity), or the reason it is skipped."""
    import bench_recorders

    from streamtk import datasets

    try:
        st = datasets.load("electricity_arff", path=os.environ.get("STREAMTK_DATA"))
    except Exception as err:  # no offline copy and no download here
        return f"recorders: not measured ({err})"
    data = (np.asarray(st.X), np.asarray(st.y, dtype=object), list(st.feature_names))
    m = min(args.recorder_n, len(data[1]))
    lines = [f"`record` on Electricity ({m:,} instances; medians of {args.repeat} rounds; ratio = record / own loop):"]
    rows = bench_recorders.bench_river(data, m, args.repeat)
    try:
        import capymoa  # noqa: F401

        rows += bench_recorders.bench_capymoa(st.source_path, m, args.repeat)
    except ImportError:
        pass
    for lib, name, variant, _, own, rec, ratio, _ in rows:
        lines.append(f"  {lib} {name} ({variant}): own loop {own:.2f} s, record {rec:.2f} s, ratio {ratio:.2f}")
    return "\n".join(lines)


def cold_first_call():
    import bench_compile

    code = bench_compile.ENTRY_POINTS["evaluate (binary, windows + fading)"]
    cold_wall, cold_cpu, warm_wall, _, kernels = bench_compile.measure("evaluate", code, 1)
    return (f"cold first call of `{code}` (fresh process, empty kernel cache): {cold_wall:.2f} s wall "
            f"({warm_wall:.2f} s with a warm cache; {kernels} kernels compiled)")  # fmt: skip


def print_table(rows, markdown):
    head = ["job", "streamtk (M/s)", *COLUMNS]
    lines = []
    for r in rows:
        cells = [r.job, f"{r.rate / 1e6:.2f}"]
        for c in COLUMNS:
            if c in r.base:
                rate, _ = r.base[c]
                cells.append(f"{rate / 1e6:.3g} ({r.rate / rate:,.3g}x)")
            else:
                cells.append("-")
        lines.append(cells)
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for cells in lines:
            print("| " + " | ".join(cells) + " |")
    else:
        widths = [max(len(str(x[i])) for x in [head, *lines]) for i in range(len(head))]
        for cells in [head, *lines]:
            print("  ".join(str(c).ljust(w) for c, w in zip(cells, widths)))
    print("\nwhat each side computes:")
    for r in rows:
        notes = "; ".join(f"{c}: {note}" for c, (_, note) in r.base.items() if note)
        print(f"  {r.job}: streamtk: {r.what}" + (f"; {notes}" if notes else ""))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2_000_000)
    ap.add_argument("--river-n", type=int, default=50_000)
    ap.add_argument("--moa-n", type=int, default=500_000)
    ap.add_argument("--recorder-n", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-moa", action="store_true", help="skip MOA (capymoa's jar, timed in the JVM)")
    ap.add_argument("--no-recorders", action="store_true")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold first call (a subprocess)")
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown")
    args = ap.parse_args(argv)
    moa = MoaBaseline.start_or_say_why(args.no_moa)  # before anything else starts the JVM
    rows = []
    evaluate_jobs(args, moa, rows)
    auc_job(args, moa, rows)
    detector_jobs(args, moa, rows)
    print(f"n = {args.n:,} unless the job says; load {os.getloadavg()[0]:.2f}; ratios: streamtk / baseline\n")
    print_table(rows, args.markdown)
    if not args.no_cold:
        print("\n" + cold_first_call())
    if not args.no_recorders:
        print("\n" + recorder_rows(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
