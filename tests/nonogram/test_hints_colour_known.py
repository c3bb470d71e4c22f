"""Colour hints with several solutions: set cells no solution fits are a mistake, found by a
search with them fixed (SAT with python-sat, else the colour engine's known cells), as for
black and white; checked against every solution by the plain-Python reference's row-by-row
search (``colour_solutions_by_rows``)."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from gridsolve.nonogram.hints import hint
from gridsolve.nonogram.model import WHITE, Colour, Grid, colour_puzzle_from_grid
from tests.nonogram.oracle import colour_solutions_by_rows

PALETTE = (WHITE, Colour("red", (255, 0, 0), "r"), Colour("green", (0, 160, 0), "g"))


def agreeing(grid: Grid, solutions: Iterable[Grid]) -> list[Grid]:
    """The solutions that agree with every set cell of the position."""
    return [s for s in solutions
            if not any(x not in ("?", y) for x, y in zip("".join(grid), "".join(s)))]


def searcher(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """SAT (skipped without python-sat), or the native engine as when python-sat is missing."""
    from gridsolve.errors import SolverUnavailable
    from gridsolve.nonogram.backends import sat
    if name == "sat":
        pytest.importorskip("pysat")
        return

    def missing() -> None:
        raise SolverUnavailable("python-sat", "sat")
    monkeypatch.setattr(sat, "require", missing)
    monkeypatch.setattr(sat, "analyse", None)  # not called


@pytest.mark.parametrize("name", ["sat", "native"])
def test_a_colour_position_no_solution_fits_is_a_mistake(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Four solutions, two cells set that no solution has together, and line logic from them
    reaches no dead end (a random search found it: the hint was a line step before the colour
    engine took known cells)."""
    searcher(name, monkeypatch)
    puzzle = colour_puzzle_from_grid(("...rr.", "r.r..r", ".r..g.", "r.r..g", ".rr..g",
                                      "......", "rg.rgg"), PALETTE)
    solutions = colour_solutions_by_rows(puzzle)
    assert len(solutions) == 4
    grid: Grid = ("???.??", "??????", "??????", "??????", "????.?", "??????", "??????")
    assert not agreeing(grid, solutions)
    step = hint(puzzle, grid)
    assert step.kind == "mistake" and "fit none of the puzzle's solutions" in step.reason
    assert step.wrong == ()  # (several solutions: no cell is named)
    fits = ("???.??", "??????", "??????", "??????", "??????", "??????", "??????")
    assert agreeing(fits, solutions) and hint(puzzle, fits).kind != "mistake"


#: Positions no solution fits from which line logic reaches no dead end, with their puzzles'
#: pictures (found by a random search: about 1 in 5,000 positions of 5x5 to 7x7 puzzles).
NO_FIT = [
    (("....gr", "g.gg.g", "....r.", "rr....", "..gr..", ".g.r.g", "r.rgg."),
     ("?..???", "??????", "????.?", "??????", "??????", "??????", "r???g?")),
    ((".....g", ".g.g..", "g.g.r.", "r..r..", "r...g.", ".....g", "..gg.r"),
     ("??????", "?????g", "??????", "??????", "??????", "??????", "?g????")),
    ((".r....", "r..r..", ".rr...", ".....g", "...r..", "..r.rg", ".rrgg."),
     ("??????", "??r???", "??????", "??????", "??.???", "??????", "??r???")),
    (("...ggr.", "....r..", "r...r.r", "...g.g.", "..rr.gg", ".rg.r.g"),
     ("???????", "..?????", "???????", "???????", "??.????", "??????.")),
]


@pytest.mark.heavy
@pytest.mark.parametrize("name", ["sat", "native"])
@pytest.mark.parametrize("picture,grid", NO_FIT, ids=[str(i) for i in range(len(NO_FIT))])
def test_more_positions_no_solution_fits_are_mistakes(
        name: str, picture: Grid, grid: Grid, monkeypatch: pytest.MonkeyPatch) -> None:
    searcher(name, monkeypatch)
    puzzle = colour_puzzle_from_grid(picture, PALETTE)
    solutions = colour_solutions_by_rows(puzzle)
    assert len(solutions) > 1 and not agreeing(grid, solutions)
    step = hint(puzzle, grid)
    assert step.kind == "mistake" and "fit none of the puzzle's solutions" in step.reason


@pytest.mark.heavy
@pytest.mark.parametrize("name", ["sat", "native"])
def test_colour_positions_are_mistakes_exactly_when_no_solution_fits(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Random small colour puzzles of several solutions and random positions: a mistake is
    claimed when, and only when, no solution agrees with the cells set."""
    searcher(name, monkeypatch)
    rng = random.Random(13)
    checked = mistakes = 0
    while checked < 60:
        w, h = rng.randint(4, 6), rng.randint(4, 6)
        picture = tuple("".join(rng.choice("rg") if rng.random() < 0.4 else "."
                                for _ in range(w)) for _ in range(h))
        puzzle = colour_puzzle_from_grid(picture, PALETTE)
        solutions = colour_solutions_by_rows(puzzle)
        if len(solutions) < 2:
            continue
        for _ in range(4):
            cells = ["?"] * (w * h)
            source = "".join(rng.choice(sorted(solutions)))
            for c in rng.sample(range(w * h), rng.randint(2, 5)):
                cells[c] = source[c] if rng.random() < 0.7 else rng.choice(".rg")
            grid = tuple("".join(cells[i:i + w]) for i in range(0, w * h, w))
            mistake = hint(puzzle, grid).kind == "mistake"
            assert mistake == (not agreeing(grid, solutions)), (picture, grid)
            mistakes += mistake
            checked += 1
    assert 0 < mistakes < checked
