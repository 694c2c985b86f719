"""Scale-out paths: lazy dask evaluation over leading dims, out-of-core evaluation of stored logs.

Oracle everywhere: the in-memory path (``streamtk.evaluate``, the detector functions,
``compare``, ``fold_summary``) on the whole input; results must be identical.
"""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

import streamtk
from streamtk.comparison.compare import compare
from streamtk.drift.adwin import Adwin, adwin
from streamtk.drift.ddm import DDM, ddm
from streamtk.drift.eddm import eddm
from streamtk.drift.page_hinkley import PageHinkley, page_hinkley
from streamtk.evaluation.scores import auc_curves
from streamtk.io import to_netcdf, to_zarr
from streamtk.kfold.folds import fold_summary
from streamtk.runners.dask_folds import fold_summary_dask
from streamtk.runners.distributed import auc_dask, compare_dask, detect_dask, evaluate_dask
from streamtk.runners.outofcore import evaluate_store

OPTS = dict(windows=[7, 40], fading=0.98, adwin=0.05, every=5)
VOLATILE = ("created", "chunk", "log")


def _same(got: xr.Dataset, ref: xr.Dataset) -> None:
    """Identical variables, coordinates and attrs (except creation time and store bookkeeping)."""
    got = got.compute()
    xr.testing.assert_identical(got.drop_attrs(deep=False), ref.drop_attrs(deep=False))
    strip = lambda a: {k: v for k, v in a.items() if k not in VOLATILE}  # noqa: E731
    assert strip(got.attrs).keys() == strip(ref.attrs).keys()


