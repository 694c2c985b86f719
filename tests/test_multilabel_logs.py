"""Multi-label logs: the layout, every reader and writer, the CLI (detected or --task), the recorder, the stream."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import streamtk
from streamtk.io import make_multilabel_log, read_log
from streamtk.io.log import LogFormatError
from streamtk.recorders import record_multilabel

from ._moa import import_capymoa


def _log(n=120, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random((n, 3)) < 0.4).astype(float)
    y[7] = np.nan  # an instance without labels
    p = np.where(rng.random((2, n, 3)) < 0.8, y, 1 - y)
    p[1, 11] = np.nan  # a missing prediction
    return make_multilabel_log(y, p, models=["a", "b"], labels=["x", "y", "z"], weights=rng.choice([0.5, 1.0, 2.0], n))


@pytest.mark.parametrize("ext", ["csv", "tsv", "csv.gz", "parquet", "npz", "nc"])
def test_every_format_round_trips_a_multilabel_log(tmp_path, ext):
    log = _log()
    path = tmp_path / f"log.{ext}"
    io = streamtk.io
    writer = {"parquet": io.write_parquet, "npz": io.write_npz, "nc": io.to_netcdf}.get(ext, io.write_csv)
    if ext == "parquet":
        pytest.importorskip("pyarrow")
    writer(log, path)
    back = read_log(path)
    assert streamtk.io.is_multilabel(back)
    assert back.y_pred.dims == ("model", "time", "label") and back.label.values.tolist() == ["x", "y", "z"]
    np.testing.assert_array_equal(back.y_true.values, log.y_true.values)
    np.testing.assert_array_equal(back.y_pred.values, log.y_pred.values)
    a = streamtk.multilabel_curves(back, windows=20)
    b = streamtk.multilabel_curves(log.y_true, log.y_pred, weights=log.weights, windows=20)
    for v in b.data_vars:
        np.testing.assert_array_equal(a[v].values, b[v].values)


def test_table_errors_name_the_file_line_and_column(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("y_true:x,y_true:y,y_pred:m:x,y_pred:m:y\n0,1,0,1\n1,2,1,0\n")
    with pytest.raises(LogFormatError, match=r"bad\.csv, line 3, column 2 \('y_true:y'\): y_true must hold 0/1"):
        read_log(path)
    path.write_text("y_true:x,y_true:y,y_pred:m:x\n0,1,0\n")
    with pytest.raises(LogFormatError, match=r"model 'm' has prediction columns for labels \['x'\]"):
        read_log(path)
    one = tmp_path / "one.csv"  # one model: y_pred:<label>
    one.write_text("y_true:x,y_true:y,y_pred:x,y_pred:y\n0,1,0,1\n1,0,1,1\n")
    assert read_log(one).y_pred.shape == (1, 2, 2)


def test_evaluate_refuses_label_sets_and_names_multilabel_curves():
    with pytest.raises(ValueError, match="evaluate a multi-label log with streamtk.multilabel_curves"):
        streamtk.evaluate(_log())


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "streamtk", *map(str, args)], capture_output=True, text=True)


def test_cli_detects_multilabel_logs_and_checks_task(tmp_path):
    log_path = tmp_path / "ml.nc"
    streamtk.io.to_netcdf(_log(), log_path)
    out = tmp_path / "curves.nc"
    r = _cli("evaluate", log_path, "--window", 30, "--zero-division", "nan", "--metrics", "hamming_loss,f1_macro",
             "-o", out)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "hamming_loss" in r.stdout and "f1_macro" in r.stdout
    ds = streamtk.io.open_dataset(out)
    ref = streamtk.multilabel_curves(_log(), windows=30, zero_division=np.nan, metrics=["hamming_loss", "f1_macro"],
                                     every=ds.attrs["every"])  # fmt: skip
    np.testing.assert_array_equal(ds.f1_macro.values, ref.f1_macro.values)
    r = _cli("evaluate", log_path, "--task", "classification")
    assert r.returncode == 2 and "--task classification" in r.stderr and "holds a multilabel log" in r.stderr
    r = _cli("evaluate", log_path, "--zero-division", "0.5")
    assert r.returncode == 2 and "zero_division must be 0, 1 or nan, got '0.5'" in r.stderr
    r = _cli("evaluate", log_path, "--metrics", "accuracy")
    assert r.returncode != 0 and "unknown multi-label metric 'accuracy'" in r.stderr


class _Memory:
    """Predicts the previous label set (a generic learner)."""

    def __init__(self):
        self.last = None

    def predict(self, x):
        return self.last

    def learn(self, x, y):
        self.last = np.asarray(y).copy()


def test_recorder_drives_river_moa_and_generic_learners():
    from river import linear_model, multioutput

    import_capymoa()
    from jpype import JClass

    rng = np.random.default_rng(3)
    X = rng.random((300, 3))
    Y = (rng.random((300, 2)) < X[:, :1]).astype(float)
    models = {
        "CC": multioutput.ClassifierChain(linear_model.LogisticRegression(), order=[0, 1]),
        "HT": JClass("moa.classifiers.multilabel.MultilabelHoeffdingTree")(),
        "last": _Memory(),
    }
    log = record_multilabel(models, (X, Y), labels=["u", "v"], memory_every=100)
    assert log.y_pred.dims == ("model", "time", "label") and log.model.values.tolist() == ["CC", "HT", "last"]
    np.testing.assert_array_equal(log.y_pred.sel(model="last").values[1:], Y[:-1])  # test then train
    assert np.isnan(log.y_pred.sel(model="last").values[0]).all()  # nothing learnt yet: no prediction
    assert np.isnan(log.y_pred.sel(model="HT").values[0]).all()  # MOA's tree without a root: none either
    assert (log.time_s.values > 0).all() and np.isfinite(log.memory_bytes.values[:, ::100]).all()
    ds = streamtk.multilabel_curves(log, windows=50)
    assert ds.model.values.tolist() == ["CC", "HT", "last"]
    assert float(ds.exact_match.sel(model="last", estimator="prequential").isel(time=-1)) < 1.0


def test_electricity_rises_is_documented_derivation(data_dir):
    elec = streamtk.datasets.load("electricity", path=data_dir)
    s = streamtk.datasets.load_multilabel("electricity_rises", path=data_dir)
    assert s.X.shape == (elec.n - 48, 11) and s.Y.shape == (elec.n - 48, 5)
    t = 1000  # instance i is half-hour i + 48: its labels compare with the day before, its features are known
    series = elec.X[:, 1:6]
    np.testing.assert_array_equal(s.Y[t], (series[t + 48] > series[t]).astype(np.uint8))
    np.testing.assert_array_equal(s.X[t], np.r_[elec.X[t + 48, 0], series[t + 47], series[t]])
    assert (s.Y[:17000, 2:] == 0).all() and s.Y[20000:, 2:].mean() > 0.4  # Victoria's series start constant
