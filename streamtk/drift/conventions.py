"""The scoring conventions of capymoa and MOA, reproduced exactly and vectorised over runs and settings.

``convention="capymoa"`` -- capymoa 0.15's ``EvaluateDriftDetector(max_delay, rate_period,
max_early_detection).calc_performance(trues, preds, tot_n_instances)`` (Cerqueira, Gomes,
Heyden, Pfahringer & Bifet, KDD 2026). With ``b_0 = 0`` and ``b_k = end_{k-1} + max_delay``,
drift ``k`` owns the *episode* of alarms ``p`` with ``b_k < p <= end_k + max_delay`` (so an
alarm at index 0 is never counted); an alarm of the episode with
``p >= start_k - max_early_detection`` is a true positive (**every** one of them, not only
the first), the others are false positives, as are the alarms after
``end_last + max_delay``. Then ``fn`` = drifts without a true positive,
``precision = tp / (tp + fp)`` and ``recall = tp / (tp + fn)`` (0 when undefined),
``f1 = 2 p r / (p + r)`` (0 when ``p + r = 0``), ``episode_recall`` = detected drifts /
drifts, ``mdt`` = mean over detected drifts of (first true positive - ``start_k``),
``ndt = mdt / max_delay``, ``far = fp / n x rate_period``, ``ar = alarms / n x rate_period``.
Every floating-point operation is capymoa's, in its order, so the numbers are equal bit for
bit (``tests/test_drift_scoring_references.py`` holds them to capymoa itself).

``convention="moa"`` -- MOA's ``BasicConceptDriftPerformanceEvaluator`` as the
``EvaluateConceptDrift`` task drives it: at instance ``i`` the evaluator receives the
detector's output *before* the detector has seen input ``i`` (an alarm raised by input ``j``
reaches the evaluator at instance ``j + 1``; one raised by the last input never does), then
the instance with its change flag (set at each drift's ``start``). A detection credits the
change in progress, if any, with the delay "instances since the change flag": an alarm by
input ``j`` detects the change at ``start_k`` when ``start_k <= j < start_{k+1}`` (the first
such alarm), with MOA's delay ``j + 1 - start_k`` (one more than streamtk's ``j - start_k``).
``delay detection (average)`` divides the summed delays by the number of *true* changes
(a missed change adds 0 to the sum but 1 to the count). ``detected warnings`` counts the
entries into the warning zone while a change is in progress (the warning flag of input
``i - 1`` at instance ``i``). All instances weigh 1; the detector's own ``delay`` output is
taken as 0 (no streamtk detector reports one); ``prediction error`` and ``input values``
(functions of the monitored input, not of the alarms) are not reproduced.
"""

from __future__ import annotations

import numpy as np

from .measures import Keyed, delay_summary, ratio

__all__ = ["score_capymoa", "score_moa"]


def _truth_rows(ev, truth):
    rows = np.arange(ev.n_rows, dtype=np.int64)
    run_of = rows % ev.n_runs
    s, e = truth.start[run_of], truth.end[run_of]
    valid = np.arange(truth.n_drifts)[None, :] < truth.count[run_of][:, None]
    return rows, s, e, valid


def _per_drift(delay3, valid3, alpha):
    summ = delay_summary(delay3, alpha=alpha)
    return {
        "delay_mean": summ["mean"], "delay_median": summ["median"], "delay_std": summ["std"],
        "delay_ci_low": summ["ci_low"], "delay_ci_high": summ["ci_high"],
        "n_detected": summ["count"], "n_missed": valid3.sum(axis=1) - summ["count"],
    }  # fmt: skip


_COMMON = {
    "n_runs": ("number of runs", "1", None),
    "delay_mean": ("mean delay over the runs that detected the drift", "instances", None),
    "delay_median": ("median delay over the runs that detected the drift", "instances", None),
    "delay_std": ("sample standard deviation (ddof=1) of the delay", "instances", None),
    "delay_ci_low": ("lower bound of the Student-t confidence interval of the mean delay", "instances", None),
    "delay_ci_high": ("upper bound of the Student-t confidence interval of the mean delay", "instances", None),
    "n_detected": ("runs in which the drift was detected", "1", None),
    "n_missed": ("runs in which the drift was missed", "1", None),
}

