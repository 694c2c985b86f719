"""AMIDST deliverable, Figure 2.1: an ROC curve (true positive rate vs false positive rate) with the
random-guess diagonal, and AUC as the concordance probability.

Seed 001 sec. 2.1.2-2.1.3 (Figure 2.1, eqs. 2.4-2.9). The scores are MOA's naive Bayes and Hoeffding
tree class scores P(UP) recorded test-then-train on Electricity; :func:`streamtk.roc_pr_curves` gives the
curve over all thresholds ``h_T(x) = [q(x) >= T]`` (eq. 2.4) and :func:`streamtk.auc_curves` the AUC as
``U1 / (n0 n1)`` (eq. 2.9); both are checked against scipy's Mann-Whitney U.
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
from ._logs import dataset_log  # noqa: E402
from ._plot import legend_outside, new_figure  # noqa: E402

ITEM = "amidst.fig2.1"
MODELS = ("NB", "HT")


def data_needed(quick):
    """The data sets this script reads (:mod:`paper_figures._data`), in either mode."""
    return ("electricity",)


def compute(ctx):
    import streamtk

    n = ctx.n(6000, 45312)
    log, src = dataset_log(ctx, "electricity", n)
    y = log["y_true"].values
    pos = 1
    out = {}
    for m in MODELS:
        s = log["y_score"].sel(model=m, **{"class": pos}).values.astype(float)
        roc = streamtk.roc_pr_curves(y, s, at=[len(y)], pos_label=pos).isel(estimator=0, checkpoint=-1)
        auc = float(streamtk.auc_curves(y, s, every=len(y), pos_label=pos)["auc"].isel(estimator=0, time=-1))
        fpr, tpr = roc["fpr"].values, roc["tpr"].values
        keep = np.isfinite(fpr) & np.isfinite(tpr)
        out[m] = (fpr[keep], tpr[keep], auc, s)
    return n, y, out


def run(ctx):
    """AMIDST Figure 2.1 (ROC curve)."""
    from scipy.stats import mannwhitneyu

    sec = ctx.section(
        "amidst_roc", "AMIDST — Figure 2.1 (ROC curve and AUC = P(Q1 > Q0))", "seed 001, sec. 2.1.2-2.1.3"
    )
    n, y, out = compute(ctx)
    fig, axes = new_figure(1, 1, size=(4.2, 3.8))
    ax = axes[0, 0]
    for k, (m, (fpr, tpr, auc, _)) in enumerate(out.items()):
        ax.plot(fpr, tpr, color=f"C{k}", lw=1.3, label=f"MOA {m} (AUC = {auc:.3f})")
    ax.plot([0, 1], [0, 1], ls="--", color="gray", lw=1, label="random guess")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.0)
    ax.set_aspect("equal")
    ax.set_xlabel("false positive rate (false alarms)")
    ax.set_ylabel("true positive rate (hit rate)")
    legend_outside(ax)
    ctx.savefig(
        fig,
        "amidst_fig2_1",
        f"AMIDST Fig. 2.1: ROC of MOA's NB and HT scores P(UP) on Electricity ({n} "
        "instances, test-then-train); dashed: random guess",
    )
    for m, (fpr, tpr, auc, s) in out.items():
        u1 = float(mannwhitneyu(s[y == 1], s[y == 0]).statistic)
        ref = u1 / (np.sum(y == 1) * np.sum(y == 0))
        area = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))  # the trapezoidal rule
        sec.claim(
            ITEM,
            f"{m}: AUC = P(Q1 > Q0) = U1 / (n0 n1) (eqs. 2.5, 2.9; ties count one half)",
            abs(area - ref) < 1e-9 and abs(auc - ref) < 1e-9,
            f"area under the drawn ROC {area:.12f}; streamtk auc {auc:.12f}; scipy Mann-Whitney U1/(n0 n1) {ref:.12f}",
        )
    sec.result(
        ITEM,
        paper="an ROC curve with the random-guess diagonal (an illustration; no data given)",
        ours=", ".join(f"{m} AUC {v[2]:.3f}" for m, v in out.items())
        + "; the area under each drawn curve equals U1/(n0 n1) to 1e-9",
        reason="the deliverable's figure is an illustration without data; ours is drawn for recorded MOA scores",
        cap="qualitative match",
    )


if __name__ == "__main__":
    raise SystemExit(script_main(run, name="amidst_roc"))
