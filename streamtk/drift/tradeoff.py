"""Trade-off curves of drift detectors: detection delay against false alarms over a grid of settings.

A detector's sensitivity setting (Page-Hinkley's ``lambda``, DDM's and EDDM's
``drift_level``, ADWIN's ``delta``) moves it along a curve: fewer false alarms cost
longer delays and more misses. :func:`run_tradeoff` runs each detector's grid of
settings over many runs in one pass (the detectors' one-pass grid kernels) and
:func:`tradeoff` scores them; the result holds, for every ``(detector, setting)``,
the scores of :func:`streamtk.drift.scoring.score_detections` - among them the
points of the two classic curves, mean delay (MTD) against false alarms per run (or
the false-alarm rate, or MTFA), and recall against the false-alarm rate (the ROC-like
curve of Bifet et al. 2013, CD-MOA, and of Gama et al. 2013, section 5.2).
"""

from __future__ import annotations

import itertools

import numpy as np
import xarray as xr

from .._core.validation import check_choice
from .._labelled import base_attrs
from .registry import DETECTORS as _DETECTOR_REGISTRY
from .registry import detector_function
from .scoring import score_detections

__all__ = ["tradeoff", "run_tradeoff", "DETECTORS"]

DETECTORS = tuple(_DETECTOR_REGISTRY)
_NOT_SETTINGS = {"run", "drift", "detection_number", "time"}


def _setting_table(scores: xr.Dataset):
    """The setting dims of one detector's scores -> (dims, labels, {param: values}) in C order."""
    dims = [d for d in scores["delay_mean"].dims if d not in _NOT_SETTINGS]
    values = [scores[d].values.tolist() if d in scores.coords else list(range(scores.sizes[d])) for d in dims]
    combos = list(itertools.product(*values)) if dims else [()]
    labels = [", ".join(f"{d}={v}" for d, v in zip(dims, c)) or "default" for c in combos]
    params = {}
    for i, d in enumerate(dims):
        col = [c[i] for c in combos]
        params[d] = np.array(col, dtype=np.float64) if all(isinstance(v, (int, float)) for v in col) else None
    return dims, labels, params


def tradeoff(results: dict, true_drifts, *, max_delay=None, max_early_detection=0, rate_period=1000,
             convention="streamtk", alpha=0.05, run_dim="run") -> xr.Dataset:  # fmt: skip
    """Score several detectors' grids of settings and lay them out as trade-off curves.

    Parameters
    ----------
    results : dict of str -> xarray.Dataset
        Detector name -> its output over the runs (``run_dim``) and any number of
        setting dims (e.g. ``page_hinkley(x, lambda_=[...], lead_dims="run")``).
    true_drifts, max_delay, max_early_detection, rate_period, convention, alpha, run_dim
        As in :func:`streamtk.drift.scoring.score_detections`.

    Returns
    -------
    xarray.Dataset
        Dims ``(detector, setting, run, drift)``: every variable of
        :func:`~streamtk.drift.scoring.score_detections`, the setting dims of each
        detector flattened into ``setting`` (coordinate ``setting_label``
        ``(detector, setting)``, e.g. ``"lambda=50.0"``, and one coordinate per
        parameter, NaN where a detector has no such parameter; detectors with fewer
        settings are padded with NaN and ``setting_label == ""``). Under the
        ``"streamtk"`` convention also ``pareto``: the settings no other setting (of
        any detector) beats on both false alarms per run and mean time to detection
        (ties allowed, at least one strictly better).
    """
    if not isinstance(results, dict) or not results:
        raise TypeError("results must be a non-empty dict of detector name -> detector Dataset")
    convention = check_choice(convention, "convention", ("streamtk", "capymoa", "moa"))
    per = {}
    for name, res in results.items():
        if not isinstance(res, xr.Dataset):
            raise TypeError(f"results[{name!r}] must be a detector's Dataset, got {type(res).__name__}")
        kwargs = {"convention": convention, "alpha": alpha, "run_dim": run_dim, "rate_period": rate_period}
        if convention != "moa":
            kwargs.update(max_delay=max_delay, max_early_detection=max_early_detection)
        per[name] = score_detections(res, true_drifts, **kwargs)
    width = max(len(_setting_table(s)[1]) for s in per.values())
    all_params = []
    for s in per.values():
        for p in _setting_table(s)[0]:
            if p not in all_params:
                all_params.append(p)
    blocks, labels, pcoords = [], [], {p: [] for p in all_params}
    for s in per.values():
        dims, labs, params = _setting_table(s)
        flat = s.drop_vars([d for d in dims if d in s.coords])
        flat = flat.stack(setting=dims) if dims else flat.expand_dims(setting=1)
        if dims:
            flat = flat.drop_vars(["setting", *dims], errors="ignore")
        flat = flat.transpose("setting", ...)
        pad = width - len(labs)
        if pad:
            flat = flat.pad(setting=(0, pad))
        blocks.append(flat)
        labels.append(labs + [""] * pad)
        for p in all_params:
            col = params.get(p)
            vals = np.full(width, np.nan)
            if col is not None:
                vals[: len(col)] = col
            pcoords[p].append(vals)
    ds = xr.concat(blocks, dim="detector", coords="minimal", compat="override", join="override")
    ds = ds.assign_coords(detector=("detector", list(per)), setting=("setting", np.arange(width)))
    ds = ds.assign_coords(setting_label=(("detector", "setting"), np.array(labels, dtype=str)))
    for p, rows in pcoords.items():
        ds = ds.assign_coords({p: (("detector", "setting"), np.array(rows))})
    if convention == "streamtk":
        fa = ds["false_alarms_per_run"].transpose("detector", "setting").values
        mtd = ds["mean_time_to_detection"].transpose("detector", "setting").values
        ds["pareto"] = (("detector", "setting"), _pareto(fa, mtd, np.array(labels) != ""))
        ds["pareto"].attrs = {"long_name": "not dominated on (false alarms per run, mean time to detection)"}
    first = next(iter(per.values()))
    ds.attrs = base_attrs("drift detector trade-off curves", convention=convention,
                          detectors=list(per), max_delay=max_delay, max_early_detection=max_early_detection,
                          rate_period=rate_period, true_drifts=first.attrs["true_drifts"])  # fmt: skip
    return ds


