"""The plain text format people post: row clues, a ``--`` line, column clues.

    # a comment                 '#' starts a comment anywhere on a line (a comment line
                                between clue lines is skipped: it is not an empty clue)
    1 1                         one line per row, top to bottom
    3                           numbers separated by spaces or commas
    --                          a line starting with '--' separates rows from columns
    2                           one line per column, left to right
    1, 1                        '0' or an empty line is an empty clue
    2

Every line before the separator is a row, so a file that opens with an empty line opens with
an empty row; but after a leading comment (a title) blank lines before the first clue are
spacing, and blank lines after the last clue are ignored (write ``0`` there).
Variants seen in the wild are read too: a line holding only ``#`` as the separator, or (when
there is neither) a single run of blank lines, as in Keen's format (then write ``0`` for an
empty clue).
"""

from __future__ import annotations

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats import keen, mk, syro
from gridsolve.nonogram.formats._common import clue_lines, logical_lines, puzzle_from_lines
from gridsolve.nonogram.model import Puzzle

NAME = "text"
EXTENSIONS = (".txt", ".nono", ".clues")

Numbered = list[tuple[int, str]]


def _strip(line: str) -> str:
    return line.split("#", 1)[0].strip()


def _is_clue(line: str) -> bool:
    s = _strip(line)
    return bool(s) and all(c in "0123456789 ,\t" for c in s)


def _hash_separators(lines: list[str]) -> list[int]:
    """Indexes of lines holding only '#' with clue lines before and after them."""
    clue_at = [i for i, s in enumerate(lines) if _is_clue(s)]
    if not clue_at:
        return []
    return [i for i, s in enumerate(lines)
            if s.strip() == "#" and clue_at[0] < i < clue_at[-1]]


def detect(text: str) -> bool:
    """Is this our text format? (a '--' line, or a lone '#' between clues but not Olšák's .mk
    nor a JSolver (syro) file, whose clue lines end in 0 and whose two runs each end in '#')"""
    lines = logical_lines(text[:2_000_000])
    if any(line.lstrip().startswith("--") for line in lines):
        return True
    return len(_hash_separators(lines)) == 1 and not mk.detect(text) and not syro.detect(text)


def _split(lines: list[str], source: str | None) -> tuple[Numbered, Numbered, int | None]:
    """Row lines, column lines and the separator's line number."""
    seps = [i for i, s in enumerate(lines) if s.lstrip().startswith("--")]
    if not seps:
        seps = _hash_separators(lines)
    if len(seps) > 1:
        raise ParseError("a second separator line: one puzzle per file", source, seps[1] + 1)
    # a whole-line comment is no line at all (an empty clue needs an empty line or '0')
    body = [(i + 1, _strip(s)) for i, s in enumerate(lines) if not s.strip().startswith("#")]
    if not seps:
        try:
            rows, cols = keen.split_blocks(body, source)
        except ParseError as exc:
            if exc.line is None:
                raise ParseError("no '--' line separating row clues from column clues",
                                 source) from None
            raise
        return rows, cols, None
    sep = seps[0] + 1
    clue_lines = [n for n, s in body if s and n != sep]
    first, last = min(clue_lines, default=sep), max(clue_lines, default=sep)
    titled = any(s.strip().startswith("#") for s in lines[:min(first, sep) - 1])
    if not titled:  # no comment above the clues: every line before the separator is a row
        first = 1
    rows = [(n, s) for n, s in body if first <= n < sep]
    cols = [(n, s) for n, s in body if sep < n <= last]
    if not rows:
        raise ParseError("no row clues before the separator line", source, sep)
    if not cols:
        raise ParseError("no column clues after the separator line", source, sep)
    return rows, cols, sep


def parse(text: str, source: str | None = None, limits: bool = True) -> Puzzle:
    """Read one puzzle in the text format."""
    lines = logical_lines(text)
    if not any(_strip(s) and not s.strip().startswith("#") for s in lines):
        raise ParseError("empty file: no clues found", source)
    rows, cols, sep = _split(lines, source)
    return puzzle_from_lines(rows, cols, source, limits, total_line=sep)


def dump(puzzle: Puzzle) -> str:
    """Write a puzzle in the text format."""
    head = "".join(f"# {t}\n" for t in (puzzle.title or "").splitlines())
    return f"{head}{clue_lines(puzzle.rows)}\n--\n{clue_lines(puzzle.cols)}\n"
