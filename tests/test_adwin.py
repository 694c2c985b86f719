"""Tests of ADWIN (streamtk._kernels.adwin, streamtk.drift.adwin).

The oracle is ``RefAdwin``: a slow, literal restatement of MOA's ADWIN.java
with Python lists (one list of ``[total, variance]`` buckets per row, oldest
first), every expression in MOA's order, nothing hoisted or pre-filtered. No
published MOA output for a fixed input was found (MOA's own tests do not pin
ADWIN's detections), so identity with this restatement is the MOA check.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

from streamtk._kernels import adwin as K
from streamtk._kernels.adwin import scan as KS
from streamtk.drift.adwin import Adwin, adwin, adwin_detections

from ._moa import import_capymoa

NONE_I = np.empty(0, dtype=np.int8)


def java_int(v):
    """Wrap an integer to Java's 32-bit int."""
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= (1 << 31) else v


class RefAdwin:
    """Slow, literal ADWIN2 in the form of MOA's ADWIN.java.

    rows[r] is the list of buckets of size 2**r, oldest first; a bucket is
    [total, variance]. Every expression is written in MOA's order; nothing is
    hoisted or pre-filtered.
    """

    def __init__(self, delta=0.002, max_buckets=5, clock=32, min_window=5, bound="bernstein"):
        self.delta, self.M, self.clock, self.mw, self.bound = delta, max_buckets, clock, min_window, bound
        self.rows = [[]]
        self.width = 0
        self.total = 0.0
        self.var = 0.0
        self.time = 0

    def mean(self):
        return self.total / self.width if self.width else math.nan

    def variance(self):
        return self.var / self.width if self.width else math.nan

    def _insert(self, x):
        self.width += 1
        self.rows[0].append([x, 0.0])
        inc = 0.0
        W = self.width
        if W > 1:
            inc = (W - 1) * (x - self.total / (W - 1)) * (x - self.total / (W - 1)) / W
        self.var += inc
        self.total += x
        # compress
        r = 0
        while len(self.rows[r]) == self.M + 1:
            if r + 1 == len(self.rows):
                self.rows.append([])
            n1 = n2 = 2**r
            (t1, v1), (t2, v2) = self.rows[r][0], self.rows[r][1]
            u1 = t1 / n1
            u2 = t2 / n2
            inc = java_int(n1 * n2) * (u1 - u2) * (u1 - u2) / (n1 + n2)
            self.rows[r + 1].append([t1 + t2, v1 + v2 + inc])
            del self.rows[r][:2]
            r += 1

    def _delete(self):
        r = len(self.rows) - 1
        n1 = 2**r
        t, v = self.rows[r][0]
        self.width -= n1
        self.total -= t
        u1 = t / n1
        W = self.width
        inc = v + java_int(n1 * W) * (u1 - self.total / W) * (u1 - self.total / W) / (n1 + W)
        self.var -= inc
        del self.rows[r][0]
        if not self.rows[r]:
            del self.rows[r]
        return n1

    def _cut(self, n0, n1, u0, u1):
        absvalue = u0 / n0 - u1 / n1
        n = self.width
        if self.bound == "bernstein":
            dd = math.log(2 * math.log(n) / self.delta)
            v = self.var / self.width
            m = 1.0 / (n0 - self.mw + 1) + 1.0 / (n1 - self.mw + 1)
            # Java's Math.sqrt of a (rounding-)negative variance is NaN, and NaN never cuts
            radicand = 2 * m * v * dd
            eps = (math.sqrt(radicand) if radicand >= 0 else math.nan) + 2.0 / 3.0 * dd * m
            return abs(absvalue) > eps
        m = 1.0 / (1.0 / n0 + 1.0 / n1)
        eps = math.sqrt(1.0 / (2.0 * m) * math.log(4.0 / (self.delta / n)))
        return abs(absvalue) >= eps

    def update(self, x):
        """Add x; return True if the window was cut (MOA's setInput)."""
        self.time += 1
        self._insert(x)
        change = False
        if self.time % self.clock == 0 and self.width > 10:
            reduce = True
            while reduce:
                reduce = False
                # all split points, oldest bucket first; the newest bucket is no split point
                buckets = [(2**r, b[0]) for r in range(len(self.rows) - 1, -1, -1) for b in self.rows[r]]
                n0, n1, u0, u1 = 0, self.width, 0.0, self.total
                for size, tot in buckets[:-1]:
                    n0 += size
                    n1 -= size
                    u0 += tot
                    u1 -= tot
                    if n1 > self.mw + 1 and n0 > self.mw + 1 and self._cut(n0, n1, u0, u1):
                        self._delete()
                        change = reduce = True
                        break
        return change


