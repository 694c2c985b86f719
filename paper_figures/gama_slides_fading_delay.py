"""Gama (2014 tutorial slides), "Fading Factors and Delay Time": Page-Hinkley delays per drift
when the monitored error estimate uses different fading factors, and without one.

Seed 002, slide "Fading Factors and Delay Time" (table "Delay times in drift scenarios using
different fading factors": 50%, 80%, 95%, 99% and without). The slides do not give the data or
the test's parameters, so this is a rehearsal on simulated classifier error streams
(:func:`streamtk.drift.error_stream`): four abrupt drifts where the error rate alternates
0.10 -> 0.30 -> 0.10 -> 0.30 -> 0.10, seeded runs, Page-Hinkley (``variant="gama2013"``,
delta = 0.01, lambda = 20 -- the slides give none; Table 2's delta = 0.1 would hide the effect of
the fading factor behind delta -- both directions, reset after each alarm) on the error estimate with fading factors
0.5, 0.8, 0.95, 0.99 (the slides' percentages
read as alpha) and on the prequential (cumulative) estimate. All estimates run in one pass.
"""

from __future__ import annotations

import numpy as np

if __package__ in (None, ""):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from paper_figures._common import new_figure, script_main  # noqa: E402

FADING = (0.5, 0.8, 0.95, 0.99)
#: the slides' table: delay per drift for fading factors 50%, 80%, 95%, 99% and without
PAPER = {
    1: (164, 323, 346, 1127, 2707),
    2: (249, 283, 318, 1073, 2825),
    3: (172, 213, 234, 759, 3054),
    4: (238, 455, 476, 1970, 3581),
}
DELTA, LAMBDA = 0.01, 20.0


def compute(ctx):
    from streamtk.drift import error_stream, page_hinkley

    seg = ctx.n(4000, 10_000)
    runs = ctx.n(3, 10)
    drifts = [seg, 2 * seg, 3 * seg, 4 * seg]
    x = error_stream(5 * seg, drifts, [0.1, 0.3, 0.1, 0.3, 0.1], runs=runs, seed=7)
    x = np.asarray(getattr(x, "values", x), dtype=float)
    ph = page_hinkley(
        x,
        variant="gama2013",
        delta=DELTA,
        lambda_=LAMBDA,
        direction="both",
        reset=True,
        prequential=True,
        fading=FADING,
        lead_dims="run",
    )
    return seg, drifts, runs, ph


def delays(ph, drifts, n):
    """``{estimator: (runs, drifts) array}`` of the first detection after each drift (NaN = missed)."""
    det = ph["detection"]
    out = {}
    bounds = list(drifts) + [n]
    for est in det["estimator"].values:
        d = det.sel(estimator=est).values.reshape(-1, det.sizes["time"]) != 0
        res = np.full((d.shape[0], len(drifts)), np.nan)
        for r in range(d.shape[0]):
            for k, start in enumerate(drifts):
                hits = np.flatnonzero(d[r, start : bounds[k + 1]])
                if hits.size:
                    res[r, k] = hits[0]
        out[str(est)] = res
    return out


def run(ctx):
    """The slides' fading-factor delay table, rehearsed on simulated error streams."""
    sec = ctx.section(
        "gama_slides_fading_delay",
        "Gama 2014 slides — fading factors and delay time",
        "seed 002, slide 'Fading Factors and Delay Time'",
    )
    seg, drifts, runs, ph = compute(ctx)
    d = delays(ph, drifts, 5 * seg)
    labels = [f"fading={a!r}" for a in FADING] + ["prequential"]
    header = ["drift"] + [f"{lab} (slides / ours)" for lab in ["50%", "80%", "95%", "99%", "without"]]
    rows = []
    for k in range(4):
        row = [f"{k + 1}"]
        for j, lab in enumerate(labels):
            vals = d[lab][:, k]
            miss = int(np.isnan(vals).sum())
            mean = float(np.mean(vals[~np.isnan(vals)])) if miss < len(vals) else float("nan")
            row.append(f"{PAPER[k + 1][j]} / {mean:.0f}" + (f" ({miss} missed)" if miss else ""))
        rows.append(row)
    sec.table_text(header, rows)
    means = [float(np.mean(d[lab][~np.isnan(d[lab])])) if (~np.isnan(d[lab])).any() else float("nan") for lab in labels]
    for j, lab in enumerate(labels):
        sec.compare(
            f"mean delay over the 4 drifts, {lab}",
            float(np.mean([PAPER[k][j] for k in PAPER])),
            means[j],
            decimals=0,
            note="simulated error streams; the slides' data and parameters are not given",
        )
    fig, axes = new_figure(1, 1, size=(6, 3.4))
    ax = axes[0, 0]
    x = np.arange(len(labels))
    ax.bar(x, means, color="C0", label="ours (simulated)")
    ax.plot(x, [np.mean([PAPER[k][j] for k in PAPER]) for j in range(len(labels))], "o-", color="C3", label="slides")
    ax.set_xticks(x, ["0.5", "0.8", "0.95", "0.99", "without"])
    ax.set_xlabel("fading factor of the monitored error estimate")
    ax.set_ylabel("mean detection delay (instances)")
    ax.legend(fontsize=8)
    ctx.savefig(
        fig,
        "gama_slides_fading_delay",
        f"Page-Hinkley delay vs fading factor: {runs} seeded simulated error streams, drifts every {seg}",
    )
    sec.note(
        "The pattern to reproduce is the slides': the smaller the fading factor, the shorter the delay, and "
        "the cumulative (unfaded) estimate is by far the slowest. Values differ because the slides' "
        "classifier, data and test parameters are unknown; this rehearsal states its own."
    )
    return d


if __name__ == "__main__":
    raise SystemExit(script_main(run))
