"""Bands in the many-streams comparison: the collection keeps each stream's band, the tables print it."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import streamtk
from streamtk.comparison import collect, compare_many
from streamtk.comparison.across_streams import ManyComparison
from streamtk.report import results_table


@pytest.fixture(scope="module")
def logs():
    return {f"s{i}": streamtk.simulate_log(1200 + 300 * i, seed=i) for i in range(4)}


@pytest.fixture(scope="module")
def coll(logs):
    return collect(
        logs, metrics=["accuracy", "kappa"], summaries=["final", "mean", "at=1000"], evaluate_options={"interval": 0.9}
    )


def test_collection_keeps_the_band_at_the_summarised_checkpoint(logs, coll):
    log = logs["s2"]
    curves = streamtk.evaluate(log.y_true, log.y_pred, every=1, metrics=["accuracy"], interval=0.9)
    run = int(log.attrs["seed"])
    for summary, t in (("final", -1), ("at=1000", 999)):
        got = coll.accuracy_lower.sel(summary=summary, estimator="prequential", dataset="s2", run=run)
        want = curves.accuracy_lower.isel(time=t).sel(estimator="prequential")
        np.testing.assert_allclose(got.values, want.values, rtol=1e-12)
    # a mean over checkpoints has no pointwise band
    assert coll.kappa_upper.sel(summary="mean").isnull().all()
    assert coll.accuracy_lower.attrs["interval"] == 0.9 and coll.accuracy_lower.attrs["interval_method"] == "analytic"
    assert "lower bound" in coll.accuracy_lower.attrs["long_name"]


def test_compare_many_carries_and_prints_the_bands(coll, tmp_path):
    res = compare_many(coll, metric="accuracy", summary="final")
    assert res.lower is not None
    text = results_table(res, fmt="markdown")
    lo = float(res.lower.sel(dataset="s0", model="adaptive").max())
    assert f"[{lo:.3f}, " in text and "90% band of each stream's value, analytic" in text
    assert "[" not in results_table(res, fmt="markdown", intervals=False).split("\n")[2]
    latex = results_table(res, fmt="latex")
    assert f"[{lo:.3f}, " in latex
    # bands do not enter the tests: same ranks as without them
    plain = compare_many(coll.drop_vars([v for v in coll.data_vars if v.endswith(("_lower", "_upper"))]),
                         metric="accuracy", summary="final")  # fmt: skip
    np.testing.assert_array_equal(plain.posthoc.average_ranks, res.posthoc.average_ranks)
    assert plain.lower is None
    path = tmp_path / "many.nc"
    res.to_dataset().to_netcdf(path)
    back = ManyComparison.from_dataset(xr.open_dataset(path).load())
    xr.testing.assert_allclose(back.lower.reset_coords(drop=True), res.lower.rename(None).reset_coords(drop=True))
    # a mean summary: no bands to print
    assert "band" not in results_table(compare_many(coll, metric="accuracy", summary="mean"), fmt="markdown")
