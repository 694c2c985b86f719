"""Readers of other tools' outputs (MOA's -o dump, capymoa results, river steps): class order kept on the
arrays, missing predictions kept missing, malformed values refused with the source, position and column."""

from __future__ import annotations

import numpy as np
import pytest

import streamtk
from streamtk import io as sio
from streamtk.recorders import record

from ._moa import import_capymoa


def _write(tmp_path, text, name="p.pred"):
    path = tmp_path / name
    path.write_text(text)
    return path


# ----------------------------------------------------------------------------- MOA dump
@pytest.mark.parametrize(
    ("bad", "column"),
    [("1e300", 3), ("inf", 3), ("-inf", 3), ("nan", 3), ("2147483648", 3), ("1.5", 3), ("-1", 3)],
)
def test_moa_dump_refuses_values_that_are_not_class_indices(tmp_path, bad, column):
    path = _write(tmp_path, f"0,1\n1,{bad}\n")
    with pytest.raises(sio.LogFormatError) as err:
        sio.read_moa_predictions(path)
    assert (err.value.line, err.value.column) == (2, column)
    assert str(path) in str(err.value) and repr(bad) in str(err.value) and "'true'" in str(err.value)


def test_moa_dump_index_beyond_classes_names_the_line(tmp_path):
    path = _write(tmp_path, "0,1\n0,1\n2,0\n")
    with pytest.raises(sio.LogFormatError, match=r"line 3, column 1 \('predicted'\).*index 2 is beyond"):
        sio.read_moa_predictions(path, classes=["UP", "DOWN"])


def test_moa_dump_keeps_moa_class_order(tmp_path):
    path = _write(tmp_path, "1,1\n0, ? \n1,0\n")
    log = sio.read_moa_predictions(path, classes=["UP", "DOWN"])
    assert log["class"].values.tolist() == ["UP", "DOWN"]
    assert log.y_true.attrs["classes"] == ["UP", "DOWN"] == log.y_pred.attrs["classes"]
    assert log.y_true.values.tolist() == ["DOWN", None, "UP"]
    plain = sio.read_moa_predictions(_write(tmp_path, "2,0\n0,1\n", "q.pred"))
    assert plain["class"].values.tolist() == [0, 1, 2]


# ----------------------------------------------------------------------------- capymoa
@pytest.mark.parametrize(
    ("y_pred", "instance", "value"),
    [([0, -1, 1], 2, "-1"), ([0, 1, 1.7], 3, "1.7"), ([2, 0, 1], 1, "2"), ([0, float("inf"), 1], 2, "inf"),
     ([0, "a", 1], 2, "'a'"), ([True, 0, 1], 1, "True")],
)  # fmt: skip
def test_from_capymoa_refuses_values_that_are_not_class_indices(y_pred, instance, value):
    with pytest.raises(sio.LogFormatError) as err:
        sio.from_capymoa({"HT": {"y_true": [0, 1, 1], "y_pred": y_pred}}, classes=["UP", "DOWN"])
    msg = str(err.value)
    assert "capymoa result 'HT'" in msg and f"instance {instance}," in msg and value in msg
    assert "'predictions'" in msg and err.value.line == instance


def test_from_capymoa_true_label_errors_name_their_column():
    with pytest.raises(sio.LogFormatError, match="ground_truth_y"):
        sio.from_capymoa({"y_true": [0, -1], "y_pred": [0, 0]}, model="NB")


def test_from_capymoa_scores_and_class_order():
    scores = np.array([[np.nan, np.nan], [0.25, 0.75], [1.0, 0.0]])
    log = sio.from_capymoa({"y_true": [1, 1, 0], "y_pred": [None, 1, 0], "y_score": scores}, classes=["UP", "DOWN"],
                           model="NB")  # fmt: skip
    assert log["class"].values.tolist() == ["UP", "DOWN"] == log.y_pred.attrs["classes"]
    assert log.y_pred.values.tolist() == [[None, "DOWN", "UP"]]
    np.testing.assert_array_equal(log.y_score.values[0], scores)
    both = sio.from_capymoa(
        {"a": {"y_true": [0, 1], "y_pred": [0, 1]}, "b": {"y_true": [0, 1], "y_pred": [1, 1]}},
        y_score={"b": [[0.4, 0.6], [0.1, 0.9]]},
    )
    assert np.isnan(both.y_score.sel(model="a").values).all()
    np.testing.assert_array_equal(both.y_score.sel(model="b").values, [[0.4, 0.6], [0.1, 0.9]])
    with pytest.raises(ValueError, match=r"y_score of 'NB' must have shape \(3, 2\)"):
        sio.from_capymoa({"y_true": [1, 1, 0], "y_pred": [1, 1, 0], "y_score": scores[:2]}, classes=["a", "b"],
                         model="NB")  # fmt: skip


