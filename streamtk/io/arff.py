"""A small, strict reader for Weka/MOA ARFF files (dense format).

Supported: ``@relation``; ``@attribute`` of type ``numeric``, ``real``, ``integer``,
``string`` and nominal ``{a, b, ...}``; attribute names and values quoted with ``'`` or
``"`` (so they may hold spaces or commas); ``%`` comment lines; ``?`` for a missing value;
plain or gzip-compressed files (detected from the magic bytes, not the suffix).

Refused with a clear error: the sparse format (``{index value, ...}`` rows), instance weights,
``date`` and ``relational`` attributes. Every parse error names the file, the line (1-based)
and the column (1-based character position in that line).

A ``?`` field is missing whether or not it is quoted (Weka reads a quoted ``'?'`` as a value;
no MOA/Weka writer produces one for a nominal value).

Columns are returned as numpy arrays: numeric attributes as ``float64`` with NaN for missing,
nominal attributes as ``int64`` codes into the declared values with ``-1`` for missing, string
attributes as ``object`` arrays with ``None`` for missing.

See Also
--------
scipy.io.arff.loadarff : a reader with similar scope that returns a structured array; it
    refuses string attributes and reports errors without positions.
"""

from __future__ import annotations

import gzip
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = ["ArffAttribute", "ArffData", "ArffError", "read_arff"]

_NUMERIC_TYPES = ("numeric", "real", "integer")


class ArffError(ValueError):
    """A malformed or unsupported ARFF file; the message names file, line and column."""

    def __init__(self, message: str, *, path=None, line: int | None = None, column: int | None = None):
        self.path = None if path is None else str(path)
        self.line = line
        self.column = column
        where = []
        if path is not None:
            where.append(str(path))
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message)


@dataclass(frozen=True)
class ArffAttribute:
    """One declared attribute: its name, kind (``numeric``/``nominal``/``string``) and,
    for nominal attributes, the declared values in order."""

    name: str
    kind: str
    values: tuple = ()
    declared_type: str = ""


@dataclass(frozen=True)
class ArffData:
    """The contents of an ARFF file: relation name, attributes and one column per attribute."""

    relation: str
    attributes: tuple
    columns: tuple = field(repr=False)
    source_path: str | None = None

    @property
    def names(self) -> tuple:
        """The attribute names in declaration order."""
        return tuple(a.name for a in self.attributes)

    @property
    def n_rows(self) -> int:
        """Number of data rows."""
        return 0 if not self.columns else len(self.columns[0])

    def column(self, name: str) -> np.ndarray:
        """The column of the attribute called ``name``."""
        names = self.names
        if name not in names:
            raise KeyError(f"no attribute named {name!r}; attributes are {list(names)}")
        return self.columns[names.index(name)]

    def attribute(self, name: str) -> ArffAttribute:
        """The declaration of the attribute called ``name``."""
        names = self.names
        if name not in names:
            raise KeyError(f"no attribute named {name!r}; attributes are {list(names)}")
        return self.attributes[names.index(name)]

    def nominal_labels(self, name: str) -> np.ndarray:
        """A nominal column decoded to its declared values (``None`` where missing)."""
        att = self.attribute(name)
        if att.kind != "nominal":
            raise TypeError(f"attribute {name!r} is {att.kind}, not nominal")
        codes = self.column(name)
        values = np.array(list(att.values) + [None], dtype=object)
        return values[np.where(codes < 0, len(att.values), codes)]


# --------------------------------------------------------------------------- tokenising


def _tokenize(text: str, *, path, line_no: int, offset: int = 0, sep: str = ","):
    """Split ``text`` at ``sep`` outside quotes.

    Returns a list of ``(value, quoted, column)`` with ``column`` 1-based in the full line
    (``offset`` is the position of ``text`` inside that line). Whitespace around unquoted
    values is dropped; quoted values keep their content with ``\\`` escapes resolved.
    """
    out = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i] in " \t":
            i += 1
        start = i
        if i < n and text[i] in "'\"":
            quote = text[i]
            i += 1
            buf = []
            while True:
                if i >= n:
                    raise ArffError(f"unterminated {quote} quote", path=path, line=line_no, column=offset + start + 1)
                ch = text[i]
                if ch == "\\" and i + 1 < n:
                    buf.append({"n": "\n", "t": "\t", "r": "\r"}.get(text[i + 1], text[i + 1]))
                    i += 2
                    continue
                if ch == quote:
                    i += 1
                    break
                buf.append(ch)
                i += 1
            value, quoted = "".join(buf), True
            while i < n and text[i] in " \t":
                i += 1
            if i < n and text[i] != sep:
                raise ArffError(
                    f"expected {sep!r} after a quoted value, found {text[i]!r}",
                    path=path,
                    line=line_no,
                    column=offset + i + 1,
                )
        else:
            while i < n and text[i] != sep:
                i += 1
            value, quoted = text[start:i].strip(), False
        out.append((value, quoted, offset + start + 1))
        if i >= n:
            return out
        i += 1  # skip the separator


