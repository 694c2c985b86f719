"""Writing a loaded dataset as an ARFF file, the format MOA and capymoa read: :func:`write_arff`.

``streamtk.datasets.load("electricity").to_arff("elec.arff")`` gives capymoa's
``stream_from_file`` (and MOA's ``ArffFileStream``) the stream that :func:`streamtk.datasets.fetch`
provides as a CSV file.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

__all__ = ["write_arff"]

_BLOCK = 65536
_SPECIAL = set(" ,'\"{}%\t\\")


def _quote(text) -> str:
    """An ARFF name or nominal value, quoted when it holds a space, a separator or a quote."""
    text = str(text)
    if text and not (_SPECIAL & set(text)) and text != "?":
        return text
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _numeric_cells(column: np.ndarray) -> np.ndarray:
    cells = np.array([repr(float(v)) for v in column.tolist()], dtype=object)  # repr: the same double back
    cells[np.isnan(column)] = "?"
    return cells


def _nominal_cells(codes: np.ndarray, values) -> np.ndarray:
    table = np.array([_quote(v) for v in values] + ["?"], dtype=object)
    idx = np.where(np.isnan(codes), len(values), codes).astype(np.int64)
    return table[idx]


def _label_cells(y, classes) -> np.ndarray:
    index = {c: i for i, c in enumerate(classes)}
    missing = len(classes)
    codes = [missing if (v is None or (isinstance(v, float) and v != v)) else index[v] for v in y]
    table = np.array([_quote(c) for c in classes] + ["?"], dtype=object)
    return table[np.asarray(codes, dtype=np.int64)]


def write_arff(stream, path, *, overwrite: bool = True) -> Path:
    """Write a :class:`~streamtk.datasets.Stream` to ``path`` as ARFF, the class last (MOA's default).

    Features are ``numeric`` (written as Python's ``repr`` of the double, so the file reads back
    the same values), or nominal with their categories for datasets that have them (KDD99's
    protocol, service, flag); missing values are ``?``. The class attribute is nominal with the
    dataset's classes in their order (Electricity's CSV layout: ``{0,1}``, 1 = UP). The file is
    written under a temporary name and renamed into place when complete.

    Parameters
    ----------
    stream : streamtk.datasets.Stream
        A loaded dataset (:func:`streamtk.datasets.load`); label-only datasets (no features) are refused.
    path : str or os.PathLike
        The ``.arff`` file to write.
    overwrite : bool, default True
        Replace an existing file; ``False`` refuses one (FileExistsError).

    Returns
    -------
    pathlib.Path
        ``path``.

    See Also
    --------
    streamtk.io.arff.read_arff : the reader (round trip).
    moa.streams.ArffFileStream, capymoa.stream.stream_from_file : readers of the file.

    Examples
    --------
    >>> import numpy as np, tempfile, pathlib
    >>> from streamtk.datasets import Stream
    >>> s = Stream("toy", np.array([[0.5], [np.nan]]), np.array(["a", "b"]), ("x",), np.array(["a", "b"]), "")
    >>> path = s.to_arff(pathlib.Path(tempfile.mkdtemp()) / "toy.arff")
    >>> print(path.read_text())
    @relation toy
    <BLANKLINE>
    @attribute x numeric
    @attribute class {a,b}
    <BLANKLINE>
    @data
    0.5,a
    ?,b
    <BLANKLINE>
    """
    from streamtk.io.atomic import atomic_open

    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {path!r} of type {type(path).__name__}")
    X = np.asarray(stream.X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] == 0:
        raise ValueError(f"dataset {stream.name!r} holds no features (labels only); ARFF needs at least one")
    names = [str(f) for f in stream.feature_names]
    categories = dict(stream.categories or {})
    classes = list(np.asarray(stream.classes).tolist())
    class_name = "class" if "class" not in names else "class_"
    lines = [f"@relation {_quote(stream.name)}", ""]
    for name in names:
        kind = "{" + ",".join(_quote(v) for v in categories[name]) + "}" if name in categories else "numeric"
        lines.append(f"@attribute {_quote(name)} {kind}")
    lines += [f"@attribute {class_name} {{{','.join(_quote(c) for c in classes)}}}", "", "@data", ""]
    y = np.asarray(stream.y, dtype=object).tolist()
    with atomic_open(Path(path), "w", overwrite=overwrite, encoding="utf-8", newline="\n") as fh:
        fh.write("\n".join(lines))
        for start in range(0, X.shape[0], _BLOCK):
            stop = min(X.shape[0], start + _BLOCK)
            cols = [
                _nominal_cells(X[start:stop, j], categories[name]) if name in categories
                else _numeric_cells(X[start:stop, j])
                for j, name in enumerate(names)
            ]  # fmt: skip
            cols.append(_label_cells(y[start:stop], classes))
            fh.writelines(",".join(row) + "\n" for row in zip(*cols))
    return Path(path)
