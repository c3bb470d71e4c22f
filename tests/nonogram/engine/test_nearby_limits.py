"""Local moves (engine.nearby) within their limits: linear work on lines of many one-cell
blocks, the deadline looked at while the moves are built, and the same neighbours as every
single switching cycle found by brute force (issue #53.1)."""

from __future__ import annotations

import random
import time

import pytest

from gridsolve.nonogram.engine.nearby import _line_moves, line_moves, nearby
from gridsolve.nonogram.model import Grid, clue_of, puzzle_from_grid
from tests.nonogram.oracle import all_solutions


class CountingLine(str):
    """A line that counts the cells read from it one by one: the work of building moves."""

    reads = 0

    def __getitem__(self, key):  # type: ignore[no-untyped-def]
        CountingLine.reads += 1
        return super().__getitem__(key)


def _swaps(line: str) -> set[tuple[int, int]]:
    """Every one-off-one-on change of a line keeping its clue, by brute force."""
    found = set()
    for off in (i for i, ch in enumerate(line) if ch == "#"):
        for on in (i for i, ch in enumerate(line) if ch == "."):
            cells = list(line)
            cells[off], cells[on] = ".", "#"
            if clue_of("".join(cells)) == clue_of(line):
                found.add((off, on))
    return found


def _pairs(moves: dict[int, list[int]]) -> set[tuple[int, int]]:
    return {(off, on) for off, ons in moves.items() for on in ons}


def test_line_moves_of_sparse_one_cell_blocks_are_every_swap() -> None:
    """Lines mostly of one-cell blocks with gaps (where a block may go far) against brute
    force, in ascending order of target as before."""
    rng = random.Random(53)
    for _ in range(1500):
        n = rng.randint(1, 24)
        line = "".join(rng.choice("#...") if rng.random() < 0.8 else "##" for _ in range(n))
        moves = line_moves(line)
        assert _pairs(moves) == _swaps(line), line
        assert all(ons == sorted(ons) for ons in moves.values()), line


def test_far_moves_beyond_the_budget_keep_only_the_shifts() -> None:
    """With no budget for far moves a one-cell block keeps its shifts by one cell, every
    move still a swap keeping the clue; with budget the moves are all of them."""
    rng = random.Random(7)
    for _ in range(500):
        line = "".join(rng.choice("#..") for _ in range(rng.randint(1, 20)))
        full = _pairs(_line_moves(line, 10**9)[0])
        none, left = _line_moves(line, 0)
        assert left == 0
        assert _pairs(none) <= full == _swaps(line)
        padded = "." + line + "."
        single = {i for i, ch in enumerate(line) if ch == "#" and padded[i] != "#"
                  and padded[i + 2] != "#"}
        assert _pairs(none) == {(off, on) for off, on in full
                                if off not in single or abs(on - off) == 1}


def test_moves_of_a_line_of_many_one_cell_blocks_are_linear_work() -> None:
    """A 3,001-cell line of 1,501 one-cell blocks (a checkerboard row): the moves read a few
    cells per cell (before, every block scanned its whole stretch: 4.5 million reads)."""
    line = CountingLine("#." * 1500 + "#")
    CountingLine.reads = 0
    moves = line_moves(line)
    assert CountingLine.reads < 10 * len(line)
    assert _pairs(moves) == set()  # every block is boxed in by its neighbours


def test_far_moves_are_bounded_by_work() -> None:
    """A 30,000-cell line of 5,000 one-cell blocks with wide gaps has ~5,000 x 15,000 far
    moves; nearby lists at most ``max_far`` of them and ends at once."""
    line = "#....." * 5000
    puzzle = puzzle_from_grid((line,))
    started = time.perf_counter()
    assert nearby(puzzle, (line,), max_far=20_000) == []  # one row: no cycle at all
    moves, left = _line_moves(line, 20_000)
    assert sum(map(len, moves.values())) <= 20_000 + 2 * 5000 and left >= 0
    assert time.perf_counter() - started < 30  # generous: the full list took minutes


def test_a_deadline_already_past_builds_no_moves() -> None:
    """The deadline is looked at before each line's moves are built: past it, no cell is
    read (before, every line's moves were built first: 488 s on a 1x99,999 line)."""
    rows = tuple(CountingLine(("#." * 1500)[r % 2:] + ("#." * 1500)[:r % 2]) for r in range(8))
    puzzle = puzzle_from_grid(tuple(str(r) for r in rows))
    CountingLine.reads = 0
    assert nearby(puzzle, rows, deadline=time.perf_counter() - 1) == []
    assert CountingLine.reads == 0


def _single_cycle(grid: Grid, other: Grid, max_lines: int) -> bool:
    """Is ``other`` one switching cycle away from ``grid`` through at most ``max_lines``
    rows? (each changed row and column has one cell off and one on, all of them linked)"""
    cells = {(r, c) for r, (a, b) in enumerate(zip(grid, other)) for c in range(len(a))
             if a[c] != b[c]}
    rows = {r for r, _ in cells}
    cols = {c for _, c in cells}
    for key, group in ((0, rows), (1, cols)):
        for line in group:
            on_line = [cell for cell in cells if cell[key] == line]
            if sorted(grid[r][c] for r, c in on_line) != ["#", "."]:
                return False
    if len(rows) > max_lines:
        return False
    reached, todo = set(), [next(iter(cells))]
    while todo:
        r, c = todo.pop()
        if (r, c) in reached:
            continue
        reached.add((r, c))
        todo += [cell for cell in cells if cell[0] == r or cell[1] == c]
    return reached == cells


def _grid(seed: int, width: int, height: int, black: str) -> Grid:
    rng = random.Random(seed)
    return tuple("".join(rng.choice(black) for _ in range(width)) for _ in range(height))


@pytest.mark.parametrize("seed", range(40))
def test_nearby_finds_exactly_the_solutions_one_cycle_away(seed: int) -> None:
    """On small grids (many one-cell blocks among them) every solution one switching cycle
    away, found by brute force over all solutions, is what nearby finds: no fewer (the
    moves are complete) and no more (each is a checked solution)."""
    black = "#." if seed % 2 else "#..."
    grid = _grid(seed, 4 + seed % 3, 4 + seed % 2, black)
    puzzle = puzzle_from_grid(grid)
    others = {g for g in all_solutions(puzzle) if g != grid}
    expected = {g for g in others if _single_cycle(grid, g, 4)}
    assert set(nearby(puzzle, grid, limit=10**6)) == expected


@pytest.mark.heavy
def test_a_long_line_of_one_cell_blocks_solves_within_its_timeout() -> None:
    """``solve --max-nodes 1 --timeout 10`` on a 1x99,999 line of 50,000 one-cell blocks
    ends well within its timeout (it took 488 s: the moves were built with no clock)."""
    import subprocess
    import sys

    from gridsolve.nonogram.formats.text import dump
    line = ("#." * 50000)[:99999]
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "gridsolve", "nonogram", "solve", "-", "--max-nodes", "1",
         "--timeout", "10", "--json"], input=dump(puzzle_from_grid((line,))),
        capture_output=True, text=True, timeout=120)
    assert time.perf_counter() - started < 10 + 1.0
    assert done.returncode in (0, 1), done.stderr
    assert line in done.stdout
