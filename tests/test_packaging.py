"""Packaging invariants: environment.yml and pyproject agree; README and .ci/run agree."""

from __future__ import annotations

import re
from pathlib import Path

import tomllib

REPO = Path(__file__).resolve().parents[1]


def _names(reqs):
    return {re.split(r"[<>=!~ \[]", r.strip(), maxsplit=1)[0].lower() for r in reqs if r.strip()}


def test_environment_yml_lists_exactly_the_pyproject_dependencies():
    meta = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    wanted = _names(meta["dependencies"])
    for extra in meta["optional-dependencies"].values():
        wanted |= _names(extra)
    conda = set()
    section = None
    for raw in (REPO / "environment.yml").read_text().splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if line and not line.startswith(" "):
            section = line.rstrip(":").strip()
            continue
        if section == "dependencies" and line.strip().startswith("- "):
            conda |= _names([line.strip()[2:]])
    conda -= {"python", "pip", "pip:", "openjdk"}  # the interpreter, the pip section, capymoa's Java runtime
    assert conda == wanted, f"only in environment.yml: {conda - wanted}; only in pyproject: {wanted - conda}"


def test_ci_runs_exactly_the_readme_test_command_in_a_fresh_virtualenv():
    readme = (REPO / "README.md").read_text().splitlines()
    block = readme[readme.index("```bash") + 1 : readme.index("```bash") + 3]
    assert len(block) == 2
    test_cmd = block[1].split("#", 1)[0].strip()
    ci = [
        ln.strip()
        for ln in (REPO / ".ci" / "run").read_text().splitlines()
        if ln.strip() and not ln.startswith("#") and not ln.startswith(("set ", "cd "))
    ]
    # from nothing, as users install: a new virtualenv (not the interpreter CI happens to have), activated
    assert ci == ['venv="$(mktemp -d)/venv"', 'python3 -m venv "$venv"', '. "$venv/bin/activate"', test_cmd]
