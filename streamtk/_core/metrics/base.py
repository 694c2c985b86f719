"""What every metric of the registry is: metadata, and a formula over lazily computed intermediates.

Each statistics family has a *sums* class (e.g. :class:`~streamtk._core.metrics.confusion.ConfusionSums`)
that holds a family's sufficient statistics at checkpoints and computes its intermediates
(``p0``, ``p_ran``, ``U``, ...) on first use, once. A metric is a function of such an object;
it declares the intermediates it reads (``reads``), and a test checks the declaration against
what the function really reads (:attr:`Sums.reads` records the names a formula touches). So
nothing is hand-flagged: a metric computes what it reads, and only that.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Metric", "Sums", "intermediate"]


@dataclass(frozen=True)
class Metric:
    """One metric: its name everywhere (Dataset variable, CLI, docs), its formula and its metadata.

    ``family``: which sufficient statistics it is a function of (``confusion``, ``quantity``,
    ``auc``, ``comparison``, ``dependence``, ``regression``, ``resources``). ``compute(sums)``
    returns the values; ``reads`` names the intermediates of the family's sums it reads; ``shape``
    is ``"scalar"`` or ``"class"`` (one value per class); ``higher_is_better`` is True, False, or
    None when the value has no orientation (counts, test statistics); ``needs``: ``labels``,
    ``binary`` (two classes), ``cost``, ``scores`` or ``multiscores`` (evaluation families),
    ``binary_losses`` (comparison), ``targets`` (regression), ``seconds``, ``memory`` or
    ``seconds_and_memory`` (resources).
    """

    name: str
    family: str
    long_name: str
    formula: str
    reference: str
    compute: Callable | None = None
    reads: tuple = ()
    shape: str = "scalar"
    units: str = "1"
    higher_is_better: bool | None = True
    needs: str = "labels"
    symbol: str = ""
    notes: str = ""
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def attrs(self) -> dict:
        """The attrs of the Dataset variable holding this metric."""
        out = {
            "long_name": self.long_name,
            "units": self.units,
            "formula": self.formula,
            "reference": self.reference,
            "higher_is_better": "none" if self.higher_is_better is None else str(bool(self.higher_is_better)).lower(),
        }
        if self.symbol:
            out["symbol"] = self.symbol
        return out


def intermediate(fn):
    """Decorator: a lazily computed, memoised intermediate of a :class:`Sums` (its reads are recorded)."""
    name = fn.__name__

    def get(self):
        if self._depth == 0 and self.reads is not None:
            self.reads.add(name)
        cache = self._cache
        if name not in cache:
            self._depth += 1
            try:
                with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                    cache[name] = fn(self)
            finally:
                self._depth -= 1
        return cache[name]

    return property(get, doc=fn.__doc__)


class Sums:
    """Base of the families' sufficient statistics with lazy intermediates.

    Set ``reads = set()`` to record the intermediates that formulas read directly
    (intermediates computed from others are not recorded twice).
    """

    def __init__(self):
        self._cache = {}
        self._depth = 0
        self.reads = None

    def evaluate(self, metric: Metric) -> np.ndarray:
        """The values of ``metric`` (a metric of this family)."""
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return metric.compute(self)
