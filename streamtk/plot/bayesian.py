"""The posterior of the Bayesian signed-rank test (Benavoli et al. 2017): a simplex of draws, or stacked bars."""

from __future__ import annotations

import numpy as np

from ._common import fit_title, new_axes

__all__ = ["plot_posterior"]

_COLORS = ("C0", "0.6", "C3")  # A better, equivalent, B better


def _single(result):
    from ..comparison.across_streams import TwoComparison
    from ..stats.bayesian import BayesianResult

    if isinstance(result, TwoComparison):
        return result.bayesian
    if isinstance(result, BayesianResult):
        return result
    try:
        import xarray as xr
    except ImportError:  # pragma: no cover
        return None
    if isinstance(result, xr.Dataset) and "theta" in result:
        return BayesianResult.from_dataset(result)
    return None


def _simplex(res, ax, max_points, seed):
    """Barycentric scatter: A better at the bottom left, B better at the bottom right, equivalent on top."""
    corners = np.array([[0.0, 0.0], [0.5, np.sqrt(3) / 2], [1.0, 0.0]])  # A, rope, B
    theta = res.theta
    if theta.shape[0] > max_points:
        idx = np.random.default_rng(seed).choice(theta.shape[0], max_points, replace=False)
        theta = theta[idx]
    xy = theta @ corners
    winner = np.argmax(theta, axis=1)
    artists = []
    for r in range(3):
        sel = winner == r
        artists.append(ax.scatter(xy[sel, 0], xy[sel, 1], s=3, alpha=0.25, color=_COLORS[r], lw=0, rasterized=True))
    tri = np.vstack([corners, corners[:1]])
    artists.append(ax.plot(tri[:, 0], tri[:, 1], color="black", lw=1.0)[0])
    centre = corners.mean(axis=0)
    for a, b in ((0, 1), (1, 2), (0, 2)):  # region borders: centre to the edge midpoints
        mid = (corners[a] + corners[b]) / 2
        artists.append(ax.plot([centre[0], mid[0]], [centre[1], mid[1]], color="black", lw=0.6, ls=":")[0])
    a, b = res.names
    labels = (
        f"{a} better\n{res.p_a_better:.3f}",
        f"equivalent\n{res.p_equivalent:.3f}",
        f"{b} better\n{res.p_b_better:.3f}",
    )
    offsets = ((0.0, -0.05, "center", "top"), (0.0, 0.04, "center", "bottom"), (0.0, -0.05, "center", "top"))
    for c, text, (dx, dy, ha, va) in zip(corners, labels, offsets):
        artists.append(ax.text(c[0] + dx, c[1] + dy, text, ha=ha, va=va, fontsize=9))
    ax.set_xlim(-0.35, 1.35)
    ax.set_ylim(-0.25, 1.1)
    ax.set_aspect("equal")
    ax.axis("off")
    return artists


def _bars(rows, ax):
    """One horizontal stacked bar per pair: P(A better) | P(equivalent) | P(B better)."""
    artists = []
    y = np.arange(len(rows))[::-1]
    for r in range(3):
        left = np.array([sum(p[:r]) for _, _, p in rows])
        width = np.array([p[r] for _, _, p in rows])
        artists.append(ax.barh(y, width, left=left, color=_COLORS[r], edgecolor="white", height=0.7))
        for yy, lf, w in zip(y, left, width):
            if w >= 0.08:
                ax.text(
                    lf + w / 2,
                    yy,
                    f"{w:.2f}",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="white" if r != 1 else "black",
                )
    ax.set_yticks(y)
    ax.set_yticklabels([f"{a} vs {b}" for a, b, _ in rows])
    ax.set_xlim(0, 1)
    ax.set_xlabel("posterior probability: left model better | equivalent (ROPE) | right model better")
    return artists


def plot_posterior(
    result, *, kind: str | None = None, ax=None, title: str | None = None, max_points: int = 5000, seed=0, **options
):
    """Plot the posterior of the Bayesian signed-rank test.

    Parameters
    ----------
    result : BayesianResult, TwoComparison or Dataset
        One test (:func:`streamtk.stats.bayesian_signed_rank_test`,
        :func:`streamtk.comparison.compare_two`, or their ``to_dataset()``), or many pairs
        (:func:`streamtk.comparison.bayesian_pairs`); a results collection is passed to
        ``bayesian_pairs(result, **options)`` first (``rope``, ``control``, ``metric``...).
    kind : {"simplex", "bars"}, optional
        ``simplex`` (one test only): the posterior draws of ``(theta_A, theta_rope, theta_B)``
        in barycentric coordinates, coloured by the most probable region, with the
        region borders and each region's probability at its corner (Benavoli et al. 2017,
        Figure 7). ``bars``: one stacked bar of the three probabilities per pair. Default:
        simplex for one test, bars for many.
    max_points : int
        Draws shown in the simplex (a seeded subsample).

    Returns
    -------
    list of artists
    """
    import xarray as xr

    if isinstance(result, xr.Dataset) and "model" in result.dims and "summary" in result.dims:
        from ..comparison.across_streams import bayesian_pairs

        result = bayesian_pairs(result, **options)
    elif options:
        raise TypeError(f"options {sorted(options)} apply to a results collection, not to a computed result")
    single = _single(result)
    if kind is None:
        kind = "simplex" if single is not None else "bars"
    if kind not in ("simplex", "bars"):
        raise ValueError(f"kind must be 'simplex' or 'bars', got {kind!r}")
    if single is None:
        if not (isinstance(result, xr.Dataset) and "probability" in result and "pair" in result.dims):
            raise TypeError(
                "result must be a BayesianResult, a TwoComparison or the Dataset of comparison.bayesian_pairs, "
                f"got {type(result).__name__}"
            )
        if kind == "simplex":
            raise ValueError("kind='simplex' draws one test; select a pair or use kind='bars'")
        rows = [
            (str(a), str(b), result["probability"].values[i].tolist())
            for i, (a, b) in enumerate(zip(result["model_a"].values, result["model_b"].values))
        ]
        rope = result.attrs.get("rope")
    else:
        rows = [(single.names[0], single.names[1], single.probabilities.tolist())]
        rope = single.rope
    ax = new_axes(ax, figsize=(5.0, 4.6) if kind == "simplex" else (7.0, 0.9 + 0.45 * len(rows)))
    artists = _simplex(single, ax, max_points, seed) if kind == "simplex" else _bars(rows, ax)
    if title is None:
        title = f"Bayesian signed-rank test, ROPE ±{float(rope):g}" if rope is not None else "Bayesian signed-rank test"
    ax.set_title(title, fontsize=10)
    fit_title(ax)
    return artists
