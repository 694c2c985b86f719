"""Bifet et al. 2015, Tables 2-4: Type I / Type II rejection rates of McNemar, Sign and Wilcoxon tests under
10-fold distributed bootstrap / cross / split validation, prequential and not, per stream -- at reduced scale.

Seed 000 sec. 4.1 and Tables 2-4. Every stream of Tables 3-4 available offline: Covertype, Electricity and
the MOA generators LED(50000), SEA(50), SEA(50000), HYP(10,0.001), HYP(10,0.0001), RBF(0,0), RBF(50,0.001),
RBF(10,0.001), RBF(50,0.0001), RBF(10,0.0001) (Poker-Hand is not: only its labels are offline). The
streams follow the convention of the leveraging-bagging paper the seed cites ([4]): three changes at 1/4,
1/2 and 3/4 of the stream, widths scaled to the stream's length; SEA(w): the four SEA functions; LED(w):
LEDGeneratorDrift with 1, 3, 5, 7 drifting attributes; HYP(k, t): HyperplaneGenerator with k attributes
changing by t; RBF(c, s): RandomRBFGeneratorDrift with c centroids moving at speed s (RBF(0,0): no drift).
Per run and validation scheme, each of the k = 10 folds holds two MOA LeveragingBag ensembles that differ only
by their random seed ("randomized ensembles of decision trees, each seeded with a different number"),
trained with the scheme's weights (:func:`streamtk.kfold.assignments.fold_assignment_arrays`) and tested on
every instance (the non-prequential version reads only each fold's test instances). Type I: A vs A'
(no change); Type II: A vs A with the noise filter ``p = p0 (1 - pn) + (1 - p0) pn / c``
(:func:`streamtk.kfold.noise.noise_filter`, pn = 0.05, 0.10). Per-fold scores and pooled McNemar counts
from :func:`streamtk.kfold.experiments.fold_comparison`, rejection fractions at alpha = 0.05 from
:func:`streamtk.kfold.experiments.rejection_rates`. Table 2 averages the streams' rates.
"""

from __future__ import annotations

if __package__ in (None, ""):  # run as a file: make the package-relative imports work (PEP 366)
    import sys
    from pathlib import Path

    _pkg = Path(__file__).resolve().parent
    __package__ = ("streamtk." if _pkg.parent.name == "streamtk" else "") + _pkg.name
    sys.path.insert(0, str(_pkg.parent.parent if _pkg.parent.name == "streamtk" else _pkg.parent))

import numpy as np  # noqa: E402

from . import _streams  # noqa: E402
from ._common import script_main  # noqa: E402
from ._data import mode  # noqa: E402
from ._producers import Learner, Source, dataset_source, produce  # noqa: E402

