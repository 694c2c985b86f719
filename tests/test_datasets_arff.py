"""``Stream.to_arff``: a loaded dataset written as the ARFF file that MOA and capymoa read, value for value."""

from __future__ import annotations

import numpy as np
import pytest

import streamtk.datasets as D
from streamtk.io.arff import read_arff


def _toy():
    X = np.array([[0.1, 0.0], [np.nan, 1.0], [1e-300, np.nan], [-2.5, 2.0]])
    y = np.array(["up", "down, really", None, "up"], dtype=object)
    return D.Stream(
        "toy stream", X, y, ("a b", "proto"), np.array(["up", "down, really"], dtype=object), "",
        categories={"proto": ("tcp", "u'dp", "icmp")},
    )  # fmt: skip


def test_round_trip_through_the_arff_reader(tmp_path):
    stream = _toy()
    path = stream.to_arff(tmp_path / "toy.arff")
    data = read_arff(path)
    assert data.relation == "toy stream"
    assert data.names == ("a b", "proto", "class")
    np.testing.assert_array_equal(data.column("a b"), stream.X[:, 0])  # NaN where missing, doubles exact
    assert data.attribute("proto").values == ("tcp", "u'dp", "icmp")
    assert data.nominal_labels("proto").tolist() == ["tcp", "u'dp", None, "icmp"]
    assert data.attribute("class").values == ("up", "down, really")
    assert data.nominal_labels("class").tolist() == ["up", "down, really", None, "up"]


def test_refuses_labels_only_and_existing_files_when_asked(tmp_path):
    labels_only = D.Stream("labels", np.empty((2, 0)), np.array([0, 1]), (), np.array([0, 1]), "")
    with pytest.raises(ValueError, match="labels only"):
        labels_only.to_arff(tmp_path / "x.arff")
    target = tmp_path / "toy.arff"
    target.write_text("keep")
    with pytest.raises(FileExistsError):
        _toy().to_arff(target, overwrite=False)
    assert target.read_text() == "keep"


def test_electricity_as_arff_equals_the_csv_and_capymoa_reads_it(data_dir, tmp_path):
    elec = D.load("electricity", path=data_dir)
    path = elec.to_arff(tmp_path / "elec.arff")
    data = read_arff(path)
    assert data.n_rows == elec.n == 45312
    for j, name in enumerate(elec.feature_names):
        np.testing.assert_array_equal(data.column(name), elec.X[:, j])
    assert data.attribute("class").values == ("0", "1")
    assert (data.column("class") == elec.y_codes).all()
    from ._moa import import_capymoa

    import_capymoa()
    from capymoa.stream import stream_from_file

    schema = stream_from_file(str(path)).get_schema()
    assert [str(v) for v in schema.get_label_values()] == ["0", "1"] and schema.get_num_attributes() == 6
