"""The multi-label family against scikit-learn, MOA and river, its properties, and its refusals of bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
import xarray as xr

import streamtk
from streamtk._core.mechanisms import build_estimators
from streamtk._core.metrics import REGISTRY, family
from streamtk.evaluation.multilabel import label_matrix
from streamtk.evaluation.multilabel_engine import MultilabelEngine

from ._moa import import_capymoa
from ._multilabel import ESTIMATORS, KW, reference, stream

NAMES = [m.name for m in family("multilabel")]


def _close(got, want, name, where):
    got, want = np.asarray(got, float), np.asarray(want, float)
    assert np.allclose(got, want, rtol=1e-9, atol=1e-12, equal_nan=True), (name, where, got, want)


@pytest.mark.parametrize("zd", [0.0, 1.0, math.nan])
def test_every_metric_equals_scikit_learn_on_the_held_instances(zd):
    # float weights (some 0), missing true rows and predictions, every mechanism, two models, at every checkpoint
    y, p, w = stream(0)
    ds = streamtk.multilabel_curves(y, p, weights=w, zero_division=zd, every=3, **KW)
    ref = reference(0, zd, 3)
    assert ds.sizes["time"] == len({c for (_, _, c) in ref})
    for (l, e, c), want in ref.items():
        for name in NAMES:
            _close(ds[name].values[l, e, c], want[name], name, (l, ESTIMATORS[e], c, zd))


def test_label_coordinate_and_n_instances():
    y, p, w = stream(1, n=30)
    ds = streamtk.multilabel_curves(y, p, weights=w, labels=list("abcd"), windows=5)
    assert ds.label.values.tolist() == list("abcd")
    assert ds.label_f1.dims == ("model", "estimator", "time", "label")
    held = (~np.isnan(y).any(1)[None] & ~np.isnan(p).any(2) & (w > 0)).cumsum(1)
    assert np.array_equal(ds.n_instances.sel(estimator="prequential").values, held)
    for v in ds.data_vars:
        assert ds[v].attrs == REGISTRY[v].attrs()


def test_labelled_inputs_align_by_label_and_lead_dims():
    y, p, _ = stream(2, n=40, missing=False)
    labels = ["a", "b", "c", "d"]
    yt = xr.DataArray(y, dims=("time", "label"), coords={"label": labels})
    order = [2, 0, 3, 1]
    yp = xr.DataArray(p[:, :, order], dims=("model", "time", "label"),
                      coords={"model": ["m1", "m2"], "label": [labels[i] for i in order]})  # fmt: skip
    a = streamtk.multilabel_curves(yt, yp, windows=5)
    b = streamtk.multilabel_curves(y, p, labels=labels, windows=5)
    assert a.model.values.tolist() == ["m1", "m2"]
    for v in b.data_vars:
        np.testing.assert_array_equal(a[v].values, b[v].values)


def _engine(specs, q, metrics, zd=0.0):
    return MultilabelEngine(specs, 1, q, metrics, zero_division=zd, adwin_options={"max_buckets": 5, "clock": 32,
                            "min_window": 5, "bound": "bernstein"})  # fmt: skip


@pytest.mark.parametrize("cuts", [[1, 2, 50], [17, 40, 41, 88], [89]])
def test_chunked_equals_one_pass(cuts):
    y, p, w = stream(3)
    yv, ym = label_matrix(y, "y")
    pv, pm = label_matrix(p, "p")
    specs = build_estimators(**KW)
    metrics = family("multilabel")
    one = _engine(specs, 4, metrics)
    one.update(yv, ym, pv, pm, w, last=True)
    pos1, v1 = one.collect()
    many = _engine(specs, 4, metrics)
    bounds = [0, *cuts, y.shape[0]]
    for a, b in zip(bounds[:-1], bounds[1:]):
        many.update(yv[a:b], ym[a:b], pv[:, a:b], pm[:, a:b], w[:, a:b], last=b == y.shape[0])
    pos2, v2 = many.collect()
    assert np.array_equal(pos1, pos2)
    for name in v1:  # sums in the same order: equal exactly (fading: the same lazy multipliers)
        np.testing.assert_array_equal(v1[name], v2[name], err_msg=name)


def test_mechanism_properties():
    y, p, w = stream(4, n=60)
    n = y.shape[0]
    kw = dict(weights=w, every=1)
    pre = streamtk.multilabel_curves(y, p, **kw).sel(estimator="prequential")
    big = streamtk.multilabel_curves(y, p, windows=[n], fading=[1.0], tumbling=[n], landmarks=[0], **kw)
    for est in big.estimator.values:
        for v in NAMES:
            np.testing.assert_allclose(big[v].sel(estimator=est).values, pre[v].values, rtol=1e-12, err_msg=(est, v))
    # causality: the curves up to t do not depend on what comes after
    cut = streamtk.multilabel_curves(y[:35], p[:, :35], weights=w[:, :35], windows=[7], fading=[0.9], every=1)
    full = streamtk.multilabel_curves(y, p, weights=w, windows=[7], fading=[0.9], every=1).isel(time=slice(0, 35))
    for v in NAMES:
        np.testing.assert_array_equal(cut[v].values, full[v].values, err_msg=v)


def test_relabelling_and_weight_scale_invariance():
    y, p, w = stream(5, n=50)
    order = [3, 1, 0, 2]
    a = streamtk.multilabel_curves(y, p, weights=w, labels=list("abcd"), **KW)
    names = [list("abcd")[i] for i in order]
    b = streamtk.multilabel_curves(y[:, order], p[:, :, order], weights=3.5 * w, labels=names, **KW)
    for v in NAMES:
        got = b[v].sel(label=list("abcd")) if "label" in b[v].dims else b[v]
        scale = 3.5 if v in ("label_tp", "label_fp", "label_fn", "label_tn") else 1.0
        np.testing.assert_allclose(got.values, scale * a[v].values, rtol=1e-12, atol=1e-12, err_msg=v)


def _moa_measures(q, y, p):
    """MOA's BasicMultiLabelPerformanceEvaluator fed instance by instance (NaN prediction row: a null prediction)."""
    import_capymoa()
    from jpype import JClass, JObject, JPackage

    arff = "@relation t\n" + "".join(f"@attribute L{j} {{0,1}}\n" for j in range(q)) + "@attribute x numeric\n@data\n"
    header = JClass("com.yahoo.labs.samoa.instances.InstancesHeader")(
        JClass("com.yahoo.labs.samoa.instances.Instances")(
            JClass("java.io.StringReader")(arff), JClass("com.yahoo.labs.samoa.instances.Range")(f"1-{q}")
        )
    )
    moa = JPackage("moa")
    Prediction = JClass("com.yahoo.labs.samoa.instances.MultiLabelPrediction")
    ev = moa.evaluation.BasicMultiLabelPerformanceEvaluator()
    names = ("Exact Match", "Accuracy", "Hamming Score", "Precision", "Recall", "F-Measure")
    out = {k: np.empty(y.shape[0]) for k in names}
    System, PrintStream = JClass("java.lang.System"), JClass("java.io.PrintStream")
    err = System.err
    System.setErr(PrintStream(JClass("java.io.ByteArrayOutputStream")()))  # MOA warns on a null prediction
    try:
        for t in range(y.shape[0]):
            inst = JClass("com.yahoo.labs.samoa.instances.DenseInstance")(q + 1)
            inst.setDataset(header)
            for j in range(q):
                inst.setValue(j, float(y[t, j]))
            pred = JObject(None, Prediction)
            if not np.isnan(p[t]).any():
                pred = Prediction(q)
                for j in range(q):
                    pred.setVotes(j, [1.0 - p[t, j], float(p[t, j])])
            ev.addResult(moa.core.InstanceExample(inst), pred)
            got = {str(m.getName()): float(m.getValue()) for m in ev.getPerformanceMeasurements()}
            for k in names:
                out[k][t] = got[k]
    finally:
        System.setErr(err)
    return out


