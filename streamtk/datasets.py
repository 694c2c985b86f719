"""Loaders for the classic stream-classification benchmark datasets.

Names: ``"electricity"`` (Harries' Elec2 as shipped by scikit-multiflow), ``"electricity_arff"``
(MOA's ``elecNormNew.arff``), ``"covertype"``, ``"kdd99"`` (KDD Cup 1999, 10 % file),
``"ozone"`` (UCI one-hour peak set), ``"poker"`` (the ``poker-lsn`` stream, labels only) and the
MOA-generated streams ``"moa/SEAa0"``, ``"moa/SEAg0"``, ``"moa/AGRa0"``, ``"moa/AGRg0"``,
``"moa/HYP0"``, ``"moa/LEDa0"``, ``"moa/LEDg0"``, ``"moa/RBF0"``, ``"moa/RBFr0"``, ``"moa/RTG0"``.

Where the data is looked for, in order:

1. the ``path`` argument: either the file itself or a directory laid out like the reference
   data directory (``elec2/elec.csv``, ``covtype/covtype.csv.gz``, ...);
2. the directory in the environment variable ``STREAMTK_DATA``;
3. the per-user cache: ``$STREAMTK_CACHE``, else ``$XDG_CACHE_HOME/streamtk``, else
   ``~/.cache/streamtk`` (same layout; :func:`fetch` writes there).

Every file is verified against the full sha256 digest recorded in this module before it is
parsed; a mismatch raises :class:`ChecksumError`. A dataset found nowhere raises
:class:`DatasetNotFoundError` listing every place looked at and how to obtain the file.

The statistics these files must reproduce (majority prior ``P(M)`` and persistent-classifier
accuracy ``P(T)``) are those of Zliobaite et al. (2015), Table 3 (``../seeds/`` README).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from streamtk.arff import read_arff

__all__ = [
    "ChecksumError",
    "DatasetInfo",
    "DatasetNotFoundError",
    "Stream",
    "cache_dir",
    "dataset_names",
    "FetchError",
    "fetch",
    "find",
    "info",
    "load",
    "load_labels",
    "sha256_file",
]

ENV_DATA = "STREAMTK_DATA"
ENV_CACHE = "STREAMTK_CACHE"

_SKMF = (
    "it is inside the PyPI wheel scikit-multiflow==0.4.1: run streamtk.datasets.fetch({name!r}), or by hand "
    "`pip download --no-deps --only-binary :all: --platform manylinux1_x86_64 --python-version 37 "
    "scikit-multiflow==0.4.1` and extract skmultiflow/data/datasets/{member} from the wheel (a zip file)"
)
_ANJIN = "https://github.com/Anjin-Liu/ConceptDriftDatasets"


class DatasetNotFoundError(FileNotFoundError):
    """A dataset file is not in any of the places looked at (the message lists them)."""


class ChecksumError(ValueError):
    """A dataset file's sha256 digest differs from the recorded one."""


class FetchError(RuntimeError):
    """:func:`fetch` could not download or unpack a dataset (the message says which step)."""


@dataclass(frozen=True)
class DatasetInfo:
    """Registry entry: where the file sits in a data directory, its digest and its origin."""

    name: str
    relpath: str
    sha256: str
    description: str
    obtain: str
    rows: int
    n_classes: int
    content_sha256: str = ""


