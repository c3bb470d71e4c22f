"""The nonogram engine in plain Python: the readable oracle for tests and for explanations.

The line solver, two independent ways: ``arrangements`` enumerates every placement of a clue
(brute force, for short lines), and ``solve_line`` is the left/right settling by dynamic
programming, the same algorithm as the compiled core but written for reading, not speed.
``leftmost``/``rightmost`` give the extreme placements behind the classic "overlap" reasoning.

The whole grid, as the compiled engine does it (core.h; Wu, Sun et al., "An efficient
approach to solving nonograms", IEEE TCIAIG 2013): ``propagate`` solves lines until none
changes; ``probe`` assumes each value of each unknown cell and keeps what follows either
way; ``search`` narrows by both and branches on an unknown cell, depth first. Only the order
differs from the compiled engine (it picks cells and values by weighed rules); the fixpoints
of ``propagate`` and ``probe`` do not depend on the order, and neither does the set of
solutions, so the two must agree on them (tests/nonogram/engine/test_against_reference.py).
"""

from __future__ import annotations

from collections.abc import Iterator

from gridsolve.nonogram.model import EMPTY, FILLED, UNKNOWN, Clue, Grid, Puzzle

__all__ = ["arrangements", "brute_force_line", "solve_line", "leftmost", "rightmost",
           "propagate", "probe", "search", "unknown"]


def arrangements(clue: Clue, n: int) -> Iterator[str]:
    """Every line of length n whose blocks are exactly the clue."""
    if not clue:
        yield EMPTY * n
        return
    first, rest = clue[0], clue[1:]
    tail_need = sum(rest) + len(rest)
    for start in range(n - tail_need - first + 1):
        head = EMPTY * start + FILLED * first
        if rest:
            for tail in arrangements(rest, n - len(head) - 1):
                yield head + EMPTY + tail
        else:
            yield head + EMPTY * (n - len(head))


def fits(line: str, known: str) -> bool:
    """Does a complete line agree with the known cells of a partial line?"""
    return all(k == UNKNOWN or k == c for c, k in zip(line, known))


def brute_force_line(clue: Clue, line: str) -> str | None:
    """Narrow a partial line by trying every arrangement (exponential; for testing)."""
    can_fill = [False] * len(line)
    can_empty = [False] * len(line)
    any_fit = False
    for arr in arrangements(clue, len(line)):
        if fits(arr, line):
            any_fit = True
            for i, c in enumerate(arr):
                if c == FILLED:
                    can_fill[i] = True
                else:
                    can_empty[i] = True
    if not any_fit:
        return None
    return "".join(UNKNOWN if f and e else FILLED if f else EMPTY
                   for f, e in zip(can_fill, can_empty))


def solve_line(clue: Clue, line: str) -> str | None:
    """Narrow a partial line to the cells every arrangement agrees on; None if impossible.

    fwd[j][i]: blocks 0..j-1 fit in cells [0, i); bwd[j][i]: blocks j.. fit in cells [i, n).
    """
    n, k = len(line), len(clue)
    may_empty = [c != FILLED for c in line]
    may_fill = [c != EMPTY for c in line]

    def block_fits(s: int, e: int) -> bool:
        return 0 <= s and e <= n and all(may_fill[s:e])

    fwd = [[False] * (n + 1) for _ in range(k + 1)]
    for i in range(n + 1):
        fwd[0][i] = all(may_empty[:i])
    for j in range(1, k + 1):
        size = clue[j - 1]
        for i in range(1, n + 1):
            s = i - size
            before = (fwd[0][s] if j == 1 else s >= 1 and may_empty[s - 1] and fwd[j - 1][s - 1]) \
                if s >= 0 else False
            fwd[j][i] = (fwd[j][i - 1] and may_empty[i - 1]) or (block_fits(s, i) and before)
    if not fwd[k][n]:
        return None
    bwd = [[False] * (n + 1) for _ in range(k + 1)]
    for i in range(n + 1):
        bwd[k][i] = all(may_empty[i:])
    for j in range(k - 1, -1, -1):
        size = clue[j]
        for i in range(n - 1, -1, -1):
            e = i + size
            after = (bwd[k][e] if j == k - 1 else e < n and may_empty[e] and bwd[j + 1][e + 1]) \
                if e <= n else False
            bwd[j][i] = (bwd[j][i + 1] and may_empty[i]) or (block_fits(i, e) and after)
    can_empty = [may_empty[i] and any(fwd[j][i] and bwd[j][i + 1] for j in range(k + 1))
                 for i in range(n)]
    can_fill = [False] * n
    for j, size in enumerate(clue):
        for s in range(n - size + 1):
            e = s + size
            left = fwd[0][s] if j == 0 else s >= 1 and may_empty[s - 1] and fwd[j][s - 1]
            right = bwd[k][e] if j == k - 1 else e < n and may_empty[e] and bwd[j + 1][e + 1]
            if left and right and block_fits(s, e):
                for i in range(s, e):
                    can_fill[i] = True
    out = []
    for f, e in zip(can_fill, can_empty):
        if not (f or e):
            return None
        out.append(UNKNOWN if f and e else FILLED if f else EMPTY)
    return "".join(out)


