"""pandas nullable dtypes (``Int64``, ``boolean``, ``string``, ``Float64`` with ``NA``) are labels with
missing values, and nullable weights are weights (issue 35, item 11)."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import streamtk
from streamtk import io as sio

pd = pytest.importorskip("pandas")

LABELS = {
    "Int64": ([1, 0, None, 1, 2, 0, 2, 1], [1, None, 0, 1, 2, 0, 1, 1], [0, 1, 2]),
    "boolean": (
        [True, False, None, True, True, False, False, True],
        [True, None, False, True, False, False, True, True],
        [False, True],
    ),
    "string": (["a", "b", None, "a", "c", "b", "c", "a"], ["a", None, "b", "a", "c", "b", "a", "a"], ["a", "b", "c"]),
    "Float64": ([1.0, 0.0, None, 1.0, 2.5, 0.0, 2.5, 1.0], [1.0, None, 0.0, 1.0, 2.5, 0.0, 1.0, 1.0], [0.0, 1.0, 2.5]),
}  # fmt: skip
WRAPPERS = {
    "array": lambda a: a,
    "series": lambda a: pd.Series(a),
    "dataarray": lambda a: xr.DataArray(pd.Series(a), dims="time"),
}
METRICS = ["accuracy", "kappa", "n_instances"]


def _plain(values):
    """The same labels as numpy reads them: None (object) or NaN (floats) for a missing one."""
    if all(v is None or isinstance(v, float) for v in values):
        return np.array([np.nan if v is None else v for v in values])
    arr = np.empty(len(values), dtype=object)
    arr[:] = values
    return arr


@pytest.mark.parametrize("wrap", list(WRAPPERS))
@pytest.mark.parametrize("dtype", list(LABELS))
def test_nullable_labels_are_labels_with_missing_values(dtype, wrap):
    yt, yp, classes = LABELS[dtype]
    f = WRAPPERS[wrap]
    ds = streamtk.evaluate(f(pd.array(yt, dtype=dtype)), f(pd.array(yp, dtype=dtype)), metrics=METRICS)
    ref = streamtk.evaluate(_plain(yt), _plain(yp), metrics=METRICS)
    assert ds["class"].values.tolist() == classes
    assert type(ds["class"].values.tolist()[0]) is type(classes[0])  # Int64 stays integers, boolean booleans
    for m in METRICS:  # (a DataArray adds its own time coordinate)
        np.testing.assert_array_equal(ds[m].values, ref[m].values)
    assert ds.n_instances.isel(time=-1).item() == 6  # two instances have no label or no prediction


@pytest.mark.parametrize("dtype", ["Float64", "Int64"])
def test_nullable_weights(dtype):
    y, p = [1, 0, 1, 1, 0, 0], [1, 0, 0, 1, 0, 1]
    w = [1, 2, 1, 3, 1, 1]
    ds = streamtk.evaluate(y, p, weights=pd.array(w, dtype=dtype), metrics=["accuracy"])
    ref = streamtk.evaluate(y, p, weights=np.array(w, dtype=float), metrics=["accuracy"])
    np.testing.assert_array_equal(ds.accuracy.values, ref.accuracy.values)
    with pytest.raises(ValueError, match=r"weights contains a non-finite value nan at index \(2,\)"):
        streamtk.evaluate(y, p, weights=pd.array([1, 2, None, 3, 1, 1], dtype=dtype))
    with pytest.raises(ValueError, match=r"weights contains a non-finite value nan at index \(2,\)"):
        streamtk.evaluate(
            y, p, weights=xr.DataArray(pd.Series(pd.array([1, 2, None, 3, 1, 1], dtype=dtype)), dims="time")
        )


@pytest.mark.parametrize("dtype", list(LABELS))
def test_nullable_frames_through_read_csv_and_make_log(tmp_path, dtype):
    yt, yp, classes = LABELS[dtype]
    frame = pd.DataFrame({"y_true": pd.array(yt, dtype=dtype), "y_pred": pd.array(yp, dtype=dtype)})
    frame["weights"] = pd.array([1.0, 2.0, 1.0, 1.0, 0.5, 1.0, 1.0, 1.0], dtype="Float64")
    frame.to_csv(tmp_path / "log.csv", index=False)  # pandas writes NA as an empty field
    from_csv = sio.read_csv(tmp_path / "log.csv")
    made = sio.make_log(frame["y_true"], frame["y_pred"], weights=frame["weights"])
    ref = streamtk.evaluate(_plain(yt), _plain(yp), weights=frame["weights"].to_numpy(float), metrics=METRICS)
    for log in (from_csv, made):
        assert log.y_true.values.tolist()[2] is None or np.isnan(log.y_true.values[2])
        ds = streamtk.evaluate(log, metrics=METRICS)
        assert ds["class"].values.tolist() == classes
        for m in METRICS:
            np.testing.assert_array_equal(ds[m].values[0], ref[m].values)  # the log's single model


def test_read_csv_with_pandas_inferring_strings(tmp_path, monkeypatch):
    pd.DataFrame({"y_true": ["a", "b", "a"], "y_pred": ["a", "a", "b"]}).to_csv(tmp_path / "s.csv", index=False)
    with pd.option_context("future.infer_string", True):
        log = sio.read_csv(tmp_path / "s.csv")
    assert log.y_true.values.tolist() == ["a", "b", "a"]
    assert streamtk.evaluate(log, metrics=["accuracy"]).accuracy.isel(time=-1).item() == pytest.approx(1 / 3)
