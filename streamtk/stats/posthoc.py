"""Post-hoc tests after Friedman's test: all pairs or against a control (Demsar 2006; Garcia & Herrera 2008).

k classifiers are ranked on each of N datasets (rank 1 = best, average ranks for ties)
and ``R_i`` is classifier i's average rank. Two classifiers are compared with

    z_ij = (R_i - R_j) / sqrt(k (k + 1) / (6 N)),    p_ij = 2 (1 - Phi(|z_ij|))

(Demsar 2006, section 3.2.2; Garcia & Herrera 2008, section 2.1), and the family of
comparisons (all ``k (k - 1) / 2`` pairs, or the ``k - 1`` comparisons with a control)
is corrected by one procedure:

* ``nemenyi`` (all pairs): ``|R_i - R_j|`` against the Studentized range with k groups
  and infinite degrees of freedom, ``p = P(Q_k >= sqrt(2) |z_ij|)``; rejects exactly when
  ``|R_i - R_j| >= CD = q_alpha sqrt(k (k + 1) / (6 N))`` (Demsar's critical difference);
* ``bonferroni-dunn``: Bonferroni's correction of the m comparisons, ``min(1, m p)``, which
  rejects exactly when ``|R_i - R_j| >= CD`` with ``q_alpha = z_{1 - alpha / (2 m)}``. Against a
  control (m = k - 1) it is Demsar's Bonferroni-Dunn test (section 3.2.2), the test Demsar defines
  it for. Over all pairs (no control) it is the same correction of all m = k (k - 1) / 2 pairs
  (what Garcia & Herrera 2008 tabulate as Nemenyi's adjusted p-value, and scikit-posthocs'
  ``p_adjust="bonferroni"``), so its CD uses ``z_{1 - alpha / (k (k - 1))}`` and is wider than the
  control's CD: Demsar's k - 1 quantile would not hold the family-wise level over all pairs;
* ``holm``, ``hochberg``, ``finner``: step-down / step-up procedures
  (:mod:`streamtk.stats.adjust`), for all pairs or against a control;
* ``shaffer``: Shaffer's static procedure (all pairs only; against a control it would be Holm's).

The result holds raw and adjusted p-values, the rejections at ``alpha`` and the cliques
(maximal groups of classifiers, consecutive in average rank, no two of which differ
significantly) that a critical-difference diagram draws.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats as _sps

from .._core.validation import as_float_array, check_choice, check_in_open_unit_interval
from .adjust import adjust_sorted
from .friedman import nemenyi_q

__all__ = ["POSTHOC_METHODS", "PosthocResult", "posthoc_test", "posthoc_from_ranks", "rank_z", "cliques_from_reject"]

POSTHOC_METHODS = ("nemenyi", "bonferroni-dunn", "holm", "hochberg", "finner", "shaffer")
_ALL_PAIRS_ONLY = ("nemenyi", "shaffer")


def rank_z(average_ranks, n_datasets) -> np.ndarray:
    """``z_ij = (R_i - R_j) / sqrt(k (k + 1) / (6 N))`` for every pair, vectorised over leading axes.

    ``average_ranks`` has shape ``(..., k)``; returns ``(..., k, k)`` (antisymmetric).
    """
    r = np.asarray(average_ranks, dtype=np.float64)
    k = r.shape[-1]
    se = np.sqrt(k * (k + 1) / (6.0 * np.asarray(n_datasets, dtype=np.float64)))
    se = np.asarray(se)[..., None, None] if np.ndim(se) else se
    return (r[..., :, None] - r[..., None, :]) / se


def _nemenyi_p(absz: np.ndarray, k: int) -> np.ndarray:
    """``P(Q_k >= sqrt(2) |z|)`` with infinite degrees of freedom; computed once per distinct value."""
    flat = absz.reshape(-1)
    uniq, inv = np.unique(np.round(flat, 12), return_inverse=True)
    p = np.asarray(_sps.studentized_range.sf(np.sqrt(2.0) * uniq, k, np.inf), dtype=np.float64)
    return np.clip(p, 0.0, 1.0)[inv].reshape(absz.shape)


def _family(k: int, control: int | None):
    """Index pairs ``(i, j)`` of the family: all pairs ``i < j``, or ``(control, j)``."""
    if control is None:
        i, j = np.triu_indices(k, 1)
    else:
        j = np.array([t for t in range(k) if t != control], dtype=np.int64)
        i = np.full(j.shape, control, dtype=np.int64)
    return i, j


def family_pvalues(average_ranks, n_datasets, method: str, control: int | None = None):
    """Raw and adjusted p-values of the family, vectorised over leading axes of ``average_ranks``.

    Returns ``(i, j, z, p, p_adjusted)`` with ``z``, ``p``, ``p_adjusted`` of shape ``(..., m)``.
    """
    r = np.asarray(average_ranks, dtype=np.float64)
    k = r.shape[-1]
    i, j = _family(k, control)
    z = rank_z(r, n_datasets)[..., i, j]
    absz = np.abs(z)
    p = 2.0 * _sps.norm.sf(absz)
    if method == "nemenyi":
        return i, j, z, p, _nemenyi_p(absz, k)
    adj_method = "bonferroni" if method == "bonferroni-dunn" else method
    order = np.argsort(p, axis=-1, kind="stable")
    p_sorted = np.take_along_axis(p, order, axis=-1)
    adj_sorted = adjust_sorted(p_sorted, adj_method, k)
    adj = np.empty_like(adj_sorted)
    np.put_along_axis(adj, order, adj_sorted, axis=-1)
    return i, j, z, p, adj


def cliques_from_reject(average_ranks, reject) -> list[tuple[int, ...]]:
    """Maximal runs of classifiers consecutive in average rank with no rejected pair inside.

    These are the bars of a critical-difference diagram; runs of one classifier are
    omitted. ``reject`` is a symmetric ``(k, k)`` boolean matrix.
    """
    avg = np.asarray(average_ranks, dtype=np.float64)
    order = np.argsort(avg, kind="stable")
    rej = np.asarray(reject, dtype=bool)[np.ix_(order, order)]
    k = len(order)
    spans = []
    for a in range(k):
        b = a
        while b + 1 < k and not rej[a : b + 2, a : b + 2].any():
            b += 1
        if b > a:
            spans.append((a, b))
    maximal = [s for s in spans if not any(o != s and o[0] <= s[0] and s[1] <= o[1] for o in spans)]
    return [tuple(int(order[t]) for t in range(a, b + 1)) for a, b in maximal]


@dataclass(frozen=True)
class PosthocResult:
    """Result of :func:`posthoc_test` / :func:`posthoc_from_ranks`.

    Attributes
    ----------
    names : tuple of str
        Classifier names in input order.
    average_ranks : ndarray (k,)
        Average rank of each classifier over the datasets (1 = best).
    n_datasets : int
    method : str
        One of :data:`POSTHOC_METHODS`.
    control : str or None
        The control classifier (comparisons against it only), or None (all pairs).
    alpha : float
    z, pvalue, pvalue_adjusted : ndarray (k, k)
        ``z_ij`` (positive: i has the larger, i.e. worse, average rank), the unadjusted
        two-sided p-value and the adjusted p-value of each compared pair, symmetric; NaN
        for pairs outside the family (against a control: pairs without the control) and
        on the diagonal.
    reject : ndarray (k, k) of bool
        The pair differs significantly (False outside the family). For ``nemenyi`` and
        ``bonferroni-dunn`` it is decided by ``|R_i - R_j| >= cd``, the rule a CD diagram
        draws, which is ``pvalue_adjusted <= alpha`` (both come from the same quantile; they
        could differ only for a rank difference equal to ``cd`` to rounding); for the
        step-wise procedures it is ``pvalue_adjusted <= alpha``.
    cd : float
        Critical difference of average ranks for ``nemenyi`` and ``bonferroni-dunn``
        (rejection is exactly ``|R_i - R_j| >= cd``; ``bonferroni-dunn`` over all pairs
        uses the quantile of all k (k - 1) / 2 pairs, against a control that of the k - 1
        comparisons); NaN for the step-wise procedures, whose thresholds depend on the order
        of the p-values.
    cliques : tuple of tuple of str
        Maximal groups, consecutive in average rank, with no rejected pair inside
        (all pairs); against a control: the control with every classifier it is not
        significantly different from. Singletons are omitted.
    """

    names: tuple
    average_ranks: np.ndarray
    n_datasets: int
    method: str
    control: str | None
    alpha: float
    z: np.ndarray
    pvalue: np.ndarray
    pvalue_adjusted: np.ndarray
    reject: np.ndarray
    cd: float
    cliques: tuple
    higher_is_better: bool = True

    @property
    def n_classifiers(self) -> int:
        return len(self.names)

    def pairs(self) -> list[dict]:
        """The compared pairs, sorted by unadjusted p-value (smallest first)."""
        k = len(self.names)
        ctrl = None if self.control is None else self.names.index(self.control)
        i, j = _family(k, ctrl)
        rows = [
            {
                "a": self.names[a],
                "b": self.names[b],
                "rank_difference": float(self.average_ranks[a] - self.average_ranks[b]),
                "z": float(self.z[a, b]),
                "pvalue": float(self.pvalue[a, b]),
                "pvalue_adjusted": float(self.pvalue_adjusted[a, b]),
                "reject": bool(self.reject[a, b]),
            }
            for a, b in zip(i.tolist(), j.tolist())
        ]
        return sorted(rows, key=lambda r: (r["pvalue"], r["a"], r["b"]))

    def to_dataset(self):
        """The result as an ``xarray.Dataset`` (dims ``model``, ``model_other``, ``clique``); round-trips netCDF."""
        import xarray as xr

        from .._labelled import base_attrs

        names = np.array(self.names, dtype=str)
        member = np.zeros((len(self.cliques), len(names)), dtype=bool)
        for g, grp in enumerate(self.cliques):
            for nm in grp:
                member[g, self.names.index(nm)] = True
        pair = ("model", "model_other")
        return xr.Dataset(
            {
                "average_rank": ("model", self.average_ranks, {"long_name": "average rank over datasets (1 = best)"}),
                "z": (pair, self.z, {"long_name": "z = (R_i - R_j) / sqrt(k (k + 1) / (6 N))"}),
                "pvalue": (pair, self.pvalue, {"long_name": "unadjusted two-sided p-value of z"}),
                "pvalue_adjusted": (pair, self.pvalue_adjusted, {"long_name": f"{self.method} adjusted p-value"}),
                "reject": (pair, self.reject, {"long_name": f"adjusted p-value <= alpha = {self.alpha}"}),
                "clique_member": (("clique", "model"), member, {"long_name": "not significantly different group"}),
                "cd": ((), self.cd, {"long_name": "critical difference of average ranks (NaN: step-wise)"}),
            },
            coords={"model": names, "model_other": names},
            attrs=base_attrs(
                "post-hoc comparison of average ranks",
                reference="Demsar 2006 section 3.2.2; Garcia & Herrera 2008 sections 2-3",
                method=self.method,
                control=self.control,
                alpha=self.alpha,
                n_datasets=self.n_datasets,
                higher_is_better=self.higher_is_better,
            ),
        )

    @classmethod
    def from_dataset(cls, ds) -> PosthocResult:
        """Rebuild the result from :meth:`to_dataset`'s output (e.g. read back from netCDF)."""
        names = tuple(str(v) for v in ds["model"].values)
        member = np.asarray(ds["clique_member"].values, dtype=bool)
        avg = np.asarray(ds["average_rank"].values, dtype=np.float64)
        order = np.argsort(avg, kind="stable")
        cliques = tuple(tuple(names[i] for i in order if row[i]) for row in member)
        control = ds.attrs.get("control")
        return cls(
            names=names,
            average_ranks=avg,
            n_datasets=int(ds.attrs["n_datasets"]),
            method=str(ds.attrs["method"]),
            control=None if control in (None, "None") else str(control),
            alpha=float(ds.attrs["alpha"]),
            z=np.asarray(ds["z"].values, dtype=np.float64),
            pvalue=np.asarray(ds["pvalue"].values, dtype=np.float64),
            pvalue_adjusted=np.asarray(ds["pvalue_adjusted"].values, dtype=np.float64),
            reject=np.asarray(ds["reject"].values, dtype=bool),
            cd=float(ds["cd"].values),
            cliques=cliques,
            higher_is_better=bool(int(ds.attrs.get("higher_is_better", 1))),
        )

    def __repr__(self) -> str:
        k = len(self.names)
        family = "all pairs" if self.control is None else f"against the control {self.control!r}"
        lines = [
            f"PosthocResult: {self.method} ({family}), alpha = {self.alpha:g}, "
            f"N = {self.n_datasets} datasets, k = {k} classifiers"
            + (f", CD = {self.cd:.3f}" if np.isfinite(self.cd) else "")
        ]
        w = max(5, *(len(n) for n in self.names))
        order = np.argsort(self.average_ranks, kind="stable")
        lines.append(f"  {'model':<{w}}  mean rank")
        lines += [f"  {self.names[i]:<{w}}  {self.average_ranks[i]:9.3f}" for i in order]
        lines.append(f"  {'pair':<{2 * w + 4}}  {'z':>7}  {'p':>9}  {'p adj.':>9}")
        for r in self.pairs():
            pair = f"{r['a']} vs {r['b']}"
            lines.append(
                f"  {pair:<{2 * w + 4}}  {abs(r['z']):7.3f}  {r['pvalue']:9.3g}  {r['pvalue_adjusted']:9.3g}"
                + ("  *" if r["reject"] else "")
            )
        groups = "; ".join("{" + ", ".join(g) + "}" for g in self.cliques) or "none"
        lines.append(f"  (* adjusted p <= alpha) not significantly different groups: {groups}")
        return "\n".join(lines)


