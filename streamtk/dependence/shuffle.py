"""Seeded shuffles for the control experiments of Zliobaite et al. 2015.

Section 6.5 compares every classifier on the original stream and on a random permutation
of it (iid: no temporal dependence, no drift); section 6.9 adds a shuffle that keeps the
label sequence -- and so the temporal dependence -- but permutes the instances within each
class, so that each class-conditional distribution becomes uniform in time (no drift).

Both return an index array ``idx``: apply it to everything recorded per instance,
``X[idx]``, ``y[idx]``.
"""

from __future__ import annotations

import numpy as np

from .._core.labels import encode_labels
from .._core.validation import as_rng, check_positive_int

__all__ = ["iid_shuffle", "label_order_preserving_shuffle"]


def iid_shuffle(n, *, seed) -> np.ndarray:
    """A uniformly random permutation of ``0..n-1`` (section 6.5's shuffled datasets).

    Parameters
    ----------
    n : int
        Number of instances.
    seed : int, SeedSequence or numpy.random.Generator

    Returns
    -------
    numpy.ndarray of int64, shape ``(n,)``

    Examples
    --------
    >>> sorted(iid_shuffle(4, seed=0).tolist())
    [0, 1, 2, 3]
    """
    n = check_positive_int(n, "n")
    return as_rng(seed).permutation(n).astype(np.int64)


def label_order_preserving_shuffle(y_true, *, seed, classes=None) -> np.ndarray:
    """Permute the instances within each class, keeping the label sequence (section 6.9).

    Returns ``idx`` with ``y_true[idx] == y_true`` at every position; for each class the
    positions holding it receive a uniformly random permutation of those same instances.
    Instances with a missing label form their own group (permuted among themselves, so
    missing stays missing at the same positions).

    Parameters
    ----------
    y_true : array-like of labels, shape ``(n,)``
    seed : int, SeedSequence or numpy.random.Generator
        One Generator draws the classes' permutations in class-code order, then the
        missing-label group.
    classes : sequence, optional
        Class order (affects only the order of the draws).

    Returns
    -------
    numpy.ndarray of int64, shape ``(n,)``

    Examples
    --------
    >>> y = ["a", "b", "a", "a", "b"]
    >>> idx = label_order_preserving_shuffle(y, seed=1)
    >>> [y[i] for i in idx] == y
    True
    """
    rng = as_rng(seed)
    enc, (codes,) = encode_labels(y_true, classes=classes)
    if codes.ndim != 1:
        raise ValueError(f"y_true must be one-dimensional (time), got shape {codes.shape}")
    idx = np.arange(codes.shape[0], dtype=np.int64)
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(-1, enc.n_classes + 1))
    groups = [order[bounds[g] : bounds[g + 1]] for g in range(1, enc.n_classes + 1)] + [order[bounds[0] : bounds[1]]]
    for pos in groups:
        if pos.size > 1:
            idx[pos] = pos[rng.permutation(pos.size)]
    return idx
