"""numpy layer joining the score-based metrics to the curve engine.

* Per-instance score losses (``log_loss``, ``brier``) are extra quantities of the
  engine's one pass, so they are averaged under every estimator (ADWIN included)
  exactly like the empirical risk.
* The AUC family (``auc``, ``auc_u1``, ``auc_u0``, ``auc_z``, ``auc_macro``) comes
  from the exact Fenwick-tree kernels of :mod:`streamtk.scores` run over the same
  estimators and checkpoints (all scores are rank-compressed once, so it needs the
  whole stream: :class:`streamtk.Evaluator` refuses it), and, for ADWIN windows,
  from :func:`streamtk._kernels.auc_adwin.adwin_window_auc` driven by the widths of
  the same ADWIN the engine runs on the 0/1 loss.
"""

from __future__ import annotations

import numpy as np

from ._kernels.adwin import adwin_run, adwin_state_new
from ._kernels.auc_adwin import adwin_window_auc
from ._validation import as_float_array
from .scores import auc_statistics, brier_score, finalise_binary, log_loss, rank_compress

__all__ = ["check_scores", "score_losses", "auc_arrays", "AUC_NAMES"]

#: Dataset variable -> key of the finalised statistics
AUC_NAMES = {"auc": "auc", "auc_u1": "u1", "auc_u0": "u0", "auc_z": "mw_z", "auc_macro": "auc_macro"}


def check_scores(y_score, L: int, n: int, k: int) -> tuple[str, np.ndarray]:
    """``(mode, scores)``: ``"binary"`` with ``(L, n)`` positive-class scores or ``"multi"`` with ``(L, n, k)``."""
    s = as_float_array(y_score, "y_score")
    if s.shape[-1] == n and s.size == L * n or (s.ndim >= 1 and s.shape[-1] == n and s.size == n):
        s2 = np.broadcast_to(s.reshape(-1, n), (L, n)) if s.size == n else s.reshape(L, n)
        return "binary", np.ascontiguousarray(s2)
    if s.ndim >= 2 and s.shape[-2:] == (n, k) and s.size in (L * n * k, n * k):
        s3 = np.broadcast_to(s.reshape(-1, n, k), (L, n, k)) if s.size == n * k else s.reshape(L, n, k)
        return "multi", np.ascontiguousarray(s3)
    raise ValueError(
        f"y_score must have shape (..., n) with the positive-class score or (..., n, k) with one column per class "
        f"(n = {n}, k = {k}, leading series = {L}); got shape {s.shape}"
    )


def _targets(ytrue, mode, pos):
    present = ytrue >= 0
    if mode == "binary":
        return np.where(present, (ytrue == pos).astype(np.float64), np.nan)
    return np.where(present, ytrue.astype(np.float64), np.nan)


def score_losses(name: str, ytrue, s, mode: str, k: int, pos: int) -> np.ndarray:
    """Per-instance ``log_loss`` or ``brier`` ``(L, T)``; 0 where the label is missing (never evaluated)."""
    fn = log_loss if name == "log_loss" else brier_score
    y = _targets(ytrue, mode, pos)
    vals = fn(y, s) if mode == "binary" else fn(y, s, classes=list(range(k)))
    return np.nan_to_num(vals, nan=0.0)


def _adwin_widths(ytrue, ypred, weights, delta, opts, variant_code):
    """Width of the ADWIN the engine runs (on the 0/1 loss of evaluated instances) after each instance."""
    L, n = ypred.shape
    widths = np.zeros((L, n), dtype=np.int64)
    for l in range(L):
        ev = (ytrue >= 0) & ((weights[l] > 0) if weights is not None else True)
        loss = (ytrue[ev] != ypred[l, ev]).astype(np.float64)
        st = adwin_state_new(1, opts["max_buckets"])
        wout = np.empty((1, loss.size), dtype=np.int64)
        none = np.empty((1, 0))
        adwin_run(loss[None, :], *st, delta, opts["clock"], opts["min_window"], variant_code, wout, none, none,
                  np.empty((1, 0), dtype=np.int8))
        widths[l, ev] = wout[0]
    return widths


def auc_arrays(core, ytrue, ypred, weights, s, mode, positions, variant_code) -> dict:
    """The AUC variables of ``core.auc_metrics`` as ``(L, C, E[, k])`` arrays (NaN where undefined)."""
    L = ypred.shape[0]
    n = ytrue.shape[0]
    C = positions.size
    E = len(core.specs)
    k = core.k
    moa = core.convention == "moa"
    shape_scalar = (L, C, E)
    out = {}
    for m in core.auc_metrics:
        per_class = mode == "multi" and m.name != "auc_macro"
        out[m.name] = np.full(shape_scalar + ((k,) if per_class else ()), np.nan)
    y = _targets(ytrue, mode, core.pos)
    windows = [sp.param for sp in core.specs if sp.kind == "window"]
    fading = [sp.param for sp in core.specs if sp.kind == "fading"] if not moa else []
    specs, pos2, stats, _ = auc_statistics(
        y, s, windows=windows, fading=fading, prequential=True, every=core.every, weights=weights,
        classes=list(range(k)) if mode == "multi" else None, convention=core.convention,
    )
    if not np.array_equal(pos2, positions):  # pragma: no cover - both use checkpoints every `every` + the last
        raise AssertionError("AUC checkpoints differ from the engine's")
    labels = [sp.label for sp in core.specs]
    for i, sp in enumerate(specs):
        e = labels.index(sp.label)
        for name, arr in out.items():
            arr[:, :, e] = np.moveaxis(stats[AUC_NAMES[name]][:, i], 1, 1)
    adwin_idx = [i for i, sp in enumerate(core.specs) if sp.kind == "adwin"]
    if adwin_idx and not moa:
        if mode != "binary":
            raise ValueError(
                "AUC over ADWIN windows is computed for binary scores only; for (..., n, k) class scores "
                "request AUC with windows= / fading= (or drop the AUC metrics)"
            )
        ranks, R = rank_compress(s)
        y2 = np.where(ytrue >= 0, (ytrue == core.pos).astype(np.int64), -1)
        w = weights if weights is not None else np.ones((L, 0))
        for e in adwin_idx:
            widths = _adwin_widths(ytrue, ypred, weights, core.specs[e].param, core.adwin_options, variant_code)
            st = np.zeros((L, C, 5))
            adwin_window_auc(ranks, y2, w, weights is not None, widths, R, positions, st)
            fin = finalise_binary(*np.moveaxis(st, -1, 0), convention=core.convention)
            for name, arr in out.items():
                arr[:, :, e] = fin[AUC_NAMES[name]]
    return out
