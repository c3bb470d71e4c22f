"""Helpers shared by the format readers: numbers, size guards, and clean errors.

Numbers: read every number of a file with ``parse_numbers`` (a clue line), ``parse_int`` (one
named number) or ``read_number``; test with ``is_number``; match with ``NUMBER`` or
``number_pattern(n)``, never ``\\d``; load JSON with ``load_json``. They take ASCII digits only
and cap their length (``gridsolve.numbers`` says why), so a '²', '１' or a 5,000-digit clue is
one ParseError naming file and line, not a traceback or a silently different puzzle.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from gridsolve.errors import GridsolveError, InvalidPuzzle, ParseError
from gridsolve.nonogram.model import (EMPTY, FILLED, MAX_CELLS, MAX_SIDE, AnyPuzzle, ColourPuzzle,
                                      Grid, Puzzle, RawClues, RawColourClues)
from gridsolve.numbers import (MAX_DIGITS, NUMBER, is_number, load_json, number_pattern,
                               read_number, shown, text_lines)

__all__ = ["MAX_BYTES", "MAX_DIGITS", "NUMBER", "is_number", "load_json", "number_pattern",
           "read_number", "shown", "parse_numbers", "parse_number_lines", "parse_int", "RawClues", "ClueError",
           "Entry", "check_cells", "check_size", "clue_line", "build_puzzle", "make_goal",
           "only_entry", "default_label", "logical_lines", "take_lines", "puzzle_from_lines",
           "clue_lines", "COLOUR_UNSUPPORTED", "bw_only", "iter_logical_lines"]

#: Files larger than this are refused unless the caller lifts the limits.
MAX_BYTES = 10 * 1024 * 1024


class ClueError(ParseError):
    """A file that reads but whose clues make no valid puzzle; ``clues`` holds them as written."""

    def __init__(self, why: str, source: str | None, line: int | None,
                 clues: RawClues | RawColourClues) -> None:
        self.clues = clues
        super().__init__(why, source, line)


#: A line of short ASCII numbers and separators only: read at once (a 1000x1000 puzzle has
#: half a million numbers, and token by token they took seconds of a --timeout).
_PLAIN = re.compile(rf"[ \t,]*(?:[0-9]{{1,{MAX_DIGITS}}}(?:[ \t,]+|$))*")


def parse_numbers(text: str, source: str | None, line: int) -> list[int]:
    """Numbers separated by spaces, tabs or commas; a clear error for anything else."""
    if _PLAIN.fullmatch(text):
        return list(map(int, text.replace(",", " ").split()))
    out = []
    for tok in text.replace(",", " ").split():
        if tok.startswith("-") and is_number(tok[1:]):
            raise ParseError(f"clue numbers cannot be negative, got {tok[:21]}", source, line)
        out.append(read_number(tok, "", source, line))
    return out


#: A block of such lines (``parse_number_lines``): digits and separators only, and no number
#: longer than ``_PLAIN`` takes.
_PLAIN_BLOCK = re.compile(r"[0-9 \t,\n]*")
_LONG_NUMBER = re.compile(rf"[0-9]{{{MAX_DIGITS + 1}}}")


#: The numbers of most clues, read by a look-up: int() of each costs three times as much.
_SMALL = {str(n): n for n in range(100)}


def parse_number_lines(lines: Sequence[str], source: str | None, first: int) -> list[list[int]]:
    """``parse_numbers`` of each line (the first is line ``first`` of the file): a block of
    plain lines is checked at once (a tournament file of 1,000 puzzles has 50,000 lines)."""
    block = "\n".join(lines)
    if _PLAIN_BLOCK.fullmatch(block):
        if "," in block:
            lines = [s.replace(",", " ") for s in lines]
        try:  # every number under 100, written without a leading zero
            return [list(map(_SMALL.__getitem__, s.split())) for s in lines]
        except KeyError:
            pass
        if not _LONG_NUMBER.search(block):
            return [list(map(int, s.split())) for s in lines]
    return [parse_numbers(s, source, first + i) for i, s in enumerate(lines)]


def check_cells(width: int, height: int, source: str | None, limits: bool,
                line: int | None = None) -> None:
    """Refuse a puzzle over the 1000x1000 guard, unless the caller lifted the limits, and one
    with a side over the model's MAX_SIDE even then (the engines' longest line: no machine
    could hold such a puzzle's tables, and hostile headers declare them)."""
    if limits and width * height > MAX_CELLS:
        raise ParseError(f"puzzle is {width}x{height}, over the 1000x1000 limit",
                         source, line).with_remedy("limits")
    if max(width, height) > MAX_SIDE:
        raise ParseError(f"size {width}x{height} is far too large (a side has at most "
                         f"{MAX_SIDE:,} cells)", source, line)


