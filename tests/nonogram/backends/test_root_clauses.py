"""SAT is seeded with the root's implications only while they do not outnumber its model's
clauses (decision 0035): on n-Dom they were 2.5-3.5 times the model and doubled Glucose's
conflicts; on survey, random and tournament puzzles they are 0.01-0.4 of it and help."""

from __future__ import annotations

import dataclasses
import random

from gridsolve.nonogram.backends import cnf
from gridsolve.nonogram.backends.auto import root_clauses
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.engine.team import team_for
from gridsolve.nonogram.engine.team import Team
from gridsolve.nonogram.generate import random_grid
from gridsolve.nonogram.model import Puzzle, puzzle_from_grid
from gridsolve.nonogram.policy import DEFAULT_POLICY, Policy


def n_dom(n: int) -> Puzzle:
    """Wolter's n-Dom ((2n+1)x(2n+1) domino patterns; 9-Dom is webpbn #8098)."""
    side = 2 * n + 1
    rows = [[3]] + [[1] if i % 2 == 0 else [3, 1] for i in range(2, side)] + [[1]]
    cols = [[1]] + [[1] if i % 2 == 0 else [1, 3] for i in range(2, side)] + [[3]]
    return Puzzle(tuple(map(tuple, rows)), tuple(map(tuple, cols)))


def _rooted(puzzle: Puzzle, policy: Policy = DEFAULT_POLICY) -> Team:
    team = team_for(puzzle, 2, policy=policy)
    assert isinstance(team, Team)
    team.run(SearchLimits(max_nodes=1), 1)  # the first search's root: its probes
    return team


def test_implications_outnumbering_the_model_are_left_out() -> None:
    team = _rooted(n_dom(9))
    known = team.partial()
    every = cnf.implication_clauses(team.root_implications(), known)
    assert len(every) > cnf.size(team.puzzle, known).clauses  # (2.45 times, on 9-Dom)
    assert root_clauses(team, known) == []
    # a policy that takes any share takes them all
    loose = _rooted(n_dom(9), dataclasses.replace(DEFAULT_POLICY, implication_max_share=10.0))
    assert root_clauses(loose, loose.partial()) == every


def test_implications_of_a_random_puzzle_are_kept() -> None:
    team = _rooted(puzzle_from_grid(random_grid(30, 30, 0.5, random.Random(30_001))))
    known = team.partial()
    every = cnf.implication_clauses(team.root_implications(), known)
    assert every and root_clauses(team, known) == every
