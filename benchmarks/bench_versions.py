"""The same work on two versions of streamtk: CPU throughput of one job (one numba thread).

Two ways to run it. Both versions in one process, calls alternating (old, new, new, old, ...), which
cancels most of a noisy machine's drift and gives both versions the same heap::

    git worktree add /tmp/before c6b658a
    python benchmarks/bench_versions.py evaluate1000 2000000 --against /tmp/before --pairs 9

(the old ``streamtk/`` is copied to the temporary folder ``streamtk_before-<hash of its files>`` as
the package ``streamtk_before``, its absolute imports rewritten; the copy and its kernel cache are
reused by later runs). Or one version per process, best of 3 calls, each version first on the
path, one run right after the other::

    PYTHONPATH=/tmp/before python benchmarks/bench_versions.py evaluate1000 2000000
    PYTHONPATH=. python benchmarks/bench_versions.py evaluate1000 2000000

Jobs: evaluate1000, evaluate_preq, evaluate_windows, evaluate_fading, evaluate_adwin, compare,
label_dependence, auc, adwin, ddm, page_hinkley, loss_curves, loss_prequential, and the dense jobs
(``every=1``) evaluate_dense, evaluate2_dense, compare_dense, loss_dense, auc_dense,
label_dependence_dense, baselines (``all``: every job, with ``--against``). Versions before the core
rebuild kept compare, label_dependence, auc_curves and loss_curves in flat modules; both layouts are found.

With ``--against``, each line also gives each version's peak memory: the resident set above the process
before one call (sampled every millisecond, one fresh process per version and job, after a warm-up call).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

#: job -> default stream length of ``all``
SIZES = {
    "evaluate1000": 2_000_000,
    "evaluate_preq": 2_000_000,
    "evaluate_windows": 2_000_000,
    "evaluate_fading": 2_000_000,
    "evaluate_adwin": 2_000_000,
    "compare": 2_000_000,
    "label_dependence": 2_000_000,
    "auc": 1_000_000,
    "adwin": 4_000_000,
    "ddm": 4_000_000,
    "page_hinkley": 4_000_000,
    "loss_curves": 4_000_000,
    "loss_prequential": 4_000_000,
    "evaluate_dense": 1_000_000,
    "evaluate2_dense": 1_000_000,
    "compare_dense": 1_000_000,
    "loss_dense": 1_000_000,
    "auc_dense": 200_000,
    "label_dependence_dense": 1_000_000,
    "baselines": 1_000_000,
}


def data(n):
    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.6).astype(np.int8)
    y = np.where(rng.random(n) < 0.7, np.roll(y, 1), y).astype(np.int8)
    p = np.where(rng.random(n) < 0.85, y, 1 - y).astype(np.int8)
    p2 = np.where(rng.random(n) < 0.8, y, 1 - y).astype(np.int8)
    err = (y != p).astype(float)
    s = np.clip(p * 0.5 + rng.random(n) * 0.5, 0, 1)
    return y, p, p2, err, s


def jobs(pkg: str, n: int):
    """``job -> f(m)`` running the job on the first ``m`` instances, with package ``pkg``'s functions."""
    st = importlib.import_module(pkg)
    d = importlib.import_module(f"{pkg}.drift")
    compare, auc_curves = getattr(st, "compare", None), getattr(st, "auc_curves", None)
    loss_curves, label_dependence = getattr(st, "loss_curves", None), getattr(st, "label_dependence", None)
    if not callable(compare):  # the layout before the core rebuild: flat modules
        compare = importlib.import_module(f"{pkg}.compare").compare
        loss_curves = importlib.import_module(f"{pkg}.losses").loss_curves
        auc_curves = importlib.import_module(f"{pkg}.scores").auc_curves
        label_dependence = importlib.import_module(f"{pkg}.temporal").label_dependence
        baselines = importlib.import_module(f"{pkg}.baselines").baselines
    else:
        baselines = importlib.import_module(f"{pkg}.dependence.baselines").baselines
    y, p, p2, err, s = data(n)
    W, F = [100, 1000, 10000], [0.99, 0.999]
    M = ["accuracy", "kappa", "kappa_m", "kappa_per", "kappa_plus", "f1", "mcc", "geometric_mean"]
    return {
        "evaluate1000": lambda m: st.evaluate(y[:m], p[:m], windows=W, fading=F, metrics=M, every=1000),
        "evaluate_preq": lambda m: st.evaluate(y[:m], p[:m], metrics=M, every=1000),
        "evaluate_windows": lambda m: st.evaluate(y[:m], p[:m], windows=W, metrics=M, every=1000),
        "evaluate_fading": lambda m: st.evaluate(y[:m], p[:m], fading=F, metrics=M, every=1000),
        "evaluate_adwin": lambda m: st.evaluate(
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
        # dense curves (every=1): what issue 31 is about
        "evaluate_dense": lambda m: st.evaluate(y[:m], p[:m], windows=W, fading=F, metrics=M, every=1),
        "evaluate2_dense": lambda m: st.evaluate(y[:m], p[:m], windows=[1000], fading=[0.999], metrics=M[:2], every=1),
        "compare_dense": lambda m: compare(y[:m], p[:m], p2[:m], windows=[1000, 10000], fading=F, every=1),
        "loss_dense": lambda m: loss_curves(err[:m], windows=W, fading=F, every=1),
        "auc_dense": lambda m: auc_curves(y[:m], s[:m], windows=[1000], fading=[0.999], every=1),
        "label_dependence_dense": lambda m: label_dependence(y[:m], windows=[1000], fading=[0.999], max_lag=5, every=1),
        "baselines": lambda m: baselines(y[:m], windows=[1000], fading=[0.999]),
    }


def importable_copy(checkout: Path) -> Path:
    """The folder holding ``streamtk_before``: ``checkout/streamtk`` with its absolute imports renamed.

    Named by a hash of the old files, so a later run reuses the copy and the kernels numba cached in it.
    """
    src = checkout / "streamtk"
    if not (src / "__init__.py").exists():
        raise SystemExit(f"--against: {checkout} has no streamtk/__init__.py")
    digest = hashlib.sha1()
    for f in sorted(src.rglob("*.py")):
        digest.update(str(f.relative_to(src)).encode() + f.read_bytes())
    into = Path(tempfile.gettempdir()) / f"streamtk_before-{digest.hexdigest()[:12]}"
    if (into / "streamtk_before" / "__init__.py").exists():
        return into
    part = Path(tempfile.mkdtemp(prefix="streamtk_before-", dir=tempfile.gettempdir()))
    dst = part / "streamtk_before"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    pattern = re.compile(r"\b(from|import) streamtk\b")
    for f in dst.rglob("*.py"):
        text = f.read_text()
        new = pattern.sub(lambda m: f"{m.group(1)} streamtk_before", text)
        new = new.replace("import streamtk_before\n", "import streamtk_before as streamtk\n")
        if new != text:
            f.write_text(new)
    try:
        part.rename(into)  # another run may have made it meanwhile: then use that one
    except OSError:
        shutil.rmtree(part, ignore_errors=True)
    return into


def cpu(f, n):
    c = time.process_time()
    f(n)
    return time.process_time() - c


def one_version(which, n):
    f = jobs("streamtk", n)[which]
    f(20000)
    best = min(cpu(f, n) for _ in range(3))
    print(f"{which} {n} {n / best / 1e6:.2f} M/s CPU")


def both_versions(which, n, pairs):
    old, new = jobs("streamtk_before", n)[which], jobs("streamtk", n)[which]
    for f in (old, new):  # compile, then one full call each (first-touch pages, caches)
        f(20000)
        f(n)
    t_old, t_new = [], []
    for i in range(pairs):
        order = ((old, t_old), (new, t_new)) if i % 2 == 0 else ((new, t_new), (old, t_old))
        for f, acc in order:
            acc.append(cpu(f, n))
    ratios = [a / b for a, b in zip(t_old, t_new)]
    rate_old, rate_new = n / statistics.median(t_old) / 1e6, n / statistics.median(t_new) / 1e6
    print(
        f"{which:<18}{n:>9} old {rate_old:8.2f} M/s  new {rate_new:8.2f} M/s  new/old: median of pairs "
        f"{statistics.median(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f},"
        f" {pairs} pairs)",
        flush=True,
    )


def _rss() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def peak_rss(pkg, which, n) -> float:
    """MB of resident memory above the process before one call of ``which`` (after a warm-up call)."""
    import threading

    f = jobs(pkg, n)[which]
    f(20000)
    start = peak = _rss()
    done = threading.Event()

    def sample():
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _rss())
            time.sleep(0.001)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    f(n)
    done.set()
    th.join()
    return (max(peak, _rss()) - start) / 2**20


