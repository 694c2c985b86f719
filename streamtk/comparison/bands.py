"""Bands of comparisons and the anytime-valid comparison of two models.

:class:`ComparisonBands` draws the bands of :func:`streamtk.compare` / :class:`streamtk.Comparator`
(``interval=``): every comparison metric that estimates something (``loss_a``, ``loss_b``, ``error_difference``,
``q``) gets ``<metric>_lower`` / ``<metric>_upper`` by the chosen method. With ``interval_method="sequence"``
the band of ``error_difference = loss_a - loss_b`` is a confidence sequence of the paired loss differences
(Waudby-Smith & Ramdas 2024 for the prequential estimator): it holds at every checkpoint at once, so

* ``a_better`` (``error_difference_upper < 0``) and ``b_better`` (``error_difference_lower > 0``) may be read at
  any checkpoint, and
* ``first_a_better`` / ``first_b_better``, the first checkpoint (its ``instance``) at which they hold, is a
  stopping time whose false-alarm probability is at most ``1 - interval`` however long the stream is watched:
  the honest companion of the per-checkpoint McNemar test (``reject``), whose chance of a false alarm at *some*
  checkpoint grows with the number of checkpoints (Gama et al. 2013, seed 004, section 4; Bifet et al. 2015, seed
  000, section 4).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.intervals.block_length import auto_block_length
from .._core.intervals.select import banded_metrics, check_sequence_estimators
from .._core.metrics.base import BOUND_SIDES
from .._labelled import band_attrs
from ..evaluation.sums_bands import SumsBands

__all__ = ["ComparisonBands", "SEQUENCE_VALUES"]

SEQUENCE_VALUES = ("loss_a", "loss_b", "loss_difference")


class ComparisonBands:
    """The bands of a comparison (``spec``: the band options, or None)."""

    def __init__(self, spec, specs):
        self.spec = spec
        self.specs = list(specs)
        self.banded = []
        self.bands = None
        if spec is not None and spec.method == "sequence":
            check_sequence_estimators(self.specs)

    def finalised(self, metrics) -> list:
        """The metrics the point engine finalises: ``metrics`` and, for analytic bands, their bounds."""
        self.banded, _ = banded_metrics(metrics, self.spec, explicit=False, sequence_values=SEQUENCE_VALUES)
        if self.spec is None or self.spec.method != "analytic":
            return list(metrics)
        return list(metrics) + [m.bound(side) for m in self.banded for side in BOUND_SIDES]

    def setup(self, every, adwin_options, jobs, n_rows, threshold, blocks=None) -> None:
        """Create the bootstrap / sequence part after the point engine (its ``jobs`` and output rows)."""
        if self.spec is None or self.spec.method == "analytic":
            return
        self.bands = SumsBands(
            self.specs, every, adwin_options, jobs, n_rows, self.banded, self.spec, threshold=threshold, blocks=blocks
        )

    def check_binary(self, binary: bool) -> None:
        """Refuse analytic bands of losses that are not 0-1 (the formulas are intervals of proportions)."""
        if self.spec is None or self.spec.method != "analytic" or binary:
            return
        names = [m.name for m in self.banded if m.analytic.needs == "binary_losses"]
        if names:
            raise ValueError(
                f"interval_method='analytic' does not apply to {names} of losses that are not 0 or 1: their "
                "intervals are those of proportions (Wilson, Agresti-Min); use interval_method='bootstrap'"
            )

    def update(self, loss, groups, present, *, last=False) -> None:
        if self.bands is not None:
            self.bands.update(loss, groups, present, last=last)

    def variables(self, positions, values, shape, dims, instance) -> dict:
        """The labelled bands (and, for sequences, the anytime decisions) on the comparison's ``dims``."""
        if self.spec is None:
            return {}
        vals = dict(values)
        if self.bands is not None:
            vals.update(self.bands.bands(positions, values))
        out = {}
        for m in self.banded:
            for side in BOUND_SIDES:
                name = f"{m.name}_{side}"
                if name in vals:
                    out[name] = xr.Variable(dims, shape(vals[name]), attrs=band_attrs(m, side, self.spec))
        lo, hi = vals.get("error_difference_lower"), vals.get("error_difference_upper")
        if self.spec.method == "sequence" and lo is not None:
            out.update(_decisions(shape(hi) < 0, shape(lo) > 0, dims, instance, self.spec.level))
        return out


def _first(flags, instance):
    """The ``instance`` of the first checkpoint where ``flags`` (``(..., time)``) holds, NaN when it never does."""
    any_ = flags.any(axis=-1)
    idx = flags.argmax(axis=-1)
    return np.where(any_, np.asarray(instance, dtype=np.float64)[idx], np.nan)


def _decisions(a_better, b_better, dims, instance, level) -> dict:
    note = (
        f"read from the {level:g} confidence sequence of error_difference: valid at every checkpoint at once "
        "(continuous monitoring), unlike the per-checkpoint McNemar test"
    )
    first_dims = dims[:-1]
    return {
        "a_better": xr.Variable(
            dims, a_better, {"long_name": "A has the smaller loss (error_difference_upper < 0)", "note": note}
        ),
        "b_better": xr.Variable(
            dims, b_better, {"long_name": "B has the smaller loss (error_difference_lower > 0)", "note": note}
        ),
        "first_a_better": xr.Variable(
            first_dims,
            _first(a_better, instance),
            {"long_name": "first checkpoint (instance) at which A is better, NaN if none", "units": "1", "note": note},
        ),
        "first_b_better": xr.Variable(
            first_dims,
            _first(b_better, instance),
            {"long_name": "first checkpoint (instance) at which B is better, NaN if none", "units": "1", "note": note},
        ),
    }


def difference_blocks(loss, groups, present) -> np.ndarray:
    """Per group, the block length chosen from its loss difference (one model: its loss) on the present instances."""
    out = np.ones(groups.shape[0], dtype=np.int64)
    for g, (a, b) in enumerate(groups):
        x = loss[a] if a == b else loss[a] - loss[b]
        if present is not None:
            x = x[present]
        out[g] = auto_block_length(x[None])[0]
    return out
