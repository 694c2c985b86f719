"""Q statistic and signed McNemar test over time (Gama et al. 2013, section 4) against references."""

from __future__ import annotations

import math

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import streamtk.comparison.compare as sc
from streamtk._core.adwin import check_adwin_options
from streamtk._core.mechanisms import build_estimators
from streamtk.evaluation.sums import SumsEngine, raw_sums

NAN = float("nan")


# ---------------------------------------------------------------------------- slow reference
def held_weights(t, kind, param):
    """Weights of instances 0..t held by an estimator at (compacted) position t."""
    s = np.arange(t + 1)
    if kind == "prequential":
        return np.ones(t + 1)
    if kind == "window":
        return (s > t - param).astype(float)
    return np.array([param ** (t - i) for i in s])


def ref_pair(la, lb, t, kind, param, threshold=3.841458820694124):
    """Every statistic of the pair from scratch, for instances 0..t (t = -1: nothing seen)."""
    if t < 0:
        return dict(
            q=NAN,
            loss_a=NAN,
            loss_b=NAN,
            error_difference=NAN,
            n_instances=0.0,
            n00=0.0,
            n01=0.0,
            n10=0.0,
            n11=0.0,
            mcnemar=NAN,
            p_value=NAN,
            reject=False,
        )
    w = held_weights(t, kind, param)
    a, b = np.asarray(la[: t + 1], float), np.asarray(lb[: t + 1], float)
    sa, sb, n = float(w @ a), float(w @ b), float(w.sum())
    n01 = float(w @ ((a == 1) & (b == 0)))
    n10 = float(w @ ((a == 0) & (b == 1)))
    n11 = float(w @ ((a == 1) & (b == 1)))
    n00 = float(w @ ((a == 0) & (b == 0)))
    if sa == 0 and sb == 0:
        q = NAN
    elif sb == 0:
        q = math.inf
    elif sa == 0:
        q = -math.inf
    else:
        q = math.log(sa / sb)
    if n01 + n10 > 0:
        m = math.copysign((n01 - n10) ** 2 / (n01 + n10), n01 - n10)
        p = float(stats.chi2.sf(abs(m), 1))
    else:
        m = p = NAN
    return dict(
        q=q,
        loss_a=sa / n,
        loss_b=sb / n,
        error_difference=(sa - sb) / n,
        n_instances=n,
        n00=n00,
        n01=n01,
        n10=n10,
        n11=n11,
        mcnemar=m,
        p_value=p,
        reject=bool(abs(m) > threshold) if not math.isnan(m) else False,
    )


SPECS = [("prequential", None), ("window", 3), ("window", 7), ("fading", 0.9), ("fading", 0.5)]


def check_against_reference(ds, la, lb, present, every, specs=SPECS, rtol=1e-9):
    n = len(present)
    pos = [p for p in range(n) if (p + 1) % every == 0]
    if not pos or pos[-1] != n - 1:
        pos.append(n - 1)
    assert ds.instance.values.tolist() == [p + 1 for p in pos]
    comp = np.cumsum(present) - 1
    for e, (kind, param) in enumerate(specs):
        for c, p in enumerate(pos):
            ref = ref_pair(la, lb, int(comp[p]), kind, param)
            for name, val in ref.items():
                got = ds[name].isel(estimator=e, time=c).item()
                if isinstance(val, bool):
                    assert got == val, (name, kind, param, p)
                else:
                    np.testing.assert_allclose(got, val, rtol=rtol, atol=1e-12, err_msg=f"{name} {kind}={param} t={p}")


def kw(specs=SPECS):
    return dict(windows=[p for k, p in specs if k == "window"], fading=[p for k, p in specs if k == "fading"])


# ---------------------------------------------------------------------------- references
@given(
    st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 2), st.booleans()), min_size=1, max_size=40
    ),
    st.integers(1, 5),
)
def test_compare_matches_reference(rows, every):
    y = np.array([r[0] for r in rows], dtype=object)
    a = np.array([r[1] for r in rows])
    b = np.array([r[2] for r in rows])
    present = np.array([not r[3] or i == 0 for i, r in enumerate(rows)])  # some labels missing
    y[~present] = None
    ds = sc.compare(y, a, b, every=every, classes=[0, 1, 2], **kw())
    yp = np.array([r[0] for r in rows])
    la = (a != yp)[present].astype(float)
    lb = (b != yp)[present].astype(float)
    check_against_reference(ds, la, lb, present, every)


