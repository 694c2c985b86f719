"""Multi-label streams derived from the benchmark datasets (no multi-label benchmark ships with them).

``"electricity_rises"``: from Electricity (Harries 1999, the ``"electricity"`` dataset, 45,312
half-hours), one instance per half-hour ``t >= 48`` (45,264 instances) with five labels, one per
recorded series -- ``nswprice``, ``nswdemand``, ``vicprice``, ``vicdemand``, ``transfer`` -- that is 1
when the series is higher at ``t`` than at the same half-hour of the day before (``t - 48``). The
features are the period of the day at ``t`` and the five series at ``t - 1`` (the last half-hour
observed) and at ``t - 48`` (the value the label compares with): 11 features, all known before ``t``.
Victoria's series are constant during the first 17,424 half-hours of the file (their labels are 0
there), a change of distribution a stream learner must follow. This derivation is streamtk's, for
tutorials and tests; it is not a published benchmark.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .loaders import load

__all__ = ["MultilabelStream", "load_multilabel", "MULTILABEL_NAMES"]

#: the derived multi-label streams
MULTILABEL_NAMES = ("electricity_rises",)
_SERIES = ("nswprice", "nswdemand", "vicprice", "vicdemand", "transfer")
_DAY = 48


@dataclass(frozen=True)
class MultilabelStream:
    """A multi-label stream: features ``X (n, d)``, label sets ``Y (n, q)`` (uint8 0/1), the names of both."""

    name: str
    X: np.ndarray = field(repr=False)
    Y: np.ndarray = field(repr=False)
    feature_names: tuple
    labels: tuple
    source_path: str
    description: str = field(default="", repr=False)

    @property
    def n(self) -> int:
        return int(self.Y.shape[0])


def load_multilabel(name: str = "electricity_rises", *, path=None, verify: bool = True) -> MultilabelStream:
    """Load a derived multi-label stream (see the module docstring); ``path``/``verify`` as :func:`load`.

    Examples
    --------
    >>> s = load_multilabel("electricity_rises")  # doctest: +SKIP
    >>> s.X.shape, s.Y.shape, s.labels  # doctest: +SKIP
    ((45264, 11), (45264, 5), ('nswprice', 'nswdemand', 'vicprice', 'vicdemand', 'transfer'))
    """
    if name not in MULTILABEL_NAMES:
        raise ValueError(f"unknown multi-label stream {name!r}; known: {', '.join(MULTILABEL_NAMES)}")
    elec = load("electricity", path=path, verify=verify)
    period, series = elec.X[:, 0], elec.X[:, 1:6]  # scikit-multiflow's columns: period, then the five series
    t = np.arange(_DAY, elec.n)
    Y = (series[t] > series[t - _DAY]).astype(np.uint8)
    X = np.column_stack([period[t], series[t - 1], series[t - _DAY]])
    names = ("period", *(f"{s}_last" for s in _SERIES), *(f"{s}_day_before" for s in _SERIES))
    return MultilabelStream(
        name=name,
        X=np.ascontiguousarray(X),
        Y=np.ascontiguousarray(Y),
        feature_names=names,
        labels=_SERIES,
        source_path=elec.source_path,
        description=f"derived by streamtk from {elec.description}: does each series rise against the day before?",
    )
