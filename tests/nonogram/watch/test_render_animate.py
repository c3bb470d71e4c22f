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


def test_a_large_puzzle_gets_smaller_cells_then_a_refusal() -> None:
    """Pictures keep to a pixel budget (found by a fuzz audit: a 1000x1000 PNG was 455
    million pixels, and its GIF held 300 such frames): cells shrink to MIN_CELL, past which
    the picture is refused in one line."""
    from gridsolve.errors import GridsolveError
    from gridsolve.nonogram.render.layout import MIN_CELL, fitted_layout, layout
    puzzle = puzzle_from_grid(tuple(("#." * 100)[:200] for _ in range(200)))
    assert layout(puzzle, 20).width * layout(puzzle, 20).height > 4_000_000
    lay = fitted_layout(puzzle, 20, 4_000_000)
    assert lay.width * lay.height <= 4_000_000 and MIN_CELL <= lay.cell < 20
    assert layout(puzzle, lay.cell + 1).width * layout(puzzle, lay.cell + 1).height > 4_000_000
    assert fitted_layout(TWO, 20, 4_000_000).cell == 20
    with pytest.raises(GridsolveError, match="over 10,000 even with 3-pixel cells"):
        fitted_layout(puzzle, 20, 10_000)


def test_a_gif_keeps_to_its_pixel_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("PIL")
    from PIL import Image

    import gridsolve.nonogram.watch.animate as animate
    puzzle = puzzle_from_grid(("#..#.", ".##..", "#...#", "..#.#", ".#.#."))
    _, trace = trace_solve(puzzle, 2)
    assert len(trace.steps) > 8
    path = tmp_path / "a.gif"
    monkeypatch.setattr(animate, "GIF_PIXELS", 1)        # fewer frames: the floor is two
    write_gif(str(path), puzzle, trace.steps)
    with Image.open(path) as img:
        assert getattr(img, "n_frames", 1) == 2
    monkeypatch.setattr(animate, "GIF_PIXELS", 10**9)
    monkeypatch.setattr(animate, "MAX_FRAME_PIXELS", 100_000)  # smaller cells
    write_gif(str(path), puzzle, trace.steps)
    with Image.open(path) as img:
        assert img.size[0] * img.size[1] <= 100_000           # the caption band included
        assert img.size[1] < 100_000 // 900 + 1                # (the budget takes it 900 wide)
    from gridsolve.errors import GridsolveError
    monkeypatch.setattr(animate, "MAX_FRAME_PIXELS", 1_000)
    with pytest.raises(GridsolveError, match="write an .html animation instead"):
        write_gif(str(path), puzzle, trace.steps)


def test_a_gif_wider_than_the_format_allows_is_refused() -> None:
    """A GIF's width and height are 16-bit numbers: a long row's frame, under the pixel budget
    but 77,764 pixels wide, is refused in one line (Pillow failed writing it with an
    OverflowError, after the whole solve)."""
    from gridsolve.errors import GridsolveError
    from gridsolve.nonogram.watch.animate import GIF_MAX_SIDE, gif_layout
    wide = puzzle_from_grid((("#." * 4000),))
    with pytest.raises(GridsolveError, match="over the 65,535 a side a GIF can have"):
        gif_layout(wide)
    lay = gif_layout(puzzle_from_grid((("#." * 1000),)))
    assert lay.width <= GIF_MAX_SIDE


def test_a_long_line_step_has_a_one_line_caption() -> None:
    """A caption quotes the first blocks of a long clue and the first of many cells, with the
    counts (a 100,000-cell row's captions held its whole clue and every cell)."""
    from gridsolve.nonogram.watch.frames import CAPTION_CHANGES, caption
    from gridsolve.nonogram.watch.trace import Step
    puzzle = puzzle_from_grid(("#." * 500,))
    every = Step("line", tuple((i, "#." [i % 2]) for i in range(1000)), line=0, round=1)
    text = caption(puzzle, every)
    assert text.startswith("round 1: row 1 (clue 1 1 1 1 1 1 1 1 1 1 1 1 ... (500 blocks)): "
                           "filled 1, 3, 5,")
    assert text.endswith(" ... (1000 cells)") and len(text) < CAPTION_CHANGES + 100
    few = Step("line", ((4, "#"), (5, ".")), line=0, round=2)
    assert caption(puzzle, few).endswith("): filled 5; empty 6")


def test_the_html_player_stops_at_its_cell_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each step lists every cell highlighted then, so a deep search's steps can hold millions
    (a 100x100 checkerboard's page did not end): past PLAYER_CELLS highlighted and changed
    cells the player stops, keeps the steps before, and says where it stopped."""
    from gridsolve.nonogram.watch import player
    grid = tuple("".join("#."[(r + c) % 2] for c in range(8)) for r in range(8))
    puzzle = puzzle_from_grid(grid)  # a checkerboard: many solutions, guesses held deep
    _, trace = trace_solve(puzzle, 50)
    whole = player.player_data(puzzle, trace.steps)
    cells = [len(s[1]) // 3 + len(s[2]) // 2 for s in whole["steps"]]
    assert whole["note"] == "" and len(whole["steps"]) == len(trace.steps)
    budget = sum(cells) // 2
    monkeypatch.setattr(player, "PLAYER_CELLS", budget)
    cut = player.player_data(puzzle, trace.steps)
    kept = len(cut["steps"])
    assert sum(cells[:kept]) <= budget < sum(cells[:kept + 1])
    assert cut["steps"] == whole["steps"][:kept]
    assert cut["note"] == (f" (the player stops at step {kept:,} of {len(trace.steps):,}: the "
                           f"steps' highlighted cells passed {budget:,})")
