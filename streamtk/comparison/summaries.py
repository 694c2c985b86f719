"""Scalar summaries of evaluation curves (numpy layer of the results collection).

A curve is a metric's value at checkpoints ``instance_1 < ... < instance_T`` (1-based
counts of instances seen). Its summaries:

* ``final`` -- the value at the last checkpoint (the final prequential value for the
  ``prequential`` estimator, as MOA's ``EvaluatePrequential`` reports);
* ``mean`` -- the mean of the defined (non-NaN) checkpoint values (the mean over the
  stream when every instance is a checkpoint);
* ``area`` -- the normalised area under the curve over the instance axis,
  ``sum_t (v_t + v_{t+1}) / 2 (i_{t+1} - i_t) / sum_t (i_{t+1} - i_t)`` by the trapezoid rule
  over the segments whose two ends are defined (same units as the metric; it weighs
  checkpoints by the stretch of stream they cover, so uneven checkpoints do not bias it);
* ``at=N`` -- the value at instance ``N``: the checkpoint ``instance == N``, else the last
  checkpoint before ``N`` (the estimate known after ``N`` instances); NaN when ``N`` is
  before the first checkpoint or beyond the end of the stream.

Undefined values (NaN) stay NaN: ``final`` of a curve whose last value is undefined is
NaN, ``mean`` / ``area`` are NaN when no checkpoint / segment is defined.
"""

from __future__ import annotations

import math
import operator
import re

import numpy as np

__all__ = ["SUMMARY_KINDS", "parse_summaries", "summarise_curves", "checkpoint_every", "values_at"]

SUMMARY_KINDS = ("final", "mean", "area", "at")
_AT = re.compile(r"^at\s*=\s*(\d+)$")


def parse_summaries(summaries, name: str = "summaries") -> tuple[str, ...]:
    """Normalise summary labels: ``"final"``, ``"mean"``, ``"area"``, ``"at=N"`` (or an int N)."""
    if summaries is None:
        return ("final",)
    if isinstance(summaries, (str, int, np.integer)):
        summaries = (summaries,)
    out = []
    for s in summaries:
        if isinstance(s, (bool, np.bool_)):
            raise TypeError(f"{name} must be 'final', 'mean', 'area' or 'at=N', got {s!r}")
        if isinstance(s, (int, np.integer)):
            s = f"at={int(s)}"
        if not isinstance(s, str):
            raise TypeError(f"{name} must be 'final', 'mean', 'area' or 'at=N', got {s!r}")
        s = s.strip()
        m = _AT.match(s)
        if m:
            n = int(m.group(1))
            if n < 1:
                raise ValueError(f"{name}: at=N needs an instance count N >= 1, got {s!r}")
            s = f"at={n}"
        elif s not in SUMMARY_KINDS[:3]:
            raise ValueError(f"{name} must be 'final', 'mean', 'area' or 'at=N' (N an instance count), got {s!r}")
        if s in out:
            raise ValueError(f"{name} contains {s!r} more than once")
        out.append(s)
    if not out:
        raise ValueError(f"{name} must name at least one summary")
    return tuple(out)


def at_instance(label: str) -> int | None:
    m = _AT.match(label)
    return int(m.group(1)) if m else None


