"""The detectors streamtk runs: one entry each, read by the trade-off grid, dask, out-of-core and the CLI.

Each entry names the public function (``x -> Dataset``, many settings in one pass where the
detector supports it) and the chunked class (``update()`` chunk by chunk, carried state) of a
detector. Imports are lazy, so that asking for one detector compiles only its kernels.
"""

from __future__ import annotations

from importlib import import_module

__all__ = ["DETECTORS", "detector_class", "detector_function"]

#: name -> (module, function, chunked class)
DETECTORS = {
    "page_hinkley": ("streamtk.drift.page_hinkley", "page_hinkley", "PageHinkley"),
    "ddm": ("streamtk.drift.ddm", "ddm", "DDM"),
    "eddm": ("streamtk.drift.eddm", "eddm", "EDDM"),
    "adwin": ("streamtk.drift.adwin", "adwin", "Adwin"),
}


def _entry(name: str):
    if name not in DETECTORS:
        raise ValueError(f"detector must be one of {', '.join(map(repr, DETECTORS))}; got {name!r}")
    return DETECTORS[name]


def detector_function(name: str):
    """The public function of detector ``name`` (e.g. :func:`streamtk.drift.ddm`)."""
    module, function, _ = _entry(name)
    return getattr(import_module(module), function)


def detector_class(name: str):
    """The chunked detector class of ``name`` (e.g. :class:`streamtk.drift.DDM`)."""
    module, _, cls = _entry(name)
    return getattr(import_module(module), cls)