@given(st.lists(st.tuples(st.floats(0, 10), st.floats(0, 10)), min_size=1, max_size=40), st.integers(1, 4))
def test_compare_losses_real_valued_matches_reference(rows, every):
    la = np.array([r[0] for r in rows])
    lb = np.array([r[1] for r in rows])
    ds = sc.compare_losses(la, lb, every=every, **kw())
    binary = bool(np.all(np.isin(la, [0, 1])) and np.all(np.isin(lb, [0, 1])))
    assert ("mcnemar" in ds) == binary
    n = len(la)
    pos = [p for p in range(n) if (p + 1) % every == 0]
    if not pos or pos[-1] != n - 1:
        pos.append(n - 1)
    for e, (kind, param) in enumerate(SPECS):
        for c, p in enumerate(pos):
            ref = ref_pair(la, lb, p, kind, param)
            if kind == "window":
                check_real_valued(ds.isel(estimator=e, time=c), ref, scale=la.sum() + lb.sum())
            else:  # prequential and fading sums never subtract: exact up to summation order
                for name in ("q", "loss_a", "loss_b", "n_instances"):
                    np.testing.assert_allclose(
                        ds[name].isel(estimator=e, time=c).item(), ref[name], rtol=1e-8, atol=1e-12
                    )


def test_binary_losses_given_equal_predictions_path():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 200)
    a = np.where(rng.random(200) < 0.3, 1 - y, y)
    b = np.where(rng.random(200) < 0.2, 1 - y, y)
    d1 = sc.compare(y, a, b, windows=20, fading=0.95, every=7)
    d2 = sc.compare_losses((a != y).astype(float), (b != y).astype(float), windows=20, fading=0.95, every=7)
    for v in d1.data_vars:
        np.testing.assert_array_equal(d1[v].values, d2[v].values)


# ---------------------------------------------------------------------------- hand-checked examples
# y  : 0 1 1 0 1 0 1 1
# A  : 1 1 0 0 0 0 1 0     A wrong at 0, 2, 4, 7
# B  : 0 1 0 0 1 1 1 1     B wrong at 2, 5
# lA : 1 0 1 0 1 0 0 1
# lB : 0 0 1 0 0 1 0 0
Y = np.array([0, 1, 1, 0, 1, 0, 1, 1])
A = np.array([1, 1, 0, 0, 0, 0, 1, 0])
B = np.array([0, 1, 0, 0, 1, 1, 1, 1])


def test_hand_example_prequential_table_q_and_mcnemar():
    ds = sc.compare(Y, A, B).isel(time=-1).sel(estimator="prequential")
    # both right at 1, 3, 6 -> n00 = 3; A wrong only at 0, 4, 7 -> n01 = 3; B wrong only at 5 -> n10 = 1;
    # both wrong at 2 -> n11 = 1
    assert [float(ds[v]) for v in ("n00", "n01", "n10", "n11")] == [3.0, 3.0, 1.0, 1.0]
    assert float(ds.q) == pytest.approx(math.log(4 / 2))  # S_A = 4, S_B = 2
    assert float(ds.mcnemar) == pytest.approx((3 - 1) ** 2 / 4)  # = 1.0, positive: A worse
    assert float(ds.p_value) == pytest.approx(math.erfc(math.sqrt(0.5)))  # P(chi2_1 > 1) = 0.3173
    assert float(ds.p_value) == pytest.approx(0.31731050786291415)
    assert not bool(ds.reject)
    assert float(ds.loss_a) == 0.5 and float(ds.loss_b) == 0.25