def clue_line(exc: InvalidPuzzle, row_lines: Sequence[int | None],
              col_lines: Sequence[int | None], default: int | None = None) -> int | None:
    """The file line of the clue an InvalidPuzzle names (``default`` when it names none)."""
    if exc.where is None:
        return default
    kind, i = exc.where
    lines = row_lines if kind == "row" else col_lines
    return lines[i] if i < len(lines) else None


def build_puzzle(rows: Sequence[Sequence[int]], cols: Sequence[Sequence[int]],
                 source: str | None, row_lines: Sequence[int | None] = (),
                 col_lines: Sequence[int | None] = (), title: str | None = None,
                 limits: bool = True, total_line: int | None = None) -> Puzzle:
    """Make a Puzzle, turning a validation failure into a ParseError at the clue's line."""
    check_cells(len(cols), len(rows), source, limits)
    try:
        return Puzzle(rows, cols, title=title)
    except InvalidPuzzle as exc:
        line = clue_line(exc, row_lines, col_lines, total_line)
        raw = RawClues(tuple(map(tuple, rows)), tuple(map(tuple, cols)), source,
                       tuple(row_lines), tuple(col_lines), total_line)
        raise ClueError(str(exc), source, line, raw) from None


@dataclass(frozen=True)
class Entry:
    """One puzzle read from a file: where it came from, its name, its clues and stored goal."""

    source: str
    index: int
    label: str
    puzzle: AnyPuzzle
    goal: Grid | None = None

    def __post_init__(self) -> None:
        # every reader checks its goal's shape; a goal kept in another file (tournament
        # solution folders) is checked here, with the puzzle it is paired with
        g, p = self.goal, self.puzzle
        if g is not None and (len(g) != p.height or any(len(row) != p.width for row in g)):
            raise ParseError(f"puzzle {self.label!r}: the stored solution is "
                             f"{max(map(len, g), default=0)}x{len(g)}, the puzzle "
                             f"{p.width}x{p.height}", self.source)


#: what the formats that hold black-and-white puzzles only say of colour ones
COLOUR_UNSUPPORTED = "colour puzzles are not supported by this format"


def check_size(width: int, height: int, source: str | None, line: int | None,
               limits: bool) -> None:
    """Refuse a declared size before anything is allocated for it."""
    if width < 1 or height < 1:
        raise ParseError(f"size {width}x{height}: a puzzle needs at least one row and one column",
                         source, line)
    check_cells(width, height, source, limits, line)


def parse_int(text: str, what: str, source: str | None, line: int | None) -> int:
    """A single non-negative whole number, or a clear error naming what it should be."""
    tok = text.strip()
    if not is_number(tok):
        raise ParseError(f"{what} must be a whole number, got {shown(tok)}", source, line)
    return read_number(tok, what, source, line)


#: a line of two whole numbers: the size line of .mk ("H W") and .nin ("W H") files
SIZE_LINE = re.compile(r"^\s*([0-9]+)\s+([0-9]+)\s*$")


def size_line(lines: Sequence[tuple[int, str]], order: tuple[str, str], source: str | None,
              limits: bool) -> tuple[int, int, int]:
    """The width, the height and the line number of a file's first non-blank line, two whole
    numbers in the file's ``order`` (("height", "width") or ("width", "height")), the size
    checked before anything is allocated for it."""
    head = next(((n, s) for n, s in lines if s.strip()), None)
    if head is None:
        raise ParseError("empty file: no clues found", source)
    line, text = head
    m = SIZE_LINE.match(text)
    if m is None:
        raise ParseError(f"the first line must be '{order[0].upper()} {order[1].upper()}', "
                         f"got {text.strip()[:40]!r}", source, line)
    size = {name: parse_int(m.group(i + 1), f"the {name}", source, line)
            for i, name in enumerate(order)}
    check_size(size["width"], size["height"], source, line, limits)
    return size["width"], size["height"], line


