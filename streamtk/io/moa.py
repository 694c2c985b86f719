"""MOA's prediction dump (``EvaluatePrequential -o``): :func:`read_moa_predictions`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import xarray as xr

from .csv import _open_text
from .log import LogFormatError, make_log

__all__ = ["read_moa_predictions"]


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
        ``streamtk.io.arff.read_arff(f).attributes[-1].values``); default: the indices.
    model : str
        Name of the model.

    See Also
    --------
    moa.tasks.EvaluatePrequential : option ``-o`` (``outputPredictionFile``); recent MOA versions
        replaced it with ``PredictionLoggerEvaluator``.
    """
    path = Path(path)
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
            for field, out in zip(fields, (pred, true)):
                out.append(_moa_index(field, path, line_no, pos))
                pos += len(field) + 1
    yp = np.array(pred, dtype=np.float64)
    yt = np.array(true, dtype=np.float64)
    if classes is not None:
        cls = np.array(list(classes), dtype=object)
        for arr, name in ((yp, "predicted"), (yt, "true")):
            bad = arr[~np.isnan(arr)] >= len(cls)
            if bad.any():
                raise ValueError(
                    f"a {name} class index {int(arr[~np.isnan(arr)][bad][0])} is beyond classes {list(cls)}"
                )
        yp, yt = _index_to_label(yp, cls), _index_to_label(yt, cls)
    else:
        yp = yp.astype(np.int64) if not np.isnan(yp).any() else yp
        yt = yt.astype(np.int64) if not np.isnan(yt).any() else yt
    return make_log(
        yt,
        yp,
        models=[model],
        classes=classes,
        attrs={"source_file": str(path), "source_format": "MOA EvaluatePrequential -o"},
    )


def _moa_index(field, path, line_no, pos):
    s = field.strip()
    if s == "?":
        return np.nan
    try:
        v = float(s)
    except ValueError:
        v = -1.0
    if not (v >= 0 and v == int(v)):
        col = pos + len(field) - len(field.lstrip())
        raise LogFormatError(f"{s!r} is not a class index", path=path, line=line_no, column=col)
    return v


def _index_to_label(arr, cls):
    out = np.empty(arr.shape, dtype=object)
    miss = np.isnan(arr)
    out[miss] = None
    out[~miss] = cls[arr[~miss].astype(np.int64)]
    return out