def test_hand_example_window_and_fading():
    ds = sc.compare(Y, A, B, windows=4, fading=0.5).isel(time=-1)
    w = ds.sel(estimator="window=4")  # instances 4..7: lA = 1 0 0 1, lB = 0 1 0 0
    assert [float(w[v]) for v in ("n00", "n01", "n10", "n11")] == [1.0, 2.0, 1.0, 0.0]
    assert float(w.q) == pytest.approx(math.log(2 / 1))
    assert float(w.mcnemar) == pytest.approx(1 / 3)
    f = ds.sel(estimator="fading=0.5")
    # faded sums with weights 0.5**(7 - s), s = 0..7 (newest weight 1)
    wts = 0.5 ** np.arange(7, -1, -1)
    la = np.array([1, 0, 1, 0, 1, 0, 0, 1.0])
    lb = np.array([0, 0, 1, 0, 0, 1, 0, 0.0])
    # S_A = 1 + 0.5**3 + 0.5**5 + 0.5**7 = 1.1640625 ; S_B = 0.5**2 + 0.5**5 = 0.28125
    assert wts @ la == 1.1640625 and wts @ lb == 0.28125
    assert float(f.q) == pytest.approx(math.log(1.1640625 / 0.28125))
    # the paper's recursion: Q_i = log((L_i(A) + alpha S_A(i-1)) / (L_i(B) + alpha S_B(i-1)))
    sa_prev, sb_prev = (1.1640625 - 1) / 0.5, 0.28125 / 0.5
    assert float(f.q) == pytest.approx(math.log((1 + 0.5 * sa_prev) / (0 + 0.5 * sb_prev)))
    n01 = 1 + 0.5**3 + 0.5**7  # A wrong, B right at 7, 4, 0
    n10 = 0.5**2  # B wrong, A right at 5
    assert float(f.n01) == pytest.approx(n01) and float(f.n10) == pytest.approx(n10)
    assert float(f.n11) == pytest.approx(0.5**5)
    assert float(f.n00) == pytest.approx(wts.sum() - n01 - n10 - 0.5**5)
    assert float(f.mcnemar) == pytest.approx((n01 - n10) ** 2 / (n01 + n10))


def test_mcnemar_threshold_and_reject():
    assert sc.mcnemar_threshold(0.01) == pytest.approx(6.635, abs=5e-4)
    assert sc.mcnemar_threshold(0.05) == pytest.approx(3.841, abs=5e-4)
    # n01 = 10, n10 = 1 -> M = 81/11 = 7.36 > 6.635: reject at 1%; n01 = 8, n10 = 2 -> 3.6: not at 1%, at 10%
    la = np.r_[np.ones(10), np.zeros(1), np.zeros(5)]
    lb = np.r_[np.zeros(10), np.ones(1), np.zeros(5)]
    d = sc.compare_losses(la, lb).isel(time=-1, estimator=0)
    assert float(d.mcnemar) == pytest.approx(81 / 11) and bool(d.reject)
    assert float(d.p_value) == pytest.approx(stats.chi2.sf(81 / 11, 1))
    d = sc.compare_losses(lb, la).isel(time=-1, estimator=0)
    assert float(d.mcnemar) == pytest.approx(-81 / 11) and bool(d.reject)  # B worse, still rejected
    la = np.r_[np.ones(8), np.zeros(2)]
    d = sc.compare_losses(la, 1 - la).isel(time=-1, estimator=0)
    assert float(d.mcnemar) == pytest.approx(3.6) and not bool(d.reject)
    d = sc.compare_losses(la, 1 - la, alpha=0.1).isel(time=-1, estimator=0)
    assert bool(d.reject) and d.attrs["mcnemar_threshold"] == pytest.approx(stats.chi2.isf(0.1, 1))


def test_undefined_cases_are_nan():
    z = np.zeros(5)
    d = sc.compare_losses(z, z, windows=2).isel(time=-1)
    assert np.isnan(d.q).all() and np.isnan(d.mcnemar).all() and np.isnan(d.p_value).all()
    assert not d.reject.any()
    d = sc.compare_losses(z, np.ones(5)).isel(time=-1, estimator=0)
    assert float(d.q) == -math.inf and float(d.mcnemar) == -5.0
    # nothing evaluated yet (first label missing): every statistic undefined, counts 0
    d = sc.compare(np.array([None, 1, 0], dtype=object), np.array([1, 1, 1]), np.array([0, 0, 0])).isel(time=0)
    assert np.isnan(d.q).all() and np.isnan(d.loss_a).all() and float(d.n_instances[0]) == 0.0


# ---------------------------------------------------------------------------- properties
pairs = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=1, max_size=50)


