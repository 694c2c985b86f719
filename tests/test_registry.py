"""The metric registry drives the outputs, the README's metric table and the reference tests.

Every metric of :data:`streamtk.METRICS` is checked here against a slow reference implementation
(:mod:`tests.reference`, the pair reference of ``tests/test_compare.py``, brute-force concordance for
the AUC): a metric without a reference makes :func:`test_every_metric_matches_its_reference` fail.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

import streamtk
from streamtk._core.metrics import REGISTRY, TABLES, markdown_table

from ._auc import check_auc_pairwise
from .reference import reference_curves
from .test_compare import ref_pair
from .test_temporal import ref_stats

ROOT = Path(__file__).resolve().parent.parent


def _close(a, b, atol=1e-12):
    if isinstance(b, float) and math.isnan(b):
        return math.isnan(a)
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=atol)


def _stream(n=60, k=3, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y = np.where(rng.random(n) < 0.5, np.roll(y, 1), y)
    p = np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))
    w = rng.choice([0.0, 0.5, 1.0, 2.0], size=n)
    return y, p, w


def check_confusion(name):
    for k in (2, 3):
        if REGISTRY[name].needs == "binary" and k != 2:
            continue
        y, p, w = _stream(k=k, seed=k)
        ests = [("prequential", None), ("window", 7), ("fading", 0.9), ("tumbling", 11), ("landmarks", [20, 45]),
                ("ewma", 0.3)]  # fmt: skip
        ds = streamtk.evaluate(y, p, weights=w, windows=7, fading=0.9, tumbling=11, landmarks=[20, 45], ewma=0.3,
                               metrics=[name], classes=list(range(k)), every=1, pos_label=1)  # fmt: skip
        ref = reference_curves(y, p, k, ests, weights=w)
        atol = 1e-7 if name in ("kappa_plus", "kappa_se") else 1e-12
        for e in range(len(ests)):
            for t in range(len(y)):
                want = ref[e][t][name]
                got = ds[name].values[e, t]
                for g, r in zip(np.atleast_1d(got), np.atleast_1d(want)):
                    assert _close(float(g), float(r), atol), (name, ests[e], t, g, r)


def check_quantity(name):
    y, p, w = _stream(k=2, seed=5)
    rng = np.random.default_rng(6)
    s = np.clip(np.where(y == 1, 0.7, 0.3) + rng.normal(0, 0.2, y.size), 0.01, 0.99)
    if name == "risk":
        cost = np.array([[0.0, 2.0], [5.0, 0.0]])
        ds = streamtk.evaluate(y, p, weights=w, cost=cost, metrics=[name], windows=7, every=1)
        loss = cost[y, p]
    else:
        ds = streamtk.evaluate(y, p, weights=w, y_score=s, metrics=[name], windows=7, every=1)
        prob = np.where(y == 1, s, 1 - s)
        loss = -np.log(prob) if name == "log_loss" else (s - y) ** 2
    for e, held in enumerate([lambda t: np.arange(t + 1), lambda t: _last_members(w, t, 7)]):
        for t in range(y.size):
            idx = held(t)
            idx = idx[w[idx] > 0]
            want = np.sum(w[idx] * loss[idx]) / np.sum(w[idx]) if idx.size else math.nan
            assert _close(float(ds[name].values[e, t]), float(want)), (name, e, t)


def _last_members(w, t, size):
    members = np.flatnonzero(w[: t + 1] > 0)
    return members[-size:]


def check_auc(name):
    rng = np.random.default_rng(7)
    n = 50
    y = rng.integers(0, 3, n)
    scores = rng.random((n, 3)).round(1)  # ties
    binary = name != "auc_macro"
    for mode in ["binary", "multi"] if binary else ["multi"]:
        yy = (y == 1).astype(int) if mode == "binary" else y
        s = scores[:, 1] if mode == "binary" else scores
        ds = streamtk.evaluate(yy, yy, y_score=s, metrics=[name], windows=9, every=1)
        for e, lo in enumerate([lambda t: 0, lambda t: max(0, t - 8)]):
            for t in range(n):
                sl = slice(lo(t), t + 1)
                want = _brute_auc(name, yy[sl], s[sl], mode)
                got = np.atleast_1d(ds[name].values[e, t])
                for g, r in zip(got, np.atleast_1d(want)):
                    assert _close(float(g), float(r), 1e-9), (name, mode, e, t, g, r)


def _brute_auc(name, y, s, mode):
    """Every pair compared: U1, U0, AUC and the Mann-Whitney z (AMIDST eqs. 2.5-2.8), per column one-vs-rest."""
    cols = [(y == 1, s)] if mode == "binary" else [(y == c, s[:, c]) for c in range(s.shape[1])]
    out = []
    for pos, q in cols:
        qp, qn = q[pos], q[~pos]
        u1 = sum((a > b) + 0.5 * (a == b) for a in qp for b in qn)
        w0, w1 = float(qn.size), float(qp.size)
        defined = qp.size and qn.size
        auc = u1 / (w0 * w1) if defined else math.nan
        z = ((w0 * w1 - u1) - w0 * w1 / 2) / math.sqrt(w0 * w1 * (w0 + w1 + 1) / 12) if defined else math.nan
        out.append(
            {"auc": auc, "auc_u1": float(u1), "auc_u0": w0 * w1 - u1, "auc_z": z}[
                name if name != "auc_macro" else "auc"
            ]
        )
    if name == "auc_macro":
        vals = [v for v in out if not math.isnan(v)]
        return sum(vals) / len(vals) if vals else math.nan
    return out[0] if mode == "binary" else out


def check_comparison(name):
    rng = np.random.default_rng(8)
    n = 40
    la = (rng.random(n) < 0.3).astype(float)
    lb = (rng.random(n) < 0.4).astype(float)
    ds = streamtk.compare_losses(la, lb, windows=5, fading=0.8, every=1)
    for e, (kind, param) in enumerate([("prequential", None), ("window", 5), ("fading", 0.8)]):
        for t in range(n):
            want = ref_pair(la, lb, t, kind, param)[name]
            got = ds[name].values[e, t]
            if name == "reject":
                assert bool(got) == bool(want)
            else:
                assert _close(float(got), float(want), 1e-9), (name, kind, t, got, want)


def check_dependence(name):
    rng = np.random.default_rng(9)
    codes = np.where(rng.random(45) < 0.7, np.repeat(rng.integers(0, 3, 15), 3), rng.integers(-1, 3, 45))
    y = np.where(codes < 0, np.nan, codes)
    k, max_lag = 3, 3
    ds = streamtk.label_dependence(y, max_lag=max_lag, windows=6, fading=0.8, every=1, classes=[0, 1, 2])
    for e, (kind, param) in enumerate([("prequential", None), ("window", 6), ("fading", 0.8)]):
        for t in range(codes.size):
            cnt, trans, big_n, big_h = ref_stats(codes, k, max_lag, kind, param, t + 1)
            with np.errstate(invalid="ignore", divide="ignore"):
                tot, rows, ntr = cnt.sum(), trans.sum(1), trans.sum()
                prior = cnt / tot if tot > 0 else np.full(k, np.nan)
                p_run = np.where(big_n > 0, big_h / big_n, np.nan)
                want = {
                    "n_labels": tot,
                    "prior": prior,
                    "majority_class": int(np.argmax(cnt)),
                    "p_m": prior.max() if tot > 0 else np.nan,
                    "transition": np.where(rows[:, None] > 0, trans / rows[:, None], np.nan),
                    "n_transitions": ntr,
                    "p_t": np.trace(trans) / ntr if ntr > 0 else np.nan,
                    "n_run": big_n,
                    "p_run": p_run,
                    "evidence": p_run - np.vstack((prior[None], p_run[:-1])),
                }[name]
            got = ds[name].values[e, t]
            np.testing.assert_allclose(np.asarray(got, float), want, rtol=1e-9, atol=1e-12, equal_nan=True)


_LOSS_ESTIMATORS = [("prequential", None), ("window", 5), ("fading", 0.8), ("tumbling", 7), ("landmarks", [10, 25])]
_LOSS_KW = dict(windows=5, fading=0.8, tumbling=7, landmarks=[10, 25], every=1)


def _held_weights(kind, param, evaluated, now):
    """``[(s, weight)]``: the evaluated stream positions ``s <= now`` held by an estimator at ``now``, one by one."""
    seen = [s for s in evaluated if s <= now]
    if kind == "prequential":
        return [(s, 1.0) for s in seen]
    if kind == "window":
        return [(s, 1.0) for s in seen[-param:]]
    if kind == "fading":  # an instance not evaluated occupies no slot: the age counts evaluated instances
        return [(s, param ** (len(seen) - 1 - j)) for j, s in enumerate(seen)]
    resets = range(0, now + 1, param) if kind == "tumbling" else [r for r in param if r <= now]
    start = max(resets, default=0)
    return [(s, 1.0) for s in seen if s >= start]


_REG_ESTIMATORS = [("prequential", None), ("window", 5), ("fading", 0.8), ("tumbling", 7), ("landmarks", [10, 25]),
                   ("ewma", 0.3)]  # fmt: skip
_REG_KW = dict(windows=5, fading=0.8, tumbling=7, landmarks=[10, 25], ewma=0.3, every=1)


def check_regression(name):
    # every metric of every estimator against the slow reference, float weights and missing targets; the
    # averages over targets against the per-target references
    from .reference_regression import regression_reference

    rng = np.random.default_rng(10)
    n, q = 40, 2
    y = rng.normal(0, 3, (n, q)) + [0.0, 5.0]
    y[rng.random(n) < 0.2] = np.nan  # no target: skipped
    pred = np.nan_to_num(y) + rng.normal(0, 2, (2, n, q))
    w = rng.uniform(0.1, 2.0, n)
    ds = streamtk.regression_curves(y, pred, weights=w, n_features=1, metrics=[name], lead_dims="model", **_REG_KW)
    base = name[len("average_") :] if name.startswith("average_") else name
    for m in range(2):
        for e, (kind, param) in enumerate(_REG_ESTIMATORS):
            refs = [regression_reference(y[:, j], pred[m, :, j], w, kind, param, n_features=1)[base] for j in range(q)]
            want = np.mean(refs, axis=0) if base != name else np.stack(refs, axis=-1)
            got = ds[name].values[m, e]
            np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12, err_msg=f"{name} {kind} {m}")


def check_intervals(name):
    from .reference_regression import interval_reference

    rng = np.random.default_rng(14)
    n = 40
    y = rng.normal(0, 2, n)
    y[rng.random(n) < 0.15] = np.nan
    qs = np.sort(np.nan_to_num(y) + rng.normal(0, 1.5, (3, n)), axis=0)
    w = rng.uniform(0.1, 2.0, n)
    ds = streamtk.interval_curves(y, y_quantiles=qs.T, quantiles=[0.1, 0.5, 0.9], weights=w, metrics=[name], **_REG_KW)
    for e, (kind, param) in enumerate(_REG_ESTIMATORS):
        want = interval_reference(y, qs[0], qs[2], qs, [0.1, 0.5, 0.9], w, kind, param, alpha=0.2)[name]
        np.testing.assert_allclose(ds[name].values[e], want, rtol=1e-9, atol=1e-12, err_msg=f"{name} {kind}")


def check_resources(name):
    rng = np.random.default_rng(11)
    n = 40
    sec = rng.exponential(0.01, n)
    sec[:3] = 0.0  # nothing spent yet: throughput inf
    mem = rng.integers(10**6, 10**9, n).astype(float)
    needs = REGISTRY[name].needs
    ds = streamtk.resource_curves(
        seconds=sec if needs != "memory" else None, memory=mem if needs != "seconds" else None, **_LOSS_KW
    )
    evaluated = list(range(n))
    for e, (kind, param) in enumerate(_LOSS_ESTIMATORS):
        for t in range(n):
            held = _held_weights(kind, param, evaluated, t)
            den = sum(w for _, w in held)
            total = sum(w * sec[s] for s, w in held)
            want = {
                "throughput": den / total if total > 0 else math.inf,
                "seconds": total,
                "memory": sum(w * mem[s] for s, w in held) / den,
                "ram_hours": sum(w * (mem[s] / 1024**3) * (sec[s] / 3600) for s, w in held),
            }[name]
            got = float(ds[name].values[e, t])
            assert got == want if math.isinf(want) else _close(got, want, 1e-15), (name, kind, t, got, want)


def check_loss(name):
    rng = np.random.default_rng(13)
    n = 40
    loss = rng.exponential(1.0, (2, n))
    loss[:, rng.random(n) < 0.2] = np.nan  # not evaluated: skipped
    ds = streamtk.evaluation.losses.loss_curves(loss, lead_dims="model", **_LOSS_KW)
    evaluated = [s for s in range(n) if not math.isnan(loss[0, s])]
    for m in range(2):
        for e, (kind, param) in enumerate(_LOSS_ESTIMATORS):
            for t in range(n):
                held = _held_weights(kind, param, evaluated, t)
                want = sum(w * loss[m, s] for s, w in held) / sum(w for _, w in held) if held else math.nan
                assert _close(float(ds["loss"].values[m, e, t]), want), (name, m, kind, t)


def check_multilabel(name):
    # scikit-learn on the instances each estimator holds (every mechanism, float weights, missing rows)
    from ._multilabel import ESTIMATORS, KW, reference, stream

    y, p, w = stream(0)
    for zd in (0.0, math.nan):
        ds = streamtk.multilabel_curves(y, p, weights=w, zero_division=zd, every=3, metrics=[name], **KW)
        for (l, e, c), want in reference(0, zd, 3).items():
            got = ds[name].values[l, e, c]
            np.testing.assert_allclose(got, want[name], rtol=1e-9, atol=1e-12, equal_nan=True,
                                       err_msg=str((name, l, ESTIMATORS[e], c, zd)))  # fmt: skip


def check_imbalanced(name):
    # scikit-learn's average_precision_score and auc(recall, precision), pair counting, on the instances each
    # estimator holds (every mechanism, float weights, ties, missing labels; binary and class scores)
    from ._imbalanced import ESTIMATORS, KW, reference, stream

    for k in (2, 3):
        y, p, s, w = stream(0, k=k)
        extra = {"classes": list(range(k))} if k > 2 else {}
        yy = np.where(y < 0, np.nan, y.astype(float))
        ds = streamtk.auc_curves(yy, s, y_pred=p, weights=w, every=4, metrics=[name], **extra, **KW)
        for (l, e, c, col), want in reference(0, k, 4).items():
            got = ds[name].values[l, e, c] if k == 2 else ds[name].values[l, e, c, col]
            assert _close(float(got), float(want[name]), 1e-12) or got == want[name], (name, ESTIMATORS[e], c, col)


CHECKERS = {
    "confusion": check_confusion,
    "imbalanced": check_imbalanced,
    "multilabel": check_multilabel,
    "loss": check_loss,
    "quantity": check_quantity,
    "auc": check_auc,
    "auc_pairwise": check_auc_pairwise,
    "comparison": check_comparison,
    "dependence": check_dependence,
    "regression": check_regression,
    "intervals": check_intervals,
    "resources": check_resources,
}


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_metric_matches_its_reference(name):
    family = REGISTRY[name].family
    assert family in CHECKERS, f"metric {name!r} ({family}) has no reference implementation"
    CHECKERS[family](name)


def test_dataset_attrs_come_from_the_registry():
    ds = streamtk.evaluate([0, 1, 1, 0], [0, 1, 0, 0], windows=2)
    for v in ds.data_vars:
        m = REGISTRY[v]
        assert ds[v].attrs["long_name"] == m.long_name and ds[v].attrs["formula"] == m.formula
        assert ds[v].attrs["higher_is_better"] in ("true", "false", "none")


def test_readme_metric_table_is_the_registry():
    text = (ROOT / "README.md").read_text()
    found = re.search(r"<!-- metrics:start -->\n(.*?)\n<!-- metrics:end -->", text, re.S)
    assert found, "README.md has no <!-- metrics:start --> ... <!-- metrics:end --> block"
    assert found.group(1).strip() == markdown_table().strip(), (
        "README.md's metric table is out of date; regenerate it with\n"
        "python -c 'from streamtk._core.metrics import markdown_table; print(markdown_table())'"
    )


def test_regression_and_resource_attrs_come_from_the_registry():
    ds = streamtk.regression_curves([1.0, 2.0, np.nan, 4.0], [1.5, 2.0, 0.0, 3.0], windows=2)
    res = streamtk.resource_curves([0.5, 0.0, 1.0], [2.0, 4.0, 8.0], fading=0.9)
    defaults = ["mae", "mse", "rmse", "mape", "smape", "r2", "rmae", "rrmse", "max_error", "n_instances"]
    assert list(ds.data_vars) == defaults
    assert list(res.data_vars) == ["throughput", "seconds", "memory", "ram_hours", "n_instances"]
    for d, fam in ((ds, "regression"), (res, "resources")):
        for v in d.data_vars:
            assert d[v].attrs == REGISTRY[v].attrs(), v
            assert REGISTRY[v].family == (fam if v != "n_instances" else "confusion")
    iv = streamtk.interval_curves([1.0, 2.0], [0.0, 1.0], [2.0, 3.0], convention="moa")
    assert iv.coverage.attrs["units"] == "%" and iv.mean_width.attrs == REGISTRY["mean_width"].attrs()
    assert ds.mae.attrs["higher_is_better"] == "false" and res.throughput.attrs["higher_is_better"] == "true"
    assert res.memory.attrs["units"] == "bytes" and res.seconds.attrs["units"] == "s"
    only = streamtk.resource_curves(memory=[2.0, 4.0])  # the registry's needs select the metrics
    assert list(only.data_vars) == ["memory", "n_instances"]


def _contexts(table):
    """``(context, rows of the statistics)`` of every table's formulas (both conventions, every layout)."""
    from streamtk._core.metrics.auc import AucContext
    from streamtk._core.metrics.comparison import SumsContext
    from streamtk._core.metrics.confusion_sums import ConfusionContext
    from streamtk._kernels.confusion.layout import F_Q

    if table == "confusion":
        return [(ConfusionContext(3, 1, F_Q + 3, (F_Q, F_Q + 1, F_Q + 2), moa), F_Q + 12) for moa in (False, True)]
    if table == "sums":
        return [(SumsContext(3.84), 5)]
    if table == "dependence":
        from streamtk._core.metrics.dependence import context, n_rows

        return [(context(k, 4), n_rows(context(k, 4))) for k in (2, 3)]
    if table == "auc":
        from streamtk._kernels.auc.sweep import N_SWEEP

        return [
            (AucContext(c, g, g > 2, moa), 3 * c * g + N_SWEEP * c)
            for c, g in ((1, 2), (3, 2), (3, 3))
            for moa in (0, 1)
        ]
    if table == "regression":
        from streamtk._core.metrics.regression import RegressionContext
        from streamtk._kernels.regression import layout as LY

        nf = LY.n_fields(LY.K_REG, LY.J_REG)
        return [(RegressionContext(2, nf, 1.0, moa), 2 * nf) for moa in (False, True)]
    if table == "intervals":
        from streamtk._core.metrics.intervals import IntervalContext
        from streamtk._kernels.regression import layout as LY

        K = LY.n_quantities(LY.INT, 2)
        return [(IntervalContext(2, LY.F_Q + K, moa), LY.n_fields(K, LY.J_INT)) for moa in (False, True)]
    if table == "multilabel":
        from streamtk._core.metrics.multilabel import context

        return [(context(3, zd, moa), 16 + 9) for zd in (0.0, 1.0, math.nan) for moa in (False, True)]
    raise AssertionError(f"no contexts for table {table!r}: add them here")


