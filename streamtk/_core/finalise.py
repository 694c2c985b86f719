"""Finalisation: the registry's formulas over a family's table of statistics, compiled or in numpy.

A family's kernel writes its statistics at the checkpoints of a segment into a *table* ``snap`` of
shape ``(L, E, F, C)`` (series, estimators, statistics, checkpoints; one contiguous ``(F, C)`` block
per series and estimator). :class:`Finaliser` computes the intermediates the requested metrics read
into ``vals`` ``(L, E, NI, C)``, then writes each metric straight into its output array at columns
``c0 .. c0 + C`` (``(L, E, T[, ...])``, ``T`` checkpoints in all): no temporary of the output's size.

Two ways to run the same formulas (:mod:`streamtk._core.metrics.dialect`), with the same doubles:

* **compiled**: one numba loop per formula, generated from the registry into a module of the kernel
  cache folder (:func:`compiled_module`) and compiled the first time a call needs that formula, then
  cached per user; a call compiles only the formulas of its metrics and their intermediates;
* **numpy**: each formula evaluated once over every column (the rows of the table are arrays).

:func:`use_compiled` picks the compiled loops for evaluations of at least :data:`COMPILED_MIN_COLUMNS`
columns (checkpoints x estimators x series): compiling one formula takes about 0.1 s, once per machine,
while the numpy evaluation of that many columns takes about as long, so smaller evaluations (the
first call on a short stream among them) compile nothing.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

from .._kernels._cache import kernel_cache_dir
from .metrics.base import EXTRA_DIMS

__all__ = ["Finaliser", "use_compiled", "COMPILED_MIN_COLUMNS", "compiled_module", "reads_of", "finalise_columns"]

#: evaluations with at least this many columns (checkpoints x estimators x series) use the compiled loops
COMPILED_MIN_COLUMNS = 1 << 17

_METRICS_DIR = Path(__file__).resolve().parent / "metrics"


def use_compiled(columns: int) -> bool:
    """Whether an evaluation of ``columns`` checkpoint columns finalises with the compiled loops."""
    return int(columns) >= COMPILED_MIN_COLUMNS


class Finaliser:
    """The requested metrics of one table and the intermediates they need.

    ``table``: the family's :class:`~streamtk._core.metrics.base.Table`; ``metrics``: registry
    entries whose ``table`` it is.
    """

    def __init__(self, table, metrics):
        self.table = table
        self.metrics = list(metrics)
        bad = [m.name for m in self.metrics if m.table != table.name]
        if bad:
            raise ValueError(f"metrics {bad} do not read table {table.name!r}")
        self.rows = table.needed(self.metrics)

    @property
    def n_intermediates(self) -> int:
        return len(self.table.intermediates)

    def scratch(self, L: int, E: int, C: int) -> np.ndarray:
        """A buffer for the intermediates of ``C`` checkpoints (rows not needed are never written or read)."""
        return np.empty((L, E, self.n_intermediates, C))

    def run(self, snap, vals, x, outs: dict, c0: int, *, compiled: bool, rows=None) -> None:
        """Every metric from the table ``snap (L, E, F, C)`` into ``outs[name][rows, :, c0:c0 + C, ...]``.

        ``vals``: a :meth:`scratch` buffer of the same ``L, E, C``; ``x``: the family's context;
        ``rows``: the output row of each series of the table (int64, default: the same index).
        """
        L, C = snap.shape[0], snap.shape[3]
        if C == 0:
            return
        if rows is None:
            rows = np.arange(L, dtype=np.int64)
        needed = self.table.needed(self.metrics, x)
        if compiled:
            mod = compiled_module(self.table.name)
            for r in needed:
                getattr(mod, f"v_{self.table.intermediates[r].name}")(snap, vals, r, x)
            for m in self.metrics:
                getattr(mod, f"m_{m.name}")(snap, vals, x, outs[m.name], c0, rows)
            return
        s, v = np.moveaxis(snap, 2, 0), np.moveaxis(vals, 2, 0)
        every = slice(None)
        same = np.array_equal(rows, np.arange(L))
        with np.errstate(all="ignore"):
            for r in needed:
                v[r] = self.table.intermediates[r].compute(s, v, every, x)
            for m in self.metrics:
                target = outs[m.name]
                out = (
                    target[:, :, c0 : c0 + C]
                    if same
                    else np.empty((L, *target.shape[1:2], C, *target.shape[3:]), target.dtype)
                )
                n_extra = len(EXTRA_DIMS[m.shape])
                if n_extra == 0:
                    out[...] = m.compute(s, v, every, x)
                elif n_extra == 1:
                    for i in range(out.shape[3]):
                        out[..., i] = m.compute(s, v, every, x, i)
                else:
                    for i in range(out.shape[3]):
                        for j in range(out.shape[4]):
                            out[..., i, j] = m.compute(s, v, every, x, i, j)
                if not same:
                    target[rows, :, c0 : c0 + C] = out


def finalise_columns(table, metrics, snap, x, *, extra=None, compiled=False) -> dict:
    """The metrics of one block of statistics ``snap (F, C)`` (one series and estimator): ``{name: (C, ...)}``.

    ``extra``: ``{shape: sizes of the extra dims}`` for metrics with extra dims (e.g. ``{"class": (k,)}``).
    For tests and small tables; the engines call :meth:`Finaliser.run` on whole segments.
    """
    fin = Finaliser(table, metrics)
    snap4 = np.ascontiguousarray(snap, dtype=np.float64)[None, None]
    C = snap4.shape[3]
    outs = {m.name: np.empty((1, 1, C) + tuple((extra or {}).get(m.shape, ())), dtype=m.dtype) for m in metrics}
    fin.run(snap4, fin.scratch(1, 1, C), x, outs, 0, compiled=compiled)
    return {name: out[0, 0] for name, out in outs.items()}


# ---------------------------------------------------------------------------------------- reads
class _Recorder:
    """Wraps the intermediates ``v`` (numpy mode) and records the rows a formula reads."""

    def __init__(self, v):
        self.v = v
        self.rows = set()

    def __getitem__(self, key):
        self.rows.add(int(key[0]) if isinstance(key, tuple) else int(key))
        return self.v[key]


def reads_of(table, fn, s, v, x, *extra) -> set:
    """The names of the intermediates of ``table`` that formula ``fn`` reads on the numpy table ``s``, ``v``."""
    rec = _Recorder(v)
    with np.errstate(all="ignore"):
        fn(s, rec, slice(None), x, *extra)
    return {table.intermediates[r].name for r in rec.rows}


# ------------------------------------------------------------------------------- compiled loops
_HEADER = '''"""Compiled finalisers of the {table!r} table: one loop per formula of the metric registry.

