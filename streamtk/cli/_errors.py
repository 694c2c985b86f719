"""Input errors of the command line: checked up front, reported on one line naming the flag or file.

The library names its arguments (``windows must be a positive integer, got 0``); the command line
names its flags (``--window must be a positive integer, got 0``). :func:`flag_names` maps the
library's argument names to the flags of a command (read from its parser, plus the few names that
differ); :func:`one_line` rewrites a message with them. :func:`check_parsed` refuses what argparse
lets through: an empty string for any text option (``--metrics ''`` would otherwise mean "every
metric") and integers that no 64-bit index can hold. :func:`is_input_error` says which exceptions
are the user's input (exit status 2, one line) rather than a bug (traceback).
"""

from __future__ import annotations

import argparse
import re
import zlib

__all__ = ["check_parsed", "flag_names", "is_input_error", "one_line"]

# library argument name -> parser dest, where they differ
_ALIASES = {
    "windows": "window",
    "chunk": "chunk_size",
    "lambda_": "ph_lambda",
    "alpha": "significance",
    "significance": "significance",
    "detectors": "detector",
    "models": "models",
}
_INT64_MAX = 2**63 - 1
_VERBS = r"(?= must\b| contains\b| has\b| is\b| of\b| are\b| holds\b| and\b|\[|=| \()"


def _flag(action: argparse.Action) -> str:
    if action.option_strings:
        return max(action.option_strings, key=len)
    return (action.metavar if isinstance(action.metavar, str) else None) or action.dest.upper()


def flag_names(parser: argparse.ArgumentParser, args: argparse.Namespace | None = None) -> dict:
    """``{library argument name: flag}`` for one command's parser (``{"windows": "--window", ...}``).

    A library name shared by several flags (``delta`` for ``--ph-delta`` and ``--adwin-delta``) maps to
    the one the user set (its value differs from the default), else to all of them.
    """
    actions = [a for a in parser._actions if a.dest not in ("help", argparse.SUPPRESS)]
    by_dest = {a.dest: _flag(a) for a in actions}
    names = dict(by_dest)
    for lib, dest in _ALIASES.items():
        if dest in by_dest:
            names[lib] = by_dest[dest]
    suffixed: dict = {}
    for a in actions:
        if "_" in a.dest:
            suffixed.setdefault(a.dest.rsplit("_", 1)[1], []).append(a)
    for lib, group in suffixed.items():
        if lib in names or len(lib) < 3:
            continue
        given = [a for a in group if args is not None and getattr(args, a.dest, a.default) != a.default]
        chosen = given if len(given) == 1 else group
        names[lib] = " or ".join(_flag(a) for a in chosen)
    return {k: v for k, v in names.items() if k != v and len(k) > 2}


def one_line(message: str, flags: dict | None = None) -> str:
    """The message on one line, with library argument names replaced by the command's flags."""
    text = " ".join(part.strip() for part in str(message).splitlines() if part.strip())
    for name in sorted(flags or {}, key=len, reverse=True):
        flag = flags[name]
        # only where a clause starts (the start, or after ": ", "; ", ", "): an argument named as a subject
        text = re.sub(rf"(^|(?<=[:;,] )){re.escape(name)}{_VERBS}", flag, text)
    return text


def check_parsed(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse empty text options and integers beyond 64 bits (ValueError naming the flag and the value)."""
    for action in parser._actions:
        if not action.option_strings and action.dest in ("help", "command"):
            continue
        value = getattr(args, action.dest, None)
        if value is None or isinstance(value, bool):
            continue
        values = value if isinstance(value, list) else [value]
        flag = _flag(action)
        for v in values:
            if isinstance(v, str) and not v.replace(",", " ").strip():
                raise ValueError(f"{flag} must not be empty, got {v!r}")
            if isinstance(v, int) and not isinstance(v, bool) and abs(v) > _INT64_MAX:
                raise ValueError(f"{flag} must be at most {_INT64_MAX} in magnitude, got {v}")


def is_input_error(err: BaseException) -> bool:
    """True for errors caused by the input (files, flags, disk), false for bugs."""
    if isinstance(err, (ValueError, TypeError, KeyError, OSError, ImportError, EOFError, zlib.error)):
        return True
    if isinstance(err, (OverflowError, MemoryError)):
        return True
    return isinstance(err, RuntimeError) and any(s in str(err) for s in ("NetCDF", "HDF"))


def describe(err: BaseException) -> str:
    """The text of an input error, with the file it concerns when the exception knows it."""
    if isinstance(err, KeyError):
        text = f"missing {err}"
    elif isinstance(err, MemoryError):
        text = f"not enough memory{f' ({err})' if str(err) else ''}: use a larger --every or a smaller --chunk-size"
    else:
        text = str(err) or type(err).__name__
    filename = getattr(err, "filename", None)
    if isinstance(err, OSError) and filename and str(filename) not in text:
        text = f"{filename}: {text}"
    return text
