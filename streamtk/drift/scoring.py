"""Scoring change detectors against known change points (delay, misses, false alarms).

The evaluation of Gama, Sebastiao & Rodrigues (2013), ``seeds/004_*.txt`` section
5.2-5.3 (Tables 2-3: detection delay "mean ± std" over 10 runs with the number of
missed detections in parentheses, Table 3 also the false alarms), and the
criteria of the Gama 2014 slides (``seeds/002_*.txt``, "Methods for explicit change
detection": probability of false alarms, probability of true alarms, delay).

Matching rule
-------------
True change points ``d_0 < d_1 < ...`` are 0-based indices of the first instance
of each new concept; ``n`` is the stream length. For change ``k`` the *detection
window* is ``[d_k, min(d_k + max_delay, d_{k+1}, n))`` (``max_delay=None``: up to
the next change or the end). The **first** detection inside the window is the
true detection of change ``k`` and its delay is ``index - d_k`` (a detection at
the change point itself has delay 0). A change with no detection in its window
is *missed*. Every other detection is a **false alarm**: those before ``d_0``
("before the first drift") and those after ``d_0`` that are not the first in a
window - later detections in the same window, and detections after a window
closed but before the next change ("between drifts").
"""

from __future__ import annotations

import numbers

import numpy as np
import xarray as xr

from .._core.validation import check_positive_int
from .._labelled import base_attrs

__all__ = ["score_detections", "detection_table", "match_detections"]


def match_detections(detections, true_drifts, *, max_delay=None, n=None):
    """Match one run's detections to the change points (see the module docstring).

    Returns ``(delays, false_before, false_between)``: ``delays`` is a float array
    with one entry per change (NaN when missed).
    """
    det = np.unique(np.asarray(detections, dtype=np.int64))
    drifts = np.asarray(true_drifts, dtype=np.int64)
    end_all = np.iinfo(np.int64).max if n is None else int(n)
    delays = np.full(drifts.size, np.nan)
    matched = np.zeros(det.size, dtype=bool)
    for k, d in enumerate(drifts):
        stop = drifts[k + 1] if k + 1 < drifts.size else end_all
        if max_delay is not None:
            stop = min(stop, d + max_delay)
        lo = np.searchsorted(det, d, side="left")
        if lo < det.size and det[lo] < stop:
            delays[k] = float(det[lo] - d)
            matched[lo] = True
    first = drifts[0] if drifts.size else end_all
    before = int(np.count_nonzero(det < first))
    between = int(np.count_nonzero(~matched & (det >= first)))
    return delays, before, between


def _runs_from_dataset(ds: xr.Dataset, run_dim: str):
    if "detection_index" not in ds or "n_detections" not in ds:
        raise ValueError("detections Dataset must hold 'detection_index' and 'n_detections' (a detector's output)")
    idx = ds["detection_index"]
    cnt = ds["n_detections"]
    if run_dim in cnt.dims:
        cnt = cnt.transpose(..., run_dim)
        idx = idx.transpose(..., run_dim, "detection_number")
    else:
        cnt = cnt.expand_dims({run_dim: 1}, axis=-1)
        idx = idx.expand_dims({run_dim: 1}, axis=-2)
    gdims = cnt.dims[:-1]
    coords = {k: v for k, v in cnt.coords.items() if run_dim not in v.dims}
    c = cnt.values.reshape(-1, cnt.shape[-1])
    i = idx.values.reshape(c.shape + (idx.shape[-1],))
    groups = [[i[g, r, : c[g, r]] for r in range(c.shape[1])] for g in range(c.shape[0])]
    n = ds.attrs.get("n_instances")
    return groups, gdims, cnt.shape[:-1], coords, (None if n is None else int(n))


def _normalise(detections, run_dim):
    if isinstance(detections, xr.Dataset):
        return _runs_from_dataset(detections, run_dim)
    if isinstance(detections, np.ndarray) and detections.dtype == np.bool_:
        flags = detections.reshape(-1, detections.shape[-1]) if detections.ndim > 1 else detections[None]
        return [[np.flatnonzero(f) for f in flags]], (), (), {}, detections.shape[-1]
    if isinstance(detections, (list, tuple)):
        runs = []
        for r, run in enumerate(detections):
            arr = np.asarray(run)
            if arr.ndim != 1 or (arr.size and not np.issubdtype(arr.dtype, np.integer)):
                raise TypeError(f"detections[{r}] must be a 1-D sequence of integer indices, got {run!r}")
            runs.append(arr.astype(np.int64))
        return [runs], (), (), {}, None
    raise TypeError(
        "detections must be a detector's Dataset, a boolean flag array (runs, n) or a list of index "
        f"sequences (one per run), got {type(detections).__name__}"
    )


