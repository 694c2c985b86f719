"""The ADWIN that ``adwin=`` estimators run on a model's 0/1 loss, shared by every statistics family.

An ``adwin=<delta>`` estimator computes its statistics over the instances inside the current
window of an ADWIN run on the 0/1 loss of the evaluated instances of that model (Bifet et al.
2015, seed 000, section 6); one ADWIN per (model, estimator), whatever the statistics family
(confusion counts, U statistics). Its width after each member is the sliding limit of the
family's window (:func:`streamtk._kernels.forgetting.sliding_limit`).
"""

from __future__ import annotations

import numpy as np

from .plan import ADWIN_BOUNDS

__all__ = ["LossAdwins"]


class LossAdwins:
    """The ADWIN instances of ``E`` adwin estimators of ``L`` series, carried across chunks."""

    def __init__(self, L: int, deltas, options: dict):
        from .._kernels.adwin import adwin_state_new

        self.deltas = np.asarray(deltas, dtype=np.float64)
        self.options = options
        EA = max(1, self.deltas.size)
        state = adwin_state_new(L * EA, options["max_buckets"], 64 if self.deltas.size else 1)
        self.state = tuple(a.reshape((L, EA) + a.shape[1:]) for a in state)

    def limits(self, member: np.ndarray, loss: np.ndarray, l: int, out: np.ndarray) -> None:
        """Feed series ``l``'s members (``member`` positions, ``loss`` their 0/1 losses) to every ADWIN.

        ``out[a, i]`` receives the width of ADWIN ``a`` after position ``i`` (members only).
        """
        from .._kernels.adwin import adwin_run_one

        opts = self.options
        x = loss[member].astype(np.float64)
        width = np.empty(x.size, dtype=np.int64)
        none_f = np.empty(0, dtype=np.float64)
        none_i = np.empty(0, dtype=np.int8)
        for a, delta in enumerate(self.deltas):
            st = tuple(s[l, a] for s in self.state)
            params = (float(delta), opts["clock"], opts["min_window"], ADWIN_BOUNDS[opts["bound"]])
            adwin_run_one(x, st, params, (width, none_f, none_f, none_i))
            out[a, member] = width

    def buckets(self, l: int, a: int):
        """``(counts per row, index of the oldest row)`` of ADWIN ``a`` of series ``l``."""
        from .._kernels.adwin import LAST_ROW

        return self.state[2][l, a], int(self.state[3][l, a, LAST_ROW])