def reference_run(x, **kw):
    """Per-step width, mean, variance, detection code of RefAdwin on a 1-D sequence."""
    a = RefAdwin(**kw)
    widths, means, variances, codes, rows = [], [], [], [], []
    for xi in x:
        before = a.mean()
        cut = a.update(float(xi))
        after = a.mean()
        widths.append(a.width)
        means.append(after)
        variances.append(a.variance())
        codes.append(0 if not cut else (1 if after > before else -1))
        rows.append(len(a.rows))
    return widths, means, variances, codes, rows


def as_lists(ds):
    return (ds.width.values.tolist(), ds["mean"].values, ds.variance.values, ds.detection.values.tolist())


def assert_same_as_reference(x, **kw):
    ds = adwin(np.asarray(x, dtype=float), **kw)
    widths, means, variances, codes, _ = reference_run(x, **kw)
    w, m, v, d = as_lists(ds)
    assert w == widths
    np.testing.assert_array_equal(m, np.array(means))  # bit-identical, NaN where width 0
    np.testing.assert_array_equal(v, np.array(variances))
    assert d == codes
    return ds, codes


def shifted_stream(rng, n, kind, segments):
    """A stream of ``n`` values in ``segments`` pieces with different means."""
    levels = rng.random(segments)
    sizes = np.diff(np.r_[0, np.sort(rng.choice(np.arange(1, n), segments - 1, replace=False)), n])
    parts = []
    for p, size in zip(levels, sizes):
        if kind == "bernoulli":
            parts.append((rng.random(size) < p).astype(float))
        elif kind == "normal":
            parts.append(rng.normal(3 * p, 0.5 + p, size))
        elif kind == "uniform":
            parts.append(rng.random(size) * p)
        elif kind == "tiny":
            parts.append((rng.random(size) < p) * 1e-200)
        elif kind == "huge":
            parts.append((rng.random(size) < p) * 1e120 - 3e119)
    return np.concatenate(parts)


# ---------------------------------------------------------------- reference identity

CASES = [
    # kind, n, segments, params
    ("bernoulli", 6000, 3, {}),
    ("bernoulli", 4000, 4, {"delta": 0.1, "clock": 1}),
    ("bernoulli", 3000, 2, {"bound": "hoeffding"}),
    ("bernoulli", 3000, 3, {"bound": "hoeffding", "delta": 0.3, "clock": 5, "max_buckets": 3}),
    ("normal", 5000, 4, {"max_buckets": 2, "min_window": 1, "clock": 7}),
    ("normal", 4000, 3, {"bound": "hoeffding", "clock": 3}),
    ("uniform", 4000, 3, {"delta": 0.5, "max_buckets": 7, "min_window": 8, "clock": 33}),
    ("tiny", 3000, 3, {"clock": 4}),
    ("huge", 3000, 3, {"clock": 4}),
]


@pytest.mark.parametrize("kind, n, segments, params", CASES)
def test_identical_to_reference(kind, n, segments, params):
    rng = np.random.default_rng(n + segments)
    x = shifted_stream(rng, n, kind, segments)
    _, codes = assert_same_as_reference(x, **params)
    # MOA's bound has the scale-free term 2/3 dd m, so values of order 1e-200 never cut
    assert any(codes) == (kind != "tiny")


@given(
    st.lists(st.sampled_from([0.0, 1.0, 0.5, -2.0, 3.75, 1e-3]), min_size=0, max_size=300),
    st.integers(2, 4),
    st.integers(1, 5),
    st.integers(1, 4),
    st.sampled_from([0.002, 0.2, 0.9]),
    st.sampled_from(["bernstein", "hoeffding"]),
)
def test_identical_to_reference_hypothesis(x, max_buckets, clock, min_window, delta, bound):
    kw = dict(delta=delta, max_buckets=max_buckets, clock=clock, min_window=min_window, bound=bound)
    assert_same_as_reference(x, **kw)


