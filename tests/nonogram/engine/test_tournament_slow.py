"""Slow: the engine on 100 tournament puzzles, against the solutions shipped with them."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridsolve.nonogram.engine import SearchLimits, analyse
from gridsolve.nonogram.formats import iter_entries
from gridsolve.nonogram.model import is_any_solution


@pytest.mark.slow
def test_100_tournament_puzzles_match_shipped_solutions(puzzles_dir: Path) -> None:
    path = puzzles_dir / "nonogramrecord-tournaments/question/taai2011.txt"
    entries = list(iter_entries(str(path)))[:100]
    assert len(entries) == 100
    for e in entries:
        assert e.goal is not None and is_any_solution(e.puzzle, e.goal)
        result = analyse(e.puzzle, 2, SearchLimits(timeout=60))
        assert result.status in ("unique", "multiple"), e.label
        assert all(is_any_solution(e.puzzle, s) for s in result.solutions)
        if result.status == "unique":
            assert result.solutions == (e.goal,), e.label
        else:  # the shipped goal is a solution too; ours are two different ones
            assert len(set(result.solutions)) == 2
        # every cell the engine proved at the root agrees with the shipped solution
        for proven, goal in zip(result.partial, e.goal):
            assert all(p in ("?", g) for p, g in zip(proven, goal)), e.label