@dataclass(frozen=True)
class Stream:
    """A loaded dataset.

    Attributes
    ----------
    name : str
        Registry name (e.g. ``"electricity"``).
    X : numpy.ndarray
        ``float64`` features, shape ``(n, d)``; NaN where a value is missing. Nominal features
        hold their 0-based code into ``categories[feature]`` (NaN if missing). ``d`` is 0 for
        label-only datasets.
    y : numpy.ndarray
        The labels as they appear in the file (integers, or strings for nominal classes),
        in stream order.
    feature_names : tuple of str
    classes : numpy.ndarray
        The class values: the declared order for ARFF files, sorted otherwise.
    source_path : str
        The file that was read.
    categories : dict
        For nominal features, ``feature name -> tuple of category values``.
    timestamps : numpy.ndarray or None
        ``datetime64[D]`` dates when the file has a date column that is not a feature (Ozone).
    description : str
        Origin of the file.
    """

    name: str
    X: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)
    feature_names: tuple
    classes: np.ndarray
    source_path: str
    categories: dict = field(default_factory=dict, repr=False)
    timestamps: np.ndarray | None = field(default=None, repr=False)
    description: str = field(default="", repr=False)

    @property
    def n(self) -> int:
        """Number of instances."""
        return len(self.y)

    @property
    def y_codes(self) -> np.ndarray:
        """``y`` as ``int64`` indices into :attr:`classes`."""
        return _codes(self.y, self.classes)


def _codes(y, classes):
    idx = np.searchsorted(classes, y) if _is_sorted(classes) else None
    if idx is None:
        lookup = {c: i for i, c in enumerate(classes.tolist())}
        return np.fromiter((lookup[v] for v in y.tolist()), dtype=np.int64, count=len(y))
    return idx.astype(np.int64)


def _is_sorted(a):
    return len(a) < 2 or bool(np.all(a[:-1] < a[1:]))


# --------------------------------------------------------------------------- registry

_MOA = {
    # name: (sha256 of the .arff.gz file, sha256 of the decompressed .arff, n_classes, description)
    "SEAa0": (
        "a98a8f0b72788147272c3b359bebfca2e04c909a14fbf008ac85892d0c788222",
        "78b00a30c4ab28a0f8565ee9b09337481875c28ed7dbfbce75c587e74b0777d6",
        2,
        "SEA, abrupt drifts",
    ),
    "SEAg0": (
        "e6d17d56f8a41fc973b3e75d7868ec6a6cc38ce313f79467d86ccf3b0467e2bf",
        "cffcc5c41c0ec615de44da30fa44a8a143f7e3159dc8b5baf5455f2267d17c8d",
        2,
        "SEA, gradual drifts",
    ),
    "AGRa0": (
        "4d69759380e958a4553aa3e1c300300eef89c74b6f936d316319a4fafcb6a72e",
        "61389096a8df58273a0177de426f0561f8511e11f31926df30e564a662452c24",
        2,
        "Agrawal, abrupt drifts",
    ),
    "AGRg0": (
        "a8869e8f74bb54d053803fbe5064337eb7aa569363c22aefd48781d19b68d72b",
        "558a9ef83c2e987fccf782d20278d4af5d41c0b76d83f7237c13564b690fc62b",
        2,
        "Agrawal, gradual drifts",
    ),
    "HYP0": (
        "1f4c2bf4d48a57b5ea34ed6bd8d0ad6d8860d2013a3ca73600d2898da76eae59",
        "3c56a1fdbbd3991ed9749c99e310b68fb19d5604e419287d6f57bbb6df3deef7",
        2,
        "rotating hyperplane",
    ),
    "LEDa0": (
        "90e109cc3d8b504bd9284a29a4117ccdc8a1964575fa50a87014e7e07350d924",
        "3dc83ae7a4da91d4c67e13279a3318c6ec5f3e5f1edbc25bab1fd4b36b90e1d0",
        10,
        "LED, abrupt drifts",
    ),
    "LEDg0": (
        "a086d345dd236cbb4a292f7905f8bfd8450f17bd5c1d9906a0bf77589472f171",
        "fa42d2854fc6fd9d59c659e7968e24e2955e48baeb1b6a26174b58426d9a33ac",
        10,
        "LED, gradual drifts",
    ),
    "RBF0": (
        "1d0d1ceaf5a45271d83c6250a295a05ceb26ae00e19d710b52a92b9a3c27f820",
        "0eb9e524c6a3625551063ef18cba08ceac380f5aa99963ab143c5d3cb5b1415b",
        5,
        "random RBF, drifting centroids",
    ),
    "RBFr0": (
        "1bb0445de639c5aedd7de8981537b5796502c6a9a599ec6a578d57b946f29284",
        "5f7dec6c14d419ba2ca0eb1effbf53ebba814324b20df251aca1d7f361097520",
        5,
        "random RBF, region drift",
    ),
    "RTG0": (
        "4a748539301f9b91b1460c8d488682da0fcd1abf254989e1fe79030a323adfa4",
        "3515b004990ee5af49bf78d6be19f794ace2aee92e5818ccf668758f08d43852",
        2,
        "random tree, no drift",
    ),
}

