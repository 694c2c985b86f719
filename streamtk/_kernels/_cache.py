"""Where numba caches streamtk's compiled kernels: a per-user cache directory, never the package folder.

numba's default puts ``*.nbi`` / ``*.nbc`` files in ``__pycache__`` next to the source, i.e. inside
``site-packages/streamtk``; pip does not remove them, and the orphan folder left by an uninstall shadows
a later editable install. So streamtk's kernels are cached under :func:`cache_root` instead (one folder
per streamtk version and Python version), unless the user chose a numba cache with ``NUMBA_CACHE_DIR``
(then numba's own rule applies). Only functions defined in streamtk's source files are affected.

A corrupt or unreadable cache entry is recompiled with a warning (:func:`install`), never a crash.

Cached kernels are compiled in different processes (one session compiles ``evaluate``'s kernels, a
later one ``compare``'s) and loaded together. numba names the helpers it compiles into each kernel
(``np.empty``'s implementation, ...) by a per-process counter, so two kernels compiled in two processes
can carry equally named helpers with different bodies; a process that loads both links one body for
both names and can crash (numba issue 10486: a segfault seen here with two streamtk versions' caches
in one process). :func:`install` starts the counter at a random offset in each process
(:func:`random_uids`), so names compiled in different processes do not meet.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import os
import secrets
import sys
import warnings
from pathlib import Path

from numba.core import bytecode, caching, config

from .._version import __version__

__all__ = ["cache_root", "kernel_cache_dir", "install", "random_uids"]

_PACKAGE = Path(__file__).resolve().parent.parent
_KERNELS = Path(__file__).resolve().parent


def cache_root() -> Path:
    """The per-user cache directory: ``$STREAMTK_CACHE``, else ``$XDG_CACHE_HOME/streamtk``, else
    ``~/.cache/streamtk`` (not created here)."""
    if os.environ.get("STREAMTK_CACHE"):
        return Path(os.environ["STREAMTK_CACHE"]).expanduser()
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]).expanduser() / "streamtk"
    return Path.home() / ".cache" / "streamtk"


@functools.cache
def sources_tag(kernels: Path = _KERNELS) -> str:
    """A short hash of every kernel source file (relative paths and contents).

    numba checks a cached function against its own file only: a jitted helper edited in another
    file leaves its callers' cached machine code stale. Keying the cache folder by all the kernel
    sources makes any edit of a kernel (a development checkout, an editable install after
    ``git pull``) start from a fresh folder. About 2 ms, once per process.
    """
    h = hashlib.sha1()
    for p in sorted(kernels.rglob("*.py")):
        h.update(p.relative_to(kernels).as_posix().encode())
        h.update(b"\0")
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def kernel_cache_dir() -> Path:
    """Where this streamtk and Python version cache their kernels (``NUMBA_CACHE_DIR`` takes precedence).

    One folder per streamtk version, Python version and state of the kernel sources
    (:func:`sources_tag`); folders of older sources can be deleted.
    """
    tag = f"numba-{__version__}-py{sys.version_info[0]}{sys.version_info[1]}-{sources_tag()}"
    return cache_root() / tag


class StreamtkCacheLocator(caching.UserProvidedCacheLocator):
    """numba cache locator for functions defined in streamtk's source files (see the module docstring)."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        rel = Path(py_file).resolve().parent.relative_to(_PACKAGE)
        self._cache_path = str(kernel_cache_dir().joinpath(*rel.parts))

    @classmethod
    def from_function(cls, py_func, py_file):
        if config.CACHE_DIR:  # the user chose numba's cache directory: numba's rule
            return None
        try:
            Path(py_file).resolve().relative_to(_PACKAGE)
        except (ValueError, OSError):
            return None
        return super(caching.UserProvidedCacheLocator, cls).from_function(py_func, py_file)


def _ours(cache) -> bool:
    try:
        Path(cache._py_func.__code__.co_filename).resolve().relative_to(_PACKAGE)
    except (ValueError, OSError, AttributeError):
        return False
    return True


def _guarded(load):
    def load_overload(self, sig, target_context):
        if not _ours(self):
            return load(self, sig, target_context)
        try:
            return load(self, sig, target_context)
        except Exception as err:  # a truncated or foreign cache file: recompile instead of failing
            warnings.warn(
                f"streamtk: the cached kernel {self._name} could not be read ({type(err).__name__}: {err}); "
                f"it is compiled again (cache: {self._cache_path})",
                RuntimeWarning,
                stacklevel=2,
            )
            try:  # drop the unreadable index so that the fresh compilation can be saved
                os.remove(self._cache_file._index_path)
            except OSError:
                pass
            return None

    load_overload._streamtk_guard = True
    return load_overload


def random_uids() -> None:
    """Start numba's counter of compiled function ids at a random offset of this process (once).

    The ids end up in the names of the symbols of cached machine code; a random 60-bit offset makes
    equal names from two processes as unlikely as a collision of two 60-bit random numbers (see the
    module docstring). Left alone if something else already replaced numba's counter.
    """
    ids = bytecode.FunctionIdentity._unique_ids
    if type(ids) is itertools.count and not getattr(bytecode.FunctionIdentity, "_streamtk_uids", False):
        bytecode.FunctionIdentity._unique_ids = itertools.count((1 << 40) + secrets.randbelow(1 << 60))
        bytecode.FunctionIdentity._streamtk_uids = True


def install() -> None:
    """Register the locator (first, so that it wins for streamtk's files), guard cache loads and give this
    process's compiled functions random ids (:func:`random_uids`). Idempotent."""
    random_uids()
    classes = caching.CacheImpl._locator_classes
    if StreamtkCacheLocator not in classes:
        classes.insert(0, StreamtkCacheLocator)
    if not getattr(caching.Cache.load_overload, "_streamtk_guard", False):
        caching.Cache.load_overload = _guarded(caching.Cache.load_overload)
