"""Benchmark: the recorder's overhead over the learners' own test-then-train loops.

Run ``python benchmarks/bench_recorders.py [--n N] [--repeat R] [--data DIR]``.

On Electricity (MOA's ``elecNormNew.arff``, 45,312 instances; ``$STREAMTK_DATA`` or ``--data``),
in the same process, the loops of one learner run ``R`` times each in turn (the order rotated
every round, so that no loop always runs first or on a warmer JIT), after one warm-up run of
each; the table gives the median time of each loop and the median over the rounds of the
ratio ``record / own loop`` within a round (the target of issue 24 is at most 1.10). Two
rows per learner:

* ``default``: ``record(model, stream)`` as a user calls it, which does strictly more than the
  library's loop: it keeps every prediction, the class scores, the time of every instance and
  the model's memory every 10,000 instances (river's loop keeps none of these, capymoa's keeps
  neither scores, time per instance nor memory);
* ``matched``: ``record(..., scores=False, memory_every=None)`` against the library's loop
  doing the same keeping where it can: capymoa's with ``store_predictions=True,
  store_y=True``; river's ``progressive_val_score`` has no such option (it keeps only its
  metric, and updates it: work the recorder does not do). The recorder still keeps the time
  of every instance (two clock reads per instance and model).

Loops: river ``evaluate.progressive_val_score(pairs, model, metrics.Accuracy())`` for a
Hoeffding tree and Gaussian naive Bayes over one list of ``(dict, label)`` pairs; capymoa
``prequential_evaluation(stream, learner)`` (a loop inside the JVM) for MOA's HoeffdingTree
and NaiveBayes on one capymoa ARFF stream (the recorder runs its own Java loop there). The
recorded predictions are checked against river's and MOA's accuracy. Timings are noisy on a
shared machine; the ratio within a round is what counts.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

DEFAULT_EXTRA = "record keeps predictions, class scores, time per instance, memory every 10,000"
MATCHED_EXTRA = {
    "river": "record keeps predictions and time per instance; river updates Accuracy",
    "capymoa": "both keep predictions and labels; record also keeps time per instance",
}


def _rounds(loops: dict, repeat: int, label: str = "", verbose: bool = False):
    """Run every loop ``repeat`` times in rotated order; per loop the list of (seconds, result)."""
    names = list(loops)
    out = {k: [] for k in names}
    for r in range(repeat):
        for k in names[r % len(names) :] + names[: r % len(names)]:
            t0 = time.perf_counter()
            res = loops[k]()
            out[k].append((time.perf_counter() - t0, res))
        if verbose:
            print(f"{label} round {r + 1}: " + ", ".join(f"{k} {out[k][-1][0]:.3f} s" for k in names), file=sys.stderr)
    return out


def _rows(lib, name, n, runs, matched_own):
    """One row per variant: medians of the loops' times and of the per-round ratios."""
    rows = []
    for variant, key, own_key in (("default", "record", "own"), ("matched", "record_matched", matched_own)):
        base = [t for t, _ in runs[own_key]]
        rec = [t for t, _ in runs[key]]
        ratio = statistics.median(r / b for r, b in zip(rec, base))
        rows.append(
            (lib, name, variant, n, statistics.median(base), statistics.median(rec), ratio, min(rec) / min(base))
        )
    return rows


def _accuracy(log, model, cls_index_zero=False):
    yt = log.y_true.values
    yp = log.y_pred.sel(model=model).values
    if cls_index_zero:  # MOA's evaluators count a missing prediction as class index 0
        first = log["class"].values[0]
        yp = np.array([first if p is None else p for p in yp], dtype=object)
        return float(np.mean(yp == yt.astype(object)))
    ok = np.array([p is not None for p in yp])
    return float(np.mean(yp[ok] == yt[ok].astype(object)))


