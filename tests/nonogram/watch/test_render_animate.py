"""Animation frames: each kind of step is marked its own way; GIFs keep to their frame budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridsolve.nonogram.model import puzzle_from_grid
from gridsolve.nonogram.watch.animate import pick, write_gif
from gridsolve.nonogram.watch.frames import frames
from gridsolve.nonogram.watch.trace import trace_solve

TWO = puzzle_from_grid(("#.", ".#"))


def test_pick_spreads_and_keeps_the_ends() -> None:
    assert pick(5, 10) == [0, 1, 2, 3, 4]
    got = pick(1000, 7)
    assert got[0] == 0 and got[-1] == 999 and len(got) == 7


def test_frames_mark_each_kind() -> None:
    _, trace = trace_solve(TWO, 2)
    seen: dict[str, set[str]] = {}
    for step, frame in zip(trace.steps, frames(TWO, trace.steps)):
        seen.setdefault(step.kind, set()).update(frame.marks.values())
        if step.kind == "try":
            assert frame.marks[step.cell] == "probe"
        if step.kind == "guess":
            assert frame.marks[step.cell] == "guess"
            assert frame.caption.startswith(f"guess (depth {step.depth})")
        if step.kind in ("retract", "backtrack") and step.changes:
            assert {frame.marks[c] for c, _ in step.changes} == {"undone"}
    assert {"probe", "guess", "undone", "changed"} <= set().union(*seen.values())


def test_gif_keeps_to_its_frame_budget(tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    from PIL import Image
    _, trace = trace_solve(TWO, 2)
    assert len(trace.steps) > 12
    path = tmp_path / "a.gif"
    write_gif(str(path), TWO, trace.steps, max_frames=12)
    with Image.open(path) as img:
        assert getattr(img, "n_frames", 1) == 12
