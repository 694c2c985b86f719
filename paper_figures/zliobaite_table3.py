"""Zliobaite et al. 2015, Table 3: dataset characteristics P(M) and P(T).

Seed 003 sec. 6.1, Table 3. ``P(M)`` (majority-class prior) and ``P(T) = sum_i P(y_t = i,
y_{t-1} = i)`` (Proposition 7) from :func:`streamtk.dependence.label_dependence.label_dependence` on the labels of
Elec2, Covertype, KDD99 and Ozone loaded with :mod:`streamtk.datasets`.
"""

from __future__ import annotations

if __package__ in (None, ""):  # run as a file: make the package-relative imports work (PEP 366)
    import sys
    from pathlib import Path

    _pkg = Path(__file__).resolve().parent
    __package__ = ("streamtk." if _pkg.parent.name == "streamtk" else "") + _pkg.name
    sys.path.insert(0, str(_pkg.parent.parent if _pkg.parent.name == "streamtk" else _pkg.parent))

from ._common import script_main  # noqa: E402

#            loader name    paper name  instances  classes  P(M)  P(T)
PAPER = [
    ("electricity", "Elec2", 45312, 2, 0.58, 0.85),
    ("covertype", "Cover", 581012, 7, 0.49, 0.95),
    ("kdd99", "KDD99", 494020, 23, 0.56, 0.99),
    ("ozone", "Ozone", 2536, 2, 0.97, 0.95),
]


def data_needed(quick):
    """The data sets this script reads (:mod:`paper_figures._data`), in either mode."""
    return tuple(name for name, *_ in PAPER)


def compute(ctx):
    """``{paper name: (n, k, P(M), P(T))}`` (used by the tests)."""
    from streamtk.dependence.label_dependence import label_dependence

    out = {}
    for name, label, *_ in PAPER:
        y = ctx.labels(name)
        d = label_dependence(y, max_lag=1).isel(estimator=0, time=-1)
        out[label] = (int(d["n_labels"]), int(d.sizes["class"]), float(d["p_m"]), float(d["p_t"]))
    return out


ITEM = "zliobaite.table3"


def run(ctx):
    """Zliobaite et al. 2015 Table 3: every number compared under one rule (rounding to two decimals)."""
    sec = ctx.section(
        "zliobaite_table3", "Zliobaite et al. 2015 — Table 3 (P(M), P(T))", "seed 003, sec. 6.1, Table 3 (two decimals)"
    )
    ours = compute(ctx)
    for _, label, n, k, pm, pt in PAPER:
        on, ok, opm, opt = ours[label]
        rows = (
            "the UCI 10% file here (md5 as UCI's) has one row more: the paper may have used another version of the file"
        )
        sec.check(ITEM, f"{label}: # instances", n, on, decimals=0, note=rows if on == n + 1 else "")
        sec.check(ITEM, f"{label}: # classes", k, ok, decimals=0)
        for quantity, paper, value in (("P(M)", pm, opm), ("P(T)", pt, opt)):
            # one rule for the whole table: the paper rounds (Elec2's P(M) 0.5755 is printed 0.58, Cover's
            # 0.4876 is printed 0.49; truncation would print 0.57 and 0.48)
            sec.check(ITEM, f"{label}: {quantity}", paper, value, decimals=2, note=f"unrounded {value:.4f}")
    kdd = ours["KDD99"]
    sec.result(
        ITEM,
        paper="P(M)/P(T): Elec2 0.58/0.85, Cover 0.49/0.95, KDD99 0.56/0.99, Ozone 0.97/0.95; KDD99 494,020 rows",
        ours=", ".join(f"{lab} {v[2]:.4f}/{v[3]:.4f}" for lab, v in ours.items()) + f"; KDD99 {kdd[0]:,} rows",
        reason=f"KDD99 is off by 0.01 in both: P(M) = {kdd[2]:.4f} and P(T) = {kdd[3]:.4f} round to "
        f"{round(kdd[2], 2):.2f} and {round(kdd[3], 2):.2f} where the paper prints 0.56 and 0.99 (truncating would "
        "match them, but then Elec2's P(M) and Cover's P(M) would print 0.57 and 0.48 against the paper's 0.58 and "
        f"0.49: no single rule matches the whole table); the KDD99 file here has {kdd[0]:,} rows, the paper says "
        "494,020 (the paper may have used another version of the file). Elec2, Cover and Ozone match exactly",
    )


if __name__ == "__main__":
    raise SystemExit(script_main(run, name="zliobaite_table3"))