SCHEMES = ("bootstrap", "cv", "split")
CONDITIONS = ("no change", "pn=0.05", "pn=0.10")
K = 10
ALPHA = 0.05
#: McNemar on the discordant counts pooled over the folds, without Edwards' continuity correction
MCNEMAR_CORRECTION = False
#: the streams read from data files (streamtk.datasets names); the others are MOA generators
DATASETS = {"COVTYPE": "covertype", "ELECTRICITY": "electricity"}
COLS = [(c, s) for c in CONDITIONS for s in SCHEMES]
#: Table 2 (over all datasets): (test, version) -> 9 columns (no change, pn 0.05, pn 0.10) x (bootstrap, cv, split)
PAPER_T2 = {
    ("mcnemar", "non-prequential"): [0.71, 0.52, 0.66, 0.86, 0.80, 0.73, 0.88, 0.84, 0.75],
    ("mcnemar", "prequential"): [0.77, 0.80, 0.42, 0.88, 0.94, 0.56, 0.90, 0.95, 0.58],
    ("sign", "non-prequential"): [0.11, 0.11, 0.10, 0.77, 0.82, 0.44, 0.82, 0.88, 0.50],
    ("sign", "prequential"): [0.12, 0.12, 0.09, 0.77, 0.83, 0.44, 0.82, 0.89, 0.50],
    ("wilcoxon", "non-prequential"): [0.11, 0.11, 0.14, 0.79, 0.84, 0.51, 0.83, 0.90, 0.55],
    ("wilcoxon", "prequential"): [0.11, 0.10, 0.19, 0.80, 0.84, 0.54, 0.83, 0.91, 0.59],
}
#: Table 3 (McNemar; its Average row is Table 2's non-prequential McNemar row) and Table 4 (Wilcoxon; its
#: Average row is Table 2's prequential Wilcoxon row)
PAPER_T3 = {
    "COVTYPE": [0.86, 0.64, 0.98, 0.97, 0.98, 0.98, 0.98, 0.99, 0.99],
    "ELECTRICITY": [0.45, 0.16, 0.79, 0.99, 0.92, 0.88, 1.00, 1.00, 0.94],
    "Poker": [0.73, 0.45, 0.86, 0.82, 0.78, 0.98, 0.96, 0.99, 1.00],
    "LED(50000)": [0.92, 0.85, 0.96, 0.96, 0.92, 1.00, 0.99, 0.96, 1.00],
    "SEA(50)": [0.67, 0.35, 0.88, 0.69, 0.39, 0.89, 0.70, 0.43, 0.89],
    "SEA(50000)": [0.68, 0.35, 0.89, 0.70, 0.41, 0.89, 0.71, 0.44, 0.89],
    "HYP(10,0.001)": [0.61, 0.32, 0.61, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00],
    "HYP(10,0.0001)": [0.61, 0.40, 0.83, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00],
    "RBF(0,0)": [0.89, 0.80, 0.36, 0.98, 0.98, 0.39, 0.99, 0.99, 0.40],
    "RBF(50,0.001)": [0.26, 0.20, 0.36, 0.18, 0.43, 0.39, 0.20, 0.44, 0.39],
    "RBF(10,0.001)": [0.88, 0.74, 0.36, 0.97, 0.96, 0.39, 0.98, 0.98, 0.40],
    "RBF(50,0.0001)": [0.76, 0.68, 0.37, 0.91, 0.76, 0.39, 0.91, 0.76, 0.41],
    "RBF(10,0.0001)": [0.89, 0.80, 0.36, 0.96, 0.92, 0.37, 0.98, 0.94, 0.40],
}
PAPER_T4 = {
    "COVTYPE": [0.12, 0.10, 0.10, 0.99, 1.00, 0.63, 1.00, 1.00, 0.97],
    "ELECTRICITY": [0.12, 0.13, 0.14, 1.00, 1.00, 0.72, 1.00, 1.00, 0.98],
    "Poker": [0.08, 0.10, 0.10, 0.79, 1.00, 1.00, 1.00, 1.00, 1.00],
    "LED(50000)": [0.11, 0.09, 0.10, 0.82, 0.49, 1.00, 1.00, 0.99, 1.00],
    "SEA(50)": [0.11, 0.12, 0.14, 0.26, 0.27, 0.11, 0.36, 0.45, 0.12],
    "SEA(50000)": [0.10, 0.09, 0.09, 0.21, 0.29, 0.11, 0.32, 0.49, 0.11],
    "HYP(10,0.001)": [0.09, 0.10, 0.13, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00],
    "HYP(10,0.0001)": [0.13, 0.09, 0.11, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00],
    "RBF(0,0)": [0.11, 0.10, 0.32, 1.00, 1.00, 0.29, 1.00, 1.00, 0.33],
    "RBF(50,0.001)": [0.14, 0.10, 0.30, 0.32, 1.00, 0.33, 0.13, 1.00, 0.29],
    "RBF(10,0.001)": [0.12, 0.10, 0.32, 1.00, 1.00, 0.28, 1.00, 1.00, 0.28],
    "RBF(50,0.0001)": [0.10, 0.11, 0.31, 1.00, 0.85, 0.31, 0.99, 0.86, 0.30],
    "RBF(10,0.0001)": [0.10, 0.09, 0.31, 1.00, 1.00, 0.32, 1.00, 1.00, 0.29],
}


#: randomized ensemble of decision trees (the paper: random forests, ref. [4] = leveraging bagging)
def _river_lbag3(seed=None):
    from river import ensemble, tree

    return ensemble.LeveragingBaggingClassifier(tree.HoeffdingTreeClassifier(), n_models=3, seed=seed)


LBAG = Learner("LBAG", "meta.LeveragingBag -s 3", _river_lbag3, "river LeveragingBagging(HoeffdingTree, 3 models)")


def settings(ctx):
    """(streams, instances per run, runs)."""
    if ctx.quick:
        return ("ELECTRICITY", "SEA(50)"), 300, 2
    return tuple(k for k in PAPER_T3 if k != "Poker"), 2000, 10