def _bonferroni_q(m: int, alpha: float) -> float:
    """``z_{1 - alpha / (2 m)}``: Bonferroni's two-sided normal quantile for m comparisons."""
    return float(_sps.norm.isf(alpha / (2.0 * m)))


def _check_method(method, control) -> str:
    method = check_choice(method, "method", POSTHOC_METHODS)
    if control is not None and method in _ALL_PAIRS_ONLY:
        hint = "use 'bonferroni-dunn'" if method == "nemenyi" else "against a control it equals 'holm'"
        raise ValueError(f"method={method!r} compares all pairs and takes no control ({hint}); got control={control!r}")
    return method


def posthoc_from_ranks(
    average_ranks,
    n_datasets: int,
    *,
    names=None,
    method: str = "holm",
    control=None,
    alpha: float = 0.05,
    higher_is_better: bool = True,
) -> PosthocResult:
    """Post-hoc test from the average ranks of k classifiers over ``n_datasets`` datasets.

    See :func:`posthoc_test` (which ranks a score table first) for the parameters.
    """
    alpha = check_in_open_unit_interval(alpha, "alpha")
    method = _check_method(method, control)
    avg = as_float_array(average_ranks, "average_ranks", ndim_min=1)
    if avg.ndim != 1 or avg.size < 2:
        raise ValueError(f"average_ranks must be 1-D with at least 2 classifiers, got shape {avg.shape}")
    if isinstance(n_datasets, bool) or not isinstance(n_datasets, (int, np.integer)) or n_datasets < 1:
        raise ValueError(f"n_datasets must be a positive integer, got {n_datasets!r}")
    k = avg.size
    names = tuple(str(i) for i in range(k)) if names is None else tuple(str(v) for v in names)
    if len(names) != k or len(set(names)) != k:
        raise ValueError(f"names must hold {k} distinct names, got {names!r}")
    ctrl = None
    if control is not None:
        if str(control) not in names:
            raise ValueError(f"control must be one of {names!r}, got {control!r}")
        ctrl = names.index(str(control))
    i, j, z, p, adj = family_pvalues(avg, int(n_datasets), method, ctrl)
    zm = np.full((k, k), np.nan)
    pm = np.full((k, k), np.nan)
    am = np.full((k, k), np.nan)
    for mat, val, sign in ((zm, z, -1.0), (pm, p, 1.0), (am, adj, 1.0)):
        mat[i, j] = val
        mat[j, i] = sign * val
    rej = np.zeros((k, k), dtype=bool)
    if method in ("nemenyi", "bonferroni-dunn"):
        # one quantile for the CD and the adjusted p-values: Bonferroni over the m = i.size compared
        # pairs (k - 1 against a control, k (k - 1) / 2 for all pairs), Studentized range for Nemenyi
        q = nemenyi_q(k, alpha) if method == "nemenyi" else _bonferroni_q(i.size, alpha)
        cd = q * float(np.sqrt(k * (k + 1) / (6.0 * n_datasets)))
        rej[i, j] = np.abs(avg[i] - avg[j]) >= cd
    else:
        cd = float("nan")
        with np.errstate(invalid="ignore"):
            rej[i, j] = adj <= alpha
    rej |= rej.T
    if ctrl is None:
        cliques = tuple(tuple(names[t] for t in g) for g in cliques_from_reject(avg, rej))
    else:
        order = np.argsort(avg, kind="stable")
        same = [t for t in order if t == ctrl or not rej[ctrl, t]]
        cliques = (tuple(names[t] for t in same),) if len(same) > 1 else ()
    return PosthocResult(
        names=names,
        average_ranks=avg,
        n_datasets=int(n_datasets),
        method=method,
        control=None if ctrl is None else names[ctrl],
        alpha=alpha,
        z=zm,
        pvalue=pm,
        pvalue_adjusted=am,
        reject=rej,
        cd=cd,
        cliques=cliques,
        higher_is_better=bool(higher_is_better),
    )


