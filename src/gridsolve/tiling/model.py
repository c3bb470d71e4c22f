"""Polyomino tiling: boards, pieces, placements, tilings and an independent checker.

Glossary:
    cell       (row, col) on a board, rows and columns from 0 at the top left
    board      a grid of open and blocked cells; open cells may carry a label ("Jan", "31")
    piece      a polyomino (set of cells); it may be rotated and flipped, and may come in copies
    orientation  one of the (up to 8) distinct rotations/reflections of a piece, normalised
    placement  one orientation of one piece at one position: the open cells it covers
    tiling     placements, one per piece copy, covering every open cell exactly once
               (except the cells asked to be left open)

Open cells are numbered 0..n-1 in reading order; a placement's ``mask`` has bit i set when it
covers open cell i. The model imports nothing else of gridsolve but the errors.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from gridsolve.errors import InvalidPuzzle

__all__ = ["Cell", "Shape", "Board", "Piece", "Placement", "Tiling", "normalise", "orientations",
           "placements", "check_area", "is_tiling", "MAX_BOARD_CELLS", "MAX_PIECE_COPIES"]

Cell = tuple[int, int]
Shape = tuple[Cell, ...]

#: The largest boards and piece sets accepted: the engine keys its memo on cells + copies bits.
MAX_BOARD_CELLS = 448
MAX_PIECE_COPIES = 256


def normalise(cells: Iterable[Cell]) -> Shape:
    """The shape moved to touch row 0 and column 0, cells sorted: a canonical form."""
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


@functools.cache
def orientations(shape: Shape, rotate: bool = True, flip: bool = True) -> tuple[Shape, ...]:
    """The distinct images of a shape under its quarter turns (``rotate``) and its mirror image
    (``flip``), the shape itself among them, in a fixed canonical order."""
    seen: set[Shape] = set()
    for mirrored in (False, True) if flip else (False,):
        cur = [(r, -c) if mirrored else (r, c) for r, c in shape]
        for _ in range(4 if rotate else 1):
            seen.add(normalise(cur))
            cur = [(c, -r) for r, c in cur]
    return tuple(sorted(seen))


def _connected(shape: Shape) -> bool:
    cells = set(shape)
    stack = [shape[0]]
    seen = {shape[0]}
    while stack:
        r, c = stack.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return len(seen) == len(cells)


@dataclass(frozen=True)
class Piece:
    """A polyomino with a name, its cells (normalised), how many identical copies exist, and
    whether it may be turned (``rotate``) and turned over (``flip``): a one-sided piece has
    ``flip=False``, a fixed one both False."""

    name: str
    cells: Shape
    copies: int = 1
    rotate: bool = True
    flip: bool = True

    def __post_init__(self) -> None:
        if not self.cells:
            raise InvalidPuzzle(f"piece {self.name!r} has no cells")
        if len(set(self.cells)) != len(self.cells):
            raise InvalidPuzzle(f"piece {self.name!r} repeats a cell")
        object.__setattr__(self, "cells", normalise(self.cells))
        if not _connected(self.cells):
            raise InvalidPuzzle(f"piece {self.name!r} is not connected")
        if self.copies < 1:
            raise InvalidPuzzle(f"piece {self.name!r} needs at least one copy")
        if not self.name or any(ch.isspace() for ch in self.name):
            raise InvalidPuzzle(f"piece name {self.name!r} must be a word without spaces")

    @classmethod
    def from_rows(cls, name: str, rows: str | Sequence[str], copies: int = 1, *,
                  rotate: bool = True, flip: bool = True) -> Piece:
        """A piece from rows of 1/0 or #/. (a list, or one string with '/' between rows)."""
        if isinstance(rows, str):
            rows = rows.split("/")
        cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch in "1#"]
        return cls(name, tuple(cells), copies, rotate, flip)

    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.cells)

    def orientations(self) -> tuple[Shape, ...]:
        """The distinct orientations this piece may take: turned (``rotate``) and mirrored
        (``flip``), as it allows."""
        return orientations(self.cells, self.rotate, self.flip)

    def rows(self) -> tuple[str, ...]:
        """The piece drawn as rows of '#' and '.'."""
        h = 1 + max(r for r, _ in self.cells)
        w = 1 + max(c for _, c in self.cells)
        cells = set(self.cells)
        return tuple("".join("#" if (r, c) in cells else "." for c in range(w)) for r in range(h))