def _split_name(rest: str, *, path, line_no: int, offset: int):
    """Split ``<name> <remainder>`` where the name may be quoted."""
    s = rest.lstrip()
    offset += len(rest) - len(s)
    if not s:
        raise ArffError("missing name", path=path, line=line_no, column=offset + 1)
    if s[0] in "'\"":
        quote = s[0]
        end = s.find(quote, 1)
        while end > 0 and s[end - 1] == "\\":
            end = s.find(quote, end + 1)
        if end < 0:
            raise ArffError(f"unterminated {quote} quote", path=path, line=line_no, column=offset + 1)
        name = s[1:end].replace("\\" + quote, quote)
        remainder = s[end + 1 :]
        return name, remainder, offset + end + 1
    parts = s.split(None, 1)
    name = parts[0]
    remainder = parts[1] if len(parts) > 1 else ""
    return name, remainder, offset + len(s) - len(remainder)


def _parse_attribute(line: str, *, path, line_no: int, kw_len: int) -> ArffAttribute:
    name, rest, pos = _split_name(line[kw_len:], path=path, line_no=line_no, offset=kw_len)
    type_text = rest.strip()
    type_col = pos + (len(rest) - len(rest.lstrip())) + 1
    if not type_text:
        raise ArffError(f"attribute {name!r} has no type", path=path, line=line_no, column=type_col)
    if type_text.startswith("{"):
        if not type_text.endswith("}"):
            raise ArffError(
                f"nominal attribute {name!r}: missing closing '}}'", path=path, line=line_no, column=type_col
            )
        inner = type_text[1:-1]
        tokens = _tokenize(inner, path=path, line_no=line_no, offset=type_col)
        values = tuple(v for v, _, _ in tokens)
        if values == ("",):
            values = ()
        for v, quoted, col in tokens:
            if v == "" and not quoted and len(tokens) > 1:
                raise ArffError(f"nominal attribute {name!r}: empty value", path=path, line=line_no, column=col)
        if len(set(values)) != len(values):
            dup = next(v for v in values if values.count(v) > 1)
            raise ArffError(
                f"nominal attribute {name!r}: value {dup!r} declared twice", path=path, line=line_no, column=type_col
            )
        return ArffAttribute(name, "nominal", values, "nominal")
    word = type_text.split(None, 1)[0].lower()
    if word in _NUMERIC_TYPES:
        return ArffAttribute(name, "numeric", (), word)
    if word == "string":
        return ArffAttribute(name, "string", (), word)
    if word in ("date", "relational"):
        raise ArffError(
            f"attribute {name!r}: {word} attributes are not supported by streamtk's ARFF reader",
            path=path,
            line=line_no,
            column=type_col,
        )
    raise ArffError(f"attribute {name!r}: unknown type {type_text!r}", path=path, line=line_no, column=type_col)


# --------------------------------------------------------------------------- reading


def _read_text(path: Path) -> str:
    with open(path, "rb") as fh:
        raw = fh.read()
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise ArffError(f"corrupt gzip data ({exc})", path=path) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        # Count lines up to the bad byte so the message says where.
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ArffError("the file is not valid UTF-8", path=path, line=line, column=col) from None


def read_arff(source, *, name: str | None = None) -> ArffData:
    """Read a dense ARFF file (plain or gzip-compressed).

    Parameters
    ----------
    source : str, os.PathLike or file-like
        A path, or an open text/binary file object (then ``name`` is used in error messages).
    name : str, optional
        Name used in error messages when ``source`` is a file object.

    Returns
    -------
    ArffData
        ``relation``, ``attributes`` (:class:`ArffAttribute`) and ``columns``: ``float64``
        with NaN for missing (numeric), ``int64`` codes with ``-1`` for missing (nominal),
        ``object`` with ``None`` for missing (string).

    Raises
    ------
    ArffError
        For malformed or unsupported content; the message names the file, line and column.

    See Also
    --------
    scipy.io.arff.loadarff : scipy's reader (no string attributes, no error positions).
    moa.streams.ArffFileStream : MOA reads the same files; MOA takes the last attribute as
        the class by default, as :func:`streamtk.datasets.load` does.

    Examples
    --------
    >>> import io
    >>> text = "@relation r\\n@attribute x numeric\\n@attribute c {a,b}\\n@data\\n1.5,b\\n?,a\\n"
    >>> data = read_arff(io.StringIO(text))
    >>> data.columns[0], data.columns[1]
    (array([1.5, nan]), array([1, 0]))
    """
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        text = _read_text(path)
        label = str(path)
    else:
        raw = source.read()
        if isinstance(raw, bytes):
            if raw[:2] == b"\x1f\x8b":
                raw = gzip.decompress(raw)
            raw = raw.decode("utf-8")
        text, label = raw, (name or getattr(source, "name", None) or "<stream>")
    return _parse(text, label)


def _parse(text: str, path: str) -> ArffData:
    lines = text.splitlines()
    relation, attributes, data_start = _parse_header(lines, path)
    if data_start is None:
        raise ArffError("no @data section", path=path, line=len(lines))
    columns = _parse_data(lines, data_start, attributes, path)
    return ArffData(relation, tuple(attributes), tuple(columns), path)


