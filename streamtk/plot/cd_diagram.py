"""Critical-difference diagram of a Friedman test and any post-hoc procedure (Demsar 2006; Bifet et al. 2015, sec. 4).

The average ranks of k classifiers sit on a horizontal rank axis (rank 1 = best, on
the left); thick bars join the cliques: classifiers, consecutive in average rank, that the
post-hoc procedure cannot tell apart (for a procedure against a control: the control and
every classifier not different from it). For Nemenyi and Bonferroni-Dunn a bar of length CD
is drawn; the step-wise procedures (Holm, Hochberg, Finner, Shaffer) have no single
critical difference, so only their cliques are drawn.
"""

from __future__ import annotations

import numpy as np

from ._layout import fit_title

__all__ = ["cd_diagram"]


def _normalise(result, options):
    """``(names, average ranks, cd, cliques, significant, omnibus text, control, method, alpha)`` of a result."""
    from ..comparison.across_streams import ManyComparison, compare_many
    from ..stats.friedman import FriedmanResult
    from ..stats.posthoc import PosthocResult

    try:
        import xarray as xr
    except ImportError:  # pragma: no cover - xarray is a dependency
        xr = None
    if options and not (xr is not None and isinstance(result, xr.Dataset) and "pvalue_adjusted" not in result):
        raise TypeError(f"options {sorted(options)} apply to a results collection, not to a computed result")
    if xr is not None and isinstance(result, xr.Dataset):
        if "pvalue_adjusted" not in result:  # a results collection: compare its models first
            result = compare_many(result, **options)
        elif "pvalue_adjusted" in result and "value" in result:
            result = ManyComparison.from_dataset(result)
        elif "pvalue_adjusted" in result:
            result = PosthocResult.from_dataset(result)
    if isinstance(result, ManyComparison):
        ph, fr = result.posthoc, result.friedman
        p = fr.f_pvalue if fr.omnibus == "iman-davenport" else fr.pvalue
        omni = f"{fr.omnibus} p-value {p:.4g}"
        return ph.names, ph.average_ranks, ph.cd, ph.cliques, fr.significant, omni, ph.control, ph.method, ph.alpha
    if isinstance(result, PosthocResult):
        r = result
        return r.names, r.average_ranks, r.cd, r.cliques, True, "", r.control, r.method, r.alpha
    if isinstance(result, FriedmanResult) or (hasattr(result, "average_ranks") and hasattr(result, "cd")):
        r = result
        p = r.f_pvalue if r.omnibus == "iman-davenport" else r.pvalue
        omni = f"{r.omnibus} p-value {p:.4g}"
        return r.names, r.average_ranks, r.cd, r.groups, r.significant, omni, r.control, r.posthoc, r.alpha
    raise TypeError(
        "result must be a FriedmanResult (streamtk.stats.friedman_test), a PosthocResult (streamtk.stats.posthoc_test) "
        f"or a ManyComparison (streamtk.comparison.compare_many), got {type(result).__name__}"
    )