def make_goal(rows: Sequence[str], width: int, height: int, filled: str, empty: str,
              source: str | None, line: int | None, keep: bool = False,
              row_line: Callable[[int], int | None] | None = None) -> Grid:
    """Turn stored solution rows into a Grid of '#'/'.' (or, with ``keep``, of the filled
    characters themselves: a colour goal), checking shape and characters. An error names
    ``line``, or for a bad row ``row_line(r)`` when given."""
    if len(rows) != height:
        raise ParseError(f"goal has {len(rows)} rows, the puzzle has {height}", source, line)
    out = []
    table = {**{c: c if keep else FILLED for c in filled}, **{c: EMPTY for c in empty}}
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ParseError(f"goal row {r + 1} has {len(row)} cells, the puzzle has {width} "
                             "columns", source, row_line(r) if row_line else line)
        try:
            out.append("".join(table[c] for c in row))
        except KeyError as exc:
            raise ParseError(f"goal row {r + 1}: unexpected character {exc.args[0]!r}",
                             source, row_line(r) if row_line else line) from None
    return tuple(out)


def only_entry(entries: Iterable[Entry], source: str | None) -> Entry:
    """The single entry of a one-puzzle text; an error naming the count otherwise."""
    found = list(entries)
    if not found:
        raise ParseError("no puzzle found", source)
    if len(found) > 1:
        raise ParseError(f"the file holds {len(found)} puzzles", source).with_remedy("index")
    return found[0]


def default_label(source: str | None, title: str | None = None) -> str:
    """A name for a puzzle: its title, else the file name without extension."""
    if title:
        return title
    if source and not source.startswith("<"):
        return os.path.splitext(os.path.basename(source))[0]
    return source or "<input>"


def logical_lines(text: str) -> list[str]:
    """The lines of a text, LF, CRLF or CR ending them (``text_lines``: a form feed is no
    line break); a BOM is dropped (read_text has removed one already)."""
    text = text.lstrip("\ufeff")
    if "\r" in text:
        return text_lines(text)
    lines = text.split("\n")  # text_lines without its two passes for CR (a large file: 1 ms)
    if lines[-1] == "":
        lines.pop()
    return lines


def iter_logical_lines(text: str) -> Iterator[str]:
    """``logical_lines``, one at a time: a detector that decides on the first lines reads no
    further (a tournament file of 1,000 puzzles has 51,000 lines)."""
    text = text.lstrip("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    start = 0
    while (end := text.find("\n", start)) >= 0:
        yield text[start:end]
        start = end + 1
    if start < len(text):
        yield text[start:]


def take_lines(lines: Sequence[tuple[int, str]], count: int, what: str, source: str | None,
               after: int | None) -> list[tuple[int, str]]:
    """Exactly `count` numbered lines for `what`; later lines must be blank."""
    if len(lines) < count:
        raise ParseError(f"expected {count} {what} lines, found {len(lines)}", source,
                         lines[-1][0] if lines else after)
    extra = next(((n, s) for n, s in lines[count:] if s.strip()), None)
    if extra is not None:
        raise ParseError(f"more than {count} {what} lines", source, extra[0])
    return list(lines[:count])


Numbered = Sequence[tuple[int, str]]


def puzzle_from_lines(rows: Numbered, cols: Numbered, source: str | None, limits: bool,
                      title: str | None = None, total_line: int | None = None) -> Puzzle:
    """A puzzle from numbered lines of clue numbers, errors pointing at the line at fault."""
    return build_puzzle([parse_numbers(s, source, n) for n, s in rows],
                        [parse_numbers(s, source, n) for n, s in cols], source,
                        [n for n, _ in rows], [n for n, _ in cols], title=title, limits=limits,
                        total_line=total_line)


def clue_lines(clues: Sequence[tuple[int, ...]], empty: str = "0") -> str:
    """One line of space-separated numbers per clue; ``empty`` for an empty clue."""
    return "\n".join(" ".join(map(str, clue)) or empty for clue in clues)


def bw_only(puzzle: Puzzle | ColourPuzzle, what: str, verb: str = "holds",
            source: str | None = None) -> Puzzle:
    """The puzzle if it is black-and-white, else a clear error: '<what> <verb> black-and-white
    puzzles only', naming the ``source`` file when given ('-': standard input)."""
    if isinstance(puzzle, ColourPuzzle):
        n = len(puzzle.palette) - 1
        why = (f"{what} {verb} black-and-white puzzles only (this puzzle has "
               f"{n} colour{'' if n == 1 else 's'})")
        if source is not None:
            raise ParseError(why, "<stdin>" if source == "-" else source)
        raise GridsolveError(why)
    return puzzle
