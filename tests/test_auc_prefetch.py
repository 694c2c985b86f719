"""Software prefetch (streamtk._kernels.prefetch, streamtk._kernels.fenwick.prefetch) and segmented kernel calls.

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

from streamtk._kernels.fenwick import prefetch as fenwick_prefetch
from streamtk._kernels.prefetch import prefetch_read, prefetch_write

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
        "from streamtk._kernels.fenwick import prefetch as fenwick_prefetch\n"
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


@pytest.mark.parametrize("weighted", [False, True])
def test_segments_continue_the_kernels_exactly(monkeypatch, weighted):
    """A chunk cut into many kernel calls (segments: the prefetch stops at each end, windows restart their
    blocks) equals one call: bit for bit for the interleaved trees, and for windows with unit weights."""
    from streamtk.evaluation import auc_engine
    from tests._auc import AUC_METRICS, run_engine, stream

    n = 40_000
    y, _, _, w = stream(3, n, weighted=weighted)
    s = np.random.default_rng(4).random((1, n))  # a rank space past PREFETCH_MIN_ROWS
    opts = dict(every=7, windows=[250], fading=[0.995], offline=False)
    one = run_engine(y, s, w, **opts)
    monkeypatch.setattr(auc_engine, "SNAPSHOT_BUDGET", 6 * 3 * 1000)  # segments of ~7,000 instances
    many = run_engine(y, s, w, **opts)
    for name in AUC_METRICS:
        np.testing.assert_array_equal(one[1][name][:, [0, 2]], many[1][name][:, [0, 2]], err_msg=name)
        if weighted:
            np.testing.assert_allclose(one[1][name], many[1][name], rtol=1e-12, atol=1e-9, err_msg=name)
        else:
            np.testing.assert_array_equal(one[1][name], many[1][name], err_msg=name)
