"""hint: every step is forced (brute force), named by the line and clue that force it, simplest
kind first; mistakes are found and named; positions are read from text and JSON."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from pathlib import Path

import pytest

from gridsolve.nonogram.engine import Result, SearchLimits, analyse
from gridsolve.nonogram.watch.explain import AGREE
from gridsolve.nonogram.formats import bw_only, read_puzzle
from gridsolve.nonogram.generate import random_grid
from gridsolve.nonogram.hints import Hint, HintKind, apply_hint, count_fits, hint
from gridsolve.nonogram.lines import cell_label, clue_text, line_cells, line_clue, line_label
from gridsolve.nonogram.model import Grid, Puzzle, puzzle_from_grid
from gridsolve.nonogram.reference import arrangements, brute_force_line, fits

from tests.nonogram.cases import bw_clue, slow_long_row
from tests.nonogram.oracle import all_solutions

EXAMPLES = Path(__file__).resolve().parents[2] / "src" / "gridsolve" / "examples"


def blank(puzzle: Puzzle) -> Grid:
    return tuple("?" * puzzle.width for _ in range(puzzle.height))


def line_of(puzzle: Puzzle, grid: Grid, i: int) -> str:
    flat = "".join(grid)
    return "".join(flat[c] for c in line_cells(puzzle, i))


def line_stuck(puzzle: Puzzle, grid: Grid) -> bool:
    """Does brute force on every line leave the position as it is?"""
    return all(brute_force_line(line_clue(puzzle, i), line_of(puzzle, grid, i))
               == line_of(puzzle, grid, i) for i in range(puzzle.width + puzzle.height))


def propagate(puzzle: Puzzle, grid: Grid) -> tuple[Grid, int | None]:
    """Brute-force line logic to its fixpoint: the grid, and the first line that cannot fit."""
    cells = list("".join(grid))
    changed = True
    while changed:
        changed = False
        for i in range(puzzle.width + puzzle.height):
            where = line_cells(puzzle, i)
            before = "".join(cells[c] for c in where)
            after = brute_force_line(line_clue(puzzle, i), before)
            if after is None:
                return grid, i
            for c, a, b in zip(where, before, after):
                if a != b:
                    cells[c], changed = b, True
    w = puzzle.width
    return tuple("".join(cells[i:i + w]) for i in range(0, len(cells), w)), None


def refutable(puzzle: Puzzle, grid: Grid) -> bool:
    """Can some single assumed cell be refuted by line logic (brute force)?"""
    flat = "".join(grid)
    for c, x in enumerate(flat):
        if x != "?":
            continue
        for v in "#.":
            trial = apply_hint(grid, Hint("line", "", ((c, v),)))
            if propagate(puzzle, trial)[1] is not None:
                return True
    return False


def check_step(puzzle: Puzzle, grid: Grid, step: Hint, solutions: set[Grid]) -> None:
    """The step sets unknown cells to the value every solution agreeing with the position
    has, names its line and clue, and is of the simplest kind that works."""
    flat = "".join(grid)
    agreeing = [s for s in solutions if all(x in ("?", y) for x, y in zip(flat, "".join(s)))]
    assert agreeing, "the position was already wrong"
    assert step.cells
    for c, v in step.cells:
        assert flat[c] == "?"
        values = {"".join(s)[c] for s in agreeing}
        assert v in values if step.kind == "guess" else values == {v}, (step, c)
    if step.kind in ("line", "whole-line", "contradiction"):
        assert f"{line_label(puzzle, step.line)} (clue {clue_text(bw_clue(step.clue))})" in step.reason
        assert step.clue == line_clue(puzzle, step.line)
    if step.kind in ("line", "whole-line"):
        before = line_of(puzzle, grid, step.line)
        truth = brute_force_line(bw_clue(step.clue), before)
        where = line_cells(puzzle, step.line)
        for c, v in step.cells:
            assert truth[where.index(c)] == v  # type: ignore[index]
        simple = [f.reason != AGREE for f in step.forced]
        assert all(simple) if step.kind == "line" else not any(simple)
    else:
        assert line_stuck(puzzle, grid), "a line step was possible"
    if step.kind == "contradiction":
        (cell, value), = step.cells
        assert step.probe == (cell, "#" if value == "." else ".")
        assert f"if {cell_label(puzzle, cell)} were" in step.reason
        trial = apply_hint(grid, Hint("line", "", (step.probe,)))
        assert propagate(puzzle, trial)[1] is not None
    if step.kind == "guess":
        assert not refutable(puzzle, grid), "a contradiction was possible"


def play(puzzle: Puzzle, solutions: set[Grid] | None = None) -> list[HintKind]:
    """Follow hints from the empty board to the end, checking each; the kinds used."""
    solutions = all_solutions(puzzle) if solutions is None else solutions
    grid, kinds = blank(puzzle), []
    for _ in range(puzzle.width * puzzle.height + 1):
        step = hint(puzzle, grid)
        kinds.append(step.kind)
        if step.kind == "solved":
            assert grid in solutions
            return kinds
        check_step(puzzle, grid, step, solutions)
        grid = apply_hint(grid, step)
    raise AssertionError("the hints did not finish the puzzle")


@pytest.mark.parametrize("name", ["heart", "house"])
def test_examples_play_to_the_end_by_line_steps(name: str) -> None:
    puzzle = bw_only(read_puzzle(str(EXAMPLES / f"{name}.txt")), "these tests")
    solution = analyse(puzzle).solutions[0]
    kinds = play(puzzle, {solution})
    assert set(kinds) == {"line", "solved"}


def test_random_small_puzzles_every_step_forced_by_brute_force() -> None:
    """Small random puzzles, unique or not: each step is forced in every solution that agrees
    with the position, and each kind is used only when the simpler ones do not work."""
    rng = random.Random(5)
    seen: set[str] = set()
    for _ in range(40):
        w, h = rng.randint(3, 6), rng.randint(3, 6)
        puzzle = puzzle_from_grid(random_grid(w, h, rng.uniform(0.3, 0.7), rng))
        seen.update(play(puzzle))
    assert {"line", "guess", "solved"} <= seen


def test_contradictions_in_a_puzzle_with_several_solutions() -> None:
    puzzle = puzzle_from_grid(["..#....", ".#.#.#.", "##.....", ".......", "##....#", "....#.."])
    kinds = play(puzzle)
    assert len(all_solutions(puzzle)) > 1
    assert {"contradiction", "guess"} <= set(kinds)


def test_probe_puzzle_needs_a_contradiction_and_words_it() -> None:
    puzzle = puzzle_from_grid(random_grid(10, 10, 0.5, random.Random(26)))
    solution = analyse(puzzle).solutions[0]
    kinds = play(puzzle, {solution})
    assert "contradiction" in kinds and "guess" not in kinds


def test_whole_line_step_counts_the_arrangements() -> None:
    puzzle = puzzle_from_grid(["..###.#", "#......", "...##..", ".#..##."])
    grid = ("??#?#??", "??.?.??", "...?#?.", "??.?#?.")
    step = hint(puzzle, grid)
    check_step(puzzle, grid, step, all_solutions(puzzle))
    assert step.kind == "whole-line" and step.cells == ((5, "."),)
    assert step.reason == (
        "row 1 (clue 3 1): column 6 is empty: working through the whole line from both ends, "
        "all 2 ways to place the clue that fit the cells already known leave it empty")


def test_count_fits_matches_enumeration() -> None:
    found = []
    rng = random.Random(1)
    for _ in range(200):
        w = rng.randint(6, 12)
        clue = tuple(rng.randint(1, 3) for _ in range(rng.randint(0, 3)))
        if sum(clue) + len(clue) - 1 > w:
            continue
        line = "".join(rng.choice("??#.") for _ in range(w))
        brute = sum(fits(a, line) for a in arrangements(clue, w))
        assert count_fits(clue, line) == brute, (clue, line)
        found.append(brute)
    assert max(found) > 1 and 0 in found


def test_a_wrong_cell_is_a_mistake_and_named() -> None:
    puzzle = bw_only(read_puzzle(str(EXAMPLES / "heart.txt")), "these tests")
    solution = analyse(puzzle).solutions[0]
    rng = random.Random(2)
    for _ in range(20):
        cells = list("".join(solution))
        shown = rng.sample(range(len(cells)), 30)
        wrong = set(rng.sample(shown, rng.randint(1, 3)))
        pos = ["?"] * len(cells)
        for c in shown:
            pos[c] = ("." if cells[c] == "#" else "#") if c in wrong else cells[c]
        grid = tuple("".join(pos[i:i + 9]) for i in range(0, len(pos), 9))
        step = hint(puzzle, grid)
        assert step.kind == "mistake" and not step.cells
        assert set(step.wrong) == wrong
        assert f"{len(wrong)} of the cells set" in step.reason


def test_a_line_that_cannot_fit_is_named() -> None:
    puzzle = bw_only(read_puzzle(str(EXAMPLES / "heart.txt")), "these tests")
    grid = ("?" * 9, "####.###.") + ("?" * 9,) * 6
    step = hint(puzzle, grid)
    assert step.kind == "mistake" and step.line == 1
    assert "row 2 (clue 4 4) cannot fit" in step.reason
    assert step.wrong == (17,)


def test_solved_and_no_solution() -> None:
    puzzle = bw_only(read_puzzle(str(EXAMPLES / "heart.txt")), "these tests")
    assert hint(puzzle, analyse(puzzle).solutions[0]).kind == "solved"
    step = hint(Puzzle([[], [], [2]], [[], [], [2]]))
    assert step.kind == "no-solution" and "no solution" in step.reason
    assert hint(Puzzle([[1], [1]], [[2], []]), ("#.", "#.")).kind == "solved"
    crossed = Puzzle([[1], [1]], [[1], [1]])
    assert hint(crossed, ("##", "..")).kind == "mistake"


def test_multiple_solutions_guess_shows_a_cell_of_a_solution() -> None:
    puzzle = Puzzle([[1], [1]], [[1], [1]])
    step = hint(puzzle)
    assert step.kind == "guess" and len(step.cells) == 1
    assert "needs a guess" in step.reason


def test_brute_force_helpers_agree_with_themselves() -> None:
    """The oracle's line logic: the blank 2x2 with clues 1/1 is stuck, nothing refutable."""
    puzzle = Puzzle([[1], [1]], [[1], [1]])
    assert line_stuck(puzzle, blank(puzzle)) and not refutable(puzzle, blank(puzzle))
    assert len(list(itertools.islice(all_solutions(puzzle), 3))) == 2


