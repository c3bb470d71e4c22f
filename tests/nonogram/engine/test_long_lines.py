"""Long lines (issue 21): exact answers in bounded memory, up to the engine's size limits.

Lines whose (blocks + 1) x (cells + 1) tables would pass NG_DENSE_MAX_CELLS bytes go to the
banded, checkpointed line solver (line_long.c). It is checked against the table solver and
the plain-Python reference on random lines, and whole 1xN, Nx1 and 10xN puzzles are solved
and compared with the grid they were made from (their columns or rows force every cell, so
that grid is the one solution). Table offsets once overflowed an int there: a 1x99,999
puzzle of 50,000 blocks crashed and a 1x100,000 one was reported to have no solution.
"""

from __future__ import annotations

import random
import time

import pytest

from gridsolve.errors import GridsolveError, LimitReached
from gridsolve.nonogram import reference
from gridsolve.nonogram.engine import SearchLimits, _colour, _core, analyse, solve_line
from gridsolve.nonogram.model import clue_of, puzzle_from_grid

from tests.nonogram.cases import slow_long_row


def random_line(rng: random.Random, n: int, density: float) -> tuple[tuple[int, ...], str]:
    """A clue from a random full line of n cells, and that line partly known (maybe known
    wrongly: then the clue may not fit it)."""
    full = "".join("#" if rng.random() < density else "." for _ in range(n))
    known = rng.choice([0.0, 0.2, 0.6, 1.0])
    line = "".join(c if rng.random() < known else "?" for c in full)
    if rng.random() < 0.1 and line:  # a wrong cell now and then
        i = rng.randrange(n)
        line = line[:i] + ("." if full[i] == "#" else "#") + line[i + 1:]
    return clue_of(full), line


def banded(clue: tuple[int, ...], line: str) -> str | None:
    out = _core.solve_line(clue, line.encode("ascii"), False, True)
    return None if out is None else out.decode("ascii")


def tables(clue: tuple[int, ...], line: str) -> str | None:
    out = _core.solve_line(clue, line.encode("ascii"), False)
    return None if out is None else out.decode("ascii")


def test_banded_line_solver_matches_the_reference_on_short_lines() -> None:
    rng = random.Random(21)
    for _ in range(1500):
        clue, line = random_line(rng, rng.randint(1, 30), rng.choice([0.3, 0.5, 0.8]))
        assert banded(clue, line) == reference.solve_line(clue, line), (clue, line)


def test_banded_line_solver_matches_the_tables_on_long_lines() -> None:
    rng = random.Random(7)
    for _ in range(40):
        clue, line = random_line(rng, rng.randint(200, 3000), rng.choice([0.2, 0.5, 0.7]))
        assert banded(clue, line) == tables(clue, line), (len(line), len(clue))


def solve_exactly(grid: list[str]) -> None:
    """The puzzle of grid has that grid as its one solution, found natively."""
    result = analyse(puzzle_from_grid(grid), 2)
    assert result.status == "unique"
    assert result.solutions[0] == tuple(grid)


def test_a_row_of_99999_cells_and_50000_blocks() -> None:
    """It crashed (an int table offset past 2^31); its tables alone would take 10 GB."""
    solve_exactly(["#." * 49999 + "#"])


def test_a_random_row_of_20000_cells_its_columns_force() -> None:
    rng = random.Random(3)
    solve_exactly(["".join(rng.choice("#.") for _ in range(20000))])


@pytest.mark.slow
@pytest.mark.parametrize("shape", ["1x100000", "100000x1", "1x100000 sparse"])
def test_long_lines_at_the_size_limit(shape: str) -> None:
    rng = random.Random(shape)
    density = 0.1 if "sparse" in shape else 0.5
    cells = ["#" if rng.random() < density else "." for _ in range(100000)]
    solve_exactly(["".join(cells)] if shape.startswith("1x") else cells)


@pytest.mark.slow
def test_ten_rows_of_100000_cells_stop_at_the_timeout() -> None:
    """A row of 25,000 blocks takes seconds to solve: the solve reads the clock as it goes."""
    rng = random.Random(10)
    puzzle = puzzle_from_grid(["".join(rng.choice("#.") for _ in range(100000))
                               for _ in range(10)])
    started = time.perf_counter()
    result = analyse(puzzle, 2, SearchLimits(timeout=1.0))
    assert time.perf_counter() - started < 1.0 + 1.0
    assert result.status in ("unknown", "unique")


def test_a_line_solve_stops_at_its_deadline() -> None:
    """The solver of long lines reads the clock: a row whose solve takes seconds stops at
    ``until`` with LimitReached (hint and explain ran such rows for minutes), and a deadline
    already past stops any line before it is solved."""
    clue, line, full = slow_long_row()
    started = time.perf_counter()
    with pytest.raises(LimitReached):
        solve_line(clue, line, until=started + 0.05)
    assert time.perf_counter() - started < 0.05 + 1.0
    with pytest.raises(LimitReached):
        solve_line((2, 1), "?????", until=time.perf_counter() - 1)
    assert solve_line(clue, full, until=time.perf_counter() + 60) == full
    assert solve_line((3, 1), "?????", until=time.perf_counter() + 60) == "###.#"


def test_colour_tables_over_the_limit_are_refused_clearly() -> None:
    clue = [(1, 1 + i % 2) for i in range(50000)]
    with pytest.raises(GridsolveError, match="colour line solver"):
        _colour.solve_line(clue, [7] * 99999)
    with pytest.raises(GridsolveError, match="colour line solver"):
        _colour.Search([clue], [[(1, 1 + i % 2)] for i in range(99999)], 3)
