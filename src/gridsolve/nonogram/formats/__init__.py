"""Reading and writing nonogram files: the only place that accepts messy input.

Each format is a module with ``NAME``, ``EXTENSIONS``, ``detect(text) -> bool`` and
``parse(text, source, limits) -> AnyPuzzle`` (a ``ColourPuzzle`` only from the formats that
read colour: webpbn, g, pynogram, json); optionally ``entries(text, source, limits)``
yielding ``Entry`` (puzzle + stored goal; many for multi-puzzle files) and
``dump(puzzle[, goal]) -> str`` (``GOAL = True`` when dump writes a goal, ``COLOUR = True``
when it writes colour puzzles too; the others are given black-and-white puzzles only).
Register new ones in ``FORMATS``; ``DETECT_ORDER`` lists them most specific first.

Tournament question files ``.../question/X.txt`` take their goals from the sibling
``.../solution/X.txt`` when it exists (``iter_entries`` and ``read_entry``).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator, Mapping
from types import ModuleType
from typing import TYPE_CHECKING

from gridsolve.errors import MissingFile, ParseError
from gridsolve.nonogram.formats._common import (MAX_BYTES, ClueError, Entry, RawClues,
                                               bw_only, default_label)
from gridsolve.nonogram.model import AnyPuzzle, ColourPuzzle, Grid, RawColourClues

if TYPE_CHECKING:
    from gridsolve.nonogram.formats.tournament import Goals

__all__ = ["FORMATS", "Entry", "read_puzzle", "read_entry", "iter_entries", "parse_puzzle",
           "parse_entries", "write_puzzle", "detect_format", "read_text", "format_for_path",
           "read_clues", "RawClues", "INPUT_FORMATS", "ClueError", "bw_only", "colour_formats",
           "default_label"]

#: Every format: its name, its module in this package and its file extensions (the module's
#: ``NAME`` and ``EXTENSIONS``; a test checks they agree). Content detection tries them in
#: this order, the most specific signatures first. A module is imported when first needed
#: (``FORMATS``): reading a file loads the few formats its extension names, not all 19.
DETECT_ORDER: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("json", "json_", (".json",)),
    ("puzzlekit", "puzzlekit", (".json",)),
    ("webpbn", "webpbn", (".xml", ".pbn")),
    ("non", "non", (".non", ".nonpack")),
    ("picross", "picross", (".txt",)),
    ("faase", "faase", (".faase",)),
    ("glpk", "glpk", (".dat",)),
    ("pynogram", "pynogram", (".txt", ".ini", ".toml")),
    ("tournament", "tournament", (".txt",)),
    ("syro", "syro", (".syro",)),
    ("spoj", "spoj", (".txt", ".in")),
    ("g", "olsak_g", (".g",)),
    ("mk", "mk", (".mk",)),
    ("nin", "nin", (".nin",)),
    ("makhorin", "makhorin", (".makhorin",)),
    ("cwd", "cwd", (".cwd",)),
    ("text", "text", (".txt", ".nono", ".clues")),
    ("keen", "keen", (".txt",)),
    ("ish", "ish", (".ish",)),
)
#: Every file extension some format reads.
EXTENSIONS: frozenset[str] = frozenset(ext for _, _, exts in DETECT_ORDER for ext in exts)


class _Formats(Mapping[str, ModuleType]):
    """The format modules by name, in ``DETECT_ORDER``, each imported when first asked for."""

    _modules = {name: f"{__name__}.{module}" for name, module, _ in DETECT_ORDER}

    def __getitem__(self, name: str) -> ModuleType:
        return importlib.import_module(self._modules[name])

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)


FORMATS: Mapping[str, ModuleType] = _Formats()
#: Other names people use for a format: webpbn's export calls Simpson's .non "ss".
ALIASES: dict[str, str] = {"ss": "non"}
#: What ``--format`` accepts: detection, every format's name and the aliases.
INPUT_FORMATS: tuple[str, ...] = ("auto", *FORMATS, *ALIASES)


def detect_format(text_: str, source: str | None = None) -> ModuleType:
    """Pick the format by file extension first, then by content.

    A file whose extension belongs to one format only (``.mk``, ``.non``, ...) but whose
    content matches no format is given to that format, so its error says what is wrong.
    """
    by_suffix: list[str] = []
    if source:
        suffix = os.path.splitext(source)[1].lower()
        by_suffix = [name for name, _, exts in DETECT_ORDER if suffix in exts]
        for name in by_suffix:
            if FORMATS[name].detect(text_):
                return FORMATS[name]
    for name in FORMATS:
        if name not in by_suffix and FORMATS[name].detect(text_):
            return FORMATS[name]
    if by_suffix:  # our own text format speaks for the ambiguous .txt
        return FORMATS["text" if "text" in by_suffix else by_suffix[0]]
    if not text_.strip():
        raise ParseError("empty file: no clues found", source)
    raise ParseError("unknown puzzle format (known: " + ", ".join(FORMATS) + ")",
                     source).with_remedy("format")


def _module(format: str, text_: str, source: str | None) -> ModuleType:
    if format == "auto":
        return detect_format(text_, source)
    format = ALIASES.get(format, format)
    if format in FORMATS:
        return FORMATS[format]
    raise ParseError(f"unknown format {format!r} (known: {', '.join(FORMATS)})", source)


def parse_entries(text_: str, format: str = "auto", source: str | None = None,
                  limits: bool = True) -> Iterator[Entry]:
    """Every puzzle in a text, with its stored goal when the format has one."""
    mod = _module(format, text_, source)
    if hasattr(mod, "entries"):
        yield from mod.entries(text_, source, limits)
    else:
        puzzle = mod.parse(text_, source, limits)
        yield Entry(source or "<input>", 0, default_label(source, puzzle.title), puzzle, None)


def parse_puzzle(text_: str, format: str = "auto", source: str | None = None,
                 limits: bool = True) -> AnyPuzzle:
    """Read a puzzle from text in the named format (or detect it)."""
    puzzle: AnyPuzzle = _module(format, text_, source).parse(text_, source, limits)
    return puzzle


def read_text(path: str, limits: bool = True) -> str:
    """The text of a file ('-' is standard input), refusing huge or binary files; MissingFile
    (a ParseError and a FileNotFoundError) when there is no such file."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_BYTES + 1 if limits else -1)
            source = "<stdin>"
        else:
            if limits and os.path.isfile(path) and os.stat(path).st_size > MAX_BYTES:
                raise ParseError("file is over 10 MB", path).with_remedy("limits")
            with open(path, "rb") as f:  # a device or a pipe has no size: read past the cap
                data = f.read(MAX_BYTES + 1 if limits else -1)
            source = path
    except FileNotFoundError as exc:
        raise MissingFile(path, exc.strerror or "No such file or directory") from None
    except OSError as exc:
        raise ParseError(exc.strerror or str(exc), path) from None
    if limits and len(data) > MAX_BYTES:
        raise ParseError("input is over 10 MB", source).with_remedy("limits")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParseError(f"not UTF-8 text (byte {exc.start})", source) from None


