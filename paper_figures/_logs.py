"""Logs shared by several scripts (one recipe each, so that they are produced once and cached)."""

from __future__ import annotations

from . import _streams
from ._producers import LEARNERS, Source, dataset_source, produce

__all__ = ["FIVE", "dataset_log", "SEA_ORDER", "sea_nb_log"]

#: Zliobaite et al. 2015 Table 4: the five classifiers of the experiments
FIVE = ("NB", "DDM", "HT", "HAT", "LBAG")


def dataset_log(ctx, name, n, *, order="original", augment=0, models=FIVE, seed=1):
    """The five classifiers (with their class scores) test-then-train on the first ``n`` instances of a
    dataset, in its original order or shuffled, optionally with ``augment`` past labels as inputs."""
    src = dataset_source(ctx, name, n, order=order, augment=augment, seed=seed)
    n = len(src.y)
    aug = f", inputs + the {augment} previous label(s) (Temporally Augmented)" if augment else ""
    desc = f"{', '.join(models)} test-then-train on {name} ({order} order{aug}), first {n} instances"
    log = produce(
        ctx,
        f"{src.name}_{'-'.join(models)}",
        src,
        [LEARNERS[m] for m in models],
        n=n,
        description=desc,
        keep_scores=True,
    )
    return log, src


#: SEA functions in stream order (thresholds 9.5 -> 7 -> 8 -> 9): the first change is the largest
SEA_ORDER = (4, 3, 1, 2)


def sea_nb_log(ctx, segment):
    """Naive Bayes and naive Bayes with drift detection (MOA's DriftDetectionMethodClassifier with DDM)
    on SEA with an abrupt change every ``segment`` instances (Gama et al. 2013 Figs. 6-8)."""
    gen = _streams.sea_concepts(SEA_ORDER, segment, seed=1)
    src_name = f"sea_f{''.join(map(str, SEA_ORDER))}_seg{segment}"

    return produce(
        ctx,
        f"{src_name}_NB-DDM",
        Source(src_name, gen.classes, gen=gen),
        [LEARNERS["NB"], LEARNERS["DDM"]],
        n=4 * segment,
        description=f"NB and NB with DDM (relearns on drift) on SEA functions {SEA_ORDER} (10% noise), "
        f"abrupt change every {segment} instances",
        keep_scores=True,
    )
