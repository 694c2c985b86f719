"""streamtk.io: the log layout, round trips through every format, error positions, adapters."""

from __future__ import annotations

import datetime as dt
import gzip
import itertools
from pathlib import Path

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

from streamtk import io as sio
from streamtk._core.labels import is_missing_label

DATA = Path(__file__).parent / "data"


def _assert_same(a: xr.Dataset, b: xr.Dataset):
    """Equal up to the provenance attrs (creation time, source file)."""
    xr.testing.assert_identical(a.drop_attrs(deep=False), b.drop_attrs(deep=False))


def _full_log(labels=("a", "b", "c")):
    rng = np.random.default_rng(3)
    n = 7
    y = rng.choice(np.array(labels, dtype=object), n)
    y[2] = None
    pred = rng.choice(np.array(labels), (2, n))
    return sio.make_log(
        y,
        pred,
        models=["HT", "naive bayes"],
        y_score=rng.random((2, n, len(labels))),
        classes=list(labels),
        weights=rng.integers(0, 3, n).astype(float),
        time_s=rng.random((2, n)) * 1e-3,
        memory_bytes=rng.integers(1000, 5000, (2, n)).astype(float),
    )


# ---------------------------------------------------------------- make_log


def test_make_log_layout():
    log = sio.make_log([1, 0, 1], [1, 1, 0])
    assert log["y_true"].dims == ("time",) and log["y_true"].dtype == np.int64
    assert log["y_pred"].dims == ("model", "time")
    assert log["model"].values.tolist() == ["model0"]
    assert log["instance"].values.tolist() == [1, 2, 3]
    assert log.attrs["n_instances"] == 3 and "streamtk_version" in log.attrs
    full = _full_log()
    assert full["y_score"].dims == ("model", "time", "class")
    assert full["class"].values.tolist() == ["a", "b", "c"]
    assert full["time_s"].attrs["units"] == "s" and full["memory_bytes"].attrs["units"] == "bytes"


def test_make_log_missing_labels():
    ints = sio.make_log([1, None, 0], [1, 1, 0])
    assert ints["y_true"].dtype == np.float64 and np.isnan(ints["y_true"].values[1])
    strs = sio.make_log(["x", None, "y"], ["x", "x", "y"])
    assert [is_missing_label(v) for v in strs["y_true"].values] == [False, True, False]
    bools = sio.make_log([True, None, False], [True, True, False])
    assert [is_missing_label(v) for v in bools["y_true"].values] == [False, True, False]
    assert bools["y_true"].values[0] is True and bools["y_pred"].dtype == bool


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (
            {"y_true": [1, 2], "y_pred": [1, 2, 3]},
            ValueError,
            r"y_pred must have shape \(n,\) or \(n_models, n\) with n = len\(y_true\) = 2",
        ),
        (
            {"y_true": [1, 2], "y_pred": [1, 2], "models": ["a", "b"]},
            ValueError,
            r"models must be 1 distinct names, got \['a', 'b'\]",
        ),
        ({"y_true": [1, "a"], "y_pred": [1, 2]}, TypeError, "y_true must hold labels of one kind"),
        ({"y_true": [1, 2], "y_pred": [1, 2], "weights": [1, -1]}, ValueError, "weights must be non-negative"),
        ({"y_true": [1, 2], "y_pred": [1, 2], "weights": [1, 1, 1]}, ValueError, r"weights must have shape \(2,\)"),
        ({"y_true": [1, 2], "y_pred": [1, 2], "time_s": [1.0]}, ValueError, r"time_s must have shape"),
        (
            {"y_true": [1, 2], "y_pred": [1, 2], "y_score": np.zeros((2, 3))},
            ValueError,
            "classes must be given with y_score",
        ),
        (
            {"y_true": [1, 2], "y_pred": [1, 2], "y_score": np.zeros((2, 2)), "classes": [1, 2, 3]},
            ValueError,
            "classes must have 2 entries",
        ),
        ({"y_true": [[1, 2]], "y_pred": [1, 2]}, ValueError, "y_true must be 1-D"),
    ],
)
def test_make_log_validation(kwargs, error, match):
    with pytest.raises(error, match=match):
        sio.make_log(**kwargs)


def test_log_feeds_evaluate():
    import streamtk

    log = sio.make_log([0, 1, 1, 0], [[0, 1, 0, 0], [1, 1, 1, 1]], models=["good", "ones"])
    ds = streamtk.evaluate(log["y_true"].values, log["y_pred"], metrics=["accuracy"])
    assert ds["model"].values.tolist() == ["good", "ones"]
    np.testing.assert_allclose(ds["accuracy"].sel(estimator="prequential").isel(time=-1), [0.75, 0.5])


