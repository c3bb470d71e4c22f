"""Reading a position (a partly filled grid) for a puzzle: text rows or JSON.

Text: one row per line, '#' filled, '.' or 'x' empty, '?' unknown; spaces between cells and
blank lines are ignored, and lines starting with ';' or '//' are comments. JSON: an array of
row strings in the same letters, an array of arrays of those letters or of numbers (1 filled,
0 empty, -1 or null unknown), or an object with such an array under "grid". Not a puzzle format:
it is read against a puzzle already known, so its size can be checked. For a colour puzzle
(``palette``: its symbols, the background's first) cells are those symbols or '?' ('x' and
'X' read as the background unless the palette has them); JSON numbers are palette indexes
(0 the background, -1 or null unknown).
"""

from __future__ import annotations

from typing import Any

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._json_lines import item_lines, json_line
from gridsolve.nonogram.model import EMPTY, FILLED, UNKNOWN, Grid
from gridsolve.numbers import load_json, shown, text_lines

__all__ = ["parse_position", "LETTERS"]

#: What each accepted letter means.
LETTERS = {"#": FILLED, ".": EMPTY, "x": EMPTY, "X": EMPTY, "?": UNKNOWN}
NUMBERS = {1: FILLED, 0: EMPTY, -1: UNKNOWN, None: UNKNOWN}


def parse_position(text: str, width: int, height: int, source: str | None = None,
                   palette: str | None = None) -> Grid:
    """The position as rows of '#', '.', '?' (of a colour puzzle: its ``palette``'s symbols
    and '?'); ParseError naming the line and the problem."""
    letters, numbers, said = _cells(palette)
    if text.lstrip().startswith(("[", "{")):
        grid, path = _from_json(text, source, letters, numbers, said)
        try:
            return _check_size(grid, width, height, source, None)
        except ParseError:  # again, with each row's line (worked out only now)
            return _check_size(grid, width, height, source, item_lines(text, path))
    rows: list[str] = []
    lines: list[int] = []
    for number, raw in enumerate(text_lines(text), 1):
        line = raw.strip()
        if not line or line.startswith((";", "//")):
            continue
        row = line.replace(" ", "").replace("\t", "")
        bad = sorted(set(row) - set(letters))
        if bad:
            raise ParseError(f"unexpected {bad[0]!r}: cells are {said}", source, number)
        rows.append("".join(letters[ch] for ch in row))
        lines.append(number)
    return _check_size(tuple(rows), width, height, source, lines)


def _cells(palette: str | None) -> tuple[dict[str, str], dict[int | None, str], str]:
    """The letters and JSON numbers a position's cells may be, and how an error says them."""
    if palette is None:
        return LETTERS, NUMBERS, "'#' filled, '.' or 'x' empty, '?' unknown"
    letters = {"x": EMPTY, "X": EMPTY, UNKNOWN: UNKNOWN} | {s: s for s in palette}
    numbers: dict[int | None, str] = {-1: UNKNOWN, None: UNKNOWN} | dict(enumerate(palette))
    return letters, numbers, f"the palette's symbols ({' '.join(palette)}), '?' unknown"


def _from_json(text: str, source: str | None, letters: dict[str, str] = LETTERS,
               numbers: dict[int | None, str] = NUMBERS,
               said: str = "") -> tuple[Grid, tuple[str, ...]]:
    """The rows of a JSON position, and the path of their array. Read by load_json, as
    puzzle files are: nesting too deep for the parser and integers too long for int() are
    one-line errors, not tracebacks."""
    try:
        data: Any = load_json(text, source)
    except ParseError as exc:
        why = exc.why.removeprefix("invalid JSON: ")
        at = f" at line {exc.line}" if exc.line is not None else ""
        raise ParseError(f"not valid JSON{at}: {why}", source) from None
    path: tuple[str, ...] = ()
    if isinstance(data, dict):
        data, path = data.get("grid"), ("grid",)
    if not isinstance(data, list):
        raise ParseError("a JSON position is an array of rows (or {\"grid\": [...]})", source,
                         json_line(text, path))
    read = []
    for r, row in enumerate(data):
        try:
            read.append(_json_row(row, r, source, letters, numbers, said))
        except ParseError as exc:
            raise ParseError(exc.why, source, json_line(text, (*path, r))) from None
    return tuple(read), path


def _json_row(row: Any, r: int, source: str | None, letters: dict[str, str] = LETTERS,
              numbers: dict[int | None, str] = NUMBERS, said: str = "") -> str:
    """One JSON row: a string of letters or an array of letters or numbers."""
    cells = list(row) if isinstance(row, (str, list)) else None
    if cells is None:
        raise ParseError(f"row {r + 1}: a row is a string or an array of cells", source)
    out = []
    for c, cell in enumerate(cells):
        if isinstance(cell, str) and cell in letters:
            out.append(letters[cell])
        elif (cell is None or type(cell) is int) and cell in numbers:
            out.append(numbers[cell])
        else:
            what = (f"{said}; or a palette index, -1, null" if letters is not LETTERS
                    else "'#', '.', 'x', '?', or 1, 0, -1, null")
            raise ParseError(f"row {r + 1}, cell {c + 1}: {_shown_cell(cell)} is not a cell "
                             f"({what})", source)
    return "".join(out)


def _shown_cell(cell: Any) -> str:
    """A JSON cell as an error quotes it, short: an array or object by its kind only (it may
    nest hundreds deep), a string or anything else by its repr cut after 20 characters."""
    if isinstance(cell, list):
        return "an array"
    if isinstance(cell, dict):
        return "an object"
    if isinstance(cell, str):
        return shown(cell)
    text = repr(cell)
    return text if len(text) <= 20 else text[:20] + "..."


def _check_size(rows: Grid, width: int, height: int, source: str | None,
                lines: list[int] | None) -> Grid:
    """The position must have the puzzle's size; the error names the first row that differs."""
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ParseError(f"row {r + 1} has {len(row)} cells but the puzzle is {width} wide",
                             source, lines[r] if lines else None)
    if len(rows) != height:
        raise ParseError(f"the position has {len(rows)} rows but the puzzle has {height}", source)
    return rows