def test_public_api_gives_the_same_step() -> None:
    import gridsolve.nonogram

    puzzle = bw_only(read_puzzle(str(EXAMPLES / "house.txt")), "these tests")
    grid = ("x" * puzzle.width,) + blank(puzzle)[1:]
    assert gridsolve.nonogram.hint(puzzle, grid) == hint(puzzle, grid)
    assert gridsolve.nonogram.hint(puzzle, grid).kind in ("line", "mistake")


def test_the_clock_and_the_budget_stop_the_search_for_a_contradiction() -> None:
    import time

    from gridsolve.nonogram.hints import _contradiction, _Position

    puzzle = puzzle_from_grid(random_grid(10, 10, 0.5, random.Random(26)))
    grid = blank(puzzle)
    while (step := hint(puzzle, grid)).kind == "line":
        grid = apply_hint(grid, step)
    assert step.kind == "contradiction"
    pos = _Position(puzzle, grid)
    found, late = _contradiction(pos, None, 10**6)
    assert found is not None and found.kind == "contradiction" and not late
    assert _contradiction(pos, None, 10**6, time.perf_counter() - 1) == (None, True)
    assert _contradiction(pos, None, 1) == (None, False)


def test_a_hint_whose_time_ran_out_does_not_say_no_contradiction_exists(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock stopping the probes is not "no short contradiction": the guess says which
    (found by a fuzz audit: a 200x200 puzzle's solve took the whole timeout, and the hint
    claimed no short contradiction while one probe settles a cell). The solve may take
    SOLVE_SHARE of the timeout, the probes the rest."""
    import gridsolve.nonogram.hints as hints_module

    puzzle = puzzle_from_grid(random_grid(10, 10, 0.5, random.Random(26)))
    grid = blank(puzzle)
    while (step := hint(puzzle, grid)).kind == "line":
        grid = apply_hint(grid, step)
    assert step.kind == "contradiction"
    seen: list[float | None] = []
    solve = hints_module._solve

    def solve_then_late(p: Puzzle, limits: SearchLimits) -> Result:
        seen.append(limits.timeout)
        return solve(p, limits)
    monkeypatch.setattr(hints_module, "_solve", solve_then_late)
    assert hint(puzzle, grid, limits=SearchLimits(timeout=10.0)).kind == "contradiction"
    assert seen == [10.0 * hints_module.SOLVE_SHARE]
    late = hint(puzzle, grid, limits=SearchLimits(timeout=1e-9))
    assert late.kind == "guess" and "the time limit came before" in late.reason
    assert "no short contradiction" not in late.reason


@pytest.mark.parametrize("density", [0.5, 0.8])
def test_the_line_step_is_the_same_when_it_stops_looking_early(density: float) -> None:
    """The line step works out reasons for the lines that change most cells first and stops
    when no line left can settle more by a named rule: the step is the one the look at every
    line gives (by the rule: most cells by a named rule, then the lowest line; else the
    whole-line step that settles most)."""
    from gridsolve.nonogram.hints import _line_step, _Position
    from gridsolve.nonogram.watch.explain import line_reasons
    from gridsolve.nonogram.engine import solve_line as fast_line

    rng = random.Random(int(density * 100))
    for _ in range(60):
        h, w = rng.randint(3, 25), rng.randint(3, 25)
        solution = random_grid(w, h, density, rng)
        puzzle = puzzle_from_grid(solution)
        keep = rng.random()
        grid = tuple("".join(c if rng.random() < keep else "?" for c in row) for row in solution)
        pos = _Position(puzzle, grid)
        named: list[tuple[int, int]] = []
        whole: list[tuple[int, int]] = []
        for i in range(h + w):
            before = line_of(puzzle, grid, i)
            after = fast_line(line_clue(puzzle, i), before)
            if "?" not in before or after is None or after == before:
                continue
            forced = line_reasons(line_clue(puzzle, i), before, after)
            simple = [f for f in forced if f.reason != AGREE]
            (named if simple else whole).append((-len(simple or forced), i))
        step, late = _line_step(pos)
        assert late == ""
        if named or whole:
            assert step is not None and step.kind == ("line" if named else "whole-line")
            assert step.line == min(named or whole)[1]
        else:
            assert step is None


def test_the_line_step_watches_the_clock() -> None:
    """Past the deadline the look at the lines stops: with no line looked at, it says so."""
    import time

    from gridsolve.nonogram.hints import LATE, _line_step, _Position

    puzzle = puzzle_from_grid(random_grid(30, 30, 0.8, random.Random(3)))
    pos = _Position(puzzle, blank(puzzle))
    assert _line_step(pos, time.perf_counter() - 1) == (None, "lines")
    step, late = _line_step(pos)
    assert step is not None and step.kind == "line" and late == ""
    stopped = hint(puzzle, limits=SearchLimits(timeout=1e-9))
    assert stopped.kind == "guess" and stopped.reason.startswith(LATE["lines"])


def test_a_dead_end_in_a_puzzle_with_several_solutions_is_a_mistake() -> None:
    """Two solutions, and a position that agrees with neither: line logic finds it."""
    puzzle = puzzle_from_grid(["..#....", ".#.#.#.", "##.....", ".......", "##....#", "....#.."])
    solutions = all_solutions(puzzle)
    assert len(solutions) > 1
    rng = random.Random(3)
    dead = 0
    for _ in range(60):
        grid = _random_position(rng, 7, 6, 6)
        agreeing = _agreeing(grid, solutions)
        step = hint(puzzle, grid)
        if step.kind == "mistake":
            assert not agreeing  # a mistake is never claimed for a position that can be right
            dead += step.line >= 0 and "cannot all be right" in step.reason
        elif step.kind != "solved":
            assert agreeing, "line logic missed a dead end here"
            check_step(puzzle, grid, step, solutions)
    assert dead > 0


def _random_position(rng: random.Random, width: int, height: int, marks: int) -> Grid:
    """A position with ``marks`` cells set at random."""
    cells = ["?"] * (width * height)
    for c in rng.sample(range(width * height), marks):
        cells[c] = rng.choice("#.")
    return tuple("".join(cells[i:i + width]) for i in range(0, width * height, width))


def _agreeing(grid: Grid, solutions: Iterable[Grid]) -> list[Grid]:
    """The solutions that agree with every set cell of the position."""
    return [s for s in solutions
            if not any(x not in ("?", y) for x, y in zip("".join(grid), "".join(s)))]


@pytest.mark.heavy
@pytest.mark.parametrize("searcher", ["sat", "native"])
def test_a_position_no_solution_fits_is_a_mistake_with_several_solutions(
        searcher: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With several solutions, set cells that fit none of them are a mistake even when line
    logic from them reaches no dead end (found by a fuzz audit: this 11x9 puzzle and position
    gave a line step); a search with the cells fixed decides, SAT with python-sat and the
    native engine without it (it said nothing then), against every solution (the native
    engine's count here, all_solutions on the 6x6 ones)."""
    from gridsolve.errors import SolverUnavailable
    from gridsolve.nonogram.backends import sat
    if searcher == "sat":
        pytest.importorskip("pysat")
    else:
        def missing() -> None:
            raise SolverUnavailable("python-sat", "sat")
        monkeypatch.setattr(sat, "require", missing)
        monkeypatch.setattr(sat, "analyse", None)  # not called
    rows = [(1, 1, 2), (1, 1, 1), (1, 3), (1, 1, 1, 1), (3,), (1, 1), (1,), (1, 1, 1), (1, 3),
            (1, 2, 1), (1, 3)]
    cols = [(1, 1, 1, 1, 1), (1, 1), (1, 3, 2), (1, 1, 2), (2, 1, 2), (1, 1, 1), (3, 1, 1),
            (1, 1, 1, 1), (1, 1)]
    puzzle = Puzzle(rows, cols)
    counted = analyse(puzzle, 1000)                  # the native engine: every solution
    assert counted.exhausted and len(counted.solutions) == 82
    grid: Grid = ("????#????", "?.???????", "?????????", "?????????", ".????????",
                  "#???#???.", "?????????", "?????????", "?????????", "?????????", ".???.????")
    assert not _agreeing(grid, counted.solutions)
    step = hint(puzzle, grid)
    assert step.kind == "mistake" and "fit none of the puzzle's solutions" in step.reason
    rng = random.Random(11)
    checked = 0
    while checked < 40:
        puzzle = puzzle_from_grid(random_grid(6, 6, 0.5, rng))
        solutions = all_solutions(puzzle)
        if len(solutions) < 2:
            continue
        grid = _random_position(rng, 6, 6, 8)
        assert (hint(puzzle, grid).kind == "mistake") == (not _agreeing(grid, solutions))
        checked += 1


def test_a_step_after_a_stopped_solve_says_it_did_not_check_for_mistakes() -> None:
    """When the solve that names wrong cells stops at its limit, a line step is still sound
    from the cells set, but it says they were not checked (found by a fuzz audit: /hint gave
    a plain step from a position with a wrong cell); check_position raises LimitReached."""
    import random

    from gridsolve.errors import LimitReached
    from gridsolve.nonogram.engine import SearchLimits
    from gridsolve.nonogram.hints import UNCHECKED, check_position, hint
    from gridsolve.nonogram.model import puzzle_from_grid
    rng = random.Random(7)
    puzzle = puzzle_from_grid(tuple("".join(rng.choice("#.") for _ in range(40))
                                    for _ in range(40)))
    wrong = ["." + "?" * 39] + ["?" * 40] * 39
    tiny = SearchLimits(max_nodes=1)  # the solve stops; the hint's steps have no clock
    step = hint(puzzle, wrong, limits=tiny)
    assert step.kind == "line" and step.reason.endswith(f"({UNCHECKED})")
    with pytest.raises(LimitReached):
        check_position(puzzle, wrong, limits=tiny)
    full = hint(puzzle, wrong, limits=SearchLimits(timeout=30))
    assert UNCHECKED not in full.reason


def test_the_line_check_of_a_position_watches_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each line with set cells is solved to find one they break (on a 1000x1000 position
    seconds of work): past the deadline the look stops, a step then says the cells were not
    all checked, and check_position raises LimitReached. With a unique solution the cells
    are compared with it instead: cells that agree with it break no line."""
    import time

    import gridsolve.nonogram.hints.verdict as verdict_module  # where _verdict looks it up
    from gridsolve.errors import LimitReached
    from gridsolve.nonogram.hints import UNCHECKED, _broken_line, _Position, check_position

    puzzle = puzzle_from_grid(random_grid(20, 20, 0.5, random.Random(11)))
    assert analyse(puzzle).status == "unique"
    half = tuple(row[:10] + "?" * 10 for row in analyse(puzzle).solutions[0])
    assert _broken_line(_Position(puzzle, half), time.perf_counter() - 1) == (None, False)
    assert _broken_line(_Position(puzzle, half)) == (None, True)
    several = Puzzle([[1], [1]], [[1], [1]])
    assert hint(several, ("#?", "??")).kind in ("line", "whole-line")

    monkeypatch.setattr(verdict_module, "_broken_line", lambda pos, until=None: (None, False))
    step = hint(several, ("#?", "??"))
    assert step.kind in ("line", "whole-line") and step.reason.endswith(f"({UNCHECKED})")
    with pytest.raises(LimitReached):
        check_position(several, ("#?", "??"))
    assert check_position(puzzle, half) is None  # compared with the solution: no line scan


@pytest.mark.heavy
def test_a_line_too_long_to_explain_or_to_solve_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Named rules and the count of ways take time and memory of cells times blocks in plain
    Python (a row of 30,000 cells with half of them set took minutes and 1.7 GB): past
    REASONS_MAX_WORK a line step gives each cell the whole-line reason, uncounted. A line
    whose compiled solve passes the time left stops there (a row of 100,000 cells, half of
    them set, takes 8-12 s)."""
    import time

    import gridsolve.nonogram.watch.deductions as deductions_module
    from gridsolve.nonogram.hints import _line_step, _Position

    puzzle = Puzzle([[3, 1]], [[1], [1], [1], [], [1]])
    row = ("?????",)
    explained = hint(puzzle, row)
    assert explained.kind == "line" and explained.line == 0
    monkeypatch.setattr(deductions_module, "REASONS_MAX_WORK", 0)
    uncounted = hint(puzzle, row)
    assert uncounted.kind == "whole-line" and uncounted.cells == explained.cells
    assert "every way to place the clue that fits the cells already known" in uncounted.reason
    assert _line_step(_Position(puzzle, row))[0] == uncounted
    # two rows of 100,000 cells, each other's inverse (every column has clue 1), set in
    # their left halves: each row's solve takes seconds, and no column can move
    clue, slow, full = slow_long_row()
    inverse = full.translate(str.maketrans("#.", ".#"))
    long = puzzle_from_grid((full, inverse))
    half = len(full) // 2
    rows = (slow, inverse[:half] + "?" * (len(full) - half))
    pos = _Position(long, rows)
    assert pos.cheap_first()[-2:] in ([0, 1], [1, 0])  # the rows, after every column
    started = time.perf_counter()
    assert _line_step(pos, started + 0.1) == (None, "lines")
    assert time.perf_counter() - started < 0.1 + 2.0
    # a column that can move is found before the rows' solves run out of time
    moved = _line_step(_Position(long, (rows[0][:-1] + full[-1], rows[1])),
                       time.perf_counter() + 2.0)[0]
    assert moved is not None and moved.line == long.height + len(full) - 1
