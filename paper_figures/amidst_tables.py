"""AMIDST deliverable, Tables 2.1-2.3: a confusion matrix, its cat-vs-not-cat collapse and the confusion table.

Seed 001 sec. 2.1. The 27 (actual, predicted) pairs of Table 2.1 (string labels in the table's order
Cat, Dog, Rabbit, which is not sorted order for streamtk's default) are fed to :func:`streamtk.evaluate`;
accuracy, per-class recall (true positive rate) and precision are read off and compared with the
fractions the deliverable prints: accuracy 19/27 (Table 2.1), 22/27 (Table 2.2), TPR 5/8 and FPR 2/19
(Table 2.3).
"""

from __future__ import annotations

if __package__ in (None, ""):  # run as a file: make the package-relative imports work (PEP 366)
    import sys
    from pathlib import Path

    _pkg = Path(__file__).resolve().parent
    __package__ = ("streamtk." if _pkg.parent.name == "streamtk" else "") + _pkg.name
    sys.path.insert(0, str(_pkg.parent.parent if _pkg.parent.name == "streamtk" else _pkg.parent))

from fractions import Fraction  # noqa: E402

import numpy as np  # noqa: E402

from ._common import script_main  # noqa: E402

CLASSES = ["Cat", "Dog", "Rabbit"]
#: Table 2.1: rows = actual class, columns = predicted class
TABLE_2_1 = np.array([[5, 3, 0], [2, 3, 1], [0, 2, 11]])
#: Table 2.2 (rows actual Cat / Not cat, columns predicted Cat / Not cat)
TABLE_2_2 = np.array([[5, 3], [2, 17]])
#: Table 2.3 (rows test outcome Positive / Negative, columns actual condition Positive / Negative)
TABLE_2_3 = np.array([[5, 2], [3, 17]])


def pairs(table, classes):
    """``(y_true, y_pred)`` with ``table[i, j]`` instances of actual ``classes[i]`` predicted ``classes[j]``."""
    yt, yp = [], []
    for i, a in enumerate(classes):
        for j, p in enumerate(classes):
            yt += [a] * int(table[i, j])
            yp += [p] * int(table[i, j])
    return np.array(yt, dtype=object), np.array(yp, dtype=object)


def _frac(x, denominator_max=1000):
    return str(Fraction(float(x)).limit_denominator(denominator_max))


def compute():
    import streamtk

    yt, yp = pairs(TABLE_2_1, CLASSES)
    n = len(yt)
    ds = streamtk.evaluate(yt, yp, every=n, metrics=["accuracy", "recall", "precision"], classes=CLASSES)
    last = ds.isel(estimator=0, time=-1)
    # Table 2.2: every class other than Cat collapsed into "Not cat"
    bt = np.where(yt == "Cat", "Cat", "Not cat")
    bp = np.where(yp == "Cat", "Cat", "Not cat")
    db = streamtk.evaluate(bt, bp, every=n, metrics=["accuracy", "recall"], classes=["Cat", "Not cat"], pos_label="Cat")
    lb = db.isel(estimator=0, time=-1)
    n_cat, n_not = int(np.sum(bt == "Cat")), int(np.sum(bt != "Cat"))
    tpr = float(lb["recall"].sel({"class": "Cat"}))
    tnr = float(lb["recall"].sel({"class": "Not cat"}))
    tp, tn = round(tpr * n_cat), round(tnr * n_not)
    collapsed = np.array([[tp, n_cat - tp], [n_not - tn, tn]])
    return {
        "n": n,
        "accuracy": float(last["accuracy"]),
        "recall": {c: float(last["recall"].sel({"class": c})) for c in CLASSES},
        "precision": {c: float(last["precision"].sel({"class": c})) for c in CLASSES},
        "binary_accuracy": float(lb["accuracy"]),
        "tpr": tpr,
        "fpr": 1.0 - tnr,
        "table_2_2": collapsed,
        "table_2_3": collapsed.T,
    }


def run(ctx):
    """AMIDST Tables 2.1-2.3 (exact)."""
    sec = ctx.section(
        "amidst_tables",
        "AMIDST — Tables 2.1-2.3 (confusion matrix, its binary collapse, the confusion table)",
        "seed 001, sec. 2.1, Tables 2.1, 2.2 and 2.3",
    )
    r = compute()
    sec.check("amidst.table2.1", "instances", 27, r["n"], decimals=0)
    sec.check("amidst.table2.1", "accuracy", "19/27", _frac(r["accuracy"]), note=f"{r['accuracy']:.6f}")
    sec.table(
        ["actual \\ predicted", *CLASSES, "recall (streamtk)"],
        [[c, *TABLE_2_1[i].tolist(), f"{r['recall'][c]:.4f} = {_frac(r['recall'][c])}"] for i, c in enumerate(CLASSES)],
        caption="Table 2.1 as input (string labels in the table's own order, passed as `classes=`):",
    )
    for i, c in enumerate(["Cat", "Not cat"]):
        for j, p in enumerate(["Cat", "Not cat"]):
            sec.check(
                "amidst.table2.2",
                f"actual {c}, predicted {p}",
                int(TABLE_2_2[i, j]),
                int(r["table_2_2"][i, j]),
                decimals=0,
            )
    sec.check("amidst.table2.2", "accuracy", "22/27", _frac(r["binary_accuracy"]), note=f"{r['binary_accuracy']:.6f}")
    names = [("Positive", "Positive"), ("Positive", "Negative"), ("Negative", "Positive"), ("Negative", "Negative")]
    for (o, a), v, w in zip(names, TABLE_2_3.ravel(), r["table_2_3"].ravel()):
        sec.check("amidst.table2.3", f"test outcome {o}, actual {a}", int(v), int(w), decimals=0)
    sec.check("amidst.table2.3", "true positive rate (recall)", "5/8", _frac(r["tpr"]), note=f"{r['tpr']:.6f}")
    sec.check(
        "amidst.table2.3",
        "false positive rate (fall-out)",
        "2/19",
        _frac(r["fpr"]),
        note=f"{r['fpr']:.6f}; FP over the actual negatives. The deliverable's sentence divides by 'the total "
        "number actual positives', which would give 2/8: a slip of the text, not of the table",
    )
    sec.result("amidst.table2.1", paper="accuracy 19/27", ours=f"accuracy {_frac(r['accuracy'])}")
    sec.result(
        "amidst.table2.2",
        paper="5, 3 / 2, 17; accuracy 22/27",
        ours=f"{r['table_2_2'].tolist()}; accuracy {_frac(r['binary_accuracy'])}",
    )
    sec.result(
        "amidst.table2.3",
        paper="TP 5, FP 2, FN 3, TN 17; TPR 5/8, FPR 2/19",
        ours=f"{r['table_2_3'].tolist()}; TPR {_frac(r['tpr'])}, FPR {_frac(r['fpr'])}",
        reason="",
    )


if __name__ == "__main__":
    raise SystemExit(script_main(run, name="amidst_tables"))