def _drift_losses(rng, runs, n):
    """0/1 losses with an error rate jumping from 0.1 to 0.6 at n // 2."""
    rate = np.where(np.arange(n) < n // 2, 0.1, 0.6)
    return (rng.random((runs, n)) < rate).astype(np.float64)


@pytest.fixture
def no_gc_diagnosis(monkeypatch):
    """The in-process scheduler of a LocalCluster without distributed's GC diagnosis.

    Its gc callback keeps one timer for every thread; a full collection that starts in one thread
    while another is being timed trips its ``assert start is not None`` (seen once in this suite,
    an error of distributed's own bookkeeping, not of the computation).
    """
    scheduler = pytest.importorskip("distributed.scheduler", reason="dask.distributed is needed for the cluster test")
    monkeypatch.setattr(scheduler, "enable_gc_diagnosis", lambda: None)
    monkeypatch.setattr(scheduler, "disable_gc_diagnosis", lambda force=False: None)


@pytest.fixture(scope="module")
def runs():
    rng = np.random.default_rng(11)
    n = 400
    y = rng.integers(0, 3, n)
    hit = rng.random((3, 4, n)) < np.linspace(0.4, 0.9, 4)[None, :, None]
    p = np.where(hit, y, rng.integers(0, 3, (3, 4, n)))
    da = xr.DataArray(p, dims=("model", "run", "time"), coords={"model": ["A", "B", "C"], "run": np.arange(4)})
    return y, da


# ----------------------------------------------------------------------------- dask, leading dims


@pytest.mark.parametrize("chunks", [{"model": 1, "run": 2}, {"model": 2, "run": 3}, {"model": -1, "run": 1}])
def test_evaluate_dask_equals_in_memory(runs, chunks):
    y, p = runs
    lazy = evaluate_dask(y, p.chunk(chunks), **OPTS)
    assert lazy.accuracy.chunks is not None  # lazy until computed
    assert lazy.accuracy.chunks[:2] == p.chunk(chunks).chunks[:2]
    _same(lazy, streamtk.evaluate(y, p, **OPTS))


def test_evaluate_dask_weights_missing_labels_and_moa(runs):
    y, p = runs
    yt = y.astype(float)
    yt[::17] = np.nan  # missing labels are skipped in both paths
    w = xr.DataArray(np.random.default_rng(3).random(y.size) * (np.arange(y.size) % 5 != 0), dims="time")
    for conv in ("streamtk", "moa"):
        ref = streamtk.evaluate(yt, p, weights=w, convention=conv, classes=[0.0, 1.0, 2.0], **OPTS)
        lazy = evaluate_dask(
            yt, p.chunk({"run": 1}), weights=w.chunk(), convention=conv, classes=[0.0, 1.0, 2.0], **OPTS
        )
        _same(lazy, ref)


def test_evaluate_dask_classes_computed_like_in_memory():
    # y_true never shows "z": the class list must come from the predictions too, sorted as in memory
    rng = np.random.default_rng(5)
    y = rng.choice(np.array(["b", "c"], dtype=object), 60)
    p = xr.DataArray(rng.choice(np.array(["b", "c", "z"], dtype=object), (4, 60)), dims=("run", "time"))
    lazy = evaluate_dask(y, p.chunk({"run": 2}), windows=5, every=4)
    ref = streamtk.evaluate(y, p, windows=5, every=4)
    assert lazy["class"].values.tolist() == ["b", "c", "z"]
    _same(lazy, ref)


def test_evaluate_dask_per_series_weights(runs):
    y, p = runs
    p1 = p.isel(model=0, drop=True)
    w = xr.DataArray(np.random.default_rng(4).random(p1.shape), dims=("run", "time"))
    _same(
        evaluate_dask(y, p1.chunk({"run": 1}), weights=w.chunk({"run": 1}), **OPTS),
        streamtk.evaluate(y, p1, weights=w, **OPTS),
    )


def test_evaluate_dask_refuses_time_chunks_and_lead_dims(runs):
    y, p = runs
    with pytest.raises(ValueError, match=r"y_pred is chunked along its time dimension 'time'.*evaluate_store"):
        evaluate_dask(y, p.chunk({"time": 100}), windows=5)
    with pytest.raises(TypeError, match="drop lead_dims"):
        evaluate_dask(y, p.chunk({"run": 1}), lead_dims=("a", "b"))
    with pytest.raises(TypeError, match="y_pred must be an xarray.DataArray"):
        evaluate_dask(y, p.values)


def test_auc_dask_equals_in_memory(runs):
    y, p = runs
    rng = np.random.default_rng(6)
    score = xr.DataArray(np.round(rng.random(p.shape), 2), dims=p.dims, coords=p.coords)  # ties included
    w = xr.DataArray(rng.random(y.size), dims="time")
    opts = dict(windows=30, fading=0.99, every=9, pos_label=2)
    _same(auc_dask(y, score.chunk({"model": 2, "run": 1}), weights=w, **opts), auc_curves(y, score, weights=w, **opts))
    proba = xr.DataArray(rng.dirichlet(np.ones(3), (4, y.size)), dims=("run", "time", "class"))
    opts = dict(windows=50, every=20, classes=[0, 1, 2], multi_class="ovo")
    _same(auc_dask(y, proba.chunk({"run": 1}), **opts), auc_curves(y, proba, **opts))
    with pytest.raises(ValueError, match="chunked along its class dimension 'class'"):
        auc_dask(y, proba.chunk({"class": 1}), **opts)


@pytest.mark.parametrize(
    "name, func, params",
    [
        ("adwin", adwin, {"delta": 0.01}),
        ("ddm", ddm, {}),
        ("eddm", eddm, {"min_errors": 10}),
        ("page_hinkley", page_hinkley, {"lambda_": 10.0}),
    ],
)
def test_detect_dask_equals_in_memory(name, func, params):
    x = xr.DataArray(_drift_losses(np.random.default_rng(8), 4, 600), dims=("run", "time"))
    ref = func(x, **params)
    assert int(ref.n_detections.sum()) > 0 if "n_detections" in ref else bool((ref.detection != 0).any())
    lazy = detect_dask(name, x.chunk({"run": 3}), **params)
    _same(lazy, ref.drop_vars([v for v in ref.data_vars if "detection_number" in ref[v].dims]))


def test_detect_dask_refuses_unknown():
    x = xr.DataArray(np.zeros((2, 10)), dims=("run", "time")).chunk({"run": 1})
    with pytest.raises(ValueError, match="detector must be one of .* got 'kswin'"):
        detect_dask("kswin", x)


def test_compare_dask_equals_in_memory(runs):
    y, p = runs
    ref = compare(y, p, windows=10, fading=0.99, every=3)
    _same(compare_dask(y, p.chunk({"run": 1}), windows=10, fading=0.99, every=3), ref)
    a, b = p.isel(model=0, drop=True), p.isel(model=2, drop=True)
    _same(compare_dask(y, a.chunk({"run": 2}), b.chunk({"run": 2}), windows=10), compare(y, a, b, windows=10))
    with pytest.raises(ValueError, match="chunked along its 'model' dim"):
        compare_dask(y, p.chunk({"model": 1}))


def test_fold_summary_dask_equals_in_memory(runs):
    y, p = runs
    per_fold = streamtk.evaluate(y, p.rename(run="fold"), windows=20, every=25, metrics=["accuracy", "kappa"])
    per_fold["kappa"][0, 1, 0, :3] = np.nan  # an undefined fold value is skipped by both paths
    ref = fold_summary(per_fold)
    got = fold_summary_dask(per_fold.chunk({"model": 1, "time": 5}))
    assert got.accuracy.chunks is not None
    _same(got, ref)
    xr.testing.assert_identical(
        fold_summary_dask(per_fold.kappa.chunk({"model": 2})).compute(), fold_summary(per_fold.kappa)
    )
    with pytest.raises(ValueError, match="chunked along 'fold'"):
        fold_summary_dask(per_fold.accuracy.chunk({"fold": 2}))


@pytest.mark.slow
def test_local_cluster_two_worker_processes(runs, no_gc_diagnosis):
    distributed = pytest.importorskip("distributed", reason="dask.distributed is needed for the cluster test")
    y, p = runs
    x = xr.DataArray(_drift_losses(np.random.default_rng(9), 4, 600), dims=("run", "time"))
    cluster = client = None
    try:
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, silence_logs=40
        )
        client = distributed.Client(cluster)
        lazy = evaluate_dask(y, p.chunk({"model": 1, "run": 2}), **OPTS)
        det = detect_dask("adwin", x.chunk({"run": 1}), delta=0.01)
        got, got_det = client.compute([lazy, det], sync=True)
        workers = client.run(lambda: 1)
        assert len(workers) == 2
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    _same(got, streamtk.evaluate(y, p, **OPTS))
    ref_det = adwin(x, delta=0.01)
    _same(got_det, ref_det.drop_vars([v for v in ref_det.data_vars if "detection_number" in ref_det[v].dims]))