@pytest.mark.slow
def test_long_stream_several_shifts_identical_to_reference():
    # windows beyond 2**17 inputs: MOA's 32-bit products n1 * WIDTH (deletion) and
    # n1 * n2 (merges of rows >= 16) wrap; the kernel must wrap exactly like Java
    rng = np.random.default_rng(7)
    x = np.concatenate(
        [rng.random(300_000) < 0.2, rng.random(20_000) < 0.5, rng.random(60_000) < 0.2, rng.random(40_000) < 0.35]
    ).astype(float)
    ds, codes = assert_same_as_reference(x)
    det = np.flatnonzero(codes)
    assert det.size and 300_000 <= det[0] < 302_000
    # the wrap is really exercised: MOA's variance now differs from the window's true variance
    start = int(ds.start[300_200])
    true_var = np.var(x[start:300_201])
    assert abs(float(ds.variance[300_200]) - true_var) > 1e-7


# ---------------------------------------------------------------- step-function API


def test_step_function_interleaved_instances_equal_loop_kernel():
    rng = np.random.default_rng(3)
    x = np.stack([shifted_stream(rng, 1500, "bernoulli", 3) for _ in range(3)])
    state = K.adwin_state_new(3, 5)
    work = K.adwin_work_new(state[0])
    codes = np.zeros((3, 1500), dtype=np.int64)
    widths = np.zeros((3, 1500), dtype=np.int64)
    for t in range(1500):
        for i in (2, 0, 1):
            codes[i, t] = K.adwin_update(state, work, i, x[i, t], (0.002, 32, 5, 0))
            widths[i, t] = K.adwin_width(state[3], i)
    ds = adwin(x)
    np.testing.assert_array_equal(codes, ds.detection.values)
    np.testing.assert_array_equal(widths, ds.width.values)
    for i in range(3):
        assert K.adwin_mean(state[3], state[4], i) == ds["mean"].values[i, -1]
        assert K.adwin_variance(state[3], state[4], i) == ds.variance.values[i, -1]
        assert K.adwin_start(state[3], i) == ds.start.values[i, -1]
        assert K.adwin_width(state[3], i) == ds.width.values[i, -1]
    assert state[3][:, K.N_DETECTIONS].tolist() == (ds.detection.values != 0).sum(axis=1).tolist()


def test_loop_kernel_skips_outputs_of_other_length():
    rng = np.random.default_rng(4)
    x = shifted_stream(rng, 3000, "bernoulli", 3)
    full = adwin(x)
    sums, variances, counts, istate, fstate = K.adwin_state_new(1, 5)
    width = np.full(3000, -1, dtype=np.int64)
    none_f = np.empty(0)
    K.adwin_run_one(
        x, (sums[0], variances[0], counts[0], istate[0], fstate[0]), (0.002, 32, 5, 0), (width, none_f, none_f, NONE_I)
    )
    np.testing.assert_array_equal(width, full.width.values)
    assert K.adwin_mean(istate, fstate, 0) == full["mean"].values[-1]
    assert istate[0, K.N_DETECTIONS] == int((full.detection.values != 0).sum())


def test_capacity_of_a_state_with_few_rows():
    # rows 0..R-1 with M buckets each hold M (2**R - 1) inputs; one more would need row R
    sums, variances, counts, istate, fstate = state = K.adwin_state_new(1, max_buckets=2, max_rows=3)
    assert K.adwin_capacity(2, 3) == 14
    work = K.adwin_work_new(sums)
    for _ in range(14):
        K.adwin_update(state, work, 0, 1.0, (0.002, 10**9, 5, 0))
    assert K.adwin_rows(istate, 0) == 3 and counts[0].tolist() == [2, 2, 2]


def test_empty_instance_accessors_are_nan():
    state = K.adwin_state_new(1, 5)
    assert K.adwin_width(state[3], 0) == 0
    assert math.isnan(K.adwin_mean(state[3], state[4], 0))
    assert math.isnan(K.adwin_variance(state[3], state[4], 0))


