"""Page-Hinkley change detection on a stream or on its prequential error estimates.

Two named variants of the test (Gama, Sebastiao & Rodrigues 2013,
``seeds/004_*.txt`` section 5.1; Gama 2014 slides ``seeds/002_*.txt``):

``variant="gama2013"``
    ``m_T = sum_{t<=T} (x_t - xbar_t - delta)`` with ``xbar_t = (1/t) sum_{s<=t} x_s``
    the running mean (as in Algorithm 4: ``m_T(i) = m_T(i-1) + R(i) - SR(i)/i - delta``),
    ``M_T = min_{t<=T} m_t``, ``PH_T = m_T - M_T``; alarm when ``PH_T > lambda``.
``variant="moa"``
    MOA's ``PageHinkleyDM`` as released (the MOA jar shipped with capymoa 0.15.1;
    ``shared/DESIGN.md`` section 4): ``xbar += (x - xbar) / c``,
    ``S = alpha S + (x - xbar - delta)``, alarm when ``S > lambda`` (the faded sum
    itself, no minimum) and MOA's counter ``c`` (1 after a reset, incremented
    after each input) has reached ``min_instances``, i.e. from the
    ``(min_instances - 1)``-th input after a (re)start; the test restarts after
    an alarm. Defaults ``delta=0.005, lambda_=50, alpha=0.9999,
    min_instances=30`` as in MOA. MOA's development source (and river's
    ``PageHinkley``) also track the minimum ``M = min S`` and alarm on
    ``S - M > lambda``; that is not what released MOA does and not what this
    variant computes.

The test can monitor the raw input or a prequential estimate of it (Gama 2013
section 5.2, Table 2): cumulative (``prequential=True``), sliding windows
(``windows=``), fading factors (``fading=``), and the ratio of a short-term to a
long-term estimate (section 5.3, Algorithm 4: ``fading_ratio=[(alpha1, alpha2)]``
with ``alpha1 > alpha2``; two-window analogue ``window_ratio=[(w1, w2)]`` with
``w1 > w2``); ``R = M_short / M_long``.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._core.mechanisms import build_estimators
from .._core.validation import check_choice, check_fading_factor, check_window
from .._kernels import detectors as K
from .._kernels import detectors_ph as KL
from ._common import (
    ChunkedDetector,
    GridParam,
    check_bool,
    check_nonnegative_int,
    check_nonnegative_real,
    group_settings,
    run_rows,
    run_with_capacity,
)

__all__ = ["PageHinkley", "page_hinkley"]

_VARIANTS = ("gama2013", "moa")
_DIRECTIONS = ("increase", "decrease", "both")
# Which kernel runs a grid: the scalar kernel costs about _NS_PER_TEST ns per input and distinct test
# (settings that differ only in lambda / min_instances share one test), the SIMD-lane kernel about
# _NS_PER_LANE_GROUP ns per input and group of 16 settings, whatever they are (single core, AMD EPYC
# Zen 4, measured with benchmarks/bench_detectors.py); the cheaper one is chosen.
_NS_PER_TEST = {"raw": 2.2, "estimate": 4.5}
_NS_PER_LANE_GROUP = 30.0
_DEFAULTS = {
    "gama2013": {"delta": 0.1, "lambda_": 100.0, "alpha": 1.0, "min_instances": 1},
    "moa": {"delta": 0.005, "lambda_": 50.0, "alpha": 0.9999, "min_instances": 30},
}


def _check_ratio_pair(pair, name, check, kind):
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        raise TypeError(f"{name} must hold pairs (long, short), got {pair!r}")
    long_, short = check(pair[0], name), check(pair[1], name)
    if not long_ > short:
        raise ValueError(f"{name} pairs must have the long-term {kind} first (larger), got {tuple(pair)!r}")
    return long_, short


def _monitored(prequential, windows, fading, fading_ratio, window_ratio):
    """The monitored quantities: (labels, kinds, w1, w2, a1, a2, coords) or None for raw input."""
    prequential = check_bool(prequential, "prequential")
    has_std = prequential or np.size(windows) > 0 or np.size(fading) > 0
    fr = [
        _check_ratio_pair(p, "fading_ratio", _check_ratio_alpha, "fading factor")
        for p in _pairs(fading_ratio, "fading_ratio")
    ]
    wr = [_check_ratio_pair(p, "window_ratio", check_window, "window") for p in _pairs(window_ratio, "window_ratio")]
    if len(set(fr)) != len(fr) or len(set(wr)) != len(wr):
        raise ValueError("fading_ratio / window_ratio contain a repeated pair")
    if not (has_std or fr or wr):
        return None
    specs = build_estimators(windows, fading, prequential=prequential) if has_std else []
    kinds, w1, w2, a1, a2 = [], [], [], [], []
    for s in specs:
        kinds.append({"prequential": K.EST_PREQUENTIAL, "window": K.EST_WINDOW, "fading": K.EST_FADING}[s.kind])
        w1.append(s.param if s.kind == "window" else 0)
        a1.append(s.param if s.kind == "fading" else 1.0)
        w2.append(0)
        a2.append(1.0)
    labels = [s.label for s in specs]
    ekind = [s.kind for s in specs]
    p1 = [s.param_value for s in specs]
    p2 = [np.nan] * len(specs)
    for al, ash in fr:
        kinds.append(K.EST_FADING_RATIO)
        w1.append(0), w2.append(0), a1.append(al), a2.append(ash)
        labels.append(f"fading_ratio={al!r}/{ash!r}")
        ekind.append("fading_ratio"), p1.append(al), p2.append(ash)
    for wl, ws in wr:
        kinds.append(K.EST_WINDOW_RATIO)
        w1.append(wl), w2.append(ws), a1.append(1.0), a2.append(1.0)
        labels.append(f"window_ratio={wl!r}/{ws!r}")
        ekind.append("window_ratio"), p1.append(float(wl)), p2.append(float(ws))
    coords = {
        "estimator": ("estimator", np.array(labels).astype(str)),
        "estimator_kind": ("estimator", np.array(ekind).astype(str)),
        "estimator_param": ("estimator", np.array(p1, dtype=np.float64)),
        "estimator_param2": ("estimator", np.array(p2, dtype=np.float64)),
    }
    arrays = (
        np.array(kinds, dtype=np.int64),
        np.array(w1, dtype=np.int64),
        np.array(w2, dtype=np.int64),
        np.array(a1, dtype=np.float64),
        np.array(a2, dtype=np.float64),
    )
    return labels, arrays, coords


def _check_ratio_alpha(value, name):
    value = check_fading_factor(value, name)
    if value == 1.0:
        raise ValueError(f"{name} fading factors must be < 1 (Algorithm 4), got {value!r}")
    return value


def _pairs(value, name):
    if value is None:
        return []
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, numbers.Real) for v in value):
        return [value]
    try:
        return list(value)
    except TypeError:
        raise TypeError(f"{name} must be a pair or a list of pairs, got {value!r}") from None


class PageHinkley(ChunkedDetector):
    """Page-Hinkley test(s) over a stream processed in one pass or chunk by chunk.

    Same parameters as :func:`page_hinkley`; call ``update(chunk)`` for every chunk
    (shape ``(..., m)``) and ``result()`` for the Dataset. Chunked processing gives
    results identical to one pass (the last ``max(window)`` inputs are carried for
    the sliding windows).
    """

    title = "Page-Hinkley change detection"

    def __init__(self, *, variant="gama2013", delta=None, lambda_=None, alpha=None, min_instances=None,
                 direction="increase", reset=True, prequential=False, windows=(), fading=(),
                 fading_ratio=(), window_ratio=(), trace=True, lead_dims=None):  # fmt: skip
        variant = check_choice(variant, "variant", _VARIANTS)
        direction = check_choice(direction, "direction", _DIRECTIONS)
        reset = check_bool(reset, "reset")
        d = _DEFAULTS[variant]
        if variant == "gama2013" and alpha is not None and alpha != 1.0:
            raise ValueError(
                f"alpha (the fading of the cumulative sum) exists only in variant='moa'; got alpha={alpha!r} "
                "with variant='gama2013'"
            )
        mon = _monitored(prequential, windows, fading, fading_ratio, window_ratio)
        grid = []
        if mon is not None:
            labels, self._est_arrays, self._est_coords = mon
            grid.append(GridParam("estimator", list(labels), lambda v, n: v))
        else:
            self._est_arrays = (np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64),
                                np.ones(1), np.ones(1))  # fmt: skip
            self._est_coords = {}
        grid.append(GridParam("delta", d["delta"] if delta is None else delta, check_nonnegative_real))
        grid.append(
            GridParam("lambda_", d["lambda_"] if lambda_ is None else lambda_, check_nonnegative_real, dim="lambda")
        )
        grid.append(GridParam("alpha", d["alpha"] if alpha is None else alpha, check_fading_factor))
        grid.append(GridParam("min_instances", d["min_instances"] if min_instances is None else min_instances,
                              check_nonnegative_int))  # fmt: skip
        params = {
            "variant": variant, "direction": direction, "reset": reset,
            "delta": grid[-4].values, "lambda": grid[-3].values, "alpha": grid[-2].values,
            "min_instances": grid[-1].values, "monitored": "raw input" if mon is None else list(labels),
            "reference": "Gama, Sebastiao & Rodrigues (2013) section 5, Algorithm 4; MOA PageHinkleyDM",
        }  # fmt: skip
        super().__init__(grid=grid, trace=trace, lead_dims=lead_dims, params=params)
        self.variant, self.direction, self.reset = variant, direction, reset
        labels_index = {lab: i for i, lab in enumerate(labels)} if mon is not None else None
        self._sest = np.array([labels_index[s["estimator"]] if mon is not None else 0 for s in self.settings], np.int64)
        self._delta = np.array([s["delta"] for s in self.settings], np.float64)
        self._lam = np.array([s["lambda_"] for s in self.settings], np.float64)
        self._alpha = np.array([s["alpha"] for s in self.settings], np.float64)
        mins = np.array([s["min_instances"] for s in self.settings], np.int64)
        # MOA's counter is 1 after a reset and is incremented before the check
        self._min_count = np.maximum(mins - 1, 0) if variant == "moa" else mins
        n_set = len(self.settings)
        self._moa = variant == "moa"
        self._direction = _DIRECTIONS.index(direction)
        # settings with the same test state (differing only in lambda / min_instances) share one test
        self._gmembers, self._gstart = group_settings(
            [(int(self._sest[q]), self._delta[q], self._alpha[q]) for q in range(n_set)]
        )
        w1, w2 = self._est_arrays[1:3]
        self._max_window = int(max(w1.max(initial=0), w2.max(initial=0)))
        # many distinct tests on non-ratio estimates: one SIMD lane per setting (detectors_ph.py)
        n_tests = len(self._gstart) - 1
        scalar_ns = n_tests * _NS_PER_TEST["estimate" if mon is not None else "raw"]
        lanes_ns = _NS_PER_LANE_GROUP * -(-len(self.settings) // KL.LANES)
        self._use_lanes = bool(
            scalar_ns > lanes_ns
            and direction != "both"
            and not np.isin(self._est_arrays[0], (K.EST_FADING_RATIO, K.EST_WINDOW_RATIO)).any()
        )
        if self._use_lanes:
            self._lp, self._lw, self._lane_set, self._mon_lane = self._lanes()
        # settings that restarts separate from their group's shared test run on SIMD lanes when a group
        # can have enough of them; otherwise the kernel compiled without that code (2 s less to compile)
        self._grid_kernel = K.page_hinkley_grid_shared_lanes if (
            self.reset and not self.trace and direction != "both"
            and int(np.diff(self._gstart).max(initial=0)) >= K.MIN_SHARED_LANES
        ) else K.page_hinkley_grid  # fmt: skip

    def _lanes(self):
        """Lane tables of :func:`~streamtk._kernels.detectors_ph.page_hinkley_lanes`: one lane per
        setting, padded to a multiple of ``LANES`` with lanes that never alarm."""
        kinds, w1, _, a1, _ = self._est_arrays
        n_set = len(self.settings)
        n_lanes = -(-n_set // KL.LANES) * KL.LANES
        lp = np.zeros((KL.N_LANE_PARAMS, n_lanes))
        lp[[KL.LP_W, KL.LP_LAMBDA], :] = np.inf  # padding: the raw input (a = 0), never alarming
        lp[KL.LP_ALPHA] = 1.0
        lw = np.zeros(n_lanes, np.int64)
        kind = kinds[self._sest]
        lp[KL.LP_A, :n_set] = np.select([kind == K.EST_FADING, kind == K.EST_RAW], [a1[self._sest], 0.0], 1.0)
        is_win = kind == K.EST_WINDOW
        lp[KL.LP_W, :n_set] = np.where(is_win, w1[self._sest], np.inf)
        lw[:n_set] = np.where(is_win, w1[self._sest], 0)
        lp[KL.LP_DELTA, :n_set] = self._delta
        lp[KL.LP_LAMBDA, :n_set] = self._lam
        lp[KL.LP_ALPHA, :n_set] = self._alpha
        lp[KL.LP_MIN_COUNT, :n_set] = self._min_count
        lane_set = np.full(n_lanes, -1, np.int64)
        lane_set[:n_set] = np.arange(n_set)
        mon_lane = np.array([int(np.flatnonzero(self._sest == e)[0]) for e in range(kinds.shape[0])], np.int64)
        return lp, lw, lane_set, mon_lane

    def _setup(self, n_rows):
        if self._use_lanes:
            n_lanes = self._lp.shape[1]
            self._est_state = np.zeros((n_rows, KL.EST_LANE_STATE, n_lanes))
            self._ph_state = np.zeros((n_rows, KL.PH_LANE_STATE, n_lanes))
            self._ph_state[:, 3] = np.inf  # the running minimum
            self._in_sync = np.zeros((n_rows, 0), np.bool_)
        else:
            n_est = self._est_arrays[0].shape[0]
            self._est_state = np.zeros((n_rows, n_est, K.EST_STATE_SIZE))
            self._ph_state = np.zeros((n_rows, len(self.settings), K.PH_STATE_SIZE))
            self._ph_state[:, :, 3] = np.inf  # the running minima (ph_reset)
            self._ph_state[:, :, 5] = np.inf
            self._in_sync = np.ones((n_rows, len(self.settings)), np.bool_)
        self._tail = np.zeros((n_rows, 0))

    def _run(self, x2d, count0):
        n_rows, m = x2d.shape
        h = self._tail.shape[1]
        xx = np.concatenate([self._tail, x2d], axis=1) if h else np.ascontiguousarray(x2d)
        n_set = len(self.settings)
        n_est = self._est_arrays[0].shape[0]
        shp_s = (n_rows, n_set, m) if self.trace else (0, 0, 0)
        # the raw input is not copied into a "monitored" variable
        shp_e = (n_rows, n_est, m) if self.trace and self._est_coords else (0, 0, 0)

        def once(det_idx, det_n):
            mon = np.empty(shp_e)
            stat = np.empty(shp_s)
            det = np.empty(shp_s, dtype=np.bool_)

            def rows(a, b):
                if self._use_lanes:
                    KL.page_hinkley_lanes(
                        xx[a:b], h, count0, self._lp, self._lw, self._est_state[a:b], self._ph_state[a:b],
                        self._lane_set, self._mon_lane, self._moa, self._direction == 0, self.reset,
                        self.trace, mon[a:b], stat[a:b], det[a:b], det_idx[a:b], det_n[a:b],
                    )  # fmt: skip
                else:
                    self._grid_kernel(
                        xx[a:b], h, count0, *self._est_arrays, self._est_state[a:b],
                        self._sest, self._delta, self._lam, self._alpha, self._min_count,
                        self._moa, self._direction, self.reset, self._gstart, self._gmembers,
                        self._ph_state[a:b], self._in_sync[a:b], self.trace, mon[a:b], stat[a:b], det[a:b],
                        det_idx[a:b], det_n[a:b],
                    )  # fmt: skip

            run_rows(rows, n_rows)
            return {"monitored": mon, "statistic": stat, "detection": det}

        states = [self._est_state, self._ph_state, self._in_sync]
        trace, det_idx, det_n = run_with_capacity(once, states, n_rows, n_set, m)
        keep = min(self._max_window, xx.shape[1])
        self._tail = np.ascontiguousarray(xx[:, xx.shape[1] - keep :]) if keep else np.zeros((n_rows, 0))
        return trace, det_idx, det_n

    def _trace_meta(self):
        meta = {
            "monitored": ("estimator", {
                "long_name": "monitored estimate of the input",
                "description": "the value fed to the Page-Hinkley test; NaN where a ratio is undefined (0/0)",
            }),
            "statistic": ("setting", {
                "long_name": "Page-Hinkley statistic S_T = alpha S_(T-1) + (x_T - mean_T - delta) (MOA)"
                if self._moa else "Page-Hinkley statistic PH_T = m_T - min m_t",
                "description": "for direction='both' the larger of the increase and decrease statistics; NaN on "
                               "steps skipped because the monitored value is undefined",
            }),
            "detection": ("setting", {"long_name": "change detected at this instance"}),
        }  # fmt: skip
        if not self._est_coords:
            del meta["monitored"]
        return meta

    def _constant_vars(self):
        return {"threshold": (lambda s: s["lambda_"], {"long_name": "detection threshold lambda"})}

    def _estimator_dims(self):
        if self._est_coords:
            return ("estimator",), (len(self._est_coords["estimator"][1]),)
        return (), ()

    def _extra_coords(self):
        return dict(self._est_coords)


def page_hinkley(x, *, variant="gama2013", delta=None, lambda_=None, alpha=None, min_instances=None,
                 direction="increase", reset=True, prequential=False, windows=(), fading=(),
                 fading_ratio=(), window_ratio=(), trace=True, lead_dims=None):  # fmt: skip
    r"""Page-Hinkley change detection over recorded streams, many settings in one pass.

    Parameters
    ----------
    x : array_like or xarray.DataArray, shape (..., n)
        The monitored stream (e.g. a classifier's 0/1 loss); leading dims
        (models, runs) are processed in parallel. Must be finite.
    variant : {"gama2013", "moa"}
        ``"gama2013"`` (Gama et al. 2013, section 5.1):
        :math:`m_T = \sum_{t=1}^T (x_t - \bar x_t - \delta)`,
        :math:`PH_T = m_T - \min_{t \le T} m_t`, alarm when :math:`PH_T > \lambda`,
        with the running mean :math:`\bar x_t = \frac1t\sum_{s\le t} x_s` (read as in
        Algorithm 4; the mean "till the current moment"). ``"moa"``: MOA's
        released ``PageHinkleyDM``: incremental mean
        :math:`\bar x \leftarrow \bar x + (x - \bar x)/c`, cumulative sum faded by
        ``alpha``, :math:`S \leftarrow \alpha S + (x - \bar x - \delta)`, alarm
        when :math:`S > \lambda` (no minimum of :math:`S`), ``min_instances``
        warm-up with MOA's counter (identical detection indices to MOA's
        ``PageHinkleyDM`` through capymoa, tested).
    delta, lambda_ : float or sequence of float, >= 0
        Allowed change magnitude and threshold. Defaults: ``gama2013`` 0.1 and 100
        (the setup of Gama et al. Table 2), ``moa`` 0.005 and 50.
    alpha : float or sequence, in (0, 1], only for ``variant="moa"`` (default 0.9999).
    min_instances : int or sequence
        No alarm before this many inputs since the (re)start (``gama2013``, default
        1) or before MOA's counter reaches it (``moa``, default 30).
    direction : {"increase", "decrease", "both"}
        Detect a rise of the mean (as in the paper and MOA), a fall (the same test
        on ``-x``), or either (the larger statistic; one reset restarts both).
    reset : bool
        Restart the test after each alarm (MOA always does). The estimators of
        the monitored quantity are never reset (they describe the input).
    prequential, windows, fading, fading_ratio, window_ratio
        Monitor a prequential estimate instead of the raw input (Gama et al.
        2013 Table 2: ``windows=[1000, ..., 5000]``, ``fading=[0.997, ...,
        0.9994]``; Table 3: ``fading_ratio=[(0.9994, 0.997)]``,
        ``window_ratio=[(5000, 1000)]``). Windows report the mean over
        ``min(i, w)`` inputs (Algorithm 2). Any of them gives an ``estimator``
        dimension.
    trace : bool
        Keep the per-step ``statistic``, ``threshold``, ``detection`` (and
        ``monitored`` for estimates) variables (memory ``~ 9 bytes x n x
        settings``); with
        ``False`` only the detection indices are kept.
    lead_dims : str or sequence of str, optional
        Names of the leading dims of a numpy ``x`` (default ``model, fold, run``).

    Returns
    -------
    xarray.Dataset
        Dims ``(*lead, [estimator, delta, lambda, alpha, min_instances], time)``,
        a grid dim only for a parameter given as a sequence; variables
        ``statistic``, ``threshold``, ``detection`` and, when an estimate is
        monitored, ``monitored`` (per step, if ``trace``), ``n_detections`` and ``detection_index`` (0-based, padded
        with -1 along ``detection_number``); coordinate ``instance`` (1-based).

    Notes
    -----
    Every grid setting gives exactly the detections of a separate call with
    that setting (tested). In one pass each monitored quantity is computed once,
    and settings that differ only in ``lambda_`` / ``min_instances`` share one
    test until a restart after an alarm separates them (with ``reset=False``
    they share it throughout), so a threshold sweep costs little more than one
    test. Once separated, such settings run side by side on SIMD lanes (8 per
    vector, when at least 3 have their own states and no per-step trace is
    written; :func:`streamtk._kernels.detectors_ph.shared_lanes_run`), at about
    a quarter of their cost one by one. A grid of many distinct tests on the raw input or on cumulative,
    windowed or faded estimates (e.g. Gama et al. Table 2: 5 windows and 5
    fading factors) runs instead on a kernel that steps 16 tests side by side
    with SIMD instructions (:mod:`streamtk._kernels.detectors_ph`; chosen by a
    cost model when it is the cheaper one; same results bit for bit, tested).
    Steps where a ratio is undefined (the long-term
    estimate is 0, so ``R = 0/0``) are skipped by the test: its state is
    unchanged, the statistic is NaN and no alarm is possible there. Algorithm 4
    alarms on ``PH_T >= lambda``; here both variants alarm on a statistic
    ``> lambda`` as section 5.1 (and MOA) state (they differ only when the
    statistic equals ``lambda`` exactly). With ``variant="moa"`` the per-step
    ``statistic`` is MOA's faded sum ``S``, which can be negative.

    See Also
    --------
    river.drift.PageHinkley : MOA's form with ``mode="up"/"down"/"both"``, but it
        alarms on ``S - min S > lambda`` (as MOA's development source does), so
        its detections differ from ``variant="moa"``.
    moa.classifiers.core.driftdetection.PageHinkleyDM : ``variant="moa"`` (as
        released: ``S > lambda``).
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
        variant=variant, delta=delta, lambda_=lambda_, alpha=alpha, min_instances=min_instances,
        direction=direction, reset=reset, prequential=prequential, windows=windows, fading=fading,
        fading_ratio=fading_ratio, window_ratio=window_ratio, trace=trace, lead_dims=lead_dims,
    )  # fmt: skip
    return det.update(x).result()
