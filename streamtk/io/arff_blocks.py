"""ARFF files larger than memory: :func:`iter_arff` reads a dense ARFF file block by block.

The same parser, errors and result type as :func:`streamtk.io.arff.read_arff`.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np

from .arff import ArffData, ArffError, _parse_data, _parse_header

__all__ = ["iter_arff"]


def iter_arff(source, *, chunk_rows: int = 65536):
    """Read a dense ARFF file block by block, for files larger than memory.

    Parameters
    ----------
    source : str or os.PathLike
        Plain or gzip-compressed ARFF file.
    chunk_rows : int
        Data lines per block (the last block may be shorter).

    Yields
    ------
    ArffData
        One block at a time, with the same ``relation`` and ``attributes`` as
        :func:`read_arff` and the columns of that block's rows; errors name the file, the
        line of the whole file and the column, as with :func:`read_arff`.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> text = "@relation r\\n@attribute x numeric\\n@attribute c {a,b}\\n@data\\n1,a\\n2,b\\n3,a\\n"
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "r.arff"
    >>> _ = path.write_text(text)
    >>> [block.n_rows for block in iter_arff(path, chunk_rows=2)]
    [2, 1]
    """
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, (int, np.integer)) or chunk_rows < 1:
        raise ValueError(f"chunk_rows must be a positive integer, got {chunk_rows!r}")
    path = Path(source)
    with open(path, "rb") as fh:
        gz = fh.read(2) == b"\x1f\x8b"
    opener = gzip.open if gz else open
    label = str(path)
    try:
        with opener(path, "rt", encoding="utf-8-sig", newline=None) as fh:
            header = []
            for raw in fh:
                header.append(raw.rstrip("\r\n"))
                if raw.strip().lower().startswith("@data"):
                    break
            relation, attributes, data_start = _parse_header(header, label)
            if data_start is None:
                raise ArffError("no @data section", path=label, line=len(header))
            attributes = tuple(attributes)
            first = len(header) + 1
            block, n_data = [], 0
            for raw in fh:
                block.append(raw.rstrip("\r\n"))
                s = raw.strip()
                if s and s[0] != "%":
                    n_data += 1
                    if n_data == chunk_rows:
                        yield ArffData(
                            relation, attributes, tuple(_parse_data(block, 0, attributes, label, first)), label
                        )
                        first += len(block)
                        block, n_data = [], 0
            if n_data:
                yield ArffData(relation, attributes, tuple(_parse_data(block, 0, attributes, label, first)), label)
    except UnicodeDecodeError:
        raise ArffError("the file is not valid UTF-8", path=label) from None
    except (OSError, EOFError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise ArffError(f"cannot read the file ({exc})", path=label) from None