def _peak_in_child(pkg, which, n, path) -> float:
    import subprocess

    here = os.path.dirname(os.path.abspath(__file__))
    code = (
        f"import sys; sys.path.insert(0, {str(path)!r}); sys.path.insert(0, {here!r}); import bench_versions as b; "
        f"print(b.peak_rss({pkg!r}, {which!r}, {n}))"
    )
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    # one numba thread, set before streamtk (and numba) are imported: importing this module sets nothing
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("job", help=f"one of {', '.join(SIZES)}, or 'all' (with --against)")
    ap.add_argument("n", type=int, nargs="?", help="stream length (default: the job's size in SIZES)")
    ap.add_argument("--against", type=Path, help="a checkout of the old version: run both in this process")
    ap.add_argument("--pairs", type=int, default=7, help="alternating old/new calls (with --against)")
    ap.add_argument("--no-memory", action="store_true", help="skip the peak-memory measurement (with --against)")
    args = ap.parse_args(argv)
    names = list(SIZES) if args.job == "all" else [args.job]
    unknown = [j for j in names if j not in SIZES]
    if unknown:
        raise SystemExit(f"job {unknown[0]!r} is not one of {', '.join(SIZES)}")
    if args.against is None:
        if len(names) > 1:
            raise SystemExit("job 'all' needs --against (one version per process runs one job)")
        one_version(names[0], args.n or SIZES[names[0]])
        return
    old_path = importable_copy(args.against.resolve())
    sys.path.insert(0, str(old_path))
    for which in names:
        n = args.n or SIZES[which]
        both_versions(which, n, args.pairs)
        if not args.no_memory:
            here = Path(__file__).resolve().parent.parent
            mb = [
                _peak_in_child(pkg, which, n, path) for pkg, path in (("streamtk_before", old_path), ("streamtk", here))
            ]
            print(f"{'':<18}peak memory above the process: old {mb[0]:8.0f} MB  new {mb[1]:8.0f} MB", flush=True)


if __name__ == "__main__":
    main()