CAPYMOA_ATTRS = {
    **_COMMON,
    "delay": ("first true positive - drift start (NaN: missed); capymoa's detection time", "instances", None),
    "tp": ("true positives: every alarm in [start - max_early_detection, end + max_delay] of its episode",
           "1", None),
    "fp": ("false positives: other alarms of the episodes and alarms after the last episode", "1", None),
    "fn": ("false negatives: drifts without a true positive", "1", None),
    "precision": ("precision (0 without alarms)", "1", "tp / (tp + fp)"),
    "recall": ("recall (0 when undefined)", "1", "tp / (tp + fn)"),
    "episode_recall": ("detected drifts / drifts", "1", None),
    "f1": ("F1 (0 when precision + recall = 0)", "1", "2 precision recall / (precision + recall)"),
    "mdt": ("mean time to detect over the detected drifts", "instances", None),
    "ndt": ("normalised detection time", "1", "mdt / max_delay"),
    "far": ("false alarm rate per rate_period instances", "1", "fp / n x rate_period"),
    "ar": ("alarm rate per rate_period instances", "1", "n_alarms / n x rate_period"),
    "n_episodes": ("drift episodes", "1", None),
    "n_alarms": ("alarms counted (an alarm at index 0 never is)", "1", None),
}  # fmt: skip


