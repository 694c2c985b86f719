"""Page-Hinkley's plan: the monitored quantities, the grouping of settings and the kernel tables.

The numpy layer of :mod:`streamtk.drift.page_hinkley`. Monitored quantities are estimators of the
shared forgetting-mechanism registry (:mod:`streamtk._core.mechanisms`: ``prequential``, ``windows``,
``fading``, ``tumbling``, ``landmarks``) and ratios of two of them (Gama et al. 2013, Algorithm 4:
``fading_ratio``; its two-window analogue ``window_ratio``); the kernels are
:mod:`streamtk._kernels.detectors`.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._core.mechanisms import MONITORABLE, EstimatorSpec, build_estimators, kernel_arrays
from .._core.validation import check_fading_factor, check_window
from .._kernels.detectors import monitored as KM
from .._kernels.detectors import ph_lanes as KL
from .._kernels.forgetting import EWMA, FADING, PREQUENTIAL, WINDOW
from ._common import check_bool, group_settings

__all__ = ["Monitored", "monitored_quantities", "x_lane_tables", "LANE_KINDS"]

#: mechanisms an x-lane computes itself (the others need the general path)
LANE_KINDS = (KM.RAW, PREQUENTIAL, WINDOW, FADING, EWMA)
#: the forgetting mechanisms Page-Hinkley can monitor (the registry's, except those driven by a loss)
MECHANISMS = MONITORABLE


class Monitored:
    """The monitored quantities: base estimators (some only as a side of a ratio), ratios, and the outputs.

    ``labels`` / ``coords``: the ``estimator`` dim of the result (empty for the raw input);
    ``rows[i]``: the kernel row of output ``i``; ``arrays``: the kernels' ``mon`` tuple.
    """

    def __init__(self, bases: list, ratios: list, outputs: list, coords: dict):
        self.bases = bases  # EstimatorSpec, or None for the raw input
        self.ratios = ratios  # (long base, short base)
        self.outputs = outputs  # (label, kernel row)
        self.coords = coords
        specs = [b if b is not None else EstimatorSpec("prequential") for b in bases]
        kinds, sizes, fading, marks, mark_off = kernel_arrays(specs)
        kinds[[i for i, b in enumerate(bases) if b is None]] = KM.RAW
        self.kinds = kinds
        ratio_arr = np.array(ratios, dtype=np.int64).reshape(-1, 2)
        self.arrays = (kinds, sizes, fading, marks, mark_off, ratio_arr)
        self.raw = bases == [None]

    @property
    def labels(self) -> list:
        return [label for label, _ in self.outputs]

    @property
    def rows(self) -> np.ndarray:
        return np.array([row for _, row in self.outputs], dtype=np.int64)

    @property
    def max_window(self) -> int:
        return max([int(b.param) for b in self.bases if b is not None and b.kind == "window"], default=0)


def _check_ratio_alpha(value, name):
    value = check_fading_factor(value, name)
    if value == 1.0:
        raise ValueError(f"{name} fading factors must be < 1 (Algorithm 4), got {value!r}")
    return value


def _pairs(value, name, check, kind) -> list:
    if value is None:
        return []
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, numbers.Real) for v in value):
        value = [value]
    try:
        value = list(value)
    except TypeError:
        raise TypeError(f"{name} must be a pair or a list of pairs, got {value!r}") from None
    out = []
    for pair in value:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise TypeError(f"{name} must hold pairs (long, short), got {pair!r}")
        long_, short = check(pair[0], name), check(pair[1], name)
        if not long_ > short:
            raise ValueError(f"{name} pairs must have the long-term {kind} first (larger), got {tuple(pair)!r}")
        out.append((long_, short))
    if len(set(out)) != len(out):
        raise ValueError(f"{name} contains a repeated pair: {out!r}")
    return out


def monitored_quantities(prequential, fading_ratio, window_ratio, forgetting: dict) -> Monitored:
    """Validate the monitored quantities; the raw input when none is asked for."""
    prequential = check_bool(prequential, "prequential")
    fr = _pairs(fading_ratio, "fading_ratio", _check_ratio_alpha, "fading factor")
    wr = _pairs(window_ratio, "window_ratio", check_window, "window")
    asked = prequential or any(np.size(v) for v in forgetting.values() if v is not None)
    specs = build_estimators(prequential=prequential, allowed=MECHANISMS, **forgetting) if asked else []
    if not (specs or fr or wr):
        return Monitored([None], [], [], {})
    bases = list(specs)
    outputs = [(s.label, i) for i, s in enumerate(specs)]
    kind_list, p1, p2 = [s.kind for s in specs], [s.param_value for s in specs], [np.nan] * len(specs)

    def base(kind, param):
        spec = EstimatorSpec(kind, param)
        if spec not in bases:
            bases.append(spec)
        return bases.index(spec)

    ratios = []
    for kind, name, pairs in (("fading", "fading_ratio", fr), ("window", "window_ratio", wr)):
        for long_, short in pairs:
            ratios.append((base(kind, long_), base(kind, short)))
            outputs.append((f"{name}={long_!r}/{short!r}", None))
            kind_list.append(name)
            p1.append(float(long_))
            p2.append(float(short))
    n_ratio_out = 0
    for i, (label, row) in enumerate(outputs):
        if row is None:
            outputs[i] = (label, len(bases) + n_ratio_out)
            n_ratio_out += 1
    coords = {
        "estimator": ("estimator", np.array([label for label, _ in outputs]).astype(str)),
        "estimator_kind": ("estimator", np.array(kind_list).astype(str)),
        "estimator_param": ("estimator", np.array(p1, dtype=np.float64)),
        "estimator_param2": ("estimator", np.array(p2, dtype=np.float64)),
    }
    return Monitored(bases, ratios, outputs, coords)


def test_groups(sest, delta, fade):
    """Settings with the same test (monitored row, delta, sum fading) share it: ``(members, start)``."""
    return group_settings([(int(sest[q]), delta[q], fade[q]) for q in range(len(sest))])


def x_lane_tables(mon: Monitored, sest, delta, lam, fade, min_count):
    """The x-lane groups (every setting a lane with its own estimate): ``(wk template, lane_set, lane_win,
    mon_lane)`` of :func:`streamtk._kernels.detectors.ph_lanes.xlanes_row` (``wk`` per row is a copy)."""
    W = KL.LANES
    P = len(sest)
    n_groups = -(-P // W)
    wk = np.zeros((n_groups, KL.LANE_ROWS, W))
    lane_set = np.full((n_groups, W), -1, np.int64)
    lane_win = np.zeros((n_groups, W), np.int64)
    kinds, sizes, fading = mon.arrays[:3]
    for q in range(P):
        g, k = divmod(q, W)
        e = sest[q]
        lane_set[g, k] = q
        wk[g, KL.R_KEEP, k] = 0.0 if kinds[e] == KM.RAW else 1.0
        wk[g, KL.R_STEP, k] = 1.0 / fading[e] if kinds[e] in (FADING, EWMA) else 1.0
        wk[g, KL.R_W, k] = float(sizes[e]) if kinds[e] == WINDOW else np.inf
        lane_win[g, k] = sizes[e] if kinds[e] == WINDOW else 0
        wk[g, KL.R_DELTA, k] = delta[q]
        wk[g, KL.R_FADE, k] = fade[q]
        wk[g, KL.R_LAM, k] = lam[q]
        wk[g, KL.R_MINC, k] = min_count[q]
    pad = lane_set < 0  # padding lanes: a prequential mean that never alarms (no NaN: it could slow the lanes)
    wk[:, KL.R_MULT] = 1.0
    wk[:, KL.R_MIN] = np.inf
    wk[:, KL.R_KEEP][pad] = 1.0
    wk[:, KL.R_STEP][pad] = 1.0
    wk[:, KL.R_W][pad] = np.inf
    wk[:, KL.R_FADE][pad] = 1.0
    wk[:, KL.R_LAM][pad] = np.inf
    wk[:, KL.R_MINC][pad] = np.inf
    mon_lane = np.array([int(np.flatnonzero(sest == row)[0]) for row in mon.rows], np.int64)
    return wk.reshape(n_groups, KL.LANE_ROWS * W), lane_set, lane_win, mon_lane
