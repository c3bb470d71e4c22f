"""Local moves for a second solution (engine.nearby) and the searches that use them, against
the brute-force oracle."""

from __future__ import annotations

import random

import pytest

from gridsolve.nonogram import engine
from gridsolve.nonogram.engine.nearby import line_moves, nearby
from gridsolve.nonogram.model import Grid, Puzzle, clue_of, is_solution, puzzle_from_grid
from tests.nonogram.oracle import all_solutions


def _random_grid(seed: int, width: int, height: int) -> Grid:
    rng = random.Random(seed)
    return tuple("".join(rng.choice("#.") for _ in range(width)) for _ in range(height))


def _flip(grid: Grid, cells: list[tuple[int, int]]) -> Grid:
    rows = [list(r) for r in grid]
    for r, c in cells:
        rows[r][c] = "." if rows[r][c] == "#" else "#"
    return tuple("".join(r) for r in rows)


def test_line_moves_keep_the_clue_and_are_every_single_swap() -> None:
    """The moves of a line are exactly its one-off-one-on changes that keep its clue
    (compared with all such changes, found by brute force); a one-cell block moving past
    others (#.#.. -> ..#.#) among them."""
    assert line_moves("#.#..") == {0: [4], 2: [3, 4]}
    rng = random.Random(5)
    for _ in range(3000):
        line = "".join(rng.choice("#.") for _ in range(rng.randint(1, 12)))
        moves = {(off, on) for off, ons in line_moves(line).items() for on in ons}
        brute = set()
        for off in (i for i, ch in enumerate(line) if ch == "#"):
            for on in (i for i, ch in enumerate(line) if ch == "."):
                cells = list(line)
                cells[off], cells[on] = ".", "#"
                if clue_of("".join(cells)) == clue_of(line):
                    brute.add((off, on))
        assert moves == brute, line


def test_finds_the_2x2_switch_of_a_constructed_grid() -> None:
    """A 6x6 grid whose only other solution is one switch of the rectangle of rows 3 and 5,
    columns 0 and 2 (checked by the oracle)."""
    grid = ("#.####",
            ".####.",
            "...###",
            "#....#",
            "##...#",
            "..#..#")
    puzzle = puzzle_from_grid(grid)
    switched = _flip(grid, [(3, 0), (3, 2), (5, 0), (5, 2)])
    assert all_solutions(puzzle) == {grid, switched}
    assert nearby(puzzle, grid) == [switched]
    assert nearby(puzzle, switched) == [grid]
    assert nearby(puzzle, grid, seen={switched: None}) == []


def test_switching_cycles_through_three_rows() -> None:
    """Permutation matrices: the transpositions are 2x2 switches, the 3-cycles need three
    rows; with three rows allowed every other solution is found, with two only the 2x2."""
    grid = ("#..", ".#.", "..#")
    puzzle = puzzle_from_grid(grid)
    others = all_solutions(puzzle) - {grid}
    assert len(others) == 5
    assert set(nearby(puzzle, grid, max_lines=3, limit=10)) == others
    two = nearby(puzzle, grid, max_lines=2, limit=10)
    assert len(two) == 3 and set(two) < others
    # a look stops after max_tries steps along cycles, with what it has found
    assert len(nearby(puzzle, grid, max_lines=3, limit=10, max_tries=3)) < 3


def test_a_cycle_through_four_rows_and_past_a_block() -> None:
    """Rows 25-42, columns 12-18 of a solution of the survey's Thing (36x42), whose other
    solutions are one cycle through four rows away, one column moving a one-cell block past
    another: before the moves went to four rows and past blocks, a second SAT run (about
    1 s with glucose-syrup) looked for it."""
    grid = ("...##..", "..##...", ".##....", "##.....") + (".#....#",) * 9 + (
        ".#.##.#", ".##..##", ".#....#", ".#...#.", "..###..")
    other = ("....##.", "..##...", "..##...", "##.....") + (".#....#",) * 9 + (
        ".#.##.#", ".##..##", ".#....#", ".#..#..", ".###...")
    puzzle = puzzle_from_grid(grid)
    assert is_solution(puzzle, other)
    assert other in nearby(puzzle, grid, max_lines=4, limit=100)
    assert other not in nearby(puzzle, grid, max_lines=3, limit=100)


