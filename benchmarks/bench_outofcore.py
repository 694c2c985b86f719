"""Out-of-core evaluation of a binary log stored on disk: peak memory and throughput.

    python benchmarks/bench_outofcore.py [--n N] [--chunk C] [--adwin-n M] [--dir DIR] [--keep]

1. Writes a stationary binary log of ``N`` instances (``y_true`` and one model's
   ``y_pred``, int8, zarr format 2, time chunks of ``C``) chunk by chunk (2 bytes
   per instance before compression; 10^9 instances is the full mode).
2. In a fresh subprocess each (so peak RSS is that run's own), evaluates it with
   :func:`streamtk.runners.outofcore.evaluate_store` (windows 1000 and 10000, fading 0.999,
   every 10^5, all metrics, curves appended to a zarr store) and with a
   hand-written numpy baseline (prequential and window-1000 accuracy only, same
   chunked reads), reporting instances/s, peak RSS (``getrusage``) and the RSS
   after 10 %, 50 % and 100 % of the stream.
3. The known limitation: ``adwin=`` estimators keep the inputs inside the current
   ADWIN window, which grows on a stationary stream. Runs the first ``M``
   instances with and without ``adwin=0.002`` and reports both peaks.
4. Exact AUC out of core (``--auc-n A`` instances, ``y_score`` stored as
   ``(model, time, class)`` float32 class scores as :mod:`streamtk.io` writes
   them): ``evaluate_store(..., y_score="y_score")`` with accuracy and the AUC
   family under the same estimators, once with scores rounded to 2 decimals
   (101 distinct values: the AUC state is bounded, RSS stays flat) and once with
   all-distinct scores on ``min(A, 2 * 10**6)`` instances (the prequential and
   fading AUC keep every distinct score: RSS grows with the stream, as documented).
5. The cost of being killable (``--resume-n R`` instances with 2-decimal scores and the AUC
   family, in one process, runs alternated and the best of 2 kept): ``evaluate_store`` writing
   to a store without saving its resume state after the first chunk, with the default adaptive
   saving, and saving after every chunk; plus a run stopped half way and resumed (its total
   time, and a check that the store equals the uninterrupted one). The ratios are the overhead.

Timings on a shared, loaded 2-core machine are noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

OPTIONS = {"windows": [1000, 10000], "fading": 0.999, "every": 100_000}


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def generate(path: str, n: int, chunk: int, seed: int = 0) -> float:
    """Stationary binary log: y ~ Bernoulli(0.5), the model wrong with probability 0.2."""
    import zarr

    t0 = time.perf_counter()
    group = zarr.open_group(path, mode="w", zarr_format=2)
    # fill_value -1 (not a label): xarray reads a zarr fill value as _FillValue and masks it
    yt = group.create_array("y_true", shape=(n,), chunks=(chunk,), dtype="i1", fill_value=-1)
    yp = group.create_array("y_pred", shape=(1, n), chunks=(1, chunk), dtype="i1", fill_value=-1)
    yt.attrs["_ARRAY_DIMENSIONS"] = ["time"]
    yp.attrs["_ARRAY_DIMENSIONS"] = ["model", "time"]
    rng = np.random.default_rng(seed)
    for s in range(0, n, chunk):
        m = min(chunk, n - s)
        y = (rng.random(m) < 0.5).astype(np.int8)
        yt[s : s + m] = y
        yp[0, s : s + m] = np.where(rng.random(m) < 0.2, 1 - y, y).astype(np.int8)
    zarr.consolidate_metadata(path)
    return time.perf_counter() - t0


def generate_scores(path: str, n: int, chunk: int, decimals: int | None, seed: int = 1) -> float:
    """Stationary binary log with class scores: y ~ Bernoulli(0.3), positives score higher."""
    import zarr

    t0 = time.perf_counter()
    group = zarr.open_group(path, mode="w", zarr_format=2)
    yt = group.create_array("y_true", shape=(n,), chunks=(chunk,), dtype="i1", fill_value=-1)
    yp = group.create_array("y_pred", shape=(1, n), chunks=(1, chunk), dtype="i1", fill_value=-1)
    sc = group.create_array("y_score", shape=(1, n, 2), chunks=(1, chunk, 2), dtype="f4", fill_value=None)
    yt.attrs["_ARRAY_DIMENSIONS"] = ["time"]
    yp.attrs["_ARRAY_DIMENSIONS"] = ["model", "time"]
    sc.attrs["_ARRAY_DIMENSIONS"] = ["model", "time", "class"]
    rng = np.random.default_rng(seed)
    for s in range(0, n, chunk):
        m = min(chunk, n - s)
        y = (rng.random(m) < 0.3).astype(np.int8)
        p1 = rng.random(m) * 0.7 + 0.3 * y
        if decimals is not None:
            p1 = np.round(p1, decimals)
        yt[s : s + m] = y
        yp[0, s : s + m] = (p1 > 0.5).astype(np.int8)
        sc[0, s : s + m] = np.stack([1 - p1, p1], axis=-1).astype(np.float32)
    zarr.consolidate_metadata(path)
    return time.perf_counter() - t0


def du(path: str) -> int:
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


# ----------------------------------------------------------------------------- child runs


def child_streamtk(args: dict) -> dict:
    import xarray as xr

    from streamtk.runners.outofcore import evaluate_store, open_log

    # a tiny log through the same chunked path: compiles (or loads from the cache) every kernel used below
    tiny = xr.Dataset(
        {
            "y_true": ("time", np.array([0, 1, 1, 0])),
            "y_pred": (("model", "time"), [[0, 1, 0, 0]]),
            "y_score": (("model", "time", "class"), [[[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.7, 0.3]]]),
        }
    )
    extra = {"y_score": "y_score"} if args.get("scores") else {}
    t0 = time.perf_counter()
    evaluate_store(tiny, chunk=3, classes=[0, 1], **extra, **args["options"])
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    evaluate_store(tiny, chunk=3, classes=[0, 1], **extra, **args["options"])
    warm = time.perf_counter() - t0
    n = args["n"]
    marks = {}

    def progress(done, total):
        for frac in (0.1, 0.5, 1.0):
            if done >= frac * n and frac not in marks:
                marks[frac] = rss_bytes()

    log = open_log(args["path"]).isel(time=slice(0, n))
    t0 = time.perf_counter()
    ds = evaluate_store(
        log,
        chunk=args["chunk"],
        out=args["out"],
        overwrite=True,
        classes=[0, 1],
        progress=progress,
        **extra,
        **args["options"],
    )
    wall = time.perf_counter() - t0
    final = float(ds.accuracy.isel(time=-1).sel(estimator="prequential").values.ravel()[0])
    out = {"wall": wall, "first_call": first, "warm_call": warm, "marks": marks, "accuracy": final}
    if extra:
        out["auc"] = ds.auc.isel(time=-1).sel(**{"class": 1}).values.ravel().round(6).tolist()
    return out


def child_numpy(args: dict) -> dict:
    """Hand-written numpy: prequential and window-1000 accuracy over the same chunked reads."""
    from streamtk.runners.outofcore import open_log

    n, chunk, w = args["n"], args["chunk"], 1000
    log = open_log(args["path"]).isel(time=slice(0, n))
    t0 = time.perf_counter()
    hits_total, tail = 0, np.zeros(0, dtype=np.int64)
    pre = win = None
    marks = {}
    for s in range(0, n, chunk):
        e = min(s + chunk, n)
        y = log.y_true[s:e].values
        p = log.y_pred[0, s:e].values
        hit = (y == p).astype(np.int64)
        c = np.cumsum(np.concatenate([tail, hit]))
        c0 = np.concatenate([[0], c])
        idx = np.arange(tail.size + 1, c0.size)
        pre = (hits_total + c[tail.size :] - (c[tail.size - 1] if tail.size else 0)) / np.arange(s + 1, e + 1)
        lo = np.maximum(idx - w, 0)
        win = (c0[idx] - c0[lo]) / np.minimum(np.arange(s + 1, e + 1), w)
        hits_total += int(hit.sum())
        tail = np.concatenate([tail, hit])[-w:]
        for frac in (0.1, 0.5, 1.0):
            if e >= frac * n and frac not in marks:
                marks[frac] = rss_bytes()
    wall = time.perf_counter() - t0
    return {"wall": wall, "marks": marks, "accuracy": float(pre[-1]), "window_accuracy": float(win[-1])}


def run_child(kind: str, args: dict) -> dict:
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, __file__, "--child", kind, json.dumps(args)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"child {kind} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def resume_overhead(base: str, n: int, chunk: int) -> None:
    """Section 5: in this process, the time of the state saves that make a run killable and resumable."""
    import xarray as xr

    from streamtk.runners.outofcore import evaluate_store, open_log

    spath = os.path.join(base, "resume_log.zarr")
    generate_scores(spath, n, chunk, 2)
    log = open_log(spath)
    opts = {**OPTIONS, "metrics": ["accuracy", "kappa", "auc", "auc_u1"], "y_score": "y_score", "classes": [0, 1]}
    out = os.path.join(base, "resume_out.zarr")
    evaluate_store(log.isel(time=slice(0, 4 * chunk)), chunk=chunk, **opts)  # compiles (or loads) the kernels
    runs = {"no saves after the first chunk": 1e12, "adaptive saves (default)": None, "a save after every chunk": 0}
    best = {}
    for _ in range(2):
        for label, save_every in runs.items():
            t0 = time.perf_counter()
            evaluate_store(log, chunk=chunk, out=out, overwrite=True, save_every=save_every, **opts)
            best[label] = min(best.get(label, np.inf), time.perf_counter() - t0)

    class Stop(Exception):
        pass

    def stop(done, total):
        if done >= total // 2:
            raise Stop

    t0 = time.perf_counter()
    try:
        evaluate_store(log, chunk=chunk, out=out + ".2", overwrite=True, progress=stop, **opts)
    except Stop:
        pass
    evaluate_store(log, chunk=chunk, out=out + ".2", resume=True, **opts)
    killed = time.perf_counter() - t0
    same = xr.open_zarr(out).drop_attrs().load().identical(xr.open_zarr(out + ".2").drop_attrs().load())
    ref = best["no saves after the first chunk"]
    print(f"resume state overhead ({n:,} instances, 2-decimal scores, steps of {chunk:,}, best of 2, one process):")
    for label, wall in best.items():
        print(f"  {label:<44s} {n / wall / 1e6:8.2f} M inst/s  wall {wall:8.2f} s  ratio {wall / ref:.2f}")
    print(f"  {'stopped at half, then resume=True':<44s} {'':>17s}  wall {killed:8.2f} s  ratio {killed / ref:.2f}")
    print(f"  resumed store identical to the uninterrupted one: {same}")
    for p in (spath, out, out + ".2"):
        shutil.rmtree(p, ignore_errors=True)


def child_main(kind: str, payload: str) -> None:
    args = json.loads(payload)
    out = {"streamtk": child_streamtk, "numpy": child_numpy}[kind](args)
    out["peak_rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    out["marks"] = {str(k): v for k, v in out["marks"].items()}
    print(json.dumps(out))


# ----------------------------------------------------------------------------- report


def mib(b) -> str:
    return f"{b / 2**20:,.0f} MiB"


def report(label: str, n: int, res: dict) -> None:
    marks = ", ".join(f"{float(k):.0%}: {mib(v)}" for k, v in sorted(res["marks"].items(), key=lambda kv: float(kv[0])))
    print(
        f"  {label:<44s} {n / res['wall'] / 1e6:8.2f} M inst/s  wall {res['wall']:8.1f} s  "
        f"peak RSS {mib(res['peak_rss'])}  (RSS at {marks})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10**8, help="instances in the log (full mode: 10**9)")
    ap.add_argument("--chunk", type=int, default=2**22, help="instances per step and per zarr chunk")
    ap.add_argument("--adwin-n", type=int, default=2 * 10**7, help="instances of the ADWIN memory comparison")
    ap.add_argument("--auc-n", type=int, default=10**7, help="instances of the out-of-core AUC runs (0: skip)")
    ap.add_argument("--resume-n", type=int, default=10**6, help="instances of the resume-state overhead runs (0: skip)")
    ap.add_argument("--dir", default=None, help="where to write the log (default: a temporary directory)")
    ap.add_argument("--keep", action="store_true", help="keep the generated log")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child_main(*a.child)
        return
    base = a.dir or tempfile.mkdtemp(prefix="streamtk_ooc_")
    os.makedirs(base, exist_ok=True)
    path = os.path.join(base, "log.zarr")
    free = shutil.disk_usage(base).free
    if 2 * a.n > 0.5 * free:
        raise SystemExit(f"{2 * a.n / 1e9:.1f} GB of int8 would use more than half of the free {free / 1e9:.0f} GB")
    try:
        gen = generate(path, a.n, a.chunk)
        print(
            f"log: {a.n:,} instances, 2 x int8 = {2 * a.n / 1e9:.2f} GB raw, {du(path) / 1e9:.2f} GB on disk "
            f"(zarr v2, default compressor), written in {gen:.1f} s; chunk {a.chunk:,}; options {OPTIONS}"
        )
        common = {"path": path, "chunk": a.chunk}
        res = run_child("streamtk", {**common, "n": a.n, "options": OPTIONS, "out": os.path.join(base, "c.zarr")})
        print(
            f"streamtk first call (compile or cache load) {res['first_call']:.2f} s, warm call "
            f"{res['warm_call'] * 1e3:.2f} ms"
        )
        report("evaluate_store (windows, fading, all metrics)", a.n, res)
        base_res = run_child("numpy", {**common, "n": a.n})
        report("numpy baseline (2 accuracies only)", a.n, base_res)
        assert abs(base_res["accuracy"] - res["accuracy"]) < 1e-9, (base_res["accuracy"], res["accuracy"])
        print(
            f"  ratio streamtk / numpy throughput: {base_res['wall'] / res['wall']:.2f} "
            "(streamtk computes every metric for 3 estimators; numpy two accuracies)"
        )
        m = min(a.adwin_n, a.n)
        step = max(1, min(a.chunk, m // 20))
        print(f"ADWIN memory (first {m:,} instances, stationary stream, steps of {step:,}):")
        for label, opts in (("without adwin", OPTIONS), ("with adwin=0.002", {**OPTIONS, "adwin": 0.002})):
            r = run_child(
                "streamtk", {**common, "chunk": step, "n": m, "options": opts, "out": os.path.join(base, "a.zarr")}
            )
            report(f"evaluate_store {label}", m, r)
        if a.auc_n:
            auc_opts = {**OPTIONS, "metrics": ["accuracy", "auc", "auc_u1", "auc_z"]}
            for label, dec, m in (
                ("scores rounded to 2 decimals", 2, a.auc_n),
                ("all-distinct scores", None, min(a.auc_n, 2 * 10**6)),
            ):
                spath = os.path.join(base, "scores.zarr")
                step = max(1, min(a.chunk, m // 20))
                gen = generate_scores(spath, m, step, dec)
                r = run_child(
                    "streamtk",
                    {
                        "path": spath,
                        "chunk": step,
                        "n": m,
                        "options": auc_opts,
                        "scores": True,
                        "out": os.path.join(base, "s.zarr"),
                    },
                )
                print(
                    f"exact AUC out of core, {label} ({m:,} instances, steps of {step:,}, log written in "
                    f"{gen:.1f} s); final AUC of class 1 (prequential, windows, fading): {r['auc']}"
                )
                report("evaluate_store y_score= (accuracy + AUC family)", m, r)
                shutil.rmtree(spath, ignore_errors=True)
        if a.resume_n:
            resume_overhead(base, a.resume_n, max(1, min(a.chunk, a.resume_n // 10)))
    finally:
        if not a.keep and a.dir is None:
            shutil.rmtree(base, ignore_errors=True)
        elif not a.keep:
            shutil.rmtree(path, ignore_errors=True)


if __name__ == "__main__":
    main()
