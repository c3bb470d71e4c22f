"""Polyomino tiling and calendar puzzles (A-Puzzle-A-Day): model, compiled engine, presets.

    >>> from gridsolve.tiling import count_all, solutions, solve, CalendarDay
    >>> counts = count_all()                      # every month/day pair, one search
    >>> counts[CalendarDay(10, 6)]
    7
    >>> len(list(solutions(CalendarDay(1, 25))))
    216
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from gridsolve.tiling.calendar import CalendarDay, Edition, count_all, edition, solutions
from gridsolve.tiling.engine import SearchLimits, count, count_split, first, tilings
from gridsolve.tiling.formats import parse_board, parse_pieces, read_board, read_pieces
from gridsolve.tiling.model import Board, Cell, Piece, Placement, Tiling, is_tiling
from gridsolve.tiling.render import DrawnTiling

__all__ = ["Board", "Piece", "Placement", "Tiling", "DrawnTiling", "Cell", "Edition", "CalendarDay",
           "SearchLimits", "solve", "count", "count_split", "first", "tilings", "count_all",
           "solutions", "edition", "is_tiling", "parse_board", "parse_pieces", "read_board",
           "read_pieces"]


def solve(board: Board, pieces: Sequence[Piece], leave_open: Iterable[Cell] = (),
          limits: SearchLimits = SearchLimits()) -> Iterator[DrawnTiling]:
    """Every tiling of the board by the pieces (leaving ``leave_open`` uncovered), each a
    tuple of placements that Jupyter shows as a picture."""
    return (DrawnTiling(t, board, pieces) for t in tilings(board, pieces, leave_open, limits))
