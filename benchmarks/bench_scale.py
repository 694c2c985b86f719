"""Many runs on a dask cluster: runs per second on 1 vs 2 worker processes.

    python benchmarks/bench_scale.py [--runs R] [--n N] [--per-chunk B] [--workers 1,2]

``R`` binary runs of ``N`` instances each (``y_pred (run, time)`` int8, chunked
``B`` runs per block) are evaluated with :func:`streamtk.runners.distributed.evaluate_dask`
(windows 1000, fading 0.999, every 1000, all metrics) on a
``dask.distributed.LocalCluster`` of 1 and of 2 worker processes (one thread each,
``NUMBA_NUM_THREADS=1`` so a worker uses one core), and compared with, in this
process: ``streamtk.evaluate`` on all runs at once (numba ``prange`` over runs, all
cores) and a hand-written numpy baseline (prequential and window-1000 accuracy only,
cumulative sums). The first compute on a fresh cluster (worker start-up, numba cache
load) is reported apart from the warm one. The dask result is checked equal to the
in-memory one. The machine is shared and loaded: numbers are noisy.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time

import numpy as np
import xarray as xr

OPTIONS = {"windows": [1000], "fading": 0.999, "every": 1000}


def numpy_baseline(y, p, w=1000):
    hit = (p == y[None, :]).astype(np.int64)
    c = np.cumsum(hit, axis=1)
    t = np.arange(1, y.size + 1)
    pre = c / t
    c0 = np.concatenate([np.zeros((p.shape[0], 1), np.int64), c], axis=1)
    lo = np.maximum(t - w, 0)
    win = (c0[:, t] - c0[:, lo]) / np.minimum(t, w)
    return pre, win


def best(f, repeat=3):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--per-chunk", type=int, default=25, help="runs per dask block (aim for >= 0.1 s of work)")
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    a = ap.parse_args()

    import streamtk
    from streamtk.runners.distributed import evaluate_dask

    rng = np.random.default_rng(0)
    y = (rng.random(a.n) < 0.5).astype(np.int8)
    acc = rng.uniform(0.6, 0.9, a.runs)[:, None]
    p = np.where(rng.random((a.runs, a.n)) < acc, y, 1 - y).astype(np.int8)
    da = xr.DataArray(p, dims=("run", "time"), coords={"run": np.arange(a.runs)})
    # the workers read their blocks from a zarr store (as with a real log), not from a graph holding the data
    tmp = tempfile.mkdtemp(prefix="streamtk_scale_")
    da.to_dataset(name="y_pred").to_zarr(
        f"{tmp}/runs.zarr", zarr_format=2, encoding={"y_pred": {"chunks": (a.per_chunk, a.n)}}
    )
    stored = xr.open_zarr(f"{tmp}/runs.zarr").y_pred
    print(f"{a.runs} runs x {a.n:,} instances, {a.per_chunk} runs per block (zarr store, int8); options {OPTIONS}")

    t0 = time.perf_counter()
    streamtk.evaluate(y[:100], p[:2, :100], classes=[0, 1], lead_dims="run", **OPTIONS)
    first = time.perf_counter() - t0
    t_mem, ref = best(lambda: streamtk.evaluate(y, da, classes=[0, 1], **OPTIONS))
    print(
        f"  in-process streamtk.evaluate (numba prange, all cores): {a.runs / t_mem:8.1f} runs/s "
        f"({a.runs * a.n / t_mem / 1e6:.1f} M inst/s); first call {first:.2f} s"
    )
    t_np, (pre, win) = best(lambda: numpy_baseline(y, p))
    sel = ref.accuracy.isel(time=-1)
    assert np.allclose(sel.sel(estimator="prequential").values, pre[:, -1], rtol=0, atol=1e-12)
    assert np.allclose(sel.sel(estimator="window=1000").values, win[:, -1], rtol=0, atol=1e-12)
    print(f"  in-process numpy baseline (2 accuracies only):          {a.runs / t_np:8.1f} runs/s")

    from dask.distributed import Client, LocalCluster

    rates = {}
    for workers in [int(w) for w in a.workers.split(",")]:
        cluster = client = None
        try:
            t0 = time.perf_counter()
            cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                silence_logs=40,
                env={"NUMBA_NUM_THREADS": "1"},
            )
            client = Client(cluster)
            start = time.perf_counter() - t0
            lazy = evaluate_dask(y, stored, classes=[0, 1], **OPTIONS)
            t0 = time.perf_counter()
            evaluate_dask(y, stored.isel(run=slice(0, 2)), classes=[0, 1], **OPTIONS).compute()
            warm_up = time.perf_counter() - t0
            t_dask, got = best(lambda: lazy.compute(), repeat=2)
            xr.testing.assert_equal(got, ref)
            rates[workers] = a.runs / t_dask
            print(
                f"  dask LocalCluster, {workers} worker process(es):          {rates[workers]:8.1f} runs/s "
                f"({a.runs * a.n / t_dask / 1e6:.1f} M inst/s); cluster start {start:.1f} s, first compute "
                f"(numba cache load) {warm_up:.1f} s; equal to in-memory: yes"
            )
        finally:
            if client is not None:
                client.close()
            if cluster is not None:
                cluster.close()
    shutil.rmtree(tmp, ignore_errors=True)
    if 1 in rates and 2 in rates:
        print(
            f"  speed-up 2 workers / 1 worker: {rates[2] / rates[1]:.2f}; "
            f"2 workers / in-process numba: {rates[2] * t_mem / a.runs:.2f}"
        )


if __name__ == "__main__":
    main()
