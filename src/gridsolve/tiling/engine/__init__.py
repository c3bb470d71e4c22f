"""The native tiling engine: a thin Python face over the compiled exact-cover core (``_exact``).

``tilings`` is a generator of tilings (resumable depth-first search, Knuth's Algorithm X with
cell-ordered branching); ``first`` and ``count`` sit on top. ``count`` memoises on the exact
search state (covered cells + piece copies used), so it never lists tilings. ``count_split``
adds "hole" monominoes confined to given cells and returns the counts split by where the
holes go: every date of a calendar puzzle in one search. Counts past 64 bits are exact too:
the core counts again modulo a few primes (``residues``). Every tiling is checked by the
model's independent ``is_tiling`` before it leaves this module.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from gridsolve.errors import GridsolveError, InvalidPuzzle, LimitReached
from gridsolve.tiling.engine import _exact, residues
from gridsolve.tiling.model import (MAX_PIECE_COPIES, Board, Cell, Piece, Placement, Tiling,
                                    check_area, is_tiling, placements)

__all__ = ["SearchLimits", "Compiled", "compile_problem", "tilings", "first", "count",
           "count_split", "count_bound", "MAX_HOLES"]

MAX_HOLES: int = _exact.MAX_HOLES


@dataclass(frozen=True)
class SearchLimits:
    """When to give up: nodes (enumeration), seconds, memo states and memo bytes (counting)."""

    max_nodes: int | None = None
    timeout: float | None = None
    max_states: int | None = None
    memory: int = 768 * 2**20

    def since(self, started: float) -> SearchLimits:
        """These limits with the time spent since ``started`` (a ``time.perf_counter()``
        reading) taken off the timeout (never below 0): for a search that goes on from an
        earlier one under the same deadline."""
        if self.timeout is None:
            return self
        return dataclasses.replace(self, timeout=_remaining(self.timeout, started))


@dataclass(frozen=True)
class Compiled:
    """A board + pieces (+ holes) turned into the core's problem, with its placement table."""

    board: Board
    pieces: tuple[Piece, ...]
    holes: tuple[tuple[Cell, ...], ...]
    table: tuple[Placement, ...]
    core: _exact.Problem
    words: int
    order: dict[Cell, int]

    def root(self, covered: Iterable[Cell] = ()) -> bytes:
        """The starting state: the given cells already covered (left open)."""
        return _mask(self.order, covered).to_bytes(8 * self.words, "little")


def cell_order(board: Board) -> dict[Cell, int]:
    """The order the search fills cells in: along the longer side, so the frontier (and the
    number of memoised states) stays as short as the board is narrow; and from the end whose
    outermost line has fewer open cells, where fewer partial fillings are alive early
    (calendar boards: from the days' end, about a quarter fewer states)."""
    along = board.width > board.height
    key = (lambda rc: (rc[1], rc[0])) if along else (lambda rc: rc)
    cells = sorted(board.open, key=key)
    line = [key(cell)[0] for cell in cells]
    if line.count(line[-1]) < line.count(line[0]):
        cells.reverse()
    return {cell: i for i, cell in enumerate(cells)}


def _mask(order: dict[Cell, int], cells: Iterable[Cell]) -> int:
    m = 0
    for cell in cells:
        m |= 1 << order[cell]
    return m