# ----------------------------------------------------------------------------- out of core


def _store_log(tmp_path, y, p, *, time_chunk, fmt="zarr", weights=None):
    log = xr.Dataset(
        {"y_true": ("time", y), "y_pred": (p.dims, p.values)}, coords=p.drop_vars("time", errors="ignore").coords
    )
    if weights is not None:
        log["weights"] = ("time", weights)
    if fmt == "zarr":
        path = tmp_path / "log.zarr"
        if any(log[v].dtype == object for v in log.data_vars):
            to_zarr(log, path)  # text labels, missing ones marked
        else:
            enc = {
                v: {"chunks": tuple(time_chunk if d == "time" else s for d, s in zip(log[v].dims, log[v].shape))}
                for v in log.data_vars
            }
            log.to_zarr(path, zarr_format=2, encoding=enc)
    else:
        path = tmp_path / "log.nc"
        to_netcdf(log, path)
    return path


@pytest.mark.parametrize("chunk, every", [(64, 5), (97, 1), (400, 30), (1000, 7)])
def test_evaluate_store_zarr_equals_one_pass(tmp_path, runs, chunk, every):
    y, p = runs
    path = _store_log(tmp_path, y, p, time_chunk=64)
    opts = {**OPTS, "every": every}
    got = evaluate_store(path, chunk=chunk, out=tmp_path / "curves.zarr", classes=[0, 1, 2], out_chunk=6, **opts)
    assert got.accuracy.chunks is not None  # read back lazily from the written store
    assert got.accuracy.encoding["chunks"][-1] == 6  # appended in whole zarr chunks of out_chunk rows
    assert got.attrs["chunk"] == chunk and got.attrs["n_instances"] == y.size
    _same(got, streamtk.evaluate(y, p, **opts))


