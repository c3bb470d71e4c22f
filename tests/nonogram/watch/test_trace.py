"""The trace replays the engine's search exactly: probes, guesses and backtracks included."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolve.nonogram.engine import analyse
from gridsolve.nonogram.lines import line_cells, line_clue
from gridsolve.nonogram.model import AnyPuzzle, Grid, Puzzle, puzzle_from_grid
from gridsolve.nonogram.reference import brute_force_line
from gridsolve.nonogram.watch.trace import Step, Trace, trace_solve


@st.composite
def pictures(draw: st.DrawFn, max_side: int = 9) -> Grid:
    """A random black-and-white picture (its puzzle may have several solutions)."""
    w = draw(st.integers(2, max_side))
    h = draw(st.integers(2, max_side))
    density = draw(st.sampled_from([0.3, 0.5, 0.6]))
    bits = draw(st.lists(st.floats(0, 1), min_size=w * h, max_size=w * h))
    return tuple("".join("#" if bits[r * w + c] < density else "." for c in range(w))
                 for r in range(h))


def replayed(puzzle: AnyPuzzle, trace: Trace) -> tuple[list[Grid], Grid | None]:
    """The grids of the trace's solution steps, and its root: the grid before the first guess
    (or the first solution, found without one); None if there was neither."""
    solutions: list[Grid] = []
    before: Grid = ("?" * puzzle.width,) * puzzle.height
    root: Grid | None = None
    for step, grid in trace.grids():
        if step.kind == "solution":
            solutions.append(grid)
        if root is None and step.kind in ("guess", "solution"):
            root = before if step.kind == "guess" else grid
        before = grid
    return solutions, root


def check_replay(puzzle: Puzzle, trace: Trace, probing: bool = True, max_solutions: int = 3) -> None:
    """Every solution step shows the solver's solution; the root grid is the solver's partial."""
    # a watched solve is one search with single-cell probing
    result = analyse(puzzle, max_solutions, probing=probing, implications=False, team=False)
    solutions, root = replayed(puzzle, trace)
    assert tuple(solutions) == result.solutions
    assert (root or trace.final()) == result.partial
    if len(result.solutions) == max_solutions:
        assert trace.final() == result.solutions[-1]
    else:  # the search was exhausted: every guess has been undone
        assert trace.final() == result.partial


@settings(max_examples=60, deadline=None)
@given(pictures())
def test_trace_replays_to_the_solver_grids(grid: Grid) -> None:
    puzzle = puzzle_from_grid(grid)
    for probing in (True, False):
        _, trace = trace_solve(puzzle, 3, probing=probing)
        check_replay(puzzle, trace, probing, 3)


@settings(max_examples=60, deadline=None)
@given(pictures())
def test_each_line_step_sets_what_the_line_forces(grid: Grid) -> None:
    """A line step's cells and values (the engine reports them; the trace no longer solves
    the line again) are exactly what every arrangement of the line's clue that fits the
    replayed grid agrees on (brute force)."""
    puzzle = puzzle_from_grid(grid)
    for probing in (True, False):
        _, trace = trace_solve(puzzle, 3, probing=probing)
        cells = ["?"] * (puzzle.width * puzzle.height)
        lines = 0
        for step in trace.steps:
            if step.kind == "line":
                where = line_cells(puzzle, step.line)
                before = "".join(cells[i] for i in where)
                forced = brute_force_line(line_clue(puzzle, step.line), before)
                assert forced is not None
                expected = {where[i]: forced[i] for i in range(len(where))
                            if forced[i] != before[i]}
                assert dict(step.changes) == expected
                lines += 1
            for cell, value in step.changes:
                cells[cell] = value
        assert lines > 0


@settings(max_examples=30, deadline=None)
@given(pictures(7))
def test_one_solution_run_ends_on_the_solution(grid: Grid) -> None:
    puzzle = puzzle_from_grid(grid)
    result, trace = trace_solve(puzzle, 1, probing=False)
    assert trace.final() == result.solutions[0]
    assert trace.steps[-1].kind == "solution"


def test_a_puzzle_that_needs_guessing_has_guesses_and_backtracks() -> None:
    grid = ("#..", ".#.", "..#")  # a permutation matrix: six solutions
    result, trace = trace_solve(puzzle_from_grid(grid), 10)
    kinds = {s.kind for s in trace.steps}
    assert {"try", "retract", "guess", "backtrack", "solution"} <= kinds
    assert len(result.solutions) == 6
    assert trace.final() == result.partial == ("???",) * 3


def test_probing_steps_are_undone_and_marked() -> None:
    grid = ("##.#", "#..#", ".##.", "#.##")
    puzzle = puzzle_from_grid(grid)
    _, trace = trace_solve(puzzle, 2)
    inside = False
    for step in trace.steps:
        if step.kind == "try":
            inside = True
        elif step.kind == "retract":
            inside = False
        elif step.kind == "line":
            assert step.probing == inside


def test_rounds_count_up_within_a_propagation() -> None:
    grid = ("#####", "#...#", "#.#.#", "#...#", "#####")
    _, trace = trace_solve(puzzle_from_grid(grid), 2)
    rounds = [s.round for s in trace.steps if s.kind == "line" and not s.probing and s.depth == 0]
    assert rounds[0] == 1 and rounds == sorted(rounds)


def test_max_steps_and_listener() -> None:
    seen: list[Step] = []
    _, trace = trace_solve(puzzle_from_grid(("#..", ".#.", "..#")), 10, max_steps=5,
                           listener=seen.append)
    assert len(trace.steps) == 5 and not trace.complete
    assert len(seen) > 5 and seen[:5] == trace.steps