@given(pairs)
def test_antisymmetry(rows):
    la = np.array([r[0] for r in rows], float)
    lb = np.array([r[1] for r in rows], float)
    ab = sc.compare_losses(la, lb, windows=5, fading=(0.9, 1.0))
    ba = sc.compare_losses(lb, la, windows=5, fading=(0.9, 1.0))
    np.testing.assert_allclose(ab.q, -ba.q, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ab.mcnemar, -ba.mcnemar, rtol=1e-12)
    np.testing.assert_array_equal(ab.n01, ba.n10)
    np.testing.assert_array_equal(ab.n00, ba.n00)
    np.testing.assert_array_equal(ab.n11, ba.n11)
    np.testing.assert_array_equal(ab.reject, ba.reject)


@given(st.lists(st.integers(0, 3), min_size=1, max_size=50), st.lists(st.integers(0, 3), min_size=50, max_size=50))
def test_identical_models(y, p):
    y = np.array(y)
    p = np.array(p[: len(y)])
    d = sc.compare(y, p, p.copy(), windows=4, fading=0.8, classes=[0, 1, 2, 3])
    assert (d.n01 == 0).all() and (d.n10 == 0).all()
    q = d.q.values
    defined = d.loss_a.values > 0
    assert (q[defined] == 0).all() and np.isnan(q[~defined]).all()
    assert np.isnan(d.mcnemar).all() and not d.reject.any()


@given(pairs, st.integers(1, 4))
def test_fading_one_equals_prequential_and_long_window_too(rows, every):
    la = np.array([r[0] for r in rows], float)
    lb = np.array([r[1] for r in rows], float)
    d = sc.compare_losses(la, lb, windows=len(rows) + 3, fading=1.0, every=every)
    for v in d.data_vars:
        pre = d[v].sel(estimator="prequential").values
        np.testing.assert_array_equal(d[v].sel(estimator="fading=1.0").values, pre)
        np.testing.assert_array_equal(d[v].isel(estimator=1).values, pre)


@given(st.lists(st.tuples(st.floats(0, 3), st.floats(0, 3)), min_size=2, max_size=60), st.data())
def test_sums_engine_chunked_equals_one_pass(rows, data):
    loss = np.array(rows, dtype=np.float64).T.copy()  # (2, T)
    T = loss.shape[1]
    specs = build_estimators(windows=[2, 5], fading=[0.7], tumbling=[3], landmarks=[1, 4], adwin=[0.3])
    groups = np.array([[0, 1], [1, 0]])

    def engine():
        return SumsEngine(specs, 1, check_adwin_options({"clock": 1}), **raw_sums(2))

    one = engine()
    one.update(loss, groups, last=True)
    cut = data.draw(st.integers(1, T - 1))
    two = engine()
    two.update(np.ascontiguousarray(loss[:, :cut]), groups)
    two.update(np.ascontiguousarray(loss[:, cut:]), groups)
    p1, r1 = one.collect()
    p2, r2 = two.collect()
    np.testing.assert_array_equal(p1, p2)
    for name in r1:
        np.testing.assert_array_equal(r1[name], r2[name])


# ---------------------------------------------------------------------------- all pairs
def test_model_dim_all_pairs_equal_two_model_calls():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 3, 120)
    P = np.where(rng.random((2, 4, 120)) < 0.4, rng.integers(0, 3, (2, 4, 120)), y)
    da = xr.DataArray(P, dims=("run", "model", "t"), coords={"model": list("wxyz"), "run": [10, 20]})
    ds = sc.compare(y, da, windows=15, fading=0.97, every=10)
    assert ds.q.dims == ("run", "model_a", "model_b", "estimator", "time")
    assert ds.model_a.values.tolist() == list("wxyz") and ds.run.values.tolist() == [10, 20]
    for r in range(2):
        for a in range(4):
            for b in range(4):
                ref = sc.compare(y, P[r, a], P[r, b], windows=15, fading=0.97, every=10)
                got = ds.isel(run=r, model_a=a, model_b=b)
                for v in ref.data_vars:
                    np.testing.assert_allclose(got[v].values, ref[v].values, rtol=1e-12, atol=0, err_msg=v)
    # mirrors: M and the counts exactly, Q to rounding (log(x/y) vs -log(y/x))
    mirror = ds.transpose("run", "model_b", "model_a", ...)
    np.testing.assert_array_equal(ds.mcnemar.values, -mirror.mcnemar.values)
    np.testing.assert_array_equal(ds.n01.values, mirror.n10.values)
    np.testing.assert_allclose(ds.q.values, -mirror.q.values, rtol=1e-14, atol=1e-15)
    diag = ds.isel(model_a=1, model_b=1)
    assert (diag.n01 == 0).all() and np.isnan(diag.mcnemar).all()


