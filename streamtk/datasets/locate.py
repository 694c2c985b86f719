"""Finding and verifying dataset files: explicit path, then ``$STREAMTK_DATA``, then the cache."""

from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path

from .._kernels._cache import cache_root
from .registry import DatasetInfo, info

__all__ = ["ChecksumError", "DatasetNotFoundError", "ENV_CACHE", "ENV_DATA", "cache_dir", "find", "sha256_file"]

ENV_DATA = "STREAMTK_DATA"
ENV_CACHE = "STREAMTK_CACHE"


class DatasetNotFoundError(FileNotFoundError):
    """A dataset file is not in any of the places looked at (the message lists them)."""


class ChecksumError(ValueError):
    """A dataset file's sha256 digest differs from the recorded one."""


def cache_dir() -> Path:
    """The per-user cache directory: ``$STREAMTK_CACHE``, else ``$XDG_CACHE_HOME/streamtk``,
    else ``~/.cache/streamtk`` (it is not created here); compiled kernels live there too."""
    return cache_root()


def _candidates(entry: DatasetInfo, path) -> list[tuple[str, Path]]:
    out = []
    if path is not None:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be a str or os.PathLike, got {path!r} of type {type(path).__name__}")
        p = Path(path).expanduser()
        if p.is_dir():
            out.append(("path argument (a data directory)", p / entry.relpath))
        elif p.is_file():
            out.append(("path argument (the file)", p))
        else:  # neither exists: it may have been meant as either
            out.append(("path argument as the file", p))
            out.append(("path argument as a data directory", p / entry.relpath))
    env = os.environ.get(ENV_DATA)
    if env:
        out.append((f"${ENV_DATA}", Path(env).expanduser() / entry.relpath))
    else:
        out.append((f"${ENV_DATA} (not set)", None))
    out.append(("cache", cache_dir() / entry.relpath))
    return out


def find(name: str, *, path=None) -> Path:
    """The file of dataset ``name`` (not verified); see the module docstring for the order.

    Raises
    ------
    DatasetNotFoundError
        Listing every place looked at and how to obtain the file.
    """
    entry = info(name)
    cands = _candidates(entry, path)
    for _, p in cands:
        if p is not None and p.is_file():
            return p
    looked = "\n".join(f"  - {label}: {p if p is not None else '(skipped)'}" for label, p in cands)
    raise DatasetNotFoundError(
        f"dataset {name!r} ({entry.relpath}) was not found. Looked at:\n{looked}\n"
        f"To obtain it: {entry.obtain}.\nThen pass path=..., set ${ENV_DATA} to a directory holding "
        f"{entry.relpath}, or put it under the cache directory {cache_dir()}."
    )


def sha256_file(path) -> str:
    """The hex sha256 digest of a file."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _verify(path: Path, entry: DatasetInfo) -> None:
    """Accept the file if its digest is the recorded one or, for a gzip file, if the digest of
    its decompressed content is (a re-compressed copy, as :func:`fetch` writes, is fine)."""
    got = sha256_file(path)
    if got == entry.sha256:
        return
    expected = f"expected {entry.sha256}"
    if entry.content_sha256:
        with open(path, "rb") as fh:
            magic = fh.read(2)
        if magic == b"\x1f\x8b":
            try:
                with gzip.open(path, "rb") as fh:
                    h = hashlib.sha256()
                    for block in iter(lambda: fh.read(1 << 20), b""):
                        h.update(block)
                content = h.hexdigest()
            except (OSError, EOFError) as exc:
                content = f"unreadable gzip data ({exc})"
            if content == entry.content_sha256:
                return
            got = f"{got} (decompressed content: {content})"
        expected += f" (or decompressed content {entry.content_sha256})"
    raise ChecksumError(
        f"{path}: sha256 mismatch for dataset {entry.name!r}: {expected}, got {got}. The file is corrupt "
        "or a different version; delete it and obtain it again (or pass verify=False to read it anyway)."
    )


def _locate(name, path, verify):
    entry = info(name)
    p = find(name, path=path)
    if not isinstance(verify, bool):
        raise TypeError(f"verify must be a bool, got {verify!r}")
    if verify:
        _verify(p, entry)
    return entry, p
