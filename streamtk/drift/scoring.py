"""Scoring change detectors against known drifts: delay, misses, false alarms, MDR/MTFA/MTD/MTR, F1, ARL.

``score_detections(detections, true_drifts, convention=...)`` scores every run and
every detector setting at once (one ``searchsorted`` over all of them) and returns
a labelled Dataset with dims ``(*settings, run, drift)``. ``convention`` picks the
matching rule and the measures of one community (``docs/drift_scoring.md`` puts
them side by side):

``"streamtk"`` (default)
    Drift ``k`` (``start_k .. end_k``; ``start == end`` for an abrupt drift) has the
    detection window ``[start_k - max_early_detection, stop_k)``, where ``stop_k`` is
    the earliest of ``end_k + max_delay + 1`` (``max_delay=None``: no limit), the
    opening of the next drift's window and the end of the stream. The **first**
    detection in the window detects the drift, with delay ``index - start_k``; a
    drift without one is *missed*; every other detection is a **false alarm**
    (before the first window, later ones in a window, between windows). One true
    positive per drift, so recall is the episode recall of capymoa and the
    probability of true detection of Gama et al. This is the matching of Gama,
    Sebastiao & Rodrigues (2013), ``seeds/004_*.txt`` section 5 (Tables 2-3), and
    of CD-MOA (Bifet et al. 2013), extended to gradual drifts and early detections.
    Chosen as the default because each detection is used once (precision and
    recall stay in [0, 1] and F1 is the harmonic mean of the two), a drift counts
    once however often a detector re-fires, and without ``max_delay`` it reproduces
    the published tables.
``"capymoa"``
    capymoa's ``EvaluateDriftDetector`` exactly (see :mod:`streamtk.drift.conventions`).
``"moa"``
    MOA's ``BasicConceptDriftPerformanceEvaluator`` inside ``EvaluateConceptDrift``
    exactly (see :mod:`streamtk.drift.conventions`).
"""

from __future__ import annotations

import itertools

import numpy as np
import xarray as xr

from .._core.validation import check_choice, check_in_open_unit_interval, check_positive_int
from .._labelled import base_attrs
from .conventions import score_capymoa, score_moa
from .events import as_events, as_warnings
from .measures import Keyed, delay_summary, ratio
from .truth import DriftTruth, as_truth

__all__ = ["score_detections", "detection_table", "match_detections", "CONVENTIONS"]

CONVENTIONS = ("streamtk", "capymoa", "moa")


def match_detections(detections, true_drifts, *, max_delay=None, max_early_detection=0, n=None):
    """Match one run's detections to its drifts with the ``"streamtk"`` rule (a plain loop).

    The slow, obviously correct statement of the rule in the module docstring
    (the tests hold :func:`score_detections` to it). ``true_drifts``: change points
    and/or ``(start, end)`` pairs.

    Returns ``(delays, false_before, false_between)``: ``delays`` holds one float per
    drift (NaN when missed); the false alarms are those before the first drift's
    window and the others.
    """
    truth = as_truth(true_drifts)
    starts, ends = truth.start[0].tolist(), truth.end[0].tolist()
    det = sorted(set(int(d) for d in detections))
    bad = [d for d in det if d < 0 or (n is not None and d >= int(n))]
    if bad:
        where = "[0, n)" if n is None else f"[0, {int(n)})"
        raise ValueError(f"detections must be 0-based instance indices in {where}, got {bad[0]}")
    end_all = max(det + ends + [0]) + 1 if n is None else int(n)
    opens = [max(s - max_early_detection, 0) for s in starts]
    delays, used = [], set()
    for k, (s, e) in enumerate(zip(starts, ends)):
        stop = min(opens[k + 1] if k + 1 < len(starts) else end_all, end_all)
        if max_delay is not None:
            stop = min(stop, e + max_delay + 1)
        inside = [d for d in det if opens[k] <= d < stop]
        delays.append(float(inside[0] - s) if inside else np.nan)
        if inside:
            used.add(inside[0])
    first_open = opens[0] if opens else end_all
    before = sum(1 for d in det if d < first_open)
    between = sum(1 for d in det if d >= first_open and d not in used)
    return np.array(delays, dtype=np.float64), before, between


