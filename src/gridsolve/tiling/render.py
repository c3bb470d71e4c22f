"""Pictures of tilings: plain text, coloured terminal text (rich), SVG (by hand), PNG (Pillow).

Each piece gets one letter (its name when that is one character) and one colour; a piece
with copies numbers each placed copy after its letter (D1, D2, ...) and gives it its own shade
of the piece's colour, and every placed piece is outlined, so eight dominoes are eight. Cells
left open show their label; blocked cells are blank; hidden pieces (hints) show as dots.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from pathlib import Path
from typing import Any

from gridsolve.errors import SolverUnavailable
from gridsolve.tiling.model import Board, Cell, Piece, Placement

__all__ = ["PALETTE", "letters", "cell_grid", "placement_symbols", "placement_colours",
           "tiling_text", "tiling_rich", "tiling_svg", "write_picture", "rgb", "DrawnTiling"]

#: One colour per piece, in piece order (repeats after 16).
PALETTE = ("#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#42d4f4",
           "#f032e6", "#bfef45", "#fabed4", "#469990", "#dcbeff", "#9a6324", "#fffac8",
           "#800000", "#aaffc3")
HIDDEN = -1
OPEN = -2


def rgb(colour: str) -> tuple[int, int, int]:
    """'#rrggbb' -> (r, g, b)."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def letters(pieces: Sequence[Piece]) -> list[str]:
    """One distinct letter per piece: its name if one character, else the first free letter
    (the pool holds more than the engine's 64 pieces; '.', '?' and '#' are not in it)."""
    used: set[str] = set()
    out = []
    pool = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@$%&+=*~^<>!"
    for p in pieces:
        cand = [p.name] if len(p.name) == 1 else []
        cand += [p.name[0].upper()] + list(pool)
        ch = next((c for c in cand if c not in used), "?")
        used.add(ch)
        out.append(ch)
    return out


def cell_grid(board: Board, tiling: Iterable[Placement], shown: set[int] | None = None
              ) -> dict[Cell, int]:
    """Each open cell -> the index of the placement covering it (in the tiling's order),
    OPEN (uncovered) or HIDDEN (a placement not shown)."""
    grid = {cell: OPEN for cell in board.open}
    for n, pl in enumerate(tiling):
        for cell in pl.cells:
            grid[cell] = n if shown is None or n in shown else HIDDEN
    return grid


def _copy_numbers(pieces: Sequence[Piece], tiling: Sequence[Placement]) -> list[int]:
    """Each placement's copy number of its piece (1, 2, ... in reading order of the copies'
    first cells), 0 for a piece that has one copy."""
    order = sorted(range(len(tiling)), key=lambda n: min(tiling[n].cells))
    seen: dict[int, int] = {}
    out = [0] * len(tiling)
    for n in order:
        piece = tiling[n].piece
        if pieces[piece].copies > 1:
            seen[piece] = out[n] = seen.get(piece, 0) + 1
    return out


def placement_symbols(pieces: Sequence[Piece], tiling: Sequence[Placement]) -> list[str]:
    """One symbol per placement: its piece's letter, followed by its copy number when the
    piece comes in copies (D1, D2, ...), so no two placements show the same symbol."""
    names = letters(pieces)
    return [names[pl.piece] + (str(k) if k else "")
            for pl, k in zip(tiling, _copy_numbers(pieces, tiling))]


def _shade(colour: str, pos: float) -> str:
    """The colour darkened (pos < 0) or lightened (pos > 0) by |pos| of the way to black or
    white."""
    target = 0 if pos < 0 else 255
    return "#" + "".join(f"{round(v + (target - v) * abs(pos)):02x}" for v in rgb(colour))


