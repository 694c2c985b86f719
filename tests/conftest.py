"""Shared test configuration.

* Real datasets: the loader looks at ``STREAMTK_DATA``; when it is unset and the
  workplace's read-only copy ``../shared/data`` exists beside the repository, the
  tests point the loader there. Tests that need a dataset skip with a reason
  when neither exists.
* hypothesis: a bounded profile so the whole suite stays under 5 minutes on two
  cores with the README's ``-n auto`` (numba compile time dominates the first run).
* ``-n auto`` starts one pytest-xdist worker per core, at most 4; tests sharing a
  resource (pip builds in the source tree) carry ``xdist_group`` and run in one
  worker under ``--dist loadgroup``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"

if "STREAMTK_DATA" not in os.environ and SHARED_DATA.is_dir():
    os.environ["STREAMTK_DATA"] = str(SHARED_DATA)

settings.register_profile(
    "streamtk",
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "streamtk"))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config) -> int:
    """``-n auto`` (the README's command): one worker per available core, at most 4.

    Every worker compiles the numba kernels it needs (once per machine: they are cached on disk)
    and may start MOA's Java virtual machine, so many workers cost memory for little gain.
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 4))


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The directory holding the benchmark datasets, or skip with the reason."""
    path = os.environ.get("STREAMTK_DATA")
    if not path or not Path(path).is_dir():
        pytest.skip(reason=f"real datasets not found: set STREAMTK_DATA (looked at {path!r} and {SHARED_DATA})")
    return Path(path)
