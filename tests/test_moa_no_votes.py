"""A MOA recording (no vote on the first instances: missing prediction, NaN scores) under convention="moa".

Issue 35, item 7. MOA's evaluators (as shipped in capymoa) count an instance without a vote: the
prediction as class index 0 (``Utils.maxIndex``); for the log loss the class distribution as
``1/numClasses`` per class (``BasicClassificationPerformanceEvaluator.getNormalizedProbability``); for
the AUC a positive-class score of 0 (``WindowAUCImbalancedPerformanceEvaluator``: ``v1 / (v0 + v1)``,
NaN -> 0). Scores are read only when a score metric is asked for.
"""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import streamtk
from streamtk import io as sio

N_SILENT = 3  # instances before the learner's first vote


def _moa_like(n=200, seed=0):
    rng = np.random.default_rng(seed)
    y = np.array(["neg", "pos"])[rng.integers(0, 2, n)]
    p_pos = np.clip(np.where(y == "pos", 0.7, 0.3) + 0.25 * rng.normal(size=n), 0.01, 0.99)
    scores = np.stack([1 - p_pos, p_pos], axis=-1)
    pred = np.where(p_pos > 0.5, "pos", "neg").astype(object)
    pred[:N_SILENT] = None
    scores[:N_SILENT] = np.nan
    return sio.make_log(y, pred, y_score=scores, classes=["neg", "pos"], models=["NB"])


def test_no_score_metric_asked_for_reads_no_scores():
    log = _moa_like()
    ds = streamtk.evaluate(log, convention="moa", metrics=["accuracy", "kappa", "kappa_per"])
    ref = streamtk.evaluate(log.y_true, log.y_pred, convention="moa", metrics=["accuracy", "kappa", "kappa_per"])
    xr.testing.assert_identical(ds.drop_attrs(), ref.drop_attrs())


def test_every_metric_reads_no_vote_as_moa_does():
    log = _moa_like()
    ds = streamtk.evaluate(log, convention="moa", windows=50)  # every applicable metric
    assert "log_loss" in ds and "brier" in ds
    assert "auc" not in ds  # MOA's AUC evaluator is binary only: not applicable to class scores
    # the same as a log in which MOA's reading is written out: class index 0, scores 1/k (log loss, Brier)
    spelled = log.copy(deep=True)
    spelled["y_pred"][:, :N_SILENT] = "neg"
    spelled["y_score"][:, :N_SILENT] = 0.5
    ref = streamtk.evaluate(spelled, convention="moa", windows=50)
    xr.testing.assert_identical(ds.drop_attrs(), ref.drop_attrs())
    # the first instance's log loss is -log(1/2)
    first = ds.log_loss.sel(estimator="prequential").isel(time=0).item()
    assert first == pytest.approx(np.log(2.0))


def test_binary_scores_auc_reads_no_vote_as_a_zero_score():
    log = _moa_like()
    pos = log.y_score.sel({"class": "pos"}).values
    opts = dict(convention="moa", windows=50, metrics=["auc", "log_loss", "accuracy"])
    ds = streamtk.evaluate(log.y_true, log.y_pred, y_score=pos, **opts)
    # WindowAUCImbalancedPerformanceEvaluator: v1 / (v0 + v1), NaN -> 0; the log loss: 1/k
    auc_ref = streamtk.evaluate(log.y_true, log.y_pred, y_score=np.where(np.isnan(pos), 0.0, pos), **opts)
    loss_ref = streamtk.evaluate(log.y_true, log.y_pred, y_score=np.where(np.isnan(pos), 0.5, pos), **opts)
    np.testing.assert_array_equal(ds.auc.values, auc_ref.auc.values)
    np.testing.assert_array_equal(ds.log_loss.values, loss_ref.log_loss.values)
    # auc_curves reads MOA's class votes the same way (an all-zero vote array: 0 / 0 -> 0)
    zero_votes = np.nan_to_num(log.y_score.values[0], nan=0.0)
    votes = streamtk.auc_curves(log.y_true, zero_votes, convention="moa", windows=50)
    np.testing.assert_array_equal(ds.auc.values[0], votes.auc.values)


def test_other_nan_scores_are_still_refused():
    log = _moa_like()
    log["y_score"][0, 10] = np.nan  # MOA voted here (a prediction), yet no score
    with pytest.raises(ValueError, match=r"y_score contains NaN at instance 10"):
        streamtk.evaluate(log, convention="moa", metrics=["log_loss"])
    log = _moa_like()  # under streamtk's convention the silent instances are not evaluated at all
    ds = streamtk.evaluate(log, metrics=["log_loss", "accuracy"])
    rest = streamtk.evaluate(log.isel(time=slice(N_SILENT, None)), metrics=["log_loss", "accuracy"])
    assert ds.log_loss.isel(time=-1).item() == pytest.approx(rest.log_loss.isel(time=-1).item(), rel=1e-12)


def test_chunked_evaluator_reads_no_vote_alike():
    log = _moa_like()
    one = streamtk.evaluate(log, convention="moa", metrics=["log_loss", "brier", "accuracy"], every=20)
    ev = streamtk.Evaluator(
        classes=["neg", "pos"], convention="moa", metrics=["log_loss", "brier", "accuracy"], every=20, scores="multi"
    )
    for start in range(0, 200, 64):
        part = slice(start, start + 64)
        ev.update(log.y_true[part], log.y_pred[:, part], y_score=log.y_score[:, part].values)
    xr.testing.assert_allclose(ev.result().drop_attrs(), one.drop_attrs())


def test_a_capymoa_recording_evaluates_under_moa():
    pytest.importorskip("capymoa")
    from capymoa.classifier import NaiveBayes
    from capymoa.stream import NumpyStream

    from streamtk.recorders import record

    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=200) > 0).astype(int)
    stream = NumpyStream(X, y, dataset_name="toy")
    log = record({"NB": NaiveBayes(schema=stream.get_schema())}, stream)
    assert np.isnan(log.y_score.values[0, 0]).all()  # MOA gives no vote on the first instance
    ds = streamtk.evaluate(log, convention="moa", metrics=["accuracy", "kappa_per"])
    ref = streamtk.evaluate(log.y_true, log.y_pred, convention="moa", metrics=["accuracy", "kappa_per"])
    xr.testing.assert_identical(ds.drop_attrs(), ref.drop_attrs())
    assert np.isfinite(streamtk.evaluate(log, convention="moa").log_loss.isel(time=-1)).all()