@functools.lru_cache(maxsize=16)
def compile_problem(board: Board, pieces: tuple[Piece, ...],
                    holes: tuple[tuple[Cell, ...], ...] = (), *, grid: bool = True) -> Compiled:
    """Build (once, cached) the placement table and the compiled problem. ``grid=False`` keeps
    the core's pocket test off its bitboard (the same pockets flooded cell by cell), so that
    tests can compare the two."""
    if not pieces:
        raise InvalidPuzzle("there are no pieces")
    if sum(p.copies for p in pieces) > MAX_PIECE_COPIES:
        raise InvalidPuzzle(f"at most {MAX_PIECE_COPIES} pieces (counting copies) are supported")
    if len(pieces) + len(holes) > 64:
        raise InvalidPuzzle(f"at most {64 - len(holes)} different pieces are supported "
                            f"(give identical pieces as copies of one)")
    if len(holes) > MAX_HOLES:
        raise InvalidPuzzle(f"at most {MAX_HOLES} cells can be left open by choice")
    names = [p.name for p in pieces]
    if len(set(names)) != len(names):
        raise InvalidPuzzle("two pieces have the same name")
    table: list[Placement] = []
    for i, piece in enumerate(pieces):
        table.extend(placements(board, i, piece))
    for h, cells in enumerate(holes):
        if not cells or any(cell not in board.index for cell in cells):
            raise InvalidPuzzle(f"hole {h} must be confined to open cells of the board")
        for cell in cells:
            table.append(Placement(len(pieces) + h, (cell,), board.mask([cell])))
    nbits = board.size + sum(p.copies for p in pieces) + len(holes)
    if nbits > 512:
        raise InvalidPuzzle(f"the board's {board.size} open cells plus the pieces (counting copies)"
                            f" and holes come to {nbits}; at most 512 are supported")
    combos = 1
    for cells in holes:
        combos *= len(cells)
    if combos * (nbits + 2) * 16 > 2**28:
        raise InvalidPuzzle(f"too many ways to place the cells left open ({combos}); "
                            "count fewer at once")
    words = 1 if nbits <= 64 else 2 if nbits <= 128 else 4 if nbits <= 256 else 8
    rows = []
    hole_pos = {}
    for h, cells in enumerate(holes):
        for j, cell in enumerate(cells):
            hole_pos[(len(pieces) + h, cell)] = j
    order = cell_order(board)
    for pl in table:
        mask = _mask(order, pl.cells)
        first_cell = (mask & -mask).bit_length() - 1
        rows.append((pl.piece, first_cell, mask.to_bytes(8 * words, "little"),
                     hole_pos.get((pl.piece, pl.cells[0]), -1)))
    types = [(p.copies, -1) for p in pieces] + [(1, h) for h in range(len(holes))]
    try:
        core = _exact.Problem(board.size, types, rows, [len(c) for c in holes],
                              _neighbours(order), grid)
    except ValueError as exc:
        raise InvalidPuzzle(f"the puzzle is too large for the engine: {exc}") from None
    return Compiled(board, pieces, tuple(holes), tuple(table), core, words, order)


def _neighbours(order: dict[Cell, int]) -> list[tuple[int, int, int, int]]:
    """Each cell's open neighbours (up, left, right, down) in search order, -1 for none."""
    cells = sorted(order, key=order.__getitem__)
    return [(order.get((r - 1, c), -1), order.get((r, c - 1), -1), order.get((r, c + 1), -1),
             order.get((r + 1, c), -1)) for r, c in cells]


def _raise_for(status: int, states: int) -> None:
    if status == _exact.LIMIT:
        raise LimitReached("time limit reached while counting", nodes=states)
    if status == _exact.BUDGET:
        raise LimitReached(f"memory/state budget reached while counting ({states} states)",
                           nodes=states)
    if status == _exact.NOMEM:
        raise MemoryError("out of memory while counting")


def _remaining(limit: float | None, started: float) -> float:
    return -1.0 if limit is None else max(0.0, limit - (time.perf_counter() - started))


def tilings(board: Board, pieces: Sequence[Piece], leave_open: Iterable[Cell] = (),
            limits: SearchLimits = SearchLimits(), *, guided: bool = True) -> Iterator[Tiling]:
    """Yield every tiling that leaves exactly ``leave_open`` uncovered (LimitReached on a limit).

    ``guided``: count first (memoised) and walk only into states that have completions, so
    listing costs about one count plus the output; otherwise a plain depth-first search that
    remembers the states it proved empty (independent of the counter, for cross-checks).
    The timeout runs from the start of the listing (the first ``next``) and covers that
    count too, as ``max_states`` bounds its memo (``max_nodes`` bounds the walk): the tilings
    yielded before a LimitReached are tilings all the same."""
    started = time.perf_counter()
    leave = tuple(leave_open)
    _check_cells(board, leave)
    check_area(board, pieces, len(leave))
    comp = compile_problem(board, tuple(pieces))
    search = _exact.Enum(comp.core, comp.root(leave), 2 if guided else 1, min(limits.memory, 2**28),
                         _remaining(limits.timeout, started),
                         -1 if limits.max_states is None else limits.max_states)
    while True:
        max_nodes = -1 if limits.max_nodes is None else limits.max_nodes
        code = search.next(max_nodes, _remaining(limits.timeout, started))
        if code == _exact.EXHAUSTED:
            return
        if code == _exact.LIMIT:
            raise LimitReached("search limit reached", nodes=search.nodes())
        tiling = tuple(comp.table[i] for i in search.solution())
        if not is_tiling(board, pieces, tiling, leave):  # pragma: no cover - a bug in the core
            raise GridsolveError("internal error: the engine produced an invalid tiling")
        yield tiling


