"""Sample-size and confidence helpers against the numbers published in the seeds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from streamtk.stats.bounds import (
    confidence_half_width,
    fading_effective_size,
    fading_horizon,
    fading_weight,
    hoeffding_bound,
    hoeffding_sample_size,
    langford_test_set_bound,
    window_size_for_half_width,
)


def test_hoeffding_sample_size_gama_appendix_a():
    # Gama et al. 2013 (seed 004), Appendix A: eps = 1%, delta = 5% -> n = 18444
    n = hoeffding_sample_size(0.01, 0.05)
    assert int(n) == 18444
    assert math.ceil(n) == 18445  # the smallest sample that strictly guarantees the bound
    assert 2 * math.exp(-2 * 0.01**2 * n) == pytest.approx(0.05)
    assert hoeffding_bound(math.ceil(n), 0.05) <= 0.01 < hoeffding_bound(18444, 0.05)


def test_hoeffding_range_scaling_and_inverse():
    assert hoeffding_sample_size(0.02, 0.05, value_range=2.0) == pytest.approx(hoeffding_sample_size(0.01, 0.05))
    n = np.array([10.0, 1e3, 1e6])
    eps = hoeffding_bound(n, 0.01, value_range=3.0)
    np.testing.assert_allclose(hoeffding_sample_size(eps, 0.01, value_range=3.0), n)


def test_langford_test_set_bound_theorem_1():
    # Bifet et al. 2015 (seed 000), Theorem 1: sqrt(ln(2/delta) / (2m))
    assert langford_test_set_bound(1000, 0.05) == pytest.approx(math.sqrt(math.log(40) / 2000))
    assert langford_test_set_bound(18444, 0.05) == pytest.approx(0.01, rel=2e-5)
    assert langford_test_set_bound(1, 1.0) == pytest.approx(math.sqrt(math.log(2) / 2))  # delta = 1 allowed


def test_window_size_for_confidence_interval_gama_3_4():
    # Gama et al. 2013, section 3.4: n = 1000 -> 3%, eps = 1% -> n = 10000
    assert round(confidence_half_width(1000), 2) == 0.03
    assert confidence_half_width(10000) == pytest.approx(0.01)
    assert window_size_for_half_width(0.01) == pytest.approx(10000)
    assert window_size_for_half_width(confidence_half_width(1000)) == pytest.approx(1000)
    assert confidence_half_width(100, z=1.96, p=0.1) == pytest.approx(1.96 * math.sqrt(0.09 / 100))


def test_fading_factor_horizon_and_size():
    # Gama et al. 2013, section 3.4: fading factor 0.995, weight of the first term after 3000 examples 2.9e-7
    assert fading_weight(0.995, 3000) == pytest.approx(2.9e-7, abs=5e-9)
    h = fading_horizon(0.995, 2.9e-7)
    assert h == pytest.approx(math.log(2.9e-7) / math.log(0.995))
    assert 2990 < h < 3010
    assert fading_weight(0.995, h) == pytest.approx(2.9e-7)
    assert fading_effective_size(0.999) == pytest.approx(1000.0)
    n = np.arange(0, 50)
    brute = np.array([sum(0.9**k for k in range(m)) for m in n])
    np.testing.assert_allclose(fading_effective_size(0.9, n), brute, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(fading_effective_size(1.0, n), n)
    assert fading_effective_size(0.99, 10**6) == pytest.approx(100.0)


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="delta"):
        hoeffding_sample_size(0.01, 0.0)
    with pytest.raises(ValueError, match="eps"):
        hoeffding_sample_size(-0.01, 0.05)
    with pytest.raises(ValueError, match="fading must be < 1, got 1.0"):
        fading_horizon(1.0, 0.01)
    with pytest.raises(ValueError, match="fading = 1"):
        fading_effective_size(1.0)
    with pytest.raises(ValueError, match="m must be > 0, got 0.0"):
        langford_test_set_bound(0, 0.05)
    with pytest.raises(TypeError, match="m must be numeric"):
        langford_test_set_bound("a lot", 0.05)