@pytest.mark.parametrize("seed", range(40))
def test_nearby_grids_are_solutions(seed: int) -> None:
    grid = _random_grid(seed, 5 + seed % 2, 5)
    puzzle = puzzle_from_grid(grid)
    solutions = all_solutions(puzzle)
    found = nearby(puzzle, grid, limit=100)
    assert len(found) == len(set(found))
    assert grid not in found
    assert set(found) <= solutions


def _check(result: engine.Result, solutions: set[Grid], max_solutions: int) -> None:
    assert set(result.solutions) <= solutions
    assert len(set(result.solutions)) == len(result.solutions) == min(len(solutions),
                                                                       max_solutions)
    expected = "unique" if len(solutions) == 1 and max_solutions > 1 else (
        "multiple" if len(solutions) >= 2 and max_solutions >= 2 else result.status)
    assert result.status == expected


@pytest.mark.parametrize("seed", range(60))
def test_counts_with_local_moves_match_the_oracle(seed: int) -> None:
    """The team (which tries local moves after each solution) counts exactly: unique puzzles
    proven unique, never "multiple"; the second solution is a real one."""
    grid = _random_grid(1000 + seed, 5 + seed % 3, 5)
    puzzle: Puzzle = puzzle_from_grid(grid)
    solutions = all_solutions(puzzle)
    for max_solutions in (2, 3, 64):
        result = engine.analyse(puzzle, max_solutions)
        _check(result, solutions, max_solutions)
        if len(solutions) < max_solutions:
            assert result.status in ("unique", "multiple") and result.stats["nodes"] >= 0


@pytest.mark.heavy
@pytest.mark.parametrize("seed", range(30))
def test_auto_with_sat_first_matches_the_oracle(seed: int) -> None:
    """``auto`` with no native turn first: SAT's solutions go through local moves too."""
    pytest.importorskip("pysat")
    from dataclasses import replace

    from gridsolve.nonogram.backends import auto
    from gridsolve.nonogram.policy import DEFAULT_POLICY
    sat_first = replace(DEFAULT_POLICY, auto_nodes=0)
    grid = _random_grid(2000 + seed, 6, 5)
    puzzle = puzzle_from_grid(grid)
    solutions = all_solutions(puzzle)
    for max_solutions in (2, 5):
        _check(auto.analyse(puzzle, max_solutions, policy=sat_first), solutions, max_solutions)


@pytest.mark.parametrize("seed", range(40))
def test_count_and_unique_with_local_moves_match_the_oracle(seed: int) -> None:
    grid = _random_grid(3000 + seed, 5 + seed % 2, 5)
    puzzle = puzzle_from_grid(grid)
    n = len(all_solutions(puzzle))
    assert engine.unique(puzzle) == (n == 1)
    for limit in (2, 3, None):
        assert engine.count(puzzle, limit) == (n if limit is None else min(n, limit))


def test_team_uses_local_moves_only_after_its_search_has_not_found_the_next() -> None:
    """The team tries local moves next to a solution only once its search has gone on the
    policy's ``team_slice`` nodes without reaching the count; a solution forced without a
    branch is the only one and gets none."""
    grid = ("#.####", ".####.", "...###", "#....#", "##...#", "..#..#")
    puzzle = puzzle_from_grid(grid)
    t = engine.Team(puzzle, 2)
    t.add(grid)
    t._moves()  # the search has not gone on yet: nothing
    assert t.nearby == 0 and len(t.found) == 1
    t.pending = [(grid, -t.policy.team_slice)]
    t._moves()
    assert t.nearby == 1 and set(t.found) == all_solutions(puzzle)
    forced = engine.Team(puzzle, 2)
    forced.add(grid, forced=True)
    assert forced.pending == []
    big = Puzzle([[1]] * 8, [[1]] * 8)  # 40,320 permutation matrices
    result = engine.analyse(big, 60)
    assert result.stats["nearby"] > 0 and result.status == "multiple"
    assert len(set(result.solutions)) == 60
    assert all(sorted(r.index("#") for r in g) == list(range(8)) for g in result.solutions)


