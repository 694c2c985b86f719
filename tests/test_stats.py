"""Significance tests: scipy references, published tables, Bifet et al. Table 1, properties."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sps

from streamtk.stats import (
    bonferroni_dunn_q,
    critical_difference,
    friedman_test,
    mcnemar_counts,
    mcnemar_test,
    nemenyi_q,
    sign_critical_wins,
    sign_test,
    wilcoxon_null_distribution,
    wilcoxon_test,
)
from tests._tables import DEMSAR_TABLE_6_RANKS

# Bifet et al. 2015 (seed 000), Table 1
TABLE1_A = [77.98, 72.26, 76.95, 77.94, 72.23, 76.90, 77.93, 72.37, 76.93, 77.97]
TABLE1_B = [77.91, 72.27, 76.97, 76.57, 71.63, 75.48, 75.75, 71.33, 74.54, 77.94]
TABLE1_RANK = [4, 1, 2, 7, 5, 8, 9, 6, 10, 3]


# ---------------------------------------------------------------- Table 1


def test_table1_wilcoxon_ranks_sums_and_critical_value():
    res = wilcoxon_test(TABLE1_A, TABLE1_B)
    from streamtk.stats.wilcoxon import _doubled_ranks

    d = np.subtract(TABLE1_A, TABLE1_B)[None]
    rank2, _, _ = _doubled_ranks(d, "wilcox")
    assert (rank2[0] / 2).tolist() == TABLE1_RANK  # the paper's Rank column
    # The paper prints R+ = 53, but its own ranks of the positive differences
    # (4+7+5+8+9+6+10+3) sum to 52: 53 + 3 = 56 exceeds 1 + ... + 10 = 55.
    assert float(res.r_plus) == 52.0
    assert float(res.r_minus) == 3.0
    assert float(res.r_plus) + float(res.r_minus) == 55.0
    assert float(res.statistic) == 3.0
    assert float(res.critical) == 8.0  # V_0.05 = 8
    assert bool(res.reject)
    assert float(res.pvalue) == pytest.approx(10 / 1024)  # 2 * P(R+ <= 3) = 2 * 5/1024


def test_table1_sign_test():
    res = sign_test(TABLE1_A, TABLE1_B)
    assert float(res.statistic) == 8.0 and int(res.n) == 10  # A wins 8 of 10
    # the paper's w_0.05 = 8 is Demsar's one-sided normal approximation: 5 + 1.645 sqrt(10)/2 = 7.60
    paper = sign_test(TABLE1_A, TABLE1_B, method="normal", alternative="greater")
    assert float(paper.critical) == 8.0
    assert bool(paper.reject)
    assert float(paper.pvalue) == pytest.approx(sps.norm.sf(3 / (math.sqrt(10) / 2)))
    # the exact binomial test is stricter: P(X >= 8) = 56/1024 one-sided, critical count 9
    exact = sign_test(TABLE1_A, TABLE1_B, alternative="greater")
    assert float(exact.pvalue) == pytest.approx(56 / 1024)
    assert float(exact.critical) == 9.0
    assert not bool(exact.reject)


# ---------------------------------------------------------------- Wilcoxon


# two-sided alpha = 0.05 critical values of the signed-rank statistic (standard tables)
WILCOXON_V05 = {
    6: 0,
    7: 2,
    8: 3,
    9: 5,
    10: 8,
    11: 10,
    12: 13,
    13: 17,
    14: 21,
    15: 25,
    16: 29,
    17: 34,
    18: 40,
    19: 46,
    20: 52,
}


def test_wilcoxon_critical_values_match_published_table():
    for n, v in WILCOXON_V05.items():
        d = np.arange(1, n + 1, dtype=float)  # no ties, no zeros
        assert float(wilcoxon_test(d).critical) == v, n
    for n in range(1, 6):  # too few folds to reject at 0.05 two-sided
        assert np.isnan(wilcoxon_test(np.arange(1.0, n + 1)).critical)


def test_null_distribution_against_enumeration():
    for ranks in ([1, 2, 3, 4, 5], [1, 2.5, 2.5, 4, 6, 6, 6]):
        rank2 = (2 * np.asarray(ranks)).astype(int)
        pmf = wilcoxon_null_distribution(rank2)
        brute = np.zeros_like(pmf)
        for signs in itertools.product([0, 1], repeat=len(ranks)):
            brute[int(np.dot(signs, rank2))] += 0.5 ** len(ranks)
        np.testing.assert_allclose(pmf, brute, atol=1e-15)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_wilcoxon_exact_matches_scipy_without_ties(alternative):
    rng = np.random.default_rng(1)
    for n in (5, 8, 10, 15, 25):
        x, y = rng.normal(size=(2, 30, n)) + np.array([0.0, 0.3])[:, None, None]
        ours = wilcoxon_test(x, y, axis=1, alternative=alternative, method="exact")
        for j in range(30):
            ref = sps.wilcoxon(x[j], y[j], alternative=alternative, method="exact")
            assert ours.statistic[j] == pytest.approx(ref.statistic)
            assert ours.pvalue[j] == pytest.approx(ref.pvalue, rel=1e-12)


@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
def test_wilcoxon_exact_with_ties_and_zeros_matches_scipy_permutation(zero_method):
    rng = np.random.default_rng(2)
    for _ in range(8):
        n = int(rng.integers(6, 11))
        d = rng.integers(-3, 4, size=n).astype(float)  # many ties and zeros
        if np.count_nonzero(d) == 0:
            continue
        ours = wilcoxon_test(d, zero_method=zero_method)
        # for n <= 13 with ties/zeros scipy's 'auto' enumerates all 2^n sign flips
        ref = sps.wilcoxon(d, zero_method=zero_method, method="auto")
        assert float(ours.statistic) == pytest.approx(ref.statistic)
        assert float(ours.pvalue) == pytest.approx(ref.pvalue, rel=1e-9)


@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
@pytest.mark.parametrize("correction", [False, True])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_wilcoxon_normal_approximation_matches_scipy(zero_method, correction, alternative):
    rng = np.random.default_rng(3)
    d = rng.integers(-6, 8, size=(12, 30)).astype(float)  # ties and zeros
    ours = wilcoxon_test(
        d, axis=1, method="approx", zero_method=zero_method, correction=correction, alternative=alternative
    )
    for j in range(d.shape[0]):
        ref = sps.wilcoxon(
            d[j], zero_method=zero_method, correction=correction, alternative=alternative, method="asymptotic"
        )
        assert ours.pvalue[j] == pytest.approx(ref.pvalue, rel=1e-10)
        assert ours.statistic[j] == pytest.approx(ref.statistic)
        z_ref = ref.zstatistic if alternative != "two-sided" else -abs(ref.zstatistic)
        z_ours = ours.z[j] if alternative != "two-sided" else -abs(ours.z[j])
        assert z_ours == pytest.approx(z_ref, rel=1e-10)


def test_wilcoxon_critical_value_is_consistent_with_pvalue():
    rng = np.random.default_rng(4)
    x = rng.normal(size=(400, 10)) + rng.normal(scale=0.5, size=(400, 1))
    res = wilcoxon_test(x, axis=1)
    np.testing.assert_array_equal(res.reject, res.statistic <= res.critical)
    approx = wilcoxon_test(x, axis=1, method="approx")
    np.testing.assert_array_equal(approx.reject, approx.statistic <= approx.critical)


def test_wilcoxon_auto_switches_to_normal_above_50_folds():
    rng = np.random.default_rng(5)
    d = rng.normal(size=(3, 60))
    res = wilcoxon_test(d, axis=1)
    assert not res.exact.any()
    ref = sps.wilcoxon(d, axis=1, method="auto", correction=False)
    np.testing.assert_allclose(res.pvalue, ref.pvalue, rtol=1e-10)


def test_wilcoxon_vectorised_equals_loop_over_other_axes():
    rng = np.random.default_rng(6)
    x = np.round(rng.normal(size=(3, 10, 4)), 1)
    y = np.round(rng.normal(size=(3, 10, 4)), 1)
    res = wilcoxon_test(x, y, axis=1)
    for i, k in itertools.product(range(3), range(4)):
        one = wilcoxon_test(x[i, :, k], y[i, :, k])
        assert res.pvalue[i, k] == float(one.pvalue)
        assert res.critical[i, k] == float(one.critical) or (np.isnan(res.critical[i, k]) and np.isnan(one.critical))


def test_all_zero_differences_give_pvalue_one():
    res = wilcoxon_test(np.zeros(10))
    assert float(res.pvalue) == 1.0 and not bool(res.reject) and int(res.n) == 0
    assert float(wilcoxon_test(np.zeros(10), method="approx").pvalue) == 1.0


# ---------------------------------------------------------------- Sign


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_sign_exact_matches_scipy_binomtest(alternative):
    rng = np.random.default_rng(7)
    d = rng.integers(-1, 2, size=(60, 12)).astype(float)
    res = sign_test(d, axis=1, alternative=alternative)
    for j in range(d.shape[0]):
        w, l_ = int((d[j] > 0).sum()), int((d[j] < 0).sum())
        if w + l_ == 0:
            assert res.pvalue[j] == 1.0
            continue
        ref = sps.binomtest(w, w + l_, 0.5, alternative=alternative).pvalue
        assert res.pvalue[j] == pytest.approx(ref, rel=1e-12)


@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_sign_critical_wins_by_enumeration(alternative):
    level = 0.025 if alternative == "two-sided" else 0.05
    for n in range(0, 30):
        tail = [sum(math.comb(n, i) for i in range(w, n + 1)) / 2**n for w in range(n + 1)]
        ok = [w for w in range(n + 1) if tail[w] <= level]
        expected = min(ok) if ok else np.nan
        got = sign_critical_wins(n, 0.05, alternative=alternative)
        assert got == expected or (np.isnan(got) and np.isnan(expected)), n


def test_sign_normal_critical_follows_demsar_formula():
    for n in range(5, 40):
        expected = math.ceil(n / 2 + 1.959963984540054 * math.sqrt(n) / 2)
        got = sign_critical_wins(n, 0.05, method="normal")
        if expected <= n:
            assert got == expected, n
        else:
            assert np.isnan(got), n


def test_sign_split_ties():
    d = np.array([1.0, 1, 1, 0, 0, 0, -1])
    drop = sign_test(d)
    split = sign_test(d, zero_method="split")
    assert (float(drop.statistic), int(drop.n)) == (3.0, 4)
    assert (float(split.statistic), float(split.losses), int(split.n)) == (4.0, 2.0, 6)


# ---------------------------------------------------------------- McNemar


def test_mcnemar_known_answers():
    res = mcnemar_test([10, 3, 0], [3, 10, 0])
    np.testing.assert_allclose(res.statistic[:2], [49 / 13, -49 / 13])
    assert np.isnan(res.statistic[2]) and np.isnan(res.pvalue[2]) and not res.reject[2]
    np.testing.assert_allclose(res.pvalue[:2], 2 * sps.norm.sf(math.sqrt(49 / 13)))
    cc = mcnemar_test(10, 3, correction=True)
    assert float(cc.statistic) == pytest.approx(36 / 13)
    # Gama et al. 2013: reject at the 0.99 level when M > 6.635
    assert bool(mcnemar_test(20, 6, alpha=0.01).reject) == ((14**2 / 26) > 6.635)
    assert sps.chi2.isf(0.01, 1) == pytest.approx(6.635, abs=5e-4)


def test_mcnemar_counts_from_predictions():
    y = np.array([0, 1, 1, 0, 2, 2])
    pa = np.array([0, 0, 1, 1, 2, 0])
    pb = np.array([1, 1, 1, 0, 0, 2])
    a, b = mcnemar_counts(y, pa, pb)
    assert (a, b) == (3, 2)  # A wrong/B right at 1, 3, 5; B wrong/A right at 0, 4
    a, b = mcnemar_counts(y, pa, pb, weights=[1, 1, 0, 0, 1, 1])
    assert (a, b) == (2, 2)


# ---------------------------------------------------------------- properties


@given(st.lists(st.tuples(st.integers(-20, 20), st.integers(-20, 20)), min_size=1, max_size=14))
def test_swapping_a_and_b_flips_sign_and_keeps_pvalues(pairs):
    x = np.array([p[0] for p in pairs], dtype=float)
    y = np.array([p[1] for p in pairs], dtype=float)
    for fn in (sign_test, wilcoxon_test):
        ab, ba = fn(x, y), fn(y, x)
        assert float(ab.signed_statistic) == -float(ba.signed_statistic)
        assert float(ab.pvalue) == pytest.approx(float(ba.pvalue), rel=1e-12)
        if fn is wilcoxon_test:
            assert float(ab.statistic) == float(ba.statistic)  # min(R+, R-) is symmetric
        else:
            assert float(ab.statistic) == float(ba.losses)  # A's wins are B's losses
        g, l_ = fn(x, y, alternative="greater"), fn(y, x, alternative="less")
        assert float(g.pvalue) == pytest.approx(float(l_.pvalue), rel=1e-12)
    a, b = mcnemar_counts(0, (x > 0).astype(int), (y > 0).astype(int))
    m1, m2 = mcnemar_test(a, b), mcnemar_test(b, a)
    np.testing.assert_array_equal(np.nan_to_num(m1.statistic), -np.nan_to_num(m2.statistic))
    np.testing.assert_array_equal(m1.pvalue, m2.pvalue)


@given(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=1, max_size=30))
def test_identical_inputs_never_reject(values):
    x = np.array(values)
    for kw in ({}, {"alternative": "greater"}, {"method": "approx"}):
        assert not bool(wilcoxon_test(x, x, **kw).reject)
    assert not bool(sign_test(x, x).reject)
    assert not bool(sign_test(x, x, method="normal").reject)
    a, b = mcnemar_counts(0, (x > 0).astype(int), (x > 0).astype(int))
    assert not bool(mcnemar_test(a, b).reject)


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="alpha must be in"):
        wilcoxon_test([1.0, 2.0], alpha=1.5)
    with pytest.raises(ValueError, match="alternative"):
        sign_test([1.0], alternative="bigger")
    with pytest.raises(ValueError, match="non-finite"):
        wilcoxon_test([1.0, np.nan])
    with pytest.raises(ValueError, match="same shape"):
        sign_test([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="non-negative"):
        mcnemar_test(-1, 2)


# ---------------------------------------------------------------- Friedman


# Demsar (2006), Table 5: q_alpha of the Nemenyi (a) and Bonferroni-Dunn (b) tests, k = 2..10
NEMENYI_Q05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
NEMENYI_Q10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]
BD_Q05 = [1.960, 2.241, 2.394, 2.498, 2.576, 2.638, 2.690, None, 2.773]  # k=9 printed as 2.724 (a typo: 2.734)


def test_q_alpha_tables():
    for k, (q5, q10, b5) in enumerate(zip(NEMENYI_Q05, NEMENYI_Q10, BD_Q05), start=2):
        assert nemenyi_q(k, 0.05) == pytest.approx(q5, abs=1e-3)
        assert nemenyi_q(k, 0.10) == pytest.approx(q10, abs=1e-3)
        if b5 is not None:
            assert bonferroni_dunn_q(k, 0.05) == pytest.approx(b5, abs=1e-3)


def test_demsar_example_statistics():
    # Demsar (2006), section 3.2.4: four classifiers on 14 data sets with average ranks
    # 3.143, 2.000, 2.893, 1.964 give chi2_F = 9.28, F_F = 3.69, CD = 1.25 (Nemenyi, 0.05)
    ranks = DEMSAR_TABLE_6_RANKS
    res = friedman_test(ranks, higher_is_better=False, tie_correction=False, names=["C4.5", "m", "cf", "m+cf"])
    np.testing.assert_allclose(res.average_ranks, [3.143, 2.000, 2.893, 1.964], atol=5e-4)
    assert res.statistic == pytest.approx(9.28, abs=5e-3)
    assert res.f_statistic == pytest.approx(3.69, abs=5e-3)
    assert res.cd == pytest.approx(1.25, abs=5e-3)
    assert res.significant  # F(3, 39) critical value 2.85 < 3.69
    assert critical_difference(4, 14) == pytest.approx(2.569 * math.sqrt(20 / 84), abs=1e-3)


def test_friedman_matches_scipy_with_and_without_ties():
    rng = np.random.default_rng(8)
    for s in (rng.normal(size=(12, 5)), rng.integers(0, 3, size=(10, 4)).astype(float)):
        res = friedman_test(s)
        ref = sps.friedmanchisquare(*s.T)
        assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
        np.testing.assert_allclose(res.ranks, sps.rankdata(-s, axis=1))


@pytest.mark.parametrize("tie_correction", [True, False])
@pytest.mark.parametrize(
    "row",
    [[2.0, 0.0, 0.0, 2.0], [2.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.0], [3.0, 2.0, 1.0, 0.0], [5, 1, 1, 2, 2, 7, 7, 7]],
)
def test_friedman_identical_rankings_give_infinite_f_and_zero_p(row, tie_correction):
    # every dataset ranks the classifiers the same way (ties or not): N (k - 1) - chi2_F is 0 with the
    # tie correction (W = 0), so F_F = inf and its p-value 0 exactly, never ~1e16 from rounding
    from streamtk.stats import friedman_statistics

    row = np.asarray(row, dtype=float)
    tied = len(set(row.tolist())) < row.size
    for n in (2, 3, 4, 7, 10, 29):
        scores = np.tile(row, (n, 1))
        res = friedman_test(scores, tie_correction=tie_correction)
        vec = friedman_statistics(sps.rankdata(-scores, axis=1), tie_correction=tie_correction)
        if tie_correction or not tied:
            assert res.statistic == pytest.approx(n * (row.size - 1), rel=1e-12)
            assert res.f_statistic == np.inf and res.f_pvalue == 0.0
            assert vec["f_statistic"] == np.inf and vec["f_pvalue"] == 0.0
        else:  # Demsar's untied formula on tied ranks stays below N (k - 1): a finite F_F
            assert np.isfinite(res.f_statistic) and res.f_pvalue > 0.0
            assert vec["f_statistic"] == pytest.approx(res.f_statistic, rel=1e-12)


def test_friedman_groups_and_different():
    # N = 5 datasets, k = 5 -> CD = 2.728 sqrt(30 / 30) = 2.728
    scores = np.array(
        [
            [5, 4, 3, 2, 1],
            [5, 4, 3, 2, 1],
            [5, 4, 3, 2, 1],
            [5, 4, 2, 1, 3],
            [4, 5, 1, 3, 2],
        ],
        dtype=float,
    )
    res = friedman_test(scores, names=list("ABCDE"))
    # ranks: three rows 1..5, then (1, 2, 4, 5, 3) and (2, 1, 5, 3, 4)
    np.testing.assert_allclose(res.average_ranks, [1.2, 1.8, 3.6, 4.0, 4.4])
    assert res.cd == pytest.approx(2.728, abs=1e-3)
    diff = np.abs(res.average_ranks[:, None] - res.average_ranks[None]) >= res.cd
    np.testing.assert_array_equal(res.different, diff)
    # maximal runs of consecutive average ranks spanning less than CD
    assert res.different[0].tolist() == [False, False, False, True, True]  # 2.8 and 3.2 >= 2.728
    # A..C spans 2.4 < CD, B..E spans 2.6 < CD
    assert res.groups == (("A", "B", "C"), ("B", "C", "D", "E"))
    res2 = friedman_test(np.repeat(scores, 4, axis=0), names=list("ABCDE"))  # N = 20 -> CD = 1.364
    assert res2.groups == (("A", "B"), ("C", "D", "E"))
    bd = friedman_test(np.repeat(scores, 4, axis=0), names=list("ABCDE"), posthoc="bonferroni-dunn")
    assert bd.control == "A"
    assert bd.groups == (("A", "B"),)
    assert bd.different[0].tolist() == [False, False, True, True, True]
    ds = res2.to_dataset()
    assert ds.group_member.values.tolist() == [[True, True, False, False, False], [False, False, True, True, True]]
    assert ds.average_rank.sel(model="C").item() == pytest.approx(3.6)


def test_friedman_dataset_roundtrips_through_netcdf(tmp_path):
    import xarray as xr

    scores = np.repeat(np.array([[5, 4, 3, 2, 1], [4, 5, 2, 1, 3]], dtype=float), 5, axis=0)
    ds = friedman_test(scores, names=list("ABCDE"), posthoc="bonferroni-dunn").to_dataset()
    ds.to_netcdf(tmp_path / "friedman.nc")
    with xr.open_dataset(tmp_path / "friedman.nc") as back:
        xr.testing.assert_identical(back.load(), ds)


def test_cd_diagram_refuses_non_significant_and_draws_when_significant():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from streamtk.plot.cd_diagram import cd_diagram

    flat = friedman_test(np.tile([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]], (3, 1)))
    assert not flat.significant
    with pytest.raises(ValueError, match="not significant"):
        cd_diagram(flat)
    fig, ax = plt.subplots()
    art = cd_diagram(flat, ax=ax, force=True)
    assert len(art["labels"]) == 3
    plt.close(fig)
    scores = np.repeat(np.array([[5, 4, 3, 2, 1], [5, 4, 3, 2, 1], [4, 5, 2, 1, 3]], dtype=float), 6, axis=0)
    res = friedman_test(scores, names=list("ABCDE"))
    fig, ax = plt.subplots()
    art = cd_diagram(res, ax=ax)
    assert [t.get_text() for t in art["labels"]] == [f"{n} ({r:.2f})" for n, r in zip("ABCDE", res.average_ranks)]
    assert len(art["groups"]) == len(res.groups)
    x0, x1 = art["cd_bar"].get_xdata()
    assert x1 - x0 == pytest.approx(res.cd)
    # each connector starts at the classifier's average rank on the axis
    starts = sorted(ln.get_xdata()[0] for ln in art["lines"])
    np.testing.assert_allclose(starts, np.sort(res.average_ranks))
    plt.close(fig)


def test_scalar_test_results_keep_their_fields_as_variables():
    # a 0-d test (one set of folds) has numpy scalar fields: they are variables, as for arrays
    from streamtk.stats import sign_test, wilcoxon_test

    d = [0.07, -0.01, -0.02, 1.37, 0.60, 1.42, 2.18, 1.04, 2.39, 0.03]
    for res in (sign_test(d), wilcoxon_test(d)):
        ds = res.to_dataset()
        for name in ("statistic", "pvalue", "critical", "reject"):
            assert name in ds.data_vars and name not in ds.attrs
        assert ds.attrs["alpha"] == 0.05