def test_from_capymoa_real_results_take_the_schema_labels(data_dir):
    import_capymoa()
    from capymoa.classifier import NaiveBayes
    from capymoa.evaluation import prequential_evaluation
    from capymoa.stream import stream_from_file

    path = data_dir / "elec2" / "elecNormNew.arff"
    stream = stream_from_file(str(path))
    res = prequential_evaluation(stream, NaiveBayes(schema=stream.get_schema()), max_instances=300,
                                 store_predictions=True, store_y=True)  # fmt: skip
    log = sio.from_capymoa(res, model="NB")
    assert log["class"].values.tolist() == ["UP", "DOWN"]
    rec = record({"NB": NaiveBayes(schema=stream.get_schema())}, stream, max_instances=300)
    # capymoa's Java loop stores index 0 where the learner abstained; the recorder keeps those missing
    filled = np.array(["UP" if p is None else p for p in rec.y_pred.values[0]], dtype=object)
    assert log.y_pred.values[0].tolist() == filled.tolist()
    assert log.y_true.values.tolist() == rec.y_true.values.tolist()


# ----------------------------------------------------------------------------- river
def test_from_river_class_order_and_river_tie_break():
    steps = [
        {"Step": 1, "Prediction": {}},
        {"Step": 2, "Prediction": {"b": 0.5, "a": 0.5}},  # a tie: river's predict_one takes the first key
        {"Step": 3, "Prediction": {"a": 0.2, "b": 0.8}},
    ]
    log = sio.from_river(steps, y_true=["b", "a", "b"])
    assert log.y_pred.values.tolist() == [[None, "b", "b"]]
    assert log["class"].values.tolist() == ["a", "b"] == log.y_true.attrs["classes"]
    ordered = sio.from_river(steps, y_true=["b", "a", "b"], classes=["b", "a"])
    np.testing.assert_array_equal(ordered.y_score.values[0, 2], [0.8, 0.2])
    labels = sio.from_river([{"Step": 1, "Prediction": None}, {"Step": 2, "Prediction": 3}], y_true=[3, 1])
    assert labels["class"].values.tolist() == [1, 3] and labels.y_pred.attrs["classes"].tolist() == [1, 3]


# ----------------------------------------------------------------------------- round trips
def test_class_order_survives_netcdf(tmp_path):
    log = sio.read_moa_predictions(_write(tmp_path, "1,1\n0,0\n"), classes=["UP", "DOWN"])
    back = sio.open_dataset(sio.to_netcdf(log, tmp_path / "log.nc"))
    assert back["class"].values.tolist() == ["UP", "DOWN"]
    assert list(back.y_true.attrs["classes"]) == ["UP", "DOWN"] == list(back.y_pred.attrs["classes"])
    one = sio.from_river([{"Step": 1, "Prediction": None}], y_true=[7])
    back = sio.open_dataset(sio.to_netcdf(one, tmp_path / "one.nc"))
    assert np.atleast_1d(back.y_true.attrs["classes"]).tolist() == [7]


# ----------------------------------------------------------------------------- evaluation as-is


def test_every_reader_log_evaluates_as_is(tmp_path):
    logs = [
        sio.read_moa_predictions(_write(tmp_path, "1,1\n0,0\n1,0\n"), classes=["UP", "DOWN"]),
        sio.from_capymoa({"y_true": [1, 0, 1], "y_pred": [None, 0, 1]}, classes=["UP", "DOWN"]),
        sio.from_river([{"Step": 1, "Prediction": None}, {"Step": 2, "Prediction": "a"}], y_true=["b", "a"]),
    ]
    # a missing prediction means "not evaluated for this model"
    for log, accuracy in zip(logs, (2 / 3, 1.0, 1.0)):
        ds = streamtk.evaluate(log.y_true, log.y_pred, metrics=["accuracy"])
        assert ds["class"].values.tolist() == log["class"].values.tolist()
        assert ds.accuracy.dims[0] == "model"  # a log's models stay a leading dim
        assert ds.accuracy.sel(estimator="prequential").isel(time=-1).item() == pytest.approx(accuracy)


def test_moa_convention_uses_the_log_class_order(tmp_path):
    # kappa_temp depends on the class order through MOA's y_{-1} := class index 0
    log = sio.read_moa_predictions(_write(tmp_path, "1,1\n1,1\n0,0\n1,1\n"), classes=["UP", "DOWN"])
    ds = streamtk.evaluate(log.y_true, log.y_pred, convention="moa", metrics=["kappa_per"])
    codes = streamtk.evaluate(np.array([1, 1, 0, 1]), np.array([1, 1, 0, 1]), convention="moa", metrics=["kappa_per"],
                              classes=[0, 1])  # fmt: skip
    np.testing.assert_array_equal(ds.kappa_per.values[0], codes.kappa_per.values)


def test_boolean_classes_keep_both_score_columns():
    steps = [{"Step": 1, "Prediction": {}}, {"Step": 2, "Prediction": {True: 0.7, False: 0.3}}]
    log = sio.from_river(steps, y_true=[True, False])
    assert log["class"].values.tolist() == [False, True]
    np.testing.assert_array_equal(log.y_score.values[0, 1], [0.3, 0.7])