@pytest.mark.parametrize("fmt", ["nc", "zarr"])
def test_evaluate_store_strings_missing_weights(tmp_path, fmt):
    rng = np.random.default_rng(2)
    n = 300
    y = rng.choice(np.array(["no", "yes"], dtype=object), n)
    y[rng.random(n) < 0.1] = None
    p = xr.DataArray(
        rng.choice(np.array(["no", "yes"], dtype=object), (2, n)),
        dims=("model", "time"),
        coords={"model": ["m1", "m2"]},
    )
    w = rng.random(n)
    path = _store_log(tmp_path, y, p, time_chunk=50, fmt=fmt, weights=w)  # missing labels marked by streamtk.io
    got = evaluate_store(path, chunk=70, weights="weights", **OPTS)  # classes from a first pass
    _same(got, streamtk.evaluate(y, p, weights=w, **OPTS))


def test_evaluate_store_detectors_equal_one_pass(tmp_path):
    rng = np.random.default_rng(21)
    n = 3000
    y = rng.integers(0, 2, n)
    loss = _drift_losses(rng, 3, n).astype(bool)
    p = xr.DataArray(np.where(loss, 1 - y, y), dims=("model", "time"), coords={"model": ["a", "b", "c"]})
    path = _store_log(tmp_path, y, p, time_chunk=256)
    seen = []
    got = evaluate_store(
        path,
        chunk=256,
        out=tmp_path / "c.zarr",
        classes=[0, 1],
        windows=50,
        every=100,
        progress=lambda done, total: seen.append((done, total)),
        detectors={"adwin": Adwin(delta=0.002), "ddm": DDM(trace=False), "ph": PageHinkley(trace=False)},
    )
    assert seen[-1] == (n, n) and [d for d, _ in seen] == sorted(d for d, _ in seen) and len(seen) == 12
    x = loss.astype(np.float64)
    ref = adwin(x, delta=0.002)
    for r in range(3):
        steps = np.flatnonzero(ref.detection.values[r])
        assert steps.size > 0
        k = int(got.adwin_n_detections[r])
        assert got.adwin_detection_index.values[r, :k].tolist() == steps.tolist()
        assert got.adwin_detection_sign.values[r, :k].tolist() == ref.detection.values[r, steps].tolist()
    for key, ref in (("ddm", ddm(x, trace=False)), ("ph", page_hinkley(x, trace=False))):
        assert int(ref.n_detections.sum()) > 0
        assert got[f"{key}_n_detections"].values.tolist() == ref.n_detections.values.tolist()
        assert got[f"{key}_detection_index"].values.tolist() == ref.detection_index.values.tolist()
    _same(
        got.drop_vars([v for v in got.data_vars if v.startswith(("adwin_", "ddm_", "ph_"))]),
        streamtk.evaluate(y, p, classes=[0, 1], windows=50, every=100),
    )


def test_evaluate_store_refuses_bad_input(tmp_path, runs):
    y, p = runs
    path = _store_log(tmp_path, y, p, time_chunk=100)
    with pytest.raises(ValueError, match="trace=False"):
        evaluate_store(path, chunk=100, classes=[0, 1, 2], detectors={"d": DDM()})
    with pytest.raises(ValueError, match="no variable 'scores'"):
        evaluate_store(path, y_pred="scores")
    with pytest.raises(ValueError, match="chunk must be a positive integer, got 0"):
        evaluate_store(path, chunk=0)
    with pytest.raises(FileNotFoundError, match="log store not found"):
        evaluate_store(tmp_path / "nowhere.zarr")
    with pytest.raises(TypeError, match="detectors must be a dict"):
        evaluate_store(path, classes=[0, 1, 2], detectors=[DDM(trace=False)])


@given(chunk=st.integers(1, 90), every=st.integers(1, 12), seed=st.integers(0, 2**16))
def test_evaluate_store_any_chunking_property(chunk, every, seed):
    rng = np.random.default_rng(seed)
    n = 90
    y = rng.integers(0, 2, n)
    p = xr.DataArray(rng.integers(0, 2, (2, n)), dims=("model", "time"))
    log = xr.Dataset({"y_true": ("time", y), "y_pred": p})
    opts = dict(windows=[3, 20], fading=0.9, adwin=0.1, every=every, metrics=["accuracy", "kappa", "recall"])
    _same(evaluate_store(log, chunk=chunk, classes=[0, 1], **opts), streamtk.evaluate(y, p, **opts))


