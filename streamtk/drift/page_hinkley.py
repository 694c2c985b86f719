"""Page-Hinkley change detection on a stream or on an estimate of its mean.

Two named conventions of the test (Gama, Sebastiao & Rodrigues 2013, ``seeds/004_*.txt`` section
5.1; Gama 2014 slides ``seeds/002_*.txt``):

``convention="streamtk"`` (default: the paper's test)
    ``m_T = sum_{t<=T} (x_t - xbar_t - delta)`` with ``xbar_t = (1/t) sum_{s<=t} x_s`` the running
    mean (as in Algorithm 4: ``m_T(i) = m_T(i-1) + R(i) - SR(i)/i - delta``), ``M_T = min_{t<=T}
    m_t``, ``PH_T = m_T - M_T``; alarm when ``PH_T > lambda``.
``convention="moa"``
    MOA's ``PageHinkleyDM`` as released (the MOA jar shipped with capymoa; ``shared/DESIGN.md``
    section 4): ``xbar += (x - xbar) / c``, ``S = f S + (x - xbar - delta)`` with ``f`` the
    ``sum_fading`` (MOA's ``alpha``), alarm when ``S > lambda`` (the faded sum itself, no minimum) and
    MOA's counter ``c`` (1 after a reset, incremented after each input) has reached
    ``min_instances``, i.e. from the ``(min_instances - 1)``-th input after a (re)start; the test
    restarts after an alarm. MOA's development source (and river's ``PageHinkley``) also track the
    minimum ``M = min S`` and alarm on ``S - M > lambda``; that is not what released MOA does.

The test can monitor the raw input or an estimate of its mean (Gama 2013 section 5.2, Table 2)
under any forgetting mechanism of :mod:`streamtk._core.mechanisms` (``prequential``, ``windows``,
``fading``, ``tumbling``, ``landmarks``), and the ratio of a short-term to a long-term estimate
(section 5.3, Algorithm 4: ``fading_ratio=[(a_long, a_short)]``; two-window analogue
``window_ratio=[(w_long, w_short)]``); ``R = M_short / M_long``. Kernels:
:mod:`streamtk._kernels.detectors`.
"""

from __future__ import annotations

import numpy as np

from .._core.mechanisms import MONITORABLE, forgetting_parameters
from .._core.validation import check_choice, check_fading_factor
from .._kernels.detectors import page_hinkley as K
from .._kernels.detectors import ph_lanes as KL
from ._common import (
    ChunkedDetector,
    GridParam,
    check_bool,
    check_nonnegative_int,
    check_nonnegative_real,
)
from ._ph_plan import LANE_KINDS, monitored_quantities, test_groups, x_lane_tables

__all__ = ["PageHinkley", "page_hinkley", "CONVENTIONS", "DEFAULTS"]

CONVENTIONS = ("streamtk", "moa")
_DIRECTIONS = ("increase", "decrease", "both")
#: default parameters of each convention: Gama et al. 2013 Table 2's setup, and MOA's PageHinkleyDM
DEFAULTS = {
    "streamtk": {"delta": 0.1, "lambda_": 100.0, "sum_fading": 1.0, "min_instances": 1},
    "moa": {"delta": 0.005, "lambda_": 50.0, "sum_fading": 0.9999, "min_instances": 30},
}
# Which path runs a grid (single core, benchmarks/bench_detectors.py): the general path costs about
# _NS_PER_TEST ns per input and distinct test (settings that differ only in lambda / min_instances share
# one test), the x-lanes (every setting a lane with its own estimate) about _NS_PER_LANE_GROUP ns per input
# and group of LANES settings; the cheaper one is taken. Settings that restarts separate from their
# group's test run on raw lanes when a group can have at least _MIN_RAW_LANES of them.
_NS_PER_TEST = {"raw": 2.2, "estimate": 4.5}
_NS_PER_LANE_GROUP = 30.0
_MIN_RAW_LANES = 3


