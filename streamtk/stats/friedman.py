"""Friedman test with the Nemenyi and Bonferroni-Dunn post-hoc tests.

Bifet et al. 2015 (seed 000, section 4), after Demsar (2006): rank the k classifiers
on each of N datasets (rank 1 = best, average ranks for ties), average the ranks
``R_j = (1/N) sum_i r_i^j``, test them with Friedman's statistic and, if it rejects,
call two classifiers different when their average ranks differ by at least

    CD = q_alpha sqrt(k (k + 1) / (6 N)).

Nemenyi (all pairs): ``q_alpha`` is the Studentized range quantile for k groups and
infinite degrees of freedom divided by sqrt(2) (``scipy.stats.studentized_range``).
Bonferroni-Dunn (each classifier against one control): ``q_alpha = z_{1 - alpha/(2(k-1))}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from scipy import stats as _sps

from .._core.validation import as_float_array, check_choice, check_in_open_unit_interval

__all__ = [
    "FriedmanResult",
    "friedman_test",
    "friedman_statistics",
    "critical_difference",
    "nemenyi_q",
    "bonferroni_dunn_q",
]

_POSTHOC = ("nemenyi", "bonferroni-dunn")
_OMNIBUS = ("iman-davenport", "chi2")


def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """``q_alpha`` of the Nemenyi test: ``studentized_range.ppf(1 - alpha, k, inf) / sqrt(2)``.

    Reproduces Demsar (2006) Table 5(a), e.g. 2.569 for k = 4 at alpha = 0.05.
    """
    k = _check_k(k)
    alpha = check_in_open_unit_interval(alpha, "alpha")
    return _nemenyi_q(k, alpha)


@lru_cache(maxsize=256)
def _nemenyi_q(k: int, alpha: float) -> float:
    # the Studentized range quantile is a slow numerical inversion: computed once per (k, alpha)
    return float(_sps.studentized_range.ppf(1.0 - alpha, k, np.inf) / np.sqrt(2.0))


def bonferroni_dunn_q(k: int, alpha: float = 0.05) -> float:
    """``q_alpha`` of the Bonferroni-Dunn test: the normal quantile ``z_{1 - alpha / (2 (k - 1))}``."""
    k = _check_k(k)
    alpha = check_in_open_unit_interval(alpha, "alpha")
    return float(_sps.norm.isf(alpha / (2.0 * (k - 1))))


def _check_k(k) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 2:
        raise ValueError(f"k (number of classifiers) must be an integer >= 2, got {k!r}")
    return int(k)


def critical_difference(k: int, n_datasets: int, alpha: float = 0.05, *, posthoc: str = "nemenyi") -> float:
    """``CD = q_alpha sqrt(k (k + 1) / (6 N))`` (Bifet et al. 2015, section 4)."""
    check_choice(posthoc, "posthoc", _POSTHOC)
    if isinstance(n_datasets, bool) or not isinstance(n_datasets, (int, np.integer)) or n_datasets < 1:
        raise ValueError(f"n_datasets must be a positive integer, got {n_datasets!r}")
    q = nemenyi_q(k, alpha) if posthoc == "nemenyi" else bonferroni_dunn_q(k, alpha)
    return q * float(np.sqrt(k * (k + 1) / (6.0 * n_datasets)))


@dataclass(frozen=True)
class FriedmanResult:
    """Result of :func:`friedman_test`.

    Attributes
    ----------
    names : tuple of str
        Classifier names, in input order.
    ranks : ndarray (N, k)
        Per-dataset ranks (1 = best).
    average_ranks : ndarray (k,)
    statistic, pvalue : float
        Friedman's ``chi2_F`` (tie-corrected if requested) and its chi-square(k-1) p-value.
    f_statistic, f_pvalue : float
        Iman-Davenport ``F_F = (N-1) chi2_F / (N(k-1) - chi2_F)`` with F(k-1, (k-1)(N-1));
        ``inf`` / 0 when every dataset ranks the classifiers identically.
    significant : bool
        The omnibus test chosen by ``omnibus`` rejects at ``alpha``.
    q_alpha, cd : float
        Post-hoc quantile and critical difference.
    different : ndarray (k, k) of bool
        ``|R_i - R_j| >= CD`` (Nemenyi); for Bonferroni-Dunn only the control's row
        and column are filled, other pairs are False.
    groups : tuple of tuple of str
        Maximal sets of classifiers, consecutive in average rank, whose average ranks
        span less than CD (the bars of a CD diagram); singletons are omitted. For
        Bonferroni-Dunn: the classifiers not different from the control (with it).
    """

    names: tuple
    ranks: np.ndarray
    average_ranks: np.ndarray
    statistic: float
    pvalue: float
    f_statistic: float
    f_pvalue: float
    significant: bool
    alpha: float
    posthoc: str
    omnibus: str
    q_alpha: float
    cd: float
    different: np.ndarray
    groups: tuple
    control: str | None = None
    higher_is_better: bool = True
    tie_correction: bool = True
    n_datasets: int = field(default=0)

    @property
    def n_classifiers(self) -> int:
        return len(self.names)

    def __repr__(self) -> str:
        k = len(self.names)
        p_omni = self.f_pvalue if self.omnibus == "iman-davenport" else self.pvalue
        verdict = "significant" if self.significant else "not significant"
        lines = [
            f"FriedmanResult: N = {self.n_datasets} datasets, k = {k} classifiers, alpha = {self.alpha:g}",
            f"  Friedman chi2_F = {self.statistic:.4g} (p = {self.pvalue:.4g}); "
            f"Iman-Davenport F_F = {self.f_statistic:.4g} (p = {self.f_pvalue:.4g}); "
            f"{self.omnibus}: {verdict} (p = {p_omni:.4g})",
            f"  {self.posthoc} CD = {self.cd:.3f} (q_alpha = {self.q_alpha:.3f})"
            + (f", control {self.control!r}" if self.control is not None else ""),
        ]
        w = max(5, *(len(n) for n in self.names))
        for i in np.argsort(self.average_ranks, kind="stable"):
            lines.append(f"  {self.names[i]:<{w}}  {self.average_ranks[i]:7.3f}")
        groups = "; ".join("{" + ", ".join(g) + "}" for g in self.groups) or "none"
        lines.append(f"  groups not significantly different: {groups}")
        return "\n".join(lines)

    def to_dataset(self):
        """The result as an ``xarray.Dataset`` (dims ``model``, ``dataset``, ``group``)."""
        import xarray as xr

        from .._labelled import base_attrs

        names = np.array(self.names, dtype=str)
        member = np.zeros((len(self.groups), len(names)), dtype=bool)
        for g, grp in enumerate(self.groups):
            for nm in grp:
                member[g, self.names.index(nm)] = True
        ds = xr.Dataset(
            {
                "average_rank": ("model", self.average_ranks, {"long_name": "average rank (1 = best)"}),
                "rank": (("dataset", "model"), self.ranks, {"long_name": "rank on each dataset"}),
                "different": (
                    ("model", "model_other"),
                    self.different,
                    {"long_name": f"average ranks differ by at least CD ({self.posthoc})"},
                ),
                "group_member": (("group", "model"), member, {"long_name": "indistinguishable group"}),
                "statistic": ((), self.statistic, {"long_name": "Friedman chi-square statistic"}),
                "pvalue": ((), self.pvalue, {"long_name": "Friedman chi-square p-value"}),
                "f_statistic": ((), self.f_statistic, {"long_name": "Iman-Davenport F statistic"}),
                "f_pvalue": ((), self.f_pvalue, {"long_name": "Iman-Davenport p-value"}),
                "cd": (
                    (),
                    self.cd,
                    {
                        "long_name": "critical difference of average ranks",
                        "formula": "q_alpha * sqrt(k (k + 1) / (6 N))",
                    },
                ),
                "q_alpha": ((), self.q_alpha),
            },
            coords={"model": names, "model_other": names, "dataset": np.arange(self.ranks.shape[0])},
            attrs=base_attrs(
                "Friedman test with post-hoc critical difference",
                reference="Bifet et al. 2015 (seed 000) section 4; Demsar 2006",
                alpha=self.alpha,
                posthoc=self.posthoc,
                omnibus=self.omnibus,
                significant=bool(self.significant),
                control=self.control,
                higher_is_better=self.higher_is_better,
                tie_correction=self.tie_correction,
            ),
        )
        return ds


def _maximal_groups(order: np.ndarray, avg: np.ndarray, cd: float) -> list[tuple[int, ...]]:
    sorted_r = avg[order]
    k = len(order)
    spans = []
    for i in range(k):
        j = i
        while j + 1 < k and sorted_r[j + 1] - sorted_r[i] < cd:
            j += 1
        if j > i:
            spans.append((i, j))
    maximal = [s for s in spans if not any(o != s and o[0] <= s[0] and s[1] <= o[1] for o in spans)]
    return [tuple(int(order[t]) for t in range(a, b + 1)) for a, b in maximal]


def friedman_test(
    scores,
    *,
    names=None,
    higher_is_better: bool = True,
    alpha: float = 0.05,
    posthoc: str = "nemenyi",
    control=None,
    omnibus: str = "iman-davenport",
    tie_correction: bool = True,
) -> FriedmanResult:
    """Friedman test over N datasets x k classifiers with a critical-difference post-hoc test.

    Parameters
    ----------
    scores : array_like (N, k) or xarray.DataArray
        Performance of each classifier (column) on each dataset (row). A DataArray
        must be 2-D; its second dimension's coordinate supplies ``names``.
    names : sequence of str, optional
        Classifier names (default ``"0"``, ``"1"``, ...).
    higher_is_better : bool
        Rank 1 goes to the highest score (accuracy, kappa); False for errors.
    alpha : float
    posthoc : {"nemenyi", "bonferroni-dunn"}
    control : str, optional
        The control classifier of Bonferroni-Dunn (default: the best average rank).
    omnibus : {"iman-davenport", "chi2"}
        Which Friedman p-value decides ``significant`` (Demsar recommends Iman-Davenport).
    tie_correction : bool
        Divide ``chi2_F`` by ``1 - sum(t^3 - t) / (N k (k^2 - 1))`` for tied ranks
        (as ``scipy.stats.friedmanchisquare``); without ties it changes nothing and
        ``False`` gives Demsar's textbook formula.

    Returns
    -------
    FriedmanResult

    Notes
    -----
    ``chi2_F = 12 N / (k (k + 1)) [sum_j R_j^2 - k (k + 1)^2 / 4]``.

    See Also
    --------
    scipy.stats.friedmanchisquare : the omnibus statistic (reference in the tests).
    streamtk.plot.cd_diagram.cd_diagram : draws the result.

    Examples
    --------
    >>> import numpy as np
    >>> scores = np.array([[0.9, 0.8, 0.7], [0.85, 0.8, 0.6], [0.8, 0.82, 0.7], [0.9, 0.7, 0.65]] * 3)
    >>> res = friedman_test(scores, names=["A", "B", "C"])
    >>> res.average_ranks.round(3).tolist(), round(res.cd, 3), res.groups
    ([1.25, 1.75, 3.0], 0.957, (('A', 'B'),))
    """
    alpha = check_in_open_unit_interval(alpha, "alpha")
    check_choice(posthoc, "posthoc", _POSTHOC)
    check_choice(omnibus, "omnibus", _OMNIBUS)
    if names is None and hasattr(scores, "dims") and hasattr(scores, "coords"):
        if scores.ndim == 2 and scores.dims[1] in scores.coords:
            names = [str(v) for v in scores.coords[scores.dims[1]].values]
        scores = scores.values
    s = as_float_array(scores, "scores", ndim_min=2)
    if s.ndim != 2:
        raise ValueError(f"scores must be 2-D (datasets, classifiers), got shape {s.shape}")
    n, k = s.shape
    if k < 2 or n < 2:
        raise ValueError(f"scores needs at least 2 datasets and 2 classifiers, got shape {s.shape}")
    if names is None:
        names = [str(i) for i in range(k)]
    names = tuple(str(v) for v in names)
    if len(names) != k or len(set(names)) != k:
        raise ValueError(f"names must hold {k} distinct names, got {names!r}")
    ranks = _sps.rankdata(-s if higher_is_better else s, method="average", axis=1)
    stats = friedman_statistics(ranks, tie_correction=tie_correction)
    avg = stats["average_ranks"]
    chi2, p_chi2 = float(stats["chi2"]), float(stats["pvalue"])
    f_stat, f_p = float(stats["f_statistic"]), float(stats["f_pvalue"])
    p_omni = f_p if omnibus == "iman-davenport" else p_chi2
    significant = bool(np.isfinite(p_omni) and p_omni <= alpha)
    cd = critical_difference(k, n, alpha, posthoc=posthoc)
    q = nemenyi_q(k, alpha) if posthoc == "nemenyi" else bonferroni_dunn_q(k, alpha)
    diff = np.abs(avg[:, None] - avg[None, :]) >= cd
    order = np.argsort(avg, kind="stable")
    ctrl = None
    if posthoc == "nemenyi":
        if control is not None:
            raise ValueError(f"control is only used by posthoc='bonferroni-dunn', got control={control!r}")
        different = diff
        groups = tuple(tuple(names[i] for i in g) for g in _maximal_groups(order, avg, cd))
    else:
        c = int(order[0]) if control is None else _index_of(names, control)
        ctrl = names[c]
        different = np.zeros((k, k), dtype=bool)
        different[c, :] = diff[c, :]
        different[:, c] = diff[:, c]
        same = [i for i in order if not diff[c, i]]
        groups = (tuple(names[i] for i in same),) if len(same) > 1 else ()
    return FriedmanResult(
        names=names,
        ranks=ranks,
        average_ranks=avg,
        statistic=float(chi2),
        pvalue=p_chi2,
        f_statistic=f_stat,
        f_pvalue=f_p,
        significant=significant,
        alpha=alpha,
        posthoc=posthoc,
        omnibus=omnibus,
        q_alpha=q,
        cd=cd,
        different=different,
        groups=groups,
        control=ctrl,
        higher_is_better=bool(higher_is_better),
        tie_correction=bool(tie_correction),
        n_datasets=n,
    )


def _index_of(names, control) -> int:
    if str(control) not in names:
        raise ValueError(f"control must be one of {names!r}, got {control!r}")
    return names.index(str(control))


def friedman_statistics(ranks, *, tie_correction: bool = True) -> dict:
    """Friedman's and Iman-Davenport's statistics from per-dataset ranks, vectorised over leading axes.

    ``ranks`` has shape ``(..., N, k)`` (N datasets, k classifiers, average ranks for
    ties). Returns a dict of arrays of shape ``(...)``: ``chi2``, ``pvalue``,
    ``f_statistic``, ``f_pvalue`` and ``average_ranks`` ``(..., k)``, with the same
    formulas and conventions as :func:`friedman_test` (``F_F = inf`` and p-value 0 when
    every dataset ranks the classifiers identically; NaN when every rank is tied).
    """
    r = np.asarray(ranks, dtype=np.float64)
    n, k = r.shape[-2], r.shape[-1]
    avg = r.mean(axis=-2)
    # With c = (k + 1) / 2, the rank sums' spread B = N^2 sum_j (R_j - c)^2, the spread of all ranks
    # S = sum_ij (r_ij - c)^2 and their spread within classifiers W = sum_ij (r_ij - R_j)^2 satisfy
    # N S = B + N W. Friedman's statistic is chi2_F = (k - 1) B / S_used with S_used = S (tie-corrected,
    # as scipy) or N k (k^2 - 1) / 12 (Demsar's textbook formula), hence
    # N (k - 1) - chi2_F = (k - 1) N (W + S_used - S) / S_used. Computing that difference from W
    # instead of subtracting keeps it exactly 0 when every dataset ranks the classifiers identically
    # (W = 0, ties or not), so F_F is inf there, never a huge finite number from rounding.
    centre = (k + 1) / 2.0
    between = n * n * np.sum((avg - centre) ** 2, axis=-1)
    spread = np.sum((r - centre) ** 2, axis=(-2, -1))
    within = np.sum((r - avg[..., None, :]) ** 2, axis=(-2, -1))
    used = spread if tie_correction else np.full_like(spread, n * k * (k * k - 1) / 12.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        chi2 = np.where(used > 0, (k - 1) * between / np.where(used > 0, used, 1.0), np.nan)
        rest = n * (within + used - spread)  # (N (k - 1) - chi2_F) S_used / (k - 1), >= 0
        f_stat = np.where(
            rest > 0, (n - 1) * between / np.where(rest > 0, rest, 1.0), np.where(chi2 > 0, np.inf, np.nan)
        )
    f_stat = np.where(np.isnan(chi2), np.nan, f_stat)
    p_chi2 = _sps.chi2.sf(chi2, k - 1)
    f_p = np.where(
        np.isfinite(f_stat),
        _sps.f.sf(np.where(np.isfinite(f_stat), f_stat, 0.0), k - 1, (k - 1) * (n - 1)),
        np.where(f_stat == np.inf, 0.0, np.nan),
    )
    return {"chi2": chi2, "pvalue": p_chi2, "f_statistic": f_stat, "f_pvalue": f_p, "average_ranks": avg}
