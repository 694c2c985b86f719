"""Bifet et al. 2015, Table 1: Sign test and Wilcoxon signed-rank test on ten folds.

Seed 000 section 4 (Table 1 and the paragraph after it). The ten accuracies of classifiers A
and B, the ranks of |A - B|, the rank sums R+ / R-, the Sign test's critical wins w_0.05 and
Wilcoxon's critical value V_0.05, all from :mod:`streamtk.stats`.
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

A = np.array([77.98, 72.26, 76.95, 77.94, 72.23, 76.90, 77.93, 72.37, 76.93, 77.97])
B = np.array([77.91, 72.27, 76.97, 76.57, 71.63, 75.48, 75.75, 71.33, 74.54, 77.94])
PAPER_DIFF = [0.07, -0.01, -0.02, 1.37, 0.60, 1.42, 2.18, 1.04, 2.39, 0.03]
PAPER_RANK = [4, 1, 2, 7, 5, 8, 9, 6, 10, 3]


def compute():
    """All Table 1 quantities as a dict (used by the tests)."""
    from scipy.stats import rankdata

    from streamtk.stats import sign_critical_wins, sign_test, wilcoxon_test

    diff = np.round(A - B, 2)
    sign = sign_test(A, B, alpha=0.05)
    wil = wilcoxon_test(A, B, alpha=0.05)
    return {
        "diff": diff,
        "rank": rankdata(np.abs(diff)),
        "wins_a": int(sign.statistic),
        "wins_b": int(sign.losses),
        "sign_p": float(sign.pvalue),
        "w_exact_two_sided": int(sign_critical_wins(10, 0.05)),
        "w_normal_one_sided": int(sign_critical_wins(10, 0.05, alternative="greater", method="normal")),
        "r_plus": float(wil.r_plus),
        "r_minus": float(wil.r_minus),
        "wilcoxon_T": float(wil.statistic),
        "V": float(wil.critical),
        "wilcoxon_p": float(wil.pvalue),
        "wilcoxon_reject": bool(wil.reject),
    }


ITEM = "bifet.table1"


def run(ctx):
    """Bifet et al. 2015 Table 1 (exact)."""
    sec = ctx.section(
        "bifet_table1",
        "Bifet et al. 2015 — Table 1 (Sign and Wilcoxon tests on 10 folds)",
        "seed 000, sec. 4, Table 1 and the paragraph after it",
    )
    r = compute()
    for i in range(10):
        sec.check(ITEM, f"fold {i + 1}: A - B", PAPER_DIFF[i], float(r["diff"][i]), decimals=2)
        sec.check(ITEM, f"fold {i + 1}: rank of abs(A - B)", PAPER_RANK[i], float(r["rank"][i]), decimals=0)
    sec.check(ITEM, "folds won by A", 8, r["wins_a"], decimals=0)
    sec.check(
        ITEM,
        "w_0.05 (Sign test critical wins)",
        8,
        r["w_normal_one_sided"],
        decimals=0,
        note="one-sided normal approximation n/2 + 1.645 sqrt(n)/2 = 7.6 -> 8 "
        "(`sign_critical_wins(10, 0.05, alternative='greater', method='normal')`); the exact two-sided "
        f"binomial test needs {r['w_exact_two_sided']} wins (with 8 wins p = {r['sign_p']:.4f})",
    )
    sec.check(
        ITEM,
        "sum of ranks of positive differences R+",
        53,
        r["r_plus"],
        decimals=0,
        erratum="the paper's own Rank column gives 4+7+5+8+9+6+10+3 = 52, and R+ + R- = 10*11/2 = 55 = 52 + 3",
    )
    sec.check(ITEM, "sum of ranks of negative differences R-", 3, r["r_minus"], decimals=0)
    sec.check(ITEM, "Wilcoxon T = min(R+, R-)", 3, r["wilcoxon_T"], decimals=0)
    sec.check(ITEM, "critical value V_0.05", 8, r["V"], decimals=0, note="two-sided exact table value for n = 10")
    sec.check(
        ITEM,
        "Wilcoxon rejects H0 at 0.05 (1 = yes)",
        1,
        int(r["wilcoxon_reject"]),
        decimals=0,
        note=f"exact p = {r['wilcoxon_p']:.5f}",
    )
    sec.note(
        "The Sign test's rejection with 8 of 10 wins holds under the one-sided normal approximation the paper "
        f"uses (w_0.05 = 8); the exact two-sided binomial test would need {r['w_exact_two_sided']} wins "
        f"(p = {r['sign_p']:.4f} with 8)."
    )
    sec.result(
        ITEM,
        paper="diffs, ranks, 8 wins, w=8, R+=53, R-=3, T=3, V=8: reject",
        ours=f"same diffs and ranks, 8 wins, w=8, R+={r['r_plus']:.0f}, R-={r['r_minus']:.0f}, T=3, V=8: reject",
        reason="the text's R+ = 53 is the paper's slip: its own Rank column sums to 52 (52 + 3 = 55 = 10*11/2)",
    )


if __name__ == "__main__":
    raise SystemExit(script_main(run, name="bifet_table1"))