_REGISTRY: dict[str, DatasetInfo] = {
    "electricity": DatasetInfo(
        "electricity",
        "elec2/elec.csv",
        "ebdfe5480ae25a43a7d054286135e3a9484697a2850d5158a333b1578c28bb97",
        "Electricity (Harries 1999), 6 numeric features, target 1=UP 0=DOWN; scikit-multiflow 0.4.1's elec.csv",
        _SKMF.format(name="electricity", member="elec.csv"),
        45312,
        2,
    ),
    "electricity_arff": DatasetInfo(
        "electricity_arff",
        "elec2/elecNormNew.arff",
        "2d86fbc74c69a5c04bcde0119bce280dd6d8efa0115987edc75b77ccf024d7f2",
        "Electricity as MOA's elecNormNew.arff (8 attributes incl. date and day; class UP/DOWN)",
        f"download RealWorld/Classification/elecNorm/elecNorm.arff from {_ANJIN} and save it as elecNormNew.arff",
        45312,
        2,
    ),
    "covertype": DatasetInfo(
        "covertype",
        "covtype/covtype.csv.gz",
        "0a0f1bfe128b659b6b44f5e987efacb86fd02df22d1a7355dd2079595c019390",
        "Forest Covertype (UCI), 54 raw attributes, target 1..7, original order; scikit-multiflow 0.4.1",
        _SKMF.format(name="covertype", member="covtype.csv") + " (fetch stores it gzip-compressed as covtype.csv.gz)",
        581012,
        7,
        "ea35ca6820fcbe0bdc6707e9ed31e11a9de84f07d88da73b511c737383c271a6",
    ),
    "kdd99": DatasetInfo(
        "kdd99",
        "kdd99/kddcup.data_10_percent.gz",
        "8045aca0d84e70e622d1148d7df782496f6333bf6eb979a1b0837c42a9fd9561",
        "KDD Cup 1999, 10% training file, 41 attributes, label = last column without its trailing '.'",
        "download kddcup.data_10_percent.gz from the UCI KDD archive "
        "(https://kdd.ics.uci.edu/databases/kddcup99/kddcup99.html)",
        494021,
        23,
        "f8c8267ebcd9c0ed1fd7d6277fe5bfff8732e9b7db8e61b873542b2a534b6f9a",
    ),
    "ozone": DatasetInfo(
        "ozone",
        "ozone/onehr.data",
        "342aceeafccd3994b2f5ee70c80f825e5d2d11e3224a83b3cc05fd11acaa7121",
        "Ozone level detection, one-hour peak set (UCI): date + 72 attributes ('?' missing), class 0/1",
        "download onehr.data from the UCI repository (https://archive.ics.uci.edu/dataset/172/ozone+level+detection)",
        2536,
        2,
    ),
    "poker": DatasetInfo(
        "poker",
        "poker/poker-lsn.labels",
        "7c29d40bcfbfb7aec6b558efbb0c126b7cf83cdcc13ee4128feac4b8441953a4",
        "Poker-Hand poker-lsn stream, labels only (one integer per line)",
        "download realWorld/poker/poker.labels from https://github.com/vlosing/driftDatasets "
        "and save it as poker-lsn.labels",
        829201,
        10,
    ),
}
for _k, (_sha, _csha, _nc, _desc) in _MOA.items():
    _REGISTRY[f"moa/{_k}"] = DatasetInfo(
        f"moa/{_k}",
        f"moa_synthetic/{_k}.arff.gz",
        _sha,
        f"MOA-generated stream ({_desc}), 10,000 instances; the generator command is in the @relation line",
        f"download {_k}.arff from the Synthetic/ folder of {_ANJIN}, gzip it and save it as {_k}.arff.gz",
        10000,
        _nc,
        _csha,
    )