def _streamtk(ev, truth: DriftTruth, *, max_delay, early, rate_period, alpha, warn_ev):
    """The ``"streamtk"`` convention on all rows: arrays shaped (G, R, K), (G, R), (G, K), (G,)."""
    ev = ev.unique()
    g, r_, k = ev.n_groups, ev.n_runs, truth.n_drifts
    n = ev.n
    top = max(int(ev.flat.max()) + 1 if ev.flat.size else 0, int(truth.end.max()) + 1 if truth.end.size else 0, 1)
    n_eff = n if n is not None else top
    keyed = Keyed(ev, n_eff)
    rows = np.arange(ev.n_rows, dtype=np.int64)
    run_of = rows % r_
    s, e = truth.start[run_of], truth.end[run_of]
    valid = np.arange(k)[None, :] < truth.count[run_of][:, None]
    lo = np.where(valid, np.maximum(s - early, 0), n_eff)
    nxt_valid = np.concatenate([valid[:, 1:], np.zeros((valid.shape[0], 1), bool)], axis=1)
    nxt_open = np.where(nxt_valid, np.concatenate([lo[:, 1:], lo[:, :1]], axis=1), n_eff)
    hi = np.minimum(nxt_open, n_eff)
    if max_delay is not None:
        hi = np.minimum(hi, e + max_delay + 1)
    hi = np.where(valid, hi, n_eff)
    rr = np.broadcast_to(rows[:, None], lo.shape)
    found, first = keyed.first_in(rr, lo, hi)
    delay = np.where(found, first - s, np.nan)
    n_alarms = np.diff(ev.offsets)
    tp = found.sum(axis=1)
    fa = n_alarms - tp
    before = keyed.count_below(rows, lo[:, 0] if k else np.full(rows.size, n_eff))
    # ARL1: the first alarm after the change whatever the tolerances, before the next drift starts
    nxt_start = np.where(nxt_valid, np.concatenate([s[:, 1:], s[:, :1]], axis=1), n_eff)
    got1, first1 = keyed.first_in(rr, np.where(valid, s, n_eff), np.where(valid, nxt_start, n_eff))
    run_len1 = np.where(got1 & valid, first1 - s, np.nan)
    penalised = np.where(valid, np.where(found, delay, (hi - s).astype(np.float64)), np.nan)
    exposure0 = np.minimum(lo[:, 0] if k else np.full(rows.size, n_eff), n_eff)

    G = lambda a: a.reshape((g, r_) + a.shape[1:])  # noqa: E731
    delay3, valid3 = G(delay), G(valid)
    drifts_total = valid3.sum(axis=(1, 2))
    tp_g, fa_g, before_g = G(tp).sum(1), G(fa).sum(1), G(before).sum(1)
    detected_total = tp_g
    summ = delay_summary(delay3, alpha=alpha)
    mtd = ratio(np.where(valid3, np.nan_to_num(delay3), 0).sum(axis=(1, 2)), detected_total)
    recall = ratio(detected_total, drifts_total)
    mdr = 1.0 - recall
    exposure = (r_ * float(n)) if n is not None else np.nan
    mtfa = np.where(fa_g > 0, ratio(exposure, fa_g), np.inf) if n is not None else np.full(g, np.nan)
    per_rk = {"delay": delay3}
    per_r = {"n_alarms": G(n_alarms), "false_alarms": G(fa)}
    per_k = {
        "delay_mean": summ["mean"], "delay_median": summ["median"], "delay_std": summ["std"],
        "delay_ci_low": summ["ci_low"], "delay_ci_high": summ["ci_high"],
        "n_detected": summ["count"], "n_missed": valid3.sum(axis=1) - summ["count"],
    }  # fmt: skip
    per_g = {
        "n_runs": np.full(g, r_, np.int64),
        "n_drifts": drifts_total,
        "false_alarms_before": before_g,
        "false_alarms_between": fa_g - before_g,
        "false_alarms_per_run": fa_g / r_,
        "precision": ratio(tp_g, tp_g + fa_g),
        "recall": recall,
        "f1": ratio(2 * tp_g, 2 * tp_g + fa_g + (drifts_total - tp_g)),
        "missed_detection_rate": mdr,
        "mean_time_to_detection": mtd,
        "mean_time_between_false_alarms": mtfa,
        "mean_time_ratio": _mtr(mtfa, mtd, mdr),
        "false_alarm_rate": ratio(fa_g * rate_period, exposure) if n is not None else np.full(g, np.nan),
        "alarm_rate": ratio(G(n_alarms).sum(1) * rate_period, exposure) if n is not None else np.full(g, np.nan),
        "normalised_delay": mtd / max_delay if max_delay is not None else np.full(g, np.nan),
        "delay_penalised": ratio(np.nansum(G(penalised), axis=(1, 2)), drifts_total),
        "arl0": np.where(before_g > 0, ratio(G(exposure0).sum(1), before_g), np.inf),
        "arl1": ratio(np.nansum(G(run_len1), axis=(1, 2)), (~np.isnan(G(run_len1))).sum(axis=(1, 2))),
    }
    if warn_ev is not None:
        _warnings_streamtk(warn_ev, n_eff, rr, lo, hi, found, first, s, valid, G, per_rk, per_r, per_k)
    return per_rk, per_r, per_k, per_g


