"""Implication probing in the colour engine (``_colour.Search(implications=True)``; decision
0039): the probes' results as implications "cell = colour implies cell' in a mask", their
contrapositives applied while every open cell's colours are assumed again, at the root and
the first two levels of guesses. It must learn only what every solution agrees with, and the
search must still find every solution once."""

from __future__ import annotations

from array import array

import gridsolve.nonogram.engine._colour as _colour
from gridsolve.nonogram.model import ColourPuzzle
from tests.nonogram.engine.test_colour_dive import every_solution, random_puzzle
from tests.nonogram.oracle import all_colour_solutions

#: Seeded 11x11 to 14x14 pictures of 1-2 colours at 50-60% background where implication
#: probing removes colours plain probing keeps (found by search over seeds 0-800).
LEARNS = (69, 144, 172, 384, 418, 634, 739, 759)


def seeded(seed: int) -> ColourPuzzle:
    return random_puzzle(seed, 8 + seed % 7, 1 + seed % 3, 0.4 + 0.05 * (seed % 5))


def search(puzzle: ColourPuzzle, implications: bool) -> _colour.Search:
    return _colour.Search(puzzle.rows, puzzle.cols, len(puzzle.palette),
                          implications=implications)


def root(core: _colour.Search) -> tuple[int, ...]:
    core.next(1)  # the root settles before the first node
    return tuple(array("I", core.root_masks()))


def test_it_learns_beyond_probing_and_only_what_holds() -> None:
    """On each puzzle the root is narrower than plain probing's, and every solution (the plain
    search's, exhaustive) keeps its colours inside it: what was learned holds."""
    for seed in LEARNS:
        puzzle = seeded(seed)
        implied, plain = search(puzzle, True), search(puzzle, False)
        narrow, wide = root(implied), root(plain)
        assert implied.stats()["implied_fixes"] > 0, seed
        assert narrow != wide and all(n & w == n for n, w in zip(narrow, wide)), seed
        for grid in every_solution(search(puzzle, False), puzzle):
            cells = [puzzle.colour_index(ch) for row in grid for ch in row]
            assert all(m >> c & 1 for m, c in zip(narrow, cells)), seed


def test_it_finds_every_solution_once() -> None:
    """The whole search with implication probing finds the plain search's solutions, each
    once (32 to 972 of them here, colours removed at the root and below it)."""
    for seed in LEARNS:
        puzzle = seeded(seed)
        implied = search(puzzle, True)
        found = every_solution(implied, puzzle)
        assert len(found) == len(set(found)), seed
        assert set(found) == set(every_solution(search(puzzle, False), puzzle)), seed


def test_it_counts_as_brute_force_on_tiny_puzzles() -> None:
    """Brute force's solutions, each once, on 60 tiny puzzles of 1-3 colours."""
    for seed in range(60):
        puzzle = random_puzzle(seed, 4 + seed % 2, 1 + seed % 3, 0.3 + 0.1 * (seed % 4))
        found = every_solution(search(puzzle, True), puzzle)
        assert len(found) == len(set(found)), seed
        assert set(found) == all_colour_solutions(puzzle), seed


def test_it_holds_a_node_limit_and_is_off_by_default() -> None:
    puzzle = seeded(664)  # 32,710 solutions
    core = search(puzzle, True)
    while (code := core.next(50)) == _colour.SOLUTION:
        pass
    assert code == _colour.LIMIT and core.stats()["nodes"] <= 51
    plain = _colour.Search(puzzle.rows, puzzle.cols, len(puzzle.palette))
    plain.next(1)
    assert plain.stats()["implied_fixes"] == 0
