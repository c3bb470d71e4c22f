"""Small puzzles whose clues fill few cells (n-Dom) go to SAT alone after a short first turn
(decision 0040): the native team branched on them for its whole first turn (841 nodes on
10-Dom) before SAT, which ends them 3-20x sooner, had a turn."""

from __future__ import annotations

import dataclasses

import pytest

from gridsolve.nonogram.backends import auto
from gridsolve.nonogram.backends._common import DEFAULT_SOLVER, KISSAT, sat_installed
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.model import is_solution, puzzle_from_grid
from gridsolve.nonogram.policy import DEFAULT_POLICY

from tests.nonogram.backends.test_root_clauses import n_dom

ANY = SearchLimits(timeout=60)
needs_sat = pytest.mark.skipif(not sat_installed(), reason="python-sat is not installed")


def test_sparse_small_puzzles_go_to_sat_first() -> None:
    assert auto.sat_first(n_dom(10), DEFAULT_SOLVER, ANY)
    assert not auto.sat_first(n_dom(10), KISSAT, ANY)  # a named Kissat keeps its own plan
    assert not auto.sat_first(n_dom(16), DEFAULT_SOLVER, ANY)  # 33x33: over small_cells
    never = dataclasses.replace(DEFAULT_POLICY, sat_first_density=0.0)
    assert not auto.sat_first(n_dom(10), DEFAULT_SOLVER, ANY, never)
    # a tournament-like puzzle fills a third of its cells or more (every one of the 30,000)
    dense = puzzle_from_grid(tuple("#." * 12 + "#" if r % 2 else ".#" * 12 + "."
                                   for r in range(25)))
    assert not auto.sat_first(dense, DEFAULT_SOLVER, ANY)


@needs_sat
def test_sat_gets_its_turn_after_a_few_native_nodes_and_runs_repeat() -> None:
    puzzle = n_dom(10)
    runs = [auto.analyse(puzzle, 2, SearchLimits(timeout=60)) for _ in range(2)]
    first = runs[0]
    assert first.status == "unique"
    assert is_solution(puzzle, first.solutions[0])
    assert first.stats["handover"] == 1
    # (before 0040: the whole first turn, 841 native nodes, then Kissat)
    assert first.stats["native_nodes"] < 50
    assert first.stats["sat_conflicts"] > 0
    again = runs[1]
    assert (again.nodes, again.stats, again.solutions) == (first.nodes, first.stats,
                                                          first.solutions)


def test_a_node_limit_keeps_the_turns() -> None:
    # (the turns keep one budget exact; SAT alone overshoots a conflict budget)
    assert not auto.sat_first(n_dom(10), DEFAULT_SOLVER, SearchLimits(max_nodes=200))


@needs_sat
def test_jobs_take_the_same_plan_in_one_process() -> None:
    """--jobs (the command line's default) runs the same plan as auto on such a puzzle, in this
    process: the same nodes, stats and solution (it used to start the team's whole first turn
    and then processes)."""
    from gridsolve.nonogram.backends import parallel
    puzzle = n_dom(10)
    alone = auto.analyse(puzzle, 2, SearchLimits(timeout=60))
    jobs = parallel.analyse(puzzle, 2, SearchLimits(timeout=60), jobs=2)
    assert jobs.stats.pop("jobs") == 1
    assert (jobs.nodes, jobs.stats, jobs.solutions) == (alone.nodes, alone.stats,
                                                        alone.solutions)