# ---------------------------------------------------------------- round trips

WRITERS = {
    "csv": (sio.write_csv, sio.read_csv, "log.csv"),
    "tsv.gz": (sio.write_csv, sio.read_csv, "log.tsv.gz"),
    "npz": (sio.write_npz, sio.read_npz, "log.npz"),
    "parquet": (sio.write_parquet, sio.read_parquet, "log.parquet"),
    "netcdf": (sio.to_netcdf, sio.open_dataset, "log.nc"),
    "zarr": (sio.to_zarr, sio.open_dataset, "log.zarr"),
}


@pytest.fixture(params=["pandas", "exact"])
def csv_path_kind(request, monkeypatch):
    """Run CSV tests through the pandas fast path and through the exact reader."""
    if request.param == "exact":
        monkeypatch.setattr(sio.csv, "_read_csv_pandas", lambda *a: None)
    return request.param


@pytest.mark.parametrize("fmt", [*WRITERS, "csv-exact", "tsv.gz-exact"])
@pytest.mark.parametrize("kind", ["strings", "ints", "minimal", "bools"])
def test_round_trip(tmp_path, fmt, kind, monkeypatch):
    if fmt.endswith("-exact"):  # CSV through the exact reader instead of the pandas fast path
        monkeypatch.setattr(sio.csv, "_read_csv_pandas", lambda *a: None)
        fmt = fmt[: -len("-exact")]
    if kind == "strings":
        log = _full_log()
    elif kind == "ints":
        log = sio.make_log([3, None, 1, 1], [[3, 3, 1, 1]], y_score=np.eye(2)[[0, 0, 1, 1]], classes=[1, 3])
    elif kind == "bools":
        log = sio.make_log([True, False, True], [[True, True, False]])
    else:
        log = sio.make_log(["u v", "w,x"], ['q"q', "u v"])  # separators and quotes inside labels
    write, read, name = WRITERS[fmt]
    back = read(write(log, tmp_path / name))
    _assert_same(back, log)
    if fmt in ("csv", "tsv.gz"):
        assert sio.read_log(tmp_path / name).sizes == log.sizes


@pytest.mark.parametrize("fmt", ["netcdf", "zarr"])
def test_result_dataset_round_trip(tmp_path, fmt):
    import streamtk

    ds = streamtk.evaluate(
        np.array(["x", "y", "y", "x", "y"]), np.array([["x", "y", "x", "x", "y"], ["y"] * 5]), windows=3, fading=0.9
    )
    before = dict(ds.attrs)
    write, read, name = WRITERS[fmt]
    back = read(write(ds, tmp_path / name))
    xr.testing.assert_identical(back, ds)
    assert ds.attrs.keys() == before.keys()  # the writer did not touch its input


@given(
    y=st.lists(st.one_of(st.none(), st.integers(-5, 5)), min_size=1, max_size=12),
    scores=st.data(),
)
def test_csv_round_trip_property(tmp_path_factory, y, scores):
    n = len(y)
    pred = scores.draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n))
    floats = scores.draw(
        st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=2 * n, max_size=2 * n)
    )
    log = sio.make_log(y, pred, y_score=np.array(floats).reshape(n, 2), classes=["lo", "hi"])
    path = tmp_path_factory.mktemp("prop") / "log.csv"
    _assert_same(sio.read_csv(sio.write_csv(log, path)), log)
    with pytest.MonkeyPatch.context() as m:  # the exact reader agrees with the pandas fast path
        m.setattr(sio.csv, "_read_csv_pandas", lambda *a: None)
        _assert_same(sio.read_csv(path), log)


def test_netcdf_refuses_empty_and_missing_together(tmp_path):
    log = sio.make_log(["", None, "a"], ["a", "a", "a"])
    with pytest.raises(ValueError, match="both missing labels and empty strings"):
        sio.to_netcdf(log, tmp_path / "x.nc")


def test_netcdf_engine_choice(tmp_path):
    with pytest.raises(ValueError, match="engine must be 'netcdf4' or 'h5netcdf', got 'scipy'"):
        sio.to_netcdf(sio.make_log([1], [1]), tmp_path / "x.nc", engine="scipy")


# ---------------------------------------------------------------- CSV with custom names and bad files


