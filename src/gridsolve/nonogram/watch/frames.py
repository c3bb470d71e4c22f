"""The frames of a solve's animation: grid, highlighted cells and a caption for each step.

Colours tell the kinds apart: blue for cells a line just fixed, orange for a probe's
tentative cells (until it is retracted), green for a cell learned by probing, red for cells
guessed (while the guess holds), pink for cells just undone by a retraction or backtrack.
"""

from __future__ import annotations

from collections.abc import Container, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gridsolve.nonogram.lines import VALUE_WORD, cell_label, line_clue, line_label
from gridsolve.nonogram.model import UNKNOWN, Grid, Puzzle, clue_shown
from gridsolve.nonogram.watch.steps import line_change_text, plural

if TYPE_CHECKING:
    from gridsolve.nonogram.watch.trace import Step

__all__ = ["Frame", "frames", "caption", "MARKS", "CAPTION_CHANGES"]

#: highlight kinds, in the order the HTML player numbers them
MARKS = ("changed", "probe", "learned", "guess", "undone")
#: A line step's caption names at most this many characters of its cells, and of its clue the
#: first blocks (``clue_shown``): a caption is one line under the picture (a 100,000-cell
#: row's steps were captioned with its whole clue and every cell, 100 KB each).
CAPTION_CHANGES = 120


@dataclass(frozen=True)
class Frame:
    """The picture after one step: cell values, highlights (cell -> mark kind), a caption."""

    grid: Grid
    changes: tuple[tuple[int, str, str], ...]  # (cell, old value, new value)
    marks: dict[int, str]
    caption: str


def caption(puzzle: Puzzle, step: Step) -> str:
    """One sentence saying what a step did."""
    where = cell_label(puzzle, step.cell) if step.cell >= 0 else ""
    value = VALUE_WORD.get(step.value, "")
    if step.kind == "line":
        changed = line_change_text(puzzle, step.line, step.changes)
        if len(changed) > CAPTION_CHANGES:
            changed = (f"{changed[:CAPTION_CHANGES].rsplit(' ', 1)[0].rstrip(',;')} ... "
                       f"({plural(len(step.changes), 'cell')})")
        clue = clue_shown(map(str, line_clue(puzzle, step.line)))
        text = f"{line_label(puzzle, step.line)} (clue {clue}): {changed}"
        return f"probe consequence: {text}" if step.probing else f"round {step.round}: {text}"
    if step.kind == "try":
        return f"probe: suppose {where} is {value}"
    if step.kind == "retract":
        if step.contradiction:
            return f"probe {where} = {value} leads to a contradiction"
        return f"probe {where} = {value} retracted"
    if step.kind == "learn":
        return f"learned by probing: {where} is {value}"
    if step.kind == "guess":
        return f"guess (depth {step.depth}): {where} is {value}"
    if step.kind == "backtrack":
        return f"backtrack to depth {step.depth}: {plural(len(step.changes), 'cell')} undone"
    return "solution found"


def frames(puzzle: Puzzle, steps: Sequence[Step], grids: Container[int] | None = None,
           only: Container[int] | None = None) -> Iterator[Frame]:
    """One frame per step, replaying the steps from the blank grid.

    ``grids`` (if given) names the steps whose frames need the whole grid; the others carry
    an empty grid, which keeps long replays cheap. ``only`` (if given) names the steps whose
    frames are wanted: the others are replayed but not made (a GIF shows 300 of 100,000)."""
    w = puzzle.width
    cells = [UNKNOWN] * (w * puzzle.height)
    tentative: set[int] = set()
    guessed: list[set[int]] = []
    for index, step in enumerate(steps):
        wanted = only is None or index in only
        changes: tuple[tuple[int, str, str], ...] = ()
        if wanted:
            changes = tuple((cell, cells[cell], value) for cell, value in step.changes)
        for cell, value in step.changes:
            cells[cell] = value
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
        if not wanted:
            continue
        for g in guessed:
            marks.update((cell, "guess") for cell in g)
        marks.update((cell, "probe") for cell in tentative)
        if step.kind == "line" and not step.probing:
            marks.update((cell, "changed") for cell, _ in step.changes)
        elif step.kind == "learn":
            marks[step.cell] = "learned"
        grid: Grid = ()
        if grids is None or index in grids:
            grid = tuple("".join(cells[i:i + w]) for i in range(0, len(cells), w))
        yield Frame(grid, changes, marks, caption(puzzle, step))
