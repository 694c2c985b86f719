"""Where the instances come from: one adapter per kind of stream, all yielding blocks of ``(x, y)``.

Kinds: a capymoa ``Stream``; an ARFF file (read block by block with
:func:`streamtk.io.arff_blocks.iter_arff`); a :class:`streamtk.datasets.Stream`; numpy or pandas
arrays ``(X, y)``; any iterable of ``(x, y)`` pairs (river datasets and generators).

Each adapter says what it knows up front: the class order (``classes``: declared by a schema,
an ARFF header or a dataset, or every label of ``y`` for arrays; ``None`` for iterables),
the feature names, the number of instances (``n``, for the progress bar) and the native form
of ``x`` (``"dict"``, ``"array"`` or ``"instance"``).
"""

from __future__ import annotations

import itertools
import math
import os
from pathlib import Path

import numpy as np

__all__ = ["as_source", "Source", "is_missing"]

_BLOCK = 4096


def is_missing(y) -> bool:
    """A missing label: ``None`` or a float NaN."""
    return y is None or (isinstance(y, float) and math.isnan(y))


class Source:
    """A stream adapter (see the module docstring)."""

    kind = "iterable"
    native = "dict"
    classes = None
    feature_names = None
    n = None
    description = ""
    schema = None  # capymoa schema, for capymoa streams
    categories = None

    def blocks(self, limit):
        """Yield ``(xs, ys)`` lists (or arrays) of at most a few thousand instances, ``limit`` in all."""
        raise NotImplementedError


class _IterableSource(Source):
    def __init__(self, iterable, description):
        self._it = iterable
        self.description = description
        n = getattr(iterable, "n_samples", None)
        if n is None and hasattr(iterable, "__len__"):
            try:
                n = len(iterable)
            except TypeError:
                n = None
        self.n = int(n) if isinstance(n, (int, np.integer)) else None

    def blocks(self, limit):
        it = iter(self._it)
        if limit is not None:
            it = itertools.islice(it, limit)
        first = True
        while True:
            block = list(itertools.islice(it, _BLOCK))
            if not block:
                return
            for k, item in enumerate(block[:1] if first else ()):
                if not (isinstance(item, tuple) and len(item) == 2):
                    raise TypeError(
                        f"stream must yield (x, y) pairs (as river datasets do); item {k} is {type(item).__name__}"
                        f" {item!r:.80}"
                    )
                x = item[0]
                self.native = "dict" if isinstance(x, dict) else "array"
                if isinstance(x, dict):
                    self.feature_names = list(x)
            first = False
            xs, ys = zip(*block)
            if self.native == "array":
                xs = [np.asarray(x, dtype=np.float64).reshape(-1) for x in xs]
            yield list(xs), list(ys)


class _ArraySource(Source):
    native = "array"
    kind = "arrays"

    def __init__(self, X, y, feature_names, classes, description, categories=None):
        self.X, self.y = X, y
        self.n = len(y)
        self.feature_names = list(feature_names)
        self.classes = classes
        self.description = description
        self.categories = categories

    def blocks(self, limit):
        n = self.n if limit is None else min(self.n, limit)
        for start in range(0, n, _BLOCK):
            stop = min(n, start + _BLOCK)
            yield self.X[start:stop], _labels_list(self.y[start:stop])


class _ArffSource(Source):
    native = "array"
    kind = "arff"

    def __init__(self, path, target):
        from streamtk.io.arff_blocks import iter_arff

        self.path = Path(path)
        self._first = next(iter_arff(self.path, chunk_rows=1), None)
        if self._first is None:
            from streamtk.io.arff import read_arff

            self._first = read_arff(self.path)
        atts = self._first.attributes
        names = [a.name for a in atts]
        t = len(atts) - 1 if target is None else (names.index(target) if target in names else None)
        if t is None:
            raise ValueError(f"target={target!r} is not an attribute of {self.path}; attributes are {names}")
        if atts[t].kind != "nominal":
            raise ValueError(f"the class attribute {atts[t].name!r} of {self.path} is {atts[t].kind}, not nominal")
        bad = [a.name for a in atts if a.kind == "string"]
        if bad:
            raise ValueError(f"{self.path}: string attributes {bad} cannot be learner inputs")
        self.target = t
        self.classes = list(atts[t].values)
        self.feature_names = [a.name for i, a in enumerate(atts) if i != t]
        self.categories = {a.name: a.values for i, a in enumerate(atts) if i != t and a.kind == "nominal"}
        self.description = f"ARFF file {self.path} (relation {self._first.relation!r})"

    def blocks(self, limit):
        from streamtk.io.arff_blocks import iter_arff

        left = limit
        values = np.array(self.classes + [None], dtype=object)
        for block in iter_arff(self.path, chunk_rows=_BLOCK):
            cols = [c.astype(np.float64) for i, c in enumerate(block.columns) if i != self.target]
            for c, col in zip(cols, (c for i, c in enumerate(block.columns) if i != self.target)):
                if col.dtype.kind == "i":
                    c[col < 0] = np.nan  # a missing nominal value
            X = np.column_stack(cols) if cols else np.empty((block.n_rows, 0))
            codes = block.columns[self.target]
            y = values[np.where(codes < 0, len(self.classes), codes)].tolist()
            if left is not None:
                X, y = X[:left], y[:left]
                left -= len(y)
            yield X, y
            if left is not None and left <= 0:
                return


