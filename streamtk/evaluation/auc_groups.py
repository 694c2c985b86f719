"""Small helpers of the AUC engine: the class -> group maps of the score columns and the shapes of outputs."""

from __future__ import annotations

import numpy as np

from .._core.metrics import REGISTRY

__all__ = ["_groups", "_shape"]


def _shape(name: str) -> str:
    """The shape of a metric, of an analytic bound, or of a bootstrap band (``<metric>_lower`` / ``_upper``)."""
    base = name.rsplit("_", 1)[0] if name.endswith(("_lower", "_upper")) else name
    return (REGISTRY.get(name) or REGISTRY[base]).shape


def _groups(mode: str, k: int, pairwise: bool):
    """``(grp (C, K), pos (C,), layout)``: the class -> group map per score column (:mod:`.._kernels.auc.layout`)."""
    if mode == "binary":
        return np.array([[0, 1]], dtype=np.int64), np.ones(1, dtype=np.int64), "binary"
    if pairwise:
        grp = np.ascontiguousarray(np.broadcast_to(np.arange(k), (k, k)), dtype=np.int64)
        return grp, np.arange(k, dtype=np.int64), "ovo"
    return np.eye(k, dtype=np.int64), np.ones(k, dtype=np.int64), "ovr"
