"""Critical-difference diagram of a Friedman test (Demsar 2006; Bifet et al. 2015, section 4).

The average ranks of k classifiers sit on a horizontal rank axis (rank 1 = best, on
the left); a bar of length CD shows the critical difference; thick lines join the
groups of classifiers that the post-hoc test cannot tell apart.
"""

from __future__ import annotations

import numpy as np

__all__ = ["cd_diagram"]


def cd_diagram(
    result, *, ax=None, force: bool = False, title: str | None = None, label_fmt: str = "{name} ({rank:.2f})"
):
    """Draw the critical-difference diagram of a :class:`streamtk.stats.FriedmanResult`.

    Parameters
    ----------
    result : streamtk.stats.FriedmanResult
        Output of :func:`streamtk.stats.friedman_test`.
    ax : matplotlib Axes, optional
        Drawn into a new figure when omitted.
    force : bool
        Draw even when the Friedman test did not reject (``result.significant`` is
        False). By default that raises ``ValueError``: post-hoc groups are meaningless
        without a significant omnibus test (as autorank/scikit-posthocs refuse).
    title : str, optional
    label_fmt : str
        Format of each classifier's label (fields ``name`` and ``rank``).

    Returns
    -------
    dict
        ``axis`` (the rank axis line), ``ticks`` (list of tick lines), ``cd_bar``,
        ``lines`` (one connector per classifier), ``labels`` (Text per classifier, in
        input order), ``groups`` (one Line2D per group), ``title`` (Text or None).
    """
    if not hasattr(result, "average_ranks") or not hasattr(result, "cd"):
        raise TypeError(
            f"result must be a FriedmanResult from streamtk.stats.friedman_test, got {type(result).__name__}"
        )
    if not result.significant and not force:
        raise ValueError(
            f"the Friedman test is not significant at alpha={result.alpha} "
            f"({result.omnibus} p-value "
            f"{result.f_pvalue if result.omnibus == 'iman-davenport' else result.pvalue:.4g}); "
            "a critical-difference diagram would suggest differences the data do not support. "
            "Pass force=True to draw it anyway"
        )
    import matplotlib.pyplot as plt

    if ax is None:
        k = len(result.names)
        _, ax = plt.subplots(figsize=(7.0, 1.6 + 0.3 * ((k + 1) // 2) + 0.2 * len(result.groups)))
    names = list(result.names)
    avg = np.asarray(result.average_ranks, dtype=float)
    k = len(names)
    order = np.argsort(avg, kind="stable")
    lo, hi = 1, k
    y_axis = 0.0
    artists = {"ticks": [], "lines": [], "labels": [None] * k, "groups": []}
    (artists["axis"],) = ax.plot([lo, hi], [y_axis, y_axis], color="black", lw=1.2)
    for r in range(lo, hi + 1):
        (t,) = ax.plot([r, r], [y_axis, y_axis + 0.1], color="black", lw=1.0)
        artists["ticks"].append(t)
        ax.text(r, y_axis + 0.15, str(r), ha="center", va="bottom", fontsize=9)
    # CD bar above the axis, starting at rank 1
    y_cd = y_axis + 0.55
    (artists["cd_bar"],) = ax.plot([lo, lo + result.cd], [y_cd, y_cd], color="black", lw=2.0)
    for xx in (lo, lo + result.cd):
        ax.plot([xx, xx], [y_cd - 0.06, y_cd + 0.06], color="black", lw=1.0)
    ax.text(lo + result.cd / 2, y_cd + 0.08, f"CD = {result.cd:.3f}", ha="center", va="bottom", fontsize=9)
    # group bars just below the axis
    n_groups = len(result.groups)
    for g, grp in enumerate(result.groups):
        ranks = [avg[names.index(nm)] for nm in grp]
        y_g = y_axis - 0.18 - 0.14 * g
        (line,) = ax.plot(
            [min(ranks) - 0.03, max(ranks) + 0.03], [y_g, y_g], color="black", lw=3.0, solid_capstyle="round"
        )
        artists["groups"].append(line)
    # labels: best half on the left, the rest on the right
    left = order[: (k + 1) // 2]
    right = order[(k + 1) // 2 :][::-1]
    y0 = y_axis - 0.35 - 0.14 * n_groups
    for side, idxs in (("left", left), ("right", right)):
        for j, i in enumerate(idxs):
            yy = y0 - 0.28 * j
            xe = lo - 0.2 if side == "left" else hi + 0.2
            (ln,) = ax.plot([avg[i], avg[i], xe], [y_axis, yy, yy], color="0.25", lw=0.9)
            artists["lines"].append(ln)
            artists["labels"][i] = ax.text(
                xe - 0.05 if side == "left" else xe + 0.05,
                yy,
                label_fmt.format(name=names[i], rank=avg[i]),
                ha="right" if side == "left" else "left",
                va="center",
                fontsize=9,
            )
    ymin = y0 - 0.28 * max(len(left), len(right))
    ax.set_xlim(lo - 0.4 - 0.12 * max(len(s) for s in names), hi + 0.4 + 0.12 * max(len(s) for s in names))
    ax.set_ylim(ymin, y_cd + 0.35)
    ax.axis("off")
    artists["title"] = ax.set_title(title) if title else None
    return artists