def data_needed(quick):
    """The data sets this script reads in quick or full mode (:mod:`paper_figures._data`)."""
    return tuple(DATASETS[s] for s in settings(mode(quick))[0] if s in DATASETS)


def make_source(ctx, name, n, run):
    if name in ("COVTYPE", "ELECTRICITY"):
        return dataset_source(ctx, DATASETS[name], n)
    seed = run + 1
    q = n // 4

    def width(w):  # the paper's widths are for streams of 10^6 instances
        return max(1, round(w * n / 1_000_000))

    if name.startswith("SEA"):
        gen = _streams.sea_concepts((1, 2, 3, 4), q, seed, width=width(int(name[4:-1])))
    elif name.startswith("LED"):
        parts = [_streams.led(seed + 10 * k, drift_attrs=d) for k, d in enumerate((1, 3, 5, 7))]
        gen = parts[-1]
        for g in reversed(parts[:-1]):
            gen = _streams.drift(g, gen, q, width=width(50000), seed=seed)
    elif name.startswith("HYP"):
        k, t = name[4:-1].split(",")
        gen = _streams.hyperplane(seed, drift_attrs=int(k), magnitude=float(t))
    else:
        c, sp = name[4:-1].split(",")
        gen = (
            _streams.rbf(1, seed) if float(sp) == 0 else _streams.rbf(1, seed, speed=float(sp), drift_centroids=int(c))
        )
    return Source(f"{name}_r{run}", gen.classes, gen=gen)


def predictions(ctx, name, n, runs):
    """``{scheme: (y (n,), pred (run, 2, K, n), train weights (run, K, n))}`` and the number of classes."""
    from streamtk.kfold.assignments import fold_assignment_arrays

    out = {}
    for i, scheme in enumerate(SCHEMES):
        preds, ys = [], []
        for r in range(runs):
            src = make_source(ctx, name, n, r)
            tw, _, _ = fold_assignment_arrays(n, K, scheme=scheme, prequential=True, seed=100 * r + i)
            learners = [LBAG.seeded(1000 * r + 2 * f + m, f"{'AB'[m]}{f}") for m in range(2) for f in range(K)]
            log = produce(
                ctx,
                f"bifet_t24_{name}_r{r}_{scheme}_n{n}_k{K}",  # the run's seeds and weights differ on every stream
                src,
                learners,
                n=n,
                description=f"{K} folds x 2 LeveragingBag (3 members, own seeds) on {name}, {scheme} weights, run {r}",
                train_weight=np.concatenate([tw, tw]),
            )
            codes = {c: j for j, c in enumerate(log["class"].values.tolist())}
            ys.append(np.array([codes[v] for v in log["y_true"].values.tolist()]))
            p = np.vectorize(codes.get)(log["y_pred"].values)
            preds.append(p.reshape(2, K, n))
        out[scheme] = (np.stack(ys), np.stack(preds), len(codes))
    return out


def rates(name, pred, runs, n):
    """``{(test, version, condition, scheme): fraction of runs rejecting}`` for one stream, and
    ``{(version, condition, scheme): accuracy of A minus B, (run, fold)}``."""
    import xarray as xr

    from streamtk.kfold.assignments import fold_assignment_arrays
    from streamtk.kfold.experiments import fold_comparison, rejection_rates
    from streamtk.kfold.noise import noise_filter

    out, gaps = {}, {}
    for i, scheme in enumerate(SCHEMES):
        y, p, c = pred[scheme]
        y = xr.DataArray(y, dims=("run", "time"))  # generated streams differ per run
        a, a2 = p[:, 0], p[:, 1]
        conds = {"no change": a2}
        for pn in (0.05, 0.10):
            conds[f"pn={pn:.2f}"] = noise_filter(a, pn, classes=c, seed=7 + 13 * i)
        for preq in (False, True):
            masks = np.stack(
                [
                    fold_assignment_arrays(n, K, scheme=scheme, prequential=preq, seed=100 * r + i)[1]
                    for r in range(runs)
                ]
            )
            for cond, b in conds.items():
                cmp = fold_comparison(y, a, b, masks, metric="accuracy", lead_dims=("run",))
                rr = rejection_rates(cmp, alpha=ALPHA, correction=MCNEMAR_CORRECTION)
                ver = "prequential" if preq else "non-prequential"
                for test in ("mcnemar", "sign", "wilcoxon"):
                    out[(test, ver, cond, scheme)] = float(rr["fraction_rejected"].sel(test=test))
                gaps[(ver, cond, scheme)] = (cmp["score_a"] - cmp["score_b"]).transpose("run", "fold").values
    return out, gaps


