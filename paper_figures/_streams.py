"""Synthetic streams as MOA command lines, with their river counterparts for the fallback producer.

The papers generated their synthetic streams with MOA (Gama et al. 2013 sec. 5.2: LEDGenerator ->
LEDGeneratorDrift with 7 drifting attributes, WaveformGenerator -> WaveformGeneratorDrift with 21,
RandomRBFGenerator -> RandomRBFGeneratorDrift with model seed 10 and speed 0.01, two
RandomTreeGenerators with different tree seeds; Bifet et al. 2015 sec. 4.1: SEA, Hyperplane,
RandomRBF, LED). A :class:`Gen` holds the MOA command line (run by MOA itself through capymoa)
and a river iterator factory that approximates it when MOA is not available (river's generators
are other implementations: the same concepts, other random streams).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["Gen", "sea", "led", "waveform", "rbf", "rtree", "hyperplane", "drift", "sea_concepts"]


@dataclass(frozen=True)
class Gen:
    """A stream: MOA's command line (relative to ``moa.streams``), a river factory and the classes."""

    moa: str
    river: Callable
    n_classes: int
    text: str

    @property
    def classes(self):
        return list(range(self.n_classes))


def _synth():
    from river.datasets import synth

    return synth


def _take_river(make):
    def gen():
        yield from make()

    return gen


def sea(function, seed, *, noise=10):
    """SEA concepts (Street and Kim 2001): function 1-4 = thresholds 8, 9, 7, 9.5; ``noise`` in %."""
    return Gen(
        f"generators.SEAGenerator -f {function} -i {seed} -n {noise}",
        _take_river(lambda: _synth().SEA(variant=function - 1, noise=noise / 100, seed=seed)),
        2,
        f"SEA function {function} (noise {noise}%, seed {seed})",
    )


def led(seed, *, drift_attrs=0):
    """LED (24 binary attributes, 10 % noise); ``drift_attrs`` > 0: LEDGeneratorDrift."""
    if drift_attrs:
        return Gen(
            f"generators.LEDGeneratorDrift -d {drift_attrs} -i {seed}",
            _take_river(
                lambda: _synth().LEDDrift(
                    seed=seed, noise_percentage=0.1, irrelevant_features=True, n_drift_features=drift_attrs
                )
            ),
            10,
            f"LEDGeneratorDrift ({drift_attrs} drifting attributes, seed {seed})",
        )
    return Gen(
        f"generators.LEDGenerator -i {seed}",
        _take_river(lambda: _synth().LED(seed=seed, noise_percentage=0.1, irrelevant_features=True)),
        10,
        f"LEDGenerator (seed {seed})",
    )


def waveform(seed, *, drift_attrs=0):
    """Waveform (21 attributes, 3 classes); ``drift_attrs`` > 0: WaveformGeneratorDrift (river: the
    attributes permuted by a seeded permutation, as MOA swaps attribute positions)."""
    if drift_attrs:
        perm = np.arange(21)
        rng = np.random.default_rng(seed)
        perm[:drift_attrs] = rng.permutation(drift_attrs)

        def gen():
            for x, y in _synth().Waveform(seed=seed):
                yield {i: x[int(perm[i])] for i in range(21)}, y

        return Gen(
            f"generators.WaveformGeneratorDrift -d {drift_attrs} -i {seed}",
            gen,
            3,
            f"WaveformGeneratorDrift ({drift_attrs} drifting attributes, seed {seed})",
        )
    return Gen(
        f"generators.WaveformGenerator -i {seed}",
        _take_river(lambda: _synth().Waveform(seed=seed)),
        3,
        f"WaveformGenerator (seed {seed})",
    )


def rbf(model_seed, seed, *, speed=0.0, centroids=50, drift_centroids=50):
    """RandomRBF (10 attributes, 2 classes); ``speed`` > 0: RandomRBFGeneratorDrift."""
    if speed > 0:
        return Gen(
            f"generators.RandomRBFGeneratorDrift -r {model_seed} -i {seed} -n {centroids} -s {speed} "
            f"-k {drift_centroids}",
            _take_river(
                lambda: _synth().RandomRBFDrift(
                    seed_model=model_seed,
                    seed_sample=seed,
                    n_centroids=centroids,
                    change_speed=speed,
                    n_drift_centroids=drift_centroids,
                )
            ),
            2,
            f"RandomRBFGeneratorDrift (model seed {model_seed}, {drift_centroids} centroids moving at {speed})",
        )
    return Gen(
        f"generators.RandomRBFGenerator -r {model_seed} -i {seed} -n {centroids}",
        _take_river(lambda: _synth().RandomRBF(seed_model=model_seed, seed_sample=seed, n_centroids=centroids)),
        2,
        f"RandomRBFGenerator (model seed {model_seed}, {centroids} centroids)",
    )


def rtree(tree_seed, seed):
    """RandomTree (5 nominal + 5 numeric attributes, 2 classes)."""
    return Gen(
        f"generators.RandomTreeGenerator -r {tree_seed} -i {seed}",
        _take_river(lambda: _synth().RandomTree(seed_tree=tree_seed, seed_sample=seed)),
        2,
        f"RandomTreeGenerator (tree seed {tree_seed})",
    )


def hyperplane(seed, *, drift_attrs=10, magnitude=0.001):
    """Rotating hyperplane (10 attributes, 2 classes), ``drift_attrs`` attributes changing by ``magnitude``."""
    return Gen(
        f"generators.HyperplaneGenerator -k {drift_attrs} -t {magnitude} -i {seed}",
        _take_river(
            lambda: _synth().Hyperplane(seed=seed, n_features=10, n_drift_features=drift_attrs, mag_change=magnitude)
        ),
        2,
        f"HyperplaneGenerator ({drift_attrs} drifting attributes, magnitude {magnitude})",
    )


def drift(a: Gen, b: Gen, position, *, width=1, seed=1):
    """MOA's ConceptDriftStream: ``a`` then ``b``, the change centred at ``position`` (width ``width``)."""
    if a.n_classes != b.n_classes:
        raise ValueError(f"drift between streams with {a.n_classes} and {b.n_classes} classes")

    def gen():
        # MOA's rule: the instance comes from b with probability 1 / (1 + exp(-4 (t - position) / width))
        rng = np.random.default_rng(seed)
        ia, ib = iter(a.river()), iter(b.river())
        t = 0
        while True:
            z = -4.0 * (t - position) / max(width, 1)
            p = 0.0 if z > 700 else 1.0 / (1.0 + np.exp(z))
            yield next(ib) if rng.random() < p else next(ia)
            t += 1

    return Gen(
        f"ConceptDriftStream -s ({a.moa}) -d ({b.moa}) -p {int(position)} -w {int(width)} -r {seed}",
        gen,
        a.n_classes,
        f"{a.text} -> {b.text} at {int(position)} (width {int(width)})",
    )


def sea_concepts(functions, every, seed, *, width=1, noise=10):
    """SEA with a change every ``every`` instances through the given functions (nested ConceptDriftStreams)."""
    gens = [sea(f, seed + k, noise=noise) for k, f in enumerate(functions)]
    out = gens[-1]
    for g in reversed(gens[:-1]):
        out = drift(g, out, every, width=width, seed=seed)
    return out
