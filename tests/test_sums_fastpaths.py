"""The scalar-sums kernel's fast paths equal its general loops bit for bit (issue 19, item 1).

:mod:`streamtk._kernels.sums` runs an accumulator that does not fade without its multiplier, a
``WINDOW`` over a dense stream without the per-member limit test, and such a window over 0-1 values
(``binary``) without counting its non-zero members. ``SumsEngine(..., fast_paths=False)`` runs every
estimator through the general loops; both must give identical sums, counts and carried state on the
same inputs, whole or in chunks, for single streams and pairs.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import streamtk.comparison.compare as sc
import streamtk.evaluation.losses as sl
from streamtk._core.adwin import check_adwin_options
from streamtk._core.mechanisms import build_estimators
from streamtk._kernels.sums import FIELDS
from streamtk.evaluation.sums import SumsEngine, raw_sums

GROUPS = np.array([[0, 0], [0, 1], [2, 1], [1, 1]])  # single streams and pairs, in both orders


def _run(specs, x, member, cuts, *, fast, binary, every=3):
    """Raw sums, positions and the final state of a SumsEngine fed ``x`` in the chunks ``cuts``."""
    engine = SumsEngine(specs, every, check_adwin_options({"clock": 1}), fast_paths=fast, **raw_sums(len(GROUPS)))
    bounds = [0, *cuts, x.shape[1]]
    for i, (a, b) in enumerate(zip(bounds[:-1], bounds[1:])):
        m = None if member is None else member[a:b]
        engine.update(np.ascontiguousarray(x[:, a:b]), GROUPS, m, last=i == len(bounds) - 2, binary=binary[i])
    positions, raw = engine.collect()
    return positions, _stack(raw), engine.sf.copy(), engine.si.copy()


def _stack(values):
    """The engine's raw outputs as one array ``(G, E, C, 5)``."""
    return np.stack([values[name] for name in FIELDS], axis=-1)


def _assert_identical(one, two):
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a, b)  # NaN == NaN; 0.0 == -0.0 is checked below
        assert np.array_equal(np.signbit(a), np.signbit(b))


#: the kernel's fast paths, each with a stream and estimators that take it: (0-1 values, estimators)
SUMS_PATHS = {
    "unfaded accumulators": (False, dict(tumbling=[50], landmarks=[3, 400, 401])),
    "dense windows": (False, dict(windows=[1, 7, 300, 5000])),
    "0-1 windows": (True, dict(windows=[1, 7, 300, 5000])),
}


def check_fast_path(kind):
    """Fast path ``kind`` (a key of :data:`SUMS_PATHS`) against the general loops, whole and in chunks."""
    binary, mechanisms = SUMS_PATHS[kind]
    rng = np.random.default_rng(5)
    T = 2500
    if binary:
        x = (rng.random((3, T)) < 0.4).astype(float)
    else:
        x = np.where(rng.random((3, T)) < 0.3, 0.0, rng.normal(size=(3, T)))
    specs = build_estimators(**mechanisms)
    for cuts in ([], [700, 701, 2048]):
        declared = [binary] * (len(cuts) + 1)
        _assert_identical(
            _run(specs, x, None, cuts, fast=True, binary=declared),
            _run(specs, x, None, cuts, fast=False, binary=declared),
        )


@st.composite
def streams(draw):
    T = draw(st.integers(1, 120))
    binary = draw(st.booleans())
    if binary:
        x = np.array(draw(st.lists(st.sampled_from([0.0, 1.0, -0.0]), min_size=3 * T, max_size=3 * T)))
    else:  # real values with many exact zeros (the exact-window rule) and negative values
        vals = st.one_of(st.just(0.0), st.floats(-5, 5, allow_nan=False), st.sampled_from([0.1, 0.2, 0.3, 1.0]))
        x = np.array(draw(st.lists(vals, min_size=3 * T, max_size=3 * T)))
    x = x.reshape(3, T)
    member = None if draw(st.booleans()) else np.array(draw(st.lists(st.booleans(), min_size=T, max_size=T)))
    cuts = sorted(set(draw(st.lists(st.integers(1, max(1, T - 1)), max_size=3)))) if T > 1 else []
    windows = draw(st.lists(st.integers(1, 40), min_size=1, max_size=3, unique=True))
    tumbling = draw(st.integers(1, 30))
    landmarks = sorted(set(draw(st.lists(st.integers(0, T + 5), min_size=1, max_size=4))))
    specs = build_estimators(windows=windows, fading=[0.9, 0.3], tumbling=[tumbling], landmarks=landmarks, adwin=[0.2])
    return x, binary, member, cuts, specs