def test_memory_is_logarithmic_and_histogram_invariants_hold():
    rng = np.random.default_rng(11)
    x = np.concatenate([rng.random(12_000) < 0.3, rng.random(6_000) < 0.7]).astype(float)
    state = K.adwin_state_new(1, 5)
    sums, variances, counts, istate, fstate = state
    work = K.adwin_work_new(sums)
    for t, xi in enumerate(x):
        K.adwin_update(state, work, 0, xi, (0.002, 32, 5, 0))
        w = K.adwin_width(istate, 0)
        rows = K.adwin_rows(istate, 0)
        assert rows <= math.ceil(math.log2(w)) + 1  # the O(log W) bound
        assert 2**rows - 1 <= w  # the exact one: every row holds at least one bucket
        if t % 97 == 0:
            assert counts[0, :rows].max() <= 5 and counts[0, :rows].min() >= 1
            assert int((counts[0, :rows] * 2 ** np.arange(rows)).sum()) == w
            assert not counts[0, rows:].any()


# ---------------------------------------------------------------- properties


@pytest.mark.parametrize("value", [0.0, 1.0, 0.37, -5.0])
def test_constant_stream_never_cuts_and_width_grows_by_one(value):
    ds = adwin(np.full(5000, value))
    assert not ds.detection.values.any()
    np.testing.assert_array_equal(ds.width.values, np.arange(1, 5001))
    assert not ds.start.values.any()
    np.testing.assert_allclose(ds["mean"].values, value)


