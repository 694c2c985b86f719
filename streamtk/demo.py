"""``streamtk demo``: simulate a logged stream, evaluate, compare, detect drift, diagnose dependence.

Everything the toolkit does, on one seeded simulated log (no downloads): three models
(``adaptive``, ``static``, ``persistent``) on a binary stream with temporal dependence
and abrupt drifts (:func:`streamtk.datasets.simulate.simulate_log`). Writes ``streamtk-demo.nc``
(root group: the evaluation curves; groups ``comparison``, ``drift_<detector>``,
``detection_scores`` and ``dependence``) and a six-panel ``streamtk-demo.png``, and prints
summary tables.

Cold start: on an empty numba cache nearly all of the demo's time is the compilation of
its kernels, which numba does on one core. As soon as the evaluation needs a kernel that
is not in numba's on-disk cache, the demo therefore starts a second Python process that
runs the comparison, the detectors and the temporal diagnostics on the same simulated log
-- compiling their kernels into the cache -- while this process compiles the evaluation;
this process then loads those kernels from the cache. When the evaluation is done before the
helper, this process takes the stages the helper has not reached yet, from the last one backwards
(each stage is claimed by one process only, so no kernel is compiled twice). The helper only fills
the cache: every number comes from this process, and the results are the same with or without it.
It is started only when a second CPU is free right now (a short sample of the machine's
idle time): on a busy machine two compiling processes take longer than one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from .report.tables import comparison_table, detector_table, summary_table

__all__ = ["run_demo"]

DEMO_METRICS = ["accuracy", "kappa", "kappa_m", "kappa_per", "kappa_plus", "harmonic_mean", "p_maj", "p_per"]


#: the analyses after the evaluation, one stage per family of kernels, in the order the compile helper runs them
STAGES = ("compare", "page-hinkley", "dependence", "ddm", "eddm", "adwin")
DETECTORS = ("page-hinkley", "ddm", "eddm", "adwin")


def _detector(name, err):
    """One detector's Dataset on the error stream."""
    from streamtk.drift import adwin, ddm, eddm, page_hinkley

    if name == "page-hinkley":
        return page_hinkley(err, convention="moa")
    return {"ddm": ddm, "eddm": eddm, "adwin": adwin}[name](err)


def _alarms(name, res):
    """A detector's alarm indices (0-based)."""
    if name == "adwin":
        return np.flatnonzero(res["detection"].values > 0)  # the error rate rose (MOA's rule)
    idx = res["detection_index"].values.ravel()
    return idx[idx >= 0]


