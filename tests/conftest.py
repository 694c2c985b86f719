"""Shared test configuration.

* Real datasets: the loader looks at ``STREAMTK_DATA``; when it is unset and the
  workplace's read-only copy ``../shared/data`` exists beside the repository, the
  tests point the loader there. Tests that need a dataset skip with a reason
  when neither exists.
* hypothesis: a bounded profile so the whole suite stays under 5 minutes on two
  cores with the README's command (numba compile time dominates the first run).
* ``-n auto --dist loadfile`` (the README's command): one pytest-xdist worker per
  core, at most 4, each running whole files, so a module fixture (the paper
  figures' quick run, the demo) is built once; the files with the most ``slow``
  tests are handed out first.
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


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Files with more ``slow`` tests first (stable otherwise), so that ``--dist loadfile`` starts the long
    files early and the workers finish together (xdist hands out one file at a time, in this order)."""
    slow = {}
    for item in items:
        slow[item.path] = slow.get(item.path, 0) + (item.get_closest_marker("slow") is not None)
    items.sort(key=lambda item: -slow[item.path])


def pytest_configure(config):
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False  # keep the order above (xdist would sort files by test count)


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
