"""Bifet et al. 2015, Table 5: the confusion-matrix example (kappa, MCC, class-accuracy means, kappa_m).

Seed 000 sec. 5 ("Problems with Kappa Statistic and Harmonic Mean", Table 5 and sec. 5.4).
The 100 instances of the table (Class+ = 1: 40 predicted +, 30 predicted -; Class- = 0: 5
predicted +, 25 predicted -) are fed to :func:`streamtk.evaluate` and the final prequential
values are read off.
"""

from __future__ import annotations

if __package__ in (None, ""):  # run as a file: make the package-relative imports work (PEP 366)
    import sys
    from pathlib import Path

    _pkg = Path(__file__).resolve().parent
    __package__ = ("streamtk." if _pkg.parent.name == "streamtk" else "") + _pkg.name
    sys.path.insert(0, str(_pkg.parent.parent if _pkg.parent.name == "streamtk" else _pkg.parent))

import numpy as np  # noqa: E402

from ._common import script_main  # noqa: E402

PAPER = {  # percent
    "accuracy": 65.0,
    "p_ran": 48.0,
    "kappa": 32.69,
    "mcc": 37.28,
    "recall_pos": 57.14,
    "recall_neg": 83.33,
    "arithmetic_mean": 70.24,
    "geometric_mean": 69.01,
    "harmonic_mean": 67.80,
    "kappa_m": -16.67,
    "chance_pos": 31.50,
    "chance_neg": 16.50,
    "p_maj": 70.0,
}
METRICS = ["accuracy", "p_ran", "kappa", "mcc", "arithmetic_mean", "geometric_mean", "harmonic_mean", "recall"]


def table5_stream():
    """The 100 (y_true, y_pred) pairs of Table 5 (1 = Class+, 0 = Class-), true Class+ first."""
    y_true = np.array([1] * 70 + [0] * 30)
    y_pred = np.array([1] * 40 + [0] * 30 + [1] * 5 + [0] * 25)
    return y_true, y_pred


def compute():
    """Our values in percent (used by the tests)."""
    import streamtk

    y_true, y_pred = table5_stream()
    ds = streamtk.evaluate(y_true, y_pred, every=100, metrics=METRICS, pos_label=1)
    last = ds.isel(time=-1, estimator=0)
    ours = {m: 100 * float(last[m]) for m in METRICS if m != "recall"}
    ours["recall_pos"] = 100 * float(last["recall"].sel({"class": 1}))
    ours["recall_neg"] = 100 * float(last["recall"].sel({"class": 0}))
    moa = streamtk.evaluate(y_true, y_pred, every=100, metrics=["kappa_m", "p_maj"], convention="moa")
    ours["kappa_m"] = 100 * float(moa["kappa_m"].isel(time=-1, estimator=0))
    ours["p_maj_moa"] = 100 * float(moa["p_maj"].isel(time=-1, estimator=0))
    dflt = streamtk.evaluate(y_true, y_pred, every=100, metrics=["kappa_m", "p_maj"])
    ours["kappa_m_streamtk"] = 100 * float(dflt["kappa_m"].isel(time=-1, estimator=0))
    ours["p_maj_streamtk"] = 100 * float(dflt["p_maj"].isel(time=-1, estimator=0))
    # the chance classifier's hit rate per class: P(true c) * P(predicted c), from the same confusion counts
    n = len(y_true)
    for c, key in ((1, "chance_pos"), (0, "chance_neg")):
        ours[key] = 100 * float(np.sum(y_true == c) / n * np.sum(y_pred == c) / n)
    ours["p_maj"] = ours["p_maj_moa"]
    return ours


ITEM = "bifet.table5"


def run(ctx):
    """Bifet et al. 2015 Table 5 (exact)."""
    sec = ctx.section(
        "bifet_table5",
        "Bifet et al. 2015 — Table 5 (confusion-matrix example)",
        "seed 000, sec. 5.1-5.4, Table 5 and the text around it (values in %)",
    )
    ours = compute()
    labels = {
        "accuracy": "accuracy p0",
        "chance_pos": "chance classifier correct on Class+ (P(+) P(pred +))",
        "chance_neg": "chance classifier correct on Class- (P(-) P(pred -))",
        "p_ran": "chance accuracy pc",
        "kappa": "kappa",
        "mcc": "MCC",
        "recall_pos": "accuracy on Class+",
        "recall_neg": "accuracy on Class-",
        "arithmetic_mean": "arithmetic mean A",
        "geometric_mean": "geometric mean G",
        "harmonic_mean": "harmonic mean H",
        "p_maj": "majority class classifier accuracy",
        "kappa_m": "kappa_m",
    }
    for k, lab in labels.items():
        note = ""
        if k == "kappa_m":
            note = (
                f"`convention='moa'` (majority includes the current label: p_maj = {ours['p_maj_moa']:.2f}% = the "
                f"class prior, as the paper's 0.7). streamtk's test-then-train default gives "
                f"{ours['kappa_m_streamtk']:.2f}% (p_maj = {ours['p_maj_streamtk']:.2f}%: the first instance is "
                "predicted before any label is seen)"
            )
        dec = {"accuracy": 0, "p_ran": 0, "p_maj": 1}.get(k, 2)  # as printed: 65%, 48%, 70.0%
        sec.check(ITEM, lab, PAPER[k], ours[k], decimals=dec, note=note)
    sec.result(
        ITEM,
        paper="p0 65%, chance 31.50% / 16.50%, pc 48%, kappa 32.69%, MCC 37.28%, A 70.24%, G 69.01%, H 67.80%, "
        "kappa_m -16.67%",
        ours=f"kappa {ours['kappa']:.2f}%, MCC {ours['mcc']:.2f}%, H {ours['harmonic_mean']:.2f}%, "
        f"kappa_m {ours['kappa_m']:.2f}% (MOA convention)",
    )


if __name__ == "__main__":
    raise SystemExit(script_main(run, name="bifet_table5"))
