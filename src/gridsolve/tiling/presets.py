"""Boards and piece sets shipped with gridsolve (text files in ``tiling/data``).

    original   DragonFjord's A-Puzzle-A-Day: 7x7 board, a 2x3 rectangle and 7 pentominoes
    weekday    the weekday edition: 7 wide, 8 tall, 3 tetrominoes and 7 pentominoes
"""

from __future__ import annotations

import functools
from importlib import resources

from gridsolve.errors import InvalidPuzzle
from gridsolve.tiling.formats import parse_board, parse_pieces
from gridsolve.tiling.model import Board, Piece

__all__ = ["EDITIONS", "board", "pieces", "board_source", "pieces_source"]

#: Edition name -> one-line description.
EDITIONS = {
    "original": "A-Puzzle-A-Day (DragonFjord): leave the month and the day open",
    "weekday": "weekday edition: leave the month, the day and the weekday open",
}


def _text(name: str) -> str:
    return resources.files("gridsolve.tiling").joinpath("data", name).read_text(encoding="utf-8")


def _check(name: str) -> None:
    if name not in EDITIONS:
        raise InvalidPuzzle(f"unknown edition {name!r}; choose one of: {', '.join(EDITIONS)}")


def board_source(name: str) -> str:
    """The board text of an edition."""
    _check(name)
    return _text(f"{name}.board")


def pieces_source(name: str) -> str:
    """The piece text of an edition."""
    _check(name)
    return _text(f"{name}.pieces")


@functools.cache
def board(name: str) -> Board:
    """The board of an edition."""
    return parse_board(board_source(name), f"{name}.board", name)


@functools.cache
def pieces(name: str) -> tuple[Piece, ...]:
    """The pieces of an edition."""
    return parse_pieces(pieces_source(name), f"{name}.pieces")
