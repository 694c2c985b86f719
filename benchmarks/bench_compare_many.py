"""Benchmark: comparing many models over many streams (issue 23).

Run ``python benchmarks/bench_compare_many.py [--models 20] [--streams 50] [--runs 10] [--n 1000000]
[--every 100] [--bayes-samples 2000]``.

The workload of the issue: 20 models x 50 streams x 10 runs, each curve the prequential
kappa of a 10^6-instance stream (checkpoints every 100 instances: 10^4 per curve, 10^8
curve points in all, generated stream by stream as ``streamtk.evaluate``-shaped Datasets).
Prints, as CPU time of this process (``time.process_time``; the machine is shared):

* the results collection (:func:`streamtk.comparison.collect`, summaries final, mean, area and
  at=n/2) in curve points/s, against a hand-written numpy version of the same summaries
  on the same arrays (checked equal);
* the comparison of the 50 x 20 table (mean over runs): :func:`streamtk.comparison.compare_many`
  (Friedman, Iman-Davenport, post-hoc) per procedure, against ``autorank.autorank`` (Friedman +
  Nemenyi, nonparametric mode) and ``scikit_posthocs.posthoc_nemenyi_friedman`` on the same
  table, with the ratio; average ranks and CD are checked equal;
* the Bayesian signed-rank test of all 190 pairs (:func:`streamtk.comparison.bayesian_pairs`)
  against autorank's Bayesian mode (baycomp) with the same number of draws.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import time

import numpy as np
import xarray as xr


def make_curves(rng, models, runs, n, every, skill):
    """One stream's prequential-kappa-like curves ``(model, run, estimator, time)``: cumulative means of hits."""
    t = n // every
    inst = np.arange(1, t + 1) * every
    p = np.clip(skill[:, None, None] + rng.normal(0, 0.01, size=(models, runs, 1)), 0.01, 0.99)
    hits = rng.binomial(every, np.broadcast_to(p, (models, runs, t)))
    acc = np.cumsum(hits, axis=-1) / inst
    kappa = (acc - 0.5) / 0.5
    return xr.Dataset(
        {"kappa": (("model", "run", "estimator", "time"), kappa[:, :, None, :])},
        coords={
            "model": [f"M{m:02d}" for m in range(models)],
            "run": np.arange(runs),
            "estimator": ["prequential"],
            "instance": ("time", inst),
        },
    )


def numpy_summaries(curves, at):
    """The same four summaries, hand-written on the raw arrays."""
    out = {}
    for name, ds in curves.items():
        v = ds["kappa"].values[:, :, 0, :]
        inst = ds["instance"].values
        t = np.searchsorted(inst, at, side="right") - 1
        area = np.sum((v[..., 1:] + v[..., :-1]) / 2 * np.diff(inst), axis=-1) / (inst[-1] - inst[0])
        out[name] = np.stack([v[..., -1], v.mean(axis=-1), area, v[..., t]])
    return out


def best_of(fn, repeat=3):
    best = np.inf
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t0)
    return best, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", type=int, default=20)
    ap.add_argument("--streams", type=int, default=50)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--every", type=int, default=100)
    ap.add_argument("--bayes-samples", type=int, default=2000)
    args = ap.parse_args()

    import autorank
    import pandas as pd
    import scikit_posthocs as sp

    from streamtk.comparison import bayesian_pairs, collect, compare_many

    rng = np.random.default_rng(0)
    k, n_streams = args.models, args.streams
    base = rng.uniform(0.7, 0.9, size=k)
    curves = {
        f"stream{s:02d}": make_curves(rng, k, args.runs, args.n, args.every, base + rng.normal(0, 0.03, size=k))
        for s in range(n_streams)
    }
    points = k * n_streams * args.runs * (args.n // args.every)
    print(f"{k} models x {n_streams} streams x {args.runs} runs; curves of {args.n:.0e} instances every {args.every}:")
    print(f"  {points:.2e} curve points ({points * 8 / 1e9:.2f} GB of float64)")

    at = args.n // 2
    summaries = ["final", "mean", "area", f"at={at}"]
    t_coll, coll = best_of(lambda: collect(curves, metrics=["kappa"], summaries=summaries), repeat=2)
    t_np, ref = best_of(lambda: numpy_summaries(curves, at), repeat=2)
    for name, arr in ref.items():
        got = coll["kappa"].sel(dataset=name, estimator="prequential").transpose("summary", "model", "run").values
        np.testing.assert_allclose(got, arr, rtol=1e-12)
    print(f"\nresults collection (summaries final, mean, area, at={at}), CPU s (best of 2):")
    print(f"  streamtk collect              {t_coll:8.3f} s  {points / t_coll / 1e6:8.1f} M points/s")
    print(f"  numpy hand-written summaries  {t_np:8.3f} s  {points / t_np / 1e6:8.1f} M points/s")
    print(f"  ratio numpy / streamtk        {t_np / t_coll:8.2f}  (collect also labels, validates and assembles)")

    table = coll["kappa"].sel(summary="final", estimator="prequential").mean("run")
    df = pd.DataFrame(table.transpose("dataset", "model").values, columns=[str(m) for m in table["model"].values])
    print(f"\ncomparison of the {n_streams} x {k} table (final kappa, mean over runs), CPU s (best of 3):")
    with contextlib.redirect_stdout(io.StringIO()):  # autorank prints a note when the mode is forced
        t_auto, ar = best_of(lambda: autorank.autorank(df, alpha=0.05, verbose=False, force_mode="nonparametric"))
    t_sp, _ = best_of(lambda: sp.posthoc_nemenyi_friedman(df.to_numpy()))
    rows = []
    for method in ("nemenyi", "bonferroni-dunn", "holm", "hochberg", "finner", "shaffer"):
        t, res = best_of(lambda method=method: compare_many(coll, summary="final", posthoc=method))
        rows.append((method, t))
        if method == "nemenyi":
            assert abs(res.posthoc.cd - ar.cd) < 1e-4 * ar.cd  # autorank's q comes from an interpolated table
            ranks = ar.rankdf["meanrank"].reindex(res.posthoc.names).to_numpy()
            np.testing.assert_allclose(res.posthoc.average_ranks, ranks)
    for method, t in rows:
        print(f"  streamtk compare_many {method:<16}{t:8.4f} s   autorank / streamtk = {t_auto / t:6.2f}")
    print(f"  autorank (nonparametric)            {t_auto:8.4f} s")
    print(f"  scikit-posthocs Nemenyi p-values    {t_sp:8.4f} s   (p-values only, no omnibus test)")

    s = args.bayes_samples
    pairs = k * (k - 1) // 2
    print(f"\nBayesian signed-rank test, all {pairs} pairs, {s} draws each, ROPE 0.01, CPU s (best of 1):")
    t_b, _ = best_of(lambda: bayesian_pairs(coll, summary="final", rope=0.01, n_samples=s), repeat=1)
    with contextlib.redirect_stdout(io.StringIO()):  # autorank's Bayesian mode prints its table
        t_ab, _ = best_of(
            lambda: autorank.autorank(
                df,
                alpha=0.05,
                verbose=False,
                approach="bayesian",
                rope=0.01,
                rope_mode="absolute",
                nsamples=s,
                random_state=0,
            ),
            repeat=1,
        )
    print(f"  streamtk bayesian_pairs   {t_b:8.3f} s")
    print(f"  autorank bayesian         {t_ab:8.3f} s   autorank / streamtk = {t_ab / t_b:6.2f}")


if __name__ == "__main__":
    main()
