"""The one-pass input checks against numpy's isfinite / comparisons (first offending index)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from streamtk._kernels.checks import first_non_finite, first_not_binary

SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, 5e-324, -1e308, 1.7976931348623157e308, 0.5, 2.0]


def _first(mask):
    idx = np.flatnonzero(mask)
    return int(idx[0]) if idx.size else -1


@given(
    st.integers(0, 9000),
    st.lists(st.tuples(st.integers(0, 8999), st.sampled_from(SPECIAL)), max_size=4),
    st.sampled_from([0.0, 1.0]),
)
def test_first_offending_index_matches_numpy(n, placed, fill):
    # NaN with any payload counts as NaN
    x = np.full(n, fill)
    for i, v in placed:
        if i < n:
            x[i] = v
    assert first_non_finite(x) == _first(~np.isfinite(x))
    assert first_not_binary(x) == _first((x != 0.0) & (x != 1.0))
    if n:
        x[n // 2] = np.frombuffer(np.uint64(0x7FF0000000000001).tobytes(), dtype=np.float64)[0]  # a signalling NaN
        assert first_non_finite(x) == _first(~np.isfinite(x))
