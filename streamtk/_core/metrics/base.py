"""What every metric of the registry is: metadata and one scalar formula over a table of statistics.

A statistics family (confusion counts, U statistics, pair sums, label transitions, ...) writes its
sufficient statistics at checkpoints as a *table*: per series and estimator, one row per statistic
and one column per checkpoint (``s[ROW, m]``). Its :class:`Table` declares the *intermediates* computed
from those rows once per checkpoint and shared by several metrics (``p0``, ``p_ran``, ...), in rows
``v[ROW, m]`` of their own. A :class:`Metric` is one scalar formula ``compute(s, v, m, x)`` (plus a
class index, or two, for metrics with extra dims) written in the dialect of :mod:`.dialect`; it
declares the intermediates it reads (``reads``), and a test checks the declaration against what the
formula reads. The finaliser (:mod:`streamtk._core.finalise`) runs the formulas compiled or in numpy.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Metric", "Interval", "Intermediate", "Table", "EXTRA_DIMS", "BOUND_SIDES"]

#: the extra dims (after ``time``) of a metric of each shape, and their names in Datasets
EXTRA_DIMS = {
    "scalar": (),
    "class": ("class",),
    "column": ("class",),  # one value per score column: per class with class scores, one with binary scores
    "pair": ("class", "class_other"),
    "transition": ("previous_class", "class"),
    "lag": ("lag", "class"),
    # regression and prediction intervals (issue 33): one value per target of a multi-target regression, per
    # quantile level of quantile predictions
    "target": ("target",),
    "quantile": ("quantile",),
    "label": ("label",),  # one value per label of a multi-label problem
}


#: the two bands of a metric: variables ``<metric>_lower`` and ``<metric>_upper``
BOUND_SIDES = ("lower", "upper")


@dataclass(frozen=True)
class Interval:
    """How a metric's analytic interval is computed: two formulas over its table, like the metric's own.

    ``lower`` / ``upper``: formulas in the dialect of :mod:`.dialect` (with the metric's signature)
    returning the bounds at the confidence level of the table's context (its ``z`` field, the normal
    quantile); ``reads``: the intermediates they read; ``squares``: the squared-weight statistics they
    need (``"total"``: the sum of squared weights ``W2``; ``"classes"``: also per class, for Kish's
    effective sizes of a class's instances); ``method``: its name in the attrs; ``reference``; ``needs``:
    ``"binary_losses"`` when the formula holds for 0-1 values only (a proportion's interval).
    """

    lower: Callable
    upper: Callable
    reads: tuple = ()
    squares: str = ""
    method: str = ""
    reference: str = ""
    needs: str = ""


@dataclass(frozen=True)
class Metric:
    """One metric: its name everywhere (Dataset variable, CLI, docs), its formula and its metadata.

    ``family``: which sufficient statistics it is a function of (``confusion``, ``quantity``,
    ``auc``, ``comparison``, ``dependence``, ``regression``, ``resources``); ``table``: the
    :class:`Table` its formula reads (default: the family's name). ``compute(s, v, m, x)`` is the
    scalar formula (``compute(s, v, m, x, i)`` or ``(..., i, j)`` for a metric with extra dims);
    ``reads`` names the intermediates of the table it reads; ``shape`` is a key of
    :data:`EXTRA_DIMS`; ``dtype`` ``"float64"`` or ``"bool"``; ``higher_is_better`` is True, False,
    or None when the value has no orientation (counts, test statistics); ``needs``: ``labels``,
    ``binary`` (two classes), ``cost``, ``scores`` or ``multiscores`` (evaluation families),
    ``binary_losses`` (comparison), ``targets``, ``n_features``, ``multitarget`` or ``tree`` (regression: any
    regression, the number of features, several targets, an order-statistics tree asked by name),
    ``intervals``, ``alpha`` or ``quantiles`` (prediction intervals), ``seconds``, ``memory`` or
    ``seconds_and_memory`` (resources). ``moa``: the convention it has under ``convention="moa"``
    (regression and interval families): True when MOA reports it (its own formula), False when MOA has no such
    measure (refused under MOA's convention). ``symbol``: the papers' symbol (matplotlib mathtext, without
    ``$``); ``label``: its axis label in plots (mathtext; default the symbol, else the name); ``limits``: the
    range its values cannot leave, ``(low or None, high or None)`` (plots never draw beyond it); ``quantity``:
    the per-instance quantity whose sums a formula of the sums table reads (regression, resources).

    Bands (``<metric>_lower`` / ``<metric>_upper``, :mod:`streamtk._core.intervals`): ``interval`` is the
    metric's analytic :class:`Interval`, or the reason it has none (the bootstrap applies to every
    metric); ``bands=False`` for values that estimate nothing (counts, test statistics, constants: they
    get no bands); ``mean_of``: the per-instance value in a known range whose running mean the metric is
    (``"hit"``, ``"miss"``, a quantity's name, ...), for which a confidence sequence exists; ``squares``:
    the squared-weight statistics the formula itself reads (as :attr:`Interval.squares`); ``default=False``:
    not among the metrics ``metrics=None`` selects (it is computed when asked for by name).
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
    table: str = ""
    dtype: str = "float64"
    label: str = ""
    limits: tuple = (None, None)
    quantity: str = ""
    moa: bool = True
    interval: Interval | str | None = None
    bands: bool = True
    mean_of: str = ""
    squares: str = ""
    default: bool = True
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self):
        if self.shape not in EXTRA_DIMS:
            raise ValueError(f"metric {self.name!r}: shape must be one of {tuple(EXTRA_DIMS)}, got {self.shape!r}")
        if not self.table:
            object.__setattr__(self, "table", self.family)
        if not self.label:
            object.__setattr__(self, "label", f"${self.symbol}$" if self.symbol else self.name)

    @property
    def analytic(self) -> Interval | None:
        """The metric's analytic :class:`Interval`, or None."""
        return self.interval if isinstance(self.interval, Interval) else None

    def no_analytic(self) -> str:
        """Why the metric has no analytic interval (for the error message)."""
        if not self.bands:
            return f"{self.name!r} estimates nothing (a count, a test statistic or a constant): it has no bands"
        reason = self.interval if isinstance(self.interval, str) else "no closed form is declared for it"
        return f"{self.name!r} has no analytic interval ({reason}); use interval_method='bootstrap'"

    def bound(self, side: str) -> Metric:
        """The metric ``<name>_<side>`` whose formula is the analytic interval's ``side`` bound."""
        iv = self.analytic
        if iv is None:
            raise ValueError(self.no_analytic())
        return Metric(
            f"{self.name}_{side}",
            self.family,
            f"{side} bound of the {self.long_name}",
            f"{iv.method}: {side} bound",
            iv.reference or self.reference,
            iv.lower if side == "lower" else iv.upper,
            iv.reads,
            shape=self.shape,
            units=self.units,
            higher_is_better=self.higher_is_better,
            needs=self.needs,
            table=self.table,
            limits=self.limits,
            quantity=self.quantity,
            bands=False,
            squares=iv.squares,
        )

    @property
    def extra_dims(self) -> tuple:
        """The names of the metric's dims after ``time``."""
        return EXTRA_DIMS[self.shape]

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


@dataclass(frozen=True)
class Intermediate:
    """A value computed once per checkpoint from a table's statistics and shared by several formulas.

    ``compute(s, v, m, x)`` in the dialect of :mod:`.dialect`; ``reads``: the intermediates it reads,
    all declared before it in its table; ``only_if``: a boolean field of the table's context without
    which no formula reads it (e.g. ``"moa"``), so that it is not computed then.
    """

    name: str
    compute: Callable
    reads: tuple = ()
    doc: str = ""
    only_if: str = ""


@dataclass(frozen=True)
class Table:
    """The statistics of one family as its formulas read them.

    ``intermediates``: in the order of their rows of ``v`` (an intermediate reads only earlier ones);
    ``fields``: what the rows of ``s`` hold (documentation; the family's kernels write them);
    ``context``: the class of the ``x`` argument (a ``NamedTuple`` of the evaluation's constants);
    ``specialise``: ``(field, value)`` pairs of the context for which the compiled finaliser is built with
    that field a constant (e.g. ``("k", 2)``: loops over two classes unrolled, so that they vectorise; the
    same operations, the same doubles).
    """

    name: str
    intermediates: tuple
    fields: str
    context: type
    specialise: tuple = ()

    def __post_init__(self):
        seen = set()
        for it in self.intermediates:
            late = [r for r in it.reads if r not in seen]
            if late:
                raise ValueError(f"table {self.name!r}: intermediate {it.name!r} reads {late} declared after it")
            seen.add(it.name)

    @property
    def names(self) -> tuple:
        return tuple(it.name for it in self.intermediates)

    def row(self, name: str) -> int:
        """The row of ``v`` holding intermediate ``name``."""
        return self.names.index(name)

    def needed(self, metrics, x=None) -> list[int]:
        """The rows of the intermediates ``metrics`` read, directly or through other intermediates, in order
        (with a context ``x``, without those its ``only_if`` field rules out)."""
        want = {r for m in metrics for r in m.reads}
        for it in reversed(self.intermediates):
            if it.name in want:
                want.update(it.reads)
        unknown = want - set(self.names)
        if unknown:
            raise ValueError(f"table {self.name!r} has no intermediates {sorted(unknown)}")
        return [
            i
            for i, it in enumerate(self.intermediates)
            if it.name in want and (x is None or not it.only_if or getattr(x, it.only_if))
        ]
