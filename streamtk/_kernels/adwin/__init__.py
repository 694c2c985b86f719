"""ADWIN2 (adaptive windowing with an exponential histogram) as numba kernels, MOA's algorithm bit for bit.

One algorithm, three modules: :mod:`.histogram` (state layout; the arithmetic of an insertion, a
merge, a deletion), :mod:`.scan` (the cut scan with its exact filter; the cut rules ``bernstein``,
MOA's, and ``hoeffding``, Bifet et al. 2015, Theorem 3) and :mod:`.run` (one input on one instance
of a state, and the loop over a chunk). Used by the detector (:mod:`streamtk.drift.adwin`), the
``adwin=`` windows of every statistics family (:mod:`streamtk._core.adwin`) and MOA's
ADWIN evaluator (:mod:`streamtk._kernels.confusion.moa_adwin`).
"""

from .histogram import (
    LAST_ROW,
    MIN_WIDTH_FOR_CHECK,
    N_DETECTIONS,
    TICK,
    TOTAL,
    VARIANCE,
    WIDTH,
    XMAX,
    adwin_capacity,
    adwin_mean,
    adwin_rows,
    adwin_start,
    adwin_state_new,
    adwin_variance,
    adwin_width,
    adwin_work_new,
)
from .run import adwin_run, adwin_run_one, adwin_update
from .scan import BERNSTEIN, BOUND_CODES, HOEFFDING

__all__ = [
    "BERNSTEIN",
    "BOUND_CODES",
    "HOEFFDING",
    "LAST_ROW",
    "MIN_WIDTH_FOR_CHECK",
    "N_DETECTIONS",
    "TICK",
    "TOTAL",
    "VARIANCE",
    "WIDTH",
    "XMAX",
    "adwin_capacity",
    "adwin_mean",
    "adwin_rows",
    "adwin_run",
    "adwin_run_one",
    "adwin_start",
    "adwin_state_new",
    "adwin_update",
    "adwin_variance",
    "adwin_width",
    "adwin_work_new",
]
