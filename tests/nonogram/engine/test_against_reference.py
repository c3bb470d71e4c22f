"""The compiled search against the plain-Python reference (gridsolve.nonogram.reference).

The reference is checked against brute force; the compiled engine against the reference:
the same fixpoint after propagation, the same after probing, the same solutions. A state
machine drives one compiled search step by step (node budgets, restarts) and checks after
every step what the reference says must hold.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition,
                                 rule)

import gridsolve.nonogram.engine._core as _core
from gridsolve.errors import InvalidPuzzle
from gridsolve.nonogram import engine, reference
from gridsolve.nonogram.model import UNKNOWN, Grid, Puzzle, is_any_solution, puzzle_from_grid
from tests.nonogram.oracle import all_solutions

#: The compiled branching rules (``_core.Search``'s ``order``; NG_ORDER_* in core.h).
ORDERS = (0, 1, 2, 3, 4, 5)


@st.composite
def puzzles(draw: st.DrawFn, most: int = 6) -> Puzzle:
    """A small puzzle: the clues of a random picture, sometimes with two column clues
    swapped (then it often has no solution, or different ones)."""
    h, w = draw(st.integers(1, most)), draw(st.integers(1, most))
    cells = draw(st.lists(st.booleans(), min_size=h * w, max_size=h * w))
    puzzle = puzzle_from_grid(["".join("#" if cells[r * w + c] else "." for c in range(w))
                               for r in range(h)])
    if w > 1 and draw(st.booleans()):
        i, j = draw(st.permutations(range(w)))[:2]
        cols = list(puzzle.cols)
        cols[i], cols[j] = cols[j], cols[i]
        try:
            puzzle = Puzzle(puzzle.rows, cols)
        except InvalidPuzzle:  # a clue too long for its new place: keep the picture's
            pass
    return puzzle


def _grid(puzzle: Puzzle, data: bytes) -> Grid:
    text = data.decode("ascii")
    return tuple(text[i:i + puzzle.width] for i in range(0, len(text), puzzle.width))


def _root(puzzle: Puzzle, probing: bool) -> tuple[Grid, int]:
    """The compiled engine's root after its first node (no implication probing), and the
    code of that first step."""
    core = _core.Search(puzzle.rows, puzzle.cols, probing, None, False)
    code = core.next(1)
    return _grid(puzzle, core.root()), code


def _agrees(grid: Grid, solutions: set[Grid]) -> bool:
    """Does every known cell of the grid hold in every solution?"""
    return all(ch == UNKNOWN or s[r][c] == ch
               for s in solutions for r, row in enumerate(grid) for c, ch in enumerate(row))


def _at_least(grid: Grid, known: Grid) -> bool:
    """Does the grid know every cell ``known`` knows, the same way?"""
    return all(k == UNKNOWN or g == k for gr, kr in zip(grid, known) for g, k in zip(gr, kr))


@settings(max_examples=60, deadline=None)
@given(puzzles(5))
def test_the_reference_search_finds_what_brute_force_finds(puzzle: Puzzle) -> None:
    expected = all_solutions(puzzle)
    for probing in (False, True):
        found = list(reference.search(puzzle, probing))
        assert len(found) == len(set(found)) and set(found) == expected


@settings(max_examples=80, deadline=None)
@given(puzzles())
def test_same_fixpoints_after_propagation_and_probing(puzzle: Puzzle) -> None:
    for probing, narrow in ((False, reference.propagate), (True, reference.probe)):
        root, code = _root(puzzle, probing)
        expected = narrow(puzzle, reference.unknown(puzzle))
        if expected is None:  # a contradiction at the root: no solution, nothing proven
            assert code == _core.EXHAUSTED and root == reference.unknown(puzzle)
        else:
            assert root == expected


@st.composite
def wide_puzzles(draw: st.DrawFn) -> Puzzle:
    """One to three rows of 60-130 cells (the two-word bit solver's lines, 64-127 cells, in
    a puzzle too wide for bitboards, and both sides of its bounds)."""
    h, w = draw(st.integers(1, 3)), draw(st.integers(60, 130))
    rows = ["".join("#" if draw(st.booleans()) else "." for _ in range(w)) for _ in range(h)]
    return puzzle_from_grid(rows)


@pytest.mark.heavy
@settings(max_examples=40, deadline=None)
@given(wide_puzzles(), st.booleans())
def test_same_fixpoints_and_solutions_on_wide_puzzles(puzzle: Puzzle, probing: bool) -> None:
    """Rows past a machine word: the root after propagation (and probing) is the
    reference's, and the search finds the reference's solutions (up to 3)."""
    narrow = reference.probe if probing else reference.propagate
    root, code = _root(puzzle, probing)
    expected = narrow(puzzle, reference.unknown(puzzle))
    assert expected is not None and root == expected
    core = _core.Search(puzzle.rows, puzzle.cols, probing, None, False)
    found: list[Grid] = []
    while len(found) < 3 and core.next() == _core.SOLUTION:
        found.append(_grid(puzzle, core.grid()))
    ref = []
    for grid in reference.search(puzzle, probing=False):
        ref.append(grid)
        if len(ref) == 3:
            break
    assert len(found) == len(ref) and len(set(found)) == len(found)
    assert all(is_any_solution(puzzle, grid) for grid in found)
    if len(ref) < 3:  # both searches were exhausted: the same solutions
        assert set(found) == set(ref)


@settings(max_examples=60, deadline=None)
@given(puzzles(), st.sampled_from(ORDERS), st.booleans(), st.booleans())
def test_same_solutions_by_every_rule(puzzle: Puzzle, order: int, probing: bool,
                                      implications: bool) -> None:
    expected = set(reference.search(puzzle, probing=False))
    core = _core.Search(puzzle.rows, puzzle.cols, probing, None, implications, order)
    found = []
    while core.next() == _core.SOLUTION:
        found.append(_grid(puzzle, core.grid()))
    assert len(found) == len(set(found)) and set(found) == expected
    assert engine.count(puzzle) == len(expected)


class SearchAgainstReference(RuleBasedStateMachine):
    """One compiled search, run a few nodes at a time and sometimes restarted, watched by the
    reference: every solution is one of the reference's, none comes twice, the root only
    ever holds what holds in every solution still to be found (and at least what probing
    proves), and when the search is exhausted it has found them all.

    A restart keeps the nogoods of the path searched, solutions given included, so from then
    on the root speaks of the solutions not found before it (the team restarts only before
    its first solution, so its root speaks of all)."""

    @initialize(puzzle=puzzles(), order=st.sampled_from(ORDERS), probing=st.booleans(),
                implications=st.booleans(), nogoods=st.booleans())
    def start(self, puzzle: Puzzle, order: int, probing: bool, implications: bool,
              nogoods: bool) -> None:
        self.puzzle = puzzle
        self.solutions = set(reference.search(puzzle, probing=False))
        narrow = reference.probe if probing else reference.propagate
        self.proven = narrow(puzzle, reference.unknown(puzzle))
        self.exact_root = not implications  # implication probing may prove more at the root
        self.core = _core.Search(puzzle.rows, puzzle.cols, probing, None, implications, order,
                                 nogoods=nogoods)
        self.nogoods = nogoods
        self.found: set[Grid] = set()
        self.found_before_restart: set[Grid] = set()
        self.done = False
        self.nodes = 0

    @precondition(lambda self: not self.done)
    @rule(budget=st.integers(1, 4))
    def step(self, budget: int) -> None:
        code = self.core.next(self.core.stats()["nodes"] + budget)
        if code == _core.SOLUTION:
            grid = _grid(self.puzzle, self.core.grid())
            assert grid in self.solutions and grid not in self.found
            self.found.add(grid)
        elif code == _core.EXHAUSTED:
            assert self.found == self.solutions
            self.done = True
        else:
            assert code == _core.LIMIT

    @precondition(lambda self: self.done)
    @rule()
    def step_past_the_end(self) -> None:
        """An exhausted search stays exhausted."""
        assert self.core.next() == _core.EXHAUSTED

    @precondition(lambda self: not self.done and self.nogoods)
    @rule(seed=st.integers(0, 2**20))
    def restart(self, seed: int) -> None:
        """Back to the root with the nogoods of the path searched: still one search. (There
        is nothing to go back to before the root is done: restart says so.)"""
        started = bool(self.core.stats()["root_complete"])
        assert self.core.restart(seed) == started
        if started:
            self.exact_root = False  # the nogoods may prove more at the root
            self.found_before_restart = set(self.found)

    @invariant()
    def nodes_only_grow(self) -> None:
        nodes = self.core.stats()["nodes"]
        assert nodes >= self.nodes
        self.nodes = nodes

    @invariant()
    def the_root_holds_what_is_proven(self) -> None:
        if not self.core.stats()["root_complete"]:
            return
        root = _grid(self.puzzle, self.core.root())
        assert _agrees(root, self.solutions - self.found_before_restart)
        if self.proven is None:
            assert not self.solutions
        elif self.exact_root:
            assert root == self.proven
        else:
            assert _at_least(root, self.proven)


SearchAgainstReference.TestCase.settings = settings(max_examples=40, stateful_step_count=20,
                                                    deadline=None)
TestSearchAgainstReference = SearchAgainstReference.TestCase
