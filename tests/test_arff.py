"""streamtk.io.arff: known answers on a hand-written file, error positions, round trips, real files."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from streamtk.io.arff import ArffError, read_arff

TINY = Path(__file__).parent / "data" / "tiny.arff"


def _check_tiny(data):
    assert data.relation == "tiny stream, hand written"
    assert data.names == ("outside temp", "count", "note", "wind dir", "class")
    assert [a.kind for a in data.attributes] == ["numeric", "numeric", "string", "nominal", "nominal"]
    assert data.attribute("wind dir").values == ("N", "N E", "S,W")
    assert data.n_rows == 4
    np.testing.assert_array_equal(data.column("outside temp"), [1.5, -2000.0, np.nan, 0.25])
    np.testing.assert_array_equal(data.column("count"), [3.0, np.nan, 7.0, 0.0])
    assert data.column("note").tolist() == ["hello", "a, quoted note", None, "it's"]
    np.testing.assert_array_equal(data.column("wind dir"), [0, 1, 2, -1])
    assert data.nominal_labels("wind dir").tolist() == ["N", "N E", "S,W", None]
    np.testing.assert_array_equal(data.column("class"), [0, 1, 0, 1])


def test_tiny_known_answer():
    data = read_arff(TINY)
    _check_tiny(data)
    assert data.source_path == str(TINY)


def test_gzip_file_and_file_objects(tmp_path):
    gz = tmp_path / "tiny.arff.gz"
    gz.write_bytes(gzip.compress(TINY.read_bytes()))
    _check_tiny(read_arff(gz))
    _check_tiny(read_arff(io.BytesIO(gz.read_bytes())))
    _check_tiny(read_arff(io.StringIO(TINY.read_text())))
    # the suffix does not matter, the magic bytes do
    odd = tmp_path / "tiny.txt"
    odd.write_bytes(gz.read_bytes())
    _check_tiny(read_arff(odd))


def test_accessor_errors():
    data = read_arff(TINY)
    with pytest.raises(KeyError, match="no attribute named 'nope'"):
        data.column("nope")
    with pytest.raises(TypeError, match="'count' is numeric, not nominal"):
        data.nominal_labels("count")


HEAD = "@relation r\n@attribute x numeric\n@attribute c {a,b}\n@data\n"


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        (HEAD + "1,a\n{0 1, 1 a}\n", 6, 1, "sparse ARFF rows"),
        (HEAD + "1,a\n2,z\n", 6, 3, "value 'z' is not declared for nominal attribute 'c'"),
        (HEAD + "1,a\n  2x ,b\n", 6, 3, "cannot read '2x' as a number for numeric attribute 'x'"),
        (HEAD + "1,a,3\n", 5, 6, "expected 2 values, found 3"),
        (HEAD + "1,'a\n", 5, 3, "unterminated ' quote"),
        (HEAD + "1,'a' b\n", 5, 7, "expected ',' after a quoted value"),
        (HEAD + "1,a,{2}\n", 5, 5, "instance weights"),
        ("@relation r\n@attribute d date\n@data\n", 2, 14, "date attributes are not supported"),
        ("@relation r\n@attribute d relational\n@data\n", 2, 14, "relational attributes are not supported"),
        ("@relation r\n@attribute d complex\n@data\n", 2, 14, "unknown type 'complex'"),
        ("@relation r\n@attribute d\n@data\n", 2, 13, "attribute 'd' has no type"),
        ("@relation r\n@attribute c {a,b\n@data\n", 2, 14, "missing closing '}'"),
        ("@relation r\n@attribute c {a,a}\n@data\n", 2, 14, "value 'a' declared twice"),
        ("@relation r\n@attribute c numeric\n@attribute c numeric\n@data\n", 3, 1, "'c' declared twice"),
        ("@relation r\n@attribute x integer\n@data\n1\n1.5\n", 5, 1, "non-integer value '1.5'"),
        ("@relation r\n@attribute x numeric\n", 2, None, "no @data section"),
        ("@attribute x numeric\n@data\n", 1, 1, "@attribute before @relation"),
        ("@relation r\n@data\n", 2, 1, "@data before any @attribute"),
        ("@relation r\nfoo\n", 2, 1, "expected @relation, @attribute or @data"),
    ],
)
def test_errors_name_file_line_and_column(tmp_path, text, line, column, message):
    path = tmp_path / "bad.arff"
    path.write_text(text)
    with pytest.raises(ArffError) as err:
        read_arff(path)
    exc = err.value
    assert (exc.path, exc.line, exc.column) == (str(path), line, column)
    assert message in str(exc)
    where = f"{path}, line {line}" + (f", column {column}" if column is not None else "")
    assert str(exc).startswith(where)


def test_invalid_utf8_position(tmp_path):
    path = tmp_path / "bad.arff"
    path.write_bytes(b"@relation r\n@attribute x {a,\xff}\n@data\n")
    with pytest.raises(ArffError, match=r"line 2, column 17: the file is not valid UTF-8"):
        read_arff(path)


def test_file_object_errors_use_given_name():
    with pytest.raises(ArffError, match=r"^mine\.arff, line 5, column 3"):
        read_arff(io.StringIO(HEAD + "1,z\n"), name="mine.arff")


def test_empty_data_section():
    data = read_arff(io.StringIO(HEAD))
    assert data.n_rows == 0
    assert data.columns[0].dtype == np.float64 and data.columns[1].dtype == np.int64


# ---------------------------------------------------------------- round trip property

_NAME = st.text(alphabet="abcXYZ _-,'09", min_size=1, max_size=6).filter(lambda s: s.strip() == s)


def _quote(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


@given(
    numeric=st.lists(st.one_of(st.none(), st.floats(allow_nan=False, allow_infinity=False, width=64)), min_size=1),
    levels=st.lists(_NAME, min_size=1, max_size=4, unique=True),
    picks=st.data(),
)
def test_write_then_read_round_trip(numeric, levels, picks):
    n = len(numeric)
    codes = picks.draw(st.lists(st.integers(-1, len(levels) - 1), min_size=n, max_size=n))
    lines = [
        "% generated",
        "@relation 'round trip'",
        "@attribute 'a value' numeric",
        "@attribute level {" + ", ".join(_quote(v) for v in levels) + "}",
        "@data",
    ]
    for v, c in zip(numeric, codes):
        lines.append(f"{'?' if v is None else repr(v)} , {'?' if c < 0 else _quote(levels[c])}")
    data = read_arff(io.StringIO("\n".join(lines) + "\n"))
    assert data.attribute("level").values == tuple(levels)
    expected = np.array([np.nan if v is None else v for v in numeric])
    np.testing.assert_array_equal(data.column("a value"), expected)
    np.testing.assert_array_equal(data.column("level"), codes)


# ---------------------------------------------------------------- real files against scipy's reader


def _scipy_reference(path: Path):
    from scipy.io import arff as sparff

    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return sparff.loadarff(io.StringIO(raw.decode("utf-8")))


@pytest.mark.parametrize(
    "rel",
    [
        "elec2/elecNormNew.arff",
        "moa_synthetic/SEAa0.arff.gz",
        "moa_synthetic/RTG0.arff.gz",
        "moa_synthetic/LEDg0.arff.gz",
    ],
)
def test_real_files_match_scipy(data_dir, rel):
    path = data_dir / rel
    data = read_arff(path)
    ref, meta = _scipy_reference(path)
    assert data.names == tuple(meta.names())
    assert data.n_rows == len(ref)
    for att, col in zip(data.attributes, data.columns):
        if att.kind == "numeric":
            np.testing.assert_array_equal(col, ref[att.name].astype(np.float64))
        else:
            assert att.values == tuple(meta[att.name][1])
            assert data.nominal_labels(att.name).tolist() == [v.decode() for v in ref[att.name]]
    if rel.startswith("moa_synthetic"):
        assert data.n_rows == 10000
        assert "generators." in data.relation


def test_byte_order_mark_and_crlf(tmp_path):
    path = tmp_path / "bom.arff"
    path.write_bytes(b"\xef\xbb\xbf" + TINY.read_bytes().replace(b"\n", b"\r\n"))
    _check_tiny(read_arff(path))