def _evaluate(log, n):
    import streamtk

    return streamtk.evaluate(
        log.y_true,
        log.y_pred,
        windows=[1000],
        fading=[0.999],
        adwin=[0.002],
        every=max(1, n // 1000),
        metrics=DEMO_METRICS,
    )


def _compare(log, n):
    from streamtk.comparison.compare import compare

    return compare(log.y_true, log.y_pred, windows=[1000], fading=[0.999], every=max(1, n // 1000))


def _stage(name, log, n):
    """The result of one stage of :data:`STAGES` (the dependence stage: the statistics and the quick test)."""
    if name == "compare":
        return _compare(log, n)
    if name == "dependence":
        from streamtk.dependence.label_dependence import label_dependence, quick_test

        dep = label_dependence(log.y_true, windows=[1000], every=max(1, n // 1000), max_lag=5)
        return dep, quick_test(log.y_true, m=100)
    err = (log.y_pred.sel(model="adaptive") != log.y_true).astype(np.float64)
    return _detector(name, err)


def _analyses(log, n, drifts, done=None):
    """Every stage after the evaluation: comparison, detectors and temporal diagnostics.

    ``done`` holds the results of stages computed already (by name); the others are computed here.
    """
    from streamtk.drift.scoring import score_detections

    res = dict(done or {})
    for name in STAGES:
        if name not in res:
            res[name] = _stage(name, log, n)
    runs = {name: res[name] for name in DETECTORS}
    alarms = {name: _alarms(name, r) for name, r in runs.items()}
    scores = {k: score_detections([v.tolist()], drifts, n=n) for k, v in alarms.items()}
    dep, qt = res["dependence"]
    return res["compare"], runs, alarms, scores, dep, qt


def _claim(claims, name) -> bool:
    """Claim stage ``name`` for this process (True) unless the other process did (a file created exclusively)."""
    try:
        fd = os.open(os.path.join(claims, name), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def _share_of_the_work(log, n, helper, claims):
    """While the helper still compiles, the stages it has not reached yet, from the last one backwards.

    The helper claims the stages in the order of :data:`STAGES`, this process from the end (ADWIN
    first: its kernel was compiled with the evaluation); where one finds a stage claimed by the
    other, the two have met. Returns the results computed here, by stage.
    """
    done = {}
    for name in reversed(STAGES):
        if helper.poll() is not None or not _claim(claims, name):
            break
        done[name] = _stage(name, log, n)
    return done


class _HelperOnFirstCompile:
    """A numba event listener that starts the compile helper when numba first compiles (a cache miss).

    numba fires its ``numba:compile`` event only when a kernel is not in its on-disk cache,
    so on a warm cache the helper is never started. Use as a context manager around the
    evaluation; ``helper`` is the started process or None.
    """

    def __init__(self, start):
        self._start = start
        self._tried = False
        self.helper = None

    def start(self) -> None:
        """Start the helper now, unless tried before (a failure to start leaves ``helper`` None)."""
        if self._tried:
            return
        self._tried = True
        try:
            self.helper = self._start()
        except Exception:  # noqa: BLE001 - no helper (e.g. cannot spawn): this process compiles
            self.helper = None

    def stop(self, grace: float = 0.0) -> None:
        """Kill the helper if it is still running (after up to ``grace`` seconds to end by itself)."""
        if self.helper is not None and self.helper.poll() is None:
            try:
                self.helper.wait(timeout=grace)
                return
            except subprocess.TimeoutExpired:
                pass
            self.helper.kill()
            self.helper.wait()

    def __enter__(self):
        from numba.core import event

        trigger = self

        class _Listener(event.Listener):
            def on_start(self, ev):
                trigger.start()  # numba serialises compilations: no race here

            def on_end(self, ev):
                pass

        self._context = event.install_listener("numba:compile", _Listener())
        self._context.__enter__()
        return self

    def __exit__(self, *exc):
        return self._context.__exit__(*exc)


#: the file by which the helper says that its stages are done (and their kernels in the cache)
DONE = ".done"


def _warm_up(n: int, seed: int, claims: str) -> None:
    """Entry point of the helper process: the stages of :func:`_analyses` on the demo's log that it can
    claim in ``claims`` (fills numba's cache; the results are not used), then the file :data:`DONE`."""
    from streamtk.datasets.simulate import simulate_log

    log = simulate_log(n, drifts=[n // 3, 2 * n // 3], seed=seed)
    for name in STAGES:
        if _claim(claims, name):
            _stage(name, log, n)
    _claim(claims, DONE)


def _wait_for_helper(helper, claims, timeout: float) -> bool:
    """Wait until the helper is done (its :data:`DONE` file: it need not have exited, which takes about a
    second more) or has ended, at most ``timeout`` seconds; returns whether it is done or ended."""
    end = time.monotonic() + timeout
    done = os.path.join(claims, DONE)
    while helper.poll() is None and not os.path.exists(done):
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def _idle_cpus(seconds: float = 0.15):
    """CPUs left idle by the whole machine over a short sample of ``/proc/stat`` (Linux); None elsewhere.

    Instantaneous, unlike the load average, which still counts for a minute the work
    that just ended (e.g. the ``pip install`` before a first demo). This process sleeps
    during the sample, so only the others' use is measured.
    """

    def read():
        with open("/proc/stat") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
        return fields[3] + (fields[4] if len(fields) > 4 else 0), sum(fields)  # idle + iowait, total

    try:
        idle0, total0 = read()
        time.sleep(seconds)
        idle1, total1 = read()
    except (OSError, ValueError, IndexError):
        return None
    if total1 <= total0:
        return None
    return (idle1 - idle0) / (total1 - total0) * (os.cpu_count() or 1)


def _spare_cpu() -> bool:
    """Whether a second CPU looks free for the helper: at least two CPUs usable by this process and,
    besides the one this process needs, one that other processes leave (nearly) idle -- measured over
    a short sample (:func:`_idle_cpus`), or where that is unavailable from the 1-minute load average
    (below ``n_cpus - 1.3``). On a busy machine the helper would only compete with this process.
    True where neither is available."""
    try:
        n_cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        n_cpus = os.cpu_count() or 1
    if n_cpus < 2:
        return False
    idle = _idle_cpus()
    if idle is not None:
        return idle >= 1.6
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # Windows
        return True
    return load < n_cpus - 1.3


def _start_helper(n: int, seed: int, claims: str):
    """Start the compile helper: the same interpreter and the same streamtk sources (same cache entries).

    Returns None (no helper) when ``seed`` is not an integer that can be passed on.
    """
    import streamtk

    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        return None

    env = dict(os.environ)
    root = str(Path(streamtk.__file__).resolve().parents[1])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    code = f"from streamtk.demo import _warm_up; _warm_up({int(n)}, {int(seed)}, {str(claims)!r})"
    return subprocess.Popen(
        [sys.executable, "-c", code],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _write(path, curves, groups):
    from streamtk.io import to_netcdf

    to_netcdf(curves, path)
    for name, ds in groups.items():
        ds.to_netcdf(path, mode="a", group=name, engine="netcdf4")
    return path


def _import_plotting():
    """Import matplotlib (Agg unless a backend is already chosen) and the plot modules; returns pyplot."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    import streamtk.plot.compare  # noqa: F401
    import streamtk.plot.curves  # noqa: F401
    import streamtk.plot.drift  # noqa: F401
    import streamtk.plot.temporal  # noqa: F401

    return plt


def _figure(png, ds, cmp, adw, ph, dep, drifts, alarms):
    plt = _import_plotting()
    from streamtk.report.overview import overview_figure

    fig = overview_figure(ds, cmp, adw, ph, dep, drifts, alarms)
    fig.savefig(png, dpi=100)
    plt.close(fig)


def run_demo(outdir=".", *, n=100_000, seed=0, quiet=False, background_compile=None) -> dict:
    """Run the demo end to end; returns the paths written, the elapsed time and the results.

    Steps (all seeded, no downloads): simulate a log with drifts at ``n/3`` and ``2n/3``;
    evaluate the three models with the prequential, window-1000 and fading-0.999
    estimators and an ADWIN window (delta 0.002); compare every pair (Q statistic
    and signed McNemar); run Page-Hinkley (MOA form), DDM, EDDM and ADWIN on the
    adaptive model's 0/1 errors and score them against the true drifts; compute the
    label stream's temporal dependence and the section-7 quick test.

    Parameters
    ----------
    outdir : str or os.PathLike
        Directory for ``streamtk-demo.nc`` and ``streamtk-demo.png`` (created).
    n : int
        Instances (at least 3000).
    seed : int
        Seed of the simulated log.
    quiet : bool
        Print nothing.
    background_compile : bool, optional
        Compile the kernels of the comparison, detectors and temporal diagnostics in a
        helper process while this one compiles the evaluation (see the module notes).
        Default (None): started as soon as numba has to compile a kernel of the evaluation,
        i.e. when its on-disk cache is cold (the first run after installation), provided a
        second CPU is free (at least two CPUs and a 1-minute load average below their
        number minus 1.3); on a busy machine the helper would only slow this process down.

    Returns
    -------
    dict with ``netcdf``, ``png`` (paths), ``seconds`` and the Datasets ``dataset``
    (curves), ``comparison``, ``detectors``, ``scores``, ``dependence``,
    ``quick_test``; ``background_compile`` is the helper's exit status (None when no
    helper was started).
    """
    from streamtk._core.validation import check_positive_int
    from streamtk.datasets.simulate import simulate_log

    n = check_positive_int(n, "n", minimum=3000)
    if background_compile is not None and not isinstance(background_compile, bool):
        raise TypeError(f"background_compile must be a bool or None, got {background_compile!r}")
    t0 = time.perf_counter()
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    drifts = [n // 3, 2 * n // 3]
    claims = tempfile.mkdtemp(prefix="streamtk-demo-")  # the stages each process took (:func:`_claim`)
    if background_compile:
        trigger = _HelperOnFirstCompile(lambda: _start_helper(n, seed, claims))
        trigger.start()
    else:  # None: at the first cache miss, if a CPU is free (False: the trigger is never armed)
        trigger = _HelperOnFirstCompile(lambda: _start_helper(n, seed, claims) if _spare_cpu() else None)
    try:
        log = simulate_log(n, drifts=drifts, seed=seed)
        if background_compile is None:  # start the helper at the first cache miss, if there is one
            with trigger:
                ds = _evaluate(log, n)
        else:
            ds = _evaluate(log, n)
        ds.attrs["drifts"] = np.asarray(drifts)
        helper = trigger.helper
        done = {}
        if helper is not None:
            done = _share_of_the_work(log, n, helper, claims)
            if helper.poll() is None:
                _import_plotting()  # needed later anyway: done while the helper still compiles
            # its kernels are then loaded from the cache instead of being compiled a second time here; if it
            # is not done in time, they are compiled here (the helper is stopped below)
            _wait_for_helper(helper, claims, timeout=600)
        cmp, runs, alarms, scores, dep, qt = _analyses(log, n, drifts, done)
        nc = outdir / "streamtk-demo.nc"
        groups = {"comparison": cmp, "dependence": dep}
        groups.update({f"drift_{k.replace('-', '_')}": v for k, v in runs.items()})
        for g in groups.values():
            g.attrs["drifts"] = np.asarray(drifts)  # so `streamtk plot --group ...` marks them
        _write(nc, ds, groups)
        png = outdir / "streamtk-demo.png"
        _figure(png, ds, cmp, runs["adwin"], runs["page-hinkley"], dep, drifts, alarms)
    finally:
        # a helper that is done is left a few seconds to exit; one still working (an error, a timeout) is killed
        trigger.stop(grace=10.0 if os.path.exists(os.path.join(claims, DONE)) else 0.0)
        shutil.rmtree(claims, ignore_errors=True)
    elapsed = time.perf_counter() - t0
    if not quiet:
        last_dep = dep.isel(time=-1).sel(estimator="prequential")
        print("Final values of the evaluation curves\n")
        print(summary_table(ds))
        print("\nComparison of every pair (last checkpoint)\n")
        print(comparison_table(cmp))
        print(f"\nDrift detectors on the adaptive model's errors (true drifts at {drifts[0]} and {drifts[1]})\n")
        print(detector_table(alarms, scores, drifts))
        verdict = (
            "temporal dependence: read kappa_per / the Persistent baseline"
            if bool(qt.temporal_dependence)
            else "no strong dependence"
        )
        print(
            f"\nTemporal dependence of the labels: P(M) = {float(last_dep.p_m):.3f}, "
            f"P(T) = {float(last_dep.p_t):.3f}; quick test on the first 100 labels: "
            f"p_per = {float(qt.p_per):.2f} vs p_maj = {float(qt.p_maj):.2f} -> {verdict}"
        )
        print(
            f"\nwrote {nc} and {png} ({n} instances, {ds.sizes['model']} models, {ds.sizes['estimator']} "
            f"estimators, {elapsed:.1f} s)"
        )
    return {
        "netcdf": nc,
        "png": png,
        "seconds": elapsed,
        "dataset": ds,
        "comparison": cmp,
        "detectors": runs,
        "scores": scores,
        "dependence": dep,
        "quick_test": qt,
        "background_compile": None if trigger.helper is None else trigger.helper.returncode,
    }