del _k, _sha, _csha, _nc, _desc

_KDD_FEATURES = (
    "duration protocol_type service flag src_bytes dst_bytes land wrong_fragment urgent hot "
    "num_failed_logins logged_in num_compromised root_shell su_attempted num_root num_file_creations "
    "num_shells num_access_files num_outbound_cmds is_host_login is_guest_login count srv_count "
    "serror_rate srv_serror_rate rerror_rate srv_rerror_rate same_srv_rate diff_srv_rate "
    "srv_diff_host_rate dst_host_count dst_host_srv_count dst_host_same_srv_rate dst_host_diff_srv_rate "
    "dst_host_same_src_port_rate dst_host_srv_diff_host_rate dst_host_serror_rate dst_host_srv_serror_rate "
    "dst_host_rerror_rate dst_host_srv_rerror_rate"
).split()
_KDD_SYMBOLIC = ("protocol_type", "service", "flag")

_OZONE_FEATURES = (
    [f"WSR{i}" for i in range(24)]
    + ["WSR_PK", "WSR_AV"]
    + [f"T{i}" for i in range(24)]
    + ["T_PK", "T_AV"]
    + [f"{v}{lev}" for lev in (85, 70, 50) for v in ("T", "RH", "U", "V", "HT")]
    + ["KI", "TT", "SLP", "SLP_", "Precp"]
)


def dataset_names() -> tuple:
    """All registered dataset names."""
    return tuple(_REGISTRY)


def info(name: str) -> DatasetInfo:
    """The registry entry of dataset ``name``."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {name!r} of type {type(name).__name__}")
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"name must be one of {list(_REGISTRY)}, got {name!r}") from None


# --------------------------------------------------------------------------- locating


def cache_dir() -> Path:
    """The per-user cache directory: ``$STREAMTK_CACHE``, else ``$XDG_CACHE_HOME/streamtk``,
    else ``~/.cache/streamtk`` (it is not created here)."""
    if os.environ.get(ENV_CACHE):
        return Path(os.environ[ENV_CACHE]).expanduser()
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]).expanduser() / "streamtk"
    return Path.home() / ".cache" / "streamtk"


def _candidates(entry: DatasetInfo, path) -> list[tuple[str, Path]]:
    out = []
    if path is not None:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be a str or os.PathLike, got {path!r} of type {type(path).__name__}")
        p = Path(path).expanduser()
        if p.is_dir():
            out.append(("path argument (a data directory)", p / entry.relpath))
        elif p.is_file():
            out.append(("path argument (the file)", p))
        else:  # neither exists: it may have been meant as either
            out.append(("path argument as the file", p))
            out.append(("path argument as a data directory", p / entry.relpath))
    env = os.environ.get(ENV_DATA)
    if env:
        out.append((f"${ENV_DATA}", Path(env).expanduser() / entry.relpath))
    else:
        out.append((f"${ENV_DATA} (not set)", None))
    out.append(("cache", cache_dir() / entry.relpath))
    return out


def find(name: str, *, path=None) -> Path:
    """The file of dataset ``name`` (not verified); see the module docstring for the order.

    Raises
    ------
    DatasetNotFoundError
        Listing every place looked at and how to obtain the file.
    """
    entry = info(name)
    cands = _candidates(entry, path)
    for _, p in cands:
        if p is not None and p.is_file():
            return p
    looked = "\n".join(f"  - {label}: {p if p is not None else '(skipped)'}" for label, p in cands)
    raise DatasetNotFoundError(
        f"dataset {name!r} ({entry.relpath}) was not found. Looked at:\n{looked}\n"
        f"To obtain it: {entry.obtain}.\nThen pass path=..., set ${ENV_DATA} to a directory holding "
        f"{entry.relpath}, or put it under the cache directory {cache_dir()}."
    )


def sha256_file(path) -> str:
    """The hex sha256 digest of a file."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _verify(path: Path, entry: DatasetInfo) -> None:
    """Accept the file if its digest is the recorded one or, for a gzip file, if the digest of
    its decompressed content is (a re-compressed copy, as :func:`fetch` writes, is fine)."""
    got = sha256_file(path)
    if got == entry.sha256:
        return
    expected = f"expected {entry.sha256}"
    if entry.content_sha256:
        with open(path, "rb") as fh:
            magic = fh.read(2)
        if magic == b"\x1f\x8b":
            try:
                with gzip.open(path, "rb") as fh:
                    h = hashlib.sha256()
                    for block in iter(lambda: fh.read(1 << 20), b""):
                        h.update(block)
                content = h.hexdigest()
            except (OSError, EOFError) as exc:
                content = f"unreadable gzip data ({exc})"
            if content == entry.content_sha256:
                return
            got = f"{got} (decompressed content: {content})"
        expected += f" (or decompressed content {entry.content_sha256})"
    raise ChecksumError(
        f"{path}: sha256 mismatch for dataset {entry.name!r}: {expected}, got {got}. The file is corrupt "
        "or a different version; delete it and obtain it again (or pass verify=False to read it anyway)."
    )


