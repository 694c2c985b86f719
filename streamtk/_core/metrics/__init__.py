"""The metric registry: one entry per metric drives Dataset variables and attrs, docs, tests and benchmarks.

Every metric of every family (:mod:`.confusion`, :mod:`.auc`, :mod:`.losses`, ...) is declared once, with its
formula (a function of the family's sufficient statistics), the intermediates it reads, its
orientation, units, long name and paper reference (:class:`~.base.Metric`). ``streamtk.METRICS``
is :data:`REGISTRY`. :func:`markdown_table` renders the README's metric table (a test keeps the
README in step), and the reference tests fail for a metric without a reference implementation.
"""

from __future__ import annotations

from . import auc as _auc
from . import comparison as _comparison
from . import confusion as _confusion
from . import dependence as _dependence
from . import intervals as _intervals
from . import losses as _losses
from . import multilabel as _multilabel
from . import quantity as _quantity
from . import regression as _regression
from .base import BOUND_SIDES, EXTRA_DIMS, Intermediate, Interval, Metric, Table

__all__ = [
    "Metric",
    "Interval",
    "Intermediate",
    "Table",
    "EXTRA_DIMS",
    "TABLES",
    "REGISTRY",
    "BOUNDS",
    "entry",
    "resolve_metrics",
    "markdown_table",
    "describe",
    "family",
    "higher_is_better",
    "LOWER_IS_BETTER_TOKENS",
]

_ALL = [
    *_confusion.METRICS,
    *_quantity.METRICS,
    *_auc.METRICS,
    *_comparison.METRICS,
    *_dependence.METRICS,
    *_losses.METRICS,
    *_multilabel.METRICS,
    # regression and prediction intervals (issue 33)
    *_regression.METRICS,
    *_intervals.METRICS,
]

REGISTRY: dict[str, Metric] = {}
for _m in _ALL:
    if _m.name in REGISTRY:
        raise RuntimeError(f"metric {_m.name!r} is declared twice")
    REGISTRY[_m.name] = _m

#: the metrics ``<metric>_lower`` / ``<metric>_upper`` whose formulas are the analytic intervals of the registry
BOUNDS: dict[str, Metric] = {
    f"{m.name}_{side}": m.bound(side) for m in REGISTRY.values() if m.analytic is not None for side in BOUND_SIDES
}


def entry(name: str) -> Metric:
    """The registry entry of a metric or of an analytic bound (``<metric>_lower``, ``<metric>_upper``)."""
    found = REGISTRY.get(name) or BOUNDS.get(name)
    if found is None:
        raise KeyError(f"no metric or bound named {name!r}")
    return found


#: the tables of statistics the formulas read, by name
TABLES: dict[str, Table] = {
    t.name: t
    for t in (
        _confusion.TABLE,
        _comparison.TABLE,
        _auc.TABLE,
        _dependence.TABLE,
        _multilabel.TABLE,
        # regression and prediction intervals (issue 33)
        _regression.TABLE,
        _intervals.TABLE,
    )
}

#: the metrics ``streamtk.evaluate`` computes (confusion counts, quantity means, AUC, ranking of imbalanced
#: scores), in output order
EVALUATION_FAMILIES = ("confusion", "quantity", "auc", "imbalanced")
#: families computed only when named (``metrics=None`` leaves them out): the imbalanced family sweeps the
#: held scores at every checkpoint, ``O(distinct scores)`` each (:mod:`streamtk._kernels.auc.sweep`)
OPT_IN_FAMILIES = ("imbalanced",)

#: the function that computes the metrics of each other family (named when such a metric is asked elsewhere)
COMPUTED_BY = {
    "comparison": "streamtk.compare_losses",
    "dependence": "streamtk.label_dependence",
    # regression and prediction intervals (issue 33)
    "regression": "streamtk.regression_curves",
    "intervals": "streamtk.interval_curves",
    "resources": "streamtk.evaluation.losses.resource_curves",
    "loss": "streamtk.evaluation.losses.loss_curves",
    "multilabel": "streamtk.multilabel_curves",
}


