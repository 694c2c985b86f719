"""Benchmark: producing the paper figures' logs (MOA learners test-then-train) and evaluating them.

Run ``python benchmarks/bench_figures.py [--n N] [--river-n M]``.

For one stream (MOA's WaveformGenerator, seed 1) and two learners (MOA's HoeffdingTree and NaiveBayes)
it prints the throughput (instances per second, both learners per instance, class scores kept) of

* the in-JVM loop of ``paper_figures/java/StreamtkMoaLoop.java`` (the default producer),
* its Python twin over the same Java objects (``paper_figures._moa.PythonLoop``, used without ``javac``),
* capymoa's own Python API (``classifier.predict_proba`` / ``train`` on capymoa ``Instance`` objects),
* river's HoeffdingTreeClassifier and GaussianNB (the fallback producer) on river's Waveform, on ``river-n``
  instances,

with the ratios to the in-JVM loop, all in the same process; the Java and Python loops' predictions are
checked to be identical. Then the time streamtk takes to evaluate the produced log (prequential, two
windows, two fading factors, ADWIN: the curves of Gama et al. Fig. 3 and Bifet et al. Fig. 3) against the
time to produce it. Wall-clock and CPU seconds (CPU includes the JVM's JIT threads); on a shared machine
the numbers are noisy, the ratios less so.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LEARNERS = ("trees.HoeffdingTree", "bayes.NaiveBayes")


def timed(fn):
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def moa_loop(_moa, n, cache, python_loop):
    from paper_figures import _streams

    stream = _moa.make_stream(_streams.waveform(1).moa)
    sess = _moa.MoaSession(LEARNERS, stream.getHeader(), cache, python_loop=python_loop)
    return sess.run(stream, n, keep_votes=True)


def capymoa_api(n):
    from capymoa.classifier import HoeffdingTree, NaiveBayes
    from capymoa.stream.generator import WaveformGenerator

    stream = WaveformGenerator(instance_random_seed=1)
    schema = stream.get_schema()
    models = [HoeffdingTree(schema=schema), NaiveBayes(schema=schema)]
    pred = np.zeros((2, n), dtype=np.int64)
    for i in range(n):
        inst = stream.next_instance()
        for j, m in enumerate(models):
            p = m.predict_proba(inst)
            pred[j, i] = int(np.argmax(p)) if p is not None else 0
            m.train(inst)
    return pred


def river_loop(n):
    from river import naive_bayes, tree
    from river.datasets.synth import Waveform

    models = [tree.HoeffdingTreeClassifier(), naive_bayes.GaussianNB()]
    pred = np.zeros((2, n), dtype=np.int64)
    for i, (x, y) in enumerate(Waveform(seed=1).take(n)):
        for j, m in enumerate(models):
            p = m.predict_proba_one(x)
            pred[j, i] = max(p, key=p.get) if p else 0
            m.learn_one(x, y)
    return pred


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=50_000)
    ap.add_argument("--river-n", type=int, default=5_000)
    a = ap.parse_args(argv)
    from paper_figures import _moa

    ok, why = _moa.status()
    if not ok:
        print(f"MOA is not available ({why}); nothing to compare")
        return 0
    cache = Path(tempfile.mkdtemp(prefix="bench_figures_"))
    _moa.set_cache(cache)
    moa_loop(_moa, 2000, cache, False)  # compile the loop class and warm the JVM
    rows = []
    (y, pj, vj), wj, cj = timed(lambda: moa_loop(_moa, a.n, cache, False))
    rows.append(("MOA, in-JVM loop (StreamtkMoaLoop)", a.n, wj, cj))
    (_, pp, vp), wp, cp = timed(lambda: moa_loop(_moa, a.n, cache, True))
    rows.append(("MOA, Python twin over JPype", a.n, wp, cp))
    same = np.array_equal(pj, pp) and np.array_equal(vj, vp)
    m = min(a.n, 20_000)
    _, wc, cc = timed(lambda: capymoa_api(m))
    rows.append(("MOA, capymoa's Python API", m, wc, cc))
    try:
        _, wr, cr = timed(lambda: river_loop(a.river_n))
        rows.append(("river (HoeffdingTree + GaussianNB)", a.river_n, wr, cr))
    except ImportError as err:
        print(f"river not installed ({err}): no river baseline")
    base, base_cpu = a.n / wj, a.n / cj
    print(f"Producing a log: Waveform, {' + '.join(LEARNERS)}, class scores kept")
    print(
        f"{'producer':40s} {'instances':>10s} {'wall s':>8s} {'CPU s':>8s} {'inst/s':>9s} {'inst/CPU s':>11s} "
        f"{'JVM loop / this (wall, CPU)':>28s}"
    )
    for name, k, w, c in rows:
        print(
            f"{name:40s} {k:10d} {w:8.2f} {c:8.2f} {k / w:9.0f} {k / c:11.0f} "
            f"{base / (k / w):13.1f} {base_cpu / (k / c):13.1f}"
        )
    print(f"Java loop and Python twin give identical predictions and scores: {same}")
    import streamtk

    def ev():
        return streamtk.evaluate(
            y,
            pj[0],
            windows=(1000, 10000),
            fading=(0.999, 0.9999),
            adwin=(0.002,),
            every=100,
            metrics=["error", "kappa"],
        )

    ev()  # compile
    _, we, ce = timed(ev)
    print(
        f"streamtk.evaluate of the log ({a.n} instances, prequential + 2 windows + 2 fading + ADWIN): "
        f"{we:.3f} s wall ({a.n / we / 1e6:.1f} M inst/s), {wj / we:.0f}x faster than producing it"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