def test_two_model_leading_dims_and_netcdf(tmp_path):
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 60)
    a = rng.integers(0, 2, (3, 60))
    b = rng.integers(0, 2, (3, 60))
    ds = sc.compare(y, a, b, lead_dims="fold", windows=10, every=6)
    assert ds.q.dims == ("fold", "estimator", "time") and ds.sizes["time"] == 10
    for f in range(3):
        ref = sc.compare(y, a[f], b[f], windows=10, every=6)
        np.testing.assert_array_equal(ds.mcnemar.isel(fold=f).values, ref.mcnemar.values)
    path = tmp_path / "cmp.nc"
    ds.to_netcdf(path)
    back = xr.load_dataset(path)
    np.testing.assert_array_equal(back.q.values, ds.q.values)
    np.testing.assert_array_equal(back.reject.values, ds.reject.values)


# ---------------------------------------------------------------------------- errors
def test_bad_inputs_raise_naming_the_argument():
    y = np.array([0, 1, 1])
    with pytest.raises(ValueError, match="alpha must be in"):
        sc.compare(y, y, y, alpha=1.5)
    with pytest.raises(ValueError, match="y_pred_b has 2 instances"):
        sc.compare(y, y, y[:2])
    with pytest.raises(ValueError, match="give the second model"):
        sc.compare(y, y)
    with pytest.raises(ValueError, match="'model' dimension"):
        sc.compare(y, np.stack([y, y]), lead_dims="models")
    with pytest.raises(TypeError, match="unexpected keyword argument 'model_dim'"):
        sc.compare(y, y, y, model_dim="model")
    with pytest.raises(ValueError, match="NaN .* at different positions"):
        sc.compare_losses(np.array([0.0, np.nan]), np.zeros(2))
    with pytest.raises(ValueError, match="loss_b contains an infinite value at index"):
        sc.compare_losses(np.zeros(2), np.array([0.0, np.inf]))
    with pytest.raises(TypeError, match="loss_a must be numeric"):
        sc.compare_losses(np.array(["a", "b"]), np.zeros(2))
    with pytest.raises(ValueError, match="windows must be a positive integer, got 0"):
        sc.compare_losses(np.zeros(2), np.zeros(2), windows=0)
    with pytest.raises(ValueError, match="leading dimensions do not agree"):
        sc.compare_losses(np.zeros((2, 3)), np.zeros((3, 3)))


def test_forgetting_lets_mcnemar_fall_back_after_recovery():
    """Gama et al. 2013, section 4.2 (Figs. 6-7): once the cumulative M crosses 6.635 it stays there, while
    windowed and faded statistics fall back when the two learners perform alike again."""
    rng = np.random.default_rng(11)
    n1, n2, n3 = 4000, 2000, 6000
    # A: error 0.1 / 0.4 (does not adapt to the drift) / 0.1; B: 0.1 throughout (detects and relearns)
    la = np.r_[rng.random(n1) < 0.1, rng.random(n2) < 0.4, rng.random(n3) < 0.1].astype(float)
    lb = (rng.random(n1 + n2 + n3) < 0.1).astype(float)
    ds = sc.compare_losses(la, lb, windows=1000, fading=0.999, every=500)
    at = ds.instance.values
    pre = ds.mcnemar.sel(estimator="prequential").values
    win = ds.mcnemar.sel(estimator="window=1000").values
    fad = ds.mcnemar.sel(estimator="fading=0.999").values
    thr = 6.634896601021217
    drift_seen = at == n1 + n2
    assert pre[drift_seen] > thr and win[drift_seen] > thr and fad[drift_seen] > thr
    assert (pre[at >= n1 + n2] > thr).all()  # the cumulative statistic never comes back
    assert abs(win[-1]) < thr and abs(fad[-1]) < thr  # the forgetting ones do
    q = ds.q.sel(estimator="window=1000").values
    assert q[drift_seen] > 0.5 and abs(q[-1]) < 0.3  # A had the larger loss, then about the same


