"""Chunk-by-chunk evaluation matches a later chunk's series to the first chunk's by their labels (issue 35, item 2)."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import streamtk


def _stream(n=60, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    good = np.where(rng.random(n) < 0.9, y, 1 - y)  # model "good": 90% right
    bad = np.where(rng.random(n) < 0.4, y, 1 - y)  # model "bad": 40% right
    return y, np.stack([good, bad]), rng.random((2, n)), rng.random((2, n))


def _da(values, models, start):
    return xr.DataArray(
        values, dims=("model", "time"), coords={"model": models, "time": np.arange(values.shape[1]) + start}
    )


def _evaluator():
    return streamtk.Evaluator(
        classes=[0, 1], windows=10, every=10, metrics=["accuracy", "kappa", "auc"], scores="binary"
    )


@pytest.mark.parametrize("weights_as", ["none", "numpy", "dataarray"])
def test_a_later_chunk_in_another_model_order_is_aligned_by_label(weights_as):
    y, p, w, s = _stream()
    if weights_as == "none":
        w = None
    cut = 25
    first, later = slice(0, cut), slice(cut, None)
    ref, ev = _evaluator(), _evaluator()
    for e in (ref, ev):
        e.update(y[first], _da(p[:, first], ["good", "bad"], 0), None if w is None else w[:, first], s[:, first])
    ref.update(y[later], _da(p[:, later], ["good", "bad"], cut), None if w is None else w[:, later], s[:, later])
    swapped = _da(p[::-1, later], ["bad", "good"], cut)
    wl = None if w is None else w[::-1, later]  # positional: follows the chunk's y_pred order
    if weights_as == "dataarray":
        wl = _da(w[:, later], ["good", "bad"], cut)  # labelled: any order
    ev.update(y[later], swapped, wl, s[::-1, later])
    out, want = ev.result(), ref.result()
    assert out.model.values.tolist() == ["good", "bad"]
    for name in ("accuracy", "kappa", "auc"):
        np.testing.assert_array_equal(out[name].values, want[name].values)
    one = streamtk.evaluate(y, p, weights=w, y_score=s, windows=10, every=10, metrics=["accuracy", "auc"])
    np.testing.assert_array_equal(out.accuracy.values, one.accuracy.values)


def test_a_chunk_with_an_unknown_model_is_refused():
    y, p, _, _ = _stream()
    ev = streamtk.Evaluator(classes=[0, 1], every=10, metrics=["accuracy"])
    ev.update(y[:30], _da(p[:, :30], ["good", "bad"], 0))
    with pytest.raises(ValueError, match=r"'model' labels .*'ugly'.*missing \['bad'\], unknown \['ugly'\]"):
        ev.update(y[30:], _da(p[:, 30:], ["good", "ugly"], 30))
    assert ev.n_seen == 30  # nothing of the refused chunk was evaluated


@pytest.mark.parametrize("pair", [False, True])
def test_comparator_chunks_are_aligned_by_label_too(pair):
    y, p, _, _ = _stream()
    p3 = np.concatenate([p, p[:1, ::-1]])  # a third model
    models = ["good", "bad", "odd"]
    cut = 25
    ref, cmp = streamtk.Comparator(windows=10, every=10), streamtk.Comparator(windows=10, every=10)
    if pair:  # A and B with a run dim each; B's runs in another order than A's (matched by label)
        a, b = _da(p3, models, 0).rename(model="run"), _da(p3[::-1], models[::-1], 0).rename(model="run")
        for c in (ref, cmp):
            c.update(y[:cut], a[:, :cut], b[:, :cut])
        ref.update(y[cut:], a[:, cut:], b[:, cut:])
        cmp.update(y[cut:], a[::-1, cut:], b[:, cut:])
    else:
        m = _da(p3, models, 0)
        for c in (ref, cmp):
            c.update(y[:cut], m[:, :cut])
        ref.update(y[cut:], m[:, cut:])
        cmp.update(y[cut:], m[[2, 0, 1], cut:])
    xr.testing.assert_identical(cmp.result(), ref.result())
    bad = _da(p3[:, cut:], ["good", "bad", "ugly"], cut)
    with pytest.raises(ValueError, match=r"y_pred_a's '(model|run)' labels.*unknown \['ugly'\]"):
        cmp.update(y[cut:], bad.rename(model="run"), bad.rename(model="run")) if pair else cmp.update(y[cut:], bad)