def _source(path: str) -> str:
    return "<stdin>" if path == "-" else path


def read_puzzle(path: str, format: str = "auto", limits: bool = True) -> AnyPuzzle:
    """Read a puzzle file ('-' for standard input)."""
    return parse_puzzle(read_text(path, limits), format, _source(path), limits)


def read_clues(path: str, format: str = "auto",
               limits: bool = True) -> RawClues | RawColourClues:
    """The clues of a puzzle file as written, even when they make no valid puzzle."""
    try:
        puzzle = read_puzzle(path, format, limits)
    except ClueError as exc:
        return exc.clues
    if isinstance(puzzle, ColourPuzzle):
        return RawColourClues(puzzle.rows, puzzle.cols, puzzle.palette, _source(path))
    return RawClues(puzzle.rows, puzzle.cols, _source(path))


def _sibling_goals(path: str, mod: ModuleType) -> tuple[Goals | dict[str, Grid], str]:
    """Goals kept beside the puzzle file (tournament question/solution folders), and the file
    that holds them."""
    if mod.NAME != "tournament" or path == "-":
        return {}, ""
    tournament = mod
    sol = tournament.solution_path(path)
    if sol is None:
        return {}, ""
    return tournament.parse_solutions(read_text(sol), sol), sol


def iter_entries(path: str, format: str = "auto", limits: bool = True) -> Iterator[Entry]:
    """Every puzzle of a file ('-' for standard input) with its goal, in file order."""
    source = _source(path)
    text_ = read_text(path, limits)
    mod = _module(format, text_, source)
    goals, sol = _sibling_goals(path, mod)
    for entry in parse_entries(text_, mod.NAME, source, limits):
        goal = goals.get(entry.label, entry.goal)
        if goal is not entry.goal:
            try:
                entry = Entry(entry.source, entry.index, entry.label, entry.puzzle, goal)
            except ParseError as exc:  # the goal's shape: name the file that holds it
                raise ParseError(exc.why, sol) from None
        yield entry


def read_entry(path: str, format: str = "auto", limits: bool = True) -> Entry:
    """The single puzzle of a file with its stored goal (an error if it holds several)."""
    found: list[Entry] = []
    for entry in iter_entries(path, format, limits):
        found.append(entry)
        if len(found) > 1:
            raise ParseError("the file holds more than one puzzle",
                             _source(path)).with_remedy("index")
    if not found:
        raise ParseError("no puzzle found", _source(path))
    return found[0]


def colour_formats() -> list[str]:
    """The names of the formats that can write colour puzzles."""
    return [name for name, mod in FORMATS.items() if getattr(mod, "COLOUR", False)]


def format_for_path(path: str) -> str | None:
    """The name of the writable format whose extension the path has, if any: our text format
    for ``.txt`` (which tournament, Keen, SPOJ and pynogram files use too)."""
    suffix = os.path.splitext(path)[1].lower()
    extensions = {name: exts for name, _, exts in DETECT_ORDER}
    for name in ("text", *FORMATS):
        if suffix in extensions[name] and hasattr(FORMATS[name], "dump"):
            return name
    return None


def write_puzzle(puzzle: AnyPuzzle, format: str = "text", goal: Grid | None = None) -> str:
    """The puzzle as text in a format that can be written (with its goal if it has room)."""
    mod = FORMATS.get(ALIASES.get(format, format))
    if mod is None or not hasattr(mod, "dump"):
        writable = [n for n, m in FORMATS.items() if hasattr(m, "dump")]
        raise ParseError(f"cannot write format {format!r} (writable: {', '.join(writable)})")
    if not getattr(mod, "COLOUR", False):
        bw_only(puzzle, f"the {format} format")
    if goal is not None and getattr(mod, "GOAL", False):
        return mod.dump(puzzle, goal)  # type: ignore[no-any-return]
    if getattr(mod, "FREE_TITLE", False):
        return mod.dump(puzzle, lambda text: detect_format(text) is mod)  # type: ignore[no-any-return]
    return mod.dump(puzzle)  # type: ignore[no-any-return]
