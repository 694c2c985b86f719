"""Tests for streamtk.evaluation.scores: losses, labelled AUC curves, MOA convention, ROC/PR curves."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

from streamtk.evaluation import scores as S


# ----------------------------------------------------------------------------- references
def brute_auc(score, pos, v=None):
    v = np.ones(len(score)) if v is None else v
    u1 = sum(
        v[i] * v[j] * (1.0 if score[i] > score[j] else 0.5 if score[i] == score[j] else 0.0)
        for i in range(len(score))
        if pos[i]
        for j in range(len(score))
        if not pos[j]
    )
    w0, w1 = v[~pos].sum(), v[pos].sum()
    return u1 / (w0 * w1) if (~pos).any() and pos.any() else np.nan


class MoaWindowAUC:
    """Behavioural model of MOA's WindowAUCImbalancedPerformanceEvaluator (width w, 0 = unbounded).

    Scores are kept sorted by decreasing value, positives before negatives on equal
    values, then by arrival; the AUC walks that order: a negative adds the number of
    positives above it, or the mean of the counts before and after the positives
    sharing its value; with no positive or no negative in the window the AUC is 1.
    """

    def __init__(self, width):
        self.width, self.items, self.pos = width, [], 0

    def add(self, score, positive):
        if self.width and len(self.items) == self.width:
            self.items.pop(0)
        self.items.append((score, positive, self.pos))
        self.pos += 1

    def auc(self):
        npos = sum(p for _, p, _ in self.items)
        nneg = len(self.items) - npos
        if npos == 0 or nneg == 0:
            return 1.0
        order = sorted(self.items, key=lambda it: (-it[0], not it[1], it[2]))
        total = c = prevc = 0.0
        last = np.finfo(float).max
        for s, p, _ in order:
            if p:
                if s != last:
                    prevc, last = c, s
                c += 1
            else:
                total += (c + prevc) / 2 if s == last else c
        return total / (npos * nneg)


# ---------------------------------------------------------------------------------- losses
def test_log_loss_binary_and_clipping():
    y = np.array([1, 0, 1, 0, None], dtype=object)
    p = np.array([0.9, 0.2, 0.0, 1.0, 0.5])
    got = S.log_loss(y, p)
    exp = [-np.log(0.9), -np.log(0.8), -np.log(1e-15), -np.log1p(-(1 - 1e-15)), np.nan]
    np.testing.assert_allclose(got, exp, rtol=1e-12)
    assert np.isnan(got[-1])
    assert S.log_loss(["b", "a"], [0.0, 0.0], eps=1e-3)[0] == pytest.approx(-np.log(1e-3))


def test_log_loss_and_brier_multiclass():
    p = np.array([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8], [0.3, 0.3, 0.4]])
    y = np.array(["a", "c", "b"])
    np.testing.assert_allclose(S.log_loss(y, p, classes=["a", "b", "c"]), -np.log([0.7, 0.8, 0.3]))
    onehot = np.array([[1, 0, 0], [0, 0, 1], [0, 1, 0]])
    np.testing.assert_allclose(S.brier_score(y, p, classes=["a", "b", "c"]), ((p - onehot) ** 2).sum(1))
    # leading dims (two models) broadcast over the instances
    p2 = np.stack([p, p[:, ::-1]])
    assert S.brier_score(y, p2, classes=["a", "b", "c"]).shape == (2, 3)


def test_brier_binary_and_k2_relation():
    y = np.array([0, 1, 1])
    p = np.array([0.25, 0.5, 1.0])
    np.testing.assert_allclose(S.brier_score(y, p), [0.0625, 0.25, 0.0])
    two = np.stack([1 - p, p], axis=-1)
    np.testing.assert_allclose(S.brier_score(y, two, classes=[0, 1]), 2 * S.brier_score(y, p))


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(y_true=[0, 1], y_score=[0.5, 1.5]), "probabilities in \\[0, 1\\], got 1.5"),
        (dict(y_true=[0, 1], y_score=[0.5]), "1 instances"),
        (dict(y_true=[0, 1, 2], y_score=[0.5, 0.1, 0.2]), "pass pos_label"),
        (dict(y_true=[0, 1], y_score=[0.5, 0.1], pos_label=3), "pos_label 3"),
        (dict(y_true=[0, 1], y_score=[0.5, 0.1], eps=0.7), "eps must be"),
    ],
)
def test_loss_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        S.log_loss(**kwargs)


# ----------------------------------------------------------------------------- auc_curves
def test_auc_curves_against_brute_force_prefix_window_fading():
    rng = np.random.default_rng(11)
    n = 70
    y = rng.choice(["neg", "pos"], n)
    s = rng.integers(0, 6, (2, n)) / 5.0
    w = rng.uniform(0.2, 2.0, (2, n))
    w[:, ::9] = 0
    ds = S.auc_curves(y, s, windows=5, fading=0.8, weights=w, every=3, lead_dims="model")
    assert ds.auc.dims == ("model", "estimator", "time")
    inst = ds.instance.values
    assert inst[-1] == n and inst[0] == 3
    for m in range(2):
        for k, t in enumerate(inst):
            idx = np.flatnonzero(w[m, :t] > 0)
            v = w[m, idx]
            refs = {
                "prequential": brute_auc(s[m, idx], y[idx] == "pos", v),
                "window=5": brute_auc(s[m, idx[-5:]], y[idx[-5:]] == "pos", v[-5:]),
                "fading=0.8": brute_auc(s[m, idx], y[idx] == "pos", v * 0.8 ** np.arange(idx.size)[::-1]),
            }
            for est, ref in refs.items():
                # float weights leave rounding residue (~1e-16) after a window removes instances
                np.testing.assert_allclose(ds.auc.sel(model=m, estimator=est).values[k], ref, rtol=1e-12, atol=1e-14)


def test_mann_whitney_statistics_match_scipy_without_ties():
    rng = np.random.default_rng(12)
    y = rng.integers(0, 2, 40)
    s = rng.random(40)
    ds = S.auc_curves(y, s).isel(estimator=0, time=-1)
    assert ds.auc.attrs["reference"].startswith("AMIDST") and ds.auc_z.attrs["symbol"] == "z"
    x1, x0 = s[y == 1], s[y == 0]
    res = scipy.stats.mannwhitneyu(x1, x0, use_continuity=False, method="asymptotic")
    assert float(ds.auc_u1) == res.statistic
    assert float(ds.auc_u0) == len(x1) * len(x0) - res.statistic
    assert float(ds.auc) == pytest.approx(res.statistic / (len(x1) * len(x0)), rel=1e-14)
    # the paper's z (eq. 2.7) is built on U0; scipy's two-sided p-value uses |z|
    assert 2 * scipy.stats.norm.sf(abs(float(ds.auc_z))) == pytest.approx(res.pvalue, rel=1e-10)
    m, n0, n1 = float(ds.auc_u0), len(x0), len(x1)
    assert float(ds.auc_z) == pytest.approx((m - n0 * n1 / 2) / np.sqrt(n0 * n1 * (n0 + n1 + 1) / 12), rel=1e-14)


def test_one_class_is_nan_and_moa_gives_one():
    y = [0, 0, 1, 1]
    s = [0.2, 0.4, 0.9, 0.1]
    ds = S.auc_curves(y, s, windows=2)
    np.testing.assert_array_equal(ds.auc.values, [[np.nan, np.nan, 1.0, 0.5], [np.nan, np.nan, 1.0, np.nan]])
    assert np.isnan(ds.auc_z.values[0, 0])
    moa = S.auc_curves(y, s, windows=2, convention="moa")
    np.testing.assert_array_equal(moa.auc.values, [[1.0, 1.0, 1.0, 0.5], [1.0, 1.0, 1.0, 1.0]])


def test_moa_convention_matches_moa_window_evaluator():
    rng = np.random.default_rng(13)
    n = 160
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.integers(0, 4, n) / 4.0  # heavy ties
    w = rng.choice([0.0, 1.0, 3.0], n, p=[0.1, 0.6, 0.3])  # MOA counts every weight > 0 as one instance
    ds = S.auc_curves(y, s, windows=[1, 10, 50], weights=w, convention="moa")
    for width, est in [(0, "prequential"), (1, "window=1"), (10, "window=10"), (50, "window=50")]:
        moa = MoaWindowAUC(width)
        ref = []
        for t in range(n):
            if w[t] > 0:
                moa.add(s[t], bool(y[t]))
            ref.append(moa.auc())
        np.testing.assert_allclose(ds.auc.sel(estimator=est).values, ref, rtol=1e-13)


def test_moa_class_votes_are_normalised():
    votes = np.array([[3.0, 1.0], [0.0, 0.0], [1.0, 1.0], [0.5, 4.5]])
    y = [0, 1, 0, 1]
    got = S.auc_curves(y, votes, convention="moa").auc.values[0, -1]
    assert got == brute_auc(np.array([0.25, 0.0, 0.5, 0.9]), np.array(y) == 1)
    with pytest.raises(ValueError, match=r"has only the estimators prequential, window \(MOA's AUC evaluator\)"):
        S.auc_curves(y, votes, fading=0.9, convention="moa")


def test_multiclass_ovr_ovo_hand_till():
    rng = np.random.default_rng(14)
    n, k = 60, 3
    labels = np.array(["x", "y", "z"])
    y = labels[rng.integers(0, k, n)]
    p = rng.integers(0, 5, (n, k)).astype(float)
    ovo = S.auc_curves(y, p, classes=labels, multi_class="ovo", windows=20, every=10)
    ovr = S.auc_curves(y, p, classes=labels, windows=20, every=10)
    for var in ("auc", "auc_u1", "auc_macro"):
        np.testing.assert_allclose(ovo[var], ovr[var], rtol=1e-12)
    assert ovo.auc.dims == ("estimator", "time", "class")
    assert ovo.auc_ovo.dims == ("estimator", "time", "class", "class_other")
    for k_, t in enumerate(ovo.instance.values):
        for est, lo in [("prequential", 0), ("window=20", max(0, t - 20))]:
            sl = slice(lo, t)
            ys, ps = y[sl], p[sl]
            per = [brute_auc(ps[:, c], ys == labels[c]) for c in range(k)]
            np.testing.assert_allclose(ovr.auc.sel(estimator=est).values[k_], per, rtol=1e-12)
            assert float(ovr.auc_macro.sel(estimator=est)[k_]) == pytest.approx(np.nanmean(per), rel=1e-12)
            pairs = []
            for i in range(k):
                for j in range(i + 1, k):
                    m = (ys == labels[i]) | (ys == labels[j])
                    a_ij = brute_auc(ps[m, i], ys[m] == labels[i])
                    a_ji = brute_auc(ps[m, j], ys[m] == labels[j])
                    pairs.append((a_ij + a_ji) / 2)
            assert float(ovo.auc_hand_till.sel(estimator=est)[k_]) == pytest.approx(np.nanmean(pairs), rel=1e-12)


def test_labelled_leading_dims_and_netcdf_round_trip(tmp_path):
    rng = np.random.default_rng(15)
    n = 30
    y = rng.integers(0, 2, n)
    s = xr.DataArray(
        rng.random((2, 3, n)), dims=("model", "fold", "step"), coords={"model": ["a", "b"], "step": np.arange(n) * 10}
    )
    ds = S.auc_curves(y, s, windows=7, fading=0.99, every=10)
    assert ds.auc.dims == ("model", "fold", "estimator", "time")
    assert ds.step.values.tolist() == [90, 190, 290]
    ref = S.auc_curves(y, s.values[1, 2], windows=7, fading=0.99, every=10)
    np.testing.assert_array_equal(ds.auc.sel(model="b").isel(fold=2).values, ref.auc.values)
    ds.to_netcdf(tmp_path / "auc.nc")
    with xr.open_dataset(tmp_path / "auc.nc") as back:
        np.testing.assert_array_equal(back.auc.values, ds.auc.values)
        assert back.auc.attrs["long_name"].startswith("AUC")


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(y_true=[0, 1], y_score=[0.2, np.nan]), ValueError, "NaN at instance 1 \\(0-based\\) of series 0"),
        (dict(y_true=[0, 1], y_score=[0.2, 0.3], windows=0), ValueError, "windows must be a positive integer, got 0"),
        (dict(y_true=[0, 1], y_score=[0.2, 0.3], fading=1.5), ValueError, "fading must be in \\(0, 1\\], got 1.5"),
        (dict(y_true=[0, 1], y_score=[0.2, 0.3], convention="sklearn"), ValueError, "convention must be one of"),
        (dict(y_true=[0, 1], y_score=[0.2, 0.3], every=1.0), TypeError, "every must be an integer"),
        (dict(y_true=[0, 1], y_score=[[0.2, 0.3]], classes=[0, 1]), ValueError, "shape \\(\\.\\.\\., n, k\\)"),
        (dict(y_true=[0, 1], y_score=[0.2, 0.3], weights=[1, -1]), ValueError, "weights must be non-negative"),
        (dict(y_true=[], y_score=[]), ValueError, "empty"),
        (dict(y_true=[0, 1], y_score=[0.2, 0.3], weights=np.ones((3, 2))), ValueError, "does not match the 1 score"),
        (dict(y_true=[0, 1], y_score=[0.2, 0.3], window=[2]), TypeError, "did you mean 'windows'"),
        (dict(y_true=[0, 1], y_score=[0.2, 0.3], adwin=0.1), ValueError, "adwin= needs y_pred"),
        (dict(y_true=[0, 1], y_score=[0.2, 0.3], tumbling=2, convention="moa"), ValueError, "has only the estimators"),
        (dict(y_true=[0, 1], y_score=[0.2, 0.3], metrics=["auc_macro"]), ValueError, "needs \\(\\.\\.\\., n, k\\)"),
        (dict(y_true=[0, 1], y_score=[0.2, 0.3], multi_class="ovx"), ValueError, "multi_class must be one of"),
        (dict(y_true=[0, 1], y_score=[0.2, 0.3], weights=[1.0]), ValueError, "weights has 1 instances"),
    ],
)
def test_auc_curves_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        S.auc_curves(**kwargs)


# ------------------------------------------------------------------------------ ROC / PR
def test_roc_pr_curves_known_answer_and_area_equals_auc():
    y = np.array([1, 0, 1, 0, 1, 0])
    s = np.array([0.9, 0.8, 0.8, 0.3, 0.2, 0.1])
    ds = S.roc_pr_curves(y, s, at=[6])
    c = ds.isel(estimator=0, checkpoint=0)
    np.testing.assert_allclose(c.threshold, [np.inf, 0.9, 0.8, 0.3, 0.2, 0.1])
    np.testing.assert_allclose(c.fpr, [0, 0, 1 / 3, 2 / 3, 2 / 3, 1])
    np.testing.assert_allclose(c.tpr, [0, 1 / 3, 2 / 3, 2 / 3, 1, 1])
    np.testing.assert_allclose(c.precision, [np.nan, 1, 2 / 3, 0.5, 0.6, 0.5])
    rng = np.random.default_rng(16)
    n = 80
    y = rng.integers(0, 2, n)
    s = rng.integers(0, 7, n) / 7
    w = rng.uniform(0, 2, n)
    at = [10, 41, 80]
    cur = S.roc_pr_curves(y, s, at=at, windows=15, fading=0.9, weights=w)
    auc = S.auc_curves(y, s, windows=15, fading=0.9, weights=w).auc
    for e in range(3):
        for k, t in enumerate(at):
            c = cur.isel(estimator=e, checkpoint=k)
            ok = ~np.isnan(c.tpr.values)
            area = np.trapezoid(c.tpr.values[ok], c.fpr.values[ok])
            assert area == pytest.approx(float(auc.isel(estimator=e, time=t - 1)), rel=1e-12)


def test_roc_pr_curves_plot_and_errors():
    pytest.importorskip("matplotlib", reason="plotting needs matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    ds = S.roc_pr_curves([0, 1, 1, 0], [0.1, 0.7, 0.4, 0.5], at=[4], windows=3)
    lines = ds.tpr.isel(checkpoint=0).plot.line(x="fpr", hue="estimator")
    assert len(lines) == 2
    import matplotlib.pyplot as plt

    plt.close("all")
    with pytest.raises(ValueError, match="at must be instance numbers in \\[1, 4\\]"):
        S.roc_pr_curves([0, 1, 1, 0], [0.1, 0.7, 0.4, 0.5], at=[0])


def test_multiclass_leading_dims_weights_and_missing_labels():
    rng = np.random.default_rng(18)
    n, k = 40, 3
    y = rng.integers(0, k, n).astype(float)
    y[::7] = np.nan  # missing labels are skipped
    p = rng.random((2, n, k))
    w = rng.uniform(0, 2, (2, n))
    ds = S.auc_curves(y, p, classes=[0, 1, 2], weights=w, fading=0.9, every=8)
    assert ds.auc.dims == ("model", "estimator", "time", "class")
    single = S.auc_curves(y, p[1], classes=[0, 1, 2], weights=w[1], fading=0.9, every=8)
    np.testing.assert_array_equal(ds.auc.isel(model=1).values, single.auc.values)
    t = n - 1
    idx = np.flatnonzero(~np.isnan(y[: t + 1]))
    v = w[1, idx] * 0.9 ** np.arange(idx.size)[::-1]
    ref = [brute_auc(p[1, idx, c], y[idx] == c, v) for c in range(k)]
    np.testing.assert_allclose(ds.auc.isel(model=1, time=-1).sel(estimator="fading=0.9").values, ref, rtol=1e-12)


#: score lists with signed zeros, subnormals, infinities and ties
_SCORE_LISTS = st.lists(
    st.one_of(st.floats(allow_nan=False), st.sampled_from([0.0, -0.0, 5e-324, -5e-324, 1.0])), min_size=1, max_size=60
)


@given(_SCORE_LISTS)
def test_rank_compress_is_numpy_unique_inverse(values):
    # radix-sort dense ranks: same as numpy.unique (-0.0 == 0.0, infinities, subnormals, ties)
    x = np.array(values, dtype=np.float64)
    ranks, R = S.rank_compress(np.stack([x, -x]))
    for row, v in zip(ranks, (x, -x)):
        u, inv = np.unique(v, return_inverse=True)
        np.testing.assert_array_equal(row, inv)
    assert R == np.unique(x).size


@given(_SCORE_LISTS)
def test_dense_ranks_writes_the_distinct_values_in_order(values):
    # the key spaces of the AUC accumulators are these values: numpy.unique's, with -0.0 as 0.0
    from streamtk._kernels.auc.ranks import dense_ranks

    x = np.array(values, dtype=np.float64)
    ranks, out = np.empty(x.size, dtype=np.int64), np.full(x.size, np.nan)
    D = dense_ranks(x, ranks, out)
    u = np.unique(x + 0.0)
    assert D == u.size
    np.testing.assert_array_equal(out[:D], u)
    assert not np.signbit(out[:D][out[:D] == 0.0]).any()
    np.testing.assert_array_equal(out[:D][ranks], x)


def test_rank_compress_on_random_bit_patterns():
    # every byte of the keys varies (all eight radix passes run), with ties and both signs
    rng = np.random.default_rng(7)
    x = rng.integers(0, 2**63, 100_000, dtype=np.int64).view(np.float64)
    x = x[~np.isnan(x)] * rng.choice([-1.0, 1.0], 100_000)[~np.isnan(x)]
    x = np.concatenate([x, x[:1000], [0.0, -0.0, np.inf, -np.inf]])
    ranks, R = S.rank_compress(x[None])
    u, inv = np.unique(x, return_inverse=True)
    np.testing.assert_array_equal(ranks[0], inv)
    assert R == u.size


# --------------------------------------------------------------------- conventions and labels
def test_auc_curves_every_mechanism_and_default_every():
    from tests._auc import held, pair_auc

    rng = np.random.default_rng(21)
    n = 120
    y = rng.integers(0, 2, n)
    s = rng.integers(0, 9, n) / 9
    p = np.where(rng.random(n) < 0.3, 1 - y, y)
    ds = S.auc_curves(y, s, y_pred=p, windows=9, fading=0.95, adwin=0.5, tumbling=25, landmarks=[30, 31, 90])
    assert ds.instance.values.tolist() == list(range(1, n + 1))  # default every: each instance up to 10^4
    assert list(ds.estimator.values) == [
        "prequential",
        "window=9",
        "fading=0.95",
        "adwin=0.5",
        "tumbling=25",
        "landmarks",
    ]
    from streamtk.drift.adwin import adwin

    widths = adwin((y != p).astype(float), delta=0.5).width.values
    member = np.ones(n, dtype=bool)
    params = [None, 9, 0.95, 0.5, 25, (30, 31, 90)]
    for e, (kind, param) in enumerate(zip(ds.estimator_kind.values, params)):
        for t in range(0, n, 7):
            idx, v = held(member, np.ones(n), t, kind, param, widths)
            ref = pair_auc(s[idx], y[idx], v, 1)
            np.testing.assert_allclose(ds.auc.values[e, t], ref, rtol=1e-12, err_msg=f"{kind} {t}")


def test_labelled_weights_and_scores_are_aligned_by_label():
    rng = np.random.default_rng(22)
    n = 60
    y = rng.integers(0, 2, n)
    s = xr.DataArray(rng.random((3, n)), dims=("model", "time"), coords={"model": ["a", "b", "c"]})
    w = xr.DataArray(rng.uniform(0, 2, (3, n)), dims=("model", "time"), coords={"model": ["a", "b", "c"]})
    ref = S.auc_curves(y, s, weights=w, windows=10, every=6)
    shuffled = w.isel(model=[2, 0, 1])  # the same weights, labels in another order
    got = S.auc_curves(y, s, weights=shuffled, windows=10, every=6)
    np.testing.assert_array_equal(got.auc.values, ref.auc.values)
    np.testing.assert_array_equal(
        ref.auc.sel(model="b").values, S.auc_curves(y, s.values[1], weights=w.values[1], windows=10, every=6).auc.values
    )
    with pytest.raises(ValueError, match="'model' labels do not match"):
        S.auc_curves(y, s, weights=w.assign_coords(model=["a", "b", "z"]), windows=10)
    # class scores: the class coordinate is matched to classes= by label
    k = 3
    proba = xr.DataArray(rng.dirichlet(np.ones(k), n), dims=("time", "class"), coords={"class": ["x", "y", "z"]})
    yk = np.array(["x", "y", "z"])[rng.integers(0, k, n)]
    a = S.auc_curves(yk, proba, windows=10, every=6)
    b = S.auc_curves(yk, proba.isel({"class": [2, 0, 1]}), classes=["x", "y", "z"], windows=10, every=6)
    np.testing.assert_array_equal(a.auc.values, b.auc.values)
    assert a["class"].values.tolist() == ["x", "y", "z"]


def test_adwin_auc_equals_evaluate():
    import streamtk

    rng = np.random.default_rng(23)
    n = 900
    y = rng.integers(0, 2, n)
    wrong = rng.random(n) < np.where(np.arange(n) < 500, 0.1, 0.6)
    p = np.where(wrong, 1 - y, y)
    s = np.clip(np.where(wrong, 1 - y, y) * 0.5 + rng.random(n) * 0.5, 0, 1).round(2)
    opts = dict(adwin=[0.01], tumbling=[100], landmarks=[500], windows=[40], every=30)
    ds = S.auc_curves(y, s, y_pred=p, **opts)
    ev = streamtk.evaluate(y, p, y_score=s, **opts)
    for name in ("auc", "auc_u1", "auc_u0", "auc_z"):
        np.testing.assert_array_equal(ds[name].values, ev[name].values)


def test_roc_curves_of_every_mechanism_have_the_auc_as_area():
    rng = np.random.default_rng(24)
    n = 150
    y = rng.integers(0, 2, n)
    s = rng.integers(0, 8, n) / 8
    p = np.where(rng.random(n) < 0.3, 1 - y, y)
    w = rng.uniform(0.2, 2.0, n)
    opts = dict(windows=17, fading=0.93, adwin=0.3, tumbling=40, landmarks=[60, 100])
    at = [9, 40, 41, 77, 150]
    cur = S.roc_pr_curves(y, s, at=at, y_pred=p, weights=w, **opts)
    auc = S.auc_curves(y, s, y_pred=p, weights=w, **opts).auc
    for e in range(cur.sizes["estimator"]):
        for c, t in enumerate(at):
            curve = cur.isel(estimator=e, checkpoint=c)
            ok = ~np.isnan(curve.tpr.values)
            ref = float(auc.isel(estimator=e, time=t - 1))
            if ok.sum() < 2:
                assert np.isnan(ref)
                continue
            area = np.trapezoid(curve.tpr.values[ok], curve.fpr.values[ok])
            assert area == pytest.approx(ref, rel=1e-12), (str(cur.estimator.values[e]), t)


def test_docstring_examples_run():
    import doctest

    from streamtk.evaluation import scoring_rules

    for mod in (S, scoring_rules):
        result = doctest.testmod(mod, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.failed == 0 and (mod is scoring_rules or result.attempted > 0), mod.__name__


def test_many_string_classes_in_a_given_order():
    # twelve string classes, classes= in an unsorted order, missing labels and float weights
    from tests._auc import pair_auc

    rng = np.random.default_rng(25)
    n, k = 240, 12
    names = [f"c{i:02d}" for i in rng.permutation(k)]
    y = np.array(names, dtype=object)[rng.integers(0, k, n)]
    y[rng.random(n) < 0.05] = None
    p = rng.dirichlet(np.ones(k), n).round(2)
    w = np.where(rng.random(n) < 0.1, 0.0, rng.uniform(0.5, 2.0, n))
    ds = S.auc_curves(y, p, classes=names, weights=w, windows=60, every=40)
    assert ds["class"].values.tolist() == names
    member = np.array([v is not None for v in y]) & (w > 0)
    for c, t in enumerate(ds.instance.values):
        idx = np.flatnonzero(member[:t])[-60:]
        for j, name in enumerate(names):
            ref = pair_auc(p[idx, j], y[idx], w[idx], name)
            np.testing.assert_allclose(ds.auc.sel(estimator="window=60").values[c, j], ref, rtol=1e-12, atol=1e-12)