def test_mean_and_variance_are_those_of_the_window():
    rng = np.random.default_rng(5)
    x = shifted_stream(rng, 4000, "normal", 4)
    ds = adwin(x, delta=0.05)
    assert ds.detection.values.any()
    assert (np.diff(ds.start.values) >= 0).all()  # a monotone window: the start never moves back
    grow = np.diff(ds.width.values)
    cut = ds.detection.values[1:] != 0
    assert (grow[cut] <= 0).all() and (grow[~cut] == 1).all()
    for t in range(0, 4000, 37):
        s = int(ds.start[t])
        assert int(ds.width[t]) == t + 1 - s
        np.testing.assert_allclose(float(ds["mean"][t]), x[s : t + 1].mean(), rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(float(ds.variance[t]), x[s : t + 1].var(), rtol=1e-7, atol=1e-12)


@pytest.mark.parametrize("bound", ["bernstein", "hoeffding"])
def test_mean_shift_of_0_3_is_detected_quickly_with_its_direction(bound):
    rng = np.random.default_rng(21)
    up = np.concatenate([rng.random((20, 5000)) < 0.2, rng.random((20, 5000)) < 0.5], axis=1).astype(float)
    ds = adwin(np.concatenate([up, up[:, ::-1]]), bound=bound)
    rises = adwin_detections(ds, direction="rise")
    falls = adwin_detections(ds, direction="fall")
    for i in range(20):
        after = rises[i][rises[i] >= 5000]
        assert after.size and after[0] < 5000 + 3000, (i, rises[i])
        after = falls[20 + i][falls[20 + i] >= 5000]
        assert after.size and after[0] < 5000 + 3000, (i, falls[20 + i])


@pytest.mark.slow
def test_false_alarm_rate_on_stationary_bernoulli_is_at_most_delta():
    rng = np.random.default_rng(2026)
    delta, clock, n = 0.05, 32, 20_000
    x = (rng.random((64, n)) < 0.3).astype(float)
    ds = adwin(x, delta=delta, clock=clock)
    n_checks = 64 * (n // clock)  # an upper bound: checks need width > 10 as well
    rate = (ds.detection.values != 0).sum() / n_checks
    assert rate <= delta


# ---------------------------------------------------------------- chunks and leading dims


@given(st.lists(st.integers(0, 900), min_size=0, max_size=6), st.integers(0, 10_000))
def test_chunked_equals_one_pass(cuts, seed):
    rng = np.random.default_rng(seed)
    x = np.stack([shifted_stream(rng, 900, "bernoulli", 3), shifted_stream(rng, 900, "normal", 2)])
    bounds = [0, *sorted(cuts), 900]
    det = Adwin(delta=0.05, clock=4)
    for a, b in zip(bounds[:-1], bounds[1:]):
        det.update(x[:, a:b])
    assert det.n_seen == 900
    xr.testing.assert_identical(det.result().drop_attrs(), adwin(x, delta=0.05, clock=4).drop_attrs())
    single = Adwin(delta=0.05, clock=4)  # one stream: the serial kernel, no thread pool
    for a, b in zip(bounds[:-1], bounds[1:]):
        single.update(x[1, a:b])
    xr.testing.assert_identical(single.result().drop_attrs(), adwin(x[1], delta=0.05, clock=4).drop_attrs())


def test_leading_dims_are_independent():
    rng = np.random.default_rng(8)
    x = np.stack([[shifted_stream(rng, 2000, "bernoulli", 3) for _ in range(3)] for _ in range(2)])
    ds = adwin(x, delta=0.01)
    assert ds.detection.dims == ("model", "fold", "time")
    for i in range(2):
        for j in range(3):
            one = adwin(x[i, j], delta=0.01)
            for name in ("width", "mean", "variance", "start", "detection"):
                np.testing.assert_array_equal(ds[name].values[i, j], one[name].values)
    nested = adwin_detections(ds)
    assert len(nested) == 2 and len(nested[0]) == 3
    np.testing.assert_array_equal(nested[1][2], adwin_detections(adwin(x[1, 2], delta=0.01)))


def test_dataarray_input_keeps_coords_and_roundtrips_netcdf(tmp_path):
    rng = np.random.default_rng(9)
    da = xr.DataArray(
        np.stack([shifted_stream(rng, 800, "bernoulli", 2) for _ in range(2)]),
        dims=("model", "step"),
        coords={"model": ["a", "b"], "step": np.arange(800) * 10},
    )
    ds = adwin(da, delta=0.1)
    assert ds["model"].values.tolist() == ["a", "b"]
    np.testing.assert_array_equal(ds["step"].values, np.arange(800) * 10)
    np.testing.assert_array_equal(ds.instance.values, np.arange(1, 801))
    assert ds.attrs["delta"] == 0.1 and ds.attrs["bound"] == "bernstein" and ds.attrs["clock"] == 32
    path = tmp_path / "adwin.nc"
    ds.to_netcdf(path)
    with xr.open_dataset(path) as back:
        np.testing.assert_array_equal(back.detection.values, ds.detection.values)


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"delta": 1.5}, ValueError, r"delta must be in \(0, 1\), got 1.5"),
        ({"delta": 0.0}, ValueError, "delta"),
        ({"max_buckets": 1}, ValueError, "max_buckets must be an integer >= 2, got 1"),
        ({"clock": 0}, ValueError, "clock must be a positive integer, got 0"),
        ({"clock": 32.0}, TypeError, "clock must be an integer"),
        ({"min_window": 0}, ValueError, "min_window"),
        ({"bound": "river"}, ValueError, "bound must be one of"),
    ],
)
def test_bad_parameters_are_refused(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        adwin(np.zeros(10), **kwargs)


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError, match=r"x contains a non-finite value .*nan.* at index \(1, 3\)"):
        adwin(np.array([[0.0] * 5, [0, 0, 0, np.nan, 0]]))
    with pytest.raises(ValueError, match="non-finite value .*inf"):
        adwin(np.array([0.0, np.inf]))
    with pytest.raises(TypeError, match="x must be real"):
        adwin(np.array([1j, 0]))
    with pytest.raises(TypeError, match="x must be numeric"):
        adwin(np.array(["a", "b"]))
    det = Adwin()
    with pytest.raises(ValueError, match="before any update"):
        det.result()
    det.update(np.zeros((2, 5)))
    with pytest.raises(ValueError, match="leading dims"):
        det.update(np.zeros((3, 5)))
    with pytest.raises(ValueError, match="direction must be one of"):
        adwin_detections(adwin(np.zeros(5)), direction="up")


# ---------------------------------------------------------------- the scan filter (streamtk._kernels.adwin.scan)
#
# The fast scan clears split points with a division-free filter and runs MOA's
# exact test only on the rest. These tests compare it with the unfiltered scan
# on hand-built histograms (random, and tuned to sit exactly on MOA's cut
# threshold) and on streams built to cut near the threshold.


def build_state(counts, totals, variances, max_buckets):
    """A histogram state (one instance) from per-row counts and bucket values (oldest first)."""
    S, V, C, I, F = K.adwin_state_new(1, max_buckets, max_rows=len(counts) + 2)
    for r, (c, tots, vs) in enumerate(zip(counts, totals, variances)):
        C[0, r] = c
        S[0, r, :c] = tots
        V[0, r, :c] = vs
    return S[0], V[0], C[0]


