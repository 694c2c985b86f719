"""Fold summaries and significance curves against per-slice references."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from scipy import stats as sps

from streamtk.kfold.assignments import fold_assignments
from streamtk.kfold.folds import SUMMARIES, fold_summary, significance_curves
from streamtk.stats import sign_test, wilcoxon_test


def _curves(seed=0, shape=(2, 10, 3, 7)):
    rng = np.random.default_rng(seed)
    vals = np.round(rng.normal(0.7, 0.02, size=shape), 3)
    return xr.Dataset(
        {
            "accuracy": (("model", "fold", "estimator", "time"), vals),
            "kappa": (("model", "fold", "estimator", "time"), vals - 0.3),
        },
        coords={
            "model": ["A", "B"],
            "estimator": ["prequential", "window=100", "fading=0.99"],
            "instance": ("time", np.arange(1, shape[-1] + 1) * 1000),
        },
    )


def test_fold_summary_against_numpy_with_nan_folds():
    ds = _curves()
    ds["accuracy"][0, :4, 0, 0] = np.nan  # folds that have not tested anything yet
    ds["accuracy"][1, :, 1, 2] = np.nan
    ds["accuracy"][1, 1:, 2, 3] = np.nan
    s = fold_summary(ds)
    assert s.accuracy.dims == ("summary", "model", "estimator", "time")
    assert list(s.summary.values) == list(SUMMARIES)
    x = ds.accuracy.transpose("model", "estimator", "time", "fold").values
    for idx in np.ndindex(x.shape[:-1]):
        v = x[idx][~np.isnan(x[idx])]
        got = s.accuracy.values[(slice(None),) + idx]
        exp = [
            v.mean() if v.size else np.nan,
            v.std(ddof=1) if v.size > 1 else np.nan,
            v.std(ddof=1) / np.sqrt(v.size) if v.size > 1 else np.nan,
            v.min() if v.size else np.nan,
            v.max() if v.size else np.nan,
            v.size,
        ]
        np.testing.assert_allclose(got, exp, rtol=1e-12, equal_nan=True)
    np.testing.assert_array_equal(s.instance.values, ds.instance.values)
    da = fold_summary(ds.kappa)
    xr.testing.assert_allclose(da, s.kappa)


def test_significance_curves_equal_per_slice_tests():
    ds = _curves(1)
    out = significance_curves(ds.sel(model="A"), ds.sel(model="B"))
    assert out.pvalue.dims == ("test", "metric", "estimator", "time")
    a = ds.sel(model="A").transpose("fold", ...)
    b = ds.sel(model="B").transpose("fold", ...)
    for m in ("accuracy", "kappa"):
        for e in range(3):
            for t in range(7):
                x, y = a[m].values[:, e, t], b[m].values[:, e, t]
                sg = sign_test(x, y)
                wx = wilcoxon_test(x, y)
                sel = dict(metric=m, estimator=out.estimator[e], time=t)
                assert out.pvalue.sel(test="sign", **sel).item() == float(sg.pvalue)
                assert out.statistic.sel(test="sign", **sel).item() == float(sg.statistic)
                assert out.pvalue.sel(test="wilcoxon", **sel).item() == float(wx.pvalue)
                assert out.critical.sel(test="wilcoxon", **sel).item() == float(wx.critical) or np.isnan(wx.critical)
                assert bool(out.reject.sel(test="wilcoxon", **sel)) == bool(wx.reject)
                d = x - y
                if np.all(d != 0) and len(np.unique(np.abs(d))) == d.size:  # scipy's exact branch
                    assert out.pvalue.sel(test="wilcoxon", **sel).item() == pytest.approx(sps.wilcoxon(x, y).pvalue)
    np.testing.assert_array_equal(out.instance.values, ds.instance.values)


def test_swap_flips_sign_keeps_pvalue_and_identical_never_rejects():
    ds = _curves(2)
    ab = significance_curves(ds, models=("A", "B"))
    ba = significance_curves(ds, models=("B", "A"))
    xr.testing.assert_equal(ab.pvalue, ba.pvalue)
    xr.testing.assert_equal(ab.signed_statistic, -ba.signed_statistic)
    same = significance_curves(ds.sel(model="A"), ds.sel(model="A"))
    assert not same.reject.any()
    assert (same.pvalue == 1).all()
    default = significance_curves(ds)  # two models along "model": A vs B
    xr.testing.assert_equal(default.pvalue, ab.pvalue)


def test_nan_fold_gives_nan_and_no_rejection():
    ds = _curves(3)
    ds["accuracy"][0, 2, 1, 4] = np.nan
    out = significance_curves(ds.accuracy.sel(model="A"), ds.accuracy.sel(model="B"), tests="wilcoxon")
    assert np.isnan(out.pvalue.sel(test="wilcoxon").values[1, 4])
    assert not bool(out.reject.sel(test="wilcoxon").values[1, 4])
    assert int(out.n.sel(test="wilcoxon").values[1, 4]) == -1
    assert np.isfinite(out.pvalue.sel(test="wilcoxon").values[0, 4])


def test_with_evaluate_and_a_validation_scheme():
    from streamtk.evaluation.curves import evaluate

    rng = np.random.default_rng(4)
    n, k = 3000, 10
    y = rng.integers(0, 3, n)
    asg = fold_assignments(n, k, scheme="cv", prequential=False, seed=1)
    mask = asg.test_mask.values
    good = np.where(rng.random((k, n)) < 0.9, y, (y + 1) % 3)
    bad = np.where(rng.random((k, n)) < 0.6, y, (y + 1) % 3)
    preds = np.stack([good, bad])
    ds = evaluate(
        y,
        preds,
        windows=(200,),
        every=500,
        metrics=["accuracy"],
        weights=np.broadcast_to(mask.astype(float)[None], preds.shape),
    )
    # each fold's final prequential accuracy = its accuracy over the instances it tested
    for f in range(k):
        exp = (good[f] == y)[mask[f]].mean()
        assert ds.accuracy.sel(estimator="prequential").values[0, f, -1] == pytest.approx(exp)
    out = significance_curves(ds)
    assert out.reject.sel(test="wilcoxon", metric="accuracy").isel(time=-1).all()
    assert (out.signed_statistic.sel(test="sign", metric="accuracy").isel(time=-1) == k).all()
    summ = fold_summary(ds)
    np.testing.assert_allclose(summ.accuracy.sel(summary="mean").values, ds.accuracy.mean("fold").values, rtol=1e-12)


def test_errors_are_named():
    ds = _curves()
    with pytest.raises(ValueError, match="no dimension 'folds'"):
        fold_summary(ds.accuracy, dim="folds")
    with pytest.raises(ValueError, match="identical coordinates"):
        significance_curves(ds.sel(model="A"), ds.sel(model="B").isel(time=slice(1, None)))
    with pytest.raises(ValueError, match="tests must be one of|must be one of"):
        significance_curves(ds, tests=("ttest",))
    with pytest.raises(ValueError, match="pass models"):
        significance_curves(xr.concat([ds, ds.isel(model=[0])], "model"))


def test_outputs_roundtrip_through_netcdf(tmp_path):
    ds = _curves(5)
    out = significance_curves(ds)
    summ = fold_summary(ds)
    for name, obj in (("sig.nc", out), ("sum.nc", summ)):
        obj.to_netcdf(tmp_path / name)
        with xr.open_dataset(tmp_path / name) as back:
            xr.testing.assert_identical(back.load(), obj)