@pytest.mark.parametrize("table", sorted(TABLES))
def test_formulas_read_the_intermediates_they_declare(table):
    # a metric (or an intermediate) declares the intermediates it reads; its formula must read exactly those
    from streamtk._core.finalise import reads_of

    tab = TABLES[table]
    rng = np.random.default_rng(5)
    entries = [(it.compute, it.reads, it.name, 0) for it in tab.intermediates]
    entries += [(m.compute, m.reads, m.name, len(m.extra_dims)) for m in REGISTRY.values() if m.table == table]
    for fn, reads, label, n_extra in entries:
        got = set()
        for x, rows in _contexts(table):
            m = REGISTRY.get(label)
            if (
                table == "auc"
                and m is not None
                and ((m.family == "auc_pairwise" and not x.pairwise) or (m.needs == "multiscores" and x.ncols == 1))
            ):
                continue  # the pairwise metrics need the pairwise layout, the multi-class ones class scores
            s = np.abs(rng.normal(size=(rows, 6))) + 0.1
            v = np.abs(rng.normal(size=(len(tab.intermediates), 6))) + 0.1
            got |= reads_of(tab, fn, s, v, x, *(0,) * n_extra)
            if n_extra == 2 and table == "dependence":  # lag 2 reads the runs (lag 1 the prior)
                got |= reads_of(tab, fn, s, v, x, 1, 0)
        assert got == set(reads), (label, got, reads)


