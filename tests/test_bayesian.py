"""Bayesian signed-rank test (Benavoli et al. 2017) against baycomp, autorank and its exact posterior mean."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from streamtk.stats import BayesianResult, bayesian_signed_rank_test
from streamtk.stats.bayesian import _tail_matrices, _theta

A = np.array([0.81, 0.75, 0.92, 0.66, 0.71, 0.88, 0.79, 0.69, 0.93, 0.72, 0.70, 0.85])
B = np.array([0.78, 0.74, 0.90, 0.60, 0.70, 0.84, 0.80, 0.64, 0.90, 0.69, 0.705, 0.86])


@pytest.mark.parametrize("rope", [0.0, 0.005, 0.01, 0.03, 0.1])
def test_posterior_draws_equal_baycomp_given_the_same_dirichlet_draws(rope):
    baycomp = pytest.importorskip("baycomp", reason="baycomp is the reference implementation")
    x, y = A, B
    ref = baycomp.SignedRankTest.sample(x, y, rope, prior=0.5, nsamples=3000, random_state=7)
    alpha = np.ones(x.size + 1)
    alpha[0] = 0.5
    w = np.random.RandomState(7).dirichlet(alpha, 3000)  # baycomp's own draws
    up, lo = _tail_matrices(x - y, rope)
    np.testing.assert_allclose(_theta(w, up, lo, rope), ref, atol=1e-13)


def test_probabilities_agree_with_baycomp_and_autorank_within_monte_carlo_error():
    baycomp = pytest.importorskip("baycomp", reason="baycomp is the reference implementation")
    for rope in (0.0, 0.01, 0.02):
        ours = bayesian_signed_rank_test(A, B, rope=rope, n_samples=50_000, seed=3)
        ref = baycomp.SignedRankTest.probs(A, B, rope, nsamples=50_000, random_state=3)
        ref = ref if rope > 0 else (ref[0], 0.0, ref[1])
        # binomial Monte Carlo error of a probability from 50 000 draws is at most 0.0023; 5 sigma
        np.testing.assert_allclose(ours.probabilities, ref, atol=0.012)
    autorank = pytest.importorskip("autorank", reason="autorank's Bayesian mode runs the same test")
    import pandas as pd

    data = pd.DataFrame({"A": A, "B": B})
    res = autorank.autorank(
        data,
        alpha=0.05,
        approach="bayesian",
        rope=0.01,
        rope_mode="absolute",
        nsamples=50_000,
        random_state=5,
        verbose=False,
    )
    p_left, p_rope, p_right = res.posterior_matrix.loc["A", "B"]  # A is ordered first (larger median)
    ours = bayesian_signed_rank_test(A, B, rope=0.01, seed=5)
    np.testing.assert_allclose(ours.probabilities, [p_left, p_rope, p_right], atol=0.012)


@pytest.mark.parametrize("rope", [0.0, 0.01, 0.05])
def test_mean_of_the_draws_equals_the_exact_posterior_mean(rope):
    # E[w_i w_j] for w ~ Dir(a): a_i a_j / (S (S + 1)) off the diagonal, a_i (a_i + 1) / (S (S + 1)) on it
    d = A - B
    a = np.ones(d.size + 1)
    a[0] = 0.5
    s = a.sum()
    ew = np.outer(a, a) / (s * (s + 1))
    ew[np.diag_indices_from(ew)] = a * (a + 1) / (s * (s + 1))
    up, lo = _tail_matrices(d, rope)
    exact = np.array([np.sum(ew * up), 0.0, np.sum(ew * lo)]) if rope > 0 else None
    res = bayesian_signed_rank_test(A, B, rope=rope, n_samples=200_000, seed=11)
    mean = res.theta.mean(axis=0)
    se = res.theta.std(axis=0) / np.sqrt(200_000)
    if rope > 0:
        exact[1] = 1 - exact[0] - exact[2]
    else:
        exact = np.array([np.sum(ew * up), 0.0, 1 - np.sum(ew * up)])
    assert np.all(np.abs(mean - exact) <= 5 * se + 1e-12)
    np.testing.assert_allclose(res.theta.sum(axis=1), 1.0, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 1000), rope=st.sampled_from([0.0, 0.01, 0.05]))
def test_swapping_a_and_b_mirrors_the_posterior(seed, rope):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.5, 0.9, size=8)
    y = x + rng.normal(0, 0.03, size=8)
    ab = bayesian_signed_rank_test(x, y, rope=rope, n_samples=4000, seed=seed)
    ba = bayesian_signed_rank_test(y, x, rope=rope, n_samples=4000, seed=seed)
    np.testing.assert_allclose(ab.theta, ba.theta[:, ::-1], atol=1e-12)
    # errors (lower is better) of B - A are the accuracies of A - B
    err = bayesian_signed_rank_test(1 - x, 1 - y, rope=rope, n_samples=4000, seed=seed, higher_is_better=False)
    np.testing.assert_allclose(err.theta, ab.theta, atol=1e-9)


def test_decisions_and_a_wide_rope():
    clear = bayesian_signed_rank_test(A + 0.05, A, rope=0.01, seed=0, names=("new", "old"))
    assert clear.decision == "new better" and clear.p_a_better > 0.99
    same = bayesian_signed_rank_test(A, B, rope=0.5, seed=0)  # every difference is inside the ROPE
    assert same.p_equivalent == 1.0 and same.decision == "equivalent"
    tie = bayesian_signed_rank_test(A, A + np.array([0.01, -0.01] * 6), rope=0.0, n_samples=2000, seed=0)
    assert tie.decision == "inconclusive"


def test_round_trip_repr_and_errors(tmp_path):
    from streamtk.io import open_dataset, to_netcdf

    res = bayesian_signed_rank_test(A, B, rope=0.01, n_samples=2000, seed=np.random.default_rng(1))
    back = BayesianResult.from_dataset(open_dataset(to_netcdf(res.to_dataset(), tmp_path / "b.nc")))
    np.testing.assert_array_equal(back.theta, res.theta)
    assert back.decision == res.decision and back.names == ("A", "B") and back.rope == 0.01
    assert "P(A better)" in repr(res) and "ROPE +-0.01" in repr(res)
    with pytest.raises(ValueError, match="rope"):
        bayesian_signed_rank_test(A, B, rope=-0.1)
    with pytest.raises(ValueError, match="prior_strength"):
        bayesian_signed_rank_test(A, B, prior_strength=0)
    with pytest.raises(ValueError, match="same shape"):
        bayesian_signed_rank_test(A, B[:3])
    with pytest.raises(ValueError, match="non-finite"):
        bayesian_signed_rank_test(np.r_[A[:-1], np.nan], B)
    with pytest.raises(TypeError, match="seed"):
        bayesian_signed_rank_test(A, B, seed=None)
