"""Per-instance costs must cover the stream exactly (issue 35, item 3)."""

from __future__ import annotations

import numpy as np
import pytest

import streamtk


def _stream(n=40):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, n)
    return y, np.where(rng.random(n) < 0.8, y, 1 - y)


@pytest.mark.parametrize("extra", [12, -1])
def test_evaluate_refuses_per_instance_costs_of_another_length(extra):
    y, p = _stream()
    cost = np.ones((y.size + extra, 2, 2))
    with pytest.raises(ValueError, match=rf"cost .*for {y.size + extra} instances.*the stream has {y.size} instances"):
        streamtk.evaluate(y, p, metrics=["risk"], cost=cost)


def test_evaluate_accepts_exactly_one_cost_matrix_per_instance():
    y, p = _stream()
    cost = np.broadcast_to(np.array([[0.0, 1.0], [5.0, 0.0]]), (y.size, 2, 2))
    ds = streamtk.evaluate(y, p, metrics=["risk"], cost=cost)
    want = np.mean(cost[np.arange(y.size), y, p])
    assert ds.risk.isel(time=-1).item() == pytest.approx(want)


def test_evaluator_checks_the_declared_length_and_each_chunk():
    y, p = _stream()
    cost = np.ones((y.size + 12, 2, 2))
    with pytest.raises(ValueError, match=rf"cost .*for {y.size + 12} instances.*the stream has {y.size} instances"):
        streamtk.Evaluator(classes=[0, 1], n_instances=y.size, metrics=["risk"], cost=cost)
    ev = streamtk.Evaluator(classes=[0, 1], every=10, metrics=["risk"], cost=cost[: y.size - 5])
    ev.update(y[:30], p[:30])
    with pytest.raises(ValueError, match=r"cost has per-instance costs for 35 instances.*at least 40"):
        ev.update(y[30:], p[30:])