def score_capymoa(ev, truth, *, max_delay, early, rate_period, alpha):
    """capymoa's ``EvaluateDriftDetector`` on every row (module docstring)."""
    n = ev.n
    if np.any(truth.count == 0):
        raise ValueError("convention='capymoa' needs at least one drift in every run (capymoa fails without one)")
    g, r_ = ev.n_groups, ev.n_runs
    keyed = Keyed(ev, n)
    rows, s, e, valid = _truth_rows(ev, truth)
    rr = np.broadcast_to(rows[:, None], s.shape)
    close = e + max_delay + 1  # alarms p <= end + max_delay
    prev_close = np.concatenate([np.ones((s.shape[0], 1), np.int64), close[:, :-1]], axis=1)  # p > b_k: p >= b_k + 1
    open_tp = np.maximum(prev_close, s - early)
    in_episode = np.where(valid, keyed.count_between(rr, prev_close, close), 0)
    tp_k = np.where(valid, keyed.count_between(rr, open_tp, close), 0)
    found, first = keyed.first_in(rr, open_tp, close)
    found &= valid
    last_close = np.take_along_axis(close, (truth.count[rows % r_] - 1)[:, None], axis=1)[:, 0]
    trailing = np.diff(ev.offsets) - keyed.count_below(rows, last_close)
    tp = tp_k.sum(axis=1)
    fp = (in_episode - tp_k).sum(axis=1) + trailing
    fn = (valid & ~found).sum(axis=1)
    n_alarms = in_episode.sum(axis=1) + trailing
    etp = found.sum(axis=1)
    n_ep = valid.sum(axis=1)
    delay = np.where(found, first - s, np.nan)
    dsum = np.where(found, first - s, 0).sum(axis=1)
    precision = np.where(tp + fp > 0, ratio(tp, tp + fp), 0.0)
    recall = np.where(tp + fn > 0, ratio(tp, tp + fn), 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(precision + recall == 0, 0.0, 2.0 * (precision * recall) / (precision + recall))
        mdt = np.where(etp > 0, dsum / np.maximum(etp, 1), np.nan)
    ndt = mdt / max_delay
    far = (fp / max(1, n)) * rate_period
    ar = (n_alarms / max(1, n)) * rate_period
    G = lambda a: a.reshape((g, r_) + a.shape[1:])  # noqa: E731
    per_rk = {"delay": G(delay)}
    per_r = {name: G(v) for name, v in (("tp", tp), ("fp", fp), ("fn", fn), ("precision", precision),
                                        ("recall", recall), ("episode_recall", etp / np.maximum(1, n_ep)),
                                        ("f1", f1), ("mdt", mdt), ("ndt", ndt), ("far", far), ("ar", ar),
                                        ("n_episodes", n_ep), ("n_alarms", n_alarms))}  # fmt: skip
    per_k = _per_drift(G(delay), G(valid), alpha)
    return (per_rk, per_r, per_k, {"n_runs": np.full(g, r_, np.int64)}), CAPYMOA_ATTRS


MOA_ATTRS = {
    **_COMMON,
    "delay": ("MOA's delay of the first alarm crediting the change (j + 1 - start; NaN: missed)", "instances", None),
    "learned_instances": ("learned instances", "1", None),
    "detected_changes": ("detected changes (alarms that reached the evaluator)", "1", None),
    "detected_warnings": ("detected warnings (entries into the warning zone while a change is in progress)",
                          "1", None),
    "true_changes": ("true changes", "1", None),
    "delay_detection_average": ("delay detection (average)", "instances", "sum of delays / true changes"),
    "true_changes_detected": ("true changes detected", "1", None),
}  # fmt: skip


def _moa_warnings(n, starts, shifted_det, warn_idx) -> int:
    """MOA's ``numberWarnings`` of one run (a loop-free restatement of its state machine)."""
    chg = np.full(n, -1, np.int64)
    chg[starts] = starts
    last_chg = np.empty(n, np.int64)
    last_chg[0] = -1
    last_chg[1:] = np.maximum.accumulate(chg)[:-1]  # the last change flagged at an instance < i
    det = np.full(n, -1, np.int64)
    det[shifted_det] = shifted_det
    last_det = np.maximum.accumulate(det)  # the last alarm seen at an instance <= i
    pending = (last_chg >= 0) & (last_det <= last_chg)
    vote = np.zeros(n, bool)
    w = warn_idx[warn_idx + 1 < n]
    vote[w + 1] = True  # the warning flag of input i - 1 reaches the evaluator at instance i
    cond = pending & vote
    return int(cond[0]) + int(np.count_nonzero(cond[1:] & ~cond[:-1]))


def score_moa(ev, truth, warn_ev, *, alpha):
    """MOA's ``BasicConceptDriftPerformanceEvaluator`` on every row (module docstring)."""
    ev = ev.unique()
    n = ev.n
    g, r_ = ev.n_groups, ev.n_runs
    keyed = Keyed(ev, n)
    rows, s, _, valid = _truth_rows(ev, truth)
    rr = np.broadcast_to(rows[:, None], s.shape)
    nxt_valid = np.concatenate([valid[:, 1:], np.zeros((valid.shape[0], 1), bool)], axis=1)
    stop = np.where(nxt_valid, np.concatenate([s[:, 1:], s[:, :1]], axis=1), n - 1)  # alarms j <= n - 2 are seen
    stop = np.minimum(stop, n - 1)
    found, first = keyed.first_in(rr, np.where(valid, s, n), np.where(valid, stop, n))
    found &= valid
    delay = np.where(found, first + 1 - s, np.nan)
    total = np.where(found, first + 1 - s, 0).sum(axis=1).astype(np.float64)
    true_changes = valid.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        average = total / true_changes
    G = lambda a: a.reshape((g, r_) + a.shape[1:])  # noqa: E731
    per_r = {
        "learned_instances": G(np.full(rows.size, float(n))),
        "detected_changes": G(keyed.count_below(rows, n - 1)),
        "true_changes": G(true_changes),
        "delay_detection_average": G(average),
        "true_changes_detected": G(found.sum(axis=1)),
    }
    if warn_ev is not None:
        counts = np.empty(rows.size, np.int64)
        for i in range(rows.size):
            det = ev.flat[ev.offsets[i] : ev.offsets[i + 1]]
            det = det[det + 1 < n] + 1
            warn = warn_ev.flat[warn_ev.offsets[i] : warn_ev.offsets[i + 1]]
            counts[i] = _moa_warnings(n, s[i][valid[i]], det, warn)
        per_r["detected_warnings"] = G(counts)
    per_k = _per_drift(G(delay), G(valid), alpha)
    return ({"delay": G(delay)}, per_r, per_k, {"n_runs": np.full(g, r_, np.int64)}), MOA_ATTRS
