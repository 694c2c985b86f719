"""Bayesian signed-rank test with a region of practical equivalence (Benavoli et al. 2017).

Two classifiers A and B have paired results on n datasets, ``z_i = A_i - B_i``. The
Bayesian signed-rank test (Benavoli, Corani, Mangili, Zaffalon & Ruggeri, ICML 2014;
Benavoli, Corani, Demsar & Zaffalon, JMLR 18(77), 2017, section 4.2) puts a Dirichlet
process prior ``DP(s, delta_{z_0})`` with a pseudo-observation ``z_0 = 0`` of strength
``s`` on the distribution of the differences. Its posterior is a Dirichlet
distribution over the n + 1 points ``z_0, z_1, ..., z_n`` with weights
``w ~ Dir(s, 1, ..., 1)``, and for each draw

    theta_A    = sum_{i, j} w_i w_j H(z_i + z_j - 2 r)
    theta_B    = sum_{i, j} w_i w_j H(-z_i - z_j - 2 r)
    theta_rope = 1 - theta_A - theta_B

(``H`` the Heaviside step with ``H(0) = 1/2``, ``r`` the half-width of the ROPE, the
differences ``|A - B| <= r`` regarded as practically equivalent; the pairs ``(i, j)``
run over the Walsh averages of the signed-rank statistic). With ``higher_is_better=False``
(errors) the roles of the tails swap. The reported probabilities are the posterior
probabilities that each region is the most probable one, ``P(theta_A > max(theta_rope,
theta_B))`` etc., estimated from Monte Carlo draws; a decision is made when one of
them reaches ``threshold`` (0.95 in the paper).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core.validation import as_float_array, as_rng, check_positive_int, check_probability

__all__ = ["BayesianResult", "bayesian_signed_rank_test", "REGIONS"]

REGIONS = ("a_better", "equivalent", "b_better")
_CHUNK = 4096


def _tail_matrices(d: np.ndarray, rope: float):
    """``H(z_i + z_j - 2r)`` and ``H(-z_i - z_j - 2r)`` over the n + 1 points (``z_0 = 0`` first)."""
    z = np.concatenate([[0.0], d])
    s = z[:, None] + z[None, :]
    upper = (s > 2 * rope).astype(np.float64) + 0.5 * (s == 2 * rope)
    lower = (-s > 2 * rope).astype(np.float64) + 0.5 * (-s == 2 * rope)
    return upper, lower


def _theta(weights: np.ndarray, upper: np.ndarray, lower: np.ndarray, rope: float) -> np.ndarray:
    """``(n_draws, 3)`` posterior draws ``(theta_upper, theta_rope, theta_lower)`` for given Dirichlet weights."""
    out = np.empty((weights.shape[0], 3))
    for s in range(0, weights.shape[0], _CHUNK):
        w = weights[s : s + _CHUNK]
        out[s : s + _CHUNK, 0] = np.einsum("ij,ij->i", w @ upper, w)
        if rope > 0:
            out[s : s + _CHUNK, 2] = np.einsum("ij,ij->i", w @ lower, w)
        else:  # without a ROPE the two tails share the mass of the ties at zero
            out[s : s + _CHUNK, 2] = 1.0 - out[s : s + _CHUNK, 0]
    out[:, 1] = 1.0 - out[:, 0] - out[:, 2]
    if rope == 0:
        out[:, 1] = 0.0
    return out


@dataclass(frozen=True)
class BayesianResult:
    """Result of :func:`bayesian_signed_rank_test`.

    Attributes
    ----------
    names : (str, str)
        Names of A and B.
    probabilities : ndarray (3,)
        ``P(A better)``, ``P(equivalent)``, ``P(B better)``: the posterior probability
        that each region is the most probable one (sums to 1).
    theta : ndarray (n_samples, 3)
        Posterior draws of ``(theta_A, theta_rope, theta_B)`` (each row sums to 1), for
        plots (:func:`streamtk.plot.bayesian.plot_posterior`).
    rope : float
        Half-width of the region of practical equivalence, in the units of the data.
    decision : str
        ``"A better"``/``"equivalent"``/``"B better"`` (with the names) when that
        probability is at least ``threshold``, else ``"inconclusive"``.
    """

    names: tuple
    probabilities: np.ndarray
    theta: np.ndarray
    rope: float
    prior_strength: float
    threshold: float
    n_datasets: int
    mean_difference: float
    median_difference: float
    higher_is_better: bool
    seed: object

    @property
    def p_a_better(self) -> float:
        return float(self.probabilities[0])

    @property
    def p_equivalent(self) -> float:
        return float(self.probabilities[1])

    @property
    def p_b_better(self) -> float:
        return float(self.probabilities[2])

    @property
    def decision(self) -> str:
        i = int(np.argmax(self.probabilities))
        if self.probabilities[i] < self.threshold:
            return "inconclusive"
        return (f"{self.names[0]} better", "equivalent", f"{self.names[1]} better")[i]

    def to_dataset(self):
        """``probability(region)``, ``theta(sample, region)``; attrs hold every parameter (round-trips netCDF)."""
        import xarray as xr

        from .._labelled import base_attrs

        return xr.Dataset(
            {
                "probability": (
                    "region",
                    self.probabilities,
                    {"long_name": "posterior probability that the region is the most probable"},
                ),
                "theta": (("sample", "region"), self.theta, {"long_name": "posterior draws of the region masses"}),
            },
            coords={"region": np.array(REGIONS)},
            attrs=base_attrs(
                "Bayesian signed-rank test",
                reference="Benavoli et al. 2017 (JMLR 18(77)) section 4.2; Benavoli et al. 2014 (ICML)",
                model_a=self.names[0],
                model_b=self.names[1],
                rope=self.rope,
                prior_strength=self.prior_strength,
                threshold=self.threshold,
                n_datasets=self.n_datasets,
                mean_difference=self.mean_difference,
                median_difference=self.median_difference,
                higher_is_better=self.higher_is_better,
                seed=str(self.seed),
                decision=self.decision,
            ),
        )

    @classmethod
    def from_dataset(cls, ds) -> BayesianResult:
        """Rebuild the result from :meth:`to_dataset`'s output."""
        a = ds.attrs
        return cls(
            names=(str(a["model_a"]), str(a["model_b"])),
            probabilities=np.asarray(ds["probability"].values, dtype=np.float64),
            theta=np.asarray(ds["theta"].values, dtype=np.float64),
            rope=float(a["rope"]),
            prior_strength=float(a["prior_strength"]),
            threshold=float(a["threshold"]),
            n_datasets=int(a["n_datasets"]),
            mean_difference=float(a["mean_difference"]),
            median_difference=float(a["median_difference"]),
            higher_is_better=bool(int(a["higher_is_better"])),
            seed=a.get("seed"),
        )

    def __repr__(self) -> str:
        a, b = self.names
        return (
            f"BayesianResult: Bayesian signed-rank test of {a} vs {b} over {self.n_datasets} datasets "
            f"(ROPE +-{self.rope:g}, prior strength {self.prior_strength:g}, {self.theta.shape[0]} draws)\n"
            f"  mean difference {a} - {b}: {self.mean_difference:+.4g} (median {self.median_difference:+.4g})\n"
            f"  P({a} better) = {self.p_a_better:.4f}   P(equivalent) = {self.p_equivalent:.4f}   "
            f"P({b} better) = {self.p_b_better:.4f}\n"
            f"  decision at {self.threshold:g}: {self.decision}"
        )