def cd_diagram(
    result,
    *,
    ax=None,
    force: bool = False,
    title: str | None = None,
    label_fmt: str = "{name} ({rank:.2f})",
    **options,
):
    """Draw the critical-difference diagram of a Friedman / post-hoc result (or of a results collection).

    Parameters
    ----------
    result : FriedmanResult, PosthocResult, ManyComparison or results collection
        From :func:`streamtk.stats.friedman_test`, :func:`streamtk.stats.posthoc_test` or
        :func:`streamtk.comparison.compare_many` (or the latter two's ``to_dataset()``,
        e.g. read back from netCDF); a collection (:func:`streamtk.comparison.collect`) is
        compared first with ``compare_many(result, **options)`` (``metric``, ``summary``,
        ``estimator``, ``posthoc``, ``control``, ``alpha``, ``runs``, ``missing``).
    ax : matplotlib Axes, optional
        Drawn into a new figure when omitted.
    force : bool
        Draw even when the omnibus Friedman / Iman-Davenport test did not reject. By
        default that raises ``ValueError``: post-hoc cliques are meaningless without a
        significant omnibus test (as autorank / scikit-posthocs refuse). A bare
        PosthocResult carries no omnibus test and is drawn as is.
    title : str, optional
        Default: the procedure, its family and alpha.
    label_fmt : str
        Format of each classifier's label (fields ``name`` and ``rank``).

    Returns
    -------
    dict
        ``axis`` (the rank axis line), ``ticks`` (list of tick lines), ``cd_bar`` (None
        without a critical difference), ``lines`` (one connector per classifier), ``labels``
        (Text per classifier, in input order), ``groups`` (one Line2D per clique),
        ``title`` (Text or None).
    """
    names, avg, cd, cliques, significant, omni, control, method, alpha = _normalise(result, options)
    if not significant and not force:
        raise ValueError(
            f"the Friedman test is not significant at alpha={alpha} ({omni}); a critical-difference diagram "
            "would suggest differences the data do not support. Pass force=True to draw it anyway"
        )
    import matplotlib.pyplot as plt

    names = list(names)
    avg = np.asarray(avg, dtype=float)
    k = len(names)
    if ax is None:
        _, ax = plt.subplots(figsize=(7.0, 1.6 + 0.3 * ((k + 1) // 2) + 0.2 * len(cliques)))
    order = np.argsort(avg, kind="stable")
    lo, hi = 1, k
    y_axis = 0.0
    artists = {"ticks": [], "lines": [], "labels": [None] * k, "groups": [], "cd_bar": None}
    (artists["axis"],) = ax.plot([lo, hi], [y_axis, y_axis], color="black", lw=1.2)
    for r in range(lo, hi + 1):
        (t,) = ax.plot([r, r], [y_axis, y_axis + 0.1], color="black", lw=1.0)
        artists["ticks"].append(t)
        ax.text(r, y_axis + 0.15, str(r), ha="center", va="bottom", fontsize=9)
    y_top = y_axis + 0.35
    if cd is not None and np.isfinite(cd):
        y_cd = y_axis + 0.55
        (artists["cd_bar"],) = ax.plot([lo, lo + cd], [y_cd, y_cd], color="black", lw=2.0)
        for xx in (lo, lo + cd):
            ax.plot([xx, xx], [y_cd - 0.06, y_cd + 0.06], color="black", lw=1.0)
        ax.text(lo + cd / 2, y_cd + 0.08, f"CD = {cd:.3f}", ha="center", va="bottom", fontsize=9)
        y_top = y_cd + 0.35
    for g, grp in enumerate(cliques):
        ranks = [avg[names.index(nm)] for nm in grp]
        y_g = y_axis - 0.18 - 0.14 * g
        (line,) = ax.plot(
            [min(ranks) - 0.03, max(ranks) + 0.03], [y_g, y_g], color="black", lw=3.0, solid_capstyle="round"
        )
        artists["groups"].append(line)
    # labels: best half on the left, the rest on the right
    left = order[: (k + 1) // 2]
    right = order[(k + 1) // 2 :][::-1]
    y0 = y_axis - 0.35 - 0.14 * len(cliques)
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
                fontweight="bold" if names[i] == control else "normal",
            )
    ymin = y0 - 0.28 * max(len(left), len(right))
    width = max(len(label_fmt.format(name=s, rank=1.0)) for s in names)
    ax.set_xlim(lo - 0.4 - 0.09 * width, hi + 0.4 + 0.09 * width)
    ax.set_ylim(ymin, y_top)
    ax.axis("off")
    if title is None and method is not None:
        family = "all pairs" if control is None else f"vs control {control}"
        title = f"{method} ({family}), alpha = {alpha:g}"
    artists["title"] = ax.set_title(title, fontsize=10) if title else None
    fit_title(ax)
    return artists