def _mtr(mtfa, mtd, mdr):
    """CD-MOA's mean time ratio MTFA / MTD x (1 - MDR); inf when MTD = 0 < MTFA."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = mtfa / mtd * (1.0 - mdr)
    return np.where((mtd == 0) & (mtfa > 0) & (mdr < 1), np.inf, out)


def _warnings_streamtk(wev, n_eff, rr, lo, hi, found, first, s, valid, G, per_rk, per_r, per_k):
    keyed = Keyed(wev, n_eff)
    stop = np.where(found, first + 1, hi)
    got, wfirst = keyed.first_in(rr, lo, stop)
    wdelay = G(np.where(got & valid, wfirst - s, np.nan))
    row = wev.row_of_each()
    onset = np.ones(wev.flat.size, bool)
    onset[1:] = (np.diff(wev.flat) != 1) | (row[1:] != row[:-1])
    per_rk["warning_delay"] = wdelay
    per_r["n_warnings"] = G(np.bincount(row[onset], minlength=wev.n_rows))
    per_k["warning_delay_mean"] = ratio(np.nansum(wdelay, axis=1), (~np.isnan(wdelay)).sum(axis=1))
    per_k["n_warned"] = (~np.isnan(wdelay)).sum(axis=1)


_ATTRS = {
    "delay": ("detection delay of each run (NaN: missed)", "instances", "first detection in the window - start_k"),
    "n_alarms": ("alarms raised in the run", "1", None),
    "false_alarms": ("false alarms of the run", "1", "alarms - detected drifts"),
    "delay_mean": ("mean detection delay over the runs that detected the drift", "instances", None),
    "delay_median": ("median detection delay over the runs that detected the drift", "instances", None),
    "delay_std": ("sample standard deviation (ddof=1) of the detection delay", "instances", None),
    "delay_ci_low": ("lower bound of the Student-t confidence interval of the mean delay", "instances",
                     "mean - t_{1-alpha/2, m-1} std / sqrt(m), m = runs that detected the drift"),
    "delay_ci_high": ("upper bound of the Student-t confidence interval of the mean delay", "instances",
                      "mean + t_{1-alpha/2, m-1} std / sqrt(m)"),
    "n_detected": ("runs in which the drift was detected", "1", None),
    "n_missed": ("runs in which the drift was missed", "1", None),
    "n_runs": ("number of runs", "1", None),
    "n_drifts": ("number of drifts over all runs", "1", None),
    "false_alarms_before": ("false alarms before the first drift's window (all runs)", "1", None),
    "false_alarms_between": ("false alarms from the first drift's window on (all runs)", "1", None),
    "false_alarms_per_run": ("false alarms per run", "1", None),
    "precision": ("precision: detected drifts / alarms (all runs; NaN without alarms)", "1", "TP / (TP + FP)"),
    "recall": ("recall = probability of true detection = episode recall (all runs)", "1", "TP / drifts"),
    "f1": ("F1 with the tolerance window (all runs)", "1", "2 TP / (2 TP + FP + FN)"),
    "missed_detection_rate": ("missed detection rate MDR (Bifet et al. 2013)", "1", "missed / drifts"),
    "mean_time_to_detection": ("mean time to detection MTD (Bifet et al. 2013), over detected drifts",
                               "instances", None),
    "mean_time_between_false_alarms": ("mean time between false alarms MTFA (Bifet et al. 2013)", "instances",
                                       "runs x n / false alarms (inf: none)"),
    "mean_time_ratio": ("mean time ratio MTR (Bifet et al. 2013)", "1", "MTFA / MTD x (1 - MDR)"),
    "false_alarm_rate": ("false alarms per rate_period instances", "1", "FP / (runs x n) x rate_period"),
    "alarm_rate": ("alarms per rate_period instances", "1", "alarms / (runs x n) x rate_period"),
    "normalised_delay": ("mean delay as a fraction of max_delay (NaN without max_delay)", "1", "MTD / max_delay"),
    "delay_penalised": ("mean delay with a missed drift counted as its whole window (Tornado)", "instances",
                        "mean over drifts of (delay, or stop_k - start_k when missed)"),
    "arl0": ("average run length under no change: instances before the first drift per alarm raised there",
             "instances", "sum over runs of (first window opening) / alarms before it (inf: none)"),
    "arl1": ("average run length after a change: first alarm after start_k (before the next drift) - start_k",
             "instances", "no max_delay / max_early_detection: the detector's own reaction time"),
    "warning_delay": ("first warning in the drift's window up to its detection - start_k (NaN: none)",
                      "instances", None),
    "n_warnings": ("warning episodes (maximal runs of warning instances) of the run", "1", None),
    "warning_delay_mean": ("mean warning delay over the runs warned", "instances", None),
    "n_warned": ("runs warned of the drift before or at its detection", "1", None),
}  # fmt: skip


def _assemble(ev, truth, parts, attrs_of, params) -> xr.Dataset:
    per_rk, per_r, per_k, per_g = parts
    gd = tuple(ev.gdims)
    gs = tuple(ev.gshape)
    k = truth.n_drifts
    layout = [(per_rk, ("run", "drift"), (ev.n_runs, k)), (per_r, ("run",), (ev.n_runs,)),
              (per_k, ("drift",), (k,)), (per_g, (), ())]  # fmt: skip
    data = {}
    for part, tail, tshape in layout:
        for name, arr in part.items():
            long_name, units, formula = attrs_of.get(name, (name, "1", None))
            a = {"long_name": long_name, "units": units}
            if formula:
                a["formula"] = formula
            data[name] = (gd + tail, np.asarray(arr).reshape(gs + tshape), a)
    coords = dict(ev.gcoords)
    if ev.runs is not None:
        coords["run"] = ("run", ev.runs)
    for name, (dims, values, a) in truth.coords().items():
        coords[name] = (dims, values, a)
    ds = xr.Dataset(data, coords=coords)
    ds.attrs = base_attrs("drift detection scores", **params)
    return ds


def _check_truth_runs(truth: DriftTruth, ev) -> DriftTruth:
    truth = truth.for_runs(ev.n_runs, ev.runs)
    truth.check_against(ev.n)
    return truth


def score_detections(detections, true_drifts, *, convention="streamtk", max_delay=None, max_early_detection=0,
                     rate_period=1000, n=None, warnings=None, alpha=0.05, run_dim="run") -> xr.Dataset:  # fmt: skip
    r"""Score a detector's alarms against the true drifts, over many runs and settings at once.

    Parameters
    ----------
    detections : xarray.Dataset, DataArray, bool array or list of index sequences
        A detector's output (``detection_index`` / ``n_detections``, or a
        ``detection`` trace; the runs along ``run_dim``, every other dim - e.g.
        ``lambda``, ``drift_level``, ``estimator`` - kept as a setting dim); a
        boolean DataArray of flags ``(..., run, time)``; a boolean array ``(runs, n)``;
        or one sequence of 0-based alarm indices per run. Signed integer flags
        (ADWIN's ``+1`` / ``-1``) count the rises, as MOA's ``ADWINChangeDetector``.
    true_drifts : int, sequence, DriftTruth or DataArray
        0-based change points and/or ``(start, end)`` pairs for gradual drifts, the
        same in every run; per-run drifts as :class:`~streamtk.drift.truth.DriftTruth`
        ``.per_run([...])`` or a DataArray ``(run, drift[, bound])``. An empty
        sequence scores streams without change (every alarm is false).
    convention : {"streamtk", "capymoa", "moa"}
        The matching rule and measures (module docstring; ``docs/drift_scoring.md``).
    max_delay : int, optional
        Longest delay (after the drift's end) that still counts: a detection at
        ``end_k + max_delay`` counts, one later does not. ``"streamtk"``: default
        None (until the next drift); ``"capymoa"``: required (its ``max_delay``);
        ``"moa"``: not used (MOA has none).
    max_early_detection : int, default 0
        How many instances before a drift starts a detection still counts (delays
        can then be negative); capymoa's parameter of the same name.
    rate_period : int, default 1000
        Instances per period of the false-alarm and alarm rates (capymoa's).
    n : int, optional
        Stream length; taken from the Dataset (``n_instances``) or flags when not given.
    warnings : True, Dataset, DataArray, bool array or list, optional
        The detector's warning zone (``True``: the ``warning`` trace of the
        detector Dataset) - scored by ``"streamtk"`` (``warning_delay``,
        ``n_warnings``) and ``"moa"`` (``detected_warnings``).
    alpha : float, default 0.05
        Significance level of the confidence interval of the mean delay.
    run_dim : str, default "run"
        The dim of a Dataset / DataArray input that holds the runs.

    Returns
    -------
    xarray.Dataset
        Dims ``(*settings, run, drift)``; every variable has ``long_name``,
        ``units`` and (where useful) ``formula`` attrs. Under ``"streamtk"``: per run
        and drift ``delay``; per run ``n_alarms``, ``false_alarms``; per drift across
        runs ``delay_mean``, ``delay_median``, ``delay_std``, ``delay_ci_low`` /
        ``delay_ci_high`` (Student-t interval of the mean at level ``1 - alpha``),
        ``n_detected``, ``n_missed``; over runs and drifts ``precision``, ``recall``,
        ``f1``, ``missed_detection_rate`` (MDR), ``mean_time_to_detection`` (MTD),
        ``mean_time_between_false_alarms`` (MTFA), ``mean_time_ratio`` (MTR),
        ``false_alarm_rate``, ``alarm_rate``, ``normalised_delay``, ``delay_penalised``,
        ``arl0``, ``arl1``, ``false_alarms_before`` / ``_between`` / ``_per_run``,
        ``n_runs``, ``n_drifts``. Under ``"capymoa"`` and ``"moa"``: the fields of
        those tools per run (see :mod:`streamtk.drift.conventions`) and the same
        per-drift delay statistics. ``attrs["table"]``: :func:`detection_table`.

    Notes
    -----
    Undefined values are NaN: a delay statistic with no detection (or, for the
    standard deviation and the interval, fewer than two), precision without alarms,
    rates when ``n`` is unknown. MTFA and ARL0 are ``inf`` without false alarms.

    References: Gama, Sebastiao & Rodrigues (2013), ``seeds/004_*.txt`` section 5
    (delay, misses, false alarms; Tables 2-3); Gama (2014) slides, ``seeds/002_*.txt``
    ("Methods for explicit change detection"); Bifet, Read, Pfahringer, Holmes &
    Zliobaite (2013), CD-MOA (MTFA, MTD, MDR, MTR; ARL(0) = MTFA and ARL(theta) = MTD
    under no tolerance); Cerqueira et al. (2026) and capymoa's ``EvaluateDriftDetector``
    (precision, recall, F1 with a tolerance window, normalised delay, rates);
    Pesaranghader et al. (Tornado; delay with a miss penalty).

    See Also
    --------
    capymoa.drift.eval_detector.EvaluateDriftDetector : ``convention="capymoa"``.
    moa.evaluation.BasicConceptDriftPerformanceEvaluator : ``convention="moa"``.
    detection_table : the text table in the layout of Gama et al. Tables 2-3.

    Examples
    --------
    >>> from streamtk.drift.scoring import score_detections
    >>> s = score_detections([[120, 700], [90], []], [100], max_delay=500, n=1000)
    >>> s["delay_mean"].values.tolist(), int(s["n_missed"].sum()), int(s["false_alarms_between"])
    ([20.0], 2, 1)
    >>> c = score_detections([[500, 1200, 1250, 2100]], [1000, 2000], convention="capymoa", max_delay=200, n=3000)
    >>> float(c["f1"][0]), float(c["mdt"][0])
    (0.6666666666666666, 150.0)
    """
    convention = check_choice(convention, "convention", CONVENTIONS)
    early = check_positive_int(max_early_detection, "max_early_detection", minimum=0)
    rate_period = check_positive_int(rate_period, "rate_period")
    alpha = check_in_open_unit_interval(alpha, "alpha")
    if max_delay is not None:
        max_delay = check_positive_int(max_delay, "max_delay")
    if n is not None:
        n = check_positive_int(n, "n")
    truth = as_truth(true_drifts)
    ev = as_events(detections, run_dim=run_dim, n=n)
    truth = _check_truth_runs(truth, ev)
    warn_ev = None if warnings is None else as_warnings(warnings, ev, run_dim=run_dim, detections=detections)
    params = {"convention": convention, "true_drifts": truth.describe(), "max_delay": max_delay,
              "max_early_detection": early, "rate_period": rate_period, "n": ev.n, "alpha": alpha}  # fmt: skip
    if convention == "streamtk":
        parts = _streamtk(ev, truth, max_delay=max_delay, early=early, rate_period=rate_period,
                          alpha=alpha, warn_ev=warn_ev)  # fmt: skip
        attrs_of = _ATTRS
        params["matching"] = (
            "first detection in [start_k - max_early_detection, min(end_k + max_delay + 1, next window, n)) detects "
            "drift k with delay index - start_k; all other detections are false alarms"
        )
        params["reference"] = "Gama, Sebastiao & Rodrigues (2013) sec. 5; Bifet et al. (2013) CD-MOA"
    elif convention == "capymoa":
        if max_delay is None:
            raise ValueError("convention='capymoa' needs max_delay (capymoa's EvaluateDriftDetector(max_delay=...))")
        if warn_ev is not None:
            raise ValueError("convention='capymoa' has no warnings (capymoa's evaluator scores detections only)")
        if ev.n is None:
            raise ValueError("convention='capymoa' needs the stream length n (capymoa's tot_n_instances)")
        parts, attrs_of = score_capymoa(ev, truth, max_delay=max_delay, early=early, rate_period=rate_period,
                                        alpha=alpha)  # fmt: skip
        params["reference"] = "capymoa 0.15 capymoa.drift.eval_detector.EvaluateDriftDetector; Cerqueira et al. 2026"
    else:
        if max_delay is not None or early:
            raise ValueError(
                "convention='moa' has no max_delay or max_early_detection (MOA's evaluator credits a change with "
                f"the first detection before the next change); got max_delay={max_delay!r}, "
                f"max_early_detection={early!r}"
            )
        if ev.n is None:
            raise ValueError("convention='moa' needs the stream length n")
        parts, attrs_of = score_moa(ev, truth, warn_ev, alpha=alpha)
        params["reference"] = "MOA BasicConceptDriftPerformanceEvaluator in the EvaluateConceptDrift task"
    ds = _assemble(ev, truth, parts, attrs_of, params)
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

    One row per combination of the setting dims, one column per drift:
    ``"mean ± std (misses)"``; ``"Miss"`` when every run missed the drift. With
    ``false_alarms=True`` the parentheses hold ``(misses; false alarms)`` as in
    Table 3 (false alarms over the whole run, so the same in every column; needs
    the ``"streamtk"`` convention's ``false_alarms`` per run).
    """
    dm = scores["delay_mean"]
    other = [d for d in dm.dims if d != "drift"]
    k = scores.sizes["drift"]
    n_rows = int(np.prod([scores.sizes[d] for d in other], dtype=np.int64))
    stacked = {v: scores[v].transpose(*other, "drift").values.reshape(n_rows, k)
               for v in ("delay_mean", "delay_std", "n_missed")}  # fmt: skip
    runs = (scores["n_missed"] + scores["n_detected"]).max("drift") if k else scores["n_missed"].sum("drift")
    runs = runs.transpose(*other).values.reshape(n_rows)
    if "false_alarms" in scores:
        fa = scores["false_alarms"].sum("run").transpose(*other).values.reshape(n_rows)
    else:
        fa = np.zeros(runs.size, np.int64)
    labels = [""]
    if other:
        values = [scores[d].values.tolist() if d in scores.coords else range(scores.sizes[d]) for d in other]
        labels = [", ".join(f"{d}={v}" for d, v in zip(other, combo)) for combo in itertools.product(*values)]
    header = [""] + [f"drift {_drift_label(scores, j)}" for j in range(k)]
    rows = [header]
    for i, lab in enumerate(labels):
        rows.append([lab] + [
            _cell(stacked["delay_mean"][i, j], stacked["delay_std"][i, j], int(stacked["n_missed"][i, j]),
                  int(runs[i]), int(fa[i]), false_alarms, decimals)
            for j in range(k)
        ])  # fmt: skip
    widths = [max(len(r[c]) for r in rows) for c in range(len(header))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows)


def _drift_label(scores, j) -> str:
    if "drift" in scores.coords and scores["drift"].ndim == 1:
        s = int(scores["drift"].values[j])
        e = int(scores["drift_end"].values[j]) if "drift_end" in scores.coords else s
        return f"at {s}" if s == e else f"at ({s}, {e})"
    return f"#{j}"