def both_scans(S, V, C, total, var, delta, min_window, bound, dirty=KS.ALL_ROWS):
    """(filtered, exact) scan results on copies of one state, arrays included."""
    last = int(np.flatnonzero(C)[-1])
    w = int(sum(int(C[r]) << r for r in range(last + 1)))
    xmax = max(abs(float(S[r, k])) / 2**r for r in range(last + 1) for k in range(C[r]))
    a = (S.copy(), V.copy(), C.copy())
    b = (S.copy(), V.copy(), C.copy())
    work = np.full((4, S.size), np.nan)
    win = (w, last, total, var)
    cut, win_a, _ = KS.scan(a, work, win, xmax, (delta, min_window, bound), (0, 0.0), dirty)
    ln = KS.ln_term(w, delta, bound)
    exact = KS.moa_scan(b, win, var / w, ln, min_window, bound, KS.NO_FILTER)
    return ((cut, *win_a), a), ((exact[0], *exact[1]), b)


def assert_same_scan(fast, exact):
    (rf, (S1, V1, C1)), (re_, (S2, V2, C2)) = fast, exact
    assert tuple(rf) == tuple(re_)  # cut, width, last row, total, variance
    np.testing.assert_array_equal(C1, C2)
    for r in range(int(rf[2]) + 1):
        np.testing.assert_array_equal(S1[r, : C1[r]], S2[r, : C2[r]])
        np.testing.assert_array_equal(V1[r, : C1[r]], V2[r, : C2[r]])


@st.composite
def histograms(draw):
    max_buckets = draw(st.integers(2, 6))
    n_rows = draw(st.integers(1, 7))
    counts = [draw(st.integers(1, max_buckets)) for _ in range(n_rows)]
    kind = draw(st.sampled_from(["bernoulli", "real", "constant", "signed"]))
    p = draw(st.floats(0.0, 1.0))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    totals, variances = [], []
    for r, c in enumerate(counts):
        size = 2**r
        if kind == "bernoulli":
            t = rng.binomial(size, p, c).astype(float)
        elif kind == "real":
            t = rng.random(c) * size * p
        elif kind == "constant":
            t = np.full(c, p * size)
        else:
            t = (rng.random(c) - 0.5) * size * 4
        totals.append(t)
        variances.append(rng.random(c) * size * 0.25)
    total = float(np.sum(np.concatenate(totals)))
    var = draw(st.sampled_from([0.0, 1e-3, 0.1, 1.0])) * sum(c << r for r, c in enumerate(counts))
    return max_buckets, counts, totals, variances, total, var


@given(
    histograms(),
    st.sampled_from([0.002, 0.05, 0.5, 1e-6]),
    st.integers(1, 5),
    st.sampled_from([0, 1]),
)
def test_filtered_scan_equals_exact_scan_on_random_histograms(hist, delta, min_window, bound):
    max_buckets, counts, totals, variances, total, var = hist
    S, V, C = build_state(counts, totals, variances, max_buckets)
    if sum(c << r for r, c in enumerate(counts)) <= K.MIN_WIDTH_FOR_CHECK:
        return  # ADWIN never scans such a window
    fast, exact = both_scans(S, V, C, total, var, delta, min_window, bound)
    assert_same_scan(fast, exact)


def _ordinal(f):
    """Monotone integer code of a non-negative float (adjacent floats differ by 1)."""
    return int(np.float64(f).view(np.int64))


def _from_ordinal(i):
    return float(np.int64(i).view(np.float64))