def score_detections(detections, true_drifts, *, max_delay=None, n=None, run_dim="run") -> xr.Dataset:
    r"""Detection delay, misses and false alarms of a detector over many runs.

    Parameters
    ----------
    detections : xarray.Dataset, bool array or list of index sequences
        A detector's output (``detection_index``/``n_detections``; runs along
        ``run_dim``, any other dims - e.g. ``estimator``, ``lambda`` - are kept),
        a boolean array ``(runs, n)`` of per-step flags, or one sequence of
        0-based detection indices per run.
    true_drifts : int or sequence of int
        0-based indices of the first instance of each new concept (the same in
        every run), strictly increasing.
    max_delay : int, optional
        Longest delay that still counts as a true detection (see the matching
        rule in the module docstring); default: until the next change.
    n : int, optional
        Stream length; taken from the Dataset (``n_instances``) or the flag
        array when not given. Needed for the mean time between false alarms.
    run_dim : str
        The dimension of a Dataset input that holds the runs (default ``"run"``;
        a Dataset without it is one run).

    Returns
    -------
    xarray.Dataset
        With dims ``(*kept dims, drift)`` where per change:

        - ``delay_mean``, ``delay_std`` (sample std, ``ddof=1``; NaN with fewer
          than two detections) of ``index - d_k`` over the runs that detected it;
        - ``n_detected``, ``n_missed``;

        and over all changes and runs:

        - ``false_alarms_before`` / ``false_alarms_between``: totals before the
          first change and after it; ``false_alarms_per_run``;
        - ``probability_true_detection`` = detected / (runs x changes);
        - ``missed_detection_rate`` = 1 - that;
        - ``mean_time_to_detection``: mean delay over every detected change;
        - ``mean_time_between_false_alarms`` = runs x n / false alarms
          (instances per false alarm; ``inf`` when there is none, NaN when ``n``
          is unknown).

        ``attrs["table"]`` holds :func:`detection_table` of the result.

    See Also
    --------
    detection_table : the text table in the layout of Gama et al. Tables 2-3.

    Examples
    --------
    >>> from streamtk.drift.scoring import score_detections
    >>> s = score_detections([[120, 700], [90], []], [100], max_delay=500, n=1000)
    >>> s["delay_mean"].values.tolist(), int(s["n_missed"].sum()), int(s["false_alarms_between"])
    ([20.0], 2, 1)
    """
    if isinstance(true_drifts, numbers.Integral) and not isinstance(true_drifts, bool):
        true_drifts = [true_drifts]
    drifts = [check_positive_int(d, "true_drifts", minimum=0) for d in true_drifts]
    if not drifts:
        raise ValueError("true_drifts must hold at least one change point")
    if any(b <= a for a, b in zip(drifts, drifts[1:])):
        raise ValueError(f"true_drifts must be strictly increasing, got {drifts!r}")
    if max_delay is not None:
        max_delay = check_positive_int(max_delay, "max_delay")
    groups, gdims, gshape, coords, n_found = _normalise(detections, run_dim)
    if n is None:
        n = n_found
    else:
        n = check_positive_int(n, "n")
    if n is not None and drifts[-1] >= n:
        raise ValueError(f"true_drifts must be < n = {n}, got {drifts!r}")
    n_groups = len(groups)
    k = len(drifts)
    out = {name: np.full((n_groups, k), np.nan) for name in ("delay_mean", "delay_std")}
    n_det = np.zeros((n_groups, k), np.int64)
    fa_before = np.zeros(n_groups, np.int64)
    fa_between = np.zeros(n_groups, np.int64)
    mttd = np.full(n_groups, np.nan)
    n_runs = np.zeros(n_groups, np.int64)
    for g, runs in enumerate(groups):
        n_runs[g] = len(runs)
        delays = np.empty((len(runs), k))
        for r, det in enumerate(runs):
            delays[r], b, w = match_detections(det, drifts, max_delay=max_delay, n=n)
            fa_before[g] += b
            fa_between[g] += w
        hit = ~np.isnan(delays)
        n_det[g] = hit.sum(axis=0)
        for j in range(k):
            dj = delays[hit[:, j], j]
            if dj.size:
                out["delay_mean"][g, j] = dj.mean()
            if dj.size > 1:
                out["delay_std"][g, j] = dj.std(ddof=1)
        if hit.any():
            mttd[g] = delays[hit].mean()
    total = n_runs[:, None] * k
    fa = fa_before + fa_between
    with np.errstate(divide="ignore", invalid="ignore"):
        ptd = n_det.sum(axis=1) / total[:, 0]
        fa_per_run = fa / n_runs
        if n is None:
            mtfa = np.full(n_groups, np.nan)
        else:
            mtfa = np.where(fa > 0, n_runs * float(n) / np.maximum(fa, 1), np.inf)
    gd = tuple(gdims)
    dd = gd + ("drift",)

    def shaped(a, with_drift):
        return a.reshape(tuple(gshape) + ((k,) if with_drift else ()))

    data = {
        "delay_mean": (dd, shaped(out["delay_mean"], True), {
            "long_name": "mean detection delay", "units": "instances",
            "formula": "mean over runs of (first detection in [d_k, min(d_k + max_delay, d_k+1, n))) - d_k"}),
        "delay_std": (dd, shaped(out["delay_std"], True), {
            "long_name": "standard deviation of the detection delay (ddof=1)", "units": "instances"}),
        "n_detected": (dd, shaped(n_det, True), {"long_name": "runs in which the change was detected", "units": "1"}),
        "n_missed": (dd, shaped(n_runs[:, None] - n_det, True), {
            "long_name": "runs in which the change was missed", "units": "1"}),
        "false_alarms_before": (gd, shaped(fa_before, False), {
            "long_name": "false alarms before the first change (all runs)", "units": "1"}),
        "false_alarms_between": (gd, shaped(fa_between, False), {
            "long_name": "false alarms after the first change (all runs)", "units": "1"}),
        "false_alarms_per_run": (gd, shaped(fa_per_run, False), {"long_name": "false alarms per run", "units": "1"}),
        "probability_true_detection": (gd, shaped(ptd, False), {
            "long_name": "probability of true detection", "units": "1",
            "formula": "detected changes / (runs x changes)"}),
        "missed_detection_rate": (gd, shaped(1.0 - ptd, False), {"long_name": "missed detection rate", "units": "1"}),
        "mean_time_to_detection": (gd, shaped(mttd, False), {
            "long_name": "mean time to detection (over all detected changes)", "units": "instances"}),
        "mean_time_between_false_alarms": (gd, shaped(mtfa, False), {
            "long_name": "mean time between false alarms", "units": "instances",
            "formula": "runs x n / number of false alarms (inf: none)"}),
        "n_runs": (gd, shaped(n_runs, False), {"long_name": "number of runs", "units": "1"}),
    }  # fmt: skip
    coords = dict(coords)
    coords["drift"] = ("drift", np.asarray(drifts, dtype=np.int64))
    ds = xr.Dataset(data, coords=coords)
    ds["drift"].attrs = {"long_name": "0-based index of the first instance of the new concept"}
    ds.attrs = base_attrs(
        "detection delay and false alarms",
        true_drifts=drifts, max_delay=max_delay, n=n,
        matching="first detection in [d_k, min(d_k + max_delay, d_{k+1}, n)) is the true detection; "
        "all others are false alarms; delay = index - d_k",
        reference="Gama, Sebastiao & Rodrigues (2013) section 5, Tables 2-3",
    )  # fmt: skip
    ds.attrs["table"] = detection_table(ds)
    return ds