class _CapymoaSource(Source):
    native = "instance"
    kind = "capymoa"

    def __init__(self, stream):
        self.stream = stream
        self.schema = stream.get_schema()
        if not self.schema.is_classification():
            raise ValueError("stream is a capymoa regression stream; recorders record classifiers")
        self.classes = [str(v) for v in self.schema.get_label_values()]
        header = self.schema.get_moa_header()
        ci = header.classIndex()
        self.feature_names = [str(header.attribute(i).name()) for i in range(header.numAttributes()) if i != ci]
        try:
            self.n = len(stream)
        except TypeError:
            self.n = None
        self.description = f"capymoa {type(stream).__name__} ({self.schema.dataset_name})"

    def blocks(self, limit):
        s = self.stream
        s.restart()
        labels = self.classes
        left = limit
        while s.has_more_instances() and (left is None or left > 0):
            take = _BLOCK if left is None else min(_BLOCK, left)
            xs, ys = [], []
            while len(xs) < take and s.has_more_instances():
                inst = s.next_instance()
                xs.append(inst)
                idx = inst.y_index
                ys.append(labels[idx] if 0 <= idx < len(labels) else None)
            if left is not None:
                left -= len(xs)
            yield xs, ys


def _labels_list(y):
    out = y.tolist() if hasattr(y, "tolist") else list(y)
    return out


def _sorted_labels(y, name="y"):
    from streamtk.io.log import as_labels

    arr = as_labels(y, name)
    if arr.dtype.kind == "f":
        arr = arr[~np.isnan(arr)]
        if np.all(arr == np.round(arr)):
            return [int(v) if float(v).is_integer() else v for v in np.unique(arr).tolist()]
    elif arr.dtype.kind == "O":
        arr = np.array([v for v in arr.tolist() if v is not None])
    return np.unique(arr).tolist()


def _from_arrays(X, y, feature_names=None):
    pd = None
    try:
        import pandas as pd
    except ImportError:
        pass
    if pd is not None and isinstance(X, pd.DataFrame):
        feature_names = [str(c) for c in X.columns] if feature_names is None else feature_names
        bad = [c for c in X.columns if X[c].dtype.kind not in "iufb"]
        if bad:
            raise TypeError(f"stream X has non-numeric columns {bad}: encode them as numbers first")
        X = X.to_numpy(dtype=np.float64)
    if pd is not None and isinstance(y, pd.Series):
        y = y.to_numpy()
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y) if hasattr(y, "dtype") else np.asarray(y, dtype=object)
    if X.ndim != 2:
        raise ValueError(f"stream X must be 2-D (instances, features), got shape {X.shape}")
    if y.ndim != 1 or len(y) != len(X):
        raise ValueError(f"stream y must be 1-D with one label per row of X ({len(X)}), got shape {y.shape}")
    names = [f"x{i}" for i in range(X.shape[1])] if feature_names is None else list(feature_names)
    return X, y, names


def as_source(stream, *, target=None) -> Source:
    """The adapter for ``stream`` (see the module docstring); refuses anything else by name."""
    if isinstance(stream, Source):
        return stream
    if isinstance(stream, (str, os.PathLike)):
        path = Path(stream)
        name = path.name.lower()
        if not name.endswith((".arff", ".arff.gz")):
            raise ValueError(f"stream {str(stream)!r}: only ARFF files (.arff, .arff.gz) are read as streams")
        if not path.is_file():
            raise FileNotFoundError(f"stream {str(stream)!r}: no such file")
        return _ArffSource(path, target)
    if hasattr(stream, "get_schema") and hasattr(stream, "next_instance"):
        return _CapymoaSource(stream)
    if hasattr(stream, "X") and hasattr(stream, "y") and hasattr(stream, "feature_names"):  # streamtk dataset
        X, y, names = _from_arrays(stream.X, stream.y, list(stream.feature_names))
        classes = list(np.asarray(stream.classes).tolist())
        cats = dict(getattr(stream, "categories", {}) or {})
        return _ArraySource(X, y, names, classes, f"streamtk dataset {getattr(stream, 'name', '?')!r}", cats)
    if isinstance(stream, tuple) and len(stream) == 2 and hasattr(stream[1], "__len__") and hasattr(stream[0], "shape"):
        X, y, names = _from_arrays(*stream)
        return _ArraySource(X, y, names, _sorted_labels(y), f"arrays X {X.shape}, y ({len(y)},)")
    if isinstance(stream, (dict, str, bytes)) or not hasattr(stream, "__iter__"):
        raise TypeError(
            "stream must be a capymoa Stream, a path to an ARFF file, a streamtk dataset, a tuple (X, y) of "
            f"arrays, or an iterable of (x, y) pairs such as a river dataset; got {type(stream).__name__}"
        )
    return _IterableSource(stream, f"{type(stream).__module__}.{type(stream).__name__}")
