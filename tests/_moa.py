"""MOA itself as a test oracle: capymoa ships MOA's jar and reaches it through JPype."""

from __future__ import annotations

import importlib

import pytest


def import_capymoa(module: str = "capymoa"):
    """capymoa's ``module``, or skip the calling test with the reason: capymoa is not installed, or it
    cannot start MOA's Java virtual machine (no Java runtime, a ``JAVA_HOME`` that does not exist)."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        pytest.skip(reason=f"capymoa (MOA's jar) is not installed: {err}")
    except (RuntimeError, ValueError, OSError) as err:  # capymoa's CapymoaImportError, JPype's JVMNotFoundException
        pytest.skip(reason=f"capymoa cannot start MOA's Java virtual machine: {err}")