@given(streams())
def test_fast_paths_equal_the_general_loops(case):
    x, binary, member, cuts, specs = case
    declared = [binary] * (len(cuts) + 1)
    general = _run(specs, x, member, cuts, fast=False, binary=declared)
    _assert_identical(_run(specs, x, member, cuts, fast=True, binary=declared), general)
    # a 0-1 stream declared or not: the same numbers (the counts are the sums)
    _assert_identical(_run(specs, x, member, cuts, fast=True, binary=[False] * len(declared)), general)


@given(st.integers(2, 60), st.integers(1, 59), st.booleans(), st.integers(0, 2**32 - 1))
def test_a_binary_chunk_after_a_real_one_is_counted(T, cut, real_first, seed):
    # chunks of real values and of 0-1 values (declared binary) in either order: a window that holds real
    # values must count its members exactly, in the 0-1 chunk too; 0-1 counts carried into a real chunk hold
    rng = np.random.default_rng(seed)
    cut = min(cut, T - 1)
    x = (rng.random((3, T)) < 0.4).astype(float)
    real = slice(0, cut) if real_first else slice(cut, T)
    x[:, real] *= rng.choice([0.0, 0.1, 0.7, 1e-17], size=x[:, real].shape)
    specs = build_estimators(windows=[1, 3, 10], fading=[0.5])
    declared = [not real_first, real_first]
    fast = _run(specs, x, None, [cut], fast=True, binary=declared)
    _assert_identical(fast, _run(specs, x, None, [cut], fast=False, binary=[False, False]))


@pytest.mark.parametrize("T", [1, 5, 4096 + 7])
def test_fast_paths_across_blocks_and_checkpoints(T):
    # runs cut at block ends (2048), checkpoints (every 5) and tumbling restarts, on a long stream
    rng = np.random.default_rng(T)
    x = np.where(rng.random((3, T)) < 0.5, 0.0, rng.random((3, T)))
    specs = build_estimators(windows=[1, 2047, 2049, 5000], fading=[0.999], tumbling=[2048], landmarks=[3, 2050])
    for binary in (False, True):
        xs = (x > 0).astype(float) if binary else x
        _assert_identical(
            _run(specs, xs, None, [], fast=True, binary=[binary], every=5),
            _run(specs, xs, None, [], fast=False, binary=[binary], every=5),
        )


def test_public_functions_take_the_fast_paths_with_the_general_numbers():
    # compare (0-1 losses, declared binary) and loss_curves on the same stream as compare_losses of
    # real-valued losses whose zeros and ones are the same: identical windows
    rng = np.random.default_rng(7)
    y = rng.integers(0, 3, 3000)
    pa = np.where(rng.random(3000) < 0.7, y, rng.integers(0, 3, 3000))
    pb = np.where(rng.random(3000) < 0.6, y, rng.integers(0, 3, 3000))
    kw = dict(windows=[1, 10, 500], fading=[0.99], tumbling=[100], every=7)
    got = sc.compare(y, pa, pb, **kw)
    la, lb = (pa != y).astype(float), (pb != y).astype(float)
    # the same losses with a tiny non-binary value far away, where every window has left: the general loops
    ref = sc.compare_losses(np.append(la, 0.5), np.append(lb, 0.0), **kw).isel(time=slice(None, got.sizes["time"]))
    for v in ("q", "loss_a", "loss_b", "n_instances"):
        np.testing.assert_array_equal(got[v].values[..., :-1], ref[v].values[..., :-1])
    curves = sl.loss_curves(la, **kw)
    specs = build_estimators(**{k: v for k, v in kw.items() if k != "every"})
    engine = SumsEngine(specs, 7, check_adwin_options(None), fast_paths=False, **raw_sums(1))
    engine.update(la[None, :], np.array([[0, 0]]), last=True)
    positions, raw = engine.collect()
    raw = _stack(raw)
    np.testing.assert_array_equal(curves.instance.values, positions + 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        np.testing.assert_array_equal(curves.loss.values, raw[0, :, :, 0] / raw[0, :, :, 4])
