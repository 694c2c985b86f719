"""Software prefetch (streamtk._kernels.prefetch) and the prefetching binary AUC kernel.

The prefetch is a hint: it must compile to the x86 prefetch instructions, load from the
on-disk cache, never fault at the edges of an array and never change a result.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

from streamtk._kernels import auc as K
from streamtk._kernels.prefetch import fenwick_prefetch, prefetch_read, prefetch_write

REPO = Path(__file__).resolve().parents[1]


@numba.njit
def _touch_all(tree, lo, hi, depth):
    for i in range(lo, hi):
        fenwick_prefetch(tree, i, depth)
        prefetch_read(tree, i)
        prefetch_write(tree, i)


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86-64 instruction names")
def test_intrinsics_emit_prefetch_instructions():
    tree = np.zeros((64, 2, 2))
    _touch_all(tree, 1, 64, 4)
    asm = _touch_all.inspect_asm(_touch_all.signatures[0])
    assert "prefetcht0" in asm
    assert "prefetchw" in asm


def test_prefetch_at_the_edges_changes_nothing():
    rng = np.random.default_rng(1)
    for shape in [(1,), (2, 2), (17, 2, 3), (1024, 2, 2)]:
        tree = rng.random(shape)
        before = tree.copy()
        # positions 0..m+5: the walks stop inside the array; prefetch_read / _write of an
        # address past the end is a hint and must not fault either
        _touch_all(tree, 0, shape[0] + 5, 30)
        np.testing.assert_array_equal(tree, before)


def test_compiles_into_the_on_disk_cache(tmp_path):
    code = (
        "import numpy as np\n"
        "from streamtk._kernels.prefetch import fenwick_prefetch\n"
        "fenwick_prefetch(np.zeros((64, 2, 2)), 5, 4)\n"
        "print(sum(fenwick_prefetch.stats.cache_hits.values()), sum(fenwick_prefetch.stats.cache_misses.values()))\n"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), PYTHONPATH=str(REPO))
    runs = [
        subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True).stdout.split()
        for _ in range(2)
    ]
    assert runs[0] == ["0", "1"]  # compiled and saved
    assert runs[1] == ["1", "0"]  # loaded from the cache


def _stream(n, seed, distinct=True):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.35).astype(np.int64)
    y[rng.random(n) < 0.05] = -1
    w = np.ones(n)
    w[rng.random(n) < 0.05] = 0.0
    s = rng.random(n) + 0.3 * (y == 1)
    if not distinct:
        s = np.round(s, 2)
    return s, y, w


def _binary(score, y, w, alphas, wsizes, pieces, unit=True):
    ranks = np.unique(score, return_inverse=True)[1].reshape(1, -1).astype(np.int64)
    R = int(ranks.max()) + 1
    n = score.size
    alphas = np.asarray(alphas, dtype=np.float64)
    wsizes = np.asarray(wsizes, dtype=np.int64)
    y2, w2 = y[None], w[None]
    lrn, lro = K.binary_local_ranks(ranks, y2, w2, wsizes, R)
    state = K.new_binary_state(1, R, alphas, wsizes)
    cps = np.arange(99, n, 100, dtype=np.int64)
    oc = np.zeros((1, alphas.size, cps.size, 5))
    ow = np.zeros((1, wsizes.size, cps.size, 5))
    for a, b in zip(pieces[:-1], pieces[1:]):
        cp0 = int(np.searchsorted(cps, a))
        K.binary_auc_run(ranks, lrn, lro, y2, w2, alphas, wsizes, unit, a, b, cps, cp0, *state, oc, ow)
    return R, oc[0], ow[0]


def test_prefetching_kernel_equals_the_general_kernel():
    """A rank space past ``PREFETCH_MIN_ROWS`` (prefetch on) against the general layout (no prefetch)."""
    n = 45_000
    score, y, w = _stream(n, 7)
    alphas, wsizes = [1.0, 0.999, 0.99], [300]
    R, oc, ow = _binary(score, y, w, alphas, wsizes, [0, n])
    assert R + 1 >= K.PREFETCH_MIN_ROWS

    kinds = np.array([K.KIND_PREQUENTIAL, K.KIND_FADING, K.KIND_FADING, K.KIND_WINDOW], dtype=np.int64)
    params = np.array([1.0, 0.999, 0.99, 300.0])
    ranks = np.unique(score, return_inverse=True)[1].reshape(1, n, 1).astype(np.int64)
    grp = np.array([[0, 1]], dtype=np.int64)
    pos_group = np.array([1], dtype=np.int64)
    cps = np.arange(99, n, 100, dtype=np.int64)
    tree, W, N, U, inv, istate = K.new_state(1, 4, 1, 2, R, kinds, params)
    oU = np.zeros((1, 4, cps.size, 1, 2))
    oW = np.zeros_like(oU)
    oN = np.zeros_like(oU)
    K.auc_run(
        ranks,
        y[None],
        w[None],
        kinds,
        params,
        grp,
        pos_group,
        True,
        0,
        n,
        cps,
        0,
        tree,
        W,
        N,
        U,
        inv,
        istate,
        oU,
        oW,
        oN,
    )
    # prequential and window: integer counts, exact
    np.testing.assert_array_equal(oc[0, :, 0], oU[0, 0, :, 0, 0])
    np.testing.assert_array_equal(ow[0, :, 0], oU[0, 3, :, 0, 0])
    np.testing.assert_array_equal(oc[0, :, 1:3], oW[0, 0, :, 0])
    for e in (1, 2):
        np.testing.assert_allclose(oc[e, :, 0], oU[0, e, :, 0, 0], rtol=1e-12)
        np.testing.assert_allclose(oc[e, :, 1:3], oW[0, e, :, 0], rtol=1e-12)


@pytest.mark.parametrize("distinct", [True, False])
def test_prefetch_across_chunk_ends_changes_nothing(distinct):
    """Chunked calls (the prefetch stops at each chunk's end) equal one pass, bit for bit."""
    n = 40_000
    score, y, w = _stream(n, 3, distinct)
    one = _binary(score, y, w, [1.0, 0.995], [250], [0, n], unit=False)
    many = _binary(score, y, w, [1.0, 0.995], [250], [0, 5, 17, 1000, 1013, 25_000, n], unit=False)
    np.testing.assert_array_equal(one[1], many[1])
    np.testing.assert_array_equal(one[2], many[2])
