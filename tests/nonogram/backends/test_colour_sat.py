"""The SAT backend on colour puzzles: a second, independent method for the colour engine."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings

from gridsolve.nonogram.backends import analyse
from gridsolve.nonogram.engine import Result, SearchLimits
from gridsolve.nonogram.engine import colour as ce
from gridsolve.nonogram.formats import read_entry
from gridsolve.nonogram.model import ColourPuzzle, colour_puzzle_from_grid, is_colour_solution
from tests.nonogram.oracle import all_colour_solutions
from tests.nonogram.engine.test_colour_engine import (COLOUR_CORPUS, palette, permutations, random_grid,
                                               tiny_grids)

pytest.importorskip("pysat")
from gridsolve.nonogram.backends import sat  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(tiny_grids())
def test_sat_counts_equal_brute_force(case) -> None:  # type: ignore[no-untyped-def]
    grid, colours = case
    puzzle = colour_puzzle_from_grid(grid, palette(colours))
    result = sat.analyse(puzzle, 100_000)
    assert len(result.solutions) == len(set(result.solutions))
    assert set(result.solutions) == all_colour_solutions(puzzle)


def test_sat_agrees_with_the_colour_engine() -> None:
    """Medium random puzzles (8-14 cells a side, 2-4 colours): same status and solutions."""
    rng = random.Random(8)
    for _ in range(25):
        colours = rng.randint(2, 4)
        grid = random_grid(rng, rng.randint(8, 14), rng.randint(8, 14), colours, 0.5)
        puzzle = colour_puzzle_from_grid(grid, palette(colours))
        native = ce.analyse(puzzle, 20)
        cnf = analyse(puzzle, 20, method="sat")
        assert cnf.status == native.status
        assert set(cnf.solutions) == set(native.solutions) or len(native.solutions) == 20
        assert all(is_colour_solution(puzzle, s) for s in cnf.solutions)


def test_sat_on_colour_edges() -> None:
    none = ColourPuzzle([[(1, 1), (1, 2)], []], [[(1, 2)], [(1, 1)]], palette(2))
    assert sat.analyse(none).status == "none"
    assert sat.analyse(colour_puzzle_from_grid((".",), palette(1))).solutions == ((".",),)
    assert len(sat.analyse(permutations(6, 2), 100).solutions) == 36
    many = sat.analyse(permutations(8), 10**6, SearchLimits(max_nodes=3))
    assert many.status in ("multiple", "unknown")
    # CaDiCaL runs in a child process under a timeout: the colour CNF travels there too
    child = sat.analyse(permutations(12, 2), 10**9, SearchLimits(timeout=0.3),
                        solver="cadical195")
    assert child.status == "multiple" and child.seconds < 2.0
    assert all(is_colour_solution(permutations(12, 2), s) for s in child.solutions)


def test_sat_takes_known_colour_cells() -> None:
    puzzle = permutations(4, 2)
    known = ("a???", "?b??", "????", "????")
    found = set(sat.analyse(puzzle, 100, known=known).solutions)
    assert found == {s for s in ce.solve(puzzle) if s[0][0] == "a" and s[1][1] == "b"}
    assert found
    assert sat.analyse(puzzle, 100, known=("b???", "????", "????", "????")).status == "none"


def test_auto_hands_a_long_colour_search_to_sat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the native node budget (here one node), auto goes on with SAT, seeded with the
    native root grid, and finds what was asked for."""
    from gridsolve.nonogram.backends import auto
    monkeypatch.setattr(auto, "AUTO_NODES", 1)
    puzzle = permutations(10, 2)  # (5!)^2 = 14,400 solutions
    result = analyse(puzzle, 300, method="auto")
    assert result.stats.get("handover") == 1
    assert result.status == "multiple"
    assert len(set(result.solutions)) == 300
    assert all(is_colour_solution(puzzle, s) for s in result.solutions)
    assert analyse(permutations(4, 2), 100, method="auto").solutions  # small: native alone


def test_auto_colour_turn_is_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A colour puzzle's native turn is AUTO_SECONDS_COLOUR long, not AUTO_SECONDS (which
    would let the native engine count these 300 itself), in auto and in --jobs."""
    from gridsolve.nonogram.backends import auto, parallel
    monkeypatch.setattr(auto, "AUTO_NODES", 10**9)
    monkeypatch.setattr(auto, "AUTO_SECONDS", 1e9)
    monkeypatch.setattr(auto, "AUTO_SECONDS_COLOUR", 0.0)
    puzzle = permutations(10, 2)
    result = analyse(puzzle, 300, method="auto")
    assert result.stats.get("handover") == 1 and result.stats["native_nodes"] <= 1  # the root
    assert len(set(result.solutions)) == 300
    assert all(is_colour_solution(puzzle, s) for s in result.solutions)
    from gridsolve.nonogram import engine
    budgets: list[float | None] = []
    real = engine.analyse

    def spy(p: ColourPuzzle, n: int, limits: SearchLimits) -> Result:
        budgets.append(limits.timeout)
        return real(p, n, limits)

    monkeypatch.setattr(engine, "analyse", spy)
    assert len(set(parallel.analyse(puzzle, 300, jobs=2).solutions)) == 300
    assert budgets[0] == 0.0


@pytest.mark.parametrize("name", [n for n in COLOUR_CORPUS if "olsak" not in n or "viceres" in n])
def test_sat_on_small_corpus_puzzles(puzzles_dir: Path, name: str) -> None:
    """The small real colour puzzles (the Olšák ones take SAT ~0.1-0.8 s each: left out)."""
    puzzle = read_entry(str(puzzles_dir / name)).puzzle
    assert isinstance(puzzle, ColourPuzzle)
    assert set(sat.analyse(puzzle, 10).solutions) == set(ce.analyse(puzzle, 10).solutions)
