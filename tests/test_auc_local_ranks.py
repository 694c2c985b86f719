"""Block-local window ranks (streamtk._kernels.auc.ranks.window_local_ranks) against numpy's dense ranking."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from streamtk._kernels.auc.ranks import window_local_ranks


def local_ranks(ranks, ev, w):
    """``(new, old)`` of the kernel, and check the count it returns bounds every local rank."""
    new = np.full(ranks.size, -7, dtype=np.int64)
    old = np.full(ranks.size, -7, dtype=np.int64)
    mem = np.zeros(0, dtype=np.uint8) if ev.all() else ev.astype(np.uint8)
    used = window_local_ranks(ranks, mem, w, new, old)
    assert used == max(new.max(initial=-1), old.max(initial=-1)) + 1
    return new, old


def reference_local_ranks(ranks, ev, w):
    """The definition: dense ranks of blocks ``b - 1`` and ``b`` of evaluated instances."""
    n = ranks.size
    new = np.full(n, -1, dtype=np.int64)
    old = np.full(n, -1, dtype=np.int64)
    q = np.flatnonzero(ev)
    nb = (q.size + w - 1) // w
    for b in range(nb):
        cur = q[b * w : (b + 1) * w]
        prev = q[(b - 1) * w : b * w] if b else q[:0]
        dense = np.unique(ranks[np.r_[prev, cur]], return_inverse=True)[1]
        old[prev] = dense[: prev.size]
        new[cur] = dense[prev.size :]
    return new, old


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 120), st.integers(1, 40), st.integers(1, 60), st.floats(0.0, 1.0), st.integers(0, 2**32 - 1))
def test_window_local_ranks_match_definition(n, w, n_values, p_ev, seed):
    rng = np.random.default_rng(seed)
    ranks = rng.integers(0, n_values, n).astype(np.int64)
    ev = rng.random(n) < p_ev
    new, old = local_ranks(ranks, ev, w)
    ref_new, ref_old = reference_local_ranks(ranks, ev, w)
    np.testing.assert_array_equal(new, ref_new)
    np.testing.assert_array_equal(old, ref_old)


def test_window_local_ranks_large_rank_space_and_window_past_the_stream():
    rng = np.random.default_rng(5)
    n = 5000
    # distinct, sparse in a space of 10 n; then ranks of up to 40 bits with ties (five radix digits per block)
    wide = rng.integers(0, 2**40, n // 2)
    for ranks in (rng.permutation(10 * n)[:n], np.concatenate([wide, wide[::-1]])):
        ranks = ranks.astype(np.int64)
        ev = rng.random(n) < 0.9
        for w in (1, 7, 256, 1000, n, 3 * n):
            new, old = local_ranks(ranks, ev, w)
            ref_new, ref_old = reference_local_ranks(ranks, ev, w)
            np.testing.assert_array_equal(new, ref_new)
            np.testing.assert_array_equal(old, ref_old)