def test_convention_moa_is_moas_multilabel_evaluator_bit_for_bit():
    y, p, w = stream(6, n=300, q=5, L=1, missing=False)
    p[0, 7] = np.nan  # a null prediction: MOA ignores the instance
    p[0, 0] = np.nan  # EvaluatePrequentialMultiLabel only trains on the first instance
    ref = _moa_measures(5, y, p[0])
    ds = streamtk.multilabel_curves(y, p[0], weights=w[0], convention="moa", every=1)  # weights are not read
    assert list(ds.data_vars) == ["hamming_loss", "exact_match", "jaccard", "precision_samples", "recall_samples",
                                  "f1_samples", "n_instances"]  # fmt: skip
    pairs = {"exact_match": "Exact Match", "jaccard": "Accuracy", "precision_samples": "Precision",
             "recall_samples": "Recall", "f1_samples": "F-Measure"}  # fmt: skip
    for ours, theirs in pairs.items():
        got, want = ds[ours].values[0], ref[theirs]
        same = (got == want) | (np.isnan(got) & np.isnan(want))
        assert same.all(), (ours, int(np.argmin(same)), got[~same][:3], want[~same][:3])
    got, want = ds.hamming_loss.values[0], 1.0 - ref["Hamming Score"]
    assert ((got == want) | (np.isnan(got) & np.isnan(want))).all()
    # MOA's "Recall" is an integer quotient: it differs from the example-based precision it stands for
    assert (ds.recall_samples.values[0, 10:] != streamtk.multilabel_curves(y, p[0], every=1).precision_samples.values[0,
            10:]).any()  # fmt: skip