Generated by streamtk._core.finalise from the registry ({sources}); do not edit. numba compiles each
loop the first time a call needs it and caches it beside this file.
"""

import numba as nb
'''

_INTERMEDIATE = """

@nb.njit(cache=True, nogil=True, error_model="numpy")
def v_{name}(snap, vals, row, x):
    for l in range(snap.shape[0]):
        for e in range(snap.shape[1]):
            s = snap[l, e]
            v = vals[l, e]
            for m in range(snap.shape[3]):
                v[row, m] = i_{name}(s, v, m, x)
"""

_METRIC = """

@nb.njit(cache=True, nogil=True, error_model="numpy")
def m_{name}(snap, vals, x, out, c0, rows):
    for l in range(snap.shape[0]):
        for e in range(snap.shape[1]):
            s = snap[l, e]
            v = vals[l, e]
            o = out[rows[l], e]
            for m in range(snap.shape[3]):
{body}
"""

_BODIES = {
    0: "                o[c0 + m] = f_{name}(s, v, m, x)",
    1: "                for i in range(o.shape[1]):\n                    o[c0 + m, i] = f_{name}(s, v, m, x, i)",
    2: (
        "                for i in range(o.shape[1]):\n                    for j in range(o.shape[2]):\n"
        "                        o[c0 + m, i, j] = f_{name}(s, v, m, x, i, j)"
    ),
}


def _where(fn) -> tuple[str, str]:
    qual = getattr(fn, "__qualname__", "")
    if not qual or "<" in qual or "." in qual:
        raise TypeError(f"a registry formula must be a module-level function, got {fn!r}")
    return fn.__module__, qual


def _source(name: str) -> str:
    """The generated module of table ``name``: one loop per intermediate and per metric reading it."""
    from .metrics import REGISTRY, TABLES

    table = TABLES[name]
    metrics = [m for m in REGISTRY.values() if m.table == name]
    parts = [_HEADER.format(table=name, sources=", ".join(sorted({_where(m.compute)[0] for m in metrics})))]
    imports = []
    for it in table.intermediates:
        mod, fn = _where(it.compute)
        imports.append(f"from {mod} import {fn} as i_{it.name}")
        parts.append(_INTERMEDIATE.format(name=it.name))
    for m in metrics:
        mod, fn = _where(m.compute)
        imports.append(f"from {mod} import {fn} as f_{m.name}")
        body = _BODIES[len(EXTRA_DIMS[m.shape])].format(name=m.name)
        parts.append(_METRIC.format(name=m.name, body=body))
    return parts[0] + "\n".join(imports) + "\n" + "".join(parts[1:])


@functools.cache
def _formulas_tag() -> str:
    """A short hash of every source the generated loops inline (the registry's modules and this one).

    numba checks a cached loop against its own (generated) file only; naming that file by this hash
    makes an edit of any formula compile fresh loops.
    """
    h = hashlib.sha1()
    for p in sorted(_METRICS_DIR.rglob("*.py")) + [Path(__file__).resolve()]:
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:12]


def _folder() -> Path:
    """Where the generated modules live: the kernel cache folder (a temporary folder when it is read-only)."""
    base = kernel_cache_dir() / "finalise"
    try:
        base.mkdir(parents=True, exist_ok=True)
        probe = base / f".probe-{os.getpid()}"
        probe.write_text("")
        probe.unlink()
        return base
    except OSError:
        return Path(tempfile.mkdtemp(prefix="streamtk-finalise-"))


@functools.cache
def compiled_module(name: str):
    """The generated module of compiled loops of table ``name`` (written once per formulas' version, then imported)."""
    modname = f"streamtk_finalise_{name}_{_formulas_tag()}"
    path = _folder() / f"{modname}.py"
    text = _source(name)
    if not path.exists() or path.read_text() != text:
        tmp = path.with_suffix(f".tmp-{os.getpid()}")
        tmp.write_text(text)
        os.replace(tmp, path)  # atomic: a concurrent process reads the old file or the new one
    spec = importlib.util.spec_from_file_location(modname, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[modname] = mod
    spec.loader.exec_module(mod)
    return mod
