"""The same work on two versions of streamtk: CPU throughput of one job (best of 3, one numba thread).

Run it once per version, right after each other, with each version first on the path::

    git worktree add /tmp/before c6b658a
    PYTHONPATH=/tmp/before python benchmarks/bench_versions.py evaluate1000 5000000
    PYTHONPATH=. python benchmarks/bench_versions.py evaluate1000 5000000

Jobs: evaluate1000, evaluate_adwin, compare, label_dependence, auc, adwin, ddm, page_hinkley,
loss_curves, loss_prequential. Versions before the core rebuild kept compare, label_dependence, auc_curves and
loss_curves in flat modules; both layouts are found.
"""

import os
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
import numpy as np

import streamtk
import streamtk.drift as d
from streamtk import auc_curves, compare, label_dependence, loss_curves

if not callable(compare):  # the layout before the core rebuild: flat modules
    from streamtk.compare import compare
    from streamtk.losses import loss_curves
    from streamtk.scores import auc_curves
    from streamtk.temporal import label_dependence
which, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(0)
y = (rng.random(n) < 0.6).astype(np.int8)
y = np.where(rng.random(n) < 0.7, np.roll(y, 1), y).astype(np.int8)
p = np.where(rng.random(n) < 0.85, y, 1 - y).astype(np.int8)
p2 = np.where(rng.random(n) < 0.8, y, 1 - y).astype(np.int8)
err = (y != p).astype(float)
s = np.clip(p * 0.5 + rng.random(n) * 0.5, 0, 1)
W, F = [100, 1000, 10000], [0.99, 0.999]
M = ["accuracy", "kappa", "kappa_m", "kappa_per", "kappa_plus", "f1", "mcc", "geometric_mean"]
jobs = {
    "evaluate1000": lambda m: streamtk.evaluate(y[:m], p[:m], windows=W, fading=F, metrics=M, every=1000),
    "evaluate_adwin": lambda m: streamtk.evaluate(
        y[:m], p[:m], windows=W, fading=F, adwin=[0.002], metrics=M, every=1000
    ),
    "compare": lambda m: compare(y[:m], p[:m], p2[:m], windows=[1000, 10000], fading=F, every=1000),
    "label_dependence": lambda m: label_dependence(y[:m], windows=[1000], fading=[0.999], max_lag=5, every=1000),
    "auc": lambda m: auc_curves(y[:m], s[:m], windows=[1000], fading=[0.999], every=1000),
    "adwin": lambda m: d.adwin(err[:m], delta=0.002),
    "ddm": lambda m: d.ddm(err[:m], trace=False),
    "page_hinkley": lambda m: d.page_hinkley(err[:m], trace=False),
    "loss_curves": lambda m: loss_curves(err[:m], windows=W, fading=F, every=1000),
    "loss_prequential": lambda m: loss_curves(err[:m], every=1000),
}
f = jobs[which]
f(20000)
best = 1e9
for _ in range(3):
    c = time.process_time()
    f(n)
    best = min(best, time.process_time() - c)
print(f"{which} {n} {n / best / 1e6:.2f} M/s CPU")
