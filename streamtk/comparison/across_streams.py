"""Comparing many classifiers over many streams, from a results collection (Demsar 2006; Garcia & Herrera 2008).

* :func:`compare_many` -- Friedman's test with Iman-Davenport's correction, then a post-hoc
  procedure (Nemenyi, Bonferroni-Dunn, Holm, Hochberg, Finner, Shaffer) over all pairs or
  against a control, on one metric / summary / estimator of a collection;
* :func:`compare_two` -- two models over the streams: Wilcoxon's signed-rank test, the Sign
  test and the Bayesian signed-rank test with a ROPE (Benavoli et al. 2017);
* :func:`bayesian_pairs` -- the Bayesian signed-rank test for every pair (or against a control).

The unit of these tests is the stream (dataset): with several runs per stream, each
stream's value is the mean (or median) over its runs (``runs="mean"``), as Demsar (2006)
prescribes; ``runs="blocks"`` treats every (dataset, run) as a block instead (only sound
when runs are independent streams, not re-runs of the same one).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import xarray as xr

from .._core.validation import as_rng
from .._labelled import base_attrs
from ..stats.bayesian import REGIONS, bayesian_signed_rank_test
from ..stats.friedman import FriedmanResult, friedman_test
from ..stats.posthoc import PosthocResult, posthoc_test
from ..stats.sign import sign_test
from ..stats.wilcoxon import wilcoxon_test
from .blocks import band_cells, block_table
from .collection import direction

__all__ = ["ManyComparison", "compare_many", "compare_two", "TwoComparison", "bayesian_pairs", "block_table"]


@dataclass(frozen=True)
class ManyComparison:
    """Result of :func:`compare_many`: the Friedman test, the post-hoc test and the table they used.

    Attributes
    ----------
    friedman : streamtk.stats.FriedmanResult
        Omnibus test (Friedman chi-square and Iman-Davenport F).
    posthoc : streamtk.stats.PosthocResult
        The post-hoc procedure's adjusted p-values, rejections and cliques.
    table : xarray.DataArray (block, model)
        The values ranked (per dataset: mean / median over runs; or per (dataset, run)).
    cells : xarray.DataArray (dataset, model, run)
        The collection's values behind the table (for mean ± std tables).
    lower, upper : xarray.DataArray (dataset, model, run) or None
        The bands of the cells when the collection carries them (curves computed with ``interval=``, a ``final``
        or ``at=N`` summary): each stream's pointwise band of each model's value, for the per-dataset tables
        (:func:`streamtk.report.results_table`). They do not enter the tests.
    """

    friedman: FriedmanResult
    posthoc: PosthocResult
    table: xr.DataArray
    cells: xr.DataArray
    metric: str
    summary: str
    estimator: str
    runs: str
    higher_is_better: bool
    dropped: tuple = ()
    lower: xr.DataArray | None = None
    upper: xr.DataArray | None = None

    @property
    def significant(self) -> bool:
        """Whether the omnibus (Iman-Davenport by default) test rejects equal performance."""
        return bool(self.friedman.significant)

    @property
    def alpha(self) -> float:
        return self.posthoc.alpha

    def ranks(self) -> xr.DataArray:
        """Rank of each model on each block (1 = best)."""
        return xr.DataArray(self.friedman.ranks, dims=("block", "model"), coords=self.table.coords, name="rank")

    def to_dataset(self) -> xr.Dataset:
        """Everything in one Dataset (round-trips netCDF; :meth:`from_dataset` rebuilds the result)."""
        ph = self.posthoc.to_dataset()
        ds = xr.Dataset(
            {
                "value": self.table.rename(None).assign_attrs(
                    long_name=f"{self.metric} ({self.summary}, {self.estimator})"
                ),
                "rank": self.ranks().assign_attrs(long_name="rank on each block (1 = best)"),
                "cell": self.cells.rename(None).drop_vars(["summary", "estimator"], errors="ignore"),
                "friedman_statistic": (
                    (),
                    self.friedman.statistic,
                    {"long_name": "Friedman chi-square (tie-corrected)"},
                ),
                "friedman_pvalue": ((), self.friedman.pvalue),
                "iman_davenport_statistic": ((), self.friedman.f_statistic),
                "iman_davenport_pvalue": ((), self.friedman.f_pvalue),
            }
        )
        for side, da in (("lower", self.lower), ("upper", self.upper)):
            if da is not None:
                ds[f"cell_{side}"] = da.rename(None).drop_vars(["summary", "estimator"], errors="ignore")
        ds = xr.merge([ds, ph], compat="override", combine_attrs="override")
        ds.attrs = base_attrs(
            "comparison of many models over many streams",
            reference="Demsar 2006; Garcia & Herrera 2008; Bifet et al. 2015 (seed 000) section 4",
            metric=self.metric,
            summary=self.summary,
            estimator=self.estimator,
            runs=self.runs,
            higher_is_better=self.higher_is_better,
            alpha=self.alpha,
            omnibus=self.friedman.omnibus,
            significant=self.significant,
            method=self.posthoc.method,
            control=self.posthoc.control,
            n_datasets=self.posthoc.n_datasets,
            dropped_datasets=list(self.dropped),
        )
        return ds

    @classmethod
    def from_dataset(cls, ds: xr.Dataset) -> ManyComparison:
        """Rebuild a :class:`ManyComparison` from :meth:`to_dataset` (e.g. read back from netCDF)."""
        a = ds.attrs
        hib = bool(int(a["higher_is_better"]))
        table = ds["value"].rename(str(a["metric"]))
        dropped = a.get("dropped_datasets", "[]")
        return _build(
            table,
            ds["cell"].rename(str(a["metric"])),
            metric=str(a["metric"]),
            summary=str(a["summary"]),
            estimator=str(a["estimator"]),
            runs=str(a["runs"]),
            hib=hib,
            method=str(a["method"]),
            control=None if a.get("control") in (None, "None") else str(a["control"]),
            alpha=float(a["alpha"]),
            omnibus=str(a["omnibus"]),
            dropped=tuple(v for v in str(dropped).strip("[]").replace('"', "").split(", ") if v),
            lower=ds["cell_lower"] if "cell_lower" in ds else None,
            upper=ds["cell_upper"] if "cell_upper" in ds else None,
        )

    def __repr__(self) -> str:
        f = self.friedman
        k, n = len(self.posthoc.names), self.posthoc.n_datasets
        head = (
            f"ManyComparison of {k} models over {n} {'datasets' if self.runs != 'blocks' else 'dataset-runs'} "
            f"on {self.metric} ({self.summary}, {self.estimator}; {'higher' if self.higher_is_better else 'lower'} "
            f"is better; runs: {self.runs})"
        )
        omni = (
            f"  Friedman chi2 = {f.statistic:.4g} (p = {f.pvalue:.3g}), Iman-Davenport F = {f.f_statistic:.4g} "
            f"(p = {f.f_pvalue:.3g}): {'reject' if self.significant else 'fail to reject'} equal performance "
            f"at alpha = {self.alpha:g}"
        )
        if not self.significant:
            omni += " -- the post-hoc results below should not be used to claim differences"
        first, body = repr(self.posthoc).split("\n", 1)
        extra = f"\n  datasets left out (missing values): {', '.join(self.dropped)}" if self.dropped else ""
        return f"{head}\n{omni}\n  post-hoc: {first.split(': ', 1)[1]}\n{body}{extra}"


def _build(
    table,
    cells,
    *,
    metric,
    summary,
    estimator,
    runs,
    hib,
    method,
    control,
    alpha,
    omnibus,
    dropped,
    lower=None,
    upper=None,
):
    names = [str(m) for m in table["model"].values]
    values = np.asarray(table.values, dtype=np.float64)
    fr_posthoc = "bonferroni-dunn" if method == "bonferroni-dunn" else "nemenyi"
    fr = friedman_test(
        values,
        names=names,
        higher_is_better=hib,
        alpha=alpha,
        posthoc=fr_posthoc,
        control=control if fr_posthoc == "bonferroni-dunn" else None,
        omnibus=omnibus,
    )
    ph = posthoc_test(values, names=names, method=method, control=control, alpha=alpha, higher_is_better=hib)
    return ManyComparison(fr, ph, table, cells, metric, summary, estimator, runs, hib, tuple(dropped), lower, upper)


def compare_many(
    collection,
    *,
    metric=None,
    summary=None,
    estimator=None,
    posthoc: str = "holm",
    control=None,
    alpha: float = 0.05,
    higher_is_better: bool | None = None,
    runs: str = "mean",
    missing: str = "raise",
    omnibus: str = "iman-davenport",
) -> ManyComparison:
    """Friedman + Iman-Davenport and a post-hoc test of every model of a results collection over its streams.

    Parameters
    ----------
    collection : xarray.Dataset
        From :func:`streamtk.comparison.collect` (or read back with :func:`streamtk.io.read_collection`).
    metric, summary, estimator : str, optional
        Which values to compare; each may be omitted when the collection holds only one.
    posthoc : {"nemenyi", "bonferroni-dunn", "holm", "hochberg", "finner", "shaffer"}
        Post-hoc procedure (:func:`streamtk.stats.posthoc_test`); default ``holm``.
    control : str, optional
        Compare every model with this one (k - 1 hypotheses) instead of all pairs.
    alpha : float
        Significance level of the omnibus and post-hoc tests (default 0.05).
    higher_is_better : bool, optional
        Default: the metric's ``higher_is_better`` attribute (False for error, losses, time).
    runs : {"mean", "median", "blocks"}
        How runs of one stream enter the tests (module docstring).
    missing : {"raise", "drop"}
        A stream where some model lacks a value is an error, or is left out (listed in the result).
    omnibus : {"iman-davenport", "chi2"}

    Returns
    -------
    ManyComparison
        ``friedman``, ``posthoc``, ``table``; ``to_dataset()`` and a readable repr.
        :func:`streamtk.plot.cd_diagram`, :func:`streamtk.report.results_table` consume it.

    Examples
    --------
    >>> import numpy as np
    >>> from streamtk.comparison import collection_from_array, compare_many
    >>> acc = np.array([[0.8, 0.7, 0.6], [0.9, 0.8, 0.85], [0.7, 0.6, 0.5], [0.85, 0.8, 0.7], [0.6, 0.55, 0.5]])
    >>> coll = collection_from_array(acc, datasets=list("abcde"), models=["A", "B", "C"])
    >>> res = compare_many(coll, posthoc="holm")
    >>> res.posthoc.average_ranks.tolist(), res.significant
    ([1.0, 2.2, 2.8], True)
    """
    table, cells, dropped = block_table(
        collection, metric=metric, summary=summary, estimator=estimator, runs=runs, missing=missing
    )
    metric = str(table.name)
    hib = direction(table.attrs, metric, higher_is_better)
    lower, upper = band_cells(collection, cells, metric)
    return _build(
        table,
        cells,
        metric=metric,
        summary=str(table.attrs["summary"]),
        estimator=str(table.attrs["estimator"]),
        runs=runs,
        hib=bool(hib),
        method=posthoc,
        control=control,
        alpha=alpha,
        omnibus=omnibus,
        dropped=dropped,
        lower=lower,
        upper=upper,
    )


@dataclass(frozen=True)
class TwoComparison:
    """Result of :func:`compare_two`: the paired tests of A vs B over the streams."""

    names: tuple
    table: xr.DataArray
    wilcoxon: object
    sign: object
    bayesian: object
    metric: str
    higher_is_better: bool

    def to_dataset(self) -> xr.Dataset:
        """``value(block, model)``, one row per test (statistic, p-value, reject) and the Bayesian probabilities."""
        tests = ["wilcoxon", "sign"]
        stat = [float(self.wilcoxon.statistic), float(self.sign.statistic)]
        p = [float(self.wilcoxon.pvalue), float(self.sign.pvalue)]
        rej = [bool(self.wilcoxon.reject), bool(self.sign.reject)]
        ds = xr.Dataset(
            {
                "value": self.table.rename(None),
                "statistic": ("test", stat, {"long_name": "Wilcoxon min(R+, R-); Sign: wins of A"}),
                "pvalue": ("test", p, {"long_name": "two-sided p-value"}),
                "reject": ("test", rej),
                "probability": ("region", self.bayesian.probabilities, {"long_name": "Bayesian signed-rank posterior"}),
            },
            coords={"test": tests, "region": list(REGIONS)},
        )
        ds.attrs = base_attrs(
            "two models over many streams",
            model_a=self.names[0],
            model_b=self.names[1],
            metric=self.metric,
            higher_is_better=self.higher_is_better,
            alpha=self.wilcoxon.alpha,
            rope=self.bayesian.rope,
            decision=self.bayesian.decision,
        )
        return ds

    def __repr__(self) -> str:
        a, b = self.names
        w, s = self.wilcoxon, self.sign
        sign_a = float(s.statistic) if self.higher_is_better else float(s.losses)
        sign_b = float(s.losses) if self.higher_is_better else float(s.statistic)
        return (
            f"TwoComparison of {a} vs {b} over {self.table.sizes['block']} streams on {self.metric}\n"
            f"  Wilcoxon signed-rank: R+ = {float(w.r_plus):g}, R- = {float(w.r_minus):g}, p = {float(w.pvalue):.4g}"
            f"{' (reject)' if bool(w.reject) else ''}\n"
            f"  Sign test: {a} wins {sign_a:g}, {b} wins {sign_b:g}, p = {float(s.pvalue):.4g}"
            f"{' (reject)' if bool(s.reject) else ''}\n"
            + "\n".join("  " + ln for ln in repr(self.bayesian).split("\n"))
        )


def compare_two(
    collection,
    a,
    b,
    *,
    metric=None,
    summary=None,
    estimator=None,
    alpha: float = 0.05,
    rope: float = 0.01,
    seed=0,
    n_samples: int = 50_000,
    higher_is_better: bool | None = None,
    runs: str = "mean",
    missing: str = "raise",
) -> TwoComparison:
    """Two models over the streams of a collection: Wilcoxon, Sign and Bayesian signed-rank (ROPE ``rope``).

    ``rope`` is in the metric's units (0.01 = one point of accuracy or kappa). See
    :func:`streamtk.stats.wilcoxon_test`, :func:`streamtk.stats.sign_test` and
    :func:`streamtk.stats.bayesian_signed_rank_test`.
    """
    table, _, _ = block_table(
        collection, metric=metric, summary=summary, estimator=estimator, runs=runs, missing=missing
    )
    models = [str(m) for m in table["model"].values]
    for name, v in (("a", a), ("b", b)):
        if str(v) not in models:
            raise ValueError(f"{name} must be one of the models {models}, got {v!r}")
    if str(a) == str(b):
        raise ValueError(f"a and b must be two different models, got {a!r} twice")
    metric = str(table.name)
    hib = direction(table.attrs, metric, higher_is_better)
    pair = table.sel(model=[str(a), str(b)])
    x, y = pair.values[:, 0], pair.values[:, 1]
    d = x - y if hib else y - x  # positive: A better
    return TwoComparison(
        names=(str(a), str(b)),
        table=pair,
        wilcoxon=wilcoxon_test(d, alpha=alpha),
        sign=sign_test(d, alpha=alpha),
        bayesian=bayesian_signed_rank_test(
            x, y, rope=rope, seed=seed, n_samples=n_samples, higher_is_better=hib, names=(str(a), str(b))
        ),
        metric=metric,
        higher_is_better=hib,
    )


def bayesian_pairs(
    collection,
    *,
    metric=None,
    summary=None,
    estimator=None,
    rope: float = 0.01,
    control=None,
    seed=0,
    n_samples: int = 50_000,
    threshold: float = 0.95,
    higher_is_better: bool | None = None,
    runs: str = "mean",
    missing: str = "raise",
) -> xr.Dataset:
    """The Bayesian signed-rank test for every pair of models (or each against ``control``).

    Returns a Dataset with ``probability(pair, region)`` (regions ``a_better``, ``equivalent``,
    ``b_better``), coordinates ``model_a(pair)``, ``model_b(pair)`` and ``decision(pair)``; pairs are
    ordered by average rank (best first), so ``model_a`` is the better-ranked one. Every pair uses
    its own stream of draws spawned from ``seed``.
    """
    res = compare_many(
        collection,
        metric=metric,
        summary=summary,
        estimator=estimator,
        posthoc="holm",
        control=None,
        runs=runs,
        missing=missing,
        higher_is_better=higher_is_better,
    )
    names = list(res.posthoc.names)
    order = [names[i] for i in np.argsort(res.posthoc.average_ranks, kind="stable")]
    if control is not None:
        if str(control) not in names:
            raise ValueError(f"control must be one of {names}, got {control!r}")
        pairs = [(str(control), m) for m in order if m != str(control)]
    else:
        pairs = [(order[i], order[j]) for i in range(len(order)) for j in range(i + 1, len(order))]
    rng = as_rng(seed)
    seeds = rng.integers(0, 2**63, size=len(pairs))  # one reproducible stream of draws per pair
    probs, decisions = [], []
    for (a, b), ss in zip(pairs, seeds):
        r = bayesian_signed_rank_test(
            res.table.sel(model=a).values,
            res.table.sel(model=b).values,
            rope=rope,
            seed=int(ss),
            n_samples=n_samples,
            threshold=threshold,
            higher_is_better=res.higher_is_better,
            names=(a, b),
        )
        probs.append(r.probabilities)
        decisions.append(r.decision)
    return xr.Dataset(
        {"probability": (("pair", "region"), np.array(probs), {"long_name": "posterior probability of the region"})},
        coords={
            "region": list(REGIONS),
            "model_a": ("pair", [p[0] for p in pairs]),
            "model_b": ("pair", [p[1] for p in pairs]),
            "decision": ("pair", decisions),
        },
        attrs=base_attrs(
            "Bayesian signed-rank tests of pairs of models",
            metric=res.metric,
            rope=rope,
            threshold=threshold,
            seed=str(seed),
            n_samples=n_samples,
            higher_is_better=res.higher_is_better,
            reference="Benavoli et al. 2017 (JMLR 18(77)) section 4.2",
        ),
    )
