"""Downloading Electricity and Covertype from the PyPI wheel of scikit-multiflow: :func:`fetch`."""

from __future__ import annotations

import gzip
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from .locate import ChecksumError, _verify, cache_dir
from .registry import info

__all__ = ["FetchError", "fetch"]


class FetchError(RuntimeError):
    """:func:`fetch` could not download or unpack a dataset (the message says which step)."""


_WHEEL = "scikit-multiflow==0.4.1"
_WHEEL_MEMBERS = {
    "electricity": "skmultiflow/data/datasets/elec.csv",
    "covertype": "skmultiflow/data/datasets/covtype.csv",
}
_WHEEL_CONTENT_SHA256 = {
    "electricity": "ebdfe5480ae25a43a7d054286135e3a9484697a2850d5158a333b1578c28bb97",
    "covertype": "ea35ca6820fcbe0bdc6707e9ed31e11a9de84f07d88da73b511c737383c271a6",
}


def fetch(name: str, *, cache=None, timeout: float = 600.0, force: bool = False) -> Path:
    """Download Electricity or Covertype into the cache from the PyPI wheel of scikit-multiflow.

    Runs ``python -m pip download --no-deps --only-binary :all: --platform manylinux1_x86_64
    --python-version 37 scikit-multiflow==0.4.1`` into a temporary directory (nothing is
    installed), extracts ``skmultiflow/data/datasets/{elec,covtype}.csv`` from the wheel,
    checks its sha256 and stores it under the cache in the reference layout
    (``elec2/elec.csv``; ``covtype/covtype.csv.gz``, gzip-compressed).

    Parameters
    ----------
    name : {"electricity", "covertype"}
    cache : str or os.PathLike, optional
        Target directory; default :func:`cache_dir`.
    timeout : float, default 600
        Seconds allowed for ``pip download``.
    force : bool, default False
        Download even if a verified copy is already there.

    Returns
    -------
    pathlib.Path
        The stored file (verified).

    Raises
    ------
    FetchError
        If pip fails or times out (pip's message is included) or the wheel lacks the file.
    ChecksumError
        If the extracted file's digest is not the recorded one.
    """
    entry = info(name)
    if name not in _WHEEL_MEMBERS:
        raise ValueError(
            f"name must be one of {list(_WHEEL_MEMBERS)} for fetch, got {name!r}; to obtain {name!r}: {entry.obtain}"
        )
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    if not isinstance(force, bool):
        raise TypeError(f"force must be a bool, got {force!r}")
    root = cache_dir() if cache is None else Path(cache).expanduser()
    target = root / entry.relpath
    if target.is_file() and not force:
        try:
            _verify(target, entry)
            return target
        except ChecksumError:
            pass  # replace the bad copy
    with tempfile.TemporaryDirectory(prefix="streamtk-fetch-") as tmp:
        cmd = [
            sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
            "--platform", "manylinux1_x86_64", "--python-version", "37", "--dest", tmp, _WHEEL,
        ]  # fmt: skip
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise FetchError(f"`{' '.join(cmd[2:])}` did not finish within {timeout} s") from None
        if proc.returncode != 0:
            tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-8:])
            raise FetchError(f"`{' '.join(cmd[2:])}` failed with exit code {proc.returncode}:\n{tail}")
        wheels = sorted(Path(tmp).glob("scikit_multiflow-0.4.1-*.whl"))
        if not wheels:
            raise FetchError(f"pip reported success but no scikit-multiflow 0.4.1 wheel is in {tmp}")
        member = _WHEEL_MEMBERS[name]
        try:
            with zipfile.ZipFile(wheels[0]) as zf:
                data = zf.read(member)
        except (KeyError, zipfile.BadZipFile) as exc:
            raise FetchError(f"{wheels[0].name}: cannot read {member} ({exc})") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != _WHEEL_CONTENT_SHA256[name]:
        raise ChecksumError(
            f"{member} in the {_WHEEL} wheel: sha256 mismatch: expected {_WHEEL_CONTENT_SHA256[name]}, got {digest}"
        )
    if target.suffix == ".gz":
        data = gzip.compress(data, compresslevel=1, mtime=0)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.write_bytes(data)
    os.replace(partial, target)
    _verify(target, entry)
    return target
