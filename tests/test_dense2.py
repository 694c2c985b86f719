"""The fused dense two-class loop (streamtk._kernels.dense2) is bit-identical to the general block loops.

A dense binary stream (labels everywhere, no weights) takes the fused path; the same
stream with unit weights takes the general path (``_cumulative_block`` /
``_window_block``), which the slow references of ``test_engine.py`` check. Equality is
exact (``assert_array_equal``), so chunked evaluation may switch between the paths.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import streamtk


def _stream(seed, n, persistence):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < rng.uniform(0.1, 0.9)).astype(np.int8)
    y = np.where(rng.random(n) < persistence, np.roll(y, 1), y).astype(np.int8)
    p = np.where(rng.random(n) < rng.uniform(0.5, 1.0), y, 1 - y).astype(np.int8)
    return y, p


def _assert_same(a, b):
    assert list(a.data_vars) == list(b.data_vars)
    np.testing.assert_array_equal(a.instance.values, b.instance.values)
    for name in a.data_vars:
        np.testing.assert_array_equal(a[name].values, b[name].values, err_msg=name)


# blocks are 2048 instances: streams up to 5000 cross block boundaries; windows up to 3000 span blocks
@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 5000),
    st.sampled_from([0.0, 0.5, 0.9]),
    st.lists(st.sampled_from([1, 2, 5, 100, 2047, 2048, 2049, 3000]), max_size=3, unique=True),
    st.lists(st.sampled_from([0.5, 0.9, 0.999, 1.0]), max_size=3, unique=True),
    st.sampled_from([1, 7, 1000]),
    st.sampled_from(["streamtk", "moa"]),
)
def test_fused_equals_general_path(seed, n, persistence, windows, fading, every, convention):
    y, p = _stream(seed, n, persistence)
    kw = dict(windows=windows, fading=fading, every=every, convention=convention, classes=[0, 1])
    fused = streamtk.evaluate(y, p, **kw)
    general = streamtk.evaluate(y, p, weights=np.ones(n), **kw)
    _assert_same(fused, general)


def test_fused_renormalisation_is_exact():
    # alpha = 0.5 renormalises the lazy scale every ~500 instances; both conventions, many blocks
    y, p = _stream(3, 20_000, 0.7)
    for convention in ("streamtk", "moa"):
        kw = dict(fading=[0.5, 0.97], windows=[300], every=13, convention=convention, classes=[0, 1])
        _assert_same(streamtk.evaluate(y, p, **kw), streamtk.evaluate(y, p, weights=np.ones(len(y)), **kw))


@settings(max_examples=20, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.lists(st.integers(1, 1500), min_size=1, max_size=6),
    st.sampled_from(["streamtk", "moa"]),
    st.booleans(),
)
def test_chunks_switching_between_fused_and_general_paths(seed, sizes, convention, with_adwin):
    # some chunks hold a missing label (general path), the others are dense (fused path): the
    # general loops continue from states and kept history written by the fused loop and back
    rng = np.random.default_rng(seed)
    n = int(sum(sizes))
    y, p = _stream(seed, n, 0.6)
    yl = y.astype(float)
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    for a, b in zip(bounds[:-1], bounds[1:]):
        if rng.random() < 0.4:
            yl[rng.integers(a, b)] = np.nan
    kw = dict(
        windows=[3, 40, 700],
        fading=[0.9, 0.995],
        every=11,
        convention=convention,
        classes=[0, 1],
        adwin=[0.01] if with_adwin else (),
    )
    one = streamtk.evaluate(yl, p, **kw)
    ev = streamtk.Evaluator(**kw)
    for a, b in zip(bounds[:-1], bounds[1:]):
        ev.update(yl[a:b], p[a:b])
    _assert_same(ev.result(), one)


def test_fused_with_adwin_windows_in_the_same_pass():
    # ADWIN windows take the general loop and read every materialised baseline hit
    y, p = _stream(5, 9000, 0.8)
    p[4000:] = 1 - p[4000:]  # a change ADWIN reacts to
    kw = dict(windows=[50, 2500], fading=[0.99], adwin=[0.002, 0.1], every=5, classes=[0, 1])
    _assert_same(streamtk.evaluate(y, p, **kw), streamtk.evaluate(y, p, weights=np.ones(len(y)), **kw))


def test_several_models_are_independent():
    y, p0 = _stream(7, 6000, 0.5)
    _, p1 = _stream(8, 6000, 0.5)
    kw = dict(windows=[10, 3000], fading=[0.95], every=100, classes=[0, 1])
    both = streamtk.evaluate(y, np.stack([p0, p1]), **kw)
    for i, p in enumerate((p0, p1)):
        single = streamtk.evaluate(y, p, **kw)
        for name in single.data_vars:
            np.testing.assert_array_equal(both[name].values[i], single[name].values, err_msg=name)


def test_eight_bit_labels_are_read_in_place_and_not_modified():
    # 0/1 int8 labels are their own codes: the engine reads them in place and must not write to them
    from streamtk._core.labels import encode_labels

    y, p = _stream(9, 3000, 0.5)
    y0, p0 = y.copy(), p.copy()
    _, (cy, cp) = encode_labels(y, p, compact=True)
    assert np.shares_memory(cy, y) and np.shares_memory(cp, p)
    a = streamtk.evaluate(y, p, windows=[100], fading=[0.9], every=50)
    b = streamtk.evaluate(y.astype(np.int64), p.astype(np.int64), windows=[100], fading=[0.9], every=50)
    _assert_same(a, b)
    np.testing.assert_array_equal(y, y0)
    np.testing.assert_array_equal(p, p0)
    # read-only labels are copied (no read-only kernel signature) and give the same curves
    y.flags.writeable = False
    _, (cy,) = encode_labels(y, compact=True)
    assert not np.shares_memory(cy, y)
    _assert_same(streamtk.evaluate(y, p, windows=[100], fading=[0.9], every=50), a)


def test_no_engine_kernel_is_compiled_for_literal_arguments():
    # a literal constant passed to a jitted callee (e.g. ``pre = -1``) makes numba compile it and everything
    # it calls once more, for Literal[int](-1): a measured 9 s of extra cold compile time
    import numba

    from streamtk._kernels import adwin, blocks, confusion, dense2, finalise, moa_adwin

    y, p = _stream(1, 3000, 0.5)
    streamtk.evaluate(y, p, windows=[10], fading=[0.9], adwin=[0.01], every=100)
    streamtk.evaluate(y, p, fading=[0.9], adwin=[0.01], convention="moa", every=100)
    streamtk.evaluate(y.astype(float), p, weights=np.ones(len(y)), windows=[10], every=100)
    for module in (adwin, blocks, confusion, dense2, finalise, moa_adwin):
        for name, obj in vars(module).items():
            if isinstance(obj, numba.core.registry.CPUDispatcher):
                for sig in obj.signatures:
                    assert "Literal" not in str(sig), (module.__name__, name, sig)


def test_window_much_longer_than_the_stream_allocates_for_the_stream_only():
    # the running-sum ring is sized by min(window, instances held), not by the window: a window of 10^9 on a short
    # stream would otherwise allocate gigabytes; it equals the prequential estimator
    y, p = _stream(4, 3000, 0.5)
    ds = streamtk.evaluate(y, p, windows=[10**9], every=50, classes=[0, 1])
    for name in ds.data_vars:
        if name != "n_instances":
            np.testing.assert_array_equal(ds[name].values[1], ds[name].values[0], err_msg=name)


def test_a_last_chunk_closes_the_evaluation():
    # evaluate() passes last=True (nothing is kept for later chunks); a further chunk would be wrong: refused
    import pytest

    from streamtk.evaluation.engine import EngineCore, encode_inputs

    y, p = _stream(6, 500, 0.5)
    enc, yt, yp = encode_inputs(y, p[None, :], classes=[0, 1], compact=True)
    core = EngineCore(encoding=enc, windows=[10], adwin=[0.1], every=50)
    core.update(yt, yp, None, last=True)
    with pytest.raises(ValueError, match="closed by its last chunk"):
        core.update(yt, yp, None)
