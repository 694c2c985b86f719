"""Loaders for the classic stream-classification benchmark datasets.

Names: ``"electricity"`` (Harries' Elec2 as shipped by scikit-multiflow), ``"electricity_arff"``
(MOA's ``elecNormNew.arff``), ``"covertype"``, ``"kdd99"`` (KDD Cup 1999, 10 % file),
``"ozone"`` (UCI one-hour peak set), ``"poker"`` (the ``poker-lsn`` stream, labels only) and the
MOA-generated streams ``"moa/SEAa0"``, ``"moa/SEAg0"``, ``"moa/AGRa0"``, ``"moa/AGRg0"``,
``"moa/HYP0"``, ``"moa/LEDa0"``, ``"moa/LEDg0"``, ``"moa/RBF0"``, ``"moa/RBFr0"``, ``"moa/RTG0"``.
Regression streams derived from them: :func:`load_regression` (``"electricity_demand"``).

Derived multi-label streams (:func:`load_multilabel`, :mod:`~streamtk.datasets.multilabel`):
``"electricity_rises"`` (does each Electricity series rise against the day before?).

Where the data is looked for, in order:

1. the ``path`` argument: either the file itself or a directory laid out like the reference
   data directory (``elec2/elec.csv``, ``covtype/covtype.csv.gz``, ...);
2. the directory in the environment variable ``STREAMTK_DATA``;
3. the per-user cache: ``$STREAMTK_CACHE``, else ``$XDG_CACHE_HOME/streamtk``, else
   ``~/.cache/streamtk`` (same layout; :func:`fetch` writes there).

Every file is verified against the full sha256 digest recorded in this module before it is
parsed; a mismatch raises :class:`ChecksumError`. A dataset found nowhere raises
:class:`DatasetNotFoundError` listing every place looked at and how to obtain the file.

The statistics these files must reproduce (majority prior ``P(M)`` and persistent-classifier
accuracy ``P(T)``) are those of Zliobaite et al. (2015), Table 3 (``../seeds/`` README).

Modules: :mod:`~streamtk.datasets.registry` (names, digests, origins),
:mod:`~streamtk.datasets.locate` (lookup and checksums), :mod:`~streamtk.datasets.loaders`
(:func:`load`, :func:`load_labels`) and :mod:`~streamtk.datasets.download` (:func:`fetch`).
"""

from __future__ import annotations

from .download import FetchError, fetch
from .loaders import Stream, load, load_labels
from .locate import (  # noqa: F401 (ENV_CACHE and ENV_DATA are documented names)
    ENV_CACHE,
    ENV_DATA,
    ChecksumError,
    DatasetNotFoundError,
    cache_dir,
    find,
    sha256_file,
)
from .multilabel import MULTILABEL_NAMES, MultilabelStream, load_multilabel
from .registry import DatasetInfo, dataset_names, info
from .regression import REGRESSION_STREAMS, RegressionStream, load_regression

__all__ = [
    "ChecksumError",
    "DatasetInfo",
    "DatasetNotFoundError",
    "Stream",
    "cache_dir",
    "dataset_names",
    "FetchError",
    "fetch",
    "find",
    "info",
    "load",
    "load_labels",
    "load_regression",
    "RegressionStream",
    "REGRESSION_STREAMS",
    "load_multilabel",
    "MultilabelStream",
    "MULTILABEL_NAMES",
    "sha256_file",
]
