"""The live progress line of a long solve: on a terminal only, from the search's own counts."""

from __future__ import annotations

import io
import time

import pytest

from gridsolve.cli._progress import line, shown
from gridsolve.nonogram.backends import analyse
from gridsolve.nonogram.engine import Progress, SearchLimits
from gridsolve.nonogram.model import Puzzle


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_line_says_nodes_solutions_time_and_phase() -> None:
    text = line(Progress(12345, 1, "sat"), 3.24, 26.6)
    assert text == "12,345 nodes · 1 solution found · 3.2 s, 27 s left · sat"
    assert line(Progress(0, 2), 0.0, None) == "0 nodes · 2 solutions found · 0.0 s · native"


def test_nothing_is_drawn_on_a_pipe_or_with_json() -> None:
    pipe = io.StringIO()
    with shown(True, 10.0, pipe) as progress:
        assert progress is None
    with shown(False, 10.0, _Terminal()) as progress:
        assert progress is None
    assert pipe.getvalue() == ""


def test_a_terminal_gets_a_progress_the_search_fills_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search writes its nodes and solutions into the Progress it is given (this would
    stay at 0 if no worker told it), and the line is drawn while the block runs."""
    import gridsolve.cli._progress as module
    monkeypatch.setattr(module, "DELAY", 0.0)  # (a display constant, not the search's)
    term = _Terminal()
    # a 12x12 with several solutions: the team's turns tell the progress as they go
    rows = cols = ((1, 1),) * 12
    puzzle = Puzzle(rows, cols)
    with shown(True, 30.0, term) as progress:
        assert progress is not None
        result = analyse(puzzle, 2, SearchLimits(timeout=30), "native", progress=progress)
        time.sleep(0.3)
    assert progress.nodes > 0 and progress.solutions == len(result.solutions) == 2
    assert "nodes" in term.getvalue()
