"""Zliobaite et al. 2015, Figures 3 and 4: Temporal Correction and Temporally Augmented classifiers vs the
ordinary ones (accuracy, Fig. 3) and the Combined measure kappa+ of LBAG over time (Fig. 4).

Seed 003 sec. 6.6-6.7. The five classifiers of Table 4 (MOA through capymoa) are recorded with their
class scores on each dataset; their Temporally Augmented versions learn from the inputs plus the
previous label as a nominal attribute (:func:`streamtk.dependence.correction.augment_with_past_labels`);
Temporal Correction (eq. 3) is applied post hoc to the recorded scores with
:func:`streamtk.dependence.correction.temporal_correction`, with the paper's exponential-smoothing weights
(sec. 6.3: alpha = 0.001 for Elec2, 0.0001 for Cover, 0.00001 for KDD99; Ozone has none in the paper:
0.001 as for the other binary stream). Fig. 3: final prequential accuracy; Fig. 4: kappa+ over a sliding
window of 1000 (the paper: "a sliding window", size not stated).
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
from ._logs import FIVE, dataset_log  # noqa: E402
from ._plot import legend_outside, new_figure  # noqa: E402
from .zliobaite_fig2 import NAMES, datasets  # noqa: E402

#: the paper's smoothing weights (sec. 6.3); Ozone: not given
ALPHA = {"electricity": 0.001, "covertype": 0.0001, "kdd99": 0.00001, "ozone": 0.001}
VARIANTS = ("ordinary", "Temporal Correction", "Temporally Augmented")
WINDOW = 1000


def data_needed(quick):
    """The data sets this script reads in quick or full mode (:mod:`paper_figures._data`)."""
    return tuple(name for name, _ in datasets(mode(quick)))


def compute(ctx, name, n):
    import xarray as xr

    import streamtk
    from streamtk.dependence.baselines import persistent
    from streamtk.dependence.correction import temporal_correction

    log, _ = dataset_log(ctx, name, n)
    aug, _ = dataset_log(ctx, name, n, augment=1)
    y = log["y_true"].values
    classes = log["class"].values
    tc = np.stack(
        [
            temporal_correction(
                log["y_score"].sel(model=m).values.astype(float), y, fading=1 - ALPHA[name], classes=classes
            )["y_pred"].values
            for m in FIVE
        ]
    )
    preds, names = [], []
    for v, arr in zip(
        VARIANTS, (log["y_pred"].sel(model=list(FIVE)).values, tc, aug["y_pred"].sel(model=list(FIVE)).values)
    ):
        for j, m in enumerate(FIVE):
            preds.append(arr[j])
            names.append(f"{m} {v}")
    preds.append(np.asarray(persistent(y)))
    names.append("Persistent")
    return streamtk.evaluate(
        y,
        xr.DataArray(np.array(preds), dims=("model", "time"), coords={"model": names}),
        windows=(WINDOW,),
        every=max(n // 500, 1),
        metrics=["accuracy", "kappa_plus"],
        classes=classes,
    )


def run(ctx):
    """Zliobaite et al. 2015 Figures 3 and 4."""
    sec = ctx.section(
        "zliobaite_fig3_4",
        "Zliobaite et al. 2015 — Figures 3-4 (Temporal Correction / Augmented; kappa+ of LBAG over time)",
        "seed 003, sec. 6.6-6.7, Figures 3 and 4",
    )
    data = datasets(ctx)
    res = {name: compute(ctx, name, n) for name, n in data}
    acc = {name: res[name]["accuracy"].sel(estimator="prequential").isel(time=-1) for name, _ in data}
    fig, axes = new_figure(1, len(data), size=(3.4, 3.0))
    rows = []
    width = 0.26
    for ax, (name, n) in zip(axes[0], data):
        a = acc[name]
        for k, v in enumerate(VARIANTS):
            vals = [float(a.sel(model=f"{m} {v}")) for m in FIVE]
            ax.bar(np.arange(len(FIVE)) + k * width, vals, width, color=f"C{k}", label=v)
            rows += [(f"{NAMES[name]} ({n:,})", m, v, val) for m, val in zip(FIVE, vals)]
        per = float(a.sel(model="Persistent"))
        rows.append((f"{NAMES[name]} ({n:,})", "Persistent", "", per))
        ax.axhline(per, color="k", ls="--", lw=1, label="Persistent")
        ax.set_xticks(np.arange(len(FIVE)) + width, FIVE, fontsize=8)
        lo = float(np.nanmin(a.values))
        ax.set_ylim(max(0.0, np.floor(20 * lo) / 20 - 0.05), 1.0)
        ax.set_title(f"{NAMES[name]} ({n:,})", fontsize=9)
        ax.set_xlabel("classifier")
        ax.set_ylabel("prequential accuracy")
    legend_outside(fig, where="below", ncol=4)
    ctx.savefig(
        fig,
        "zliobaite_fig3",
        "Zliobaite Fig. 3: accuracy of MOA's ordinary classifiers, their Temporal "
        "Correction and Temporally Augmented versions; dashed: Persistent",
    )
    fig, axes = new_figure(1, len(data), size=(3.4, 2.8))
    kp = {}
    for ax, (name, _n) in zip(axes[0], data):
        k = res[name]["kappa_plus"].sel(estimator=f"window={WINDOW}")
        for j, v in enumerate(VARIANTS):
            kp[(name, v)] = k.sel(model=f"LBAG {v}").values
            ax.plot(k["instance"], kp[(name, v)], lw=0.8, color=f"C{j}", label=f"LBAG {v}")
        ax.set_title(NAMES[name], fontsize=9)
        ax.set_xlabel("instances")
        ax.set_ylabel(rf"$\kappa^+$ (window {WINDOW})")
        ax.set_ylim(-0.02, 1.0)
    legend_outside(fig, where="below", ncol=3)
    ctx.savefig(fig, "zliobaite_fig4", f"Zliobaite Fig. 4: kappa+ of MOA's LBAG over a sliding window of {WINDOW}")
    sec.table(["dataset", "classifier", "variant", "prequential accuracy"], rows)
    _claims(ctx, sec, data, acc, kp)


def _claims(ctx, sec, data, acc, kp):
    def a(name, m, v):
        return float(acc[name].sel(model=f"{m} {v}"))

    temporal = [d for d, _ in data if d != "ozone"]
    strong = [d for d in temporal if d in ("electricity", "covertype")]
    for d in strong:
        for v in VARIANTS[1:]:
            gain = [a(d, m, v) - a(d, m, "ordinary") for m in FIVE]
            sec.claim(
                "zliobaite.fig3",
                f"{NAMES[d]}: {v} strongly outperforms the ordinary classifiers",
                min(gain) > 0.01,
                "accuracy gain: " + ", ".join(f"{m} {g:+.4f}" for m, g in zip(FIVE, gain)),
            )
    if "kdd99" in temporal:
        gain = [a("kdd99", m, v) - a("kdd99", m, "ordinary") for m in FIVE for v in VARIANTS[1:]]
        sec.claim(
            "zliobaite.fig3",
            "KDD99: the temporal classifiers improve to some extent",
            np.mean(gain) > 0,
            f"mean accuracy gain {np.mean(gain):+.5f} (min {min(gain):+.5f}, max {max(gain):+.5f})",
        )
    if any(d == "ozone" for d, _ in data):
        diff = [abs(a("ozone", m, v) - a("ozone", m, "ordinary")) for m in FIVE for v in VARIANTS[1:]]
        sec.claim(
            "zliobaite.fig3",
            "Ozone: the ordinary and the temporal classifiers perform very similarly",
            max(diff) < 0.01,
            f"largest accuracy difference {max(diff):.4f}",
        )
    ta_better = [a(d, m, "Temporally Augmented") > a(d, m, "Temporal Correction") for d, _ in data for m in FIVE]
    sec.claim(
        "zliobaite.fig3",
        "Temporally Augmented in most cases performs slightly better than Temporal Correction",
        np.mean(ta_better) > 0.5,
        f"TA better in {sum(ta_better)} of {len(ta_better)} (dataset, classifier) cases",
    )
    close = {
        d: max(a(d, m, v) for m in FIVE for v in VARIANTS[1:]) - float(acc[d].sel(model="Persistent")) for d in temporal
    }
    sec.claim(
        "zliobaite.fig3",
        "on the temporally dependent datasets the best temporal classifier is close to or "
        "just slightly better than Persistent",
        all(-0.02 < c < 0.03 for c in close.values()),
        "best temporal accuracy - Persistent: " + ", ".join(f"{NAMES[d]} {c:+.4f}" for d, c in close.items()),
    )

    def zero(x):
        x = x[np.isfinite(x)]
        return float(np.mean(x == 0)) if x.size else float("nan")

    z = {d: zero(kp[(d, "ordinary")]) for d in temporal}
    sec.claim(
        "zliobaite.fig4",
        "ordinary LBAG almost never reaches a positive kappa+ on Elec2, Cover and KDD99",
        all(v > 0.9 for v in z.values()),
        "fraction of checkpoints with kappa+ = 0: " + ", ".join(f"{NAMES[d]} {v:.3f}" for d, v in z.items()),
    )
    for d in strong:
        m = {v: float(np.nanmean(kp[(d, v)])) for v in VARIANTS}
        sec.claim(
            "zliobaite.fig4",
            f"{NAMES[d]}: Temporal Correction and Temporally Augmented reach a positive "
            "kappa+ (substantially above ordinary LBAG)",
            min(m[VARIANTS[1]], m[VARIANTS[2]]) > m["ordinary"] + 0.05,
            "mean kappa+: " + ", ".join(f"{v} {x:.3f}" for v, x in m.items()),
        )
    if any(d == "ozone" for d, _ in data):
        m = {v: float(np.nanmean(kp[("ozone", v)])) for v in VARIANTS}
        sec.claim(
            "zliobaite.fig4",
            "Ozone: ordinary LBAG performs well (kappa+ > 0); Temporally Augmented has no "
            "advantage; Temporal Correction is slightly better",
            m["ordinary"] > 0.05 and m[VARIANTS[1]] >= m["ordinary"] and m[VARIANTS[2]] <= m["ordinary"] + 0.02,
            "mean kappa+: " + ", ".join(f"{v} {x:.3f}" for v, x in m.items()),
        )
    scale = ", ".join(f"{NAMES[d]} {n:,}" for d, n in data)
    why = f"the paper prints no numbers for these figures; instances: {scale}" + (
        "; quick mode: Elec2 first 3,000 instances and Ozone only" if ctx.quick else ""
    )
    sec.result(
        "zliobaite.fig3",
        paper="TC and TA strongly beat the ordinary classifiers on Elec2 and Cover, close to "
        "Persistent; Ozone unchanged",
        ours="see the claims",
        reason=why,
        cap="qualitative match",
    )
    sec.result(
        "zliobaite.fig4",
        paper="ordinary LBAG: kappa+ ~ 0 on Elec2, Cover, KDD99; TC/TA positive on Elec2 and "
        "Cover; Ozone: LBAG positive",
        ours="see the claims",
        reason=why,
        cap="qualitative match",
    )


if __name__ == "__main__":
    raise SystemExit(script_main(run, name="zliobaite_fig3_4"))
