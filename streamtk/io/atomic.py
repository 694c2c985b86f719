"""Writing files and folders so that a failure never destroys the old copy: write beside, then rename.

Every writer of streamtk (logs, result Datasets, zarr stores, figures) goes through
:func:`atomic_path`: the data is written to a temporary name in the **same folder**
(``.<token>.partial.<name>``, hidden, and ending with the real name so that writers that
read the format from the suffix still see it), flushed to disk, and only then renamed over
the target with :func:`os.replace` (atomic on POSIX and Windows for files). If anything
fails -- a full disk, a file-size limit, an encoding error, Ctrl-C -- the temporary is
removed, the old file is untouched, and an :class:`WriteError` names the target file.

Folders (zarr stores) are written the same way; an existing folder is swapped with the new
one by ``renameat2(RENAME_EXCHANGE)`` on Linux (atomic), elsewhere by two renames (the old
folder is moved aside first, so at every moment one complete copy exists under a known name),
and the old copy is deleted only once the new one is in place.

Examples
--------
>>> import tempfile, pathlib
>>> target = pathlib.Path(tempfile.mkdtemp()) / "notes.txt"
>>> with atomic_path(target) as tmp:
...     _ = tmp.write_text("complete")
>>> target.read_text()
'complete'
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import os
import secrets
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

__all__ = ["WriteError", "atomic_path", "atomic_open", "save_figure", "check_writable_target"]

_PARTIAL = ".partial."


class WriteError(OSError):
    """Writing ``path`` failed; the old file (if any) is unchanged and no partial file is left.

    ``path`` is the target, ``errno`` the operating system's error number when there is one.
    """

    def __init__(
        self,
        path,
        reason: str,
        *,
        errno_: int | None = None,
        consequence: str = "nothing was changed (an existing file there is intact)",
    ):
        self.target = str(path)
        msg = f"cannot write {path}: {reason}; {consequence}"
        if errno_ is not None:
            super().__init__(errno_, msg)
        else:
            super().__init__(msg)
        self.filename = str(path)

    def __str__(self) -> str:  # OSError's default str puts "[Errno 27]" in front: keep one plain line
        return self.args[-1] if self.args else super().__str__()


def _is_zarr_store(path: Path) -> bool:
    return any((path / m).exists() for m in (".zgroup", ".zarray", "zarr.json"))


def check_writable_target(path, *, overwrite: bool = True, folder: bool = False, name: str = "path") -> Path:
    """Refuse a target we must not or cannot write, before any work is done.

    The folder must exist; an existing target is refused unless ``overwrite``; a file is never
    replaced by a folder or the other way round; an existing folder is only ever replaced by a
    folder if it is a zarr store (or empty), so that a mistyped path cannot delete a user's folder.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{name} must be a path (str or os.PathLike), got {path!r} of type {type(path).__name__}")
    path = Path(path)
    if str(path) in ("", "."):
        raise ValueError(f"{name} must name a file, got {str(path)!r}")
    parent = path.parent
    if not parent.is_dir():
        raise FileNotFoundError(errno.ENOENT, f"cannot write {path}: the folder {parent} does not exist", str(path))
    if os.path.lexists(path):
        if not overwrite:
            raise FileExistsError(
                errno.EEXIST,
                f"{path} already exists; pass overwrite=True to replace it (nothing was written)",
                str(path),
            )
        if path.is_dir() and not folder:
            raise IsADirectoryError(errno.EISDIR, f"cannot write {path}: it is a folder, not a file", str(path))
        if folder and not path.is_dir():
            raise FileExistsError(errno.EEXIST, f"cannot write {path}: a file (not a folder) is there", str(path))
        if folder and any(path.iterdir()) and not _is_zarr_store(path):
            raise FileExistsError(
                errno.EEXIST,
                f"{path} is a folder that is not a zarr store and not empty; refusing to replace it "
                "(choose another name or delete it yourself)",
                str(path),
            )
    return path


def _remove(p: Path) -> None:
    """Remove our temporary. A folder is removed until it stays away: a storage library that failed
    part way (zarr writes chunks concurrently) may still finish other writes into it for a moment."""
    try:
        if p.is_dir() and not p.is_symlink():
            deadline = time.monotonic() + 2.0
            quiet = 0
            while quiet < 2 and time.monotonic() < deadline:
                if p.exists():
                    shutil.rmtree(p, ignore_errors=True)
                    quiet = 0
                else:
                    quiet += 1
                time.sleep(0.02)
        elif os.path.lexists(p):
            p.unlink()
    except OSError:  # pragma: no cover - best effort cleanup of our own temporary
        pass


