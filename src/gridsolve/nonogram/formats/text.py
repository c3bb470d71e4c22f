"""The plain text format people post: row clues, a ``--`` line, column clues.

    # a comment                 '#' starts a comment anywhere on a line
    1 1                         one line per row, top to bottom
    3                           numbers separated by spaces or commas
    --                          a line starting with '--' separates rows from columns
    2                           one line per column, left to right
    1, 1                        '0' or an empty line is an empty clue
    2

Blank lines before the first clue and after the last are ignored (write ``0`` there).
"""

from __future__ import annotations

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import build_puzzle, parse_numbers
from gridsolve.nonogram.model import Puzzle

NAME = "text"
EXTENSIONS = (".txt", ".nono", ".clues")


def _strip(line: str) -> str:
    return line.split("#", 1)[0].strip()


def detect(text: str) -> bool:
    """Is this our text format? (it has a line starting with '--')"""
    return any(line.lstrip().startswith("--") for line in text.splitlines())


def parse(text: str, source: str | None = None, limits: bool = True) -> Puzzle:
    """Read one puzzle in the text format."""
    lines = text.splitlines()
    body = [(i + 1, _strip(line)) for i, line in enumerate(lines)
            if not (line.strip().startswith("#"))]
    if not any(s for _, s in body):
        raise ParseError("empty file: no clues found", source)
    sep = [n for n, s in body if s.startswith("--")]
    if not sep:
        raise ParseError("no '--' line separating row clues from column clues", source)
    if len(sep) > 1:
        raise ParseError("a second '--' line: one puzzle per file", source, sep[1])
    first = next(n for n, s in body if s)
    last = max(n for n, s in body if s and not s.startswith("--"))
    rows: list[list[int]] = []
    cols: list[list[int]] = []
    row_lines: list[int] = []
    col_lines: list[int] = []
    for n, s in body:
        if n < first or n > last or n == sep[0]:
            continue
        into, at = (rows, row_lines) if n < sep[0] else (cols, col_lines)
        into.append(parse_numbers(s, source, n))
        at.append(n)
    if not rows:
        raise ParseError("no row clues before the '--' line", source, sep[0])
    if not cols:
        raise ParseError("no column clues after the '--' line", source, sep[0])
    return build_puzzle(rows, cols, source, row_lines, col_lines, limits=limits,
                        total_line=sep[0])


def dump(puzzle: Puzzle) -> str:
    """Write a puzzle in the text format."""
    def fmt(clue: tuple[int, ...]) -> str:
        return " ".join(map(str, clue)) or "0"
    head = f"# {puzzle.title}\n" if puzzle.title else ""
    return (head + "\n".join(map(fmt, puzzle.rows)) + "\n--\n"
            + "\n".join(map(fmt, puzzle.cols)) + "\n")