def placement_colours(pieces: Sequence[Piece], tiling: Sequence[Placement]) -> list[str]:
    """One colour per placement: its piece's PALETTE colour, in copies a shade of it per copy
    (darker to lighter, copy numbers next to each other half the range apart)."""
    out = []
    for pl, k in zip(tiling, _copy_numbers(pieces, tiling)):
        base = PALETTE[pl.piece % len(PALETTE)]
        n = pieces[pl.piece].copies
        if not k or n < 2:
            out.append(base)
            continue
        i = k - 1
        pos = i // 2 if i % 2 == 0 else (n + 1) // 2 + i // 2  # interleaved: 0, n/2, 1, ...
        out.append(_shade(base, -0.4 + 0.8 * pos / (n - 1)))
    return out


def _cell_word(board: Board, grid: dict[Cell, int], names: list[str], cell: Cell) -> str:
    if cell not in grid:
        return ""
    v = grid[cell]
    if v == OPEN:
        return board.label(cell) or "."
    if v == HIDDEN:
        return "\u00b7"
    return names[v]


def _cell_width(names: Sequence[str]) -> int:
    """Columns a cell takes in text: 3, or a symbol's length and a space when longer."""
    return max([3] + [len(n) + 1 for n in names])


def tiling_text(board: Board, pieces: Sequence[Piece], tiling: Iterable[Placement],
                shown: set[int] | None = None) -> str:
    """The tiling as text: one symbol per placed piece on each of its cells (placement_symbols),
    labels on open cells, 3 columns a cell (more for long symbols)."""
    tiling = tuple(tiling)
    grid = cell_grid(board, tiling, shown)
    names = placement_symbols(pieces, tiling)
    width = _cell_width(names)
    rows = []
    for r in range(board.height):
        words = [_cell_word(board, grid, names, (r, c)).center(width)[:width]
                 for c in range(board.width)]
        rows.append("".join(words).rstrip())
    return "\n".join(rows) + "\n"


def tiling_rich(board: Board, pieces: Sequence[Piece], tiling: Iterable[Placement],
                shown: set[int] | None = None) -> Any:
    """The tiling as a rich Text: each piece on its own background colour."""
    from rich.text import Text

    tiling = tuple(tiling)
    grid = cell_grid(board, tiling, shown)
    names = placement_symbols(pieces, tiling)
    colours = placement_colours(pieces, tiling)
    width = _cell_width(names)
    text = Text()
    for r in range(board.height):
        for c in range(board.width):
            cell = (r, c)
            word = _cell_word(board, grid, names, cell).center(width)[:width]
            v = grid.get(cell)
            if v is None:
                text.append(" " * width)
            elif v >= 0:
                colour = colours[v]
                r_, g_, b_ = rgb(colour)
                fg = "black" if r_ * 299 + g_ * 587 + b_ * 114 > 128000 else "white"
                text.append(word, style=f"bold {fg} on {colour}")
            elif v == OPEN:
                text.append(word, style="bold reverse")
            else:
                text.append(word, style="dim")
        text.append("\n")
    return text


def tiling_svg(board: Board, pieces: Sequence[Piece], tiling: Iterable[Placement],
               shown: set[int] | None = None, size: int = 48, title: str = "") -> str:
    """The tiling as an SVG picture (written by hand, no dependency): each placement in its
    colour (placement_colours), outlined."""
    tiling = tuple(tiling)
    grid = cell_grid(board, tiling, shown)
    colours = placement_colours(pieces, tiling)
    pad = size // 2
    top = pad + (size // 2 if title else 0)
    w, h = board.width * size + 2 * pad, board.height * size + top + pad
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" font-family="sans-serif">',
           f'<rect width="{w}" height="{h}" fill="white"/>']
    if title:
        out.append(f'<text x="{w / 2}" y="{pad}" text-anchor="middle" '
                   f'font-size="{size // 3}">{escape(title)}</text>')
    for (r, c), v in sorted(grid.items()):
        x, y = pad + c * size, top + r * size
        fill = colours[v] if v >= 0 else "#dddddd" if v == HIDDEN else "#ffffff"
        out.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{fill}" '
                   f'stroke="#999999" stroke-width="0.5"/>')
        if v == OPEN:
            out.append(f'<text x="{x + size / 2}" y="{y + size * 0.62}" text-anchor="middle" '
                       f'font-size="{size // 3}">{escape(board.label((r, c)) or "")}</text>')
    for (r, c), v in grid.items():     # thick lines where pieces meet
        x, y = pad + c * size, top + r * size
        for (dr, dc), (x1, y1, x2, y2) in (((0, 1), (x + size, y, x + size, y + size)),
                                           ((1, 0), (x, y + size, x + size, y + size)),
                                           ((0, -1), (x, y, x, y + size)),
                                           ((-1, 0), (x, y, x + size, y))):
            if grid.get((r + dr, c + dc)) != v or v < 0:
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="black" '
                           'stroke-width="2" stroke-linecap="square"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


