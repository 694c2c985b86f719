"""Shared test configuration.

* Real datasets: the loader looks at ``STREAMTK_DATA``; when it is unset and the
  workplace's read-only copy ``../shared/data`` exists beside the repository, the
  tests point the loader there. Tests that need a dataset skip with a reason
  when neither exists.
* hypothesis: a bounded profile so the whole suite stays well under 15 minutes
  on two cores (numba compile time dominates the first run).
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


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The directory holding the benchmark datasets, or skip with the reason."""
    path = os.environ.get("STREAMTK_DATA")
    if not path or not Path(path).is_dir():
        pytest.skip(reason=f"real datasets not found: set STREAMTK_DATA (looked at {path!r} and {SHARED_DATA})")
    return Path(path)
