"""Regression streams derived from the benchmark datasets: :func:`load_regression`.

The reference data are classification streams; some of their numeric attributes are real-valued series measured
in stream order, which make honest regression streams of real data (offline, verified like every dataset):

``"electricity_demand"``
    Elec2 (Harries 1999; ``"electricity"``, scikit-multiflow's ``elec.csv``, 45,312 half-hours of the New South
    Wales market, 7 May 1996 to 5 December 1998): the target is ``nswdemand``, the NSW electricity demand
    (normalised to [0, 1] by the data set's authors), predicted from the ``period`` of the day, ``nswprice``,
    ``vicprice``, ``vicdemand`` and ``transfer`` of the same half-hour. The UP/DOWN class (the price's move
    against the last day's mean) is left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .loaders import load

__all__ = ["RegressionStream", "load_regression", "REGRESSION_STREAMS"]

#: name -> (source dataset, target column, {column of the source: feature name}, description)
REGRESSION_STREAMS = {
    "electricity_demand": (
        "electricity",
        "feat_3",
        {
            "feat_1": "period",
            "feat_2": "nswprice",
            "feat_3": "nswdemand",
            "feat_4": "vicprice",
            "feat_5": "vicdemand",
            "feat_6": "transfer",
        },  # fmt: skip
        "Elec2 (Harries 1999): NSW electricity demand (normalised) of each half-hour, from period, nswprice, "
        "vicprice, vicdemand, transfer",
    ),
}


@dataclass(frozen=True)
class RegressionStream:
    """A regression stream: features ``X (n, d)``, real targets ``y (n,)``, in stream order."""

    name: str
    X: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)
    feature_names: tuple
    target: str
    source_path: str
    description: str = field(default="", repr=False)

    @property
    def n(self) -> int:
        """Number of instances."""
        return len(self.y)


def load_regression(name: str, *, path=None, verify: bool = True) -> RegressionStream:
    """Load a regression stream derived from a benchmark dataset (this module's docstring lists them).

    Parameters
    ----------
    name : str
        One of :data:`REGRESSION_STREAMS`.
    path, verify
        As :func:`streamtk.datasets.load` (the source dataset's file, found and verified the same way).

    Returns
    -------
    RegressionStream

    Examples
    --------
    >>> from streamtk.datasets import load_regression
    >>> s = load_regression("electricity_demand")  # doctest: +SKIP
    >>> s.target, s.feature_names, s.n  # doctest: +SKIP
    ('nswdemand', ('period', 'nswprice', 'vicprice', 'vicdemand', 'transfer'), 45312)
    """
    if name not in REGRESSION_STREAMS:
        raise ValueError(f"unknown regression stream {name!r}; regression streams: {sorted(REGRESSION_STREAMS)}")
    source, target, names, description = REGRESSION_STREAMS[name]
    s = load(source, path=path, verify=verify)
    col = s.feature_names.index(target)
    keep = [i for i in range(len(s.feature_names)) if i != col]
    return RegressionStream(
        name,
        np.ascontiguousarray(s.X[:, keep]),
        np.ascontiguousarray(s.X[:, col], dtype=np.float64),
        tuple(names.get(s.feature_names[i], s.feature_names[i]) for i in keep),
        names.get(target, target),
        s.source_path,
        description,
    )
