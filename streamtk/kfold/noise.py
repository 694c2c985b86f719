"""The prediction noise filter of the Type II error experiments (Bifet et al. 2015, section 4.1).

The filtered classifier replaces each prediction, independently with probability
``p_noise``, by a class drawn uniformly from all ``c`` classes (the original
prediction and the true class included).

Its exact expected accuracy is ``p0 (1 - p_noise) + p_noise / c``. The paper states
``p = p0 (1 - p_noise) + (1 - p0) p_noise / c``; the two differ by ``p0 p_noise / c``:
the paper's accounting drops the correct predictions that are redrawn onto the
true class. :func:`expected_noisy_accuracy` gives both (``formula="paper"`` or
``"exact"``); the tests check the filter against the exact one and the paper's
derived slope ``(p0 - p) / p_noise = ((c + 1) p0 - 1) / c`` against the paper's formula.
"""

from __future__ import annotations

import numpy as np

from .._core.labels import encode_labels
from .._core.validation import as_rng, check_choice, check_positive_int, check_probability

__all__ = ["noise_filter", "expected_noisy_accuracy"]


def noise_filter(y_pred, p_noise: float, *, classes, seed):
    """Randomly redraw predictions: each with probability ``p_noise`` becomes a uniform class.

    Parameters
    ----------
    y_pred : array_like or xarray.DataArray, shape ``(..., n)``
        Predicted labels.
    p_noise : float in [0, 1]
    classes : int or sequence
        The ``c`` classes to draw from: a sequence of labels, or an integer ``c`` for
        the integer codes ``0 .. c-1``. Explicit on purpose: the classes present in
        ``y_pred`` need not be all classes.
    seed : int, numpy.random.SeedSequence or numpy.random.Generator

    Raises
    ------
    ValueError
        When a prediction is not one of ``classes`` (naming ``y_pred``, the label and the classes).
        A missing prediction (None, NaN) is no label: it stays missing and is never redrawn.

    Returns
    -------
    Same type and shape as ``y_pred`` (a DataArray keeps its dims/coords and gets
    ``noise_p`` and ``noise_seed`` attrs). With ``p_noise = 0`` the input values
    are returned unchanged (the random draws are still made, so the stream of a
    shared Generator advances identically for every ``p_noise``).

    Notes
    -----
    Draw order: one uniform per prediction (``< p_noise`` flips), then one class
    index per prediction, both in C order of ``y_pred``; the same seed therefore
    flips nested sets of predictions for increasing ``p_noise``.

    See Also
    --------
    expected_noisy_accuracy
    """
    p_noise = check_probability(p_noise, "p_noise")
    rng = as_rng(seed)
    if isinstance(classes, (int, np.integer)) and not isinstance(classes, bool):
        c = check_positive_int(classes, "classes")
        pool = np.arange(c)
    else:
        pool = np.asarray(classes)
        if pool.ndim != 1 or pool.size == 0:
            raise ValueError(f"classes must be a positive integer or a non-empty 1-D sequence, got {classes!r}")
        if len(np.unique(pool)) != pool.size:
            raise ValueError(f"classes contains repeated labels: {classes!r}")
    is_xr = hasattr(y_pred, "dims") and hasattr(y_pred, "copy") and hasattr(y_pred, "values")
    values = np.asarray(y_pred.values if is_xr else y_pred)
    if values.ndim == 0:
        raise ValueError(f"y_pred must be an array of predictions, got a scalar {y_pred!r}")
    if np.issubdtype(values.dtype, np.number) != np.issubdtype(pool.dtype, np.number):
        raise TypeError(
            f"classes (dtype {pool.dtype}) and y_pred (dtype {values.dtype}) must both be numeric "
            "or both be non-numeric labels"
        )
    # every prediction must be one of the classes (a label outside them would pass through unflipped and
    # bias the experiment); a missing one (None, NaN) stays missing: no prediction does not become a random one
    _, (codes,) = encode_labels(values, classes=pool.tolist(), names=("y_pred",))
    flip = rng.random(values.shape) < p_noise
    draw = pool[rng.integers(0, pool.size, size=values.shape)]
    out = np.where(flip & (codes >= 0), draw, values)
    if is_xr:
        res = y_pred.copy(data=out)
        res.attrs = dict(y_pred.attrs, noise_p=p_noise, noise_seed=str(seed) if not isinstance(seed, int) else seed)
        return res
    return out


def expected_noisy_accuracy(p0, p_noise, n_classes: int, *, formula: str = "exact"):
    """Expected accuracy of a classifier of accuracy ``p0`` after :func:`noise_filter`.

    ``exact``: ``p0 (1 - p_noise) + p_noise / c`` (uniform redraw over all ``c`` classes).
    ``paper``: Bifet et al. 2015 (seed 000), section 4.1,
    ``p0 (1 - p_noise) + (1 - p0) p_noise / c``.

    Examples
    --------
    >>> round(expected_noisy_accuracy(0.8, 0.1, 4), 4), round(expected_noisy_accuracy(0.8, 0.1, 4, formula="paper"), 4)
    (0.745, 0.725)
    """
    check_choice(formula, "formula", ("exact", "paper"))
    c = check_positive_int(n_classes, "n_classes")
    p0 = np.asarray(p0, dtype=np.float64)
    pn = np.asarray(p_noise, dtype=np.float64)
    for name, v in (("p0", p0), ("p_noise", pn)):
        if np.any(~((v >= 0) & (v <= 1))):
            raise ValueError(f"{name} must be in [0, 1], got {v!r}")
    if formula == "exact":
        val = p0 * (1 - pn) + pn / c
    else:
        val = p0 * (1 - pn) + (1 - p0) * pn / c
    return float(val) if val.ndim == 0 else val