def test_every_metric_reads_a_known_table():
    for m in REGISTRY.values():
        assert m.table in TABLES, (m.name, m.table)


def test_regression_formulas_clip_negative_window_residues_once():
    from streamtk._core.finalise import finalise_columns
    from streamtk._core.metrics.regression import RegressionContext
    from streamtk._kernels.regression import layout as LY

    nf = LY.n_fields(LY.K_REG, LY.J_REG)
    snap = np.zeros((nf, 3))
    snap[LY.F_Q + LY.Q_AE] = [-1e-17, 4.0, np.nan]
    snap[LY.F_Q + LY.Q_SE] = [-1e-17, 4.0, np.nan]
    snap[LY.F_W] = 1.0
    for compiled in (False, True):
        got = finalise_columns(TABLES["regression"], [REGISTRY[m] for m in ("mae", "mse", "rmse")], snap,
                               RegressionContext(1, nf, np.nan, False), extra={"target": (1,)},
                               compiled=compiled)  # fmt: skip
        np.testing.assert_array_equal(got["mae"][:, 0], [0.0, 4.0, np.nan])
        np.testing.assert_array_equal(got["mse"][:, 0], [0.0, 4.0, np.nan])
        np.testing.assert_array_equal(got["rmse"][:, 0], [0.0, 2.0, np.nan])


