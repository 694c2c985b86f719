"""Post-hoc tests and adjusted p-values against published examples, scipy, statsmodels, scikit-posthocs, autorank."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from streamtk.stats import (
    PosthocResult,
    adjust_pvalues,
    bonferroni_dunn_q,
    friedman_statistics,
    friedman_test,
    posthoc_from_ranks,
    posthoc_test,
    shaffer_true_sets,
)
from streamtk.stats.adjust import shaffer_counts
from tests._tables import DEMSAR_NAMES, DEMSAR_TABLE_6_RANKS

# Garcia & Herrera 2008 (JMLR 9: 2677-2694), Table 2: accuracies of C4.5, 1-NN, NaiveBayes, Kernel and CN2
# on 30 datasets (transcribed from the table as distributed with the R package scmamp, data_gh_2008).
GH_NAMES = ["C4.5", "1-NN", "NaiveBayes", "Kernel", "CN2"]
GH_2008_TABLE_2 = np.array(
    [
        [0.219, 0.202, 0.249, 0.165, 0.261],  # Abalone
        [0.803, 0.750, 0.813, 0.692, 0.798],  # Adult
        [0.859, 0.814, 0.845, 0.542, 0.816],  # Australian
        [0.809, 0.774, 0.673, 0.275, 0.785],  # Autos
        [0.768, 0.790, 0.727, 0.872, 0.706],  # Balance
        [0.759, 0.654, 0.734, 0.703, 0.714],  # Breast
        [0.693, 0.611, 0.572, 0.689, 0.572],  # Bupa
        [0.544, 0.531, 0.558, 0.439, 0.541],  # Cleveland
        [0.945, 0.954, 0.978, 0.541, 0.858],  # Dermatology
        [0.725, 0.705, 0.739, 0.625, 0.717],  # German
        [0.674, 0.736, 0.721, 0.356, 0.704],  # Glass
        [0.801, 0.357, 0.520, 0.309, 0.520],  # Hayes-Roth
        [0.785, 0.770, 0.841, 0.659, 0.759],  # Heart
        [0.710, 0.402, 0.728, 0.120, 0.674],  # Led7Digit
        [0.691, 0.827, 0.667, 0.527, 0.638],  # Letter
        [0.743, 0.739, 0.830, 0.549, 0.746],  # Lymphography
        [0.990, 0.482, 0.941, 0.857, 0.990],  # Mushrooms
        [0.867, 0.098, 0.915, 0.986, 0.784],  # OptDigits
        [0.821, 0.872, 0.815, 0.885, 0.778],  # Satimage
        [0.893, 0.824, 0.902, 0.739, 0.885],  # SpamBase
        [0.799, 0.655, 0.925, 0.517, 0.755],  # Splice
        [0.845, 0.731, 0.693, 0.653, 0.704],  # Tic-tac-toe
        [0.741, 0.701, 0.591, 0.663, 0.619],  # Vehicle
        [0.799, 0.994, 0.603, 0.269, 0.621],  # Vowel
        [0.949, 0.955, 0.989, 0.770, 0.954],  # Wine
        [0.555, 0.505, 0.569, 0.312, 0.556],  # Yeast
        [0.928, 0.928, 0.945, 0.419, 0.897],  # Zoo
        [0.915, 0.857, 0.860, 0.700, 0.777],  # Car
        [0.855, 0.796, 0.857, 0.607, 0.809],  # Crx
        [0.906, 0.359, 0.895, 0.641, 0.918],  # Ion
    ]
)


def _pairs(mat, k):
    i, j = np.triu_indices(k, 1)
    return mat[i, j]


# ----------------------------------------------------------------------------- published examples
def test_garcia_herrera_2008_average_ranks_friedman_and_unadjusted_pvalues():
    res = posthoc_test(GH_2008_TABLE_2, names=GH_NAMES, method="holm")
    # average rankings of G&H 2008 section 5: 2.100, 3.250, 2.200, 4.333, 3.117
    np.testing.assert_allclose(res.average_ranks, [2.1, 3.25, 2.2, 13 / 3, 3.116667], atol=1e-6)
    # Friedman without tie correction and Iman-Davenport (scmamp's friedmanTest / imanDavenportTest on Table 2)
    fr = friedman_test(GH_2008_TABLE_2, names=GH_NAMES, tie_correction=False)
    assert fr.statistic == pytest.approx(39.647, abs=5e-4)
    assert fr.f_statistic == pytest.approx(14.309, abs=5e-4)
    assert fr.f_pvalue == pytest.approx(1.593e-09, rel=1e-3)
    # unadjusted p-values of z = (R_i - R_j) / sqrt(k (k + 1) / (6 N)) (scmamp's friedmanPost on Table 2)
    expected = {
        ("C4.5", "1-NN"): 4.848763e-03,
        ("C4.5", "NaiveBayes"): 8.064959e-01,
        ("C4.5", "Kernel"): 4.486991e-08,
        ("C4.5", "CN2"): 1.276301e-02,
        ("1-NN", "NaiveBayes"): 1.011233e-02,
        ("1-NN", "Kernel"): 7.963489e-03,
        ("1-NN", "CN2"): 7.439715e-01,
        ("NaiveBayes", "Kernel"): 1.736118e-07,
        ("NaiveBayes", "CN2"): 2.474467e-02,
        ("Kernel", "CN2"): 2.880485e-03,
    }
    for (a, b), p in expected.items():
        assert res.pvalue[GH_NAMES.index(a), GH_NAMES.index(b)] == pytest.approx(p, rel=1e-6)
    # C4.5 vs Kernel: z = 2.2333 / sqrt(30 / 180) = 5.471
    assert abs(res.z[0, 3]) == pytest.approx(2.233333 / math.sqrt(30 / 180), rel=1e-6)


def test_shaffer_static_against_scmamp_on_garcia_herrera_2008():
    # raw p-values of scmamp's friedmanAlignedRanksPost on G&H 2008 Table 2 and its adjustShaffer output
    # (scmamp vignette "Statistical assessment of the differences"); pairs in row-major upper-triangle order
    raw = [1.174850e-03, 3.341698e-01, 2.843421e-10, 1.845167e-02, 2.265711e-02, 2.197407e-03, 3.742777e-01]
    raw += [9.226472e-08, 1.643229e-01, 7.793722e-05]
    shaffer = [7.049103e-03, 6.683396e-01, 2.843421e-09, 7.380668e-02, 9.062842e-02, 1.318444e-02, 6.683396e-01]
    shaffer += [5.535883e-07, 4.929688e-01, 4.676233e-04]
    np.testing.assert_allclose(adjust_pvalues(raw, "shaffer", k=5), shaffer, rtol=2e-6)


def test_shaffer_sets_and_multipliers():
    assert shaffer_true_sets(3) == (0, 1, 3)
    assert shaffer_true_sets(4) == (0, 1, 2, 3, 6)
    assert shaffer_true_sets(5) == (0, 1, 2, 3, 4, 6, 10)
    # k = 4: t_j = 6, 3, 3, 3, 2, 1 (Shaffer 1986; Garcia & Herrera 2008 section 3.2)
    assert shaffer_counts(4).tolist() == [6, 3, 3, 3, 2, 1]
    # every t_j is at most Holm's multiplier m - j + 1, with equality for j = 1
    for k in range(2, 10):
        m = k * (k - 1) // 2
        t = shaffer_counts(k)
        assert t[0] == m and np.all(t <= m - np.arange(m))


def test_demsar_2006_table_6_critical_differences_and_holm():
    res_n = posthoc_test(DEMSAR_TABLE_6_RANKS, names=DEMSAR_NAMES, method="nemenyi", higher_is_better=False)
    np.testing.assert_allclose(res_n.average_ranks, [3.143, 2.000, 2.893, 1.964], atol=5e-4)
    assert res_n.cd == pytest.approx(1.25, abs=5e-3)  # section 3.2.4: q_0.05 = 2.569, CD = 1.25
    assert not res_n.reject.any()  # the largest difference, 1.179, is below 1.25
    # Table 5(b): Bonferroni-Dunn q_0.05 = 2.394 and q_0.10 = 2.128 for k = 4
    assert bonferroni_dunn_q(4, 0.05) == pytest.approx(2.394, abs=5e-4)
    assert bonferroni_dunn_q(4, 0.10) == pytest.approx(2.128, abs=5e-4)
    bd = posthoc_test(
        DEMSAR_TABLE_6_RANKS, names=DEMSAR_NAMES, method="bonferroni-dunn", control="C4.5", higher_is_better=False
    )
    assert bd.cd == pytest.approx(2.394 * math.sqrt(20 / 84), abs=1e-3)
    assert [p["b"] for p in bd.pairs() if p["reject"]] == ["C4.5+m+cf"]  # 1.179 > CD = 1.168 > 1.143
    # Holm against C4.5 (section 3.2.2 procedure on this example): z = 2.416, 2.342, 0.512 give p = 0.016, 0.019,
    # 0.609; compared with 0.05/3, 0.05/2, 0.05, Holm rejects the first two where Bonferroni-Dunn rejects one
    holm = posthoc_test(DEMSAR_TABLE_6_RANKS, names=DEMSAR_NAMES, method="holm", control="C4.5", higher_is_better=False)
    rows = holm.pairs()
    assert [r["b"] for r in rows] == ["C4.5+m+cf", "C4.5+m", "C4.5+cf"]
    np.testing.assert_allclose([abs(r["z"]) for r in rows], [2.416, 2.342, 0.512], atol=2e-3)
    np.testing.assert_allclose([r["pvalue"] for r in rows], [0.016, 0.019, 0.609], atol=1e-3)
    assert [r["reject"] for r in rows] == [True, True, False]
    assert holm.cliques == (("C4.5+cf", "C4.5"),)


def test_bonferroni_dunn_all_pairs_cd_is_the_threshold_of_its_adjusted_pvalues():
    # issue 35: the CD used the k - 1 control quantile (1.38) while the p-values were adjusted over all
    # 6 pairs, so |1 - 2.45| >= CD had p_adj = 0.072 and no rejection. Over all pairs both now use m = 6.
    ranks, n, k = [1.0, 2.45, 3.0, 3.55], 10, 4
    res = posthoc_from_ranks(ranks, n, method="bonferroni-dunn")
    se = math.sqrt(k * (k + 1) / (6 * n))
    assert res.cd == pytest.approx(sps.norm.isf(0.05 / (2 * 6)) * se, rel=1e-12)  # 2.638 * 0.577 = 1.523
    assert res.pvalue_adjusted[0, 1] == pytest.approx(min(1.0, 6 * 2 * sps.norm.sf(1.45 / se)), rel=1e-12)
    assert not res.reject[0, 1] and 1.45 < res.cd
    assert res.reject[0, 3] and res.pvalue_adjusted[0, 3] <= 0.05  # 2.55 >= CD
    # against a control it stays Demsar's Bonferroni-Dunn test: k - 1 comparisons, CD = 2.394 se
    ctrl = posthoc_from_ranks(ranks, n, method="bonferroni-dunn", control="0")
    assert ctrl.cd == pytest.approx(bonferroni_dunn_q(k, 0.05) * se, rel=1e-12)
    assert ctrl.reject[0, 1] and ctrl.pvalue_adjusted[0, 1] <= 0.05


@settings(max_examples=80, deadline=None)
@given(
    k=st.integers(2, 9),
    n=st.integers(2, 60),
    seed=st.integers(0, 10_000),
    alpha=st.sampled_from([0.01, 0.05, 0.1]),
    method=st.sampled_from(["nemenyi", "bonferroni-dunn"]),
    with_control=st.booleans(),
)
def test_single_step_rejection_is_exactly_the_cd_rule_and_the_adjusted_pvalue(k, n, seed, alpha, method, with_control):
    if method == "nemenyi" and with_control:
        with_control = False
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(n, k)) + rng.uniform(0, 2.0, size=k)
    control = str(int(rng.integers(k))) if with_control else None
    res = posthoc_test(scores, method=method, control=control, alpha=alpha)
    diff = np.abs(res.average_ranks[:, None] - res.average_ranks[None]) >= res.cd
    in_family = np.isfinite(res.pvalue_adjusted)
    np.testing.assert_array_equal(res.reject, diff & in_family)
    # the adjusted p-values cross alpha where the rank difference crosses the CD
    close = np.isclose(res.pvalue_adjusted, alpha, rtol=1e-8, atol=0)
    np.testing.assert_array_equal((res.pvalue_adjusted <= alpha)[in_family & ~close], res.reject[in_family & ~close])


# ----------------------------------------------------------------------------- reference implementations
def test_nemenyi_matches_scikit_posthocs_and_friedman_cd():
    sp = pytest.importorskip("scikit_posthocs", reason="scikit-posthocs is the reference for Nemenyi's p-values")
    rng = np.random.default_rng(3)
    for scores in (GH_2008_TABLE_2, rng.normal(size=(12, 6)), rng.integers(0, 4, size=(15, 4)).astype(float)):
        k = scores.shape[1]
        res = posthoc_test(scores, method="nemenyi")
        ref = sp.posthoc_nemenyi_friedman(scores).to_numpy()
        np.testing.assert_allclose(_pairs(res.pvalue_adjusted, k), _pairs(ref, k), rtol=1e-7, atol=1e-12)
        # rejection is exactly |R_i - R_j| >= CD, and the cliques are friedman_test's groups
        fr = friedman_test(scores)
        assert res.cd == pytest.approx(fr.cd)
        diff = np.abs(res.average_ranks[:, None] - res.average_ranks[None]) >= res.cd
        np.fill_diagonal(diff, False)
        np.testing.assert_array_equal(res.reject, diff)
        assert res.cliques == fr.groups


@pytest.mark.parametrize(("method", "sp_name"), [("bonferroni-dunn", "bonferroni"), ("holm", "holm")])
def test_all_pairs_step_procedures_match_scikit_posthocs_siegel(method, sp_name):
    sp = pytest.importorskip("scikit_posthocs", reason="scikit-posthocs is a reference for the z-test p-values")
    rng = np.random.default_rng(11)
    for scores in (GH_2008_TABLE_2, rng.normal(size=(20, 5))):
        k = scores.shape[1]
        res = posthoc_test(scores, method=method)
        raw = sp.posthoc_siegel_friedman(scores).to_numpy()
        adj = sp.posthoc_siegel_friedman(scores, p_adjust=sp_name).to_numpy()
        np.testing.assert_allclose(_pairs(res.pvalue, k), _pairs(raw, k), rtol=1e-10)
        np.testing.assert_allclose(_pairs(res.pvalue_adjusted, k), _pairs(adj, k), rtol=1e-10)


@pytest.mark.parametrize(
    ("method", "sm_name"), [("bonferroni", "bonferroni"), ("holm", "holm"), ("hochberg", "simes-hochberg")]
)
def test_adjust_pvalues_matches_statsmodels(method, sm_name):
    multitest = pytest.importorskip("statsmodels.stats.multitest", reason="statsmodels is the reference")
    rng = np.random.default_rng(5)
    for m in (1, 2, 3, 10, 45):
        for p in (rng.uniform(size=m), rng.uniform(size=m) ** 4, np.round(rng.uniform(size=m), 1)):
            ours = adjust_pvalues(p, method)
            _, ref, _, _ = multitest.multipletests(p, alpha=0.05, method=sm_name)
            np.testing.assert_allclose(ours, ref, rtol=1e-12, atol=1e-15)


def test_autorank_friedman_nemenyi_agree():
    autorank = pytest.importorskip("autorank", reason="autorank is a reference for Friedman + Nemenyi")
    import pandas as pd

    rng = np.random.default_rng(2)
    data = pd.DataFrame(rng.normal(size=(25, 5)) + np.arange(5) * 0.4, columns=list("ABCDE"))
    ref = autorank.autorank(data, alpha=0.05, verbose=False, force_mode="nonparametric")
    res = posthoc_test(data.to_numpy(), names=list(data.columns), method="nemenyi")
    # autorank takes q_alpha from statsmodels' qsturng (an interpolated table): agreement to 1e-4, not to rounding
    assert res.cd == pytest.approx(ref.cd, rel=1e-4)
    for name, row in ref.rankdf.iterrows():
        assert res.average_ranks[list(data.columns).index(name)] == pytest.approx(row["meanrank"])
    fr = friedman_test(data.to_numpy())
    assert fr.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


# ----------------------------------------------------------------------------- step-wise definitions (slow oracles)
def _stepwise_reject(p, alpha, method, k=None):
    """Which hypotheses a step-down / step-up procedure rejects at ``alpha``, straight from its definition."""
    m = len(p)
    order = np.argsort(p, kind="stable")
    ps = np.asarray(p)[order]
    if method == "holm":
        thr = [alpha / (m - j) for j in range(m)]
    elif method == "finner":
        thr = [1 - (1 - alpha) ** ((j + 1) / m) for j in range(m)]
    elif method == "shaffer":
        thr = [alpha / t for t in shaffer_counts(k)]
    elif method == "hochberg":
        thr = [alpha / (m - j) for j in range(m)]
        last = max([j for j in range(m) if ps[j] <= thr[j]], default=-1)
        out = np.zeros(m, dtype=bool)
        out[order[: last + 1]] = True
        return out
    rej = np.zeros(m, dtype=bool)
    for j in range(m):
        if ps[j] <= thr[j]:
            rej[order[j]] = True
        else:
            break
    return rej


@settings(max_examples=60, deadline=None)
@given(
    k=st.integers(2, 7),
    data=st.data(),
    method=st.sampled_from(["holm", "hochberg", "finner", "shaffer"]),
)
def test_adjusted_pvalues_reject_exactly_what_the_stepwise_rule_rejects(k, data, method):
    m = k * (k - 1) // 2
    p = np.array(data.draw(st.lists(st.floats(0, 1), min_size=m, max_size=m)))
    adj = adjust_pvalues(p, method, k=k)
    for alpha in (0.001, 0.01, 0.05, 0.1, 0.3):
        expected = _stepwise_reject(p, alpha, method, k)
        got = adj <= alpha
        # a threshold that equals a p-value up to rounding may go either way
        close = np.isclose(adj, alpha, rtol=1e-9, atol=0)
        np.testing.assert_array_equal(got[~close], expected[~close])


@settings(max_examples=60, deadline=None)
@given(k=st.integers(3, 8), seed=st.integers(0, 10_000))
def test_procedures_are_ordered_by_power(k, seed):
    m = k * (k - 1) // 2
    p = np.random.default_rng(seed).uniform(size=m) ** 3
    bonf, holm, hoch, finner, shaffer = (
        adjust_pvalues(p, meth, k=k) for meth in ("bonferroni", "holm", "hochberg", "finner", "shaffer")
    )
    tol = 1e-12
    assert np.all(holm <= bonf + tol)
    assert np.all(hoch <= holm + tol)
    assert np.all(finner <= holm + tol)
    assert np.all(shaffer <= holm + tol)
    assert np.all(p <= finner + tol)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), method=st.sampled_from(["nemenyi", "bonferroni-dunn", "holm", "finner", "shaffer"]))
def test_relabelling_classifiers_permutes_the_result(seed, method):
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 5, size=(9, 5)).astype(float)
    names = ["e", "a", "d", "b", "c"]
    perm = rng.permutation(5)
    res = posthoc_test(scores, names=names, method=method)
    res_p = posthoc_test(scores[:, perm], names=[names[i] for i in perm], method=method)
    np.testing.assert_allclose(res_p.pvalue_adjusted, res.pvalue_adjusted[np.ix_(perm, perm)], rtol=1e-12)
    np.testing.assert_array_equal(res_p.reject, res.reject[np.ix_(perm, perm)])
    assert {frozenset(c) for c in res_p.cliques} == {frozenset(c) for c in res.cliques}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), method=st.sampled_from(["nemenyi", "holm", "hochberg", "finner", "shaffer"]))
def test_cliques_are_maximal_runs_without_a_rejected_pair(seed, method):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(3, 8))
    scores = rng.normal(size=(int(rng.integers(5, 40)), k)) + rng.uniform(0, 1.5, size=k)
    res = posthoc_test(scores, method=method, alpha=0.1)
    order = [res.names[i] for i in np.argsort(res.average_ranks, kind="stable")]
    idx = {n: i for i, n in enumerate(res.names)}
    for clique in res.cliques:
        pos = [order.index(n) for n in clique]
        assert pos == list(range(pos[0], pos[0] + len(pos)))  # consecutive in rank order
        assert not res.reject[np.ix_([idx[n] for n in clique], [idx[n] for n in clique])].any()
        for ext in (pos[0] - 1, pos[-1] + 1):  # maximal: extending either end adds a rejected pair
            if 0 <= ext < k:
                grown = [idx[n] for n in clique] + [idx[order[ext]]]
                assert res.reject[np.ix_(grown, grown)].any()
    # every non-rejected pair of neighbours lies in some clique
    for a, b in zip(order, order[1:]):
        if not res.reject[idx[a], idx[b]]:
            assert any(a in c and b in c for c in res.cliques)


def test_vectorised_friedman_statistics_match_scipy():
    rng = np.random.default_rng(4)
    x = rng.integers(0, 3, size=(6, 11, 4)).astype(float)
    out = friedman_statistics(sps.rankdata(-x, axis=-1))
    for t in range(6):
        ref = sps.friedmanchisquare(*x[t].T)
        assert out["chi2"][t] == pytest.approx(ref.statistic, rel=1e-12)
        assert out["pvalue"][t] == pytest.approx(ref.pvalue, rel=1e-10)
        assert out["f_pvalue"][t] == pytest.approx(friedman_test(x[t]).f_pvalue, rel=1e-12)


# ----------------------------------------------------------------------------- results and errors
def test_result_round_trips_through_netcdf_and_prints(tmp_path):
    from streamtk.io import open_dataset, to_netcdf

    res = posthoc_test(GH_2008_TABLE_2, names=GH_NAMES, method="shaffer")
    back = PosthocResult.from_dataset(open_dataset(to_netcdf(res.to_dataset(), tmp_path / "posthoc.nc")))
    np.testing.assert_array_equal(back.pvalue_adjusted, res.pvalue_adjusted)
    np.testing.assert_array_equal(back.reject, res.reject)
    assert back.cliques == res.cliques and back.method == "shaffer" and back.control is None
    text = repr(res)
    assert "shaffer (all pairs)" in text and "C4.5 vs Kernel" in text and "N = 30" in text
    ctrl = posthoc_test(GH_2008_TABLE_2, names=GH_NAMES, method="finner", control="C4.5")
    back = PosthocResult.from_dataset(open_dataset(to_netcdf(ctrl.to_dataset(), tmp_path / "ctrl.nc")))
    assert back.control == "C4.5"
    assert np.isnan(back.pvalue[1, 2])  # pairs without the control are outside the family


def test_bad_inputs_name_the_argument():
    with pytest.raises(ValueError, match="method"):
        posthoc_test(GH_2008_TABLE_2, method="tukey")
    with pytest.raises(ValueError, match="control"):
        posthoc_test(GH_2008_TABLE_2, names=GH_NAMES, method="nemenyi", control="C4.5")
    with pytest.raises(ValueError, match="control"):
        posthoc_test(GH_2008_TABLE_2, names=GH_NAMES, method="shaffer", control="C4.5")
    with pytest.raises(ValueError, match="control must be one of"):
        posthoc_test(GH_2008_TABLE_2, names=GH_NAMES, control="C5.0")
    with pytest.raises(ValueError, match="scores contains a non-finite value nan"):
        posthoc_test(np.where(np.eye(5, 5, dtype=bool), np.nan, 1.0))
    with pytest.raises(ValueError, match="alpha"):
        posthoc_test(GH_2008_TABLE_2, alpha=1.5)
    with pytest.raises(ValueError, match="pvalues must lie in"):
        adjust_pvalues([0.1, 1.2])
    with pytest.raises(ValueError, match="shaffer"):
        adjust_pvalues([0.1, 0.2], "shaffer", k=3)
    with pytest.raises(ValueError, match="n_datasets"):
        posthoc_from_ranks([1.5, 1.5], 0)


def test_paired_test_results_have_a_dataset_and_a_readable_repr(tmp_path):
    from streamtk.io import open_dataset, to_netcdf
    from streamtk.stats import mcnemar_test, sign_test, wilcoxon_test

    rng = np.random.default_rng(1)
    d = rng.normal(0.01, 0.02, size=(10, 3, 4))
    res = wilcoxon_test(d)
    ds = res.to_dataset(("checkpoint", "metric"))
    np.testing.assert_array_equal(ds["pvalue"].values, res.pvalue)
    assert ds.attrs["zero_method"] == "wilcox" and ds["reject"].dims == ("checkpoint", "metric")
    back = open_dataset(to_netcdf(ds, tmp_path / "w.nc"))
    np.testing.assert_array_equal(back["statistic"].values, res.statistic)
    assert "12 tests of shape (3, 4)" in repr(res)
    one = sign_test(d[:, 0, 0])
    assert "SignResult: Sign test" in repr(one) and f"pvalue           {float(one.pvalue)!r}" in repr(one)
    mc = mcnemar_test([3, 5], [10, 2])
    assert mc.to_dataset("pair")["a"].values.tolist() == [3.0, 5.0]
    with pytest.raises(ValueError, match="dims"):
        res.to_dataset("checkpoint")