def bayesian_signed_rank_test(
    x,
    y=None,
    *,
    rope: float = 0.01,
    prior_strength: float = 0.5,
    n_samples: int = 50_000,
    seed=0,
    threshold: float = 0.95,
    higher_is_better: bool = True,
    names=("A", "B"),
) -> BayesianResult:
    """Bayesian signed-rank test of two classifiers over datasets, with a ROPE.

    Parameters
    ----------
    x, y : array_like (n,)
        Results of A and B on the same n datasets (e.g. each dataset's mean over runs);
        ``y=None`` means ``x`` already holds ``A - B``. NaN is refused.
    rope : float
        Half-width ``r >= 0`` of the region of practical equivalence, in the units of the
        metric (0.01 = one point of accuracy or kappa). ``rope=0`` has no equivalence region.
    prior_strength : float
        Strength ``s > 0`` of the Dirichlet-process prior's pseudo-observation at 0
        (0.5 as in baycomp).
    n_samples : int
        Monte Carlo draws of the Dirichlet posterior.
    seed : int or numpy.random.Generator
    threshold : float
        Posterior probability needed for a decision (0.95 in Benavoli et al. 2017).
    higher_is_better : bool
        False for errors: then "A better" means ``A - B < -r``.
    names : (str, str)

    Returns
    -------
    BayesianResult

    Notes
    -----
    Deliberate difference from ``baycomp.SignedRankTest(x, y, rope)``: baycomp orients
    the regions as ``(left, rope, right) = (y - x < -r, ..., y - x > r)``, i.e. its ``left``
    is "x larger"; here the order is always ``(A better, equivalent, B better)``.
    With the same Dirichlet draws the two give the same posterior draws (tested);
    baycomp uses ``numpy.random.RandomState``, streamtk a ``numpy.random.Generator``.

    See Also
    --------
    baycomp.SignedRankTest : the reference implementation (checked in the tests).
    autorank.autorank : ``approach="bayesian"`` runs this test for every pair.

    Examples
    --------
    >>> a = [0.81, 0.75, 0.92, 0.66, 0.71, 0.88, 0.79, 0.69, 0.93, 0.72]
    >>> b = [0.78, 0.74, 0.90, 0.60, 0.70, 0.84, 0.80, 0.64, 0.90, 0.69]
    >>> res = bayesian_signed_rank_test(a, b, rope=0.01, seed=1)
    >>> res.decision
    'A better'
    """
    x = as_float_array(x, "x")
    if y is None:
        d = x
    else:
        y = as_float_array(y, "y")
        if x.shape != y.shape:
            raise ValueError(f"x and y must have the same shape, got {x.shape} and {y.shape}")
        d = x - y
    if d.ndim != 1 or d.size < 1:
        raise ValueError(f"x and y must be 1-D with at least one dataset, got shape {d.shape}")
    rope = float(rope)
    if not np.isfinite(rope) or rope < 0:
        raise ValueError(f"rope must be a finite number >= 0, got {rope!r}")
    prior_strength = float(prior_strength)
    if not np.isfinite(prior_strength) or prior_strength <= 0:
        raise ValueError(f"prior_strength must be > 0, got {prior_strength!r}")
    n_samples = check_positive_int(n_samples, "n_samples")
    threshold = check_probability(threshold, "threshold")
    if len(names) != 2:
        raise ValueError(f"names must hold two names, got {names!r}")
    rng = as_rng(seed)
    oriented = d if higher_is_better else -d
    alpha = np.ones(d.size + 1)
    alpha[0] = prior_strength
    weights = rng.dirichlet(alpha, n_samples)
    upper, lower = _tail_matrices(oriented, rope)
    theta = _theta(weights, upper, lower, rope)
    winners = np.argmax(theta, axis=1)
    probs = np.bincount(winners, minlength=3) / n_samples
    return BayesianResult(
        names=(str(names[0]), str(names[1])),
        probabilities=probs,
        theta=theta,
        rope=rope,
        prior_strength=prior_strength,
        threshold=threshold,
        n_datasets=int(d.size),
        mean_difference=float(np.mean(d)),
        median_difference=float(np.median(d)),
        higher_is_better=bool(higher_is_better),
        seed=seed if isinstance(seed, (int, np.integer)) else type(seed).__name__,
    )
