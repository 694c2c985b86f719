"""The scalar-state binary loop (``_binary_lead_small``: <= 2 cumulative estimators, <= 1 window)
is bit-identical to the general loop of ``streamtk._kernels.auc._binary_lead``.

The general loop is reached by adding a cumulative estimator and two windows;
estimators do not interact, so the shared ones must agree exactly, chunk by chunk, with
weights, missing labels, zero weights, ties and the lazy-scale renormalisation.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from streamtk._kernels import auc as K


def _run(ranks, y, w, alphas, wsizes, pieces, unit, every):
    n = ranks.shape[1]
    R = int(ranks.max()) + 1
    alphas = np.asarray(alphas, dtype=np.float64)
    wsizes = np.asarray(wsizes, dtype=np.int64)
    lrn, lro = K.binary_local_ranks(ranks, y, w, wsizes, R)
    state = K.new_binary_state(1, R, alphas, wsizes)
    cps = np.arange(every - 1, n, every, dtype=np.int64)
    oc = np.zeros((1, alphas.size, cps.size, 5))
    ow = np.zeros((1, wsizes.size, cps.size, 5))
    for a, b in zip(pieces[:-1], pieces[1:]):
        cp0 = int(np.searchsorted(cps, a))
        K.binary_auc_run(ranks, lrn, lro, y, w, alphas, wsizes, unit, a, b, cps, cp0, *state, oc, ow)
    return oc[0], ow[0], state


def _compare(score, y, w, alphas, wsize, pieces, unit, every=1):
    ranks = np.unique(score, return_inverse=True)[1].reshape(1, -1).astype(np.int64)
    y2, w2 = y.reshape(1, -1).astype(np.int64), w.reshape(1, -1).astype(np.float64)
    wsizes = [wsize] if wsize else []
    small = _run(ranks, y2, w2, alphas, wsizes, pieces, unit, every)
    # two extra windows: Ew >= 2 always takes the general loop
    general = _run(ranks, y2, w2, list(alphas) + [0.9], wsizes + [3, 5], pieces, unit, every)
    Ec, Ew = len(alphas), len(wsizes)
    np.testing.assert_array_equal(small[0], general[0][:Ec])
    np.testing.assert_array_equal(small[1], general[1][:Ew])
    ctree, cstat, inv, wtree, wstat, wstate = small[2]
    gctree, gcstat, ginv, gwtree, gwstat, gwstate = general[2]
    np.testing.assert_array_equal(ctree, gctree[..., :Ec])
    np.testing.assert_array_equal(cstat, gcstat[:, :Ec])
    np.testing.assert_array_equal(inv, ginv[:, :Ec])
    np.testing.assert_array_equal(wstat, gwstat[:, :Ew])
    np.testing.assert_array_equal(wstate, gwstate[:, :Ew])


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 400),
    st.sampled_from([[], [1.0], [0.97], [1.0, 0.995], [0.5, 1.0]]),
    st.sampled_from([0, 1, 4, 50]),
    st.integers(2, 30),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_small_loop_equals_general_loop(n, alphas, wsize, n_values, unit, seed):
    rng = np.random.default_rng(seed)
    score = rng.integers(0, n_values, n) / n_values
    y = (rng.random(n) < 0.4).astype(np.int64)
    y[rng.random(n) < 0.1] = -1
    w = rng.uniform(0.3, 3.0, n)
    w[rng.random(n) < 0.1] = 0.0
    cuts = np.sort(rng.integers(0, n + 1, 3))
    pieces = [0, *cuts.tolist(), n]
    _compare(score, y, w, alphas, wsize, pieces, unit, every=int(rng.integers(1, 5)))


def test_small_loop_with_prefetch_and_renormalisation():
    """A rank space past PREFETCH_MIN_ROWS and alpha = 0.5 (the tree scale passes 1e200 every 665 instances)."""
    rng = np.random.default_rng(11)
    n = 40_000
    score = rng.random(n)
    y = (rng.random(n) < 0.3).astype(np.int64)
    w = rng.uniform(0.5, 2.0, n)
    _compare(score, y, w, [1.0, 0.5], 200, [0, 12_345, n], False, every=100)
    _compare(score, y, w, [0.999], 0, [0, n], True, every=1000)