class DrawnTiling(tuple[Placement, ...]):
    """A tiling (a tuple of placements, as ever) that knows its board, pieces and title, so it
    draws itself: Jupyter shows it as a picture (``_repr_svg_``)."""

    board: Board
    pieces: tuple[Piece, ...]
    title: str

    def __new__(cls, tiling: Iterable[Placement], board: Board, pieces: Sequence[Piece],
                title: str = "") -> DrawnTiling:
        self = super().__new__(cls, tiling)
        self.board, self.pieces, self.title = board, tuple(pieces), title
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return DrawnTiling, (tuple(self), self.board, self.pieces, self.title)

    def _repr_svg_(self) -> str:
        return tiling_svg(self.board, self.pieces, self, title=self.title)


def _pillow() -> Any:
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise SolverUnavailable("PNG output (Pillow)", "image") from None
    return Image, ImageDraw


def tiling_png(board: Board, pieces: Sequence[Piece], tiling: Iterable[Placement], path: Path,
               shown: set[int] | None = None, size: int = 48) -> None:
    """Write the tiling as a PNG picture (needs the 'image' extra: Pillow): each placement in
    its colour (placement_colours), outlined."""
    Image, ImageDraw = _pillow()
    tiling = tuple(tiling)
    grid = cell_grid(board, tiling, shown)
    colours = placement_colours(pieces, tiling)
    pad = size // 2
    img = Image.new("RGB", (board.width * size + 2 * pad, board.height * size + 2 * pad), "white")
    draw = ImageDraw.Draw(img)
    for (r, c), v in grid.items():
        x, y = pad + c * size, pad + r * size
        fill = colours[v] if v >= 0 else "#dddddd" if v == HIDDEN else "#ffffff"
        draw.rectangle([x, y, x + size, y + size], fill=fill, outline="#999999")
        if v == OPEN:
            draw.text((x + size / 2, y + size / 2), board.label((r, c)) or "", fill="black",
                      anchor="mm")
    for (r, c), v in grid.items():
        x, y = pad + c * size, pad + r * size
        for (dr, dc), seg in (((0, 1), (x + size, y, x + size, y + size)),
                              ((1, 0), (x, y + size, x + size, y + size)),
                              ((0, -1), (x, y, x, y + size)), ((-1, 0), (x, y, x + size, y))):
            if grid.get((r + dr, c + dc)) != v or v < 0:
                draw.line(seg, fill="black", width=3)
    img.save(path, format="PNG")


def write_picture(path: str | Path, board: Board, pieces: Sequence[Piece],
                  tiling: Sequence[Placement], shown: set[int] | None = None, title: str = "") -> None:
    """Write an .svg or .png picture of a tiling (chosen by the file's suffix)."""
    p = Path(path)
    if p.suffix.lower() == ".png":
        tiling_png(board, pieces, tiling, p, shown)
    else:
        p.write_text(tiling_svg(board, pieces, tiling, shown, title=title), encoding="utf-8")