@dataclass(frozen=True)
class Board:
    """A rectangle of open and blocked cells; open cells may carry unique labels."""

    height: int
    width: int
    open: tuple[Cell, ...]
    labels: tuple[tuple[Cell, str], ...] = ()
    name: str = field(default="", compare=False)
    index: dict[Cell, int] = field(init=False, repr=False, compare=False, hash=False)
    by_label: dict[str, Cell] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.height < 1 or self.width < 1:
            raise InvalidPuzzle("a board needs at least one row and one column")
        if not self.open:
            raise InvalidPuzzle("the board has no open cell")
        cells = tuple(sorted(set(self.open)))
        if len(cells) != len(self.open):
            raise InvalidPuzzle("the board lists an open cell twice")
        if len(cells) > MAX_BOARD_CELLS:
            raise InvalidPuzzle(f"the board has {len(cells)} open cells; at most "
                                f"{MAX_BOARD_CELLS} are supported")
        for r, c in cells:
            if not (0 <= r < self.height and 0 <= c < self.width):
                raise InvalidPuzzle(f"cell {(r, c)} lies outside the {self.height}x{self.width} board")
        object.__setattr__(self, "open", cells)
        object.__setattr__(self, "index", {cell: i for i, cell in enumerate(cells)})
        by_label: dict[str, Cell] = {}
        for cell, label in self.labels:
            if cell not in self.index:
                raise InvalidPuzzle(f"label {label!r} is on a cell that is not open: {cell}")
            if label in by_label:
                raise InvalidPuzzle(f"label {label!r} appears twice on the board")
            by_label[label] = cell
        object.__setattr__(self, "by_label", by_label)

    @property
    def size(self) -> int:
        """Number of open cells."""
        return len(self.open)

    def label(self, cell: Cell) -> str | None:
        """The label of an open cell, if any."""
        return dict(self.labels).get(cell)

    def mask(self, cells: Iterable[Cell]) -> int:
        """The bit mask of some open cells."""
        m = 0
        for cell in cells:
            m |= 1 << self.index[cell]
        return m

    def cells_of(self, mask: int) -> tuple[Cell, ...]:
        """The open cells of a bit mask, in reading order."""
        return tuple(cell for i, cell in enumerate(self.open) if mask >> i & 1)


@dataclass(frozen=True)
class Placement:
    """One piece (by index into the piece list) in one orientation at one position."""

    piece: int
    cells: Shape
    mask: int


#: A tiling: one placement per piece copy, in the order the search placed them.
Tiling = tuple[Placement, ...]


def placements(board: Board, piece_index: int, piece: Piece,
               allowed: frozenset[Cell] | None = None) -> tuple[Placement, ...]:
    """Every placement of a piece on the open cells (optionally only within ``allowed``)."""
    out: list[Placement] = []
    ok = board.index if allowed is None else allowed
    for shape in piece.orientations():
        h = 1 + max(r for r, _ in shape)
        w = 1 + max(c for _, c in shape)
        for dr in range(board.height - h + 1):
            for dc in range(board.width - w + 1):
                cells = tuple((r + dr, c + dc) for r, c in shape)
                if all(cell in ok and cell in board.index for cell in cells):
                    out.append(Placement(piece_index, cells, board.mask(cells)))
    return tuple(out)


def check_area(board: Board, pieces: Sequence[Piece], leave_open: int = 0) -> None:
    """Refuse a puzzle whose open area is not the pieces' area plus the cells left open."""
    area = sum(p.size * p.copies for p in pieces)
    if board.size != area + leave_open:
        def cells(n: int, what: str = "cell") -> str:
            return f"{n} {what}" if n == 1 else f"{n} {what}s"
        need = (f"{area} plus {cells(leave_open)} left open = {area + leave_open}" if leave_open
                else cells(area))
        raise InvalidPuzzle(f"the board has {cells(board.size, 'open cell')} but the pieces "
                            f"cover {need}")


@functools.lru_cache(maxsize=1 << 16)
def _fits(piece: Piece, cells: Shape) -> bool:
    """Are these distinct cells one orientation of the piece? (cached: tilings share placements)"""
    return len(set(cells)) == len(cells) and normalise(cells) in piece.orientations()


def is_tiling(board: Board, pieces: Sequence[Piece], tiling: Iterable[Placement],
              leave_open: Iterable[Cell] = ()) -> bool:
    """Is this a tiling? Checked cell by cell, independently of the engine's masks."""
    grid: dict[Cell, int] = {cell: -1 for cell in board.open}
    for cell in leave_open:
        if grid.get(cell) != -1:
            return False
        grid[cell] = -2
    used = [0] * len(pieces)
    for pl in tiling:
        if not 0 <= pl.piece < len(pieces):
            return False
        used[pl.piece] += 1
        if not _fits(pieces[pl.piece], pl.cells):
            return False
        for cell in pl.cells:
            if grid.get(cell) != -1:
                return False
            grid[cell] = pl.piece
    return (all(v != -1 for v in grid.values())
            and all(n == p.copies for n, p in zip(used, pieces)))
