"""Parsing the dataset files into a :class:`Stream`: :func:`load` and :func:`load_labels`."""

from __future__ import annotations

import gzip
import io
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from streamtk.io.arff import read_arff
from streamtk.io.log import LogFormatError

from .locate import _locate

__all__ = ["Stream", "load", "load_labels"]


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

    def to_arff(self, path, *, overwrite: bool = True) -> Path:
        """Write the stream as an ARFF file (for capymoa's ``stream_from_file``, MOA); returns ``path``.

        See :func:`streamtk.datasets.arff_writer.write_arff`.
        """
        from .arff_writer import write_arff

        return write_arff(self, path, overwrite=overwrite)


def _codes(y, classes):
    idx = np.searchsorted(classes, y) if _is_sorted(classes) else None
    if idx is None:
        lookup = {c: i for i, c in enumerate(classes.tolist())}
        return np.fromiter((lookup[v] for v in y.tolist()), dtype=np.int64, count=len(y))
    return idx.astype(np.int64)


def _is_sorted(a):
    return len(a) < 2 or bool(np.all(a[:-1] < a[1:]))


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


def _read_bytes(p: Path) -> bytes:
    """The file's bytes, gunzipped if it is gzip data; a truncated or damaged gzip file is a LogFormatError."""
    raw = p.read_bytes()
    if raw[:2] != b"\x1f\x8b":
        return raw
    try:
        return gzip.decompress(raw)
    except (EOFError, OSError, zlib.error) as exc:
        raise LogFormatError(
            f"the gzip data is truncated or corrupt ({exc}); delete the file and obtain it again", path=p
        ) from None


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
            frame = pd.read_csv(
                io.BytesIO(raw),
                header=0 if header else None,
                dtype=np.float64,
                engine="c",
                float_precision="round_trip",
            )
        except ValueError as exc:
            raise ValueError(f"{p}: not a purely numeric CSV file ({exc})") from None
        names = tuple(str(c) for c in frame.columns) if header else None
        return names, frame.to_numpy(dtype=np.float64)
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError as exc:
        raise LogFormatError(f"not an ASCII CSV file ({exc.reason} at byte {exc.start})", path=p) from None
    if "\n" not in text:
        raise LogFormatError("no line break: not a CSV file with a header row and data", path=p, line=1)
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


_CSV_LAYOUT = {  # name -> (number of columns, the first and the last column's names)
    "electricity": (7, "feat_1", "target"),
    "covertype": (55, "Elevation", "Cover_Type"),
}


def _check_header(entry, p, names) -> None:
    """The header row of a CSV dataset must be the expected layout (a wrong file is never read silently)."""
    width, first, last = _CSV_LAYOUT[entry.name]
    if len(names) != width or names[0] != first or names[-1] != last:
        raise LogFormatError(
            f"not the {entry.name} layout: expected {width} columns {first!r} ... {last!r}, "
            f"found {len(names)}: {names[0]!r} ... {names[-1]!r}",
            path=p,
            line=1,
        )


def _load_electricity(entry, p):
    names, mat = _read_numeric_csv(p, header=True)
    _check_header(entry, p, names)
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
            io.BytesIO(raw),
            header=None,
            names=_KDD_FEATURES + ["label"],
            dtype=dtypes,
            engine="c",
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
        head = raw.getvalue()[: raw.getvalue().find(b"\n")].decode("ascii", "replace").strip()
        _check_header(entry, p, tuple(head.split(",")))
        last = head.count(",")  # index of the label column
        labels = pd.read_csv(raw, usecols=[last], dtype=np.float64, engine="c", float_precision="round_trip").iloc[:, 0]
        return _int_labels(labels.to_numpy(), p)
    return _LOADERS.get(name, _load_arff)(entry, p)["y"]