def _cell(mean, std, missed, runs, fa, with_fa, decimals):
    if missed == runs:
        return "Miss"
    fmt = f"{{:.{decimals}f}}"
    s = fmt.format(mean) + " ± " + ("nan" if np.isnan(std) else fmt.format(std))
    if with_fa:
        if missed or fa:
            s += f" ({missed}; {fa})"
    elif missed:
        s += f" ({missed})"
    return s


def detection_table(scores: xr.Dataset, *, false_alarms=False, decimals=0) -> str:
    """A text table of delays in the layout of Gama et al. (2013) Tables 2-3.

    One row per combination of the non-``drift`` dims, one column per change:
    ``"mean ± std (misses)"``; ``"Miss"`` when every run missed the change. With
    ``false_alarms=True`` the parentheses hold ``(misses; false alarms)`` as in
    Table 3 (false alarms over the whole run, so the same in every column).
    """
    dm = scores["delay_mean"]
    other = [d for d in dm.dims if d != "drift"]
    stacked = {v: scores[v].transpose(*other, "drift").values.reshape(-1, scores.sizes["drift"])
               for v in ("delay_mean", "delay_std", "n_missed")}  # fmt: skip
    runs = scores["n_runs"].transpose(*other).values.reshape(-1)
    fa = (scores["false_alarms_before"] + scores["false_alarms_between"]).transpose(*other).values.reshape(-1)
    labels = []
    if other:
        import itertools

        for combo in itertools.product(*[scores[d].values.tolist() if d in scores.coords else range(scores.sizes[d])
                                         for d in other]):  # fmt: skip
            labels.append(", ".join(f"{d}={v}" for d, v in zip(other, combo)))
    else:
        labels = [""]
    header = [""] + [f"drift at {int(d)}" for d in scores["drift"].values]
    rows = [header]
    for i, lab in enumerate(labels):
        rows.append([lab] + [
            _cell(stacked["delay_mean"][i, j], stacked["delay_std"][i, j], int(stacked["n_missed"][i, j]),
                  int(runs[i]), int(fa[i]), false_alarms, decimals)
            for j in range(scores.sizes["drift"])
        ])  # fmt: skip
    widths = [max(len(r[c]) for r in rows) for c in range(len(header))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows)
