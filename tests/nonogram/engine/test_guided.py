"""The search guided by a known solution (engine.guided): other solutions, each checked,
none twice, and when it is exhausted every solution (brute force is the oracle)."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Generator
from pathlib import Path

import pytest

from gridsolve.nonogram.backends import kissat, syrup
from gridsolve.nonogram.engine.guided import guided
from gridsolve.nonogram.formats import read_puzzle
from gridsolve.nonogram.model import Grid, Puzzle, is_solution, puzzle_from_grid
from gridsolve.nonogram.reference import fits
from tests.nonogram.oracle import all_solutions as brute_force


def run(search: Generator[Grid, None, bool]) -> tuple[list[Grid], bool]:
    """What the generator yields, and its value (exhausted)."""
    out = []
    while True:
        try:
            out.append(next(search))
        except StopIteration as stop:
            return out, bool(stop.value)


@functools.cache
def several(count: int) -> list[tuple[Puzzle, set[Grid]]]:
    """Random 5x5 to 6x6 pictures with 2 to 40 solutions."""
    rng = random.Random(2026)
    found: list[tuple[Puzzle, set[Grid]]] = []
    while len(found) < count:
        h, w = rng.randint(5, 6), rng.randint(5, 6)
        puzzle = puzzle_from_grid(["".join(rng.choice("#.") for _ in range(w)) for _ in range(h)])
        every = brute_force(puzzle)
        if 2 <= len(every) <= 40:
            found.append((puzzle, every))
    return found


@pytest.mark.parametrize("puzzle, every", several(12))
def test_exhausted_it_gives_every_other_solution(puzzle: Puzzle, every: set[Grid]) -> None:
    for solution in sorted(every)[:3]:
        got, exhausted = run(guided(puzzle, solution, set(), max_nodes=10**6))
        assert exhausted
        assert len(got) == len(set(got)) and set(got) == every - {solution}
        assert all(is_solution(puzzle, g) for g in got)
        # the solutions seen already are left out, and still exhausted
        seen = set(sorted(every - {solution})[:1])
        got, exhausted = run(guided(puzzle, solution, seen, max_nodes=10**6))
        assert exhausted and set(got) == every - {solution} - seen


def test_a_unique_puzzle_is_proven() -> None:
    puzzle = puzzle_from_grid(["#..", ".##", "#.#"])
    (solution,) = brute_force(puzzle)
    assert run(guided(puzzle, solution, set())) == ([], True)


def test_known_cells_restrict_it() -> None:
    puzzle, every = several(12)[0]
    solution = sorted(every)[0]
    cell = next((r, c) for r in range(puzzle.height) for c in range(puzzle.width)
                if len({g[r][c] for g in every}) == 2)
    known = tuple("".join(solution[r][c] if (r, c) == cell else "?" for c in range(puzzle.width))
                  for r in range(puzzle.height))
    got, exhausted = run(guided(puzzle, solution, set(), known, max_nodes=10**6))
    assert exhausted
    assert set(got) == {g for g in every if g != solution and all(map(fits, g, known))}


def test_limits_stop_it_unexhausted() -> None:
    """Eight rooks (8! solutions): a node limit and a passed deadline each end it early, not
    exhausted, with checked solutions only."""
    row = tuple([1] for _ in range(8))
    rooks = Puzzle(rows=row, cols=row)
    solution = tuple("".join("#" if c == r else "." for c in range(8)) for r in range(8))
    got, exhausted = run(guided(rooks, solution, set(), max_nodes=20))
    assert not exhausted and 0 < len(got) <= 20
    assert all(is_solution(rooks, g) for g in got) and solution not in got
    got, exhausted = run(guided(rooks, solution, set(), deadline=time.perf_counter() - 1))
    assert (got, exhausted) == ([], False)


def test_thing_s_second_solution_is_next_to_a_sat_solution(puzzles_dir: Path) -> None:
    """The survey's Thing (36x42), whose other solutions lie where local moves may not reach
    from the one SAT finds first: the guided search finds one within its node budget."""
    pytest.importorskip("pysat")
    from gridsolve.nonogram.backends import sat
    thing = read_puzzle(str(puzzles_dir / "gramcracker-survey" / "thing.txt"))
    assert isinstance(thing, Puzzle)
    first = sat.analyse(thing, 1).solutions[0]
    got, exhausted = run(guided(thing, first, set()))
    assert got and not exhausted
    assert all(is_solution(thing, g) for g in got) and first not in got


@pytest.mark.skipif(not kissat.installed(), reason="kissat (gridsolve[kissat]) not installed")
@pytest.mark.parametrize("puzzle, every", several(12)[:6])
def test_kissat_counts_exactly_with_it(puzzle: Puzzle, every: set[Grid]) -> None:
    """Kissat's runs with the guided search after each solution: every solution, once; when
    the guided search is exhausted, no second run."""
    result = kissat.analyse(puzzle, 100)
    assert set(result.solutions) == every and len(result.solutions) == len(every)
    assert result.status == "multiple" and result.exhausted
    assert result.stats["kissat_runs"] == 1
    assert result.stats["nearby"] + result.stats["guided"] == len(every) - 1


@pytest.mark.skipif(not syrup.installed(), reason="glucose-syrup (gridsolve[syrup]) not installed")
def test_syrup_counts_exactly_with_it() -> None:
    puzzle, every = several(12)[1]
    result = syrup.analyse(puzzle, 100, threads=1)
    assert set(result.solutions) == every and result.exhausted
