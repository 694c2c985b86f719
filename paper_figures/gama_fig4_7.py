"""Gama et al. 2013, Figures 4-7: Q statistic (cumulative, window 250, fading 0.995) and signed
McNemar (cumulative, windows 1000 and 100, fading 0.999 and 0.99; threshold 6.635) between naive
Bayes and naive Bayes relearning on DDM drifts, on SEA with drifts.

Seed 004 sec. 4 (Figs. 4-5: Q statistic; Figs. 6-7: signed McNemar) and seed 002 (slides).
Everything from one :func:`streamtk.comparison.compare.compare` call. The paper's Figs. 4-5 compare two
neural networks on an electrical load-demand problem with the squared error; we use the same
SEA pair with the 0/1 loss (the data is not public), so Figs. 4-5 are reproduced in form only.
"""

from __future__ import annotations

import numpy as np

if __package__ in (None, ""):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from paper_figures._common import new_figure, script_main, sea_nb_log  # noqa: E402


def compute(ctx):
    from streamtk.comparison.compare import compare, mcnemar_threshold

    seg = ctx.n(3000, 15000)
    log = sea_nb_log(ctx, seg)
    y = log["y_true"].values
    ds = compare(
        y,
        log["y_pred"].sel(model="NB").values,
        log["y_pred"].sel(model="NB-DDM").values,
        windows=(250, 1000, 100),
        fading=(0.995, 0.999, 0.99),
        every=max(len(y) // 1000, 1),
        significance=0.01,
    )
    det = np.asarray(log.attrs.get("detections_NB-DDM", []), dtype=int).ravel()
    return seg, ds, det, float(mcnemar_threshold(0.01)), log


def _drifts(ax, seg, det):
    for d in (seg, 2 * seg, 3 * seg):
        ax.axvline(d, color="k", ls="--", lw=0.7)
    for d in det:
        ax.axvline(d + 1, color="C3", lw=0.5, alpha=0.6)


def run(ctx):
    """Gama et al. 2013 Figures 4-7."""
    sec = ctx.section(
        "gama_fig4_7",
        "Gama et al. 2013 — Figures 4-7 (Q statistic and signed McNemar)",
        "seed 004, sec. 4, Figs. 4-7; seed 002 (slides)",
    )
    seg, ds, det, thr, log = compute(ctx)
    x = ds["instance"]
    fig, axes = new_figure(3, 1, size=(7, 2.2), sharex=True)
    for ax, est in zip(axes[:, 0], ("prequential", "window=250", "fading=0.995")):
        ax.plot(x, ds["q"].sel(estimator=est), lw=0.8)
        ax.axhline(0, color="k", lw=0.5)
        ax.set_ylabel(f"Q ({est})", fontsize=8)
        _drifts(ax, seg, det)
    axes[-1, 0].set_xlabel("instances")
    ctx.savefig(
        fig,
        "gama_fig4_5",
        "Gama Figs. 4-5: Q = log(S_NB / S_NB-DDM), cumulative / window 250 / fading "
        "0.995 (dashed: true drifts, red: DDM detections)",
    )
    fig, axes = new_figure(3, 2, size=(5.5, 2.2), sharex=True)
    ests = ["prequential", None, "window=1000", "window=100", "fading=0.999", "fading=0.99"]
    for ax, est in zip(axes.ravel(), ests):
        if est is None:
            ax.plot(x, ds["loss_a"].sel(estimator="window=1000"), lw=0.8, label="NB error (w=1000)")
            ax.plot(x, ds["loss_b"].sel(estimator="window=1000"), lw=0.8, label="NB-DDM error (w=1000)")
            ax.legend(fontsize=7)
            _drifts(ax, seg, det)
            continue
        ax.plot(x, ds["mcnemar"].sel(estimator=est), lw=0.8)
        ax.axhline(thr, color="k", ls=":", lw=0.8)
        ax.axhline(-thr, color="k", ls=":", lw=0.8)
        ax.set_ylabel(f"M ({est})", fontsize=8)
        _drifts(ax, seg, det)
    ctx.savefig(
        fig,
        "gama_fig6_7",
        "Gama Figs. 6-7: signed McNemar NB vs NB-DDM (cumulative; windows 1000, 100; "
        "fading 0.999, 0.99); dotted: +-6.635",
    )
    sec.compare("McNemar threshold at 99 %", 6.635, round(thr, 3), decimals=3)
    m = ds["mcnemar"].sel(estimator="prequential").values
    above = np.where(m > thr)[0]
    if above.size:
        first = int(above[0])
        sec.compare(
            "cumulative M falls back below 6.635 after first crossing (1 = yes)",
            0,
            int(np.any(m[first:] <= thr)),
            note="the paper: 'once this statistic overcomes the threshold value (6.635), it never decreases below it'",
        )
    scale = "quick mode" if ctx.quick else "as in the paper"
    sec.note(
        f"Scale: four SEA concepts of {seg} instances ({scale}); river's DDM relearning detected drifts at "
        f"{(det + 1).tolist()}."
    )


if __name__ == "__main__":
    raise SystemExit(script_main(run))
