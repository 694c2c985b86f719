"""Change detectors over recorded streams and the evaluation of their detections.

Detectors (each a numba kernel over ``(..., n)`` inputs, leading dims in parallel,
chunked state carry, labelled Dataset out): :func:`adwin`, :func:`page_hinkley`
(Gama et al. 2013 and MOA's ``PageHinkleyDM``; on raw inputs, prequential /
windowed / faded estimates, and ratios of estimates, Algorithm 4), :func:`ddm`,
:func:`eddm`, :func:`random_detector`. Evaluation of their alarms against known drifts
(change points or gradual ``(start, end)`` drifts, :class:`DriftTruth`):
:func:`score_detections` with ``convention="streamtk"`` (default), ``"capymoa"`` or
``"moa"``, :func:`detection_table`; trade-off curves over a grid of settings:
:func:`run_tradeoff`, :func:`tradeoff`; recovery of a classifier after a drift:
:func:`recovery`. Synthetic error streams: :func:`error_stream`.
"""

from .adwin import Adwin, adwin, adwin_detections
from .ddm import DDM, ddm
from .eddm import EDDM, eddm
from .page_hinkley import PageHinkley, page_hinkley
from .random_detector import RandomDetector, random_detector
from .recovery import recovery
from .scoring import CONVENTIONS, detection_table, match_detections, score_detections
from .synthetic import error_probability, error_stream
from .tradeoff import run_tradeoff, tradeoff
from .truth import DriftTruth

__all__ = [
    "Adwin",
    "adwin",
    "adwin_detections",
    "DDM",
    "ddm",
    "EDDM",
    "eddm",
    "PageHinkley",
    "page_hinkley",
    "RandomDetector",
    "random_detector",
    "detection_table",
    "match_detections",
    "score_detections",
    "CONVENTIONS",
    "DriftTruth",
    "run_tradeoff",
    "tradeoff",
    "recovery",
    "error_probability",
    "error_stream",
]