@pytest.mark.parametrize(
    "name", ["mae", "mse", "rmse", "r2", "coverage", "throughput", "seconds", "memory", "ram_hours"]
)
def test_evaluate_refuses_regression_and_resource_metrics(name):
    fam = REGISTRY[name].family
    with pytest.raises(ValueError, match=rf"unknown metric '{name}' \(it belongs to the '{fam}' family, computed by"):
        streamtk.evaluate([0, 1, 1], [0, 1, 0], metrics=[name])
    by_default = streamtk.evaluate([0, 1, 1], [0, 1, 0], y_score=[0.2, 0.8, 0.4], cost=[[0, 1], [2, 0]])
    assert name not in by_default


def test_collect_orients_and_filters_by_the_registry():
    from streamtk.comparison.collection import collect, higher_is_better

    for m in REGISTRY.values():
        assert higher_is_better(m.name) is m.higher_is_better, m.name
    # a log of predictions is evaluated with evaluate's families only: a regression name is reported missing
    logs = {"d": xr.Dataset({"y_true": ("time", np.array([0, 1, 1, 0])), "y_pred": ("time", np.array([0, 1, 0, 0]))})}
    with pytest.raises(ValueError, match=r"metrics \['mae'\] are not in the curves"):
        collect(logs, metrics=["accuracy", "mae"])
    assert collect(logs, metrics=["accuracy"]).accuracy.item() == 0.75


