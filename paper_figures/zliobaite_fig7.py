"""Zliobaite et al. 2015, Figure 7: false alarms raise accuracy under temporal dependence (DDM-random: naive
Bayes retrained from scratch at random alarms raised with probability p).

Seed 003 sec. 6.9 (Figure 7). MOA's NaiveBayes (NB), its DriftDetectionMethodClassifier with DDM, and
NaiveBayes reset (``resetLearning``) at the alarms of :func:`streamtk.drift.random_detector` (probability
p per instance, DDM's warm-up of 30 instances: p = 1 alarms every 30th instance), all in one pass over
each stream; the Persistent classifier from :mod:`streamtk.dependence.baselines`; accuracies from
:func:`streamtk.evaluate`. Three versions of Elec2 and Cover: original, label-order-preserving shuffle
(temporal dependence kept, drift removed) and iid shuffle (:mod:`streamtk.dependence.shuffle`).
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
from ._data import mode  # noqa: E402
from ._plot import legend_outside, new_figure  # noqa: E402
from ._producers import LEARNERS, dataset_source, produce  # noqa: E402
from .zliobaite_fig2 import NAMES  # noqa: E402

ITEM = "zliobaite.fig7"
ORDERS = {"original": "original", "label_order": "temporal", "iid": "shuffled"}


def settings(ctx):
    if ctx.quick:
        return [("electricity", 3000)], (1e-3, 1e-2, 1e-1, 1.0)
    return [("electricity", 45312), ("covertype", 581012)], (1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1, 3e-1, 1.0)


def data_needed(quick):
    """The data sets this script reads in quick or full mode (:mod:`paper_figures._data`)."""
    return tuple(name for name, _ in settings(mode(quick))[0])


def compute(ctx, name, n, ps, order, seed=1):
    import xarray as xr

    import streamtk
    from streamtk.dependence.baselines import persistent
    from streamtk.drift import random_detector

    src = dataset_source(ctx, name, n, order=order, seed=seed)
    n = len(src.y)
    alarms = random_detector(np.zeros(n), p=list(ps), seed=seed, trace=False)["detection_index"].values
    learners = [LEARNERS["NB"], LEARNERS["DDM"]] + [LEARNERS["NB"].seeded(0, f"DDM-random p={p:g}") for p in ps]
    resets = {2 + j: row[row >= 0] for j, row in enumerate(alarms)}
    log = produce(
        ctx,
        f"fig7_{src.name}_p{'-'.join(f'{p:g}' for p in ps)}",
        src,
        learners,
        n=n,
        description=f"NB, DDM and NB reset at random alarms (p = {list(ps)}, warm-up 30) on {name} "
        f"({order}), first {n} instances",
        resets=resets,
    )
    yt = log["y_true"].values
    preds = np.concatenate([log["y_pred"].values, np.asarray(persistent(yt))[None]])
    names = [*map(str, log["model"].values), "Persistent"]
    ds = streamtk.evaluate(
        yt,
        xr.DataArray(preds, dims=("model", "time"), coords={"model": names}),
        every=n,
        metrics=["accuracy"],
        classes=log["class"].values,
    )
    acc = ds["accuracy"].isel(estimator=0, time=-1)
    return {str(m): float(acc.sel(model=m)) for m in names}


def run(ctx):
    """Zliobaite et al. 2015 Figure 7."""
    sec = ctx.section(
        "zliobaite_fig7",
        "Zliobaite et al. 2015 — Figure 7 (DDM-random: false alarms vs accuracy)",
        "seed 003, sec. 6.9, Figure 7",
    )
    data, ps = settings(ctx)
    fig, axes = new_figure(len(data), 3, size=(3.3, 2.7))
    rows, res = [], {}
    for i, (name, n) in enumerate(data):
        for j, order in enumerate(ORDERS):
            acc = res[(name, order)] = compute(ctx, name, n, ps, order)
            ax = axes[i, j]
            rnd = [acc[f"DDM-random p={p:g}"] for p in ps]
            ax.semilogx(ps, rnd, "o-", color="C0", ms=3, label="DDM-random")
            for key, color, ls in (("NB", "C1", "--"), ("DDM", "C2", ":"), ("Persistent", "k", "-.")):
                ax.axhline(acc[key], color=color, ls=ls, lw=1, label=key)
            ax.set_title(f"{NAMES[name]} {ORDERS[order]}", fontsize=9)
            ax.set_xlabel("alarm probability p (log)")
            ax.set_ylabel("accuracy")
            rows.append((NAMES[name], ORDERS[order], *rnd, acc["NB"], acc["DDM"], acc["Persistent"]))
    legend_outside(fig, where="below", ncol=4)
    ctx.savefig(
        fig,
        "zliobaite_fig7",
        "Zliobaite Fig. 7: accuracy of MOA naive Bayes reset at random alarms vs the "
        "alarm probability p (log scale), with NB, DDM and Persistent",
    )
    sec.table(["dataset", "version", *[f"p={p:g}" for p in ps], "NB", "DDM", "Persistent"], rows)
    for (name, order), acc in res.items():
        rnd = np.array([acc[f"DDM-random p={p:g}"] for p in ps])
        rho = float(np.corrcoef(np.log(ps), rnd)[0, 1])
        label = f"{NAMES[name]} {ORDERS[order]}"
        if order == "iid":
            sec.claim(
                ITEM,
                f"{label}: false alarms cost accuracy (no temporal dependence)",
                rnd[-1] < rnd[0] and rho < 0,
                f"accuracy p={ps[0]:g} {rnd[0]:.4f} -> p=1 {rnd[-1]:.4f}; correlation with log p {rho:+.2f}",
            )
        else:
            sec.claim(
                ITEM,
                f"{label}: accuracy increases with the probability of false alarms",
                rnd[-1] > rnd[0] + 0.01 and rho > 0.5,
                f"accuracy p={ps[0]:g} {rnd[0]:.4f} -> p=1 {rnd[-1]:.4f}; correlation with log p {rho:+.2f}",
            )
            sec.claim(
                ITEM,
                f"{label}: DDM-random does not quite reach Persistent; the original DDM is outperformed",
                rnd.max() < acc["Persistent"] and rnd.max() > acc["DDM"],
                f"best DDM-random {rnd.max():.4f}, Persistent {acc['Persistent']:.4f}, DDM {acc['DDM']:.4f}",
            )
    overl = [
        (name, order)
        for name, order in (("electricity", "iid"), ("covertype", "iid"), ("electricity", "label_order"))
        if (name, order) in res
    ]
    gaps = {f"{NAMES[a]} {ORDERS[b]}": abs(res[(a, b)]["NB"] - res[(a, b)]["DDM"]) for a, b in overl}
    sec.claim(
        ITEM,
        "Elec2 shuffled, Cover shuffled and Elec2 temporal: NB and DDM overlap (no detections)",
        all(g < 0.005 for g in gaps.values()),
        "abs(NB - DDM): " + ", ".join(f"{k} {v:.4f}" for k, v in gaps.items()),
    )
    scale = ", ".join(f"{NAMES[d]} {n:,}" for d, n in data)
    sec.result(
        ITEM,
        paper="accuracy grows with p on original and temporal data, falls on shuffled data; NB and DDM "
        "overlap where nothing changes",
        ours="see the claims",
        reason=f"the paper prints no numbers; "
        f"instances {scale}, p in {list(ps)}" + ("; quick mode: Elec2 only" if ctx.quick else ""),
        cap="qualitative match",
    )


if __name__ == "__main__":
    raise SystemExit(script_main(run, name="zliobaite_fig7"))