def _permutations(n: int) -> Puzzle:
    """Every row and column clue 1: its n! solutions are the permutation matrices, each a
    2x2 switch away from many others."""
    return Puzzle([[1]] * n, [[1]] * n)


@pytest.mark.heavy
def test_nearby_stops_at_its_deadline() -> None:
    """On a puzzle of very many neighbours, a large limit with a deadline already past ends
    after at most NEARBY_CLOCK_EVERY tries, and what it found are solutions; without the
    deadline the same call finds far more."""
    import time

    from gridsolve.nonogram.engine.nearby import NEARBY_CLOCK_EVERY
    from gridsolve.nonogram.model import is_solution
    puzzle = _permutations(20)
    grid = tuple("".join("#" if c == r else "." for c in range(20)) for r in range(20))
    late = nearby(puzzle, grid, limit=10**9, deadline=time.perf_counter() - 1)
    assert len(late) <= NEARBY_CLOCK_EVERY
    assert all(is_solution(puzzle, g) and g != grid for g in late)
    free = nearby(puzzle, grid, limit=10**9)
    assert len(free) > 4 * NEARBY_CLOCK_EVERY
    assert set(late) <= set(free)


@pytest.mark.heavy
def test_many_solutions_asked_for_end_at_the_timeout() -> None:
    """Asking auto for more solutions than there is time to find (30! here) ends at the
    timeout, local moves included: one call of them over all of a first solution's
    neighbours takes about 1.2 s on this puzzle, and before they had a deadline auto's ran
    after each SAT solution (14.5 s here; a 40x40 at --timeout 3 took 81 s)."""
    import time

    from gridsolve.errors import LimitReached
    from gridsolve.nonogram import backends
    from gridsolve.nonogram.engine import SearchLimits
    from gridsolve.nonogram.model import is_solution
    puzzle = _permutations(30)
    started = time.perf_counter()
    try:
        result = backends.analyse(puzzle, 10**8, SearchLimits(timeout=1.0), method="auto")
    except LimitReached:
        result = None
    wall = time.perf_counter() - started
    assert wall < 1.0 + 0.5  # max(0.5 s, 10%)
    # (a build much slower than -O3, such as the sanitizers', may find none in the second)
    found = () if result is None else result.solutions
    assert result is None or result.status == ("multiple" if len(found) >= 2 else "unknown")
    assert all(is_solution(puzzle, g) for g in found[:50])


@pytest.mark.heavy
def test_a_count_leaves_the_moves_after_the_first_solutions() -> None:
    """Eight rooks (8! = 40,320 solutions) counted to a million: the team's local moves, in
    Python, look next to the first MOVES_MAX_SOLUTIONS solutions only, for that many each;
    the compiled search finds the rest (the moves found 38,000 of them and made auto take
    7.0 s where the search alone takes 0.7 s)."""
    from gridsolve.nonogram.engine.nearby import MOVES_MAX_SOLUTIONS, moves_for_count
    from gridsolve.nonogram.engine.team import Team
    rooks = Puzzle([[1]] * 8, [[1]] * 8)
    team = Team(rooks, 10**6)
    assert team.run()
    assert team.complete and len(team.found) == 40320
    assert team.nearby <= MOVES_MAX_SOLUTIONS ** 2 < 40320 // 8
    # engine.count under a limit uses the same cap (it took 198 s here, against 2 s)
    grid = next(iter(team.found))
    assert moves_for_count(rooks, grid, dict.fromkeys(list(team.found)[:65]), 10**6) == []
    few = dict.fromkeys([grid])
    assert len(moves_for_count(rooks, grid, few, 10**6)) == MOVES_MAX_SOLUTIONS
    assert len(moves_for_count(rooks, grid, few, 3)) == 2
    assert moves_for_count(rooks, grid, few, 1) == []