def test_a_metric_without_a_reference_fails(monkeypatch):
    # the reference tests are driven by the registry: a new regression metric the slow reference does not know
    # fails its check, and a metric of a family without a checker fails test_every_metric_matches_its_reference
    import dataclasses

    copy = dataclasses.replace(REGISTRY["mae"], name="mae_unreferenced")
    monkeypatch.setitem(REGISTRY, copy.name, copy)
    with pytest.raises(KeyError, match="mae_unreferenced"):
        check_regression(copy.name)
    orphan = dataclasses.replace(REGISTRY["mae"], name="orphan", family="no_such_family")
    monkeypatch.setitem(REGISTRY, orphan.name, orphan)
    with pytest.raises(AssertionError, match="has no reference implementation"):
        test_every_metric_matches_its_reference(orphan.name)


def test_multilabel_and_imbalanced_attrs_and_cli_metrics_come_from_the_registry(tmp_path):
    from streamtk.cli import main

    rng = np.random.default_rng(3)
    y = (rng.random((30, 3)) < 0.4).astype(int)
    ml = streamtk.multilabel_curves(y, 1 - y, windows=[5])
    family = [m.name for m in REGISTRY.values() if m.family == "multilabel"]
    assert sorted(v for v in ml.data_vars if v != "n_instances") == sorted(family)
    yy, s = (rng.random(30) < 0.3).astype(int), rng.random(30)
    imb = [m.name for m in REGISTRY.values() if m.family == "imbalanced"]
    auc = streamtk.auc_curves(yy, s, metrics=imb, baseline=True)
    for ds in (ml, auc):
        for v in ds.data_vars:
            assert {k: ds[v].attrs[k] for k in REGISTRY[v].attrs()} == REGISTRY[v].attrs(), v
    # MOA's convention states MOA's definitions (its swapped precision / recall), never the textbook formula
    moa = streamtk.multilabel_curves(y, 1 - y, convention="moa")
    assert "|Y & P| / |Y|" in moa.precision_samples.attrs["formula"]
    assert "// |P|" in moa.recall_samples.attrs["formula"]
    assert all(moa[v].attrs["convention"] == "moa" for v in moa.data_vars if v != "n_instances")
    # the CLI's --metrics takes every registry name of the family and refuses others naming the known ones
    log = streamtk.io.to_netcdf(streamtk.io.make_multilabel_log(y, 1 - y), tmp_path / "ml.nc")
    out = tmp_path / "out.nc"
    assert main(["evaluate", str(log), "-q", "--metrics", ",".join(family), "-o", str(out)]) == 0
    got = streamtk.io.open_dataset(out)
    assert sorted(v for v in got.data_vars if v != "n_instances") == sorted(family)
