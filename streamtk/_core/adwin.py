"""ADWIN in the numpy layer: its parameters (one set of rules for detectors and ``adwin=`` estimators) and the
ADWINs that ``adwin=`` estimators run on a model's loss, shared by every statistics family.

An ``adwin=<delta>`` estimator computes its statistics over the instances inside the current
window of an ADWIN run on the 0/1 loss of the evaluated instances of that model (Bifet et al.
2015, seed 000, section 6); one ADWIN per (model, estimator), whatever the statistics family
(confusion counts, U statistics, sums, label dependence). Its width after each member is the sliding
limit of the family's window (:func:`streamtk._kernels.forgetting.sliding_limit`).
"""

from __future__ import annotations

import numpy as np

from .._kernels.adwin.scan import BOUND_CODES
from .validation import check_choice, check_in_open_unit_interval, check_positive_int

__all__ = [
    "ADWIN_DEFAULTS",
    "ADWIN_BOUNDS",
    "MAX_BUCKETS",
    "check_adwin_params",
    "check_adwin_delta",
    "check_adwin_options",
    "LossAdwins",
]

#: ADWIN's parameters and their defaults (MOA's): the same for the detector and for ``adwin=`` estimators
ADWIN_DEFAULTS = {"max_buckets": 5, "clock": 32, "min_window": 5, "bound": "bernstein"}
#: ADWIN's cut bounds: MOA's variance-based (Bernstein) rule, or the Hoeffding rule of Bifet et al. 2015, Theorem 3
ADWIN_BOUNDS = dict(BOUND_CODES)
#: the largest ``max_buckets``: each ADWIN keeps 64 rows of ``max_buckets + 1`` buckets (two doubles each), so
#: this bounds an ADWIN's state at 10 MB (MOA fixes ``max_buckets`` at 5; more buckets per row only refine the
#: split points tested)
MAX_BUCKETS = 10_000


def check_adwin_params(max_buckets, clock, min_window, bound, *, prefix="") -> dict:
    """ADWIN's parameters validated; ``prefix`` names the argument they came in (``"adwin_options"``)."""

    def name(key):
        return f"{prefix}[{key!r}]" if prefix else key

    mb = check_positive_int(max_buckets, name("max_buckets"), minimum=2)
    if mb > MAX_BUCKETS:
        raise ValueError(
            f"{name('max_buckets')} must be at most {MAX_BUCKETS:,} (each ADWIN keeps 64 rows of max_buckets + 1 "
            f"buckets; MOA uses 5), got {mb:,}"
        )
    return {
        "max_buckets": mb,
        "clock": check_positive_int(clock, name("clock")),
        "min_window": check_positive_int(min_window, name("min_window")),
        "bound": check_choice(bound, name("bound"), tuple(ADWIN_BOUNDS)),
    }


def check_adwin_delta(delta, name="delta") -> float:
    """An ADWIN confidence in (0, 1)."""
    return check_in_open_unit_interval(delta, name)


def check_adwin_options(options) -> dict:
    """The ADWIN parameters of ``adwin=`` estimators (``adwin_options``; see :func:`streamtk.drift.adwin`)."""
    if options is None:
        return dict(ADWIN_DEFAULTS)
    if not isinstance(options, dict):
        raise TypeError(f"adwin_options must be a dict, got {options!r}")
    unknown = set(options) - set(ADWIN_DEFAULTS)
    if unknown:
        raise ValueError(f"adwin_options has unknown keys {sorted(unknown)!r}; known: {sorted(ADWIN_DEFAULTS)!r}")
    return check_adwin_params(**{**ADWIN_DEFAULTS, **options}, prefix="adwin_options")


