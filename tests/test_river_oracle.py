"""The engine against river's metrics, an independent implementation, instance by instance.

river updates each metric online (``utils.Rolling`` reverts the instance that leaves a
window), so its values are an oracle written without our state layout or finalisers. They
agree to rounding wherever the two definitions agree; where a value is undefined river
returns 0 and streamtk NaN (mcc with a zero denominator, kappa with ``p_c = 1``), and
river's geometric mean counts a class that was predicted but never true (recall 0) where
streamtk averages over the classes present among the true labels (Bifet et al. sec. 5.2).
"""

from __future__ import annotations

import numpy as np
import pytest

import streamtk

river = pytest.importorskip("river", reason="river is not installed")
from river import metrics, utils  # noqa: E402

PAIRS = {
    "accuracy": metrics.Accuracy,
    "kappa": metrics.CohenKappa,
    "f1": metrics.F1,
    "macro_f1": metrics.MacroF1,
    "mcc": metrics.MCC,
    "geometric_mean": metrics.GeometricMean,
}


def _river_curve(make, y, p):
    m = make()
    out = np.empty(len(y))
    for t, (a, b) in enumerate(zip(y.tolist(), p.tolist())):
        m.update(a, b)
        out[t] = m.get()
    return out


@pytest.mark.parametrize("k", [2, 3])
def test_prequential_and_window_curves_agree_with_river(k):
    n, window = 2000, 100
    rng = np.random.default_rng(3 + k)
    y = rng.integers(0, k, n)
    y = np.where(rng.random(n) < 0.5, np.r_[0, y[:-1]], y)
    p = np.where(rng.random(n) < 0.8, y, rng.integers(0, k, n))
    names = [m for m in PAIRS if k == 2 or m not in ("f1", "mcc")]  # river's F1 and MCC are binary
    ds = streamtk.evaluate(y, p, windows=[window], metrics=names, classes=list(range(k)),
                           pos_label=1 if k == 2 else None)  # fmt: skip
    # the true classes held by the window ending at t (prequential: all so far)
    seen = np.stack([np.cumsum(y == i) for i in range(k)])
    seen_window = seen - np.concatenate([np.zeros((k, window), int), seen[:, :-window]], axis=1)
    pred = np.stack([np.cumsum(p == i) for i in range(k)])
    pred_window = pred - np.concatenate([np.zeros((k, window), int), pred[:, :-window]], axis=1)
    for est, make_of, held, predicted in (
        ("prequential", lambda f: f(), seen, pred),
        (f"window={window}", lambda f: utils.Rolling(f, window_size=window), seen_window, pred_window),
    ):
        for name in names:
            ours = ds[name].sel(estimator=est).values
            theirs = _river_curve(lambda: make_of(PAIRS[name]), y, p)
            comparable = ~np.isnan(ours)  # undefined: NaN here, 0 in river
            if name == "geometric_mean":  # a class predicted but absent from the true labels: river's recall 0
                comparable &= ~((held == 0) & (predicted > 0)).any(axis=0)
            assert comparable.sum() > 0.9 * n, (est, name)
            np.testing.assert_allclose(ours[comparable], theirs[comparable], rtol=1e-12, atol=1e-14,
                                       err_msg=f"{est} {name}")  # fmt: skip
            assert np.all(theirs[np.isnan(ours)] == 0.0), (est, name)
