"""The trace on tournament puzzles (slow; needs the shared corpora): replays stay exact."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.formats import bw_only, iter_entries
from gridsolve.nonogram.model import Puzzle
from gridsolve.nonogram.watch.trace import trace_solve


def tournament(path: Path, count: int) -> list[Puzzle]:
    """The first puzzles of a tournament set."""
    return [bw_only(e.puzzle, "these tests") for e in itertools.islice(iter_entries(str(path)), count)]


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