def compute(ctx):
    streams, n, runs = settings(ctx)
    both = {s: rates(s, predictions(ctx, s, n, runs), runs, n) for s in streams}
    return streams, n, runs, {s: v[0] for s, v in both.items()}, {s: v[1] for s, v in both.items()}


def run(ctx):
    """Bifet et al. 2015 Tables 2-4 at reduced scale."""
    sec = ctx.section(
        "bifet_tables2_4",
        "Bifet et al. 2015 — Tables 2-4 (Type I / II rejection rates, reduced scale)",
        "seed 000, sec. 4.1, Tables 2, 3 (McNemar) and 4 (Wilcoxon)",
    )
    streams, n, runs, res, gaps = compute(ctx)
    avg = {key: float(np.mean([res[s][key] for s in streams])) for key in res[streams[0]]}
    header = ["test", "version", *[f"{c} {s}" for c, s in COLS]]
    rows = []
    for (test, ver), paper in PAPER_T2.items():
        rows.append((test, ver, *[f"{avg[(test, ver, c, s)]:.2f}" for c, s in COLS]))
        rows.append(("(paper)", "", *[f"{p:.2f}" for p in paper]))
    sec.table(header, rows, caption=f"Table 2: average over our {len(streams)} streams (the paper: 13 streams).")
    for col, (table, test, ver) in (
        (3, (PAPER_T3, "mcnemar", "non-prequential")),
        (4, (PAPER_T4, "wilcoxon", "prequential")),
    ):
        rows = []
        for s in streams:
            rows.append((s, "streamtk", *[f"{res[s][(test, ver, c, sc)]:.2f}" for c, sc in COLS]))
            rows.append((s, "paper", *[f"{p:.2f}" for p in table[s]]))
        rows.append(("Average", "streamtk", *[f"{avg[(test, ver, c, sc)]:.2f}" for c, sc in COLS]))
        rows.append(("Average", "paper", *[f"{p:.2f}" for p in PAPER_T2[(test, ver)]]))
        sec.table(
            ["stream", "", *[f"{c} {sc}" for c, sc in COLS]],
            rows,
            caption=f"Table {col}: {test} ({ver}; the paper's Table {col} Average row equals its Table 2 "
            f"{ver} {test} row).",
        )
    _claims(ctx, sec, streams, n, runs, res, avg)
    _method_notes(ctx, sec, streams, n, runs, res, gaps)


