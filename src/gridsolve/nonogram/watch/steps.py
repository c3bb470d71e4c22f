"""``--steps``: the story of a solve as text, printed while it happens.

Rounds of line logic (each line with its clue and the cells it fixed, then the grid after the
round while the solve is still pure line logic, on puzzles of up to ROUND_GRID_CELLS cells),
probes that taught something, guesses and backtracks indented by depth, and a closing count
of everything. A colour puzzle's steps name its colours ('red 2-4; empty 1, 5'; a branch that
takes a colour away: 'guess r3c4 = not red').
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import IO, TYPE_CHECKING

from gridsolve.nonogram.lines import VALUE_WORD, cell_label, clue_text, line_label, spans
from gridsolve.nonogram.model import UNKNOWN, AnyPuzzle, Grid, palette_of

if TYPE_CHECKING:
    from gridsolve.nonogram.watch.trace import Step

__all__ = ["StepPrinter", "line_change_text", "plural", "CLUE_COLUMN", "ROUND_GRID_CELLS"]

#: The clue column of a line step is as wide as the widest clue, up to this many characters; a
#: longer clue pushes its own line's cells right. (Padded to a 100,000-cell row's clue, the
#: 100,000 one-cell columns of that puzzle printed 5 GB.)
CLUE_COLUMN = 40
#: The grid follows each round of pure line logic on puzzles of at most this many cells (a
#: 1000x1000 grid is 2 MB of text a round); a larger one is shown once, at the end.
ROUND_GRID_CELLS = 10_000


def line_change_text(puzzle: AnyPuzzle, line: int, changes: tuple[tuple[int, str], ...]) -> str:
    """'filled 2-4; empty 1, 5' (colour: 'red 2-4; empty 1, 5'): the cells a line step fixed,
    by position along the line."""
    w = puzzle.width
    words = value_words(puzzle)
    parts = []
    for value, word in words.items():  # a cell's place along a row is its column, along a
        pos = [cell % w if line < puzzle.height else cell // w  # column its row
               for cell, v in changes if v == value]
        if pos:
            parts.append(f"{word} {spans(pos)}")
    return "; ".join(parts)


def value_words(puzzle: AnyPuzzle) -> dict[str, str]:
    """The word of each value a step sets, painted ones first: 'filled', 'empty' (colour: each
    colour's name, then 'empty' for the background)."""
    palette = palette_of(puzzle)
    if palette is None:
        return {"#": VALUE_WORD["#"], ".": VALUE_WORD["."]}
    return {c.symbol: c.name for c in palette[1:]} | {palette[0].symbol: VALUE_WORD["."]}


def _clue_text(puzzle: AnyPuzzle, line: int) -> str:
    """A line's clue as the steps show it ('3 1'; colour: '3r 1w')."""
    clue = puzzle.rows[line] if line < puzzle.height else puzzle.cols[line - puzzle.height]
    palette = palette_of(puzzle)
    if palette is None:
        return clue_text(clue)  # type: ignore[arg-type]
    return " ".join(f"{n}{palette[c].symbol}" for n, c in clue) or "0"  # type: ignore[misc]


def plural(n: int, word: str, words: str | None = None) -> str:
    """'1 cell', '2 cells'."""
    return f"{n} {word if n == 1 else words or word + 's'}"


class StepPrinter:
    """A trace listener that prints each step worth reading (probe internals are only counted)."""

    def __init__(self, puzzle: AnyPuzzle, out: IO[str], show_grid: Callable[[Grid], None]) -> None:
        self.puzzle = puzzle
        self.out = out
        self.show_grid = show_grid
        self.cells = [UNKNOWN] * (puzzle.width * puzzle.height)
        self.counts: Counter[str] = Counter()
        self.round = self.round_depth = 0
        self.round_lines = self.round_cells = 0
        self.start_rounds = 0
        self.pure = True  # no probe or guess yet: show the grid after each round
        self.refuted: tuple[int, str] | None = None
        self.probed = -1  # the cell of the last probe
        self.label_width = len(line_label(puzzle, puzzle.height)) + 2
        self.clue_width = min(CLUE_COLUMN, max(len(_clue_text(puzzle, i))
                                               for i in range(puzzle.width + puzzle.height)))
        self.words = value_words(puzzle)
        self.colour = palette_of(puzzle) is not None

    def _say(self, text: str, depth: int = 0) -> None:
        print("  " * depth + text, file=self.out)

    def grid(self) -> Grid:
        """The grid as the printer has followed it."""
        w = self.puzzle.width
        return tuple("".join(self.cells[i:i + w]) for i in range(0, len(self.cells), w))

    def __call__(self, step: Step) -> None:
        if not (step.kind == "line" and (step.probing or step.round == self.round)):
            self._end_round()
        for cell, value in step.changes:
            self.cells[cell] = value
        if step.kind == "line":
            if not step.probing:
                self._line(step)
            return
        self.counts[step.kind] += 1
        where = cell_label(self.puzzle, step.cell) if step.cell >= 0 else ""
        value = self.words.get(step.value, "")
        if step.kind == "try":
            self.pure = False
        elif step.kind == "retract":
            self.refuted = (step.cell, step.value) if step.contradiction else None
            self.probed = step.cell
            if step.contradiction:
                self.counts["contradiction"] += 1
                self._say(f"probe {where} = {value}: contradiction", step.depth)
        elif step.kind == "learn":
            why = "the other value led to a contradiction" if self.refuted and \
                self.refuted[0] == step.cell else "both values of a probed cell force it"
            if self.colour:  # (a probe narrows its own cell only when colours failed)
                why = "its other colours led to a contradiction" if self.probed == step.cell \
                    else "every colour of a probed cell forces it"
            self._say(f"learned {where} = {value} ({why})", step.depth)
        elif step.kind == "guess":
            self.pure = False
            if step.excluded:  # (a colour branch that takes one colour away)
                gone = f"not {self.words[step.excluded]}"
                value = f"{value} ({gone})" if value else gone
            self._say(f"guess {where} = {value} (depth {step.depth})", step.depth - 1)
        elif step.kind == "backtrack":
            self._say(f"backtrack from depth {step.depth + 1}: "
                      f"{plural(len(step.changes), 'cell')} undone", step.depth)
        elif step.kind == "solution":
            self._say(f"solution {self.counts['solution']} found", step.depth)

    def _line(self, step: Step) -> None:
        self.counts["line"] += 1
        self.counts["line cell"] += len(step.changes)
        if step.round != self.round:
            self.round, self.round_depth = step.round, step.depth
            if self.pure:
                self.start_rounds = step.round
            self._say(f"round {step.round}", step.depth)
        self.round_lines += 1
        self.round_cells += len(step.changes)
        label = line_label(self.puzzle, step.line)
        clue = _clue_text(self.puzzle, step.line)
        change = (line_change_text(self.puzzle, step.line, step.changes) if step.changes
                  else "colours taken away, no cell settled")  # (colour: narrowed only)
        self._say(f"  {label:<{self.label_width}}{clue:<{self.clue_width}}  {change}",
                  step.depth)

    def _end_round(self) -> None:
        if not self.round:
            return
        known = sum(c != UNKNOWN for c in self.cells)
        self._say(f"  round {self.round}: {plural(self.round_lines, 'line')} fixed "
                  f"{plural(self.round_cells, 'cell')}; {known} of {len(self.cells)} cells known",
                  self.round_depth)
        if self.pure and len(self.cells) <= ROUND_GRID_CELLS:
            self.show_grid(self.grid())
            print(file=self.out)
        self.round = self.round_lines = self.round_cells = 0

    def finish(self) -> None:
        """Close the last round and print the counts."""
        self._end_round()
        c = self.counts
        self._say(f"summary: {plural(self.start_rounds, 'round')} of line logic at the start, "
                  f"{plural(c['line'], 'line step')} fixing {plural(c['line cell'], 'cell')} in all,")
        self._say(f"{plural(c['retract'], 'probe')} ({plural(c['contradiction'], 'contradiction')}, "
                  f"{plural(c['learn'], 'cell')} learned), {plural(c['guess'], 'guess', 'guesses')}, "
                  f"{plural(c['backtrack'], 'backtrack')}", 5)
        print(file=self.out)