# ---------------------------------------------------------------------------- chunked
@given(
    st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 2), st.booleans()), min_size=1, max_size=40
    ),
    st.integers(1, 5),
    st.lists(st.integers(0, 40), max_size=4),
)
def test_chunked_equals_one_pass(rows, every, cuts):
    y = np.array([None if miss else r for r, _, _, miss in rows], dtype=object)
    preds = np.array([[r[1] for r in rows], [r[2] for r in rows], [r[0] for r in rows]])
    t = xr.DataArray(y, dims="time", coords={"stamp": ("time", np.arange(len(rows)) * 10)})
    one = sc.compare(t, preds, windows=(2, 5), fading=0.7, every=every)
    cmp = sc.Comparator(windows=(2, 5), fading=0.7, every=every)
    bounds = [0] + sorted(c for c in cuts if c < len(rows)) + [len(rows)]
    for b0, b1 in zip(bounds[:-1], bounds[1:]):
        cmp.update(t[b0:b1], preds[:, b0:b1])
    chunked = cmp.result()
    xr.testing.assert_identical(chunked.drop_attrs(), one.drop_attrs())
    assert chunked.stamp.values.tolist() == one.stamp.values.tolist()


@given(st.lists(st.tuples(st.floats(0, 5), st.floats(0, 5)), min_size=2, max_size=30), st.integers(1, 29))
def test_chunked_losses_equal_one_pass_and_result_does_not_consume(rows, cut):
    la = np.array([r[0] for r in rows])
    lb = np.array([r[1] for r in rows])
    cut = min(cut, len(rows) - 1)
    one = sc.compare_losses(la, lb, windows=3, fading=0.9, every=4)
    cmp = sc.Comparator(windows=3, fading=0.9, every=4).update_losses(la[:cut], lb[:cut])
    early = cmp.result()
    xr.testing.assert_identical(
        early.drop_attrs(), sc.compare_losses(la[:cut], lb[:cut], windows=3, fading=0.9, every=4).drop_attrs()
    )
    chunked = cmp.update_losses(la[cut:], lb[cut:]).result()
    xr.testing.assert_identical(chunked.drop_attrs(), one.drop_attrs())


def test_comparator_errors():
    cmp = sc.Comparator(every=1)
    with pytest.raises(ValueError, match="nothing to compare yet"):
        cmp.result()
    cmp.update([0, 1], [0, 0], [1, 1])
    with pytest.raises(ValueError, match="either predictions .* or losses"):
        cmp.update_losses([0.0], [1.0])
    with pytest.raises(ValueError, match="leading dims changed"):
        cmp.update([0], [[0], [1]], [[0], [1]])


@given(st.lists(st.tuples(st.floats(0, 5), st.floats(0, 5), st.booleans()), min_size=1, max_size=30))
def test_nan_losses_are_skipped(rows):
    la = np.array([np.nan if m else a for a, _, m in rows])
    lb = np.array([np.nan if m else b for _, b, m in rows])
    present = ~np.isnan(la)
    ds = sc.compare_losses(la, lb, windows=3, fading=0.6)
    comp = np.cumsum(present) - 1
    for e, (kind, param) in enumerate([("prequential", None), ("window", 3), ("fading", 0.6)]):
        for t in range(len(rows)):
            ref = ref_pair(la[present], lb[present], int(comp[t]), kind, param)
            check_real_valued(ds.isel(estimator=e, time=t), ref, scale=np.nansum(la) + np.nansum(lb))


def check_real_valued(got, ref, scale):
    """Mean losses to the rounding of a running window sum; Q where that rounding cannot decide it."""
    tol = 1e-12 * (1 + scale)  # Algorithm 2 keeps a residue of the losses that left the window
    for name in ("loss_a", "loss_b", "n_instances"):
        np.testing.assert_allclose(got[name].item(), ref[name], rtol=1e-9, atol=tol, err_msg=name)
    n = ref["n_instances"]
    if n and ref["loss_a"] * n > 1e3 * tol and ref["loss_b"] * n > 1e3 * tol:
        np.testing.assert_allclose(got.q.item(), ref["q"], rtol=1e-6, atol=1e-9)
