"""The label-dependence engine after the speed work: one mode per engine, chunked == one pass."""

from __future__ import annotations

import numpy as np
import pytest

from streamtk._core.mechanisms import build_estimators
from streamtk.dependence.engine import DependenceEngine


def _codes(n, k, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    keep = rng.random(n) < 0.7
    y[1:][keep[1:]] = y[:-1][keep[1:]]  # runs
    y[rng.random(n) < 0.2] = -1  # missing labels
    return y.astype(np.int64)


def test_an_engine_keeps_one_mode():
    eng = DependenceEngine(build_estimators(), 2, 1)
    eng.update(np.array([0, 1, 1]), mode="majority")
    with pytest.raises(ValueError, match="mode"):
        eng.update(np.array([0]), mode="factors")


@pytest.mark.parametrize("mode", ["stats", "majority", "factors"])
def test_windows_with_missing_labels_chunked_equal_one_pass(mode):
    """The trailing cursor of a window (the leaving member's event) carried across chunks and history."""
    y = _codes(900, 3, 1)
    specs = build_estimators(windows=[1, 4, 37], fading=[0.9], tumbling=[50])
    whole = DependenceEngine(specs, 3, 4).update(y, mode=mode, ck=np.arange(899) if mode == "stats" else None)
    eng, parts, lo = DependenceEngine(specs, 3, 4), [], 0
    for hi in (3, 4, 40, 41, 400, 900):
        ck = np.arange(hi - lo) if mode == "stats" else None
        parts.append(eng.update(y[lo:hi], mode=mode, ck=ck))
        lo = hi
    if mode == "stats":
        for i in range(4):
            got = np.concatenate([p[i] for p in parts], axis=1)
            np.testing.assert_array_equal(got[:, :899], whole[i])
    else:
        np.testing.assert_array_equal(np.concatenate(parts, axis=1), whole)