def summarise_curves(values, instance, summaries) -> np.ndarray:
    """Summaries of curves ``values`` ``(..., T)`` at checkpoints ``instance`` ``(T,)``.

    Returns an array ``(len(summaries), ...)`` (see the module docstring).
    """
    v = np.asarray(values, dtype=np.float64)
    inst = np.asarray(instance, dtype=np.int64)
    if inst.ndim != 1 or inst.size != v.shape[-1]:
        raise ValueError(f"instance must be 1-D with one entry per checkpoint ({v.shape[-1]}), got {inst.shape}")
    if inst.size and np.any(np.diff(inst) <= 0):
        raise ValueError("instance must be strictly increasing along the curve")
    out = np.full((len(summaries),) + v.shape[:-1], np.nan)
    if inst.size == 0:
        return out
    flat = v.reshape(-1, inst.size)
    res = out.reshape(len(summaries), -1)
    # mean and area are linear in the values: one sum (even checkpoints) or a matrix-vector product; the rows
    # holding a NaN (their product is NaN) are redone with the masked definitions
    linear = [s for s, label in enumerate(summaries) if label in ("mean", "area")]
    if linear:
        dx = np.diff(inst).astype(np.float64)
        even = inst.size >= 2 and bool(np.all(dx == dx[0]))
        total = flat.sum(axis=-1) if even or any(summaries[s] == "mean" for s in linear) else None
        prod = np.empty((flat.shape[0], len(linear)))
        for c, s in enumerate(linear):
            if summaries[s] == "mean":
                prod[:, c] = total / inst.size
            elif inst.size < 2:
                prod[:, c] = np.nan  # one checkpoint: no segment, area undefined
            elif even:  # trapezoid rule on an even grid: dx (sum - (first + last) / 2), over (T - 1) dx
                prod[:, c] = (total - (flat[:, 0] + flat[:, -1]) / 2.0) / (inst.size - 1)
            else:
                w = np.zeros(inst.size)
                w[:-1] += dx / 2.0
                w[1:] += dx / 2.0
                prod[:, c] = flat @ (w / dx.sum())
        bad = np.flatnonzero(np.isnan(prod).any(axis=1))
        if bad.size:
            prod[bad] = _masked_linear(flat[bad], inst, [summaries[s] for s in linear])
        for c, s in enumerate(linear):
            res[s] = prod[:, c]
    for s, label in enumerate(summaries):
        if label == "final":
            res[s] = flat[:, -1]
        elif label not in ("mean", "area"):
            n = at_instance(label)
            t = int(np.searchsorted(inst, n, side="right")) - 1
            if n <= inst[-1] and t >= 0:  # else before the first checkpoint or beyond the end: undefined
                res[s] = flat[:, t]
    return out


def _masked_linear(flat: np.ndarray, inst: np.ndarray, labels) -> np.ndarray:
    """``mean`` / ``area`` of curves holding NaN, from their definitions (NaN checkpoints / segments left out)."""
    ok = ~np.isnan(flat)
    filled = np.where(ok, flat, 0.0)
    out = np.full((flat.shape[0], len(labels)), np.nan)
    for c, label in enumerate(labels):
        if label == "mean":
            cnt = ok.sum(axis=-1)
            with np.errstate(invalid="ignore", divide="ignore"):
                out[:, c] = np.where(cnt > 0, filled.sum(axis=-1) / cnt, np.nan)
        elif inst.size >= 2:
            dx = np.diff(inst).astype(np.float64)
            seg = ok[:, 1:] & ok[:, :-1]
            mid = np.where(seg, (filled[:, 1:] + filled[:, :-1]) / 2.0, 0.0)
            length = np.sum(seg * dx, axis=-1)
            with np.errstate(invalid="ignore", divide="ignore"):
                out[:, c] = np.where(length > 0, np.sum(mid * dx, axis=-1) / length, np.nan)
    return out


def checkpoint_every(n: int, summaries, *, target: int = 10_000) -> int:
    """Checkpoint spacing for evaluating a log of ``n`` instances before summarising it.

    About ``target`` checkpoints (``max(1, n // target)``), reduced to a divisor of every
    requested ``at=N`` so that each of them is an exact checkpoint.
    """
    every = max(1, n // target)
    ats = [at_instance(s) for s in summaries]
    ats = [a for a in ats if a is not None and a <= n]
    if not ats:
        return every
    g = 0
    for a in ats:
        g = math.gcd(g, operator.index(a))
    best = 1
    d = 1
    while d * d <= g:
        if g % d == 0:
            for c in (d, g // d):
                if c <= every:
                    best = max(best, c)
        d += 1
    return best


def values_at(values, instance, targets) -> np.ndarray:
    """The curves' values at instance counts ``targets`` (the ``at=N`` rule), ``(len(targets), ...)``.

    The checkpoint ``instance == N`` or else the last one before ``N``; NaN before the first
    checkpoint and beyond the end of the stream.
    """
    v = np.asarray(values, dtype=np.float64)
    inst = np.asarray(instance, dtype=np.int64)
    t = np.asarray(targets, dtype=np.int64)
    idx = np.searchsorted(inst, t, side="right") - 1
    ok = (idx >= 0) & (t <= (inst[-1] if inst.size else 0))
    out = np.moveaxis(v[..., np.clip(idx, 0, max(v.shape[-1] - 1, 0))], -1, 0) if v.shape[-1] else None
    if out is None:
        return np.full((t.size,) + v.shape[:-1], np.nan)
    out = out.copy()
    out[~ok] = np.nan
    return out