def _locate(name, path, verify):
    entry = info(name)
    p = find(name, path=path)
    if not isinstance(verify, bool):
        raise TypeError(f"verify must be a bool, got {verify!r}")
    if verify:
        _verify(p, entry)
    return entry, p


# --------------------------------------------------------------------------- parsing


def _read_bytes(p: Path) -> bytes:
    raw = p.read_bytes()
    return gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw


def _pandas():
    try:
        import pandas
    except ImportError:  # pragma: no cover - pandas is installed in the test environment
        return None
    return pandas


def _read_numeric_csv(p: Path, *, header: bool):
    """A purely numeric comma-separated file -> (column names or None, float64 matrix)."""
    raw = _read_bytes(p)
    pd = _pandas()
    if pd is not None:
        try:
            # round_trip: the same doubles as numpy's parser whatever pandas' default (pandas < 3 differs by 1 ulp)
            frame = pd.read_csv(io.BytesIO(raw), header=0 if header else None, dtype=np.float64, engine="c",
                                float_precision="round_trip")
        except ValueError as exc:
            raise ValueError(f"{p}: not a purely numeric CSV file ({exc})") from None
        names = tuple(str(c) for c in frame.columns) if header else None
        return names, frame.to_numpy(dtype=np.float64)
    text = raw.decode("ascii")
    first_nl = text.index("\n")
    names = tuple(text[:first_nl].strip().split(",")) if header else None
    body = text[first_nl + 1 :] if header else text
    try:
        mat = np.loadtxt(io.StringIO(body), delimiter=",", dtype=np.float64, ndmin=2)
    except ValueError as exc:
        raise ValueError(f"{p}: {exc}") from None
    return names, mat


def _int_labels(values, p):
    y = np.asarray(values, dtype=np.float64)
    if np.isnan(y).any() or np.any(y != np.round(y)):
        i = int(np.flatnonzero(np.isnan(y) | (y != np.round(y)))[0])
        raise ValueError(f"{p}: row {i + 1}: label {values[i]!r} is not an integer")
    return y.astype(np.int64)


def _load_electricity(entry, p):
    names, mat = _read_numeric_csv(p, header=True)
    y = _int_labels(mat[:, -1], p)
    return dict(X=np.ascontiguousarray(mat[:, :-1]), y=y, feature_names=names[:-1], classes=np.unique(y))