class LossAdwins:
    """The ADWIN instances of ``E`` adwin estimators of ``L`` series, carried across chunks."""

    def __init__(self, L: int, deltas, options: dict):
        from .._kernels.adwin.histogram import adwin_state_new

        self.deltas = np.asarray(deltas, dtype=np.float64)
        self.options = options
        EA = max(1, self.deltas.size)
        state = adwin_state_new(L * EA, options["max_buckets"], 64 if self.deltas.size else 1)
        self.state = tuple(a.reshape((L, EA) + a.shape[1:]) for a in state)
        self._x = np.empty(0, dtype=np.float64)  # scratch of limits(), kept across segments
        self._out = np.empty(0, dtype=np.int64)

    def kernel_args(self, lo: int, hi: int):
        """``(states, deltas, (clock, min_window, bound))`` of series ``lo:hi`` for a kernel that runs
        these ADWINs itself (:func:`streamtk._kernels.confusion.dense_adwin.run_adwin`)."""
        return tuple(s[lo:hi] for s in self.state), self.deltas, self._options()

    def _options(self):
        opts = self.options
        return np.int64(opts["clock"]), np.int64(opts["min_window"]), np.int64(ADWIN_BOUNDS[opts["bound"]])

    def limits(self, member: np.ndarray, loss: np.ndarray, l: int, out: np.ndarray) -> None:
        """Feed series ``l``'s members (``member`` positions, ``loss`` their 0/1 losses) to every ADWIN.

        ``out[a, i]`` receives the width of ADWIN ``a`` after position ``i`` (members only).
        """
        from .._kernels.adwin import adwin_run_one

        x = loss[member].astype(np.float64)
        width = np.empty(x.size, dtype=np.int64)
        none_f = np.empty(0, dtype=np.float64)
        none_i = np.empty(0, dtype=np.int8)
        for a, delta in enumerate(self.deltas):
            st = tuple(s[l, a] for s in self.state)
            params = (float(delta),) + self._options()
            adwin_run_one(x, st, params, (width, none_f, none_f, none_i))
            out[a, member] = width

    def prediction_limits(self, yt: np.ndarray, yp: np.ndarray, w: np.ndarray) -> np.ndarray:
        """The width of ADWIN ``a`` of series ``l`` after each position ``i``: ``out[l, a, i]`` (0 where not evaluated).

        ``yt`` (n,), ``yp`` (L, n), ``w`` (L, n) or (L, 0) (unweighted) are the positions' labels and
        the kernels' weights; a position of series ``l`` is evaluated when both labels are present (``>= 0``)
        and its weight is not negative (-1 marks an instance that is not evaluated), and its input to the
        series' ADWINs is its 0/1 loss. The result is a view of a buffer that the next call overwrites
        (reused pages: no page faults per segment).
        """
        from .._kernels.adwin import adwin_run_one

        L, n = yp.shape
        A = self.deltas.size
        if self._x.size < n or self._out.size < L * A * n:
            self._x = np.empty(n, dtype=np.float64)
            self._out = np.empty(L * A * n, dtype=np.int64)
        out = self._out[: L * A * n].reshape(L, A, n)
        none_f = np.empty(0, dtype=np.float64)
        none_i = np.empty(0, dtype=np.int8)
        labelled = n == 0 or int(yt.min()) >= 0
        for l in range(L):
            pred = yp[l]
            dense = labelled and (n == 0 or int(pred.min()) >= 0) and (w.shape[1] == 0 or bool(w[l].min() >= 0))
            if dense:  # every position is evaluated: the loss and the widths in place
                member = None
                x = np.not_equal(yt, pred, out=self._x[:n])
            else:
                member = (yt >= 0) & (pred >= 0)
                if w.shape[1]:
                    member &= w[l] >= 0
                x = np.not_equal(yt[member], pred[member], out=self._x[: int(np.count_nonzero(member))])
            m = x.size
            for a in range(A):
                params = (float(self.deltas[a]),) + self._options()
                state = tuple(s[l, a] for s in self.state)
                adwin_run_one(x, state, params, (out[l, a, :m], none_f, none_f, none_i))
                if member is not None:
                    width = out[l, a, :m].copy()
                    out[l, a] = 0
                    out[l, a, member] = width
        return out

    def buckets(self, l: int, a: int):
        """``(counts per row, index of the oldest row)`` of ADWIN ``a`` of series ``l``."""
        from .._kernels.adwin import LAST_ROW

        return self.state[2][l, a], int(self.state[3][l, a, LAST_ROW])