def _parse_header(lines, path):
    """``(relation, attributes, index of the first data line or None)`` from the header lines."""
    relation = None
    attributes: list[ArffAttribute] = []
    data_start = None
    for idx, raw in enumerate(lines):
        line_no = idx + 1
        s = raw.strip()
        if not s or s.startswith("%"):
            continue
        lead = len(raw) - len(raw.lstrip())
        low = s.lower()
        if low.startswith("@relation"):
            if relation is not None:
                raise ArffError("second @relation", path=path, line=line_no, column=lead + 1)
            rel, _, _ = _split_name(s[len("@relation") :], path=path, line_no=line_no, offset=lead + 9)
            relation = rel
        elif low.startswith("@attribute"):
            if relation is None:
                raise ArffError("@attribute before @relation", path=path, line=line_no, column=lead + 1)
            att = _parse_attribute(raw.strip(), path=path, line_no=line_no, kw_len=len("@attribute"))
            if att.name in {a.name for a in attributes}:
                raise ArffError(f"attribute {att.name!r} declared twice", path=path, line=line_no, column=lead + 1)
            attributes.append(att)
        elif low.startswith("@data"):
            if not attributes:
                raise ArffError("@data before any @attribute", path=path, line=line_no, column=lead + 1)
            data_start = idx + 1
            break
        else:
            raise ArffError(
                f"expected @relation, @attribute or @data, found {s[:30]!r}", path=path, line=line_no, column=lead + 1
            )
    return relation, attributes, data_start


def _parse_data(lines, start, attributes, path, first_line=1):
    """Parse ``lines[start:]``; ``lines[i]`` is line ``first_line + i`` of the file."""
    k = len(attributes)
    rows: list[list[str]] = []
    line_nos: list[int] = []
    for idx in range(start, len(lines)):
        raw = lines[idx]
        s = raw.strip()
        if not s or s[0] == "%":
            continue
        line_no = idx + first_line
        if s[0] == "{":
            raise ArffError(
                "sparse ARFF rows ('{index value, ...}') are not supported; convert the file to the dense format",
                path=path,
                line=line_no,
                column=raw.index("{") + 1,
            )
        if "'" in raw or '"' in raw:
            fields = [v for v, _, _ in _tokenize(raw, path=path, line_no=line_no)]
        else:
            fields = [f.strip() for f in raw.split(",")]
        if len(fields) != k:
            if len(fields) == k + 1 and fields[-1].startswith("{"):
                col = len(raw) - len(raw.lstrip()) + raw.strip().rfind("{") + 1
                raise ArffError("instance weights ('{w}') are not supported", path=path, line=line_no, column=col)
            raise ArffError(
                f"expected {k} values, found {len(fields)}", path=path, line=line_no, column=len(raw.rstrip()) + 1
            )
        rows.append(fields)
        line_nos.append(line_no)
    if rows:
        cols = [np.array(c, dtype=object) for c in zip(*rows)]
    else:
        cols = [np.empty(0, dtype=object) for _ in attributes]
    out = []
    for j, (att, col) in enumerate(zip(attributes, cols)):
        missing = col == "?"
        if att.kind == "numeric":
            out.append(_numeric_column(col, missing, j, att, lines, line_nos, path, first_line))
        elif att.kind == "nominal":
            lookup = {v: i for i, v in enumerate(att.values)}
            lookup["?"] = -1
            try:
                codes = np.fromiter((lookup[v] for v in col), dtype=np.int64, count=len(col))
            except KeyError as exc:
                bad = exc.args[0]
                i = int(np.flatnonzero(col == bad)[0])
                raise ArffError(
                    f"value {bad!r} is not declared for nominal attribute {att.name!r} (declared: {list(att.values)})",
                    path=path,
                    line=line_nos[i],
                    column=_field_column(lines[line_nos[i] - first_line], j, path, line_nos[i]),
                ) from None
            out.append(codes)
        else:  # string
            strings = col.copy()
            strings[missing] = None
            out.append(strings)
    return out


def _numeric_column(col, missing, j, att, lines, line_nos, path, first_line=1):
    values = np.where(missing, "nan", col).astype(str)
    try:
        arr = values.astype(np.float64)
    except ValueError:
        for i, v in enumerate(col):
            if v == "?":
                continue
            try:
                float(v)
            except ValueError:
                raise ArffError(
                    f"cannot read {v!r} as a number for numeric attribute {att.name!r}",
                    path=path,
                    line=line_nos[i],
                    column=_field_column(lines[line_nos[i] - first_line], j, path, line_nos[i]),
                ) from None
        raise  # pragma: no cover - numpy and float() disagree
    if att.declared_type == "integer":
        ok = np.isnan(arr) | (arr == np.round(arr))
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise ArffError(
                f"integer attribute {att.name!r} holds the non-integer value {col[i]!r}",
                path=path,
                line=line_nos[i],
                column=_field_column(lines[line_nos[i] - first_line], j, path, line_nos[i]),
            )
    return arr


def _field_column(raw: str, j: int, path, line_no: int) -> int:
    return _tokenize(raw, path=path, line_no=line_no)[j][2]
