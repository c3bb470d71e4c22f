"""explain: every claimed forced cell is right, and the steps in order reach the solution."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolve.errors import LimitReached
from gridsolve.nonogram.engine import analyse
from gridsolve.nonogram.watch.explain import explain, extremes, line_reasons
from gridsolve.nonogram.lines import line_cells, line_clue
from gridsolve.nonogram.model import FILLED, Grid, Puzzle, clue_of, puzzle_from_grid
from gridsolve.nonogram.reference import brute_force_line, leftmost, rightmost

from tests.nonogram.watch.test_trace import pictures


def replay(puzzle: Puzzle, grid_steps: list[tuple[int, str]]) -> Grid:
    cells = ["?"] * (puzzle.width * puzzle.height)
    for cell, value in grid_steps:
        cells[cell] = value
    w = puzzle.width
    return tuple("".join(cells[i:i + w]) for i in range(0, len(cells), w))


def check_account(puzzle: Puzzle) -> None:
    """Each line step forces only what brute force forces, from the line as it then stood."""
    account = explain(puzzle)
    cells = ["?"] * (puzzle.width * puzzle.height)
    for d in account.deductions:
        if d.kind == "probe":
            assert cells[d.cell] == "?"
            cells[d.cell] = d.value
            continue
        where = line_cells(puzzle, d.line)
        assert d.before == "".join(cells[i] for i in where)
        truth = brute_force_line(line_clue(puzzle, d.line), d.before)
        if d.kind == "contradiction":
            assert truth is None
            continue
        assert truth is not None and d.forced
        for f in d.forced:
            assert d.before[f.pos] == "?" and truth[f.pos] == f.value == d.after[f.pos]
            cells[where[f.pos]] = f.value
    w = puzzle.width
    assert tuple("".join(cells[i:i + w]) for i in range(0, len(cells), w)) == account.grid
    result = analyse(puzzle, 2, implications=False, team=False)  # explain's single-cell probing
    assert account.status == result.status
    if account.line_solvable or "?" not in "".join(account.grid):
        assert account.status == "unique" and account.grid == result.solutions[0]
    else:
        assert account.grid == result.partial or account.status == "none"


@settings(max_examples=80, deadline=None)
@given(pictures(8))
def test_every_forced_cell_is_right_and_the_steps_reach_the_grid(grid: Grid) -> None:
    check_account(puzzle_from_grid(grid))


def test_line_solvable_pictures_are_solved_by_the_account() -> None:
    rng = random.Random(7)
    solved = 0
    for _ in range(60):
        w, h = rng.randint(3, 10), rng.randint(3, 10)
        grid = tuple("".join(rng.choice("##.") for _ in range(w)) for _ in range(h))
        account = explain(puzzle_from_grid(grid))
        if account.line_solvable:
            solved += 1
            assert account.grid == grid
    assert solved > 10


def test_a_puzzle_that_needs_probing_says_so() -> None:
    puzzle = puzzle_from_grid(("##...", ".##.#", "..#..", "##..."))
    account = explain(puzzle)
    probes = [d for d in account.deductions if d.kind == "probe"]
    assert probes and probes[0].cell == 0 and probes[0].contradiction
    assert not account.line_solvable and account.grid == ("##...", ".##.#", "..#..", "##...")
    check_account(puzzle)


def test_contradiction_is_reported() -> None:
    account = explain(Puzzle([[1, 1], []], [[1], [1], []]))
    assert account.deductions[-1].kind == "contradiction" and account.status == "none"


@settings(max_examples=300, deadline=None)
@given(st.text("#.?", min_size=1, max_size=12), st.data())
def test_extremes_match_the_reference(line: str, data: st.DataObject) -> None:
    solution = "".join(data.draw(st.sampled_from("#.")) for _ in line)
    clue = clue_of(solution)
    got = extremes(clue, line)
    left, right = leftmost(clue, line), rightmost(clue, line)
    assert got == (None if left is None else (left, right))


def test_reasons_name_the_overlap_and_the_unreachable_cells() -> None:
    reasons = line_reasons((3, 1), "?????", "###.#")
    assert [f.pos for f in reasons] == [0, 1, 2, 3, 4]
    assert reasons[0].reason == ("the first block (3) covers it in both its leftmost (1-3) "
                                 "and rightmost (1-3) placements")
    assert reasons[3].reason.startswith("no block can reach it")
    partial = line_reasons((3,), "?????", "??#??")
    assert [(f.pos, f.value) for f in partial] == [(2, FILLED)]
    assert "leftmost (1-3) and rightmost (3-5)" in partial[0].reason
    beside = line_reasons((1, 1), "??#??", "?.#.?")
    assert beside[0].reason == ("it borders the filled cell 3, already a whole block "
                                "(every block that can hold it is 1 long)")
    gap = line_reasons((2,), "??.?.??", "??...??")
    assert gap[0].reason == "the gap 4 is too short for every block that can reach it (2)"
    fallback = line_reasons((2, 1), "???#??", "???#.?")
    assert fallback[0].reason == "every arrangement of the clue that fits the known cells agrees"


def test_the_timeout_bounds_the_whole_account(monkeypatch: pytest.MonkeyPatch) -> None:
    """The timeout bounds the account, not only the engine's search: past it the account
    stops where it is (line logic ran for minutes and to 19 GB on a row of 100,000 cells
    under --timeout 3), in a line's compiled solve too."""
    import gridsolve.nonogram.watch.explain as explain_module
    from gridsolve.nonogram.engine import SearchLimits
    from gridsolve.nonogram.watch.account import explanation_lines

    puzzle = puzzle_from_grid(("##...", ".##.#", "..#..", "##..."))
    stopped = explain(puzzle, SearchLimits(timeout=0.0))
    assert stopped.stopped and stopped.status == "unknown" and not stopped.deductions
    assert stopped.grid == ("?????",) * 4
    ending = explanation_lines(stopped, lambda grid: "")[-3]
    assert ending == "The time limit came first: the account stops here, with 20 of 20 cells unknown."
    full = explain(puzzle, SearchLimits(timeout=30))
    assert not full.stopped and full.status == "unique"
    solved: list[float | None] = []

    def late(clue: tuple[int, ...], line: str, until: float | None = None) -> str | None:
        solved.append(until)
        raise LimitReached("the time limit came before the line was solved")

    monkeypatch.setattr(explain_module, "fast_line", late)
    halted = explain(puzzle, SearchLimits(timeout=5))
    assert halted.stopped and halted.status == "unknown" and not halted.deductions
    assert solved and solved[0] is not None  # the solve was given the deadline


def test_a_line_too_long_to_explain_gets_the_whole_line_reason(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Named rules are plain-Python tables of cells times blocks: past REASONS_MAX_WORK every
    cell the line's solve settles gets the whole-line reason."""
    import gridsolve.nonogram.watch.deductions as deductions_module
    from gridsolve.nonogram.watch.explain import AGREE, Forced

    named = line_reasons((3, 1), "?????", "###.#")
    assert any(f.reason != AGREE for f in named)
    monkeypatch.setattr(deductions_module, "REASONS_MAX_WORK", 14)  # 5 cells x 3 = 15
    assert line_reasons((3, 1), "?????", "###.#") == tuple(
        Forced(f.pos, f.value, AGREE) for f in named)
    check_account(puzzle_from_grid(("###.#", "#...#", ".#.#.")))
