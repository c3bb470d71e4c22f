"""Watching the colour engine (issue 55): its events replay the search exactly (the trace's
solutions are the engine's, checked against the plain-Python reference's row-by-row search),
the steps before the first guess are sound, and an observer changes nothing of the search."""

from __future__ import annotations

import io
import random

import pytest

import gridsolve.nonogram.engine._colour as _colour
import gridsolve.nonogram.engine._core as _core
from gridsolve.nonogram.engine import abilities, analyse
from gridsolve.nonogram.lines import line_cells
from gridsolve.nonogram.model import WHITE, Colour, ColourPuzzle, colour_puzzle_from_grid
from gridsolve.nonogram.watch.steps import StepPrinter
from gridsolve.nonogram.watch.trace import Recorder, trace_solve
from tests.nonogram.oracle import colour_solutions_by_rows
from tests.nonogram.watch.test_trace import replayed

PALETTE = (WHITE, Colour("red", (255, 0, 0), "r"), Colour("green", (0, 160, 0), "g"),
           Colour("blue", (0, 0, 255), "b"))
#: Counted to at most this many solutions (more than any puzzle drawn here has).
MANY = 100_000


def random_puzzle(rng: random.Random, w: int, h: int, colours: int,
                  density: float = 0.5) -> ColourPuzzle:
    grid = tuple("".join(rng.choice("rgb"[:colours]) if rng.random() < density else "."
                         for _ in range(w)) for _ in range(h))
    return colour_puzzle_from_grid(grid, PALETTE[:colours + 1])


def test_the_colour_engine_is_watched_with_the_same_events() -> None:
    puzzle = colour_puzzle_from_grid(("r.", ".r"), PALETTE[:2])
    assert abilities(puzzle).watch
    for name in ("EV_LINE", "EV_PROBE", "EV_PROBE_FIX", "EV_GUESS", "EV_BACKTRACK",
                 "EV_SOLUTION", "EV_TRY"):
        assert getattr(_colour, name) == getattr(_core, name)


@pytest.mark.parametrize("probing", [True, False])
@pytest.mark.parametrize("seed", range(4))
def test_the_trace_replays_to_the_solutions(seed: int, probing: bool) -> None:
    """Every solution step shows the engine's solution (all of the reference's, in the
    engine's order), the grid before the first guess is the root the engine proved, and a
    search run to its end leaves the root again."""
    rng = random.Random(seed)
    for _ in range(6):
        puzzle = random_puzzle(rng, rng.randint(2, 5), rng.randint(2, 5), rng.randint(1, 3))
        expected = colour_solutions_by_rows(puzzle)
        result, trace = trace_solve(puzzle, MANY, probing=probing)
        plain = analyse(puzzle, MANY, probing=probing)
        assert result.solutions == plain.solutions and set(result.solutions) == expected
        assert result.stats == plain.stats  # the observer changes nothing
        solutions, root = replayed(puzzle, trace)
        assert tuple(solutions) == result.solutions
        assert (root or trace.final()) == result.partial
        assert trace.final() == result.partial  # exhausted: every guess undone


def test_steps_before_the_first_guess_are_sound() -> None:
    """Each cell a line step or a learned probe settles before the search branches has that
    colour in every solution, lies on the step's line, and was open before."""
    rng = random.Random(7)
    settled = 0
    for _ in range(20):
        puzzle = random_puzzle(rng, rng.randint(3, 5), rng.randint(3, 5), 3, density=0.6)
        solutions = ["".join(s) for s in colour_solutions_by_rows(puzzle)]
        _, trace = trace_solve(puzzle, MANY)
        cells = ["?"] * (puzzle.width * puzzle.height)
        for step in trace.steps:
            if step.kind == "guess":
                break
            if step.kind in ("line", "learn") and not step.probing:
                for cell, value in step.changes:
                    assert cells[cell] == "?"
                    assert all(s[cell] == value for s in solutions)
                    assert step.kind == "learn" or cell in line_cells(puzzle, step.line)
                    settled += 1
            for cell, value in step.changes:
                cells[cell] = value
    assert settled > 100


def test_a_branch_that_takes_a_colour_away_is_told() -> None:
    """The colour search's second branch ("cell != colour") may leave several colours (only
    when every open cell has three or more, as the search branches on a cell with fewest:
    no random puzzle tried reached it, so the events are given here): the step says which
    colour went, settles nothing, and --steps prints 'not <colour>'."""
    puzzle = colour_puzzle_from_grid(("rg", "gb"), PALETTE)
    out = io.StringIO()
    recorder = Recorder(puzzle, StepPrinter(puzzle, out, lambda grid: None))
    no = _colour.NOT_KNOWN
    for event in [(_colour.EV_GUESS, 0, 1, 1), (_colour.EV_BACKTRACK, 1, 0, 0),
                  (_colour.EV_GUESS, 0, no, 1), (_colour.EV_GUESS, 3, 3, 2),
                  (_colour.EV_BACKTRACK, 2, 0, 0), (_colour.EV_GUESS, 3, 2, 2)]:
        recorder(*event, ())
    guesses = [s for s in recorder.trace.steps if s.kind == "guess"]
    assert [(s.cell, s.value, s.excluded, s.changes) for s in guesses] == [
        (0, "r", "", ((0, "r"),)), (0, "?", "r", ()), (3, "b", "", ((3, "b"),)),
        (3, "g", "b", ((3, "g"),))]
    assert recorder.grid() == ("??", "?g")
    text = out.getvalue()
    assert "guess r1c1 = not red (depth 1)" in text
    assert "guess r2c2 = green (not blue) (depth 2)" in text


def test_a_failing_observer_stops_the_search() -> None:
    puzzle = colour_puzzle_from_grid(("r.r", ".g.", "b.b"), PALETTE)
    seen: list[int] = []

    def observer(kind: int, a: int, b: int, c: int, cells: tuple[int, ...]) -> None:
        seen.append(kind)
        if len(seen) == 3:
            raise RuntimeError("stop here")
    core = _colour.Search(puzzle.rows, puzzle.cols, 4, callback=observer)
    with pytest.raises(RuntimeError, match="stop here"):
        core.next()
    assert len(seen) == 3
    with pytest.raises(TypeError, match="callable"):
        _colour.Search(puzzle.rows, puzzle.cols, 4, callback=3)  # type: ignore[arg-type]
    watched = _colour.Search(puzzle.rows, puzzle.cols, 4, callback=lambda *a: None)
    with pytest.raises(ValueError, match="without a callback"):
        watched.fix(b"\x0f\x00\x00\x00" * 9)


def test_a_line_step_reports_each_cell_with_its_colour() -> None:
    """EV_LINE's cells are cell * 256 + palette index (255 while several are left)."""
    puzzle = colour_puzzle_from_grid(("rrg",), PALETTE[:3])
    events: list[tuple[int, int, int, int, tuple[int, ...]]] = []
    core = _colour.Search(puzzle.rows, puzzle.cols, 3, callback=lambda *e: events.append(e))
    assert core.next() == _colour.SOLUTION
    lines = [e for e in events if e[0] == _colour.EV_LINE]
    assert lines[0] == (_colour.EV_LINE, 0, 3, 0, (0 * 256 + 1, 1 * 256 + 1, 2 * 256 + 2))
    assert events[-1][0] == _colour.EV_SOLUTION
