"""Plain-text tables of evaluation, comparison and detection results (consumers of the labelled layer)."""

from __future__ import annotations

import numpy as np

__all__ = ["summary_table", "comparison_table", "detector_table", "TABLE_METRICS"]

TABLE_METRICS = ("accuracy", "kappa", "kappa_m", "kappa_per", "kappa_plus")


def _rows(da_last, lead_dims):
    """Every combination of the leading labels of a Dataset at one checkpoint."""
    if not lead_dims:
        return [({}, "")]
    stacked = da_last.stack(_row=lead_dims)
    out = []
    for i in range(stacked.sizes["_row"]):
        labels = {d: stacked[d].values[i] for d in lead_dims}
        out.append((labels, "/".join(str(v) for v in labels.values())))
    return out


def summary_table(ds, metrics=None, *, estimators=None) -> str:
    """A plain-text table of the final value of each metric per model (and other leading dims) and estimator.

    ``metrics`` default: those of ``accuracy, kappa, kappa_m, kappa_per, kappa_plus`` in
    the Dataset (of a regression or interval Dataset: its first six metrics without a class, quantile or target
    dim); variables with a ``class`` dim are refused (select a class first).
    """
    if metrics is None:
        metrics = [m for m in TABLE_METRICS if m in ds]
        auc = [m for m in ("auc", "auc_macro") if m in ds and "class" not in ds[m].dims]
        metrics += auc[:1]  # scores were evaluated
        if not metrics:  # another family (regression, intervals): its first scalar metrics, in the Dataset's order
            metrics = [str(v) for v in ds.data_vars if v != "n_instances" and {"estimator", "time"} <= set(ds[v].dims)
                       and not {"class", "quantile", "target"} & set(ds[v].dims)][:6]  # fmt: skip
    metrics = list(metrics)
    missing = [m for m in metrics if m not in ds]
    if missing:
        raise ValueError(f"metrics {missing} are not in the Dataset; it has {sorted(map(str, ds.data_vars))}")
    for m in metrics:
        if "class" in ds[m].dims:
            raise ValueError(f"{m!r} is per class: select a class first (ds.sel({{'class': ...}}))")
    last = ds[metrics].isel(time=-1)
    ests = list(last.estimator.values) if estimators is None else list(estimators)
    lead = [d for d in last[metrics[0]].dims if d != "estimator"]
    rows = _rows(last, lead)
    name_w = max([5] + [len(r[1]) for r in rows]) + 2
    est_w = max([9] + [len(str(e)) for e in ests]) + 2
    col_w = [max(12, len(m) + 2) for m in metrics]
    head = f"{'/'.join(lead) or 'model':<{name_w}}{'estimator':<{est_w}}" + "".join(
        f"{m:>{w}}" for m, w in zip(metrics, col_w)
    )
    lines = [head, "-" * len(head)]
    for labels, name in rows:
        sub = last.sel(labels) if labels else last
        for est in ests:
            row = sub.sel(estimator=est)
            vals = "".join(f"{float(row[m]):>{w}.4f}" for m, w in zip(metrics, col_w))
            lines.append(f"{name:<{name_w}}{str(est):<{est_w}}{vals}")
    return "\n".join(lines)


def comparison_table(ds) -> str:
    """Text table of the last checkpoint of :func:`streamtk.compare`: one row per pair and estimator."""
    last = ds.isel(time=-1)
    head = f"{'A':<12}{'B':<12}{'estimator':<14}{'n01':>9}{'n10':>9}{'McNemar':>10}{'p':>10}{'reject':>8}{'Q':>9}"
    lines = [head, "-" * len(head)]
    if "model_a" in last.dims:
        va, vb = list(last.model_a.values), list(last.model_b.values)
        pairs = [(a, b) for i, a in enumerate(va) for b in vb[i + 1 :]]  # each unordered pair once
    else:
        pairs = [(last.attrs.get("model_a", "A"), last.attrs.get("model_b", "B"))]
    for a, b in pairs:
        row = last.sel(model_a=a, model_b=b) if "model_a" in last.dims else last
        for e in row.estimator.values:
            r = row.sel(estimator=e)
            n01, n10, m, p = (float(r[v]) for v in ("n01", "n10", "mcnemar", "p_value"))
            lines.append(
                f"{str(a):<12}{str(b):<12}{str(e):<14}{n01:>9.1f}{n10:>9.1f}{m:>10.2f}{p:>10.2g}"
                f"{'yes' if bool(r['reject']) else 'no':>8}{float(r['q']):>9.3f}"
            )
    lines.append("(McNemar > 0 and Q > 0: A makes more errors than B)")
    return "\n".join(lines)


def detector_table(alarms: dict, scores: dict, drifts) -> str:
    """Alarms, delay per drift and false alarms of each detector (one error stream)."""
    head = (
        f"{'detector':<14}{'alarms':>7}  "
        + "".join(f"{'delay@' + str(d):>12}" for d in drifts)
        + f"{'false alarms':>14}"
    )
    lines = [head, "-" * len(head)]
    for name, idx in alarms.items():
        s = scores[name]
        delays = "".join(f"{'miss' if np.isnan(v) else int(v):>12}" for v in s["delay_mean"].values.ravel())
        fa = int(s["false_alarms_before"]) + int(s["false_alarms_between"])
        lines.append(f"{name:<14}{len(idx):>7}  {delays}{fa:>14}")
    return "\n".join(lines)
