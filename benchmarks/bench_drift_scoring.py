"""Benchmark: scoring detector alarms against known drifts, 1,000 runs x 10 settings x 10 drifts.

Run ``python benchmarks/bench_drift_scoring.py [--runs R] [--settings S] [--drifts K] [--n N]``.

The alarms are drawn once (seeded): each of ``settings x runs`` rows gets alarms near
every drift (detected with probability 0.8, delay uniform in [0, 300)) plus
Poisson false alarms (rate growing with the setting index, as a threshold sweep
would give). Then, in the same process:

* ``score_detections(convention="capymoa")`` on a detector-like Dataset
  (``detection_index`` / ``n_detections`` over ``(setting, run)``) and on a list input,
  against capymoa's ``EvaluateDriftDetector`` called once per (setting, run) - what a
  capymoa user writes - and the check that every field is equal;
* ``score_detections(convention="streamtk")`` (all measures, the delay statistics
  across runs with their confidence intervals) and ``convention="moa"``;
* a hand-written per-run Python loop of the streamtk matching (``match_detections``)
  as a baseline.

Prints wall-clock times (best of ``--repeat``), rows per second and the ratios.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def best_time(fn, repeat):
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def make_alarms(runs, settings, drifts, n, seed):
    rng = np.random.default_rng(seed)
    starts = np.linspace(n / (drifts + 1), n * drifts / (drifts + 1), drifts).astype(np.int64)
    rows = []
    for s in range(settings):
        rate = (s + 1) * 2.0 / n  # expected false alarms per instance
        for _ in range(runs):
            hit = rng.random(drifts) < 0.8
            det = starts[hit] + rng.integers(0, 300, hit.sum())
            fa = rng.integers(0, n, rng.poisson(rate * n))
            rows.append(np.unique(np.concatenate([det, fa]).clip(0, n - 1)))
    return starts, rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--settings", type=int, default=10)
    ap.add_argument("--drifts", type=int, default=10)
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    import xarray as xr

    from streamtk.drift.scoring import match_detections, score_detections

    starts, rows = make_alarms(args.runs, args.settings, args.drifts, args.n, seed=1)
    R, S, K, n = args.runs, args.settings, args.drifts, args.n
    # the alarms as a detector returns them: detection_index padded with -1, n_detections
    width = max(r.size for r in rows)
    idx = np.full((S, R, width), -1, np.int64)
    for i, row in enumerate(rows):
        idx[i // R, i % R, : row.size] = row
    da = xr.Dataset(
        {"detection_index": (("setting", "run", "detection_number"), idx),
         "n_detections": (("setting", "run"), np.array([r.size for r in rows]).reshape(S, R))},
        coords={"setting": np.arange(S)}, attrs={"n_instances": n},
    )  # fmt: skip
    lists = [rows[i].tolist() for i in range(R)]  # one setting as lists
    n_rows = S * R
    alarms = sum(r.size for r in rows)
    print(f"{R} runs x {S} settings x {K} drifts, n = {n}: {n_rows} rows, {alarms} alarms")
    truth = starts.tolist()
    md = 500

    t_cap, cap = best_time(lambda: score_detections(da, truth, convention="capymoa", max_delay=md), args.repeat)
    t_st, _ = best_time(lambda: score_detections(da, truth, max_delay=md), args.repeat)
    t_moa, _ = best_time(lambda: score_detections(da, truth, convention="moa"), args.repeat)
    t_list, _ = best_time(lambda: score_detections(lists, truth, convention="capymoa", max_delay=md, n=n),
                          args.repeat)  # fmt: skip
    print(f"streamtk capymoa convention  {t_cap:8.3f} s  {n_rows / t_cap / 1e3:9.1f} k rows/s  (detector Dataset)")
    print(f"streamtk capymoa, lists      {t_list:8.3f} s  {R / t_list / 1e3:9.1f} k rows/s  (one setting)")
    print(f"streamtk streamtk convention {t_st:8.3f} s  {n_rows / t_st / 1e3:9.1f} k rows/s  (every measure)")
    print(f"streamtk moa convention      {t_moa:8.3f} s  {n_rows / t_moa / 1e3:9.1f} k rows/s")

    sub = max(1, n_rows // 10)
    t_loop, _ = best_time(lambda: [match_detections(rows[i], truth, max_delay=md, n=n) for i in range(sub)], 1)
    t_loop *= n_rows / sub
    print(f"python loop (match_detections), extrapolated from {sub} rows: {t_loop:8.3f} s  "
          f"-> streamtk convention {t_loop / t_st:6.1f}x faster")  # fmt: skip

    try:
        from capymoa.drift.eval_detector import EvaluateDriftDetector
    except Exception as err:  # noqa: BLE001 - capymoa or Java missing: say why and stop
        print(f"capymoa baseline skipped: {err}")
        return 0
    trues = np.column_stack([starts, starts])

    def capymoa_all():
        out = []
        for i in range(n_rows):
            ev = EvaluateDriftDetector(max_delay=md)
            out.append(ev.calc_performance(trues=trues, preds=rows[i], tot_n_instances=n))
        return out

    t_ref, ref = best_time(capymoa_all, 1)
    print(f"capymoa EvaluateDriftDetector {t_ref:8.3f} s  {n_rows / t_ref / 1e3:9.1f} k rows/s  "
          f"-> streamtk capymoa convention {t_ref / t_cap:6.1f}x faster")  # fmt: skip
    fields = ("tp", "fp", "fn", "precision", "recall", "episode_recall", "f1", "mdt", "ndt", "far", "ar")
    mism = 0
    for i, m in enumerate(ref):
        for f in fields:
            a, b = getattr(m, f), cap[f].values[i // R, i % R]
            mism += not (a == b or (np.isnan(a) and np.isnan(b)))
    print(f"fields compared with capymoa: {n_rows * len(fields)}, mismatches: {mism}")
    return 0 if mism == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
