"""Noise filter and the Type I / II error harness (Bifet et al. 2015, section 4.1)."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

from streamtk.kfold.assignments import fold_assignments
from streamtk.kfold.experiments import fold_comparison, rejection_rates, rejection_table
from streamtk.kfold.noise import expected_noisy_accuracy, noise_filter
from streamtk.stats import mcnemar_test, sign_test, wilcoxon_test

# ---------------------------------------------------------------- noise filter


@pytest.mark.parametrize("c,p0,pn", [(2, 0.9, 0.1), (4, 0.8, 0.05), (7, 0.6, 0.3)])
def test_noise_filter_expected_accuracy(c, p0, pn):
    rng = np.random.default_rng(c)
    n = 400_000
    y = rng.integers(0, c, n)
    pred = np.where(rng.random(n) < p0, y, (y + rng.integers(1, c, n)) % c)
    acc0 = (pred == y).mean()
    noisy = noise_filter(pred, pn, classes=c, seed=1)
    exact = expected_noisy_accuracy(acc0, pn, c)
    assert exact == pytest.approx(acc0 * (1 - pn) + pn / c)
    sd = np.sqrt(exact * (1 - exact) / n)
    assert abs((noisy == y).mean() - exact) < 5 * sd
    # the paper's formula drops the p0 * pn / c correct predictions redrawn onto the true class
    paper = expected_noisy_accuracy(acc0, pn, c, formula="paper")
    assert exact - paper == pytest.approx(acc0 * pn / c)
    assert abs((noisy == y).mean() - paper) > 5 * sd
    # flipped predictions are uniform over the c classes (the flips: the first draws of the seed, as documented)
    flipped = noisy[np.random.default_rng(1).random(n) < pn]
    assert abs(np.bincount(flipped, minlength=c) / flipped.size - 1 / c).max() < 5 * np.sqrt(1 / (c * flipped.size))


def test_paper_formula_slope():
    # Bifet et al. 2015: (p0 - p) / p_noise = ((c + 1) p0 - 1) / c for the paper's p
    for c in (2, 3, 10):
        for p0 in (0.3, 0.75):
            p = expected_noisy_accuracy(p0, 0.1, c, formula="paper")
            assert (p0 - p) / 0.1 == pytest.approx(((c + 1) * p0 - 1) / c)


def test_noise_filter_labels_shapes_and_seeding():
    pred = np.array([["a", "b", "c", "a"] * 50] * 3)
    out = noise_filter(pred, 0.5, classes=["a", "b", "c"], seed=4)
    assert out.shape == pred.shape and set(np.unique(out)) <= {"a", "b", "c"}
    np.testing.assert_array_equal(out, noise_filter(pred, 0.5, classes=["a", "b", "c"], seed=4))
    np.testing.assert_array_equal(noise_filter(pred, 0.0, classes=["a", "b", "c"], seed=4), pred)
    # nested flips: a prediction changed at p = 0.1 has also been redrawn at p = 0.3 (same seed)
    codes = np.arange(1000) % 5
    lo = noise_filter(codes, 0.1, classes=5, seed=7) != codes
    hi = noise_filter(codes, 0.3, classes=5, seed=7) != codes
    assert not np.any(lo & ~hi)
    da = xr.DataArray(codes[None], dims=("fold", "time"))
    out_da = noise_filter(da, 0.2, classes=5, seed=7)
    assert out_da.dims == da.dims and out_da.attrs["noise_p"] == 0.2
    with pytest.raises(ValueError, match="p_noise must be in"):
        noise_filter(codes, 1.5, classes=5, seed=1)
    with pytest.raises(TypeError, match="seed"):
        noise_filter(codes, 0.1, classes=5, seed=None)
    with pytest.raises(TypeError, match="both be numeric"):
        noise_filter(codes, 0.1, classes=["a", "b"], seed=1)


# ---------------------------------------------------------------- harness


def _logs(seed, runs=4, k=5, n=400, c=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, c, (runs, n))
    pa = np.where(rng.random((runs, k, n)) < 0.8, y[:, None], rng.integers(0, c, (runs, k, n)))
    pb = np.where(rng.random((runs, k, n)) < 0.7, y[:, None], rng.integers(0, c, (runs, k, n)))
    mask = np.stack(
        [fold_assignments(n, k, scheme="bootstrap", prequential=False, seed=r).test_mask.values for r in range(runs)]
    )
    return y, pa, pb, mask


@pytest.mark.parametrize("shared_stream", [False, True])
def test_fold_comparison_against_hand_counts(shared_stream):
    y, pa, pb, mask = _logs(0)
    if shared_stream:
        y = y[0]
        yy = np.broadcast_to(y, (pa.shape[0], y.size))
        yt = y
    else:
        yy = y
        yt = xr.DataArray(y, dims=("run", "time"))
    comp = fold_comparison(yt, pa, pb, mask, classes=[0, 1, 2])
    assert comp.score_a.dims == ("run", "fold")
    for r in range(pa.shape[0]):
        for f in range(pa.shape[1]):
            m = mask[r, f]
            assert comp.score_a.values[r, f] == pytest.approx((pa[r, f] == yy[r])[m].mean())
            assert comp.score_b.values[r, f] == pytest.approx((pb[r, f] == yy[r])[m].mean())
        ok_a = pa[r] == yy[r]
        ok_b = pb[r] == yy[r]
        assert comp.mcnemar_a.values[r] == np.sum(~ok_a & ok_b & mask[r])
        assert comp.mcnemar_b.values[r] == np.sum(ok_a & ~ok_b & mask[r])
    np.testing.assert_array_equal(comp.tested.values, mask.sum(-1))


def test_fold_comparison_keeps_extra_leading_dims():
    y, pa, pb, mask = _logs(1)
    dims = ("scheme", "run", "fold", "time")
    da_a = xr.DataArray(np.stack([pa, pb]), dims=dims, coords={"scheme": ["s1", "s2"]})
    da_b = xr.DataArray(np.stack([pb, pa]), dims=dims, coords={"scheme": ["s1", "s2"]})
    m = xr.DataArray(np.stack([mask, mask]), dims=dims)
    comp = fold_comparison(y[0], da_a, da_b, m)
    assert comp.score_a.dims == ("scheme", "run", "fold")
    np.testing.assert_array_equal(comp.score_a.sel(scheme="s1").values, comp.score_b.sel(scheme="s2").values)
    np.testing.assert_array_equal(comp.mcnemar_a.sel(scheme="s1").values, comp.mcnemar_b.sel(scheme="s2").values)


def test_rejection_rates_against_direct_tests():
    y, pa, pb, mask = _logs(2, runs=6, k=8, n=300)
    comp = fold_comparison(xr.DataArray(y, dims=("run", "time")), pa, pb, mask)
    rates = rejection_rates(comp, alpha=0.05)
    sa, sb = comp.score_a.values, comp.score_b.values
    exp_w = np.mean([bool(wilcoxon_test(sa[r], sb[r]).reject) for r in range(6)])
    exp_s = np.mean([bool(sign_test(sa[r], sb[r]).reject) for r in range(6)])
    exp_m = np.mean([bool(mcnemar_test(comp.mcnemar_a.values[r], comp.mcnemar_b.values[r]).reject) for r in range(6)])
    assert rates.fraction_rejected.sel(test="wilcoxon").item() == exp_w
    assert rates.fraction_rejected.sel(test="sign").item() == exp_s
    assert rates.fraction_rejected.sel(test="mcnemar").item() == exp_m
    assert int(rates.n_runs) == 6
    same = rejection_rates(fold_comparison(y[0], pa[:, :, :], pa, mask))
    assert (same.fraction_rejected == 0).all()  # identical classifiers never reject


def test_rejection_table_layout():
    vals = np.arange(3 * 2 * 2 * 3, dtype=float).reshape(3, 2, 2, 3) / 100
    rates = xr.Dataset(
        {"fraction_rejected": (("test", "validation", "condition", "scheme"), vals)},
        coords={
            "test": ["mcnemar", "sign", "wilcoxon"],
            "validation": ["non-prequential", "prequential"],
            "condition": ["No change", "p_noise=0.05"],
            "scheme": ["bootstrap", "cv", "split"],
        },
    )
    text = rejection_table(rates)
    lines = text.splitlines()
    assert len(lines) == 2 + 6
    assert lines[0].split("|")[0].strip() == "No change" and lines[0].split("|")[1].strip() == "p_noise=0.05"
    assert lines[1].split() == ["bootstrap", "cv", "split", "|", "bootstrap", "cv", "split"]
    assert lines[2].split() == ["McNemar", "non-prequential", "0.00", "0.01", "0.02", "|", "0.03", "0.04", "0.05"]
    assert lines[7].split() == ["Wilcoxon", "prequential", "0.30", "0.31", "0.32", "|", "0.33", "0.34", "0.35"]
    with pytest.raises(ValueError, match="neither rows nor columns"):
        rejection_table(rates.expand_dims(dataset=["x"]))


# ---------------------------------------------------------------- simulation under the null


def _simulate(runs, k, n, seed, scheme="bootstrap", prequential=True):
    """A small randomised learner run on k folds for two seeds (Type I: same algorithm).

    One stream shared by every run (as with a real dataset): x ~ N(0, I_2),
    y = [x0 + 0.5 x1 + 0.5 noise > 0]. Learner: nearest class mean after a random
    projection drawn from the model's own seed, trained with the fold's training weight
    after testing. Runs differ in the fold assignment and the models' seeds; A and B
    differ only in their seeds, so the per-fold differences are symmetric and
    independent given the stream and the assignment.
    """
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 2))
    y = (x[:, 0] + 0.5 * x[:, 1] + 0.5 * rng.normal(size=n) > 0).astype(np.int64)
    w = np.stack(
        [
            fold_assignments(n, k, scheme=scheme, prequential=prequential, seed=seed * 1000 + r).train_weight.values
            for r in range(runs)
        ]
    )  # (R, k, n)
    theta = rng.uniform(-0.9, 0.9, size=(2, runs, k))  # projection angle per (model, run, fold)
    u = np.stack([np.cos(theta), np.sin(theta)], axis=-1)  # (2, R, k, 2)
    sums = np.zeros((2, runs, k, 2))  # weighted sum of the projection per class
    cnt = np.full((2, runs, k, 2), 1e-9)
    preds = np.empty((2, runs, k, n), dtype=np.int64)
    onehot = np.eye(2)
    for t in range(n):
        z = u @ x[t]  # (2, R, k)
        mu = sums / cnt
        preds[..., t] = np.argmin(np.abs(z[..., None] - mu), axis=-1)
        wt = w[None, :, :, t, None] * onehot[y[t]]
        sums += wt * z[..., None]
        cnt += wt
    return y, preds


@pytest.mark.slow
def test_prequential_bootstrap_wilcoxon_type_one_error_near_alpha():
    runs, k, n = 1000, 10, 600
    y, preds = _simulate(runs, k, n, seed=3)
    mask = np.ones((runs, k, n), dtype=bool)  # prequential: every fold tests every instance
    comp = fold_comparison(y, preds[0], preds[1], mask)
    rates = rejection_rates(comp, alpha=0.05)
    rate = rates.fraction_rejected.sel(test="wilcoxon").item()
    # exact size of the 10-fold two-sided test is 50/1024 = 0.049; 1000 runs -> sd 0.0068
    assert 0.049 - 3 * 0.0068 < rate < 0.049 + 3 * 0.0068
    assert rates.fraction_rejected.sel(test="sign").item() < 0.049 + 3 * 0.0068
    # ... while McNemar, with instances as the unit, "detects" the seeds' difference (Bifet et al. Table 2)
    assert rates.fraction_rejected.sel(test="mcnemar").item() > 0.3
    # Type II: the noise-filtered copy (p_noise = 0.1) is detected in almost every run
    noisy = noise_filter(preds[0], 0.1, classes=2, seed=5)
    comp2 = fold_comparison(y, preds[0], noisy, mask)
    assert rejection_rates(comp2, tests="wilcoxon").fraction_rejected.item() > 0.9
