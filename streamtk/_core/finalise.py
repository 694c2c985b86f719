"""Finalisation: the registry's formulas over a family's table of statistics, compiled or in numpy.

A family's kernel writes its statistics at the checkpoints of a segment into a *table* ``snap`` of
shape ``(L, E, F, C)`` (series, estimators, statistics, checkpoints; one contiguous ``(F, C)`` block
per series and estimator). :class:`Finaliser` computes the intermediates the requested metrics read
into ``vals`` ``(L, E, NI, C)``, then writes each metric straight into its output array at columns
``c0 .. c0 + C`` (``(L, E, T[, ...])``, ``T`` checkpoints in all): no temporary of the output's size.

Two ways to run the same formulas (:mod:`streamtk._core.metrics.dialect`), with the same doubles:

* **compiled**: one numba loop over the checkpoints for the requested metrics of a table, which at
  each checkpoint computes the intermediates they need and then every metric (the intermediates stay
  in the cache between the two), generated from the registry into a module of the kernel cache folder
  (:func:`compiled_loop`); it is compiled the first time a set of metrics is asked for, and cached per
  user: a call compiles only the formulas of its metrics and their intermediates;
* **numpy**: each formula evaluated once over every column (the rows of the table are arrays).

:func:`use_compiled` picks the compiled loop for evaluations of at least :data:`COMPILED_MIN_COLUMNS`
columns (checkpoints x estimators x series): compiling a formula takes about 0.1 s, once per machine
and set of metrics, while the numpy evaluation of that many columns takes about as long, so smaller
evaluations (the first call on a short stream among them) compile nothing.
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

__all__ = ["Finaliser", "use_compiled", "COMPILED_MIN_COLUMNS", "compiled_loop", "reads_of", "finalise_columns"]

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

    def scratch(self, L: int, E: int, C: int, into=None) -> np.ndarray:
        """A buffer for the intermediates of ``C`` checkpoints (rows not needed are never written or read);
        ``into``: a :class:`~streamtk._core.alloc.Scratch` to take it from."""
        shape = (L, E, self.n_intermediates, C)
        return np.empty(shape) if into is None else into.array(shape)

    def run(self, snap, vals, x, outs: dict, c0: int, *, compiled: bool, rows=None) -> None:
        """Every metric from the table ``snap (L, E, F, C)`` into ``outs[name][rows, :, c0:c0 + C, ...]``.

        ``vals``: a :meth:`scratch` buffer of the same ``L, E, C``; ``x``: the family's context;
        ``rows``: the output row of each series of the table (int64, default: the same index).
        """
        L, C = snap.shape[0], snap.shape[3]
        if C == 0 or not self.metrics:
            return
        if rows is None:
            rows = np.arange(L, dtype=np.int64)
        needed = self.table.needed(self.metrics, x)
        if compiled:
            fixed = tuple((f, v) for f, v in self.table.specialise if getattr(x, f) == v)
            loop = compiled_loop(self.table.name, tuple(m.name for m in self.metrics), fixed)
            loop(snap, vals, x, tuple(outs[m.name] for m in self.metrics), c0, rows)
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
_HEADER = '''"""The compiled finaliser of metrics {metrics} of the {table!r} table.

Generated by streamtk._core.finalise from the metric registry ({sources}); do not edit. numba compiles
the loop the first time a call needs it and caches it beside this file.
"""

import numba as nb

'''

_LOOP = """