def test_read_csv_custom_columns(csv_path_kind):
    log = sio.read_csv(
        DATA / "log_custom.csv",
        y_true="label",
        y_pred={"HT": "ht", "NB": "nb"},
        y_score={"HT": ["p_ht_yes", "p_ht_no"], "NB": ["p_ht_yes", "p_ht_no"]},
        classes=["yes", "no"],
    )
    assert log["model"].values.tolist() == ["HT", "NB"]
    assert log["y_true"].values.tolist()[:2] == ["yes", "no"]
    assert is_missing_label(log["y_true"].values[2])
    assert log["y_true"].values[3] == "yes"  # quoted field
    assert log["y_pred"].sel(model="NB").values.tolist() == ["no", "no", "no", "yes"]
    np.testing.assert_array_equal(log["y_score"].sel(model="HT", **{"class": "no"}).values, [0.1, 0.4, 0.8, 0.75])
    single = sio.read_csv(DATA / "log_custom.csv", y_true="label", y_pred="ht")
    assert single["model"].values.tolist() == ["ht"]


def _write(tmp_path, text, name="bad.csv"):
    p = tmp_path / name
    p.write_text(text)
    return p


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("y_true,y_pred\n1,1\n1,1,1\n", 3, 3, "expected 2 fields, found 3"),
        ("y_true,y_pred\n1,1\n1\n", 3, 2, "expected 2 fields, found 1"),
        ("y_true,y_pred,weights\n1,1,1\n1,1,heavy\n", 3, 3, "cannot read 'heavy' as a number"),
        ("label,y_pred\n1,1\n", 1, None, "no column named 'y_true'"),
        ("y_true,guess\n1,1\n", 1, None, "no 'y_pred' or 'y_pred:<model>' column"),
        ("y_true,y_pred,y_pred\n1,1,1\n", 1, 2, "duplicate column name 'y_pred'"),
        ("", 1, None, "the file is empty"),
        ('y_true,y_pred\n"1,1\n', None, None, "malformed CSV"),
    ],
)
def test_csv_errors_name_file_line_and_column(tmp_path, text, line, column, message):
    p = _write(tmp_path, text)
    with pytest.raises(sio.LogFormatError) as err:
        sio.read_csv(p)
    exc = err.value
    assert exc.path == str(p) and message in str(exc)
    if line is not None:
        assert exc.line == line
    assert exc.column == column
    assert str(exc).startswith(str(p))


def test_csv_error_names_the_column(tmp_path):
    p = _write(tmp_path, "y_true,y_pred,y_score:m:a\n1,1,0.5\n\n1,1,x\n")
    with pytest.raises(sio.LogFormatError, match=r"line 4, column 3 \('y_score:m:a'\): cannot read 'x'"):
        sio.read_csv(p, y_pred={"m": "y_pred"})


def test_npz_and_parquet_errors(tmp_path):
    p = tmp_path / "x.npz"
    np.savez(p, y_true=np.array([1, 2]))
    with pytest.raises(sio.LogFormatError, match=r"x\.npz: no array named 'y_pred'"):
        sio.read_npz(p)
    bad = _write(tmp_path, "not a zip", "y.npz")
    with pytest.raises(sio.LogFormatError, match=r"y\.npz: not a readable \.npz file"):
        sio.read_npz(bad)
    bad = _write(tmp_path, "not parquet", "z.parquet")
    with pytest.raises(sio.LogFormatError, match=r"z\.parquet: not a readable Parquet file"):
        sio.read_parquet(bad)


def test_read_log_dispatch(tmp_path):
    log = sio.make_log([1, 0], [1, 1])
    sio.write_csv(log, tmp_path / "a.csv")
    sio.write_npz(log, tmp_path / "a.npz")
    sio.to_netcdf(log, tmp_path / "a.nc")
    for name in ("a.csv", "a.npz", "a.nc"):
        _assert_same(sio.read_log(tmp_path / name), log)
    with pytest.raises(ValueError, match="cannot tell the format"):
        sio.read_log(tmp_path / "a.xyz")
    with pytest.raises(ValueError, match="format must be one of"):
        sio.read_log(tmp_path / "a.csv", format="excel")
    with pytest.raises(FileNotFoundError, match="log file not found"):
        sio.read_log(tmp_path / "none.csv")


# ---------------------------------------------------------------- MOA prediction dump


