"""Animation frames: each kind of step is marked its own way; GIFs keep to their frame budget."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


def _marks_rebuilt(steps: list[Any]) -> list[dict[int, str]]:
    """Each step's highlights rebuilt from every held guess and probe (how frames made them
    before they were kept as changes): the reference for frames and the player."""
    tentative: set[int] = set()
    guessed: list[set[int]] = []
    out = []
    for step in steps:
        marks: dict[int, str] = {}
        if step.kind in ("retract", "backtrack"):
            tentative.clear()
            undone = {cell for cell, _ in step.changes}
            guessed = [g - undone for g in guessed[:step.depth]]
            marks.update((cell, "undone") for cell in undone)
        elif step.kind == "try" or (step.kind == "line" and step.probing):
            tentative.update(cell for cell, _ in step.changes)
        elif step.kind == "guess":
            guessed = guessed[:step.depth - 1] + [{step.cell}]
        for g in guessed:
            marks.update((cell, "guess") for cell in g)
        marks.update((cell, "probe") for cell in tentative)
        if step.kind == "line" and not step.probing:
            marks.update((cell, "changed") for cell, _ in step.changes)
        elif step.kind == "learn":
            marks[step.cell] = "learned"
        out.append(marks)
    return out


def _traces() -> list[tuple[Any, list[Any]]]:
    """Traces with probes, learned cells, deep guesses and backtracks: a checkerboard (many
    solutions), the two-solution 2x2, and random puzzles."""
    import random
    from gridsolve.nonogram.generate import random_grid
    checker = puzzle_from_grid(tuple("".join("#."[(r + c) % 2] for c in range(8))
                                     for r in range(8)))
    rng = random.Random(5)
    puzzles = [checker, TWO] + [puzzle_from_grid(random_grid(n, n, 0.5, rng))
                                for n in (6, 9, 12, 15)]
    return [(p, trace_solve(p, 50)[1].steps) for p in puzzles]


def test_frames_highlights_are_those_rebuilt_from_every_held_cell() -> None:
    """frames keeps held highlights as changes (highlights()); each frame's highlights are
    those rebuilt from all the held guesses and probes at that step."""
    kinds: set[str] = set()
    for puzzle, steps in _traces():
        got = [f.marks for f in frames(puzzle, steps, grids=())]
        assert got == _marks_rebuilt(steps)
        kinds |= {step.kind for step in steps}
    assert {"try", "retract", "learn", "guess", "backtrack", "line"} <= kinds


def _player_shows(step: list[Any], held: dict[int, int]) -> dict[int, str]:
    """The highlights the player draws after a step, with these held ones (as its script)."""
    from gridsolve.nonogram.watch.frames import MARKS
    _, cells, _, own = step
    marks = {cell: MARKS[m - 1] for cell, m in held.items() if m}
    if isinstance(own, int):  # each cell the step changed
        marks.update((cells[i], MARKS[own]) for i in range(0, len(cells), 3))
    else:
        marks.update((own[i], MARKS[own[i + 1]]) for i in range(0, len(own), 2))
    return marks


def test_the_players_held_highlights_replay_both_ways() -> None:
    """The HTML player gets each step's held highlights as changes (before and after) and its
    own highlights: replayed forward, and back from the end as its script does, each step
    shows the highlights rebuilt from every held cell."""
    from gridsolve.nonogram.watch import player
    for puzzle, steps in _traces():
        want = _marks_rebuilt(steps)
        data = player.player_data(puzzle, steps)["steps"]
        assert len(data) == len(steps)
        held: dict[int, int] = {}
        for at, (_, _, changed, _) in enumerate(data):
            for i in range(0, len(changed), 3):
                held[changed[i]] = changed[i + 2]
            assert _player_shows(data[at], held) == want[at]
        for at in range(len(data) - 1, 0, -1):  # back: step `at` undone, step at-1 shown
            changed = data[at][2]
            for i in range(len(changed) - 3, -1, -3):
                held[changed[i]] = changed[i + 1]
            assert _player_shows(data[at - 1], held) == want[at - 1]
        assert any(isinstance(step[3], int) for step in data)


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
    """Past PLAYER_CELLS entries (changed cells, changes of held highlights, steps' own
    highlights) the player stops, keeps the steps before, and says where it stopped."""
    from gridsolve.nonogram.watch import player
    grid = tuple("".join("#."[(r + c) % 2] for c in range(8)) for r in range(8))
    puzzle = puzzle_from_grid(grid)  # a checkerboard: many solutions, guesses held deep
    _, trace = trace_solve(puzzle, 50)
    whole = player.player_data(puzzle, trace.steps)
    cells = [len(s[1]) // 3 + len(s[2]) // 3 + (len(s[1]) // 3 if isinstance(s[3], int) else
                                                 len(s[3]) // 2) for s in whole["steps"]]
    assert whole["note"] == "" and len(whole["steps"]) == len(trace.steps)
    budget = sum(cells) // 2
    monkeypatch.setattr(player, "PLAYER_CELLS", budget)
    cut = player.player_data(puzzle, trace.steps)
    kept = len(cut["steps"])
    assert sum(cells[:kept]) <= budget < sum(cells[:kept + 1])
    assert cut["steps"] == whole["steps"][:kept]
    assert cut["note"] == (f" (the player stops at step {kept:,} of {len(trace.steps):,}: its "
                           f"steps' cells and highlights passed {budget:,})")