@nb.njit(cache=True, nogil=True, error_model="numpy")
def run(snap, vals, x, outs, c0, rows):
    {unpack} = outs{fixed}
    C = snap.shape[3]
    for l in range(snap.shape[0]):
        for e in range(snap.shape[1]):
            s = snap[l, e]
            v = vals[l, e]
{views}
{body}
"""


def _where(fn) -> tuple[str, str]:
    qual = getattr(fn, "__qualname__", "")
    if not qual or "<" in qual or "." in qual:
        raise TypeError(f"a registry formula must be a module-level function, got {fn!r}")
    return fn.__module__, qual


def _source(name: str, metrics: tuple, fixed: tuple = ()) -> str:
    """The generated module of the loop that finalises ``metrics`` (names) of table ``name``; ``fixed``:
    ``(field, value)`` pairs of the context made constants of the loop (:attr:`Table.specialise`)."""
    from .metrics import TABLES, entry

    table = TABLES[name]
    ctx = table.context
    entries = [entry(m) for m in metrics]
    rows = table.needed(entries)
    imports, body = [], []
    loop = "for m in range(C):\n"
    for r in rows:  # one simple loop per formula: loops without calls or inner loops vectorise
        it = table.intermediates[r]
        mod, fn = _where(it.compute)
        imports.append(f"from {mod} import {fn} as i_{it.name}")
        line = f"{loop}    v[{r}, m] = i_{it.name}(s, v, m, x)"
        guarded = f"if x.{it.only_if}:\n" + "\n".join("    " + ln for ln in line.split("\n"))
        body.append(guarded if it.only_if else line)
    views = []
    for j, m in enumerate(entries):
        mod, fn = _where(m.compute)
        imports.append(f"from {mod} import {fn} as f_{m.name}")
        # the segment's columns as a view: indices from 0, which LLVM can prove non-negative (no wraparound select)
        views.append(f"o{j} = out{j}[rows[l], e, c0 : c0 + C]")
        n_extra = len(EXTRA_DIMS[m.shape])
        if n_extra == 0:
            body.append(f"{loop}    o{j}[m] = f_{m.name}(s, v, m, x)")
        elif n_extra == 1:  # columns outermost: the output's rows are written in order, not strided
            body.append(f"{loop}    for i in range(o{j}.shape[1]):\n        o{j}[m, i] = f_{m.name}(s, v, m, x, i)")
        else:
            body.append(
                f"{loop}    for i in range(o{j}.shape[1]):\n        for k in range(o{j}.shape[2]):\n"
                f"            o{j}[m, i, k] = f_{m.name}(s, v, m, x, i, k)"
            )
    sources = ", ".join(sorted({_where(m.compute)[0] for m in entries}))
    unpack = ", ".join(f"out{j}" for j in range(len(entries))) + ("," if len(entries) == 1 else "")
    values = dict(fixed)
    if values:  # the context rebuilt with constants: LLVM folds them into the inlined formulas
        imports.append(f"from {ctx.__module__} import {ctx.__qualname__} as Context")
        args = ", ".join(repr(values[f]) if f in values else f"x.{f}" for f in ctx._fields)
        fixed_line = f"\n    x = Context({args})  # specialised: {', '.join(f'{f} = {v!r}' for f, v in fixed)}"
    else:
        fixed_line = ""
    code = _LOOP.format(
        unpack=unpack,
        fixed=fixed_line,
        views="\n".join(" " * 12 + line for line in views),
        body="\n".join(" " * 12 + line for stmt in body for line in stmt.split("\n")),
    )
    return _HEADER.format(metrics=list(metrics), table=name, sources=sources) + "\n".join(sorted(set(imports))) + code


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
def compiled_loop(name: str, metrics: tuple, fixed: tuple = ()):
    """The compiled finaliser of ``metrics`` (registry names, in output order) of table ``name``: a generated
    module (written once per formulas' version, set of metrics and specialisation ``fixed``, then imported)
    and its ``run`` loop."""
    key = hashlib.sha1(repr((name, metrics, fixed)).encode()).hexdigest()[:12]
    modname = f"streamtk_finalise_{name}_{key}_{_formulas_tag()}"
    path = _folder() / f"{modname}.py"
    text = _source(name, metrics, fixed)
    if not path.exists() or path.read_text() != text:
        tmp = path.with_suffix(f".tmp-{os.getpid()}")
        tmp.write_text(text)
        os.replace(tmp, path)  # atomic: a concurrent process reads the old file or the new one
    spec = importlib.util.spec_from_file_location(modname, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[modname] = mod
    spec.loader.exec_module(mod)
    return mod.run
