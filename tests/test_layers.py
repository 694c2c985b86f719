"""The layout keeps its layers: imports go one way (down), kernels are numba only, modules stay small.

Ranks (``../shared/DESIGN.md`` section 2): kernels < numpy layer (``_core``) < labelled layer
(``_labelled``) < domain packages and the readers/writers that consume the labelled layer <
plots and runners < reports (tables and figures together) < the accessor, CLI and demo. A
package may import its own rank or below, never above, and two packages never import each
other. Every import counts, also one inside a function.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "streamtk"

RANK = {
    "_kernels": 0,
    "_version": 0,
    "_core": 1,
    "_labelled": 2,
    **dict.fromkeys(("evaluation", "comparison", "drift", "dependence", "kfold", "stats", "io", "datasets"), 3),
    **dict.fromkeys(("plot", "runners", "recorders"), 4),
    "report": 5,
    **dict.fromkeys(("accessor", "cli", "demo", "__main__", "__init__"), 6),
}
#: what kernels may import besides themselves
KERNEL_IMPORTS = {"numba", "numpy", "llvmlite"} | set(sys.stdlib_module_names)
MAX_LINES = 500


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = rel.parts  # ("streamtk", ..., module); relative imports start from parts[:-1] (also for __init__)
        yield path, ".".join(parts), parts[:-1], parts[1]


def _imports(path, package):
    """Absolute names of everything a module imports (module-level or inside functions)."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(package[: len(package) - (node.level - 1)])
                if node.module:
                    yield ".".join(base + [node.module]), node.lineno
                elif len(base) == 1:  # "from .. import X" at the top: X is a subpackage or a name of streamtk/__init__
                    for alias in node.names:
                        sub = (PACKAGE / alias.name).is_dir() or (PACKAGE / f"{alias.name}.py").exists()
                        yield ".".join(base + [alias.name if sub else "__init__"]), node.lineno
                else:
                    for alias in node.names:
                        yield ".".join(base + [alias.name]), node.lineno
            else:
                yield node.module, node.lineno


def test_every_top_level_module_has_a_rank():
    tops = {top for _, _, _, top in _modules()}
    assert tops <= set(RANK), f"give these a rank in tests/test_layers.py: {sorted(tops - set(RANK))}"


def test_imports_go_down_and_packages_never_import_each_other():
    upward, edges = [], {}
    for path, name, package, top in _modules():
        for target, line in _imports(path, package):
            parts = target.split(".")
            if parts[0] != "streamtk":
                continue
            if len(parts) == 1:  # "import streamtk" / "from streamtk import X": the top-level namespace
                parts = ["streamtk", "__init__"]
            other = parts[1]
            if other == top or other not in RANK:
                continue
            edges.setdefault((top, other), f"{name}:{line}")
            if RANK[other] > RANK[top]:
                upward.append(f"{name}:{line} imports {target} ({top} rank {RANK[top]} -> {other} rank {RANK[other]})")
    assert not upward, "imports that run upward:\n" + "\n".join(upward)
    cycles = [f"{a} <-> {b} ({edges[a, b]}, {edges[b, a]})" for (a, b) in edges if (b, a) in edges and a < b]
    assert not cycles, "packages that import each other:\n" + "\n".join(cycles)


def test_kernels_are_numba_only():
    bad = []
    for path, name, package, top in _modules():
        if top != "_kernels":
            continue
        for target, line in _imports(path, package):
            root = target.split(".")[0]
            if root == "streamtk":
                if target.split(".")[1] not in ("_kernels", "_version"):
                    bad.append(f"{name}:{line} imports {target}")
            elif root not in KERNEL_IMPORTS:
                bad.append(f"{name}:{line} imports {target}")
    assert not bad, "kernels import only numba, numpy, llvmlite and the standard library:\n" + "\n".join(bad)


def test_xarray_only_from_the_labelled_layer_up():
    bad = [
        f"{name}:{line}"
        for path, name, package, top in _modules()
        if RANK[top] < RANK["_labelled"]
        for target, line in _imports(path, package)
        if target.split(".")[0] in ("xarray", "pandas", "matplotlib")
    ]
    assert not bad, "xarray, pandas and matplotlib stay out of the kernels and the numpy layer:\n" + "\n".join(bad)


def test_modules_stay_small():
    big = {
        str(p.relative_to(PACKAGE.parent)): n
        for p, *_ in _modules()
        if (n := len(p.read_text().splitlines())) > MAX_LINES
    }
    assert not big, f"modules over {MAX_LINES} lines (split them by responsibility): {big}"


def _module_graph():
    """``{module: {module it imports}}`` over streamtk's modules (every import, also inside functions)."""
    names = {name for _, name, _, _ in _modules()}
    graph = {}
    for path, name, package, _ in _modules():
        out = set()
        for target, _ in _imports(path, package):
            while target and target not in names:
                target = target.rpartition(".")[0]  # "pkg.module.name" -> the module that defines name
            if target and target != name and not target.endswith("__init__") and target.count(".") > 1:
                out.add(target)
        graph[name] = out
    return graph


def test_no_import_cycle_between_modules():
    graph = _module_graph()
    cycles, state = [], {}

    def visit(node, path):
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(path[path.index(nxt) :] + [nxt]))
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, "modules that import each other (directly or around a cycle):\n" + "\n".join(cycles)


def test_no_private_name_is_imported_from_another_package():
    bad = []
    for path, name, package, top in _modules():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = list(package[: len(package) - (node.level - 1)]) if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            parts = target.split(".")
            if len(parts) < 2 or parts[0] != "streamtk" or parts[1] == top:
                continue
            private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
            bad += [f"{name}:{node.lineno} imports {n} from {target}" for n in private]
    assert not bad, "helpers shared across packages are public (no leading underscore):\n" + "\n".join(bad)
