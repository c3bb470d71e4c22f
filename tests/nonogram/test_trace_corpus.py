"""The trace on tournament puzzles (slow; needs the shared corpora): replays stay exact."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.model import Puzzle
from gridsolve.nonogram.trace import trace_solve


def tournament(path: Path, count: int) -> list[Puzzle]:
    """The first puzzles of a tournament file: '$n', 25 column clues then 25 row clues."""
    lines = path.read_text().splitlines()
    out = []
    for start in range(0, len(lines), 51):
        if len(out) == count or start + 51 > len(lines):
            break
        clues = [[int(x) for x in line.split()] or [0] for line in lines[start + 1:start + 51]]
        out.append(Puzzle(clues[25:], clues[:25]))
    return out


@pytest.mark.slow
def test_trace_replays_tournament_puzzles(puzzles_dir: Path) -> None:
    path = puzzles_dir / "nonogramrecord-tournaments" / "question" / "taai2011.txt"
    for puzzle in tournament(path, 8):
        result, trace = trace_solve(puzzle, 2, SearchLimits(max_nodes=3000))
        solutions = tuple(grid for step, grid in trace.grids() if step.kind == "solution")
        assert solutions == result.solutions
        if result.status in ("unique", "none"):
            assert trace.final() == result.partial
        elif result.status == "multiple":
            assert trace.final() == result.solutions[-1]