# ----------------------------------------------------------------------------- dask significance curves


@pytest.fixture(scope="module")
def per_fold(runs):
    """Per-fold curves of three models (the runs as folds), one fold value undefined."""
    y, p = runs
    res = streamtk.evaluate(y, p.rename(run="fold"), windows=20, fading=0.99, every=25, metrics=["accuracy", "kappa"])
    res["kappa"][0, 2, 1, 4] = np.nan  # a NaN fold value: NaN statistics and reject=False in both paths
    return res


@pytest.mark.parametrize("chunks", [{"time": 5}, {"time": 3, "estimator": 1}, {"estimator": 2}])
def test_significance_curves_dask_equals_in_memory(per_fold, chunks):
    from streamtk.kfold.folds import significance_curves
    from streamtk.runners.dask_folds import significance_curves_dask

    opts = dict(models=("A", "C"), alpha=0.1, alternative="greater")
    got = significance_curves_dask(per_fold.chunk(chunks), **opts)
    assert got.pvalue.chunks is not None and got.pvalue.dims == ("test", "metric", "estimator", "time")
    assert got.pvalue.chunks[got.pvalue.dims.index("time")] == per_fold.chunk(chunks).chunks["time"]
    ref = significance_curves(per_fold, **opts)
    assert bool(ref.reject.any()) and bool(np.isnan(ref.pvalue).any())  # the comparison is not vacuous
    _same(got, ref)


def test_significance_curves_dask_dataarrays_and_pairs(per_fold):
    from streamtk.kfold.folds import significance_curves
    from streamtk.runners.dask_folds import significance_curves_dask

    acc = per_fold.accuracy
    a, b = acc.sel(model="B", drop=True), acc.sel(model="A", drop=True)
    opts = dict(tests=["wilcoxon"], wilcoxon_method="approx")
    ref = significance_curves(a, b, **opts)
    _same(significance_curves_dask(a.chunk({"time": 4}), b.chunk({"time": 6}), **opts), ref)  # chunks unified
    _same(significance_curves_dask(a.chunk({"time": 4}), b, **opts), ref)  # one lazy input is enough
    assert significance_curves_dask(a, b).pvalue.chunks is None  # in memory: the in-memory path
    with pytest.raises(ValueError, match="chunked along dim='fold'"):
        significance_curves_dask(a.chunk({"fold": 2}), b)
    with pytest.raises(ValueError, match="chunked along its 'model' dim"):
        significance_curves_dask(acc.chunk({"model": 1}), models=("A", "B"))
    mixed = per_fold.chunk({"time": 4})
    mixed["kappa"] = per_fold.kappa.chunk({"fold": 2})  # one variable split over the folds is enough to refuse
    with pytest.raises(ValueError, match=r"a is chunked along dim='fold' \(chunks \(2, 2\)\)"):
        significance_curves_dask(mixed, models=("A", "B"))
    with pytest.raises(ValueError, match="tests must be one of"):
        significance_curves_dask(a.chunk({"time": 4}), b, tests=["t-test"])
    with pytest.raises(TypeError, match="a must be an xarray Dataset or DataArray, got ndarray"):
        significance_curves_dask(acc.values, b)


@pytest.mark.slow
def test_significance_curves_dask_on_local_cluster(per_fold, no_gc_diagnosis):
    distributed = pytest.importorskip("distributed", reason="dask.distributed is needed for the cluster test")
    from streamtk.kfold.folds import significance_curves
    from streamtk.runners.dask_folds import significance_curves_dask

    cluster = client = None
    try:
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, silence_logs=40
        )
        client = distributed.Client(cluster)
        lazy = significance_curves_dask(per_fold.chunk({"time": 2}), models=("A", "B"))
        got = client.compute(lazy, sync=True)
        assert len(client.run(lambda: 1)) == 2
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    _same(got, significance_curves(per_fold, models=("A", "B")))