def test_moa_prediction_dump_known_answer():
    log = sio.read_moa_predictions(DATA / "moa_predictions.pred")
    y_true = log["y_true"].values
    assert log["y_pred"].values.tolist() == [[1.0, 0.0, 1.0, 1.0, 2.0]]
    np.testing.assert_array_equal(y_true, [1, 0, np.nan, 0, 1])
    assert log["model"].values.tolist() == ["MOA"]
    named = sio.read_moa_predictions(DATA / "moa_predictions.pred", classes=["lo", "mid", "hi"], model="HT")
    assert named["y_pred"].values.tolist() == [["mid", "lo", "mid", "mid", "hi"]]
    assert named["y_true"].values.tolist()[:2] == ["mid", "lo"]
    assert named["class"].values.tolist() == ["lo", "mid", "hi"]


def test_moa_dump_with_arff_classes_and_gzip(tmp_path):
    from streamtk.io.arff import read_arff

    classes = read_arff(DATA / "tiny.arff").attribute("wind dir").values
    gz = tmp_path / "p.pred.gz"
    gz.write_bytes(gzip.compress(b"0,2\n2,1\n"))
    log = sio.read_moa_predictions(gz, classes=classes)
    assert log["y_true"].values.tolist() == ["S,W", "N E"]


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("1,1\n1,1,1\n", 2, 1, "expected '<predicted>,<true>', found 3 fields"),
        ("1,1\n1,x\n", 2, 3, "'x' is not a class index"),
        ("1,1\n  -1,1\n", 2, 3, "'-1' is not a class index"),
        ("1,1\n0.5,1\n", 2, 1, "'0.5' is not a class index"),
    ],
)
def test_moa_dump_errors(tmp_path, text, line, column, message):
    p = _write(tmp_path, text, "bad.pred")
    with pytest.raises(sio.LogFormatError) as err:
        sio.read_moa_predictions(p)
    assert (err.value.line, err.value.column) == (line, column)
    assert message in str(err.value)


def test_moa_dump_index_beyond_classes(tmp_path):
    p = _write(tmp_path, "0,3\n", "x.pred")
    with pytest.raises(ValueError, match=r"true class index 3 is beyond classes \['a', 'b'\]"):
        sio.read_moa_predictions(p, classes=["a", "b"])


# ---------------------------------------------------------------- capymoa (duck-typed)


class _OldPrequentialResults:
    """The shape of capymoa's PrequentialResults (methods returning the stored lists)."""

    _learner = "HoeffdingTree"

    def __init__(self, y, p):
        self._y, self._p = y, p

    def ground_truth_y(self):
        return self._y

    def predictions(self):
        return self._p


def test_capymoa_result_shapes():
    new = {"learner": "ht", "y_true": [0, 1, 1], "y_pred": [0, None, 1], "accuracy": 66.7}
    log = sio.from_capymoa(new)
    assert log["model"].values.tolist() == ["ht"]
    assert np.isnan(log["y_pred"].values[0, 1]) and log["y_true"].values.tolist() == [0, 1, 1]
    old = sio.from_capymoa(_OldPrequentialResults([0, 1, 1], [0, 0, 1]), classes=["no", "yes"])
    assert old["model"].values.tolist() == ["HoeffdingTree"]
    assert old["y_pred"].values.tolist() == [["no", "no", "yes"]]
    many = sio.from_capymoa(
        {"a": {"y_true": [0, 1], "y_pred": [1, 1]}, "b": {"ground_truth_y": [0, 1], "predictions": [0, 1]}}
    )
    assert many["model"].values.tolist() == ["a", "b"] and many["y_pred"].values.tolist() == [[1, 1], [0, 1]]


def test_capymoa_errors():
    with pytest.raises(ValueError, match="store_y=True and store_predictions=True"):
        sio.from_capymoa({"learner": "ht", "accuracy": 50.0, "y_pred": [1]})
    with pytest.raises(ValueError, match="other ground-truth labels"):
        sio.from_capymoa({"a": {"y_true": [0, 1], "y_pred": [1, 1]}, "b": {"y_true": [1, 1], "y_pred": [0, 1]}})
    with pytest.raises(ValueError, match="2 predictions for 3 labels"):
        sio.from_capymoa({"y_true": [0, 1, 1], "y_pred": [1, 1]})


# ---------------------------------------------------------------- river


def _phishing(n):
    from river import datasets

    return list(itertools.islice(datasets.Phishing(), n))


