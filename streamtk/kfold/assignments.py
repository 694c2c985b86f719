"""k-fold distributed validation schemes (Bifet et al. 2015, seed 000, section 3).

``k`` copies ("folds") of a classifier run in parallel over one stream. For every
instance each scheme says, per fold, whether the fold **tests** on it (predicts it
and gets evaluated) and with which **weight** it then **trains** on it:

``cv`` (k-fold distributed cross-validation)
    one fold chosen at random tests, all the others train (weight 1).
``split`` (split-validation)
    one fold chosen at random trains, all the others test.
``bootstrap`` (bootstrap validation)
    every fold trains with its own weight ~ Poisson(1); it tests where the weight is 0
    (about 37% of the folds per instance).

In the **prequential** version of each scheme every fold tests every instance before
training on it (test-then-train), so only the training weights differ.

``assignment="moa"`` reproduces MOA's ``EvaluatePrequentialCV`` deterministically:
with the 0-based instance index ``t``, ``cv`` fold ``i`` trains unless
``t mod k == i`` and ``split`` fold ``i`` trains only when ``t mod k == i`` (MOA's task
is prequential; its ``bootstrap`` is random, so ``moa`` is refused for it — use
``random``, whose Poisson draws differ from Java's ``Random`` stream).

Outputs are labelled ``(fold, time)`` arrays: ``train_weight`` (float64; counts for
bootstrap) and ``test_mask`` (bool), to be passed to
``streamtk.evaluate(..., weights=test_mask.astype(float))`` for the per-fold curves.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import xarray as xr

from .._core.validation import as_rng, check_choice, check_positive_int
from .._labelled import base_attrs, time_coords

__all__ = ["SCHEMES", "ASSIGNMENTS", "fold_assignments", "fold_assignment_arrays", "iter_fold_assignments"]

SCHEMES = ("cv", "split", "bootstrap")
ASSIGNMENTS = ("random", "moa")


def _check(n, k, scheme, prequential, assignment, seed):
    n = check_positive_int(n, "n")
    k = check_positive_int(k, "k", minimum=2)
    check_choice(scheme, "scheme", SCHEMES)
    check_choice(assignment, "assignment", ASSIGNMENTS)
    if not isinstance(prequential, (bool, np.bool_)):
        raise TypeError(f"prequential must be a bool, got {prequential!r}")
    if assignment == "moa":
        if scheme == "bootstrap":
            raise ValueError(
                "assignment='moa' is deterministic (t mod k) and exists only for scheme='cv' or 'split'; "
                "MOA's bootstrap is random: use assignment='random'"
            )
        if seed is not None:
            raise ValueError(f"assignment='moa' is deterministic and takes no seed, got seed={seed!r}")
        rng = None
    else:
        rng = as_rng(seed)
    return n, k, rng


def _block(rng, scheme, prequential, assignment, start, stop, k):
    """Assignments of instances ``start .. stop-1`` (0-based), ``(k, m)`` each.

    Random draws are made in time order, one per instance (``cv``/``split``: one
    uniform double mapped to a fold; ``bootstrap``: ``k`` Poisson(1) counts), so that
    generating in chunks consumes the Generator exactly like one call.
    """
    m = stop - start
    folds = np.arange(k)[:, None]
    chosen = None
    if scheme == "bootstrap":
        train = rng.poisson(1.0, size=(m, k)).T.astype(np.float64)
        test = np.ones((k, m), dtype=bool) if prequential else train == 0
    else:
        if assignment == "moa":
            chosen = np.arange(start, stop, dtype=np.int64) % k
        else:
            chosen = np.minimum((rng.random(m) * k).astype(np.int64), k - 1)
        is_chosen = folds == chosen[None, :]
        if scheme == "cv":  # chosen fold tests, the others train
            train = (~is_chosen).astype(np.float64)
            test = np.ones((k, m), dtype=bool) if prequential else is_chosen
        else:  # split: chosen fold trains, the others test
            train = is_chosen.astype(np.float64)
            test = np.ones((k, m), dtype=bool) if prequential else ~is_chosen
    return train, test, chosen


def fold_assignment_arrays(n, k=10, *, scheme="cv", prequential=True, assignment="random", seed=None):
    """Numpy layer of :func:`fold_assignments`: ``(train_weight, test_mask, chosen)``.

    ``train_weight`` is ``(k, n)`` float64, ``test_mask`` ``(k, n)`` bool and ``chosen``
    the ``(n,)`` int64 fold index drawn per instance (the testing fold for ``cv``,
    the training fold for ``split``; ``None`` for bootstrap).
    """
    n, k, rng = _check(n, k, scheme, prequential, assignment, seed)
    return _block(rng, scheme, prequential, assignment, 0, n, k)


def _to_dataset(train, test, chosen, start, *, scheme, prequential, assignment, seed, k, n_total):
    m = train.shape[1]
    coords = {"fold": np.arange(k)}
    coords.update(time_coords(np.arange(start + 1, start + m + 1)))
    data = {
        "train_weight": (
            ("fold", "time"),
            train,
            {
                "long_name": "training weight of each fold for each instance",
                "units": "1",
                "description": "Poisson(1) count for bootstrap, 0/1 otherwise; 0 = the fold does not train on it",
            },
        ),
        "test_mask": (
            ("fold", "time"),
            test,
            {
                "long_name": "whether the fold tests (is evaluated) on the instance",
                "description": "pass as weights=test_mask.astype(float) to streamtk.evaluate",
            },
        ),
    }
    if chosen is not None:
        role = "testing" if scheme == "cv" else "training"
        data["chosen_fold"] = ("time", chosen, {"long_name": f"the single {role} fold of each instance"})
    return xr.Dataset(
        data,
        coords=coords,
        attrs=base_attrs(
            "k-fold distributed validation assignment",
            reference="Bifet et al. 2015 (seed 000) section 3; MOA EvaluatePrequentialCV for assignment='moa'",
            scheme=scheme,
            prequential=bool(prequential),
            assignment=assignment,
            seed=seed if seed is None or isinstance(seed, (int, np.integer)) else repr(seed),
            k=k,
            n_instances=n_total,
        ),
    )


def fold_assignments(n, k=10, *, scheme="cv", prequential=True, assignment="random", seed=None) -> xr.Dataset:
    """Seeded fold assignments of a k-fold distributed validation scheme.

    Parameters
    ----------
    n : int
        Number of instances in the stream.
    k : int
        Number of folds (parallel classifier copies), at least 2.
    scheme : {"cv", "split", "bootstrap"}
        See the module docstring (Bifet et al. 2015, section 3).
    prequential : bool
        Every fold tests every instance before training on it (default), or only the
        folds that do not train on it test (the paper's non-prequential versions).
    assignment : {"random", "moa"}
        ``random``: the paper's random choice (needs ``seed``); ``moa``: MOA's
        deterministic ``t mod k`` (0-based ``t``) for ``cv`` and ``split``.
    seed : int, SeedSequence or Generator
        Required for ``assignment="random"``; refused for ``"moa"``.

    Returns
    -------
    xarray.Dataset
        ``train_weight (fold, time)``, ``test_mask (fold, time)``, ``chosen_fold (time)``
        (``cv``/``split``), coordinate ``instance`` (1-based); attrs record the scheme,
        ``prequential``, ``assignment``, ``seed`` and ``k``.

    Notes
    -----
    Non-prequential bootstrap: an instance with weight > 0 in every fold is tested by
    none (probability ``(1 - e^-1)^k``, 1% for k = 10).

    See Also
    --------
    iter_fold_assignments : the same assignments chunk by chunk.
    moa.tasks.EvaluatePrequentialCV : MOA's prequential cv/split/bootstrap task.

    Examples
    --------
    A training loop consuming the assignment (``models`` has one model per fold):

    >>> import streamtk.kfold.assignments as v
    >>> a = v.fold_assignments(6, 3, scheme="cv", prequential=False, seed=1)
    >>> w, m = a.train_weight.values, a.test_mask.values
    >>> bool((m.sum(axis=0) == 1).all()), bool(((w > 0) == ~m).all())
    (True, True)

    ``for t in range(n): for f in range(k): if m[f, t]: log(models[f].predict(x[t]));
    if w[f, t]: models[f].learn(x[t], y[t], weight=w[f, t])``
    """
    n, k, rng = _check(n, k, scheme, prequential, assignment, seed)
    train, test, chosen = _block(rng, scheme, prequential, assignment, 0, n, k)
    return _to_dataset(
        train, test, chosen, 0, scheme=scheme, prequential=prequential, assignment=assignment, seed=seed, k=k, n_total=n
    )


def iter_fold_assignments(
    n, k=10, *, chunk=100_000, scheme="cv", prequential=True, assignment="random", seed=None
) -> Iterator[xr.Dataset]:
    """:func:`fold_assignments` in consecutive chunks of ``chunk`` instances.

    Concatenating the chunks along ``time`` gives exactly :func:`fold_assignments` with
    the same arguments (the random draws are made per instance in time order).
    """
    n, k, rng = _check(n, k, scheme, prequential, assignment, seed)
    chunk = check_positive_int(chunk, "chunk")
    for start in range(0, n, chunk):
        stop = min(n, start + chunk)
        train, test, chosen = _block(rng, scheme, prequential, assignment, start, stop, k)
        yield _to_dataset(
            train,
            test,
            chosen,
            start,
            scheme=scheme,
            prequential=prequential,
            assignment=assignment,
            seed=seed,
            k=k,
            n_total=n,
        )
