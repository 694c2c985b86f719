"""Cold first call of every public entry point: import + compile + run, in a fresh kernel cache.

Each entry point runs in its own Python process with an empty cache (``STREAMTK_CACHE`` pointing at
a new temporary folder, ``NUMBA_CACHE_DIR`` unset), then once more with the cache filled (warm).
Printed per entry point: wall and CPU seconds of the whole process, cold and warm, and the kernels
compiled. Targets (issue 19): the first ``evaluate`` with windows and fading on a binary stream in at
most 5 s, ``python -m streamtk demo`` in at most 20 s end to end (quiet 2-core machine).

    python benchmarks/bench_compile.py [--only evaluate,demo] [--repeat 1]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_DATA = """
import numpy as np
rng = np.random.default_rng(0)
n = 20_000
y = (rng.random(n) < 0.4).astype(np.int64)
p = np.where(rng.random(n) < 0.85, y, 1 - y)
yk = rng.integers(0, 4, n)
pk = np.where(rng.random((2, n)) < 0.7, yk, rng.integers(0, 4, (2, n)))
w = rng.random((2, n))
s = np.clip(p + rng.normal(0, 0.4, n), 0, 1)
err = (y != p).astype(float)
yr = np.cumsum(rng.normal(size=n))
pr = yr + rng.normal(size=n)
ym = (rng.random((n, 5)) < 0.3).astype(np.int8)
pm = np.where(rng.random((n, 5)) < 0.85, ym, 1 - ym)
"""

#: entry point -> the code of its first call (after ``import streamtk`` and the data above)
ENTRY_POINTS = {
    "import streamtk": "",
    "evaluate (binary, windows + fading)": "streamtk.evaluate(y, p, windows=[100], fading=[0.99])",
    "evaluate (4 classes, weights)": "streamtk.evaluate(yk, pk, weights=w, windows=[100], fading=[0.99])",
    "evaluate (tumbling, landmarks)": "streamtk.evaluate(y, p, tumbling=[500], landmarks=[5000, 12000])",
    "evaluate (interval=0.95, analytic)": "streamtk.evaluate(y, p, windows=[100], fading=[0.99], interval=0.95)",
    "evaluate (interval=0.95, bootstrap)": (
        "streamtk.evaluate(y, p, windows=[100], fading=[0.99], interval=0.95, interval_method='bootstrap', seed=0)"
    ),
    "evaluate (interval=0.95, sequence)": (
        "streamtk.evaluate(y, p, windows=[100], fading=[0.99], interval=0.95, interval_method='sequence')"
    ),
    "compare (interval=0.95, sequence)": (
        "streamtk.compare(y, p, y, windows=[100], interval=0.95, interval_method='sequence')"
    ),
    "evaluate (adwin)": "streamtk.evaluate(y, p, adwin=[0.002])",
    "evaluate (convention='moa')": "streamtk.evaluate(y, p, windows=[100], fading=[0.99], convention='moa')",
    "evaluate (y_score: AUC, log loss)": "streamtk.evaluate(y, p, y_score=s, windows=[100])",
    "auc_curves": "streamtk.auc_curves(y, s, windows=[100], fading=[0.99])",
    "auc_curves (imbalanced: average_precision, pr_auc, sauc)": (
        "streamtk.auc_curves(y, s, windows=[100], fading=[0.99], metrics=['average_precision', 'pr_auc', 'sauc'])"
    ),
    "auc_curves (imbalanced, convention='moa')": (
        "streamtk.auc_curves(y, s, windows=[100], metrics=['auc', 'sauc', 'pos_neg_ratio'], convention='moa')"
    ),
    "multilabel_curves": "streamtk.multilabel_curves(ym, pm, windows=[100], fading=[0.99])",
    "multilabel_curves (convention='moa')": "streamtk.multilabel_curves(ym, pm, convention='moa')",
    "compare": "streamtk.compare(y, p, y, windows=[100], fading=[0.99])",
    "loss_curves": "streamtk.loss_curves(err, windows=[100], fading=[0.99])",
    "label_dependence": "streamtk.label_dependence(yk, windows=[100], max_lag=5)",
    "baselines": "streamtk.evaluate(streamtk.baselines(yk, windows=[100], seed=0))",
    "temporal_correction": "streamtk.temporal_correction(np.full((n, 4), 0.25), yk, fading=0.99)",
    "page_hinkley": "streamtk.drift.page_hinkley(err)",
    "ddm": "streamtk.drift.ddm(err)",
    "eddm": "streamtk.drift.eddm(err)",
    "adwin (detector)": "streamtk.drift.adwin(err)",
    "regression_curves (windows + fading)": "streamtk.regression_curves(yr, pr, windows=[100], fading=[0.99])",
    "regression_curves (median, adwin)": "streamtk.regression_curves(yr, pr, metrics=['median_absolute_error'], "
    "adwin=[0.002])",
    "regression_curves (convention='moa')": "streamtk.regression_curves(yr, pr, windows=[100], convention='moa')",
    "interval_curves (windows + fading)": "streamtk.interval_curves(yr, pr - 1, pr + 1, alpha=0.1, windows=[100], "
    "fading=[0.99])",
}
DEMO = "python -m streamtk demo"


def _run(cmd, env, cwd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed:\n{r.stderr[-2000:]}")
    return wall, cpu


def measure(name, code, repeat):
    """``(cold wall, cold cpu, warm wall, warm cpu, kernels compiled)``: best of ``repeat`` fresh caches."""
    best = None
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as work:
            env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
            env.update(STREAMTK_CACHE=cache, NUMBA_NUM_THREADS="1", PYTHONPATH=str(ROOT), MPLBACKEND="Agg")
            if name == "demo":
                cmd = [sys.executable, "-m", "streamtk", "demo", "-q", "-o", work]
            else:
                cmd = [sys.executable, "-c", f"import streamtk\n{_DATA}\n{code}"]
            cold = _run(cmd, env, work)
            warm = _run(cmd, env, work)
            kernels = sum(1 for p in Path(cache).rglob("*.nbc"))
            row = (*cold, *warm, kernels)
            best = row if best is None or row[0] < best[0] else best
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated substrings of entry point names (or 'demo')")
    ap.add_argument("--repeat", type=int, default=1, help="fresh caches per entry point (best wall time)")
    ap.add_argument("--no-demo", action="store_true", help="skip the end-to-end demo")
    args = ap.parse_args(argv)
    items = list(ENTRY_POINTS.items())
    if not args.no_demo:
        items.append(("demo", DEMO))
    if args.only:
        keys = [k.strip() for k in args.only.split(",")]
        items = [(n, c) for n, c in items if any(k in n for k in keys)]
    print(
        f"cold first call in a fresh kernel cache (whole process: import + compile + run), one numba thread; "
        f"python {sys.version.split()[0]}"
    )
    print(f"{'entry point':<40}{'cold wall':>10}{'cold cpu':>10}{'warm wall':>10}{'warm cpu':>10}{'kernels':>9}")
    for name, code in items:
        cw, cc, ww, wc, kernels = measure(name, code, args.repeat)
        print(f"{name:<40}{cw:>9.2f}s{cc:>9.2f}s{ww:>9.2f}s{wc:>9.2f}s{kernels:>9d}", flush=True)


if __name__ == "__main__":
    main()
