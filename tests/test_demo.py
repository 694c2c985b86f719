"""The README's main job: ``streamtk demo`` writes a netCDF file and a PNG and prints a summary."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import xarray as xr

import streamtk
from streamtk.cli import main
from streamtk.comparison.compare import compare
from streamtk.datasets.simulate import simulate_log
from streamtk.dependence.label_dependence import label_dependence
from streamtk.drift.ddm import ddm

N = 6000


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo")
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = main(["demo", "-o", str(out), "--n", str(N)])
    return rc, buf.getvalue(), out


def test_demo_writes_netcdf_and_png(demo):
    rc, text, out = demo
    assert rc == 0
    assert "kappa_per" in text and "streamtk-demo.nc" in text
    ds = xr.load_dataset(out / "streamtk-demo.nc")
    assert set(ds.model.values) == {"adaptive", "static", "persistent"}
    # the Persistent model's Kappa-Temporal is exactly 0 under every estimator
    kp = ds.kappa_per.sel(model="persistent").values
    assert np.all((kp == 0) | np.isnan(kp))
    png = (out / "streamtk-demo.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 50_000


def test_demo_results_equal_the_library(demo):
    _, _, out = demo
    path = out / "streamtk-demo.nc"
    drifts = [N // 3, 2 * N // 3]
    log = simulate_log(N, drifts=drifts, seed=0)
    curves = xr.load_dataset(path)
    ref = streamtk.evaluate(
        log.y_true,
        log.y_pred,
        windows=[1000],
        fading=[0.999],
        adwin=[0.002],
        every=N // 1000,
        metrics=["accuracy", "kappa_m"],
    )
    np.testing.assert_array_equal(curves.kappa_m.values, ref.kappa_m.values)
    cmp = xr.load_dataset(path, group="comparison")
    ref_cmp = compare(log.y_true, log.y_pred, windows=[1000], fading=[0.999], every=N // 1000)
    np.testing.assert_array_equal(cmp.mcnemar.values, ref_cmp.mcnemar.values)
    err = (log.y_pred.sel(model="adaptive") != log.y_true).values.astype(float)
    got = xr.load_dataset(path, group="drift_ddm").detection_index.values
    np.testing.assert_array_equal(got, ddm(err).detection_index.values)
    dep = xr.load_dataset(path, group="dependence")
    ref_dep = label_dependence(log.y_true, windows=[1000], every=N // 1000, max_lag=5)
    np.testing.assert_allclose(dep.p_t.values, ref_dep.p_t.values)
    for group in ("drift_page_hinkley", "drift_eddm", "drift_adwin"):
        assert list(xr.load_dataset(path, group=group).attrs["drifts"]) == drifts


def test_demo_summary_tables(demo):
    _, text, _ = demo
    assert "Comparison of every pair" in text and "adaptive    static" in text
    for det in ("page-hinkley", "ddm", "eddm", "adwin"):
        assert any(line.startswith(det) for line in text.splitlines()), det
    assert f"true drifts at {N // 3} and {2 * N // 3}" in text
    assert "P(T) = " in text and "quick test" in text


def test_compile_helper_starts_at_the_first_cache_miss():
    """The helper is started once, when numba first compiles (never on a warm cache)."""
    import numba

    from streamtk.demo import _HelperOnFirstCompile

    started = []
    with _HelperOnFirstCompile(lambda: started.append(1) or "helper") as trigger:
        assert trigger.helper is None
        numba.njit(lambda x: x + 1)(1)  # not cached: numba compiles it
        numba.njit(lambda x: x + 2)(1)
    assert started == [1] and trigger.helper == "helper"
    with _HelperOnFirstCompile(lambda: started.append(2)) as trigger:
        pass
    numba.njit(lambda x: x + 3)(1)  # after the block: not watched any more
    assert started == [1] and trigger.helper is None

    def cannot_start():
        started.append(3)
        raise OSError("no processes left")

    with _HelperOnFirstCompile(cannot_start) as trigger:
        assert numba.njit(lambda x: x + 4)(1) == 5  # the compilation goes on without a helper
        numba.njit(lambda x: x + 5)(1)
    assert started == [1, 3] and trigger.helper is None


def test_compile_helper_needs_a_free_cpu(monkeypatch):
    import os

    from streamtk import demo as D

    idle = D._idle_cpus(0.05)  # the real sample: a number of CPUs (None where /proc/stat is absent)
    assert idle is None or 0.0 <= idle <= (os.cpu_count() or 1) + 1e-9
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    # the instantaneous idle-CPU sample decides where it exists ...
    monkeypatch.setattr(D, "_idle_cpus", lambda: 1.9)
    assert D._spare_cpu()
    monkeypatch.setattr(D, "_idle_cpus", lambda: 1.0)  # another process keeps a CPU busy right now
    assert not D._spare_cpu()
    monkeypatch.setattr(os, "getloadavg", lambda: (3.0, 0.0, 0.0))  # a lagging load average does not
    monkeypatch.setattr(D, "_idle_cpus", lambda: 1.95)
    assert D._spare_cpu()
    # ... and the load average where it does not
    monkeypatch.setattr(D, "_idle_cpus", lambda: None)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.4, 0.0, 0.0))
    assert D._spare_cpu()
    monkeypatch.setattr(os, "getloadavg", lambda: (0.8, 0.0, 0.0))  # another process keeps a CPU busy
    assert not D._spare_cpu()
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    assert D._spare_cpu()
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert not D._spare_cpu()  # one CPU: the helper could only compete


def test_a_helper_that_is_done_is_not_waited_for_until_it_exits(tmp_path):
    from streamtk.demo import DONE, _HelperOnFirstCompile, _wait_for_helper

    claims = str(tmp_path)
    exiting = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    trigger = _HelperOnFirstCompile(lambda: exiting)
    trigger.start()
    assert not _wait_for_helper(exiting, claims, timeout=0.1)  # neither done nor ended
    (tmp_path / DONE).touch()
    assert _wait_for_helper(exiting, claims, timeout=0.1) and exiting.poll() is None
    trigger.stop(grace=0.1)  # still running after the grace period: killed
    assert exiting.returncode not in (None, 0)
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    assert _wait_for_helper(ended, str(tmp_path / "nowhere"), timeout=60) and ended.returncode == 0


def test_compile_helper_is_stopped():
    from streamtk.demo import _HelperOnFirstCompile

    trigger = _HelperOnFirstCompile(lambda: subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]))
    trigger.start()
    trigger.start()  # started once only
    assert trigger.helper.poll() is None
    trigger.stop()  # run_demo's finally clause: no helper outlives the demo
    assert trigger.helper.returncode not in (None, 0)  # killed


def test_the_stages_are_shared_between_this_process_and_the_helper(tmp_path, monkeypatch):
    """Each stage is claimed once; this process takes stages from the end until it meets the helper's."""
    from streamtk import demo as D

    class Running:
        def poll(self):
            return None

    monkeypatch.setattr(D, "_stage", lambda name, log, n: f"result of {name}")
    claims = str(tmp_path)
    for name in D.STAGES[:3]:  # the helper has reached the third stage
        assert D._claim(claims, name)
    assert not D._claim(claims, D.STAGES[0])  # claimed once only
    done = D._share_of_the_work(None, 0, Running(), claims)
    assert done == {name: f"result of {name}" for name in D.STAGES[3:]}
    assert not D._claim(claims, D.STAGES[-1])

    class Finished:
        def poll(self):
            return 0

    assert D._share_of_the_work(None, 0, Finished(), claims) == {}  # the helper is done: nothing to share
    assert set(D.STAGES) >= set(D.DETECTORS) and D.STAGES[-1] == "adwin"  # ADWIN's kernel: compiled by evaluate


