"""The Fenwick tree module (streamtk._kernels.fenwick) against cumulative sums, and its layouts against each other."""

from __future__ import annotations

import numba
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from streamtk._kernels import fenwick as F


@numba.njit
def _adds(tree, pos, vals):
    for p, v in zip(pos, vals):
        F.add(tree, p, v)


@numba.njit
def _queries(tree, out):
    for i in range(1, tree.shape[0]):
        out[i - 1] = F.below_half(tree, i)


@numba.njit
def _pair_walks(tree, rows, pos, vals, c, out):
    """The interleaved walks of lanes 0 and 1 and the row walks of the same values, side by side."""
    for k in range(pos.shape[0]):
        p0, p1 = F.below_half_pair(tree, pos[k], c, 0, 1, True)
        out[k, 0], out[k, 1] = p0, p1
        out[k, 2], out[k, 3] = F.below_half(rows[0], pos[k]), F.below_half(rows[1], pos[k])
        F.add_pair(tree, pos[k], 1 - c, 0, 1, True, vals[k], 2 * vals[k])
        F.add(rows[2], pos[k], vals[k])
        F.add(rows[3], pos[k], 2 * vals[k])
        F.add_pair(tree, pos[k], c, 0, 1, True, vals[k], 0.5 * vals[k])
        F.add(rows[0], pos[k], vals[k])
        F.add(rows[1], pos[k], 0.5 * vals[k])


@given(st.lists(st.tuples(st.integers(1, 40), st.floats(-1e3, 1e3)), max_size=80), st.integers(40, 70))
def test_add_and_below_half_against_cumsum(updates, m):
    tree = np.zeros(m + 1)
    x = np.zeros(m + 1)
    pos = np.array([p for p, _ in updates], dtype=np.int64)
    vals = np.array([v for _, v in updates], dtype=np.float64)
    _adds(tree, pos, vals)
    np.add.at(x, pos, vals)
    got = np.empty(m)
    _queries(tree, got)
    ref = np.cumsum(x)[:-1] + 0.5 * x[1:]  # sum below i plus half the point at i
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-9)
    back = tree.copy()[:, None]
    F.points(back)
    np.testing.assert_allclose(back[:, 0], x, rtol=1e-12, atol=1e-9)
    F.build(back)
    np.testing.assert_allclose(back[:, 0], tree, rtol=1e-12, atol=1e-9)


def test_integer_points_round_trip_exactly_and_rekey_keeps_prefix_sums():
    rng = np.random.default_rng(3)
    x = np.zeros((51, 3))
    x[1:] = rng.integers(0, 9, (50, 3))
    tree = x.copy()
    F.build(tree)
    back = tree.copy()
    F.points(back)
    np.testing.assert_array_equal(back, x)
    # move to a key space of 80 positions where old position j lands at pos[j]
    pos = np.sort(rng.choice(80, 50, replace=False)).astype(np.int64)
    new = np.zeros((81, 3))
    F.rekey(tree.copy(), pos, new)
    moved = np.zeros((81, 3))
    moved[pos + 1] = x[1:]
    F.build(moved)
    np.testing.assert_array_equal(new, moved)


def test_interleaved_walks_equal_row_walks_bit_for_bit():
    rng = np.random.default_rng(4)
    m = 300
    tree = np.zeros((m + 1, 2, 2))
    rows = np.zeros((4, m + 1))
    pos = rng.integers(1, m + 1, 500).astype(np.int64)
    vals = rng.uniform(0.1, 3.0, 500)
    out = np.zeros((500, 4))
    _pair_walks(tree, rows, pos, vals, 0, out)
    np.testing.assert_array_equal(out[:, 0], out[:, 2])
    np.testing.assert_array_equal(out[:, 1], out[:, 3])
    np.testing.assert_array_equal(tree[:, 0, 0], rows[0])
    np.testing.assert_array_equal(tree[:, 1, 1], rows[3])