class PageHinkley(ChunkedDetector):
    """Page-Hinkley test(s) over a stream processed in one pass or chunk by chunk.

    Same parameters as :func:`page_hinkley`; call ``update(chunk)`` for every chunk (shape
    ``(..., m)``) and ``result()`` for the Dataset. Chunked processing gives results identical to one
    pass (the last ``max(window)`` inputs are carried for the sliding windows).
    """

    title = "Page-Hinkley change detection"

    @forgetting_parameters(*MONITORABLE)
    def __init__(self, *, convention="streamtk", delta=None, lambda_=None, sum_fading=None, min_instances=None,
                 direction="increase", reset=True, prequential=False, fading_ratio=(), window_ratio=(), trace=True,
                 lead_dims=None, **forgetting):  # fmt: skip
        convention = check_choice(convention, "convention", CONVENTIONS)
        direction = check_choice(direction, "direction", _DIRECTIONS)
        reset = check_bool(reset, "reset")
        d = DEFAULTS[convention]
        if convention == "streamtk" and sum_fading is not None and np.any(np.asarray(sum_fading) != 1.0):
            raise ValueError(
                f"sum_fading (the fading of the cumulative sum) exists only in convention='moa'; got "
                f"sum_fading={sum_fading!r} with convention='streamtk'"
            )
        self._mon = mon = monitored_quantities(prequential, fading_ratio, window_ratio, forgetting)
        grid = [] if mon.raw else [GridParam("estimator", mon.labels, lambda v, n: v)]
        grid += [
            GridParam("delta", d["delta"] if delta is None else delta, check_nonnegative_real),
            GridParam("lambda_", d["lambda_"] if lambda_ is None else lambda_, check_nonnegative_real, dim="lambda"),
            GridParam("sum_fading", d["sum_fading"] if sum_fading is None else sum_fading, check_fading_factor),
            GridParam("min_instances", d["min_instances"] if min_instances is None else min_instances,
                      check_nonnegative_int),
        ]  # fmt: skip
        params = {
            "convention": convention, "direction": direction, "reset": reset,
            **{p.dim: p.values for p in grid[-4:]},
            "monitored": "raw input" if mon.raw else mon.labels,
            "reference": "Gama, Sebastiao & Rodrigues (2013) section 5, Algorithm 4; MOA PageHinkleyDM",
        }  # fmt: skip
        super().__init__(grid=grid, trace=trace, lead_dims=lead_dims, params=params)
        self.convention, self.direction, self.reset = convention, direction, reset
        rows = dict(mon.outputs)
        sest = np.array([rows[s["estimator"]] if not mon.raw else 0 for s in self.settings], np.int64)
        delta_ = np.array([s["delta"] for s in self.settings], np.float64)
        lam = np.array([s["lambda_"] for s in self.settings], np.float64)
        fade = np.array([s["sum_fading"] for s in self.settings], np.float64)
        mins = np.array([s["min_instances"] for s in self.settings], np.int64)
        # MOA's counter is 1 after a reset and is incremented before the check
        min_count = np.maximum(mins - 1, 0) if convention == "moa" else mins
        members, gstart = test_groups(sest, delta_, fade)
        n_tests, P = len(gstart) - 1, len(self.settings)
        # the test's form as argument types the kernels specialise on: (MOA's form, increase, decrease), True or None
        self._form = tuple(True if on else None for on in (convention == "moa", direction != "decrease",
                                                             direction != "increase"))  # fmt: skip
        scalar_ns = n_tests * _NS_PER_TEST["raw" if mon.raw else "estimate"]
        E = mon.kinds.shape[0]
        self._use_lanes = bool(
            direction != "both"
            and (sest < E).all()
            and np.isin(mon.kinds[np.minimum(sest, E - 1)], LANE_KINDS).all()
            and scalar_ns > _NS_PER_LANE_GROUP * -(-P // KL.LANES)
        )
        if self._use_lanes:  # every setting is a lane: no shared tests
            members, gstart = np.arange(P, dtype=np.int64), np.zeros(1, np.int64)
            self._xl = x_lane_tables(mon, sest, delta_, lam, fade, min_count)
        self._sets = (sest, delta_, lam, fade, min_count, gstart, members)
        self._raw_lanes = bool(
            not self._use_lanes and reset and not self.trace and direction != "both"
            and int(np.diff(gstart).max(initial=0)) >= _MIN_RAW_LANES
        )  # fmt: skip

    def _setup(self, n_rows):
        mon = self._mon
        E, P, G = mon.kinds.shape[0], len(self.settings), self._sets[5].shape[0] - 1
        self._est_f = np.zeros((n_rows, E, 3))
        self._est_f[..., 2] = 1.0  # the lazy fading multiplier
        self._est_i = np.zeros((n_rows, E, 1), np.int64)
        self._ph = np.zeros((n_rows, G + P, 6))
        self._ph[..., 3] = np.inf  # the running minima
        self._ph[..., 5] = np.inf
        self._in_sync = np.full((n_rows, P), G > 0)  # every setting starts on its group's test
        self._xwk = np.broadcast_to(self._xl[0], (n_rows,) + self._xl[0].shape).copy() if self._use_lanes else None
        self._tail = np.zeros((n_rows, 0))

    def _run(self, x2d, count0):
        n_rows = x2d.shape[0]
        h = self._tail.shape[1]
        xx = np.concatenate([self._tail, x2d], axis=1) if h else np.ascontiguousarray(x2d)
        rows_out = self._mon.rows
        flags = (count0, self.reset)
        trace = {"statistic": (np.float64, None), "detection": (np.bool_, None)}
        trace["monitored"] = (np.float64, rows_out.size)

        def call(a, b, tr, rec):
            state = (self._est_f[a:b], self._est_i[a:b], self._ph[a:b], self._in_sync[a:b])
            xl = None if self._xwk is None else (self._xwk[a:b], *self._xl[1:])
            rl = (np.empty(KL.LANES * KL.LANE_ROWS), _MIN_RAW_LANES) if self._raw_lanes else None
            tr = None if tr is None else (*tr, rows_out)
            K.run((xx[a:b], h), self._mon.arrays, self._sets, flags, state, rec, tr, xl, rl, self._form)

        states = [self._est_f, self._est_i, self._ph, self._in_sync] + ([self._xwk] if self._use_lanes else [])
        result = self._run_rows(x2d, states, trace, call)
        keep = min(self._mon.max_window, xx.shape[1])
        self._tail = np.ascontiguousarray(xx[:, xx.shape[1] - keep :]) if keep else np.zeros((n_rows, 0))
        return result

    def _trace_meta(self):
        moa = self.convention == "moa"
        meta = {
            "monitored": ("estimator", {
                "long_name": "monitored estimate of the input",
                "description": "the value fed to the Page-Hinkley test; NaN where a ratio is undefined (0/0)",
            }),
            "statistic": ("setting", {
                "long_name": "Page-Hinkley statistic S_T = f S_(T-1) + (x_T - mean_T - delta) (MOA)"
                if moa else "Page-Hinkley statistic PH_T = m_T - min m_t",
                "description": "for direction='both' the larger of the increase and decrease statistics; NaN on "
                               "steps skipped because the monitored value is undefined",
            }),
            "detection": ("setting", {"long_name": "change detected at this instance"}),
        }  # fmt: skip
        if self._mon.raw:
            del meta["monitored"]
        return meta

    def _constant_vars(self):
        return {"threshold": (lambda s: s["lambda_"], {"long_name": "detection threshold lambda"})}

    def _estimator_dims(self):
        return ((), ()) if self._mon.raw else (("estimator",), (len(self._mon.outputs),))

    def _extra_coords(self):
        return dict(self._mon.coords)


@forgetting_parameters(*MONITORABLE)
def page_hinkley(x, *, convention="streamtk", delta=None, lambda_=None, sum_fading=None, min_instances=None,
                 direction="increase", reset=True, prequential=False, fading_ratio=(), window_ratio=(), trace=True,
                 lead_dims=None, **forgetting):  # fmt: skip
    r"""Page-Hinkley change detection over recorded streams, many settings in one pass.

    Parameters
    ----------
    x : array_like or xarray.DataArray, shape (..., n)
        The monitored stream (e.g. a classifier's 0/1 loss); leading dims (models, runs) are
        processed in parallel. Must be finite.
    convention : {"streamtk", "moa"}
        ``"streamtk"`` (Gama et al. 2013, section 5.1):
        :math:`m_T = \sum_{t=1}^T (x_t - \bar x_t - \delta)`, :math:`PH_T = m_T - \min_{t \le T} m_t`,
        alarm when :math:`PH_T > \lambda`, with the running mean
        :math:`\bar x_t = \frac1t\sum_{s\le t} x_s` (read as in Algorithm 4; the mean "till the
        current moment"). ``"moa"``: MOA's released ``PageHinkleyDM``: incremental mean
        :math:`\bar x \leftarrow \bar x + (x - \bar x)/c`, cumulative sum faded by ``sum_fading``,
        :math:`S \leftarrow f S + (x - \bar x - \delta)`, alarm when :math:`S > \lambda` (no minimum
        of :math:`S`), ``min_instances`` warm-up with MOA's counter (identical detection indices to
        MOA's ``PageHinkleyDM`` through capymoa, tested).
    delta, lambda_ : float or sequence of float, >= 0
        Allowed change magnitude and threshold. Defaults: ``streamtk`` 0.1 and 100 (the setup of
        Gama et al. Table 2), ``moa`` 0.005 and 50.
    sum_fading : float or sequence, in (0, 1], only for ``convention="moa"`` (default 0.9999)
        The fading of the cumulative sum (MOA's ``alpha``).
    min_instances : int or sequence
        No alarm before this many inputs since the (re)start (``streamtk``, default 1) or before
        MOA's counter reaches it (``moa``, default 30).
    direction : {"increase", "decrease", "both"}
        Detect a rise of the mean (as in the paper and MOA), a fall (the same test on ``-x``), or
        either (the larger statistic; one reset restarts both).
    reset : bool
        Restart the test after each alarm (MOA always does). The estimators of the monitored
        quantity are never reset (they describe the input).
    prequential, fading_ratio, window_ratio
        Monitor an estimate of the mean instead of the raw input: ``prequential=True`` the mean of
        every input so far; ``fading_ratio=[(a_long, a_short)]`` (``a_long > a_short``, both < 1)
        the ratio of two fading-factor means, Algorithm 4 (Table 3: ``[(0.9994, 0.997)]``);
        ``window_ratio=[(w_long, w_short)]`` its two-window analogue.
    {forgetting}
    trace : bool
        Keep the per-step ``statistic``, ``threshold``, ``detection`` (and ``monitored`` for
        estimates) variables (memory ``~ 9 bytes x n x settings``); with ``False`` only the
        detections are kept.
    lead_dims : str or sequence of str, optional
        Names of the leading dims of a numpy ``x`` (default ``model, fold, run``).

    Returns
    -------
    xarray.Dataset
        Dims ``(*lead, [estimator, delta, lambda, sum_fading, min_instances], time)``, a grid dim only
        for a parameter given as a sequence; variables ``statistic``, ``threshold``, ``detection``
        and, when an estimate is monitored, ``monitored`` (per step, if ``trace``), ``n_detections``
        and ``detection_index`` (0-based, padded with -1 along ``detection_number``); coordinate
        ``instance`` (1-based). Estimates (Gama et al. 2013, Algorithms 1-3): windows report the mean
        over ``min(i, w)`` inputs; a fading factor ``a`` weighs input ``s`` by ``a**(t - s)``; tumbling
        windows and landmarks restart the estimate (``estimator`` labels ``prequential``,
        ``window=<w>``, ``fading=<a>``, ``tumbling=<w>``, ``landmarks``, ``fading_ratio=<a>/<b>``,
        ``window_ratio=<w>/<v>``).

    Notes
    -----
    Every grid setting gives exactly the detections of a separate call with that setting (tested).
    In one pass each monitored quantity is computed once, and settings that differ only in
    ``lambda_`` / ``min_instances`` share one test until a restart after an alarm separates them
    (with ``reset=False`` they share it throughout), so a threshold sweep costs little more than one
    test; separated settings of a quantity run side by side on SIMD lanes when there are at least 3
    (and no per-step trace). A grid of many distinct tests on the raw input or on prequential,
    windowed or faded estimates (e.g. Gama et al. Table 2: 5 windows and 5 fading factors) runs
    every setting as a SIMD lane with its own estimate when a cost model says it is cheaper
    (:mod:`streamtk._kernels.detectors.ph_lanes`; the same step functions, the same results bit for
    bit, tested). Steps where a ratio is undefined (the long-term estimate is 0, so ``R = 0/0``) are
    skipped by the test: its state is unchanged, the statistic is NaN and no alarm is possible there.
    Algorithm 4 alarms on ``PH_T >= lambda``; here both conventions alarm on a statistic ``> lambda``
    as section 5.1 (and MOA) state. With ``convention="moa"`` the per-step ``statistic`` is MOA's
    faded sum ``S``, which can be negative.

    See Also
    --------
    river.drift.PageHinkley : MOA's form with ``mode="up"/"down"/"both"``, but it alarms on
        ``S - min S > lambda`` (as MOA's development source does), so its detections differ from
        ``convention="moa"``.
    moa.classifiers.core.driftdetection.PageHinkleyDM : ``convention="moa"`` (as released: ``S > lambda``).
    capymoa.drift.detectors.PageHinkley : the same MOA class from Python.

    Examples
    --------
    >>> import numpy as np
    >>> from streamtk.drift.page_hinkley import page_hinkley
    >>> x = np.r_[np.zeros(500), np.ones(500)]
    >>> ds = page_hinkley(x, delta=0.1, lambda_=[10.0, 100.0])
    >>> ds["detection_index"].values[:, 0].tolist()
    [511, 626]
    """
    det = PageHinkley(
        convention=convention, delta=delta, lambda_=lambda_, sum_fading=sum_fading, min_instances=min_instances,
        direction=direction, reset=reset, prequential=prequential, fading_ratio=fading_ratio,
        window_ratio=window_ratio, trace=trace, lead_dims=lead_dims, **forgetting,
    )  # fmt: skip
    return det.update(x).result()
