"""Tilings up to the board's symmetries: the rotations and reflections that map the board onto
itself and the piece set onto itself, and one canonical form per class of tilings.

A symmetry moves each piece's orientations onto those of a piece with as many copies: its own
(a reflection of a piece that may be turned over, or that is its own mirror image up to a
turn) or another's (a one-sided S and a one-sided Z swap under a reflection, so a one-sided
set holding both keeps its reflections; one holding an S alone loses them). A tiling's image
is the moved cells, each placement relabelled with the piece it moves onto.

Counting up to symmetry lists every tiling and keeps one per orbit (the smallest of its images
under the symmetries), so it is exact whether or not some tilings are symmetric themselves;
it is refused when there are too many tilings to list.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gridsolve.errors import InvalidPuzzle
from gridsolve.tiling import engine
from gridsolve.tiling.engine import SearchLimits
from gridsolve.tiling.model import Board, Cell, Piece, Shape, Tiling, normalise

__all__ = ["Symmetry", "board_symmetries", "canonical", "count_up_to_symmetry",
           "MAX_LISTED"]


@dataclass(frozen=True)
class Symmetry:
    """A map of board cells onto board cells (called on a cell) and of pieces onto pieces:
    piece ``i`` goes to ``pieces[i]`` (none given: each piece stays)."""

    move: Callable[[Cell], Cell]
    pieces: tuple[int, ...] = ()

    def __call__(self, cell: Cell) -> Cell:
        return self.move(cell)

    def piece(self, index: int) -> int:
        """The piece that piece ``index`` moves onto."""
        return self.pieces[index] if self.pieces else index


#: The most tilings listed to compare them up to symmetry.
MAX_LISTED = 2_000_000

_TURNS: tuple[Callable[[int, int], tuple[int, int]], ...] = (
    lambda r, c: (r, c), lambda r, c: (c, -r), lambda r, c: (-r, -c), lambda r, c: (-c, r),
    lambda r, c: (r, -c), lambda r, c: (-c, -r), lambda r, c: (-r, c), lambda r, c: (c, r),
)


def _shift(turn: Callable[[int, int], tuple[int, int]],
           cells: Sequence[Cell]) -> Callable[[Cell], Cell]:
    """The turn followed by the translation that brings the turned cells back onto the
    cells' own top row and left column (a board whose first row or column is all blocked
    does not start at row or column 0)."""
    turned = [turn(r, c) for r, c in cells]
    r0 = min(r for r, _ in turned) - min(r for r, _ in cells)
    c0 = min(c for _, c in turned) - min(c for _, c in cells)

    def apply(cell: Cell) -> Cell:
        r, c = turn(*cell)
        return r - r0, c - c0
    return apply


def board_symmetries(board: Board, pieces: Sequence[Piece] = ()) -> list[Symmetry]:
    """The rotations and reflections mapping the open cells (and their labels) onto themselves
    and the pieces onto the pieces (each piece's orientations onto its own or onto those of
    another piece with as many copies); the identity comes first."""
    cells = set(board.open)
    labels = dict(board.labels)
    out = []
    for turn in _TURNS:
        move = _shift(turn, board.open)
        if not ({move(cell) for cell in cells} == cells
                and all(labels.get(move(cell)) == label for cell, label in labels.items())):
            continue
        relabel = _relabel(turn, pieces)
        if relabel is not None:
            out.append(Symmetry(move, () if relabel == tuple(range(len(pieces))) else relabel))
    return out


def _relabel(turn: Callable[[int, int], tuple[int, int]],
             pieces: Sequence[Piece]) -> tuple[int, ...] | None:
    """The piece each piece moves onto under the turn (its own when it may), or None when
    some piece's turned orientations are no piece's with as many copies."""
    free: dict[tuple[frozenset[Shape], int], list[int]] = {}
    for i, piece in enumerate(pieces):
        free.setdefault((frozenset(piece.orientations()), piece.copies), []).append(i)
    image = [(frozenset(normalise(turn(r, c) for r, c in shape) for shape in piece.orientations()),
              piece.copies) for piece in pieces]
    out: list[int] = []
    for i, k in enumerate(image):
        choices = free.get(k)
        if not choices:
            return None
        j = i if i in choices else choices[0]
        choices.remove(j)
        out.append(j)
    return tuple(out)


def canonical(tiling: Tiling, symmetries: Sequence[Symmetry]) -> tuple[tuple[int, tuple[Cell, ...]], ...]:
    """The smallest image of a tiling under the symmetries: equal for tilings of one class."""
    return min(tuple(sorted((sym.piece(pl.piece), tuple(sorted(sym(cell) for cell in pl.cells)))
                            for pl in tiling))
               for sym in symmetries)


def count_up_to_symmetry(board: Board, pieces: Sequence[Piece],
                         limits: SearchLimits = SearchLimits()) -> tuple[int, int, int]:
    """(all tilings, classes up to the board's symmetries that the pieces allow, the number of
    those symmetries); the timeout covers the count and the listing together."""
    started = time.perf_counter()
    total = engine.count(board, pieces, (), limits)
    syms = board_symmetries(board, pieces)
    if total > MAX_LISTED:
        raise InvalidPuzzle(f"{total:,} tilings are too many to compare up to symmetry "
                            f"(at most {MAX_LISTED:,} are listed)")
    classes = {canonical(t, syms) for t in engine.tilings(board, pieces, (), limits.since(started))}
    return total, len(classes), len(syms)