def leftmost(clue: Clue, line: str) -> list[int] | None:
    """Start of each block in the leftmost arrangement that fits the known cells."""
    for arr in arrangements(clue, len(line)):
        if fits(arr, line):
            return _starts(arr)
    return None


def rightmost(clue: Clue, line: str) -> list[int] | None:
    """Start of each block in the rightmost arrangement that fits the known cells."""
    rev = leftmost(tuple(reversed(clue)), line[::-1])
    if rev is None:
        return None
    n = len(line)
    return [n - s - size for s, size in zip(reversed(rev), clue)]


def _starts(line: str) -> list[int]:
    return [i for i, c in enumerate(line) if c == FILLED and (i == 0 or line[i - 1] != FILLED)]


# --- The whole grid: propagation, probing, search ---------------------------------------
#
# A grid here is partial: rows of '#', '.' and '?'. Each step returns a new grid, or None
# when the grid it was given has no solution (a contradiction).


def unknown(puzzle: Puzzle) -> Grid:
    """The grid where every cell is still unknown."""
    return (UNKNOWN * puzzle.width,) * puzzle.height


def _with(grid: Grid, cells: dict[tuple[int, int], str]) -> Grid:
    """The grid with some cells set: {(row, column): value}."""
    rows = [list(r) for r in grid]
    for (r, c), value in cells.items():
        rows[r][c] = value
    return tuple("".join(r) for r in rows)


def propagate(puzzle: Puzzle, grid: Grid) -> Grid | None:
    """Solve lines until none changes. A line is queued again when a crossing line changes
    one of its cells. The line solver is exact, so the result (the largest grid below the
    input that every line accepts as it is) does not depend on the order of the queue."""
    rows = [list(r) for r in grid]
    queue = [("row", i) for i in range(puzzle.height)] + [("col", j) for j in range(puzzle.width)]
    queued = set(queue)
    while queue:
        kind, i = queue.pop(0)
        queued.discard((kind, i))
        if kind == "row":
            cells, clue = [(i, c) for c in range(puzzle.width)], puzzle.rows[i]
        else:
            cells, clue = [(r, i) for r in range(puzzle.height)], puzzle.cols[i]
        line = "".join(rows[r][c] for r, c in cells)
        solved = solve_line(clue, line)
        if solved is None:
            return None
        for (r, c), old, new in zip(cells, line, solved):
            if old != new:
                rows[r][c] = new
                crossing = ("col", c) if kind == "row" else ("row", r)
                if crossing not in queued:
                    queue.append(crossing)
                    queued.add(crossing)
    return tuple("".join(r) for r in rows)


def probe(puzzle: Puzzle, grid: Grid) -> Grid | None:
    """Propagate, then probe every unknown cell both ways until nothing more is learned:
    a value whose propagation meets a contradiction is ruled out, and a cell that both
    values fix the same way is fixed. Whatever is learned holds in every solution, and in
    every larger grid too, so the result does not depend on the order of the probes."""
    current = propagate(puzzle, grid)
    learned = True
    while current is not None and learned:
        learned = False
        for r in range(puzzle.height):
            for c in range(puzzle.width):
                if current is None or current[r][c] != UNKNOWN:
                    continue
                filled = propagate(puzzle, _with(current, {(r, c): FILLED}))
                empty = propagate(puzzle, _with(current, {(r, c): EMPTY}))
                if filled is None or empty is None:
                    current = filled if empty is None else empty  # None when both fail
                    learned = True
                    continue
                both = {(i, j): a for i, (fr, er) in enumerate(zip(filled, empty))
                        for j, (a, b) in enumerate(zip(fr, er))
                        if a == b != UNKNOWN and current[i][j] == UNKNOWN}
                if both:
                    current = propagate(puzzle, _with(current, both))
                    learned = True
    return current


def search(puzzle: Puzzle, probing: bool = True) -> Iterator[Grid]:
    """Every solution, depth first: narrow the grid (propagate, and probe if asked), and
    when cells are still unknown, try the first of them filled and then empty."""
    narrow = probe if probing else propagate

    def below(grid: Grid) -> Iterator[Grid]:
        narrowed = narrow(puzzle, grid)
        if narrowed is None:
            return
        cell = next(((r, c) for r, row in enumerate(narrowed) for c, ch in enumerate(row)
                     if ch == UNKNOWN), None)
        if cell is None:  # every line is complete and accepted by its clue: a solution
            yield narrowed
            return
        for value in (FILLED, EMPTY):
            yield from below(_with(narrowed, {cell: value}))

    yield from below(unknown(puzzle))
