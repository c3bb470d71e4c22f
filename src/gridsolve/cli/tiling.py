"""``gridsolve tiling ...``: count and solve any polyomino tiling given as board + piece files."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gridsolve.cli._args import listing_stopped, output_file, seconds, time_left, write_file
from gridsolve.errors import InvalidPuzzle, LimitReached
from gridsolve.tiling import engine, presets
from gridsolve.tiling.engine import SearchLimits
from gridsolve.tiling.formats import read_board, read_pieces
from gridsolve.tiling.model import Board, Piece, Tiling, check_area
from gridsolve.tiling.render import letters, tiling_rich, tiling_text, write_picture
from gridsolve.tiling.symmetry import board_symmetries, count_up_to_symmetry


def add_parser(sub: Any, argv: Sequence[str] | None = None) -> None:
    fam = sub.add_parser("tiling", help="polyomino tilings: count and solve (board + pieces)")
    cmds = fam.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = cmds.add_parser("count", help="count the tilings of a board by a set of pieces")
    _puzzle_args(p)
    p.add_argument("--up-to-symmetry", action="store_true",
                   help="count tilings that are rotations or reflections of each other once")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_count)

    p = cmds.add_parser("solve", help="show a tiling (or all of them)")
    _puzzle_args(p)
    p.add_argument("--all", action="store_true", help="list every tiling")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--png", metavar="FILE", type=output_file, help="also draw the (first) tiling as PNG")
    p.add_argument("--svg", metavar="FILE", type=output_file, help="also draw the (first) tiling as SVG")
    p.set_defaults(run=run_solve)


def _puzzle_args(p: argparse.ArgumentParser) -> None:
    boards = ", ".join(presets.shipped("board"))
    sets = ", ".join(presets.shipped("pieces"))
    p.add_argument("board", metavar="BOARD", help=f"a board file, or a shipped board: {boards}")
    p.add_argument("pieces", metavar="PIECES",
                   help=f"a piece file, or a shipped piece set: {sets}")
    p.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                   help="give up after this many seconds")


def _missing(arg: str, kind: str, what: str) -> InvalidPuzzle:
    """Neither a file nor a shipped name: say so, and which names are shipped."""
    return InvalidPuzzle(f"{arg}: neither a file nor a shipped {what} (shipped {what}s: "
                         f"{', '.join(presets.shipped(kind))}; also listed by "
                         "'gridsolve tiling count --help')")


def _board(arg: str) -> Board:
    """A board file, else a shipped board of that name."""
    if Path(arg).exists():
        return read_board(arg)
    if arg not in presets.shipped("board"):
        raise _missing(arg, "board", "board")
    return presets.named_board(arg)


def _pieces(arg: str) -> tuple[Piece, ...]:
    """A piece file, else a shipped piece set of that name."""
    if Path(arg).exists():
        return read_pieces(arg)
    if arg not in presets.shipped("pieces"):
        raise _missing(arg, "pieces", "piece set")
    return presets.named_pieces(arg)


def _puzzle(args: argparse.Namespace) -> tuple[Board, tuple[Piece, ...]]:
    """The board and the pieces, refused (naming both) when their areas differ."""
    board, pieces = _board(args.board), _pieces(args.pieces)
    try:
        check_area(board, pieces)
    except InvalidPuzzle as exc:
        raise InvalidPuzzle(f"{args.board} with {args.pieces}: {exc}") from None
    return board, pieces


def _tilings(n: int) -> str:
    """The count in words: 1 tiling, 2 tilings."""
    return f"{n} tiling{'' if n == 1 else 's'}"


def run_count(args: argparse.Namespace) -> int:
    board, pieces = _puzzle(args)
    limits = SearchLimits(timeout=time_left(args.timeout))
    if args.up_to_symmetry:
        total, classes, nsym = count_up_to_symmetry(board, pieces, limits)
        if args.json:
            print(json.dumps({"count": total, "up_to_symmetry": classes, "symmetries": nsym}))
        else:
            allowed = ("" if nsym == len(board_symmetries(board))
                       else " that the pieces allow")  # (one-sided or fixed pieces)
            print(f"{_tilings(classes)} up to symmetry ({total} in all; the board has {nsym} "
                  f"symmetr{'y' if nsym == 1 else 'ies'}{allowed})")
        return 0
    total = engine.count(board, pieces, (), limits)
    print(json.dumps({"count": total}) if args.json else _tilings(total))
    return 0


def run_solve(args: argparse.Namespace) -> int:
    board, pieces = _puzzle(args)
    limits = SearchLimits(timeout=time_left(args.timeout))
    if args.all:
        return _list_all(args, board, pieces, limits)
    found = engine.first(board, pieces, (), limits)
    if found is not None:
        _pictures(args, board, pieces, found)
    if args.json:
        print(json.dumps({"count": None,
                          "tilings": [] if found is None else [_rows(board, pieces, found)]}))
        return 0 if found else 1
    if found is None:
        print("no tiling")
        return 1
    _print(board, pieces, found)
    return 0


def _list_all(args: argparse.Namespace, board: Board, pieces: tuple[Piece, ...],
              limits: SearchLimits) -> int:
    """``solve --all``: each tiling printed as it is found, the count after them. At a limit
    the tilings listed so far stay printed (in JSON: with "complete": false) and the error
    says how many there were (exit 1)."""
    rows: list[list[str]] = []
    n = 0
    stopped: LimitReached | None = None
    try:
        for tiling in engine.tilings(board, pieces, (), limits, guided=True):
            n += 1
            if n == 1:
                _pictures(args, board, pieces, tiling)
            if args.json:
                rows.append(_rows(board, pieces, tiling))
                continue
            print(("" if n == 1 else "\n") + f"tiling {n}:")
            _print(board, pieces, tiling)
            sys.stdout.flush()
    except LimitReached as exc:
        stopped = exc
    if args.json:
        print(json.dumps({"count": None if stopped else n, "complete": stopped is None,
                          "tilings": rows}))
    elif stopped is None:
        print("\n" + _tilings(n) if n else "no tiling")
    if stopped is not None:
        raise listing_stopped(stopped, n, "tiling") from None
    return 0 if n else 1


def _pictures(args: argparse.Namespace, board: Board, pieces: tuple[Piece, ...],
              tiling: Tiling) -> None:
    """The --png and --svg pictures of a tiling."""
    for path in (args.png, args.svg):
        if path:
            write_file(path, lambda p: write_picture(p, board, pieces, tiling))


def _rows(board: Board, pieces: tuple[Piece, ...], tiling: Tiling) -> list[str]:
    """The tiling as rows of piece letters ('#' blocked, '.' uncovered)."""
    names = letters(pieces)
    grid = {cell: "." for cell in board.open}
    for pl in tiling:
        for cell in pl.cells:
            grid[cell] = names[pl.piece]
    return ["".join(grid.get((r, c), "#") for c in range(board.width))
            for r in range(board.height)]


def _print(board: Board, pieces: tuple[Piece, ...], tiling: Tiling) -> None:
    if sys.stdout.isatty():
        from rich.console import Console

        Console(highlight=False).print(tiling_rich(board, pieces, tiling), end="")
    else:
        sys.stdout.write(tiling_text(board, pieces, tiling))
