"""Gama et al. 2013, Figure 8: Page-Hinkley on the error of naive Bayes on SEA, first drift at 15000.

Seed 004 sec. 5.1 (Figure 8). The naive Bayes 0/1 loss over SEA (river, four concepts of 15000
instances; in quick mode of 3000) is monitored by :func:`streamtk.drift.page_hinkley`
(``variant="gama2013"``, delta = 0.1... see the note) on the raw loss; the left panel is the
prequential error from :func:`streamtk.evaluate`.
"""

from __future__ import annotations

import numpy as np

if __package__ in (None, ""):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from paper_figures._common import new_figure, script_main, sea_nb_log  # noqa: E402

DELTA, LAMBDA = 0.005, 50.0


def compute(ctx):
    import streamtk
    from streamtk.drift import page_hinkley

    seg = ctx.n(3000, 15000)
    log = sea_nb_log(ctx, seg)
    y = log["y_true"].values
    pred = log["y_pred"].sel(model="NB").values
    n = 2 * seg  # the first two concepts: one drift
    err = (pred[:n] != y[:n]).astype(float)
    curves = streamtk.evaluate(y[:n], pred[:n], every=max(n // 600, 1), metrics=["error"])
    ph = page_hinkley(err, variant="gama2013", delta=DELTA, lambda_=LAMBDA, reset=False)
    return seg, curves, ph


def run(ctx):
    """Gama et al. 2013 Figure 8."""
    sec = ctx.section(
        "gama_fig8", "Gama et al. 2013 — Figure 8 (Page-Hinkley on SEA, drift at 15000)", "seed 004, sec. 5.1, Figure 8"
    )
    seg, curves, ph = compute(ctx)
    det = ph["detection_index"].values.ravel()
    det = det[det >= 0]
    first = int(det[det >= seg][0]) + 1 if np.any(det >= seg) else None
    fig, axes = new_figure(1, 2, size=(5, 3.4))
    ax = axes[0, 0]
    ax.plot(curves["instance"], curves["error"].isel(estimator=0), lw=1)
    ax.axvline(seg, color="k", ls="--", lw=0.8, label="drift")
    ax.set_xlabel("instances")
    ax.set_ylabel("prequential error (NB)")
    ax.legend(fontsize=8)
    ax = axes[0, 1]
    ax.plot(ph["instance"], ph["statistic"].values.ravel(), lw=1, label="PH_t")
    ax.axhline(LAMBDA, color="C3", lw=1, label="lambda")
    ax.axvline(seg, color="k", ls="--", lw=0.8)
    if first:
        ax.axvline(first, color="C2", lw=1, label="detection")
    ax.set_xlabel("instances")
    ax.legend(fontsize=8)
    ctx.savefig(
        fig,
        "gama_fig8",
        f"Gama Fig. 8: NB on SEA, drift at {seg}; Page-Hinkley (delta={DELTA}, lambda={LAMBDA}) on the 0/1 loss",
    )
    sec.compare(
        "drift position (instances)",
        15000,
        seg,
        note="quick mode scales the concepts to 3000 instances" if ctx.quick else "",
    )
    sec.compare("false alarms before the drift", 0, int(np.sum(det < seg)))
    if first is not None:
        sec.compare(
            "detection delay (instances)",
            float("nan"),
            first - seg,
            note="the paper shows the detection in the plot but gives no number",
        )
    sec.note(
        f"Page-Hinkley `variant='gama2013'` on the raw 0/1 loss, delta = {DELTA}, lambda = {LAMBDA} (the "
        "paper does not state Figure 8's parameters; these are MOA's defaults), no reset."
    )


if __name__ == "__main__":
    raise SystemExit(script_main(run))
