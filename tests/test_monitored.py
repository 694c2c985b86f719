"""Monitored estimates of a scalar stream (streamtk._kernels.detectors.monitored) against slow references.

Gama et al. 2013, Algorithms 1-4, and the shared forgetting mechanisms (tumbling windows, landmarks):
each estimate against a definition written from scratch (means over explicit index sets, explicit
weights ``a**(t - s)``), chunked calls against one call, and the lazy fading's renormalisation against a
literal per-step one (bit for bit).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from streamtk._kernels import forgetting as F
from streamtk._kernels.detectors import monitored as M

KINDS = {"raw": M.RAW, "prequential": F.PREQUENTIAL, "window": F.WINDOW, "fading": F.FADING,
         "tumbling": F.TUMBLING, "landmarks": F.LANDMARKS}  # fmt: skip


def run_kernel(x, kind, size=0, fading=1.0, marks=(), cuts=(), h=None):
    """The estimates of ``x`` with the state carried over chunks cut at ``cuts`` (``h`` inputs carried)."""
    x = np.asarray(x, dtype=np.float64)
    marks = np.asarray(marks, dtype=np.int64)
    stf = np.array([0.0, 0.0, 1.0])
    sti = np.zeros(1, np.int64)
    out = np.empty(x.size)
    bounds = [0, *sorted(c for c in cuts if 0 < c < x.size), x.size]
    for a, b in zip(bounds[:-1], bounds[1:]):
        keep = min(a, size if h is None else h)
        xrow = x[a - keep : b]
        for j0 in range(0, b - a, 97):  # blocks of an odd length, across chunk boundaries
            nb = min(97, b - a - j0)
            M.estimate_block(KINDS[kind], size, fading, marks, xrow, keep, a, j0, nb, stf, sti, out[a + j0 :])
    return out


def ref_mean(x, members):
    """Mean of ``x`` over each index set (NaN when empty)."""
    return np.array([np.mean([x[s] for s in m]) if len(m) else np.nan for m in members])


def ref_sets(n, kind, size=0, marks=()):
    out = []
    for t in range(n):
        if kind == "prequential":
            start = 0
        elif kind == "window":
            start = max(0, t - size + 1)
        elif kind == "tumbling":
            start = (t // size) * size
        else:
            start = max([m for m in marks if m <= t], default=0)
        out.append(range(start, t + 1))
    return out


streams = st.lists(st.floats(-5, 5, allow_nan=False, allow_infinity=False), min_size=1, max_size=300)
cuts = st.lists(st.integers(1, 299), max_size=4)


@given(streams, cuts)
def test_raw_is_the_input(x, cut):
    np.testing.assert_array_equal(run_kernel(x, "raw", cuts=cut), x)


@given(streams, cuts)
def test_prequential_is_algorithm_1(x, cut):
    x = np.asarray(x)
    np.testing.assert_allclose(run_kernel(x, "prequential", cuts=cut), ref_mean(x, ref_sets(x.size, "prequential")),
                               rtol=1e-9, atol=1e-9)  # fmt: skip


@given(streams, st.integers(1, 40), cuts)
def test_window_is_algorithm_2(x, w, cut):
    # Algorithm 2 reports the mean over min(i, w) inputs before the window is full
    x = np.asarray(x)
    np.testing.assert_allclose(run_kernel(x, "window", size=w, cuts=cut), ref_mean(x, ref_sets(x.size, "window", w)),
                               rtol=1e-9, atol=1e-9)  # fmt: skip


@given(streams, st.integers(1, 40), cuts)
def test_tumbling_restarts_at_multiples_of_its_size(x, w, cut):
    x = np.asarray(x)
    got = run_kernel(x, "tumbling", size=w, cuts=cut)
    np.testing.assert_allclose(got, ref_mean(x, ref_sets(x.size, "tumbling", w)), rtol=1e-9, atol=1e-9)


@given(streams, st.lists(st.integers(0, 299), min_size=1, max_size=6, unique=True), cuts)
def test_landmarks_restart_at_their_positions(x, marks, cut):
    x = np.asarray(x)
    marks = sorted(marks)
    got = run_kernel(x, "landmarks", marks=marks, cuts=cut)
    np.testing.assert_allclose(got, ref_mean(x, ref_sets(x.size, "landmarks", marks=marks)), rtol=1e-9, atol=1e-9)


@given(streams, st.floats(0.5, 1.0), cuts)
def test_fading_is_algorithm_3_explicit_weights(x, a, cut):
    x = np.asarray(x)
    ref = [np.dot(a ** np.arange(t, -1, -1), x[: t + 1]) / (a ** np.arange(t + 1)).sum() for t in range(x.size)]
    np.testing.assert_allclose(run_kernel(x, "fading", fading=a, cuts=cut), ref, rtol=1e-9, atol=1e-9)


def test_binary_window_sums_are_exact():
    x = (np.random.default_rng(2).random(500) < 0.3).astype(float)
    got = run_kernel(x, "window", size=7, cuts=[100, 333])
    assert got.tolist() == [x[max(0, t - 6) : t + 1].sum() / min(t + 1, 7) for t in range(500)]


@pytest.mark.parametrize("a", [0.5, 0.9, 0.999])
def test_lazy_fading_renormalises_at_the_step_a_per_step_check_picks(a):
    # the kernel checks the multiplier only where it could exceed RENORM; a literal per-step restatement
    # of the same arithmetic (mean_step's operations, the check after every step) must agree bit for bit
    n = 6000 if a < 0.999 else 500_000
    x = np.random.default_rng(3).random(n)
    s, nn, m, step, ref = 0.0, 0.0, 1.0, 1.0 / a, np.empty(n)
    for t in range(n):
        m = m * step
        s = (1.0 * s + m * x[t]) - 0.0
        nn = 1.0 * nn + m
        ref[t] = s / nn
        if m > F.RENORM:
            s, nn, m = s / m, nn / m, 1.0
    got = run_kernel(x, "fading", fading=a, cuts=[n // 3, n // 3 + 1, 2 * n // 3])
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("step", [1.0, 1.0000001, 1.001, 1.1, 2.0, 100.0])
@pytest.mark.parametrize("m", [1.0, 3.7, 1e50, 1e99, 1e100])
def test_safe_steps_never_cross_the_renormalisation_bound(step, m):
    k = M.safe_steps(m, step)
    if step == 1.0:
        assert k > 10**15
        return
    k = min(k, 10**7)
    mm = m
    for _ in range(k):
        mm *= step
        assert mm <= F.RENORM
    assert k >= 0


def test_ratio_is_algorithm_4_and_undefined_is_nan():
    x = np.r_[np.zeros(3), np.random.default_rng(4).random(30)]
    long_ = run_kernel(x, "window", size=8)
    short = run_kernel(x, "window", size=3)
    out = np.empty(x.size)
    M.ratio_block(long_, short, x.size, out)
    assert np.isnan(out[:3]).all()  # 0 / 0: no information yet
    np.testing.assert_array_equal(out[3:], short[3:] / long_[3:])
