"""Zliobaite et al. 2015, Table 5: accuracies on Electricity reported in the literature vs the Persistent
classifier.

Seed 003 sec. 6.4, Table 5. The Persistent row (85.3 %) is recomputed with
:func:`streamtk.dependence.baselines.persistent` and :func:`streamtk.evaluate` on the Electricity labels;
the 18 literature rows are transcribed from the seed and the paper's count "only 6 out of 18 reported
accuracies outperformed" the Persistent classifier is recounted.
"""

from __future__ import annotations

if __package__ in (None, ""):  # run as a file: make the package-relative imports work (PEP 366)
    import sys
    from pathlib import Path

    _pkg = Path(__file__).resolve().parent
    __package__ = ("streamtk." if _pkg.parent.name == "streamtk" else "") + _pkg.name
    sys.path.insert(0, str(_pkg.parent.parent if _pkg.parent.name == "streamtk" else _pkg.parent))

from ._common import script_main  # noqa: E402

#: Table 5 as printed: (algorithm, reported accuracy %, reference); DDM's value is marked "tested on a subset"
LITERATURE = [
    ("DDM", 89.6, "Gama et al. (2004); tested on a subset"),
    ("Learn++.CDS", 88.5, "Ditzler and Polikar (2013)"),
    ("KNN-SPRT", 88.0, "Ross et al. (2012)"),
    ("GRI", 88.0, "Tomczak and Gonczarek (2013)"),
    ("FISH3", 86.2, "Zliobaite (2011)"),
    ("EDDM-IB1", 85.7, "Baena-Garcia et al. (2006)"),
    ("ASHT", 84.8, "Bifet et al. (2009)"),
    ("bagADWIN", 82.8, "Bifet et al. (2009)"),
    ("DWM-NB", 80.8, "Kolter and Maloof (2007)"),
    ("Local detection", 80.4, "Gama and Castillo (2006)"),
    ("Perceptron", 79.1, "Bifet et al. (2010)"),
    ("AUE2", 77.3, "Brzezinski and Stefanowski (2014)"),
    ("ADWIN", 76.6, "Bifet and Gavalda (2007)"),
    ("EAE", 76.6, "Jackowski (2013)"),
    ("Prop. method", 76.1, "Martinez-Rego et al. (2011)"),
    ("Cont. lambda-perc.", 74.1, "Pavlidis et al. (2011)"),
    ("CALDS", 72.5, "Gomes et al. (2010)"),
    ("TA-SVM", 68.9, "Grinblat et al. (2011)"),
]
ITEM = "zliobaite.table5"


def data_needed(quick):
    """The data sets this script reads (:mod:`paper_figures._data`), in either mode."""
    return ("electricity",)


def compute(ctx):
    """Persistent accuracy on Electricity in percent, over all instances and over the n-1 transitions."""
    import streamtk
    from streamtk.dependence.baselines import persistent

    y = ctx.labels("electricity")
    pred = persistent(y)
    acc = float(streamtk.evaluate(y, pred, every=len(y), metrics=["accuracy"])["accuracy"].values.ravel()[-1])
    acc_tr = float(
        streamtk.evaluate(y[1:], pred[1:], every=len(y) - 1, metrics=["accuracy"])["accuracy"].values.ravel()[-1]
    )
    return 100 * acc, 100 * acc_tr


def run(ctx):
    """Zliobaite et al. 2015 Table 5 (exact)."""
    sec = ctx.section(
        "zliobaite_table5",
        "Zliobaite et al. 2015 — Table 5 (Electricity: literature vs the Persistent classifier)",
        "seed 003, sec. 6.4, Table 5 (accuracy in %)",
    )
    acc, acc_tr = compute(ctx)
    sec.check(
        ITEM,
        "Persistent classifier accuracy (%), transitions t = 2..n",
        85.3,
        acc_tr,
        decimals=1,
        note=f"unrounded {acc_tr:.4f} = 38,664 / 45,311",
    )
    better = [r for r in LITERATURE if r[1] > acc_tr]
    sec.check(ITEM, "reported accuracies above Persistent", 6, len(better), decimals=0)
    sec.check(ITEM, "rows of the table (without Persistent)", 18, len(LITERATURE), decimals=0)
    rows = [(a, f"{v:.1f}", ref, "yes" if v > acc_tr else "no") for a, v, ref in LITERATURE]
    rows.insert(len(better), ("Persistent classifier (streamtk)", f"{acc_tr:.1f}", "recomputed here", "–"))
    sec.table(["algorithm", "reported accuracy (%)", "reference", "beats Persistent?"], rows)
    sec.note(
        f"Over all {45312} instances (the first predicted before any label, as the first class) the Persistent "
        f"accuracy is {acc:.4f}%, also 85.3 after rounding."
    )
    sec.result(
        ITEM,
        paper="Persistent 85.3%; 6 of 18 reported accuracies above it",
        ours=f"Persistent {acc_tr:.2f}%; {len(better)} of {len(LITERATURE)} above it",
    )


if __name__ == "__main__":
    raise SystemExit(script_main(run, name="zliobaite_table5"))
