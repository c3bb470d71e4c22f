"""hint on magazine puzzles (janko.at, from ../shared/puzzles; slow): played from the empty
board by hints alone, every step agrees with the stored solution, names its line and clue,
and a wrong cell set on the way is named as the mistake."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gridsolve.nonogram.formats import bw_only, iter_entries
from gridsolve.nonogram.hints import apply_hint, hint
from gridsolve.nonogram.lines import clue_text, line_label
from gridsolve.nonogram.reference import solve_line
from tests.nonogram.cases import bw_clue

pytestmark = pytest.mark.slow


def test_janko_puzzles_play_to_their_solution_by_hints(puzzles_dir: Path) -> None:
    entries = list(iter_entries(str(puzzles_dir / "puzzlekit-janko" / "Nonogram_dataset.json")))
    rng = random.Random(23)
    kinds: set[str] = set()
    played = 0
    for entry in entries[::97]:
        puzzle, goal = bw_only(entry.puzzle, "this test"), entry.goal
        if goal is None or puzzle.width * puzzle.height > 900:
            continue
        flat = "".join(goal)
        grid = tuple("?" * puzzle.width for _ in range(puzzle.height))
        mistake_at = rng.randrange(1, 10)
        for turn in range(puzzle.width * puzzle.height + 1):
            step = hint(puzzle, grid)
            kinds.add(step.kind)
            if step.kind == "solved":
                assert "".join(grid) == flat
                break
            assert step.kind in ("line", "whole-line", "contradiction", "guess"), step
            assert all(flat[c] == v for c, v in step.cells), (entry.label, step)
            if step.kind != "guess":
                name = f"{line_label(puzzle, step.line)} (clue {clue_text(bw_clue(step.clue))})"
                assert name in step.reason
            if turn == mistake_at:  # one wrong cell: named, and nothing else
                cell = next(c for c, x in enumerate("".join(grid)) if x == "?")
                wrong = apply_hint(grid, type(step)("line", "", ((cell, "." if flat[cell] == "#"
                                                                   else "#"),)))
                found = hint(puzzle, wrong)
                assert found.kind == "mistake" and found.wrong == (cell,)
            grid = apply_hint(grid, step)
        else:
            raise AssertionError(f"{entry.label}: the hints did not finish it")
        assert all(solve_line(puzzle.rows[r], row) is not None for r, row in enumerate(grid))
        played += 1
    assert played >= 15
    assert {"line", "solved"} <= kinds