_load_covertype = _load_electricity


def _load_poker(entry, p):
    raw = _read_bytes(p)
    try:
        y = np.array(raw.split(), dtype=np.int64)
    except ValueError:
        for i, line in enumerate(raw.decode("ascii", "replace").splitlines()):
            try:
                int(line)
            except ValueError:
                raise ValueError(f"{p}, line {i + 1}, column 1: {line!r} is not an integer label") from None
        raise
    return dict(X=np.empty((len(y), 0)), y=y, feature_names=(), classes=np.unique(y))


def _load_kdd99(entry, p):
    raw = _read_bytes(p)
    pd = _pandas()
    if pd is None:
        raise ImportError("loading 'kdd99' needs pandas (pip install 'streamtk[io]')")
    dtypes = {f: (str if f in _KDD_SYMBOLIC else np.float64) for f in _KDD_FEATURES}
    dtypes["label"] = str
    try:
        frame = pd.read_csv(
            io.BytesIO(raw), header=None, names=_KDD_FEATURES + ["label"], dtype=dtypes, engine="c",
            float_precision="round_trip",
        )
    except ValueError as exc:
        raise ValueError(f"{p}: not in the KDD Cup 99 layout (41 attributes + label): {exc}") from None
    if frame.isna().any().any():
        i = int(np.flatnonzero(frame.isna().any(axis=1).to_numpy())[0])
        raise ValueError(f"{p}, line {i + 1}: expected 42 comma-separated fields")
    labels = frame["label"].to_numpy(dtype=str)
    y = np.char.rstrip(labels, ".")
    cats, X = {}, np.empty((len(frame), len(_KDD_FEATURES)), dtype=np.float64)
    for j, feat in enumerate(_KDD_FEATURES):
        if feat in _KDD_SYMBOLIC:
            values, codes = np.unique(frame[feat].to_numpy(dtype=str), return_inverse=True)
            cats[feat] = tuple(values.tolist())
            X[:, j] = codes
        else:
            X[:, j] = frame[feat].to_numpy()
    return dict(X=X, y=y, feature_names=tuple(_KDD_FEATURES), classes=np.unique(y), categories=cats)


def _load_ozone(entry, p):
    text = _read_bytes(p).decode("ascii")
    rows = [line.split(",") for line in text.splitlines() if line.strip()]
    width = 2 + len(_OZONE_FEATURES)
    for i, r in enumerate(rows):
        if len(r) != width:
            raise ValueError(f"{p}, line {i + 1}: expected {width} fields, found {len(r)}")
    cols = list(zip(*rows))
    dates = np.array([_us_date(d, p, i) for i, d in enumerate(cols[0])], dtype="datetime64[D]")
    body = np.array(cols[1:], dtype=object).T
    body = np.where(body == "?", "nan", body).astype(str)
    X = body[:, :-1].astype(np.float64)
    y = _int_labels(body[:, -1].astype(np.float64), p)
    return dict(X=X, y=y, feature_names=tuple(_OZONE_FEATURES), classes=np.unique(y), timestamps=dates)


def _us_date(text, p, i):
    try:
        m, d, yr = (int(v) for v in text.split("/"))
    except ValueError:
        raise ValueError(f"{p}, line {i + 1}, column 1: {text!r} is not a date M/D/YYYY") from None
    return f"{yr:04d}-{m:02d}-{d:02d}"


