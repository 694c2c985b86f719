"""MOA's prediction dump (``EvaluatePrequential -o``): :func:`read_moa_predictions`."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import xarray as xr

from ._classes import with_class_order
from .csv import _open_text
from .log import LogFormatError, make_log

__all__ = ["read_moa_predictions"]

_MAX_INDEX = 2**31 - 1  # MOA's class indices are Java ints


def read_moa_predictions(path, *, classes=None, model="MOA") -> xr.Dataset:
    """Read the prediction dump of MOA's ``EvaluatePrequential -o <file>``.

    Each line is ``<predicted index>,<true index>`` (0-based class indices; MOA writes the
    index of the largest vote, and ``?`` -- with surrounding spaces -- for a missing true
    class). Indices written as doubles (``1.0``) are accepted.

    Parameters
    ----------
    path : str or os.PathLike
    classes : sequence, optional
        Class labels in MOA's order (the class attribute's declared values, e.g.
        ``streamtk.io.arff.read_arff(f).attributes[-1].values``); default: the indices
        ``0 .. largest index seen``.
    model : str
        Name of the model.

    Returns
    -------
    xarray.Dataset
        A log (:func:`streamtk.io.make_log`) whose class order -- MOA's -- is the ``class``
        coordinate and ``attrs["classes"]`` of ``y_true`` and ``y_pred``, so that
        ``convention="moa"`` uses MOA's order rather than sorted labels.

    Raises
    ------
    LogFormatError
        A field that is not a class index (negative, fractional, infinite, beyond a Java int
        or beyond ``classes``); the message names the file, the line and the column.

    See Also
    --------
    moa.tasks.EvaluatePrequential : option ``-o`` (``outputPredictionFile``); recent MOA versions
        replaced it with ``PredictionLoggerEvaluator``.
    """
    path = Path(path)
    k = None if classes is None else len(list(classes))
    pred, true = [], []
    with _open_text(path) as fh:
        for line_no, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            fields = line.rstrip("\r\n").split(",")
            if len(fields) != 2:
                raise LogFormatError(f"expected '<predicted>,<true>', found {len(fields)} fields", path=path,
                                     line=line_no, column=1)  # fmt: skip
            pos = 1
            for field, out, what in zip(fields, (pred, true), ("predicted", "true")):
                out.append(_moa_index(field, path, line_no, pos, what, classes, k))
                pos += len(field) + 1
    yp = np.array(pred, dtype=np.float64)
    yt = np.array(true, dtype=np.float64)
    if classes is not None:
        cls = np.array(list(classes), dtype=object)
        yp, yt = _index_to_label(yp, cls), _index_to_label(yt, cls)
        order = list(classes)
    else:
        seen = np.concatenate([yp[~np.isnan(yp)], yt[~np.isnan(yt)]])
        order = list(range(int(seen.max()) + 1)) if seen.size else []
        yp = yp.astype(np.int64) if not np.isnan(yp).any() else yp
        yt = yt.astype(np.int64) if not np.isnan(yt).any() else yt
    log = make_log(
        yt,
        yp,
        models=[model],
        attrs={"source_file": str(path), "source_format": "MOA EvaluatePrequential -o"},
    )
    return with_class_order(log, order) if order else log


def _moa_index(field, path, line_no, pos, what, classes, k):
    s = field.strip()
    if s == "?":
        return np.nan
    col = pos + len(field) - len(field.lstrip())
    try:
        v = float(s)
    except ValueError:
        v = -1.0
    if not (math.isfinite(v) and 0 <= v <= _MAX_INDEX and v == int(v)):
        raise LogFormatError(f"{s!r} is not a class index (an integer from 0 to {_MAX_INDEX})", path=path,
                             line=line_no, column=col, column_name=what)  # fmt: skip
    if k is not None and v >= k:
        raise LogFormatError(f"the {what} class index {int(v)} is beyond classes {list(classes)}", path=path,
                             line=line_no, column=col, column_name=what)  # fmt: skip
    return v


def _index_to_label(arr, cls):
    out = np.empty(arr.shape, dtype=object)
    miss = np.isnan(arr)
    out[miss] = None
    out[~miss] = cls[arr[~miss].astype(np.int64)]
    return out