def _pareto(fa, delay, present):
    """Settings not dominated on (fa, delay) by any other present setting (NaN delay: never optimal)."""
    f, d = fa.reshape(-1), delay.reshape(-1)
    ok = present.reshape(-1) & np.isfinite(d) & np.isfinite(f)
    out = np.zeros(f.size, bool)
    for i in np.flatnonzero(ok):
        better = ok & (f <= f[i]) & (d <= d[i]) & ((f < f[i]) | (d < d[i]))
        out[i] = not better.any()
    return out.reshape(fa.shape)


def _pad_detections(ds, width):
    """Pad the per-run detection lists to ``width`` entries (index -1, sign 0: no detection)."""
    have = ds.sizes.get("detection_number", 0)
    if have == width:
        return ds
    fill = {name: -1 if name == "detection_index" else 0 for name, v in ds.data_vars.items()
            if "detection_number" in v.dims}  # fmt: skip
    return ds.pad(detection_number=(0, width - have), constant_values=fill)


def _run_one(name, x, params, lead_dims):
    params = dict(params)
    if name == "adwin":  # one pass per delta (ADWIN has no grid kernel)
        adwin = detector_function("adwin")
        deltas = params.pop("delta", 0.002)
        if np.ndim(deltas) == 0:
            return adwin(x, delta=deltas, lead_dims=lead_dims, **params)
        parts = [adwin(x, delta=float(d), lead_dims=lead_dims, **params) for d in deltas]
        width = max(p.sizes.get("detection_number", 0) for p in parts)
        parts = [_pad_detections(p, width) for p in parts]
        return xr.concat(parts, dim=xr.DataArray(np.asarray(deltas, dtype=float), dims="delta", name="delta"))
    return detector_function(name)(x, trace=False, lead_dims=lead_dims, **params)


def run_tradeoff(x, true_drifts, detectors: dict, *, lead_dims="run", **score_kwargs) -> xr.Dataset:
    """Run each detector's grid of settings over the runs ``x`` in one pass each, then :func:`tradeoff`.

    Parameters
    ----------
    x : array_like or DataArray, shape (runs, n)
        The monitored streams (e.g. 0/1 errors, :func:`streamtk.drift.error_stream`).
    true_drifts
        As in :func:`streamtk.drift.scoring.score_detections`.
    detectors : dict of str -> dict
        ``{"page_hinkley": {"lambda_": [10, 20, 50]}, "ddm": {"drift_level": [2, 3, 4]},
        "eddm": {...}, "adwin": {"delta": [0.002, 0.05]}}``: keyword arguments of
        :func:`~streamtk.drift.page_hinkley`, :func:`~streamtk.drift.ddm`,
        :func:`~streamtk.drift.eddm` and :func:`~streamtk.drift.adwin` (a sequence is
        a grid dim; ADWIN's deltas are separate runs of ADWIN, stacked on ``delta``).
    lead_dims : str, default "run"
        Name of the leading dim of a numpy ``x``.
    **score_kwargs
        Passed to :func:`tradeoff` (``max_delay``, ``convention``, ...).

    Examples
    --------
    >>> from streamtk.drift import error_stream
    >>> from streamtk.drift.tradeoff import run_tradeoff
    >>> x = error_stream(4000, [2000], [0.1, 0.4], runs=5, seed=1)
    >>> t = run_tradeoff(x, [2000], {"ddm": {"drift_level": [2.0, 3.0]}}, max_delay=1000)
    >>> t["recall"].dims
    ('detector', 'setting')
    """
    if not isinstance(detectors, dict) or not detectors:
        raise TypeError(f"detectors must be a non-empty dict of name -> keyword arguments, got {detectors!r}")
    results = {}
    for name, params in detectors.items():
        check_choice(name, "detectors", DETECTORS)
        if not isinstance(params, dict):
            raise TypeError(f"detectors[{name!r}] must be a dict of keyword arguments, got {params!r}")
        results[name] = _run_one(name, x, params, lead_dims)
    return tradeoff(results, true_drifts, **score_kwargs)