def test_river_predictions_and_accuracy_match_river():
    from river import evaluate, metrics, naive_bayes

    data = _phishing(120)
    metric = metrics.Accuracy()
    steps = evaluate.iter_progressive_val_score(
        data, naive_bayes.GaussianNB(), metric, step=1, yield_predictions=True, measure_time=True, measure_memory=True
    )
    log = sio.from_river(steps, y_true=[y for _, y in data], model="GNB")
    # reference: an obviously correct test-then-train loop with a fresh model
    model, ref = naive_bayes.GaussianNB(), []
    for x, y in data:
        ref.append(model.predict_one(x))
        model.learn_one(x, y)
    assert log["y_pred"].values[0].tolist() == ref
    assert (log["time_s"].values >= 0).all() and (log["memory_bytes"].values > 0).all()
    # river skips instances without a prediction; weight them 0 and streamtk agrees exactly
    import streamtk

    pred = log["y_pred"].values[0]
    present = np.array([p is not None for p in pred])
    filled = np.where(present, pred, False).astype(bool)
    ds = streamtk.evaluate(
        log["y_true"].values.astype(bool), filled, weights=present.astype(float), metrics=["accuracy"]
    )
    assert float(ds["accuracy"].sel(estimator="prequential").isel(time=-1)) == pytest.approx(metric.get(), abs=1e-12)


def test_river_probabilities_become_scores():
    from river import evaluate, metrics, naive_bayes

    data = _phishing(40)
    runs = {
        "gnb": evaluate.iter_progressive_val_score(
            data, naive_bayes.GaussianNB(), metrics.ROCAUC(), step=1, yield_predictions=True
        ),
        "gnb2": evaluate.iter_progressive_val_score(
            data, naive_bayes.GaussianNB(), metrics.ROCAUC(), step=1, yield_predictions=True
        ),
    }
    log = sio.from_river(runs, y_true=[y for _, y in data])
    assert log["class"].values.tolist() == [False, True]
    sc = log["y_score"].values
    assert np.isnan(sc[:, 0]).all()  # river's first prediction is {}
    assert is_missing_label(log["y_pred"].values[0, 0])
    np.testing.assert_array_equal(sc[0], sc[1])
    model = naive_bayes.GaussianNB()
    for t, (x, y) in enumerate(data):
        proba = model.predict_proba_one(x)
        if proba:
            np.testing.assert_allclose(sc[0, t], [proba.get(False, 0.0), proba.get(True, 0.0)])
            assert log["y_pred"].values[0, t] == max(proba, key=proba.get)
        model.learn_one(x, y)


def test_river_errors():
    good = [{"Step": 1, "Prediction": 1}, {"Step": 2, "Prediction": 0}]
    with pytest.raises(ValueError, match="expected 2 .*step=1"):
        sio.from_river([{"Step": 1, "Prediction": 1}, {"Step": 3, "Prediction": 0}], y_true=[1, 0])
    with pytest.raises(ValueError, match="use yield_predictions=True"):
        sio.from_river([{"Step": 1}], y_true=[1])
    with pytest.raises(ValueError, match="has 2 steps, y_true has 3 labels"):
        sio.from_river(good, y_true=[1, 0, 1])
    timed = [dict(d, Time=dt.timedelta(seconds=s)) for d, s in zip(good, (0.5, 2.0))]
    np.testing.assert_allclose(sio.from_river(timed, y_true=[1, 0])["time_s"].values, [[0.5, 1.5]])


def test_optional_dependencies_give_clear_errors(tmp_path, monkeypatch):
    import sys

    log = sio.make_log([1, 0], [1, 1])
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ImportError, match=r"Parquet logs needs pyarrow: pip install pyarrow"):
        sio.write_parquet(log, tmp_path / "x.parquet")
    monkeypatch.setitem(sys.modules, "zarr", None)
    with pytest.raises(ImportError, match="writing zarr needs the zarr package"):
        sio.to_zarr(log, tmp_path / "x.zarr")
    monkeypatch.setitem(sys.modules, "h5py", None)
    with pytest.raises(ImportError, match=r"writing netCDF needs netCDF4.*tried \['h5netcdf'\]"):
        sio.to_netcdf(log, tmp_path / "x.nc", engine="h5netcdf")


@pytest.mark.parametrize("exact", [False, True])
def test_csv_byte_order_mark_and_crlf(tmp_path, monkeypatch, exact):
    if exact:
        monkeypatch.setattr(sio.csv, "_read_csv_pandas", lambda *a: None)
    p = tmp_path / "bom.csv"
    p.write_bytes(b"\xef\xbb\xbfy_true,y_pred\r\n1,0\r\n0,0\r\n")
    log = sio.read_csv(p)
    assert log["y_true"].values.tolist() == [1, 0] and log["y_pred"].values.tolist() == [[0, 0]]
