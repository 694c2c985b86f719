"""The loss ADWINs of ``adwin=`` estimators (reused buffers, widths in place) equal ADWIN run on the members' losses."""

import numpy as np
import pytest

from streamtk._core.adwin import LossAdwins
from streamtk._kernels.adwin import adwin_run_one, adwin_state_new

OPTS = {"max_buckets": 5, "clock": 32, "min_window": 5, "bound": "bernstein"}
DELTAS = [0.002, 0.1]


def _reference(yt, yp, w, deltas, n_chunks):
    """Per series and delta: mask the members, run ADWIN on their 0/1 loss, scatter the widths (0 elsewhere)."""
    L, n = yp.shape
    out = np.zeros((L, len(deltas), n), dtype=np.int64)
    none_f, none_i = np.empty(0), np.empty(0, dtype=np.int8)
    for l in range(L):
        member = (yt >= 0) & (yp[l] >= 0)
        if w.shape[1]:
            member &= w[l] > 0
        for a, delta in enumerate(deltas):
            st = tuple(s[0] for s in adwin_state_new(1, OPTS["max_buckets"]))
            for idx in np.array_split(np.arange(n), n_chunks):
                m = member[idx]
                x = (yt[idx] != yp[l, idx])[m].astype(np.float64)
                width = np.empty(x.size, dtype=np.int64)
                adwin_run_one(x, st, (delta, OPTS["clock"], OPTS["min_window"], 0), (width, none_f, none_f, none_i))
                out[l, a, idx[m]] = width
    return out


@pytest.mark.parametrize("case", ["dense", "missing", "weighted"])
def test_limits_equal_the_members_adwin(case):
    rng = np.random.default_rng(7)
    L, n, n_chunks = 2, 30_000, 3
    yt = (rng.random(n) < 0.5).astype(np.int8)
    yp = np.where(rng.random((L, n)) < np.r_[0.9, 0.7][:, None], yt, 1 - yt).astype(np.int8)
    yp[:, n // 2 :] = np.where(rng.random((L, n - n // 2)) < 0.6, yt[n // 2 :], 1 - yt[n // 2 :])
    w = np.zeros((L, 0))
    if case == "missing":
        yt[rng.random(n) < 0.1] = -1
        yp[rng.random((L, n)) < 0.1] = -1
    if case == "weighted":
        w = np.where(rng.random((L, n)) < 0.2, 0.0, rng.random((L, n)) + 0.1)
    want = _reference(yt, yp, w, DELTAS, n_chunks)
    la = LossAdwins(L, DELTAS, OPTS)
    parts = []
    for idx in np.array_split(np.arange(n), n_chunks):
        s = slice(idx[0], idx[-1] + 1)
        kw = np.where(w[:, s] > 0, w[:, s], -1.0)  # the kernels' weights: -1 marks an instance not evaluated
        parts.append(la.prediction_limits(yt[s], yp[:, s], kw).copy())
    got = np.concatenate(parts, axis=2)
    np.testing.assert_array_equal(got, want)
    assert (want > 0).any() and want.max() < n


def test_limits_buffer_reuse_overwrites_every_entry():
    """A shorter segment after a longer one, members changing: no entry of the reused buffer is stale."""
    rng = np.random.default_rng(3)
    la = LossAdwins(1, [0.002], OPTS)
    yt = (rng.random(5000) < 0.5).astype(np.int8)
    yp = yt[None, :].copy()
    first = la.prediction_limits(yt, yp, np.zeros((1, 0))).copy()
    assert (first[0, 0] == np.arange(1, 5001)).all()
    yt2 = yt[:1000].copy()
    yt2[::2] = -1
    second = la.prediction_limits(yt2, yp[:, :1000], np.zeros((1, 0)))
    assert second.shape == (1, 1, 1000)
    assert (second[0, 0, ::2] == 0).all()
    assert (second[0, 0, 1::2] == np.arange(5001, 5501)).all()