def _claims(ctx, sec, streams, n, runs, res, avg):
    t1 = [avg[("mcnemar", v, "no change", s)] for v in ("non-prequential", "prequential") for s in SCHEMES]
    sec.claim(
        "bifet.table2",
        "McNemar detects a non-existent difference at least 42 % of the time (Type I)",
        min(t1) >= 0.42,
        "McNemar no-change rates: " + ", ".join(f"{x:.2f}" for x in t1),
    )
    t1s = [
        avg[(t, v, "no change", s)]
        for t in ("sign", "wilcoxon")
        for v in ("non-prequential", "prequential")
        for s in SCHEMES
    ]
    sec.claim(
        "bifet.table2",
        "Sign and Wilcoxon keep the Type I rate low (the paper: 0.09-0.19)",
        max(t1s) <= 0.2,
        f"Sign/Wilcoxon no-change rates: min {min(t1s):.2f}, max {max(t1s):.2f}",
    )

    def power(scheme):
        return float(
            np.mean(
                [
                    avg[(t, v, c, scheme)]
                    for t in ("sign", "wilcoxon")
                    for v in ("non-prequential", "prequential")
                    for c in CONDITIONS[1:]
                ]
            )
        )

    pw = {s: power(s) for s in SCHEMES}
    sec.claim(
        "bifet.table2",
        "for Type II, cross-validation is best, closely followed by bootstrap; split-validation "
        "is worst (Sign and Wilcoxon)",
        pw["cv"] >= pw["bootstrap"] > pw["split"],
        "mean rejection under noise: " + ", ".join(f"{s} {v:.2f}" for s, v in pw.items()),
    )
    diff = [
        abs(avg[(t, "prequential", c, s)] - avg[(t, "non-prequential", c, s)])
        for t in ("mcnemar", "sign", "wilcoxon")
        for c in CONDITIONS
        for s in SCHEMES
    ]
    sec.claim(
        "bifet.table2",
        "little difference between the prequential and the non-prequential versions",
        float(np.mean(diff)) < 0.1,
        f"mean abs difference {np.mean(diff):.3f} (max {max(diff):.2f})",
    )
    ones = sum(1 for k, v in avg.items() if k[2] != "no change" and v == 1.0)
    total = sum(1 for k in avg if k[2] != "no change")
    sec.claim(
        "bifet.table2",
        "no averaged Type II rate is saturated (the paper: every cell in 0.44-0.95, so the tests' power and "
        "the schemes' differences are visible)",
        ones == 0,
        f"{ones} of {total} averaged Type II cells are 1.00",
    )
    per = [res[s][("mcnemar", "non-prequential", "no change", sc)] for s in streams for sc in SCHEMES]
    sec.claim(
        "bifet.table3",
        "McNemar tends to overestimate the difference: high Type I rates on the streams "
        "(the paper's average 0.52-0.71)",
        float(np.mean(per)) >= 0.42,
        f"mean McNemar no-change rate {np.mean(per):.2f} over {len(per)} (stream, scheme) cells",
    )
    close3 = [
        abs(res[s][("mcnemar", "non-prequential", c, sc)] - PAPER_T3[s][j]) <= 0.2
        for s in streams
        for j, (c, sc) in enumerate(COLS)
    ]
    sec.claim(
        "bifet.table3",
        "every cell within 0.2 of the paper's",
        all(close3),
        f"{sum(close3)} of {len(close3)} cells within 0.2",
    )
    t4i = [res[s][("wilcoxon", "prequential", "no change", sc)] for s in streams for sc in ("bootstrap", "cv")]
    sec.claim(
        "bifet.table4",
        "Wilcoxon: very high accuracy for Type I (<= 10 % on average, cv and bootstrap)",
        float(np.mean(t4i)) <= 0.1,
        f"mean no-change rate (bootstrap, cv) {np.mean(t4i):.3f}",
    )

    # "near perfect Type II accuracy except on SEA" is two statements: the non-SEA streams reject (almost) always
    # under noise, and the SEA streams do not (the paper's SEA cells, cv and bootstrap: 0.21-0.49)
    def type2(s):
        return [res[s][("wilcoxon", "prequential", c, sc)] for c in CONDITIONS[1:] for sc in ("bootstrap", "cv")]

    nonsea = [s for s in streams if not s.startswith("SEA")]
    sea = [s for s in streams if s.startswith("SEA")]
    perf = [s for s in nonsea if all(v >= 0.95 for v in type2(s))]
    sec.claim(
        "bifet.table4",
        "Wilcoxon: (near) perfect Type II accuracy with cv and bootstrap on every stream but SEA",
        len(perf) >= 0.8 * len(nonsea),
        f"{len(perf)} of {len(nonsea)} non-SEA streams reject in >= 95 % of the noisy runs",
    )
    if sea:
        low = [s for s in sea if max(type2(s)) < 0.95]
        sec.claim(
            "bifet.table4",
            "Wilcoxon: ... except on SEA, where Type II accuracy with cv and bootstrap stays far from perfect "
            "(the paper: 0.21-0.49)",
            len(low) == len(sea),
            "SEA Type II rejection rates (cv, bootstrap): "
            + "; ".join(f"{s} " + ", ".join(f"{v:.2f}" for v in type2(s)) for s in sea),
        )
    else:
        sec.note("The SEA part of Table 4's claim ('... except on SEA') is not tested: no SEA stream was run.")
    close4 = [
        abs(res[s][("wilcoxon", "prequential", c, sc)] - PAPER_T4[s][j]) <= 0.2
        for s in streams
        for j, (c, sc) in enumerate(COLS)
    ]
    sec.claim(
        "bifet.table4",
        "every cell within 0.2 of the paper's",
        all(close4),
        f"{sum(close4)} of {len(close4)} cells within 0.2",
    )
    why = (
        f"reduced scale: {n:,} instances per run (the paper: whole streams of up to 10^6; McNemar's power grows "
        f"with the number of instances), {runs} runs (paper 50: rates are multiples of 1/{runs}), LeveragingBag "
        "with 3 members for the paper's random forests, streams regenerated from MOA's generators; Poker not "
        "available offline" + ("; quick mode: 2 streams" if ctx.quick else "")
    )
    for item in ("bifet.table2", "bifet.table3", "bifet.table4"):
        sec.result(
            item,
            paper={
                "bifet.table2": "McNemar Type I >= 0.42; Sign/Wilcoxon ~0.1; cv >= bootstrap > split",
                "bifet.table3": "McNemar high Type I on every stream",
                "bifet.table4": "Wilcoxon Type I ~0.1, Type II ~1 except SEA",
            }[item],
            ours="see the claims and tables",
            reason=why,
            cap="qualitative match",
        )


