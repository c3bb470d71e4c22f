"""A plain-Python tiling counter: the readable oracle the compiled engine is checked against.

Knuth's Algorithm X (exact cover, "Dancing Links", arXiv cs/0011047) over dictionaries of
sets: the items are the cells to cover and the piece copies; the options are every placement
of every piece. Each step covers the item with the fewest options left, and the count of
every set of items still to cover is remembered under that exact set. It shares nothing with
the engine but the Board and Piece definitions: orientations and placements are made here
again, the branching order differs and the memo keys are Python frozensets, so the two can
only agree by both being right.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from gridsolve.tiling.model import Board, Cell, Piece

__all__ = ["shapes", "options", "count_tilings"]

Item = object
Option = tuple[Item, ...]


def shapes(cells: Iterable[Cell], rotate: bool = True, flip: bool = True) -> set[frozenset[Cell]]:
    """Every rotation (with ``rotate``) and reflection (with ``flip``) of a shape, the shape
    itself among them, each moved to touch row 0 and column 0."""
    out = set()
    cur = list(cells)
    for _ in range(2 if flip else 1):
        for _ in range(4 if rotate else 1):
            cur = [(c, -r) for r, c in cur] if rotate else cur
            r0 = min(r for r, _ in cur)
            c0 = min(c for _, c in cur)
            out.add(frozenset((r - r0, c - c0) for r, c in cur))
        cur = [(r, -c) for r, c in cur]
    return out


def options(board: Board, pieces: Sequence[Piece], free: set[Cell]) -> list[Option]:
    """One option per placement of a piece copy on free cells: its cells plus its copy."""
    out: list[Option] = []
    for i, piece in enumerate(pieces):
        for shape in shapes(piece.cells, piece.rotate, piece.flip):
            for dr in range(board.height):
                for dc in range(board.width):
                    cells = tuple(sorted((r + dr, c + dc) for r, c in shape))
                    if all(cell in free for cell in cells):
                        for copy in range(piece.copies):
                            out.append((*cells, ("piece", i, copy)))
    return out


def count_tilings(board: Board, pieces: Sequence[Piece], leave_open: Iterable[Cell] = ()) -> int:
    """How many tilings leave exactly ``leave_open`` uncovered (identical copies not told apart)."""
    free = set(board.open) - set(leave_open)
    items: dict[Item, set[int]] = {cell: set() for cell in free}
    for i, piece in enumerate(pieces):
        for copy in range(piece.copies):
            items[("piece", i, copy)] = set()
    opts = options(board, pieces, free)
    for k, opt in enumerate(opts):
        for item in opt:
            items[item].add(k)
    labelled = _search(items, opts, {})
    return labelled // math.prod(math.factorial(p.copies) for p in pieces)


def _search(items: dict[Item, set[int]], opts: list[Option],
            memo: dict[frozenset[Item], int]) -> int:
    """Algorithm X: exact covers of the items still in ``items`` by the options listed there."""
    if not items:
        return 1
    key = frozenset(items)
    if key in memo:
        return memo[key]
    item = min(items, key=lambda it: len(items[it]))
    total = 0
    for k in list(items[item]):
        removed = _choose(items, opts, k)
        total += _search(items, opts, memo)
        _unchoose(items, opts, k, removed)
    memo[key] = total
    return total


def _choose(items: dict[Item, set[int]], opts: list[Option], k: int) -> list[set[int]]:
    """Cover the items of option k; every option meeting them leaves the other items' lists."""
    removed = []
    for item in opts[k]:
        for other in items[item]:
            for it in opts[other]:
                if it != item:
                    items[it].discard(other)
        removed.append(items.pop(item))
    return removed


def _unchoose(items: dict[Item, set[int]], opts: list[Option], k: int,
              removed: list[set[int]]) -> None:
    """Undo _choose, in reverse order."""
    for item, rows in zip(reversed(opts[k]), reversed(removed)):
        items[item] = rows
        for other in rows:
            for it in opts[other]:
                if it != item:
                    items[it].add(other)