def first(board: Board, pieces: Sequence[Piece], leave_open: Iterable[Cell] = (),
          limits: SearchLimits = SearchLimits()) -> Tiling | None:
    """One tiling, or None if there is none (plain depth-first: no count first)."""
    return next(tilings(board, pieces, leave_open, limits, guided=False), None)


def count(board: Board, pieces: Sequence[Piece], leave_open: Iterable[Cell] = (),
          limits: SearchLimits = SearchLimits()) -> int:
    """The exact number of tilings, by memoised search (no tiling is listed)."""
    started = time.perf_counter()
    leave = tuple(leave_open)
    _check_cells(board, leave)
    check_area(board, pieces, len(leave))
    comp = compile_problem(board, tuple(pieces))
    counts = _run_count(comp, leave, limits, started)
    return counts[0]


def count_split(board: Board, pieces: Sequence[Piece], holes: Sequence[Sequence[Cell]],
                leave_open: Iterable[Cell] = (), limits: SearchLimits = SearchLimits()
                ) -> dict[tuple[Cell, ...], int]:
    """Tilings counted per choice of hole cells: one cell from each hole's list left open."""
    started = time.perf_counter()
    leave = tuple(leave_open)
    _check_cells(board, leave)
    holes_t = tuple(tuple(h) for h in holes)
    check_area(board, pieces, len(leave) + len(holes_t))
    comp = compile_problem(board, tuple(pieces), holes_t)
    counts = _run_count(comp, leave, limits, started)
    return dict(zip(itertools.product(*holes_t), counts))


def _run_count(comp: Compiled, leave: tuple[Cell, ...], limits: SearchLimits,
               started: float, modulus: int = 0) -> list[int]:
    """The counts (modulo ``modulus`` if not 0); past 64 bits, exact from their residues."""
    max_states = -1 if limits.max_states is None else limits.max_states
    timeout = _remaining(limits.timeout, started)
    status, counts, states = comp.core.count(comp.root(leave), max_states, timeout, limits.memory,
                                             modulus)
    if status == _exact.OVERFLOW:
        if modulus:  # pragma: no cover - residues stay below the modulus, below 2**62
            raise GridsolveError("internal error: a count modulo a prime overflowed")
        primes = residues.moduli(count_bound(comp))
        each = [_run_count(comp, leave, limits, started, p) for p in primes]
        return [residues.combine(r, primes) for r in zip(*each)]
    _raise_for(status, states)
    if counts is None:  # pragma: no cover - _raise_for raised
        raise GridsolveError("internal error: no counts")
    return counts


def count_bound(comp: Compiled) -> int:
    """A number no count of the problem exceeds. Each tiling is one path of the search, with
    a step for each piece (copies counted) and hole; each step covers the first open cell by
    one of the placements starting there, and covers it for good, so a path's steps are at
    different cells: at most the product of the largest ``steps`` numbers of placements
    starting at one cell."""
    starts: dict[int, int] = {}
    for pl in comp.table:
        first_cell = min(comp.order[cell] for cell in pl.cells)
        starts[first_cell] = starts.get(first_cell, 0) + 1
    steps = sum(p.copies for p in comp.pieces) + len(comp.holes)
    return math.prod(sorted(starts.values(), reverse=True)[:steps])


def _check_cells(board: Board, cells: tuple[Cell, ...]) -> None:
    for cell in cells:
        if cell not in board.index:
            raise InvalidPuzzle(f"cell {cell} to leave open is not an open cell of the board")
    if len(set(cells)) != len(cells):
        raise InvalidPuzzle("a cell to leave open is listed twice")