def _load_arff(entry, p):
    data = read_arff(p)
    *features, cls = data.attributes
    if cls.kind != "nominal":
        raise ValueError(f"{p}: the last attribute {cls.name!r} (the class, as in MOA) is {cls.kind}, not nominal")
    X = np.empty((data.n_rows, len(features)), dtype=np.float64)
    cats = {}
    for j, att in enumerate(features):
        col = data.columns[j]
        if att.kind == "numeric":
            X[:, j] = col
        elif att.kind == "nominal":
            X[:, j] = np.where(col < 0, np.nan, col)
            cats[att.name] = att.values
        else:
            raise ValueError(f"{p}: string attribute {att.name!r} cannot be a feature column")
    codes = data.columns[-1]
    if (codes < 0).any():
        raise ValueError(f"{p}: missing class value in row {int(np.flatnonzero(codes < 0)[0]) + 1}")
    classes = np.array(cls.values)
    y = classes[codes]
    return dict(X=X, y=y, feature_names=tuple(a.name for a in features), classes=classes, categories=cats)


_LOADERS = {
    "electricity": _load_electricity,
    "electricity_arff": _load_arff,
    "covertype": _load_covertype,
    "kdd99": _load_kdd99,
    "ozone": _load_ozone,
    "poker": _load_poker,
}


def load(name: str, *, path=None, verify: bool = True) -> Stream:
    """Load a benchmark dataset as a :class:`Stream`, in stream order.

    Parameters
    ----------
    name : str
        One of :func:`dataset_names`.
    path : str or os.PathLike, optional
        The file itself or a directory laid out like the reference data directory. When not
        given or the file is not there, ``$STREAMTK_DATA`` and then the cache are searched.
    verify : bool, default True
        Check the file's sha256 digest against the recorded one first.

    Returns
    -------
    Stream

    Raises
    ------
    DatasetNotFoundError
        If the file is nowhere; the message lists where it looked and how to obtain it.
    ChecksumError
        If ``verify`` and the digest differs (the message names the file and both digests).

    Notes
    -----
    Electricity in scikit-multiflow's CSV layout has 6 features (``date`` and ``day`` dropped)
    and integer labels (1 = UP, 0 = DOWN); the ARFF layout keeps all 8 attributes and the
    labels ``"UP"``/``"DOWN"``. Nominal features are given as 0-based codes into
    ``Stream.categories``. KDD99's labels lose their trailing ``'.'``.

    See Also
    --------
    load_labels : only the labels.
    fetch : download Electricity and Covertype into the cache.
    moa.streams.ArffFileStream : MOA's reader of the same ARFF files (class = last attribute).
    river.datasets.Elec2 : river's Electricity (downloads MOA's elecNormNew.arff).
    skmultiflow.data.FileStream : scikit-multiflow's reader of elec.csv and covtype.csv.

    Examples
    --------
    >>> s = load("electricity")                      # doctest: +SKIP
    >>> s.X.shape, s.classes                          # doctest: +SKIP
    ((45312, 6), array([0, 1]))
    """
    entry, p = _locate(name, path, verify)
    loader = _LOADERS.get(name, _load_arff)
    parts = loader(entry, p)
    return Stream(name=name, source_path=str(p), description=entry.description, **parts)


def load_labels(name: str, *, path=None, verify: bool = True) -> np.ndarray:
    """The label sequence of dataset ``name`` (see :func:`load` for the parameters).

    Integer labels for the CSV datasets and poker, strings for ARFF classes and KDD99.
    With pandas installed, the CSV datasets are read for their label column only (faster).
    """
    entry, p = _locate(name, path, verify)
    pd = _pandas()
    if name in ("electricity", "covertype", "kdd99") and pd is not None:
        raw = io.BytesIO(_read_bytes(p))
        if name == "kdd99":
            labels = pd.read_csv(raw, header=None, usecols=[41], dtype=str, engine="c").iloc[:, 0]
            return np.char.rstrip(labels.to_numpy(dtype=str), ".")
        last = raw.getvalue()[: raw.getvalue().find(b"\n")].count(b",")  # index of the label column
        labels = pd.read_csv(raw, usecols=[last], dtype=np.float64, engine="c",
                             float_precision="round_trip").iloc[:, 0]
        return _int_labels(labels.to_numpy(), p)
    return _LOADERS.get(name, _load_arff)(entry, p)["y"]