def posthoc_test(
    scores,
    *,
    method: str = "holm",
    control=None,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    names=None,
) -> PosthocResult:
    """Post-hoc comparison of k classifiers over N datasets from their average ranks.

    Parameters
    ----------
    scores : array_like (N, k) or 2-D xarray.DataArray
        Performance of each classifier (column) on each dataset (row); a DataArray's
        second dimension supplies ``names``. NaN is refused.
    method : {"nemenyi", "bonferroni-dunn", "holm", "hochberg", "finner", "shaffer"}
        The multiple-comparison procedure (module docstring). Default ``holm``: valid
        for any family, more powerful than Bonferroni-Dunn/Nemenyi (Demsar 2006, 3.2.2).
    control : str, optional
        Compare every classifier with this one only (k - 1 hypotheses); default: all pairs.
    alpha : float
        Family-wise significance level (default 0.05).
    higher_is_better : bool
        Rank 1 goes to the highest score (accuracy, kappa); False for errors.
    names : sequence of str, optional

    Returns
    -------
    PosthocResult
        With ``to_dataset()`` and a readable repr; :func:`streamtk.plot.cd_diagram.cd_diagram`
        draws it.

    Notes
    -----
    Run it after a significant Friedman / Iman-Davenport test
    (:func:`streamtk.stats.friedman_test`); :func:`streamtk.comparison.compare_many` does
    both on a results collection.

    See Also
    --------
    scikit_posthocs.posthoc_nemenyi_friedman : the same Nemenyi p-values (checked in the tests).
    autorank.autorank : Friedman + Nemenyi with a CD diagram.

    Examples
    --------
    Demsar 2006, Table 6 (14 datasets, 4 classifiers) gives average ranks 3.143, 2.000,
    2.893, 1.964; Bonferroni-Dunn against C4.5 at 0.05 has CD = 1.16 (section 3.2.4):

    >>> res = posthoc_from_ranks([3.143, 2.0, 2.893, 1.964], 14, names=["C4.5", "m", "cf", "m+cf"],
    ...                          method="bonferroni-dunn", control="C4.5")
    >>> round(res.cd, 2), [p["b"] for p in res.pairs() if p["reject"]]
    (1.17, ['m+cf'])
    """
    if names is None and hasattr(scores, "dims") and hasattr(scores, "coords"):
        if scores.ndim == 2 and scores.dims[1] in scores.coords:
            names = [str(v) for v in scores.coords[scores.dims[1]].values]
        scores = scores.values
    s = as_float_array(scores, "scores", ndim_min=2)
    if s.ndim != 2 or s.shape[0] < 2 or s.shape[1] < 2:
        raise ValueError(f"scores must be 2-D (datasets, classifiers) with at least 2 of each, got shape {s.shape}")
    ranks = _sps.rankdata(-s if higher_is_better else s, method="average", axis=1)
    return posthoc_from_ranks(
        ranks.mean(axis=0),
        s.shape[0],
        names=names,
        method=method,
        control=control,
        alpha=alpha,
        higher_is_better=higher_is_better,
    )
