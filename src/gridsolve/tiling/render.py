"""Pictures of tilings: plain text, coloured terminal text (rich), SVG (by hand), PNG (Pillow).

Each piece gets one letter (its name when that is one character) and one colour. Cells left
open show their label; blocked cells are blank; hidden pieces (hints) show as dots.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from pathlib import Path
from typing import Any

from gridsolve.errors import SolverUnavailable
from gridsolve.tiling.model import Board, Cell, Piece, Placement

__all__ = ["PALETTE", "letters", "cell_grid", "tiling_text", "tiling_rich", "tiling_svg",
           "write_picture", "rgb", "DrawnTiling"]

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
    """Each open cell -> piece index, OPEN (uncovered) or HIDDEN (a piece not shown)."""
    grid = {cell: OPEN for cell in board.open}
    for n, pl in enumerate(tiling):
        for cell in pl.cells:
            grid[cell] = pl.piece if shown is None or n in shown else HIDDEN
    return grid


def _cell_word(board: Board, grid: dict[Cell, int], names: list[str], cell: Cell) -> str:
    if cell not in grid:
        return ""
    v = grid[cell]
    if v == OPEN:
        return board.label(cell) or "."
    if v == HIDDEN:
        return "\u00b7"
    return names[v]


def tiling_text(board: Board, pieces: Sequence[Piece], tiling: Iterable[Placement],
                shown: set[int] | None = None) -> str:
    """The tiling as text: one letter per piece cell, labels on open cells, 3 columns a cell."""
    grid = cell_grid(board, tiling, shown)
    names = letters(pieces)
    rows = []
    for r in range(board.height):
        words = [_cell_word(board, grid, names, (r, c)).center(3)[:3] for c in range(board.width)]
        rows.append("".join(words).rstrip())
    return "\n".join(rows) + "\n"


def tiling_rich(board: Board, pieces: Sequence[Piece], tiling: Iterable[Placement],
                shown: set[int] | None = None) -> Any:
    """The tiling as a rich Text: each piece on its own background colour."""
    from rich.text import Text

    grid = cell_grid(board, tiling, shown)
    names = letters(pieces)
    text = Text()
    for r in range(board.height):
        for c in range(board.width):
            cell = (r, c)
            word = _cell_word(board, grid, names, cell).center(3)[:3]
            v = grid.get(cell)
            if v is None:
                text.append("   ")
            elif v >= 0:
                colour = PALETTE[v % len(PALETTE)]
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
    """The tiling as an SVG picture (written by hand, no dependency)."""
    grid = cell_grid(board, tiling, shown)
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
        fill = PALETTE[v % len(PALETTE)] if v >= 0 else "#dddddd" if v == HIDDEN else "#ffffff"
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
    """Write the tiling as a PNG picture (needs the 'image' extra: Pillow)."""
    Image, ImageDraw = _pillow()
    grid = cell_grid(board, tiling, shown)
    pad = size // 2
    img = Image.new("RGB", (board.width * size + 2 * pad, board.height * size + 2 * pad), "white")
    draw = ImageDraw.Draw(img)
    for (r, c), v in grid.items():
        x, y = pad + c * size, pad + r * size
        fill = PALETTE[v % len(PALETTE)] if v >= 0 else "#dddddd" if v == HIDDEN else "#ffffff"
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
