"""The code style is part of the test run: ``ruff check`` and ``ruff format --check`` (configured in pyproject.toml)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff(*args):
    exe = shutil.which("ruff")
    cmd = [exe] if exe else [sys.executable, "-m", "ruff"]
    return subprocess.run([*cmd, *args], cwd=ROOT, capture_output=True, text=True)


@pytest.fixture(scope="module", autouse=True)
def _need_ruff():
    probe = _ruff("--version")
    if probe.returncode != 0:
        pytest.fail(f"ruff is a test dependency (pip install -e '.[test]'); running it failed: {probe.stderr}")


def test_ruff_lint():
    r = _ruff("check", ".")
    assert r.returncode == 0, r.stdout + r.stderr


def test_ruff_format():
    r = _ruff("format", "--check", ".")
    assert r.returncode == 0, r.stdout + r.stderr