@pytest.mark.parametrize("bound", [0, 1])
@pytest.mark.parametrize("case", range(12))
def test_filtered_scan_equals_exact_scan_on_the_cut_threshold(bound, case):
    # a two-row histogram whose oldest bucket's total is tuned (bisection over adjacent
    # floats) to the exact point where MOA's floating-point test starts to cut; at that
    # point, at the neighbouring floats and at small relative offsets on both sides the
    # filtered scan must do exactly what the exact one does
    rng = np.random.default_rng(100 + case)
    max_buckets = int(rng.integers(2, 6))
    min_window = int(rng.integers(1, 5))
    delta = float(rng.choice([0.002, 0.1, 1e-5]))
    n_rows = int(rng.integers(4, 9))
    counts = [int(rng.integers(1, max_buckets + 1)) for _ in range(n_rows)]
    counts[0] = max(counts[0], 2)
    p = rng.random()
    totals = [np.full(c, p * 2**r) for r, c in enumerate(counts)]  # a constant window ...
    variances = [np.full(c, 0.01 * 2**r) for r, c in enumerate(counts)]
    w = sum(c << r for r, c in enumerate(counts))
    var = float(rng.choice([0.0, 0.05, 0.3])) * w
    top = n_rows - 1

    def scans(s):
        tots = [t.copy() for t in totals]
        tots[top][0] = s  # ... whose oldest bucket is moved
        total = float(np.sum(np.concatenate(tots)))
        S, V, C = build_state(counts, tots, variances, max_buckets)
        return both_scans(S, V, C, total, var, delta, min_window, bound)

    size = 2**top
    lo, hi = p * size, p * size + 50.0 * size  # no cut at the constant window; a cut far above
    assert not scans(lo)[1][0][0] and scans(hi)[1][0][0]
    a, b = _ordinal(lo), _ordinal(hi)
    while b - a > 1:
        mid = (a + b) // 2
        if scans(_from_ordinal(mid))[1][0][0]:
            b = mid
        else:
            a = mid
    flip = _from_ordinal(b)  # the smallest total at which MOA's scan cuts
    probes = [_from_ordinal(b + d) for d in range(-3, 4)]
    probes += [flip * (1 + sign * rel) for rel in (1e-14, 1e-12, 1e-10, 1e-8, 1e-6, 1e-3) for sign in (-1, 1)]
    for s in probes:
        fast, exact = scans(s)
        assert_same_scan(fast, exact)
    assert scans(flip)[0][0][0] and not scans(_from_ordinal(b - 1))[0][0][0]


@given(
    st.lists(
        st.tuples(st.integers(1, 400), st.sampled_from([0.0, 0.2, 0.21, 0.25, 0.3, 0.5, 1.0]), st.booleans()),
        min_size=1,
        max_size=8,
    ),
    st.integers(0, 1000),
    st.sampled_from([0.002, 0.05, 0.3]),
    st.sampled_from([1, 4, 32, 33]),
    st.integers(1, 6),
    st.integers(2, 6),
    st.sampled_from(["bernstein", "hoeffding"]),
)
def test_near_threshold_streams_identical_to_reference(runs, seed, delta, clock, min_window, max_buckets, bound):
    # constant runs (variance 0: MOA's bound reduces to its linear term) and Bernoulli
    # runs whose means differ by small steps, so that cuts happen close to the bound
    rng = np.random.default_rng(seed)
    parts = [
        np.full(length, level) if constant else (rng.random(length) < level).astype(float)
        for length, level, constant in runs
    ]
    x = np.concatenate(parts)
    assert_same_as_reference(x, delta=delta, clock=clock, min_window=min_window, max_buckets=max_buckets, bound=bound)


@given(st.lists(st.integers(1, 700), min_size=1, max_size=8), st.integers(0, 10_000), st.sampled_from([0, 1]))
def test_width_only_chunks_equal_one_full_pass(chunks, seed, bound):
    # the engine's call: width output only, the state carried from chunk to chunk
    rng = np.random.default_rng(seed)
    x = shifted_stream(rng, 3000, "bernoulli", 4)
    full = adwin(x, delta=0.05, bound=("bernstein", "hoeffding")[bound])
    sums, variances, counts, istate, fstate = K.adwin_state_new(1, 5)
    width = np.full(3000, -1, dtype=np.int64)
    none_f = np.empty(0)
    bounds = np.unique(np.r_[0, np.cumsum(chunks), 3000].clip(0, 3000))
    for a, b in zip(bounds[:-1], bounds[1:]):
        K.adwin_run_one(
            x[a:b],
            (sums[0], variances[0], counts[0], istate[0], fstate[0]),
            (0.05, 32, 5, bound),
            (width[a:b], none_f, none_f, NONE_I),
        )
    np.testing.assert_array_equal(width, full.width.values)
    assert istate[0, K.N_DETECTIONS] == int((full.detection.values != 0).sum())
    assert K.adwin_mean(istate, fstate, 0) == full["mean"].values[-1]
    assert K.adwin_variance(istate, fstate, 0) == full.variance.values[-1]


