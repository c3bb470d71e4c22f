"""Local moves: other solutions next to a known one, by switching cycles, each checked
against every clue; a shortcut, not a proof (docs/engine.md, section 4; decision 0011)."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from gridsolve.nonogram.engine.results import passed
from gridsolve.nonogram.model import Grid, Puzzle, clue_of, columns_of, is_solution

__all__ = ["NEARBY_CLOCK_EVERY", "NEARBY_MAX_FAR", "NEARBY_MAX_LINES", "NEARBY_MAX_TRIES",
           "MOVES_MAX_SOLUTIONS", "line_moves", "nearby", "moves_for_count"]

#: Rows on one switching cycle at most (2 is the 2x2 switch; Thing needs 4).
NEARBY_MAX_LINES = 4

#: Cycles tried between two looks at the clock when a deadline is given.
NEARBY_CLOCK_EVERY = 256

#: Steps along cycles (a cell turned on, tried) one look may take, a few tenths of a second
#: (the measurements: docs/engine.md, section 4).
NEARBY_MAX_TRIES = 200_000

#: Moves of one-cell blocks to cells not next to them listed for one look at most (the only
#: moves that can grow with the square of a line): building the moves stays linear in the
#: grid (docs/engine.md, section 4).
NEARBY_MAX_FAR = 1_000_000

#: A search counting solutions looks next to the first this many by local moves, for at
#: most this many more each (``moves_for_count``); past them a count is the compiled
#: search's work (eight rooks: docs/engine.md, section 4).
MOVES_MAX_SOLUTIONS = 64

#: Moves of one line: the cell turned off -> the cells that may be turned on with it.
Moves = dict[int, list[int]]

_BLOCK = re.compile("#+")


def _free(line: str) -> list[int]:
    """The white cells with no filled neighbour, in order: where a one-cell block may land
    without touching another (next to its own old cell is decided block by block)."""
    n = len(line)
    return [c for c, ch in enumerate(line) if ch != "#"
            and (c == 0 or line[c - 1] != "#") and (c == n - 1 or line[c + 1] != "#")]


def _line_moves(line: str, far: int) -> tuple[Moves, int]:
    """``line_moves`` with at most ``far`` moves of one-cell blocks to cells not next to them
    (the only part of the moves that can grow with the square of the line: 50,000 one-cell
    blocks with wide gaps); past it those blocks keep their shifts by one cell. Returns the
    moves and what is left of ``far``. Linear in the line plus the moves listed."""
    blocks = [(m.start(), m.end() - 1) for m in _BLOCK.finditer(line)]  # (first, last cell)
    moves: Moves = {}
    n, nb = len(line), len(blocks)
    free: list[int] | None = None
    k = 0
    while k < nb:
        a, b = blocks[k]
        last = k  # a longer block, or the last of a stretch of one-cell blocks from k
        while a == b and last + 1 < nb and blocks[last + 1][0] == blocks[last + 1][1]:
            last += 1
        low = blocks[k - 1][1] + 2 if k else 0
        high = blocks[last + 1][0] - 2 if last + 1 < nb else n - 1
        if a != b:  # a longer block shifts by one cell, keeping a white cell between blocks
            if b + 1 <= high:  # shift right: first cell off, the cell after the last on
                moves.setdefault(a, []).append(b + 1)
            if a - 1 >= low:   # shift left: last cell off, the cell before the first on
                moves.setdefault(b, []).append(a - 1)
            k += 1
            continue
        # a stretch of one-cell blocks: each may go to any free cell between the blocks on
        # either side of the stretch (the clue keeps its order: they are all 1s)
        if free is None:
            free = _free(line)
        shared = free[bisect_left(free, low):bisect_right(free, high)]
        for j in range(k, last + 1):
            a = blocks[j][0]
            targets = [c for c in (a - 1, a + 1) if low <= c <= high and line[c] != "#"
                       and (c == 0 or c - 1 == a or line[c - 1] != "#")
                       and (c == n - 1 or c + 1 == a or line[c + 1] != "#")]
            if len(shared) <= far:  # (the free cells hold none next to a block: no overlap)
                far -= len(shared)
                targets = sorted(shared + targets)
            if targets:
                moves[a] = targets
        k = last + 1
    return moves, far


def line_moves(line: str) -> Moves:
    """One cell off and one on that keep the line's clue, every such pair: each block
    shifted by one cell (keeping a white cell between blocks), a one-cell block to any cell
    of its gap or past neighbouring one-cell blocks (a clue's 1s are alike)."""
    return _line_moves(line, len(line) ** 2)[0]


def _line_check(puzzle: Puzzle, rows: Sequence[str], cols: Sequence[str],
                cells: list[tuple[int, int]]) -> Grid | None:
    """The grid with ``cells`` switched if every row and column they touch keeps its clue
    (the others are unchanged), else None: a cycle costs the lines it changes, not the
    whole grid; the grid returned is still checked whole by the caller."""
    by_row: dict[int, list[int]] = {}
    by_col: dict[int, list[int]] = {}
    for r, c in cells:
        by_row.setdefault(r, []).append(c)
        by_col.setdefault(c, []).append(r)
    new_rows: dict[int, str] = {}
    for r, cs in by_row.items():
        new = _switched(rows[r], cs)
        if clue_of(new) != puzzle.rows[r]:
            return None
        new_rows[r] = new
    for c, rs in by_col.items():
        if clue_of(_switched(cols[c], rs)) != puzzle.cols[c]:
            return None
    return tuple(new_rows.get(r, row) for r, row in enumerate(rows))


def _switched(line: str, cells: list[int]) -> str:
    """``line`` with these cells switched between filled and empty."""
    chars = list(line)
    for i in cells:
        chars[i] = "." if chars[i] == "#" else "#"
    return "".join(chars)


def nearby(puzzle: Puzzle, grid: Sequence[str], max_lines: int = NEARBY_MAX_LINES,
           seen: frozenset[Grid] | set[Grid] | dict[Grid, None] = frozenset(),
           limit: int = 1, deadline: float | None = None,
           max_tries: int = NEARBY_MAX_TRIES, max_far: int = NEARBY_MAX_FAR) -> list[Grid]:
    """Up to ``limit`` solutions other than ``grid`` (and not in ``seen``) reached by one
    switching cycle through at most ``max_lines`` rows, each checked against the clues.
    It stops with what it has found after ``max_tries`` steps along cycles, or with a
    ``deadline`` (a ``time.perf_counter`` time) there: on a puzzle of very many solutions a
    large ``limit`` can keep it busy for minutes. The moves of the lines are built in time
    linear in the grid plus at most ``max_far`` far moves of one-cell blocks, looking at the
    deadline line by line (past it, nothing is found)."""
    rows = tuple(grid)
    cols = columns_of(rows)
    far = max_far
    row_moves: list[Moves] = []
    for row in rows:
        if passed(deadline):
            return []
        moves, far = _line_moves(row, far)
        row_moves.append(moves)
    # in column c, the row turned on -> the rows that may be turned off with it
    col_on: list[dict[int, list[int]]] = []
    for col in cols:
        if passed(deadline):
            return []
        by_on: dict[int, list[int]] = {}
        moves, far = _line_moves(col, far)
        for off, ons in moves.items():
            for on in ons:
                by_on.setdefault(on, []).append(off)
        col_on.append(by_on)
    found: list[Grid] = []
    done: set[frozenset[tuple[int, int]]] = set()
    tries = 0
    late = False

    def stop() -> bool:
        """Enough found, or (looking at the clock now and then) past the deadline."""
        nonlocal tries, late
        if len(found) >= limit or late:
            return True
        tries += 1
        if tries >= max_tries:
            late = True
        elif tries % NEARBY_CLOCK_EVERY == 0:
            late = passed(deadline)
        return late

    def flip(cells: list[tuple[int, int]]) -> None:
        key = frozenset(cells)
        if key in done:
            return
        done.add(key)
        candidate = _line_check(puzzle, rows, cols, cells)
        if (candidate is not None and candidate not in seen and candidate != rows
                and is_solution(puzzle, candidate)):
            found.append(candidate)

    def extend(r1: int, c1: int, r: int, c: int, used_r: set[int], used_c: set[int],
               cells: list[tuple[int, int]]) -> None:
        # row r turns c off; pick the cell it turns on
        for on in row_moves[r].get(c, ()):
            if stop():
                return
            if on == c1:  # closing: column c1 turns r1 off and r on
                if len(used_r) >= 2 and r1 in col_on[c1].get(r, ()):
                    flip(cells + [(r, on)])
                continue
            if on in used_c or len(used_r) >= max_lines:
                continue
            for nxt in col_on[on].get(r, ()):  # column `on` turns r on and nxt off
                if nxt in used_r:
                    continue
                extend(r1, c1, nxt, on, used_r | {nxt}, used_c | {on},
                       cells + [(r, on), (nxt, on)])

    for r1 in range(len(rows)):
        for c1 in row_moves[r1]:
            if stop():
                return found
            extend(r1, c1, r1, c1, {r1}, {c1}, [(r1, c1)])
    return found


def moves_for_count(puzzle: Puzzle, grid: Sequence[str],
                    seen: set[Grid] | dict[Grid, None], wanted: int,
                    deadline: float | None = None) -> list[Grid]:
    """``nearby`` as a search counting to ``wanted`` solutions calls it, ``seen`` holding those
    it knows (``grid`` among them): none once more than MOVES_MAX_SOLUTIONS are known, else
    at most MOVES_MAX_SOLUTIONS new ones and no more than are still wanted."""
    if len(seen) > MOVES_MAX_SOLUTIONS or len(seen) >= wanted:
        return []
    return nearby(puzzle, grid, seen=seen, limit=min(wanted - len(seen), MOVES_MAX_SOLUTIONS),
                  deadline=deadline)
