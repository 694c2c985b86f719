"""The conventions an evaluation follows: the papers' test-then-train meaning, or MOA's evaluators bit for bit."""

from __future__ import annotations

__all__ = ["CONVENTIONS"]

#: ``"streamtk"``: the papers' test-then-train meaning (the default); ``"moa"``: MOA's evaluators exactly
CONVENTIONS = ("streamtk", "moa")
