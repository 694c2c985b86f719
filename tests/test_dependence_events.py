"""The label-dependence events kernel against its numpy statement, chunk by chunk."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from streamtk._kernels.dependence import label_events
from streamtk.dependence.engine import label_events_reference


@settings(max_examples=200, deadline=None)
@given(
    codes=st.lists(st.integers(-1, 3), max_size=60),
    max_lag=st.integers(1, 5),
    cuts=st.lists(st.integers(0, 60), max_size=4),
)
def test_events_kernel_equals_numpy_reference_in_chunks(codes, max_lag, cuts):
    codes = np.asarray(codes, dtype=np.int64)
    bounds = [0, *sorted(c for c in cuts if c <= codes.size), codes.size]
    ref_cursor, cursor = (-1, 0), (-1, 0)
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        chunk = codes[lo:hi]
        prev_ref, bins_ref, ref_cursor = label_events_reference(chunk, ref_cursor, max_lag)
        prev = np.empty(chunk.size, dtype=np.int64)
        bins = np.empty(chunk.size, dtype=np.int64)
        cursor = tuple(int(v) for v in label_events(chunk, cursor[0], cursor[1], max_lag, prev, bins))
        present = chunk >= 0
        np.testing.assert_array_equal(prev, prev_ref)
        np.testing.assert_array_equal(bins[present], bins_ref[present])  # bins are read at present labels only
        assert cursor == tuple(int(v) for v in ref_cursor)