# --------------------------------------------------------------------------- fetching

_WHEEL = "scikit-multiflow==0.4.1"
_WHEEL_MEMBERS = {
    "electricity": "skmultiflow/data/datasets/elec.csv",
    "covertype": "skmultiflow/data/datasets/covtype.csv",
}
_WHEEL_CONTENT_SHA256 = {
    "electricity": "ebdfe5480ae25a43a7d054286135e3a9484697a2850d5158a333b1578c28bb97",
    "covertype": "ea35ca6820fcbe0bdc6707e9ed31e11a9de84f07d88da73b511c737383c271a6",
}


def fetch(name: str, *, cache=None, timeout: float = 600.0, force: bool = False) -> Path:
    """Download Electricity or Covertype into the cache from the PyPI wheel of scikit-multiflow.

    Runs ``python -m pip download --no-deps --only-binary :all: --platform manylinux1_x86_64
    --python-version 37 scikit-multiflow==0.4.1`` into a temporary directory (nothing is
    installed), extracts ``skmultiflow/data/datasets/{elec,covtype}.csv`` from the wheel,
    checks its sha256 and stores it under the cache in the reference layout
    (``elec2/elec.csv``; ``covtype/covtype.csv.gz``, gzip-compressed).

    Parameters
    ----------
    name : {"electricity", "covertype"}
    cache : str or os.PathLike, optional
        Target directory; default :func:`cache_dir`.
    timeout : float, default 600
        Seconds allowed for ``pip download``.
    force : bool, default False
        Download even if a verified copy is already there.

    Returns
    -------
    pathlib.Path
        The stored file (verified).

    Raises
    ------
    FetchError
        If pip fails or times out (pip's message is included) or the wheel lacks the file.
    ChecksumError
        If the extracted file's digest is not the recorded one.
    """
    entry = info(name)
    if name not in _WHEEL_MEMBERS:
        raise ValueError(
            f"name must be one of {list(_WHEEL_MEMBERS)} for fetch, got {name!r}; to obtain {name!r}: {entry.obtain}"
        )
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    if not isinstance(force, bool):
        raise TypeError(f"force must be a bool, got {force!r}")
    root = cache_dir() if cache is None else Path(cache).expanduser()
    target = root / entry.relpath
    if target.is_file() and not force:
        try:
            _verify(target, entry)
            return target
        except ChecksumError:
            pass  # replace the bad copy
    with tempfile.TemporaryDirectory(prefix="streamtk-fetch-") as tmp:
        cmd = [
            sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
            "--platform", "manylinux1_x86_64", "--python-version", "37", "--dest", tmp, _WHEEL,
        ]  # fmt: skip
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise FetchError(f"`{' '.join(cmd[2:])}` did not finish within {timeout} s") from None
        if proc.returncode != 0:
            tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-8:])
            raise FetchError(f"`{' '.join(cmd[2:])}` failed with exit code {proc.returncode}:\n{tail}")
        wheels = sorted(Path(tmp).glob("scikit_multiflow-0.4.1-*.whl"))
        if not wheels:
            raise FetchError(f"pip reported success but no scikit-multiflow 0.4.1 wheel is in {tmp}")
        member = _WHEEL_MEMBERS[name]
        try:
            with zipfile.ZipFile(wheels[0]) as zf:
                data = zf.read(member)
        except (KeyError, zipfile.BadZipFile) as exc:
            raise FetchError(f"{wheels[0].name}: cannot read {member} ({exc})") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != _WHEEL_CONTENT_SHA256[name]:
        raise ChecksumError(
            f"{member} in the {_WHEEL} wheel: sha256 mismatch: expected {_WHEEL_CONTENT_SHA256[name]}, got {digest}"
        )
    if target.suffix == ".gz":
        data = gzip.compress(data, compresslevel=1, mtime=0)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.write_bytes(data)
    os.replace(partial, target)
    _verify(target, entry)
    return target
