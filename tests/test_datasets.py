"""streamtk.datasets: lookup order, checksums, error messages, and the real files' statistics."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from streamtk import datasets as D

# rows, classes, P(M), P(T) from ../shared/data/README.md (Zliobaite et al. 2015, Table 3 rounded)
README_STATS = {
    "electricity": (45312, 2, 0.5755, 0.8533),
    "electricity_arff": (45312, 2, 0.5755, 0.8533),
    "covertype": (581012, 7, 0.4876, 0.9506),
    "kdd99": (494021, 23, 0.5684, 0.9989),
    "ozone": (2536, 2, 0.9712, 0.9487),
    "poker": (829201, 10, 0.5011, 0.7454),
}


def _majority_and_persistent(y):
    """Slow, obvious references: majority prior and no-change accuracy."""
    counts = {}
    for v in y.tolist():
        counts[v] = counts.get(v, 0) + 1
    hits = sum(1 for a, b in zip(y.tolist()[1:], y.tolist()[:-1]) if a == b)
    return max(counts.values()) / len(y), hits / (len(y) - 1), len(counts)


@pytest.fixture(scope="module")
def loaded(data_dir):
    """Each large dataset parsed once per module (covertype and kdd99 take seconds)."""
    cache = {}

    def get(name):
        if name not in cache:
            cache[name] = D.load(name, path=data_dir)
        return cache[name]

    return get


@pytest.mark.parametrize("name", list(README_STATS))
def test_readme_label_statistics(data_dir, name):
    rows, k, pm, pt = README_STATS[name]
    y = D.load_labels(name)
    assert y.shape == (rows,)
    got_pm, got_pt, got_k = _majority_and_persistent(y) if rows < 100_000 else _fast_stats(y)
    assert got_k == k
    assert round(got_pm, 4) == pm
    assert round(got_pt, 4) == pt


def _fast_stats(y):
    _, counts = np.unique(y, return_counts=True)
    return counts.max() / len(y), float(np.mean(y[1:] == y[:-1])), len(counts)


def test_electricity_persistent_hits_match_zliobaite_table5(data_dir):
    y = D.load_labels("electricity")
    assert int(np.sum(y[1:] == y[:-1])) == 38664  # README: 38,664 / 45,311 transitions


def test_electricity_layouts_agree(data_dir):
    csv = D.load("electricity")
    arff = D.load("electricity_arff")
    assert csv.feature_names == ("feat_1", "feat_2", "feat_3", "feat_4", "feat_5", "feat_6")
    assert arff.feature_names == ("date", "day", "period", "nswprice", "nswdemand", "vicprice", "vicdemand", "transfer")
    assert list(arff.classes) == ["UP", "DOWN"]  # declared order is kept
    np.testing.assert_array_equal(csv.y == 1, arff.y == "UP")
    np.testing.assert_allclose(csv.X, arff.X[:, 2:], atol=1e-6)
    assert arff.categories == {"day": ("1", "2", "3", "4", "5", "6", "7")}
    assert arff.X[0, 1] == 1.0  # day "2" is code 1
    np.testing.assert_array_equal(arff.classes[arff.y_codes], arff.y)


def test_covertype_first_row(loaded):
    s = loaded("covertype")
    assert s.X.shape == (581012, 54) and s.X.dtype == np.float64
    assert s.feature_names[0] == "Elevation"
    np.testing.assert_array_equal(s.X[0, :10], [2596, 51, 3, 258, 0, 510, 221, 232, 148, 6279])
    assert s.y[0] == 5 and list(s.classes) == [1, 2, 3, 4, 5, 6, 7]


def test_kdd99_layout(loaded):
    s = loaded("kdd99")
    assert s.X.shape == (494021, 41)
    assert not any(str(v).endswith(".") for v in s.classes)
    assert s.y[0] == "normal"
    assert s.categories["protocol_type"] == ("icmp", "tcp", "udp")
    # first line: 0,tcp,http,SF,181,5450,...
    assert s.X[0, 0] == 0 and s.X[0, 4] == 181 and s.X[0, 5] == 5450
    assert s.categories["protocol_type"][int(s.X[0, 1])] == "tcp"
    assert s.categories["service"][int(s.X[0, 2])] == "http"
    assert s.categories["flag"][int(s.X[0, 3])] == "SF"


def test_ozone_missing_and_dates(data_dir):
    s = D.load("ozone")
    assert s.X.shape == (2536, 72)
    assert s.feature_names[:2] == ("WSR0", "WSR1") and s.feature_names[-1] == "Precp"
    assert s.timestamps[0] == np.datetime64("1998-01-01") and s.timestamps[1] == np.datetime64("1998-01-02")
    np.testing.assert_allclose(s.X[0, :3], [0.8, 1.8, 2.4])
    # every '?' of the file is a NaN, nothing else is
    text = Path(s.source_path).read_text()
    n_q = sum(line.split(",")[1:-1].count("?") for line in text.splitlines() if line)
    assert np.isnan(s.X).sum() == n_q > 0
    assert s.y[0] == 0


def test_poker_is_labels_only(data_dir):
    s = D.load("poker")
    assert s.X.shape == (829201, 0)
    assert s.y.dtype == np.int64 and list(s.classes) == list(range(10))


@pytest.mark.parametrize("short", ["SEAa0", "AGRg0", "LEDa0", "RBF0", "RTG0"])
def test_moa_streams(data_dir, short):
    s = D.load(f"moa/{short}")
    assert s.n == 10000
    assert len(s.classes) == D.info(f"moa/{short}").n_classes
    assert set(s.y.tolist()) <= set(s.classes.tolist())
    assert not np.isnan(s.X).any()


# ---------------------------------------------------------------- lookup, checksums, errors


def _fake(root: Path, relpath: str, content: bytes = b"x") -> Path:
    p = root / relpath
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(content)
    return p


@pytest.fixture
def isolated(monkeypatch, tmp_path):
    """No STREAMTK_DATA, a private cache: the test controls every location."""
    monkeypatch.delenv("STREAMTK_DATA", raising=False)
    monkeypatch.setenv("STREAMTK_CACHE", str(tmp_path / "cache"))
    return tmp_path


def test_lookup_order(isolated, monkeypatch):
    rel = D.info("poker").relpath
    explicit = _fake(isolated / "explicit", rel, b"1\n")
    env = _fake(isolated / "env", rel, b"2\n")
    cache = _fake(isolated / "cache", rel, b"3\n")
    monkeypatch.setenv("STREAMTK_DATA", str(isolated / "env"))
    assert D.find("poker", path=isolated / "explicit") == explicit
    assert D.find("poker", path=explicit) == explicit  # the file itself
    assert D.find("poker", path=isolated / "nowhere") == env  # falls through
    assert D.find("poker") == env
    monkeypatch.delenv("STREAMTK_DATA")
    assert D.find("poker") == cache
    assert list(D.load_labels("poker", path=isolated / "explicit", verify=False)) == [1]
    assert list(D.load_labels("poker", verify=False)) == [3]


def test_cache_dir_precedence(monkeypatch, tmp_path):
    monkeypatch.setenv("STREAMTK_CACHE", str(tmp_path / "a"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "b"))
    assert D.cache_dir() == tmp_path / "a"
    monkeypatch.delenv("STREAMTK_CACHE")
    assert D.cache_dir() == tmp_path / "b" / "streamtk"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert D.cache_dir() == tmp_path / "home" / ".cache" / "streamtk"


def test_missing_dataset_lists_where_it_looked(isolated):
    with pytest.raises(D.DatasetNotFoundError) as err:
        D.load("covertype", path=isolated / "mine")
    msg = str(err.value)
    assert isinstance(err.value, FileNotFoundError)
    assert str(isolated / "mine" / "covtype" / "covtype.csv.gz") in msg
    assert str(isolated / "cache" / "covtype" / "covtype.csv.gz") in msg
    assert "STREAMTK_DATA (not set)" in msg
    assert "scikit-multiflow==0.4.1" in msg and "fetch('covertype')" in msg
    with pytest.raises(D.DatasetNotFoundError, match=r"path argument as the file: .*typo\.csv\n"):
        D.load("electricity", path=isolated / "typo.csv")  # a missing file is listed as given


def test_checksum_mismatch_names_file_and_both_digests(isolated):
    p = _fake(isolated / "d", D.info("poker").relpath, b"1\n2\n")
    with pytest.raises(D.ChecksumError) as err:
        D.load("poker", path=isolated / "d")
    msg = str(err.value)
    assert str(p) in msg
    assert D.info("poker").sha256 in msg
    assert D.sha256_file(p) in msg


def test_recorded_digests_match_the_reference_files(data_dir):
    for name in D.dataset_names():
        p = D.find(name, path=data_dir)
        assert D.sha256_file(p) == D.info(name).sha256, name


def test_bad_arguments():
    with pytest.raises(ValueError, match="name must be one of .*got 'elec'"):
        D.load("elec")
    with pytest.raises(TypeError, match="name must be a str"):
        D.info(3)
    with pytest.raises(TypeError, match="path must be a str or os.PathLike"):
        D.find("poker", path=3)


def test_bad_label_file_names_line(isolated):
    _fake(isolated / "d", D.info("poker").relpath, b"1\n2\nx\n")
    with pytest.raises(ValueError, match=r"line 3, column 1: 'x'"):
        D.load("poker", path=isolated / "d", verify=False)


def test_y_codes_index_classes(isolated):
    _fake(isolated / "d", D.info("poker").relpath, b"3\n1\n3\n7\n")
    s = D.load("poker", path=isolated / "d", verify=False)
    np.testing.assert_array_equal(s.classes, [1, 3, 7])
    np.testing.assert_array_equal(s.y_codes, [1, 0, 1, 2])
    assert os.fspath(s.source_path).endswith("poker-lsn.labels")


# ---------------------------------------------------------------- fetch (downloads from PyPI)


def _pypi_reachable() -> bool:
    import socket

    try:
        socket.create_connection(("pypi.org", 443), timeout=5).close()
    except OSError:
        return False
    return True


@pytest.mark.slow
@pytest.mark.parametrize("name", ["electricity", "covertype"])
def test_fetch_from_the_scikit_multiflow_wheel(isolated, name):
    try:
        stored = D.fetch(name, timeout=300)
    except D.FetchError as exc:
        if _pypi_reachable():
            raise
        pytest.skip(reason=f"PyPI (pypi.org:443) is unreachable, so pip download cannot run: {exc}")
    assert stored == isolated / "cache" / D.info(name).relpath
    assert D.find(name) == stored  # STREAMTK_DATA is unset: found in the cache
    rows, k, pm, pt = README_STATS[name]
    y = D.load_labels(name)  # verifies the checksum
    assert y.shape == (rows,) and len(np.unique(y)) == k
    # a second call re-uses the verified copy
    mtime = stored.stat().st_mtime_ns
    assert D.fetch(name) == stored and stored.stat().st_mtime_ns == mtime


def test_fetch_refuses_other_datasets():
    with pytest.raises(ValueError, match="fetch, got 'kdd99'.*kddcup99"):
        D.fetch("kdd99")
    with pytest.raises(ValueError, match="timeout must be a positive number of seconds, got 0"):
        D.fetch("electricity", timeout=0)


def test_recompressed_gzip_copy_verifies_by_content(isolated, data_dir):
    import gzip

    src = D.find("moa/SEAa0", path=data_dir)
    copy = _fake(isolated / "d", D.info("moa/SEAa0").relpath, gzip.compress(gzip.decompress(src.read_bytes()), mtime=1))
    assert D.sha256_file(copy) != D.info("moa/SEAa0").sha256
    np.testing.assert_array_equal(D.load_labels("moa/SEAa0", path=isolated / "d"), D.load_labels("moa/SEAa0", path=src))
    bad = _fake(isolated / "e", D.info("moa/SEAa0").relpath, gzip.compress(b"@relation x\n"))
    with pytest.raises(D.ChecksumError, match="decompressed content"):
        D.load("moa/SEAa0", path=bad)


@pytest.mark.parametrize("name", ["electricity", "covertype", "kdd99"])
def test_load_labels_fast_path_equals_full_load(loaded, name):
    np.testing.assert_array_equal(D.load_labels(name), loaded(name).y)


def test_numpy_fallback_without_pandas(data_dir, monkeypatch):
    with_pandas = D.load("electricity")
    monkeypatch.setattr(D.loaders, "_pandas", lambda: None)
    without = D.load("electricity")
    np.testing.assert_array_equal(without.X, with_pandas.X)
    np.testing.assert_array_equal(without.y, with_pandas.y)
    assert without.feature_names == with_pandas.feature_names
    np.testing.assert_array_equal(D.load_labels("electricity"), with_pandas.y)
    with pytest.raises(ImportError, match=r"loading 'kdd99' needs pandas \(pip install 'streamtk\[io\]'\)"):
        D.load("kdd99")