def _method_notes(ctx, sec, streams, n, runs, res, gaps):
    """REPORT.md: the McNemar variant, the scale, and what the Type II cells at 1.00 come from."""
    from scipy.stats import chi2

    sec.note(
        "**McNemar variant** (Tables 2-3): one test per run on the discordant counts pooled over the ten folds "
        "(every instance a fold tested counts, once per fold: a = misclassified by A and correctly by B, b = the "
        "opposite), statistic (a - b)^2 / (a + b) "
        + ("with" if MCNEMAR_CORRECTION else "without")
        + f" continuity correction, chi-square with 1 degree of freedom, rejecting at alpha = {ALPHA} "
        f"(M > {chi2.isf(ALPHA, 1):.3f}); the paper gives the statistic (sec. 4) but not whether it pools the "
        "folds or corrects. "
        "Sign and Wilcoxon (exact, two-sided) test the ten folds' accuracies at the same alpha."
    )
    members = LBAG.moa.split("-s ")[1]
    full = settings(mode(False)) if ctx.quick else None
    sec.note(
        f"**Scale**: {len(streams)} streams ({', '.join(streams)}), {n:,} instances per run, {runs} runs, "
        f"{K} folds x 2 LeveragingBag ensembles of {members} members"
        + (
            f" (quick mode; the full mode: {len(full[0])} streams, {full[1]:,} instances, {full[2]} runs)"
            if full
            else ""
        )
        + "; the paper: 13 streams, whole streams (up to "
        "10^6 instances), 50 runs, random forests. The paper's scale is not run: Tables 2-4 take about 15 minutes at "
        "2,000 instances on two cores, and producing the logs grows linearly with the instances and runs."
    )
    # Type II: B is A's own predictions through the noise filter, so A - B in a fold is the noise's effect only
    cells, saturated, all_folds = [], 0, 0
    for s in streams:
        for ver in ("non-prequential", "prequential"):
            for cond in CONDITIONS[1:]:
                for sc in SCHEMES:
                    d = gaps[s][(ver, cond, sc)]
                    if res[s][("wilcoxon", ver, cond, sc)] == 1.0:
                        saturated += 1
                        all_folds += bool(np.all(d > 0))
                    cells.append((s, ver, cond, sc, float(d.mean()), float(d.std()), float(np.mean(d > 0))))
    sec.table(
        ["stream", "version", "condition", "scheme", "mean A - B", "sd over runs and folds", "folds with A > B"],
        [(a, b, c, d, f"{m:.4f}", f"{sd:.4f}", f"{fr:.2f}") for a, b, c, d, m, sd, fr in cells],
        caption="Type II: accuracy of A minus the noise-filtered B in each fold (all runs).",
    )
    sec.note(
        f"**Type II cells at 1.00**: {saturated} of the {len(cells)} Wilcoxon Type II cells (stream x version x "
        f"noise x scheme) are 1.00, and in {all_folds} of them every fold of every run has A ahead of B (table "
        "above). That is not an effect of the reduced scale: B is "
        "A's own predictions passed through the noise filter (sec. 4.1), so a fold's A - B is the noise's effect "
        "p0 pn - (1 - p0) pn / c alone, against a sampling spread that shrinks with the instances a fold tests; "
        "once every fold shows A ahead, the exact Wilcoxon test over ten folds rejects (p = 2 / 2^10) and so does "
        "the Sign test. Longer streams, as in the paper, would make the gap clearer, not smaller; more runs only "
        "refine the rate, and the ensembles' size enters only through A's accuracy p0 (a better A widens the gap). "
        "The paper's lower SEA rates (0.21-0.49) are therefore not what our design gives at its scale either; its "
        "text does not say how the noisy classifier "
        "was built beyond 'applying a noise filter' to the base classifier's predictions."
    )


if __name__ == "__main__":
    raise SystemExit(script_main(run, name="bifet_tables2_4"))