def test_river_multioutput_metrics_coincide_with_zero_division_0():
    from river import metrics, utils

    y, p, _ = stream(7, n=80, q=3, L=1, missing=False)
    yi, pi = y.astype(int), p[0].astype(int)
    window = 9
    ours = streamtk.multilabel_curves(yi, pi, windows=[window], every=1)
    mo = metrics.multioutput
    makers = {  # (class, the metric it wraps): river's Rolling takes the class; each wrapper gets its own metric
        "exact_match": (mo.ExactMatch, None),
        "jaccard": (mo.SampleAverage, metrics.Jaccard),
        "precision_samples": (mo.SampleAverage, metrics.Precision),
        "recall_samples": (mo.SampleAverage, metrics.Recall),
        "f1_samples": (mo.SampleAverage, metrics.F1),
        "precision_micro": (mo.MicroAverage, metrics.Precision),
        "recall_micro": (mo.MicroAverage, metrics.Recall),
        "f1_micro": (mo.MicroAverage, metrics.F1),
        "precision_macro": (mo.MacroAverage, metrics.Precision),
        "recall_macro": (mo.MacroAverage, metrics.Recall),
        "f1_macro": (mo.MacroAverage, metrics.F1),
    }
    for name, (cls, inner) in makers.items():
        args = (lambda: {}) if inner is None else (lambda: {"metric": inner()})
        pre, rolling = cls(**args()), utils.Rolling(cls, window_size=window, **args())
        for t in range(yi.shape[0]):
            yt = {j: bool(yi[t, j]) for j in range(3)}
            yp = {j: bool(pi[t, j]) for j in range(3)}
            pre.update(yt, yp)
            rolling.update(yt, yp)
            np.testing.assert_allclose(ours[name].values[0, t], pre.get(), rtol=1e-12, err_msg=(name, t))
            np.testing.assert_allclose(ours[name].values[1, t], rolling.get(), rtol=1e-12, err_msg=(name, t))


# ----------------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "y,p,kw,error,match",
    [
        (
            [0, 1, 1],
            [[0], [1], [1]],
            {},
            ValueError,
            r"y_true must have shape \(n, q\) \(instances x labels\), got shape \(3,\)",
        ),
        ([[0, 1], [1, 0]], [[0, 1, 0], [1, 0, 0]], {}, ValueError, r"y_pred must have shape \(\.\.\., n, q\) = "),
        (
            [[0, 2], [1, 0]],
            [[0, 1], [1, 0]],
            {},
            ValueError,
            r"y_true must hold 0/1 or booleans, got 2 at instance 0, "
            r"label 1",
        ),
        (
            [[0, 1], [1, 0]],
            [[0, 1], [1, -1.0]],
            {"labels": ["x", "y"]},
            ValueError,
            r"got -1\.0 at instance 1, "
            r"label 'y'",
        ),
        ([[0, 1], [1, np.nan]], [[0, 1], [1, 0]], {}, ValueError, r"y_true has a row only partly missing at index"),
        ([[0, 1], [1, 0]], [[0, 1], [1, np.inf]], {}, ValueError, r"y_pred must hold 0/1 or booleans, got inf"),
        ([["a", "b"]], [[0, 1]], {}, TypeError, r"y_true must hold 0/1 or booleans, got an array of dtype"),
        ([[0, 1]], [[0, 1]], {"zero_division": 0.5}, ValueError, r"zero_division must be 0, 1 or nan, got 0\.5"),
        ([[0, 1]], [[0, 1]], {"zero_division": "warn"}, TypeError, r"zero_division must be 0, 1 or nan, got 'warn'"),
        ([[0, 1]], [[0, 1]], {"labels": ["a"]}, ValueError, r"labels must name the 2 labels"),
        ([[0, 1]], [[0, 1]], {"metrics": ["accuracy"]}, ValueError, r"unknown multi-label metric 'accuracy'"),
        (
            [[0, 1]],
            [[0, 1]],
            {"convention": "moa", "windows": [3]},
            ValueError,
            r"MOA's multi-label evaluator is "
            r"prequential",
        ),
        (
            [[0, 1]],
            [[0, 1]],
            {"convention": "moa", "metrics": ["f1_micro"]},
            ValueError,
            r"convention='moa' has no "
            r"'f1_micro'",
        ),
        ([[0, 1]], [[0, 1]], {"weights": [-1.0]}, ValueError, r"weights must be non-negative, got -1\.0"),
        (np.zeros((0, 2)), np.zeros((0, 2)), {}, ValueError, r"y_true is empty"),
        (np.zeros((2, 0)), np.zeros((2, 0)), {}, ValueError, r"y_true has no label"),
    ],
)
def test_bad_input_is_refused_naming_the_argument(y, p, kw, error, match):
    with pytest.raises(error, match=match):
        streamtk.multilabel_curves(y, p, **kw)


def test_booleans_and_missing_rows_are_read_as_documented():
    y = np.array([[True, False], [False, True], [True, True]])
    p = np.array([[1.0, 0.0], [np.nan, np.nan], [1.0, 1.0]])
    ds = streamtk.multilabel_curves(y, p, every=1, metrics=["exact_match"])
    assert ds.exact_match.values.ravel().tolist() == [1.0, 1.0, 1.0]
    assert ds.n_instances.values.ravel().tolist() == [1.0, 1.0, 2.0]
    empty = streamtk.multilabel_curves([[np.nan, np.nan]], [[0, 1]], every=1)
    assert all(np.isnan(empty[v].values).all() for v in NAMES if not v.startswith("label_t") and v != "label_fn"
               and v != "label_fp")  # fmt: skip
