"""Every fast path of the AUC family equals the general kernel on the same inputs.

The general kernel (``route="general"``: :mod:`streamtk._kernels.auc.general`) is the reference.
Fast paths (:mod:`streamtk._kernels.auc.binary`, :mod:`streamtk._kernels.auc.offline`):

* interleaved prequential / fading trees (with prefetch on a large rank space, and the lazy
  fading multiplier passing its renormalisation threshold): the same additions in the same
  order -- bit for bit under any weights;
* block-local window ranks: the same sums over other tree nodes -- bit for bit when every sum
  is exact (integer weights: counts of pairs and halves), to 1e-13 relative with float weights;
* the offline divide and conquer (prequential and fading of a whole stream): bit for bit for the
  prequential estimator with integer weights, to 1e-12 otherwise (the terms are summed in
  another order).
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests._auc import AUC_METRICS, run_engine, stream

PATHS = {
    # name: (estimators, scores' distinct values, stream length, offline, bit for bit under float weights)
    "interleaved": (dict(fading=[0.97, 0.5]), 7, 300, False, True),
    "prefetch": (dict(fading=[0.999]), 0, 40_000, False, True),
    "renormalisation": (dict(fading=[0.3, 0.6]), 40, 3000, False, True),
    "window": (dict(windows=[1, 4, 37]), 7, 400, False, False),
    "long window": (dict(windows=[5000]), 0, 12_000, False, False),
    "offline": (dict(fading=[0.9]), 9, 500, True, False),
}


def _weights(kind, rng, n):
    if kind == "none":
        return None
    if kind == "integer":
        return rng.choice([0.0, 1.0, 2.0, 3.0], (1, n), p=[0.1, 0.5, 0.2, 0.2])
    return np.where(rng.random((1, n)) < 0.1, 0.0, rng.uniform(0.3, 3.0, (1, n)))


#: instance weights of the fast-path checks
WEIGHTS = ("none", "integer", "float")


def check_fast_path(path, weights):
    """Fast path ``path`` (a key of :data:`PATHS`) against the general kernel, whole and in chunks."""
    forgetting, n_values, n, offline, exact_float = PATHS[path]
    rng = np.random.default_rng(zlib.crc32(f"{path}/{weights}".encode()))  # str hash() changes per process
    y, p, _, _ = stream(len(path), n, p_missing=0.05)
    s = rng.random((1, n)) if n_values == 0 else rng.integers(0, n_values, (1, n)) / n_values
    w = _weights(weights, rng, n)
    every = max(1, n // 97)
    for cuts in (None, [0, n // 3, n // 3 + 1, n]):
        if offline and cuts is not None:
            continue  # the offline path serves whole streams only
        fast = run_engine(y, s, w, cuts=cuts, every=every, offline=offline or False, **forgetting)
        assert fast[2].offline_used == offline
        general = run_engine(y, s, w, cuts=cuts, every=every, route="general", **forgetting)
        np.testing.assert_array_equal(fast[0], general[0])
        for name in AUC_METRICS:
            a, b = fast[1][name], general[1][name]
            if weights != "float" or exact_float:
                if offline:  # the prequential sums are exact; fading is summed in another order
                    np.testing.assert_array_equal(a[:, 0], b[:, 0], err_msg=name)
                    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12, err_msg=name)
                else:
                    np.testing.assert_array_equal(a, b, err_msg=f"{name} {cuts}")
            else:
                np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-9, err_msg=name)


def test_fast_paths_are_taken():
    # the routes the engine picks: binary prequential / fading interleaved, windows on local ranks,
    # the rest (tumbling, landmarks, ADWIN) and every class-score estimator on the general kernel
    y, p, s, _ = stream(1, 50)
    _, _, eng = run_engine(y, s, p=p, windows=[5], fading=[0.9], tumbling=[10], landmarks=[20], adwin=[0.1])
    assert eng.cum.tolist() == [0, 2] and eng.win.tolist() == [1]
    assert sorted(eng.general.tolist()) == [3, 4, 5]
    y3, _, s3, _ = stream(1, 50, k=3)
    _, _, eng3 = run_engine(y3, s3, windows=[5], fading=[0.9])
    assert eng3.cum.size == 0 and eng3.win.size == 0 and eng3.general.tolist() == [0, 1, 2]


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 200),
    st.sampled_from([[], [0.95], [1.0], [0.6, 0.99]]),
    st.sampled_from([[], [1], [3], [50, 2]]),
    st.integers(2, 12),
    st.integers(0, 2**32 - 1),
)
def test_fast_path_equals_general_kernel_on_random_streams(n, fading, windows, n_values, seed):
    # integer weights: every sum is exact, so every fast path is bit for bit the general kernel
    rng = np.random.default_rng(seed)
    y, _, _, _ = stream(seed, n, p_missing=0.1)
    s = rng.integers(0, n_values, (1, n)) / n_values
    w = rng.choice([0.0, 1.0, 2.0], (1, n), p=[0.1, 0.6, 0.3])
    cuts = sorted({0, n, *rng.integers(0, n + 1, 2).tolist()})
    fast = run_engine(y, s, w, cuts=cuts, every=int(rng.integers(1, 5)), fading=fading, windows=windows)
    general = run_engine(y, s, w, cuts=cuts, every=fast[2].every, route="general", fading=fading, windows=windows)
    for name in AUC_METRICS:
        np.testing.assert_array_equal(fast[1][name], general[1][name], err_msg=name)


@pytest.mark.parametrize("cuts", [None, [0, 17, 60, 120]])
def test_interleaved_tree_starts_on_a_cache_line(cuts):
    # a tree of two estimators has 32-byte nodes: from 48 bytes into a line, half of them straddle
    # two lines (the kernel ran 2x slower); the engine allocates it on a line, in one pass and after
    # every chunk's rekey
    from streamtk._core.alloc import CACHE_LINE, line_aligned_zeros

    y, p, s, _ = stream(1, 120)
    for _ in range(8):  # several allocations: malloc alone lands on a line about one time in four
        a = line_aligned_zeros((3, 5, 2, 2))
        assert a.ctypes.data % CACHE_LINE == 0 and a.flags.c_contiguous and not a.any()
    for _ in range(8):
        _, _, eng = run_engine(y, s, cuts=cuts, fading=[0.9])
        assert eng.cum.size == 2 and eng.itree.ctypes.data % CACHE_LINE == 0 and eng.itree.flags.c_contiguous
