"""Boards and piece sets shipped with gridsolve (text files in ``tiling/data``).

Each edition is a board file ``NAME.board`` and a piece file ``NAME.pieces``. Boards and piece
shapes are facts about the products; the files and drawings are ours. Where each layout comes
from is in ``SOURCES`` and in docs/calendar-presets.md.
"""

from __future__ import annotations

import functools
from importlib import resources

from gridsolve.errors import InvalidPuzzle
from gridsolve.tiling.formats import parse_board, parse_pieces
from gridsolve.tiling.model import Board, Piece

__all__ = ["EDITIONS", "SOURCES", "board", "pieces", "board_source", "pieces_source", "shipped",
           "named_board", "named_pieces"]

#: Edition name -> one-line description.
EDITIONS = {
    "original": "A-Puzzle-A-Day (DragonFjord): leave the month and the day open",
    "weekday": "weekday edition, Monday first: leave the month, the day and the weekday open",
    "jarringwords": "JarringWords: the original board, the T pentomino in place of the Z",
    "creamakerspace": "CreaMakerspace: the original board, H hexomino and U V W L N Y P",
    "tetromino": "tetromino edition: 9 pieces (5 tetrominoes), 29-31 under the last columns",
    "weekday-sun": "weekday edition, Sunday first (Daily Calendar Puzzle, Caesar's Calendar)",
}

#: Edition name -> where its board and pieces were taken from (public descriptions).
SOURCES = {
    "original": "DragonFjord's A-Puzzle-A-Day product page and many published solvers",
    "weekday": "the weekday layout gridsolve shipped first (Mon..Thu beside 29-31, Fri..Sun "
               "below); its pieces are those of the Sunday-first edition",
    "jarringwords": "JarringWords' Etsy listing as described by the today-is solver "
                    "(anowell/today-is, variants.rs)",
    "creamakerspace": "anowell.com/posts/calendar-puzzle and anowell/today-is (variants.rs)",
    "tetromino": "the puzzleparadise.net 'quad pieces' calendar, as described by "
                 "anowell/today-is (variants.rs)",
    "weekday-sun": "royvanrijn.com (2022, 'Solving the daily calendar puzzle': a solution grid "
                   "showing all ten pieces), the dodona.be 'Daily Calendar Puzzle' exercise "
                   "(blocked cells 6, 13, 49-52 of an 8x7 grid) and keiichiw/a-puzzle-a-day-"
                   "solver issue 3 (cited by anowell/today-is)",
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


def shipped(kind: str) -> list[str]:
    """Names of the shipped files of a kind: 'board' or 'pieces' (editions and classics such
    as the 6x10 box and the twelve pentominoes)."""
    folder = resources.files("gridsolve.tiling").joinpath("data")
    suffix = f".{kind}"
    return sorted(f.name[:-len(suffix)] for f in folder.iterdir() if f.name.endswith(suffix))


@functools.cache
def named_board(name: str) -> Board:
    """A shipped board by name (an edition's or a classic one)."""
    if name not in shipped("board"):
        raise InvalidPuzzle(f"no shipped board {name!r}; choose one of: {', '.join(shipped('board'))}")
    return parse_board(_text(f"{name}.board"), f"{name}.board", name)


@functools.cache
def named_pieces(name: str) -> tuple[Piece, ...]:
    """A shipped piece set by name (an edition's, 'pentominoes' or 'tetrominoes')."""
    if name not in shipped("pieces"):
        raise InvalidPuzzle(f"no shipped piece set {name!r}; choose one of: "
                            f"{', '.join(shipped('pieces'))}")
    return parse_pieces(_text(f"{name}.pieces"), f"{name}.pieces")
