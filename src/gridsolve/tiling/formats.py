"""Board and piece text files: the one forgiving reader of the tiling family.

Board text: one line per row. Either compact (``#`` blocked, ``.`` open, one character per
cell) or words separated by spaces (``#`` blocked, ``.`` open, any other word an open cell
carrying that label, e.g. ``Jan`` or ``31``). Lines starting with ``;`` are comments.

Piece text: blocks separated by blank lines; each block is an optional header ``NAME:`` or
``NAME x3:`` (three identical copies), then the rows of the piece (``#``/``1`` a cell,
``.``/``0`` empty). Pieces without a header are named A, B, C, ... in order. A piece may be
turned and turned over unless its header says ``no-flip`` (or ``one-sided``: turned only)
and/or ``no-rotate`` (``fixed``: neither; ``no-rotate`` alone leaves the piece and its
left-right mirror image), e.g. ``S x2 one-sided:``.
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

from gridsolve.errors import InvalidPuzzle, ParseError
from gridsolve.numbers import read_number, text_lines
from gridsolve.tiling.model import MAX_BOARD_CELLS, MAX_PIECE_COPIES, Board, Piece

__all__ = ["parse_board", "parse_pieces", "read_board", "read_pieces", "board_text", "pieces_text"]

MAX_FILE_BYTES = 1_000_000
MAX_SIDE = 200
#: Unicode categories refused in labels: control, format (such as a stray byte order mark or
#: a zero-width space) and lone surrogates; they do not print, or print as something else.
_CONTROL = frozenset({"Cc", "Cf", "Cs"})
_HEADER = re.compile(r"^([A-Za-z0-9_\-]+)(?:\s+x([0-9]+))?((?:\s+[a-z\-]+)*)\s*:\s*$")
#: A piece header's words after the name and copies: what the piece may not do.
_MOVES = {"no-flip": (True, False), "one-sided": (True, False), "no-rotate": (False, True),
          "fixed": (False, False)}


def _lines(text: str) -> list[tuple[int, str]]:
    """Numbered lines without comments and trailing spaces (blank lines kept); a byte order
    mark at the start of the text is dropped."""
    out = []
    for n, line in enumerate(text_lines(text.removeprefix("\ufeff")), 1):
        line = line.rstrip()
        if line.lstrip().startswith(";"):
            continue
        out.append((n, line))
    return out


def parse_board(text: str, source: str | None = None, name: str = "") -> Board:
    """Read a board from text (see the module docstring for the two layouts)."""
    lines = [(n, line) for n, line in _lines(text) if line.strip()]
    if not lines:
        raise ParseError("no board rows found", source)
    if len(lines) > MAX_SIDE:
        raise ParseError(f"the board has {len(lines)} rows; at most {MAX_SIDE} are supported",
                         source, lines[MAX_SIDE][0])
    words = any(len(line.split()) > 1 for _, line in lines)
    if not words:
        lines = _dedented(lines)  # a space left at a row's start is refused below
    rows: list[list[str]] = []
    width = None
    for n, line in lines:
        cells = line.split() if words else list(line)
        if not words and any(ch not in "#." for ch in cells):
            bad = next(ch for ch in cells if ch not in "#.")
            raise ParseError(f"unexpected character {bad!r}: a compact board row uses only '#' "
                             "(blocked) and '.' (open); separate labels with spaces", source, n)
        if width is None:
            width = len(cells)
        elif len(cells) != width:
            raise ParseError(f"row has {len(cells)} cells but the first row has {width}",
                             source, n)
        if width > MAX_SIDE:
            raise ParseError(f"row has {width} cells; at most {MAX_SIDE} are supported", source, n)
        rows.append(cells)
    open_cells = []
    labels = []
    seen: dict[str, int] = {}
    for r, (cells, (n, _)) in enumerate(zip(rows, lines)):
        for c, word in enumerate(cells):
            if word == "#":
                continue
            open_cells.append((r, c))
            if word != ".":
                odd = next((ch for ch in word if unicodedata.category(ch) in _CONTROL), None)
                if odd is not None:
                    raise ParseError(f"label {word!r} contains U+{ord(odd):04X}, a control "
                                     "or format character: a label is printable text", source, n)
                if word in seen:
                    raise ParseError(f"label {word!r} is used twice (first on line {seen[word]})",
                                     source, n)
                seen[word] = n
                labels.append(((r, c), word))
    if len(open_cells) > MAX_BOARD_CELLS:
        raise ParseError(f"the board has {len(open_cells)} open cells; at most "
                         f"{MAX_BOARD_CELLS} are supported", source)
    try:
        return Board(len(rows), width or 0, tuple(open_cells), tuple(labels), name)
    except InvalidPuzzle as exc:
        raise ParseError(str(exc), source) from None


def parse_pieces(text: str, source: str | None = None) -> tuple[Piece, ...]:
    """Read a list of pieces from text (see the module docstring)."""
    blocks: list[list[tuple[int, str]]] = [[]]
    for n, line in _lines(text):
        if line.strip():
            blocks[-1].append((n, line))
        elif blocks[-1]:
            blocks.append([])
    blocks = [b for b in blocks if b]
    if not blocks:
        raise ParseError("no pieces found", source)
    pieces = []
    for i, block in enumerate(blocks):
        n0, head = block[0][0], block[0][1].strip()
        name, copies = _auto_name(i), 1
        rotate = flip = True
        m = _HEADER.match(head)
        if m:
            name, copies = m.group(1), read_number(m.group(2) or "1", "copies", source, n0)
            for word in m.group(3).split():
                if word not in _MOVES:
                    raise ParseError(f"piece {name!r}: unknown word {word!r} in its header (a "
                                     "name is one word; after it may come x2, no-flip or "
                                     "one-sided, no-rotate, fixed)", source, n0)
                rotate, flip = rotate and _MOVES[word][0], flip and _MOVES[word][1]
            block = block[1:]
            if not block:
                raise ParseError(f"piece {name!r} has no rows", source, n0)
        elif head.endswith(":"):
            raise ParseError(f"bad piece header {head!r}: use NAME:, NAME x2: or NAME x2 "
                             "one-sided:", source, n0)
        block = _dedented(block)
        if copies < 1 or copies > MAX_PIECE_COPIES:
            raise ParseError(f"piece {name!r} has {copies} copies; from 1 to {MAX_PIECE_COPIES} "
                             "are supported", source, n0)
        if len(block) > MAX_SIDE or any(len(row) > MAX_SIDE for _, row in block):
            raise ParseError(f"piece {name!r} is larger than {MAX_SIDE}x{MAX_SIDE}", source, n0)
        cells = []
        for r, (n, row) in enumerate(block):
            for c, ch in enumerate(row):
                if ch in "#1":
                    cells.append((r, c))
                elif ch not in ".0":
                    raise ParseError(f"unexpected character {ch!r} in piece {name!r}: use '#' "
                                     "for a cell and '.' for empty", source, n)
        if not cells:
            raise ParseError(f"piece {name!r} has no cells", source, n0)
        try:
            pieces.append(Piece(name, tuple(cells), copies, rotate, flip))
        except InvalidPuzzle as exc:
            raise ParseError(str(exc), source, n0) from None
    named: set[str] = set()  # (a set: 10,000 pieces took 2.7 s to compare by list)
    for j, piece in enumerate(pieces):
        if piece.name in named:
            raise ParseError(f"two pieces are named {piece.name!r}", source, blocks[j][0][0])
        named.add(piece.name)
    return tuple(pieces)


def _dedented(rows: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The rows without the indentation they share: a space left at a row's start is inside
    the piece or board (and refused there like any space; '.' is an empty cell), never
    dropped."""
    indents = [row[:len(row) - len(row.lstrip())] for _, row in rows]
    common = os.path.commonprefix(indents)
    return [(n, row[len(common):]) for n, row in rows]


