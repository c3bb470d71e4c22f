"""The frames of a solve's animation: grid, highlighted cells and a caption for each step.

Colours tell the kinds apart: blue for cells a line just fixed, orange for a probe's
tentative cells (until it is retracted), green for a cell learned by probing, red for cells
guessed (while the guess holds), pink for cells just undone by a retraction or backtrack.
A colour puzzle's grids hold its palette symbols, and its captions name its colours.
"""

from __future__ import annotations

from collections.abc import Container, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gridsolve.nonogram.lines import VALUE_WORD, cell_label, line_clue, line_label
from gridsolve.nonogram.model import UNKNOWN, AnyPuzzle, Grid, clue_shown, palette_of
from gridsolve.nonogram.watch.steps import line_change_text, plural, value_words

if TYPE_CHECKING:
    from gridsolve.nonogram.watch.trace import Step

__all__ = ["Frame", "frames", "highlights", "HeldChange", "caption", "MARKS", "CAPTION_CHANGES"]

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


def clue_numbers(puzzle: AnyPuzzle, line: int) -> list[str]:
    """A line's clue numbers as a caption shows them ('3', '1'; colour: '3r', '1w')."""
    palette = palette_of(puzzle)
    if palette is None:
        return list(map(str, line_clue(puzzle, line)))  # type: ignore[arg-type]
    clue = puzzle.rows[line] if line < puzzle.height else puzzle.cols[line - puzzle.height]
    return [f"{n}{palette[c].symbol}" for n, c in clue]  # type: ignore[misc]


def caption(puzzle: AnyPuzzle, step: Step) -> str:
    """One sentence saying what a step did."""
    where = cell_label(puzzle, step.cell) if step.cell >= 0 else ""
    colour = palette_of(puzzle) is not None
    words = value_words(puzzle) if colour else VALUE_WORD
    value = words.get(step.value, "")
    if step.kind == "line":
        changed = line_change_text(puzzle, step.line, step.changes)
        if colour and not step.changes:
            changed = "colours taken away, no cell settled"
        if len(changed) > CAPTION_CHANGES:
            changed = (f"{changed[:CAPTION_CHANGES].rsplit(' ', 1)[0].rstrip(',;')} ... "
                       f"({plural(len(step.changes), 'cell')})")
        clue = clue_shown(clue_numbers(puzzle, step.line))
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
        if step.excluded:  # (a colour branch that takes one colour away)
            gone = f"not {words.get(step.excluded, step.excluded)}"
            value = f"{value} ({gone})" if value else gone
        return f"guess (depth {step.depth}): {where} is {value}"
    if step.kind == "backtrack":
        return f"backtrack to depth {step.depth}: {plural(len(step.changes), 'cell')} undone"
    return "solution found"


#: A cell's highlight as a step leaves it held: (cell, before, after), None for none.
HeldChange = tuple[int, "str | None", "str | None"]


def highlights(steps: Sequence[Step]) -> Iterator[tuple[list[HeldChange], dict[int, str],
                                                         dict[int, str]]]:
    """For each step, how its highlights change: the held ones as changes (a guess stays red
    while it holds, a probe's cells orange until it is retracted), the step's own (cells a
    line fixed, a learned cell, cells undone) as they are, and the held ones after the step
    (this generator's own dict, changed at the next step: read it, do not keep or change
    it). A step's highlights are its own over the held ones. As changes they cost what the
    steps do (each step listing every held cell made a deep search's steps quadratic)."""
    tentative: set[int] = set()  # the cells of the probe under way
    guessed: list[set[int]] = []  # the guessed cells of each depth on the path
    depth_of: dict[int, int] = {}  # a guessed cell -> its index in guessed
    held: dict[int, str] = {}

    def drop(first: int) -> set[int]:
        """Forget the guesses from index ``first`` on; their cells."""
        gone = set().union(*guessed[first:])
        for cell in gone:
            del depth_of[cell]
        del guessed[first:]
        return gone

    for step in steps:
        own: dict[int, str] = {}
        touched: set[int] = set()
        if step.kind in ("retract", "backtrack"):
            undone = {cell for cell, _ in step.changes}
            touched = tentative | drop(step.depth) | undone
            tentative = set()
            for cell in undone & depth_of.keys():
                guessed[depth_of.pop(cell)].discard(cell)
            own = dict.fromkeys(undone, "undone")
        elif step.kind == "try" or (step.kind == "line" and step.probing):
            touched = {cell for cell, _ in step.changes}
            tentative |= touched
        elif step.kind == "guess":
            touched = drop(max(0, step.depth - 1)) | {step.cell}
            guessed.append({step.cell})
            depth_of[step.cell] = len(guessed) - 1
        if step.kind == "line" and not step.probing:
            own = dict.fromkeys((cell for cell, _ in step.changes), "changed")
        elif step.kind == "learn":
            own = {step.cell: "learned"}
        changed: list[HeldChange] = []
        for cell in touched:
            now = "probe" if cell in tentative else "guess" if cell in depth_of else None
            before = held.get(cell)
            if now != before:
                changed.append((cell, before, now))
                if now is None:
                    del held[cell]
                else:
                    held[cell] = now
        yield changed, own, held


def frames(puzzle: AnyPuzzle, steps: Sequence[Step], grids: Container[int] | None = None,
           only: Container[int] | None = None) -> Iterator[Frame]:
    """One frame per step, replaying the steps from the blank grid.

    ``grids`` (if given) names the steps whose frames need the whole grid; the others carry
    an empty grid, which keeps long replays cheap. ``only`` (if given) names the steps whose
    frames are wanted: the others are replayed but not made (a GIF shows 300 of 100,000)."""
    w = puzzle.width
    cells = [UNKNOWN] * (w * puzzle.height)
    for index, (step, (_, own, held)) in enumerate(zip(steps, highlights(steps))):
        wanted = only is None or index in only
        changes: tuple[tuple[int, str, str], ...] = ()
        if wanted:
            changes = tuple((cell, cells[cell], value) for cell, value in step.changes)
        for cell, value in step.changes:
            cells[cell] = value
        if not wanted:
            continue
        marks = {**held, **own}
        grid: Grid = ()
        if grids is None or index in grids:
            grid = tuple("".join(cells[i:i + w]) for i in range(0, len(cells), w))
        yield Frame(grid, changes, marks, caption(puzzle, step))
