"""The work budget (``Search.next``'s ``max_work``): the clock's deterministic twin. A search
stops for good once it has done that many line solves, inside a node if need be, at the same
step on every run; the team's ``stop`` and the guided search's ``max_work`` use it."""

from __future__ import annotations

import random

import gridsolve.nonogram.engine._colour as _colour
import gridsolve.nonogram.engine._core as _core
from gridsolve.nonogram.engine import SearchLimits, analyse
from gridsolve.nonogram.engine.guided import Guided
from gridsolve.nonogram.engine.team import Team
from gridsolve.nonogram.model import Colour, Puzzle, colour_puzzle_from_grid, puzzle_from_grid


def _random(n: int, seed: int) -> Puzzle:
    rng = random.Random(seed)
    return puzzle_from_grid(["".join("#" if rng.random() < 0.5 else "." for _ in range(n))
                             for _ in range(n)])


def test_a_search_stops_for_good_at_its_work_and_at_the_same_step_every_run() -> None:
    puzzle = _random(40, 7)
    counts = []
    for _ in range(2):
        core = _core.Search(puzzle.rows, puzzle.cols)
        code = core.next(-1, -1.0, 500)
        stats = core.stats()
        assert code == _core.LIMIT and stats["timed_out"] == 1  # stopped for good
        assert 500 <= stats["line_solves"] < 500 + 300  # at the first look past it
        counts.append((stats["line_solves"], stats["probes"], stats["nodes"]))
    assert counts[0] == counts[1]
    unbounded = _core.Search(puzzle.rows, puzzle.cols)
    unbounded.next(1, -1.0)
    assert unbounded.stats()["line_solves"] > 500  # (the budget did cut the root short)


def test_the_colour_core_takes_a_work_budget_too() -> None:
    palette = (Colour("white", (255, 255, 255), "."), Colour("red", (255, 0, 0), "a"),
               Colour("blue", (0, 0, 255), "b"))
    rng = random.Random(3)
    grid = tuple("".join(rng.choice(".ab") for _ in range(30)) for _ in range(30))
    puzzle = colour_puzzle_from_grid(grid, palette)
    core = _colour.Search(puzzle.rows, puzzle.cols, len(palette))
    assert core.next(-1, -1.0, 50) == _colour.LIMIT
    assert core.stats()["timed_out"] == 1 and core.stats()["line_solves"] >= 50


def test_the_team_stopped_by_its_work_cannot_go_on_and_says_so() -> None:
    puzzle = _random(40, 7)
    team = Team(puzzle, 2)
    team.run(SearchLimits(), work=10**9, stop=200)  # (run ends: its search cannot go on)
    assert team.stopped and team.work() >= 200
    result = team.result()
    assert result.status == "unknown"


def test_a_work_budget_leaves_the_answer_unchanged_when_it_is_not_reached() -> None:
    puzzle = _random(20, 11)
    team = Team(puzzle, 2)
    team.run(SearchLimits(), stop=10**12)
    assert not team.stopped
    assert team.result().solutions == analyse(puzzle, 2).solutions


def test_the_guided_search_stops_at_its_work() -> None:
    puzzle = _random(40, 7)
    solution = analyse(puzzle, 1).solutions[0]
    guided = Guided(puzzle)
    found = list(guided.around(solution, set(), max_work=10))
    assert found == [] and guided.broken  # its root was cut short: given up