def _auto_name(i: int) -> str:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return letters[i] if i < 26 else f"P{i + 1}"


def _read(path: str | Path) -> str:
    p = Path(path)
    size = p.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ParseError(f"file is {size} bytes; at most {MAX_FILE_BYTES} are read", str(path))
    with p.open("rb") as f:  # a device or a pipe has no size: read one byte past the cap
        data = f.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ParseError(f"over {MAX_FILE_BYTES} bytes; at most {MAX_FILE_BYTES} are read",
                         str(path))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ParseError("not a UTF-8 text file", str(path)) from None


def read_board(path: str | Path) -> Board:
    """Read a board file."""
    return parse_board(_read(path), str(path), Path(path).stem)


def read_pieces(path: str | Path) -> tuple[Piece, ...]:
    """Read a piece file."""
    return parse_pieces(_read(path), str(path))


def board_text(board: Board) -> str:
    """The board as words (labels, '.' and '#'), aligned: parse_board reads it back."""
    labels = dict(board.labels)
    rows = []
    for r in range(board.height):
        words = []
        for c in range(board.width):
            cell = (r, c)
            words.append(labels.get(cell, ".") if cell in board.index else "#")
        rows.append(words)
    w = max(len(x) for row in rows for x in row)
    return "\n".join(" ".join(x.ljust(w) for x in row).rstrip() for row in rows) + "\n"


def pieces_text(pieces: tuple[Piece, ...]) -> str:
    """Pieces as text blocks: parse_pieces reads them back."""
    blocks = []
    for p in pieces:
        words = [p.name] + ([f"x{p.copies}"] if p.copies != 1 else []) \
            + ([] if p.rotate else ["no-rotate"]) + ([] if p.flip else ["no-flip"])
        blocks.append("\n".join([" ".join(words) + ":", *p.rows()]))
    return "\n\n".join(blocks) + "\n"
