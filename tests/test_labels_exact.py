"""Labels are kept exactly: uint64 above 2**63 (in memory and through every log format), big-endian
arrays, Python lists that numpy would cast; the oracle is the labels themselves (classes[codes])."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

import streamtk
from streamtk import io as sio
from streamtk._core.labels import as_label_array, encode_labels

BIG = np.array([2**63 + 1, 2**63 + 5, 2**64 - 1], dtype=np.uint64)


@given(st.lists(st.sampled_from([0, 1, 2**53 + 1, 2**63 - 1, 2**63, 2**63 + 1, 2**64 - 1]), min_size=1, max_size=40))
def test_uint64_labels_encode_and_decode_exactly(values):
    arr = np.array(values, dtype=np.uint64)
    for given_as in (arr, values, arr.astype(">u8"), arr.astype(object)):
        enc, (codes,) = encode_labels(given_as)
        back = enc.classes[codes]
        assert [int(v) for v in back] == [int(v) for v in values]
        assert enc.classes.dtype.kind in "iu"  # never rounded through float64


def test_uint64_labels_evaluate_exactly():
    rng = np.random.default_rng(0)
    y = BIG[rng.integers(0, 3, 200)]
    p = np.where(rng.random(200) < 0.7, y, BIG[0])
    ds = streamtk.evaluate(y, p, metrics=["accuracy", "recall"])
    assert ds["class"].values.tolist() == BIG.tolist()
    assert ds.accuracy.isel(time=-1).item() == np.mean(y == p)
    signed = streamtk.evaluate(y.astype(np.int64), p.astype(np.int64), metrics=["accuracy"])  # wraps: still a bijection
    assert signed.accuracy.isel(time=-1).item() == ds.accuracy.isel(time=-1).item()


def test_python_lists_of_big_integers_are_not_rounded():
    values = [2**63 + 1, 2**63 + 2, 3]
    assert np.asarray(values).dtype == np.float64  # what numpy does: 2**63 + 1 == 2**63 + 2 after it
    arr = as_label_array(values, "y_true")
    assert arr.dtype == np.uint64 and arr.tolist() == values
    enc, (codes,) = encode_labels(values)
    assert len(enc.classes) == 3 and enc.classes[codes].tolist() == values


@pytest.mark.parametrize("fmt", ["csv", "csv.gz", "parquet", "npz", "nc", "zarr"])
def test_uint64_labels_survive_every_log_format(tmp_path, fmt):
    rng = np.random.default_rng(1)
    y = BIG[rng.integers(0, 3, 50)]
    p = BIG[rng.integers(0, 3, (2, 50))]
    log = sio.make_log(y, p)
    assert log.y_true.dtype == np.uint64
    path = tmp_path / f"log.{fmt}"
    writer = {"csv": sio.write_csv, "csv.gz": sio.write_csv, "parquet": sio.write_parquet, "npz": sio.write_npz}
    writer.get(fmt, sio.to_netcdf if fmt == "nc" else sio.to_zarr)(log, path)
    back = sio.read_log(path)
    assert back.y_true.values.tolist() == y.tolist() and back.y_pred.values.tolist() == p.tolist()


@pytest.mark.parametrize("exact", [False, True])
def test_csv_integer_labels_beyond_int64(tmp_path, monkeypatch, exact):
    """pandas reads such a column as uint64, or as text when it also holds negatives; both readers agree."""
    if exact:
        monkeypatch.setattr("streamtk.io.csv._read_csv_pandas", lambda *a: None)
    path = tmp_path / "big.csv"
    path.write_text(f"y_true,y_pred\n{2**63 + 1},{2**63 + 1}\n3,{2**64 - 1}\n")
    log = sio.read_csv(path)
    assert log.y_true.dtype == np.uint64 and log.y_true.values.tolist() == [2**63 + 1, 3]
    assert log.y_pred.values.tolist() == [[2**63 + 1, 2**64 - 1]]
    path.write_text("y_true,y_pred\n-1,1\n5,1\n")
    assert sio.read_csv(path).y_true.values.tolist() == [-1, 5]


@pytest.mark.parametrize("dtype", [">i8", ">i4", ">u2", ">f8"])
def test_big_endian_labels_equal_native(dtype):
    rng = np.random.default_rng(2)
    y = rng.integers(0, 3, 300)
    p = np.where(rng.random((2, 300)) < 0.6, y, rng.integers(0, 3, (2, 300)))
    ref = streamtk.evaluate(y.astype(dtype[1:]), p.astype(dtype[1:]), windows=20, metrics=["accuracy", "kappa"])
    got = streamtk.evaluate(y.astype(dtype), p.astype(dtype), windows=20, metrics=["accuracy", "kappa"])
    xr.testing.assert_identical(got.drop_attrs(), ref.drop_attrs())


def test_int64_beside_uint64_compare_exactly():
    y = np.array([2**63 + 1, 3, 3], dtype=np.uint64)
    p = np.array([3, 3, 2], dtype=np.int64)
    enc, (yt, yp) = encode_labels(y, p)
    assert enc.classes.tolist() == [2, 3, 2**63 + 1]
    assert enc.classes[yt].tolist() == y.tolist() and enc.classes[yp].tolist() == p.tolist()
    enc, (yt, yp) = encode_labels(y, p, classes=[3, 2**63 + 1, 2])
    assert enc.classes[yp].tolist() == p.tolist()


def test_masked_labels_are_missing():
    y = np.ma.array([0, 1, 1, 0], mask=[0, 0, 1, 0])
    enc, (codes,) = encode_labels(y)
    assert codes.tolist() == [0, 1, -1, 0]
    enc, (_, codes) = encode_labels([0, 1], np.ma.array([0, 1], mask=[0, 1]))
    assert codes.tolist() == [0, -1]  # a masked prediction: this model made no prediction here


def test_a_masked_prediction_counts_as_missing_in_evaluate():
    y = np.array([0, 1, 1, 0, 1, 1])
    p = np.array([0, 1, 0, 0, 1, 1])
    masked = streamtk.evaluate(y, np.ma.array(p, mask=[0, 0, 1, 0, 0, 0]), metrics=["accuracy"], every=1)
    missing = streamtk.evaluate(y, np.array([0, 1, None, 0, 1, 1], dtype=object), metrics=["accuracy"], every=1)
    xr.testing.assert_identical(masked.drop_attrs(), missing.drop_attrs())
