"""GNU MathProg data files for GLPK's paint-by-numbers model (examples/pbn/pbn.mod).

    data;
    param m := 10;              number of rows
    param n := 5;               number of columns
    param row : 1  2  3 :=      a table: one line per row, its blocks, '.' for none
          1     2  .  .
          2     2  1  .
    ;
    param col : 1  2  3 :=
          1     2  1  .
    ;
    end;

Comments are ``/* ... */`` and ``#`` to the end of a line. A row missing from the table is
an empty clue. See "Solving Paint-By-Numbers Puzzles with GLPK" (Makhorin, glpk pbn.pdf).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import (Entry, build_puzzle, check_size,
                                                default_label, only_entry, parse_int)
from gridsolve.nonogram.model import AnyPuzzle, Puzzle

NAME = "glpk"
EXTENSIONS = (".dat",)

_COMMENT = re.compile(r"/\*.*?\*/|#[^\n]*", re.S)
_TOKEN = re.compile(r":=|;|:|[^\s;:]+")
Token = tuple[str, int]


def detect(text: str) -> bool:
    """Does it have MathProg ``param row`` / ``param col`` tables?"""
    return bool(re.search(r"\bparam\s+(row|col)\b", text) and re.search(r"\bparam\s+[mn]\b", text))


def _tokens(text: str, source: str | None) -> list[Token]:
    """Tokens with their line numbers, comments removed."""
    if "/*" in _COMMENT.sub(lambda m: "", text):
        raise ParseError("unterminated /* comment", source,
                         text[:text.rfind("/*")].count("\n") + 1)
    clean = _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    starts = [0] + [m.end() for m in re.finditer("\n", clean)]
    return [(m.group(0), bisect.bisect_right(starts, m.start()))
            for m in _TOKEN.finditer(clean)]


def _statements(tokens: list[Token], source: str | None) -> Iterator[list[Token]]:
    stmt: list[Token] = []
    for tok in tokens:
        if tok[0] == ";":
            if stmt:
                yield stmt
            stmt = []
        else:
            stmt.append(tok)
    if stmt and stmt[0][0] != "end":
        raise ParseError(f"statement '{stmt[0][0]}' is not ended by ';'", source, stmt[0][1])


def _table(stmt: list[Token], size: int, source: str | None) -> tuple[list[list[int]], list[int | None]]:
    """Clues from ``param row : 1 2 := i v v ...``; rows not listed are empty."""
    name, line = stmt[1]
    if len(stmt) < 3 or stmt[2][0] != ":":
        raise ParseError(f"param {name}: expected a table ('param {name} : 1 2 ... :=')",
                         source, line)
    try:
        assign = next(k for k, t in enumerate(stmt) if t[0] == ":=")
    except StopIteration:
        raise ParseError(f"param {name}: missing ':=' after the column labels", source, line) from None
    ncols = assign - 3
    values = stmt[assign + 1:]
    if ncols < 1 or len(values) % (ncols + 1):
        raise ParseError(f"param {name}: table rows must have a label and {ncols} values",
                         source, values[-1][1] if values else line)
    clues: list[list[int]] = [[] for _ in range(size)]
    lines: list[int | None] = [None] * size
    for k in range(0, len(values), ncols + 1):
        label, at = values[k]
        i = parse_int(label, f"param {name}: the line number", source, at)
        if not 1 <= i <= size:
            raise ParseError(f"param {name}: line {i} is outside 1..{size}", source, at)
        if lines[i - 1] is not None:
            raise ParseError(f"param {name}: line {i} is given twice", source, at)
        lines[i - 1] = at
        cells = [v for v, _ in values[k + 1:k + 1 + ncols]]
        used = [c for c in cells if c != "."]
        if "." in cells[:len(used)]:
            raise ParseError(f"param {name}: a number after '.' in line {i}", source, at)
        clues[i - 1] = [parse_int(c, "a block length", source, at) for c in used]
    return clues, lines


def entries(text: str, source: str | None = None, limits: bool = True) -> Iterator[Entry]:
    """The one puzzle of a MathProg data file."""
    params: dict[str, list[Token]] = {}
    for stmt in _statements(_tokens(text, source), source):
        if stmt[0][0] == "data" and len(stmt) == 1:
            continue
        if stmt[0][0] == "end" and len(stmt) == 1:
            break
        if stmt[0][0] != "param" or len(stmt) < 2:
            raise ParseError(f"unexpected '{stmt[0][0]}' (expected 'param')", source, stmt[0][1])
        params[stmt[1][0]] = stmt
    size = {}
    for key in ("m", "n"):
        if key not in params:
            raise ParseError(f"missing 'param {key} := ...;'", source)
        decl = params[key]
        if len(decl) != 4 or decl[2][0] != ":=":
            raise ParseError(f"expected 'param {key} := NUMBER;'", source, decl[0][1])
        size[key] = parse_int(decl[3][0], f"param {key}", source, decl[3][1])
    check_size(size["n"], size["m"], source, params["m"][0][1], limits)
    for key in ("row", "col"):
        if key not in params:
            raise ParseError(f"missing 'param {key}' table", source)
    rows, row_lines = _table(params["row"], size["m"], source)
    cols, col_lines = _table(params["col"], size["n"], source)
    puzzle = build_puzzle(rows, cols, source, row_lines, col_lines, limits=limits)
    yield Entry(source or "<input>", 0, default_label(source), puzzle, None)


def parse(text: str, source: str | None = None, limits: bool = True) -> AnyPuzzle:
    """Read a MathProg data file."""
    return only_entry(entries(text, source, limits), source).puzzle


def dump(puzzle: Puzzle) -> str:
    """Write the puzzle as a MathProg data file for pbn.mod."""
    title = (puzzle.title or "gridsolve").replace("*/", "* /")
    out = [f"/* {title} */", "", "data;", "",
           f"param m := {puzzle.height};", "", f"param n := {puzzle.width};", ""]
    for name, clues in (("row", puzzle.rows), ("col", puzzle.cols)):
        k = max(1, max(map(len, clues)))
        out.append(f"param {name} : " + " ".join(str(j) for j in range(1, k + 1)) + " :=")
        for i, clue in enumerate(clues, 1):
            cells = [str(v) for v in clue] + ["."] * (k - len(clue))
            out.append(f"  {i} " + " ".join(cells))
        out += [";", ""]
    return "\n".join(out + ["end;"]) + "\n"
