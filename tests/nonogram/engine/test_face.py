"""The engine's one face: either kind of puzzle through the same functions, one engine each."""

from __future__ import annotations

import random

import pytest

from gridsolve.errors import GridsolveError
from gridsolve.nonogram import engine
from gridsolve.nonogram.backends import BACKENDS, METHODS, analyse
from gridsolve.nonogram.engine.constants import EV_SOLUTION
from gridsolve.nonogram.engine.cores import BLACK_AND_WHITE, COLOUR, engine_for
from gridsolve.nonogram.model import ColourPuzzle, Puzzle, as_colour, palette_of, puzzle_from_grid
from tests.nonogram.oracle import all_solutions


def _random_puzzle(seed: int, n: int = 5) -> Puzzle:
    rng = random.Random(seed)
    return puzzle_from_grid(["".join(rng.choice("#.") for _ in range(n)) for _ in range(n)])


def test_each_kind_of_puzzle_has_its_engine() -> None:
    bw = Puzzle([[1]], [[1]])
    assert engine_for(bw) is BLACK_AND_WHITE
    assert engine_for(as_colour(bw)) is COLOUR
    assert palette_of(bw) is None and palette_of(as_colour(bw)) == as_colour(bw).palette


@pytest.mark.parametrize("seed", range(12))
def test_both_engines_through_one_face_agree_with_brute_force(seed: int) -> None:
    """The same puzzle as black-and-white and as one-colour: same solutions, both exact."""
    bw = _random_puzzle(seed)
    expected = set(all_solutions(bw))
    colour = as_colour(bw)
    for puzzle in (bw, colour):
        assert set(engine.solve(puzzle)) == expected
        assert engine.count(puzzle) == len(expected)
        assert engine.unique(puzzle) == (len(expected) == 1)
        assert engine.first(puzzle) in expected
        result = engine.analyse(puzzle, 100)
        assert set(result.solutions) == expected
        assert result.status == ("unique" if len(expected) == 1 else "multiple")


def test_colour_engine_refuses_what_only_black_and_white_has() -> None:
    colour = as_colour(Puzzle([[1]], [[1]]))
    events: list[int] = []  # (watching: the colour engine reports its steps too, issue 55)
    engine.analyse(colour, on_event=lambda *event: events.append(event[0]))
    assert events[-1] == EV_SOLUTION
    with pytest.raises(GridsolveError, match="black-and-white puzzles only"):
        list(engine.solve(colour, restarts=True))


def test_backends_registry() -> None:
    assert METHODS == ("native", "sat", "ilp", "auto") == tuple(BACKENDS)
    assert all(Puzzle.kind in b.kinds for b in BACKENDS.values())
    assert [b.name for b in BACKENDS.values() if ColourPuzzle.kind not in b.kinds] == ["ilp"]
    colour = as_colour(Puzzle([[1]], [[1]]))
    with pytest.raises(GridsolveError, match=r"ilp backend solves black-and-white puzzles only "
                                             r"\(native, sat and auto solve colour too\)"):
        analyse(colour, method="ilp")
    with pytest.raises(ValueError, match="unknown method"):
        analyse(colour, method="nope")
    assert analyse(colour, method="native").solutions == (("#",),)