def test_identical_to_moa_through_capymoa():
    # MOA itself as the reference (issue 3): capymoa ships MOA's jar. MOA's ADWINChangeDetector reports a
    # change when ADWIN cuts and its estimate rose; its estimate is ADWIN's window mean.
    capymoa_drift = import_capymoa("capymoa.drift.detectors")
    rng = np.random.default_rng(1)
    for trial, delta in enumerate([0.002, 0.1, 0.5]):
        n = 12_000
        x = (rng.random(n) < np.repeat(rng.uniform(0.05, 0.6, size=4), n // 4)).astype(float)
        if trial == 2:
            x *= rng.uniform(0, 1, n)  # bounded real values, not only 0/1
        moa = capymoa_drift.ADWIN(delta=delta)
        detections, estimate = [], np.empty(n)
        for i, v in enumerate(x):
            moa.add_element(float(v))
            estimate[i] = moa.moa_detector.getEstimation()
            if moa.detected_change():
                detections.append(i)
        ds = adwin(x, delta=delta)
        assert np.flatnonzero(ds.detection.values > 0).tolist() == detections
        np.testing.assert_array_equal(ds["mean"].values, estimate)
        assert detections  # the stream has rises that MOA detects


# ---------------------------------------------------------------- detections without a trace, labels, pickling


@given(st.integers(0, 10_000), st.lists(st.integers(1, 900), min_size=0, max_size=4))
def test_trace_false_keeps_exactly_the_cuts_of_the_trace(seed, cuts):
    rng = np.random.default_rng(seed)
    x = np.stack([shifted_stream(rng, 1800, "bernoulli", 4), shifted_stream(rng, 1800, "uniform", 3)])
    full = adwin(x, delta=0.1, clock=4)
    lean = Adwin(delta=0.1, clock=4, trace=False)
    bounds = [0, *sorted(cuts), 1800]
    for a, b in zip(bounds[:-1], bounds[1:]):
        lean.update(x[:, a:b])
    lean = lean.result()
    assert set(lean.data_vars) == {"n_detections", "detection_index", "detection_sign"} and "time" not in lean.dims
    for name in ("n_detections", "detection_index", "detection_sign"):
        np.testing.assert_array_equal(lean[name].values, full[name].values)
    for r in range(2):
        steps = np.flatnonzero(full.detection.values[r])
        assert full.n_detections.values[r] == steps.size
        np.testing.assert_array_equal(full.detection_index.values[r, : steps.size], steps)
        np.testing.assert_array_equal(full.detection_sign.values[r, : steps.size], full.detection.values[r, steps])
        for direction in ("any", "rise", "fall"):
            np.testing.assert_array_equal(
                adwin_detections(lean, direction=direction)[r], adwin_detections(full, direction=direction)[r]
            )


def test_later_chunks_are_aligned_by_their_labels():
    rng = np.random.default_rng(12)
    x = np.stack([shifted_stream(rng, 1200, "bernoulli", 3) for _ in range(3)])
    da = xr.DataArray(x, dims=("model", "time"), coords={"model": ["a", "b", "c"]})
    det = Adwin(delta=0.05).update(da[:, :500])
    det.update(da[::-1, 500:])  # the same models in another order
    xr.testing.assert_identical(det.result().drop_attrs(), adwin(da, delta=0.05).drop_attrs())
    with pytest.raises(ValueError, match="'model' labels do not match"):
        Adwin().update(da[:, :10]).update(da[:, 10:20].assign_coords(model=["a", "b", "z"]))


def test_detector_pickles_mid_stream():
    import pickle

    rng = np.random.default_rng(13)
    x = shifted_stream(rng, 3000, "bernoulli", 4)
    det = pickle.loads(pickle.dumps(Adwin(delta=0.05).update(x[:1700])))
    xr.testing.assert_identical(det.update(x[1700:]).result().drop_attrs(), adwin(x, delta=0.05).drop_attrs())


def test_defaults_are_the_evaluation_engine_s():
    import inspect

    from streamtk._core.adwin import ADWIN_BOUNDS, ADWIN_DEFAULTS
    from streamtk.drift.adwin import DEFAULTS

    sig = inspect.signature(adwin).parameters
    assert {k: sig[k].default for k in DEFAULTS} == DEFAULTS
    assert {k: DEFAULTS[k] for k in ADWIN_DEFAULTS} == ADWIN_DEFAULTS and ADWIN_BOUNDS == K.BOUND_CODES
    assert inspect.signature(Adwin).parameters["bound"].default == DEFAULTS["bound"]