#: fragments of names outside the registry for which a smaller value is better (errors, losses, costs,
#: time, memory; e.g. a ``loss_curves`` variable or a log's ``time_s``): the fallback of :func:`higher_is_better`
LOWER_IS_BETTER_TOKENS = ("error", "loss", "brier", "risk", "cost", "mae", "mse", "time", "seconds", "memory", "bytes")


def higher_is_better(name) -> bool | None:
    """Whether a larger value of ``name`` is better: the registry's orientation (None: a value without one,
    such as a count or a test statistic); for a name outside the registry, False when it contains one of
    :data:`LOWER_IS_BETTER_TOKENS` and True otherwise."""
    entry = REGISTRY.get(str(name))
    if entry is not None:
        return entry.higher_is_better
    return not any(token in str(name) for token in LOWER_IS_BETTER_TOKENS)


def family(name: str) -> list[Metric]:
    """Every metric of one family, in registry order."""
    return [m for m in REGISTRY.values() if m.family == name]


def _unmet(m: Metric, n_classes, has_cost, scores) -> str | None:
    """Why metric ``m`` cannot be computed here (None if it can)."""
    if m.needs == "cost" and not has_cost:
        return f"metric {m.name!r} needs a cost matrix: pass cost="
    if m.needs == "binary" and n_classes != 2:
        return f"metric {m.name!r} is defined for two classes only, got {n_classes} classes"
    if m.needs in ("scores", "multiscores") and scores is None:
        return f"metric {m.name!r} needs class scores: pass y_score="
    if m.needs == "multiscores" and scores != "multi":
        return f"metric {m.name!r} needs (..., n, k) class scores"
    return None


def resolve_metrics(
    metrics, *, families=EVALUATION_FAMILIES, n_classes: int, has_cost: bool = False, scores: str | None = None
) -> list[Metric]:
    """Validate a metric selection among ``families``; ``None`` selects every applicable metric (except those of
    :data:`OPT_IN_FAMILIES`, computed only when named).

    ``scores``: ``None`` (no scores given), ``"binary"`` or ``"multi"``.
    """
    pool = [m for m in REGISTRY.values() if m.family in families]
    if metrics is None:
        return [
            m
            for m in pool
            if m.default and m.family not in OPT_IN_FAMILIES and _unmet(m, n_classes, has_cost, scores) is None
        ]
    if isinstance(metrics, str):
        metrics = (metrics,)
    metrics = list(metrics)
    if not metrics:
        raise ValueError("metrics must name at least one metric, got an empty selection")
    chosen = []
    names = {m.name for m in pool}
    for name in metrics:
        if name not in names:
            where = ""
            if name in REGISTRY:
                fam = REGISTRY[name].family
                by = f", computed by {COMPUTED_BY[fam]}" if fam in COMPUTED_BY else ""
                where = f" (it belongs to the {fam!r} family{by})"
            raise ValueError(f"unknown metric {name!r}{where}; known metrics here: {', '.join(m.name for m in pool)}")
        m = REGISTRY[name]
        why = _unmet(m, n_classes, has_cost, scores)
        if why:
            raise ValueError(why)
        if m not in chosen:
            chosen.append(m)
    return chosen


def markdown_table() -> str:
    """The README's metric table: one row per registry entry."""
    lines = ["| metric | family | formula | orientation | reference |", "|---|---|---|---|---|"]
    for m in REGISTRY.values():
        orient = {True: "higher is better", False: "lower is better", None: "-"}[m.higher_is_better]
        formula = m.formula.replace("|", "\\|")
        lines.append(f"| `{m.name}` | {m.family} | {formula} | {orient} | {m.reference} |")
    return "\n".join(lines)


def describe() -> str:
    """A text table of every metric: name, formula, reference."""
    return "\n".join(f"{m.name:16s} {m.formula}  [{m.reference}]" for m in REGISTRY.values())
