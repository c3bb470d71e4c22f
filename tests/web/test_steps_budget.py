"""Issue 53: the steps a solve records are bounded in bytes as well as in number.

One step of a big grid can change tens of thousands of cells: 50,000 steps of a 200x200
checkerboard held 0.4-0.8 GB in the server, for good.
"""

from __future__ import annotations

import random

from gridsolve.nonogram.model import puzzle_from_grid
from gridsolve.nonogram.watch.trace import step_bytes, trace_solve
from gridsolve.web import WebLimits
from gridsolve.web.payloads import solve_payload

RNG = random.Random(25)
GRID = ["".join(RNG.choice("#.") for _ in range(25)) for _ in range(25)]
PUZZLE = puzzle_from_grid(GRID)


def test_the_recorder_stops_at_its_byte_budget_and_keeps_a_prefix() -> None:
    _, whole = trace_solve(PUZZLE, 2)
    total = sum(map(step_bytes, whole.steps))
    budget = total // 3
    result, cut = trace_solve(PUZZLE, 2, max_bytes=budget)
    assert whole.complete and not cut.complete
    assert 0 < sum(map(step_bytes, cut.steps)) <= budget
    assert cut.steps == whole.steps[:len(cut.steps)]  # no gaps: what is kept is the beginning
    assert result.status == "multiple"  # the solve itself goes on to its answer
    assert sum(map(step_bytes, whole.steps[:len(cut.steps) + 1])) > budget


def test_a_step_counts_its_changed_cells() -> None:
    _, trace = trace_solve(PUZZLE, 2)
    big = max(trace.steps, key=lambda s: len(s.changes))
    assert step_bytes(big) >= 96 * len(big.changes) > 0


def test_the_solve_payload_keeps_steps_within_the_server_budget() -> None:
    out = solve_payload(PUZZLE, WebLimits(max_step_bytes=20_000), True)
    assert out["status"] == "multiple" and out["complete"] is False and out["steps"]
    assert sum(200 + 96 * len(s["cells"]) for s in out["steps"]) <= 20_000
    whole = solve_payload(PUZZLE, WebLimits(), True)
    assert whole["complete"] is True and len(whole["steps"]) > len(out["steps"])
