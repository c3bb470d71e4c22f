"""Reading and writing nonogram files: the only place that accepts messy input.

Each format is a module with ``NAME``, ``EXTENSIONS``, ``detect(text) -> bool``,
``parse(text, source, limits) -> Puzzle`` and optionally ``dump(puzzle) -> str``.
Register new ones in ``FORMATS`` (order matters for detection: most specific first).
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats import text
from gridsolve.nonogram.formats._common import MAX_BYTES, ClueError, RawClues
from gridsolve.nonogram.model import Puzzle

__all__ = ["FORMATS", "read_puzzle", "parse_puzzle", "write_puzzle", "detect_format",
           "read_clues", "RawClues", "ClueError"]

FORMATS: dict[str, ModuleType] = {m.NAME: m for m in (text,)}


def detect_format(text_: str, source: str | None = None) -> ModuleType:
    """Pick the format by file extension first, then by content."""
    if source:
        suffix = Path(source).suffix.lower()
        for mod in FORMATS.values():
            if suffix in mod.EXTENSIONS and mod.detect(text_):
                return mod
    for mod in FORMATS.values():
        if mod.detect(text_):
            return mod
    raise ParseError("unknown puzzle format (try --format; known: "
                     + ", ".join(FORMATS) + ")", source)


def parse_puzzle(text_: str, format: str = "auto", source: str | None = None,
                 limits: bool = True) -> Puzzle:
    """Read a puzzle from text in the named format (or detect it)."""
    if format == "auto":
        mod = detect_format(text_, source)
    elif format in FORMATS:
        mod = FORMATS[format]
    else:
        raise ParseError(f"unknown format {format!r} (known: {', '.join(FORMATS)})", source)
    return mod.parse(text_, source, limits)  # type: ignore[no-any-return]


def read_text(path: str, limits: bool = True) -> str:
    """The text of a file ('-' is standard input), refusing huge or binary files."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_BYTES + 1 if limits else -1)
            source = "<stdin>"
        else:
            p = Path(path)
            if limits and p.is_file() and p.stat().st_size > MAX_BYTES:
                raise ParseError("file is over 10 MB (use --no-limits to read it anyway)", path)
            data = p.read_bytes()
            source = path
    except OSError as exc:
        raise ParseError(exc.strerror or str(exc), path) from None
    if limits and len(data) > MAX_BYTES:
        raise ParseError("input is over 10 MB (use --no-limits to read it anyway)", source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParseError(f"not UTF-8 text (byte {exc.start})", source) from None


def read_puzzle(path: str, format: str = "auto", limits: bool = True) -> Puzzle:
    """Read a puzzle file ('-' for standard input)."""
    source = "<stdin>" if path == "-" else path
    return parse_puzzle(read_text(path, limits), format, source, limits)


def read_clues(path: str, format: str = "auto", limits: bool = True) -> RawClues:
    """The clues of a puzzle file as written, even when they make no valid puzzle."""
    try:
        puzzle = read_puzzle(path, format, limits)
    except ClueError as exc:
        return exc.clues
    return RawClues(puzzle.rows, puzzle.cols, "<stdin>" if path == "-" else path)


def write_puzzle(puzzle: Puzzle, format: str = "text") -> str:
    """The puzzle as text in a format that can be written."""
    mod = FORMATS.get(format)
    if mod is None or not hasattr(mod, "dump"):
        writable = [n for n, m in FORMATS.items() if hasattr(m, "dump")]
        raise ParseError(f"cannot write format {format!r} (writable: {', '.join(writable)})")
    return mod.dump(puzzle)  # type: ignore[no-any-return]
