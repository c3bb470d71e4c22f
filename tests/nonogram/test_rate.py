"""Rating: levels agree with the solving path actually needed, on puzzles of our own."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gridsolve.cli.nonogram_author import rating_text
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.engine import solve_line as fast_line
from gridsolve.nonogram.model import Grid, Puzzle, puzzle_from_grid
from gridsolve.nonogram.rate import SCORE_TABLE, rate, score_of
from gridsolve.nonogram.reference import solve_line

#: Our own: random 5x5 grids, and a random 12x12 grid flipped at random until unique,
#: picked for needing exactly line logic, probing, or search.
LINE: Grid = ("..##.", "#.##.", "..#..", "#....", "#...#")
PROBE: Grid = ("#..#.", "..#.#", "....#", "....#", "..##.")
SEARCH: Grid = ("..######.###", ".##..#......", "##....##....", "#..#.#....##",
                ".....##.#...", ".##.#.#..###", "#..#....#.#.", ".##..#####.#",
                "...#....#.##", ".#.#...####.", ".....#..#...", ".#...#....##")

LineSolver = Callable[[tuple[int, ...], str], str | None]

KNOWN = [(LINE, "line"), (PROBE, "probe"), (SEARCH, "search")]


def propagate(puzzle: Puzzle, rows: list[str], line_solver: LineSolver = solve_line
              ) -> list[str] | None:
    """Plain-Python line logic to a fixpoint, re-solving only changed lines; None if stuck."""
    grid = [list(row) for row in rows]
    dirty = {("row", r) for r in range(puzzle.height)} | {("col", c) for c in range(puzzle.width)}
    while dirty:
        kind, i = dirty.pop()
        if kind == "row":
            old = "".join(grid[i])
            new = line_solver(puzzle.rows[i], old)
        else:
            old = "".join(row[i] for row in grid)
            new = line_solver(puzzle.cols[i], old)
        if new is None:
            return None
        for k, (a, b) in enumerate(zip(old, new)):
            if a != b:
                if kind == "row":
                    grid[i][k] = b
                    dirty.add(("col", k))
                else:
                    grid[k][i] = b
                    dirty.add(("row", k))
    return ["".join(row) for row in grid]


def probe(puzzle: Puzzle, rows: list[str]) -> list[str] | None:
    """Plain-Python single-cell probing on top of line logic (the compiled line solver, for
    speed), repeated to a fixpoint."""
    current = propagate(puzzle, rows)
    progress = True
    while current is not None and progress:
        progress = False
        for r, row in enumerate(current):
            for c, ch in enumerate(row):
                if ch != "?":
                    continue
                outcomes = {v: propagate(puzzle, [x if i != r else x[:c] + v + x[c + 1:]
                                                  for i, x in enumerate(current)], fast_line)
                            for v in "#."}
                alive = [v for v, g in outcomes.items() if g is not None]
                if len(alive) == 1:
                    fixed = [x if i != r else x[:c] + alive[0] + x[c + 1:]
                             for i, x in enumerate(current)]
                    current = propagate(puzzle, fixed, fast_line)
                    progress = True
                    break
            if progress or current is None:
                break
    return current


def blank(puzzle: Puzzle) -> list[str]:
    return ["?" * puzzle.width] * puzzle.height


@pytest.mark.parametrize("grid, level", KNOWN)
def test_level_matches_the_path_needed(grid: Grid, level: str) -> None:
    puzzle = puzzle_from_grid(grid)
    rating = rate(puzzle)
    assert rating.unique and rating.status == "unique"
    assert rating.level == level
    line_done = "?" not in "".join(propagate(puzzle, blank(puzzle)) or "?")
    probed = probe(puzzle, blank(puzzle))
    probe_done = probed is not None and "?" not in "".join(probed)
    assert line_done == (level == "line")
    assert probe_done == (level in ("line", "probe"))
    if level == "search":
        assert rating.nodes > 1 and rating.max_depth >= 1
    else:
        assert rating.nodes == 1 and rating.max_depth == 0
    if level == "line":
        assert rating.probes == 0


@pytest.mark.parametrize("grid, level", KNOWN)
def test_score_is_within_the_level_range(grid: Grid, level: str) -> None:
    rating = rate(puzzle_from_grid(grid))
    assert rating.level is not None and rating.score is not None
    (low, high), *_ = SCORE_TABLE[rating.level]
    assert low <= rating.score <= high


def test_score_ranges_cover_one_to_ten_in_order() -> None:
    ranges = [SCORE_TABLE[lv][0] for lv in ("line", "probe", "search")]
    assert ranges[0][0] == 1 and ranges[-1][1] == 10
    assert all(a[1] + 1 == b[0] for a, b in zip(ranges, ranges[1:]))


@pytest.mark.parametrize("level", ["line", "probe", "search"])
def test_score_is_monotone_in_work(level: str) -> None:
    _, _, lo, hi = SCORE_TABLE[level]  # type: ignore[index]
    works = [lo * (hi / lo) ** (k / 50) for k in range(-5, 56)]
    scores = [score_of(level, w) for w in works]  # type: ignore[arg-type]
    assert scores == sorted(scores)
    assert scores[0] == SCORE_TABLE[level][0][0] and scores[-1] == SCORE_TABLE[level][0][1]  # type: ignore[index]


def test_several_solutions_are_not_unique() -> None:
    rating = rate(Puzzle([[1], [1]], [[1], [1]]))
    assert not rating.unique and rating.status == "multiple" and rating.level == "search"


def test_no_solution() -> None:
    rating = rate(Puzzle([[1, 1], [1]], [[2], [1], []]))
    assert rating.status == "none" and not rating.unique


def _probing_refutes(puzzle: Puzzle) -> bool:
    """Does line logic with single-cell probing at the root (plain Python) find that the clues
    contradict each other: a line that cannot fit, or a cell both of whose values fail?"""
    current = propagate(puzzle, blank(puzzle))
    while current is not None:
        for r, row in enumerate(current):
            unknown = [c for c, ch in enumerate(row) if ch == "?"]
            for c in unknown:
                tries = {v: propagate(puzzle, [x if i != r else x[:c] + v + x[c + 1:]
                                               for i, x in enumerate(current)], fast_line)
                         for v in "#."}
                alive = [g for g in tries.values() if g is not None]
                if not alive:
                    return True
                if len(alive) == 1:
                    current = alive[0]
                    break
            else:
                continue
            break
        else:
            return False
    return True


def test_no_solution_is_rated_by_what_finds_the_contradiction() -> None:
    """A puzzle whose clues contradict each other is rated "line" when line logic finds it,
    "probe" when probing at the root does, else "search" (it was always "search", 8/10):
    against plain-Python line logic and probing on puzzles with two column clues swapped."""
    import random
    rng = random.Random(7)
    seen: dict[str, int] = {}
    while sum(seen.values()) < 150:
        n = rng.choice([5, 6, 8])
        grid = puzzle_from_grid(["".join(rng.choice("#.") for _ in range(n)) for _ in range(n)])
        cols = list(grid.cols)
        i, j = rng.sample(range(n), 2)
        cols[i], cols[j] = cols[j], cols[i]
        try:
            puzzle = Puzzle(grid.rows, cols)
        except ValueError:
            continue
        rating = rate(puzzle)
        if rating.status != "none":
            continue
        expect = ("line" if propagate(puzzle, blank(puzzle)) is None else
                  "probe" if _probing_refutes(puzzle) else "search")
        assert rating.level == expect, (puzzle.rows, puzzle.cols)
        seen[expect] = seen.get(expect, 0) + 1
    assert seen.get("line", 0) > 0 and seen.get("probe", 0) > 0


def test_limit_gives_unknown_and_top_score() -> None:
    """A search the limit stops after its root needs search, at least score 10; a limit that
    stops a root (line logic, or probing) before it ends leaves level and score unknown."""
    rating = rate(puzzle_from_grid(SEARCH), SearchLimits(max_nodes=1))
    assert rating.status == "unknown" and not rating.unique and rating.score == 10
    assert rating.level == "search"
    assert rating_text(rating).splitlines()[:3] == [
        "unique: unknown: the limit was reached first",
        "level: search (needs search (trial and error))",
        "score: 10/10 (at least: the limit came before the search ended)"]
    stopped = rate(puzzle_from_grid(("###", "#..", "###")), SearchLimits(timeout=0.0))
    assert stopped.status == "unknown" and stopped.level is None and stopped.score is None
    assert rate(puzzle_from_grid(("###", "#..", "###"))).level == "line"


@pytest.mark.slow
def test_corpora_levels(puzzles_dir: Path) -> None:
    """Magazine puzzles are mostly line-solvable; random tournament boards never are."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from rating import janko, tournament  # type: ignore[import-not-found]
    magazine = [rate(p) for p in janko(puzzles_dir, 300)]
    assert sum(r.level == "line" for r in magazine) >= 0.7 * len(magazine)
    assert all(r.unique for r in magazine)
    boards = [rate(p) for p in tournament(puzzles_dir, 40)]
    assert not any(r.level == "line" for r in boards)
