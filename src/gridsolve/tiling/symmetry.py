"""Tilings up to the board's symmetries: the rotations and reflections that map the board onto
itself and that every piece allows (a reflection only if each piece may be turned over or is
its own mirror image up to a turn; a quarter turn only if each may be turned; so a one-sided
set holding both an S and a Z loses the reflections that would swap them), and one canonical
form per class of tilings.

Counting up to symmetry lists every tiling and keeps one per orbit (the smallest of its images
under the symmetries), so it is exact whether or not some tilings are symmetric themselves;
it is refused when there are too many tilings to list.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from gridsolve.errors import InvalidPuzzle
from gridsolve.tiling import engine
from gridsolve.tiling.engine import SearchLimits
from gridsolve.tiling.model import Board, Cell, Piece, Tiling, normalise

__all__ = ["Symmetry", "board_symmetries", "canonical", "count_up_to_symmetry",
           "MAX_LISTED"]

#: A map of board cells onto board cells.
Symmetry = Callable[[Cell], Cell]

#: The most tilings listed to compare them up to symmetry.
MAX_LISTED = 2_000_000

_TURNS: tuple[Callable[[int, int], tuple[int, int]], ...] = (
    lambda r, c: (r, c), lambda r, c: (c, -r), lambda r, c: (-r, -c), lambda r, c: (-c, r),
    lambda r, c: (r, -c), lambda r, c: (-c, -r), lambda r, c: (-r, c), lambda r, c: (c, r),
)


def _shift(turn: Callable[[int, int], tuple[int, int]], cells: Sequence[Cell]) -> Symmetry:
    """The turn followed by the translation that brings the turned cells back to row/col 0."""
    turned = [turn(r, c) for r, c in cells]
    r0 = min(r for r, _ in turned)
    c0 = min(c for _, c in turned)

    def apply(cell: Cell) -> Cell:
        r, c = turn(*cell)
        return r - r0, c - c0
    return apply


def board_symmetries(board: Board, pieces: Sequence[Piece] = ()) -> list[Symmetry]:
    """The rotations and reflections mapping the open cells (and their labels) onto themselves,
    and each piece's orientations onto its orientations (a reflection maps a tiling to one
    only if every piece may be turned over, a quarter turn only if every piece may be turned);
    the identity comes first."""
    cells = set(board.open)
    labels = dict(board.labels)
    out = []
    for turn in _TURNS:
        sym = _shift(turn, board.open)
        if ({sym(cell) for cell in cells} == cells
                and all(labels.get(sym(cell)) == label for cell, label in labels.items())
                and all(_keeps(turn, piece) for piece in pieces)):
            out.append(sym)
    return out


def _keeps(turn: Callable[[int, int], tuple[int, int]], piece: Piece) -> bool:
    """Does the turn map the piece's orientations onto themselves?"""
    shapes = piece.orientations()
    return {normalise(turn(r, c) for r, c in shape) for shape in shapes} == set(shapes)


def canonical(tiling: Tiling, symmetries: Sequence[Symmetry]) -> tuple[tuple[int, tuple[Cell, ...]], ...]:
    """The smallest image of a tiling under the symmetries: equal for tilings of one class."""
    return min(tuple(sorted((pl.piece, tuple(sorted(sym(cell) for cell in pl.cells)))
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
