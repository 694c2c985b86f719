"""Which metrics get bands under a method, and the refusals that say why a method does not apply."""

from __future__ import annotations

__all__ = ["banded_metrics", "check_sequence_estimators", "SEQUENCE_NOTE"]

SEQUENCE_NOTE = (
    "a confidence sequence covers the running mean of a per-instance value in a known range (accuracy, error, "
    "a bounded loss or cost, the difference of two such losses)"
)


def _why_not(m, method, sequence_values) -> str | None:
    if method == "analytic" and m.analytic is None:
        return m.no_analytic()
    if method == "sequence" and m.mean_of not in sequence_values:
        return f"{m.name!r} is not such a mean ({SEQUENCE_NOTE}); use a pointwise interval_method"
    return None


def banded_metrics(metrics, spec, *, explicit: bool, sequence_values=()) -> tuple[list, list]:
    """``(metrics with bands, skipped)`` under the band options ``spec`` (None: no bands).

    A metric that estimates nothing (``bands=False``: counts, test statistics) never has bands. A metric
    the method does not apply to is an error when the metrics were named (``explicit``), and is skipped
    (listed in the second result, with the reason) when they were chosen by default. ``sequence_values``:
    the per-instance values (``Metric.mean_of``) the caller can run a confidence sequence on.
    """
    if spec is None:
        return [], []
    banded, skipped = [], []
    for m in metrics:
        if not m.bands:
            continue
        why = _why_not(m, spec.method, sequence_values)
        if why is None:
            banded.append(m)
        elif explicit:
            raise ValueError(f"interval_method={spec.method!r} does not apply to metric {m.name!r}: {why}")
        else:
            skipped.append(f"{m.name}: {why}")
    return banded, skipped


def check_sequence_estimators(specs) -> None:
    """Refuse ``interval_method="sequence"`` for estimators whose window is chosen from the data (ADWIN)."""
    from ..mechanisms import MECHANISMS

    adaptive = {m.kind for m in MECHANISMS if m.adaptive}
    bad = [s.label for s in specs if s.kind in adaptive]
    if bad:
        raise ValueError(
            f"interval_method='sequence' does not apply to the estimators {bad}: their window is chosen from the "
            "losses themselves (ADWIN cuts where the mean changes), so no fixed weighting of past instances exists "
            "for a time-uniform bound; drop adwin= or use a pointwise interval_method"
        )