@pytest.mark.slow
def test_background_compile_changes_no_result(demo, tmp_path):
    from streamtk.demo import run_demo

    _, _, out = demo
    res = run_demo(tmp_path, n=N, quiet=True, background_compile=True)
    assert res["background_compile"] == 0  # the helper ran the analyses to the end
    for group in (None, "comparison", "dependence", "drift_page_hinkley", "drift_ddm", "drift_eddm", "drift_adwin"):
        got = xr.load_dataset(tmp_path / "streamtk-demo.nc", group=group)
        ref = xr.load_dataset(out / "streamtk-demo.nc", group=group)
        xr.testing.assert_equal(got, ref)
        strip = lambda a: {k: str(v) for k, v in a.items() if k != "created"}  # noqa: E731
        assert strip(got.attrs) == strip(ref.attrs)
    assert run_demo(tmp_path, n=3000, quiet=True, background_compile=False)["background_compile"] is None
    with pytest.raises(TypeError, match="background_compile must be a bool or None, got 'yes'"):
        run_demo(tmp_path, n=3000, background_compile="yes")


def test_module_entry_point_and_errors(tmp_path):
    r = subprocess.run([sys.executable, "-m", "streamtk", "--version"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("streamtk ")
    assert main([]) == 2
    assert main(["demo", "-o", str(tmp_path), "--n", "1", "-q"]) == 2
    assert list(tmp_path.iterdir()) == []  # nothing written on bad input


def test_simulated_log_properties():
    log = simulate_log(20_000, persistence=0.9, seed=3)
    y = log.y_true.values
    assert np.mean(y[1:] == y[:-1]) > 0.9  # strong temporal dependence
    assert log.y_pred.dims == ("model", "time")
    per = log.y_pred.sel(model="persistent").values
    np.testing.assert_array_equal(per[1:], y[:-1])
    again = simulate_log(20_000, persistence=0.9, seed=3)
    xr.testing.assert_identical(log, again)


def test_demo_figure_is_readable(tmp_path, monkeypatch):
    # issue 35: the first figure a new user sees had titles cut by the figure's edge, legends over tick labels and
    # axis labels (of the ADWIN width's right axis) and over the kappa curves
    import warnings

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from streamtk.demo import run_demo
    from streamtk.plot._layout import covered_points, layout_problems

    saved, save = [], Figure.savefig

    def spy(fig, *args, **kwargs):
        saved.append(fig)
        return save(fig, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", spy)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run_demo(tmp_path, quiet=True, background_compile=False)  # the default size, as `streamtk demo` runs
    (fig,) = saved
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)  # pyplot closed it (its canvas went): draw it again as it was saved
    assert not [str(w.message) for w in caught if "constrained_layout" in str(w.message)]
    assert layout_problems(fig) == []
    for ax in fig.axes:
        if ax.get_legend() is not None:
            assert covered_points(ax) == 0, ax.get_title()