def bench_river(data, n, repeat, verbose=False):
    from river import evaluate, metrics, naive_bayes, tree

    from streamtk.recorders import record

    X, y, names = data
    pairs = [({f: v for f, v in zip(names, row) if v == v}, lab) for row, lab in zip(X[:n].tolist(), y[:n].tolist())]
    rows = []
    learners = (("HoeffdingTreeClassifier", tree.HoeffdingTreeClassifier), ("GaussianNB", naive_bayes.GaussianNB))
    for name, factory in learners:

        def loops(part):
            return {
                "own": lambda: evaluate.progressive_val_score(part, factory(), metrics.Accuracy()),
                "record": lambda: record({name: factory()}, part, progress=False),
                "record_matched": lambda: record(
                    {name: factory()}, part, progress=False, scores=False, memory_every=None
                ),
            }

        _rounds(loops(pairs[:2000]), 1)  # first calls: imports, caches
        runs = _rounds(loops(pairs), repeat, f"river {name}", verbose)
        acc = runs["own"][-1][1].get()
        for key in ("record", "record_matched"):
            ours = _accuracy(runs[key][-1][1], name)
            assert abs(ours - acc) < 1e-12, (name, key, ours, acc)
        rows += _rows("river", name, len(pairs), runs, "own")
    return rows


def bench_capymoa(path, n, repeat, verbose=False):
    from capymoa.classifier import HoeffdingTree, NaiveBayes
    from capymoa.evaluation import prequential_evaluation
    from capymoa.stream import stream_from_file

    from streamtk.recorders import record

    stream = stream_from_file(str(path))
    rows = []
    for cls in (HoeffdingTree, NaiveBayes):
        name = cls.__name__

        def loops(limit):
            return {
                "own": lambda: prequential_evaluation(stream, cls(schema=stream.get_schema()), max_instances=limit),
                "own_stored": lambda: prequential_evaluation(
                    stream, cls(schema=stream.get_schema()), max_instances=limit, store_predictions=True, store_y=True
                ),
                "record": lambda: record({name: cls(schema=stream.get_schema())}, stream, max_instances=limit,
                                         progress=False),
                "record_matched": lambda: record({name: cls(schema=stream.get_schema())}, stream, max_instances=limit,
                                                 progress=False, scores=False, memory_every=None),
            }  # fmt: skip

        _rounds(loops(n), 1)  # the JVM compiles both loops' hot code during a whole run
        runs = _rounds(loops(n), repeat, f"capymoa {name}", verbose)
        acc = runs["own"][-1][1].cumulative.accuracy() / 100.0
        for key in ("record", "record_matched"):
            ours = _accuracy(runs[key][-1][1], name, cls_index_zero=True)
            assert abs(ours - acc) < 1e-12, (name, key, ours, acc)
        rows += _rows("capymoa", name, runs["record"][-1][1].sizes["time"], runs, "own_stored")
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=45_312, help="instances (default: all of Electricity)")
    p.add_argument("--repeat", type=int, default=5, help="rounds of each loop (medians reported)")
    p.add_argument("--data", default=os.environ.get("STREAMTK_DATA"), help="data directory (default $STREAMTK_DATA)")
    p.add_argument("--only", choices=["river", "capymoa"], help="run one library only")
    p.add_argument("-v", "--verbose", action="store_true", help="print every round's times on stderr")
    a = p.parse_args(argv)
    if a.repeat < 1:
        p.error(f"--repeat must be >= 1, got {a.repeat}")
    from streamtk import datasets

    st = datasets.load("electricity_arff", path=a.data)
    rows = []
    if a.only in (None, "river"):
        data = (np.asarray(st.X), np.asarray(st.y, dtype=object), list(st.feature_names))
        rows += bench_river(data, a.n, a.repeat, a.verbose)
    if a.only in (None, "capymoa"):
        try:
            import capymoa  # noqa: F401
        except ImportError as err:
            print(f"capymoa baseline skipped: {err}")
        else:
            rows += bench_capymoa(Path(st.source_path), a.n, a.repeat, a.verbose)
    print(
        f"medians of {a.repeat} rounds (ratio: median over rounds of record / own loop in the same round; "
        "best: fastest record / fastest own loop, the two least disturbed by other processes)"
    )
    head = f"{'library':<9}{'model':<25}{'variant':<9}{'instances':>10}{'own loop s':>12}{'record s':>10}{'ratio':>7}"
    print(head + f"{'best':>7}  what differs")
    for lib, name, variant, n, own, rec, ratio, best in rows:
        extra = DEFAULT_EXTRA if variant == "default" else MATCHED_EXTRA[lib]
        print(f"{lib:<9}{name:<25}{variant:<9}{n:>10}{own:>12.3f}{rec:>10.3f}{ratio:>7.3f}{best:>7.3f}  {extra}")
    if rows:
        worst = max(r[6] for r in rows)
        print(f"worst ratio {worst:.3f} (target <= 1.10)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