def _fsync_path(p: Path, *, directory: bool = False) -> None:
    try:
        fd = os.open(p, os.O_RDONLY | (getattr(os, "O_DIRECTORY", 0) if directory else 0))
    except OSError:  # pragma: no cover - e.g. directories cannot be opened on Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some filesystems refuse fsync on directories
        pass
    finally:
        os.close(fd)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two existing paths (Linux ``renameat2``); False if not available here."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError, TypeError):
        return False
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _publish(tmp: Path, path: Path, *, folder: bool) -> None:
    """Move the finished temporary into place (old copy deleted only once the new one is there)."""
    if not folder:
        _fsync_path(tmp)
        os.replace(tmp, path)
    elif not os.path.lexists(path):
        os.rename(tmp, path)
    elif path.is_dir() and not any(path.iterdir()):
        os.replace(tmp, path)  # POSIX: a folder may replace an empty folder
    else:
        if _exchange(tmp, path):
            old = tmp  # after the swap the temporary name holds the old folder
        else:
            old = tmp.with_name(tmp.name.replace(_PARTIAL, ".old.", 1))
            os.rename(path, old)
            os.rename(tmp, path)
        shutil.rmtree(old, ignore_errors=True)
    _fsync_path(path.parent, directory=True)


def io_failure_reason(exc: BaseException) -> tuple[str, int | None]:
    if isinstance(exc, OSError):
        code = exc.errno
        text = exc.strerror or str(exc)
        if code in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
            text = f"the disk is full ({text})"
        elif code == errno.EFBIG:
            text = f"the file size limit was reached ({text})"
        return text, code
    if "HDF" in str(exc):
        return f"{exc} (HDF5 could not write: a full disk, a quota or a file-size limit?)", None
    return str(exc), None


def is_io_failure(exc: BaseException) -> bool:
    """Failures of the disk or the storage library (not of the data): reported as WriteError."""
    if isinstance(exc, (FileExistsError, IsADirectoryError, NotADirectoryError)):
        return False
    if isinstance(exc, OSError):
        return True
    # netCDF4 reports a failed HDF5 write as RuntimeError("NetCDF: HDF error"), without a file name
    return isinstance(exc, RuntimeError) and ("NetCDF" in str(exc) or "HDF" in str(exc))


@contextlib.contextmanager
def atomic_path(path, *, overwrite: bool = True, folder: bool = False, name: str = "path") -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success rename it to ``path``, on failure remove it.

    Parameters
    ----------
    path : str or os.PathLike
        The target file (or folder, with ``folder=True``).
    overwrite : bool
        Replace an existing target (default); ``False`` raises FileExistsError before anything is written.
    folder : bool
        The writer creates a folder (zarr store) at the yielded path instead of a file.
    name : str
        The argument name used in error messages.

    Raises
    ------
    WriteError
        An ``OSError`` (disk full, file-size limit, permissions, ...) or a netCDF/HDF5 write
        failure while writing or renaming; the message names the target file. Any other
        exception (bad data) propagates unchanged; in every case the temporary is removed and
        the old target is left as it was.
    """
    path = check_writable_target(path, overwrite=overwrite, folder=folder, name=name)
    tmp = path.with_name(f".{secrets.token_hex(4)}{_PARTIAL}{path.name}")
    try:
        yield tmp
        if not os.path.lexists(tmp):
            raise WriteError(path, "the writer produced no output")
        _publish(tmp, path, folder=folder)
    except WriteError:
        _remove(tmp)
        raise
    except BaseException as exc:
        _remove(tmp)
        if is_io_failure(exc):
            reason, code = io_failure_reason(exc)
            raise WriteError(path, reason, errno_=code) from exc
        raise


@contextlib.contextmanager
def atomic_open(path, mode: str = "w", *, overwrite: bool = True, opener=open, **kwargs):
    """An open file whose content replaces ``path`` only when the ``with`` block succeeds.

    ``opener`` (default :func:`open`; e.g. :func:`gzip.open`) is called as
    ``opener(temporary, mode, **kwargs)``.
    """
    if not any(c in mode for c in "wx"):
        raise ValueError(f"mode must write a new file ('w', 'wb', 'wt', ...), got {mode!r}")
    with atomic_path(path, overwrite=overwrite) as tmp:
        with opener(tmp, mode.replace("x", "w"), **kwargs) as fh:
            yield fh


def save_figure(fig, path, *, overwrite: bool = True, **savefig_kwargs) -> Path:
    """``fig.savefig(path, **savefig_kwargs)`` through :func:`atomic_path` (format from the suffix)."""
    path = Path(path)
    fmt = savefig_kwargs.pop("format", None) or (path.suffix[1:].lower() or None)
    with atomic_path(path, overwrite=overwrite) as tmp:
        fig.savefig(tmp, format=fmt, **savefig_kwargs)
    return path
