"""Label-dependence diagnostics (streamtk.dependence.label_dependence) against slow references and Table 3."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

from streamtk.dependence.label_dependence import LabelDependence, label_dependence, quick_test


# ----------------------------------------------------------------------------- reference
def ref_stats(codes, k, max_lag, kind, param, t_inst):
    """Direct definitions over the first ``t_inst`` instances with explicit weights."""
    pres = [(i, c) for i, c in enumerate(codes[:t_inst]) if c >= 0]
    m = len(pres)
    w = np.zeros(m)
    for j, (_i, _) in enumerate(pres):
        if kind == "prequential":
            w[j] = 1.0
        elif kind == "window":
            w[j] = 1.0 if j >= m - param else 0.0
        else:
            w[j] = param ** (m - 1 - j)  # age in present labels
    lab = [c for _, c in pres]
    cnt = np.zeros(k)
    trans = np.zeros((k, k))
    big_n = np.zeros((max_lag, k))
    big_h = np.zeros((max_lag, k))
    for j in range(m):
        cnt[lab[j]] += w[j]
        if j >= 1:
            trans[lab[j - 1], lab[j]] += w[j]
        for ell in range(1, max_lag + 1):
            if j - ell < 0:
                break
            i = lab[j - 1]
            if all(lab[j - q] == i for q in range(1, ell + 1)):
                big_n[ell - 1, i] += w[j]
                if lab[j] == i:
                    big_h[ell - 1, i] += w[j]
    return cnt, trans, big_n, big_h


def nan_close(a, b, rtol=1e-9, atol=1e-12):
    np.testing.assert_allclose(np.asarray(a, float), np.asarray(b, float), rtol=rtol, atol=atol, equal_nan=True)


def check_against_reference(ds, codes, k, max_lag):
    for e, (kind, param) in enumerate(zip(ds["estimator_kind"].values, ds["estimator_param"].values)):
        param = int(param) if kind == "window" else float(param)
        for ti, t_inst in enumerate(ds["instance"].values):
            cnt, trans, big_n, big_h = ref_stats(codes, k, max_lag, kind, param, int(t_inst))
            sub = ds.isel(estimator=e, time=ti)
            tot = cnt.sum()
            nan_close(sub["n_labels"], tot)
            with np.errstate(invalid="ignore", divide="ignore"):
                prior = cnt / tot if tot > 0 else np.full(k, np.nan)
                rows = trans.sum(1)
                tr = np.where(rows[:, None] > 0, trans / rows[:, None], np.nan)
                ntr = trans.sum()
                p_t = np.trace(trans) / ntr if ntr > 0 else np.nan
                p_run = np.where(big_n > 0, big_h / big_n, np.nan)
            nan_close(sub["prior"], prior)
            nan_close(sub["p_m"], prior.max() if tot > 0 else np.nan)
            if tot > 0:
                assert sub["majority_class"].item() == ds["class"].values[int(np.argmax(cnt))]
            nan_close(sub["transition"], tr)
            nan_close(sub["n_transitions"], ntr)
            nan_close(sub["p_t"], p_t)
            nan_close(sub["n_run"], big_n)
            nan_close(sub["p_run"], p_run)
            lower = np.vstack((prior[None], p_run[:-1]))
            nan_close(sub["evidence"], p_run - lower)


label_lists = st.lists(st.integers(-1, 2), min_size=1, max_size=40).filter(lambda v: any(c >= 0 for c in v))


@given(
    codes=label_lists,
    max_lag=st.integers(1, 4),
    window=st.integers(1, 8),
    alpha=st.sampled_from([0.5, 0.9, 1.0]),
    every=st.one_of(st.none(), st.integers(1, 7)),
)
def test_matches_reference(codes, max_lag, window, alpha, every):
    y = np.array([np.nan if c < 0 else c for c in codes])
    ds = label_dependence(y, max_lag=max_lag, windows=window, fading=alpha, every=every, classes=[0, 1, 2])
    check_against_reference(ds, np.array(codes), 3, max_lag)
    n = len(codes)
    step = every or 1  # the default spacing is every instance for short streams
    expected = list(range(step, n + 1, step))
    if not expected or expected[-1] != n:
        expected.append(n)
    assert ds["instance"].values.tolist() == expected


@given(
    codes=label_lists,
    cuts=st.lists(st.integers(0, 40), max_size=4),
    every=st.one_of(st.none(), st.integers(1, 5)),
)
def test_chunked_equals_one_pass(codes, cuts, every):
    y = np.array([np.nan if c < 0 else c for c in codes])
    kw = dict(max_lag=3, windows=(2, 5), fading=(0.7,), every=every)
    one = label_dependence(y, classes=[0, 1, 2], **kw)
    acc = LabelDependence([0, 1, 2], n_instances=len(y), **kw)
    bounds = sorted({0, len(y), *[c for c in cuts if c <= len(y)]})
    for a, b in zip(bounds[:-1], bounds[1:]):
        acc.update(y[a:b])
        acc.result()  # intermediate results must not change the final one
    chunked = acc.result()
    for name in one.data_vars:
        np.testing.assert_array_equal(one[name].values, chunked[name].values, err_msg=name)
    np.testing.assert_array_equal(one["instance"].values, chunked["instance"].values)


def test_known_answer():
    ds = label_dependence([0, 0, 0, 1, 1, 0, 0, 0], max_lag=2, every=10**9).isel(estimator=0, time=-1)
    assert ds["p_t"].item() == pytest.approx(5 / 7)
    assert ds["p_m"].item() == pytest.approx(6 / 8)
    np.testing.assert_allclose(ds["transition"].values, [[4 / 5, 1 / 5], [1 / 2, 1 / 2]])
    # class 0: runs before t: 1,2,3 (ends),1,2 -> P_1 = 4/5, P_2 = 2/3; class 1: P_1 = 1/2, P_2 = 0/1
    np.testing.assert_allclose(ds["p_run"].values, [[4 / 5, 1 / 2], [2 / 3, 0.0]])
    np.testing.assert_allclose(ds["evidence"].values, [[4 / 5 - 6 / 8, 1 / 2 - 2 / 8], [2 / 3 - 4 / 5, -1 / 2]])


def test_window_at_least_n_and_alpha_one_equal_prequential():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 300)
    ds = label_dependence(y, max_lag=4, windows=300, fading=1.0, every=50)
    for name in ds.data_vars:
        v = ds[name].values
        np.testing.assert_array_equal(v[0], v[1], err_msg=name)
        np.testing.assert_array_equal(v[0], v[2], err_msg=name)


def test_relabelling_invariance():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 200)
    names = np.array(["c", "a", "b"])
    ds1 = label_dependence(y, max_lag=3, classes=[0, 1, 2], every=10**9)
    ds2 = label_dependence(names[y], max_lag=3, classes=["c", "a", "b"], every=10**9)
    for name in ("prior", "transition", "p_t", "p_m", "p_run", "evidence"):
        np.testing.assert_array_equal(ds1[name].values, ds2[name].values)


def markov_chain(a, n, rng, start=0):
    a = np.asarray(a)
    cum = np.cumsum(a, 1)
    u = rng.random(n)
    y = np.empty(n, dtype=np.int64)
    s = start
    for t in range(n):
        y[t] = s
        s = int(np.searchsorted(cum[s], u[t], side="right"))
    return y


def stationary(a):
    vals, vecs = np.linalg.eig(np.asarray(a).T)
    v = np.real(vecs[:, np.argmin(np.abs(vals - 1))])
    return v / v.sum()


def test_first_order_chain_evidence():
    a = np.array([[0.9, 0.05, 0.05], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6]])
    y = markov_chain(a, 200_000, np.random.default_rng(5))
    ds = label_dependence(y, max_lag=5, every=10**9).isel(estimator=0, time=-1)
    pi = stationary(a)
    np.testing.assert_allclose(ds["transition"].values, a, atol=0.01)
    np.testing.assert_allclose(ds["prior"].values, pi, atol=0.01)
    assert ds["p_t"].item() == pytest.approx(float(np.sum(pi * np.diag(a))), abs=0.01)
    ev = ds["evidence"].values
    np.testing.assert_allclose(ev[0], np.diag(a) - pi, atol=0.01)
    assert (ev[0] > 0.1).all()
    assert np.abs(ev[1:]).max() < 0.02


def test_second_order_chain_shows_order_two():
    # y_t repeats y_{t-1} with prob 0.9 if y_{t-1} == y_{t-2}, else 0.5 (binary)
    rng = np.random.default_rng(6)
    n = 100_000
    y = np.zeros(n, dtype=np.int64)
    u = rng.random(n)
    for t in range(2, n):
        p = 0.9 if y[t - 1] == y[t - 2] else 0.5
        y[t] = y[t - 1] if u[t] < p else 1 - y[t - 1]
    ev = label_dependence(y, max_lag=4, every=10**9).isel(estimator=0, time=-1)["evidence"].values
    # P_1 = 0.9 q + 0.5 (1 - q) with q = P_1 (stationary) -> 5/6; P_2 = P_3 = ... = 0.9
    np.testing.assert_allclose(ev[1], 0.9 - 5 / 6, atol=0.01)  # order 2 present
    assert np.abs(ev[2:]).max() < 0.02


def test_iid_stream_has_no_dependence():
    y = np.random.default_rng(7).choice(3, size=100_000, p=[0.5, 0.3, 0.2])
    ds = label_dependence(y, max_lag=3, every=10**9).isel(estimator=0, time=-1)
    assert np.abs(ds["evidence"].values).max() < 0.02
    assert ds["p_t"].item() == pytest.approx(0.25 + 0.09 + 0.04, abs=0.01)  # eq. 8


def test_missing_labels_are_skipped():
    y = np.array([0, np.nan, 0, 1, np.nan, np.nan, 1, 0], dtype=float)
    ds = label_dependence(y, max_lag=2, every=10**9)
    ref = label_dependence([0, 0, 1, 1, 0], max_lag=2, every=10**9)
    for name in ("prior", "transition", "p_t", "p_run", "evidence", "n_labels"):
        np.testing.assert_array_equal(ds[name].values, ref[name].values)
    assert ds.attrs["n_present_labels"] == 5 and ds.attrs["n_instances"] == 8


def test_undefined_is_nan():
    ds = label_dependence([1], max_lag=2, classes=[0, 1], every=10**9).isel(estimator=0, time=0)
    assert np.isnan(ds["p_t"].item())
    assert np.isnan(ds["transition"].values).all()
    assert np.isnan(ds["p_run"].values).all()
    np.testing.assert_array_equal(ds["prior"].values, [0.0, 1.0])


def test_fading_clock_counts_present_labels():
    ds = label_dependence(
        np.array([0, np.nan, 1, np.nan, np.nan]), max_lag=1, fading=0.5, prequential=False, every=10**9
    )
    # missing labels do not advance the clock: weights 0.5 (label 0) and 1 (label 1)
    assert ds["n_labels"].item() == 1.5


def test_labelled_output_roundtrips_netcdf(tmp_path):
    ds = label_dependence(["a", "b", "b", "a", "a"], max_lag=2, windows=3, every=2)
    assert ds["instance"].values.tolist() == [2, 4, 5]
    assert ds["estimator"].values.tolist() == ["prequential", "window=3"]
    assert ds["p_t"].attrs["long_name"].startswith("P(T)")
    path = tmp_path / "dep.nc"
    ds.to_netcdf(path)
    with xr.open_dataset(path) as back:
        xr.testing.assert_allclose(back["p_t"], ds["p_t"])


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        (dict(max_lag=0), ValueError, "max_lag must be a positive integer, got 0"),
        (dict(max_lag=2.0), TypeError, "max_lag must be an integer"),
        (dict(every=0), ValueError, "every must be a positive integer, got 0"),
        (dict(windows=0), ValueError, "windows must be a positive integer, got 0"),
        (dict(fading=1.5), ValueError, r"fading must be in \(0, 1\], got 1.5"),
        (dict(classes=[0]), ValueError, "not one of the classes"),
    ],
)
def test_bad_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        label_dependence([0, 1, 1], **kwargs)


def test_two_dimensional_labels_refused():
    with pytest.raises(ValueError, match="one-dimensional"):
        label_dependence(np.zeros((2, 3)), every=10**9)


def test_quick_test_known_answer():
    y = [0, 0, 1, 1, 1, 0]
    ds = quick_test(y + [1] * 10, m=6)
    # majority (cumulative, test-then-train): 0 0 0 0 0 1 -> hits at t=0,1 -> 2/6
    # persistent: 0 0 0 1 1 1 -> hits at t=0,1,3,4 -> 4/6
    assert ds["p_maj"].item() == pytest.approx(2 / 6)
    assert ds["p_per"].item() == pytest.approx(4 / 6)
    assert bool(ds["temporal_dependence"])
    assert ds["p_t"].item() == pytest.approx(3 / 5)
    assert ds.attrs["m"] == 6
    iid = np.random.default_rng(8).choice(2, size=100, p=[0.8, 0.2])
    assert not bool(quick_test(iid)["temporal_dependence"])


# ----------------------------------------------------------------------------- real data
TABLE3 = {  # dataset: (P(M), P(T), decimals) -- Zliobaite et al. 2015, Table 3
    "electricity": (0.58, 0.85, 2),
    "ozone": (0.97, 0.95, 2),
}


@pytest.mark.parametrize("name", sorted(TABLE3))
def test_table3_small(data_dir, name):
    from streamtk.datasets import load_labels

    p_m, p_t, dec = TABLE3[name]
    ds = label_dependence(load_labels(name, path=data_dir), max_lag=1, every=10**9).isel(estimator=0, time=-1)
    assert round(ds["p_m"].item(), dec) == p_m
    assert round(ds["p_t"].item(), dec) == p_t


@pytest.mark.slow
def test_table3_covertype_kdd99(data_dir):
    """Covertype 0.49 / 0.95 as printed. KDD99: the paper prints 0.56 / 0.99, which are the
    values 0.5684 / 0.9989 *truncated* (Elec2's 0.5755 is *rounded* to 0.58), and counts
    494,020 instances where the UCI 10% file has 494,021; rounded, our values are 0.57 and
    0.999 (and truncation to two decimals gives the paper's 0.56 / 0.99)."""
    from streamtk.datasets import load_labels

    cov = label_dependence(load_labels("covertype", path=data_dir), max_lag=1, every=10**9).isel(estimator=0, time=-1)
    assert round(cov["p_m"].item(), 2) == 0.49 and round(cov["p_t"].item(), 2) == 0.95
    kdd = label_dependence(load_labels("kdd99", path=data_dir), max_lag=1, every=10**9).isel(estimator=0, time=-1)
    assert kdd.attrs["n_instances"] == 494_021
    assert round(kdd["p_m"].item(), 2) == 0.57 and round(kdd["p_t"].item(), 3) == 0.999
    assert np.floor(kdd["p_m"].item() * 100) / 100 == 0.56 and np.floor(kdd["p_t"].item() * 100) / 100 == 0.99


def test_electricity_exact_counts(data_dir):
    from streamtk.datasets import load_labels

    ds = label_dependence(load_labels("electricity", path=data_dir), max_lag=48, every=10**9).isel(estimator=0, time=-1)
    assert ds["n_transitions"].item() == 45_311
    assert ds["p_t"].item() * 45_311 == pytest.approx(38_664)
    ev = ds["evidence"]
    # Figure 5: strong first-order, some second-order, almost nothing beyond
    assert (ev.sel(lag=1) > 0.2).all()
    assert ((ev.sel(lag=2) > 0.01) & (ev.sel(lag=2) < 0.05)).all()
    assert float(np.abs(ev.sel(lag=slice(3, 20))).max()) < 0.02
    # section 6.8: "Delta(48) = 0.02" (class 0 = DOWN; the UP class has no run of 43+ labels)
    assert round(float(ev.sel(lag=48, **{"class": 0})), 2) == 0.02
    assert np.isnan(ev.sel(lag=48, **{"class": 1}))


def test_chunk_boundary_after_missing_labels_with_fading():
    # the second chunk has no missing label but follows two missing instances (fast path)
    y = np.array([0, 1, np.nan, np.nan, 1, 1, 0, 2])
    kw = dict(max_lag=2, fading=(0.6,), windows=(3,), every=3, classes=[0, 1, 2])
    one = label_dependence(y, **kw)
    acc = LabelDependence(**kw)
    acc.update(y[:4])
    acc.update(y[4:])
    two = acc.result()
    for name in one.data_vars:
        np.testing.assert_array_equal(one[name].values, two[name].values, err_msg=name)
    check_against_reference(one, np.array([0, 1, -1, -1, 1, 1, 0, 2]), 3, 2)


def test_integer_fast_path_equals_general_encoding():
    y = np.random.default_rng(12).integers(0, 4, 300)
    fast = label_dependence(y, max_lag=3, windows=7, classes=[0, 1, 2, 3], every=10**9)
    general = label_dependence(y.astype(float), max_lag=3, windows=7, classes=[0.0, 1.0, 2.0, 3.0], every=10**9)
    for name in ("prior", "transition", "p_t", "p_run", "evidence", "n_labels"):
        np.testing.assert_array_equal(fast[name].values, general[name].values)
    with pytest.raises(ValueError, match="label 5, which is not one of the classes"):
        label_dependence(np.array([0, 5, 1]), classes=[0, 1, 2], every=10**9)
    with pytest.raises(ValueError, match="label -1, which is not one of the classes"):
        label_dependence(np.array([0, -1, 1]), classes=[0, 1, 2], every=10**9)
