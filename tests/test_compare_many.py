"""Results collection, comparisons across streams and over time: against slow references and the stats layer."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

import streamtk
from streamtk.comparison import (
    ManyComparison,
    bayesian_pairs,
    collect,
    collection_from_array,
    compare_many,
    compare_two,
    select_table,
)
from streamtk.comparison.over_time import collect_curves, compare_over_time, compare_two_over_time
from streamtk.comparison.summaries import checkpoint_every, parse_summaries, summarise_curves, values_at
from streamtk.io import read_collection, write_collection
from streamtk.stats import bayesian_signed_rank_test, friedman_test, posthoc_test, sign_test, wilcoxon_test

from .test_posthoc import GH_2008_TABLE_2, GH_NAMES


@pytest.fixture(scope="module")
def logs():
    """4 streams x 3 seeds of the simulated 3-model log (different lengths per stream)."""
    return {
        (f"stream_{i}", seed): streamtk.simulate_log(1500 + 500 * i, seed=97 * i + seed)
        for i in range(4)
        for seed in range(3)
    }


# ----------------------------------------------------------------------------- summaries
def test_summaries_of_a_curve_follow_their_definitions():
    inst = np.array([10, 20, 40, 50])
    v = np.array([[np.nan, 0.5, 0.7, 0.6], [0.1, 0.2, 0.3, np.nan]])
    out = summarise_curves(v, inst, ("final", "mean", "area", "at=20", "at=45", "at=5", "at=51"))
    np.testing.assert_allclose(out[0], [0.6, np.nan])
    np.testing.assert_allclose(out[1], [0.6, 0.2])  # NaN checkpoints skipped
    # trapezoids over segments with both ends defined, normalised by their length
    np.testing.assert_allclose(out[2], [(0.6 * 20 + 0.65 * 10) / 30, (0.15 * 10 + 0.25 * 20) / 30])
    np.testing.assert_allclose(out[3], [0.5, 0.2])  # exact checkpoint
    np.testing.assert_allclose(out[4], [0.7, 0.3])  # last checkpoint before 45
    assert np.isnan(out[5]).all() and np.isnan(out[6]).all()  # before the first / beyond the end
    np.testing.assert_allclose(values_at(v, inst, [20, 45, 51]), out[[3, 4, 6]])


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 40))
def test_area_is_the_trapezoid_integral_and_mean_of_a_constant_is_it(seed, n):
    rng = np.random.default_rng(seed)
    inst = np.cumsum(rng.integers(1, 50, size=n))
    v = rng.uniform(size=n)
    area, mean = summarise_curves(v, inst, ("area", "mean"))
    assert area == pytest.approx(np.trapezoid(v, inst) / (inst[-1] - inst[0]), rel=1e-12)
    assert mean == pytest.approx(v.mean(), rel=1e-12)
    const = summarise_curves(np.full(n, 0.3), inst, ("area", "mean", "final"))
    np.testing.assert_allclose(const, 0.3, rtol=1e-12)


def test_summary_labels_and_checkpoint_spacing():
    assert parse_summaries(["final", 1000, "at = 50"]) == ("final", "at=1000", "at=50")
    with pytest.raises(ValueError, match="summaries"):
        parse_summaries("median")
    with pytest.raises(ValueError, match="more than once"):
        parse_summaries(["final", "final"])
    assert checkpoint_every(1_000_000, ("final",)) == 100
    assert checkpoint_every(1_000_000, ("at=12345",)) == 15  # largest divisor of 12345 not above 100
    assert checkpoint_every(1_000_000, ("at=50000", "at=70000")) == 100


# ----------------------------------------------------------------------------- collection
def test_collect_logs_equals_summaries_of_the_evaluated_curves(logs):
    coll = collect(
        logs,
        metrics=["accuracy", "kappa"],
        summaries=["final", "mean", "area", "at=1000"],
        estimators=["prequential", "window=200"],
        evaluate_options={"every": 10},
    )
    assert dict(coll["kappa"].sizes) == {"summary": 4, "estimator": 2, "dataset": 4, "model": 3, "run": 3}
    assert coll["run"].values.tolist() == [0, 1, 2]
    for (ds_name, seed), log in list(logs.items())[::4]:
        curves = streamtk.evaluate(log.y_true, log.y_pred, windows=200, every=10, metrics=["accuracy", "kappa"])
        for est in ("prequential", "window=200"):
            ref = curves["kappa"].sel(estimator=est)
            got = coll["kappa"].sel(dataset=ds_name, run=seed, estimator=est)
            inst = curves["instance"].values
            np.testing.assert_allclose(got.sel(summary="final"), ref.isel(time=-1))
            np.testing.assert_allclose(got.sel(summary="mean"), ref.mean("time"))
            for m, row in enumerate(ref.values):  # kappa is undefined (NaN) on a prefix: integrate the rest
                ok = ~np.isnan(row)
                area = np.trapezoid(row[ok], inst[ok]) / (inst[ok][-1] - inst[ok][0])
                assert float(got.sel(summary="area")[m]) == pytest.approx(area, rel=1e-12)
            np.testing.assert_allclose(got.sel(summary="at=1000"), ref.sel(time=int(np.flatnonzero(inst == 1000)[0])))
        assert int(coll["stream_length"].sel(dataset=ds_name, run=seed, model="static")) == log.sizes["time"]


def test_collect_files_with_a_pattern_and_curves_with_a_fold_dim(tmp_path, logs):
    from streamtk.io import to_netcdf

    for (name, seed), log in logs.items():
        to_netcdf(log, tmp_path / f"{name}_seed{seed}.nc")
    files = sorted(tmp_path.glob("*.nc"))
    coll = collect(files, metrics=["accuracy"], pattern="{dataset}_seed{run}.nc")
    mem = collect(logs, metrics=["accuracy"])
    xr.testing.assert_allclose(coll["accuracy"].sel(dataset=mem["dataset"].values), mem["accuracy"])
    assert str(coll["source"].sel(dataset="stream_0", run=1, model="static").item()).endswith("stream_0_seed1.nc")
    # curves whose runs are folds: the fold dim becomes run
    log = logs[("stream_1", 0)]
    pred = log.y_pred.expand_dims(fold=[0, 1]).transpose("model", "fold", "time")
    curves = streamtk.evaluate(log.y_true, pred, metrics=["accuracy"], every=50)
    c2 = collect({"s": curves}, metrics=["accuracy"])
    assert c2["run"].values.tolist() == [0, 1]
    np.testing.assert_allclose(c2["accuracy"].sel(run=0), c2["accuracy"].sel(run=1))
    with pytest.raises(ValueError, match="does not match"):
        collect(files[:1], metrics=["accuracy"], pattern="{dataset}-run{run}.nc")


def test_collect_refuses_duplicates_and_unknown_names(logs):
    log = logs[("stream_0", 0)]
    with pytest.raises(ValueError, match="comes from two sources"):
        collect([log.assign_attrs(dataset="a", run=1), log.assign_attrs(dataset="a", seed=1)], metrics=["accuracy"])
    with pytest.raises(ValueError, match="metrics"):
        collect({"a": log}, metrics=["accuracy", "nonsense"])
    with pytest.raises(ValueError, match="estimators"):
        collect({"a": log}, metrics=["accuracy"], estimators=["sliding"])
    with pytest.raises(FileNotFoundError, match="does not exist"):
        collect(["/nonexistent/run.csv"])
    with pytest.raises(ValueError, match="empty"):
        collect({})


def test_collection_round_trips_through_netcdf_and_missing_cells_are_nan(tmp_path, logs):
    part = {k: v for k, v in logs.items() if k != ("stream_2", 1)}
    coll = collect(part, metrics=["kappa"], summaries=["final", "mean"])
    assert np.isnan(coll["kappa"].sel(dataset="stream_2", run=1)).all()
    path = write_collection(coll, tmp_path / "coll.nc")
    back = read_collection(path)
    xr.testing.assert_identical(back.drop_attrs(), coll.drop_attrs())
    assert not list(tmp_path.glob(".*tmp"))  # the temporary file was renamed
    with pytest.raises(ValueError, match="not a results collection"):
        from streamtk.io import to_netcdf

        read_collection(to_netcdf(logs[("stream_0", 0)], tmp_path / "log.nc"))
    with pytest.raises(ValueError, match="summary"):
        select_table(coll, metric="kappa")


# ----------------------------------------------------------------------------- across streams
def test_compare_many_equals_the_stats_layer_on_garcia_herrera():
    coll = collection_from_array(GH_2008_TABLE_2, datasets=[f"d{i}" for i in range(30)], models=GH_NAMES)
    for method in ("nemenyi", "holm", "shaffer", "finner", "hochberg"):
        res = compare_many(coll, posthoc=method)
        ref = posthoc_test(GH_2008_TABLE_2, names=GH_NAMES, method=method)
        np.testing.assert_array_equal(res.posthoc.pvalue_adjusted, ref.pvalue_adjusted)
        assert res.posthoc.cliques == ref.cliques
    fr = friedman_test(GH_2008_TABLE_2, names=GH_NAMES)
    assert res.friedman.f_pvalue == fr.f_pvalue and res.significant
    ctrl = compare_many(coll, posthoc="bonferroni-dunn", control="Kernel")
    assert ctrl.posthoc.control == "Kernel" and ctrl.friedman.control == "Kernel"
    assert ctrl.posthoc.cd == pytest.approx(ctrl.friedman.cd)


def test_runs_are_averaged_or_used_as_blocks(logs):
    coll = collect(logs, metrics=["kappa"])
    cells = coll["kappa"].sel(summary="final", estimator="prequential")
    mean = compare_many(coll, posthoc="holm")
    ref = posthoc_test(cells.mean("run").transpose("dataset", "model").values, names=cells["model"].values)
    np.testing.assert_allclose(mean.posthoc.pvalue_adjusted, ref.pvalue_adjusted)
    blocks = compare_many(coll, posthoc="holm", runs="blocks")
    table = cells.transpose("dataset", "run", "model").values.reshape(-1, 3)
    ref = posthoc_test(table, names=cells["model"].values)
    np.testing.assert_allclose(blocks.posthoc.pvalue_adjusted, ref.pvalue_adjusted)
    assert blocks.posthoc.n_datasets == 12
    med = compare_many(coll, runs="median")
    np.testing.assert_allclose(med.table.values, cells.median("run").transpose("dataset", "model").values)


def test_missing_values_are_refused_or_their_datasets_dropped():
    v = np.arange(24, dtype=float).reshape(4, 3, 2) / 30
    v[1, 2, 0] = np.nan
    coll = collection_from_array(v, datasets=list("abcd"), models=list("xyz"))
    with pytest.raises(ValueError, match=r"datasets \['b'\].*\('b', 'z', '0'\)"):
        compare_many(coll)
    res = compare_many(coll, missing="drop")
    assert res.dropped == ("b",) and res.posthoc.n_datasets == 3 and "left out" in repr(res)
    # a run absent for every model of a dataset is not a hole
    v2 = np.arange(24, dtype=float).reshape(4, 3, 2)
    v2[1, :, 1] = np.nan
    assert compare_many(collection_from_array(v2, datasets=list("abcd"), models=list("xyz"))).posthoc.n_datasets == 4


def test_direction_comes_from_the_metric(logs):
    coll = collect(logs, metrics=["accuracy", "error"])
    acc = compare_many(coll, metric="accuracy")
    err = compare_many(coll, metric="error")
    assert not err.higher_is_better and acc.higher_is_better
    np.testing.assert_allclose(err.posthoc.average_ranks, acc.posthoc.average_ranks)
    flipped = compare_many(coll, metric="error", higher_is_better=True)
    np.testing.assert_allclose(flipped.posthoc.average_ranks, 4 - acc.posthoc.average_ranks)


def test_many_comparison_round_trips_and_prints(tmp_path, logs):
    from streamtk.io import open_dataset

    res = compare_many(collect(logs, metrics=["kappa"]), posthoc="finner", control="static")
    back = ManyComparison.from_dataset(open_dataset(write_collection(res.to_dataset(), tmp_path / "c.nc")))
    np.testing.assert_array_equal(back.posthoc.pvalue_adjusted, res.posthoc.pvalue_adjusted)
    assert back.posthoc.control == "static" and back.friedman.f_pvalue == res.friedman.f_pvalue
    text = repr(res)
    assert "Iman-Davenport" in text and "finner (against the control 'static')" in text


def test_compare_two_matches_scipy_and_the_bayesian_test():
    rng = np.random.default_rng(9)
    v = rng.uniform(0.6, 0.9, size=(12, 2, 3))
    v[:, 0] += 0.02
    coll = collection_from_array(v, datasets=[f"d{i}" for i in range(12)], models=["A", "B"], metric="kappa")
    res = compare_two(coll, "A", "B", rope=0.01, seed=4, n_samples=5000)
    x, y = v[:, 0].mean(axis=1), v[:, 1].mean(axis=1)
    ref = sps.wilcoxon(x, y)
    assert float(res.wilcoxon.pvalue) == pytest.approx(ref.pvalue, rel=1e-10)
    assert float(res.sign.pvalue) == pytest.approx(sps.binomtest(int(np.sum(x > y)), 12).pvalue, rel=1e-10)
    bay = bayesian_signed_rank_test(x, y, rope=0.01, seed=4, n_samples=5000)
    np.testing.assert_array_equal(res.bayesian.probabilities, bay.probabilities)
    ds = res.to_dataset()
    assert ds["pvalue"].sel(test="wilcoxon") == pytest.approx(ref.pvalue)
    # errors: A better means lower values
    err = collection_from_array(1 - v, datasets=[f"d{i}" for i in range(12)], models=["A", "B"], metric="error")
    res_e = compare_two(err, "A", "B", rope=0.01, seed=4, n_samples=5000)
    assert float(res_e.wilcoxon.r_plus) == float(res.wilcoxon.r_plus)
    with pytest.raises(ValueError, match="two different models"):
        compare_two(coll, "A", "A")


def test_bayesian_pairs_covers_every_pair_best_first():
    coll = collection_from_array(GH_2008_TABLE_2, datasets=[f"d{i}" for i in range(30)], models=GH_NAMES)
    out = bayesian_pairs(coll, rope=0.01, n_samples=3000)
    assert out.sizes["pair"] == 10
    assert out["model_a"].values[0] == "C4.5" and out["model_b"].values[-1] == "Kernel"
    np.testing.assert_allclose(out["probability"].sum("region"), 1.0)
    ctrl = bayesian_pairs(coll, rope=0.01, n_samples=3000, control="Kernel")
    assert set(ctrl["model_a"].values) == {"Kernel"} and ctrl.sizes["pair"] == 4


# ----------------------------------------------------------------------------- over time
def test_compare_over_time_equals_compare_many_at_every_grid_point(logs):
    curves = collect_curves(logs, metric="kappa", grid=12)
    assert dict(curves["kappa"].sizes) == {"estimator": 1, "dataset": 4, "model": 3, "run": 3, "time": 12}
    out = compare_over_time(curves, posthoc="holm", alpha=0.1)
    for t in range(12):
        cells = curves["kappa"].isel(estimator=0, time=t).transpose("dataset", "model", "run")
        coll = collection_from_array(
            cells.values, datasets=cells["dataset"].values, models=cells["model"].values, metric="kappa"
        )
        ref = compare_many(coll, posthoc="holm", alpha=0.1)
        np.testing.assert_allclose(out["average_rank"].isel(time=t), ref.posthoc.average_ranks)
        assert float(out["iman_davenport_pvalue"][t]) == pytest.approx(ref.friedman.f_pvalue, rel=1e-10, abs=1e-300)
        assert bool(out["significant"][t]) == ref.significant
        for p in range(out.sizes["pair"]):
            a, b = str(out["model_a"][p].item()), str(out["model_b"][p].item())
            ia, ib = ref.posthoc.names.index(a), ref.posthoc.names.index(b)
            assert float(out["pvalue_adjusted"][p, t]) == pytest.approx(ref.posthoc.pvalue_adjusted[ia, ib], rel=1e-10)


def test_collect_curves_takes_each_stream_at_its_own_fraction(logs):
    curves = collect_curves(logs, metric="accuracy", grid=[0.25, 0.5, 1.0], evaluate_options={"every": 1})
    for (name, seed), log in list(logs.items())[::5]:
        full = streamtk.evaluate(log.y_true, log.y_pred, metrics=["accuracy"], every=1)["accuracy"]
        n = log.sizes["time"]
        for t, f in enumerate([0.25, 0.5, 1.0]):
            expected = full.sel(estimator="prequential").isel(time=int(np.ceil(f * n)) - 1)
            np.testing.assert_allclose(
                curves["accuracy"].sel(dataset=name, run=seed).isel(estimator=0, time=t), expected
            )


def test_leader_and_since_when():
    # three models on 16 streams over 6 grid points: A leads (significantly) at points 0-1; B leads from point 2
    # on, but only significantly from point 4 (at 2-3 A still wins half the streams)
    k, n, t = 3, 16, 6
    base = np.zeros((n, k, t))
    base[:, 0, :2] = 0.9
    base[:, 1, 2:] = 0.9
    base[:, 1, 4:] = 0.95
    base[:, 2, :] = 0.5
    base[:8, 0, 2:4] = 0.92
    curves = xr.Dataset(
        {"accuracy": (("dataset", "model", "time"), base)},
        coords={
            "dataset": [f"d{i}" for i in range(n)],
            "model": list("ABC"),
            "instance": ("time", np.arange(1, 7) * 100),
        },
    )
    out = compare_over_time(curves, posthoc="holm")
    assert out["leader"].values.tolist() == ["A", "A", "B", "B", "B", "B"]
    np.testing.assert_array_equal(out["leader_since"].values, [100, 100, 300, 300, 300, 300])
    assert out["leader_significant"].values.tolist() == [True, True, False, False, True, True]
    np.testing.assert_array_equal(out["significant_since"].values, [100, 100, np.nan, np.nan, 500, 500])


def test_undefined_grid_points_and_two_models_over_time(logs):
    curves = collect_curves(logs, metric="kappa", grid=np.array([100, 1000, 3000]), align="instance")
    out = compare_over_time(curves)
    # stream_0 has 1500 instances: at 3000 its value is undefined, so is the test there
    assert np.isnan(out["iman_davenport_pvalue"].values[2]) and not out["significant"].values[2]
    assert out["leader"].values[2] == ""
    two = compare_two_over_time(curves, "adaptive", "static")
    table = curves["kappa"].isel(estimator=0).mean("run")
    d = (table.sel(model="adaptive") - table.sel(model="static")).isel(time=1).values
    assert float(two["pvalue"].sel(test="wilcoxon").isel(time=1)) == pytest.approx(float(wilcoxon_test(d).pvalue))
    assert float(two["pvalue"].sel(test="sign").isel(time=1)) == pytest.approx(float(sign_test(d).pvalue))
    with pytest.raises(ValueError, match="align='instance'"):
        collect_curves(logs, metric="kappa", grid=10, align="instance")


# ----------------------------------------------------------------------------- figures
def test_figures_from_every_result():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from streamtk.plot import cd_diagram, plot_posterior, plot_ranks_over_time

    coll = collection_from_array(GH_2008_TABLE_2, datasets=[f"d{i}" for i in range(30)], models=GH_NAMES)
    holm = compare_many(coll, posthoc="holm")
    fig, ax = plt.subplots()
    art = cd_diagram(holm, ax=ax)
    assert art["cd_bar"] is None and len(art["groups"]) == len(holm.posthoc.cliques)
    starts = sorted(ln.get_xdata()[0] for ln in art["lines"])
    np.testing.assert_allclose(starts, np.sort(holm.posthoc.average_ranks))
    art = cd_diagram(holm.to_dataset(), ax=ax)  # the netCDF form draws the same diagram
    assert [t.get_text() for t in art["labels"]] == [
        f"{n} ({r:.2f})" for n, r in zip(GH_NAMES, holm.posthoc.average_ranks)
    ]
    nem = cd_diagram(compare_many(coll, posthoc="nemenyi"), ax=ax)
    assert np.ptp(nem["cd_bar"].get_xdata()) == pytest.approx(holm.friedman.cd)
    flat = collection_from_array(
        np.tile([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]], (3, 1)), datasets=list("abcdef"), models=list("xyz")
    )
    with pytest.raises(ValueError, match="not significant"):
        cd_diagram(compare_many(flat), ax=ax)
    pairs = bayesian_pairs(coll, n_samples=2000)
    arts = plot_posterior(pairs, ax=ax)
    assert len(arts) == 3 and len(arts[0].patches) == 10
    with pytest.raises(ValueError, match="simplex"):
        plot_posterior(pairs, kind="simplex")
    arts = plot_posterior(compare_two(coll, "C4.5", "NaiveBayes", n_samples=2000), ax=ax)
    assert len(arts) >= 3
    plt.close("all")
    curves = xr.Dataset(
        {"accuracy": (("dataset", "model", "time"), np.random.default_rng(0).uniform(size=(6, 3, 5)))},
        coords={"model": list("abc"), "fraction": ("time", np.linspace(0.2, 1, 5))},
    )
    arts = plot_ranks_over_time(compare_over_time(curves))
    assert len(arts) == 7
    plt.close("all")


def test_figures_in_one_call_from_the_collection():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from streamtk.plot import cd_diagram, plot_posterior

    coll = collection_from_array(GH_2008_TABLE_2, datasets=[f"d{i}" for i in range(30)], models=GH_NAMES)
    fig, ax = plt.subplots()
    art = cd_diagram(coll, ax=ax, posthoc="shaffer")
    assert len(art["groups"]) == len(compare_many(coll, posthoc="shaffer").posthoc.cliques)
    arts = plot_posterior(coll, ax=ax, rope=0.02, n_samples=1000, control="C4.5")
    assert len(arts[0].patches) == 4
    with pytest.raises(TypeError, match="apply to a results collection"):
        cd_diagram(compare_many(coll), ax=ax, posthoc="holm")
    plt.close("all")


def test_orientation_from_attrs_or_registry():
    from streamtk.comparison.collection import direction

    assert direction({"higher_is_better": "false"}, "kappa") is False
    assert direction({"higher_is_better": "true"}, "error") is True
    assert direction({"higher_is_better": 0}, "kappa") is False
    assert direction({}, "error") is False and direction({}, "kappa") is True
    assert direction({"higher_is_better": "none"}, "n_instances", given=False) is False
    with pytest.raises(ValueError, match="no orientation"):
        direction({"higher_is_better": "none"}, "n_instances")
